"""The searcher: a source's lines that hold an anchor, found in chunks, handed to the sink.

The scan never looks at a line unless it contains a pattern's primary anchor: one pass of the
anchor index's matcher (or `bytes.find`) over multi-megabyte chunks skips the batch-log noise at
memory speed, and only the anchored lines are handed over (events.py decides what they mean).
Memory is bounded by the chunk size, the longest line kept (reader.py), and the sink's caps.
A chunk ends before a traceback that may run past it, keeps STAMP_LOOKBACK_LINES lines below
every handed-over line, and the next one starts with the rows above its first line (a line a
terminal wrapped is read whole from any of its rows), so what is found never depends on where
reads end.
"""

from __future__ import annotations

import copy
import functools
import itertools
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, fields, replace
from typing import Any

from ..ingest import ByteSource
from ..ingest.streams import plain_size
from ..model import InputProblem
from . import events
from .events import HEAD_BYTES, EventSink, Partial, ScanResult, merge_partials
from .index import AnchorIndex
from .reader import CHUNK_BYTES, MAX_LINE_BYTES, NEWLINE, Buffer, Newlines, Window, fills, line_end, line_start
from .series import SeriesBook
from .stamps import STAMP_LOOKBACK_LINES, StampMemory, forget_nearby, remember_last_stamp
from .wrapped import MAX_PART_BYTES, MAX_PARTS

LONG_LINE_CARRY = 4 << 20  # a partial line longer than this is scanned in windows
BLOCK_LOOKAHEAD = 256 << 10  # room a traceback needs after its first line


@dataclass(slots=True)
class _State:
    """Where the searcher is in its source, from buffer to buffer, and the sink it hands lines to."""

    sink: EventSink
    line_base: int = 0  # lines before the current buffer
    offset: int = 0  # the stream's bytes before the current buffer (from the file's start, for a range)
    resume: int = 0  # where the next buffer's search starts (after a long-line window, the rows kept above a cut)


def scan_stream(
    stream: ByteSource,
    name: str,
    index: AnchorIndex,
    chunk_bytes: int = CHUNK_BYTES,
    on_progress: Callable[[int], None] | None = None,
) -> ScanResult:
    partial = scan_partial(stream, name, index, chunk_bytes, on_progress)
    return merge_partials(name, [partial], index.limits())


def scan_partial(
    stream: ByteSource,
    name: str,
    index: AnchorIndex,
    chunk_bytes: int = CHUNK_BYTES,
    on_progress: Callable[[int], None] | None = None,
    context: tuple[bytes, bytes] = (b"", b""),
    offset: int = 0,
) -> Partial:
    """Scan a stream, or a byte range of a file when `context` gives the bytes around it.

    context[0] ends where the range starts (its last stamp is the range's starting
    stamp); context[1] follows the range (a traceback may run into it); no line of
    the context is matched or counted. `offset`: where the range starts in its file (which
    metrics lines are read depends on it: events.SAMPLE_FULL).
    """
    search = Search(name, index, Window(chunk_bytes, plain_size(stream)), offset)
    if context[0]:
        remember_last_stamp(context[0], len(context[0]), search.state.sink.stamps)
    for got in fills(search.window, stream, search.problems):
        search.took(got)
        if on_progress:
            on_progress(got)
    return search.finish(context[1])


