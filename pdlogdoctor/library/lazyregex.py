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

A search with a time limit (the library's, against catastrophic backtracking) asks the `regex`
module for its `timeout`, which reads the process's CPU clock (a system call) when the search starts
and every 256 steps: ~5-10 µs a search, more than most searches of a log line take. Inside
`watched()` (a run's scan) the limit is kept by one interval timer instead: a signal every TICK_S
of the process's CPU time, whose handler ends a search that has run through the limit (the `regex`
module lets signal handlers run every 256 steps, as it checks its clock); searches outside it, in
other threads, or where there is no such timer (Windows) pass the `timeout` as before.
"""

from __future__ import annotations

import os
import re
import signal
import threading
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager, suppress
from types import FrameType
from typing import TYPE_CHECKING

from .literals import required_words

if TYPE_CHECKING:
    import regex

MULTILINE = 8  # regex.MULTILINE (the same value as re.MULTILINE), without importing the module


class RegexCompileError(ValueError):
    """A pattern that does not compile; the message is the `regex` module's."""


class LazyRegex:
    """The part of `regex.Pattern` the tool uses: `pattern`, `groupindex`, `search`, `match`, `sub`."""

    __slots__ = ("_compiled", "_lead", "_searcher", "_words", "flags", "pattern")

    def __init__(self, pattern: str, flags: int = 0, compiled: regex.Pattern[str] | None = None) -> None:
        self.pattern = pattern
        self.flags = int(flags)  # as given to regex.compile (a plain int: pickled without the regex module)
        self._compiled = compiled
        self._lead: str | None = None
        self._searcher: regex.Pattern[str] | None = None  # what `search` runs (`_line_start_searcher`)
        self._words: tuple[str, ...] | None = None  # one of them in every text it matches (set with _searcher)

    @property
    def lead(self) -> str:
        """The text every match starts with, when nothing the regex matches depends on what comes
        before the match ("" when that is not sure): see `literal_lead`."""
        if self._lead is None:
            self._lead = literal_lead(self.pattern, self.flags)
        return self._lead

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
        """`timeout`: seconds of CPU time, then TimeoutError (kept by the watch inside `watched()`)."""
        compiled = self._searcher
        if compiled is None:
            self._words = required_words(self.pattern, self.flags)
            compiled = self._searcher = self._line_start_searcher()
        words = self._words
        if words is not None:
            for word in words:
                if word in text:
                    break
            else:
                return None  # no match can be without one of them (literals.py): the search is not run
        if timeout is None:
            return compiled.search(text)
        if WATCH.thread == threading.get_ident():
            return WATCH.run(compiled.search, text, timeout)
        return compiled.search(text, timeout=timeout)

    def match(self, text: str) -> regex.Match[str] | None:
        return self.compiled.match(text)

    def _line_start_searcher(self) -> regex.Pattern[str]:
        """The compiled regex, tried only at the start of each line of the text when every match
        can start there (`from_line_starts`): the same first match, without the search starting
        again at every character of a line to read it through to its end each time (a
        `(?P<message>.*\\b(?:...))` regex on a 200-character line: ~200 times the work)."""
        if not from_line_starts(self.pattern, self.flags):
            return self.compiled
        import regex

        return regex.compile(LINE_STARTS + self.pattern, self.flags)

    def sub(self, replacement: str, text: str, count: int = 0) -> str:
        return self.compiled.sub(replacement, text, count=count)  # type: ignore[no-any-return]

    def __eq__(self, other: object) -> bool:
        return isinstance(other, LazyRegex) and (other.pattern, other.flags) == (self.pattern, self.flags)

    def __hash__(self) -> int:
        return hash((self.pattern, self.flags))

    def __repr__(self) -> str:
        return f"LazyRegex({self.pattern!r}, {self.flags})"

    def __reduce__(self) -> tuple[type[LazyRegex], tuple[str, int]]:  # the lead is computed again
        """Pickled as its source: the cache and spawned workers compile only what they search with."""
        return LazyRegex, (self.pattern, self.flags)


_SPECIAL = frozenset(".^$*+?{}[]|()")
_QUANTIFIERS = frozenset("*+?{")
# ignore case, verbose, reverse, full case folding, version 1 (nested classes)
_FLAGS_THAT_MOVE_TEXT = frozenset("ixrfV")
_REGEX_IGNORECASE, _REGEX_VERBOSE, _REGEX_REVERSE, _REGEX_V1, _REGEX_FULLCASE = 2, 64, 1024, 256, 16384


LINE_STARTS = "(?m:^)"  # the start of the text or of a line in it, whatever the regex's own flags
# A regex that opens with `.*` or `.*?`, alone or first in a group it opens with.
_OPENS_WITH_ANY = re.compile(r"(?:\((?:\?P<\w+>|\?:)?)?\.\*\??(?![*+?{])")
_QUANTIFIER_CHARS = ("?", "*", "+", "{")
_REGEX_WORD = 2048


def from_line_starts(source: str, flags: int = 0) -> bool:
    """Whether a search's first match always starts at the start of a line of the text: the regex
    opens with `.*` or `.*?` (alone, or first in a group it opens with that no quantifier
    follows), has no `|` at its top level nor at that group's, and no flag that changes what
    `.` or `^` read or where a search starts (verbose, reverse, version 1, Unicode line breaks).
    Then wherever a match starts, the `.*` can reach back to the start of its line and match the
    same from there, so the leftmost match starts at a line's start and is what the regex tried
    only there finds. Told from the source, erring towards False."""
    if flags & (_REGEX_VERBOSE | _REGEX_REVERSE | _REGEX_V1 | _REGEX_WORD) or "(?#" in source:
        return False
    if _OPENS_WITH_ANY.match(source) is None:
        return False
    depth, first_open = 0, source.startswith("(")
    for i, token in _syntax(source):
        if token == "|" and (depth == 0 or (first_open and depth == 1)):
            return False
        if token == "(":
            depth += 1
        elif token == ")":
            depth -= 1
            if first_open and depth == 0:
                first_open = False
                if source.startswith(_QUANTIFIER_CHARS, i + 1):
                    return False  # the opening group may be skipped or repeated
    return True


def literal_lead(source: str, flags: int = 0) -> str:
    """The literal text a regex starts with ("" if none, or if unsure), when nothing before a
    match's start can change whether or what it matches: no lookbehind, no `^` or `\\A` or `\\G`,
    no top-level alternative, no flag that changes how its text reads (ignore case, verbose,
    reverse). Then a search's result on a line is its result on the line from the first
    occurrence of the lead: two lines that end alike from there match alike (events.py folds
    repeated lines on that). Conservative: any construct it does not know gives ""."""
    if flags & (_REGEX_IGNORECASE | _REGEX_VERBOSE | _REGEX_REVERSE | _REGEX_V1 | _REGEX_FULLCASE):
        return ""
    if not _looks_forward(source):
        return ""
    lead: list[str] = []
    i = 0
    while i < len(source):
        char = source[i]
        if char == "\\":
            escaped = source[i + 1 : i + 2]
            if not escaped or escaped.isalnum() or not escaped.isascii() or escaped.isspace():
                break  # a class (\d), an anchor (\b), a reference (\1): no longer literal
            lead.append(escaped)
            i += 2
            continue
        if char in _SPECIAL:
            if char in _QUANTIFIERS and lead:
                lead.pop()  # the quantifier is the last character's: that one may be absent or repeated
            break
        lead.append(char)
        i += 1
    return "".join(lead)


def _looks_forward(source: str) -> bool:
    """No construct that reads text before the match, no top-level `|`, no flag group that changes
    how text reads: told from the source, erring towards False."""
    depth = 0
    for i, token in _syntax(source):
        if token in ("\\A", "\\G", "^") or (token == "|" and depth == 0):
            return False
        if token == "(":
            depth += 1
            if source.startswith(("(?<=", "(?<!"), i) or _changes_reading(source, i):
                return False
        elif token == ")":
            depth -= 1
    return True


def _syntax(source: str) -> Iterator[tuple[int, str]]:
    """A regex source's tokens that can be syntax, with where each starts: every escape as its two
    characters (`\\d`, `\\A`, in a class too), and each other character outside a class. Classes
    are skipped whole: a `^` first in one negates it, a `]` first in one is one of its characters."""
    in_class, i = False, 0
    while i < len(source):
        char = source[i]
        if char == "\\":
            yield i, source[i : i + 2]
            i += 2
            continue
        if in_class:
            in_class = char != "]"
        elif char == "[":
            in_class = True
            i += 1
            i += source.startswith("^", i)
            i += source.startswith("]", i)
            continue
        else:
            yield i, char
        i += 1


def _changes_reading(source: str, at: int) -> bool:
    """An inline flag group at `at` (`(?i)`, `(?x:`) that sets ignore case, verbose, reverse or full case."""
    if not source.startswith("(?", at):
        return False
    flags = ""
    for char in source[at + 2 :]:
        if not char.isalpha():
            break
        flags += char
    return bool(set(flags) & _FLAGS_THAT_MOVE_TEXT) and not flags.startswith("P")


def compile_now(source: str, flags: int = 0) -> LazyRegex:
    """Compiled at once: raises RegexCompileError for a pattern that does not compile."""
    import regex

    try:
        return LazyRegex(source, flags, regex.compile(source, flags))
    except regex.error as exc:
        raise RegexCompileError(str(exc)) from None


# ---------------------------------------------------------------- the watch

TICK_S = 0.1  # of the process's CPU time: a search ends at most this much after its limit


class _Watch:
    """Which search is running (`calls` counts them), and for how many ticks it has been."""

    __slots__ = ("calls", "limit", "running", "seen", "thread", "ticks")

    def __init__(self) -> None:
        self.thread: int | None = None  # the thread a `watched()` block runs in (the main thread)
        self.calls = 0
        self.running = False
        self.limit = 0.0
        self.seen = -1  # the search the last tick found running
        self.ticks = 0  # ticks that found the same search running

    def run(self, search: Callable[[str], regex.Match[str] | None], text: str, limit: float) -> regex.Match[str] | None:
        self.calls += 1
        self.limit = limit
        self.running = True
        try:
            return search(text)
        finally:
            self.running = False

    def tick(self, _signal: int, _frame: FrameType | None) -> None:
        if not self.running or self.calls != self.seen:
            self.seen = self.calls if self.running else -1
            self.ticks = 0
            return
        self.ticks += 1
        if self.ticks * TICK_S >= self.limit:
            self.running = False
            raise TimeoutError(f"regular expression search ran for more than {self.limit} s")

    def forget(self) -> None:
        """In a forked child: the parent's timer is not inherited, so nothing watches there yet; nor
        is the signal left to the parent's handler, which `watched()` would take for another's (and
        the child's every search would then read the `regex` module's clock: a range's worker)."""
        self.thread = None
        self.running = False
        if hasattr(signal, "SIGVTALRM") and signal.getsignal(signal.SIGVTALRM) == self.tick:
            with suppress(ValueError):  # not the main thread: nothing watches here anyway (`_can_watch`)
                signal.signal(signal.SIGVTALRM, signal.SIG_DFL)


WATCH = _Watch()
if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=WATCH.forget)


@contextmanager
def watched() -> Iterator[None]:
    """Searches with a time limit in this block, in this thread, are timed by one interval timer
    (SIGVTALRM, the process's user CPU time) rather than by the `regex` module's clock reads.
    Does nothing outside the main thread, where the timer or its signal is missing, where another
    handler holds the signal, or inside another `watched()`."""
    if not _can_watch():
        yield
        return
    signal.signal(signal.SIGVTALRM, WATCH.tick)
    before = signal.setitimer(signal.ITIMER_VIRTUAL, TICK_S, TICK_S)
    WATCH.thread = threading.get_ident()
    try:
        yield
    finally:
        WATCH.thread = None
        signal.setitimer(signal.ITIMER_VIRTUAL, *before)
        signal.signal(signal.SIGVTALRM, signal.SIG_DFL)


def _can_watch() -> bool:
    if WATCH.thread is not None or threading.current_thread() is not threading.main_thread():
        return False
    if not hasattr(signal, "setitimer") or not hasattr(signal, "SIGVTALRM"):
        return False
    unused = signal.getitimer(signal.ITIMER_VIRTUAL) == (0.0, 0.0)
    return unused and signal.getsignal(signal.SIGVTALRM) == signal.SIG_DFL
