"""Rival causes in time: which failures the service recovered from, which are separate incidents,
and which of two rivals in one incident came first.

A long log can hold several failures. One the service recovered from (a fallback that worked,
a restart that came up, warmup and readiness after it) did not cause what failed later: it is
not a root cause. A failure with no causal link to the others that starts long after them, or
after the service recovered, is a separate incident: it gets its own finding and chain instead
of competing with the first as a near-tie alternative. Within one incident, the failure that
comes first and explains the later one's other failing lines wins, and how clearly it comes
first (beyond what the clocks can tell) sets how far apart their confidences are.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from datetime import UTC, datetime

from ..model import SERVER_ROLES, Event, Mark, Role
from ..model.lazyre import lazy_re
from ..model.values import record
from .hypothesis import Evidence, Hypothesis, never_survived

# Lines that show a server serving again: same file, after the failure.
SERVING_AGAIN = (Mark.SERVER_UP, Mark.WARMUP, Mark.ANSWERED)
# ... or the component's own word that it recovered (a request recomputed, a retry that went
# through): the answered lines of a busy server are read only a few times per file (stop_after),
# so one after a failure deep in a long log is seldom an event.
GOING_ON = (*SERVING_AGAIN, Mark.RECOVERED)
# Failures further apart than this, with no link between them, are separate incidents.
INCIDENT_GAP_S = 30 * 60.0
# ... or this far apart with the service serving again in between (a fallback that worked a
# minute before a crash is part of the same story: an alternative that recovered).
RECOVERED_GAP_S = 5 * 60.0
# Two files' clocks, aligned by paired lines, agree to about this (clocks.MIN_SKEW_S): failures in
# two files closer than this (plus each file's clock slack) are in an order the logs cannot tell.
CROSS_FILE_RESOLUTION_S = 5.0
# A lead this far beyond the resolution is a full time-order margin.
FULL_LEAD_S = 60.0


@record
class Recovery:
    proof: Event  # the line that shows serving again
    restarted: bool = False  # the proof is in the process's next life (its own log after a restart)

    def why(self, hypothesis: Hypothesis) -> str:
        root = hypothesis.first_root
        return (
            f"recovered: after {root.pattern} at {root.where} the server went on "
            f"({self.proof.pattern} at {self.proof.where}), so it did not cause the later failure"
        )


@record
class Incident:
    hypotheses: tuple[Hypothesis, ...]  # in rank order
    start: float | None
    end: float | None

    def distance(self, moment: float) -> float:
        if self.start is None or self.end is None:
            return float("inf")
        return max(self.start - moment, moment - self.end, 0.0)

    def recovered(self, recoveries: dict[int, Recovery]) -> bool:
        return all(id(h) in recoveries for h in self.hypotheses)


@record
class Split:
    """The viable hypotheses read in time: the incident the verdict comes from, and the others."""

    primary: Incident
    others: tuple[Incident, ...]
    recoveries: dict[int, Recovery]

    @property
    def best(self) -> Hypothesis:
        live = [h for h in self.primary.hypotheses if id(h) not in self.recoveries]
        return (live or list(self.primary.hypotheses))[0]

    @property
    def rivals(self) -> list[Hypothesis]:
        """The primary incident's other hypotheses that were not recovered from."""
        best = self.best
        return [h for h in self.primary.hypotheses if h is not best and id(h) not in self.recoveries]

    def elsewhere(self, event: Event) -> bool:
        """The event is nearer in time to another incident than to the verdict's."""
        if event.time is None or not self.others:
            return False
        here = self.primary.distance(event.time)
        return any(other.distance(event.time) < here for other in self.others)

    @property
    def recovered_rivals(self) -> list[Hypothesis]:
        return [h for h in self.primary.hypotheses if h is not self.best and id(h) in self.recoveries]


