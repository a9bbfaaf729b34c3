"""Extract: scan one byte stream for every pattern of the library, in chunks.

The scan never looks at a line unless it contains a pattern's primary anchor:
`bytes.find` over multi-megabyte chunks skips the batch-log noise at memory
speed, and only the few anchored lines are decoded and matched with a regex.
Memory is bounded by the chunk size, the longest line we keep, and a cap on
the events kept per pattern.
"""

from __future__ import annotations

import bisect
import io
import itertools
import queue
import threading
import zlib
from collections import defaultdict
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace

from ..ingest import ByteSource, StreamStopped
from ..ingest.streams import plain_size, read_into, read_sizes
from ..library.errorlines import ErrorLayer
from ..library.lazyregex import LazyRegex
from ..library.patterns import Library, Pattern, match_line
from ..model import Event, FieldValue, InputProblem, Kind, Role, Severity
from ..model.textcut import clip
from ..model.values import record
from . import accel
from .accel import Matcher
from .roles import role_from_name, role_from_prefix
from .timeline import (
    Stamp,
    clean_line,
    dated_by,
    grep_file,
    on_local_clock,
    parse_actions_time,
    parse_stamp,
    since_boot,
)
from .traceback import read_block

CHUNK_BYTES = 8 << 20
PREFETCH_MIN_CHUNK = 1 << 20  # smaller reads (tests) stay on one thread
PREFETCH_CHUNKS = 2  # decompressed chunks read ahead: bounded memory
MAX_LINE_BYTES = 64 << 10  # what we keep of one line around an anchor
LONG_LINE_CARRY = 4 << 20  # a partial line longer than this is scanned in windows
BLOCK_LOOKAHEAD = 256 << 10  # room a traceback needs after its first line
KEEP_PER_PATTERN = 20  # first N events of a pattern in one source; the rest are counted
KEEP_PER_TEMPLATE = 3  # first N lines of one unrecognised error template in one source (+ the last)
MAX_TEMPLATES = 400  # distinct error templates kept per source; the rest are counted as one
OVERFLOW_TEMPLATE = "<more error templates than pdlogdoctor keeps per file>"
HEAD_BYTES = 64 << 10  # what role sniffing sees of each source
MAX_TEXT = 2000  # characters of a line kept in an event
STAMP_LOOKBACK_LINES = 60
MAX_PATTERN_TIMEOUTS = 3  # per pattern and source; then the pattern is dropped there (each costs MATCH_TIMEOUT_S)
# A `raise` statement a traceback quotes (at a line's start, as pasted, or indented under a
# logger's `[file:line] ` prefix).
_RAISE_STATEMENT = LazyRegex(r"^(?:.*?\] \s+|\s*)raise [A-Za-z_][\w.]*(?:\(|\s*$)")


@dataclass(slots=True)
class ScanResult:
    events: list[Event]
    lines: int
    bytes: int
    head: str
    problems: list[InputProblem]
    counts: dict[str, int]


@record
class AnchorIndex:
    """Patterns grouped by the primary anchor the scanner searches for."""

    by_anchor: tuple[tuple[bytes, tuple[Pattern, ...]], ...]
    blocks: frozenset[str]
    fast: Matcher | None = field(default=None, compare=False)  # a compiled matcher (accel.py); None: bytes.find
    # The generic error layer rides on the same search: `generic` holds the positions in
    # `by_anchor` of the keys that find its lines (see errorlines.py).
    errors: ErrorLayer | None = field(default=None, compare=False)
    generic: frozenset[int] = frozenset()

    def limits(self) -> dict[str, int]:
        """Each pattern's `stop_after`, for merging ranges scanned apart."""
        return {p.id: p.stop_after for _, group in self.by_anchor for p in group if p.stop_after is not None}

    @property
    def matcher(self) -> str:
        """Which matcher finds the anchors: hyperscan, ahocorasick or pure."""
        return accel.name_of(self.fast)

    @classmethod
    def build(cls, library: Library, matcher: str = accel.AUTO, build_at: int = 0) -> AnchorIndex:
        """`build_at`: the matcher is built on the first region of that many bytes (accel.Deferred:
        a run's small input is searched without one); 0: built now."""
        groups: dict[bytes, list[Pattern]] = defaultdict(list)
        generic_anchors = [a.encode() for a in library.errors.anchors] if library.errors else []
        own = [pattern.primary_anchor.encode() for pattern in library.patterns]  # a property: computed once
        primaries = set(own) | set(generic_anchors)
        escaped = {anchor: _json_escaped(anchor) for anchor in primaries if _json_escaped(anchor) != anchor}
        search_key = _search_keys(primaries | set(escaped.values()))
        for pattern, anchor in zip(library.patterns, own, strict=True):
            for key in {search_key[form] for form in _forms(anchor, escaped)}:
                groups[key].append(pattern)
        generic_keys = {search_key[form] for anchor in generic_anchors for form in _forms(anchor, escaped)}
        for key in generic_keys:
            groups.setdefault(key, [])
        ordered = tuple((anchor, tuple(group)) for anchor, group in sorted(groups.items()))
        blocks = frozenset(p.id for p in library.patterns if p.block)
        anchors = [anchor for anchor, _ in ordered]
        fast = accel.deferred(anchors, matcher, build_at) if build_at else accel.load(anchors, matcher)
        generic = frozenset(number for number, (anchor, _) in enumerate(ordered) if anchor in generic_keys)
        return cls(ordered, blocks, fast, library.errors, generic)


