"""The command line's behaviour, without typer: option values in, reports and exit codes out.

Conventions a user already knows: `-h`, `-V`/`--version`, `-q`/`-v`, `--color`
with NO_COLOR, format names in any case, the format of `-o FILE` from its
extension, shell completion, a config file, usage errors as one line with exit 2,
and every command's own exit code kept when the reader of stdout goes away (`| head`).

The options, the help and completion are typer's (commands.py); main.py reads a plain
`analyze` command line without it. Heavy modules (the pipeline, rich) are imported where
they are used.
"""

from __future__ import annotations

import contextlib
import io
import os
import stat
import sys
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import replace
from enum import IntEnum, StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, NoReturn, TextIO, cast

from ..model import OutputFormat, Report, verdicts
from ..model.errors import PdlogdoctorError, did_you_mean
from ..model.values import record
from ..render import SHAREABLE
from ..render.neutralise import defuse_output, one_line
from .config import Config, find_config, pattern_dirs
from .output import WriteFailed
from .terminal import is_terminal

if TYPE_CHECKING:
    from rich.progress import Progress, TaskID

    from ..library.patterns import Library
    from ..model.known import TeamIssue
    from ..model.options import RunOptions
    from ..render.options import RenderOptions
    from .follow import Watch


class ExitCode(IntEnum):
    """The exit-code contract: documented in docs/usage.md and in `--help`."""

    HEALTHY = 0
    ROOT_CAUSE = 1
    USAGE = 2
    INCONCLUSIVE = 3
    NOTHING_READABLE = 4


class FailOn(StrEnum):
    """Which results give a non-zero exit code (for CI gating); usage errors (2) always do."""

    INCONCLUSIVE = verdicts.INCONCLUSIVE  # 1 root cause, 3 inconclusive, 4 nothing readable (the default)
    CAUSE = "cause"  # only a diagnosed root cause (1); inconclusive and unreadable exit 0
    NEVER = "never"  # always 0 after the report (same as --exit-zero)


class Color(StrEnum):
    AUTO = "auto"  # colour on a terminal, unless NO_COLOR is set or TERM=dumb
    ALWAYS = "always"
    NEVER = "never"


EXIT_HELP = (
    "\b\nExit codes:\n"
    "  0  healthy\n"
    "  1  a root cause diagnosed\n"
    "  2  usage error, or an invalid pattern library\n"
    "  3  failure evidence without a known cause (inconclusive)\n"
    "  4  nothing readable: no input holds any text\n"
    "--fail-on cause turns 3 and 4 into 0;\n"
    "--fail-on never (or --exit-zero) turns 1, 3 and 4 into 0.\n"
    "An answer from partial evidence (--timeout, a missing or\n"
    "unreadable input) never exits 0: a cause found in what was\n"
    "read exits 1, anything else 3; -q's line ends # incomplete."
)
OUTPUTS_HELP = (
    "\b\nWhere the reports go:\n"
    "  stdout          the --format report (text by default);\n"
    "                  nothing when only -o is given\n"
    "  -o FILE         the format its extension names\n"
    "                  (.md .json .txt .html .xml), else --format's\n"
    "  -o FORMAT=FILE  that format\n"
    "  -q              its one line on stdout, whatever -o writes\n"
    "e.g. -f github -o report.html: annotations on stdout,\n"
    "the page in report.html."
)
PROGRESS_MIN_BYTES = 50 << 20
EXTENSION_FORMATS = {".md": "markdown", ".markdown": "markdown", ".json": "json", ".txt": "text", ".log": "text"}
EXTENSION_FORMATS |= {".html": "html", ".htm": "html", ".xml": "junit"}
DEFAULT_WIDTH = 80  # a pipe or a file without COLUMNS
NOT_SERVING_LOG = "not-a-serving-log"  # logshape.NOT_SERVING_LOG (not imported: start-up time)
NOT_FOUND = "not-found"  # discover's code for a path that is not there
# Inputs skipped on purpose or holding nothing: folded into one count line, not a warning each.
SKIP_WORDS = {  # code: (one, several)
    "binary": ("binary file", "binary files"),
    "empty": ("empty file", "empty files"),
    "empty-directory": ("empty directory", "empty directories"),
    "not-a-file": ("special file (FIFO, socket, device)", "special files (FIFO, socket, device)"),
    "not-a-log": ("note or script beside the logs", "notes or scripts beside the logs"),
    "outside-input": ("link out of the input", "links out of the input"),  # discover.OUTSIDE_INPUT
    # duplicates.DUPLICATE_CODE (not imported: start-up time)
    "duplicate-skipped": ("duplicate of a .zst twin", "duplicates of .zst twins"),
    # read, but a document (program source, a table), not a log: its lines are no evidence
    NOT_SERVING_LOG: ("document that is not a log", "documents that are not logs"),
}
LAST_GREEN = "the last green run "  # whose inputs a message names, for --baseline and diff's GOOD
LISTED_SKIPS = 3  # up to this many skips are named one by one; more are counted
LISTED_WARNINGS = 10  # inputs not fully read: named one by one up to this many