class Search:
    """One source's search in progress: the bytes it holds (`window`: the unfinished tail the last
    scan left, fresh bytes after it), where it is (`_State`, with the sink), and the source's head.

    scan_partial reads a stream through it to the end; a followed file (growing.py) is read
    into it as it grows, and `ended_here` says what the scan would find if it ended now."""

    __slots__ = ("fresh", "head", "index", "problems", "state", "total", "window")

    def __init__(self, name: str, index: AnchorIndex, window: Window, offset: int = 0) -> None:
        self.index = index
        self.window = window
        self.state = _State(_sink(name, index, StampMemory(formats=index.formats)), offset=offset)
        self.head = b""
        self.total = 0
        self.fresh = 0  # bytes read since the last scan
        self.problems: list[InputProblem] = []

    def took(self, got: int) -> None:
        """`got` bytes were just added at the window's end: scan the lines they complete."""
        window = self.window
        self.total += got
        if len(self.head) < HEAD_BYTES:
            start = window.end - got
            self.head += window.data[start : min(window.end, start + HEAD_BYTES - len(self.head))]
        self.fresh += got
        if self.total == window.size:
            # The whole file is in (a small file: its only read): `finish` scans it in one pass. A
            # file that grows past its size is scanned as it is read, its window bounded as before.
            return
        # The tail keeps STAMP_LOOKBACK_LINES lines that each scan walks again: scan once the new
        # bytes outweigh it, so small reads (a slow pipe) cost linear time, not tail x reads.
        if self.fresh >= window.end - self.fresh:
            cut = _scan_buffer(window.data, window.end, self.index, self.state, final=False)
            window.drop_before(cut)
            self.state.offset += cut
            self.fresh = 0

    def finish(self, after: bytes = b"") -> Partial:
        """The source ends here: scan what the window still holds (`after`: context past the end)."""
        if self.window.end:
            stop = self.window.end
            self.window.append(after)
            _scan_to_the_end(self.window.data, stop, self.window.end, self.index, self.state)
        return self.state.sink.partial(self.state.line_base, self.total, self.head, self.problems)

    def ended_here(self) -> Partial:
        """What `finish` would find now, leaving the search as it is: `finish` on a copy of the state
        and its sink. A followed file's snapshot: its next bytes may still complete the lines held
        back. (Not the window's bytes scanned by a sink of their own: past SAMPLE_FULL such a sink
        reads the first metrics lines it meets, which the source's sink only counts.)"""
        state = self.state
        copy = replace(state, sink=_copied(state.sink))
        held = self.window.end
        if held:
            _scan_to_the_end(self.window.data, held, held, self.index, copy)
        return copy.sink.partial(copy.line_base, self.total, self.head, list(self.problems))


def _sink(name: str, index: AnchorIndex, stamps: StampMemory) -> EventSink:
    return EventSink(
        name,
        index.errors,
        stamps,
        sampled=dict(index.sampled),
        by_anchor=index.by_anchor,
        anchor_texts=index.anchor_texts,
    )


def _copied(sink: EventSink) -> EventSink:
    """The sink with copies of all that scanning on and making a partial change: its lists and dicts,
    the stamps it remembers, and its metrics tracks (each line adds to them)."""
    copies: dict[str, Any] = {}
    for each in fields(sink):
        value = getattr(sink, each.name)
        if isinstance(value, list | dict):
            copies[each.name] = copy.copy(value)
        elif isinstance(value, SeriesBook):
            copies[each.name] = copy.deepcopy(value)
    return replace(sink, stamps=replace(sink.stamps), **copies)


def _scan_to_the_end(buf: Buffer, stop: int, end: int, index: AnchorIndex, state: _State) -> None:
    """The last scan of a source: every line starting before `stop` (buf[stop:end] is context)."""
    last_byte = buf[stop - 1]
    _scan_buffer(buf, end, index, state, final=True, stop=stop)
    state.line_base += 0 if last_byte == NEWLINE else 1  # a last line without a newline counts


def _scan_buffer(buf: Buffer, end: int, index: AnchorIndex, state: _State, final: bool, stop: int | None = None) -> int:
    """Scan the complete lines of buf[:end]; return where the unfinished tail starts (the next
    scan's buffer begins with buf[cut:end]).

    With `stop`, only lines starting before it are this scan's; the bytes after it
    are context for tracebacks and line ends.
    """
    lo, state.resume = state.resume, 0
    newlines = Newlines(buf)
    if stop is not None:
        _scan_region(buf, lo, stop, end, index, state, newlines)
        state.line_base += newlines.before(stop)
        return end
    cut = end if final else buf.rfind(b"\n", lo, end) + 1
    if cut == 0:  # no line has ended since the last scan (the rows kept above it are old)
        return _scan_long_line_window(buf, end, lo, index, state)
    complete = cut
    cut = _defer_for_lookahead(buf, _defer_open_block(buf, cut, index, final), complete, final)
    if cut <= lo:  # a traceback, or the lines below the last ones, have not arrived whole yet
        state.resume = lo
        return 0
    _scan_region(buf, lo, cut, complete, index, state, newlines)
    keep = _keep_rows_above(buf, cut)
    state.line_base += newlines.before(cut) - buf.count(b"\n", keep, cut)
    state.resume = cut - keep  # the next scan starts at the cut, with the rows above it in reach
    return keep


def _scan_long_line_window(buf: Buffer, end: int, lo: int, index: AnchorIndex, state: _State) -> int:
    """One line longer than the carry limit: scan what has full context, keep a window.

    Anchors in [lo, hi) are matched now with MAX_LINE_BYTES of context on each
    side; the kept tail starts MAX_LINE_BYTES before hi, and the next scan
    resumes at hi, so every anchor is matched exactly once and memory stays bounded.
    """
    if end <= LONG_LINE_CARRY:
        state.resume = lo
        return 0
    hi = end - MAX_LINE_BYTES
    _scan_region(buf, lo, hi, end, index, state, Newlines(buf))
    keep_from = hi - MAX_LINE_BYTES
    state.resume = MAX_LINE_BYTES
    return keep_from