def _json_escaped(anchor: bytes) -> bytes:
    """The anchor as a JSON-lines collector stores it (collectors.py): a line holding `"` or `\\`
    is matched unwrapped, but found in the file's bytes, where they are escaped."""
    return anchor.replace(b"\\", b"\\\\").replace(b'"', b'\\"')


def _forms(anchor: bytes, escaped: dict[bytes, bytes]) -> tuple[bytes, ...]:
    return (anchor, escaped[anchor]) if anchor in escaped else (anchor,)


def _search_keys(primaries: set[bytes]) -> dict[bytes, bytes]:
    """Each anchor's search key: the shortest (then smallest) other anchor inside it, else itself.

    A line holding an anchor holds every anchor inside it: one search pass serves both.
    match_line still checks every anchor of the pattern, so this only saves passes.
    Every run builds the index, so the anchors are searched for in all of them at once, joined
    (a `bytes.find` per anchor): testing every pair with `in` cost ~3.5 ms of a run's start-up.
    """
    ordered = sorted(primaries, key=lambda anchor: (len(anchor), anchor))  # the preferred key first
    joined = b"\0".join(ordered)
    starts = list(itertools.accumulate((len(anchor) + 1 for anchor in ordered[:-1]), initial=0))
    keys: dict[bytes, bytes] = {}
    for other in ordered:
        pos = joined.find(other)
        while pos != -1:
            number = bisect.bisect_right(starts, pos) - 1
            holder = ordered[number]
            inside = pos + len(other) <= starts[number] + len(holder)  # not across a separator
            if inside and holder != other:
                keys.setdefault(holder, other)
            pos = joined.find(other, pos + 1)
    return {anchor: keys.get(anchor, anchor) for anchor in ordered}


@dataclass(slots=True)
class _State:
    """What one source's scan carries from chunk to chunk."""

    name: str
    line_base: int = 0  # lines before the current buffer
    offset_base: int = 0  # bytes before the current buffer
    last_stamp: Stamp | None = None  # of the last stamped line (its own time, or the Actions runner's)
    last_own_stamp: Stamp | None = None  # of the last line with a time of its own
    events: list[Event] = field(default_factory=list)
    counts: dict[str, int] = field(default_factory=dict)
    last_events: dict[str, Event] = field(default_factory=dict)
    resume: int = 0  # where the next buffer's search starts (after a long-line window)
    keep: int = KEEP_PER_PATTERN + 1  # a partial keeps one more, so merging can find the overflow
    timeouts: dict[str, int] = field(default_factory=dict)  # regex time-outs per pattern
    matched: dict[str, int] = field(default_factory=dict)  # matches per pattern, for `stop_after`
    problems: list[InputProblem] = field(default_factory=list)
    templates: int = 0  # distinct unrecognised error templates recorded


@dataclass(slots=True)
class Partial:
    """One stream or one byte range of a file, before the per-source event cap is applied.

    Lines are numbered from the start of the range; `merge_partials` shifts them.
    """

    events: list[Event]
    last_events: dict[str, Event]
    counts: dict[str, int]
    lines: int
    size: int
    head: bytes
    problems: list[InputProblem]