PROG = "pdlogdoctor"
COMPLETE_VAR = "_PDLOGDOCTOR_COMPLETE"  # set by the completion script when the shell asks for candidates


def echo(message: str, err: bool = False) -> None:
    """A line on stdout or stderr, flushed (what typer.echo does with the plain text written here)."""
    stream = sys.stderr if err else sys.stdout
    stream.write(message + "\n")
    stream.flush()


def fail(message: str, hint: str | None = None) -> None:
    """One line on stderr: a CI log shows it whole, and `2>&1 | tail -1` still holds the hint."""
    # Messages name files and archive members: defused like log text (the runner reads stderr too).
    echo(f"error: {one_line(message)}" + (f" ({one_line(hint)})" if hint else ""), err=True)


def usage_error(message: str, hint: str | None = None) -> NoReturn:
    fail(message, hint)
    raise SystemExit(ExitCode.USAGE.value)


def read_config(ignore: bool = False) -> Config:
    """The nearest config file's settings; none with --no-config (`ignore`)."""
    if ignore:
        return Config()
    try:
        return find_config(Path.cwd())
    except PdlogdoctorError as exc:
        usage_error(str(exc), exc.hint)


def load_patterns(extra: list[Path] | None, config: Config | None = None) -> Library:
    """The library with the config file's, the environment's and --patterns directories; exit 2 when invalid.
    Kept between runs in the user's cache directory unless PDLOGDOCTOR_NO_CACHE is set (library_cache.py)."""
    from ..library.cache import user_cache_dir
    from ..library.load import load_library
    from ..scan.index import PLAN, make_plan

    cache = None if os.environ.get("PDLOGDOCTOR_NO_CACHE") else user_cache_dir()
    try:
        return load_library(pattern_dirs(config or read_config(), extra), cache, derive={PLAN: make_plan})
    except PdlogdoctorError as exc:
        usage_error(str(exc), exc.hint)


def team_issues(config: Config, library: Library) -> tuple[TeamIssue, ...]:
    """The team's known issues, from the config's `known` files; exit 2 when one is unusable."""
    from ..library.known import load_team_issues

    try:
        return tuple(issue for path in config.known for issue in load_team_issues(path, library.has_verdict))
    except PdlogdoctorError as exc:
        usage_error(str(exc), exc.hint)


# ---------------------------------------------------------------- analyze


@record
class Target:
    """One place a report goes: stdout (path None) or a file."""

    format: OutputFormat
    path: Path | None