@record
class Precedence:
    """How the verdict's first failure stands in time to a rival's in the same incident."""

    verdict: Hypothesis
    rival: Hypothesis
    verdict_first: bool
    lead: float  # seconds between the two first failures (their times as shown)
    resolution: float | None  # closer than this, their order is not known; None: one file's line order
    explains: bool  # the earlier one's chain holds the later one's other failing lines
    gap: float  # seconds that surely separate them: between the spans of lines without their own time

    @property
    def known(self) -> bool:
        return self.resolution is None or self.gap > self.resolution

    @property
    def margin(self) -> float:
        """From -1 to 1: how clearly the verdict comes first (half of it: by how much beyond the
        resolution) and explains the rival (the other half); negative when the rival comes first."""
        if not self.known:
            return 0.0
        order = min(1.0, (self.gap - (self.resolution or 0.0)) / FULL_LEAD_S)
        strength = (order + (1.0 if self.explains else 0.0)) / 2
        return round(strength if self.verdict_first else -strength, 2)

    def sentence(self) -> str:
        first, later = (self.verdict, self.rival) if self.verdict_first else (self.rival, self.verdict)
        at = f"{first.verdict} at {_clock(first.first_root)}"
        inferred = first.first_root.time_inferred or later.first_root.time_inferred
        if not self.known:
            both = f"{at} and {later.verdict} at {_clock(later.first_root)}"
            if not self.gap and inferred:  # an unstamped line may lie on either side of the other
                spans = "a ~ line lies anywhere between its stamped neighbours"
                return f"{both} overlap in time ({spans}): their order is not known"
            return (
                f"{both} are {_duration(self.lead)} apart, "
                f"closer than the clocks can tell ({self.resolution:g} s): their order is not known"
            )
        explained = "and explains its other failing lines" if self.explains else "but does not explain its lines"
        if self.resolution is None and (self.lead < 1 or inferred):  # line order, not a measurable gap
            return f"{at} comes before {later.verdict} in the same file {explained}"
        by = f"at least {_duration(self.gap)}" if self.gap < self.lead else _duration(self.lead)
        return f"{at} precedes {later.verdict} by {by} {explained}"


def precedence(verdict: Hypothesis, rival: Hypothesis, evidence: Evidence) -> Precedence | None:
    """The time order of two rivals' first failures; None when either has no time or both start
    on the same line (two readings of one failure)."""
    mine, theirs = verdict.first_root, rival.first_root
    if mine.time is None or theirs.time is None or (mine.source, mine.line) == (theirs.source, theirs.line):
        return None
    lead = abs(theirs.time - mine.time)
    if mine.source == theirs.source and mine.role is theirs.role and not mine.role.interleaves:
        # one component's file: its lines are in the order they happened (a job log's are not)
        resolution, gap = None, lead
        verdict_first = (mine.time, mine.line) < (theirs.time, theirs.line)
    else:
        slack = evidence.clock_slack
        resolution = CROSS_FILE_RESOLUTION_S + slack.get(mine.source, 0.0) + slack.get(theirs.source, 0.0)
        verdict_first, gap = _apart(mine, theirs)
    first, later = (verdict, rival) if verdict_first else (rival, verdict)
    return Precedence(verdict, rival, verdict_first, lead, resolution, _explains(first, later), gap)


def _apart(mine: Event, theirs: Event) -> tuple[bool, float]:
    """(mine first, by how much at least) across files. A line without a time of its own lies
    anywhere between the stamped lines around it: what surely separates the two is the gap
    between their spans, 0 when they overlap (then which came first is not known, however far
    apart their earliest times are)."""
    assert mine.time is not None and theirs.time is not None
    mine_latest, theirs_latest = mine.latest or mine.time, theirs.latest or theirs.time
    if mine_latest <= theirs.time:
        return True, theirs.time - mine_latest
    if theirs_latest <= mine.time:
        return False, mine.time - theirs_latest
    return mine.time <= theirs.time, 0.0


def _explains(first: Hypothesis, later: Hypothesis) -> bool:
    """Every failing line of the later hypothesis's chain but its own roots is in the first's chain."""
    roots = {id(e) for e in later.roots}
    others = [e for e in later.chain if e.failing and id(e) not in roots]
    reached = {id(e) for e in first.chain}
    return bool(others) and all(id(e) in reached for e in others)


def _clock(event: Event) -> str:
    """The time on the reference clock (corrected), to the millisecond when the line has it;
    `~` when it is inferred from the line above."""
    assert event.time is not None
    whole = datetime.fromtimestamp(event.time, UTC)
    shown = whole.strftime("%H:%M:%S.%f")[:12] if event.time % 1 else whole.strftime("%H:%M:%S")
    return f"~{shown}" if event.time_inferred else shown


def split_incidents(ranked: Sequence[Hypothesis], evidence: Evidence) -> Split:
    """`ranked` (best first) grouped into incidents; the verdict's incident is the one holding
    the best-ranked hypothesis the service did not recover from (the best one, when it recovered
    from all): a later incident does not lose to an earlier one for being later, nor win.
    Within that incident, the first failure that explains the later ones leads."""
    recoveries = {id(h): r for h in ranked if (r := recovery(h, evidence)) is not None}
    incidents = _incidents(ranked, recoveries)
    live = [h for h in ranked if id(h) not in recoveries]
    leader = (live or list(ranked))[0]
    primary = next(i for i in incidents if leader in i.hypotheses)
    others = tuple(i for i in incidents if i is not primary)
    return Split(_first_that_explains(primary, recoveries, evidence), others, recoveries)


