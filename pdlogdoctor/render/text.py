"""The terminal report: what went wrong and the fix on the first screen, then the evidence.

Plain lines, wrapped to `options.width`, with ANSI colour only when `options.color`
(the CLI turns it on for a terminal, never for a pipe unless asked): no box drawing,
so the same text reads right in a terminal, `less`, a CI log or a pasted issue.
Prose is re-wrapped (its hard newlines are the source's, not the reader's); quoted
log lines are clipped to one line unless `options.verbose`. Order: verdict,
summary, fix, then facts, arithmetic, chain, alternatives, missing evidence and
(when something is wrong with them, or verbose) the inputs.
"""

from __future__ import annotations

import textwrap
from collections import Counter
from collections.abc import Iterable
from typing import TextIO

import regex

from ..library.templates import message_of
from ..model import Comparison, Report, Source
from ..model.counts import count_of
from ..model.verdicts import HEALTHY, INCONCLUSIVE, NO_FAILURE_SEEN
from ..reason import confidence
from ..reason.fingerprint import fingerprint
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
from .fixes import LETTERS, Fix, command_text, confidence_words, fixes, verify_first
from .inputs import inputs_to_show
from .neutralise import shown
from .options import PLAIN, RenderOptions
from .outbound import passed_out

ANSI = {
    "bold": "1",
    "dim": "2",
    "red": "31",
    "green": "32",
    "yellow": "33",
    "cyan": "36",
}
VERDICT_COLOUR = {HEALTHY: "green", INCONCLUSIVE: "yellow", NO_FAILURE_SEEN: "yellow"}
# Inputs left out on purpose, not bad ones: they do not make the inputs table worth showing.
QUIET_PROBLEMS = frozenset({"not-a-log", "duplicate-skipped"})  # ingest.NOT_A_LOG, duplicates.DUPLICATE_CODE
MIN_WIDTH = 40
DELTA_COLUMNS = (1, 34, 16, 24, 24, 0)  # mark, what, role, last green, this run, change (caps; 0: never clipped)
ERROR_COLUMNS = (1, 64, 10, 8, 6, 0)  # mark, what, last green, this run, change, first seen
SERIES_COLUMNS = (1, 34, 8, 28, 28, 0)  # mark, metric, role, last green, this run, when it left the range


class Page:
    """Lines of the report, wrapped to a width, styled only when colour is on."""

    def __init__(self, options: RenderOptions) -> None:
        self.width = max(MIN_WIDTH, options.width)
        self.color = options.color
        self.lines: list[str] = []

    def style(self, text: str, *styles: str) -> str:
        codes = ";".join(ANSI[s] for s in styles if s)
        return f"\x1b[{codes}m{text}\x1b[0m" if self.color and codes and text else text

    def add(self, text: str = "", *styles: str) -> None:
        self.lines.append(self.style(text, *styles))

    def prose(self, text: str, indent: int = 0, *styles: str, first: str = "") -> None:
        """Paragraphs re-wrapped to the width; `first` starts the first line (a label, a bullet).
        A label wider than half the page (a long path) gets a line of its own, the text below
        it: hung after it, the text would wrap a word per line."""
        pad = " " * indent
        if len(pad + first) > self.width // 2:
            self.add(pad + first.rstrip(), *styles)
            pad, first = pad + "  ", ""
        for number, paragraph in enumerate(_paragraphs(text)):
            lead = pad + first if number == 0 else pad + " " * len(first)
            wrapped = textwrap.wrap(
                paragraph,
                self.width,
                initial_indent=lead,
                subsequent_indent=pad + " " * len(first),
                break_long_words=False,
                break_on_hyphens=False,
            )
            for line in wrapped or [lead]:
                self.add(line, *styles)

    def heading(self, text: str) -> None:
        """A heading, wrapped as prose is (`Unrecognised errors (...)` ran past 60 columns)."""
        self.add()
        for line in textwrap.wrap(text, self.width, break_long_words=False, break_on_hyphens=False) or [text]:
            self.add(line, "bold")

    def clip(self, text: str, indent: int, verbose: bool) -> str:
        room = self.width - indent
        return text if verbose or len(text) <= room else text[: max(10, room - 1)] + "…"