def analyze_logs(
    *,
    paths: list[str],
    output_format: str | None = None,
    outputs: list[str] | None = None,
    patterns: list[Path] | None = None,
    quiet: bool = False,
    verbose: bool = False,
    color: str | None = None,
    exit_zero: bool = False,
    fail_on: str | None = None,
    no_redact: bool = False,
    timeout: float | None = None,
    since: str | None = None,
    until: str | None = None,
    abs_time: bool = False,
    baseline: list[str] | None = None,
    follow_symlinks: bool = False,
    no_config: bool = False,
    follow: bool = False,
    exit_on: str | None = None,
    until_idle: float | None = None,
    progress: bool = False,
) -> NoReturn:
    """`analyze` with its options' values (commands.py documents them); ends with the exit code."""
    config = read_config(no_config)
    if timeout is not None and timeout < 0:
        usage_error(f"--timeout {timeout:g} is negative")
    watch = _watch(follow, exit_on, until_idle, timeout, baseline)
    if watch is not None and progress:
        usage_error("--follow says what it read on its own status line; --progress is for a finished run")
    explicit = _choice(OutputFormat, output_format, "--format") if output_format else None
    default = _choice(OutputFormat, config.format, "format", config) if config.format else OutputFormat.TEXT
    targets = _targets(explicit or default, outputs or [], explicit)
    gate = _choice(FailOn, fail_on or config.fail_on or FailOn.INCONCLUSIVE.value, "--fail-on", config)
    colour = _choice(Color, color or config.color or Color.AUTO.value, "--color", config)
    library = load_patterns(patterns, config)
    _check_paths(paths)
    _check_paths(baseline or [])
    for target in targets:
        _refuse_input_as_output(target.path, [*paths, *(baseline or [])])
    options = run_options({target.format for target in targets}, timeout)
    options = replace(options, known_issues=team_issues(config, library))
    options = replace(options, since=_moment(since, "--since"), until=_moment(until, "--until"))
    options = replace(options, follow_symlinks=follow_symlinks)
    if watch is not None:
        report, good = _follow(paths, library, options, watch, quiet), None
    else:
        report, good = _run(paths, library, options, baseline or [], progress)
    unreadable = 0 if exit_zero else gated_exit_code(ExitCode.NOTHING_READABLE, gate)
    if exit_code_for(report) is ExitCode.NOTHING_READABLE:
        _nothing_readable(report, targets, paths, "", _stderr_redactor(report, targets, no_redact))
        raise SystemExit(unreadable)
    if good is not None and exit_code_for(good) is ExitCode.NOTHING_READABLE:
        _nothing_readable(good, targets, baseline or [], LAST_GREEN, _stderr_redactor(good, targets, no_redact))
        raise SystemExit(unreadable)
    code = 0 if exit_zero else gated_exit_code(exit_code_for(report), gate)
    if not quiet:
        _report_input_problems(report, verbose, _stderr_redactor(report, targets, no_redact))
    if verbose:
        from ..scan.accel import installed

        echo(config_line(config, no_config), err=True)
        echo(f"anchor matcher: {installed(options.matcher)}", err=True)
    _emit(report, targets, Look(quiet, verbose, colour, no_redact, abs_time), code)


def config_line(config: Config, ignored: bool) -> str:
    """What -v says of the settings: a file found upwards can change the exit code, so it is named
    (as pytest prints `configfile:`)."""
    if config.source is not None:
        return f"config file: {config.source}"
    return "config file: none (--no-config)" if ignored else "config file: none found"


class ExitOn(StrEnum):
    """--follow --exit-on: what ends the watch before the logs do."""

    CAUSE = "cause"  # a named root cause, as sure as a report that shows its fix without caveats


def _watch(
    follow: bool, exit_on: str | None, until_idle: float | None, timeout: float | None, baseline: list[str] | None
) -> Watch | None:
    """--follow's stopping rules, or None for a post-mortem analysis; the options it refuses."""
    if not follow:
        for given, flag in ((exit_on, "--exit-on"), (until_idle, "--until-idle")):
            if given is not None:
                usage_error(f"{flag} needs --follow", "pdlogdoctor analyze --follow LOGS... " + flag)
        return None
    from .follow import Watch  # here: a post-mortem run does not pay for the watch's imports (signal, threading)

    if timeout is not None or baseline:
        usage_error(f"--follow reads until it stops; {'--timeout' if timeout is not None else '--baseline'} is for "
                    "a finished run", "stop a watch with --until-idle SECONDS or --exit-on cause")  # fmt: skip
    if until_idle is not None and until_idle <= 0:
        usage_error(f"--until-idle {until_idle:g} is not a positive number of seconds")
    exit_on_cause = exit_on is not None and _choice(ExitOn, exit_on, "--exit-on") is ExitOn.CAUSE
    return Watch(exit_on_cause, until_idle)