# What the scan reads: the bytes in front are a window's, the rest stale (bytearray: reused buffer).
Buffer = bytes | bytearray


class _Window:
    """One source's bytes as the scan sees them, in one bytearray reused from read to read: the
    unfinished tail the last scan left at the front, fresh bytes after it. A plain file is read
    into it in place: no fresh buffer per read, no join of pieces, no join of tail and chunk.

    The first read is small, the next ones chunk_bytes (read_sizes), the buffer growing once:
    zeroing a buffer for a whole chunk up front cost a one-line file ~5 ms of its start-up (the
    scan does not depend on where reads end: tests/test_scanner.py)."""

    def __init__(self, chunk_bytes: int, size: int | None = None) -> None:
        self.chunk_bytes = chunk_bytes
        self.sizes = read_sizes(chunk_bytes, size)  # `size`: the source's, when known
        self.reading = next(self.sizes)  # the next read's size
        self.data = bytearray(_with_tail_room(self.reading))
        self.end = 0  # data[:end] is the source's; the rest is stale
        self.short = False  # the last read gave less than it asked for (the end, or a slow pipe)

    def read(self, stream: ByteSource, problems: list[InputProblem]) -> int:
        """Up to `reading` more bytes from `stream`: how many; 0 at the end (early: a problem says why).
        After a short read the buffer grows only once full: the read that finds the end needs no
        chunk-sized buffer (~5 ms for a one-line stdin)."""
        size = self.reading
        if not self.short or self.end == len(self.data):
            self._room(size)
        stop = min(self.end + size, len(self.data))
        try:
            got = read_into(stream, self.data, self.end, stop)
        except Exception as exc:
            problems.append(_read_problem(exc))
            return 0
        self.short = got < stop - self.end
        self.end += got
        self.reading = next(self.sizes)
        return got

    def append(self, data: bytes) -> None:
        self._room(len(data))
        self.data[self.end : self.end + len(data)] = data
        self.end += len(data)

    def drop_before(self, cut: int) -> None:
        """Keep data[cut:end] only, moved to the front (usually a few lines: the lookahead)."""
        if cut:
            self.data[: self.end - cut] = self.data[cut : self.end]
            self.end -= cut

    def _room(self, size: int) -> None:
        """Grow when reads grow, or when the tail is long (a long line, a traceback waiting for its end)."""
        if self.end + size > len(self.data):
            grown = bytearray(max(self.end + _with_tail_room(size), 2 * len(self.data)))
            grown[: self.end] = memoryview(self.data)[: self.end]
            self.data = grown


def _with_tail_room(read: int) -> int:
    """A buffer for reads of `read` bytes, with room for the usual tail in front: no growth."""
    return read + read // 8


def _fills(window: _Window, stream: ByteSource, problems: list[InputProblem]) -> Iterator[int]:
    """Fill `window` read by read; yields how many bytes each read added.

    A decompressing stream is read ahead on a thread: zstd and zlib release the GIL,
    so the next chunk inflates on the other core while this one is matched.
    """
    if window.chunk_bytes >= PREFETCH_MIN_CHUNK and not _is_plain(stream):
        for data in _read_ahead(stream, problems, window.chunk_bytes):
            window.append(data)
            yield len(data)
        return
    while got := window.read(stream, problems):
        yield got


def _is_plain(stream: ByteSource) -> bool:
    raw = getattr(stream, "raw", None)
    return getattr(stream, "plain_path", None) is not None or isinstance(raw, io.FileIO)


def _read_ahead(stream: ByteSource, problems: list[InputProblem], size: int) -> Iterator[bytes]:
    ready: queue.Queue[bytes | None] = queue.Queue(maxsize=PREFETCH_CHUNKS)
    stop = threading.Event()
    found: list[InputProblem] = []  # problems are handed over only after the last chunk

    def hand_over(item: bytes | None) -> bool:
        """Queue an item for the consumer; False once the consumer has stopped reading."""
        while not stop.is_set():
            try:
                ready.put(item, timeout=0.1)
                return True
            except queue.Full:
                continue
        return False

    def produce() -> None:
        try:
            for data in _read_chunks(stream, found, size):
                if not hand_over(data):
                    return
        finally:
            hand_over(None)

    worker = threading.Thread(target=produce, name="pdlogdoctor-read-ahead", daemon=True)
    worker.start()
    try:
        while (data := ready.get()) is not None:
            yield data
    finally:
        stop.set()  # the consumer may stop early: let the reader end instead of blocking
        worker.join()
        problems.extend(found)


