"""Clock offsets between files: estimated from lines that must be near-simultaneous, corrected
before linking, and said in the report.

Servers print local time without a zone and the router prints UTC, so a prefill node in UTC+8
stamps its lines 8 h after the router's; hosts without NTP drift by seconds to minutes. The
chain across files rests on time windows, so every file's clock is brought onto one reference
(the router's when there is one) before linking.

Pairs of lines that describe one moment seen from two files:
- the same `bootstrap_room` or `rid` on both sides of a KV transfer (precise);
- a server's HTTP 5xx answer and the router's error for it, in order (precise);
- the disaggregation warmups of a prefill and a decode server (coarse: each server warms up when
  its own loading ends, so they only pin whole hours).
Precise pairs give the offset to the second; coarse pairs only a whole-hour (time-zone) shift.
A file with no pair keeps its clock, and links to or from it get a wider window: its times
could not be aligned, and the report says so when that matters.
"""

from __future__ import annotations

import statistics
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from itertools import pairwise

from .model import ClockOffset, Event, Report, Role, Source

HOUR = 3600.0
# Keys whose equal values on two files are one request seen from both sides.
REQUEST_KEYS = ("bootstrap_room", "rid")
# A server's 5xx answer and the router's error lines for the same request.
SERVER_ANSWERS = ("http-5xx",)
ROUTER_ERRORS = ("router-decode-error-status", "router-server-error")
WARMUPS = ("warmup-status", "warmup-output-ids")
# Precise pairs must agree this well to be trusted to the second.
PRECISE_SPREAD_S = 10.0
# Below this, a measured offset is clock resolution (whole seconds) and request latency.
MIN_SKEW_S = 5.0
# A coarse offset is read as whole hours only when it sits this close to a whole hour.
HOUR_TOLERANCE_S = 15 * 60.0
# Files whose clocks could not be aligned: cross-file windows are widened by this much.
UNALIGNED_SLACK_S = 60.0
# Roles whose file holds one component's clock (a job log or a paste interleaves several).
CLOCKED_ROLES = frozenset({Role.PREFILL, Role.DECODE, Role.SERVER, Role.ROUTER})


@dataclass(frozen=True, slots=True)
class _Pair:
    left: str  # source names
    right: str
    difference: float  # left time minus right time
    precise: bool
    reason: str


def estimate_offsets(events: Sequence[Event], sources: Sequence[Source]) -> tuple[ClockOffset, ...]:
    """One ClockOffset per timed single-component file, relative to the reference file."""
    clocked = _clocked_sources(events, sources)
    if len(clocked) < 2:
        return ()
    pairs = [p for p in _pairs(events, clocked) if p.left != p.right]
    reference = _reference(clocked, pairs)
    return tuple(_offsets_from(reference, clocked, pairs))


def correct(events: Sequence[Event], offsets: Iterable[ClockOffset]) -> list[Event]:
    """Events with their file's offset taken off their time (time_text keeps the file's clock)."""
    shift = {o.source: o.correction for o in offsets if o.correction}
    if not shift:
        return list(events)
    moved = [_shifted(e, shift.get(e.source, 0.0)) for e in events]
    return sorted(moved, key=lambda e: (e.time if e.time is not None else float("inf"), e.source, e.line))


def slack(offsets: Iterable[ClockOffset]) -> dict[str, float]:
    """How much wider cross-file windows must be for each file whose clock is not aligned."""
    return {o.source: o.uncertainty for o in offsets if o.uncertainty > 0}


def _shifted(event: Event, seconds: float) -> Event:
    if not seconds or event.time is None:
        return event
    return replace(event, time=event.time - seconds)


def _clocked_sources(events: Sequence[Event], sources: Sequence[Source]) -> dict[str, Role]:
    timed = {e.source for e in events if e.time is not None}
    return {s.name: s.role for s in sources if s.role in CLOCKED_ROLES and s.name in timed}


# ---------------------------------------------------------------- pairs


