"""The typer app: every command's options, help text and completion.

The behaviour is cli.py's; `cli.main` imports this module only for what it does not
read itself (see `cli.plain_analyze`), so typer costs nothing on a plain `analyze`.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer

from .. import __version__
from ..model import OutputFormat
from ..model.errors import did_you_mean
from .behaviour import (
    COMPLETE_VAR,
    EXIT_HELP,
    OUTPUTS_HELP,
    PROG,
    Color,
    ExitCode,
    ExitOn,
    FailOn,
    analyze_logs,
    diff_logs,
    fail,
    load_patterns,
    usage_error,
)
from .config import PATTERNS_ENV

app = typer.Typer(
    add_completion=False,
    no_args_is_help=True,
    rich_markup_mode=None,
    context_settings={"help_option_names": ["-h", "--help"]},
    help="Diagnose failed SGLang PD-disaggregation runs from their logs. "
    "'pdlogdoctor analyze -h' shows the options and the exit codes.",
)
patterns_app = typer.Typer(no_args_is_help=True, rich_markup_mode=None, help="Inspect and check the pattern library.")
app.add_typer(patterns_app, name="patterns")

NO_REDACT_HELP = "Do not mask IPs, hosts, home paths, tokens in markdown, github and html output."
NoConfigOption = Annotated[
    bool,
    typer.Option(
        "--no-config",
        help="Ignore the config file: pdlogdoctor.toml or pyproject.toml's [tool.pdlogdoctor], the nearest "
        "from the working directory up (its format, fail-on, color, patterns; -v names the one used).",
    ),
]
PatternsOption = Annotated[
    list[Path] | None,
    typer.Option(
        "--patterns",
        metavar="DIR",
        help=f"An extra directory of pattern files (repeatable; adds to {PATTERNS_ENV} and the config file's).",
    ),
]


def _print_version(value: bool) -> None:
    if value:
        typer.echo(f"pdlogdoctor {__version__}")
        raise typer.Exit(0)


@app.callback()
def main_options(
    version: Annotated[
        bool,
        typer.Option("--version", "-V", is_eager=True, callback=_print_version, help="Print the version and exit."),
    ] = False,
) -> None:
    """Diagnose failed SGLang PD-disaggregation runs from their logs."""


@app.command(
    short_help="Diagnose logs: the root cause, the evidence chain, the fix.",
    help="Analyze logs: each PATH is a file, a directory (read recursively), a .gz/.zst file, a .zip or .tar(.gz) "
    "archive (read in place), or - for standard input. A PATH that does not exist is reported and the others are "
    f"analysed (none existing is a usage error).\n\n{OUTPUTS_HELP}\n\n{EXIT_HELP}",
)
def analyze(
    paths: Annotated[list[str], typer.Argument(metavar="PATH...", hidden=True)],
    output_format: Annotated[
        str | None,
        typer.Option(
            "--format",
            "-f",
            metavar="FORMAT",
            help=f"The format on stdout: {', '.join(f.value for f in OutputFormat)} (any case). Default: text.",
            autocompletion=lambda: [f.value for f in OutputFormat],
        ),
    ] = None,
    outputs: Annotated[
        list[str] | None,
        typer.Option(
            "--output",
            "-o",
            metavar="[FORMAT=]FILE",
            help="Also write a report file (after a successful analysis; repeatable), in FORMAT, else the format "
            "its extension names (.md, .json, .txt, .html, .xml), else --format's.",
        ),
    ] = None,
    patterns: PatternsOption = None,
    quiet: Annotated[
        bool,
        typer.Option(
            "--quiet",
            "-q",
            help="One line on stdout, whatever -o writes: verdict, confidence, fingerprint, fix. No warnings.",
        ),
    ] = False,
    verbose: Annotated[
        bool, typer.Option("--verbose", "-v", help="List every skipped input, the inputs table, whole log lines.")
    ] = False,
    color: Annotated[
        str | None,
        typer.Option(
            "--color",
            metavar="WHEN",
            help="auto (a terminal, or FORCE_COLOR set; never with NO_COLOR set), always or never.",
            autocompletion=lambda: [c.value for c in Color],
        ),
    ] = None,
    exit_zero: Annotated[bool, typer.Option("--exit-zero", help="Always exit 0 (after printing the report).")] = False,
    fail_on: Annotated[
        str | None,
        typer.Option(
            "--fail-on",
            metavar="WHICH",
            help="Which results exit non-zero: inconclusive (1, 3, 4; the default), cause (1 only), never.",
            autocompletion=lambda: [f.value for f in FailOn],
        ),
    ] = None,
    no_redact: Annotated[bool, typer.Option("--no-redact", help=NO_REDACT_HELP)] = False,
    timeout: Annotated[
        float | None,
        typer.Option(
            "--timeout",
            metavar="SECONDS",
            help="Stop reading after SECONDS; report the best verdict so far, marked incomplete.",
        ),
    ] = None,
    since: Annotated[
        str | None,
        typer.Option("--since", metavar="TIME", help="Only lines at or after this UTC date/time (ISO 8601)."),
    ] = None,
    until: Annotated[
        str | None, typer.Option("--until", metavar="TIME", help="Only lines up to this UTC date/time (ISO 8601).")
    ] = None,
    abs_time: Annotated[
        bool, typer.Option("--abs-time", help="Show the chain's UTC times instead of the time since the root cause.")
    ] = False,
    baseline: Annotated[
        list[str] | None,
        typer.Option(
            "--baseline",
            metavar="PATH",
            help="The last green run's logs (repeatable): the report adds what changed since then (see `diff`).",
        ),
    ] = None,
    follow_symlinks: Annotated[
        bool,
        typer.Option(
            "--follow-symlinks", help="Follow links that lead out of an input directory (not followed by default)."
        ),
    ] = False,
    no_config: NoConfigOption = False,
    follow: Annotated[
        bool,
        typer.Option(
            "--follow",
            help="Read the logs while they are written (new lines, new files, rotation) and say the verdict as it "
            "changes (a status line on a terminal, a line per change elsewhere, on stderr); the report when it stops: "
            "--exit-on, --until-idle, Ctrl-C or SIGTERM, or the end of standard input.",
        ),
    ] = False,
    exit_on: Annotated[
        str | None,
        typer.Option(
            "--exit-on",
            metavar="WHAT",
            help="With --follow: stop at once when a root cause is named with confidence 0.7 or more (cause).",
            autocompletion=lambda: [e.value for e in ExitOn],
        ),
    ] = None,
    until_idle: Annotated[
        float | None,
        typer.Option(
            "--until-idle", metavar="SECONDS", help="With --follow: stop when no input has grown for SECONDS."
        ),
    ] = None,
    progress: Annotated[
        bool,
        typer.Option(
            "--progress",
            help="Show a progress bar on stderr even off a terminal or in CI (by default only on a terminal, "
            "outside CI, for inputs over 50 MB or standard input past 50 MB).",
        ),
    ] = False,
) -> None:
    analyze_logs(
        paths=paths,
        output_format=output_format,
        outputs=outputs,
        patterns=patterns,
        quiet=quiet,
        verbose=verbose,
        color=color,
        exit_zero=exit_zero,
        fail_on=fail_on,
        no_redact=no_redact,
        timeout=timeout,
        since=since,
        until=until,
        abs_time=abs_time,
        baseline=baseline,
        follow_symlinks=follow_symlinks,
        no_config=no_config,
        follow=follow,
        exit_on=exit_on,
        until_idle=until_idle,
        progress=progress,
    )


TEMPLATE_FORMATS = ("text", "json")


@app.command(
    "templates",
    help="The templates of the lines of PATH... (read as analyze reads them): lines that differ only in their "
    "values (numbers, ids, addresses, names) are one template. Most frequent first, each with its count and "
    "first occurrence; --format json also lists every line of each template.",
)
def templates_command(
    paths: Annotated[list[str], typer.Argument(metavar="PATH...", help="Logs, as for analyze (- for stdin).")],
    output_format: Annotated[
        str,
        typer.Option(
            "--format",
            "-f",
            metavar="FORMAT",
            help="text (count, first file:line, template) or json.",
            autocompletion=lambda: list(TEMPLATE_FORMATS),
        ),
    ] = "text",
    min_count: Annotated[
        int, typer.Option("--min-count", metavar="N", min=1, help="Only templates of at least N lines.")
    ] = 1,
    errors: Annotated[
        bool,
        typer.Option(
            "--errors",
            help="Only the error lines no pattern names (the report's 'Unrecognised errors'), "
            "templated as the report templates them.",
        ),
    ] = False,
    patterns: PatternsOption = None,
) -> None:
    from .templates import render_json, render_text, templates_of_inputs

    chosen = output_format.strip().lower()
    if chosen not in TEMPLATE_FORMATS:
        usage_error(f"no template format {output_format!r}", f"choose one of: {', '.join(TEMPLATE_FORMATS)}")
    groups, names, cut = templates_of_inputs(paths, load_patterns(patterns), errors)
    shown = [group for group in groups if group.count >= min_count]
    if chosen == "json":
        render_json(shown, names, cut, sys.stdout)
    else:
        render_text(shown, names, sys.stdout)


# ---------------------------------------------------------------- the library


@patterns_app.command("list", help="List every pattern with its kind, verdict and title.")
def patterns_list(patterns: PatternsOption = None) -> None:
    library = load_patterns(patterns)
    for pattern in library.patterns:
        verdict = pattern.verdict or "-"
        typer.echo(f"{pattern.id:32} {pattern.kind.value:8} {verdict:26} {pattern.title}")


@patterns_app.command(
    "suggest",
    short_help="Pattern-file skeletons for the top errors no pattern names.",
    help="Pattern-file skeletons for the top errors no pattern names in PATH... (printed, or --output-dir).",
)
def patterns_suggest(
    paths: Annotated[list[str], typer.Argument(metavar="PATH...", help="Logs, as for analyze.")],
    output_dir: Annotated[
        Path | None,
        typer.Option("--output-dir", metavar="DIR", help="Write each skeleton to DIR/<id>.toml (never overwrites)."),
    ] = None,
    patterns: PatternsOption = None,
) -> None:
    from ..library.suggest import suggestions
    from ..pipeline import run

    library = load_patterns(patterns)
    found = suggestions(run(paths, library), library.errors.masks if library.errors else ())
    if not found:
        typer.echo("no unrecognised error line to suggest a pattern for", err=True)
        return
    for pattern_id, text in found:
        if output_dir is None:
            typer.echo(f"# ---- {pattern_id}.toml\n{text}")
            continue
        target = output_dir / f"{pattern_id}.toml"
        if target.exists():
            fail(f"{target} exists; not overwritten")
            continue
        output_dir.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
        typer.echo(str(target))


@patterns_app.command(
    "check",
    short_help="Validate the library and run every pattern's examples.",
    help="Validate the library and run every pattern's own examples (exit 2 on failure).",
)
def patterns_check(patterns: PatternsOption = None) -> None:
    from ..library.consequences import unused_groups
    from ..library.errorlines import check_layer
    from ..library.formats import check_formats
    from ..library.frames import check_frames
    from ..library.patterns import check_examples

    library = load_patterns(patterns)
    problems = [problem for pattern in library.patterns for problem in check_examples(pattern)]
    problems += check_layer(library.errors) if library.errors else []
    problems += check_frames(library.frames)
    problems += check_formats(library.formats)
    problems += [
        f"{group.path}: {group.id}: no cause names this consequence group (name it in a [[causes]] table, or remove it)"
        for group in unused_groups(library.patterns, library.groups)
    ]
    for problem in problems:
        typer.echo(f"error: {problem}", err=True)
    examples = sum(len(p.examples.match) + len(p.examples.no_match) for p in library.patterns)
    if problems:
        raise typer.Exit(ExitCode.USAGE)
    typer.echo(
        f"ok: {len(library.patterns)} patterns, {len(library.groups)} consequence groups, "
        f"{len(library.verdicts)} verdicts, {examples} examples, "
        f"{len(library.known.entries)} known upstream issues, {len(library.known.sources)} version sources"
    )


@patterns_app.command(
    "anchors",
    short_help="Print each pattern's anchor as a grep -E regex.",
    help="Print each pattern's anchor as an extended regex, one per line (for grep -E -f).",
)
def patterns_anchors() -> None:
    library = load_patterns(None)
    generic = library.errors.anchors if library.errors else ()
    for anchor in sorted({key for p in library.patterns for key in p.search_keys} | set(generic)):
        typer.echo(_ere_escape(anchor))


def _ere_escape(literal: str) -> str:
    return "".join("\\" + char if char in r".[]()*+?{}|^$\\" else char for char in literal)


@app.command(
    short_help="List the verdicts a diagnosis can give.",
    help="List the verdicts a diagnosis can give: id, how far upstream it sits, title.",
)
def verdicts(patterns: PatternsOption = None) -> None:
    library = load_patterns(patterns)
    width = max(len(spec.id) for spec in library.verdicts)
    for spec in library.verdicts:
        typer.echo(f"{spec.id:{width}}  {spec.tier.value:9}  {spec.title}")


@app.command(help="Print the JSON Schema of `--format json` output.")
def schema() -> None:
    from ..render.json_format import schema_text

    sys.stdout.write(schema_text())


def _known_ids(incomplete: str) -> list[str]:
    """What `explain` can take, for the shell's completion: the shipped verdict, pattern and known-issue ids."""
    library = load_patterns(None)
    ids = [spec.id for spec in library.verdicts] + [pattern.id for pattern in library.patterns]
    ids += [entry.id for entry in library.known.entries]
    return [item for item in ids if item.lower().startswith(incomplete.lower())]


