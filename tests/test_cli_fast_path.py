"""`cli.main` reads a plain `analyze` command line without typer (start-up): it must mean exactly what
typer would make of it, and leave every other command line to typer."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest
from typer.main import get_command
from typer.testing import CliRunner

from pdlogdoctor.cli.commands import app
from pdlogdoctor.cli.main import ANALYZE_OPTIONS, FLAG, VALUE, VALUES, main, plain_analyze

from .bundle_copy import SEED
from .test_user_patterns import good, write_pattern

ONE_LINE = "2026-07-01 12:00:00 INFO server started\n"
# Modules a plain `analyze --format json` of a plain file has no use for: each costs start-up.
NOT_NEEDED = (
    "typer", "click", "rich", "pydantic", "jsonschema", "multiprocessing", "concurrent", "tarfile", "zipfile",
    "zstandard", "statistics", "tempfile", "importlib.resources", "pdlogdoctor.runs.compare",
    "pdlogdoctor.runs.profile", "tomllib", "shutil",
)  # fmt: skip


def test_the_option_table_is_the_typer_commands() -> None:
    """A new option of `analyze` in commands.py must also be known to the plain reader (else it would
    send every command line with it to typer: correct, but slow); this keeps the two the same."""
    command = get_command(app).commands["analyze"]  # type: ignore[attr-defined]
    declared: dict[str, tuple[str, str]] = {}
    for param in command.params:
        if param.param_type_name != "option":
            continue
        kind = FLAG if param.is_flag else VALUES if param.multiple else VALUE
        for name in (*param.opts, *param.secondary_opts):
            declared[name] = (param.name, kind)
    assert declared == ANALYZE_OPTIONS


def test_plain_spellings_are_read_here() -> None:
    args = ["analyze", "--format=json", "-o", "a.md", "--output", "json=b", "--patterns", "mine", "-q"]
    args += ["--timeout", "2.5", "logs/", "-", "--since", "2026-07-01", "--abs-time", "more.log"]
    assert plain_analyze(args) == {
        "paths": ["logs/", "-", "more.log"],
        "output_format": "json",
        "outputs": ["a.md", "json=b"],
        "patterns": [Path("mine")],
        "quiet": True,
        "timeout": 2.5,
        "since": "2026-07-01",
        "abs_time": True,
    }


@pytest.mark.parametrize(
    "args",
    [
        [],
        ["-V"],
        ["verdicts"],
        ["analyze"],  # no path: typer's "missing argument"
        ["analyze", "-h", "x.log"],
        ["analyze", "--help"],
        ["analyze", "-qv", "x.log"],  # clustered flags
        ["analyze", "-fjson", "x.log"],  # a value glued to a short option
        ["analyze", "-f=json", "x.log"],
        ["analyze", "--", "-x.log"],
        ["analyze", "--quiet=yes", "x.log"],
        ["analyze", "-f", "json", "--format", "text", "x.log"],  # repeated: typer keeps the last
        ["analyze", "-q", "-q", "x.log"],
        ["analyze", "x.log", "--format"],  # missing value
        ["analyze", "--timeout", "-1", "x.log"],  # a value that looks like an option
        ["analyze", "--timeout", "soon", "x.log"],  # not a number: typer's message
        ["analyze", "--patterns", "", "x.log"],
        ["analyze", "--formt", "json", "x.log"],  # unknown: typer suggests the right one
    ],
)
def test_anything_else_is_left_to_typer(args: list[str]) -> None:
    assert plain_analyze(args) is None


def _typer(args: list[str], stdin: str | None) -> tuple[int, str, str]:
    result = CliRunner().invoke(app, args, input=stdin, prog_name="pdlogdoctor")
    return result.exit_code, result.stdout, result.stderr


def _main(
    args: list[str], stdin: str | None, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> tuple[int, str, str]:
    if stdin is not None:
        monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(stdin.encode())))
    with pytest.raises(SystemExit) as done:
        main(args)
    captured = capsys.readouterr()
    return int(done.value.code or 0), captured.out, captured.err


@pytest.mark.parametrize(
    ("args", "stdin"),
    [
        (["analyze", "-f", "json", str(SEED)], None),
        (["analyze", str(SEED), "--format=markdown", "--no-redact", "--abs-time"], None),
        (["analyze", "-q", "--fail-on", "cause", str(SEED)], None),
        (["analyze", "--verbose", "--color", "never", "--exit-zero", str(SEED)], None),
        (["analyze", "-f", "YAML", str(SEED)], None),  # usage error from the option's value
        (["analyze", "--color", "sometimes", str(SEED)], None),
        (["analyze", "--timeout", "-1", str(SEED)], None),  # left to typer, then a usage error
        (["analyze", str(SEED / "no-such.log"), str(SEED)], None),  # a typo: one line, exit 2
        (["analyze", "--since", "yesterday", str(SEED)], None),
        (["analyze", "-q", "-"], ONE_LINE),
        (["analyze", "-f", "json", "-"], ""),  # nothing readable: exit 4
    ],
)
def test_plain_and_typer_readings_give_the_same_run(
    args: list[str], stdin: str | None, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    expected = _typer(args, stdin)
    assert _main(args, stdin, capsys, monkeypatch) == expected
    assert expected[0] in (0, 1, 2, 3, 4)


def test_pattern_directories_and_report_files_the_same_way(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    mine = tmp_path / "mine"
    write_pattern(mine, "user-started", good("user-started", anchor="server started", regex="server started"))
    reports = []
    for run in (lambda a: _typer(a, None), lambda a: _main(a, None, capsys, monkeypatch)):
        out = tmp_path / f"report-{len(reports)}.json"
        (tmp_path / "one.log").write_text(ONE_LINE)
        code, stdout, _ = run(["analyze", "--patterns", str(mine), "-o", str(out), str(tmp_path / "one.log")])
        reports.append((code, stdout, json.loads(out.read_text())))
    assert reports[0] == reports[1]
    assert "user-started" in json.dumps(reports[0][2])


PROBE = """
import json, sys
from pdlogdoctor.cli.main import main
try:
    main(sys.argv[1:])
