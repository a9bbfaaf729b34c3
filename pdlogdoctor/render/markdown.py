"""Markdown: an issue-ready body, always under GitHub's 65,536-character limit.

Verdict and confidence first, then the fix as a copyable sh block, the chain
as a table, the evidence excerpt in <details>, the alternatives and the
fingerprint. When the body would be too long, the least important parts go
first (excerpt context, then alternatives, then chain rows) and the body says so.
"""

from __future__ import annotations

from typing import TextIO

from .. import __version__
from ..model import Comparison, Event, ExcerptWindow, Finding, Report, Suggestion
from ..model.lazyre import lazy_re
from ..model.values import record
from ..model.verdicts import HEALTHY
from ..reason.fingerprint import fingerprint
from ..reason.quotes import quoted_lines
from ..scan.logshape import NAMES_SHOWN, set_aside, set_aside_words
from . import changes, charts
from .document import (
    RESULTS_READ_NOTE,
    chain_start,
    chain_time,
    end_lines,
    fact_text,
    folded_pattern,
    incomplete_reason,
    position_label,
    unrecognised_kind,
)
from .fixes import LETTERS, confidence_words, fixes, snippet, verify_first
from .inputs import inputs_to_show
from .markup import CELL_CHARS, cell, code_cell, code_span, fence, prose, quoted_cell, quoted_prose
from .mermaid import mermaid_chain
from .options import RenderOptions
from .outbound import passed_out
from .text import chain_legend, chain_title

__all__ = ["CELL_CHARS", "cell", "code_cell", "escape", "fence", "markdown_report", "render"]
GITHUB_BODY_LIMIT = 65_536
SHOWN_LINE_CHARS = 400  # of an excerpt line (the report keeps more, so redaction sees past the cut)
TRIM_NOTE = "Trimmed to fit GitHub's 65,536-character limit: "


@record
class Budget:
    """How much of each part to show; `trim_levels` walks from generous to minimal."""

    context: int = 1 << 30  # lines of context around each chain line: all the report carries
    alternatives: bool = True
    chain_rows: int | None = None  # None: all
    excerpt: bool = True
    diagram: bool = True  # the Mermaid chain: the first thing left out when the body is too long


def render(report: Report, out: TextIO, options: RenderOptions) -> None:
    out.write(markdown_report(report, options))


@record
class ShareableView:
    """What a shareable format shows: the report (its excerpt included), redacted, and the fingerprint."""

    report: Report
    fingerprint: str


def shareable_view(report: Report, options: RenderOptions) -> ShareableView:
    stable_id = fingerprint(report)  # from the report as read: redaction must not change it
    return ShareableView(passed_out(report, options.redact), stable_id)  # the excerpt too: part of the report


def markdown_report(report: Report, options: RenderOptions, limit: int = GITHUB_BODY_LIMIT) -> str:
    """The body, redacted unless options say not to, and under `limit` characters."""
    view = shareable_view(report, options)
    report, stable_id = view.report, view.fingerprint
    for budget, trimmed in trim_levels(report):
        body = compose(report, stable_id, budget, trimmed, options.abs_time)
        if len(body) < limit:
            return body
    note = f"\n\n_{TRIM_NOTE}the body was cut here._\n"
    return body[: limit - len(note) - 1] + note


def trim_levels(report: Report) -> list[tuple[Budget, list[str]]]:
    levels: list[tuple[Budget, list[str]]] = [(Budget(), []), (Budget(diagram=False), ["diagram"])]
    widest = max((x.distance for window in report.excerpt for x in window.lines), default=0)
    for context in range(widest - 1, -1, -1):
        levels.append((Budget(context=context, diagram=False), ["diagram", "evidence context"]))
    levels.append((Budget(0, False, diagram=False), ["diagram", "evidence context", "alternatives"]))
    rows = len(report.chain)
    while rows > 1:
        rows //= 2
        left_out = ["diagram", "evidence context", "alternatives", "chain rows"]
        levels.append((Budget(0, False, rows, diagram=False), left_out))
    everything = ["diagram", "evidence context", "alternatives", "chain rows", "excerpt"]
    levels.append((Budget(0, False, 1, excerpt=False, diagram=False), everything))
    return levels


