"""How many log lines events stand for: the one count every format prints.

The scan keeps the first lines of each kind (one pattern's failing, or passing, lines in one
file; one unrecognised template's lines in one file) and counts the rest; every kept event of a
kind carries the kind's count in `repeats` (scan/events.py). So the lines a set of events stands
for are the counts of their kinds, each taken once: summing `repeats` over two kept events of one
kind would count that kind twice. Every renderer, the run profile and the analyzers ask here.

A pattern that stops being matched in a file after `stop_after` lines (a version line, the
thousands of answered requests) has a count that is a lower bound: `at_least`, shown as `3+`.
A stack frame an analyzer quotes under its crash's pattern (a `frame` capture: scheduler_crash.py)
is a line of the crash, not another occurrence of it: it counts for nothing.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from . import Event
from .values import record

Kind = tuple[str, str, bool, str | None]
QUOTED_FRAME = "frame"


@record
class LineCount:
    lines: int
    at_least: bool = False  # the pattern stopped being matched in a file: there may be more

    def __str__(self) -> str:
        return f"{self.lines:,}{'+' if self.at_least else ''}"

    @property
    def folded(self) -> bool:
        """More than the one line shown: worth saying (`(x2)`, `×3+`)."""
        return self.lines > 1 or self.at_least


def kind_of(event: Event) -> Kind:
    """What the scan counts together: a pattern's failing (or passing) lines, or a template's, in one file."""
    return (event.source, event.pattern, event.failing, event.template)


def count_of(events: Iterable[Event]) -> LineCount:
    """The lines `events` stand for: each kind's count once (at least the events of it given)."""
    kinds: dict[Kind, set[int]] = {}
    counts: dict[Kind, int] = {}
    at_least = False
    for event in events:
        if quoted(event):
            continue
        kind = kind_of(event)
        kinds.setdefault(kind, set()).add(event.line)
        counts[kind] = max(counts.get(kind, 0), event.repeats)
        at_least = at_least or event.at_least
    return LineCount(sum(max(counts[kind], len(lines)) for kind, lines in kinds.items()), at_least)


def quoted(event: Event) -> bool:
    """A crash's stack frame shown under the crash's pattern: no occurrence of the pattern."""
    return event.get(QUOTED_FRAME) is not None


def shares(events: Sequence[Event]) -> list[int]:
    """Each event's part of its kind's count, so that any grouping of `events` sums to the lines it
    stands for: a listed line is 1, and the kind's lines not listed go to its first listed event
    (the run starts there). The same line listed twice counts once."""
    by_kind: dict[Kind, list[Event]] = {}
    for event in events:
        if not quoted(event):
            by_kind.setdefault(kind_of(event), []).append(event)
    unlisted = {kind: count_of(members).lines - len({e.line for e in members}) for kind, members in by_kind.items()}
    parts: list[int] = []
    seen: set[tuple[Kind, int]] = set()
    for event in events:
        kind = kind_of(event)
        if quoted(event) or (kind, event.line) in seen:
            parts.append(0)
            continue
        seen.add((kind, event.line))
        parts.append(1 + unlisted.pop(kind, 0))
    return parts
