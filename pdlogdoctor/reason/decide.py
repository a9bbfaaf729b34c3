"""The decision: the one step that sets a report's verdict and its confidence.

In: the library's events and their links, the inputs, and the error lines no pattern names
(gathered before it: unexplained.gather). Out: the report whose verdict id and confidence every
later pass keeps (pipeline.only_adding). Each number it sets is a named step of confidence.py.

1. diagnose: candidate roots, hypotheses, analyzers, ranking; healthy / inconclusive otherwise.
2. unexplained.weigh: errors no pattern names may lead an inconclusive report, unseat a symptom,
   name what a crash died of, or keep a healthy run from being called healthy.
3. A failed gate (a line marked `gate-failed`: a failed test, failed requests, a job that exited
   non-zero) is never healthy: with no cause in the logs the report is inconclusive, and the
   gate's line is quoted first; when the gates measured an accuracy and nothing else failed, the run
   is an accuracy regression (accuracy.regressed).
   With no gate, one evaluation's results far apart in the same input are an accuracy regression
   of the lower (accuracy.disagreeing).
4. performance.weigh: with no cause named, the metrics lines' series say where a slow run's time
   went (a bottleneck verdict), or that a failed latency or throughput gate has none to show; a
   symptom seen from one side (KV waits timing out) under such a gate yields to its peer's saturation.
5. stall.weigh: a run that would be healthy (or show no failure) while an engine's last stats line
   shows requests in it (running, or waiting with none running) and nothing generated is
   inconclusive: it hung; so is one whose engine's waiting queue stood in every stats line, nothing
   admitted, while its cache had room. An inconclusive report names an engine whose last stats line
   shows it full (requests waiting, the KV cache at its limit) when its failure came.
6. unused_kv.weigh: a P/D run that would be healthy (or show no failure) while its decode's own counters
   say it loaded none of the prefill's KV (vLLM's external prefix cache hit rate at 0 while it served,
   LMCache's lookups hitting nothing) is inconclusive: the decode computed every prompt itself; so is
   a failed performance gate the series found no bottleneck for.
7. waiting.weigh: a run that would show no failure while a log ends on a wait that went on (a
   start-up polling for its engine, a router for its workers) is inconclusive: it never came up.
8. gave_up.weigh: a run that would be healthy (or show no failure) while its clients cancelled
   requests all at once, none answered after, is inconclusive: the clients stopped waiting.
9. quotes.quoted: each summary quotes the lines it cites (the one place that does, for every format).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace

from ..library.errorlines import CauseLine
from ..library.patterns import Library
from ..library.templates import message_of
from ..model import Event, Link, Mark, Report, Series, Source, Verdict
from ..model.textcut import clip, ended
from ..model.verdicts import HEALTHY, INCONCLUSIVE, META
from . import accuracy, confidence, gave_up, performance, quotes, stall, unused_kv, waiting
from .diagnose import NO_LINE_SHOWS_CAUSE, diagnose
from .unexplained import Unrecognised, weigh


def decide(
    events: Sequence[Event],
    links: Sequence[Link],
    sources: Sequence[Source],
    library: Library,
    clock_slack: Mapping[str, float],
    unrecognised: Unrecognised,
    series: Sequence[Series] = (),
) -> Report:
    diagnosed = diagnose(events, links, sources, library, clock_slack)
    report = _rivals_kept_below(diagnosed, weigh(diagnosed, unrecognised, events, library))
    report = _failed_gate_first(report, events, library)
    report = accuracy.disagreeing(report, events, library) or report
    report = stall.weigh(performance.weigh(report, series, events, library, sources), series, library)
    report = unused_kv.weigh(report, series, library)
    report = waiting.weigh(report, events, sources, library)
    report = gave_up.weigh(report, events, library)
    return quotes.quoted(report, library)


def _rivals_kept_below(diagnosed: Report, weighed: Report) -> Report:
    """The diagnosis placed each runner-up below its verdict (diagnose._alternatives_for); when the
    errors no pattern names lower that verdict's confidence (one logged before its root), its rivals
    are lowered alike: a runner-up never shows more confidence than the verdict it lost to, and
    keeps the distance it had (a guess named beside a stated cause stays well below it)."""
    before, after = diagnosed.verdict, weighed.verdict
    drop = before.confidence - after.confidence
    if after.id != before.id or after.id in META or drop <= 0:
        return weighed
    lowered = tuple(
        replace(a, confidence=round(max(RIVAL_FLOOR, a.confidence - drop), 2)) if a.confidence > RIVAL_FLOOR else a
        for a in weighed.alternatives
    )
    return replace(weighed, alternatives=lowered)


RIVAL_FLOOR = 0.05  # the least confidence a runner-up shows (diagnose's floor for a rival)


def _failed_gate_first(report: Report, events: Sequence[Event], library: Library) -> Report:
    """`healthy` needs serving proof and no failed gate: a run whose test, benchmark or job says it
    failed is inconclusive when nothing names a cause, with the gate's line quoted first."""
    gates = performance.failed_gates(events, library, report.unrecognised)
    if not gates or report.verdict.id not in META:  # a named cause stands
        return report
    regressed = accuracy.regressed(report, gates, events, library)
    if regressed is not None:
        return regressed
    gate = gates[0]
    head = f"A gate failed: {gate.where}: {clip(performance.gate_quote(gate), 240)}"
    lines = len({(e.source, e.line) for e in gates})  # two gate patterns may read one line
    more = f" ({lines} failed-gate lines)" if lines > 1 else ""
    advice = library.pattern(gate.pattern).advice.strip()
    if report.verdict.id == INCONCLUSIVE:
        # Earliest first: a failure the summary already quotes from before the gate keeps the lead.
        first = min(_time_key(e) for e in gates)
        gated = library.marked(Mark.GATE_FAILED)
        earlier = [e for e in _quoted_failures(report) if e.pattern not in gated and _time_key(e) < first]
        if earlier:
            quote = clip(performance.gate_quote(gate), 240)
            summary = f"{report.verdict.summary} {ended(f'Then a gate failed: {gate.where}: {quote}')}"
            return replace(report, verdict=replace(report.verdict, summary=summary))
        stated = _cause_stated_beside(gates, report, library)
        if stated is not None:
            return _with_stated_cause(report, ended(f"{head}{more}"), *stated)
        summary = f"{ended(head + more)} {report.verdict.summary}"
        return replace(report, verdict=replace(report.verdict, summary=summary), advice=advice or report.advice)
    served = "The deployment served, but a" if report.verdict.id == HEALTHY else "A"
    summary = (
        f"{ended(head + more)} {served} failed test, benchmark or job is no healthy run; "
        "no line here says why it failed."
    )
    spec = library.verdict(INCONCLUSIVE)
    why = f"a gate failed ({gate.where}) and no line names a cause"
    verdict = confidence.applied(Verdict(INCONCLUSIVE, spec.title, 0.0, summary), confidence.no_cause(why))
    missing = (f"no line says why the gate at {gate.where} failed", *report.missing)
    return replace(
        report,
        verdict=verdict,
        chain=performance.gate_first(gate, report.chain),
        missing=tuple(dict.fromkeys(missing)),
        advice=advice or spec.advice.strip(),
        explain=spec.explain.strip(),
    )


