"""The one function that composes the stages: ingest -> scan -> reason (link, decide) -> describe.

It only composes: the verdict and its confidence (including "evidence incomplete") are decided once,
by reason/decide.py; every pass after it only adds (notes, clocks, log ends, glossary, excerpt),
which `only_adding` checks. Roles are roles'.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import replace
from typing import BinaryIO

from .describe.excerpt import build_excerpt
from .describe.quiet import describe_quiet
from .ingest import Deadline, LogInput, discover
from .ingest.duplicates import prefer_zstd
from .ingest.rotation import as_streams, joined_sources, per_file, streams
from .ingest.tail import KEPT_SEGMENTS, Segment, Tail
from .library.lazyregex import watched
from .library.patterns import Library
from .model import ClockOffset, Event, InputProblem, Report, Source
from .model.options import RunOptions
from .model.values import record
from .reason.binaries import split_core_dumps, with_binaries
from .reason.clocks import annotate, correct, estimate_offsets, slack, window_note, within
from .reason.compared import before_sides_apart, regressed_against_before
from .reason.decide import decide
from .reason.expected import short_of_expectation
from .reason.known import with_known
from .reason.link import link
from .reason.met_later import stated_then_met
from .reason.own_warmup import own_warmups_apart
from .reason.performance import align
from .reason.planned import short_of_plan
from .reason.recurring import recurring_failed
from .reason.shutdowns import shutdowns_apart
from .reason.unannounced import unannounced_apart
from .reason.unexplained import benign_split, cleared_split, gather, with_cleared_notes
from .scan import accel
from .scan.coredumps import core_file_events
from .scan.events import ScanResult
from .scan.growing import GrowingScan, kept
from .scan.index import AnchorIndex
from .scan.inputs import Scanned, reading_order, scan_input, scanned
from .scan.logshape import set_aside, set_aside_note
from .scan.parallel import usable_cores
from .scan.timeline import place_on_timeline

DEFAULT_OPTIONS = RunOptions()


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
    inputs = prefer_zstd(discover(list(paths), stdin, options.limits, options.follow_symlinks))
    index = AnchorIndex.of(library, options.matcher, accel.BUILD_AT)  # its matcher: built once input needs it
    workers = options.workers or usable_cores()
    with watched():  # the library's searches timed by one timer, not a clock read each (lazyregex.py)
        scanned = _scanned(inputs, index, on_progress, deadline, workers)
    return described(decided(scanned, library, options), library, options)


@record
class Decided:
    """The decision on what the scan found, and what the passes after it add from."""

    report: Report
    events: tuple[Event, ...]  # the library's events the decision read (clock-corrected, in the window)
    sources: tuple[Source, ...]
    clocks: tuple[ClockOffset, ...]
    cleared: tuple[tuple[Event, Event], ...]  # (a failure, the later line that cleared it): cleared_split
    cores: tuple[Event, ...]  # core dumps: they join the chain after the decision (reason/binaries.py)
    nodes: dict[str, str | None]  # each source's node
    widened: dict[str, float]  # each source's clock slack
    in_window: tuple[Event, ...]  # every recognised line in the window, cleared or not: what known.py's conditions read
    every_line: tuple[Event, ...]  # every recognised line read, whatever its time or file: where versions are read


def decided(scanned: Sequence[Scanned], library: Library, options: RunOptions = DEFAULT_OPTIONS) -> Decided:
    """scan -> link -> decide: the verdict and its confidence, set once (reason/decide.py).
    `analyse` describes it after; `--follow` decides again on each new batch of events, and
    describes only the decision it stops on."""
    sources = tuple(item.source for item in scanned)
    aside = set(set_aside(sources))  # not serving logs: their lines are no evidence (logshape.py)
    placed = place_on_timeline([e for item in scanned if item.source.name not in aside for e in item.events])
    events = [e for e in placed if not e.unrecognised]
    errors = [e for e in placed if e.unrecognised]  # the generic layer's lines: see unexplained.py
    clocks = _clock_offsets(events, sources, library)
    corrected = short_of_plan(correct(events, clocks), library)  # a benchmark short of its plan failed
    corrected = regressed_against_before(corrected, library)  # a measure worse After than Before failed
    corrected = before_sides_apart(corrected, library)  # a failure under a Before side is the baseline's
    corrected = short_of_expectation(corrected, library)  # a score below the one a sentence expects failed
    corrected = stated_then_met(corrected, library)  # a regression in words, measured after and met
    corrected = recurring_failed(corrected, library)  # a race handled once, a failure when it comes back
    corrected = own_warmups_apart(corrected, library)  # a server's own warmup request answers no client
    corrected = unannounced_apart(corrected, library)  # a crash's frame inside its announced traceback
    corrected = shutdowns_apart(corrected, library)  # a SIGTERM death after the server was told to stop
    series = align([s for item in scanned if item.source.name not in aside for s in item.series], corrected)
    events = within(corrected, options.since, options.until)  # before linking: the links rest on time windows
    in_window = tuple(events)
    every_line = tuple(e for item in scanned for e in item.events if not e.unrecognised)
    # Core dumps (a core file's header, systemd-coredump's line) join the chain after the diagnosis.
    events, cores = split_core_dumps(
        [*events, *within(core_file_events(sources, library), options.since, options.until)], library
    )
    events, recovered = benign_split(events, library)  # on corrected times: a recovery may be in another file
    in_time = within(correct(errors, clocks), options.since, options.until)
    events, cleared = cleared_split(events, library, in_time, [s.name for s in sources])
    nodes = {s.name: s.node for s in sources}
    widened = slack(clocks)
    unrecognised = gather(in_time, events, library, recovered)
    links = link(events, library, nodes, widened)
    report = decide(events, links, sources, library, widened, unrecognised, series)
    return Decided(
        report, tuple(events), sources, clocks, tuple(cleared), tuple(cores), nodes, widened, in_window, every_line
    )


def described(
    decision: Decided, library: Library, options: RunOptions = DEFAULT_OPTIONS, notes: Sequence[str] = ()
) -> Analysis:
    """The decided report with what the passes after the decision add (none changes it: only_adding)."""
    read = frozenset((e.source, e.line) for e in decision.events)
    sources = decision.sources
    report = only_adding(
        decision.report,
        (
            lambda r: with_cleared_notes(r, decision.cleared, library),
            lambda r: with_binaries(r, decision.cores, library, decision.nodes, decision.widened),
            lambda r: describe_quiet(r, library.errors, read, options.matcher),
            lambda r: annotate(r, decision.clocks, window_note(options.since, options.until)),
            lambda r: _noted(r, set_aside_note(sources)),
            lambda r: replace(r, notes=(*r.notes, *notes)),
            lambda r: replace(r, glossary=_glossary(r, library)),
            lambda r: replace(r, excerpt=build_excerpt(r)) if options.excerpt else r,
            # which known problem it is, and the versions the logs show: after the decision, a note
            lambda r: with_known(r, decision.in_window, library, options.known_issues, decision.every_line),
        ),
    )
    return Analysis(report, decision.events, sources)


KEPT_DECISION = (
    "pdlogdoctor kept its decided verdict: a pass after the decision changed it (a defect; please report it)"
)


def only_adding(report: Report, passes: Iterable[Callable[[Report], Report]]) -> Report:
    """Each pass in turn, on top of the decided verdict, which no pass may change. A pass that
    does change it is a defect: the decided verdict is kept (the user still gets the answer the
    evidence gave) and a note says so, which the corpus test (tests/test_decided_once.py) fails on."""
    decided = report.verdict
    for add in passes:
        report = add(report)
        if report.verdict != decided:
            report = replace(report, verdict=decided, notes=(*report.notes, KEPT_DECISION))
    return report


def _noted(report: Report, note: str | None) -> Report:
    return replace(report, notes=(*report.notes, note)) if note else report


def _scanned(
    inputs: list[LogInput],
    index: AnchorIndex,
    on_progress: Callable[[int], None] | None,
    deadline: Deadline,
    workers: int,
) -> list[Scanned]:
    """Every input scanned, in the order given; under a deadline read cheapest evidence first
    (scan/inputs.reading_order), the results put back in order, so a budget that suffices changes
    nothing in the report."""
    order = reading_order(inputs) if deadline.at is not None else range(len(inputs))
    found = {position: list(scan_input(inputs[position], index, on_progress, deadline, workers)) for position in order}
    return [item for position in range(len(inputs)) for item in found[position]]


def _clock_offsets(events: list[Event], sources: tuple[Source, ...], library: Library) -> tuple[ClockOffset, ...]:
    """Each file's clock offset; the segments of a rotated log share one clock, estimated as one."""
    named = streams(s.name for s in sources)
    if not named:
        return estimate_offsets(events, sources, library)
    return per_file(estimate_offsets(as_streams(events, named), joined_sources(sources, named), library), named)


