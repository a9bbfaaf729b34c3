"""Small charts of the metrics series (queue lengths, token usage, throughput per node over time).

One chart per metric, one line per series (a node, and a rank when a server prints per rank), drawn
as static inline SVG from the series' time buckets: nothing is fetched and no script runs, so the
page's Content-Security-Policy holds. The metrics the verdict rests on are charted first.
"""

from __future__ import annotations

import html

from ..model import Performance, Series
from ..model.values import record

# The numbers worth a chart, in the order a reader checks them, with what they count.
CHARTED = {
    "queue": "requests waiting",
    "prealloc_queue": "requests waiting for KV memory (decode)",
    "transfer_queue": "KV transfers in flight",
    "bootstrap_queue": "requests waiting for the decode's handshake (prefill)",
    "running": "requests running",
    "token_usage": "KV pool usage",
    "gen_throughput": "generation throughput (tokens/s)",
    "input_throughput": "input throughput (tokens/s)",
    "kv_throughput": "KV transfer throughput (MB/s)",
    "xfer_ms": "KV transfer time (ms)",
    "retracted": "requests retracted (#retracted-req)",
    "preemptions": "preemptions",
}
MAX_CHARTS = 8
MAX_LINES = 6  # series per chart; the rest are named under it
WIDTH, HEIGHT = 300.0, 80.0


@record
class Line:
    label: str
    points: str  # SVG polyline points
    peak: float


@record
class Chart:
    metric: str
    title: str
    high: float
    lines: tuple[Line, ...]
    left_out: int  # series not drawn


def charts(performance: Performance | None) -> list[Chart]:
    """The charts of a report's series: the finding's metrics first, then the others CHARTED names."""
    if performance is None or not performance.series:
        return []
    metrics = {s.metric for s in performance.series}
    ordered = [m for m in performance.shown if m in metrics and m in CHARTED]
    ordered += [m for m in CHARTED if m in metrics and m not in ordered]
    start, end = _span(performance.series)
    found = []
    for metric in ordered[:MAX_CHARTS]:
        series = sorted((s for s in performance.series if s.metric == metric), key=lambda s: -s.high)
        high = max(s.high for s in series) or 1.0
        lines = tuple(_line(s, start, end, high) for s in series[:MAX_LINES])
        found.append(
            Chart(metric, CHARTED[metric], max(s.high for s in series), lines, max(0, len(series) - MAX_LINES))
        )
    return found


def _span(series: tuple[Series, ...]) -> tuple[float, float]:
    times = [t for s in series for t, *_ in s.points]
    return (min(times), max(times)) if times else (0.0, 1.0)


def _line(series: Series, start: float, end: float, high: float) -> Line:
    width = (end - start) or 1.0
    points = " ".join(
        f"{(t - start) / width * WIDTH:.1f},{HEIGHT - mean / high * (HEIGHT - 4):.1f}"
        for t, mean, _, _ in series.points
    )
    rank = f", {series.rank}" if series.rank else ""
    label = f"{series.node or series.source.rsplit('/', 1)[-1]} ({series.role.value}{rank})"
    return Line(label, points, series.high)


def chart_html(chart: Chart) -> str:
    """One chart as a figure: its title, an SVG of its lines, a legend of what each line is."""
    paths = "".join(
        f'<polyline class="s{number}" points="{html.escape(line.points)}"/>' for number, line in enumerate(chart.lines)
    )
    legend = "".join(
        f'<li><i class="s{number}"></i>{html.escape(line.label)}: peak {line.peak:g}</li>'
        for number, line in enumerate(chart.lines)
    )
    more = f"<li>and {chart.left_out} more</li>" if chart.left_out else ""
    label = html.escape(f"{chart.title}, 0 to {chart.high:g}")
    return (
        f'<figure class="chart"><figcaption>{html.escape(chart.title)} <span>(0 to {chart.high:g})</span></figcaption>'
        f'<svg viewBox="0 0 {WIDTH:g} {HEIGHT:g}" preserveAspectRatio="none" role="img" aria-label="{label}">'
        f"{paths}</svg><ul>{legend}{more}</ul></figure>"
    )
