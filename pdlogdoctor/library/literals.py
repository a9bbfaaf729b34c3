"""The words a regex's every match holds: a cheap test that tells most lines a search would fail on.

`required_words(source)` is a tuple of literal strings such that every text the regex finds a
match in holds at least one of them (None when no such short list is sure). A text that holds
none of them is answered "no match" without running the search: `word in text` costs tens of
nanoseconds, a search of the open-world error layer's markers or benign entries several
microseconds a line, and most lines a marker is tried on hold none of its words.

The pattern is read with the standard library's parser (`re._parser`, what `re.compile` reads a
pattern with). The library's regexes are compiled by the `regex` module, which reads more syntax
(POSIX classes, set operations, fuzzy matching, `\\p{..}`, version 1): whatever the standard parser
refuses or warns about gives None, as do case-insensitive and verbose patterns. Only what a match
must hold is counted (a literal run, one of a few characters, what a repeat at least once or a
positive lookaround holds), so the list errs towards None, never towards a word a match may lack.
"""

from __future__ import annotations

import re
import warnings
from collections.abc import Iterable
from functools import lru_cache
from itertools import product
from typing import Any

from ..model.lazyre import lazy_re

MAX_WORDS = 32  # more alternatives than this: the test costs what it saves
MAX_CLASS = 4  # a class of this many literal characters or fewer stands for each of them
# A word's chance to be in a line, roughly: a character 1 in 4, each further one 4 times rarer.
# It picks, of the parts a match needs all of, the one whose words are least likely present.
_RARITY = 0.25
_LOOSE_FLAGS = re.IGNORECASE | re.VERBOSE
# What `regex` reads as fuzzy matching (`{e<=1}`) and the standard parser as literal text.
_FUZZY = lazy_re(r"\{\s*(?:[eisd]|\d+\s*<)")
_REGEX_ONLY_FLAGS = ~(re.MULTILINE | re.DOTALL)  # `regex` flag values, apart from these two, differ from `re`'s

Words = frozenset[str]


@lru_cache(maxsize=4096)
def required_words(source: str, flags: int = 0) -> tuple[str, ...] | None:
    """Literal strings one of which every match of `source` holds (shortest first), or None."""
    if flags & _REGEX_ONLY_FLAGS or _FUZZY.search(source):
        return None
    parsed = _parse(source)
    if parsed is None or parsed.state.flags & _LOOSE_FLAGS:
        return None
    words = _of_sequence(list(parsed))
    if not words or "" in words:
        return None
    return tuple(sorted(_without_longer(words), key=lambda w: (len(w), w)))


def _parse(source: str) -> Any:
    try:
        from re import _parser  # type: ignore[attr-defined]
    except ImportError:  # Python < 3.11 names it sre_parse; the design card's 3.11 has _parser
        return None
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a nested set or set operation: `regex` reads it otherwise
        try:
            return _parser.parse(source, 0)
        except (re.error, Warning, RecursionError, OverflowError, ValueError):
            return None


def _of_sequence(items: list[tuple[Any, Any]]) -> Words | None:
    """A match of a sequence holds what each of its parts holds: the rarest part's words, or a
    literal run read whole (two or more characters in a row, with a small class's choices)."""
    candidates = [words for words in (_of_item(op, av) for op, av in items) if words]
    candidates.extend(_runs(items))
    fitting = [words for words in candidates if len(words) <= MAX_WORDS]
    return min(fitting, key=_chance, default=None)


def _runs(items: list[tuple[Any, Any]]) -> Iterable[Words]:
    """The literal runs of a sequence: consecutive literal characters (or small classes of them),
    each run as every string it can be."""
    run: list[Words] = []
    for op, av in [*items, (None, None)]:
        chars = _chars(op, av)
        if chars is not None:
            run.append(chars)
            continue
        if len(run) > 1:
            words = _joined(run)
            if words is not None:
                yield words
        run = []


def _joined(run: list[Words]) -> Words | None:
    size = 1
    for chars in run:
        size *= len(chars)
        if size > MAX_WORDS:
            return None
    return frozenset("".join(parts) for parts in product(*run))


def _chars(op: Any, av: Any) -> Words | None:
    """The characters one item matches when it is a literal or a small class of literals."""
    name = str(op)
    if name == "LITERAL":
        return frozenset(chr(av))
    if name == "IN":
        chars = [chr(value) for kind, value in av if str(kind) == "LITERAL"]
        if len(chars) != len(av) or not chars or len(chars) > MAX_CLASS:
            return None  # a range, a category, a negated class: too many characters
        return frozenset(chars)
    return None


def _of_item(op: Any, av: Any) -> Words | None:
    name = str(op)
    if name in ("LITERAL", "IN"):
        return _chars(op, av)
    if name == "SUBPATTERN":
        _group, add_flags, _del_flags, inner = av
        return None if add_flags & _LOOSE_FLAGS else _of_sequence(list(inner))
    if name == "ATOMIC_GROUP":
        return _of_sequence(list(av))
    if name in ("MAX_REPEAT", "MIN_REPEAT", "POSSESSIVE_REPEAT"):
        least, _most, inner = av
        return _of_sequence(list(inner)) if least >= 1 else None
    if name == "ASSERT":
        _direction, inner = av  # a positive lookahead or lookbehind: the text holds it too
        return _of_sequence(list(inner))
    if name == "BRANCH":
        return _of_branches(av[1])
    return None  # anchors, categories, negated lookarounds, back references, conditionals


def _of_branches(branches: list[Any]) -> Words | None:
    """A match of one of several branches holds the words of the branch it took."""
    words: set[str] = set()
    for branch in branches:
        own = _of_sequence(list(branch))
        if not own:
            return None
        words |= own
    return frozenset(words)


def _chance(words: Words) -> float:
    return sum(_RARITY ** len(word) for word in _without_longer(words))


def _without_longer(words: Iterable[str]) -> Words:
    """A word that holds another of the list adds nothing: the text holds the shorter one too."""
    ordered = sorted(set(words), key=len)
    kept: list[str] = []
    for word in ordered:
        if not any(shorter in word for shorter in kept):
            kept.append(word)
    return frozenset(kept)