def _paragraphs(text: str) -> list[str]:
    """Blank lines separate paragraphs; single newlines inside one are the source's line breaks."""
    return [" ".join(block.split()) for block in regex.split(r"\n\s*\n", text.strip()) if block.strip()]


def render(report: Report, out: TextIO, options: RenderOptions = PLAIN) -> None:
    """Never redacted (`options.redact` is ignored): the operator's own terminal. Every string from
    the logs is shown safely first (outbound.py): no escape sequence from a log reaches the terminal."""
    stable_id = fingerprint(report)  # of the report as read, as every format gives it
    report = passed_out(report, redacted=False)
    page = Page(options)
    if options.changes_first:
        _changes(page, report)
        page.add()
    _verdict(page, report, stable_id)
    if options.verbose and report.verdict.reasons:
        page.prose(f"confidence {report.verdict.confidence:.2f} = {confidence.words(report.verdict.reasons)}", 2, "dim")
        for step in report.verdict.reasons:
            page.prose(f"{step.name}: {step.why}", 4, "dim")
    if not options.changes_first:
        _changes(page, report)
    _fix(page, report)
    _clocks(page, report)
    _facts(page, report)
    _known(page, report)
    _arithmetic(page, report)
    _chain(page, report, options)
    _metrics(page, report)
    _unrecognised(page, report, options.verbose)
    _log_ends(page, report, options.verbose)
    _results_read(page, report, options.verbose)
    _alternatives(page, report)
    _other_incidents(page, report, options)
    _missing(page, report)
    _inputs(page, report, options.verbose)
    out.write("\n".join(page.lines) + "\n")


def quiet_line(report: Report) -> str:
    """`--quiet`: verdict, confidence, fingerprint and the first fix, space-separated on one line;
    an answer from partial evidence ends with `# incomplete: why`, a shell comment, so the first
    three fields and the fix (eval'd or pasted) stay what they were."""
    confidence = "-" if report.verdict.id == INCONCLUSIVE else f"{report.verdict.confidence:.2f}"
    commands = [command_text(item) for item in report.suggestions]
    fix = next((command for command in commands if command), "-")
    partial = f" # incomplete: {incomplete_reason(report)}" if report.incomplete else ""
    return shown(f"{report.verdict.id} {confidence} {fingerprint(report)} {fix}{partial}")


# ---------------------------------------------------------------- sections


def _verdict(page: Page, report: Report, stable_id: str) -> None:
    verdict = report.verdict
    colour = VERDICT_COLOUR.get(verdict.id, "red")
    page.prose(verdict.title, 0, "bold", colour)
    page.prose(f"{verdict.id} · {confidence_words(report)} · fingerprint {stable_id}", 0, "dim")
    page.add()
    page.prose(verdict.summary)
    for match in report.team:
        page.prose(f"{match.link}" + (f" ({match.title})" if match.title else ""), 0, "bold", first="This is ")
    for note in report.notes:
        page.prose(note, 0, "yellow", first="Note: ")


def _fix(page: Page, report: Report) -> None:
    shown = fixes(report)
    if not shown and (not report.advice or report.verdict.id == HEALTHY):
        return
    title = "What to do" if not shown else "Fix" if len(shown) == 1 else f"Fix: {len(shown)} alternatives, pick one"
    page.heading(title)
    if report.advice:
        page.prose(report.advice, 2)
    doubt = verify_first(report)
    if doubt:
        page.prose(doubt, 2, "yellow", first="verify first: ")
    for letter, fix in zip(LETTERS, shown, strict=False):
        _one_fix(page, f"{letter}." if len(shown) > 1 else "-", fix)


def _changes(page: Page, report: Report) -> None:
    """GOOD and BAD side by side. `!` marks a change bearing on the verdict, `*` any other change
    (BAD's value in colour too); unmarked rows were logged by one run only."""
    comparison = report.comparison
    if comparison is None:
        return
    page.heading(changes.TITLE)
    warning = changes.baseline_warning(comparison)
    if warning:
        page.prose(warning, 2, "bold", "yellow", first="! ")
    page.prose(changes.baseline_line(comparison), 2, "dim")
    page.prose(changes.headline(comparison), 2)
    if comparison.deltas:
        _delta_rows(page, comparison)
    if comparison.errors:
        _error_rows(page, comparison)
    if comparison.series:
        _series_rows(page, comparison)
    if comparison.deltas or comparison.errors or comparison.series:
        page.add()
        page.prose(CHANGE_LEGEND, 0, "dim", first="Marks: ")


