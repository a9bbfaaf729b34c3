"""HTML: one self-contained file that shows the incident as a story in time.

The verdict, confidence, fix, rival causes and missing evidence come first, as
static HTML; under them a swimlane timeline (one lane per role and node) that a
small inline script draws as SVG from a JSON blob: chain events as marks, the
root cause ringed, causal links as arrows across lanes. Marks that fall on the
same few pixels are drawn as one mark with a count, so 10,000 events cost a few
hundred DOM nodes. Clicking a mark shows its lines, file:line, context and what
the pattern means. Inputs and problems come last.

Nothing is fetched: CSS and JS are inlined from `html_assets/`, and the file
opens from disk. Redaction is the markdown's (same redactor, same excerpt), so
what a shared HTML report shows is what a shared issue body shows.
"""

from __future__ import annotations

import html
import json
from collections.abc import Sequence
from dataclasses import replace
from functools import cache
from importlib import resources
from typing import Any, TextIO

from .. import __version__
from ..model import Event, ExcerptLine, ExcerptWindow, Finding, Report, Role, Severity, Suggestion
from ..model.counts import shares
from ..model.values import record
from ..model.verdicts import HEALTHY, INCONCLUSIVE
from ..scan.logshape import set_aside
from . import changes
from .charts import chart_html, charts
from .document import (
    RESULTS_READ_NOTE,
    chain_time,
    end_lines,
    fact_text,
    folded_pattern,
    incomplete_reason,
    thread_name,
    time_since,
)
from .fixes import command_text, fixes
from .markdown import masked_names, shareable_view
from .neutralise import show_lone_crs
from .options import RenderOptions

# Lanes in the order a request flows, CI last; unknown sources after them.
LANE_ORDER = (Role.PREFILL, Role.SERVER, Role.DECODE, Role.ROUTER, Role.HARNESS, Role.CI, Role.MIXED, Role.UNKNOWN)
MAX_LINE_CHARS = 600


def render(report: Report, out: TextIO, options: RenderOptions) -> None:
    out.write(html_report(report, options))


def html_report(report: Report, options: RenderOptions) -> str:
    view = shareable_view(report, options)
    data = timeline_data(view.report)
    return _PAGE.format(
        title=html.escape(f"pdlogdoctor: {view.report.verdict.title}"),
        css=_asset("report.css"),
        js=_asset("report.js"),
        head=_head(view.report, view.fingerprint),
        fix=_fix(view.report),
        metrics=_metrics(view.report),
        rivals=_known(view.report) + _changes(view.report) + _rivals(view.report),
        legend=_masked_legend(view.report) if options.redact else "",
        incidents=_incidents(view.report),
        inputs=_inputs(view.report),
        footer=html.escape(f"fingerprint {view.fingerprint} · pdlogdoctor {__version__}"),
        data=_script_json(data),
    )


# ---------------------------------------------------------------- the data the timeline draws


@record
class Lane:
    key: str
    role: str
    label: str
    quiet: bool = False  # an input read with nothing on the timeline: a node that did not fail


MAX_QUIET_LANES = 32  # beyond these, the inputs table lists the other inputs read


def lane_of(event: Event, nodes: dict[str, str | None]) -> Lane:
    """A lane per role and node: two prefill nodes are two lanes, a CI log's prefill lines join prefill."""
    node = nodes.get(event.source) or _file_name(event.source)
    return Lane(f"{event.role.value}\x00{node}", event.role.value, f"{event.role.value} · {node}")