def _read_chunks(stream: ByteSource, problems: list[InputProblem], size: int) -> Iterator[bytes]:
    while True:
        try:
            data = stream.read(size)
        except Exception as exc:
            problems.append(_read_problem(exc))
            return
        if not data:
            return
        yield data


def _read_problem(exc: Exception) -> InputProblem:
    """Why a read stopped early: a truncated or corrupt stream ends the source, it is no error."""
    if isinstance(exc, StreamStopped):  # ingest knows why: truncated, output cap, still growing, timeout
        return exc.problem
    if isinstance(exc, (EOFError, zlib.error, OSError, ValueError)):
        return InputProblem("truncated", f"stopped reading early: {exc or type(exc).__name__}")
    return InputProblem("corrupt", f"stopped reading early: {exc}")  # zstandard raises its own error type


def scan_stream(
    stream: ByteSource,
    name: str,
    index: AnchorIndex,
    chunk_bytes: int = CHUNK_BYTES,
    on_progress: Callable[[int], None] | None = None,
) -> ScanResult:
    partial = scan_partial(stream, name, index, chunk_bytes, on_progress)
    return merge_partials(name, [partial])


def scan_partial(
    stream: ByteSource,
    name: str,
    index: AnchorIndex,
    chunk_bytes: int = CHUNK_BYTES,
    on_progress: Callable[[int], None] | None = None,
    context: tuple[bytes, bytes] = (b"", b""),
) -> Partial:
    """Scan a stream, or a byte range of a file when `context` gives the bytes around it.

    context[0] ends where the range starts (its last stamp is the range's starting
    stamp); context[1] follows the range (a traceback may run into it); no line of
    the context is matched or counted.
    """
    problems: list[InputProblem] = []
    state = _State(name)
    if context[0]:
        _remember_last_stamp(context[0], len(context[0]), state)
    head = b""
    window = _Window(chunk_bytes, plain_size(stream))
    total = 0
    fresh = 0  # bytes read since the last scan
    for got in _fills(window, stream, problems):
        total += got
        if len(head) < HEAD_BYTES:
            start = window.end - got
            head += window.data[start : min(window.end, start + HEAD_BYTES - len(head))]
        fresh += got
        # The tail keeps STAMP_LOOKBACK_LINES lines that each scan walks again: scan once the new
        # bytes outweigh it, so small reads (a slow pipe) cost linear time, not tail x reads.
        if fresh >= window.end - fresh:
            window.drop_before(_scan_buffer(window.data, window.end, index, state, final=False))
            fresh = 0
        if on_progress:
            on_progress(got)
    if window.end:
        stop = window.end
        last_byte = window.data[stop - 1]
        window.append(context[1])
        _scan_buffer(window.data, window.end, index, state, final=True, stop=stop)
        state.line_base += 0 if last_byte == NEWLINE else 1  # a last line without a newline counts
    problems.extend(state.problems)
    return Partial(state.events, state.last_events, state.counts, state.line_base, total, head, problems)


def merge_partials(name: str, partials: list[Partial], limits: dict[str, int] | None = None) -> ScanResult:
    """Join consecutive ranges of one source exactly as one sequential scan would have.

    `limits` are the patterns' `stop_after`: each range stopped on its own, the source
    as a whole stops at the same count the sequential scan would have.
    """
    state = _State(name, keep=KEEP_PER_PATTERN)
    limits = limits or {}
    for partial in partials:
        fed: dict[str, int] = defaultdict(int)
        for event in partial.events:
            fed[_key(event)] += 1
            seen = state.matched.get(event.pattern, 0)
            if event.pattern in limits and seen >= limits[event.pattern]:
                continue
            state.matched[event.pattern] = seen + 1
            _record(_shifted(event, state.line_base), state)
        for key, count in partial.counts.items():
            if count > fed[key]:  # the range had more than it kept: count them, keep its last
                state.counts[key] = state.counts.get(key, 0) + count - fed[key]
                state.last_events[key] = _shifted(partial.last_events[key], state.line_base)
        state.line_base += partial.lines
    _close_counts(state)
    # Ranges are consecutive: a short first range's head continues in the next one's.
    head = b"".join(p.head for p in partials)[:HEAD_BYTES].decode("utf-8", errors="replace")
    total = sum(p.size for p in partials)
    problems = [problem for p in partials for problem in p.problems]
    return ScanResult(state.events, state.line_base, total, head, problems, state.counts)