@app.command(
    "explain",
    short_help="Explain a verdict, pattern or known-issue ID.",
    help="Explain a verdict, pattern or known-issue ID: what it means, how it is recognised, what to do, "
    "and the upstream problems a verdict is known as (exit 2 if unknown).",
)
def explain_command(
    item_id: Annotated[str, typer.Argument(metavar="ID", hidden=True, autocompletion=_known_ids)],
    patterns: PatternsOption = None,
) -> None:
    from .explain import explain, nearest_ids

    library = load_patterns(patterns)
    text = explain(library, item_id)
    if text is None:
        near = nearest_ids(library, item_id)
        usage_error(
            f"no verdict, pattern or known issue with id '{item_id}'",
            f"did you mean: {', '.join(near)}?"
            if near
            else "see `pdlogdoctor verdicts` and `pdlogdoctor patterns list`",
        )
    typer.echo(text)


@app.command(
    "diff",
    short_help="What changed since the last green run (GOOD BAD).",
    help="What changed since the last green run: GOOD's and BAD's configuration, sizing, behaviour and error lines "
    "side by side (run-specific values such as times, ports and hosts are ignored), and BAD's verdict read in their "
    "light. GOOD and BAD are each a directory, archive or file.\n\n"
    "Exit codes: 0 no relevant change, 1 changes found, 2 usage error, 4 nothing readable in GOOD or BAD.",
)
def diff_command(
    good: Annotated[str, typer.Argument(metavar="GOOD", hidden=True)],
    bad: Annotated[str, typer.Argument(metavar="BAD", hidden=True)],
    output_format: Annotated[
        str | None,
        typer.Option(
            "--format",
            "-f",
            metavar="FORMAT",
            help=f"{', '.join(f.value for f in OutputFormat)} (any case). Default: text.",
            autocompletion=lambda: [f.value for f in OutputFormat],
        ),
    ] = None,
    outputs: Annotated[
        list[str] | None,
        typer.Option("--output", "-o", metavar="[FORMAT=]FILE", help="Write a report file, as `analyze -o` does."),
    ] = None,
    patterns: PatternsOption = None,
    color: Annotated[
        str | None,
        typer.Option(
            "--color", metavar="WHEN", help="auto (a terminal, or FORCE_COLOR; not with NO_COLOR), always, never."
        ),
    ] = None,
    no_redact: Annotated[bool, typer.Option("--no-redact", help=NO_REDACT_HELP)] = False,
    no_config: NoConfigOption = False,
) -> None:
    diff_logs(
        good=good,
        bad=bad,
        output_format=output_format,
        outputs=outputs,
        patterns=patterns,
        color=color,
        no_redact=no_redact,
        no_config=no_config,
    )


