"""`pdlogdoctor triage`: the runs' failures grouped, as text, JSON, markdown or HTML.

Every format shows the same things: one row per failure (fingerprint): its verdict, how many
runs had it, the first and the last, an example run, the known issue it is, and whether it is
flaky (comes and goes between green runs), new (since the last green run) or gone; then the
runs in order as a timeline. Markdown and HTML are meant to be shared: run names, paths and
summaries (log data) are redacted as the markdown report is; links of known issues are not.
"""

from __future__ import annotations

import html
import json
from typing import Any, TextIO

from .. import __version__
from ..model.moments import second_text
from ..model.triage import Group, RunRecord, Triage
from .document import thread_name
from .markup import cell, code_cell, code_span
from .options import RenderOptions

SCHEMA_VERSION = "1.0"
TIMELINE_RUNS = 60  # runs a text or markdown timeline shows (the latest); HTML shows all
MARK_FAIL, MARK_GREEN, MARK_OTHER, MARK_NONE = "x", "o", "-", "."


def flags(group: Group) -> str:
    words = [word for word, on in (("flaky", group.flaky), ("new", group.new), ("gone", group.gone)) if on]
    return ", ".join(words) or "-"


def _known_words(group: Group) -> str:
    return "; ".join(f"{thread_name(ref.link)} ({ref.words})" for ref in group.known) or "-"


def _when(moment: float | None) -> str | None:
    if moment is None:
        return None
    return second_text(int(moment)) + "Z"


def headline(triage: Triage, order: str) -> str:
    unreadable = sum(1 for run in triage.runs if not run.readable)
    counts = f"{len(triage.runs)} runs ({triage.green_runs} green" + (
        f", {unreadable} unreadable)" if unreadable else ")"
    )
    last = f"last green run: {triage.last_green}" if triage.last_green else "no green run"
    return f"{counts}, {len(triage.groups)} failures, in {order} order; {last}"


def timeline_rows(triage: Triage, limit: int | None) -> tuple[list[RunRecord], list[tuple[Group, str]]]:
    """The runs shown (the latest `limit`) and each group's strip over them: x it failed so, o a
    green run, - another outcome, . nothing readable."""
    runs = list(triage.runs[-limit:] if limit else triage.runs)
    rows = []
    for group in triage.groups:
        members = set(group.runs)
        marks = [
            MARK_FAIL if run.key in members else MARK_GREEN if run.green else MARK_OTHER if run.readable else MARK_NONE
            for run in runs
        ]
        rows.append((group, "".join(marks)))
    return runs, rows


# ---------------------------------------------------------------- text and JSON


def render_text(triage: Triage, order: str, out: TextIO) -> None:
    out.write(headline(triage, order) + "\n")
    if triage.groups:
        out.write("\n")
    for number, group in enumerate(triage.groups, 1):
        out.write(f"{number}. {group.verdict} x{group.count}  {group.fingerprint}  [{flags(group)}]\n")
        out.write(f"   {group.title}\n")
        out.write(f"   first {group.first}, last {group.last}; example: {group.example_path}\n")
        for ref in group.known:
            out.write(f"   known: {ref.link} ({ref.words})\n")
    runs, rows = timeline_rows(triage, TIMELINE_RUNS)
    if rows:
        shown = f"the last {len(runs)} runs" if len(runs) < len(triage.runs) else "every run"
        out.write(f"\nTimeline ({shown}, oldest first; x this failure, o green, - another outcome, . unreadable)\n")
        for number, (_group, strip) in enumerate(rows, 1):
            out.write(f"  {number:>3}. {strip}\n")
    unread = [run for run in triage.runs if run.error]
    for run in unread:
        out.write(f"\nnot analysed: {run.path}: {run.error}\n")