def _shifted(event: Event, lines: int) -> Event:
    return replace(event, line=event.line + lines) if lines else event


def _key(event: Event) -> str:
    if event.template is not None:
        return f"{event.pattern}\x00{event.template}"
    return f"{event.pattern}:{event.failing}"


NEWLINE = ord("\n")


def _scan_buffer(buf: Buffer, end: int, index: AnchorIndex, state: _State, final: bool, stop: int | None = None) -> int:
    """Scan the complete lines of buf[:end]; return where the unfinished tail starts (the next
    scan's buffer begins with buf[cut:end]).

    With `stop`, only lines starting before it are this scan's; the bytes after it
    are context for tracebacks and line ends.
    """
    lo, state.resume = state.resume, 0
    newlines = _Newlines(buf)
    if stop is not None:
        _scan_region(buf, lo, stop, end, index, state, newlines)
        state.line_base += newlines.before(stop)
        return end
    cut = end if final else buf.rfind(b"\n", 0, end) + 1
    if cut == 0:
        return _scan_long_line_window(buf, end, lo, index, state)
    complete = cut
    cut = _defer_for_lookahead(buf, _defer_open_block(buf, cut, index, final), complete, final)
    if cut == 0:  # a traceback, or the lines below the last ones, have not arrived whole yet
        state.resume = lo
        return 0
    _scan_region(buf, lo, cut, complete, index, state, newlines)
    state.line_base += newlines.before(cut)
    state.offset_base += cut
    return cut


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
    _scan_region(buf, lo, hi, end, index, state, _Newlines(buf))
    keep_from = hi - MAX_LINE_BYTES
    state.offset_base += keep_from
    state.resume = MAX_LINE_BYTES
    return keep_from


def _defer_open_block(buf: Buffer, cut: int, index: AnchorIndex, final: bool) -> int:
    """Move the cut before a traceback that may run past it, so it is read whole next time."""
    if final or not index.blocks:
        return cut
    tail_start = max(0, cut - BLOCK_LOOKAHEAD)
    earliest = cut
    # The block patterns' own anchors, not their search keys: a key shared with the generic
    # layer ("xception") is far more common than the line that starts a traceback.
    for anchor in {p.primary_anchor.encode() for _, group in index.by_anchor for p in group if p.block}:
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


# A line found by a key of the generic error layer: (line end, patterns, read by the layer too)
_Found = tuple[int, list[Pattern], bool]


def _find_lines(buf: Buffer, lo: int, hi: int, limit: int, index: AnchorIndex, state: _State) -> dict[int, _Found]:
    """Lines holding an anchor found in [lo, hi), keyed by line start; lines may reach `limit`."""
    lines: dict[int, _Found] = {}
    hits = index.fast.positions(buf, lo, hi) if index.fast is not None else None
    for number, (anchor, patterns) in enumerate(index.by_anchor):
        generic = number in index.generic
        if not generic and all(_saturated(pattern, state.matched) for pattern in patterns):
            continue  # every pattern of this anchor has been seen enough in this source
        starts = iter(hits[number]) if hits is not None else None
        pos = _next_hit(buf, anchor, lo, hi, starts)
        while pos != -1:
            start = _line_start(buf, pos)
            stop = _line_end(buf, pos, limit)
            entry = lines.get(start)
            if entry is None:
                lines[start] = (stop, list(patterns), generic)
            else:
                entry[1].extend(patterns)
                if generic and not entry[2]:
                    lines[start] = (entry[0], entry[1], True)
            pos = _next_hit(buf, anchor, max(stop, pos + 1), hi, starts)
    return lines


def _next_hit(buf: Buffer, anchor: bytes, frm: int, hi: int, starts: Iterator[int] | None) -> int:
    """The first occurrence at or after `frm`: bytes.find, or the accelerator's sorted hits."""
    if starts is None:
        return buf.find(anchor, frm, hi)
    return next((pos for pos in starts if pos >= frm), -1)


