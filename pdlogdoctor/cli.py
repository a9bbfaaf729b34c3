"""The command line: the only module that imports typer and decides exit codes."""

from __future__ import annotations

import contextlib
import os
import sys
import tempfile
from collections.abc import Callable, Iterator
from dataclasses import replace
from enum import IntEnum, StrEnum
from pathlib import Path
from typing import Annotated

import typer

from . import __version__
from .clocks import parse_moment
from .errors import PdlogdoctorError
from .ingest import discover
from .model import OutputFormat, Report
from .options import RunOptions
from .patterns import Library, check_examples, load_library
from .pipeline import run
from .render import SHOWS_EXCERPT, render
from .render.options import RenderOptions
from .step_files import append_step_outputs, append_step_summary, workspace_files


class ExitCode(IntEnum):
    """The exit-code contract: documented in the README and in `--help`."""

    HEALTHY = 0
    ROOT_CAUSE = 1
    USAGE = 2
    INCONCLUSIVE = 3
    NOTHING_READABLE = 4


class FailOn(StrEnum):
    """Which results give a non-zero exit code (for CI gating); usage errors (2) always do."""

    INCONCLUSIVE = "inconclusive"  # 1 root cause, 3 inconclusive, 4 nothing readable (the default)
    CAUSE = "cause"  # only a diagnosed root cause (1); inconclusive and unreadable exit 0
    NEVER = "never"  # always 0 after the report (same as --exit-zero)


EXIT_HELP = (
    "Exit codes: 0 healthy; 1 a root cause diagnosed; 2 usage or pattern-library error; "
    "3 failure evidence without a known cause (inconclusive); 4 nothing readable. --exit-zero forces 0. "
    "--fail-on cause turns 3 and 4 into 0; --fail-on never turns all of 1, 3, 4 into 0."
)
SHAREABLE = (OutputFormat.MARKDOWN, OutputFormat.GITHUB, OutputFormat.HTML)
PROGRESS_MIN_BYTES = 50 << 20

app = typer.Typer(
    add_completion=False,
    no_args_is_help=True,
    help=f"Diagnose failed SGLang PD-disaggregation runs from their logs. {EXIT_HELP}",
)
patterns_app = typer.Typer(no_args_is_help=True, help="Inspect and check the pattern library.")
app.add_typer(patterns_app, name="patterns")


def _fail(message: str, hint: str | None = None) -> None:
    typer.echo(f"error: {message}", err=True)
    if hint:
        typer.echo(f"hint: {hint}", err=True)


def _load(extra: list[Path] | None) -> Library:
    try:
        return load_library(extra or [])
    except PdlogdoctorError as exc:
        _fail(str(exc), exc.hint)
        raise typer.Exit(ExitCode.USAGE) from None


@app.command(help=f"Analyse log files, directories, archives or - (stdin). {EXIT_HELP}")
def analyze(
    paths: Annotated[list[str], typer.Argument(help="Files, directories, .gz/.zst/.zip/.tar.gz, or - for stdin.")],
    output_format: Annotated[OutputFormat, typer.Option("--format", "-f", help="Report format.")] = OutputFormat.TEXT,
    output: Annotated[
        Path | None, typer.Option("--output", "-o", help="Write the report here (only after a successful analysis).")
    ] = None,
    patterns: Annotated[
        list[Path] | None, typer.Option("--patterns", help="An extra directory of pattern files.")
    ] = None,
    exit_zero: Annotated[bool, typer.Option("--exit-zero", help="Always exit 0 (after printing the report).")] = False,
    fail_on: Annotated[
        FailOn,
        typer.Option("--fail-on", help="Which results exit non-zero: inconclusive (1,3,4; default), cause (1), never."),
    ] = FailOn.INCONCLUSIVE,
    no_redact: Annotated[
        bool, typer.Option("--no-redact", help="Do not mask IPs, hosts, home paths, tokens in markdown/github output.")
    ] = False,
    timeout: Annotated[
        float | None,
        typer.Option(
            "--timeout", min=0, help="Stop reading after SECONDS; report the best verdict so far, marked incomplete."
        ),
    ] = None,
    since: Annotated[
        str | None, typer.Option("--since", help="Only lines at or after this UTC date/time (ISO 8601).")
    ] = None,
    until: Annotated[
        str | None, typer.Option("--until", help="Only lines up to this UTC date/time (ISO 8601).")
    ] = None,
    abs_time: Annotated[
        bool, typer.Option("--abs-time", help="Show the chain's UTC times instead of the time since the root cause.")
    ] = False,
) -> None:
    library = _load(patterns)
    _refuse_input_as_output(output, paths)
    try:
        with _progress(paths) as on_progress:
            options = replace(
                run_options(output_format, timeout), since=_moment(since, "--since"), until=_moment(until, "--until")
            )
            report = run(paths, library, stdin=sys.stdin.buffer, on_progress=on_progress, options=options)
    except PdlogdoctorError as exc:
        _fail(str(exc), exc.hint)
        raise typer.Exit(ExitCode.USAGE) from None
    _report_input_problems(report)
    render_options = replace(_render_options(report, output_format, no_redact), abs_time=abs_time)
    _write(report, output_format, output, render_options)
    if output_format is OutputFormat.GITHUB:
        _write_step_files(report, render_options)
    raise typer.Exit(0 if exit_zero else gated_exit_code(exit_code_for(report), fail_on))


