"""The time of a line: its own stamp, or the nearest above it (a traceback's lines inherit the
time of the line that announced them), and the latest it can be (the next stamped line below).

The searcher keeps STAMP_LOOKBACK_LINES lines below every line it hands over, and remembers the
last stamps of each buffer (`StampMemory`), so the answer never depends on where reads end.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..library.formats import Formats, LineStamps, Stamp, shipped
from .reader import MAX_LINE_BYTES, Buffer
from .timeline import clean_line, dated_by, on_local_clock, parse_actions_time, parse_stamp, since_boot

STAMP_LOOKBACK_LINES = 60
NEARBY_KEPT = 4096  # lines of one buffer whose reading is kept (`read_near`), then they start over


@dataclass(slots=True)
class StampMemory:
    """The stamps a lookback from the next buffer's first line would find in the buffers before it."""

    last: Stamp | None = None  # of the last stamped line (its own time, or the Actions runner's)
    last_own: Stamp | None = None  # of the last line with a time of its own
    formats: Formats = field(default_factory=shipped)  # the catalogue of line formats that reads them
    # The lines of the buffer being scanned read for their time, by (start, stop): the lines near
    # a line without a time of its own are read again for the next such line, the same lines
    # above and below (`read_near`). Only valid while the buffer holds what it held: the searcher
    # empties it (`forget_nearby`) before and after each region it scans.
    nearby: dict[tuple[int, int], tuple[Stamp | None, str | None]] = field(default_factory=dict)
    # The last local-stamp lookback of this buffer (`_local_stamp_above`): where it started, what it
    # found, and how many lines above its start the answer lies (None: nothing within reach). The
    # next lookback stops where this one started, so a log of UTC lines (a router's `...Z` times)
    # walks each line once, not up to STAMP_LOOKBACK_LINES times per hit.
    local_above: tuple[int, Stamp | None, int | None] | None = None
    # The last lookback of this buffer for a line without a time (`_stamp_above`): where it started and
    # what it found. The next one stops there: each line above is walked once, however far the stamp.
    above: tuple[int, Stamp | None] | None = None


def forget_nearby(memory: StampMemory) -> None:
    """The buffer is about to change (or has): its lines' readings no longer hold."""
    memory.nearby.clear()
    memory.local_above = None
    memory.above = None


def _start_above(buf: Buffer, pos: int) -> int:
    """Where the line above the one starting at `pos` starts (a line is read up to MAX_LINE_BYTES back)."""
    return buf.rfind(b"\n", max(0, pos - 1 - MAX_LINE_BYTES), pos - 1) + 1


def read_near(buf: Buffer, start: int, stop: int, memory: StampMemory) -> tuple[Stamp | None, str | None]:
    """The time the line buf[start:stop] states and the time its collector received it (clean_line),
    read once per buffer."""
    key = (start, stop)
    found = memory.nearby.get(key)
    if found is None:
        text, received = clean_line(buf[start:stop].decode("utf-8", errors="replace"))
        if len(memory.nearby) >= NEARBY_KEPT:
            memory.nearby.clear()
        found = memory.nearby[key] = (parse_stamp(text, memory.formats), received)
    return found


def stamp_for(
    buf: Buffer, start: int, text: str, actions_time: str | None, memory: StampMemory, stamps: LineStamps
) -> Stamp | None:
    """`stamps` are the line's own (parse_stamps(text, memory.formats)), read once by the caller."""
    own, received = stamps
    if own is not None and own.utc:
        # On the host's clock: the collector's own time of this line (journald's), else the nearest
        # local stamp above (UCX's UTC lines among a server's local ones).
        local = received if received is not None and not received.utc else _local_stamp_above(buf, start, memory)
        return on_local_clock(own, local)
    if own is not None:
        return dated_by(own, actions_time)
    if since_boot(text):
        return None  # the kernel's seconds since boot: no wall time, not even a neighbour's
    # Traceback lines and other continuations inherit the time of the line above them.
    if actions_time is not None:
        return _own_stamp_near_above(buf, start, memory) or parse_actions_time(actions_time)
    found = _stamp_above(buf, start, memory)
    memory.above = (start, found)
    return found