def _line_start(buf: Buffer, pos: int) -> int:
    floor = max(0, pos - MAX_LINE_BYTES)
    newline = buf.rfind(b"\n", floor, pos)
    return newline + 1 if newline != -1 else floor


def _line_end(buf: Buffer, pos: int, end: int) -> int:
    ceiling = min(end, pos + MAX_LINE_BYTES)
    newline = buf.find(b"\n", pos, ceiling)
    return newline if newline != -1 else ceiling


class _Newlines:
    """The newlines of one buffer, counted once from left to right: the line numbers of its hits
    and the buffer's line total share one pass (`bytes.count` is most of the scan's cost after
    the matcher)."""

    def __init__(self, buf: Buffer) -> None:
        self.buf = buf
        self.counted_to = 0
        self.count = 0

    def before(self, pos: int) -> int:
        """Newlines in buf[:pos]; `pos` never decreases from one call to the next."""
        self.count += self.buf.count(b"\n", self.counted_to, pos)
        self.counted_to = pos
        return self.count


def _scan_region(
    buf: Buffer, lo: int, hi: int, limit: int, index: AnchorIndex, state: _State, newlines: _Newlines
) -> None:
    found = _find_lines(buf, lo, hi, limit, index, state)
    if not found:
        _remember_last_stamp(buf, hi, state)  # the lines past hi are scanned (and remembered) next time
        return
    for start in sorted(found):
        stop, patterns, generic = found[start]
        line_no = state.line_base + newlines.before(start)
        recognised = _match_line(buf, start, stop, limit, patterns, line_no + 1, state)
        if generic and not recognised and index.errors is not None:
            _match_error_line(buf, start, stop, index.errors, line_no + 1, state)
    _remember_last_stamp(buf, hi, state)


def _match_line(
    buf: Buffer, start: int, stop: int, end: int, patterns: list[Pattern], line_no: int, state: _State
) -> bool:
    """Match the line against `patterns`; True when one of them recognised it."""
    if not patterns:
        return False
    raw = buf[start:stop].decode("utf-8", errors="replace")
    text, actions_time = clean_line(raw)
    if _RAISE_STATEMENT.match(text):
        # Python source a traceback quotes: the exception line under it says the same, with the
        # values filled in, and is the one occurrence to count. The error layer still reads it.
        return False
    stamp: Stamp | None = None
    latest: float | None = None
    recognised = False
    seen: set[str] = set()
    for pattern in patterns:
        if pattern.id in seen:
            continue
        seen.add(pattern.id)
        if state.timeouts.get(pattern.id, 0) >= MAX_PATTERN_TIMEOUTS or _saturated(pattern, state.matched):
            continue
        try:
            captured = match_line(pattern, text)
        except TimeoutError:
            _pattern_timed_out(pattern, line_no, state)  # one slow line must not stop the scan
            continue
        if captured is None:
            continue
        if stamp is None:
            stamp = _stamp_for(buf, start, text, actions_time, state)
            latest = _latest_for(buf, stop, end, text, actions_time, stamp)
        if pattern.block:
            captured.update(read_block(pattern.block, buf, stop, end))
        state.matched[pattern.id] = state.matched.get(pattern.id, 0) + 1
        recognised = True
        event = _make_event(pattern, state.name, line_no, stamp, text, captured)
        event = _with_prefix_role(_with_pasted_role(event, raw), raw)
        if latest is not None:
            event = replace(event, time_inferred=True, time_latest=latest)
        _record(event, state)
    return recognised


def _with_prefix_role(event: Event, raw: str, tags_only: bool = True) -> Event:
    """A line whose own prefix names its component has that role: a job script's `[prefill] `
    tag; for unrecognised lines also a compose service or pod name (`decode-1  | `). (Library
    lines in compose pastes keep the roles their patterns and files give them.)"""
    if event.role not in (Role.UNKNOWN, Role.SERVER):
        return event
    role = role_from_prefix(raw, tags_only)
    return replace(event, role=role) if role is not None else event


