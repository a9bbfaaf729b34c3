"""A regex compiled on its first use.

The `regex` module parses a pattern in Python (~0.3 ms each): compiling the whole library
costs a run ~30 ms, though a run searches with only the patterns whose anchors its lines
hold. A library read from its files compiles each regex at once (to report one that does
not compile, and to know its named groups); a library read back from the cache
(library_cache.py) holds only the sources and compiles each on its first search. Module
regexes that only some inputs need (error-line templates, traceback frames, fingerprint
normalisation) are LazyRegex too.

The `regex` module itself is imported on the first compile, not with this module: importing it
costs ~10 ms, and a run whose lines need no library regex (a short healthy log) never pays it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import regex

MULTILINE = 8  # regex.MULTILINE (the same value as re.MULTILINE), without importing the module


class RegexCompileError(ValueError):
    """A pattern that does not compile; the message is the `regex` module's."""


class LazyRegex:
    """The part of `regex.Pattern` the tool uses: `pattern`, `groupindex`, `search`, `match`, `sub`."""

    __slots__ = ("_compiled", "flags", "pattern")

    def __init__(self, pattern: str, flags: int = 0, compiled: regex.Pattern[str] | None = None) -> None:
        self.pattern = pattern
        self.flags = int(flags)  # as given to regex.compile (a plain int: pickled without the regex module)
        self._compiled = compiled

    @property
    def compiled(self) -> regex.Pattern[str]:
        if self._compiled is None:
            import regex

            self._compiled = regex.compile(self.pattern, self.flags)
        return self._compiled

    @property
    def groupindex(self) -> Mapping[str, int]:
        return self.compiled.groupindex  # type: ignore[no-any-return]

    def search(self, text: str, timeout: float | None = None) -> regex.Match[str] | None:
        return self.compiled.search(text, timeout=timeout)

    def match(self, text: str) -> regex.Match[str] | None:
        return self.compiled.match(text)

    def sub(self, replacement: str, text: str, count: int = 0) -> str:
        return self.compiled.sub(replacement, text, count=count)  # type: ignore[no-any-return]

    def __eq__(self, other: object) -> bool:
        return isinstance(other, LazyRegex) and (other.pattern, other.flags) == (self.pattern, self.flags)

    def __hash__(self) -> int:
        return hash((self.pattern, self.flags))

    def __repr__(self) -> str:
        return f"LazyRegex({self.pattern!r}, {self.flags})"

    def __reduce__(self) -> tuple[type[LazyRegex], tuple[str, int]]:
        """Pickled as its source: the cache and spawned workers compile only what they search with."""
        return LazyRegex, (self.pattern, self.flags)


def compile_now(source: str, flags: int = 0) -> LazyRegex:
    """Compiled at once: raises RegexCompileError for a pattern that does not compile."""
    import regex

    try:
        return LazyRegex(source, flags, regex.compile(source, flags))
    except regex.error as exc:
        raise RegexCompileError(str(exc)) from None