@app.command(
    "triage",
    short_help="Many runs grouped by failure: counts, first/last, flaky, new.",
    help="Many runs at once: each RUN is a run's log directory, an archive or a JSON report (analyze -f json), "
    "analysed in parallel. The failures are grouped by fingerprint: verdict, how many runs, first and last run, "
    "an example, the known issue, and whether a failure is flaky (it comes and goes between green runs), new "
    "(since the last green run) or gone. --history FILE keeps the runs in a SQLite file: a nightly job adds its "
    "run, and `triage --history FILE` reports over every run kept.",
)
def triage_command(
    runs: Annotated[
        list[str] | None, typer.Argument(metavar="RUN...", help="Run directories, archives or JSON reports.")
    ] = None,
    output_format: Annotated[
        str | None,
        typer.Option(
            "--format",
            "-f",
            metavar="FORMAT",
            help="text, json, markdown or html (markdown and html are redacted). "
            "Default: from -o's extension, else text.",
            autocompletion=lambda: ["text", "json", "markdown", "html"],
        ),
    ] = None,
    output: Annotated[
        Path | None, typer.Option("--output", "-o", metavar="FILE", help="Write the triage to FILE.")
    ] = None,
    history: Annotated[
        Path | None,
        typer.Option("--history", metavar="FILE", help="A SQLite file keeping every run triaged (created if missing)."),
    ] = None,
    name: Annotated[
        str | None, typer.Option("--name", metavar="NAME", help="The run's name (one RUN), e.g. the CI run id.")
    ] = None,
    jobs: Annotated[
        int | None, typer.Option("--jobs", "-j", metavar="N", min=1, help="Runs analysed at once. Default: every core.")
    ] = None,
    patterns: PatternsOption = None,
    no_redact: Annotated[
        bool, typer.Option("--no-redact", help="Do not mask run names, paths and log text in markdown/html.")
    ] = False,
) -> None:
    from .triage import triage_runs

    triage_runs(
        runs=runs or [],
        output_format=output_format,
        output=output,
        history=history,
        name=name,
        jobs=jobs,
        patterns=patterns,
        no_redact=no_redact,
    )


@app.command(help="Print the version.")
def version() -> None:
    typer.echo(__version__)


SHELLS = ("bash", "zsh", "fish")


@app.command(
    short_help="Print the shell completion script for bash, zsh or fish.",
    help="Print the shell completion script for bash, zsh or fish. "
    'Install: eval "$(pdlogdoctor completion bash)" in ~/.bashrc; '
    "pdlogdoctor completion fish > ~/.config/fish/completions/pdlogdoctor.fish.",
)
def completion(
    shell: Annotated[str, typer.Argument(metavar="SHELL", hidden=True, autocompletion=lambda: list(SHELLS))],
) -> None:
    from typer._completion_shared import get_completion_script

    name = shell.strip().lower()
    if name not in SHELLS:
        near = did_you_mean(name, SHELLS)
        usage_error(
            f"no completion for shell {shell!r}", f"{near + ' ' if near else ''}choose one of: {', '.join(SHELLS)}"
        )
    typer.echo(get_completion_script(prog_name=PROG, complete_var=COMPLETE_VAR, shell=name))