def _pairs(events: Sequence[Event], clocked: dict[str, Role]) -> list[_Pair]:
    timed = [e for e in events if e.time is not None and e.source in clocked]
    return [*_request_pairs(timed), *_answer_pairs(timed, clocked), *_warmup_pairs(timed, clocked)]


def _request_pairs(events: Sequence[Event]) -> Iterable[_Pair]:
    """The first line naming a request in each file, paired across files."""
    first: dict[tuple[str, object], dict[str, Event]] = defaultdict(dict)
    for event in events:
        for key in REQUEST_KEYS:
            value = event.get(key)
            if value not in (None, "", 0, "0"):
                first[(key, value)].setdefault(event.source, event)
    for (key, _), by_source in first.items():
        names = sorted(by_source)
        for left, right in pairwise(names):
            yield _pair(by_source[left], by_source[right], True, f"same {key}")


def _answer_pairs(events: Sequence[Event], clocked: dict[str, Role]) -> Iterable[_Pair]:
    """A server's 5xx answers and the router's errors, k-th with k-th, when only one server answered 5xx."""
    answers: dict[str, list[Event]] = defaultdict(list)
    for event in events:
        if event.pattern in SERVER_ANSWERS and clocked[event.source] is not Role.ROUTER:
            answers[event.source].append(event)
    if len(answers) != 1:
        return
    server_side = next(iter(answers.values()))
    for pattern in ROUTER_ERRORS:
        router_side = [e for e in events if e.pattern == pattern and clocked[e.source] is Role.ROUTER]
        for answer, error in zip(server_side, router_side, strict=False):
            yield _pair(answer, error, True, "a 5xx answer and the router's error for it")


def _warmup_pairs(events: Sequence[Event], clocked: dict[str, Role]) -> Iterable[_Pair]:
    firsts: dict[str, Event] = {}
    for event in events:
        if event.pattern in WARMUPS and clocked[event.source] is not Role.ROUTER:
            firsts.setdefault(event.source, event)
    names = sorted(firsts)
    for left, right in pairwise(names):
        yield _pair(firsts[left], firsts[right], False, "disaggregation warmups")


def _pair(left: Event, right: Event, precise: bool, reason: str) -> _Pair:
    assert left.time is not None and right.time is not None
    return _Pair(left.source, right.source, left.time - right.time, precise, reason)


# ---------------------------------------------------------------- offsets


def _reference(clocked: dict[str, Role], pairs: Sequence[_Pair]) -> str:
    """The router's file (it logs UTC), else the file paired with the most others."""
    routers = sorted(name for name, role in clocked.items() if role is Role.ROUTER)
    if routers:
        return routers[0]
    partners: dict[str, set[str]] = defaultdict(set)
    for pair in pairs:
        partners[pair.left].add(pair.right)
        partners[pair.right].add(pair.left)
    return min(clocked, key=lambda name: (-len(partners[name]), name))


def _offsets_from(reference: str, clocked: dict[str, Role], pairs: Sequence[_Pair]) -> Iterable[ClockOffset]:
    """Walk the pair graph from the reference: each file's offset is its neighbour's plus the
    offset measured between them."""
    between: dict[tuple[str, str], list[_Pair]] = defaultdict(list)
    for pair in pairs:
        between[(pair.left, pair.right)].append(pair)
        between[(pair.right, pair.left)].append(_reversed(pair))
    known = {reference: ClockOffset(reference, reference, 0.0, 0.0, 0, "reference", ())}
    queue = [reference]
    while queue:
        here = queue.pop(0)
        for (left, right), measured in sorted(between.items()):
            if right == here and left not in known:
                known[left] = _measured(left, known[here], measured)
                queue.append(left)
    for name in sorted(clocked):
        yield known.get(name) or ClockOffset(name, reference, 0.0, 0.0, 0, "unaligned", (), UNALIGNED_SLACK_S)


def _reversed(pair: _Pair) -> _Pair:
    return _Pair(pair.right, pair.left, -pair.difference, pair.precise, pair.reason)