# What the tables' first column says (the review: `!` and `*` had no legend).
CHANGE_LEGEND = (
    "! a change that bears on the verdict (an error line: new, or more often; a series: it left the "
    "green range); * another change; unmarked: a value one run only logged, an error line no worse"
)


def _series_rows(page: Page, comparison: Comparison) -> None:
    """The metrics series of both runs, the one that left the green range first at the top."""
    rows: list[tuple[str, ...]] = [("", *changes.SERIES_HEAD)]
    styles: list[tuple[str, ...]] = [("dim",)]
    for row in comparison.series[: changes.MAX_ROWS]:
        moved = row.departed is not None
        rows.append(("!" if moved else " ", *changes.series_cells(row)))
        styles.append(("bold", "red") if moved else ("dim",))
    page.add()
    _table(page, rows, styles, SERIES_COLUMNS, highlight=4)


def _delta_rows(page: Page, comparison: Comparison) -> None:
    rows: list[tuple[str, ...]] = [("", "what", "role", "last green", "this run", "change")]
    styles: list[tuple[str, ...]] = [("dim",)]
    for delta in comparison.deltas[: changes.MAX_ROWS]:
        mark = "!" if delta.bears and delta.relevant else "*" if delta.relevant else " "
        rows.append((mark, *changes.delta_cells(delta)))
        styles.append(("bold", "red") if mark == "!" else ("bold", "yellow") if mark == "*" else ("dim",))
    page.add()
    _table(page, rows, styles, DELTA_COLUMNS, highlight=4)
    hidden = len(comparison.deltas) - changes.MAX_ROWS
    if hidden > 0:
        page.add(f"  {hidden} more changes; --format json lists all", "dim")


def _error_rows(page: Page, comparison: Comparison) -> None:
    rows: list[tuple[str, ...]] = [
        ("", "error lines, earliest first", "last green", "this run", "change", "first seen")
    ]
    styles: list[tuple[str, ...]] = [("dim",)]
    for error in comparison.errors[: changes.MAX_ROWS]:
        what, before, after, change, first = changes.error_cells(error)
        worse = change in ("new", "more")
        rows.append(("!" if worse else " ", what, before, after, change, first))
        styles.append(("bold", "red") if worse else ("green",))
    page.add()
    _table(page, rows, styles, ERROR_COLUMNS, highlight=3)


def _table(
    page: Page, rows: list[tuple[str, ...]], styles: list[tuple[str, ...]], caps: tuple[int, ...], highlight: int
) -> None:
    """Columns padded to their widest cell, at most `caps` wide, fitted to the page (COLUMNS). The
    last column (a change's words, a file:line) is never clipped: wrapped in its place, or, when the
    page is too narrow for it beside the others, on lines of its own under the row. The others are
    clipped, the widest first, only when they do not fit even alone. The cell at `highlight` (BAD's
    value) takes the row's style."""
    tails = (highlight - 1, highlight)  # GOOD's and BAD's values
    widths = [min(cap, max(len(row[column]) for row in rows)) for column, cap in enumerate(caps)]
    last = max(len(row[-1]) for row in rows)
    beside = sum(widths[:-1]) + len(GAP) * (len(widths) - 1)
    below = beside + min(last, MIN_LAST) > page.width  # the last cell goes under the row
    widths = _narrowed(widths[:-1], page.width)
    start = widths[0] + len(GAP) if below else beside
    room = max(MIN_LAST, page.width - start)
    for number, (row, style) in enumerate(zip(rows, styles, strict=True)):
        cells = [
            _fit(cell, width, column in tails).ljust(width)
            for column, (cell, width) in enumerate(zip(row[:-1], widths, strict=True))
        ]
        if number and page.color:
            cells[highlight] = page.style(cells[highlight], *style)
        lines = _wrapped(row[-1], room)
        first = "" if below or len(lines[0]) > room else lines.pop(0)
        page.add(GAP.join([*cells, first]).rstrip(), *(("dim",) if number == 0 else ()))
        for rest in lines:  # under the column; a word longer than it, as far right as the page allows
            indent = start if len(rest) <= room else max(len(GAP), page.width - len(rest))
            page.add(" " * indent + rest, *(("dim",) if number == 0 else ()))