def _moment(text: str | None, option: str) -> float | None:
    if text is None:
        return None
    try:
        return parse_moment(text)
    except ValueError as exc:
        raise typer.BadParameter(str(exc), param_hint=option) from None


def gated_exit_code(code: ExitCode, fail_on: FailOn) -> int:
    if fail_on is FailOn.NEVER or (fail_on is FailOn.CAUSE and code is not ExitCode.ROOT_CAUSE):
        return 0
    return int(code)


def run_options(output_format: OutputFormat, timeout: float | None) -> RunOptions:
    """The run's options: flags, plus the two environment switches (read here and nowhere else)."""
    wanted = os.environ.get("PDLOGDOCTOR_WORKERS", "")
    return RunOptions(
        workers=int(wanted) if wanted.isdigit() and int(wanted) > 0 else None,
        accelerate=os.environ.get("PDLOGDOCTOR_ACCEL", "1") != "0",
        timeout=timeout,
        excerpt=output_format in SHOWS_EXCERPT,
    )


def _render_options(report: Report, output_format: OutputFormat, no_redact: bool) -> RenderOptions:
    workspace = os.environ.get("GITHUB_WORKSPACE") or None
    places = workspace_files(report, workspace) if output_format is OutputFormat.GITHUB else ()
    return RenderOptions(redact=output_format in SHAREABLE and not no_redact, workspace_files=places)


def _write_step_files(report: Report, options: RenderOptions) -> None:
    """In GitHub Actions: the markdown report in the step summary; verdict and fingerprint as step outputs."""
    summary, outputs = os.environ.get("GITHUB_STEP_SUMMARY"), os.environ.get("GITHUB_OUTPUT")
    if summary:
        append_step_summary(report, options, Path(summary))
    if outputs:
        append_step_outputs(report, Path(outputs))


def _refuse_input_as_output(output: Path | None, paths: list[str]) -> None:
    """--output must never overwrite (or land inside a directory of) the logs being read."""
    if output is None:
        return
    target = output.resolve()
    for raw in paths:
        if raw == "-":
            continue
        source = Path(raw).resolve()
        if target == source or (source.is_dir() and source in target.parents):
            _fail(f"--output {output} is inside the input {raw}", "write the report somewhere else")
            raise typer.Exit(ExitCode.USAGE)


def exit_code_for(report: Report) -> ExitCode:
    if not any(source.bytes > 0 for source in report.inputs):
        return ExitCode.NOTHING_READABLE
    if report.verdict.id == "healthy":
        return ExitCode.HEALTHY
    if report.verdict.id in ("inconclusive", "no-failure-seen"):
        return ExitCode.INCONCLUSIVE
    return ExitCode.ROOT_CAUSE


# Inputs left out on purpose, not bad ones: listed in the report, not warned about.
QUIET_PROBLEMS = frozenset({"not-a-log"})


def _report_input_problems(report: Report) -> None:
    for source in report.inputs:
        for problem in source.problems:
            if problem.code in QUIET_PROBLEMS:
                continue
            typer.echo(f"warning: {source.name}: {problem.message} [{problem.code}]", err=True)


