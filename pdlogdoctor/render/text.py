"""The terminal report: verdict first, then the fix, the chain as a timeline, the rivals."""

from __future__ import annotations

from typing import TextIO

import regex
from rich.console import Console, Group
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from ..model import Event, Report
from .document import chain_start, chain_time
from .inputs import inputs_to_show
from .options import PLAIN, RenderOptions

VERDICT_STYLE = {"healthy": "green", "inconclusive": "yellow", "no-failure-seen": "yellow"}
TEXT_WIDTH = 160


def render(report: Report, out: TextIO, options: RenderOptions = PLAIN) -> None:
    """Never redacted (only `abs_time` is read): the operator's own terminal."""
    absolute = options.abs_time
    console = Console(file=out, width=_width(out), highlight=False, soft_wrap=False)
    console.print(_verdict_panel(report))
    if report.suggestions:
        console.print(_suggestions(report))
    if report.time_notes:
        console.print(Text("Clocks", style="bold"))
        for note in report.time_notes:
            console.print(Text(f"  - {note}"))
    if report.chain:
        console.print(_chain(report, console.width, absolute))
    if report.alternatives:
        console.print(_alternatives(report))
    if report.missing:
        console.print(Text("Missing evidence", style="bold yellow"))
        for item in report.missing:
            console.print(Text(f"  - {item}"))
    console.print(_inputs(report))


def _width(out: TextIO) -> int:
    isatty = getattr(out, "isatty", lambda: False)()
    return Console(file=out).width if isatty else TEXT_WIDTH


def _verdict_panel(report: Report) -> Panel:
    verdict = report.verdict
    style = VERDICT_STYLE.get(verdict.id, "red")
    head = Text.assemble(
        (f"{verdict.id}", f"bold {style}"),
        f"  {verdict.title}  ",
        (f"confidence {verdict.confidence:.2f}", "dim"),
    )
    body: list[Text] = [head, Text(""), Text(verdict.summary)]
    if verdict.facts:
        body.append(Text(""))
        for key, value in verdict.facts:
            shown = f"{value:,}" if isinstance(value, int) else str(value)
            body.append(Text(f"  {key.replace('_', ' ')}: {shown}", style="dim"))
    if report.advice:
        body.extend([Text(""), Text(report.advice, style="italic")])
    return Panel(Group(*body), title="pdlogdoctor verdict", border_style=style)


def _suggestions(report: Report) -> Panel:
    parts: list[Text] = []
    for item in report.suggestions:
        shown = f"export {item.name}={item.value}" if item.kind == "env" else f"{item.name} {item.value}"
        parts.append(Text(shown, style="bold cyan"))
        parts.append(Text(f"  {item.reason}", style="dim"))
        parts.extend(Text(f"    {step}") for step in item.arithmetic)
        if item.lines_used:
            parts.append(Text(f"    from: {', '.join(item.lines_used)}", style="dim"))
    return Panel(Group(*parts), title="suggested fix", border_style="cyan")


def _chain(report: Report, width: int, absolute: bool = False) -> Group:
    """Each link on two lines: when, who, where and what; then the log message itself."""
    heading = "Causal chain (in time order, causes first within a second"
    heading += "; UTC on the reference clock)" if absolute else ")"
    lines: list[Text] = [Text(heading, style="bold")]
    start = chain_start(report)
    column = 21 if absolute else 8
    for event in report.chain:
        head = Text.assemble(
            (f"{chain_time(event, start, absolute):>{column}}  ", "dim"),
            (f"{event.role.value:<8} ", "magenta"),
            (f"{_short_where(event)}  ", "cyan"),
            (_pattern_cell(event), "bold"),
        )
        lines.append(head)
        lines.append(Text(" " * 10 + _clip(_message(event.text), width - 12), style="dim"))
    return Group(*lines)


# Timestamps and rank/level brackets at the start of a line: the Δt column already says when.
_LEADING_STAMP = regex.compile(
    r"^(?:\[[^\]]{0,40}\]\s*)+"  # sglang, uvicorn, MORI spdlog
    r"|^\d{4}-\d\d-\d\d[ T]\d\d:\d\d:\d\d\S*\s+(?:[A-Z]+\s+)?"  # router
    r"|^[IWEF]\d{4} [\d:.]+\s+\d+\s+(?:[\w.-]+:\d+\]\s*)?"  # glog, with its file:line]
)


# Rust tracing puts the span and the source location before the message.
_TRACING_PREFIX = regex.compile(r"^\S*\{.*?\}: .*?\.rs:\d+: ")


def _message(text: str) -> str:
    message = _LEADING_STAMP.sub("", text, count=1).strip()
    return _TRACING_PREFIX.sub("", message, count=1) or text.strip()


def _clip(text: str, width: int) -> str:
    return text if len(text) <= width else text[: max(10, width - 1)] + "…"


def _short_where(event: Event) -> str:
    """The file's own name and line; the inputs table gives full paths."""
    name = event.source.rsplit("!", 1)[-1].rsplit("/", 1)[-1]
    return f"{name}:{event.line}"


def _pattern_cell(event: Event) -> str:
    return f"{event.pattern} (x{event.repeats})" if event.repeats > 1 else event.pattern


def _alternatives(report: Report) -> Table:
    table = Table(title="Alternatives considered", title_justify="left")
    table.add_column("verdict")
    table.add_column("confidence")
    table.add_column("why not", overflow="fold")
    for alt in report.alternatives:
        table.add_row(Text(alt.id), Text(f"{alt.confidence:.2f}"), Text(alt.why_not))
    return table


def _inputs(report: Report) -> Table:
    table = Table(title="Inputs", title_justify="left")
    for column in ("file", "role", "lines", "bytes", "problems"):
        table.add_column(column, overflow="fold")
    shown, hidden = inputs_to_show(report)
    if hidden:
        table.caption = f"{hidden} more inputs not listed (no chain line, no problem); --format json lists all"
    for source in shown:
        problems = "; ".join(f"{p.code}: {p.message}" for p in source.problems)
        cells = (
            source.name,
            f"{source.role.value} ({source.role_reason})",
            f"{source.lines:,}",
            f"{source.bytes:,}",
            problems,
        )
        table.add_row(*(Text(cell) for cell in cells))
    return table
