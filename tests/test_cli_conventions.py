"""The command line behaves as users of other CLIs expect (issue 15): wrong input, -o formats,
--quiet, completion, config file, closed pipes, the verdict catalogue, a reviewed --help."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pdlogdoctor.cli.commands import app
from pdlogdoctor.library.load import load_library

from .bundle_copy import SEED, copy_bundle
from .conftest import FIXTURES, ROOT
from .test_user_patterns import good, write_pattern

HEALTHY = FIXTURES / "blind-healthy-scary-noise"
HELP_SNAPSHOT = Path(__file__).parent / "data" / "help" / "analyze.txt"


def invoke(*args: str, env: dict[str, str] | None = None, stdin: str | None = None) -> tuple[int, str, str]:
    result = CliRunner().invoke(app, list(args), env=env, input=stdin, prog_name="pdlogdoctor")
    return result.exit_code, result.stdout, result.stderr


def command(*args: str) -> list[str]:
    return [sys.executable, "-m", "pdlogdoctor", *args]


# ---------------------------------------------------------------- wrong input


def test_a_typo_alone_is_one_usage_line_with_exit_2_and_beside_a_good_path_a_warning(tmp_path: Path) -> None:
    typo = str(SEED).replace("seed", "sed")
    code, out, err = invoke("analyze", typo)
    assert code == 2 and out == ""  # no verdict panel
    assert err.count("\n") == 1 and err.startswith(f"error: {typo}: no such file or directory")
    assert "did you mean" in err and str(SEED) in err
    # Beside a good path, the others are analysed (issue 23): the typo is a warning with its hint.
    code, out, err = invoke("analyze", "-q", str(SEED), typo)
    assert code == 1 and out.startswith("mori-mr-size-limit ")
    code, out, err = invoke("analyze", str(SEED), typo)
    assert code == 1 and f"warning: {typo}: no such file or directory" in err
    assert "did you mean" in err and str(SEED) in err


def test_a_fifo_argument_is_a_usage_error_that_says_to_use_stdin(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    code, out, err = invoke("analyze", str(SEED), str(fifo))
    assert code == 2 and out == ""
    assert "not a file, directory or archive" in err and "analyze -" in err and err.count("\n") == 1


def test_an_empty_directory_is_one_line_and_exit_4(tmp_path: Path) -> None:
    (tmp_path / "logs").mkdir()
    code, out, err = invoke("analyze", str(tmp_path / "logs"))
    assert (code, out) == (4, "")
    assert err == f"error: nothing readable in {tmp_path / 'logs'}: 1 empty directory\n"


def test_empty_stdin_is_nothing_readable_and_says_it_was_empty() -> None:
    """`cmd | pdlogdoctor analyze -` where cmd printed nothing (a log path that matched no file): the
    line says stdin was empty and how logs are given, not that a file did not look like a log."""
    code, out, err = invoke("analyze", "-", stdin="")
    assert (code, out) == (4, "") and err.count("\n") == 1
    assert err.startswith("error: nothing readable in standard input: it was empty (0 bytes)")
    assert "cat LOGS... | pdlogdoctor analyze -" in err


def test_skipped_files_are_folded_into_one_count_and_verbose_lists_them(tmp_path: Path) -> None:
    bundle = copy_bundle(SEED, tmp_path / "bundle")
    for k in range(6):  # binary, and no core dump (issue 30: a file named core.N is one, and is evidence)
        (bundle / f"blob{k}.dat").write_bytes(b"\x7fELF\x02\x01" + bytes(range(32)) * 64)
    for k in range(2):
        (bundle / f"rank{k}.log").write_bytes(b"")
    code, _, err = invoke("analyze", "-f", "json", str(bundle))
    assert code == 1
    assert err.splitlines() == ["warning: 6 binary files and 2 empty files skipped; --verbose lists them"]
    _, _, verbose = invoke("analyze", "-f", "json", "--verbose", str(bundle))
    assert sum("[binary]" in line for line in verbose.splitlines()) == 6
    assert sum("[empty]" in line for line in verbose.splitlines()) == 2


# ---------------------------------------------------------------- formats and outputs


def test_format_names_in_any_case_and_a_one_line_error_for_unknown_ones() -> None:
    code, out, _ = invoke("analyze", "-f", "JSON", str(SEED))
    assert code == 1 and json.loads(out)["verdict"]["id"] == "mori-mr-size-limit"
    code, out, err = invoke("analyze", "-f", "yaml", str(SEED))
    assert (code, out) == (2, "")
    assert err == "error: --format 'yaml' is not one of: " + ", ".join(f.value for f in type_of_formats()) + "\n"


@pytest.mark.parametrize(
    ("args", "meant"),
    [(("-f", "jsn"), "json"), (("-f", "mardown"), "markdown"), (("--fail-on", "causes"), "cause"),
     (("--color", "alwys"), "always"), (("--fail-on", "inconclusiv"), "inconclusive")],
)  # fmt: skip
def test_a_misspelt_value_gets_the_one_it_is_near(args: tuple[str, str], meant: str) -> None:
    """As a misspelt command or option does (Click's `Did you mean`), a misspelt value of one says
    which it is near, on the one error line; a value near none gets the list only."""
    code, out, err = invoke("analyze", *args, str(SEED))
    assert (code, out) == (2, "") and err.count("\n") == 1
    assert f"did you mean '{meant}'?" in err


def test_a_value_near_no_choice_gets_no_guess() -> None:
    code, _, err = invoke("analyze", "-f", "yaml", str(SEED))
    assert code == 2 and "did you mean" not in err


def test_a_misspelt_config_key_and_shell_get_the_one_they_are_near(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "pdlogdoctor.toml").write_text('colour = "never"\n')
    monkeypatch.chdir(tmp_path)
    code, _, err = invoke("analyze", str(SEED))
    assert code == 2 and "did you mean 'color'?" in err
    code, _, err = invoke("completion", "bsh")
    assert code == 2 and "did you mean 'bash'?" in err


def test_a_misspelt_pattern_key_gets_the_one_it_is_near(tmp_path: Path) -> None:
    from pdlogdoctor.library.patterns import parse_pattern
    from pdlogdoctor.model.errors import PatternError

    data = {"id": "p", "title": "Boom", "severity": "error", "kind": "symptom", "ancors": ["boom"],
            "regex": "boom", "explain": "x", "examples": {"match": ["boom"], "no_match": ["bam"]}}  # fmt: skip
    with pytest.raises(PatternError) as caught:
        parse_pattern(data, "p.toml", "p", "")
    assert "p.toml: ancors: unknown key" in str(caught.value) and "did you mean 'anchors'?" in str(caught.value)


def type_of_formats() -> list[object]:
    from pdlogdoctor.model import OutputFormat

    return list(OutputFormat)


@pytest.mark.parametrize(
    ("name", "starts"),
    [
        ("report.md", "## pdlogdoctor:"),
        ("report.json", "{"),
        ("report.txt", "A KV buffer is larger"),
        ("report.HTML", "<!doctype html>"),
    ],
)
def test_the_output_format_follows_the_file_extension(tmp_path: Path, name: str, starts: str) -> None:
    code, out, _ = invoke("analyze", "-o", str(tmp_path / name), str(SEED))
    assert code == 1 and out == ""  # the report went to the file
    assert (tmp_path / name).read_text().startswith(starts)


def test_several_outputs_in_one_run_and_the_stdout_format_kept(tmp_path: Path) -> None:
    report, data = tmp_path / "r.md", tmp_path / "r.json"
    code, out, _ = invoke("analyze", "-f", "github", "-o", f"markdown={report}", "-o", f"JSON={data}", str(SEED))
    assert code == 1
    assert out.startswith("::error ")  # stdout keeps the --format report
    assert report.read_text().startswith("## pdlogdoctor:")
    assert json.loads(data.read_text())["verdict"]["id"] == "mori-mr-size-limit"


def test_quiet_prints_one_line_verdict_confidence_fingerprint_fix() -> None:
    code, out, err = invoke("analyze", "-q", str(SEED))
    assert code == 1 and err == ""
    assert re.fullmatch(r"mori-mr-size-limit 0\.\d\d pdld-[0-9a-f]{12} --max-total-tokens 8388352\n", out)
    _, inconclusive, _ = invoke("analyze", "--quiet", str(FIXTURES / "inconclusive-symptoms-only"))
    verdict, confidence, fingerprint, fix = inconclusive.split()
    assert (verdict, confidence, fix) == ("inconclusive", "-", "-") and fingerprint.startswith("pdld-")


def test_stdin_is_read_with_a_dash() -> None:
    text = (SEED / "prefill_mia1-p06-g13.log").read_text()
    code, out, _ = invoke("analyze", "-q", "-", stdin=text)
    assert code == 1 and out.startswith("mori-mr-size-limit ")


# ---------------------------------------------------------------- conventions


def test_version_and_short_help() -> None:
    from pdlogdoctor import __version__

    for flag in ("--version", "-V"):
        assert invoke(flag) == (0, f"pdlogdoctor {__version__}\n", "")
    code, out, _ = invoke("analyze", "-h")
    assert code == 0 and out.startswith("Usage: pdlogdoctor analyze")


def test_help_matches_the_reviewed_snapshot_and_shows_no_python_types() -> None:
    _, out, _ = invoke("analyze", "--help", env={"COLUMNS": "100"})
    assert not re.search(r"<\w+(\[\w+\])?>|list\[|\bbool\b|float range", out), out
    if os.environ.get("PDLD_UPDATE_SNAPSHOTS"):
        HELP_SNAPSHOT.write_text(out)
    assert out == HELP_SNAPSHOT.read_text(), "--help changed: review it, then rerun with PDLD_UPDATE_SNAPSHOTS=1"


@pytest.mark.parametrize(
    "args",
    [
        [],
        ["diff"],
        ["explain"],
        ["verdicts"],
        ["completion"],
        ["patterns"],
        ["patterns", "check"],
        ["templates"],
        ["triage"],
    ],
)
def test_no_help_page_shows_python_types(args: list[str]) -> None:
    code, out, _ = invoke(*args, "--help")
    assert code == 0 and out.startswith("Usage: pdlogdoctor")
    assert not re.search(r"<\w+(\[\w+\])?>|list\[|\bbool\b|float range", out), out


@pytest.mark.parametrize("shell", ["bash", "zsh", "fish"])
def test_completion_scripts(shell: str) -> None:
    code, out, _ = invoke("completion", shell)
    assert code == 0 and "_PDLOGDOCTOR_COMPLETE=complete_" + shell in out


def test_completion_answers_the_shell(tmp_path: Path) -> None:
    env = {
        **os.environ,
        "_PDLOGDOCTOR_COMPLETE": "complete_bash",
        "COMP_WORDS": "pdlogdoctor analyze -f ",
        "COMP_CWORD": "3",
    }
    done = subprocess.run(command(), env=env, capture_output=True, text=True, check=False)
    assert done.stdout.split() == ["text", "json", "markdown", "github", *extra_formats()]
    env |= {"COMP_WORDS": "pdlogdoctor templates -f ", "COMP_CWORD": "3"}
    done = subprocess.run(command(), env=env, capture_output=True, text=True, check=False)
    assert done.stdout.split() == ["text", "json"]
    env |= {"COMP_WORDS": "pdlogdoctor ver", "COMP_CWORD": "1"}
    done = subprocess.run(command(), env=env, capture_output=True, text=True, check=False)
    assert done.stdout.split() == ["verdicts", "version"]
    env |= {"COMP_WORDS": "pdlogdoctor explain mori-mr-s", "COMP_CWORD": "2"}  # the review: ids did not complete
    done = subprocess.run(command(), env=env, capture_output=True, text=True, check=False)
    assert done.stdout.split() == ["mori-mr-size-limit"]


def extra_formats() -> list[str]:
    return [str(f) for f in type_of_formats()][4:]


def test_verdicts_lists_the_catalogue() -> None:
    code, out, _ = invoke("verdicts")
    assert code == 0
    ids = [line.split()[0] for line in out.splitlines()]
    assert ids == [spec.id for spec in load_library().verdicts]
    assert any(line.startswith("mori-mr-size-limit ") and "cause" in line for line in out.splitlines())


# ---------------------------------------------------------------- config file and environment


def test_config_file_sets_format_and_pattern_directory(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    write_pattern(tmp_path / "team-patterns", "team-thing", good("team-thing", "TEAMANCHOR", "TEAMANCHOR"))
    (tmp_path / "pdlogdoctor.toml").write_text('patterns = "team-patterns"\nformat = "JSON"\n')
    monkeypatch.chdir(tmp_path)
    code, out, _ = invoke("patterns", "list")
    assert code == 0 and "team-thing" in out
    code, out, _ = invoke("analyze", str(SEED))
    assert code == 1 and json.loads(out)["verdict"]["id"] == "mori-mr-size-limit"  # format from the file
    code, out, _ = invoke("analyze", "-f", "text", str(SEED))
    assert out.startswith("A KV buffer")  # the flag wins over the file


def test_pyproject_table_and_a_bad_key(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "x"\n\n[tool.pdlogdoctor]\nfail-on = "never"\n')
    (tmp_path / "sub").mkdir()
    monkeypatch.chdir(tmp_path / "sub")  # found from a subdirectory
    assert invoke("analyze", "-q", str(SEED))[0] == 0
    (tmp_path / "pdlogdoctor.toml").write_text('colour = "never"\n')  # beside it, and it wins
    code, _, err = invoke("analyze", str(SEED))
    assert code == 2 and "unknown key 'colour'" in err


def test_patterns_environment_variable(tmp_path: Path) -> None:
    write_pattern(tmp_path / "a", "env-one", good("env-one", "ENVONE", "ENVONE"))
    write_pattern(tmp_path / "b", "env-two", good("env-two", "ENVTWO", "ENVTWO"))
    env = {"PDLOGDOCTOR_PATTERNS": f"{tmp_path / 'a'}{os.pathsep}{tmp_path / 'b'}"}
    code, out, _ = invoke("patterns", "list", env=env)
    assert code == 0 and "env-one" in out and "env-two" in out
    code, _, err = invoke("patterns", "list", env={"PDLOGDOCTOR_PATTERNS": str(tmp_path / "none")})
    assert code == 2 and "none" in err


# ---------------------------------------------------------------- closed pipes


INCONCLUSIVE = FIXTURES / "inconclusive-symptoms-only"
PAIR_GREEN = FIXTURES / "pair-seed-0701-green"
# Each command line with the exit code it has whether or not anyone reads its stdout.
CLOSED_PIPE_CASES: list[tuple[tuple[str, ...], int]] = [
    (("patterns", "list"), 0),
    (("patterns", "anchors"), 0),
    (("verdicts",), 0),
    (("schema",), 0),
    (("explain", "mori-mr-size-limit"), 0),
    (("completion", "bash"), 0),
    (("--help",), 0),
    (("-V",), 0),
    (("analyze", str(HEALTHY)), 0),
    (("analyze", "-f", "json", str(SEED)), 1),
    (("analyze", "-f", "github", str(SEED)), 1),
    (("analyze", "-q", "--verbose", str(SEED)), 1),  # the typer-parsed path (-v is not read by the fast path)
    (("analyze", "-f", "markdown", str(INCONCLUSIVE)), 3),
    (("analyze", "-f", "html", str(INCONCLUSIVE)), 3),
    (("diff", str(PAIR_GREEN), str(SEED)), 1),
    (("templates", str(SEED)), 0),
    (("templates", "-f", "json", str(SEED)), 0),
]


def test_a_closed_pipe_keeps_every_commands_exit_code(tmp_path: Path) -> None:
    """`pdlogdoctor CMD | head -1`: the reader is gone before anything is written, and every
    command and format still exits with its own code (not click's 1), with no traceback."""
    (tmp_path / "empty").mkdir()
    cases = [*CLOSED_PIPE_CASES, (("analyze", "-f", "github", str(tmp_path / "empty")), 4)]
    processes = [
        subprocess.Popen(command(*args), stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT) for args, _ in cases
    ]
    for process in processes:
        assert process.stdout is not None
        process.stdout.close()
    stderrs = {args: _stderr(process) for (args, _), process in zip(cases, processes, strict=True)}
    codes = {args: process.wait(timeout=300) for (args, _), process in zip(cases, processes, strict=True)}
    assert codes == dict(cases)
    assert not [args for args, err in stderrs.items() if "Traceback" in err or "Exception ignored" in err]


def test_a_closed_pipe_on_stdout_and_stderr_keeps_the_verdicts_exit_code(tmp_path: Path) -> None:
    """`pdlogdoctor analyze logs/ 2>&1 | head -1` with a warning for stderr (an empty file skipped)."""
    bundle = copy_bundle(HEALTHY, tmp_path / "bundle")
    (bundle / "rank0.log").write_bytes(b"")
    process = subprocess.Popen(
        command("analyze", str(bundle)), stdout=subprocess.PIPE, stderr=subprocess.STDOUT, cwd=ROOT
    )
    assert process.stdout is not None
    process.stdout.close()
    assert process.wait(timeout=120) == 0


def _stderr(process: subprocess.Popen[bytes]) -> str:
    assert process.stderr is not None
    return process.stderr.read().decode()


def test_skip_counts_read_as_english() -> None:
    from collections import Counter

    from pdlogdoctor.cli.behaviour import skip_summary

    counts = Counter({"binary": 17_647, "empty": 281, "empty-directory": 2, "not-a-file": 1})
    assert skip_summary(counts) == (
        "17,647 binary files, 281 empty files, 2 empty directories and 1 special file (FIFO, socket, device)"
    )
