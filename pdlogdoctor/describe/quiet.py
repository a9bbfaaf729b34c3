"""What a report where nothing failed can still show: where each log stops, its warnings, and the
results it states.

A no-failure-seen report has no chain, because nothing in the lines failed. Its reader's next
questions are what the server was doing when the lines stop (a hang, a cut excerpt, a process
killed without a word all end there) and whether anything warned (Mooncake finding no RDMA
device names the TCP fallback a later failure comes from). The scan keeps neither: it reads
only anchored lines. So for such a report only, each re-openable input is read once more,
bounded: its last line, and the lines the error layer's warning markers name
(patterns/open-world/severity.toml, `[[warning]]`), templated like unrecognised errors. The lines
that state results were found by the scan in each input it read whole (scan/results.py).

Both stay cheap next to the scan: a plain file's last line is read backwards from its end,
its number from the scan's line count; a warning regex runs only on the lines that hold one
of the markers' literal keys, found in one bytes pass (the compiled anchor matcher if any).
"""

from __future__ import annotations

import os
from dataclasses import replace
from pathlib import Path
from typing import BinaryIO

from ..ingest import Reader, reopen
from ..ingest.streams import open_seekable, plain_size, read_sizes
from ..library.errorlines import ErrorLayer
from ..model import Event, ExcerptLine, Kind, Report, Severity, Source
from ..model.textcut import clip
from ..model.values import record
from ..model.verdicts import NO_FAILURE_SEEN
from ..reason.unexplained import templates_of
from ..scan import accel
from ..scan.logshape import set_aside
from ..scan.timeline import clean_line, parse_stamp
from .excerpt import CHUNK, KEPT_LINE_CHARS

CLASSIFIED_BYTES = 16 << 20  # per input: lines past this are not read for warnings
REREAD_BYTES = 512 << 20  # per input: past this its last line is not looked for
MAX_WARNINGS = 200  # warning lines kept per input before templating
LONG_LINE_CARRY = 1 << 20  # the forward read keeps no more of one line: a longer last line is read forwards
TAIL_BLOCK = 64 << 10  # read backwards from a plain file's end in blocks of this size
# The lines shown where each input ends: its last one, and the ones above it, which say what led to
# it (a paste of three start-up lines is shown whole; a hang's last moves are seen, not only its last).
END_LINES = 5


@record
class _Scan:
    layer: ErrorLayer
    named: frozenset[tuple[str, int]]  # (source, line) of the lines a library pattern matched
    keys: tuple[bytes, ...]  # the markers' literal keys: a line holding none is not read
    matcher: accel.Matcher | None  # finds every key in one pass; None: a bytes.find loop per key


@record
class _End:
    """Where an input ends, found from its end: (line number, line) of its last END_LINES written
    lines, in order (none: where it ends is not known)."""

    lines: tuple[tuple[int, bytes], ...]


@record
class _Read:
    lines: tuple[ExcerptLine, ...]  # its last written lines, the last one last
    warnings: list[Event]


def describe_quiet(
    report: Report, layer: ErrorLayer | None, named: frozenset[tuple[str, int]], matcher: str = accel.AUTO
) -> Report:
    """A no-failure-seen report with where each input ends and the warnings no pattern names
    (`named`: the (source, line) of every line a library pattern matched; `matcher`: which
    accel.py matcher finds the warning keys). Others unchanged."""
    if report.verdict.id != NO_FAILURE_SEEN:
        return report
    aside = set(set_aside(report.inputs))  # not serving logs: nothing in them is evidence
    scan = _scan_for(layer, named, matcher) if layer is not None and layer.warnings else None
    reads = [_read(source, scan) for source in report.inputs if source.lines and source.name not in aside]
    ends = tuple(read.lines[-1] for read in reads if read.lines)
    above = tuple(line for read in reads for line in read.lines[:-1])
    shown = {item.template for item in report.unrecognised}
    warnings = [t for t in templates_of([w for read in reads for w in read.warnings]) if t.template not in shown]
    results = tuple(
        ExcerptLine(source.name, number, clip(text, KEPT_LINE_CHARS), 0)
        for source in report.inputs
        if source.name not in aside
        for number, text in source.results
    )
    unrecognised = (*report.unrecognised, *warnings)
    return replace(report, log_ends=ends, log_ends_above=above, unrecognised=unrecognised, results_read=results)


