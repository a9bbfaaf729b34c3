"""`pdlogdoctor triage RUN... [--history FILE]`: the command's behaviour, without typer."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING, NoReturn, TextIO

from ..model.errors import PdlogdoctorError
from .behaviour import ExitCode, fail, load_patterns, read_config, team_issues, usage_error

if TYPE_CHECKING:
    from ..model.triage import RunRecord

TRIAGE_FORMATS = ("text", "json", "markdown", "html")
EXTENSIONS = {".md": "markdown", ".json": "json", ".html": "html", ".htm": "html", ".txt": "text"}


def triage_runs(
    *,
    runs: list[str],
    output_format: str | None,
    output: Path | None,
    history: Path | None,
    name: str | None,
    jobs: int | None,
    patterns: list[Path] | None,
    no_redact: bool,
) -> NoReturn:
    chosen = _format(output_format, output)
    if not runs and history is None:
        usage_error("give RUN... to analyse, or --history FILE to report over the runs it keeps")
    if name is not None and len(runs) != 1:
        usage_error("--name names one run: give exactly one RUN with it")
    for path in runs:
        if not Path(path).exists():
            usage_error(f"{path}: no such run directory, archive or report")
    records = _analysed(runs, patterns, jobs, name) if runs else []
    if history is not None:
        records = _with_history(history, records)
    _emit(records, chosen, output, no_redact)
    raise SystemExit(ExitCode.HEALTHY.value)


def _format(output_format: str | None, output: Path | None) -> str:
    chosen = (output_format or (EXTENSIONS.get(output.suffix.lower()) if output else None) or "text").strip().lower()
    if chosen not in TRIAGE_FORMATS:
        usage_error(f"no triage format {output_format!r}", f"choose one of: {', '.join(TRIAGE_FORMATS)}")
    return chosen


def _analysed(runs: list[str], patterns: list[Path] | None, jobs: int | None, name: str | None) -> list[RunRecord]:
    from ..render.document import report_document
    from ..runs.triage import analyse_run, analyse_runs
    from ..scan.parallel import usable_cores

    config = read_config()
    library = load_patterns(patterns, config)
    team = team_issues(config, library)
    if name is not None:
        return [analyse_run(runs[0], library, report_document, name, team)]
    return analyse_runs(runs, library, report_document, jobs or usable_cores(), team=team)


def _with_history(history: Path, records: list[RunRecord]) -> list[RunRecord]:
    from ..runs.history import add_runs, read_runs

    try:
        if records:
            add_runs(history, records)
        return read_runs(history)
    except PdlogdoctorError as exc:
        usage_error(str(exc), exc.hint)


def _emit(records: list[RunRecord], chosen: str, output: Path | None, no_redact: bool) -> None:
    from ..render.options import RenderOptions
    from ..render.triage import render_html, render_json, render_markdown, render_text
    from ..runs.triage import triage

    found, order = triage(records)
    options = RenderOptions(redact=not no_redact)

    def write(out: TextIO) -> None:
        if chosen == "json":
            render_json(found, order, out)
        elif chosen == "markdown":
            render_markdown(found, order, out, options)
        elif chosen == "html":
            render_html(found, order, out, options)
        else:
            render_text(found, order, out)

    if output is None:
        write(sys.stdout)
        return
    try:
        with output.open("w", encoding="utf-8") as handle:
            write(handle)
    except OSError as exc:
        fail(f"cannot write {output}: {exc.strerror or exc}")
        raise SystemExit(ExitCode.USAGE.value) from None