def compose(report: Report, stable_id: str, budget: Budget, trimmed: list[str], absolute: bool = False) -> str:
    quotes = _log_text(report)  # what the tool's sentences may quote: shown as code
    parts = [_head(report, stable_id, quotes)]
    aside = _set_aside(report)
    if aside:
        parts.append(aside)
    if report.suggestions:
        parts.append(_suggestions(report))  # the fix right under the verdict, before any picture
    diagram = mermaid_chain(report) if budget.diagram else None
    if diagram:
        parts.append(fence(diagram, "mermaid"))
    if report.verdict.facts:
        parts.append(_facts(report))
    if report.known or report.versions:
        parts.append(_known(report))
    if report.comparison is not None:
        parts.append(_changes(report.comparison))
    notes = _notes(report)
    if notes:
        parts.append("### Notes\n\n" + "\n".join(f"- {quoted_prose(note, quotes)}" for note in notes))
    if report.time_notes:
        parts.append("### Clocks\n\n" + "\n".join(f"- {quoted_prose(note, quotes)}" for note in report.time_notes))
    if report.chain:
        parts.append(_chain(report, budget.chain_rows, chain_start(report), absolute))
    metrics = _metrics(report)
    if metrics:
        parts.append(metrics)
    if report.excerpt and budget.excerpt:
        parts.append(_excerpt(report.excerpt, budget.context))
    if report.unrecognised:
        parts.append(_unrecognised(report))
    if report.log_ends:
        parts.append(_log_ends(report))
    if report.results_read:
        parts.append(_results_read(report))
    for finding in report.other_incidents:
        parts.append(_other_incident(finding))
    if report.alternatives and budget.alternatives:
        parts.append(_alternatives(report, quotes))
    if report.missing:
        parts.append(
            "### Missing evidence\n\n" + "\n".join(f"- {quoted_prose(item, quotes)}" for item in report.missing)
        )
    parts.append(_inputs(report, quotes))
    legend = _legend(report)
    if legend:
        parts.append(legend)
    parts.append(_footer(stable_id, trimmed))
    return "\n\n".join(parts) + "\n"


# ---------------------------------------------------------------- sections


def _head(report: Report, stable_id: str, quotes: list[str]) -> str:
    verdict = report.verdict
    lines = [
        f"## pdlogdoctor: {prose(verdict.title)}",
        "",
        f"**Verdict:** `{verdict.id}` · **{confidence_words(report)}** · fingerprint `{stable_id}`",
        "",
        quoted_prose(verdict.summary, quotes, whole=quoted_lines(report)),
    ]
    for match in report.team:
        title = f" ({escape(match.title)})" if match.title else ""
        lines += ["", f"**This is {_link(match.link)}**{title}"]
    if report.incomplete:  # said where the verdict is read, not only among the notes at the end
        lines += ["", f"> **Evidence incomplete:** {prose(incomplete_reason(report))}."]
    if report.advice and verdict.id != HEALTHY:
        lines += ["", f"> {quoted_prose(' '.join(report.advice.split()), quotes)}"]
    return "\n".join(lines)


def _set_aside(report: Report) -> str | None:
    """Files that do not look like serving logs, named: their lines were no evidence."""
    words = set_aside_words(report.inputs)
    if words is None:
        return None
    names = set_aside(report.inputs)
    more = f" and {len(names) - NAMES_SHOWN:,} more" if len(names) > NAMES_SHOWN else ""
    return f"> **Note:** {prose(words)}: " + ", ".join(code_span(name) for name in names[:NAMES_SHOWN]) + more


def _notes(report: Report) -> list[str]:
    """The report's notes but the set-aside one: the Note under the verdict says it (_set_aside)."""
    aside = set_aside_words(report.inputs)
    return [note for note in report.notes if aside is None or not note.startswith(aside)]


def suggestion_command(item: Suggestion) -> str | None:
    """The copyable form of a suggestion (safe to paste: a flag comes as a comment); None for advice."""
    return "\n".join(snippet(item)) or None


def _suggestions(report: Report) -> str:
    """Each alternative under its own label, with its own fenced block: copying one never copies the other."""
    shown = fixes(report)
    title = "Suggested fix" if len(shown) == 1 else f"Suggested fix: {len(shown)} alternatives, pick one"
    body = [f"### {title}"]
    doubt = verify_first(report)
    if doubt:
        body += ["", f"> **Verify first:** {escape(doubt)}"]
    lettered = len(shown) > 1
    for letter, fix in zip(LETTERS, shown, strict=False):
        label = f"{letter}. {fix.label}" if lettered else fix.label
        where = f" — on the {fix.applies}" if fix.applies else ""
        body += ["", f"**{escape(label)}**{escape(where)}"]
        if fix.snippet:
            body += ["", fence("\n".join(fix.snippet), "sh")]
        body += ["", escape(fix.reason)]
        if fix.arithmetic:
            body += ["", *(f"- {escape(step)}" for step in fix.arithmetic)]
        if fix.lines_used:
            body += ["", "From " + ", ".join(code_cell(where) for where in fix.lines_used)]
    return "\n".join(body)


