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
class _Read:
    last: ExcerptLine | None
    warnings: list[Event]


def describe_quiet(report: Report, layer: ErrorLayer | None, named: frozenset[tuple[str, int]]) -> Report:
    """A no-failure-seen report with where each input ends and the warnings no pattern names
    (`named`: the (source, line) of every line a library pattern matched). Others unchanged."""
    if report.verdict.id != NO_FAILURE_SEEN:
        return report
    aside = set(set_aside(report.inputs))  # not serving logs: nothing in them is evidence
    reads = [_read(source, layer, named) for source in report.inputs if source.lines and source.name not in aside]
    ends = tuple(read.last for read in reads if read.last is not None)
    shown = {item.template for item in report.unrecognised}
    warnings = [t for t in templates_of([w for read in reads for w in read.warnings]) if t.template not in shown]
    return replace(report, log_ends=ends, unrecognised=(*report.unrecognised, *warnings))


def _read(source: Source, layer: ErrorLayer | None, named: frozenset[tuple[str, int]]) -> _Read:
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
            lines = (carry + chunk).split(b"\n")
            carry = lines.pop()[-(1 << 20) :]  # one absurd line stays bounded
            if layer is not None and read - len(chunk) < CLASSIFIED_BYTES and len(warnings) < MAX_WARNINGS:
                warnings += _warnings(source, number, lines, layer, named)
            last = _last_written(number, lines) or last
            number += len(lines)
    last = (number + 1, carry) if carry.strip() else last
    return _Read(_end(source, last), warnings[:MAX_WARNINGS])


def _last_written(before: int, lines: list[bytes]) -> tuple[int, bytes] | None:
    """The last line that is not blank, with its number (`before` lines came earlier)."""
    for offset in range(len(lines) - 1, -1, -1):
        if lines[offset].strip():
            return before + offset + 1, lines[offset]
    return None


def _warnings(
    source: Source, before: int, lines: list[bytes], layer: ErrorLayer, named: frozenset[tuple[str, int]]
) -> list[Event]:
    found = []
    for offset, raw in enumerate(lines):
        number = before + offset + 1
        if (source.name, number) not in named:
            warning = _warning(source, number, raw.decode("utf-8", errors="replace"), layer)
            if warning is not None:
                found.append(warning)
    return found


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
