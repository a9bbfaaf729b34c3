"""Markdown: an issue-ready body, always under GitHub's 65,536-character limit.

Verdict and confidence first, then the fix as a copyable sh block, the chain
as a table, the evidence excerpt in <details>, the alternatives and the
fingerprint. When the body would be too long, the least important parts go
first (excerpt context, then alternatives, then chain rows) and the body says so.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TextIO

from .. import __version__
from ..fingerprint import fingerprint
from ..model import Comparison, ExcerptWindow, Report, Suggestion
from ..redact import redact_report, redactor_for
from . import changes
from .document import chain_start, chain_time, fact_text
from .fixes import LETTERS, confidence_words, fixes, snippet, verify_first
from .inputs import inputs_to_show
from .mermaid import mermaid_chain
from .options import RenderOptions
from .text import chain_legend, chain_title

GITHUB_BODY_LIMIT = 65_536
CELL_CHARS = 300
TRIM_NOTE = "Trimmed to fit GitHub's 65,536-character limit: "


@dataclass(frozen=True, slots=True)
class Budget:
    """How much of each part to show; `trim_levels` walks from generous to minimal."""

    context: int = 1 << 30  # lines of context around each chain line: all the report carries
    alternatives: bool = True
    chain_rows: int | None = None  # None: all
    excerpt: bool = True
    diagram: bool = True  # the Mermaid chain: the first thing left out when the body is too long


def render(report: Report, out: TextIO, options: RenderOptions) -> None:
    out.write(markdown_report(report, options))


@dataclass(frozen=True, slots=True)
class ShareableView:
    """What a shareable format shows: the report (its excerpt included), redacted, and the fingerprint."""

    report: Report
    fingerprint: str


def shareable_view(report: Report, options: RenderOptions) -> ShareableView:
    stable_id = fingerprint(report)  # from the unredacted report: redaction must not change it
    if options.redact:
        report = redact_report(report, redactor_for(report))  # the excerpt too: it is part of the report
    return ShareableView(report, stable_id)


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
    parts = [_head(report, stable_id)]
    if report.suggestions:
        parts.append(_suggestions(report))  # the fix right under the verdict, before any picture
    diagram = mermaid_chain(report) if budget.diagram else None
    if diagram:
        parts.append(fence(diagram, "mermaid"))
    if report.verdict.facts:
        parts.append(_facts(report))
    if report.comparison is not None:
        parts.append(_changes(report.comparison))
    if report.time_notes:
        parts.append("### Clocks\n\n" + "\n".join(f"- {escape(note)}" for note in report.time_notes))
    if report.chain:
        parts.append(_chain(report, budget.chain_rows, chain_start(report), absolute))
    if report.excerpt and budget.excerpt:
        parts.append(_excerpt(report.excerpt, budget.context))
    if report.alternatives and budget.alternatives:
        parts.append(_alternatives(report))
    if report.missing:
        parts.append("### Missing evidence\n\n" + "\n".join(f"- {escape(item)}" for item in report.missing))
    parts.append(_inputs(report))
    parts.append(_footer(stable_id, trimmed))
    return "\n\n".join(parts) + "\n"


# ---------------------------------------------------------------- sections


def _head(report: Report, stable_id: str) -> str:
    verdict = report.verdict
    lines = [
        f"## pdlogdoctor: {escape(verdict.title)}",
        "",
        f"**Verdict:** `{verdict.id}` · **{confidence_words(report)}** · fingerprint `{stable_id}`",
        "",
        escape(verdict.summary),
    ]
    if report.advice and verdict.id != "healthy":
        lines += ["", f"> {escape(' '.join(report.advice.split()))}"]
    return "\n".join(lines)


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
        rows.append(f"| {cell(key.replace('_', ' '))} | {cell(fact_text(value))} |")
    return "### Facts\n\n" + "\n".join(rows)


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
            what, roles, before, after, change = (cell(text) for text in changes.delta_cells(delta))
            after = f"**{after}**" if delta.relevant else after
            lines.append(f"| `{what}` | {roles} | {before} | {after} | {change} |")
        hidden = len(comparison.deltas) - changes.MAX_ROWS
        if hidden > 0:
            lines.append(f"\n_{hidden} more changes; `--format json` lists all._")
    if comparison.errors:
        lines += ["", "| error lines (earliest first) | last green | this run | change | first seen |"]
        lines.append("| --- | ---: | ---: | --- | --- |")
        for error in comparison.errors[: changes.MAX_ROWS]:
            what, before, after, change, first = changes.error_cells(error)
            lines.append(f"| {cell(what)} | {before} | {after} | {change} | {code_cell(first)} |")
    return "\n".join(lines)


def _chain(report: Report, rows: int | None, start: float | None, absolute: bool = False) -> str:
    chain = report.chain
    when = "time (UTC)" if absolute else "Δt"
    table = [f"| # | {when} | role | where | pattern | line |", "| ---: | ---: | --- | --- | --- | --- |"]
    shown = chain if rows is None else chain[:rows]
    for number, event in enumerate(shown, 1):
        pattern = f"{event.pattern} (x{event.repeats})" if event.repeats > 1 else event.pattern
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
    return f"### {chain_title(report)}\n\n_{escape(chain_legend(report, absolute))}._\n\n" + "\n".join(table)


def _excerpt(windows: tuple[ExcerptWindow, ...], context: int) -> str:
    lines: list[str] = []
    for window in windows:
        kept = [x for x in window.lines if x.distance <= context]
        if not kept:
            continue
        lines.append(f"--- {window.source}")
        lines += [f"{'>' if x.distance == 0 else ' '} {x.line:>7} | {x.text}" for x in kept]
    count = sum(1 for line in lines if not line.startswith("--- "))
    shown = min(context, max((x.distance for window in windows for x in window.lines), default=0))
    summary = f"Evidence excerpt ({count} lines, chain lines marked &gt;, ±{shown} lines of context)"
    return f"<details>\n<summary>{summary}</summary>\n\n{fence(chr(10).join(lines), 'text')}\n\n</details>"


def _alternatives(report: Report) -> str:
    rows = ["| verdict | confidence | why not |", "| --- | ---: | --- |"]
    for alt in report.alternatives:
        rows.append(f"| `{alt.id}` | {alt.confidence:.2f} | {cell(alt.why_not)} |")
    return "### Alternatives considered\n\n" + "\n".join(rows)


def _inputs(report: Report) -> str:
    rows = ["| file | role | lines | bytes | problems |", "| --- | --- | ---: | ---: | --- |"]
    shown, hidden = inputs_to_show(report)
    if hidden:
        rows.append(f"| _{hidden} more inputs with no chain line and no problem_ | | | | |")
    for source in shown:
        problems = "; ".join(f"{p.code}: {p.message}" for p in source.problems)
        numbers = f"{source.lines:,} | {source.bytes:,}"
        rows.append(f"| {code_cell(source.name)} | {source.role.value} | {numbers} | {cell(problems)} |")
    return "<details>\n<summary>Inputs</summary>\n\n" + "\n".join(rows) + "\n\n</details>"


def _footer(stable_id: str, trimmed: list[str]) -> str:
    lines = [f"<sub>fingerprint: `{stable_id}` · pdlogdoctor {__version__}</sub>"]
    if trimmed:
        lines.insert(0, f"_{TRIM_NOTE}left out {', '.join(trimmed)}._\n")
    return "\n".join(lines)


# ---------------------------------------------------------------- escaping


def escape(text: str) -> str:
    """Plain text in markdown: no HTML, no accidental emphasis or mentions."""
    text = text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    return text.replace("@", "@\u200b")  # no @mentions of people from log text


def cell(text: str, limit: int = CELL_CHARS) -> str:
    text = " ".join(text.split())
    text = text if len(text) <= limit else text[: limit - 1] + "…"
    return escape(text).replace("|", "\\|")


def code_cell(text: str, limit: int = CELL_CHARS) -> str:
    """A log line as inline code in a table cell (pipes escaped, backticks fenced)."""
    text = " ".join(text.split())
    text = text if len(text) <= limit else text[: limit - 1] + "…"
    ticks = "`" * (_longest_backtick_run(text) + 1)
    pad = " " if text.startswith("`") or text.endswith("`") else ""
    return f"{ticks}{pad}{text.replace('|', chr(92) + '|')}{pad}{ticks}"


def fence(body: str, info: str) -> str:
    ticks = "`" * max(3, _longest_backtick_run(body) + 1)
    return f"{ticks}{info}\n{body}\n{ticks}"


def _longest_backtick_run(text: str) -> int:
    longest = run = 0
    for char in text:
        run = run + 1 if char == "`" else 0
        longest = max(longest, run)
    return longest
