"""What a report where nothing failed can still show: where each log stops, and its warnings.

A no-failure-seen report has no chain, because nothing in the lines failed. Its reader's next
questions are what the server was doing when the lines stop (a hang, a cut excerpt, a process
killed without a word all end there) and whether anything warned (Mooncake finding no RDMA
device names the TCP fallback a later failure comes from). The scan keeps neither: it reads
only anchored lines. So for such a report only, each re-openable input is read once more,
bounded: its last line, and the lines the error layer's warning markers name
(patterns/open-world/severity.toml, `[[warning]]`), templated like unrecognised errors.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import regex

from .diagnose import NO_FAILURE_SEEN
from .errorlines import ErrorLayer
from .excerpt import CHUNK, KEPT_LINE_CHARS
from .ingest import reopen
from .logshape import set_aside
from .model import Event, ExcerptLine, Kind, Report, Severity, Source
from .textcut import clip
from .timeline import clean_line, parse_stamp
from .unexplained import templates_of

CLASSIFIED_BYTES = 16 << 20  # per input: lines past this are not read for warnings
REREAD_BYTES = 512 << 20  # per input: past this its last line is not looked for
MAX_WARNINGS = 200  # warning lines kept per input before templating


@dataclass(frozen=True, slots=True)
class _Scan:
    layer: ErrorLayer
    candidates: regex.Pattern[str]  # any warning marker, line by line: where to look closer
    named: frozenset[tuple[str, int]]  # (source, line) of the lines a library pattern matched


@dataclass(frozen=True, slots=True)
class _Read:
    last: ExcerptLine | None
    warnings: list[Event]


def describe_quiet(report: Report, layer: ErrorLayer | None, named: frozenset[tuple[str, int]]) -> Report:
    """A no-failure-seen report with where each input ends and the warnings no pattern names
    (`named`: the (source, line) of every line a library pattern matched). Others unchanged."""
    if report.verdict.id != NO_FAILURE_SEEN:
        return report
    aside = set(set_aside(report.inputs))  # not serving logs: nothing in them is evidence
    scan = _Scan(layer, _candidates(layer), named) if layer is not None and layer.warnings else None
    reads = [_read(source, scan) for source in report.inputs if source.lines and source.name not in aside]
    ends = tuple(read.last for read in reads if read.last is not None)
    shown = {item.template for item in report.unrecognised}
    warnings = [t for t in templates_of([w for read in reads for w in read.warnings]) if t.template not in shown]
    return replace(report, log_ends=ends, unrecognised=(*report.unrecognised, *warnings))


def _read(source: Source, scan: _Scan | None) -> _Read:
    """One pass over the input: warnings in its first CLASSIFIED_BYTES, and its last written line."""
    stream = reopen(source.name)
    if stream is None:
        return _Read(None, [])
    number, read, carry = 0, 0, b""
    last: tuple[int, bytes] | None = None
    warnings: list[Event] = []
    with stream:
        while chunk := stream.read(CHUNK):
            read += len(chunk)
            if read > REREAD_BYTES:
                return _Read(None, warnings)  # where it ends is not known
            block = carry + chunk
            cut = block.rfind(b"\n") + 1
            complete, carry = block[:cut], block[cut:][-(1 << 20) :]  # one absurd line stays bounded
            if scan is not None and read - len(chunk) < CLASSIFIED_BYTES and len(warnings) < MAX_WARNINGS:
                warnings += _warnings(source, number, complete, scan)
            last = _last_written(number, complete) or last
            number += complete.count(b"\n")
    last = (number + 1, carry) if carry.strip() else last
    return _Read(_end(source, last), warnings[:MAX_WARNINGS])


def _last_written(before: int, complete: bytes) -> tuple[int, bytes] | None:
    """The last line of `complete` (whole lines) that is not blank, with its number."""
    end = len(complete)
    while end > 0:
        start = complete.rfind(b"\n", 0, end - 1) + 1
        line = complete[start:end]
        if line.strip():
            return before + complete.count(b"\n", 0, start) + 1, line.rstrip(b"\n")
        end = start
    return None


def _warnings(source: Source, before: int, complete: bytes, scan: _Scan) -> list[Event]:
    """The warning lines of `complete` (whole lines): the markers' union finds candidates in one
    pass over the text, then each candidate line is decided as the layer decides it."""
    text = complete.decode("utf-8", errors="replace")
    found, counted, number, next_line = [], 0, before, 0
    for match in scan.candidates.finditer(text):
        start = text.rfind("\n", 0, match.start()) + 1
        if start < next_line:
            continue  # a second candidate on a line already decided
        number += text.count("\n", counted, start) + 1
        end = text.find("\n", start)
        next_line = counted = end + 1 if end >= 0 else len(text)
        if (source.name, number) not in scan.named:
            warning = _warning(source, number, text[start:next_line], scan.layer)
            if warning is not None:
                found.append(warning)
    return found


def _candidates(layer: ErrorLayer) -> regex.Pattern[str]:
    return regex.compile("|".join(f"(?:{marker.regex.pattern})" for marker in layer.warnings), regex.MULTILINE)


def _end(source: Source, last: tuple[int, bytes] | None) -> ExcerptLine | None:
    if last is None:
        return None
    number, raw = last
    text, _ = clean_line(raw[: KEPT_LINE_CHARS * 4].decode("utf-8", errors="replace"))
    return ExcerptLine(source.name, number, clip(text, KEPT_LINE_CHARS), 0)


def _warning(source: Source, number: int, raw: str, layer: ErrorLayer) -> Event | None:
    text, _ = clean_line(raw)
    hit = layer.warning_of(text)
    if hit is None:
        return None
    stamp = parse_stamp(text)
    return Event(
        pattern=hit.marker,
        source=source.name,
        line=number,
        time=stamp.seconds if stamp is not None and stamp.year_known else None,
        time_text=stamp.text if stamp is not None else None,
        text=clip(text, KEPT_LINE_CHARS),
        fields=(),
        severity=Severity.WARNING,
        kind=Kind.CONTEXT,
        failing=False,
        role=source.role,
        template=hit.template,
    )
