"""The command line: the only module that imports typer and decides exit codes."""

from __future__ import annotations

import sys
from enum import IntEnum
from pathlib import Path
from typing import Annotated

import typer

from . import __version__
from .errors import PdlogdoctorError
from .model import OutputFormat, Report
from .patterns import Library, check_examples, load_library
from .pipeline import run
from .render import render


class ExitCode(IntEnum):
    """The exit-code contract: documented in the README and in `--help`."""

    HEALTHY = 0
    ROOT_CAUSE = 1
    USAGE = 2
    INCONCLUSIVE = 3
    NOTHING_READABLE = 4


EXIT_HELP = (
    "Exit codes: 0 healthy; 1 a root cause diagnosed; 2 usage or pattern-library error; "
    "3 failure evidence without a known cause (inconclusive); 4 nothing readable. --exit-zero forces 0."
)

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
) -> None:
    library = _load(patterns)
    try:
        report = run(paths, library, stdin=sys.stdin.buffer)
    except PdlogdoctorError as exc:
        _fail(str(exc), exc.hint)
        raise typer.Exit(ExitCode.USAGE) from None
    _report_input_problems(report)
    _write(report, output_format, output)
    raise typer.Exit(0 if exit_zero else exit_code_for(report))


def exit_code_for(report: Report) -> ExitCode:
    if not any(source.bytes > 0 for source in report.inputs):
        return ExitCode.NOTHING_READABLE
    if report.verdict.id == "healthy":
        return ExitCode.HEALTHY
    if report.verdict.id == "inconclusive":
        return ExitCode.INCONCLUSIVE
    return ExitCode.ROOT_CAUSE


def _report_input_problems(report: Report) -> None:
    for source in report.inputs:
        for problem in source.problems:
            typer.echo(f"warning: {source.name}: {problem.message} [{problem.code}]", err=True)


def _write(report: Report, output_format: OutputFormat, output: Path | None) -> None:
    if output is None:
        render(report, output_format, sys.stdout)
        return
    with output.open("w", encoding="utf-8") as handle:
        render(report, output_format, handle)


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


@app.command(help="Print the version.")
def version() -> None:
    typer.echo(__version__)


def main() -> None:
    app()
