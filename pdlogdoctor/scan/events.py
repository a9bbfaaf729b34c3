"""The searcher's sink: what the lines the searcher finds mean, as events, capped per pattern.

The searcher (search.py) hands over each line that holds an anchor, with the patterns of that
anchor. The sink matches it (and, where no pattern recognises it, asks the open-world layer),
gives it its time (stamps.py), its role (a prefix's tag, a pasted file name) and its captures,
and keeps the first KEEP_PER_PATTERN events of each pattern with the count of the rest.
`merge_partials` joins the sinks of consecutive byte ranges exactly as one sink would have.
"""

from __future__ import annotations

import functools
import operator
from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

from ..library.errorlines import PYTHON_EXCEPTION, ErrorHit, ErrorLayer, Marker
from ..library.fields import typed_fields
from ..library.formats import Formats, LineStamps, Stamp
from ..library.patterns import MATCH_TIMEOUT_S, Pattern, match_line
from ..model import Event, FieldValue, InputProblem, Kind, Mark, Role, Severity
from ..model.lazyre import lazy_re
from ..model.textcut import clip, clip_around
from .reader import Buffer
from .records import Record, is_member_line, record_around
from .roles import STREAM, role_from_name, role_from_prefix, role_from_record, stream_from_prefix
from .series import SeriesBook
from .stamps import StampMemory, latest_for, stamp_for
from .timeline import clean_line, dated_by, grep_file, parse_stamp, parse_stamps
from .traceback import raise_above_its_exception, raising_frame, read_block, stack_above, states_exception
from .trails import starts_a_trail
from .wrapped import Wrapped, message_below, rejoined

if TYPE_CHECKING:
    import regex

KEEP_PER_PATTERN = 20  # first N events of a pattern in one source; the rest are counted
STREAMS_KEPT = 4096  # collector prefixes whose stream is remembered (EventSink.stream_of)
KEEP_PER_TEMPLATE = 3  # first N lines of one unrecognised error template in one source (+ the last)
MAX_TEMPLATES = 400  # distinct error templates kept per source; the rest are counted as one
OVERFLOW_TEMPLATE = "<more error templates than pdlogdoctor keeps per file>"
HEAD_BYTES = 64 << 10  # what role sniffing sees of each source
MAX_TEXT = 2000  # characters of a line kept in an event
MAX_PATTERN_TIMEOUTS = 3  # per pattern and source; then the pattern is dropped there (each costs MATCH_TIMEOUT_S)
# Lines folded: what a pattern's regex found on a line's text from the regex's lead on (`_confirm`),
# and what the error layer made of a line's text, are kept for lines repeated that way (a server's
# line repeated with a new stamp): at most FOLD_ENTRIES of each per source (then they start over),
# of lines of at most FOLD_CHARS.
FOLD_ENTRIES = 2048
FOLD_CHARS = 2000
NUMERIC_KINDS = ("int", "float", "percent", "bool", "duration")  # the captures a metrics track reads
# A metrics line in a stream's first SAMPLE_FULL bytes is read; past them, only those in every
# other SAMPLE_BLOCK of the next SAMPLE_FULL bytes, every fourth block of the next 2 x SAMPLE_FULL,
# and so on: a stream's metrics lines cost reads of about SAMPLE_FULL x (1 + log2(size / SAMPLE_FULL)
# / 2) bytes, each line read standing for the blocks skipped beside it (its series weight). The rule
# depends on a line's offset alone, so ranges scanned apart read exactly the lines one scan reads.
SAMPLE_FULL = 1 << 20
SAMPLE_BLOCK = 16 << 10


@dataclass(slots=True)
class ScanResult:
    events: list[Event]
    lines: int
    bytes: int
    head: str
    problems: list[InputProblem]
    counts: dict[str, int]
    series: SeriesBook = field(default_factory=SeriesBook)  # every line of the metrics patterns


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
    series: SeriesBook = field(default_factory=SeriesBook)
    # Sampled metrics lines skipped in a range that read none of its pattern: they count when
    # another range of the stream read one (merge_partials), as one scan of the stream counts them.
    skipped: dict[str, int] = field(default_factory=dict)


