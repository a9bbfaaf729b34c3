"""`analyze --follow`: watch the logs while they are written, say the verdict as it changes, and
stop on a cause, on idle, on a signal, or when standard input (the only input) ends.

The loop polls the inputs every POLL_SECONDS (pipeline.Follow reads and scans what grew) and
decides again when the events changed, at most every DECIDE_SECONDS: a decision weighs every
event kept so far (tens of milliseconds), a poll only what was written since the last one. On a
terminal one status line on stderr says where it is, redrawn at most every STATUS_SECONDS; on a
pipe or in CI a line goes to stderr only when the verdict changes. stdout gets the report when
it stops, through the same output code as a post-mortem `analyze` (behaviour._emit).

Time comes in as functions (`Clock`), so tests drive the loop step by step without sleeping.
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol, TextIO

from ..model import Event, Report, verdicts
from ..model.values import record
from ..reason.confidence import SURE
from ..render.neutralise import one_line
from .terminal import is_terminal

if TYPE_CHECKING:
    from ..pipeline import Decided, Follow
    from ..scan.inputs import Scanned

POLL_SECONDS = 0.25  # between two looks at the inputs when nothing is waiting to be read
DECIDE_SECONDS = 0.3  # at least this between two decisions
STATUS_SECONDS = 0.25  # at least this between two redraws of the status line


@record
class Watch:
    """When to stop: on a sure cause (`--exit-on cause`), after `until_idle` seconds without growth."""

    exit_on_cause: bool = False
    until_idle: float | None = None


class Clock(Protocol):
    def now(self) -> float: ...

    def wait(self, seconds: float) -> None: ...


class RealClock:
    """The monotonic clock; waits end early when `stopping` is set (a signal)."""

    def __init__(self, stopping: threading.Event) -> None:
        self.stopping = stopping

    def now(self) -> float:
        return time.monotonic()

    def wait(self, seconds: float) -> None:
        self.stopping.wait(seconds)


class Shown(Protocol):
    """What a person or a CI log sees while it runs."""

    def status(self, line: str) -> None: ...

    def verdict(self, line: str) -> None: ...


def sure_cause(report: Report) -> bool:
    """A named cause (not healthy, not inconclusive) as sure as a report shows a fix without caveats."""
    return report.verdict.id not in verdicts.META and report.verdict.confidence >= SURE


@dataclass
class _Progress:
    """The loop's memory from poll to poll."""

    grown_at: float
    decision: Decided | None = None
    decided_at: float = float("-inf")
    evidence: tuple[object, ...] | None = None  # what the last decision was made on
    said: str | None = None  # the verdict id last said
    waiting: bool = True  # bytes were read since the last decision
    shown_at: float = float("-inf")
    status: str = ""  # the status line last drawn


def follow_until_done(follow: Follow, watch: Watch, shown: Shown, clock: Clock, stopping: threading.Event) -> Decided:
    """Follow the inputs until a stop (see the module); the decision the report is made of."""
    progress = _Progress(grown_at=clock.now())
    while not stopping.is_set():
        if follow.read():
            progress.grown_at, progress.waiting = clock.now(), True
        now = clock.now()
        if progress.waiting and now - progress.decided_at >= DECIDE_SECONDS:
            _decide(follow, progress, shown, now)
            if watch.exit_on_cause and progress.decision is not None and sure_cause(progress.decision.report):
                return progress.decision
        if now - progress.shown_at >= STATUS_SECONDS and progress.decision is not None:
            _show_status(shown, progress, status_line(progress.decision, follow), now)
        if watch.until_idle is not None and now - progress.grown_at >= watch.until_idle:
            break
        if follow.finished:
            break
        if not follow.backlog:
            clock.wait(POLL_SECONDS)
    return _last_decision(follow, progress)


def _decide(follow: Follow, progress: _Progress, shown: Shown, now: float) -> None:
    """Decide again when the events changed since the last decision; say a changed verdict."""
    from ..pipeline import decided

    scanned = follow.scanned()
    evidence = _evidence(scanned)
    progress.decided_at, progress.waiting = now, False
    if evidence == progress.evidence and progress.decision is not None:
        return
    progress.decision, progress.evidence = decided(scanned, follow.library, follow.options), evidence
    if progress.decision.report.verdict.id != progress.said:
        progress.said = progress.decision.report.verdict.id
        shown.verdict(verdict_line(progress.decision.report))


def _show_status(shown: Shown, progress: _Progress, line: str, now: float) -> None:
    """Redraw the status line when it says something new (an idle watch draws nothing)."""
    if line != progress.status:
        shown.status(line)
        progress.status, progress.shown_at = line, now


def _last_decision(follow: Follow, progress: _Progress) -> Decided:
    """The decision on everything read when the loop stopped (made again only if more was read)."""
    if progress.decision is not None and not progress.waiting:
        return progress.decision
    return follow.decided()


def _evidence(scanned: list[Scanned]) -> tuple[object, ...]:
    """What a decision reads of the scans: each source's name, role, problems, events and metrics series."""
    return tuple(
        (s.source.name, s.source.role, s.source.problems, s.source.bytes > 0, s.events, s.series) for s in scanned
    )