def triage_document(triage: Triage, order: str) -> dict[str, Any]:
    names = {run.key: run.name for run in triage.runs}
    return {
        "schema_version": SCHEMA_VERSION,
        "tool": {"name": "pdlogdoctor", "version": __version__},
        "order": order,
        "last_green": triage.last_green,
        "runs": [
            {
                "name": run.name,
                "path": run.path,
                "time": _when(run.time),
                "verdict": run.verdict or None,
                "fingerprint": run.fingerprint or None,
                "confidence": run.confidence,
                "green": run.green,
                "readable": run.readable,
                "error": run.error or None,
            }
            for run in triage.runs
        ],
        "groups": [
            {
                "fingerprint": group.fingerprint,
                "verdict": group.verdict,
                "title": group.title,
                "count": group.count,
                "first": group.first,
                "last": group.last,
                "example": group.example,
                "example_path": group.example_path,
                "flaky": group.flaky,
                "new": group.new,
                "gone": group.gone,
                "known": [{"link": ref.link, "title": ref.title, "words": ref.words} for ref in group.known],
                "runs": [names[key] for key in group.runs],
            }
            for group in triage.groups
        ],
    }


def render_json(triage: Triage, order: str, out: TextIO) -> None:
    json.dump(triage_document(triage, order), out, indent=2, ensure_ascii=False)
    out.write("\n")


# ---------------------------------------------------------------- shareable: markdown and HTML


def redacted(triage: Triage, options: RenderOptions) -> Triage:
    """Run names, paths, summaries and errors masked as the markdown report masks log data."""
    if not options.redact:
        return triage
    from dataclasses import replace

    from .redact import Redactor

    redactor = Redactor()
    for run in triage.runs:
        for text in (run.name, run.path, run.summary, run.error):
            redactor.learn_from_text(text)
    names = {run.name: redactor(run.name) for run in triage.runs}
    runs = tuple(
        replace(
            run, name=names[run.name], path=redactor(run.path), summary=redactor(run.summary), error=redactor(run.error)
        )
        for run in triage.runs
    )
    groups = tuple(
        replace(
            group,
            first=names.get(group.first, group.first),
            last=names.get(group.last, group.last),
            example=names.get(group.example, group.example),
            example_path=redactor(group.example_path),
        )
        for group in triage.groups
    )
    last = names.get(triage.last_green, triage.last_green) if triage.last_green else None
    return Triage(runs, groups, last)


def _markdown_link(url: str) -> str:
    """As code, like the markdown report's links: nothing the body holds renders as a link."""
    return code_span(url)


def render_markdown(triage: Triage, order: str, out: TextIO, options: RenderOptions) -> None:
    shown = redacted(triage, options)
    lines = ["## pdlogdoctor triage", "", cell(headline(shown, order)), ""]
    if shown.groups:
        lines += [
            "| # | verdict | runs | first | last | flags | example | known issue |",
            "| --- | --- | --- | --- | --- | --- | --- | --- |",
        ]
        for number, group in enumerate(shown.groups, 1):
            known = "; ".join(f"{_markdown_link(ref.link)} ({cell(ref.words)})" for ref in group.known) or "-"
            lines.append(
                f"| {number} | `{group.verdict}` {code_span(group.fingerprint)} | {group.count} | "
                f"{code_cell(group.first)} | {code_cell(group.last)} | {flags(group)} | "
                f"{code_cell(group.example_path)} | {known} |"
            )
    runs, rows = timeline_rows(shown, TIMELINE_RUNS)
    if rows:
        which = f"the last {len(runs)} runs" if len(runs) < len(shown.runs) else "every run"
        strips = "\n".join(f"{number:>3}. {strip}" for number, (_group, strip) in enumerate(rows, 1))
        lines += [
            "",
            f"### Timeline ({which}, oldest first)",
            "",
            "`x` this failure, `o` green, `-` another outcome, `.` unreadable",
            "",
            "```text",
            strips,
            "```",
        ]
    lines += ["", f"<sub>pdlogdoctor {__version__}</sub>"]
    out.write("\n".join(lines) + "\n")


