"""A P/D decode that computed every prompt itself: the KV its prefill sent was never used.

decide (after stall.weigh): in a disaggregated deployment the decode loads each request's KV from
the prefill and computes only what is left (a token or two). When the prefill's KV does not reach
it (a proxy or router that does not pass the request's kv_transfer_params on, the two sides hashing
or laying out KV differently, a connector that silently falls back), the decode prefills the whole
prompt again: every answer can still come back right and 200, while the prefill's work is thrown
away and the time to first token grows. No line says so; the decode's own counters do:

- vLLM's stats line with a KV connector ends `External prefix cache hit rate: X%`, the share of prompt
  tokens the connector loaded: on a working P/D decode near 100 %, here 0 % while requests run;
- LMCache's lookup of each request on the decode (`Total tokens N, LMCache hit tokens: H`): H is 0 for
  every request.

A run that would be healthy or show no failure is then inconclusive, with the decode's line quoted, and
so is one whose latency or throughput gate failed with no bottleneck in the series (the regression's
cause is a lead, not a pattern's finding); a bottleneck the series name keeps its verdict. Only a
decode's lines count (a prefill, or a single server with a cache tier, misses on every new prompt by
design), and only UNUSED_LINES or more of them (one cold request is no pattern).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from ..library.patterns import Library
from ..model import Report, Role, Series, Verdict
from ..model.textcut import clip
from ..model.verdicts import HEALTHY, INCONCLUSIVE, NO_FAILURE_SEEN, PERFORMANCE_REGRESSION
from . import confidence, performance
from .quotes import series_place
from .stall import engines

EXTERNAL_HITS = "external_hit_rate"  # vLLM's stats line (patterns/vllm/vllm-engine-stats.toml)
RUNNING, PROMPT = "running", "input_throughput"
LOOKUP_HITS, LOOKUP_TOKENS = "hit_tokens", "total_tokens"  # LMCache's lookup (patterns/lmcache/lmcache-lookup.toml)
UNUSED_LINES = 3  # a decode's lines, each with no KV loaded, before it counts
MISSING = (
    "the proxy's or router's request to the decode (does it carry kv_transfer_params?) and the connector's own lines"
)


def unused(series: Sequence[Series]) -> tuple[Series, str] | None:
    """The series of a decode whose own lines say it loaded none of its prompts' KV, and what it
    says; None when no decode's do."""
    for metrics in engines([item for item in series if item.role is Role.DECODE]):
        found = _no_external_hits(metrics) or _no_lookup_hits(metrics)
        if found is not None:
            return found
    return None


def _no_external_hits(metrics: dict[str, Series]) -> tuple[Series, str] | None:
    """vLLM: the external hit rate at 0 in the decode's last lines (all of them, or since it fell),
    while those lines show requests running or prompts prefilled."""
    hits, running, prompt = metrics.get(EXTERNAL_HITS), metrics.get(RUNNING), metrics.get(PROMPT)
    if hits is None or hits.count < UNUSED_LINES or hits.last != 0 or not _ends_at_zero(hits):
        return None
    if not any(work is not None and _last_bucket_high(work) > 0 for work in (running, prompt)):
        return None  # idle lines at the end (a rate over no request reads 0): no request to load KV for
    since = (
        f"in all its {hits.count} stats lines"
        if hits.high == 0
        else f"in its last lines, since it fell from {hits.high:.1%},"
    )
    said = (
        f"the decode's external prefix cache hit rate, the share of prompt tokens its KV connector loaded, "
        f"is 0 % {since} while it served requests ({series_place(hits, hits.last_line)})"
    )
    return hits, said


def _no_lookup_hits(metrics: dict[str, Series]) -> tuple[Series, str] | None:
    """LMCache: every request the decode looked up hit none of its prompt."""
    hits, tokens = metrics.get(LOOKUP_HITS), metrics.get(LOOKUP_TOKENS)
    if hits is None or tokens is None or hits.count < UNUSED_LINES or hits.high != 0 or tokens.low <= 0:
        return None
    said = (
        f"LMCache on the decode found none of the prompt's KV for any of the {hits.count} requests it looked up "
        f"(hit tokens 0 of up to {tokens.high:g}, {series_place(hits, hits.first_line)} to "
        f"{series_place(hits, hits.last_line)})"
    )
    return hits, said


def _ends_at_zero(hits: Series) -> bool:
    """The series' last time bucket holds no value above 0."""
    return _last_bucket_high(hits) == 0


def _last_bucket_high(series: Series) -> float:
    """The highest value of the series' last time bucket (of all of it, when it kept no buckets)."""
    return series.points[-1][3] if series.points else series.high


def weigh(report: Report, series: Sequence[Series], library: Library) -> Report:
    """The report, inconclusive when it would call a P/D run whose decode used none of the prefill's
    KV healthy or failure-free; a performance verdict says it as where the time went."""
    if report.verdict.id not in (HEALTHY, NO_FAILURE_SEEN, PERFORMANCE_REGRESSION):
        return report  # a bottleneck the series name, or a cause, says more
    found = unused(series)
    if found is None:
        return report
    hits, said = found
    consequence = (
        "so it computed the prompts itself: the KV cache the prefill sent was not used (a proxy or router "
        "that does not pass each request's kv_transfer_params on, the two sides hashing or laying out KV "
        "differently, a connector that fell back). Answers can all be right while the prefill's work is "
        "thrown away and the time to first token grows."
    )
    quoted = f" The line: {clip((hits.last_text or hits.first_text).strip(), 240)}"
    if report.verdict.id == PERFORMANCE_REGRESSION:  # a gate failed, and the series named no bottleneck
        summary = f"{report.verdict.summary} The decode's own counters say more: {said}, {consequence}{quoted}"
    else:
        summary = f"The deployment served, but {said}, {consequence}{quoted}"
    spec = library.verdict(INCONCLUSIVE)
    why = f"{said} ({series_place(hits, hits.last_line)})"
    verdict = confidence.applied(Verdict(INCONCLUSIVE, spec.title, 0.0, summary), confidence.no_cause(why))
    return replace(
        report,
        verdict=verdict,
        chain=(performance.last_event(hits), *report.chain),
        advice=(
            "Check that the decode gets each request's KV from the prefill: the proxy or router must pass the "
            "prefill's kv_transfer_params on to the decode (the same connector and version on both sides), "
            "and both sides must compute the same KV keys (a fixed PYTHONHASHSEED where the connector hashes "
            "with Python's hash). The decode's external hit rate near 100 % shows it working."
        ),
        explain=spec.explain.strip(),
        missing=tuple(dict.fromkeys((MISSING, *report.missing))),
    )
