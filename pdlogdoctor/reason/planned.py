"""A benchmark that completed fewer requests than it sent failed, whatever words it prints.

A serving benchmark's result block counts the requests that completed (`Successful requests: 1`);
the number it sent is stated elsewhere in its output, when at all: its arguments echoed
(`num_prompts=100`), or only the concurrency it kept in flight (the run sent at least that many).
The lines that state either are marked `requests-planned`; an end-to-end line that captures
`completed` is compared with the plan of its own run: the nearest plan line of its file after the
previous result line (a sweep prints one block per run), above it, or for the concurrency up to
RESULT_BLOCK_LINES below it (vLLM prints it inside the block, under the count). An exact count (`planned`) wins over the
concurrency floor. The numbers are compared, not the words: a run whose every request completed
stays a passing check.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import replace

from ..library.patterns import Library
from ..model import Event, Mark

RESULT_BLOCK_LINES = 3  # how far below the count a result block states its concurrency (vLLM: 1 or 2 lines)
EXACT, FLOOR = "planned", "concurrency"  # the captures of a plan line: the requests sent, those in flight
# A finished progress bar's total (`bar_total`) is the requests sent only just above the result block
# it closes: a bar further up counted something else (an accuracy eval's questions before the sweep).
BAR, BAR_REACH = "bar_total", 12
AT_LEAST = "sent_at_least"  # a count's field: the concurrency its run kept, the least it sent
PEAK, RATE = "peak", "rate"  # a result block's measured peak in flight; the rate its run was paced at
BLOCK_REACH = 14  # how far below the count a result block states its peak and its rate (vLLM: ~11 lines)


def short_of_plan(events: Sequence[Event], library: Library) -> list[Event]:
    """The events, with each benchmark count below its run's plan made a failing check that says
    what was planned (`planned`, or `sent_at_least`)."""
    planned = library.marked(Mark.REQUESTS_PLANNED)
    plans = [e for e in events if e.pattern in planned]
    if not plans:
        return list(events)
    checks = library.marked(Mark.END_TO_END)
    counts = [e for e in events if e.pattern in checks and isinstance(e.get("completed"), int)]
    results = [e for e in events if e.pattern in library.marked(Mark.END_TO_END, Mark.ANSWERED)]
    out = []
    for event in events:
        if event.pattern in checks and not event.failing and isinstance(event.get("completed"), int):
            own = [p for p in plans if not isinstance(p.get(BAR), int) or _bar_closes(p, event, results)]
            event = _against_plan(event, _plan_of(event, own, counts), library)
        out.append(event)
    return recounted(out, events)


def recounted(events: list[Event], before: Sequence[Event]) -> list[Event]:
    """The scan counted a pattern's passing lines as one kind (`repeats`, model/counts.py): the lines
    now failing join its failing kind (each of them, and any line that failed as scanned, counts
    them all: two commits of a bisection judged worse are two failing lines), and the passing kind
    has that many fewer."""
    turned = Counter((e.source, e.pattern) for e, was in zip(events, before, strict=True) if e.failing != was.failing)
    if not turned:
        return events
    failed_as_scanned = {(e.source, e.pattern): e.repeats for e in before if e.failing}
    out = []
    for event in events:
        kind = (event.source, event.pattern)
        if event.failing and turned[kind]:
            event = replace(event, repeats=turned[kind] + failed_as_scanned.get(kind, 0), at_least=False)
        elif not event.failing and turned[kind] and event.repeats > 1:
            event = replace(event, repeats=max(1, event.repeats - turned[kind]))
        out.append(event)
    return out


def _plan_of(count: Event, plans: Sequence[Event], counts: Sequence[Event]) -> tuple[str, int] | None:
    """What the count's run planned, from the nearest plan line of its run: (`planned`, the requests
    it sent) or (`sent_at_least`, the concurrency it kept)."""
    previous = max((c.line for c in counts if c.source == count.source and c.line < count.line), default=0)
    own = [p for p in plans if p.source == count.source and previous < p.line <= count.line + RESULT_BLOCK_LINES]
    # The finished bar that closes the run's block counts what it sent; the arguments echoed before
    # the run say what was asked, and a dataset may hold fewer prompts than asked (sglang's
    # generated-shared-prefix sends groups x prompts per group whatever num_prompts says).
    for capture, name in ((BAR, EXACT), (EXACT, EXACT)):
        stated = [p for p in own if isinstance(p.get(capture), int) and p.line < count.line]
        if stated:
            value = min(stated, key=lambda p: abs(p.line - count.line)).get(capture)
            return (name, value) if isinstance(value, int) else None
    return _floor_of(count, previous, plans)


def _floor_of(count: Event, previous: int, plans: Sequence[Event]) -> tuple[str, int] | None:
    """The least the count's run sent, with no exact count stated: the peak it measured in flight
    (vLLM's `Peak concurrent requests`), else its concurrency cap, but only for a run sent all at once:
    one paced at a finite rate keeps fewer in flight than its cap, and so may one of fewer prompts."""
    block = [p for p in plans if p.source == count.source and previous < p.line <= count.line + BLOCK_REACH]
    peak = _nearest(count, [p for p in block if isinstance(p.get(PEAK), float) and p.line > count.line])
    if peak is not None:
        return AT_LEAST, math.ceil(float(peak.get(PEAK) or 0.0))
    rate = _nearest(count, [p for p in block if isinstance(p.get(RATE), str)])
    if rate is not None and rate.get(RATE) != "inf":
        return None
    caps = [p for p in block if isinstance(p.get(FLOOR), int) and p.line <= count.line + RESULT_BLOCK_LINES]
    if not caps:
        return None
    value = min(caps, key=lambda p: abs(p.line - count.line)).get(FLOOR)
    return (AT_LEAST, value) if isinstance(value, int) else None


def _nearest(count: Event, lines: Sequence[Event]) -> Event | None:
    return min(lines, key=lambda p: abs(p.line - count.line), default=None)


def _bar_closes(bar: Event, count: Event, results: Sequence[Event]) -> bool:
    """The bar is the one the count's result block closes: just above it (BAR_REACH), with no
    other result of its file between them (an accuracy eval's own bar stands above its accuracy)."""
    if bar.source != count.source or not 0 < count.line - bar.line <= BAR_REACH:
        return False
    return not any(r.source == bar.source and bar.line < r.line < count.line for r in results)


def _against_plan(count: Event, plan: tuple[str, int] | None, library: Library) -> Event:
    completed = count.get("completed")
    if plan is None or not isinstance(completed, int) or completed >= plan[1]:
        return count
    severity = library.pattern(count.pattern).severity
    fields = tuple(sorted((*(f for f in count.fields if f[0] not in (EXACT, AT_LEAST)), plan)))
    return replace(count, failing=True, severity=severity, fields=fields)
