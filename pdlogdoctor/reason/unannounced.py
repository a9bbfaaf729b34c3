"""A crash's traceback pasted without the line that announced it, told apart from one with it.

sglang's scheduler logs its crash as `Scheduler hit an exception: <traceback>`; a copy in an issue
often starts below that line. A pattern marked UNANNOUNCED names the crash by a frame every such
traceback holds (the function that runs the process). Where the announcing line is there too, its
event has read the same traceback (its `block`), and the frame's event would count one crash
twice: it is dropped. So is a second such frame inside the traceback a first one read (a chained
exception prints the process's frames once per traceback).
"""

from __future__ import annotations

from collections.abc import Sequence

from ..library.patterns import Library
from ..model import Event, Kind, Mark


def unannounced_apart(events: Sequence[Event], library: Library) -> list[Event]:
    """`events` without the marked frames that lie inside a traceback another event read, nor the
    frames that yield to the exception their traceback ends in when another pattern reads it."""
    events = _yielded_to_exceptions(events, library)
    marked = library.marked(Mark.UNANNOUNCED)
    if not any(e.pattern in marked for e in events):
        return list(events)
    announcing = library.marked(Mark.EXCEPTION) - marked
    spans: dict[str, list[tuple[int, int, int]]] = {}
    for event in events:
        span = _read_span(event) or (_announced_span(event) if event.pattern in announcing else None)
        if span is not None:
            spans.setdefault(event.source, []).append((*span, id(event)))
    return [e for e in events if e.pattern not in marked or not _inside(e, spans.get(e.source, ()))]


# Lines below an announcing line its traceback's first frame may stand at, however little of the
# traceback the line could read: a collector that puts its own line after every log line (a
# Kubernetes console's export) leaves the frame two lines down and the stack unread.
ANNOUNCED_REACH = 3


def _announced_span(event: Event) -> tuple[int, int] | None:
    """The lines an announcing line's traceback starts in, when the line read no frame of it."""
    return None if event.kind is Kind.CONTEXT else (event.line, event.line + ANNOUNCED_REACH)


def _read_span(event: Event) -> tuple[int, int] | None:
    """The lines of the traceback an event read: from the first to the last frame's line, its own
    line included (a traceback read above it has negative offsets). None when it read none."""
    if event.kind is Kind.CONTEXT:
        return None
    offsets = event.get("stack_at")
    if not isinstance(offsets, tuple) or not offsets:
        return None
    numbers = [int(offset) for offset in offsets]
    return event.line + min(0, *numbers), event.line + max(0, *numbers)


def _inside(frame: Event, spans: Sequence[tuple[int, int, int]]) -> bool:
    """Inside the traceback another event read: the announcing line's, or an earlier marked frame's
    (a chained traceback's second copy of the process's frame lies below the first one's line)."""
    return any(first <= frame.line <= last and owner != id(frame) for first, last, owner in spans)


# Lines below a traceback's last frame its exception may stand at: the frame's call line, a caret
# line under it (Python 3.11), then the exception.
EXCEPTION_REACH = 3


def _yielded_to_exceptions(events: Sequence[Event], library: Library) -> list[Event]:
    """`events` without the YIELDS_TO_ITS_EXCEPTION frames whose traceback ends in a line another
    pattern's failing event reads (the exception that says what went wrong)."""
    yielding = library.marked(Mark.YIELDS_TO_ITS_EXCEPTION)
    if not any(e.pattern in yielding for e in events):
        return list(events)
    read = {
        (e.source, e.line) for e in events if e.pattern not in yielding and e.failing and e.kind is not Kind.CONTEXT
    }
    return [e for e in events if e.pattern not in yielding or not _ends_in(e, read)]


def _ends_in(frame: Event, read: set[tuple[str, int]]) -> bool:
    span = _read_span(frame)
    if span is None:
        return False
    last = span[1]
    return any((frame.source, line) in read for line in range(last + 1, last + 1 + EXCEPTION_REACH))
