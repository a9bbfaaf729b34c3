"""CI cancellation: the job was stopped by the runner, so what follows is the shutdown.

The guard that matters: a cancellation only explains failures that come after it. A failure
with a verdict of its own logged before the cancel (a crash, then a hang until the job
timeout cancels it) is the cause, and the cancellation is its consequence.
"""

from __future__ import annotations

from dataclasses import replace

from ..hypothesis import Evidence, Hypothesis
from ..model import Event, FieldValue

CANCEL = "ci-cancelled"
SKEW_S = 60.0  # server clocks and the runner's clock may disagree by this much
HOW = {
    "actions-runner-shutdown": "the runner received a shutdown signal",
    "actions-concurrency-cancel": "a newer run in the same concurrency group pre-empted it",
    "actions-operation-canceled": "the job was cancelled (manual cancel, timeout or pre-emption)",
}


def analyze(hypothesis: Hypothesis, evidence: Evidence) -> list[Hypothesis]:
    timed = [e for e in hypothesis.roots if e.time is not None]
    cancel_time = min(e.time for e in timed if e.time is not None) if timed else None
    earlier = _earlier_failure(cancel_time, evidence)
    if earlier is not None:
        why = (
            f"{earlier.pattern} at {earlier.where} failed before the job was cancelled: "
            "the cancellation is a consequence, not the cause"
        )
        return [replace(hypothesis, rejected=why, confidence=0.1)]
    kinds = sorted({e.pattern for e in hypothesis.roots}, key=lambda p: list(HOW).index(p) if p in HOW else 99)
    how = "; ".join(HOW.get(kind, kind) for kind in kinds)
    after = [e for e in hypothesis.chain if e.pattern not in HOW]
    facts: list[tuple[str, FieldValue]] = [("how", how), ("failures_after_cancel", len(after))]
    group = next((e.get("group") for e in hypothesis.roots if e.get("group")), None)
    if group is not None:
        facts.append(("concurrency_group", group))
    summary = f"The CI job was cancelled, not failed: {how} ({hypothesis.first_root.where})."
    if after:
        summary += f" The {len(after)} error line kinds after it ({_names(after)}) are the shutdown."
    return [replace(hypothesis, facts=tuple(facts), summary=summary, confidence=0.9)]


def _earlier_failure(cancel_time: float | None, evidence: Evidence) -> Event | None:
    if cancel_time is None:
        return None
    library = evidence.library
    for event in sorted((e for e in evidence.events if e.failing and e.time is not None), key=lambda e: e.time or 0.0):
        verdict = library.pattern(event.pattern).verdict
        if verdict is None or verdict == CANCEL or event.time is None:
            continue
        if event.time < cancel_time - SKEW_S:
            return event
    return None


def _names(events: list[Event]) -> str:
    names = list(dict.fromkeys(e.pattern for e in events))
    return ", ".join(names[:4]) + (", ..." if len(names) > 4 else "")
