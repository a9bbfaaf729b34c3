"""The literals a regex's every match must hold: a test that can say "no match" without compiling it.

Deciding whether a file looks like a serving log searches its head with the log-shape regexes
(logshape.py), one after the other until one matches. Compiling one with `regex` costs ~0.4 ms,
and a one-line log tried a dozen shapes before its own. Most shapes need text a head does not
hold (`] [`, `NCCL `, `UCX`), so each shape's regex carries what it needs, worked out once when
the library is read from its files (and kept in the library cache): a head that lacks it is not
searched and the regex is not compiled. A match is a piece of the text, so when the literals are
missing there is no match: the test never changes an answer, it only saves work.

The literals come from the standard library's parse of the same source (`re`'s parser), and only
where `re` reads it as `regex` does: a source with a construct only `regex` knows either fails to
parse or is refused below, and then the regex carries no test and is compiled as before.
"""

from __future__ import annotations

import importlib
import re
import warnings
from typing import TYPE_CHECKING, Any

from .lazyregex import LazyRegex

if TYPE_CHECKING:
    import regex  # types only: the module is imported on the first compile (lazyregex.py)

# What a match must hold: a literal, ("all", needs) or ("any", needs). None: nothing known.
Need = str | tuple[str, tuple["Need", ...]]

_parser: Any = importlib.import_module("re._parser")  # no stub: the parser is internal, its output is plain data
# Flags `re` and `regex` give the same value and the same meaning; any other (IGNORECASE: a literal
# may match in another case; regex.ASCII is another value in re; VERSION1...) means no test.
_SAME_FLAGS = re.MULTILINE | re.DOTALL | re.VERBOSE
# A source `re` reads differently without an error: a POSIX class (`[[:alpha:]]`, in `re` a set and
# a literal `]`). `regex`'s fuzzy constraints (`(?:x){e<=1}`) are literal braces to `re`: a literal
# `{` is refused where it is read (_sequence).
_POSIX_CLASS = "[:"
_BRACE = ord("{")


class PrefilteredRegex(LazyRegex):
    """A LazyRegex that is neither compiled nor run on a text lacking the literals it needs."""

    __slots__ = ("need",)

    def __init__(
        self, pattern: str, flags: int = 0, compiled: regex.Pattern[str] | None = None, need: Need | None = None
    ) -> None:
        super().__init__(pattern, flags, compiled)
        self.need = need

    def search(self, text: str, timeout: float | None = None) -> regex.Match[str] | None:
        if self.need is not None and not holds(self.need, text):
            return None
        return super().search(text, timeout)

    def match(self, text: str) -> regex.Match[str] | None:
        if self.need is not None and not holds(self.need, text):
            return None
        return super().match(text)

    def __reduce__(self) -> tuple[type[LazyRegex], tuple[str, int, None, Need | None]]:  # type: ignore[override]
        """Pickled as its source and its literals: the cache keeps the test, never the compiled regex."""
        return PrefilteredRegex, (self.pattern, self.flags, None, self.need)


def prefiltered(compiled: LazyRegex) -> LazyRegex:
    """`compiled` with the literals its matches need, when they can be told (else as it is)."""
    need = needed_literals(compiled.pattern, compiled.flags)
    if need is None:
        return compiled
    return PrefilteredRegex(compiled.pattern, compiled.flags, compiled._compiled, need)


def holds(need: Need, text: str) -> bool:
    if isinstance(need, str):
        return need in text
    kind, parts = need
    if kind == "all":
        return all(holds(part, text) for part in parts)
    return any(holds(part, text) for part in parts)


def needed_literals(source: str, flags: int = 0) -> Need | None:
    """What every match of `source` holds; None when nothing is, or the source is not plain to `re`."""
    if flags & ~_SAME_FLAGS or _POSIX_CLASS in source:
        return None
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error")  # a warning (a possible nested set): read apart
            parsed = _parser.parse(source, flags)
        if parsed.state.flags & _parser.SRE_FLAG_IGNORECASE:
            return None
        return _sequence(parsed)
    except Exception:  # anything `re` does not read, or a node this does not know: no test
        return None


def _sequence(nodes: Any) -> Need | None:
    """A sequence needs each run of literals in it, and what each of its parts needs."""
    needs: list[Need | None] = []
    run: list[str] = []
    for op, value in nodes:
        if op is _parser.LITERAL:
            if value == _BRACE:
                raise ValueError("a brace that is no repeat: regex may read a fuzzy constraint")
            run.append(chr(value))
            continue
        if run:
            needs.append("".join(run))
            run = []
        needs.append(_node(op, value))
    if run:
        needs.append("".join(run))
    return _all(needs)


def _node(op: Any, value: Any) -> Need | None:
    if op is _parser.SUBPATTERN:
        _group, add_flags, _del_flags, body = value
        if add_flags & _parser.SRE_FLAG_IGNORECASE:
            raise ValueError("case-insensitive group")
        return _sequence(body)
    if op is _parser.ATOMIC_GROUP:
        return _sequence(value)
    if op is _parser.BRANCH:
        return _any([_sequence(branch) for branch in value[1]])
    if op in (_parser.MAX_REPEAT, _parser.MIN_REPEAT, _parser.POSSESSIVE_REPEAT):
        least, _most, body = value
        return _sequence(body) if least >= 1 else None
    if op in _NEEDS_NOTHING:
        return None
    raise ValueError(f"unknown node {op}")


# Nodes that match no fixed text: a class, any character, an anchor, a lookaround (its text need
# not be part of the match), a back-reference, a conditional.
_NEEDS_NOTHING = tuple(
    getattr(_parser, name)
    for name in ("NOT_LITERAL", "ANY", "IN", "CATEGORY", "AT", "ASSERT", "ASSERT_NOT", "GROUPREF", "GROUPREF_EXISTS")
)


def _all(needs: list[Need | None]) -> Need | None:
    known = tuple(dict.fromkeys(need for need in needs if need is not None))
    if not known:
        return None
    return known[0] if len(known) == 1 else ("all", known)


def _any(needs: list[Need | None]) -> Need | None:
    if any(need is None for need in needs):
        return None  # one branch needs nothing: neither does the whole
    known = tuple(dict.fromkeys(need for need in needs if need is not None))
    return known[0] if len(known) == 1 else ("any", known)