def _follow(paths: list[str], library: Library, options: RunOptions, watch: Watch, quiet: bool) -> Report:
    """The logs read as they are written until the watch stops (cli/follow.py); the report on them."""
    from ..pipeline import Follow
    from .follow import follow_logs, large_blocks_mapped

    large_blocks_mapped()  # before the follower's first buffers: it runs for hours
    follow = Follow(paths, library, None, options)  # standard input, when given, is read by ingest/tail.py
    return follow.final(follow_logs(follow, watch, quiet)).report


def _moment(text: str | None, option: str) -> float | None:
    from ..reason.clocks import parse_moment

    if text is None:
        return None
    try:
        return parse_moment(text)
    except ValueError as exc:
        usage_error(f"{option} {text!r}: {exc}")


def _choice(kind: type[StrEnum], value: str, flag: str, config: Config | None = None) -> StrEnum:
    """An option value in any case; a usage error that lists the choices otherwise."""
    for member in kind.__members__.values():
        if member.value == value.strip().lower():
            return member
    where = f"{config.source}: " if config is not None and config.source is not None else ""
    values = [member.value for member in kind.__members__.values()]
    usage_error(f"{where}{flag} {value!r} is not one of: {', '.join(values)}", did_you_mean(value, values))


def _targets(stdout_format: StrEnum, outputs: list[str], explicit: StrEnum | None) -> list[Target]:
    """Where reports go (OUTPUTS_HELP says it to the user). stdout gets --format's report (else the
    config file's format, else text), and nothing when only -o was given; `-o FORMAT=FILE` is written
    in FORMAT, a plain `-o FILE` in the format its extension names, else in stdout's. So
    `-f github -o report.html` is annotations on stdout and a page in report.html."""
    targets: list[Target] = []
    for item in outputs:
        name, sep, rest = item.partition("=")
        if sep and name.strip().lower() in _format_names():
            targets.append(Target(OutputFormat(name.strip().lower()), Path(rest)))
            continue
        path = Path(item)
        inferred = EXTENSION_FORMATS.get(path.suffix.lower())
        targets.append(Target(OutputFormat(inferred or stdout_format), path))
    if explicit is not None or not outputs:
        targets.insert(0, Target(OutputFormat(stdout_format), None))
    return targets


def _format_names() -> set[str]:
    return {member.value for member in OutputFormat}


def _check_paths(paths: list[str]) -> None:
    """When no path is there, a usage error (exit 2): nothing was asked that exists. A path that is
    not there beside others is a problem of that input (ingest's `not-found`: a warning, the report's
    inputs, evidence incomplete) and the rest is analysed, as grep and rg search the files that
    exist: the router that never started wrote no router.log, and the others hold the cause."""
    missing: list[str] = []
    for raw in paths:
        if raw == "-":
            continue
        try:
            info = os.stat(raw)
        except FileNotFoundError:
            missing.append(raw)
            continue
        except OSError:
            continue  # permission and the like: ingest reports it as a problem of that input
        if not (stat.S_ISDIR(info.st_mode) or stat.S_ISREG(info.st_mode)):
            usage_error(
                f"{raw}: not a file, directory or archive",
                "to read a stream, pipe it to standard input: ... | pdlogdoctor analyze -",
            )
    if paths and len(missing) == len(paths):
        usage_error(f"{missing[0]}: no such file or directory", _near_names(missing[0]))


def _near_names(raw: str) -> str | None:
    path = Path(raw)
    parent = path.parent if str(path.parent) else Path(".")
    try:
        siblings = [entry.name for entry in parent.iterdir()]
    except OSError:
        return None
    import difflib

    near = difflib.get_close_matches(path.name, siblings, n=3, cutoff=0.6)
    if not near:
        return None
    return "did you mean " + " or ".join(str(parent / name) if str(parent) != "." else name for name in near) + "?"


def _run(
    paths: list[str], library: Library, options: RunOptions, baseline: list[str] | None = None, progress: bool = False
) -> tuple[Report, Report | None]:
    """The run's report; with a baseline, compared with the last green run (baseline.py), and that run's own.
    `progress`: a bar even off a terminal (--progress)."""
    from ..pipeline import run

    try:
        with _progress([*paths, *(baseline or [])], progress) as on_progress:
            if baseline:
                from ..runs.baseline import analyse_both  # the diff machinery only when asked for

                return analyse_both(paths, baseline, library, sys.stdin.buffer, on_progress, options)
            return run(paths, library, stdin=sys.stdin.buffer, on_progress=on_progress, options=options), None
    except PdlogdoctorError as exc:
        usage_error(str(exc), exc.hint)


