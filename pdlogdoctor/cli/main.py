"""The `pdlogdoctor` command's entry point, with start-up as a feature.

`main` reads a plain `analyze` command line itself and runs it without importing typer
(~60 ms), and hands everything else (help, completion, other commands, any spelling it
does not know) to the typer app (commands.py).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any, NoReturn

from .behaviour import COMPLETE_VAR, PROG, analyze_logs
from .output import keep_running_when_readers_go

FLAG, VALUE, VALUES = "flag", "value", "values"  # an option's kind: no value, one value, repeatable
# analyze's options as commands.py declares them (tests/test_cli_fast_path.py keeps the two the same).
ANALYZE_OPTIONS: dict[str, tuple[str, str]] = {
    "--format": ("output_format", VALUE), "-f": ("output_format", VALUE),
    "--output": ("outputs", VALUES), "-o": ("outputs", VALUES),
    "--patterns": ("patterns", VALUES),
    "--quiet": ("quiet", FLAG), "-q": ("quiet", FLAG),
    "--verbose": ("verbose", FLAG), "-v": ("verbose", FLAG),
    "--color": ("color", VALUE),
    "--exit-zero": ("exit_zero", FLAG),
    "--fail-on": ("fail_on", VALUE),
    "--no-redact": ("no_redact", FLAG),
    "--timeout": ("timeout", VALUE),
    "--since": ("since", VALUE),
    "--until": ("until", VALUE),
    "--abs-time": ("abs_time", FLAG),
    "--baseline": ("baseline", VALUES),
    "--no-config": ("no_config", FLAG),
    "--progress": ("progress", FLAG),
    "--follow-symlinks": ("follow_symlinks", FLAG),
    "--follow": ("follow", FLAG),
    "--exit-on": ("exit_on", VALUE),
    "--until-idle": ("until_idle", VALUE),
}  # fmt: skip
# What click would expand in an argument on Windows (user, variables, wildcards): left to it.
_WINDOWS_EXPANDED = frozenset("~$%*?[")


def plain_analyze(args: list[str]) -> dict[str, Any] | None:
    """The keyword arguments of `analyze_logs` for an `analyze` command line in the plain spelling:
    each option whole (`--format json`, `--format=json`, `-f json`, `-q`), every value present and
    valid for its type, one or more paths. None for anything else (help, `--`, `-qv`, `-fjson`,
    an unknown or repeated option, a missing value, no path): the typer app reads those, so every
    message and exit code stays typer's."""
    if not args or args[0] != "analyze" or (os.name == "nt" and any(_WINDOWS_EXPANDED & set(a) for a in args)):
        return None
    values: dict[str, Any] = {"paths": []}
    rest = args[1:]
    while rest:
        token = rest.pop(0)
        if token == "-" or not token.startswith("-"):
            values["paths"].append(token)
            continue
        name, equals, value = token.partition("=")
        if name not in ANALYZE_OPTIONS or (equals and not name.startswith("--")):
            return None
        parameter, kind = ANALYZE_OPTIONS[name]
        if kind == FLAG:
            if equals or parameter in values:
                return None
            values[parameter] = True
            continue
        if not equals:
            if not rest or rest[0].startswith("-"):
                return None  # click would take `-x` as the value: its reading, not ours
            value = rest.pop(0)
        if kind == VALUE and parameter in values:
            return None
        converted = _option_value(parameter, value)
        if converted is None:
            return None
        if kind == VALUES:
            values.setdefault(parameter, []).append(converted)
        else:
            values[parameter] = converted
    return values if values["paths"] else None


def _option_value(parameter: str, value: str) -> object | None:
    """The value as typer converts it (a float, a Path, a string); None where its conversion could fail."""
    if parameter in ("timeout", "until_idle"):
        try:
            return float(value)
        except ValueError:
            return None
    if parameter == "patterns":
        return Path(value) if value else None
    return value


def main(argv: list[str] | None = None) -> None:
    """The `pdlogdoctor` command. A plain `analyze` runs here; the typer app reads everything else."""
    args = sys.argv[1:] if argv is None else list(argv)
    keep_running_when_readers_go()  # `| head -1`: every command keeps its own exit code, without a traceback
    plain = None if COMPLETE_VAR in os.environ else plain_analyze(args)
    if plain is not None:
        _run_plain(plain)
    if COMPLETE_VAR in os.environ:
        # The shell is asking for candidates: typer's completion classes answer (only then are they loaded).
        from typer._completion_classes import completion_init

        completion_init()
    from .commands import app

    app(args=argv, prog_name=PROG)  # argv None: typer reads sys.argv (and expands wildcards on Windows)


def _run_plain(values: dict[str, Any]) -> NoReturn:
    """`analyze_logs`, with the exit typer's main would give on Ctrl-C: 130."""
    try:
        analyze_logs(**values)
    except KeyboardInterrupt:
        raise SystemExit(130) from None
