"""A server's own warmup request, set apart from the answers to its clients.

sglang sends itself one request before it reports ready, on the route its clients use
(`POST /generate`, answered 200 whatever the tokens: the seed incident's warmup returned zeros). In
PD mode the router sends every client request to that route too, so an access line for it proves
serving only when it is not the warmup's. A pattern marked OWN_WARMUP_FIRST has its first line after
each start of its source (a SERVER_LAUNCH line, or the source's beginning) set aside before the
diagnosis: the others are what the pattern's other marks say.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..library.patterns import Library
from ..model import Event, Mark


def own_warmups_apart(events: Sequence[Event], library: Library) -> list[Event]:
    """`events` without each marked pattern's first line per server start of its source. The lines
    kept still count every line of their kind in the file, the warmup's too (model/counts.py: a
    report's count is what a search of the file finds)."""
    marked = library.marked(Mark.OWN_WARMUP_FIRST)
    if not any(e.pattern in marked for e in events):
        return list(events)
    launches = library.marked(Mark.SERVER_LAUNCH)
    starts: dict[str, list[int]] = {}
    for event in events:
        if event.pattern in launches:
            starts.setdefault(event.source, []).append(event.line)
    warmups = _first_per_life(events, marked, starts)
    return [e for e in events if id(e) not in warmups]


def _first_per_life(events: Sequence[Event], marked: frozenset[str], starts: dict[str, list[int]]) -> set[int]:
    """ids of the first event of each marked pattern in each life of its source (a life: from a start
    line, or the source's beginning, to the next start line)."""
    first: dict[tuple[str, str, int], Event] = {}
    for event in events:
        if event.pattern not in marked:
            continue
        life = sum(1 for line in starts.get(event.source, ()) if line < event.line)
        key = (event.source, event.pattern, life)
        if key not in first or event.line < first[key].line:
            first[key] = event
    return {id(event) for event in first.values()}