def run_options(formats: set[OutputFormat], timeout: float | None) -> RunOptions:
    """The run's options: flags, plus the two environment switches (read here and nowhere else)."""
    from ..model.options import RunOptions
    from ..render import SHOWS_EXCERPT

    wanted = os.environ.get("PDLOGDOCTOR_WORKERS", "")
    return RunOptions(
        workers=int(wanted) if wanted.isdigit() and int(wanted) > 0 else None,
        matcher=_matcher(),
        timeout=timeout,
        excerpt=bool(formats & SHOWS_EXCERPT),
    )


def _matcher() -> str:
    """PDLOGDOCTOR_MATCHER names the anchor matcher (PDLOGDOCTOR_ACCEL=0, the older switch: pure)."""
    from ..scan import accel

    if os.environ.get("PDLOGDOCTOR_ACCEL") == "0":
        return accel.PURE
    try:
        return accel.check(os.environ.get("PDLOGDOCTOR_MATCHER", accel.AUTO).strip().lower() or accel.AUTO)
    except ValueError as exc:
        usage_error(f"PDLOGDOCTOR_MATCHER: {exc}")


def gated_exit_code(code: ExitCode, fail_on: FailOn | StrEnum) -> int:
    if fail_on is FailOn.NEVER or (fail_on is FailOn.CAUSE and code is not ExitCode.ROOT_CAUSE):
        return 0
    return int(code)


def exit_code_for(report: Report) -> ExitCode:
    if not any(source.bytes > 0 for source in report.inputs):  # any text read gets a report
        return ExitCode.NOTHING_READABLE
    if report.verdict.id == verdicts.HEALTHY:
        return ExitCode.HEALTHY
    if report.verdict.id in verdicts.NO_CAUSE:
        return ExitCode.INCONCLUSIVE
    return ExitCode.ROOT_CAUSE


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
            usage_error(f"--output {output} is inside the input {raw}", "write the report somewhere else")


# ---------------------------------------------------------------- input problems


def _stderr_redactor(report: Report, targets: list[Target], no_redact: bool) -> Callable[[str], str]:
    """What stderr does to a name or message before showing it: redact it as the report is, when any
    output is meant to be shared (in CI, stderr is the job's public log, beside the annotations)."""
    if no_redact or not any(target.format in SHAREABLE for target in targets):
        return str
    from ..render.redact import redactor_for

    return redactor_for(report)


def _report_input_problems(report: Report, verbose: bool, redact: Callable[[str], str] = str) -> None:
    """Inputs not fully read: a warning each (up to LISTED_WARNINGS). Skips: one folded count line."""
    lost = [(s.name, p) for s in report.inputs for p in s.problems if p.code not in SKIP_WORDS]
    skipped = [(s.name, p) for s in report.inputs for p in s.problems if p.code in SKIP_WORDS]
    if not verbose:
        skipped = [(name, p) for name, p in skipped if p.code != "not-a-log"]  # left out on purpose
    shown = lost if verbose else lost[:LISTED_WARNINGS]
    fold = not verbose and len(skipped) > LISTED_SKIPS
    for name, problem in shown + ([] if fold else skipped):
        hint = _near_names(name) if problem.code == NOT_FOUND else None  # a typo beside good paths
        echo(f"warning: {one_line(redact(name))}: {one_line(redact(problem.message))} [{problem.code}]", err=True)
        if hint:
            echo(f"  ({one_line(redact(hint))})", err=True)
    if len(lost) > len(shown):
        echo(f"warning: {len(lost) - len(shown):,} more inputs not fully read; --verbose lists them", err=True)
    if fold:
        echo(f"warning: {skip_summary(Counter(p.code for _, p in skipped))} skipped; --verbose lists them", err=True)


def skip_summary(counts: Counter[str]) -> str:
    """'17,647 binary files and 281 empty files'."""
    parts = [f"{n:,} {SKIP_WORDS[code][n != 1]}" for code, n in counts.most_common()]
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]