def _stamp_above(buf: Buffer, start: int, memory: StampMemory) -> Stamp | None:
    """The time of the nearest line above that tells one (its own, or the Actions runner's it was
    printed with), however far: a traceback of a hundred frames is as old as the line that announced
    it. Above the buffer's start, the stamp the buffers before it left: the same answer wherever the
    reads ended. A walk stops where the last one started (`StampMemory.above`)."""
    pos = start
    while pos > 0:
        earlier = memory.above
        if earlier is not None and earlier[0] == pos:
            return earlier[1]
        previous = _start_above(buf, pos)
        stamp, above_actions = read_near(buf, previous, pos - 1, memory)
        if stamp is not None:
            return stamp
        if above_actions is not None:
            # A line of multi-line output that the Actions runner stored without its
            # prefix: it was printed with the nearest prefixed line above it.
            return parse_actions_time(above_actions)
        pos = previous
    return memory.last


def _own_stamp_near_above(buf: Buffer, start: int, memory: StampMemory) -> Stamp | None:
    """For a line with the Actions runner's time only: the time of its own a line within
    STAMP_LOOKBACK_LINES above states (the buffers before it: `memory.last_own`), else None."""
    pos = start
    for _ in range(STAMP_LOOKBACK_LINES):
        if pos <= 0:
            return memory.last_own
        previous = _start_above(buf, pos)
        stamp = read_near(buf, previous, pos - 1, memory)[0]
        if stamp is not None:
            return stamp
        pos = previous
    return None


def _local_stamp_above(buf: Buffer, start: int, memory: StampMemory) -> Stamp | None:
    """The nearest line above with a time of its own in the host's local time (not UTC), within
    STAMP_LOOKBACK_LINES lines (the buffer's start counts as one more line: what the buffers before
    it left, `memory.last_own`)."""
    stamp, lines_needed = _walk_for_local_stamp(buf, start, memory)
    memory.local_above = (start, stamp, lines_needed)
    return stamp


def _walk_for_local_stamp(buf: Buffer, start: int, memory: StampMemory) -> tuple[Stamp | None, int | None]:
    pos = start
    for walked in range(STAMP_LOOKBACK_LINES):
        if pos <= 0:
            return memory.last_own, walked + 1
        earlier = memory.local_above
        if earlier is not None and earlier[0] == pos:
            # The lookback from here already ran: its answer holds if it lies within what is left.
            _, stamp, needed = earlier
            if needed is not None and walked + needed <= STAMP_LOOKBACK_LINES:
                return stamp, walked + needed
            return None, None
        previous = _start_above(buf, pos)
        stamp = read_near(buf, previous, pos - 1, memory)[0]
        if stamp is not None and not stamp.utc:
            return stamp, walked + 1
        pos = previous
    return None, None


def latest_for(
    buf: Buffer,
    stop: int,
    end: int,
    own: Stamp | None,
    actions_time: str | None,
    stamp: Stamp | None,
    memory: StampMemory,
) -> float | None:
    """For a line without a time of its own (a crash line, a traceback), the latest it can be:
    the time of the next stamped line below it (or the earliest, when none is in reach).
    None for a line that carries its own time. The buffer holds STAMP_LOOKBACK_LINES lines
    below every scanned line (_defer_for_lookahead), so this does not depend on chunking."""
    if stamp is None or actions_time is not None or own is not None:
        return None
    pos = stop + 1
    for _ in range(STAMP_LOOKBACK_LINES):
        if pos >= end:
            break
        newline = buf.find(b"\n", pos, min(end, pos + MAX_LINE_BYTES))
        stop_at = newline if newline >= 0 else min(end, pos + MAX_LINE_BYTES)
        below, below_actions = read_near(buf, pos, stop_at, memory)
        below = below or (parse_actions_time(below_actions) if below_actions else None)
        if below is not None and below.year_known == stamp.year_known and below.seconds >= stamp.seconds:
            return below.seconds
        if newline < 0:
            break
        pos = newline + 1
    return stamp.seconds


def remember_last_stamp(buf: Buffer, end: int, memory: StampMemory) -> None:
    """The stamps a lookback from the next buffer's first line would find in this one."""
    pos = end
    found = False
    for _ in range(STAMP_LOOKBACK_LINES):
        if pos <= 0:
            return
        previous = _start_above(buf, pos)
        own, actions_time = read_near(buf, previous, pos - 1, memory)
        if own is not None:
            memory.last_own = own
            if not found:
                memory.last = own
            return
        runner = parse_actions_time(actions_time) if actions_time and not found else None
        if runner is not None:
            memory.last, found = runner, True
        pos = previous