def _first_that_explains(incident: Incident, recoveries: dict[int, Recovery], evidence: Evidence) -> Incident:
    """The incident led by the first failure that explains the later ones: a live rival of the
    leader's tier that comes first, by more than the clocks can blur, and whose chain holds the
    leader's other failing lines takes the lead (again, until none does)."""
    ranked = list(incident.hypotheses)
    for _ in range(len(ranked)):
        live = [h for h in ranked if id(h) not in recoveries]
        earlier = _earlier_explaining(live[0], live[1:], evidence) if live else None
        if earlier is None:
            break
        ranked.remove(earlier)
        ranked.insert(ranked.index(live[0]), earlier)
    return replace(incident, hypotheses=tuple(ranked))


def _earlier_explaining(leader: Hypothesis, rivals: list[Hypothesis], evidence: Evidence) -> Hypothesis | None:
    tier = evidence.library.verdict(leader.verdict).tier
    for rival in rivals:
        order = precedence(leader, rival, evidence)
        same_tier = evidence.library.verdict(rival.verdict).tier == tier
        if same_tier and order is not None and order.margin < 0 and order.explains:
            return rival
    return None


def recovery(hypothesis: Hypothesis, evidence: Evidence) -> Recovery | None:
    """A line in the root's own file showing it serving again after every failing line of this
    hypothesis there, or saying it recovered (a request recomputed): the failure was survived (a
    fallback worked, a restart came up). Never for a verdict whose harm is done when it is logged
    (`never_survived`: answers served from freed KV)."""
    if never_survived(hypothesis.verdict, hypothesis.roots, evidence.library):
        return None
    root = hypothesis.first_root
    failing = [e for e in hypothesis.chain if e.failing and e.source == root.source]
    if not failing:
        return None
    last = max(failing, key=lambda e: e.line)  # in the file's own order: its clock may jump, its lines do not
    next_life = next_lives(root.source, {event.source for event in evidence.events})
    for event in evidence.marked(*GOING_ON):
        if event.failing or not _not_earlier(event, last):
            continue
        restarted = event.source in next_life
        if restarted or (event.source == root.source and event.line > last.line and _one_side(event, root)):
            return None if _failing_again(hypothesis, event, last, evidence) else Recovery(event, restarted)
    return _killed_life_came_back(hypothesis, evidence) if root.role not in SERVER_ROLES else None


def _one_side(event: Event, root: Event) -> bool:
    """Not told apart as the two sides of the deployment: one file may hold both servers' lines (a
    compose log's `prefill-1 |` and `decode-1 |`), and the decode coming up says nothing of the prefill."""
    return len({event.role, root.role} & {Role.PREFILL, Role.DECODE}) < 2


def _killed_life_came_back(hypothesis: Hypothesis, evidence: Evidence) -> Recovery | None:
    """A failure logged outside any server's log (the kernel's OOM killer, the orchestrator's
    `OOMKilled`), when a server's earlier life (`decode.previous.log`, `kubectl logs --previous`)
    ends without a failing line of its own and its next life serves: that life was ended from
    outside, which is what the failure says, and the restart came back. None when no earlier life
    ended silently, or the failure goes on after the restart."""
    sources = {event.source for event in evidence.events}
    for earlier in sorted(sources):
        later = next_lives(earlier, sources)
        if not later or any(e.failing and e.source == earlier for e in evidence.events):
            continue
        for event in evidence.marked(*GOING_ON):
            if event.source in later and not event.failing:
                if _failing_again(hypothesis, event, hypothesis.first_root, evidence):
                    return None
                if _peers_failed_while_down(earlier, later, event, evidence):
                    return None
                return Recovery(event, True)
    return None


# How long before its earlier life's last line a killed process may already have been failing its peers
# (a decode stuck under memory pressure stops answering its heartbeats before the kill comes).
DYING_LEAD_S = 120.0


def _peers_failed_while_down(earlier: str, later: set[str], back: Event, evidence: Evidence) -> bool:
    """Other files failed while the killed life was dying or down: from DYING_LEAD_S before its last
    line to the next life's first serving line (`back`). Those failures are the kill's, seen from its
    peers (a prefill's transfers to a decode the OOM killer ended), so the kill is no incident the run
    got over before them (round 84's bundles-1 03: the prefill's `transport retry counter exceeded`
    toward the OOM-killed decode called an RDMA link failure)."""
    ended = max((e.time for e in evidence.events if e.source == earlier and e.time is not None), default=None)
    if ended is None or back.time is None:
        return False
    lives = {earlier, *later}
    return any(
        e.failing and e.source not in lives and e.time is not None and ended - DYING_LEAD_S <= e.time <= back.time
        for e in evidence.events
    )


