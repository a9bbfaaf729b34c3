"""The one function that composes the stages: ingest -> extract -> link -> diagnose -> excerpt.

It only composes: the verdict (including "evidence incomplete") is diagnose's, roles are roles'.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import replace
from typing import BinaryIO

from .describe.excerpt import build_excerpt
from .describe.quiet import describe_quiet
from .ingest import ByteSource, Deadline, LogInput, discover
from .ingest.duplicates import prefer_zstd
from .ingest.rotation import as_streams, joined_sources, per_file, streams
from .library.patterns import Library
from .model import ClockOffset, Event, InputProblem, Report, Role, Source
from .model.options import RunOptions
from .model.values import record
from .reason.clocks import annotate, correct, estimate_offsets, slack, window_note, within
from .reason.diagnose import diagnose
from .reason.link import link
from .reason.unexplained import attach, benign_split, cleared_split, with_cleared_notes
from .scan import accel
from .scan.collectors import unwrap_head
from .scan.extract import AnchorIndex, ScanResult, scan_stream
from .scan.logshape import not_serving_problem, serving_log_reason, set_aside, set_aside_note
from .scan.parallel import plain_file_path, scan_file_parallel, usable_cores, worth_splitting
from .scan.roles import detect_role, node_from_name, with_source_role
from .scan.timeline import with_year, year_of

DEFAULT_OPTIONS = RunOptions()


@record
class Scanned:
    source: Source
    events: tuple[Event, ...]


@record
class Analysis:
    """A run's report with every event and source it rests on (run profiles read them: profile.py)."""

    report: Report
    events: tuple[Event, ...]
    sources: tuple[Source, ...]


def run(
    paths: Sequence[str],
    library: Library,
    stdin: BinaryIO | None = None,
    on_progress: Callable[[int], None] | None = None,
    options: RunOptions = DEFAULT_OPTIONS,
) -> Report:
    """ingest -> scan -> link -> diagnose, then the excerpt of the chain's lines."""
    return analyse(paths, library, stdin, on_progress, options).report


def analyse(
    paths: Sequence[str],
    library: Library,
    stdin: BinaryIO | None = None,
    on_progress: Callable[[int], None] | None = None,
    options: RunOptions = DEFAULT_OPTIONS,
) -> Analysis:
    """`run`, keeping the events and sources next to the report."""
    deadline = Deadline(options.timeout)
    inputs = prefer_zstd(discover(list(paths), stdin, options.limits))
    index = AnchorIndex.build(library, options.matcher, accel.BUILD_AT)  # its matcher: built once input needs it
    workers = options.workers or usable_cores()
    scanned = [item for log_input in inputs for item in scan_input(log_input, index, on_progress, deadline, workers)]
    sources = tuple(item.source for item in scanned)
    aside = set(set_aside(sources))  # not serving logs: their lines are no evidence (logshape.py)
    placed = _place_on_timeline([e for item in scanned if item.source.name not in aside for e in item.events])
    events = [e for e in placed if not e.unrecognised]
    errors = [e for e in placed if e.unrecognised]  # the generic layer's lines: see unexplained.py
    clocks = _clock_offsets(events, sources)
    events = within(
        correct(events, clocks), options.since, options.until
    )  # before linking: the links rest on time windows
    events, recovered = benign_split(events, library)  # on corrected times: a recovery may be in another file
    events, cleared = cleared_split(events, library)
    nodes = {s.name: s.node for s in sources}
    widened = slack(clocks)
    report = diagnose(events, link(events, library, nodes, widened), sources, library, widened)
    report = attach(report, within(correct(errors, clocks), options.since, options.until), events, library, recovered)
    report = with_cleared_notes(report, cleared, library)
    report = describe_quiet(report, library.errors, frozenset((e.source, e.line) for e in events), options.matcher)
    report = annotate(report, clocks, window_note(options.since, options.until))
    note = set_aside_note(sources)
    report = replace(report, notes=(*report.notes, note)) if note else report
    report = replace(report, glossary=_glossary(report, library))
    report = replace(report, excerpt=build_excerpt(report)) if options.excerpt else report
    return Analysis(report, tuple(events), sources)


def _clock_offsets(events: list[Event], sources: tuple[Source, ...]) -> tuple[ClockOffset, ...]:
    """Each file's clock offset; the segments of a rotated log share one clock, estimated as one."""
    named = streams(s.name for s in sources)
    if not named:
        return estimate_offsets(events, sources)
    return per_file(estimate_offsets(as_streams(events, named), joined_sources(sources, named)), named)


def _glossary(report: Report, library: Library) -> tuple[tuple[str, str], ...]:
    """What each pattern the report shows means, so a renderer can say it without the library."""
    titles = {pattern.id: pattern.title for pattern in library.patterns}
    shown = sorted({event.pattern for event in (*report.roots, *report.chain)})
    return tuple((pattern_id, titles[pattern_id]) for pattern_id in shown if pattern_id in titles)


