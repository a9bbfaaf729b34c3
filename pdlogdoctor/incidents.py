"""Rival causes in time: which failures the service recovered from, and which are separate incidents.

A long log can hold several failures. One the service recovered from (a fallback that worked,
a restart that came up, warmup and readiness after it) did not cause what failed later: it is
not a root cause. A failure with no causal link to the others that starts long after them, or
after the service recovered, is a separate incident: it gets its own finding and chain instead
of competing with the first as a near-tie alternative.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .hypothesis import Evidence, Hypothesis
from .model import Event, Mark

# Lines that show a server serving again: same file, after the failure.
SERVING_AGAIN = (Mark.SERVER_UP, Mark.WARMUP, Mark.ANSWERED)
# Failures further apart than this, with no link between them, are separate incidents.
INCIDENT_GAP_S = 30 * 60.0
# ... or this far apart with the service serving again in between (a fallback that worked a
# minute before a crash is part of the same story: an alternative that recovered).
RECOVERED_GAP_S = 5 * 60.0


@dataclass(frozen=True, slots=True)
class Recovery:
    proof: Event  # the line that shows serving again

    def why(self, hypothesis: Hypothesis) -> str:
        root = hypothesis.first_root
        return (
            f"recovered: after {root.pattern} at {root.where} the server was serving again "
            f"({self.proof.pattern} at {self.proof.where}), so it did not cause the later failure"
        )


@dataclass(frozen=True, slots=True)
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


@dataclass(frozen=True, slots=True)
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


def split_incidents(ranked: Sequence[Hypothesis], evidence: Evidence) -> Split:
    """`ranked` (best first) grouped into incidents; the verdict's incident is the one holding
    the best-ranked hypothesis the service did not recover from (the best one, when it recovered
    from all): a later incident does not lose to an earlier one for being later, nor win."""
    recoveries = {id(h): r for h in ranked if (r := recovery(h, evidence)) is not None}
    incidents = _incidents(ranked, recoveries)
    live = [h for h in ranked if id(h) not in recoveries]
    leader = (live or list(ranked))[0]
    primary = next(i for i in incidents if leader in i.hypotheses)
    return Split(primary, tuple(i for i in incidents if i is not primary), recoveries)


def recovery(hypothesis: Hypothesis, evidence: Evidence) -> Recovery | None:
    """A line in the root's own file showing it serving again after every failing line of this
    hypothesis there: the failure was survived (a fallback worked, a restart came up)."""
    root = hypothesis.first_root
    failing = [e for e in hypothesis.chain if e.failing and e.source == root.source]
    if not failing:
        return None
    last = max(failing, key=lambda e: e.line)  # in the file's own order: its clock may jump, its lines do not
    for event in evidence.marked(*SERVING_AGAIN):
        if event.source == root.source and not event.failing and event.line > last.line and _not_earlier(event, last):
            return None if _failing_again(hypothesis, event, last, evidence) else Recovery(event)
    return None


def _failing_again(hypothesis: Hypothesis, proof: Event, failure: Event, evidence: Evidence) -> bool:
    """The same kinds of failure go on in that file after the serving line, while the failure is
    still recent: it came up, but the failure did not stop (a chain lists one line of each kind,
    so the rest are looked up; hours later they belong to another incident)."""
    kinds = {e.pattern for e in hypothesis.chain if e.failing}
    return any(
        e.failing and e.source == proof.source and e.pattern in kinds and e.line > proof.line and _recent(e, failure)
        for e in evidence.events
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
    return f"{seconds / 60:.0f} min"