# A log saved from a process's earlier life beside its current one: `kubectl logs --previous` kept
# as `<name>.previous.log` (or `-previous`, `_prev`) beside `<name>.log`, or beside a name that says
# it is the current life (`<name>-current.log`, `_latest`, `.now`).
EARLIER_LIFE = lazy_re(r"^(?P<stem>.+?)[._-](?:previous|prev)(?P<ext>(?:\.[A-Za-z]\w*)*)$")
CURRENT_LIFE_WORDS = ("current", "latest", "now", "restarted")


def next_lives(source: str, sources: set[str]) -> set[str]:
    """The files among `sources` that hold the later life of the process whose earlier life
    `source` holds (a restarted pod's current log beside its `--previous` one): their lines are
    later than every line of `source`, whatever their numbers. Empty for any other file (a rotated
    segment, `decode.log.1`, is the same life: ingest/rotation.py)."""
    folder, _, name = source.rpartition("/")
    found = EARLIER_LIFE.match(name)
    if found is None:
        return set()
    prefix = f"{folder}/" if folder else ""
    stem, ext = found.group("stem"), found.group("ext") or ""
    stems = [stem, *(f"{stem}{sep}{word}" for sep in "._-" for word in CURRENT_LIFE_WORDS)]
    return {prefix + name + end for name in stems for end in (ext, ".log", "")} & (sources - {source})


# How long after a server is up again a router may still answer its requests with errors: until its
# health check admits the server again (sglang's router checks every 60 s by default).
READMIT_S = 120.0


def _readmitting(start: Event, first: float, last: float, failing: Sequence[Event], evidence: Evidence) -> bool:
    """A server up again within the burst (a server of its role was up before the burst began: this
    start is a restart), whose failures after it are only requests answered with errors or failed in
    the router (not admitted back yet), ending within READMIT_S of the start."""
    started = start.time
    if started is None or not first < started <= last or last - started > READMIT_S:
        return False
    up = evidence.marked(Mark.SERVER_UP, Mark.WARMUP)
    if not any(e.role is start.role and e.time is not None and e.time < first and not e.failing for e in up):
        return False
    answers = evidence.library.marked(Mark.ERROR_ANSWER, Mark.REQUEST_FAILED)
    return all(e.pattern in answers for e in failing if e.time is not None and e.time > started)


# The fields a line states its wait in, and their unit in seconds.
# (`elapsed`: a request's own wait, sglang's `Request N timed out after 300.0s in KVPoll.WaitingForInput`.)
WAIT_FIELDS = {"timeout_ms": 0.001, "timeout_s": 1.0, "timeout": 1.0, "elapsed": 1.0}


def wait_began(event: Event, fields: tuple[str, ...] = tuple(WAIT_FIELDS)) -> float | None:
    """When the wait a line reports began: a line that says it waited a stated time and gave up (a
    collective's `Timeout(ms)=600000`, a router's `Timeout 600s waiting for workers`, NIXL's `within
    480 seconds`) was logged that long after its wait began. None when the line has no time or
    states no wait in `fields`."""
    waits = [float(v) * WAIT_FIELDS[name] for name in fields if isinstance(v := event.get(name), (int, float))]
    return event.time - max(waits) if event.time is not None and waits else None


def came_back(failing: Sequence[Event], evidence: Evidence) -> Event | None:
    """The line that shows a server started again after a burst of failures (a peer lost, the
    requests it held answered 500): a ready or warmup line of a server timed after the burst's last
    line, while the burst is recent (a restarted pod's new log: another file than its crash's).
    None when a failing line has no time, the failures are not one burst (RECOVERED_GAP_S from
    first to last: a failure that keeps coming back is no outage the run survived), or no server
    started after them. The caller still needs the end-to-end checks to have passed after it."""
    times = [e.time for e in failing]
    if not failing or any(t is None for t in times):
        return None
    first, last = min(t for t in times if t is not None), max(t for t in times if t is not None)
    if last - first > RECOVERED_GAP_S:
        return None
    starts = [
        e
        for e in evidence.marked(Mark.SERVER_UP, Mark.WARMUP)
        if not e.failing
        and e.time is not None
        and (last < e.time <= last + INCIDENT_GAP_S or _readmitting(e, first, last, failing, evidence))
    ]
    ready = evidence.library.marked(Mark.SERVER_UP)  # within a second, the ready line says it best
    return min(starts, key=lambda e: (int(e.time or 0.0), e.pattern not in ready, e.line)) if starts else None


