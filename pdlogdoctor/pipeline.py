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
from .library.patterns import Library
from .model import ClockOffset, Event, Report, Source
from .model.options import RunOptions
from .model.values import record
from .reason.binaries import split_core_dumps, with_binaries
from .reason.clocks import annotate, correct, estimate_offsets, slack, window_note, within
from .reason.decide import decide
from .reason.link import link
from .reason.performance import align
from .reason.unexplained import benign_split, cleared_split, gather, with_cleared_notes
from .scan import accel
from .scan.coredumps import core_file_events
from .scan.index import AnchorIndex
from .scan.inputs import Scanned, reading_order, scan_input
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
    index = AnchorIndex.build(library, options.matcher, accel.BUILD_AT)  # its matcher: built once input needs it
    workers = options.workers or usable_cores()
    scanned = _scanned(inputs, index, on_progress, deadline, workers)
    sources = tuple(item.source for item in scanned)
    aside = set(set_aside(sources))  # not serving logs: their lines are no evidence (logshape.py)
    placed = place_on_timeline([e for item in scanned if item.source.name not in aside for e in item.events])
    events = [e for e in placed if not e.unrecognised]
    errors = [e for e in placed if e.unrecognised]  # the generic layer's lines: see unexplained.py
    clocks = _clock_offsets(events, sources, library)
    corrected = correct(events, clocks)
    series = align([s for item in scanned if item.source.name not in aside for s in item.series], corrected)
    events = within(corrected, options.since, options.until)  # before linking: the links rest on time windows
    # Core dumps (a core file's header, systemd-coredump's line) join the chain after the diagnosis.
    events, cores = split_core_dumps(
        [*events, *within(core_file_events(sources, library), options.since, options.until)], library
    )
    events, recovered = benign_split(events, library)  # on corrected times: a recovery may be in another file
    events, cleared = cleared_split(events, library)
    nodes = {s.name: s.node for s in sources}
    widened = slack(clocks)
    unrecognised = gather(within(correct(errors, clocks), options.since, options.until), events, library, recovered)
    links = link(events, library, nodes, widened)
    report = decide(events, links, sources, library, widened, unrecognised, series)
    read = frozenset((e.source, e.line) for e in events)
    report = only_adding(
        report,
        (
            lambda r: with_cleared_notes(r, cleared, library),
            lambda r: with_binaries(r, cores, library, nodes, widened),
            lambda r: describe_quiet(r, library.errors, read, options.matcher),
            lambda r: annotate(r, clocks, window_note(options.since, options.until)),
            lambda r: _noted(r, set_aside_note(sources)),
            lambda r: replace(r, glossary=_glossary(r, library)),
            lambda r: replace(r, excerpt=build_excerpt(r)) if options.excerpt else r,
        ),
    )
    return Analysis(report, tuple(events), sources)


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