def _scan_for(layer: ErrorLayer, named: frozenset[tuple[str, int]], matcher: str) -> _Scan:
    keys = tuple(key.encode() for key in layer.warning_keys())
    return _Scan(layer, named, keys, accel.deferred(keys, matcher))


def _read(source: Source, scan: _Scan | None) -> _Read:
    """Warnings in the input's first CLASSIFIED_BYTES, and its last written lines: from its end
    when it is a plain file, else in the same forward pass."""
    stream = reopen(source.name)
    if stream is None:
        return _Read((), [])
    with stream:
        end = _end_from_the_back(stream, source)
        return _read_forwards(stream, source, scan, end)


def _read_forwards(stream: Reader, source: Source, scan: _Scan | None, end: _End | None) -> _Read:
    """One pass from the start: the warnings, and the last lines unless `end` already holds them."""
    number, read, carry = 0, 0, b""
    last: tuple[tuple[int, bytes], ...] = ()
    warnings: list[Event] = []
    sizes = read_sizes(CHUNK, plain_size(stream))
    while (end is None or _classifying(scan, read, warnings)) and (chunk := stream.read(next(sizes))):
        read += len(chunk)
        if end is None and read > REREAD_BYTES:
            return _Read((), warnings)  # where it ends is not known
        block = carry + chunk
        cut = block.rfind(b"\n") + 1
        complete, carry = block[:cut], block[cut:][-LONG_LINE_CARRY:]  # one absurd line stays bounded
        if scan is not None and _classifying(scan, read - len(chunk), warnings):
            warnings += _warnings(source, number, complete, scan, MAX_WARNINGS - len(warnings))
        if end is None:
            last = (*last, *_last_written(number, complete))[-END_LINES:]
        number += complete.count(b"\n")
    if end is not None:
        return _Read(_ends(source, end.lines), warnings)
    last = (*last, (number + 1, carry))[-END_LINES:] if carry.strip() else last
    return _Read(_ends(source, last), warnings)


def _classifying(scan: _Scan | None, read: int, warnings: list[Event]) -> bool:
    """Whether the bytes from `read` on are still read for warnings."""
    return scan is not None and read < CLASSIFIED_BYTES and len(warnings) < MAX_WARNINGS


def _end_from_the_back(stream: Reader, source: Source) -> _End | None:
    """A plain file's last written lines, read backwards from its end in blocks, numbered from the
    line count the scan made. None: read forwards instead (compressed, an archive member, changed
    or cut short since the scan, or a last line longer than the forward read would keep)."""
    if stream.plain_path is None or source.problems:
        return None
    try:
        with open_seekable(Path(stream.plain_path), buffering=0) as handle:
            return _end_of(handle, source)
    except OSError:
        return None


def _end_of(handle: BinaryIO, source: Source) -> _End | None:
    size = os.fstat(handle.fileno()).st_size
    if size != source.bytes:
        return None  # not the file the scan counted
    if size > REREAD_BYTES:
        return _End(())  # as when read forwards: where it ends is not looked for
    tail, start = b"", size
    found: list[tuple[int, int]] = []
    while start > 0 and len(tail) <= LONG_LINE_CARRY:
        block_end, start = start, max(0, start - TAIL_BLOCK)
        handle.seek(start)
        block = _read_exactly(handle, block_end - start)
        if len(block) != block_end - start:
            return None  # cut short since the scan
        tail = block + tail
        found = _last_in_tail(tail, whole=start == 0)
        if len(found) == END_LINES or (start == 0 and found):
            return _numbered(tail, found, source)
        if start == 0:
            return _End(())  # every line is blank
    # The lines above the last are longer than the forward read keeps: the last ones found stand.
    return _numbered(tail, found, source) if found else None


