"""An engine that stopped making progress as its log ends: requests in it, nothing generated.

decide (through performance.weigh's caller): a report that would say healthy or no-failure-seen
while an engine's periodic stats line, the last it printed, shows requests running (or, none
running, requests waiting) and neither prompt nor generated tokens in its interval, is
inconclusive: the run hung with work in flight (vLLM prints that line only while it has work: its
idle engine is silent, and one that admits a waiting request prefills it within the interval). Nothing in these lines
says why; the lines after the stall (a timeout, a watchdog's stack dump) would.

The same holds for an engine that stopped admitting: in every stats line requests wait, more than
run, no prompt token is prefilled and the KV cache has room (below performance.FULL_POOL). A busy
engine's queue waits for its cache or for running requests to finish, and admits as they do; one
whose queue stands beside an idle cache and a few running requests is stuck in its scheduler.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from ..library.patterns import Library
from ..model import Report, Series, Verdict
from ..model.textcut import clip
from ..model.verdicts import (
    DECODE_SATURATED,
    HEALTHY,
    INCONCLUSIVE,
    KV_TRANSFER_BACKLOG,
    NO_FAILURE_SEEN,
    PREFILL_SATURATED,
)
from . import confidence, performance
from .quotes import series_place

RUNNING, GENERATED, PROMPT = "running", "gen_throughput", "input_throughput"
QUEUE, USAGE = "queue", "token_usage"
# The bottlenecks the metrics lines name: a queue that stood because the engine was busy.
LOAD_VERDICTS = (DECODE_SATURATED, PREFILL_SATURATED, KV_TRANSFER_BACKLOG)
MISSING = "the lines after the stall: a timeout or a watchdog's stack dump there would say what hung"
# Three stats lines (thirty seconds of vLLM's default interval) before a standing queue is read as one.
STANDING_LINES = 3


def engines(series: Sequence[Series]) -> list[dict[str, Series]]:
    """The series of each engine's stats lines (one source, rank and pattern), by metric."""
    by_engine: dict[tuple[str, str, str], dict[str, Series]] = {}
    for item in series:
        by_engine.setdefault((item.source, item.rank, item.pattern), {})[item.metric] = item
    return list(by_engine.values())


def stalled(series: Sequence[Series]) -> Series | None:
    """The series of an engine whose last stats line shows requests in it and no token prefilled or
    generated in its interval: the running requests when some ran, else the waiting ones (none was
    admitted in a whole interval); None when every engine's last line shows progress (or rest)."""
    for metrics in engines(series):
        running, generated, prompt = metrics.get(RUNNING), metrics.get(GENERATED), metrics.get(PROMPT)
        if running is None or generated is None or prompt is None:
            continue  # a stats line that names all three (vLLM's): printed on an interval, not per batch
        same_line = running.last_line == generated.last_line == prompt.last_line
        if not same_line or generated.last != 0 or prompt.last != 0:
            continue
        if running.last > 0:
            return running
        queue = metrics.get(QUEUE)
        if queue is not None and queue.last_line == running.last_line and queue.last > 0:
            return queue
    return None


def standing(series: Sequence[Series]) -> Series | None:
    """The waiting-queue series of an engine that admitted nothing while it had room: in each of at
    least STANDING_LINES stats lines more requests waited than ran, no prompt token was prefilled,
    and the KV cache stayed below full; None when no engine's queue stood so."""
    for metrics in engines(series):
        queue, running = metrics.get(QUEUE), metrics.get(RUNNING)
        prompt, usage = metrics.get(PROMPT), metrics.get(USAGE)
        if queue is None or running is None or prompt is None or usage is None:
            continue
        if queue.count < STANDING_LINES or not queue.count == running.count == prompt.count == usage.count:
            continue  # every line names all four: the counts agree only for one line shape
        if prompt.high == 0 and queue.low > running.high and usage.high < performance.FULL_POOL:
            return queue
    return None


# An engine crawling with a queue piling up beside a cache with room: in its last stats line more
# than QUEUED_PER_RUNNING requests wait for each that runs, the running ones generate under
# CRAWL_TPS tokens/s each, and the KV cache is below half full (vllm#53130: 492 waiting, 4 running at
# 0.5 tokens/s, the cache at 20 %). A busy engine's running requests generate tens of tokens a second.
QUEUED_PER_RUNNING, CRAWL_TPS = 10, 2.0


def crawling(series: Sequence[Series]) -> Series | None:
    """The waiting-queue series of an engine whose last stats line (of STANDING_LINES or more) shows
    a queue piled far above what runs, next to nothing generated and a cache with room; None otherwise."""
    for metrics in engines(series):
        queue, running = metrics.get(QUEUE), metrics.get(RUNNING)
        generated, usage = metrics.get(GENERATED), metrics.get(USAGE)
        if queue is None or running is None or generated is None or usage is None:
            continue
        if queue.count < STANDING_LINES or not queue.last_line == running.last_line == generated.last_line:
            continue
        if running.last <= 0 or queue.last < QUEUED_PER_RUNNING * running.last or queue.last < queue.high:
            continue
        if generated.last < CRAWL_TPS * running.last and usage.last < performance.ROOM_LEFT:
            return queue
    return None