except SystemExit as done:
    code = done.code
loaded = sorted(name for name in json.loads(NOT_NEEDED) if name in sys.modules)
print(json.dumps([code, loaded]), file=sys.stderr)
"""


def _probe(tmp_path: Path, *args: str, watched: tuple[str, ...] = NOT_NEEDED) -> tuple[int, list[str]]:
    probe = PROBE.replace("NOT_NEEDED", repr(json.dumps(watched)))
    done = subprocess.run(
        [sys.executable, "-c", probe, *args], capture_output=True, text=True, check=False, cwd=tmp_path
    )
    code, loaded = json.loads(done.stderr.splitlines()[-1])
    return code, loaded


def test_a_plain_analyze_loads_no_module_it_does_not_need(tmp_path: Path) -> None:
    (tmp_path / "one.log").write_text(ONE_LINE)
    assert _probe(tmp_path, "analyze", "--format", "json", "one.log")[0] == 3  # stores the library (tempfile)
    assert _probe(tmp_path, "analyze", "--format", "json", "one.log") == (3, [])
    assert _probe(tmp_path, "analyze", "-q", "one.log") == (3, [])
    # The probe sees typer where it is used: the help, and any spelling left to typer.
    assert "typer" in _probe(tmp_path, "analyze", "-h")[1]
    assert "typer" in _probe(tmp_path, "analyze", "-qv", "one.log")[1]


def test_a_json_analyze_of_a_plain_line_imports_no_regex_and_no_matcher(tmp_path: Path) -> None:
    """No library regex is needed for a line that holds no anchor: the log-shape decision answers
    with `re` on an ASCII head (prefilter.py) and quiet.py compiles its warning regex only for a line
    holding a key, so `regex` (~10 ms to import) stays unimported; a 40-byte input is searched by
    bytes.find passes, so no compiled matcher is imported or built either (accel.Deferred)."""
    (tmp_path / "one.log").write_text(ONE_LINE)
    assert _probe(tmp_path, "analyze", "--format", "json", "one.log")[0] == 3  # stores the library
    watched = ("regex", "hyperscan", "ahocorasick_rs")
    assert _probe(tmp_path, "analyze", "--format", "json", "one.log", watched=watched) == (3, [])