def _cause_stated_beside(gates: Sequence[Event], report: Report, library: Library) -> tuple[Event, CauseLine] | None:
    """The earliest line in a failed gate's file that states its own cause (open-world/causes.toml: a
    resolver that knew no such name, a full disk, a port in use): a test's exception (`E   socket.gaierror:
    [Errno -2] Name or service not known`) or the gate's own line quoting it. The gate says that the
    test failed; this line says why. None when no such line is there."""
    if library.errors is None:
        return None
    files = {gate.source for gate in gates}
    lines = [*gates, *(t.first for t in report.unrecognised)]
    stated = [(e, cause) for e in lines if e.source in files and (cause := library.errors.cause_of(e.text))]
    return min(stated, key=lambda found: (found[0].line, found[0].source)) if stated else None


def _with_stated_cause(report: Report, head: str, line: Event, cause: CauseLine) -> Report:
    """The inconclusive report led by its failed gate, then by the line that states why it failed: no
    pattern names that failure, so no verdict is named, but the line's limit and fix are given."""
    said = clip(message_of(line.text).strip() or line.text.strip(), 240)
    rest = report.verdict.summary.replace(NO_LINE_SHOWS_CAUSE, "and no pattern of the library names their cause.")
    summary = f"{head} The line that says why: {line.where}: {said} ({cause.limit}). {rest}"
    advice = f"The line at {line.where} names the limit: {cause.limit}. {cause.fix}".strip()
    return replace(
        report, verdict=replace(report.verdict, summary=summary), advice=advice if cause.fix else report.advice
    )


def _quoted_failures(report: Report) -> list[Event]:
    """The failing lines an inconclusive summary leads with: its chain's, and the earliest unexplained error."""
    return [*(e for e in report.chain if e.failing), *(t.first for t in report.unrecognised if t.earliest)]


def _time_key(event: Event) -> tuple[float, str, int]:
    return (event.time if event.time is not None else float("inf"), event.source, event.line)


def reconsidered_with_baseline(report: Report, explained: bool) -> Report:
    """The decision reopened with one more piece of evidence, the last green run: when a change
    since then is one the verdict's mechanism names (`explained`), its confidence rises a step."""
    if not explained:
        return report
    raised = confidence.baseline_explains(confidence.of(report.verdict))
    return replace(report, verdict=confidence.applied(report.verdict, raised))