STDIN_NAME = "<stdin>"  # discover.read_stdin's name for it (not imported: start-up time)
# `cmd | pdlogdoctor analyze -` where cmd printed nothing (a glob that matched no file, a log
# command that failed): say so and how logs are given, not that a file did not look like a log.
EMPTY_STDIN = "it was empty (0 bytes); give the logs as paths, or pipe them: cat LOGS... | pdlogdoctor analyze -"


def _nothing_readable(
    report: Report, targets: list[Target], paths: list[str], what: str = "", redact: Callable[[str], str] = str
) -> None:
    """One line instead of a report: there is nothing to diagnose (`what`: whose inputs, when not the run's)."""
    problems = [p for source in report.inputs for p in source.problems if p.code != NOT_SERVING_LOG]
    skipped = Counter(p.code for p in problems if p.code in SKIP_WORDS)
    other = Counter(p.code for p in problems if p.code not in SKIP_WORDS)
    said = ([skip_summary(skipped)] if skipped else []) + [f"{n:,} {code}" for code, n in other.most_common()]
    if any(source.name == STDIN_NAME and source.bytes == 0 for source in report.inputs):
        said.append(EMPTY_STDIN)
    names = " ".join("standard input" if p == "-" else redact(p) for p in paths)
    nothing = f"nothing readable in {what}{names}"
    message = nothing + (f": {'; '.join(said)}" if said else "")
    fail(message)
    if any(target.format is OutputFormat.GITHUB and target.path is None for target in targets):
        from ..render.github import command

        line = defuse_output(command("warning", message, {"title": "pdlogdoctor"}) + "\n", OutputFormat.GITHUB)
        _write_stdout(lambda out: out.write(line))


# ---------------------------------------------------------------- writing


@record
class Look:
    """How the reports should look, from the flags."""

    quiet: bool
    verbose: bool
    colour: StrEnum
    no_redact: bool
    abs_time: bool
    changes_first: bool = False  # `diff`: the comparison with the last green run leads the text report


def _emit(report: Report, targets: list[Target], look: Look, code: int) -> NoReturn:
    """Report files first (atomic), then the GitHub step files, then stdout (whose reader may go away).
    A file that cannot be written is the environment's fault after a good analysis: the other
    outputs are still written, then one line and exit 2 (never 1, which means a root cause)."""
    failures: list[str] = []
    for target in targets:
        if target.path is not None:
            try:
                _write_file(report, target, _render_options(report, target.format, look, None))
            except WriteFailed as exc:
                failures.append(str(exc))
    if any(target.format is OutputFormat.GITHUB for target in targets):
        _write_step_files(report, _render_options(report, OutputFormat.GITHUB, look, None), failures)
    stdout = next((t for t in targets if t.path is None), None)
    if look.quiet:  # its one line, whatever else was asked for: the line is what a script reads
        from ..render.text import quiet_line

        line = defuse_output(quiet_line(report) + "\n", OutputFormat.TEXT)
        _write_stdout(lambda out: out.write(line))
    elif stdout is not None:
        options = _render_options(report, stdout.format, look, sys.stdout)
        if stdout.format is OutputFormat.JSON:  # written as it is encoded: a 100,000-file report is hundreds of MB
            _write_stdout(lambda out: _render_json_to(report, options, out))
        else:
            text = _rendered(report, stdout.format, options)
            _write_stdout(lambda out: out.write(text))
    for failure in failures:
        fail(failure)
    if failures and stdout is None and not look.quiet:
        _say_the_verdict_unwritten(report, targets, look)
    raise SystemExit(ExitCode.USAGE.value if failures else code)


def _say_the_verdict_unwritten(report: Report, targets: list[Target], look: Look) -> None:
    """A full disk or a read-only directory under -o: the analysis went well, its report has
    nowhere to go, so its one line (--quiet's) is said on stderr rather than lost."""
    from ..render.text import quiet_line

    redact = _stderr_redactor(report, targets, look.no_redact)
    echo(redact(f"verdict, not written: {quiet_line(report)}"), err=True)