def _keep_rows_above(buf: Buffer, cut: int) -> int:
    """Where the next buffer starts: MAX_PARTS rows above the cut, so a line the next scan finds
    at its top can be read with the rows a terminal wrapped it from (wrapped.py), whatever the
    chunking. Only rows a terminal could have wrapped are kept (each up to MAX_PART_BYTES)."""
    keep = cut
    for _ in range(MAX_PARTS):
        if keep <= 0:
            break
        above = buf.rfind(b"\n", max(0, keep - 2 - MAX_PART_BYTES), keep - 1) + 1
        if keep - above > MAX_PART_BYTES or (above == 0 and keep - 2 - MAX_PART_BYTES > 0):
            break
        keep = above
    return keep


def _defer_open_block(buf: Buffer, cut: int, index: AnchorIndex, final: bool) -> int:
    """Move the cut before a traceback that may run past it, so it is read whole next time."""
    if final or not index.blocks:
        return cut
    tail_start = max(0, cut - BLOCK_LOOKAHEAD)
    earliest = cut
    # The block patterns' own anchors, not their search keys: a key shared with the generic
    # layer ("xception") is far more common than the line that starts a traceback.
    for anchor in index.block_anchors:
        pos = buf.find(anchor, tail_start, cut)
        if pos != -1:
            earliest = min(earliest, buf.rfind(b"\n", 0, pos) + 1)
    # Deferring never loses data: the carry grows until the lookahead is there or the stream ends.
    return earliest


def _defer_for_lookahead(buf: Buffer, cut: int, complete: int, final: bool) -> int:
    """Move the cut back so STAMP_LOOKBACK_LINES complete lines stay below every scanned line: an
    untimed line's latest time comes from the stamped lines under it, and they must be in the
    buffer wherever the chunks happen to end."""
    if final:
        return cut
    pos = complete
    for _ in range(STAMP_LOOKBACK_LINES):
        if pos <= 0:
            return 0
        pos = buf.rfind(b"\n", 0, pos - 1) + 1
    return min(cut, pos)


# A line found: (line end, the anchors found in it by their place in the index's `by_anchor`, read
# by the generic error layer too, the lines it stands for)
_Found = tuple[int, tuple[int, ...], bool, int]


def _find_lines(buf: Buffer, lo: int, hi: int, limit: int, index: AnchorIndex, state: _State) -> dict[int, _Found]:
    """Lines holding an anchor found in [lo, hi), keyed by line start; lines may reach `limit`."""
    lines: dict[int, _Found] = {}
    hits = index.fast.positions(buf, lo, hi) if index.fast is not None else None
    sampled = state.sink.sampled
    firsts = _firsts(hits, index)
    by_anchor = index.by_anchor
    for number in _searched(hits, index):
        anchor, patterns = by_anchor[number]
        if number in sampled:
            if state.sink.has_enough(patterns):
                continue
            first = firsts[number] if firsts else buf.find(anchor, lo, hi)
            if first != -1:
                _find_sampled(buf, first, hi, limit, (number, anchor), state, lines)
            continue
        starts = hits[index.slots[number]] if hits is not None else _occurrences(buf, anchor, lo, hi)
        if not starts:
            continue
        generic = number in index.generic
        if not generic and state.sink.has_enough(patterns):
            continue  # every pattern of this anchor has been seen enough in this source
        _add_lines(buf, lo, limit, starts, number, generic, lines)
    return lines


def _searched(hits: list[list[int]] | None, index: AnchorIndex) -> Iterable[int]:
    """The anchors `_find_lines` looks at, in their order: with a matcher's report, those it found
    and the sampled ones (it does not report those); every one without. A small file holds a few of
    the hundreds of anchors, and a pass over all of them was ~0.1 ms a file."""
    if hits is None:
        return range(len(index.by_anchor))
    found = itertools.compress(index.numbers, hits)  # the places of what it found (an empty list: none)
    return sorted([*(number for number, _ in index.sampled), *found])


def _add_lines(
    buf: Buffer, lo: int, limit: int, starts: Iterable[int], number: int, generic: bool, lines: dict[int, _Found]
) -> None:
    """The lines holding the hits `starts` of the anchor `number` into `lines`, each line once
    (its later hits are skipped). `line_end`, `line_start` and `_add_line` inlined: on a dense
    log every hit passes here."""
    after = lo
    find, rfind = buf.find, buf.rfind
    for pos in starts:
        if pos < after:
            continue
        ceiling = min(limit, pos + MAX_LINE_BYTES)
        stop = find(b"\n", pos, ceiling)
        if stop == -1:
            stop = ceiling
        floor = max(0, pos - MAX_LINE_BYTES)
        start = rfind(b"\n", floor, pos) + 1 or floor
        entry = lines.get(start)
        if entry is None:
            lines[start] = (stop, (number,), generic, 1)
        else:
            lines[start] = (entry[0], (*entry[1], number), generic or entry[2], entry[3])
        after = max(stop, pos + 1)


