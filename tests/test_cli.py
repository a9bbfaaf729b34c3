"""The command line: exit codes, --fail-on, stdout holds only the report, --output is atomic."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pdlogdoctor.cli.behaviour import EXIT_HELP, ExitCode, FailOn, gated_exit_code
from pdlogdoctor.cli.commands import app
from pdlogdoctor.render.json_format import schema_text

from .bundle_copy import SEED, copy_bundle
from .conftest import ROOT

runner = CliRunner()


def invoke(*args: str, env: dict[str, str] | None = None) -> tuple[int, str, str]:
    result = runner.invoke(app, list(args), env=env)
    return result.exit_code, result.stdout, result.stderr


def test_stdout_has_only_the_report_and_stderr_the_warnings(tmp_path: Path) -> None:
    (tmp_path / "empty.log").write_bytes(b"")
    code, out, err = invoke("analyze", "-f", "json", str(SEED), str(tmp_path / "empty.log"))
    assert code == ExitCode.ROOT_CAUSE
    document = json.loads(out)  # nothing but JSON on stdout
    assert document["verdict"]["id"] == "mori-mr-size-limit"
    assert "empty.log" in err and "[empty]" in err


@pytest.mark.parametrize(
    ("code", "fail_on", "expected"),
    [
        (ExitCode.ROOT_CAUSE, FailOn.INCONCLUSIVE, 1),
        (ExitCode.INCONCLUSIVE, FailOn.INCONCLUSIVE, 3),
        (ExitCode.NOTHING_READABLE, FailOn.INCONCLUSIVE, 4),
        (ExitCode.HEALTHY, FailOn.INCONCLUSIVE, 0),
        (ExitCode.ROOT_CAUSE, FailOn.CAUSE, 1),
        (ExitCode.INCONCLUSIVE, FailOn.CAUSE, 0),
        (ExitCode.NOTHING_READABLE, FailOn.CAUSE, 0),
        (ExitCode.ROOT_CAUSE, FailOn.NEVER, 0),
        (ExitCode.INCONCLUSIVE, FailOn.NEVER, 0),
    ],
)
def test_fail_on_gates_the_exit_code(code: ExitCode, fail_on: FailOn, expected: int) -> None:
    assert gated_exit_code(code, fail_on) == expected


def test_fail_on_from_the_command_line(tmp_path: Path) -> None:
    assert invoke("analyze", "-f", "json", str(SEED))[0] == 1
    assert invoke("analyze", "-f", "json", "--fail-on", "cause", str(SEED))[0] == 1
    assert invoke("analyze", "-f", "json", "--fail-on", "never", str(SEED))[0] == 0
    empty = tmp_path / "empty.log"
    empty.write_text("")
    assert invoke("analyze", "-f", "json", str(empty))[0] == ExitCode.NOTHING_READABLE
    assert invoke("analyze", "-f", "json", "--fail-on", "cause", str(empty))[0] == 0
    assert invoke("analyze", "--fail-on", "sometimes", str(SEED))[0] == 2  # usage error


def test_help_documents_the_exit_codes_and_fail_on() -> None:
    code, out, _ = invoke("analyze", "--help")
    assert code == 0
    flat = " ".join(out.split())
    for phrase in ("0 healthy", "1 a root cause", "3 failure evidence", "4 nothing readable", "--fail-on"):
        assert phrase in flat
    usage = " ".join((ROOT / "docs" / "usage.md").read_text().split())
    assert "--fail-on" in usage and "| 3 |" in usage
    assert "--fail-on cause" in EXIT_HELP


def test_output_file_written_atomically_only_after_success(tmp_path: Path) -> None:
    report = tmp_path / "out" / "report.md"
    report.parent.mkdir()
    code, out, _ = invoke("analyze", "-o", str(report), str(SEED))
    assert code == 1 and out == ""  # -o alone: the report goes to the file only
    assert report.read_text().startswith("## pdlogdoctor:")
    assert [p.name for p in report.parent.iterdir()] == ["report.md"]  # no temp file left behind
    # A usage error (bad pattern directory) leaves the old report alone.
    bad = tmp_path / "bad-patterns"
    bad.mkdir()
    (bad / "x.toml").write_text("id = ")
    before = report.read_text()
    code, _, err = invoke("analyze", "-o", str(report), "--patterns", str(bad), str(SEED))
    assert code == 2 and err
    assert report.read_text() == before


def test_output_never_goes_into_an_input(tmp_path: Path) -> None:
    bundle = copy_bundle(SEED, tmp_path / "bundle")
    before = {p.name: p.read_bytes() for p in bundle.iterdir()}
    code, _, err = invoke("analyze", "-o", str(bundle / "router.log"), str(bundle))
    assert code == 2 and "inside the input" in err
    code, _, _ = invoke("analyze", "-o", str(bundle / "report.md"), str(bundle))
    assert code == 2
    assert {p.name: p.read_bytes() for p in bundle.iterdir()} == before


def test_markdown_is_redacted_by_default_and_not_with_no_redact() -> None:
    _, redacted, _ = invoke("analyze", "-f", "markdown", str(SEED))
    _, plain, _ = invoke("analyze", "-f", "markdown", "--no-redact", str(SEED))
    assert "10.24.3.18" in plain and "10.24.3.18" not in redacted
    _, text, _ = invoke("analyze", str(SEED))
    assert "mia1-p06-g13" in text and "<host-" not in text  # the terminal report is never redacted
    assert "mia1-p06-g13" in plain and "mia1-p06-g13" not in redacted


def test_github_format_uses_the_actions_environment(tmp_path: Path) -> None:
    summary = tmp_path / "summary.md"
    outputs = tmp_path / "outputs"
    env = {"GITHUB_WORKSPACE": str(ROOT), "GITHUB_STEP_SUMMARY": str(summary), "GITHUB_OUTPUT": str(outputs)}
    code, out, _ = invoke("analyze", "-f", "github", str(SEED), env=env)
    assert code == 1
    lines = out.splitlines()
    assert 1 <= len(lines) <= 10 and lines[0].startswith("::error ")
    assert all(line.startswith("::notice ") for line in lines[1:])
    assert "file=fixtures/mori-mr-size-limit-seed/" in lines[0]
    assert "### Causal chain" in summary.read_text()
    assert "Evidence excerpt" in summary.read_text()  # the run read the excerpt for the summary
    assert outputs.read_text().startswith("verdict=mori-mr-size-limit\nfingerprint=pdld-")


def test_schema_command_prints_the_shipped_schema() -> None:
    code, out, _ = invoke("schema")
    assert code == 0 and json.loads(out) == json.loads(schema_text())


def test_progress_bar_only_for_big_inputs_on_a_terminal(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import io
    import sys

    from pdlogdoctor.cli import behaviour as cli

    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    big = tmp_path / "big.log"
    with big.open("wb") as handle:
        handle.truncate(60 << 20)
    monkeypatch.delenv("CI", raising=False)  # a terminal outside CI
    monkeypatch.setenv("TERM", "xterm")
    monkeypatch.setattr(sys, "stderr", Terminal())
    with cli._progress([str(SEED)]) as small_callback:
        assert small_callback is None  # a few hundred KB: no bar
    with cli._progress([str(big)]) as callback:
        assert callback is not None
        callback(30 << 20)
    monkeypatch.setattr(sys, "stderr", io.StringIO())  # not a terminal: silent however big
    with cli._progress([str(big)]) as silent:
        assert silent is None