def timeline_data(report: Report) -> dict[str, Any]:
    """The timeline as compact tables: events refer to files, patterns and context windows by index,
    so 10,000 events from a few files and patterns cost little more than their lines."""
    nodes = {source.name: source.node for source in report.inputs}
    events = _timeline_events(report)
    index = {_key(event): number for number, event in enumerate(events)}
    lanes = _lanes([lane_of(event, nodes) for event in events] + _quiet_lanes(report, events, nodes))
    lane_index = {lane.key: number for number, lane in enumerate(lanes)}
    files = sorted({event.source for event in events})
    patterns = sorted({event.pattern for event in events})
    glossary = {**_unrecognised_meanings(report), **dict(report.glossary)}
    contexts, context_of = _contexts(report.excerpt)
    roots = {_key(event) for event in report.roots}
    file_index = {name: number for number, name in enumerate(files)}
    pattern_index = {name: number for number, name in enumerate(patterns)}
    return {
        "root_time": _root_time(report),
        "has_root": any(event.time is not None for event in report.roots),
        "lanes": [{"role": lane.role, "label": lane.label, "quiet": lane.quiet} for lane in lanes],
        "files": files,
        "patterns": [{"id": name, "meaning": glossary.get(name, "")} for name in patterns],
        "contexts": contexts,
        # lane, time, file, line, text, pattern, kind, lines (its share of its kind's count: a mark
        # sums them, model/counts.py), root (0/1), context (-1: none), at least (0/1: lines is a floor)
        "events": [
            [
                lane_index[lane_of(event, nodes).key],
                event.time,
                file_index[event.source],
                event.line,
                _clip(event.text),
                pattern_index[event.pattern],
                "unrecognised" if event.unrecognised else event.kind.value,
                lines,
                int(_key(event) in roots),
                context_of.get((event.source, event.line), -1),
                int(event.at_least),
            ]
            for event, lines in zip(events, shares(events), strict=True)
        ],
        "links": sorted(
            {
                (index[_key(link.cause)], index[_key(link.effect)])
                for link in report.links
                if _key(link.cause) in index and _key(link.effect) in index
            }
        ),
    }


def _quiet_lanes(report: Report, events: list[Event], nodes: dict[str, str | None]) -> list[Lane]:
    """A lane for every input read that has no mark: the healthy nodes of a fleet are drawn, so
    "1 of 2 prefill nodes failed" shows on the page (files set aside as not serving logs are not)."""
    marked = {event.source for event in events}
    aside = set(set_aside(report.inputs))
    quiet = [
        source for source in report.inputs if source.bytes and source.name not in marked and source.name not in aside
    ]
    lanes = []
    for source in quiet[:MAX_QUIET_LANES]:
        node = nodes.get(source.name) or _file_name(source.name)
        lanes.append(Lane(f"{source.role.value}\x00{node}", source.role.value, f"{source.role.value} · {node}", True))
    return lanes


def _timeline_events(report: Report) -> list[Event]:
    """The chain, and the first line of every error template no pattern names, standing for all of its lines."""
    seen: dict[tuple[str, int, str], Event] = {}
    for event in (*report.roots, *report.chain):
        seen.setdefault(_key(event), event)
    for error in report.unrecognised:
        seen.setdefault(_key(error.first), replace(error.first, repeats=error.count))
    return sorted(seen.values(), key=lambda e: (e.time if e.time is not None else float("inf"), e.source, e.line))


def _unrecognised_meanings(report: Report) -> dict[str, str]:
    """Unrecognised lines carry their severity marker as `pattern`; say what that means."""
    return {
        error.first.pattern: f"{_article(error.severity)} line no pattern of the library names "
        f"(its kind of line: {error.first.pattern})"
        for error in report.unrecognised
    }


def _article(severity: Severity) -> str:
    return "a warning" if severity is Severity.WARNING else "an error"


def _key(event: Event) -> tuple[str, int, str]:
    return (event.source, event.line, event.pattern)


def _lanes(found: list[Lane]) -> list[Lane]:
    unique: dict[str, Lane] = {}
    for lane in found:  # a lane with marks is no quiet lane, whichever input made it first
        if lane.key not in unique or unique[lane.key].quiet:
            unique[lane.key] = lane
    rank = {role.value: number for number, role in enumerate(LANE_ORDER)}
    return sorted(unique.values(), key=lambda lane: (rank.get(lane.role, len(rank)), lane.label))


def _root_time(report: Report) -> float | None:
    timed = [event.time for event in (*report.roots, *report.chain) if event.time is not None]
    rooted = [event.time for event in report.roots if event.time is not None]
    found = rooted or timed
    return found[0] if found else None


def _contexts(windows: tuple[ExcerptWindow, ...]) -> tuple[list[list[tuple[int, str]]], dict[tuple[str, int], int]]:
    """Each excerpt window once, and for every line in it the window it sits in."""
    contexts: list[list[tuple[int, str]]] = []
    context_of: dict[tuple[str, int], int] = {}
    for window in windows:
        contexts.append([(x.line, _clip(x.text)) for x in window.lines])
        for x in window.lines:
            context_of.setdefault((x.source, x.line), len(contexts) - 1)
    return contexts, context_of


def _clip(text: str) -> str:
    """A log line as the page shows it: a lone CR inside it visible (neutralise.show_lone_crs)."""
    text = show_lone_crs(text)
    return text if len(text) <= MAX_LINE_CHARS else text[: MAX_LINE_CHARS - 1] + "…"