GAP = "  "
MIN_CELL = 8  # a clipped column keeps this much (`max_tot…`), its header too
MIN_LAST = 24  # the last column beside the others keeps this much, else it goes under the row


def _narrowed(widths: list[int], page_width: int) -> list[int]:
    """`widths` made to fit `page_width`: the widest column (never the first, a one-character mark)
    one character at a time, down to MIN_CELL."""
    widths = list(widths)
    fixed = len(GAP) * (len(widths) - 1)
    while fixed + sum(widths) > page_width and len(widths) > 1:
        column = max(range(1, len(widths)), key=lambda c: widths[c])
        if widths[column] <= MIN_CELL:
            break  # narrower than any table can be read: the lines run past the edge
        widths[column] -= 1
    return widths


def _wrapped(text: str, width: int) -> list[str]:
    """The last cell in lines of `width`, its words (a path, a file:line) never broken."""
    return textwrap.wrap(text, width, break_long_words=False, break_on_hyphens=False) or [""]


def _fit(text: str, width: int, tail: bool = False) -> str:
    """Clipped to `width`; a value column keeps its end (image tags and versions differ there)."""
    if len(text) <= width:
        return text
    return "…" + text[len(text) - width + 1 :] if tail else text[: max(1, width - 1)] + "…"


def _one_fix(page: Page, marker: str, fix: Fix) -> None:
    where = f", on the {fix.applies}" if fix.applies else ""
    page.prose(fix.label + where, 2, "bold", first=f"{marker} ")
    indent = 2 + len(marker) + 1
    for line in fix.snippet:
        page.add(" " * (indent + 2) + line, "cyan")
    page.prose(fix.reason, indent, "dim")


def _clocks(page: Page, report: Report) -> None:
    _bullets(page, "Clocks", report.time_notes)


def _bullets(page: Page, title: str, items: tuple[str, ...]) -> None:
    if not items:
        return
    page.heading(title)
    for item in items:
        page.prose(item, 2, first="- ")


def _facts(page: Page, report: Report) -> None:
    if not report.verdict.facts:
        return
    page.heading("Facts")
    for key, value in report.verdict.facts:
        page.prose(fact_text(value), 2, first=f"{key.replace('_', ' ')}: ")


def _known(page: Page, report: Report) -> None:
    """The upstream problems this failure is known as, read against the versions the logs show."""
    if report.known:
        page.heading("Known upstream")
        for issue in report.known:
            page.prose(issue.title, 2, first="- ")
            page.prose(issue.sentence, 4, "dim")
            if issue.workaround:
                page.prose(issue.workaround, 4, first="workaround: ")
    if report.versions:
        page.heading("Versions in these logs")
        names = short_names(source.name for source in report.inputs)
        for version in report.versions:
            source, _, line = version.where.rpartition(":")
            page.prose(
                f"{version.version} ({version.how}, {names.get(source, source)}:{line})",
                2,
                first=f"{version.component} ",
            )


def _arithmetic(page: Page, report: Report) -> None:
    shown = [fix for fix in fixes(report) if fix.arithmetic or fix.lines_used]
    if not shown:
        return
    page.heading("How the values were computed")
    lettered = len(report.suggestions) > 1
    for letter, fix in zip(LETTERS, fixes(report), strict=False):
        if not (fix.arithmetic or fix.lines_used):
            continue
        page.prose(fix.label, 2, first=f"{letter}. " if lettered else "")
        for step in fix.arithmetic:
            page.prose(step, 5)
        for where in _short_wheres(report, fix.lines_used):
            page.prose(where, 5, "dim", first="from ")


def _short_wheres(report: Report, wheres: tuple[str, ...]) -> list[str]:
    """`file:line` references with the files named as the chain names them."""
    names = short_names(source.name for source in report.inputs)
    shown = []
    for where in wheres:
        source, _, line = where.rpartition(":")
        shown.append(f"{names.get(source, source)}:{line}")
    return shown


