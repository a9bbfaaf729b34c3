"""A standard-library regex compiled on its first use.

The modules' own regexes (a table's cells, a heading's words, a secret's shape) are compiled by `re`
when first used, not when their module is imported: compiling the ~180 of them costs a run ~50 ms
before it reads a line, while a short log needs a handful. On its first use a pattern takes the
compiled pattern's methods as its own attributes, so every later call goes straight to `re`'s
method: a dense log's millions of searches pay nothing for the laziness.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Mapping
from typing import TYPE_CHECKING, Any

# What a pattern hands on from the compiled one (read once, on the first use of any of them).
DELEGATED = ("search", "match", "fullmatch", "finditer", "findall", "split", "sub", "subn", "flags", "groupindex")


class LazyPattern:
    """The part of `re.Pattern[str]` the tool uses, compiled when first used."""

    def __init__(self, source: str, flags: int | re.RegexFlag = 0) -> None:
        self.pattern = source
        self._flags = flags

    def __getattr__(self, name: str) -> Any:
        # Called only for a name the instance does not hold yet: the first use compiles, then keeps
        # the compiled pattern's methods and attributes as the instance's own.
        if name not in DELEGATED:  # dunders (pickle, copy) and typos fail as on any object
            raise AttributeError(name)
        compiled = re.compile(self.pattern, self._flags)
        for delegated in DELEGATED:
            setattr(self, delegated, getattr(compiled, delegated))
        return getattr(compiled, name)

    def __reduce__(self) -> tuple[type[LazyPattern], tuple[str, int | re.RegexFlag]]:
        return (LazyPattern, (self.pattern, self._flags))  # its source, not the compiled methods it holds

    def __repr__(self) -> str:
        return f"LazyPattern({self.pattern!r})"

    if TYPE_CHECKING:  # what __getattr__ hands on, as re.Pattern[str] types it
        flags: int
        groupindex: Mapping[str, int]

        def search(self, string: str, pos: int = 0, endpos: int = ...) -> re.Match[str] | None: ...
        def match(self, string: str, pos: int = 0, endpos: int = ...) -> re.Match[str] | None: ...
        def fullmatch(self, string: str, pos: int = 0, endpos: int = ...) -> re.Match[str] | None: ...
        def finditer(self, string: str, pos: int = 0, endpos: int = ...) -> Iterator[re.Match[str]]: ...
        def findall(self, string: str, pos: int = 0, endpos: int = ...) -> list[Any]: ...
        def split(self, string: str, maxsplit: int = 0) -> list[str | Any]: ...
        def sub(self, repl: str | Callable[[re.Match[str]], str], string: str, count: int = 0) -> str: ...
        def subn(self, repl: str | Callable[[re.Match[str]], str], string: str, count: int = 0) -> tuple[str, int]: ...


def lazy_re(source: str, flags: int | re.RegexFlag = 0) -> LazyPattern:
    """`re.compile(source, flags)`, done when the pattern is first used."""
    return LazyPattern(source, flags)