_PAGE = """<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<title>pdlogdoctor triage</title>
<style>
body{{font:14px/1.45 system-ui,sans-serif;margin:0;background:#f6f7f9;color:#1d2330}}
main{{max-width:1400px;margin:0 auto;padding:16px}}
section{{background:#fff;border:1px solid #dde1e7;border-radius:6px;padding:12px 16px;margin-bottom:12px}}
table{{border-collapse:collapse;width:100%}}
th,td{{text-align:left;padding:4px 8px;border-bottom:1px solid #eceef2;vertical-align:top}}
code{{font:12px ui-monospace,monospace}}
.flag{{display:inline-block;padding:0 6px;border-radius:8px;background:#eef;margin-right:4px}}
.flag.new{{background:#fde2e2}}.flag.flaky{{background:#fff1c2}}.flag.gone{{background:#dff3e4}}
.strip{{display:grid;grid-auto-flow:column;grid-auto-columns:10px;gap:1px;overflow-x:auto}}
.strip i{{display:block;height:14px;border-radius:2px}}
.x{{background:#d64545}}.o{{background:#3c9d5d}}.m{{background:#c9ced6}}.u{{background:#fff;border:1px dashed #c9ced6}}
.runs td{{white-space:nowrap}}
</style>
</head>
<body><main>
<section><h1>pdlogdoctor triage</h1><p>{headline}</p></section>
<section><h2>Failures</h2>{table}</section>
<section><h2>Timeline of runs</h2><p>oldest first: red this failure, green a green run, grey another
outcome, dashed nothing readable; hover a cell for its run.</p><table>{timeline}</table></section>
<section><h2>Runs</h2><table class="runs">{runs}</table></section>
<p><small>pdlogdoctor {version}</small></p>
</main></body></html>
"""


def render_html(triage: Triage, order: str, out: TextIO, options: RenderOptions) -> None:
    shown = redacted(triage, options)
    out.write(
        _PAGE.format(
            headline=html.escape(headline(shown, order)),
            table=_html_groups(shown),
            timeline=_html_timeline(shown),
            runs=_html_runs(shown),
            version=html.escape(__version__),
        )
    )


def _html_groups(triage: Triage) -> str:
    if not triage.groups:
        return "<p>No failing run.</p>"
    names = ("#", "failure", "runs", "first", "last", "flags", "example", "known issue")
    head = "<tr>" + "".join(f"<th>{name}</th>" for name in names) + "</tr>"
    rows = []
    for number, group in enumerate(triage.groups, 1):
        marks = "".join(
            f'<span class="flag {word}">{word}</span>'
            for word, on in (("flaky", group.flaky), ("new", group.new), ("gone", group.gone))
            if on
        )
        known = "<br>".join(
            f"{html.escape(thread_name(ref.link))} <code>{html.escape(ref.link)}</code> ({html.escape(ref.words)})"
            for ref in group.known
        )
        rows.append(
            f"<tr><td>{number}</td><td><code>{html.escape(group.verdict)}</code><br>{html.escape(group.title)}"
            f"<br><code>{html.escape(group.fingerprint)}</code></td><td>{group.count}</td>"
            f"<td><code>{html.escape(group.first)}</code></td><td><code>{html.escape(group.last)}</code></td>"
            f"<td>{marks or '-'}</td><td><code>{html.escape(group.example_path)}</code></td>"
            f"<td>{known or '-'}</td></tr>"
        )
    return f"<table>{head}{''.join(rows)}</table>"


_CELL_CLASS = {MARK_FAIL: "x", MARK_GREEN: "o", MARK_OTHER: "m", MARK_NONE: "u"}


def _html_timeline(triage: Triage) -> str:
    runs, rows = timeline_rows(triage, None)
    lines = []
    for number, (group, strip) in enumerate(rows, 1):
        cells = "".join(
            f'<i class="{_CELL_CLASS[mark]}" title="{html.escape(run.name, quote=True)}"></i>'
            for mark, run in zip(strip, runs, strict=True)
        )
        label = f"{number}. <code>{html.escape(group.verdict)}</code>"
        lines.append(f'<tr><td>{label}</td><td><div class="strip">{cells}</div></td></tr>')
    return "".join(lines) or "<tr><td>No failing run.</td></tr>"


def _html_runs(triage: Triage) -> str:
    head = "<tr><th>run</th><th>first log time</th><th>verdict</th><th>fingerprint</th></tr>"
    rows = "".join(
        f"<tr><td><code>{html.escape(run.name)}</code></td><td>{html.escape(_when(run.time) or '-')}</td>"
        f"<td>{html.escape(run.verdict or ('not analysed: ' + run.error if run.error else '-'))}</td>"
        f"<td><code>{html.escape(run.fingerprint or '-')}</code></td></tr>"
        for run in triage.runs
    )
    return head + rows
