"""GitHub Actions: workflow-command annotations, and the markdown report in the step summary.

At most MAX_ANNOTATIONS annotations (GitHub shows only the first 10 errors of a
step): the verdict first, on the line that starts the chain, then the chain
events earliest (most causal) first. `file=`/`line=` are given only for plain
files inside GITHUB_WORKSPACE, as paths relative to it: the only paths the
annotation UI can open. With GITHUB_OUTPUT set, the step outputs `verdict` and
`fingerprint` are written too. Those paths are the one thing not redacted: they name
files of the same run, and masking them would break the link.
"""

from __future__ import annotations

from pathlib import Path
from typing import TextIO

from ..fingerprint import fingerprint
from ..model import Event, Report, Severity
from ..redact import redact_report, redactor_for
from . import markdown
from .options import RenderOptions

MAX_ANNOTATIONS = 10
STEP_SUMMARY_LIMIT = 1 << 20  # bytes GitHub accepts per step summary
MESSAGE_CHARS = 2000


def escape_data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_property(text: str) -> str:
    return escape_data(text).replace(":", "%3A").replace(",", "%2C")


def command(level: str, message: str, properties: dict[str, str]) -> str:
    props = ",".join(f"{key}={escape_property(value)}" for key, value in properties.items())
    return f"::{level} {props}::{escape_data(message[:MESSAGE_CHARS])}"


def render(report: Report, out: TextIO, options: RenderOptions | None = None) -> None:
    options = options or RenderOptions()
    for line in annotation_lines(report, options):
        out.write(line + "\n")
    if options.step_summary:
        append_step_summary(report, options, Path(options.step_summary))
    if options.step_outputs:
        append_step_outputs(report, Path(options.step_outputs))


def append_step_outputs(report: Report, path: Path) -> None:
    """`verdict` and `fingerprint` for later steps (`steps.<id>.outputs.*`); both are single-line ids."""
    with path.open("a", encoding="utf-8") as handle:
        handle.write(f"verdict={report.verdict.id}\nfingerprint={fingerprint(report)}\n")


def annotation_lines(report: Report, options: RenderOptions) -> list[str]:
    if report.verdict.id == "healthy":
        return []
    places = {id(event): workspace_file(event.source, options.workspace) for event in report.chain}
    shown = redact_report(report, redactor_for(report)) if options.redact else report
    lines = [_verdict_annotation(shown, places.get(id(report.chain[0])) if report.chain else None, report)]
    lines += [command("notice", note, {"title": "pdlogdoctor: clocks"}) for note in shown.time_notes]
    for original, event in list(zip(report.chain, shown.chain, strict=True))[: MAX_ANNOTATIONS - len(lines)]:
        lines.append(_event_annotation(event, places[id(original)]))
    return lines


def _verdict_annotation(shown: Report, place: str | None, original: Report) -> str:
    verdict = shown.verdict
    level = "warning" if verdict.id == "inconclusive" else "error"
    message = verdict.summary
    fixes = [markdown.suggestion_command(s) for s in shown.suggestions]
    if any(fixes):
        message += "\nSuggested: " + "; ".join(f for f in fixes if f)
    title = f"pdlogdoctor: {verdict.id} (confidence {verdict.confidence:.2f})"
    return command(level, message, _properties(title, place, original.chain[0] if original.chain else None))


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


def workspace_file(source: str, workspace: str | None) -> str | None:
    """`source` relative to the workspace when it is a plain file inside it, else None."""
    if not workspace or "!" in source or source == "<stdin>":
        return None
    try:
        path = Path(source).resolve()
        relative = path.relative_to(Path(workspace).resolve())
    except (ValueError, OSError):
        return None
    return relative.as_posix() if path.is_file() else None


def append_step_summary(report: Report, options: RenderOptions, path: Path) -> None:
    """Append the markdown report, keeping the whole summary file under GitHub's 1 MiB."""
    try:
        used = path.stat().st_size
    except OSError:
        used = 0
    room = STEP_SUMMARY_LIMIT - used - 1024  # headroom for what later steps append
    body = markdown.markdown_report(report, options, limit=min(markdown.GITHUB_BODY_LIMIT, max(room, 0)))
    if len(body.encode()) > room:
        body = "pdlogdoctor: the step summary is full; see the report file or the job log.\n"
        if len(body) > max(room, 0):
            return
    with path.open("a", encoding="utf-8") as handle:
        handle.write(body)