def _measured(name: str, neighbour: ClockOffset, pairs: list[_Pair]) -> ClockOffset:
    """The offset from one neighbour's pairs: to the second when the precise pairs agree,
    else only the whole hours of the coarse ones."""
    reasons = tuple(sorted({p.reason for p in pairs}))
    precise = [p for p in pairs if p.precise]
    differences = [p.difference for p in precise]
    if precise and max(differences) - min(differences) <= PRECISE_SPREAD_S:
        measured = statistics.median(differences)
        correction = measured if abs(measured) >= MIN_SKEW_S else 0.0
        return ClockOffset(
            name, neighbour.reference, measured + neighbour.measured, correction + neighbour.correction,
            len(precise), "paired", tuple(sorted({p.reason for p in precise})),
        )  # fmt: skip
    measured = statistics.median(p.difference for p in pairs)
    hours = round(measured / HOUR)
    if abs(measured - hours * HOUR) > HOUR_TOLERANCE_S:
        return ClockOffset(
            name, neighbour.reference, measured, 0.0, len(pairs), "disagreeing", reasons, UNALIGNED_SLACK_S
        )
    return ClockOffset(
        name, neighbour.reference, measured + neighbour.measured, hours * HOUR + neighbour.correction,
        len(pairs), "whole-hours", reasons, UNALIGNED_SLACK_S,
    )  # fmt: skip


# ---------------------------------------------------------------- sentences


def describe(offset: ClockOffset, label: str, reference_label: str) -> str | None:
    """One sentence for the report, or None when there is nothing to say about this file."""
    if offset.method == "reference" or (offset.method == "paired" and not offset.correction):
        return None
    evidence = f"{offset.pairs} pair(s) of lines: {', '.join(offset.reasons)}"
    if offset.method == "paired":
        return f"{label} clock is {_span(offset.correction)} {reference_label} (from {evidence}); corrected"
    if offset.method == "whole-hours" and offset.correction:
        return (
            f"{label} clock is about {_span(offset.correction)} {reference_label} (measured "
            f"{_span(offset.measured)} from {evidence}, which pin whole hours only); corrected by whole hours, "
            f"windows to other files widened by {offset.uncertainty:g} s"
        )
    if offset.method == "whole-hours":
        return None
    why = "no line seen from both sides" if offset.method == "unaligned" else f"the {evidence} disagree"
    return (
        f"{label} times could not be aligned with {reference_label} ({why}); "
        f"windows to other files widened by {offset.uncertainty:g} s"
    )


def _span(seconds: float) -> str:
    direction = "ahead of" if seconds > 0 else "behind"
    whole = round(abs(seconds))
    hours, rest = divmod(whole, 3600)
    minutes, secs = divmod(rest, 60)
    if hours and not minutes and not secs:
        text = f"{hours} h"
    elif hours:
        text = f"{hours} h {minutes:02d} m {secs:02d} s"
    else:
        text = f"{minutes} m {secs:02d} s" if minutes else f"{secs} s"
    return f"{text} {direction}"


def annotate(report: Report, offsets: tuple[ClockOffset, ...]) -> Report:
    """The report with every file's clock, and a sentence for each correction and for each
    unaligned file whose lines the chain joins to another file's."""
    labels = _labels(report.inputs)
    chain_files = {e.source for e in report.chain if e.time is not None}
    notes = []
    for offset in offsets:
        if offset.method in ("unaligned", "disagreeing") and not (
            offset.source in chain_files and len(chain_files) > 1
        ):
            continue
        note = describe(
            offset, labels.get(offset.source, offset.source), labels.get(offset.reference, offset.reference)
        )
        if note is not None:
            notes.append(note)
    return replace(report, clocks=offsets, time_notes=(*report.time_notes, *notes))


def _labels(sources: Sequence[Source]) -> dict[str, str]:
    """'the router', 'prefill' when a role has one file; else the file's name."""
    by_role: dict[Role, list[str]] = defaultdict(list)
    for source in sources:
        by_role[source.role].append(source.name)
    labels = {}
    for role, names in by_role.items():
        for name in names:
            unique = len(names) == 1 and role in CLOCKED_ROLES
            labels[name] = (f"the {role.value}" if role is Role.ROUTER else role.value) if unique else name
    return labels
