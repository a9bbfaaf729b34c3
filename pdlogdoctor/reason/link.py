"""Link: join events into cause -> effect edges using the library's causal rules.

A rule `A causes B` joins an A event to a B event when B happens within
[A - skew, A + window] and every join key the rule names agrees (a key absent
on either side does not block the join: logs rarely print every id).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence

from ..library.patterns import CauseRule, Library
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
    for pattern in library.patterns:
        for cause in by_pattern.get(pattern.id, ()):
            for rule in pattern.causes:
                for effect in by_pattern.get(rule.target, ()):
                    if effect is not cause and joins(cause, effect, rule, nodes, slack):
                        links.append(Link(cause, effect, _reason(rule, _widening_needed(cause, effect, rule, slack))))
    return tuple(links)


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
        return effect.line >= cause.line
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


def downstream(roots: Iterable[Event], links: Sequence[Link]) -> list[Event]:
    """The roots and every event reachable from them, in breadth-first order."""
    edges: dict[int, list[Event]] = defaultdict(list)
    for item in links:
        edges[id(item.cause)].append(item.effect)
    seen: dict[int, Event] = {}
    queue = list(roots)
    while queue:
        event = queue.pop(0)
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