def _failing_again(hypothesis: Hypothesis, proof: Event, failure: Event, evidence: Evidence) -> bool:
    """The same kinds of failure go on in that file after the serving line, while the failure is
    still recent: it came up, but the failure did not stop (a chain lists one line of each kind,
    so the rest are looked up; hours later they belong to another incident)."""
    kinds = {e.pattern for e in hypothesis.chain if e.failing}
    again = any(
        e.failing and e.source == proof.source and e.pattern in kinds and e.line > proof.line and _recent(e, failure)
        for e in evidence.events
    )
    return again or _consequences_after(hypothesis, proof, failure)


def _consequences_after(hypothesis: Hypothesis, proof: Event, failure: Event) -> bool:
    """What it caused elsewhere goes on after the serving line: its chain's failing lines in other
    files, later than the serving line and still recent. A server that came up with a listener
    that never bound (a bootstrap port another prefill holds) serves, and the KV handshakes that
    needed that listener still time out."""
    if proof.time is None:
        return False
    return any(
        e.failing and e.source != failure.source and e.time is not None and e.time > proof.time and _recent(e, failure)
        for e in hypothesis.chain
    )


def _recent(event: Event, failure: Event) -> bool:
    return event.time is None or failure.time is None or event.time - failure.time <= INCIDENT_GAP_S


def _not_earlier(event: Event, failure: Event) -> bool:
    """In a stream that holds several components (a job log, a concatenation), a later line can
    come from another component printed earlier: its time must not be before the failure's."""
    return event.time is None or failure.time is None or event.time >= failure.time


def _incidents(ranked: Sequence[Hypothesis], recoveries: dict[int, Recovery]) -> list[Incident]:
    """In time order, a hypothesis opens a new incident when nothing links it to the current one
    and it starts long after it ends, or after the current incident recovered."""
    rank = {id(h): index for index, h in enumerate(ranked)}
    incidents: list[list[Hypothesis]] = []
    for hypothesis in sorted(ranked, key=_start_key):
        current = incidents[-1] if incidents else None
        if current is None or _separate(current, hypothesis, recoveries):
            incidents.append([hypothesis])
        else:
            current.append(hypothesis)
    return [_incident(sorted(group, key=lambda h: rank[id(h)])) for group in incidents]


def _separate(current: list[Hypothesis], hypothesis: Hypothesis, recoveries: dict[int, Recovery]) -> bool:
    start = hypothesis.first_root.time
    if start is None or _shares_evidence(current, hypothesis):
        return False
    ends = [e.latest for h in current for e in h.chain if e.latest is not None]
    gap = start - max(ends) if ends else 0.0
    if gap > INCIDENT_GAP_S:
        return True
    proofs = [recoveries[id(h)].proof.time for h in current if id(h) in recoveries]
    recovered_between = len(proofs) == len(current) and all(t is not None and t < start for t in proofs)
    return recovered_between and gap > RECOVERED_GAP_S


def _shares_evidence(current: list[Hypothesis], hypothesis: Hypothesis) -> bool:
    """A timed line in both chains links them (an untimed bench line joins every chain: it cannot)."""
    seen = {id(e) for h in current for e in h.chain if e.time is not None}
    return any(id(e) in seen for e in hypothesis.chain)


def _start_key(hypothesis: Hypothesis) -> tuple[float, str, int]:
    root = hypothesis.first_root
    return (root.time if root.time is not None else float("-inf"), root.source, root.line)


def _incident(group: list[Hypothesis]) -> Incident:
    times = [e.time for h in group for e in h.chain if e.time is not None]
    return Incident(tuple(group), min(times) if times else None, max(times) if times else None)


def why_separate(incident: Incident, primary: Incident, recoveries: dict[int, Recovery]) -> str:
    """One sentence on why this incident is reported on its own."""
    best = incident.hypotheses[0]
    parts = [f"no causal link to {primary.hypotheses[0].verdict}"]
    if incident.start is not None and primary.start is not None:
        gap = abs(incident.start - primary.start)
        when = "before" if incident.start < primary.start else "after"
        parts.append(f"starts {_duration(gap)} {when} it")
    if id(best) in recoveries:
        parts.append(recoveries[id(best)].why(best))
    return "; ".join(parts)


def _duration(seconds: float) -> str:
    if seconds >= 3600:
        return f"{seconds / 3600:.1f} h"
    if seconds >= 60:
        return f"{seconds / 60:.0f} min"
    return f"{seconds:.0f} s" if seconds >= 1 else f"{seconds * 1000:.1f} ms"
