"""Whether a log-shape regex matches a head, answered as cheaply as the answer allows.

Deciding whether a file looks like a serving log searches its head with the log-shape regexes
(logshape.py), one after the other until one matches. Compiling one with `regex` costs ~0.4 ms
(and the first one imports the module, ~10 ms), and a one-line log tried a dozen shapes before
its own. So each shape's regex carries two things, worked out once when the library is read from
its files (and kept in the library cache):

- the literals its every match holds: most shapes need text a head does not hold (`] [`,
  `NCCL `, `UCX`), and a head without them is not searched. A match is a piece of the text, so
  when they are missing there is no match: this never changes an answer, it only saves work;
- whether the standard library's `re` reads its source as `regex` does. Then on a head of ASCII
  text `re` gives the same answer (the classes `\\w`, `\\d`, `\\s`, `\\b` and `.` are the same sets
  on ASCII, except `\\s` on the separators \\x1c-\\x1f, which such a head must not hold), and `re`
  is already imported and compiles faster: a plain log's start-up never imports `regex`.

Both come from `re`'s parse of the source, and only where `re` reads it as `regex` does: a source
with a construct only `regex` knows either fails to parse or is refused below, and is then searched
with `regex` as before, on every head.
"""

from __future__ import annotations

import importlib
import re
import warnings
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from .lazyregex import LazyRegex

if TYPE_CHECKING:
    import regex  # types only: the module is imported on the first compile (lazyregex.py)

# What a match must hold: a literal, ("all", needs) or ("any", needs). None: nothing known.
Need = str | tuple[str, tuple["Need", ...]]

try:
    _parser: Any = importlib.import_module("re._parser")  # no stub: the parser is internal, its output is plain data
except ImportError:  # a Python that lays `re` out otherwise: no shape has a test, each is searched with regex
    _parser = None
# Flags `re` and `regex` give the same value and the same meaning; any other (IGNORECASE: case
# folding differs; regex.ASCII is another value in re; VERSION1...) means `regex` alone.
_SAME_FLAGS = re.MULTILINE | re.DOTALL | re.VERBOSE
# A source `re` reads differently without an error: a POSIX class (`[[:alpha:]]`, in `re` a set and
# a literal `]`), and `regex`'s fuzzy constraints (`(?:x){e<=1}`, literal braces to `re`: refused
# where the parse holds a literal `{`).
_POSIX_CLASS = "[:"
_BRACE = ord("{")
# ASCII characters whose class differs: `re`'s `\s` holds them (str.isspace), `regex`'s does not.
_SPACES_APART = ("\x1c", "\x1d", "\x1e", "\x1f")


class PrefilteredRegex(LazyRegex):
    """A LazyRegex that knows what its matches need, and whether `re` reads it alike (`found`)."""

    __slots__ = ("_stdlib", "alike", "need")

    def __init__(
        self,
        pattern: str,
        flags: int = 0,
        compiled: regex.Pattern[str] | None = None,
        need: Need | None = None,
        alike: bool = False,
    ) -> None:
        super().__init__(pattern, flags, compiled)
        self.need = need
        self.alike = alike  # `re` reads the source as `regex` does
        self._stdlib: re.Pattern[str] | None = None

    def search(self, text: str, timeout: float | None = None) -> regex.Match[str] | None:
        if self.need is not None and not holds(self.need, text):
            return None
        return super().search(text, timeout)

    def match(self, text: str) -> regex.Match[str] | None:
        if self.need is not None and not holds(self.need, text):
            return None
        return super().match(text)

    def found(self, text: str) -> bool:
        """Whether `search` would find a match, without compiling with `regex` where not needed."""
        if self.need is not None and not holds(self.need, text):
            return False
        if self.alike and text.isascii() and not any(space in text for space in _SPACES_APART):
            if self._stdlib is None:
                self._stdlib = re.compile(self.pattern, self.flags)
            return self._stdlib.search(text) is not None
        return super().search(text) is not None

    def __reduce__(self) -> tuple[type[LazyRegex], tuple[str, int, None, Need | None, bool]]:  # type: ignore[override]
        """Pickled as its source and what was worked out from it: the cache keeps no compiled regex."""
        return PrefilteredRegex, (self.pattern, self.flags, None, self.need, self.alike)


def prefiltered(compiled: LazyRegex) -> PrefilteredRegex:
    """`compiled` with what its matches need and whether `re` reads it alike."""
    parsed = _parse_alike(compiled.pattern, compiled.flags)
    need = _needed(parsed) if parsed is not None else None
    return PrefilteredRegex(compiled.pattern, compiled.flags, compiled._compiled, need, parsed is not None)


def found(pattern: LazyRegex, text: str) -> bool:
    """Whether `pattern` matches somewhere in `text`, by the cheapest exact means it has."""
    if isinstance(pattern, PrefilteredRegex):
        return pattern.found(text)
    return pattern.search(text) is not None


def holds(need: Need, text: str) -> bool:
    if isinstance(need, str):
        return need in text
    kind, parts = need
    if kind == "all":
        return all(holds(part, text) for part in parts)
    return any(holds(part, text) for part in parts)


def needed_literals(source: str, flags: int = 0) -> Need | None:
    """What every match of `source` holds; None when nothing is, or the source is not plain to `re`."""
    parsed = _parse_alike(source, flags)
    return _needed(parsed) if parsed is not None else None


def _parse_alike(source: str, flags: int) -> Any | None:
    """`re`'s parse of `source`, when `re` reads it as `regex` does; else None."""
    if _parser is None or flags & ~_SAME_FLAGS or _POSIX_CLASS in source:
        return None
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error")  # a warning (a possible nested set): read apart
            parsed = _parser.parse(source, flags)
    except Exception:  # a construct `re` does not know
        return None
    if parsed.state.flags & _parser.SRE_FLAG_IGNORECASE:
        return None
    for op, value in _walk(parsed):
        if op is _parser.LITERAL and value == _BRACE:
            return None
        if op is _parser.SUBPATTERN and value[1] & _parser.SRE_FLAG_IGNORECASE:
            return None  # (?i:...)
    return parsed


def _walk(nodes: Any) -> Iterator[tuple[Any, Any]]:
    """Every node of a parse, nested ones too (whatever node holds them)."""
    for op, value in nodes:
        yield op, value
        for part in _subpatterns(value):
            yield from _walk(part)


def _subpatterns(value: Any) -> Iterator[Any]:
    if isinstance(value, _parser.SubPattern):
        yield value
    elif isinstance(value, (tuple, list)):
        for item in value:
            yield from _subpatterns(item)


def _needed(parsed: Any) -> Need | None:
    try:
        return _sequence(parsed)
    except ValueError:  # a node this does not know: no literals, searched every time
        return None


def _sequence(nodes: Any) -> Need | None:
    """A sequence needs each run of literals in it, and what each of its parts needs."""
    needs: list[Need | None] = []
    run: list[str] = []
    for op, value in nodes:
        if op is _parser.LITERAL:
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
        return _sequence(value[3])
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
    if _parser is not None
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