def _write_step_files(report: Report, options: RenderOptions, failures: list[str]) -> None:
    """In GitHub Actions: the markdown report in the step summary; verdict and fingerprint as step outputs."""
    from .step_files import append_step_outputs, append_step_summary

    for variable in ("GITHUB_STEP_SUMMARY", "GITHUB_OUTPUT"):
        value = os.environ.get(variable)
        if not value:
            continue
        try:
            if variable == "GITHUB_STEP_SUMMARY":
                append_step_summary(report, options, Path(value))
            else:
                append_step_outputs(report, Path(value))
        except (OSError, UnicodeError) as exc:
            reason = exc.strerror if isinstance(exc, OSError) else "a character its encoding cannot hold"
            failures.append(f"cannot write {variable} ({value}): {reason or exc}")


def _rendered(report: Report, output_format: OutputFormat, options: RenderOptions) -> str:
    """The whole report, defused: no log line or file name in it can act as a workflow command."""
    from ..render import render
    from ..render.neutralise import defuse_output

    buffer = io.StringIO()
    render(report, output_format, buffer, options)
    return defuse_output(buffer.getvalue(), output_format)


def _render_json_to(report: Report, options: RenderOptions, out: TextIO) -> None:
    """The JSON report written to `out` piece by piece, defused as `_rendered` defuses it whole."""
    from ..render import render
    from ..render.neutralise import DefusedJson

    defused = DefusedJson(out)
    render(report, OutputFormat.JSON, cast(TextIO, defused), options)  # a text stream: all a renderer writes to
    defused.finish()


def _render_options(report: Report, output_format: OutputFormat, look: Look, stream: TextIO | None) -> RenderOptions:
    from ..render.options import RenderOptions

    workspace = os.environ.get("GITHUB_WORKSPACE") or None
    return RenderOptions(
        redact=output_format in SHAREABLE and not look.no_redact,
        workspace_files=_workspace_files(report, workspace) if output_format is OutputFormat.GITHUB else (),
        color=use_color(look.colour, stream),
        width=terminal_width(stream),
        verbose=look.verbose,
        abs_time=look.abs_time,
        changes_first=look.changes_first,
    )


def _workspace_files(report: Report, workspace: str | None) -> tuple[tuple[str, str], ...]:
    from .step_files import workspace_files  # the markdown renderer with it: only for --format github

    return workspace_files(report, workspace)


def use_color(choice: StrEnum, stream: TextIO | None) -> bool:
    """--color wins; then NO_COLOR (any value, no-color.org); then FORCE_COLOR (any value but 0,
    force-color.org: a CI log viewer or a pager that shows colour); then: is it a terminal?"""
    if choice is Color.ALWAYS or choice is Color.NEVER:
        return choice is Color.ALWAYS
    if os.environ.get("NO_COLOR"):
        return False
    return os.environ.get("FORCE_COLOR", "") not in ("", "0") or is_terminal(stream)


def terminal_width(stream: TextIO | None) -> int:
    """COLUMNS when set (the user's say, and what `COLUMNS=80 cmd | less` means), else the terminal's, else 80."""
    value = os.environ.get("COLUMNS", "")
    if value.isdigit() and int(value) > 0:
        return int(value)
    if is_terminal(stream):
        import shutil  # here: only a terminal asks for its size

        return shutil.get_terminal_size((DEFAULT_WIDTH, 24)).columns
    return DEFAULT_WIDTH


def _write_stdout(write: Callable[[TextIO], object]) -> None:
    """Write the report. A reader that went away (`| head -1`) is no error: `main` made such writes
    vanish, so the run still ends with the verdict's code (output.keep_running_when_readers_go)."""
    try:
        write(sys.stdout)
        sys.stdout.flush()
    except (OSError, UnicodeError) as exc:  # a full disk behind `> file`, a closed terminal: the report is lost
        reason = exc.strerror if isinstance(exc, OSError) else "a character its encoding cannot hold"
        usage_error(f"cannot write the report to stdout: {reason or exc}")


def _write_file(report: Report, target: Target, options: RenderOptions) -> None:
    from .output import deliver

    assert target.path is not None
    deliver(_rendered(report, target.format, options), target.path)


