"""A core dump as an event: the process its header names dumped core when the file was written.

The file is never scanned (ingest/coredump.py reads its header); the event stands for it in the
report, of the library's pattern marked `core-dumped`, as systemd-coredump's journal line
'Process N (comm) of user U dumped core.' does for a core kept elsewhere.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import UTC, datetime

from ..ingest.coredump import describe
from ..library.patterns import Library
from ..model import CoreDump, Event, FieldValue, Mark, Source


def core_file_events(sources: Iterable[Source], library: Library) -> list[Event]:
    """One event per core dump among the inputs, at the time it was written, of the pattern marked
    `core-dumped` (none in a library without one: the core is still listed among the inputs)."""
    marked = sorted(library.marked(Mark.CORE_DUMPED))
    if not marked:
        return []
    pattern = library.pattern(marked[0])
    return [
        Event(
            pattern=pattern.id,
            source=source.name,
            line=1,  # the header: the file has no lines
            time=source.core.written,
            time_text=_utc(source.core.written),
            text=_text(source.core),
            fields=_fields(source.core),
            severity=pattern.severity,
            kind=pattern.kind,
            failing=True,
        )
        for source in sources
        if source.core is not None
    ]


def _text(core: CoreDump) -> str:
    written = f", written {_utc(core.written)}" if core.written is not None else ""
    return f"{describe(core)}{written}"


def _fields(core: CoreDump) -> tuple[tuple[str, FieldValue], ...]:
    values: dict[str, str | int | None] = {
        "program": core.program,
        "args": core.args,
        "pid": core.pid,
        "signal": core.signal,
    }
    return tuple(sorted((name, value) for name, value in values.items() if value is not None))


def _utc(moment: float | None) -> str | None:
    if moment is None:
        return None
    return datetime.fromtimestamp(moment, UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
