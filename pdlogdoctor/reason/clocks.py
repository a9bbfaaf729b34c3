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
  its own loading ends, so they only pin whole hours);
- the nodes of one multi-node server (the same `dist_init_addr`): sizing the KV pool all-reduces
  the free memory over every rank, so each node logs its pool at the same step (coarse: pool
  allocation after the all-reduce takes each node its own time).
Precise pairs give the offset to the second; coarse pairs only a whole-hour (time-zone) shift.
A file with no pair keeps its clock, and links to or from it get a wider window: its times
could not be aligned, and the report says so when that matters.
"""

from __future__ import annotations

from collections import defaultdict, deque
from collections.abc import Iterable, Sequence
from dataclasses import replace
from datetime import UTC, datetime
from itertools import pairwise

from ..ingest.rotation import streams
from ..library.patterns import Library
from ..model import ClockOffset, Event, Mark, Report, Role, Source
from ..model.moments import second_text, without_year, year_unknown
from ..model.values import record
from .incidents import wait_began

HOUR = 3600.0
# Zones run from UTC-12 to UTC+14: two files can be up to 26 h apart; more is not a time zone.
MAX_ZONE_HOURS = 26
# Where files start and end pins whole hours only when they lie no further apart than the zones a
# deployment's machines and a reader's laptop are in (UTC-8 to UTC+9 and the like: 17 h at most).
# Further apart, above all a whole day, another run's lines are likelier than a time zone: a run a
# day earlier pasted beside the failed one must not be moved onto it.
MAX_START_HOURS = 18
# Keys whose equal values on two files are one request seen from both sides.
REQUEST_KEYS = ("bootstrap_room", "rid")
# Precise pairs must agree this well to be trusted to the second.
PRECISE_SPREAD_S = 10.0
# Below this, a measured offset is clock resolution (whole seconds) and request latency.
MIN_SKEW_S = 5.0
# A coarse offset is read as whole hours only when it sits this close to a whole hour.
HOUR_TOLERANCE_S = 15 * 60.0
# A file no pair joins starts within this of the others, give or take whole hours (time zones).
START_TOLERANCE_S = 10 * 60.0
# Files whose clocks could not be aligned: cross-file windows are widened by this much.
UNALIGNED_SLACK_S = 60.0
# Roles whose file holds one component's clock (a job log or a paste interleaves several).
CLOCKED_ROLES = frozenset(Role)  # a job log or a paste is read as one clock too: one runner wrote it
# Started by one launcher within minutes of each other: their first lines can anchor whole hours.
LAUNCHED_TOGETHER = frozenset({Role.PREFILL, Role.DECODE, Role.SERVER, Role.ROUTER})
# Named by their role in sentences when the bundle has one file of that role.
LABELLED_ROLES = {Role.PREFILL: "prefill", Role.DECODE: "decode", Role.ROUTER: "the router", Role.CI: "the CI job log"}


@record
class PairedLines:
    """The lines clocks pairs across files, by the marks the library gives them (model.Mark)."""

    answers: frozenset[str]  # a server's 5xx answer (ERROR_ANSWER, no router role)
    router_errors: tuple[str, ...]  # the router's error for it (ERROR_ANSWER, a router pattern)
    warmups: frozenset[str]  # a server's disaggregation warmup (WARMUP)
    lockstep: tuple[str, ...]  # logged by every node right after the KV pool's all-reduce (LOCKSTEP)
    launches: frozenset[str]  # a server's launch line (SERVER_LAUNCH): where each node started

    @classmethod
    def of(cls, library: Library) -> PairedLines:
        answering = [library.pattern(p) for p in sorted(library.marked(Mark.ERROR_ANSWER))]
        routers = tuple(p.id for p in answering if Role.ROUTER in p.roles)
        return cls(
            answers=frozenset(p.id for p in answering if p.id not in routers),
            router_errors=routers,
            warmups=library.marked(Mark.WARMUP),
            lockstep=tuple(sorted(library.marked(Mark.LOCKSTEP))),
            launches=library.marked(Mark.SERVER_LAUNCH),
        )


@record
class _Pair:
    left: str  # source names
    right: str
    difference: float  # left time minus right time
    precise: bool
    reason: str


def estimate_offsets(events: Sequence[Event], sources: Sequence[Source], library: Library) -> tuple[ClockOffset, ...]:
    """One ClockOffset per timed single-component file, relative to the reference file."""
    clocked = _clocked_sources(events, sources)
    if len(clocked) < 2:
        return ()
    pairs = [p for p in _pairs(events, clocked, PairedLines.of(library)) if p.left != p.right]
    reference = _reference(clocked, pairs)
    spans: dict[str, tuple[float, float]] = {}
    for event in events:
        if event.time is not None and event.source in clocked:
            start, end = spans.get(event.source, (event.time, event.time))
            spans[event.source] = (min(start, event.time), max(end, event.time))
    return tuple(_offsets_from(reference, clocked, pairs, spans))


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
    latest = event.time_latest - seconds if event.time_latest is not None else None
    return replace(event, time=event.time - seconds, time_latest=latest)


def _clocked_sources(events: Sequence[Event], sources: Sequence[Source]) -> dict[str, Role]:
    timed = {e.source for e in events if e.time is not None}
    return {s.name: s.role for s in sources if s.role in CLOCKED_ROLES and s.name in timed}


# ---------------------------------------------------------------- pairs


def _pairs(events: Sequence[Event], clocked: dict[str, Role], lines: PairedLines) -> list[_Pair]:
    timed = [e for e in events if e.time is not None and e.source in clocked]
    return [
        *_request_pairs(timed),
        *_answer_pairs(timed, clocked, lines),
        *_warmup_pairs(timed, clocked, lines),
        *_node_pairs(timed, lines),
    ]


def _request_pairs(events: Sequence[Event]) -> Iterable[_Pair]:
    """The first line naming a request in each file (by when the file took it up), paired across files."""
    first: dict[tuple[str, object], dict[str, Event]] = defaultdict(dict)
    for event in events:
        for key in REQUEST_KEYS:
            value = event.get(key)
            if value not in (None, "", 0, "0"):
                known = first[(key, value)].get(event.source)
                if known is None or _taken_up(event) < _taken_up(known):
                    first[(key, value)][event.source] = event
    for (key, _), by_source in first.items():
        names = sorted(by_source)
        for left, right in pairwise(names):
            yield _request_pair(by_source[left], by_source[right], f"same {key}")


def _request_pair(left: Event, right: Event, reason: str) -> _Pair:
    """Two files' first lines naming one request, each at the moment its file took the request up: a
    line that gave up waiting for it (sglang's decode: `Request N timed out after 300.0s in
    KVPoll.WaitingForInput`) was logged its stated wait after that (round 123's bundles-1 04: the
    prefill's failed transfer and the decode's timeout 300 s later are no clocks 5 minutes apart)."""
    left_at, right_at = _taken_up(left), _taken_up(right)
    return _Pair(left.source, right.source, left_at - right_at, True, reason)


def _taken_up(event: Event) -> float:
    assert event.time is not None
    began = wait_began(event, ("elapsed",))
    return event.time if began is None else began


def _answer_pairs(events: Sequence[Event], clocked: dict[str, Role], lines: PairedLines) -> Iterable[_Pair]:
    """A server's 5xx answers and the router's errors, k-th with k-th, when only one server answered 5xx."""
    answers: dict[str, list[Event]] = defaultdict(list)
    for event in events:
        if event.pattern in lines.answers and clocked[event.source] is not Role.ROUTER:
            answers[event.source].append(event)
    if len(answers) != 1:
        return
    server_side = next(iter(answers.values()))
    for pattern in lines.router_errors:
        router_side = [e for e in events if e.pattern == pattern and clocked[e.source] is Role.ROUTER]
        for answer, error in zip(server_side, router_side, strict=False):
            yield _pair(answer, error, True, "a 5xx answer and the router's error for it")


def _warmup_pairs(events: Sequence[Event], clocked: dict[str, Role], lines: PairedLines) -> Iterable[_Pair]:
    firsts: dict[str, Event] = {}
    for event in events:
        if event.pattern in lines.warmups and clocked[event.source] is not Role.ROUTER:
            firsts.setdefault(event.source, event)
    names = sorted(firsts)
    for left, right in pairwise(names):
        yield _pair(firsts[left], firsts[right], False, "disaggregation warmups")


def multi_node_servers(launches: Iterable[Event]) -> dict[str, str]:
    """The file of each node of a multi-node server -> the server, from the servers' launch lines
    (Mark.SERVER_LAUNCH): its `dist_init_addr` (where the nodes meet), with its mode and node
    count so two servers cannot be taken for one."""
    server_of = {}
    for event in launches:
        address, nodes = event.get("dist_init_addr"), event.get("nnodes")
        if address and isinstance(nodes, int) and nodes > 1:
            server_of[event.source] = f"{event.get('mode')} server of {nodes} nodes at {address}"
    return server_of


def _node_pairs(events: Sequence[Event], lines: PairedLines) -> Iterable[_Pair]:
    """The nodes of each multi-node server, paired by the first lockstep line all of them logged."""
    servers: dict[str, set[str]] = defaultdict(set)
    for source, address in multi_node_servers(e for e in events if e.pattern in lines.launches).items():
        servers[address].add(source)
    for files in servers.values():
        if len(files) < 2:
            continue
        names = sorted(files)
        firsts = _first_shared(events, files, lines)
        for left, right in pairwise(names):
            yield _pair(firsts[left], firsts[right], False, "nodes of one multi-node server")


def _first_shared(events: Sequence[Event], files: set[str], lines: PairedLines) -> dict[str, Event]:
    """Each file's first line of the first lockstep pattern every file logged, else its launch line."""
    for patterns in (*({pattern} for pattern in lines.lockstep), lines.launches):
        firsts: dict[str, Event] = {}
        for event in events:
            if event.pattern in patterns and event.source in files:
                firsts.setdefault(event.source, event)
        if len(firsts) == len(files):
            return firsts
    raise AssertionError("every file of a server has its launch line")


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
    return min(clocked, key=lambda name: (-len(partners[name]), clocked[name] not in LAUNCHED_TOGETHER, name))


def _offsets_from(
    reference: str, clocked: dict[str, Role], pairs: Sequence[_Pair], spans: dict[str, tuple[float, float]]
) -> Iterable[ClockOffset]:
    """Walk the pair graph from the reference: each file's offset is its neighbour's plus the
    offset measured between them. A group of files no pair joins to the reference is anchored
    as a whole by where it starts or ends (whole hours only), or left unaligned."""
    between: dict[tuple[str, str], list[_Pair]] = defaultdict(list)
    for pair in pairs:
        between[(pair.left, pair.right)].append(pair)
        between[(pair.right, pair.left)].append(_reversed(pair))
    # Each file's paired neighbours, by name: a walk reads a file's own, not every pair (a bundle
    # of 100,000 files made that, and the anchor spans below, quadratic).
    neighbours: dict[str, list[tuple[str, list[_Pair]]]] = defaultdict(list)
    for (left, right), measured in sorted(between.items()):
        neighbours[right].append((left, measured))
    known: dict[str, ClockOffset] = {}
    bounds: tuple[float, float] | None = None  # of the anchor spans (`_anchor_spans`) of the files known
    # The servers and router first: a job log or a kernel log is anchored against all of them.
    for root in (reference, *sorted(clocked, key=lambda name: (clocked[name] not in LAUNCHED_TOGETHER, name))):
        if root in known:
            continue
        method = "reference" if root == reference else "unaligned"
        group = _walk(ClockOffset(root, reference, 0.0, 0.0, 0, method, ()), neighbours)
        if root != reference:
            group = _anchored(group, bounds, spans, clocked)
        known.update(group)  # a group is a file's whole pair graph: it holds no file known before
        bounds = _widened(bounds, _anchor_spans(group, clocked, spans))
    return [known[name] for name in sorted(clocked)]


def _widened(bounds: tuple[float, float] | None, more: list[tuple[float, float]]) -> tuple[float, float] | None:
    """The first start and last end of the spans so far and `more`."""
    if not more:
        return bounds
    first, last = min(a for a, _ in more), max(b for _, b in more)
    return (first, last) if bounds is None else (min(bounds[0], first), max(bounds[1], last))


def _walk(root: ClockOffset, neighbours: dict[str, list[tuple[str, list[_Pair]]]]) -> dict[str, ClockOffset]:
    """The root and every file paired to it, directly or through others, with offsets relative to it."""
    group = {root.source: root}
    queue = deque([root.source])
    while queue:
        here = queue.popleft()
        for left, measured in neighbours.get(here, ()):
            if left not in group:
                group[left] = _measured(left, group[here], measured)
                queue.append(left)
    return group


def _anchored(
    group: dict[str, ClockOffset],
    anchors: tuple[float, float] | None,
    spans: dict[str, tuple[float, float]],
    clocked: dict[str, Role],
) -> dict[str, ClockOffset]:
    """A group no pair joins to the reference. Servers and router are launched together and
    stopped together, and a job log whose lines all sit outside the others' span is misread, so a
    start or an end a whole number of hours (give or take START_TOLERANCE_S) from the aligned
    servers' reads as a time zone. Otherwise the group keeps its root's clock, unaligned, and the
    others in it are brought onto the root's clock (their pairs measured them against it)."""
    hours = _whole_hours_apart(group, anchors, spans, clocked)
    changed = {}
    for name, offset in group.items():
        if hours:
            changed[name] = replace(
                offset, correction=offset.correction + hours * HOUR, method="start-times",
                reasons=(*offset.reasons, "first and last lines of the files"),
                uncertainty=offset.uncertainty + UNALIGNED_SLACK_S,
            )  # fmt: skip
        elif offset.method == "unaligned":  # the root
            changed[name] = replace(offset, uncertainty=offset.uncertainty + UNALIGNED_SLACK_S)
        else:
            root = next(n for n, o in group.items() if o.method == "unaligned")
            changed[name] = replace(offset, reference=root, uncertainty=offset.uncertainty + UNALIGNED_SLACK_S)
    return changed


def _whole_hours_apart(
    group: dict[str, ClockOffset],
    anchors: tuple[float, float] | None,
    spans: dict[str, tuple[float, float]],
    clocked: dict[str, Role],
) -> int:
    """`anchors`: the first start and last end of the aligned servers' spans (None: none)."""
    own = [(spans[n][0] - o.correction, spans[n][1] - o.correction) for n, o in group.items() if n in spans]
    if not own or not anchors:
        return 0
    first, last = anchors
    start, end = min(a for a, _ in own), max(b for _, b in own)
    if not (end < first or start > last):
        return 0  # lines that overlap the others' in time may all be on one clock: no evidence they differ
    closest = min((start - first, end - last), key=lambda d: abs(d - round(d / HOUR) * HOUR))
    hours = round(closest / HOUR)
    return hours if abs(closest - hours * HOUR) <= START_TOLERANCE_S and abs(hours) <= MAX_START_HOURS else 0


def _time_zone(hours: int) -> bool:
    """Clocks differ by a time zone (UTC-12 to UTC+14 against UTC), not by days."""
    return -MAX_ZONE_HOURS <= hours <= MAX_ZONE_HOURS


def _anchor_spans(
    known: dict[str, ClockOffset], clocked: dict[str, Role], spans: dict[str, tuple[float, float]]
) -> list[tuple[float, float]]:
    """The corrected spans of the files launched with the servers (a job log starts earlier), those
    no evidence aligned too: a server left on its own clock still ran when the others did."""
    return [
        (spans[name][0] - offset.correction, spans[name][1] - offset.correction)
        for name, offset in known.items()
        if name in spans and clocked[name] in LAUNCHED_TOGETHER and offset.method != "disagreeing"
    ]


def _reversed(pair: _Pair) -> _Pair:
    return _Pair(pair.right, pair.left, -pair.difference, pair.precise, pair.reason)


def _measured(name: str, neighbour: ClockOffset, pairs: list[_Pair]) -> ClockOffset:
    """The offset from one neighbour's pairs: to the second when the precise pairs agree,
    else only the whole hours of the coarse ones."""
    reasons = tuple(sorted({p.reason for p in pairs}))
    precise = [p for p in pairs if p.precise]
    differences = [p.difference for p in precise]
    if precise and max(differences) - min(differences) <= PRECISE_SPREAD_S:
        measured = _median(differences)
        correction = measured if abs(measured) >= MIN_SKEW_S else 0.0
        return ClockOffset(
            name, neighbour.reference, measured + neighbour.measured, correction + neighbour.correction,
            len(precise), "paired", tuple(sorted({p.reason for p in precise})), neighbour.uncertainty,
        )  # fmt: skip
    measured = _median([p.difference for p in pairs])
    hours = round(measured / HOUR)
    if abs(measured - hours * HOUR) > HOUR_TOLERANCE_S or not _time_zone(hours):
        return ClockOffset(
            name, neighbour.reference, measured, 0.0, len(pairs), "disagreeing", reasons, UNALIGNED_SLACK_S
        )
    return ClockOffset(
        name, neighbour.reference, measured + neighbour.measured, hours * HOUR + neighbour.correction,
        len(pairs), "whole-hours", reasons, UNALIGNED_SLACK_S + neighbour.uncertainty,
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
            f"{_span(offset.measured).removesuffix(' of')} from {evidence}, which pin whole hours only); "
            f"corrected by whole hours, windows to other files widened by {offset.uncertainty:g} s"
        )
    if offset.method == "whole-hours":
        return None
    if offset.method == "start-times":
        return (
            f"{label} clock is about {_span(offset.correction)} {reference_label} (no line seen from both sides; "
            f"read from where the files start and end, whole hours only); corrected by whole hours, "
            f"windows to other files widened by {offset.uncertainty:g} s"
        )
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


def annotate(report: Report, offsets: tuple[ClockOffset, ...], window: str | None = None) -> Report:
    """The report with every file's clock, and a sentence for each correction and for each
    unaligned file whose link into the chain needed a widened window."""
    labels = _labels(report.inputs)
    relied_on = {e.source for link in report.links if "widened" in link.reason for e in (link.cause, link.effect)}
    relied_on |= {o.reference for o in offsets if o.source in relied_on}  # a file brought onto an unaligned one
    segments = streams(o.source for o in offsets)  # a rotated log's segments share one clock: one sentence
    described: set[str] = set()
    notes = []
    for offset in offsets:
        if offset.method in ("unaligned", "disagreeing") and offset.source not in relied_on:
            continue  # nothing in the chain rests on this file's unsure clock
        stream = segments.get(offset.source)
        if stream in described:
            continue
        label = labels.get(offset.source, offset.source)
        if stream is not None:
            described.add(stream)
            others = sum(1 for name in segments.values() if name == stream) - 1
            label = f"{stream} (with its {others} rotated segment{'s' if others > 1 else ''})"
        note = describe(offset, label, labels.get(offset.reference, offset.reference))
        if note is not None:
            notes.append(note)
    if window is not None:
        notes.append(window)
    return replace(report, clocks=offsets, time_notes=(*report.time_notes, *notes))


def _labels(sources: Sequence[Source]) -> dict[str, str]:
    """'the router', 'prefill' when a role has one file; else the file's name."""
    by_role: dict[Role, list[str]] = defaultdict(list)
    for source in sources:
        by_role[source.role].append(source.name)
    labels = {}
    for role, names in by_role.items():
        for name in names:
            labels[name] = LABELLED_ROLES[role] if len(names) == 1 and role in LABELLED_ROLES else name
    return labels


# ---------------------------------------------------------------- --since / --until


def parse_moment(text: str) -> float:
    """A moment given on the command line: ISO 8601 date or date-time; without a zone it is UTC,
    like the log times it is compared with."""
    try:
        moment = datetime.fromisoformat(text.strip().replace(" ", "T", 1))
    except ValueError:
        raise ValueError(f"{text!r} is not a date or time (use e.g. 2026-07-14 or 2026-07-14T01:05:00)") from None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.timestamp()


def within(events: Sequence[Event], since: float | None, until: float | None) -> list[Event]:
    """The events inside [since, until] on the reference clock. An untimed event is kept only
    when its file has no time at all (a bench log's lines cannot be placed, so they are not cut)."""
    if since is None and until is None:
        return list(events)
    timed_files = {e.source for e in events if e.time is not None}
    low, high = since if since is not None else float("-inf"), until if until is not None else float("inf")
    # A time whose year no line told is compared by its month, day and clock (model/moments.py).
    year_less = (
        without_year(low) if since is not None else low,
        without_year(high) if until is not None else high,
    )
    return [
        e
        for e in events
        if (e.time is None and e.source not in timed_files)
        or (e.time is not None and _inside(e, *(year_less if year_unknown(e.time) else (low, high))))
    ]


def _inside(event: Event, low: float, high: float) -> bool:
    return event.time is not None and (event.latest or event.time) >= low and event.time <= high


def window_note(since: float | None, until: float | None) -> str | None:
    if since is None and until is None:
        return None
    shown = [f"from {_utc(since)}" if since is not None else "", f"until {_utc(until)}" if until is not None else ""]
    return f"only lines {' '.join(part for part in shown if part)} UTC (on the reference clock) were analysed"


def _utc(seconds: float) -> str:
    return second_text(int(seconds), " ")


def _median(values: list[float]) -> float:
    """statistics.median, imported when clocks are compared (the module costs every run ~2 ms)."""
    from statistics import median as of

    return of(values)