def _file_name(source: str) -> str:
    return source.rsplit("!", 1)[-1].rsplit("/", 1)[-1]


def _script_json(data: dict[str, Any]) -> str:
    """JSON that cannot close its <script> element or open a comment, whatever the logs hold."""
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


# ---------------------------------------------------------------- the static parts


def _head(report: Report, fingerprint: str) -> str:
    verdict = report.verdict
    tone = {HEALTHY: "ok", INCONCLUSIVE: "unsure"}.get(verdict.id, "bad")
    sure = "" if verdict.id == INCONCLUSIVE else f'<span class="conf">confidence {verdict.confidence:.2f}</span>'
    facts = "".join(
        f"<div><dt>{html.escape(key.replace('_', ' '))}</dt><dd>{html.escape(fact_text(value))}</dd></div>"
        for key, value in verdict.facts
    )
    return (
        f'<section class="verdict {tone}"><h1>{html.escape(verdict.title)}</h1>'
        f'<p class="meta"><code>{html.escape(verdict.id)}</code> {sure} '
        f'<span class="fp">fingerprint <code>{html.escape(fingerprint)}</code></span></p>'
        f'<p class="summary">{html.escape(verdict.summary)}</p>'
        + "".join(f'<p class="team">This is {_link(m.link)}{_titled(m.title)}</p>' for m in report.team)
        + (
            f'<p class="caution">Evidence incomplete: {html.escape(incomplete_reason(report))}.</p>'
            if report.incomplete
            else ""
        )
        + (f'<p class="advice">{html.escape(report.advice)}</p>' if report.advice else "")
        + (f'<dl class="facts">{facts}</dl>' if facts else "")
        + "</section>"
    )


def _fix(report: Report) -> str:
    if not report.suggestions:
        return ""
    sure = report.verdict.confidence >= 0.7
    caution = "" if sure else '<p class="caution">Low confidence: verify the cause before applying a fix.</p>'
    options: list[str] = []
    for number, (item, fix) in enumerate(zip(report.suggestions, fixes(report), strict=True), 1):
        label = f"Option {number}" if len(report.suggestions) > 1 else "Fix"
        where = f'<p class="where">on the {html.escape(fix.applies)}</p>' if fix.applies else ""
        steps = "".join(f"<li>{html.escape(step)}</li>" for step in item.arithmetic)
        arithmetic = f"<details><summary>arithmetic</summary><ul>{steps}</ul></details>" if steps else ""
        options.append(
            f'<div class="option"><h3>{label}: {html.escape(item.name)}</h3>{where}{_copyable(item)}'
            f"<p>{html.escape(item.reason)}</p>{arithmetic}</div>"
        )
    return f'<section class="fix"><h2>Suggested fix</h2>{caution}{"".join(options)}</section>'


def _link(url: str) -> str:
    """A link as text to copy: the page follows and loads nothing (tests/test_html_report.py)."""
    name = thread_name(url)
    shown = (
        f"{html.escape(name)} (<code>{html.escape(url)}</code>)" if name != url else f"<code>{html.escape(url)}</code>"
    )
    return shown


def _titled(title: str) -> str:
    return f" ({html.escape(title)})" if title else ""


def _known(report: Report) -> str:
    """The upstream problems this failure is known as, and the versions the logs show."""
    parts: list[str] = []
    for issue in report.known:
        workaround = f"<p>Workaround: {html.escape(issue.workaround)}</p>" if issue.workaround else ""
        parts.append(
            f"<li><strong>{html.escape(issue.title)}</strong><p>Known upstream: {_link(issue.source)}, "
            f"{html.escape(issue.fix)}; {html.escape(issue.about)}</p>{workaround}</li>"
        )
    known = f'<h2>Known upstream</h2><ul class="known">{"".join(parts)}</ul>' if parts else ""
    rows = "".join(
        f"<tr><td>{html.escape(v.component)}</td><td><code>{html.escape(v.version)}</code></td>"
        f"<td>{html.escape(v.how)}</td><td><code>{html.escape(v.where)}</code></td></tr>"
        for v in report.versions
    )
    head = "<tr><th>component</th><th>version</th><th>from</th><th>where</th></tr>"
    versions = f"<h2>Versions in these logs</h2><table>{head}{rows}</table>" if rows else ""
    return f'<section class="rivals">{known}{versions}</section>' if known or versions else ""


