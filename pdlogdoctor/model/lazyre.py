"""A standard-library regex compiled on its first use.

The modules' own regexes (a table's cells, a heading's words, a secret's shape) are compiled by `re`
when first searched, not when their module is imported: compiling the ~180 of them costs a run
~50 ms before it reads a line (a third of the start-up), while a short log needs a handful. A
search after the first costs what a compiled pattern's does, plus one attribute read.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Mapping
from typing import Any


class LazyPattern:
    """The part of `re.Pattern[str]` the tool uses, compiled when first used."""

    __slots__ = ("_compiled", "_flags", "_source")

    def __init__(self, source: str, flags: int | re.RegexFlag = 0) -> None:
        self._source = source
        self._flags = flags
        self._compiled: re.Pattern[str] | None = None

    @property
    def compiled(self) -> re.Pattern[str]:
        if self._compiled is None:
            self._compiled = re.compile(self._source, self._flags)
        return self._compiled

    @property
    def pattern(self) -> str:
        return self._source

    @property
    def flags(self) -> int:
        return self.compiled.flags

    @property
    def groupindex(self) -> Mapping[str, int]:
        return self.compiled.groupindex

    def search(self, string: str, pos: int = 0, endpos: int = 2**63 - 1) -> re.Match[str] | None:
        return self.compiled.search(string, pos, endpos)

    def match(self, string: str, pos: int = 0, endpos: int = 2**63 - 1) -> re.Match[str] | None:
        return self.compiled.match(string, pos, endpos)

    def fullmatch(self, string: str, pos: int = 0, endpos: int = 2**63 - 1) -> re.Match[str] | None:
        return self.compiled.fullmatch(string, pos, endpos)

    def finditer(self, string: str, pos: int = 0, endpos: int = 2**63 - 1) -> Iterator[re.Match[str]]:
        return self.compiled.finditer(string, pos, endpos)

    def findall(self, string: str, pos: int = 0, endpos: int = 2**63 - 1) -> list[Any]:
        return self.compiled.findall(string, pos, endpos)

    def split(self, string: str, maxsplit: int = 0) -> list[str | Any]:
        return self.compiled.split(string, maxsplit)

    def sub(self, repl: str | Callable[[re.Match[str]], str], string: str, count: int = 0) -> str:
        return self.compiled.sub(repl, string, count)

    def subn(self, repl: str | Callable[[re.Match[str]], str], string: str, count: int = 0) -> tuple[str, int]:
        return self.compiled.subn(repl, string, count)

    def __repr__(self) -> str:
        return f"LazyPattern({self._source!r})"


def lazy_re(source: str, flags: int | re.RegexFlag = 0) -> LazyPattern:
    """`re.compile(source, flags)`, done when the pattern is first used."""
    return LazyPattern(source, flags)