def weigh(report: Report, series: Sequence[Series], library: Library) -> Report:
    """The report, inconclusive when it would call a run that stalled healthy or failure-free; an
    inconclusive one names the full engine its failure came from, and the engine that had stopped
    making progress, when the stats lines show one."""
    if report.verdict.id == INCONCLUSIVE:
        return _stalled_when_it_failed(_full_when_it_failed(report, series), series)
    if report.verdict.id not in (HEALTHY, NO_FAILURE_SEEN, *LOAD_VERDICTS):
        return report
    stall = stalled(series)
    if report.verdict.id in LOAD_VERDICTS:
        # A loaded engine still generates: one whose last interval did nothing with requests in it
        # hung, whatever its queue looked like before (vllm#2731: 35 running, 118 pending, 0 tokens/s).
        return _inconclusive(report, stall, *_hung(stall), library) if stall is not None else report
    crawl = crawling(series) if stall is None else None
    if crawl is not None:
        return _inconclusive(report, crawl, *_crawled(crawl), library)
    if stall is not None:
        return _inconclusive(report, stall, *_hung(stall), library)
    queue = standing(series)
    if queue is not None:
        return _inconclusive(report, queue, *_not_admitting(queue), library)
    return report


def full(series: Sequence[Series]) -> tuple[Series, Series] | None:
    """The waiting-queue and KV-usage series of an engine whose last stats line shows requests waiting
    and its KV cache full (performance.FULL_POOL): it could admit no more. None when no engine's is so."""
    for metrics in engines(series):
        queue, usage = metrics.get(QUEUE), metrics.get(USAGE)
        if queue is None or usage is None or queue.last_line != usage.last_line:
            continue
        if queue.last > 0 and usage.last >= performance.FULL_POOL:
            return queue, usage
    return None


def _full_when_it_failed(report: Report, series: Sequence[Series]) -> Report:
    """An inconclusive report whose engine ended full: its requests failed while it could admit no
    more (a client's timeout, a proxy's 5xx). The engine's state is said and its line quoted; the
    lines do not say the load was the cause, so no verdict is named."""
    found = full(series)
    if found is None:
        return report
    queue, usage = found
    where = series_place(queue, queue.last_line)
    summary = (
        f"{report.verdict.summary} When the lines end, the engine is full: its last stats line ({where}) shows "
        f"{queue.last:g} request(s) waiting and its KV cache at {usage.last:.1%}, so it could admit no more; "
        "requests that wait there time out or fail at the client. The line: "
        f"{clip((queue.last_text or usage.last_text).strip(), 240)}"
    )
    return replace(report, verdict=replace(report.verdict, summary=summary))


def _stalled_when_it_failed(report: Report, series: Sequence[Series]) -> Report:
    """An inconclusive report whose engine had stopped making progress as its lines end: its last
    stats line is said and quoted (what the failing lines' requests were waiting on); no cause is named."""
    stall = stalled(series)
    if stall is None:
        return report
    summary = f"{report.verdict.summary} {_hung(stall)[0]} The line: {clip(stall.last_text.strip(), 240)}"
    return replace(report, verdict=replace(report.verdict, summary=summary))


def _hung(stall: Series) -> tuple[str, str]:
    """The summary and the confidence step's reason for an engine whose last interval did nothing."""
    where = series_place(stall, stall.last_line)
    state = "waiting, none running," if stall.metric == QUEUE else "running"
    summary = (
        f"The engine stopped making progress: its last stats line ({where}) shows {stall.last:g} request(s) "
        f"{state} and no token prefilled or generated in its interval, and no later line shows it serving "
        "again. These lines do not say why it hung."
    )
    return summary, f"the engine's last stats line ({where}) shows requests {state} and nothing generated"


def _crawled(queue: Series) -> tuple[str, str]:
    """The summary and the confidence step's reason for an engine whose queue piled up beside a crawl."""
    where = series_place(queue, queue.last_line)
    summary = (
        f"The engine stopped keeping up: its last stats line ({where}) shows {queue.last:g} request(s) waiting, far "
        "more than it ran, the running ones generating next to nothing and its KV cache with room. A busy engine "
        "generates tens of tokens a second per request and admits as its cache allows; this one crawled while "
        "its queue grew. These lines do not say why."
    )
    return (
        summary,
        f"the engine's last stats line ({where}) shows a queue piling up beside a crawl and a cache with room",
    )


def _not_admitting(queue: Series) -> tuple[str, str]:
    """The summary and the confidence step's reason for an engine whose waiting queue stood."""
    where = series_place(queue, queue.last_line)
    summary = (
        f"The engine stopped admitting requests: in each of its {queue.count} stats lines up to {where}, "
        f"at least {queue.low:g} request(s) waited, more than ran, no prompt token was prefilled, and its KV "
        "cache had room. A busy engine admits as its running requests finish or its cache frees; this "
        "queue stood. These lines do not say why."
    )
    return summary, f"the engine's stats lines ({where}) show requests waiting, none admitted, the cache with room"


def _inconclusive(report: Report, stall: Series, summary: str, why: str, library: Library) -> Report:
    """The report, inconclusive about a run its engine's stats lines show stuck, quoting the last."""
    if stall.last_text:
        summary = f"{summary} The line: {clip(stall.last_text.strip(), 240)}"
    spec = library.verdict(INCONCLUSIVE)
    verdict = confidence.applied(Verdict(INCONCLUSIVE, spec.title, 0.0, summary), confidence.no_cause(why))
    return replace(
        report,
        verdict=verdict,
        chain=(performance.last_event(stall), *report.chain),
        advice=spec.advice.strip(),
        explain=spec.explain.strip(),
        missing=tuple(dict.fromkeys((MISSING, *report.missing))),
    )