def _facts(report: Report) -> str:
    rows = ["| fact | value |", "| --- | --- |"]
    for key, value in report.verdict.facts:
        # Numbers and unknowns are the tool's words; any other value may hold log text, so it is code.
        plain = (
            value is None
            or isinstance(value, int | float)
            or (isinstance(value, tuple) and all(isinstance(item, int | float) for item in value))
        )
        shown = cell(fact_text(value)) if plain else code_cell(fact_text(value))
        rows.append(f"| {cell(key.replace('_', ' '))} | {shown} |")
    return "### Facts\n\n" + "\n".join(rows)


def _link(url: str) -> str:
    """A link as code, to copy: the report renders no link at all (tests/test_redaction_corpus.py), so
    neither does a known issue's thread or the team's tracker, though they are the library's and the
    config's, not the logs'."""
    return code_span(url)


def _known(report: Report) -> str:
    """The upstream problems this failure is known as, then the versions the logs show."""
    body = []
    if report.known:
        body.append("### Known upstream")
        for issue in report.known:
            link = _link(issue.source)
            body += [
                "",
                f"- **{escape(issue.title)}**",
                f"  Known upstream: {link}, {escape(issue.fix)}; {escape(issue.about)}",
            ]
            if issue.workaround:
                body.append(f"  Workaround: {escape(issue.workaround)}")
    if report.versions:
        body += ["", "### Versions in these logs", "", "| component | version | from |", "| --- | --- | --- |"]
        for version in report.versions:
            told = f"{cell(version.how)}: {code_cell(version.where)}"
            body.append(f"| {cell(version.component)} | {code_cell(version.version)} | {told} |")
    return "\n".join(body).lstrip("\n")


def _changes(comparison: Comparison) -> str:
    """GOOD and BAD side by side; changes bearing on the verdict in bold."""
    lines = [f"### {changes.TITLE}", ""]
    warning = changes.baseline_warning(comparison)
    if warning:
        lines += [f"> **Warning:** {escape(warning)}", ""]
    lines += [f"{escape(changes.headline(comparison))} {escape(changes.baseline_line(comparison))}.", ""]
    if comparison.deltas:
        lines += ["| what | role | last green | this run | change |", "| --- | --- | ---: | ---: | --- |"]
        for delta in comparison.deltas[: changes.MAX_ROWS]:
            what, roles, before, after, change = changes.delta_cells(delta)
            shown = f"**{cell(after)}**" if delta.relevant else cell(after)
            lines.append(f"| {code_cell(what)} | {cell(roles)} | {cell(before)} | {shown} | {cell(change)} |")
        hidden = len(comparison.deltas) - changes.MAX_ROWS
        if hidden > 0:
            lines.append(f"\n_{hidden} more changes; `--format json` lists all._")
    if comparison.errors:
        lines += ["", "| error lines (earliest first) | last green | this run | change | first seen |"]
        lines.append("| --- | ---: | ---: | --- | --- |")
        for error in comparison.errors[: changes.MAX_ROWS]:
            what, before, after, change, first = changes.error_cells(error)
            lines.append(f"| {cell(what)} | {before} | {after} | {change} | {code_cell(first)} |")
    if comparison.series:
        lines += ["", "| " + " | ".join(changes.SERIES_HEAD) + " |", "| --- | --- | ---: | ---: | --- |"]
        for row in comparison.series[: changes.MAX_ROWS]:
            what, role, before, after, left = changes.series_cells(row)
            shown = f"**{cell(left)}**" if row.departed is not None else cell(left)
            lines.append(f"| {code_cell(what)} | {cell(role)} | {cell(before)} | {cell(after)} | {shown} |")
    return "\n".join(lines)


def _chain(report: Report, rows: int | None, start: float | None, absolute: bool = False) -> str:
    table = _chain_table(report.chain, rows, start, absolute)
    legend = chain_legend(report, absolute)  # masked file names: the one legend at the end (_legend)
    return f"### {chain_title(report)}\n\n_{escape(legend)}._\n\n" + table