def _metrics(report: Report) -> str:
    """The metrics series as small charts (charts.py): where the time went in a slow run."""
    drawn = charts(report.performance)
    if not drawn:
        return ""
    gate = report.performance.gate if report.performance is not None else None
    head = f"<p><code>{html.escape(_clip(gate.text))}</code></p>" if gate is not None else ""
    figures = "".join(chart_html(chart) for chart in drawn)
    return f'<section class="metrics"><h2>Metrics over time</h2>{head}<div class="charts">{figures}</div></section>'


def _copyable(item: Suggestion) -> str:
    """The command, and a button that copies only it: a launch flag is said in words around it
    (the markdown's comment lines are for a shell paste; a page's copy is the flag itself)."""
    command = command_text(item)
    if command is None:
        return ""
    lead = '<p class="lead">Add to each launch command:</p>' if item.kind == "server-arg" else ""
    copy = '<button type="button" data-copy title="copy to the clipboard">copy</button>'
    return f'{lead}<pre><code class="copied">{html.escape(command)}</code></pre>{copy}'


def _masked_legend(report: Report) -> str:
    """What the placeholders in lane and file names stand for, and how to see the real names."""
    groups = masked_names(report)
    if not groups:
        return ""
    parts = "; ".join(
        ", ".join(f"<code>{html.escape(placeholder)}</code>" for placeholder in group) + f" ({html.escape(words)})"
        for words, group in groups
    )
    return (
        f'<section class="legend-masked"><p>Masked for sharing: {parts}. The same placeholder is the same '
        "name everywhere on this page. <code>--no-redact</code> shows the real names "
        "(do not share that page).</p></section>"
    )


def _incidents(report: Report) -> str:
    """Each separate incident as its own card: its verdict, why it stands apart, and its chain in
    time order (UTC, and the time since its first line), as the text report's 'Other incident'."""
    return "".join(_incident_card(finding, report) for finding in report.other_incidents)


def _incident_card(finding: Finding, report: Report) -> str:
    verdict = finding.verdict
    nodes = {source.name: source.node for source in report.inputs}
    start = next((event.time for event in finding.chain if event.time is not None), None)
    rows = "".join(
        f"<tr><td>{html.escape(chain_time(event, None, True))}</td><td>{html.escape(time_since(event, start))}</td>"
        f"<td>{html.escape(lane_of(event, nodes).label)}</td>"
        f"<td><code>{html.escape(f'{event.source}:{event.line}')}</code></td>"
        f"<td><code>{html.escape(folded_pattern(event))}</code></td><td><code>{html.escape(_clip(event.text))}</code></td></tr>"
        for event in finding.chain
    )
    head = "<tr><th>UTC</th><th>Δ</th><th>lane</th><th>where</th><th>pattern</th><th>line</th></tr>"
    return (
        f'<section class="incident" data-verdict="{html.escape(verdict.id)}">'
        f"<h2>Other incident: {html.escape(verdict.title)}</h2>"
        f'<p class="meta"><code>{html.escape(verdict.id)}</code> '
        f'<span class="conf">confidence {verdict.confidence:.2f}</span></p>'
        f'<p class="summary">{html.escape(verdict.summary)}</p><p class="why">{html.escape(finding.why_separate)}</p>'
        f"<table>{head}{rows}</table></section>"
    )


def _changes(report: Report) -> str:
    """The comparison with the last green run (--baseline, diff): GOOD and BAD side by side."""
    comparison = report.comparison
    if comparison is None:
        return ""
    warning = changes.baseline_warning(comparison)
    parts = [f"<p><strong>{html.escape(warning)}</strong></p>"] if warning else []
    parts.append(
        f"<p>{html.escape(changes.headline(comparison))} {html.escape(changes.baseline_line(comparison))}.</p>"
    )
    rows = "".join(
        "<tr>" + "".join(f"<td>{html.escape(cell)}</td>" for cell in changes.delta_cells(delta)) + "</tr>"
        for delta in comparison.deltas[: changes.MAX_ROWS]
    )
    errors = "".join(
        "<tr>" + "".join(f"<td>{html.escape(cell)}</td>" for cell in changes.error_cells(error)) + "</tr>"
        for error in comparison.errors[: changes.MAX_ROWS]
    )
    head = "<tr><th>what</th><th>role</th><th>last green</th><th>this run</th><th>change</th></tr>"
    parts.append(f"<table>{head}{rows}</table>" if rows else "")
    error_head = "<tr><th>error lines</th><th>last green</th><th>this run</th><th>change</th><th>first seen</th></tr>"
    parts.append(f"<table>{error_head}{errors}</table>" if errors else "")
    series = "".join(
        "<tr>" + "".join(f"<td>{html.escape(cell)}</td>" for cell in changes.series_cells(row)) + "</tr>"
        for row in comparison.series[: changes.MAX_ROWS]
    )
    series_head = "<tr>" + "".join(f"<th>{html.escape(name)}</th>" for name in changes.SERIES_HEAD) + "</tr>"
    parts.append(f"<table>{series_head}{series}</table>" if series else "")
    summary = html.escape(changes.TITLE)
    return f'<section class="rivals"><details open><summary>{summary}</summary>{"".join(parts)}</details></section>'


