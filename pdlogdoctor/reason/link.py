"""Link: join events into cause -> effect edges using the library's causal rules.

A rule `A causes B` joins an A event to a B event when B happens within
[A - skew, A + window] and every join key the rule names agrees (a key absent
on either side does not block the join: logs rarely print every id).
"""

from __future__ import annotations

import bisect
from collections import defaultdict, deque
from collections.abc import Iterable, Mapping, Sequence

from ..library.patterns import DEFAULT_SKEW_S, CauseRule, Library
from ..model import Event, Link


def link(
    events: Sequence[Event],
    library: Library,
    nodes: dict[str, str | None],
    slack: Mapping[str, float] | None = None,
) -> tuple[Link, ...]:
    """Every edge between failing events that some pattern's `causes` rule allows.

    `slack` widens the window between two files by the seconds by which either file's clock
    could not be aligned (clocks.py): a link is kept, not dropped, when the clocks are unsure."""
    slack = slack or {}
    by_pattern: dict[str, list[Event]] = defaultdict(list)
    for event in events:
        if event.failing:
            by_pattern[event.pattern].append(event)
    links = []
    targets: dict[str, _Targets] = {}
    widest = max(slack.values(), default=0.0)
    for pattern in library.patterns:
        for cause in by_pattern.get(pattern.id, ()):
            for rule in pattern.causes:
                if rule.target not in targets:
                    targets[rule.target] = _Targets(by_pattern.get(rule.target, []))
                reach = slack.get(cause.source, 0.0) + widest  # the most `_widening` can give this cause
                for effect in targets[rule.target].near(cause, rule, reach):
                    if effect is not cause and joins(cause, effect, rule, nodes, slack):
                        links.append(Link(cause, effect, _reason(rule, _widening_needed(cause, effect, rule, slack))))
    return tuple(links)


class _Targets:
    """The events of one pattern, by time: a cause reads only those its window can reach, not all
    of them (a bundle of thousands of files made every rule's cause x effect pairs quadratic)."""

    __slots__ = ("effects", "order", "spread", "times", "untimed")

    def __init__(self, effects: list[Event]) -> None:
        self.effects = effects
        timed = sorted((e.time, number) for number, e in enumerate(effects) if e.time is not None)
        self.times = [time for time, _ in timed]
        self.order = [number for _, number in timed]
        self.untimed = [number for number, e in enumerate(effects) if e.time is None]
        # How much later than its time an event may have happened (an untimed line between its neighbours).
        self.spread = max(((e.latest or e.time) - e.time for e in effects if e.time is not None), default=0.0)

    def near(self, cause: Event, rule: CauseRule, reach: float) -> list[Event]:
        """A superset of the events `_in_window` can join to `cause` with a widening up to `reach`,
        in their order (`joins` decides)."""
        if cause.time is None:
            return self.effects
        latest = cause.latest or cause.time
        # (a second's margin on each side: float rounding never leaves out what `joins` would take)
        lo = bisect.bisect_left(self.times, cause.time - rule.skew_s - reach - max(self.spread, 0.0) - 1.0)
        hi = bisect.bisect_right(self.times, latest + rule.window_s + reach + 1.0)
        if lo == 0 and hi == len(self.times):
            return self.effects
        numbers = sorted([*self.order[lo:hi], *self.untimed])
        return [self.effects[number] for number in numbers]


# Untimed lines of one file are in time order, but a rule that states a skew of its own (more than
# the default's clock jitter) says the effect is logged before its cause: vLLM's `EngineCore failed to
# start.` above the traceback that ends in the error that stopped it, sglang's `Scheduler hit an
# exception:` above its own. Without times, the effect may stand this many lines above (a traceback's
# length: scan/traceback.ABOVE_LINES).
SKEW_LINES = 80


def joins(
    cause: Event, effect: Event, rule: CauseRule, nodes: dict[str, str | None], slack: Mapping[str, float]
) -> bool:
    return _in_window(cause, effect, rule, _widening(cause, effect, slack)) and all(
        _key_agrees(cause, effect, key, nodes) for key in rule.join
    )


def _widening(cause: Event, effect: Event, slack: Mapping[str, float]) -> float:
    if cause.source == effect.source:
        return 0.0
    return slack.get(cause.source, 0.0) + slack.get(effect.source, 0.0)


def _widening_needed(cause: Event, effect: Event, rule: CauseRule, slack: Mapping[str, float]) -> float:
    """The widening a joined pair relied on: 0 when the rule's own window already held."""
    return 0.0 if _in_window(cause, effect, rule) else _widening(cause, effect, slack)


def _in_window(cause: Event, effect: Event, rule: CauseRule, widening: float = 0.0) -> bool:
    if cause.time is not None and effect.time is not None:
        # An untimed line lies anywhere between its neighbours: the rule holds if it holds for some time there.
        cause_latest, effect_latest = cause.latest or cause.time, effect.latest or effect.time
        return (
            cause.time - rule.skew_s - widening <= effect_latest
            and effect.time <= cause_latest + rule.window_s + widening
        )
    if cause.source == effect.source:
        return effect.line >= cause.line - (SKEW_LINES if rule.skew_s > DEFAULT_SKEW_S else 0)
    return True  # no clock to compare across files: the rule alone decides


def _key_agrees(cause: Event, effect: Event, key: str, nodes: dict[str, str | None]) -> bool:
    if key == "source":
        return cause.source == effect.source
    if key == "node":
        left, right = nodes.get(cause.source), nodes.get(effect.source)
        return left is None or right is None or left == right
    if key == "role":
        return cause.role == effect.role
    left, right = cause.get(key), effect.get(key)
    return left is None or right is None or left == right


def _reason(rule: CauseRule, widening: float = 0.0) -> str:
    minutes = rule.window_s / 60
    window = f"within {minutes:g} min" if minutes < 120 else f"within {minutes / 60:g} h"
    keys = f", same {', '.join(rule.join)}" if rule.join else ""
    widened = f" (widened by {widening:g} s: clocks not aligned)" if widening else ""
    return f"{window}{keys}{widened}"


def children_of(links: Sequence[Link]) -> dict[int, list[Event]]:
    """For each event (by identity), the events it has an edge to: made once, read by every
    walk from a set of roots (a dense log's links number in the hundreds of thousands)."""
    edges: dict[int, list[Event]] = defaultdict(list)
    for item in links:
        edges[id(item.cause)].append(item.effect)
    return edges


def downstream(roots: Iterable[Event], links: Sequence[Link] | dict[int, list[Event]]) -> list[Event]:
    """The roots and every event reachable from them, in breadth-first order (`links`, or the
    edges children_of made of them)."""
    edges = links if isinstance(links, dict) else children_of(links)
    seen: dict[int, Event] = {}
    queue = deque(roots)
    while queue:
        event = queue.popleft()
        if id(event) in seen:
            continue
        seen[id(event)] = event
        queue.extend(edges.get(id(event), ()))
    return list(seen.values())


def upstream_of(links: Sequence[Link]) -> dict[int, list[Event]]:
    """For each event (by identity), the events with an edge into it."""
    parents: dict[int, list[Event]] = defaultdict(list)
    for item in links:
        parents[id(item.effect)].append(item.cause)
    return parents
