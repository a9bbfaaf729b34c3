"""An engine that stopped making progress as its log ends: requests running, nothing generated.

decide (through performance.weigh's caller): a report that would say healthy or no-failure-seen
while an engine's periodic stats line, the last it printed, shows requests running and neither
prompt nor generated tokens in its interval, is inconclusive: the run hung with work in flight
(vLLM prints that line only while it has work: its idle engine is silent). Nothing in these lines
says why; the lines after the stall (a timeout, a watchdog's stack dump) would.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from ..library.patterns import Library
from ..model import Report, Series, Verdict
from ..model.textcut import clip
from ..model.verdicts import HEALTHY, INCONCLUSIVE, NO_FAILURE_SEEN
from . import confidence, performance
from .quotes import series_place

RUNNING, GENERATED, PROMPT = "running", "gen_throughput", "input_throughput"
MISSING = "the lines after the stall: a timeout or a watchdog's stack dump there would say what hung"


def stalled(series: Sequence[Series]) -> Series | None:
    """The running-requests series of an engine whose last stats line shows requests running and
    no token prefilled or generated; None when every engine's last line shows progress (or rest)."""
    by_engine: dict[tuple[str, str, str], dict[str, Series]] = {}
    for item in series:
        by_engine.setdefault((item.source, item.rank, item.pattern), {})[item.metric] = item
    for metrics in by_engine.values():
        running, generated, prompt = metrics.get(RUNNING), metrics.get(GENERATED), metrics.get(PROMPT)
        if running is None or generated is None or prompt is None:
            continue  # a stats line that names all three (vLLM's): printed on an interval, not per batch
        same_line = running.last_line == generated.last_line == prompt.last_line
        if same_line and running.last > 0 and generated.last == 0 and prompt.last == 0:
            return running
    return None


def weigh(report: Report, series: Sequence[Series], library: Library) -> Report:
    """The report, inconclusive when it would call a run that stalled healthy or failure-free."""
    if report.verdict.id not in (HEALTHY, NO_FAILURE_SEEN):
        return report
    stall = stalled(series)
    if stall is None:
        return report
    where = series_place(stall, stall.last_line)
    summary = (
        f"The engine stopped making progress: its last stats line ({where}) shows {stall.last:g} request(s) "
        "running and no token prefilled or generated in its interval, and no later line shows it serving "
        "again. These lines do not say why it hung."
    )
    if stall.last_text:
        summary = f"{summary} The line: {clip(stall.last_text.strip(), 240)}"
    spec = library.verdict(INCONCLUSIVE)
    why = f"the engine's last stats line ({where}) shows requests running and nothing generated"
    verdict = confidence.applied(Verdict(INCONCLUSIVE, spec.title, 0.0, summary), confidence.no_cause(why))
    return replace(
        report,
        verdict=verdict,
        chain=(performance.last_event(stall), *report.chain),
        advice=spec.advice.strip(),
        explain=spec.explain.strip(),
        missing=tuple(dict.fromkeys((MISSING, *report.missing))),
    )
