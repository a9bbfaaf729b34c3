"""CI cancellation: the job was stopped by the runner, so what follows is the shutdown.

The guard that matters: a cancellation only explains failures that come after it. A failure
with a verdict of its own logged before the cancel (a crash, then a hang until the job
timeout cancels it) is the cause, and the cancellation is its consequence.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from ...library.formats import Stamp
from ...model import Event, FieldValue, Mark, Role
from ...model.textcut import clip
from ...scan.timeline import parse_stamp, with_year, year_of
from ..hypothesis import Evidence, Hypothesis

SKEW_S = 60.0  # server clocks and the runner's clock may disagree by this much
STUCK_WAIT_S = 15 * 60.0  # a harness still `[wait]`ing this long before the cancel was stuck


def analyze(hypothesis: Hypothesis, evidence: Evidence) -> list[Hypothesis]:
    timed = [e for e in hypothesis.roots if e.time is not None]
    cancel_time = min(e.time for e in timed if e.time is not None) if timed else None
    earlier = _earlier_failure(hypothesis.verdict, cancel_time, evidence) or _above_the_cancel(hypothesis, evidence)
    if earlier is not None:
        why = (
            f"{evidence.said(earlier)} failed before the job was cancelled: "
            "the cancellation is a consequence, not the cause"
        )
        return [replace(hypothesis, rejected=why, confidence=0.1)]
    sibling = _another_job_failed_first(hypothesis, cancel_time, evidence)
    if sibling is not None:
        why = (
            f"another job failed first ({evidence.said(sibling)}): a workflow cancels its other jobs when one "
            "fails (a matrix's fail-fast), so this cancellation is that failure's consequence"
        )
        return [replace(hypothesis, rejected=why, confidence=0.1)]
    stalled = _stalled_before_its_time_limit(hypothesis, cancel_time, evidence)
    if stalled is not None:
        return [replace(hypothesis, rejected=stalled, confidence=0.1)]
    # How it was cancelled, as each kind of cancel line says it (its pattern's `says`), first logged first.
    firsts = {root.pattern: root for root in sorted(hypothesis.roots, key=lambda e: (e.time or 0.0, e.line))}
    how = "; ".join(evidence.says(root) or pattern for pattern, root in firsts.items())
    cancels = evidence.library.rooting(hypothesis.verdict)
    after = [e for e in hypothesis.chain if e.pattern not in cancels]
    facts: list[tuple[str, FieldValue]] = [("how", how), ("failures_after_cancel", len(after))]
    group = next((e.get("group") for e in hypothesis.roots if e.get("group")), None)
    if group is not None:
        facts.append(("concurrency_group", group))
    summary = f"The CI job was cancelled, not failed: {how} ({hypothesis.first_root.where})."
    if after:
        summary += f" The {len(after)} error line kinds after it ({_names(after)}) are the shutdown."
    stuck = _stuck_waiting(cancel_time, evidence)
    if stuck is not None:
        return [_cancelled_while_waiting(hypothesis, stuck, cancel_time or 0.0, facts)]
    return [replace(hypothesis, facts=tuple(facts), summary=summary, confidence=0.9)]


def _stalled_before_its_time_limit(hypothesis: Hypothesis, cancel_time: float | None, evidence: Evidence) -> str | None:
    """Why a job its scheduler stopped at its time limit failed before that: no request answered, no
    metrics line printed and no server started in the STUCK_WAIT_S before it (a server still loading
    its weights from a slow mount, a prefill silent for most of an hour). The limit only ended a job
    already stuck: the stall is the failure, its cause not in these lines. None for a job cut while
    it served (a benchmark sweep longer than its budget), for other cancels, and without times."""
    if cancel_time is None or not any(_at_its_time_limit(root) for root in hypothesis.roots):
        return None
    if not _job_shown(hypothesis, cancel_time, evidence):
        return None  # silence where nothing of the job was logged is no stall: its own log is elsewhere
    # A server that started in that time is no stuck job: it had barely begun (a step cut soon after).
    working = evidence.marked(Mark.ANSWERED, Mark.METRICS, Mark.SERVER_UP)
    recent = [
        e
        for e in working
        if not e.failing and e.time is not None and cancel_time - STUCK_WAIT_S <= e.time <= cancel_time + SKEW_S
    ]
    stated = _stated_times(hypothesis.roots, evidence)
    if recent or _worked_before(stated, working, evidence) or _worked_up_to_the_cancel(hypothesis.roots, working):
        return None
    return (
        f"nothing was served or measured in the {STUCK_WAIT_S / 60:.0f} min before the time limit "
        f"({evidence.said(hypothesis.first_root)}): the job was stuck before it was stopped, and the limit only "
        "ended it; what it was stuck on is the failure"
    )


def _job_shown(hypothesis: Hypothesis, cancel_time: float, evidence: Evidence) -> bool:
    """Whether any line of the job's own work (a server's start-up, a harness's step) came before its
    limit. A runner's wrapper that only waited for the job and tailed its log elsewhere, or a pasted
    cancel alone, shows nothing the job did: its quiet is not a stall, only lines not given."""
    cancels = evidence.library.rooting(hypothesis.verdict)
    return any(
        e.pattern not in cancels and e.time is not None and e.time <= cancel_time + SKEW_S for e in evidence.events
    )


def _stated_times(cancels: Sequence[Event], evidence: Evidence) -> list[float]:
    """When the cancels say they came, in their own words (slurmstepd's `CANCELLED AT <time>`): on
    the cluster's clock, which the servers' lines are written in too."""
    stated = (parse_stamp(str(e.get("at")), evidence.library.formats) for e in cancels if e.get("at"))
    return [stamp.seconds for stamp in stated if stamp is not None and stamp.year_known]


def _worked_before(stated: Sequence[float], working: Sequence[Event], evidence: Evidence) -> bool:
    """A working line written, on the servers' own clock as the cancel states its time on it, within
    STUCK_WAIT_S before the cancel: compared as both are written, before any correction of a file's
    clock (a CI runner's UTC log beside servers that log their local time, six hours apart, is
    aligned by whole hours from where the files start and end; the cancel's own words are not)."""
    if not stated:
        return False  # no line to parse: the cancel stated no time of its own
    for event in working:
        written = _as_written(event, evidence)
        if written is None:
            continue
        for limit in stated:
            at = written.seconds if written.year_known else with_year(written.seconds, year_of(limit))
            if limit - STUCK_WAIT_S <= at <= limit + SKEW_S:
                return True
    return False


def _as_written(event: Event, evidence: Evidence) -> Stamp | None:
    """The time a working line states, before any correction of its file's clock."""
    if event.failing or not event.time_text:
        return None
    return parse_stamp(event.time_text, evidence.library.formats)


def _worked_up_to_the_cancel(cancels: Sequence[Event], working: Sequence[Event]) -> bool:
    """A process whose file answered (or printed metrics) in lines that carry no time of their own
    (uvicorn's access lines print none) and more of them than the scan read (`at_least`): when its
    last answer came is not in the lines read, so no stall before the cancel can be told."""
    cancelled = {cancel.source for cancel in cancels}
    return any(e.source in cancelled and e.time_inferred and e.at_least and not e.failing for e in working)


def _at_its_time_limit(root: Event) -> bool:
    """A cancel that says its job ran out of time (Slurm's `DUE TO TIME LIMIT`, salloc's time limit)."""
    said = " ".join(str(root.get(name) or "") for name in ("reason", "bare_reason", "limit")).upper()
    return "TIME LIMIT" in said


def _stuck_waiting(cancel_time: float | None, evidence: Evidence) -> Event | None:
    """The harness's last `[wait]` line, if it came long before the cancel with no progress since."""
    if cancel_time is None:
        return None
    harness = [e for e in evidence.events if e.role is Role.HARNESS and e.time is not None and e.time <= cancel_time]
    if not harness:
        return None
    last = max(harness, key=lambda e: (e.time or 0.0, e.line))
    if last.pattern in evidence.library.marked(Mark.WAITING) and cancel_time - (last.time or 0.0) >= STUCK_WAIT_S:
        return last
    return None


def _cancelled_while_waiting(
    hypothesis: Hypothesis, wait: Event, cancel_time: float, facts: list[tuple[str, FieldValue]]
) -> Hypothesis:
    """A cancel after hours of waiting for a server is a timeout over a server that never came up; after
    hours of a benchmark's requests outstanding (its progress bar short of its total), over a run that
    stopped answering."""
    hours = (cancel_time - (wait.time or cancel_time)) / 3600
    server = wait.get("waiting_for")
    if server is None:
        summary = (
            f"The CI job was cancelled ({hypothesis.first_root.where}) {hours:.1f} h after the harness's last "
            f"progress ({wait.where}: {clip(wait.text.strip(), 160)}), its requests still outstanding: most likely "
            "the job's timeout over a run that stopped answering. The servers' logs over that wait hold the cause."
        )
        facts = [*facts, ("waited_hours", round(hours, 2))]
        missing = ("the servers' logs over the wait: what they did while the harness's requests went unanswered",)
        return replace(hypothesis, facts=tuple(facts), summary=summary, confidence=0.5, missing=missing)
    summary = (
        f"The CI job was cancelled ({hypothesis.first_root.where}) after the harness had waited {hours:.1f} h for "
        f"the {server} server ({wait.where}): most likely the job's timeout over a {server} server that never "
        "became ready. Its log holds the cause; no failure of it is in these logs."
    )
    missing = (f"the {server} server's log: it never became ready",)
    facts = [*facts, ("waiting_for", server), ("waited_hours", round(hours, 2))]
    return replace(hypothesis, facts=tuple(facts), summary=summary, confidence=0.5, missing=missing)


def _earlier_failure(cancel: str, cancel_time: float | None, evidence: Evidence) -> Event | None:
    if cancel_time is None:
        return None
    library = evidence.library
    for event in sorted((e for e in evidence.events if e.failing and e.time is not None), key=lambda e: e.time or 0.0):
        verdict = library.pattern(event.pattern).verdict
        if verdict is None or verdict == cancel or event.time is None:
            continue
        if event.time < cancel_time - SKEW_S:
            return event
    return None


def _another_job_failed_first(hypothesis: Hypothesis, cancel_time: float | None, evidence: Evidence) -> Event | None:
    """The first failure of another job's own (its runner's `Process completed with exit code 1`: a
    CI line that says a step failed), in a file other than the cancel's, stamped by the CI runner
    before the cancel: one clock (the runners' stamps), so no skew is allowed for. A matrix's
    fail-fast and a concurrency group cancel the jobs still running when one fails."""
    if cancel_time is None:
        return None
    library = evidence.library
    cancels, gates = library.rooting(hypothesis.verdict), library.marked(Mark.GATE_FAILED)
    files = {root.source for root in hypothesis.roots}
    failed = [
        e
        for e in evidence.events
        if e.failing
        and e.source not in files
        and e.pattern in gates
        and e.pattern not in cancels
        and e.role is Role.CI
        and e.time is not None
        and e.time <= cancel_time
    ]
    return min(failed, key=lambda e: e.time or 0.0) if failed else None


def _above_the_cancel(hypothesis: Hypothesis, evidence: Evidence) -> Event | None:
    """A failing line above the cancel in the cancel's own file: untimed, any (a test the job's
    watchdog found stuck, then the job's timeout cancelled it); timed, a test's own failure (a test
    that errored, then the pipeline's timeout: ai-dynamo/nixl#1887), which _earlier_failure does not
    weigh, having no verdict. One file's order is its own. Lines of other files cannot be ordered
    against it without times; the CI system's own outcome lines (a pipeline's FAILURE status, a
    step's exit) report the job's end, which the cancel may be, in whatever order they are pasted."""
    library = evidence.library
    cancels = library.rooting(hypothesis.verdict)
    gates = library.marked(Mark.GATE_FAILED)
    for root in hypothesis.roots:
        above = [
            e
            for e in evidence.events
            if e.source == root.source
            and e.line < root.line
            and e.failing
            and e.pattern not in cancels
            and Role.CI not in library.pattern(e.pattern).roles
            and (root.time is None or e.pattern in gates)
        ]
        if above:
            return min(above, key=lambda e: e.line)
    return None


def _names(events: list[Event]) -> str:
    names = list(dict.fromkeys(e.pattern for e in events))
    return ", ".join(names[:4]) + (", ..." if len(names) > 4 else "")