def verdict_line(report: Report) -> str:
    """The line said when the verdict changes: id, confidence, where its evidence starts, its title."""
    verdict = report.verdict
    sure = "" if verdict.id in verdicts.NO_CAUSE else f" {verdict.confidence:.2f}"
    root = _first(report.roots or report.chain)
    where = f" at {root.where}" if root is not None else ""
    return one_line(f"pdlogdoctor: {verdict.id}{sure}{where}: {verdict.title}")


def status_line(decision: Decided, follow: Follow) -> str:
    """The live status: files, lines and events read so far, and the leading verdict."""
    sources = [s for s in decision.sources if s.bytes > 0]
    verdict = decision.report.verdict
    leading = verdict.id if verdict.id in verdicts.NO_CAUSE else f"{verdict.id} {verdict.confidence:.2f}"
    files = "file" if len(sources) == 1 else "files"
    lines = sum(s.lines for s in sources)
    return one_line(f"following {len(sources)} {files} · {lines:,} lines · {len(decision.events):,} events · {leading}")


def _first(events: tuple[Event, ...]) -> Event | None:
    return events[0] if events else None


# ---------------------------------------------------------------- what is shown


class ChangesOnly:
    """A pipe or a CI log: a line when the verdict changes, nothing in between."""

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream

    def status(self, line: str) -> None:
        """No status line: a log keeps every line written to it."""

    def verdict(self, line: str) -> None:
        self.stream.write(line + "\n")
        self.stream.flush()


class Silent:
    """--quiet: only the final line."""

    def status(self, line: str) -> None:
        """Nothing while it runs."""

    def verdict(self, line: str) -> None:
        """Nothing while it runs."""


class StatusLine:
    """A terminal: one status line redrawn in place (rich), each new verdict printed above it."""

    def __init__(self, live: object, console: object) -> None:
        self.live = live
        self.console = console

    def status(self, line: str) -> None:
        from rich.text import Text

        self.live.update(Text(line), refresh=True)  # type: ignore[attr-defined]

    def verdict(self, line: str) -> None:
        from rich.text import Text

        self.console.print(Text(line))  # type: ignore[attr-defined]


@contextlib.contextmanager
def shown_on(stream: TextIO, quiet: bool) -> Iterator[Shown]:
    """The display for `stream` (stderr): a status line on a terminal, changes only elsewhere."""
    if quiet:
        yield Silent()
        return
    if not is_terminal(stream):
        yield ChangesOnly(stream)
        return
    from rich.console import Console
    from rich.live import Live
    from rich.text import Text

    console = Console(file=stream)
    # No refresh thread: the loop redraws when there is something new (an idle follow costs nothing).
    with Live(Text("following ..."), console=console, transient=True, auto_refresh=False) as live:
        yield StatusLine(live, console)


@contextlib.contextmanager
def stopped_by_signals(stopping: threading.Event) -> Iterator[None]:
    """SIGINT and SIGTERM end the loop (then the report is written), instead of killing the process."""
    previous: dict[signal.Signals, Any] = {}
    if threading.current_thread() is threading.main_thread():  # Python lets only the main thread set them
        for number in (signal.SIGINT, signal.SIGTERM):
            previous[number] = signal.signal(number, lambda *_: stopping.set())
    try:
        yield
    finally:
        for number, handler in previous.items():
            signal.signal(number, handler)


M_MMAP_THRESHOLD = -3  # glibc's mallopt parameter (malloc.h)
MMAP_THRESHOLD = 128 << 10  # glibc's default: blocks this large get a mapping of their own


def large_blocks_mapped() -> None:
    """Keep glibc's malloc serving every block of MMAP_THRESHOLD or more with a mapping of its own,
    returned to the system when freed. By default each such block freed raises the threshold to its
    size (up to 32 MiB), and from then on blocks that size come from the heap: a follower frees
    megabyte blocks at every poll (a stream's window, a new file's buffers) between long-lived small
    objects (the kept events), the heap fragments, and its RSS crept up by 13 MiB over an hour of
    logs (benchmarks/follow.py). Setting the threshold once turns that adjustment off. Elsewhere
    (musl, macOS) nothing is done: their allocators do not adjust so."""
    if not hasattr(os, "confstr") or "glibc" not in (_confstr("CS_GNU_LIBC_VERSION") or ""):
        return
    import ctypes

    try:
        ctypes.CDLL(None).mallopt(M_MMAP_THRESHOLD, MMAP_THRESHOLD)
    except (OSError, AttributeError):
        return


def _confstr(name: str) -> str | None:
    try:
        return os.confstr(name)
    except (ValueError, OSError):
        return None


def follow_logs(follow: Follow, watch: Watch, quiet: bool) -> Decided:
    """The loop with the real clock, the display on stderr and the signals: the decision it stopped on."""
    stopping = threading.Event()
    with stopped_by_signals(stopping), shown_on(sys.stderr, quiet) as shown:
        try:
            return follow_until_done(follow, watch, shown, RealClock(stopping), stopping)
        finally:
            follow.close()
