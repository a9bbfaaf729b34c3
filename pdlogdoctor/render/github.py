"""GitHub Actions: workflow-command annotations.

At most MAX_ANNOTATIONS annotations (GitHub shows only the first 10 errors of a
step): the verdict first, on the line that starts the chain, then the chain
events earliest (most causal) first. `file=`/`line=` are given only for plain
files inside GITHUB_WORKSPACE (options.workspace_files), as paths relative to it:
the only paths the annotation UI can open. Those paths are the one thing not
redacted: they name files of the same run, and masking them would break the link.
The step summary and step outputs are files: the CLI writes them (step_files.py).
"""

from __future__ import annotations

from typing import TextIO

from ..model import Comparison, Event, Report, Severity
from ..redact import redact_report, redactor_for
from . import changes, markdown
from .options import RenderOptions

MAX_ANNOTATIONS = 10
MESSAGE_CHARS = 2000


def escape_data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_property(text: str) -> str:
    return escape_data(text).replace(":", "%3A").replace(",", "%2C")


def command(level: str, message: str, properties: dict[str, str]) -> str:
    props = ",".join(f"{key}={escape_property(value)}" for key, value in properties.items())
    return f"::{level} {props}::{escape_data(message[:MESSAGE_CHARS])}"


def render(report: Report, out: TextIO, options: RenderOptions) -> None:
    for line in annotation_lines(report, options):
        out.write(line + "\n")


def annotation_lines(report: Report, options: RenderOptions) -> list[str]:
    if report.verdict.id == "healthy":
        return []
    places = {id(event): options.workspace_file(event.source) for event in report.chain}
    shown = redact_report(report, redactor_for(report)) if options.redact else report
    lines = [_verdict_annotation(shown, places.get(id(report.chain[0])) if report.chain else None, report)]
    lines += [command("notice", note, {"title": "pdlogdoctor: clocks"}) for note in shown.time_notes]
    if shown.comparison is not None:
        lines.append(_changes_annotation(shown.comparison))
    for original, event in list(zip(report.chain, shown.chain, strict=True))[: MAX_ANNOTATIONS - len(lines)]:
        lines.append(_event_annotation(event, places[id(original)]))
    return lines


def _verdict_annotation(shown: Report, place: str | None, original: Report) -> str:
    verdict = shown.verdict
    level = "warning" if verdict.id in ("inconclusive", "no-failure-seen") else "error"
    message = verdict.summary
    fixes = [markdown.suggestion_command(s) for s in shown.suggestions]
    if any(fixes):
        message += "\nSuggested: " + "; ".join(f for f in fixes if f)
    title = f"pdlogdoctor: {verdict.id} (confidence {verdict.confidence:.2f})"
    return command(level, message, _properties(title, place, original.chain[0] if original.chain else None))


def _changes_annotation(comparison: Comparison) -> str:
    """One notice: what changed since the last green run that bears on the verdict (the step
    summary carries the whole table)."""
    parts = [changes.baseline_warning(comparison) or "", changes.headline(comparison), *comparison.bearing]
    level = "warning" if comparison.baseline_failing else "notice"
    return command(level, "\n".join(part for part in parts if part), {"title": f"pdlogdoctor: {changes.TITLE.lower()}"})


def _event_annotation(event: Event, place: str | None) -> str:
    level = "error" if event.failing and event.severity.rank >= Severity.ERROR.rank else "warning"
    repeats = f" (x{event.repeats})" if event.repeats > 1 else ""
    title = f"{event.role.value}: {event.pattern}{repeats}"
    return command(level, event.text, _properties(title, place, event))


def _properties(title: str, place: str | None, event: Event | None) -> dict[str, str]:
    props = {"title": title}
    if place is not None and event is not None:
        props["file"] = place
        props["line"] = str(event.line)
    return props