def _progress(paths: list[str], asked: bool = False) -> contextlib.AbstractContextManager[Callable[[int], None] | None]:
    """A progress bar on stderr for a long read, in bytes on disk (the run reports them so: a
    .gz's compressed bytes, every worker's range as it is read); for stdin, whose size is unknown,
    a byte counter. Only on a terminal and outside CI (a runner that gives its job a terminal keeps
    every redraw in the log), unless asked for (--progress)."""
    if not (asked or _interactive()):
        return contextlib.nullcontext(None)
    from ..ingest import discover

    total = sum(item.size for item in discover([p for p in paths if p != "-"]))
    return _progress_bar(None if "-" in paths else total, 0 if asked else PROGRESS_MIN_BYTES, asked)


def _interactive() -> bool:
    """A person watches stderr: a terminal that redraws (terminal.py), and not a CI runner's."""
    return is_terminal(sys.stderr) and not os.environ.get("CI")


@contextlib.contextmanager
def _progress_bar(total: int | None, shown_from: int, forced: bool) -> Iterator[Callable[[int], None] | None]:
    """The bar, when the read is long: at once for a known total of `shown_from` bytes or more,
    and for an unknown total (stdin) once that many bytes were read."""
    if total is not None and total < shown_from:
        yield None
        return
    from rich.console import Console
    from rich.progress import BarColumn, DownloadColumn, Progress, TimeRemainingColumn, TransferSpeedColumn

    columns = (BarColumn(), DownloadColumn(), TransferSpeedColumn(), TimeRemainingColumn())
    bar = Progress(*columns, console=Console(stderr=True, force_terminal=forced or None), transient=True)
    task = bar.add_task("scanning", total=total)
    appears_at = 0 if total is not None else shown_from  # a long file: at once; stdin: once it proved long
    try:
        yield lambda size: _advance(bar, task, size, appears_at)
    finally:
        bar.stop()


def _advance(bar: Progress, task: TaskID, size: int, shown_from: int) -> None:
    """Count `size` more bytes; the bar appears once `shown_from` bytes were read."""
    bar.advance(task, size)
    if not bar.live.is_started and bar.tasks[0].completed >= shown_from:
        bar.start()


# ---------------------------------------------------------------- diff


class DiffExit(IntEnum):
    """`diff`'s own contract (docs/usage.md): did anything relevant change?"""

    NO_CHANGE = 0
    CHANGED = 1
    USAGE = 2  # as every command's usage errors
    NOTHING_READABLE = 4  # as analyze's: nothing readable in GOOD or in BAD


def diff_logs(
    *,
    good: str,
    bad: str,
    output_format: str | None = None,
    outputs: list[str] | None = None,
    patterns: list[Path] | None = None,
    color: str | None = None,
    no_redact: bool = False,
    no_config: bool = False,
) -> NoReturn:
    """`diff` with its options' values (commands.py documents them); ends with the exit code."""
    config = read_config(no_config)
    explicit = _choice(OutputFormat, output_format, "--format") if output_format else None
    targets = _targets(explicit or OutputFormat.TEXT, outputs or [], explicit)
    colour = _choice(Color, color or config.color or Color.AUTO.value, "--color", config)
    library = load_patterns(patterns, config)
    _check_paths([good])
    _check_paths([bad])
    for target in targets:
        _refuse_input_as_output(target.path, [good, bad])
    options = replace(
        run_options({target.format for target in targets}, None), known_issues=team_issues(config, library)
    )
    report, baseline = _run([bad], library, options, [good])
    for unreadable, paths, what in ((baseline, [good], LAST_GREEN), (report, [bad], "")):
        if unreadable is not None and exit_code_for(unreadable) is ExitCode.NOTHING_READABLE:
            _nothing_readable(unreadable, targets, paths, what, _stderr_redactor(unreadable, targets, no_redact))
            raise SystemExit(DiffExit.NOTHING_READABLE)
    _report_input_problems(report, False, _stderr_redactor(report, targets, no_redact))
    changed = report.comparison is not None and report.comparison.changed
    look = Look(False, False, colour, no_redact, False, changes_first=True)
    _emit(report, targets, look, DiffExit.CHANGED if changed else DiffExit.NO_CHANGE)
