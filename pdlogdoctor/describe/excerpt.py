"""The evidence excerpt: the chain's lines (and the unexplained error to read first) with a few lines
of context around each.

The pipeline builds it after the diagnosis (RunOptions.excerpt) and the report
carries it, so renderers never read the inputs: each source holding a chain event is opened again and read up
to its last needed line, counting newlines a chunk at a time, so the hot scan
never keeps context. A source that cannot be re-read (stdin) or that would
need more than MAX_REREAD_BYTES shows its chain lines alone.
"""

from __future__ import annotations

from collections import defaultdict

from ..ingest import reopen
from ..ingest.streams import plain_size, read_sizes
from ..model import Event, ExcerptLine, ExcerptWindow, Report, Severity
from ..model.textcut import clip
from ..scan.timeline import clean_line

MAX_CONTEXT = 3  # lines before and after each chain line
MAX_REREAD_BYTES = 512 << 20  # per source; past this, context is skipped
# Kept per line: four times what markdown shows (400), so redaction sees a token across the shown cut.
KEPT_LINE_CHARS = 1600
KEPT_LINE_BYTES = KEPT_LINE_CHARS * 4
CHUNK = 4 << 20


def build_excerpt(report: Report, context: int = MAX_CONTEXT) -> tuple[ExcerptWindow, ...]:
    by_source: dict[str, list[Event]] = defaultdict(list)
    for event in lines_to_read(report):
        by_source[event.source].append(event)
    cores = {source.name for source in report.inputs if source.core is not None}  # a header, not lines
    windows = [
        w for source, events in by_source.items() for w in _source_windows(source, events, context, source in cores)
    ]
    return tuple(
        sorted(windows, key=lambda w: (w.time if w.time is not None else float("inf"), w.source, w.lines[0].line))
    )


def lines_to_read(report: Report) -> list[Event]:
    """The chain's lines, and the unexplained error to read first: a line no pattern names is often
    a fragment (a bare status, `-> NIXL_ERR_INVALID_PARAM`) whose meaning is on the lines around it."""
    lines = list(report.chain)
    if report.unrecognised and report.unrecognised[0].severity.rank >= Severity.ERROR.rank:  # not a warning
        first = report.unrecognised[0].first
        if all((event.source, event.line) != (first.source, first.line) for event in lines):
            lines.append(first)
    return lines


def _source_windows(source: str, events: list[Event], context: int, core: bool = False) -> list[ExcerptWindow]:
    chain_lines = {event.line: event for event in events}
    wanted = {n for line in chain_lines for n in range(max(1, line - context), line + context + 1)}
    texts = {} if core else _read_lines(source, wanted) or {}
    for line, event in chain_lines.items():
        texts.setdefault(line, event.text)  # unreadable source: the chain line as the scan kept it
    windows: list[ExcerptWindow] = []
    current: list[ExcerptLine] = []
    for line in sorted(texts):
        if current and line != current[-1].line + 1:
            windows.append(_window(source, current, chain_lines))
            current = []
        distance = min(abs(line - chain) for chain in chain_lines)
        current.append(ExcerptLine(source, line, texts[line], distance))
    if current:
        windows.append(_window(source, current, chain_lines))
    return windows


def _window(source: str, lines: list[ExcerptLine], chain_lines: dict[int, Event]) -> ExcerptWindow:
    times = [chain_lines[x.line].time for x in lines if x.line in chain_lines]
    known = [t for t in times if t is not None]
    return ExcerptWindow(source, min(known) if known else None, tuple(lines))


def _read_lines(source: str, wanted: set[int]) -> dict[int, str] | None:
    stream = reopen(source)
    if stream is None or not wanted:
        return None
    last = max(wanted)
    found: dict[int, str] = {}
    line = 1  # number of the first line in `carry + chunk`
    carry = b""
    read = 0
    sizes = read_sizes(CHUNK, plain_size(stream))
    with stream:
        while line <= last and read < MAX_REREAD_BYTES:
            chunk = stream.read(next(sizes))
            if not chunk:
                break
            read += len(chunk)
            buf = carry + chunk
            cut = buf.rfind(b"\n") + 1
            complete, carry = buf[:cut], buf[cut:][-(1 << 20) :]  # one absurd line stays bounded
            count = complete.count(b"\n")
            if any(line <= n < line + count for n in wanted):
                _pick(complete, line, wanted, found)
            line += count
        if carry and line in wanted:
            _pick(carry + b"\n", line, wanted, found)
    return found


def _pick(complete: bytes, first: int, wanted: set[int], found: dict[int, str]) -> None:
    for offset, raw in enumerate(complete.split(b"\n")[:-1]):
        if first + offset in wanted:
            # Kept longer than shown: markdown cuts after redaction saw the whole line.
            text, _ = clean_line(raw[:KEPT_LINE_BYTES].decode("utf-8", errors="replace"))
            found[first + offset] = clip(text, KEPT_LINE_CHARS, cut=len(raw) > KEPT_LINE_BYTES)