def _lines_table(lines: Sequence[ExcerptLine], column: str) -> str:
    """Lines of the inputs, each with where it is: a table of two columns."""
    rows = "".join(
        f"<tr><td><code>{html.escape(f'{line.source}:{line.line}')}</code></td>"
        f"<td><code>{html.escape(_clip(line.text))}</code></td></tr>"
        for line in lines
    )
    return f"<table><tr><th>where</th><th>{html.escape(column)}</th></tr>{rows}</table>"


def _rivals(report: Report) -> str:
    parts: list[str] = []
    if report.alternatives:
        rows = "".join(
            f"<tr><td><code>{html.escape(alt.id)}</code></td><td>{alt.confidence:.2f}</td>"
            f"<td>{html.escape(alt.why_not)}</td></tr>"
            for alt in report.alternatives
        )
        parts.append(
            "<details><summary>Alternatives considered "
            f"({len(report.alternatives)})</summary><table><tr><th>verdict</th><th>confidence</th>"
            f"<th>why not</th></tr>{rows}</table></details>"
        )
    if report.log_ends:
        parts.append(f"<h2>Where the logs end</h2>{_lines_table(end_lines(report), 'last lines')}")
    if report.results_read:
        note = html.escape(RESULTS_READ_NOTE)
        parts.append(f"<h2>Results read</h2><p>{note}</p>{_lines_table(report.results_read, 'line')}")
    if report.missing:
        items = "".join(f"<li>{html.escape(item)}</li>" for item in report.missing)
        parts.append(f'<div class="missing"><h2>Missing evidence</h2><ul>{items}</ul></div>')
    return f'<section class="rivals">{"".join(parts)}</section>' if parts else ""


def _inputs(report: Report) -> str:
    rows = "".join(
        f"<tr><td><code>{html.escape(source.name)}</code></td><td>{html.escape(source.role.value)}</td>"
        f"<td>{source.lines:,}</td><td>{source.bytes:,}</td>"
        f"<td>{html.escape('; '.join(f'{p.code}: {p.message}' for p in source.problems))}</td></tr>"
        for source in report.inputs
    )
    notes = "".join(f"<li>{html.escape(note)}</li>" for note in (*report.time_notes, *report.notes))
    return (
        f'<section class="inputs"><details><summary>Inputs ({len(report.inputs)})</summary><table>'
        f"<tr><th>file</th><th>role</th><th>lines</th><th>bytes</th><th>problems</th></tr>{rows}</table></details>"
        + (f'<ul class="notes">{notes}</ul>' if notes else "")
        + "</section>"
    )


@cache
def _asset(name: str) -> str:
    return (resources.files("pdlogdoctor.render") / "html_assets" / name).read_text(encoding="utf-8")


_PAGE = """<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; \
script-src 'unsafe-inline'; img-src data:">
<title>{title}</title>
<style>{css}</style>
</head>
<body>
<main>
{head}
{fix}
{metrics}
{rivals}
<section class="timeline">
<div class="toolbar"><strong>Timeline</strong>
<button type="button" data-zoom="in" title="zoom in">+</button>
<button type="button" data-zoom="out" title="zoom out">&minus;</button>
<button type="button" data-zoom="reset">reset</button>
<span class="hint">wheel to zoom, drag to pan, click a mark</span>
<span class="legend"><i class="k-root"></i>root cause <i class="k-cause"></i>cause \
<i class="k-symptom"></i>symptom <i class="k-context"></i>context <i class="k-unknown"></i>unrecognised error</span>
</div>
<div id="lanes"></div>
<div id="detail" aria-live="polite"><p class="hint">Click a mark to see its lines.</p></div>
{legend}
</section>
{incidents}
{inputs}
<footer>{footer}</footer>
</main>
<script type="application/json" id="pdld-data">{data}</script>
<script>{js}</script>
</body>
</html>
"""