def _firsts(hits: list[list[int]] | None, index: AnchorIndex) -> dict[int, int]:
    """Per sampled anchor, where it first occurs in the region (-1: nowhere), when the matcher told
    it in its pass (accel.load's `once`); empty when it did not."""
    if hits is None or not index.firsts or len(hits) <= index.firsts[-1][1]:
        return {}
    return {number: hits[slot][0] if hits[slot] else -1 for number, slot in index.firsts}


def _add_line(
    buf: Buffer, pos: int, stop: int, number: int, generic: bool, weight: int, lines: dict[int, _Found]
) -> None:
    """The line holding the hit at `pos` (it ends at `stop`) of the anchor `number`, into `lines`."""
    start = line_start(buf, pos)
    entry = lines.get(start)
    if entry is None:
        lines[start] = (stop, (number,), generic, weight)
    else:
        lines[start] = (entry[0], (*entry[1], number), generic or entry[2], max(weight, entry[3]))


def _find_sampled(
    buf: Buffer,
    first: int,
    hi: int,
    limit: int,
    sampled: tuple[int, bytes],
    state: _State,
    lines: dict[int, _Found],
) -> None:
    """The lines of a sampled (metrics) anchor in [first, hi) that the sample reads, into `lines` (its
    first occurrence is at `first`); its occurrences in a block the sample skips are counted
    (EventSink.take) a block at a time, by bytes.count, not one by one: what `take` on each
    occurrence in turn would count and read."""
    number, anchor = sampled
    sink, base, block = state.sink, state.offset, events.SAMPLE_BLOCK
    pos = first
    while pos != -1:
        weight = sink.take(number, base + pos)
        if weight:
            stop = line_end(buf, pos, limit)
            _add_line(buf, pos, stop, number, False, weight, lines)
            pos = buf.find(anchor, max(stop, pos + 1), hi)
            continue
        block_end = min(hi, (base + pos) // block * block + block - base)
        sink.skipped[number] += _starts_in(buf, anchor, pos + 1, block_end, hi)  # the rest of the block
        pos = buf.find(anchor, block_end, hi)


def _starts_in(buf: Buffer, anchor: bytes, start: int, stop: int, hi: int) -> int:
    """How many occurrences of `anchor` start in buf[start:stop] and end by `hi`, overlapping ones
    included (what a matcher reports): bytes.count, which counts them apart, when no two can overlap."""
    if start >= stop:
        return 0
    end = min(hi, stop + len(anchor) - 1)
    if not _overlaps(anchor):
        return buf.count(anchor, start, end)
    count, pos = 0, buf.find(anchor, start, end)
    while pos != -1:
        count, pos = count + 1, buf.find(anchor, pos + 1, end)
    return count


@functools.cache
def _overlaps(anchor: bytes) -> bool:
    """Two occurrences of `anchor` can overlap: it ends with a proper prefix of itself."""
    return any(anchor.endswith(anchor[:size]) for size in range(1, len(anchor)))


def _occurrences(buf: Buffer, anchor: bytes, lo: int, hi: int) -> Iterator[int]:
    """Where `anchor` starts in buf[lo:hi] (bytes.find: the pure loop, or a small region)."""
    pos = buf.find(anchor, lo, hi)
    while pos != -1:
        yield pos
        pos = buf.find(anchor, pos + 1, hi)


def _scan_region(
    buf: Buffer, lo: int, hi: int, limit: int, index: AnchorIndex, state: _State, newlines: Newlines
) -> None:
    found = _find_lines(buf, lo, hi, limit, index, state)
    stamps = state.sink.stamps
    forget_nearby(stamps)  # what the lines of an earlier buffer (or of a context) said
    if found:
        for start in sorted(found):
            stop, anchors, generic, weight = found[start]
            line_no = state.line_base + newlines.before(start) + 1
            state.sink.line(buf, start, stop, limit, anchors, generic, line_no, weight)
        state.sink.settle(buf)  # before the buffer moves on and the stamps below are remembered
    remember_last_stamp(buf, hi, stamps)  # the lines past hi are scanned (and remembered) next time
    forget_nearby(stamps)  # the buffer moves on
