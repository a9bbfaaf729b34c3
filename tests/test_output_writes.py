"""Writing reports: every write failure is one line and exit 2 (never a traceback, never 1,
which means "root cause"); special targets (/dev/stdout, pipes, links) get the report."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pdlogdoctor.cli.commands import app
from pdlogdoctor.cli.output import WriteFailed, deliver
from pdlogdoctor.render.neutralise import defuse_commands, one_line

from .bundle_copy import SEED

runner = CliRunner()
FULL = Path("/dev/full")


def analyze(*args: str, env: dict[str, str] | None = None) -> tuple[int, str, str]:
    result = runner.invoke(app, ["analyze", *args], env=env)
    return result.exit_code, result.stdout, result.stderr


def assert_one_line_error(code: int, err: str, *words: str) -> None:
    assert code == 2
    lines = [line for line in err.splitlines() if line.startswith("error:")]
    assert len(lines) == 1 and all(word in lines[0] for word in words), err
    assert "Traceback" not in err


def test_output_onto_a_directory_is_a_usage_error(tmp_path: Path) -> None:
    code, _, err = analyze("-f", "json", "-o", str(tmp_path), str(SEED))
    assert_one_line_error(code, err, str(tmp_path), "directory")


@pytest.mark.skipif(not FULL.exists(), reason="no /dev/full")
def test_a_full_disk_is_a_usage_error() -> None:
    code, _, err = analyze("-f", "json", "-o", str(FULL), str(SEED))
    assert_one_line_error(code, err, "/dev/full")


@pytest.mark.skipif(not FULL.exists(), reason="no /dev/full")
@pytest.mark.parametrize("variable", ["GITHUB_STEP_SUMMARY", "GITHUB_OUTPUT"])
def test_a_broken_actions_file_is_a_usage_error(variable: str, tmp_path: Path) -> None:
    env = {"GITHUB_STEP_SUMMARY": str(tmp_path / "summary.md"), "GITHUB_OUTPUT": str(tmp_path / "out")}
    for broken in (str(FULL), str(tmp_path), str(tmp_path / "no-such-dir" / "file")):
        code, out, err = analyze("-f", "github", str(SEED), env={**env, variable: broken})
        assert_one_line_error(code, err, variable)
        assert out.startswith("::error")  # the annotations were printed before


def test_output_through_a_link_keeps_the_link(tmp_path: Path) -> None:
    real = tmp_path / "elsewhere" / "report.json"
    real.parent.mkdir()
    real.write_text("old")
    link = tmp_path / "report.json"
    link.symlink_to(real)
    code, _, err = analyze("-f", "json", "-o", str(link), str(SEED))
    assert code == 1, err
    assert link.is_symlink() and json.loads(real.read_text())["verdict"]["id"] == "mori-mr-size-limit"
    assert [p.name for p in real.parent.iterdir()] == ["report.json"]  # no temp file left behind


def test_a_new_report_file_gets_the_usual_mode(tmp_path: Path) -> None:
    target = tmp_path / "report.md"
    old = os.umask(0o022)
    try:
        analyze("-f", "markdown", "-o", str(target), str(SEED))
    finally:
        os.umask(old)
    assert stat.S_IMODE(target.stat().st_mode) == 0o644  # as `>` makes it, not mkstemp's 0600


def test_deliver_writes_through_a_descriptor_path(tmp_path: Path) -> None:
    read, write = os.pipe()
    deliver(
        "through fd\n", Path(f"/proc/self/fd/{write}") if Path("/proc/self/fd").is_dir() else Path(f"/dev/fd/{write}")
    )
    os.close(write)
    with os.fdopen(read) as handle:
        assert handle.read() == "through fd\n"
    with pytest.raises(WriteFailed, match="directory"):
        deliver("x", tmp_path)


def _cli(*args: str, **kwargs: object) -> subprocess.CompletedProcess[bytes]:
    command = [sys.executable, "-m", "pdlogdoctor", "analyze", *args]
    return subprocess.run(command, check=False, capture_output=False, **kwargs)  # type: ignore[call-overload, no-any-return]


def test_output_to_dev_stdout_redirected_to_a_file(tmp_path: Path) -> None:
    target = tmp_path / "report.json"
    was_link = Path("/dev/stdout").is_symlink()
    with target.open("w") as handle:
        done = _cli("-o", "json=/dev/stdout", str(SEED), stdout=handle, stderr=subprocess.PIPE)
    assert done.returncode == 1, done.stderr
    assert json.loads(target.read_text())["verdict"]["id"] == "mori-mr-size-limit"
    assert Path("/dev/stdout").is_symlink() == was_link  # written through, never replaced by a file


def test_output_to_dev_stdout_into_a_pipe() -> None:
    done = _cli("-o", "json=/dev/stdout", str(SEED), stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert done.returncode == 1, done.stderr
    assert json.loads(done.stdout)["verdict"]["id"] == "mori-mr-size-limit"


def test_names_in_messages_cannot_start_a_line_or_a_command() -> None:
    assert one_line("rank3\n::warning title=x::y.log") == "rank3\\n::warning title=x::y.log"  # not at a line start
    # a no-break space between the marker's characters: ICU's collation does not ignore it (D16)
    assert one_line("a/##[error]b.log\x1b[31m\r") == "a/#\u00a0#[error]b.log\\x1b[31m\\r"
    assert defuse_commands("ok\n   ::set-output name=a::b\nx\r::add-mask::y") == (
        "ok\n   :\u00a0:set-output name=a::b\nx\\r::add-mask::y"
    )