def _match_error_line(buf: Buffer, start: int, stop: int, errors: ErrorLayer, line_no: int, state: _State) -> None:
    """The generic layer's turn on a line no pattern recognised (errorlines.py decides)."""
    raw = buf[start:stop].decode("utf-8", errors="replace")
    text, actions_time = clean_line(raw)
    hit = errors.classify(text)
    if hit is None:
        return
    stamp = _stamp_for(buf, start, text, actions_time, state)
    event = Event(
        pattern=hit.marker,
        source=state.name,
        line=line_no,
        time=stamp.seconds if stamp else None,
        time_text=stamp.text if stamp else None,
        text=text[:MAX_TEXT],
        fields=tuple(sorted((name.lower(), rank) for name, rank in stamp.ranks)) if stamp else (),
        severity=hit.severity,
        kind=Kind.CAUSE if hit.severity is Severity.CRITICAL else Kind.SYMPTOM,
        failing=True,
        template=hit.template,
    )
    _record(_with_prefix_role(event, raw, tags_only=False), state)


def _saturated(pattern: Pattern, matched: dict[str, int]) -> bool:
    return pattern.stop_after is not None and matched.get(pattern.id, 0) >= pattern.stop_after


def _pattern_timed_out(pattern: Pattern, line_no: int, state: _State) -> None:
    count = state.timeouts.get(pattern.id, 0) + 1
    state.timeouts[pattern.id] = count
    if count == 1:
        message = f"pattern {pattern.id} ({pattern.path}) timed out on line {line_no}; that line was not matched"
        state.problems.append(InputProblem("pattern-timeout", message))
    if count == MAX_PATTERN_TIMEOUTS:
        message = f"pattern {pattern.id} timed out {count} times; not matched on the rest of this source"
        state.problems.append(InputProblem("pattern-timeout", message))


def _stamp_for(buf: Buffer, start: int, text: str, actions_time: str | None, state: _State) -> Stamp | None:
    own = parse_stamp(text)
    if own is not None and own.utc:
        return on_local_clock(own, _local_stamp_above(buf, start, state))
    if own is not None:
        return dated_by(own, actions_time)
    if since_boot(text):
        return None  # the kernel's seconds since boot: no wall time, not even a neighbour's
    # Traceback lines and other continuations inherit the time of the line above them.
    pos = start
    for _ in range(STAMP_LOOKBACK_LINES):
        if pos <= 0:
            # The lines above are in an earlier buffer (or range): the stamp remembered
            # from there is what this lookback would have found, whatever the chunking.
            # A line with the runner's time only looks above for a line's own time.
            remembered = state.last_stamp if actions_time is None else state.last_own_stamp
            if remembered is not None:
                return remembered
            break
        previous = buf.rfind(b"\n", max(0, pos - 1 - MAX_LINE_BYTES), pos - 1) + 1
        candidate, above_actions = clean_line(buf[previous : pos - 1].decode("utf-8", errors="replace"))
        stamp = parse_stamp(candidate)
        if stamp is not None:
            return stamp
        if actions_time is None and above_actions is not None:
            # A line of multi-line output that the Actions runner stored without its
            # prefix: it was printed with the nearest prefixed line above it.
            return parse_actions_time(above_actions)
        pos = previous
    if actions_time is not None:
        return parse_actions_time(actions_time)
    return state.last_stamp


def _local_stamp_above(buf: Buffer, start: int, state: _State) -> Stamp | None:
    """The nearest line above with a time of its own in the host's local time (not UTC)."""
    pos = start
    for _ in range(STAMP_LOOKBACK_LINES):
        if pos <= 0:
            return state.last_own_stamp
        previous = buf.rfind(b"\n", max(0, pos - 1 - MAX_LINE_BYTES), pos - 1) + 1
        stamp = parse_stamp(clean_line(buf[previous : pos - 1].decode("utf-8", errors="replace"))[0])
        if stamp is not None and not stamp.utc:
            return stamp
        pos = previous
    return None