def _write(report: Report, output_format: OutputFormat, output: Path | None, options: RenderOptions) -> None:
    if output is None:
        render(report, output_format, sys.stdout, options)
        return
    # A temp file in the same directory, renamed over the target: readers never see half a report.
    directory = output.resolve().parent
    try:
        fd, temp = tempfile.mkstemp(prefix=f".{output.name}.", suffix=".tmp", dir=directory)
    except OSError as exc:
        _fail(f"cannot write {output}: {exc.strerror or exc}")
        raise typer.Exit(ExitCode.USAGE) from None
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            render(report, output_format, handle, options)
        os.replace(temp, output)
    except BaseException:
        Path(temp).unlink(missing_ok=True)
        raise


def _progress(paths: list[str]) -> contextlib.AbstractContextManager[Callable[[int], None] | None]:
    """A rich progress bar on stderr for big inputs, only when stderr is a terminal."""
    if not sys.stderr.isatty():
        return contextlib.nullcontext(None)
    total = sum(item.size for item in discover([p for p in paths if p != "-"]))
    if total < PROGRESS_MIN_BYTES:
        return contextlib.nullcontext(None)
    return _progress_bar(total)


@contextlib.contextmanager
def _progress_bar(total: int) -> Iterator[Callable[[int], None]]:
    from rich.console import Console
    from rich.progress import BarColumn, DownloadColumn, Progress, TimeRemainingColumn, TransferSpeedColumn

    columns = (BarColumn(), DownloadColumn(), TransferSpeedColumn(), TimeRemainingColumn())
    with Progress(*columns, console=Console(stderr=True), transient=True) as progress:
        task = progress.add_task("scanning", total=total)
        yield lambda size: progress.advance(task, size)


@patterns_app.command("list", help="List every pattern with its kind, verdict and title.")
def patterns_list(
    patterns: Annotated[
        list[Path] | None, typer.Option("--patterns", help="An extra directory of pattern files.")
    ] = None,
) -> None:
    library = _load(patterns)
    for pattern in library.patterns:
        verdict = pattern.verdict or "-"
        typer.echo(f"{pattern.id:32} {pattern.kind.value:8} {verdict:26} {pattern.title}")


@patterns_app.command("check", help="Validate the library and run every pattern's own examples (exit 2 on failure).")
def patterns_check(
    patterns: Annotated[
        list[Path] | None, typer.Option("--patterns", help="An extra directory of pattern files.")
    ] = None,
) -> None:
    library = _load(patterns)
    problems = [problem for pattern in library.patterns for problem in check_examples(pattern)]
    for problem in problems:
        typer.echo(f"error: {problem}", err=True)
    examples = sum(len(p.examples.match) + len(p.examples.no_match) for p in library.patterns)
    if problems:
        raise typer.Exit(ExitCode.USAGE)
    typer.echo(f"ok: {len(library.patterns)} patterns, {len(library.verdicts)} verdicts, {examples} examples")


@patterns_app.command(
    "anchors", help="Print each pattern's anchor as an extended regex, one per line (for grep -E -f)."
)
def patterns_anchors() -> None:
    library = _load(None)
    for anchor in sorted({p.primary_anchor for p in library.patterns}):
        typer.echo(_ere_escape(anchor))


def _ere_escape(literal: str) -> str:
    return "".join("\\" + char if char in r".[]()*+?{}|^$\\" else char for char in literal)


@app.command(help="Print the JSON Schema of `--format json` output.")
def schema() -> None:
    from .render.json_format import schema_text

    sys.stdout.write(schema_text())


@app.command(
    "explain",
    help="Explain a verdict or pattern id: what it means, how it is recognised, what to do (exit 2 if unknown).",
)
def explain_command(
    item_id: Annotated[str, typer.Argument(metavar="VERDICT_OR_PATTERN_ID", help="A verdict id or a pattern id.")],
    patterns: Annotated[
        list[Path] | None, typer.Option("--patterns", help="An extra directory of pattern files.")
    ] = None,
) -> None:
    from .explain import explain, nearest_ids

    library = _load(patterns)
    text = explain(library, item_id)
    if text is None:
        near = nearest_ids(library, item_id)
        _fail(
            f"no verdict or pattern with id '{item_id}'",
            f"did you mean: {', '.join(near)}?" if near else "see `pdlogdoctor patterns list`",
        )
        raise typer.Exit(ExitCode.USAGE)
    typer.echo(text)


@app.command(help="Print the version.")
def version() -> None:
    typer.echo(__version__)


def main() -> None:
    app()