@dataclass(slots=True)
class EventSink:
    """What one source's scan (or one byte range of it) has found so far."""

    name: str
    errors: ErrorLayer | None = None  # the open-world layer, for lines no pattern recognises
    stamps: StampMemory = field(default_factory=StampMemory)
    events: list[Event] = field(default_factory=list)
    counts: dict[str, int] = field(default_factory=dict)
    last_events: dict[str, Event] = field(default_factory=dict)
    keep: int = KEEP_PER_PATTERN + 1  # a partial keeps one more, so merging can find the overflow
    timeouts: dict[str, int] = field(default_factory=dict)  # regex time-outs per pattern
    matched: dict[str, int] = field(default_factory=dict)  # matches per pattern, for `stop_after`
    problems: list[InputProblem] = field(default_factory=list)
    templates: int = 0  # distinct unrecognised error templates recorded
    # Per count key past its cap: the last line counted, its event not made yet (`settle` makes it).
    pending: dict[str, _Pending] = field(default_factory=dict)
    confirmed: dict[tuple[str, str], dict[str, FieldValue] | None] = field(default_factory=dict)  # `_confirm`
    inside: tuple[str, str] = ("", "")  # the last line `_confirm` read behind its timed tags, and what it read
    classified: dict[str, ErrorHit | None] = field(default_factory=dict)  # `_classify`
    read_through: int = 0  # the last row a wrapped line (or record) read whole took in: not read again alone
    by_anchor: tuple[tuple[bytes, tuple[Pattern, ...]], ...] = ()  # the anchor index's, for records read whole
    anchor_texts: tuple[str, ...] = ()  # by_anchor's anchors as text (the index's: `_anchors_in`)
    last_line: int = 0  # the last line something recognised: a row of a wrapped line is not read twice
    series: SeriesBook = field(default_factory=SeriesBook)  # the metrics patterns' lines, every one
    numeric: dict[str, tuple[tuple[str, str], ...]] = field(default_factory=dict)  # a metrics pattern's numbers
    readers: dict[str, _Reader] = field(default_factory=dict)  # where they are in its match (`_reader`)
    plans: dict[tuple[int, ...], _Plan] = field(default_factory=dict)  # per set of anchors a line holds (`plan`)
    # Anchors only a metrics pattern holds (index.sampled): number -> the pattern
    sampled: dict[int, str] = field(default_factory=dict)
    skipped: dict[int, int] = field(default_factory=dict)  # per sampled anchor: lines counted, not read
    # The last line counted past the cap of each metrics pattern, its event not made yet (measure_only).
    unmade: dict[str, tuple[Pattern, int, Stamp | None, str, Callable[[], dict[str, str | None]], str]] = field(
        default_factory=dict
    )
    streams: dict[str, str] = field(default_factory=dict)  # a collector's prefix -> the stream it names (`stream_of`)
    # The error layer's markers whose line may end before its message (`_with_message_below`), once.
    ending_before_message: dict[str, Marker] | None = None

    def has_enough(self, patterns: tuple[Pattern, ...]) -> bool:
        """Every one of `patterns` has been seen as often as it asks (`stop_after`) in this source."""
        return all(_saturated(pattern, self.matched) for pattern in patterns)

    def plan(self, anchors: tuple[int, ...]) -> _Plan:
        """The candidates of a line holding `anchors` (places in `by_anchor`), made once per set:
        a busy log's lines hold the same few sets, and the error layer's keys (`rror`) stand for
        dozens of patterns each."""
        found = self.plans.get(anchors)
        if found is None:
            if len(self.plans) >= FOLD_ENTRIES:
                self.plans.clear()
            found = self.plans[anchors] = _plan(pattern for n in anchors for pattern in self.by_anchor[n][1])
        return found

    def take(self, number: int, offset: int) -> int:
        """Whether to read the line of a metrics anchor at `offset` (in its stream): the lines it
        stands for, or 0 to count it only (SAMPLE_FULL says which are read)."""
        if offset < SAMPLE_FULL:
            return 1
        stride = 1 << (offset // SAMPLE_FULL).bit_length()
        if (offset // SAMPLE_BLOCK) % stride:
            self.skipped[number] = self.skipped.get(number, 0) + 1
            return 0
        return stride

    def line(
        self,
        buf: Buffer,
        start: int,
        stop: int,
        end: int,
        anchors: tuple[int, ...],
        generic: bool,
        line_no: int,
        weight: int = 1,
    ) -> None:
        """The line buf[start:stop] (number `line_no`) holds `anchors` (places in `by_anchor`);
        buf[:end] is what the searcher has (the lines below it, for tracebacks and the latest
        time). `generic`: it was also found by a key of the open-world layer. `weight`: the lines
        a sampled metrics line stands for (`take`)."""
        if line_no <= self.read_through:
            return  # a row of a wrapped line, read with the whole line
        raw = buf[start:stop].decode("utf-8", errors="replace")
        text, actions_time = clean_line(raw)
        if text is not raw and raw.endswith(text):
            # A collector's prefix taken off (`prefill-1  | `, `[pod/x/c] `): an anchor found in it only
            # is no candidate's (a pattern reads the line behind it), on every line of the file.
            anchors = self._anchors_in(anchors, text)
            if not anchors and not generic:
                return
        line = _Line(start, stop, end, line_no, raw, text, actions_time)
        plan = self.plan(anchors)
        if is_member_line(text):
            record = record_around(buf, start, stop, end)
            if record is not None:  # read whole at its first line that holds an anchor
                line, generic = _record_line(record, line), True
                plan = self._plan_in(line.text)
                self.read_through = line_no + record.after
        elif not generic and all(_saturated(pattern, self.matched) for _, pattern, _ in plan):
            # Its patterns stopped (`stop_after`) at an earlier line of this buffer: the searcher
            # found the buffer's lines before any was read. Nothing can recognise it, here or as a
            # wrapped row (a health check's answer every few seconds after the first).
            return
        recognised = _match_line(buf, line, plan, self, weight)
        if generic and not recognised and self.errors is not None:
            recognised = _match_error_line(buf, line, self.errors, self)
        if recognised:
            self.last_line = max(self.last_line, line_no)

    def _anchors_in(self, anchors: tuple[int, ...], text: str) -> tuple[int, ...]:
        """Those of `anchors` (places in `by_anchor`) that `text` holds."""
        if len(self.anchor_texts) != len(self.by_anchor):  # a sink made without its index's texts
            self.anchor_texts = tuple(anchor.decode("utf-8", errors="replace") for anchor, _ in self.by_anchor)
        names = self.anchor_texts
        return tuple(number for number in anchors if names[number] in text)

    def _plan_in(self, text: str) -> _Plan:
        """The candidates of the anchors `text` holds (a record read whole: its lines were handed
        over one by one, each with its own)."""
        data = text.encode()
        return self.plan(tuple(number for number, (anchor, _) in enumerate(self.by_anchor) if anchor in data))

    def settle(self, buf: Buffer) -> None:
        """Before the buffer moves on: the last lines counted past their cap whose events need it (a
        line without a time of its own looks for one above and below it, a traceback is read below)
        get their events now, while `buf` holds them and the stamps remembered from earlier buffers
        are what they were; a line that tells its own time needs only itself, and waits (a later
        line of its kind replaces it). The searcher calls this at the end of each region."""
        for key in [key for key, counted in self.pending.items() if counted.made is None]:
            counted = self.pending[key]
            if not counted.stands_alone(self):
                self.last_events[key] = counted.event(buf, self)
                del self.pending[key]

    def partial(self, lines: int, size: int, head: bytes, problems: list[InputProblem]) -> Partial:
        for key, counted in self.pending.items():  # all stand alone (`settle`)
            self.last_events[key] = counted.event(None, self)
        self.pending.clear()
        self._make_unmade()
        unread = self._count_skipped()
        problems = [*problems, *self.problems]
        return Partial(self.events, self.last_events, self.counts, lines, size, head, problems, self.series, unread)

    def measure(
        self,
        pattern: Pattern,
        stamp: Stamp | None,
        line: _Line,
        captured: dict[str, FieldValue],
        weight: int = 1,
    ) -> None:
        """A metrics line's numbers into its track (series.py), whatever the event cap keeps."""
        names = self._numeric(pattern)
        rank = captured.get("rank")
        if not isinstance(rank, str):
            rank = _rank_label(stamp)
        values = [_as_number(captured.get(name)) for name, _ in names]
        seconds = stamp.seconds if stamp else None
        stream = self.stream_of(line.raw, line.text)
        self.series.add_numbers(pattern.id, names, rank, seconds, line.number, values, line.text, weight, stream)

    def stream_of(self, raw: str, text: str) -> str:
        """The stream a collector's prefix before the line names (scan/roles.stream_from_prefix), read
        once per prefix: "" when the line has none (its file is one stream)."""
        if raw is text or not raw.endswith(text) or len(raw) == len(text):
            return ""
        prefix = raw[: len(raw) - len(text)]
        found = self.streams.get(prefix)
        if found is None:
            named = stream_from_prefix(raw)
            found = named[1] if named is not None else ""
            if len(self.streams) >= STREAMS_KEPT:
                self.streams.clear()  # prefixes that hold a time (a CI runner's) differ on every line
            self.streams[prefix] = found
        return found

    def _numeric(self, pattern: Pattern) -> tuple[tuple[str, str], ...]:
        """The numeric captures of a metrics pattern (name, type), computed once per sink."""
        names = self.numeric.get(pattern.id)
        if names is None:
            names = self.numeric[pattern.id] = tuple((n, kind) for n, kind in pattern.fields if kind in NUMERIC_KINDS)
        return names

    def measure_only(
        self, pattern: Pattern, stamp: Stamp | None, line_no: int, text: str, raw: str, weight: int = 1
    ) -> bool:
        """Match, measure and count a metrics line without making its event: a busy server prints
        one every few seconds, and an event costs more than its numbers. The last one's event is
        made when the range ends (`partial`), as `_record` would have kept it."""
        try:
            found = pattern.regex.search(text, timeout=MATCH_TIMEOUT_S)
        except TimeoutError:
            _pattern_timed_out(pattern, line_no, self)
            return False
        if found is None:
            return False
        self.matched[pattern.id] = self.matched.get(pattern.id, 0) + 1
        names = self._numeric(pattern)
        numbers, rank_at = self._reader(pattern, found)
        groups = found.groups()
        values = _numbers(names, numbers(groups))
        rank = groups[rank_at] if rank_at is not None else None
        rank = rank or _rank_label(stamp)
        seconds = stamp.seconds if stamp else None
        stream = self.stream_of(raw, text)
        self.series.add_numbers(pattern.id, names, rank, seconds, line_no, values, text, weight, stream)
        key = _metrics_key(pattern.id)
        self.counts[key] += 1
        self.unmade[key] = (pattern, line_no, stamp, text, found.groupdict, raw)
        return True

    def _reader(self, pattern: Pattern, found: regex.Match[str]) -> _Reader:
        """Where a metrics pattern's numbers and rank are in its match's `groups()`, made once per
        sink: `group(*names)` looks each name up, ~1 µs a name, and a decode line has nine."""
        reader = self.readers.get(pattern.id)
        if reader is None:
            index = found.re.groupindex
            places = [index[name] - 1 for name in _group_names(self._numeric(pattern))]
            numbers = operator.itemgetter(*places) if places else _no_groups
            reader = self.readers[pattern.id] = (numbers, index["rank"] - 1 if "rank" in index else None)
        return reader

    def _count_skipped(self) -> dict[str, int]:
        """The metrics lines `take` skipped count as their pattern's lines (the lines holding its anchor)
        when a line of the pattern was read; those of a pattern none of whose lines was read, returned."""
        unread: dict[str, int] = {}
        for number, skipped in self.skipped.items():
            pattern_id = self.sampled[number]
            key = _metrics_key(pattern_id)
            if key in self.counts:
                self.counts[key] += skipped
                self.matched[pattern_id] = self.matched.get(pattern_id, 0) + skipped
            else:
                unread[key] = unread.get(key, 0) + skipped
        self.skipped.clear()
        return unread

    def _make_unmade(self) -> None:
        """The events of the last lines `measure_only` counted, as `_record` keeps a run's last."""
        for key, (pattern, line_no, stamp, text, captures, raw) in self.unmade.items():
            event = make_event(pattern, self.name, line_no, stamp, text, typed_fields(pattern.fields, captures()))
            self.last_events[key] = _with_prefix_role(_with_pasted_role(event, raw), raw)
        self.unmade.clear()


@dataclass(slots=True)
class _Line:
    """A line the searcher handed over: where it is in the buffer, and its text."""

    start: int
    stop: int
    end: int  # what the buffer holds (the lines below, for tracebacks and the latest time)
    number: int
    raw: str
    text: str  # without a collector's or launcher's prefix (clean_line)
    actions_time: str | None
    read_stamps: LineStamps | None = None  # its prefixes' times, once read (`stamps`)
    # The whole line a terminal wrapped it from, once read (`_whole_line`): a line no pattern
    # recognised is asked again by the error layer when that recognises nothing either.
    read_whole: tuple[Wrapped | None] | None = None

    def stamps(self, formats: Formats) -> LineStamps:
        if self.read_stamps is None:
            self.read_stamps = parse_stamps(self.text, formats)
        return self.read_stamps


@dataclass(slots=True)
class _Pending:
    """A line that will only be counted unless it is its kind's last: its event is made once
    (`EventSink.settle`), not for each such line. On a busy log most hits are such lines: the
    stamp lookups, traceback reading and event of a line are most of what a hit costs."""

    line: _Line
    pattern: Pattern | None  # None: a line of the generic error layer
    captured: dict[str, FieldValue]
    hit: ErrorHit | None = None
    made: _Made | None = None  # its time, once read from the line alone (`stands_alone`)

    def stands_alone(self, state: EventSink) -> bool:
        """Whether the event can be made from the line alone, later: it states its own time, in the
        host's clock (`stamp_for` reads nothing else then, and `latest_for` nothing at all), and no
        traceback below it is read. Then its time is read now."""
        if self.pattern is not None and self.pattern.block:
            return False
        own = self.line.stamps(state.stamps.formats)[0]
        if own is None or own.utc:
            return False
        self.made = _Made(dated_by(own, self.line.actions_time), None)
        return True

    def event(self, buf: Buffer | None, state: EventSink) -> Event:
        """`buf`: the buffer that holds the line (None once it `stands_alone`)."""
        if self.pattern is None:
            assert self.hit is not None
            return _error_event(buf, self.line, self.hit, state, self.made)
        return _pattern_event(buf, self.line, self.pattern, self.captured, state, self.made)


def merge_partials(name: str, partials: list[Partial], limits: dict[str, int] | None = None) -> ScanResult:
    """Join consecutive ranges of one source exactly as one sequential scan would have.

    `limits` are the patterns' `stop_after`: each range stopped on its own, the source
    as a whole stops at the same count the sequential scan would have.
    """
    sink = EventSink(name, keep=KEEP_PER_PATTERN)
    limits = limits or {}
    line_base = 0
    series = SeriesBook()
    # The lines a range counted beyond the events it kept are added after every range's events:
    # a sequential scan counts sampled metrics lines it skipped only when it ends (EventSink.partial),
    # so counting them between ranges would drop the next range's events past the cap too early.
    beyond: dict[str, int] = defaultdict(int)
    unread: dict[str, int] = defaultdict(int)
    for partial in partials:
        for key, count in partial.skipped.items():
            unread[key] += count
        series.absorb(partial.series, line_base)
        fed: dict[str, int] = defaultdict(int)
        for event in partial.events:
            fed[_key(event)] += 1
            seen = sink.matched.get(event.pattern, 0)
            if event.pattern in limits and seen >= limits[event.pattern]:
                continue
            sink.matched[event.pattern] = seen + 1
            _record(_shifted(event, line_base), sink)
        for key, count in partial.counts.items():
            if count > fed[key]:  # the range had more than it kept: count them, keep its last
                beyond[key] += count - fed[key]
                if key in partial.last_events:  # none when the more were sampled metrics lines, never read
                    sink.last_events[key] = _shifted(partial.last_events[key], line_base)
        line_base += partial.lines
    for key, count in beyond.items():
        sink.counts[key] = sink.counts.get(key, 0) + count
    for key, count in unread.items():
        if key in sink.counts:  # another range read a line of the pattern
            sink.counts[key] += count
    _close_counts(sink, limits)
    # Ranges are consecutive: a short first range's head continues in the next one's.
    head = b"".join(p.head for p in partials)[:HEAD_BYTES].decode("utf-8", errors="replace")
    total = sum(p.size for p in partials)
    problems = [problem for p in partials for problem in p.problems]
    return ScanResult(sink.events, line_base, total, head, problems, sink.counts, series)


def _shifted(event: Event, lines: int) -> Event:
    return replace(event, line=event.line + lines) if lines else event


def _key(event: Event) -> str:
    if event.template is not None:
        return f"{event.pattern}\x00{event.template}"
    return f"{event.pattern}:{event.failing}"


@functools.lru_cache(maxsize=256)
def _metrics_key(pattern_id: str) -> str:
    """The count key of a metrics pattern's events (`_key`: context lines never fail)."""
    return f"{pattern_id}:False"


def _rank_label(stamp: Stamp | None) -> str:
    """The rank tags of a line's prefix as one label ("DP0 TP0"): a track per rank."""
    return _joined_ranks(stamp.ranks) if stamp is not None and stamp.ranks else ""


@functools.lru_cache(maxsize=256)
def _joined_ranks(ranks: tuple[tuple[str, int], ...]) -> str:
    return " ".join(f"{tag}{number}" for tag, number in ranks)


def _as_number(value: FieldValue | None) -> float | None:
    """A typed capture as a track's number (True/False as 1/0); None for anything else."""
    return float(value) if isinstance(value, int | float) else None


# A metrics pattern's match read (`EventSink._reader`): its numbers' texts from `groups()`, and
# where its rank group is (None: it has none).
_Reader = tuple[Callable[[Sequence[str | None]], tuple[str | None, ...]], int | None]


def _no_groups(_groups: Sequence[str | None]) -> tuple[str | None, ...]:
    return ()


@functools.lru_cache(maxsize=64)
def _group_names(names: tuple[tuple[str, str], ...]) -> tuple[str, ...]:
    """The regex groups of a metrics pattern's numbers, twice over when there is one: an
    itemgetter of `groups()` (`EventSink._reader`) returns a tuple only for two places or more."""
    plain = tuple(name for name, _ in names)
    return plain if len(plain) > 1 else plain * 2


def _numbers(names: tuple[tuple[str, str], ...], texts: tuple[str | None, ...]) -> list[float | None]:
    """A metrics line's raw captures as the track's numbers; ints and floats (nearly all of them)
    straight through float()."""
    return [None if text is None else convert(text) for convert, text in zip(_converters(names), texts, strict=False)]


@functools.lru_cache(maxsize=64)
def _converters(names: tuple[tuple[str, str], ...]) -> tuple[Callable[[str], float | None], ...]:
    """Per number of a metrics pattern (name, type), what makes a track's number of its text."""
    return tuple(float if kind in ("int", "float") else functools.partial(_number, kind) for _, kind in names)


def _number(kind: str, text: str | None) -> float | None:
    """A raw capture as a track's number, converted as convert_field would (without its checks:
    a metrics pattern's groups capture digits)."""
    if text is None:
        return None
    try:
        if kind == "bool":
            return 1.0 if text in ("True", "true") else 0.0
        if kind == "percent":
            return round(float(text.rstrip("%")) / 100, 6)
        return float(text.rstrip("sS") if kind == "duration" else text)
    except ValueError:
        return None


def _match_line(buf: Buffer, line: _Line, plan: _Plan, state: EventSink, weight: int = 1) -> bool:
    """Match the line against the patterns of `plan`; True when one of them recognised it."""
    if not plan:
        return False
    text = line.text
    if state.stamps.formats.quotes_code(text):
        # Source that quotes the message (a traceback's `raise X(...)` or `logger.error("...")` line,
        # a file of code): the message did not happen there. Under a traceback the exception line
        # says the same, with the values filled in. The error layer still reads it.
        return False
    if _match_text(buf, line, plan, state, weight):
        return True
    whole = _whole_line(buf, line, state)
    if whole is None or not _match_text(buf, _joined(buf, whole, line), plan, state):
        return False
    state.read_through = line.number + whole.after
    return True


def _record_line(record: Record, line: _Line) -> _Line:
    """A JSON record printed over several lines (records.py) as one line, at its first line."""
    text, received = clean_line(record.text)
    return _Line(record.start, record.stop, line.end, line.number - record.before, record.text, text, received)


def _whole_line(buf: Buffer, line: _Line, state: EventSink) -> Wrapped | None:
    """The whole line when the line is a row of a line a terminal wrapped (wrapped.py); asked
    only for a line that alone says nothing, kept only when whole it does. None when a row above
    it has been read already (its reading stands)."""
    if line.read_whole is None:
        line.read_whole = (rejoined(buf, line.start, line.stop, line.end, line.text, state.stamps.formats),)
    whole = line.read_whole[0]
    if whole is None or state.last_line >= line.number - whole.before:
        return None
    return whole


def _joined(buf: Buffer, whole: Wrapped, line: _Line) -> _Line:
    """The wrapped line as one line, numbered and quoted at its first row."""
    raw = buf[whole.start : whole.stop].decode("utf-8", errors="replace")
    return _Line(whole.start, whole.stop, line.end, line.number - whole.before, raw, whole.text, line.actions_time)


def _match_text(buf: Buffer, line: _Line, plan: _Plan, state: EventSink, weight: int = 1) -> bool:
    """Match `line` (a line the searcher handed over, or the whole line a terminal wrapped it
    from) against the patterns of `plan`; True when one of them recognised it."""
    text = line.text
    made: _Made | None = None
    recognised = False
    for anchor, pattern, metrics in plan:
        present = anchor in text
        if not present and not metrics:
            continue  # match_line would say no (a metrics line is measured by its regex alone: below)
        if state.timeouts.get(pattern.id, 0) >= MAX_PATTERN_TIMEOUTS or _saturated(pattern, state.matched):
            continue
        if metrics and state.counts.get(_metrics_key(pattern.id), 0) >= state.keep:
            # A metrics line past the event cap: its numbers go to the series, no event is made.
            made = made or _Made(_stamp_of(buf, line, state), None)
            recognised = state.measure_only(pattern, made.stamp, line.number, text, line.raw, weight) or recognised
            continue
        if not present:  # match_line would say no: most candidates go here, cheaply
            continue
        try:
            captured = _confirm(pattern, text, state)
        except TimeoutError:
            _pattern_timed_out(pattern, line.number, state)  # one slow line must not stop the scan
            continue
        if captured is None:
            continue
        state.matched[pattern.id] = state.matched.get(pattern.id, 0) + 1
        recognised = True
        if metrics:  # every line's numbers, whatever the event cap keeps
            made = made or _Made.of(buf, line, state)
            state.measure(pattern, made.stamp, line, captured, weight)
        key = _counted_key(pattern, captured)
        if key is None and pattern.block is None:  # a field the condition reads may be a rank tag
            key = _ranked_key(pattern, captured, made.stamp if made else _stamp_of(buf, line, state))
        if key is not None and state.counts.get(key, 0) >= state.keep:
            state.counts[key] += 1  # past the cap: counted; the event is made for the last one only
            state.pending[key] = _Pending(line, pattern, captured)
            continue
        made = made or _Made.of(buf, line, state)
        _record(_pattern_event(buf, line, pattern, captured, state, made), state)
    return recognised


# A line's candidates: each pattern of its anchors once, with its first anchor (`match_line` says
# no on a line without it) and whether it is a metrics pattern (Mark.METRICS: measured by its regex
# alone once its events are kept). Made once per set of anchors (`EventSink.plan`), not per line.
_Candidate = tuple[str, Pattern, bool]
_Plan = tuple[_Candidate, ...]


def _plan(patterns: Iterable[Pattern]) -> _Plan:
    """The candidates of `patterns` in their order, each pattern once (at its first place: a
    later one would be tried on the same text with the same outcome)."""
    seen: set[str] = set()
    plan: list[_Candidate] = []
    for pattern in patterns:
        if pattern.id not in seen:
            seen.add(pattern.id)
            # No anchor beside its any_anchors: "" is in every line, and the searcher handed over
            # only lines holding one of them.
            first = pattern.anchors[0] if pattern.anchors else ""
            plan.append((first, pattern, Mark.METRICS in pattern.marks))
    return tuple(plan)


_UNSEEN: dict[str, FieldValue] = {}  # a marker: no entry for this line yet


def _confirm(pattern: Pattern, text: str, state: EventSink) -> dict[str, FieldValue] | None:
    """`match_line` on the line, and, for a pattern that reads from the line's start, on the line
    behind the timed tags a collector or a launcher put before it (journald's `Mon DD HH:MM:SS host
    prog[pid]: `: Formats.inside_tags, timed_only) and a paste's indentation, as it would read without them."""
    found = _confirm_as_written(pattern, text, state)
    if found is None and _reads_from_line_start(pattern.regex.pattern):
        inside = _inside_tags(text, state)
        if inside != text:
            return _confirm_as_written(pattern, inside, state)
    return found


def _inside_tags(text: str, state: EventSink) -> str:
    """`text` behind its timed tags and indentation, read once a line: a line's candidates are
    confirmed one after another, and on a prefixed log (docker compose's `name  | `) most of them
    ask for it."""
    read, inside = state.inside
    if read is not text:
        inside = state.stamps.formats.inside_tags(text, timed_only=True).lstrip(" ")
        state.inside = (text, inside)
    return inside


@functools.lru_cache(maxsize=4096)
def _reads_from_line_start(source: str) -> bool:
    """The regex matches only at the line's start (`^...`, `(?i)^...`, `(?:^...`)."""
    return _LINE_START.match(source) is not None


_LINE_START = lazy_re(r"(?:\(\?[a-zA-Z]+\))?(?:\((?:\?:)?)?\^")


def _confirm_as_written(pattern: Pattern, text: str, state: EventSink) -> dict[str, FieldValue] | None:
    """`match_line`, once per distinct text from the regex's lead on (LazyRegex.lead): a line
    repeated with another stamp or prefix is matched as it was the first time. A line without the
    lead is not searched at all: the regex cannot match there."""
    lead = pattern.regex.lead
    if not lead:
        return match_line(pattern, text)
    at = text.find(lead)
    if at == -1:
        return None
    tail = text[at:] if at else text
    if len(tail) > FOLD_CHARS:
        return match_line(pattern, text)
    key = (pattern.id, tail)
    found = state.confirmed.get(key, _UNSEEN)
    if found is _UNSEEN:
        found = match_line(pattern, text)
        if len(state.confirmed) >= FOLD_ENTRIES:
            state.confirmed.clear()
        state.confirmed[key] = found
    return None if found is None else dict(found)  # the caller adds to its captures


@dataclass(slots=True)
class _Made:
    """A line's time (its own, or the nearest above) and the latest it can be: read once a line."""

    stamp: Stamp | None
    latest: float | None

    @classmethod
    def of(cls, buf: Buffer, line: _Line, state: EventSink) -> _Made:
        stamps = line.stamps(state.stamps.formats)
        stamp = stamp_for(buf, line.start, line.text, line.actions_time, state.stamps, stamps)
        latest = latest_for(buf, line.stop, line.end, stamps[0], line.actions_time, stamp, state.stamps)
        return cls(stamp, latest)


def _stamp_of(buf: Buffer, line: _Line, state: EventSink) -> Stamp | None:
    """The line's time (its own, or the nearest above), without the latest it can be."""
    return stamp_for(buf, line.start, line.text, line.actions_time, state.stamps, line.stamps(state.stamps.formats))


def _counted_key(pattern: Pattern, captured: dict[str, FieldValue]) -> str | None:
    """The count key (`_key`) of the pattern's event on this line, when the captures alone tell it:
    whether the line fails does not hang on the rank tags of its stamp (added only where a capture
    is missing) nor on the fields of a traceback below it (which replace captures). None: make the
    event to tell."""
    condition = pattern.failure_if
    if condition is None:
        return _fixed_key(pattern.id, pattern.kind is not Kind.CONTEXT)
    if pattern.block is not None or not all(name in captured for name in condition.fields):
        return None
    return f"{pattern.id}:{condition.holds(captured)}"


def _ranked_key(pattern: Pattern, captured: dict[str, FieldValue], stamp: Stamp | None) -> str | None:
    """The count key of the pattern's event when the captures lack a field its condition reads:
    the event takes it from the rank tags of the line's time (`make_event`), which `_stamp_of`
    reads without the latest time a line without its own needs. A benchmark's untimed result
    line past the cap is then counted like any other, its event made for the last one only
    (`_Pending`), not made for each line to be told its key."""
    condition = pattern.failure_if
    if condition is None:
        return None
    fields = dict(captured)
    for rank_name, rank in stamp.ranks if stamp is not None else ():
        fields.setdefault(rank_name.lower(), rank)
    return _fixed_key(pattern.id, condition.holds(fields))


@functools.lru_cache(maxsize=1024)
def _fixed_key(pattern_id: str, failing: bool) -> str:
    return f"{pattern_id}:{failing}"


def _pattern_event(
    buf: Buffer | None,
    line: _Line,
    pattern: Pattern,
    captured: dict[str, FieldValue],
    state: EventSink,
    made: _Made | None = None,
) -> Event:
    """The event of a pattern's line; `buf` holds it (None: `made` is given and there is no block)."""
    if made is None:
        assert buf is not None
        made = _Made.of(buf, line, state)
    stamp = made.stamp
    if pattern.block:
        assert buf is not None
        captured.update(read_block(pattern.block, buf, line.stop, line.end, state.stamps.formats, line.start))
        stamp = stamp or _stated_by_block(captured, state)
    event = make_event(pattern, state.name, line.number, stamp, line.text, captured)
    event = _with_prefix_role(_with_pasted_role(event, line.raw), line.raw)
    if made.latest is not None:
        event = replace(event, time_inferred=True, time_latest=made.latest)
    return event


def _stated_by_block(captured: dict[str, FieldValue], state: EventSink) -> Stamp | None:
    """The time a line's block states for it (`stated_time`: a status dump's state ended then),
    for a line with no time of its own: read as a line's time is, by the catalogue of formats."""
    stated = captured.get("stated_time")
    return parse_stamp(stated, state.stamps.formats) if isinstance(stated, str) else None


def _with_prefix_role(event: Event, raw: str) -> Event:
    """A line whose own prefix names its component has that role: a job script's `[prefill] `
    tag, a compose service or pod name (`decode-1  | `, `[pod/sglang-decode-0/decode] `). A
    service's or pod's line also keeps the stream's name (`stream`): one file of `docker compose
    logs` or `kubectl logs --prefix` holds several processes' streams. A collector's JSON record
    that names its pod (`labels.app = vllm-decode`) gives its line that role: the name is the
    collector's, stated for that one line, as a tag is."""
    open_role = event.role in (Role.UNKNOWN, Role.SERVER)  # a pattern's own role (a decode-only line) stays
    stream = stream_from_prefix(raw)
    if stream is not None:
        return replace(event, role=stream[0] if open_role else event.role, fields=(*event.fields, (STREAM, stream[1])))
    role = (role_from_prefix(raw, tags_only=True) or role_from_record(raw)) if open_role else None
    return replace(event, role=role) if role is not None else event


# The GitHub Actions runner shows a `run:` step's script under `##[group]Run ...`, each line of it in
# bold cyan (`\x1b[36;1m ... \x1b[0m`, after its own time stamp): the commands the step will run, not
# their output (`exit 1   # workflow step failed` is a script's branch, not an exit).
_RUNNER_SCRIPT_ECHO = lazy_re(r"^(?:\d{4}-\d\d-\d\dT[\d:.]+Z )?\x1b\[36;1m")


def _match_error_line(buf: Buffer, line: _Line, errors: ErrorLayer, state: EventSink) -> bool:
    """The generic layer's turn on a line no pattern recognised (errorlines.py decides); a row of
    a wrapped line it reads whole when the row alone says nothing. True when it recognised it."""
    if _RUNNER_SCRIPT_ECHO.match(line.raw):
        return False
    hit = _classify(errors, line.text, state)
    if hit is not None and "raise" in line.text and _raise_statement(buf, line, state):
        return False
    if hit is None:
        whole = _whole_line(buf, line, state)
        if whole is None or _an_error_of_its_own(whole, errors, state):
            return False
        hit = _classify(errors, whole.text, state)
        if hit is None:
            return False
        state.read_through = line.number + whole.after
        line = _joined(buf, whole, line)
    else:
        hit, line = _with_message_below(buf, line, hit, errors, state)
    if hit.severity is Severity.WARNING and starts_a_trail(buf, line.stop, line.end, line.text):
        hit = replace(hit, severity=Severity.ERROR)  # the failure the trail below returns (trails.py)
    key, template = _template_key(hit.marker, hit.template, state)
    if state.counts.get(key, 0) >= _template_keep(state):
        state.counts[key] += 1  # past the cap: counted; the event is made for the last one only
        state.pending[key] = _Pending(line, None, {}, replace(hit, template=template))
        return True
    _record(_error_event(buf, line, hit, state), state)
    return True


def _raise_statement(buf: Buffer, line: _Line, state: EventSink) -> bool:
    """A traceback's `raise ...` source line with its exception below: the exception's line is the
    event (traceback.raise_above_its_exception)."""
    return raise_above_its_exception(buf, line.start, line.stop, line.end, line.text, state.stamps.formats)


def _with_message_below(
    buf: Buffer, line: _Line, hit: ErrorHit, errors: ErrorLayer, state: EventSink
) -> tuple[ErrorHit, _Line]:
    """The error line read with its message when its marker's line ends before it (a Rust panic's
    header, `thread 'main' panicked at src/main.rs:2:5:`, its text on the next line): the next line
    joined to it, unless that line starts like a line of its own. Else the line as it was."""
    if state.ending_before_message is None:
        state.ending_before_message = errors.ending_before_message()
    marker = state.ending_before_message.get(hit.marker)
    if marker is None or not marker.ends_before_message(line.text):
        return hit, line
    below = message_below(
        buf, line.start, line.stop, line.end, line.text, state.stamps.formats, marker.message_indented
    )
    joined = _classify(errors, below.text, state) if below is not None else None
    if below is None or joined is None:
        return hit, line
    state.read_through = line.number + below.after
    return joined, _joined(buf, below, line)


def _an_error_of_its_own(whole: Wrapped, errors: ErrorLayer, state: EventSink) -> bool:
    """A row of the whole line is an error line alone: a line of its own that no format knows (a
    HIP runtime line under a long line), not a wrapped row; the whole line is not read."""
    return any(_classify(errors, row, state) is not None for at, row in enumerate(whole.parts) if at != whole.before)


def _classify(errors: ErrorLayer, text: str, state: EventSink) -> ErrorHit | None:
    """`errors.classify`, once per distinct text: a traceback's lines repeat word for word."""
    if len(text) > FOLD_CHARS:
        return errors.classify(text)
    hit = state.classified.get(text, _NO_HIT)
    if hit is _NO_HIT:
        hit = errors.classify(text)
        if len(state.classified) >= FOLD_ENTRIES:
            state.classified.clear()
        state.classified[text] = hit
    return hit


_NO_HIT = ErrorHit("", Severity.INFO, "")  # a marker: no entry for this text yet


def _error_event(buf: Buffer | None, line: _Line, hit: ErrorHit, state: EventSink, made: _Made | None = None) -> Event:
    """The event of an unrecognised error line; `buf` holds it (None: `made` gives its time). A line
    with no time of its own has the stamped line above's, marked inferred: it was written at or after
    that time (glibc's assertion between a health check and the crash it caused)."""
    if made is None:
        assert buf is not None
        made = _Made.of(buf, line, state)
    stamp = made.stamp
    event = Event(
        pattern=hit.marker,
        source=state.name,
        line=line.number,
        time=stamp.seconds if stamp else None,
        time_text=stamp.text if stamp else None,
        text=clip(line.text, MAX_TEXT),  # a token across the cut goes whole: redaction runs on this text later
        fields=_error_fields(buf, line, hit, stamp, state),
        severity=hit.severity,
        kind=Kind.CAUSE if hit.severity is Severity.CRITICAL else Kind.SYMPTOM,
        failing=True,
        template=hit.template,
        time_inferred=made.latest is not None,
        time_latest=made.latest,
    )
    return _with_prefix_role(event, line.raw)


def _error_fields(buf: Buffer | None, line: _Line, hit: ErrorHit, stamp: Stamp | None, state: EventSink) -> Fields:
    """An unrecognised error line's ranks, and for a Python exception the frame that raised it and
    the stack of its traceback (read above it: frames.toml places the process it ended)."""
    fields: list[tuple[str, FieldValue]] = [(name.lower(), rank) for name, rank in stamp.ranks] if stamp else []
    if buf is None:
        return tuple(sorted(fields))
    formats = state.stamps.formats
    if hit.marker == PYTHON_EXCEPTION or _names_an_exception(line.text, formats):
        # an exception's line behind a logger's level (`ERROR ... [core.py:521] AssertionError`) too
        frame = raising_frame(buf, line.start, line.text, formats)
        fields += [("raised_at", frame)] if frame else []
        fields += list(stack_above(buf, line.start, line.text, formats).items())
    return tuple(sorted(fields))


def _names_an_exception(text: str, formats: Formats) -> bool:
    """The error line's message is an exception's line; told by its words first: every error line of
    a dense log comes here, and few name an exception."""
    return ("Error" in text or "Exception" in text) and states_exception(formats.message(text))


def _saturated(pattern: Pattern, matched: dict[str, int]) -> bool:
    return pattern.stop_after is not None and matched.get(pattern.id, 0) >= pattern.stop_after


def _pattern_timed_out(pattern: Pattern, line_no: int, state: EventSink) -> None:
    count = state.timeouts.get(pattern.id, 0) + 1
    state.timeouts[pattern.id] = count
    if count == 1:
        message = f"pattern {pattern.id} ({pattern.path}) timed out on line {line_no}; that line was not matched"
        state.problems.append(InputProblem("pattern-timeout", message))
    if count == MAX_PATTERN_TIMEOUTS:
        message = f"pattern {pattern.id} timed out {count} times; not matched on the rest of this source"
        state.problems.append(InputProblem("pattern-timeout", message))


# Equal field tuples, one object: 10,000 small files kept 216,829 (name, value) pairs in 36,757
# events, of which 21,406 differ (the same rank tags, counters and statuses on many lines). Keyed by
# the values' types too, so 1, 1.0 and True (equal to Python) stay what they were; a tuple holding
# -0.0 (equal to 0.0) or a tuple value is left alone. At most SHARED_FIELDS tuples are remembered.
SHARED_FIELDS = 1 << 16
Fields = tuple[tuple[str, FieldValue], ...]


def shared_fields(fields: Fields) -> Fields:
    """`fields`, or the equal tuple of values of the same types met before (the same to every reader)."""
    kinds = tuple([value.__class__ for _, value in fields])
    if tuple in kinds or (float in kinds and any(value == 0.0 and str(value)[0] == "-" for _, value in fields)):
        return fields
    return _first_of((fields, kinds))[0]


@functools.lru_cache(maxsize=SHARED_FIELDS)
def _first_of(key: tuple[Fields, tuple[type, ...]]) -> tuple[Fields, tuple[type, ...]]:
    """The first key met equal to `key`: its fields are the ones shared."""
    return key


def make_event(
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
        text=_kept_text(pattern, text),
        fields=shared_fields(tuple(sorted(captured.items()))),
        severity=severity,
        kind=pattern.kind,
        failing=failing,
        role=pattern.roles[0] if len(pattern.roles) == 1 else Role.UNKNOWN,
    )


MATCH_KEPT = MAX_TEXT // 2  # a line cut to MAX_TEXT keeps the match whole up to this length, else its start


def _kept_text(pattern: Pattern, text: str) -> str:
    """The line an event keeps: cut to MAX_TEXT, and, when the pattern matched past the cut (TGI's
    request timings after two thousand characters of a grammar's JSON schema), cut so that the
    match's start stays in view. A token across a cut goes whole: redaction runs on this text later."""
    if len(text) <= MAX_TEXT:
        return text
    found = pattern.regex.search(text)
    if found is None or found.end() <= MAX_TEXT - 1:
        return clip(text, MAX_TEXT)
    return clip_around(text, MAX_TEXT, text[found.start() : min(found.end(), found.start() + MATCH_KEPT)])


def _with_pasted_role(event: Event, raw: str) -> Event:
    """A line from a `grep -H` paste takes its side from the file name in its prefix (`vllm_p3.log:`)."""
    if event.role is not Role.UNKNOWN:
        return event
    pasted = grep_file(raw)
    found = role_from_name(pasted) if pasted else None
    return replace(event, role=found[0]) if found else event


def _record(event: Event, state: EventSink) -> None:
    # Failing and passing matches of one pattern are counted apart, so a run of
    # successful warmups cannot push the one failing warmup out of the kept events.
    key = _key(event)
    keep = state.keep
    if event.template is not None:
        key, template = _template_key(event.pattern, event.template, state)
        if template != event.template:
            event = replace(event, template=template)
        state.templates += key not in state.counts
        keep = _template_keep(state)
    count = state.counts.get(key, 0) + 1
    state.counts[key] = count
    if count <= keep:
        state.events.append(event)
    else:
        state.last_events[key] = event


def _template_key(marker: str, template: str, state: EventSink) -> tuple[str, str]:
    """The count key of an unrecognised line, and its template: past MAX_TEMPLATES distinct ones,
    a new template is counted as the overflow one."""
    key = f"{marker}\x00{template}"
    if key not in state.counts and state.templates >= MAX_TEMPLATES:
        return f"{marker}\x00{OVERFLOW_TEMPLATE}", OVERFLOW_TEMPLATE
    return key, template


def _template_keep(state: EventSink) -> int:
    return KEEP_PER_TEMPLATE + state.keep - KEEP_PER_PATTERN


def _close_counts(state: EventSink, limits: dict[str, int]) -> None:
    """Keep the last match of a long run too, and tell every kept event how many lines its kind has
    (model/counts.py: a kind's count is said once, whichever of its events a report shows); a
    pattern that stopped at its `stop_after` has a count that is a floor."""
    state.events.extend(state.last_events.values())
    stopped = {pattern for pattern, limit in limits.items() if state.matched.get(pattern, 0) >= limit}
    for position, event in enumerate(state.events):
        count = state.counts[_key(event)]
        at_least = event.pattern in stopped and event.template is None
        if count > 1 or at_least:
            state.events[position] = replace(event, repeats=count, at_least=at_least)
    merged: dict[str, int] = defaultdict(int)
    for key, count in state.counts.items():
        merged[key.split("\x00", 1)[0] if "\x00" in key else key.rsplit(":", 1)[0]] += count
    state.counts = dict(merged)
