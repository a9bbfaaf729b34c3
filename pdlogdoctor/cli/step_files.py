"""The GitHub Actions side files the CLI writes for `--format github`: step summary and outputs.

Renderers only write to the stream they are given; everything that touches the
runner's files (which paths are inside the workspace, how full the summary is)
happens here, called by the CLI.
"""

from __future__ import annotations

from pathlib import Path

from ..model import Report
from ..reason.fingerprint import fingerprint
from ..render.markdown import GITHUB_BODY_LIMIT, markdown_report
from ..render.options import RenderOptions

STEP_SUMMARY_LIMIT = 1 << 20  # bytes GitHub accepts per step summary
SUMMARY_FULL = "pdlogdoctor: the step summary is full; see the report file or the job log.\n"


def workspace_files(report: Report, workspace: str | None) -> tuple[tuple[str, str], ...]:
    """(source, path relative to the workspace) for each annotated source (the chain's, the unnamed
    lines', where the logs end) that is a plain file inside it."""
    annotated = [event.source for event in report.chain] + [item.first.source for item in report.unrecognised]
    found = {}
    for source in annotated + [end.source for end in report.log_ends]:
        if source not in found:
            found[source] = workspace_file(source, workspace)
    return tuple((source, place) for source, place in found.items() if place is not None)


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


def append_step_outputs(report: Report, path: Path) -> None:
    """`verdict` and `fingerprint` for later steps (`steps.<id>.outputs.*`); both are single-line ids."""
    with path.open("a", encoding="utf-8") as handle:
        handle.write(f"verdict={report.verdict.id}\nfingerprint={fingerprint(report)}\n")


def append_step_summary(report: Report, options: RenderOptions, path: Path) -> None:
    """Append the markdown report, keeping the whole summary file under GitHub's 1 MiB."""
    try:
        used = path.stat().st_size
    except OSError:
        used = 0
    room = STEP_SUMMARY_LIMIT - used - 1024  # headroom for what later steps append
    body = markdown_report(report, options, limit=min(GITHUB_BODY_LIMIT, max(room, 0)))
    if len(body.encode()) > room:
        body = SUMMARY_FULL
        if len(body) > max(room, 0):
            return
    with path.open("a", encoding="utf-8") as handle:
        handle.write(body)