def _numbered(tail: bytes, found: list[tuple[int, int]], source: Source) -> _End:
    """The lines of `tail` at `found` ((start, stop), in order), numbered from the scan's count."""
    newlines = source.lines - (tail[-1:] != b"\n")  # the scan counts an unended last line
    return _End(tuple((newlines - tail.count(b"\n", at) + 1, tail[at:stop]) for at, stop in found))


def _read_exactly(handle: BinaryIO, size: int) -> bytes:
    parts: list[bytes] = []
    while size > 0 and (part := handle.read(size)):
        parts.append(part)
        size -= len(part)
    return b"".join(parts)


def _last_in_tail(tail: bytes, whole: bool) -> list[tuple[int, int]]:
    """(start, stop) of the last END_LINES lines of `tail` that are not blank, without their
    newlines, in order; only lines that start inside `tail` (`whole`: `tail` starts the file, and
    so does its first line)."""
    found: list[tuple[int, int]] = []
    stop = len(tail)
    while len(found) < END_LINES and ((newline := tail.rfind(b"\n", 0, stop)) >= 0 or whole):
        if tail[newline + 1 : stop].strip():
            found.append((newline + 1, stop))
        if newline < 0:
            break
        stop = newline
    return found[::-1]


def _last_written(before: int, complete: bytes) -> tuple[tuple[int, bytes], ...]:
    """The last END_LINES lines of `complete` (whole lines) that are not blank, with their numbers,
    in order."""
    found: list[tuple[int, bytes]] = []
    end = len(complete)
    while end > 0 and len(found) < END_LINES:
        start = complete.rfind(b"\n", 0, end - 1) + 1
        line = complete[start:end]
        if line.strip():
            found.append((before + complete.count(b"\n", 0, start) + 1, line.rstrip(b"\n")))
        end = start
    return tuple(found[::-1])


def _warnings(source: Source, before: int, complete: bytes, scan: _Scan, room: int) -> list[Event]:
    """Up to `room` warning lines of `complete` (whole lines): the lines holding a marker's key,
    found in one pass over the bytes; each is decided as the layer decides it."""
    found: list[Event] = []
    number, counted = before, 0
    for pos in _key_hits(complete, scan):
        if pos < counted or len(found) >= room:
            continue  # a second key on a line already decided, or enough found
        start = complete.rfind(b"\n", 0, pos) + 1
        number += complete.count(b"\n", counted, start) + 1
        counted = complete.find(b"\n", pos) + 1  # whole lines: each ends with one
        # Looked at as the markers read a line: without a CI runner's stamp or a collector's prefix
        # (clean_line), so a stamped glog W line meets `^W` as the same line unstamped does.
        text, _ = clean_line(complete[start:counted].decode("utf-8", errors="replace"))
        if (source.name, number) not in scan.named:
            warning = _warning(source, number, text, scan.layer)
            if warning is not None:
                found.append(warning)
    return found


def _key_hits(data: bytes, scan: _Scan) -> list[int]:
    """Where any key occurs in `data`, ascending."""
    if scan.matcher is not None:
        per_key = scan.matcher.positions(data, 0, len(data))
    else:
        per_key = [accel.occurrences(data, key, 0, len(data)) for key in scan.keys]
    return sorted(pos for hits in per_key for pos in hits)


def _ends(source: Source, lines: tuple[tuple[int, bytes], ...]) -> tuple[ExcerptLine, ...]:
    """The input's last lines as shown; each one's distance is how many shown lines lie below it."""
    return tuple(_end(source, number, raw, len(lines) - 1 - at) for at, (number, raw) in enumerate(lines))


def _end(source: Source, number: int, raw: bytes, below: int) -> ExcerptLine:
    text, _ = clean_line(raw[: KEPT_LINE_CHARS * 4].decode("utf-8", errors="replace"))
    return ExcerptLine(source.name, number, clip(text, KEPT_LINE_CHARS), below)


def _warning(source: Source, number: int, text: str, layer: ErrorLayer) -> Event | None:
    """The warning event of a cleaned line (clean_line), or None."""
    hit = layer.warning_of(text)
    if hit is None:
        return None
    stamp = parse_stamp(text, layer.formats)
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