def _glossary(report: Report, library: Library) -> tuple[tuple[str, str], ...]:
    """What each pattern the report shows means, so a renderer can say it without the library."""
    titles = {pattern.id: pattern.title for pattern in library.patterns}
    shown = sorted({event.pattern for event in (*report.roots, *report.chain)})
    return tuple((pattern_id, titles[pattern_id]) for pattern_id in shown if pattern_id in titles)


# ---------------------------------------------------------------- following logs as they are written


class Follow:
    """`analyze --follow`: the inputs read as they are written (ingest/tail.py), each stream's scan
    kept from poll to poll (scan/growing.py), and the decision and report `analyse` makes, made on
    what they found so far. On the same final files it gives what `analyse` gives."""

    def __init__(
        self,
        paths: Sequence[str],
        library: Library,
        stdin: BinaryIO | None = None,
        options: RunOptions = DEFAULT_OPTIONS,
    ) -> None:
        self.library = library
        self.options = options
        self.index = AnchorIndex.of(library, options.matcher, accel.BUILD_AT)
        self.tail = Tail(list(paths), stdin, options.limits, options.follow_symlinks)
        self.growing: dict[int, GrowingScan] = {}
        self.ended: dict[int, tuple[Segment, ScanResult]] = {}  # streams that will not grow again
        self.wholes: dict[str, tuple[Scanned, ...]] = {}  # inputs read whole (compressed, archives), by name
        # Each stream's last snapshot: ((its name, its problems), the scan, the source made of them).
        self._scanned: dict[int, tuple[tuple[str, tuple[InputProblem, ...]], ScanResult, Scanned]] = {}
        self.backlog = False  # the last read left bytes for the next: read again before waiting

    def read(self) -> int:
        """One poll of the inputs: read and scan what grew; how many bytes (0: nothing grew)."""
        found = self.tail.poll()
        got = 0
        for segment in found.readable:
            if segment.key not in self.growing:
                self.growing[segment.key] = GrowingScan(segment.name, self.index)
            got += self.growing[segment.key].read(segment)
        self.backlog = any(segment.budget == 0 for segment in found.readable)
        for segment in found.ended:
            scan = self.growing.pop(segment.key, None)
            if scan is not None:  # a file that went is kept as a segment; standard input ended is the stream
                self.ended[segment.key] = (segment, kept(scan.result()) if segment.path else scan.result())
            segment.release()
        for segment in found.dropped:
            self.ended.pop(segment.key, None)
            self._scanned.pop(segment.key, None)
        for name in found.unlisted:
            self.wholes.pop(name, None)
        for log_input in found.whole:
            self.wholes[log_input.name] = tuple(scan_input(log_input, self.index))
            got += sum(item.source.bytes for item in self.wholes[log_input.name])
        return got

    def scanned(self) -> list[Scanned]:
        """Every stream as a scan of it would find it now, in the order `analyse` lists its inputs."""
        placed: list[tuple[tuple[int, int, int], int, Scanned]] = []
        for key, scan in self.growing.items():
            segment = self.tail.live[key]
            placed.append((self.tail.place(segment.name), 0, self._snapshot(segment, scan.result())))
        for segment, result in self.ended.values():
            placed.append((self.tail.place(segment.name), 0, self._snapshot(segment, result)))
        for name, items in self.wholes.items():
            placed.extend((self.tail.place(name), number, item) for number, item in enumerate(items))
        return [item for _, _, item in sorted(placed, key=lambda entry: entry[:2])]

    @property
    def finished(self) -> bool:
        """Nothing more can come: the only input is standard input, and it ended."""
        return self.tail.paths == ["-"] and not self.tail.live and bool(self.ended)

    def decided(self) -> Decided:
        """The decision on what was read so far (no pass after it: they re-read the inputs)."""
        return decided(self.scanned(), self.library, self.options)

    def final(self, decision: Decided | None = None) -> Analysis:
        """The report on what was read: `decision` when it was made on what was read, else decided now."""
        notes = [f"--follow dropped {self.tail.dropped} older segments of files truncated, replaced or deleted "
                 f"while followed (it keeps {KEPT_SEGMENTS} per name)"] if self.tail.dropped else []  # fmt: skip
        return described(decision or self.decided(), self.library, self.options, notes)

    def close(self) -> None:
        self.tail.close()

    def _snapshot(self, segment: Segment, result: ScanResult) -> Scanned:
        """The stream's scan as a source, under the name it has now; made again only when it changed."""
        name = segment.name
        kept = self._scanned.get(segment.key)
        if kept is not None and kept[0] == (name, segment.problems) and kept[1] is result:
            return kept[2]
        named = result
        if any(event.source != name for event in result.events):  # renamed since it was read
            named = replace(result, events=[replace(event, source=name) for event in result.events])
        made = scanned(name, named, self.index, segment.problems)
        self._scanned[segment.key] = ((name, segment.problems), result, made)
        return made
