"""A line that fails only when it comes back.

Some errors are a race a server handles when they come once, and a failure when they come again and
again for the same thing: sglang's tokenizer manager receiving output for a request it had dropped is
a request that finished as its client left (healthy runs log it now and then, each for another
request), or, for one request id over and over, a request the scheduler keeps decoding for nobody
(sglang#36876). A pattern marked FAILS_WHEN_RECURRING never fails as scanned; here its lines whose
captures (the request's id) recur on RECURRING_LINES lines of their file or more are made failing.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from ..library.patterns import Library
from ..model import Event, Mark
from .planned import recounted

# Lines of one file with the same captures. A request whose client left as it finished may still
# get an output or two in flight (healthy runs log one); one decoding for nobody gets one per step,
# many a second (sglang#36876's pastes: 9 and 10 lines within two seconds).
RECURRING_LINES = 5


def recurring_failed(events: Sequence[Event], library: Library) -> list[Event]:
    """The events, those of a FAILS_WHEN_RECURRING pattern whose captures recur made failing."""
    marked = library.marked(Mark.FAILS_WHEN_RECURRING)
    if not any(e.pattern in marked for e in events):
        return list(events)
    lines: dict[tuple[str, str, tuple[object, ...]], set[int]] = {}
    for event in events:
        if event.pattern in marked:
            lines.setdefault(_kind(event), set()).add(event.line)
    again = {kind for kind, seen in lines.items() if len(seen) >= RECURRING_LINES}
    out = [
        replace(e, failing=True, severity=library.pattern(e.pattern).severity)
        if e.pattern in marked and _kind(e) in again
        else e
        for e in events
    ]
    return recounted(out, events)


def _kind(event: Event) -> tuple[str, str, tuple[object, ...]]:
    return (event.source, event.pattern, tuple(sorted(event.fields)))
