"""Small charts of the metrics series (queue lengths, token usage, throughput per node over time).

One chart per metric, one line per series (a node, and a rank when a server prints per rank), drawn
as static inline SVG from the series' time buckets: nothing is fetched and no script runs, so the
page's Content-Security-Policy holds. The metrics the verdict rests on are charted first.
"""

from __future__ import annotations

from ..model import Performance, Series
from ..model.values import record

# The numbers worth a chart, in the order a reader checks them (after the finding's own), with what they count.
CHARTED = {
    "latency_us": "router request latency (µs)",  # what the clients saw, before the servers' reasons
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
MEAN_DIGITS = 4
MAX_CHARTS = 8
MAX_LINES = 6  # series per chart; the rest are named under it
WIDTH, HEIGHT = 300.0, 80.0


@record
class Line:
    label: str
    points: str  # SVG polyline points
    peak: float
    count: int  # metrics lines read into it


@record
class Chart:
    metric: str
    title: str
    high: float
    lines: tuple[Line, ...]
    left_out: int  # series not drawn


@record
class Row:
    """One series as every report format states it (the text and markdown tables, the HTML legend):
    the same numbers as the JSON report's `performance.series` entry, worded once here."""

    title: str  # what the metric counts (CHARTED)
    label: str  # the node (or file), its role and rank
    count: int  # metrics lines read into it: JSON's `count`
    low: float
    mean: float
    high: float
    last: float


def number(value: float) -> str:
    """A series' value as the text and markdown reports write it: JSON's number, without a
    trailing `.0` (values are read from log lines, means rounded by `mean`)."""
    return f"{value:.15g}"


def mean(series: Series) -> float:
    """A series' mean as every format gives it (JSON's `mean` too): to 4 decimals."""
    return round(series.mean, MEAN_DIGITS)


def _ordered(performance: Performance | None) -> list[tuple[str, list[Series]]]:
    """The metrics worth showing, the finding's first, each with its series highest peak first."""
    if performance is None or not performance.series:
        return []
    metrics = {s.metric for s in performance.series}
    ordered = [m for m in performance.shown if m in metrics and m in CHARTED]
    ordered += [m for m in CHARTED if m in metrics and m not in ordered]
    return [
        (metric, sorted((s for s in performance.series if s.metric == metric), key=lambda s: -s.high))
        for metric in ordered[:MAX_CHARTS]
    ]


def rows(performance: Performance | None) -> list[Row]:
    """The series the charts draw, as table rows, in the charts' order."""
    return [
        Row(CHARTED[metric], label(item), item.count, item.low, mean(item), item.high, item.last)
        for metric, series in _ordered(performance)
        for item in series[:MAX_LINES]
    ]


def label(series: Series) -> str:
    rank = f", {series.rank}" if series.rank else ""
    return f"{series.node or series.source.rsplit('/', 1)[-1]} ({series.role.value}{rank})"


def charts(performance: Performance | None) -> list[Chart]:
    """The charts of a report's series: the finding's metrics first, then the others CHARTED names."""
    ordered = _ordered(performance)
    if performance is None or not ordered:
        return []
    start, end = _span(performance.series)
    found = []
    for metric, series in ordered:
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
    return Line(label(series), points, series.high, series.count)


def chart_html(chart: Chart) -> str:
    """One chart as a figure: its title, an SVG of its lines, a legend of what each line is."""
    import html  # here: a report that draws no chart (every format but HTML) does not pay for it

    paths = "".join(
        f'<polyline class="s{index}" points="{html.escape(line.points)}"/>' for index, line in enumerate(chart.lines)
    )
    legend = "".join(
        f'<li><i class="s{index}"></i>{html.escape(line.label)}: peak {number(line.peak)}, {line.count} lines</li>'
        for index, line in enumerate(chart.lines)
    )
    more = f"<li>and {chart.left_out} more</li>" if chart.left_out else ""
    scale = f"0 to {number(chart.high)}"
    aria = html.escape(f"{chart.title}, {scale}")
    return (
        f'<figure class="chart"><figcaption>{html.escape(chart.title)} <span>({scale})</span></figcaption>'
        f'<svg viewBox="0 0 {WIDTH:g} {HEIGHT:g}" preserveAspectRatio="none" role="img" aria-label="{aria}">'
        f"{paths}</svg><ul>{legend}{more}</ul></figure>"
    )
