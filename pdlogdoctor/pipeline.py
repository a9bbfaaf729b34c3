"""The one function that composes the stages: ingest -> extract -> link -> diagnose."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, replace
from typing import BinaryIO

from .clocks import annotate, correct, estimate_offsets, slack
from .diagnose import diagnose
from .duplicates import DUPLICATE_CODE, prefer_zstd
from .extract import AnchorIndex, ScanResult, scan_stream
from .ingest import NOT_A_LOG, Deadline, LogInput, discover
from .link import link
from .model import Event, InputProblem, Report, Role, Source
from .parallel import plain_file_path, scan_file_parallel, workers, worth_splitting
from .patterns import Library
from .roles import detect_role, node_from_name, role_from_text_markers
from .timeline import with_year, year_of

SERVER_ROLES = (Role.PREFILL, Role.DECODE, Role.SERVER)


@dataclass(frozen=True, slots=True)
class Scanned:
    source: Source
    events: tuple[Event, ...]


def run(
    paths: Sequence[str],
    library: Library,
    stdin: BinaryIO | None = None,
    on_progress: Callable[[int], None] | None = None,
    timeout: float | None = None,
) -> Report:
    deadline = Deadline(timeout)
    inputs = prefer_zstd(discover(list(paths), stdin))
    index = AnchorIndex.build(library)  # once per run: with [fast] this compiles a matcher
    scanned = [item for log_input in inputs for item in scan_input(log_input, index, on_progress, deadline)]
    sources = tuple(item.source for item in scanned)
    events = _place_on_timeline([e for item in scanned for e in item.events])
    clocks = estimate_offsets(events, sources)
    events = correct(events, clocks)  # before linking: the links rest on time windows
    nodes = {s.name: s.node for s in sources}
    report = diagnose(events, link(events, library, nodes, slack(clocks)), sources, library)
    return _mark_incomplete(annotate(report, clocks))


# Problems that leave no evidence unread: an empty file or directory holds nothing to miss.
COMPLETE_PROBLEMS = frozenset({"empty", "empty-directory", DUPLICATE_CODE, NOT_A_LOG})
MAX_NAMES_IN_NOTE = 8


def _mark_incomplete(report: Report) -> Report:
    """Say when the verdict rests on partial evidence, and which inputs were not fully read."""
    partial = [
        f"{source.name} [{', '.join(sorted({p.code for p in source.problems}))}]"
        for source in report.inputs
        if any(p.code not in COMPLETE_PROBLEMS for p in source.problems)
    ]
    if not partial:
        return report
    shown = "; ".join(partial[:MAX_NAMES_IN_NOTE]) + (
        f"; and {len(partial) - MAX_NAMES_IN_NOTE} more" if len(partial) > MAX_NAMES_IN_NOTE else ""
    )
    notes = [f"evidence incomplete: {len(partial)} input(s) not fully read: {shown}"]
    if any(p.code == "timeout" for source in report.inputs for p in source.problems):
        notes.insert(0, "--timeout reached: this is the best verdict from what was read before it")
    report = replace(report, incomplete=True, notes=(*report.notes, *notes))
    return _not_healthy_when_partial(report, len(partial))


def _not_healthy_when_partial(report: Report, unread: int) -> Report:
    """ "Healthy" is a claim about everything; with inputs left unread it cannot be made."""
    if report.verdict.id != "healthy":
        return report
    summary = (
        f"No failure in what was read, and the deployment served; but {unread} input(s) were not fully read, "
        "so a failure may sit in what was missed."
    )
    verdict = replace(
        report.verdict,
        id="inconclusive",
        title="No failure in what was read; evidence incomplete",
        confidence=0.0,
        summary=summary,
    )
    missing = (*report.missing, "the unread part of the inputs listed in the notes")
    return replace(report, verdict=verdict, missing=missing)


def scan_input(
    log_input: LogInput,
    index: AnchorIndex,
    on_progress: Callable[[int], None] | None = None,
    deadline: Deadline | None = None,
) -> Iterator[Scanned]:
    deadline = deadline or Deadline(None)
    if deadline.passed:
        yield Scanned(_unread_source(replace(log_input, problems=(*log_input.problems, _NOT_STARTED))), ())
        return
    if log_input.members is not None:
        yield from _scan_members(log_input, index, on_progress, deadline)
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
        yield scan_one(log_input.name, deadline.wrap(stream), index, log_input.problems, on_progress)


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
    stream: BinaryIO,
    index: AnchorIndex,
    problems: tuple[InputProblem, ...] = (),
    on_progress: Callable[[int], None] | None = None,
) -> Scanned:
    result = _scan(stream, name, index, on_progress)
    role, reason = detect_role(name, result.head, result.events)
    source = Source(
        name=name,
        role=role,
        role_reason=reason,
        lines=result.lines,
        bytes=result.bytes,
        problems=problems + tuple(result.problems),
        node=node_from_name(name),
    )
    return Scanned(source, tuple(_with_role(e, role) for e in result.events))


def _scan(stream: BinaryIO, name: str, index: AnchorIndex, on_progress: Callable[[int], None] | None) -> ScanResult:
    """A large plain file is scanned in byte ranges on every core; the result is the same."""
    path = plain_file_path(stream)
    count = workers()
    if path is not None and worth_splitting(path, count):
        return scan_file_parallel(path, name, index, count, on_progress)
    return scan_stream(stream, name, index, on_progress=on_progress)


def _with_role(event: Event, source_role: Role) -> Event:
    if event.role is Role.SERVER and source_role in SERVER_ROLES:
        return replace(event, role=source_role)
    if event.role is not Role.UNKNOWN:
        return event
    if source_role in (Role.CI, Role.MIXED, Role.UNKNOWN):
        marked = role_from_text_markers(event.text)
        return replace(event, role=marked or source_role)
    return replace(event, role=source_role)


def _unread_source(log_input: LogInput) -> Source:
    return Source(log_input.name, Role.UNKNOWN, "not read", 0, 0, log_input.problems)


def _place_on_timeline(events: list[Event]) -> list[Event]:
    """Give year-less times (glog, vLLM) the bundle's year, then sort once."""
    years = Counter(year_of(e.time) for e in events if e.time is not None and e.time_text and e.time_text[:4].isdigit())
    if years:
        year = years.most_common(1)[0][0]
        events = [_with_bundle_year(e, year) for e in events]
    return sorted(events, key=lambda e: (e.time if e.time is not None else float("inf"), e.source, e.line))


def _with_bundle_year(event: Event, year: int) -> Event:
    if event.time is None or event.time_text is None or event.time_text[:4].isdigit():
        return event
    return replace(event, time=with_year(event.time, year))