def _latest_for(
    buf: Buffer, stop: int, end: int, text: str, actions_time: str | None, stamp: Stamp | None
) -> float | None:
    """For a line without a time of its own (a crash line, a traceback), the latest it can be:
    the time of the next stamped line below it (or the earliest, when none is in reach).
    None for a line that carries its own time. The buffer holds STAMP_LOOKBACK_LINES lines
    below every scanned line (_defer_for_lookahead), so this does not depend on chunking."""
    if stamp is None or actions_time is not None or parse_stamp(text) is not None:
        return None
    pos = stop + 1
    for _ in range(STAMP_LOOKBACK_LINES):
        if pos >= end:
            break
        newline = buf.find(b"\n", pos, min(end, pos + MAX_LINE_BYTES))
        stop_at = newline if newline >= 0 else min(end, pos + MAX_LINE_BYTES)
        candidate, below_actions = clean_line(buf[pos:stop_at].decode("utf-8", errors="replace"))
        below = parse_stamp(candidate) or (parse_actions_time(below_actions) if below_actions else None)
        if below is not None and below.year_known == stamp.year_known and below.seconds >= stamp.seconds:
            return below.seconds
        if newline < 0:
            break
        pos = newline + 1
    return stamp.seconds


def _remember_last_stamp(buf: Buffer, end: int, state: _State) -> None:
    """The stamps a lookback from the next buffer's first line would find in this one."""
    pos = end
    found = False
    for _ in range(STAMP_LOOKBACK_LINES):
        if pos <= 0:
            return
        previous = buf.rfind(b"\n", max(0, pos - 1 - MAX_LINE_BYTES), pos - 1) + 1
        candidate, actions_time = clean_line(buf[previous : pos - 1].decode("utf-8", errors="replace"))
        own = parse_stamp(candidate)
        if own is not None:
            state.last_own_stamp = own
            if not found:
                state.last_stamp = own
            return
        runner = parse_actions_time(actions_time) if actions_time and not found else None
        if runner is not None:
            state.last_stamp, found = runner, True
        pos = previous


def _make_event(
    pattern: Pattern, source: str, line_no: int, stamp: Stamp | None, text: str, captured: dict[str, FieldValue]
) -> Event:
    if stamp is not None:
        for rank_name, rank in stamp.ranks:
            captured.setdefault(rank_name.lower(), rank)
    failing = pattern.kind is not Kind.CONTEXT
    if pattern.failure_if is not None:
        failing = pattern.failure_if.holds(captured)
    severity = pattern.severity if failing or pattern.failure_if is None else Severity.INFO
    return Event(
        pattern=pattern.id,
        source=source,
        line=line_no,
        time=stamp.seconds if stamp else None,
        time_text=stamp.text if stamp else None,
        text=clip(text, MAX_TEXT),  # a token across the cut goes whole: redaction runs on this text later
        fields=tuple(sorted(captured.items())),
        severity=severity,
        kind=pattern.kind,
        failing=failing,
        role=pattern.roles[0] if len(pattern.roles) == 1 else Role.UNKNOWN,
    )


def _with_pasted_role(event: Event, raw: str) -> Event:
    """A line from a `grep -H` paste takes its side from the file name in its prefix (`vllm_p3.log:`)."""
    if event.role is not Role.UNKNOWN:
        return event
    pasted = grep_file(raw)
    found = role_from_name(pasted) if pasted else None
    return replace(event, role=found[0]) if found else event


def _record(event: Event, state: _State) -> None:
    # Failing and passing matches of one pattern are counted apart, so a run of
    # successful warmups cannot push the one failing warmup out of the kept events.
    key = _key(event)
    keep = state.keep
    if event.template is not None:
        if key not in state.counts:
            if state.templates >= MAX_TEMPLATES:
                event = replace(event, template=OVERFLOW_TEMPLATE)
                key = _key(event)
            state.templates += key not in state.counts
        keep = KEEP_PER_TEMPLATE + state.keep - KEEP_PER_PATTERN
    count = state.counts.get(key, 0) + 1
    state.counts[key] = count
    if count <= keep:
        state.events.append(event)
    else:
        state.last_events[key] = event


def _close_counts(state: _State) -> None:
    """Keep the last match of a long run too, and tell the first how many it stands for."""
    state.events.extend(state.last_events.values())
    firsts: dict[str, int] = {}
    for position, event in enumerate(state.events):
        firsts.setdefault(_key(event), position)
    for key, position in firsts.items():
        count = state.counts[key]
        if count > 1:
            state.events[position] = replace(state.events[position], repeats=count)
    merged: dict[str, int] = defaultdict(int)
    for key, count in state.counts.items():
        merged[key.split("\x00", 1)[0] if "\x00" in key else key.rsplit(":", 1)[0]] += count
    state.counts = dict(merged)