def _chain_table(chain: tuple[Event, ...], rows: int | None, start: float | None, absolute: bool) -> str:
    when = "time (UTC)" if absolute else "Δt"
    table = [f"| # | {when} | role | where | pattern | line |", "| ---: | ---: | --- | --- | --- | --- |"]
    shown = chain if rows is None else chain[:rows]
    for number, event in enumerate(shown, 1):
        pattern = folded_pattern(event)
        cells = (
            str(number),
            chain_time(event, start, absolute),
            event.role.value,
            code_cell(event.where),
            pattern,
            code_cell(event.text),
        )
        table.append("| " + " | ".join(cells) + " |")
    if len(shown) < len(chain):
        table.append(f"\n_{len(chain) - len(shown)} later chain rows left out._")
    return "\n".join(table)


def _metrics(report: Report) -> str:
    """The servers' metrics series, with the numbers the HTML charts and the JSON report give
    (charts.rows), when a gate failed or a bottleneck shows."""
    performance = report.performance
    found = charts.rows(performance)
    if performance is None or not found or (performance.gate is None and not performance.finding):
        return ""
    table = ["| what | series | lines | low | mean | peak | last |", "| --- | --- | ---: | ---: | ---: | ---: | ---: |"]
    for row in found:
        values = (row.low, row.mean, row.high, row.last)
        cells = (escape(row.title), code_cell(row.label), str(row.count), *map(charts.number, values))
        table.append("| " + " | ".join(cells) + " |")
    return "### Metrics read\n\n" + "\n".join(table)


def _excerpt(windows: tuple[ExcerptWindow, ...], context: int) -> str:
    lines: list[str] = []
    for window in windows:
        kept = [x for x in window.lines if x.distance <= context]
        if not kept:
            continue
        lines.append(f"--- {window.source}")
        # Cut only now, after redaction saw the whole line: a secret across the cut was masked whole.
        lines += [f"{'>' if x.distance == 0 else ' '} {x.line:>7} | {_shown_line(x.text)}" for x in kept]
    count = sum(1 for line in lines if not line.startswith("--- "))
    shown = min(context, max((x.distance for window in windows for x in window.lines), default=0))
    summary = f"Evidence excerpt ({count} lines, the lines to read marked &gt;, ±{shown} lines of context)"
    return f"<details>\n<summary>{summary}</summary>\n\n{fence(chr(10).join(lines), 'text')}\n\n</details>"


def _shown_line(text: str) -> str:
    return text if len(text) <= SHOWN_LINE_CHARS else text[:SHOWN_LINE_CHARS] + "…"


SHOWN_UNRECOGNISED = 5


def _unrecognised(report: Report) -> str:
    rows = ["| where | role | severity | count | position | line |", "| --- | --- | --- | ---: | --- | --- |"]
    for item in report.unrecognised[:SHOWN_UNRECOGNISED]:
        cells = (
            code_cell(item.first.where),
            "/".join(role.value for role in item.roles),
            item.severity.value,
            str(item.count),
            position_label(item) or "after",
            code_cell(item.first.text.strip()),
        )
        rows.append("| " + " | ".join(cells) + " |")
    hidden = len(report.unrecognised) - SHOWN_UNRECOGNISED
    if hidden > 0:
        rows.append(f"\n_{hidden} more templates; `--format json` lists them._")
    kind = unrecognised_kind(report)
    head = f"### Unrecognised {kind}\n\n{kind[:-1].capitalize()} lines no pattern names, the one to read first first."
    return head + "\n\n" + "\n".join(rows)


def _log_ends(report: Report) -> str:
    rows = ["| where | last lines |", "| --- | --- |"]
    rows += [f"| {code_cell(f'{line.source}:{line.line}')} | {code_cell(line.text)} |" for line in end_lines(report)]
    head = "### Where the logs end\n\nThe last lines of each log, its last line last; nothing after it was given."
    return head + "\n\n" + "\n".join(rows)


def _results_read(report: Report) -> str:
    rows = ["| where | line |", "| --- | --- |"]
    rows += [f"| {code_cell(f'{line.source}:{line.line}')} | {code_cell(line.text)} |" for line in report.results_read]
    return f"### Results read\n\n{RESULTS_READ_NOTE}\n\n" + "\n".join(rows)