def scan_input(
    log_input: LogInput,
    index: AnchorIndex,
    on_progress: Callable[[int], None] | None = None,
    deadline: Deadline | None = None,
    workers: int = 1,
) -> Iterator[Scanned]:
    deadline = deadline or Deadline(None)
    if deadline.passed:
        yield Scanned(_unread_source(replace(log_input, problems=(*log_input.problems, _NOT_STARTED))), ())
        return
    if log_input.members is not None:
        yield from _scan_members(log_input, index, on_progress, deadline)  # members are never split
        return
    if log_input.open is None:
        yield Scanned(_unread_source(log_input), ())
        return
    try:
        stream = log_input.open()
    except Exception as exc:  # zipfile and the decompressors raise more than OSError
        message = (exc.strerror if isinstance(exc, OSError) else None) or str(exc) or type(exc).__name__
        problem = InputProblem("unreadable", message)
        yield Scanned(_unread_source(replace(log_input, problems=(problem,))), ())
        return
    with stream:
        yield scan_one(log_input.name, deadline.wrap(stream), index, log_input.problems, on_progress, workers)


_NOT_STARTED = InputProblem("timeout", "--timeout reached before this input was read")


def _scan_members(
    log_input: LogInput, index: AnchorIndex, on_progress: Callable[[int], None] | None, deadline: Deadline
) -> Iterator[Scanned]:
    assert log_input.members is not None
    try:
        for name, stream in log_input.members():
            if deadline.passed:
                stream.close()
                problem = InputProblem("timeout", "--timeout reached; the rest of the archive was not read")
                yield Scanned(_unread_source(replace(log_input, name=name, problems=(problem,))), ())
                return
            with stream:
                yield scan_one(name, deadline.wrap(stream), index, (), on_progress)
    except Exception as exc:  # tarfile, gzip and zstandard raise many types on corrupt data
        problem = InputProblem("corrupt-archive", f"stopped reading the archive: {exc}")
        yield Scanned(_unread_source(replace(log_input, problems=(problem,))), ())


def scan_one(
    name: str,
    stream: ByteSource,
    index: AnchorIndex,
    problems: tuple[InputProblem, ...] = (),
    on_progress: Callable[[int], None] | None = None,
    workers: int = 1,
) -> Scanned:
    result = _scan(stream, name, index, on_progress, workers)
    head = unwrap_head(result.head)  # a JSON-lines or containerd log: the lines its records hold
    role, reason = detect_role(name, head, result.events)
    if result.bytes and serving_log_reason(name, head, index.errors) is None:
        # Its words matched patterns, but it is not a log: no role from them either.
        role, reason, problems = Role.UNKNOWN, "not a serving log", (*problems, not_serving_problem())
    source = Source(
        name=name,
        role=role,
        role_reason=reason,
        lines=result.lines,
        bytes=result.bytes,
        problems=problems + tuple(result.problems),
        node=node_from_name(name),
    )
    return Scanned(source, tuple(with_source_role(e, role) for e in result.events))


def _scan(
    stream: ByteSource, name: str, index: AnchorIndex, on_progress: Callable[[int], None] | None, workers: int
) -> ScanResult:
    """A large plain file is scanned in byte ranges on `workers` cores; the result is the same."""
    path = plain_file_path(stream)
    if path is not None and worth_splitting(path, workers):
        return scan_file_parallel(path, name, index, workers, on_progress)
    return scan_stream(stream, name, index, on_progress=on_progress)


def _unread_source(log_input: LogInput) -> Source:
    return Source(log_input.name, Role.UNKNOWN, "not read", 0, 0, log_input.problems)


def _place_on_timeline(events: list[Event]) -> list[Event]:
    """Give year-less times (glog, vLLM) a year, then sort once: of the bundle's year (from its
    dated lines), the one before or after, whichever lands nearest them (a glog line of Jan 1
    next to sglang lines of Dec 31 belongs to the next year). Without a dated line anywhere, no
    year can be told: those times stay unknown (never 1970), each line kept in its file's order."""
    dated = [e.time for e in events if e.time is not None and _dated(e)]
    if dated:
        year = Counter(year_of(t) for t in dated).most_common(1)[0][0]
        low, high = min(dated), max(dated)
        events = [_with_nearest_year(e, year, low, high) for e in events]
    else:
        events = [_undated(e) for e in events]
    return sorted(events, key=lambda e: (e.time if e.time is not None else float("inf"), e.source, e.line))


def _dated(event: Event) -> bool:
    return bool(event.time_text and event.time_text[:4].isdigit())


def _with_nearest_year(event: Event, year: int, low: float, high: float) -> Event:
    if event.time is None or event.time_text is None or _dated(event):
        return event
    candidates = [with_year(event.time, y) for y in (year, year - 1, year + 1)]
    best = min(candidates, key=lambda t: max(low - t, t - high, 0.0))
    return _moved(event, best - event.time)


def _undated(event: Event) -> Event:
    """A year-less time with no year to give it: unknown (its time as logged is still shown)."""
    if event.time is None:
        return event
    return replace(event, time=None, time_latest=None, time_inferred=False)


def _moved(event: Event, seconds: float) -> Event:
    if not seconds or event.time is None:
        return event
    latest = event.time_latest + seconds if event.time_latest is not None else None
    return replace(event, time=event.time + seconds, time_latest=latest)