def _chain(page: Page, report: Report, options: RenderOptions) -> None:
    if not report.chain:
        return
    page.heading(chain_title(report))
    start = chain_start(report)
    names = short_names(source.name for source in report.inputs)
    column = 21 if options.abs_time else 8
    for event in report.chain:
        when = chain_time(event, start, options.abs_time)
        head = f"{when:>{column}}  {event.role.value:<8} {names[event.source]}:{event.line}"
        _chain_row(page, head, folded_pattern(event))
        page.add(" " * 10 + page.clip(log_message(event.text), 10, options.verbose), "dim")
    page.prose(chain_legend(report, options.abs_time), 2, "dim")


def _chain_row(page: Page, head: str, pattern: str) -> None:
    """When, who, where, then the pattern: beside them when the page is wide enough, else under them."""
    if len(head) + 2 + len(pattern) <= page.width:
        page.add(head + "  " + page.style(pattern, "bold"))
    else:
        page.add(head)
        page.add(" " * 10 + pattern, "bold")


def _metrics(page: Page, report: Report) -> None:
    """The servers' metrics series, as the HTML charts and the JSON report's `performance` give
    them (charts.rows: one count, one rounding): in full when a gate failed or a bottleneck shows,
    else one line saying how much was read."""
    performance = report.performance
    found = charts.rows(performance)
    if performance is None or not found:
        return
    if performance.gate is None and not performance.finding:
        files = len({s.source for s in performance.series})
        read = f"Metrics read: {len(performance.series)} series from {files} files"
        page.add()
        page.prose(f"{read} (--format json or html shows them)", 0, "dim")  # wrapped to COLUMNS
        return
    page.heading("Metrics read (the charts of the HTML report)")
    table: list[tuple[str, ...]] = [("what", "series", "lines", "low", "mean", "peak", "last")]
    table += [(r.title, r.label, str(r.count), *map(charts.number, (r.low, r.mean, r.high, r.last))) for r in found]
    widths = [max(len(row[column]) for row in table) for column in range(len(table[0]))]
    for number, row in enumerate(table):
        cells = [
            cell.ljust(width) if column < 2 else cell.rjust(width)
            for column, (cell, width) in enumerate(zip(row, widths, strict=True))
        ]
        page.add("  " + "  ".join(cells).rstrip(), *(("dim",) if number == 0 else ()))


def _other_incidents(page: Page, report: Report, options: RenderOptions) -> None:
    """Each separate incident: its verdict, why it stands apart, and its own chain in UTC."""
    names = short_names(source.name for source in report.inputs)
    for finding in report.other_incidents:
        verdict = finding.verdict
        page.heading(f"Other incident: {verdict.id} ({verdict.title}, confidence {verdict.confidence:.2f})")
        page.prose(verdict.summary, 2)
        page.prose(finding.why_separate, 2, "dim")
        for event in finding.chain:
            head = f"{chain_time(event, None, True):>21}  {event.role.value:<8} {names[event.source]}:{event.line}"
            _chain_row(page, head, folded_pattern(event))
            page.add(" " * 10 + page.clip(log_message(event.text), 10, options.verbose), "dim")


def _floors(report: Report) -> bool:
    return any(event.at_least for event in report.chain)


def chain_title(report: Report) -> str:
    if report.verdict.id == HEALTHY:
        return "Evidence that the deployment served, in time order"
    if report.verdict.id == INCONCLUSIVE:
        return "Failure evidence, in time order (no cause identified)"
    return "Causal chain, in time order (causes first within a second)"


def chain_legend(report: Report, absolute: bool = False) -> str:
    if absolute:
        parts = ["times in UTC on the reference clock"]
    else:
        parts = ["times from the root cause" if report.roots else "times from the first line"]
    if any(event.time_inferred for event in report.chain):
        parts.append("~ = inferred from the lines around it")
    if any(count_of([event]).folded for event in report.chain):
        parts.append("(xN) = N such lines in the file" + ("; N+: at least N" if _floors(report) else ""))
    if any(event.time is None for event in report.chain):
        parts.append("? = no timestamp")
    return "; ".join(parts)