def _alternatives(report: Report, quotes: list[str]) -> str:
    rows = ["| verdict | confidence | why not |", "| --- | ---: | --- |"]
    for alt in report.alternatives:
        rows.append(f"| `{alt.id}` | {alt.confidence:.2f} | {quoted_cell(alt.why_not, quotes)} |")
    return "### Alternatives considered\n\n" + "\n".join(rows)


def _inputs(report: Report, quotes: list[str]) -> str:
    rows = ["| file | role | lines | bytes | problems |", "| --- | --- | ---: | ---: | --- |"]
    shown, hidden = inputs_to_show(report)
    if hidden:
        rows.append(f"| _{hidden} more inputs with no chain line and no problem_ | | | | |")
    for source in shown:
        problems = "; ".join(f"{p.code}: {p.message}" for p in source.problems)
        numbers = f"{source.lines:,} | {source.bytes:,}"
        rows.append(f"| {code_cell(source.name)} | {source.role.value} | {numbers} | {quoted_cell(problems, quotes)} |")
    return "<details>\n<summary>Inputs</summary>\n\n" + "\n".join(rows) + "\n\n</details>"


def _footer(stable_id: str, trimmed: list[str]) -> str:
    lines = [f"<sub>fingerprint: `{stable_id}` · pdlogdoctor {__version__}</sub>"]
    if trimmed:
        lines.insert(0, f"_{TRIM_NOTE}left out {', '.join(trimmed)}._\n")
    return "\n".join(lines)


# ---------------------------------------------------------------- log text in prose


def escape(text: str) -> str:
    """Prose that renders as itself (kept for callers of the old name)."""
    return prose(text)


def _log_text(report: Report) -> list[str]:
    """What the tool's sentences may quote: the chain's lines, their captured values, file names."""
    events = (*report.chain, *report.roots)
    texts = [e.text for e in events] + [e.where for e in events] + [s.name for s in report.inputs]
    texts += [str(value) for e in events for _, value in e.fields if isinstance(value, str)]
    return texts


_PLACEHOLDER = lazy_re(r"<[a-z][a-z0-9-]*-\d+>")  # a masked value: <kind-n> (redact.Redactor.placeholder)
_PLACEHOLDER_KINDS = {
    "host": "host names",
    "ip": "IP addresses",
    "home": "home directories",
    "pod": "Kubernetes pod names",
    "email": "e-mail addresses",
}


def masked_names(report: Report) -> list[tuple[str, list[str]]]:
    """The placeholders that stand for parts of file names (a node's name in `prefill_<host-1>.log`),
    grouped by what they mask: [("host names", ["<host-1>", "<host-2>"]), ...]. The markdown's and
    the HTML page's legends both say them."""
    names = {s.name for s in report.inputs} | {e.source for e in report.chain}
    names |= {s.node for s in report.inputs if s.node}
    found = sorted({m.group(0) for name in names for m in _PLACEHOLDER.finditer(name)}, key=_placeholder_order)
    kinds: dict[str, list[str]] = {}
    for placeholder in found:
        kinds.setdefault(placeholder[1:].rsplit("-", 1)[0], []).append(placeholder)
    return [(_PLACEHOLDER_KINDS.get(kind, "masked values"), group) for kind, group in kinds.items()]


def _legend(report: Report) -> str:
    """Which placeholders stand for parts of file names: the reader sees `prefill_<host-1>.log`
    in the chain, the excerpt and the annotations alike, and can map it back on their own machine."""
    groups = masked_names(report)
    if not groups:
        return ""
    parts = [f"{', '.join(code_span(p) for p in group)} ({words})" for words, group in groups]
    return (
        "<sub>Masked in file names: " + "; ".join(parts) + ". The same placeholder stands for the same value "
        "everywhere in this report; `--no-redact` shows the real names (do not post that output).</sub>"
    )


def _placeholder_order(placeholder: str) -> tuple[str, int]:
    kind, number = placeholder[1:-1].rsplit("-", 1)
    return kind, int(number)


def _other_incident(finding: Finding) -> str:
    verdict = finding.verdict
    head = (
        f"### Other incident: `{verdict.id}` (confidence {verdict.confidence:.2f})\n\n"
        f"{escape(verdict.summary)}\n\n_{escape(finding.why_separate)}_"
    )
    return head + "\n\n" + _chain_table(finding.chain, None, None, absolute=True)