def short_names(sources: Iterable[str]) -> dict[str, str]:
    """Each source by the fewest trailing path parts that tell it from the others
    (two `server.log` under `prefill-0/` and `decode-0/` stay apart). Linear in the inputs."""
    parts = {name: regex.split(r"[/!]", name) for name in set(sources)}
    shown: dict[str, str] = {}
    depth = 1
    while len(shown) < len(parts):
        tails = Counter(tuple(split[-depth:]) for split in parts.values())
        for name, split in parts.items():
            if name not in shown and (tails[tuple(split[-depth:])] == 1 or depth >= len(split)):
                shown[name] = "/".join(split[-depth:])
        depth += 1
    return shown


def log_message(text: str) -> str:
    """The line without its prefix (the time column already says when): the catalogue of line
    formats reads it (library/formats.py)."""
    return message_of(text)


SHOWN_UNRECOGNISED = 5


def _unrecognised(page: Page, report: Report, verbose: bool) -> None:
    """The top error templates no pattern names: where each first appeared, and its line."""
    if not report.unrecognised:
        return
    page.heading(f"Unrecognised {unrecognised_kind(report)} (no pattern names them; the one to read first is first)")
    names = short_names(source.name for source in report.inputs)
    for item in report.unrecognised[:SHOWN_UNRECOGNISED]:
        tags = " · ".join(tag for tag in (item.severity.value, f"x{item.count}", position_label(item)) if tag)
        roles = "/".join(role.value for role in item.roles)
        page.add(
            f"  {names.get(item.first.source, item.first.source)}:{item.first.line}  {roles}  "
            + page.style(tags, "bold")
        )
        page.add(" " * 10 + page.clip(log_message(item.first.text), 10, verbose), "dim")
    hidden = len(report.unrecognised) - SHOWN_UNRECOGNISED
    if hidden > 0:
        page.add(f"  and {hidden} more templates (--format json lists them)", "dim")


def _log_ends(page: Page, report: Report, verbose: bool) -> None:
    """Where each log stops, when nothing in it failed: what the server was doing last."""
    if not report.log_ends:
        return
    page.heading("Where the logs end (the last lines of each, its last line last; nothing after it was given)")
    names = short_names(source.name for source in report.inputs)
    for line in end_lines(report):
        page.add(f"  {names.get(line.source, line.source)}:{line.line}")
        page.add(" " * 10 + page.clip(log_message(line.text), 10, verbose), "dim")


def _results_read(page: Page, report: Report, verbose: bool) -> None:
    """The lines that state results, when nothing failed: the numbers the report looked at."""
    if not report.results_read:
        return
    page.heading("Results read")
    page.prose(RESULTS_READ_NOTE, 2, "dim")
    names = short_names(source.name for source in report.inputs)
    for line in report.results_read:
        page.add(f"  {names.get(line.source, line.source)}:{line.line}")
        page.add(" " * 10 + page.clip(line.text, 10, verbose), "dim")


def _alternatives(page: Page, report: Report) -> None:
    if not report.alternatives:
        return
    page.heading("Alternatives considered")
    for alt in report.alternatives:
        page.add(f"  {alt.id} ({alt.confidence:.2f})")
        page.prose(alt.why_not or "no reason recorded", 4, "dim")


def _missing(page: Page, report: Report) -> None:
    _bullets(page, "Missing evidence", report.missing)


def _inputs(page: Page, report: Report, verbose: bool) -> None:
    if not verbose and not any(_telling(s) for s in report.inputs):
        return
    shown, hidden = inputs_to_show(report, limit=len(report.inputs) if verbose else 10)
    if not verbose:
        shown = [s for s in shown if _telling(s)]
        hidden = len(report.inputs) - len(shown)
    page.heading("Inputs" if verbose else "Inputs with problems")
    names = short_names(s.name for s in report.inputs) if not verbose else {s.name: s.name for s in report.inputs}
    for source in shown:
        role = f"{source.role.value} ({source.role_reason})" if verbose else source.role.value
        page.prose(f"{role}, {source.lines:,} lines", 4, first=f"{names[source.name]}: ")
        for problem in source.problems:
            page.prose(problem.message, 6, "yellow", first=f"{problem.code}: ")
    if hidden:
        page.add(f"  {hidden:,} more inputs read without problems; --verbose lists them", "dim")


def _telling(source: Source) -> bool:
    return any(p.code not in QUIET_PROBLEMS for p in source.problems)
