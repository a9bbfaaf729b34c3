"""Outputs go where they say, and a missing input never hides what the others hold (issue 23).

- `-f` governs stdout; a bare `-o FILE` takes its format from its extension (else -f's, else
  text); `-o FORMAT=FILE` names its own. So `-f github -o report.html` is annotations on stdout and
  a page in the file, never annotations in a file named .html. `-q` always prints its line.
- A path that does not exist, beside paths that do, is reported (stderr, the report's inputs and
  its incompleteness) and the rest is analysed: the exit code is the verdict's, as grep and rg
  search the files that exist. Only when no path exists is it a usage error.
- A last green run (GOOD) with nothing readable in it is the same "nothing readable" error as
  `analyze` gives, for `diff` and for `--baseline`: not a "failed baseline" and 52 one-run rows.
"""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from pdlogdoctor.cli.commands import app

from .bundle_copy import SEED
from .conftest import FIXTURES

GREEN = FIXTURES / "pair-seed-0701-green"
HEALTHY = FIXTURES / "blind-healthy-scary-noise"


def invoke(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(app, list(args), prog_name="pdlogdoctor")
    return result.exit_code, result.stdout, result.stderr


# ---------------------------------------------------------------- outputs


def test_a_format_that_contradicts_the_file_extension_is_stdout_format_and_file_extension(tmp_path: Path) -> None:
    page = tmp_path / "report.html"
    code, out, _ = invoke("analyze", "-f", "github", "-o", str(page), str(SEED))
    assert code == 1
    assert out.startswith("::error title=pdlogdoctor"), out[:200]  # the CI step gets its annotations
    assert page.read_text().startswith("<!doctype html>")  # and the file is the page its name says


def test_each_output_file_in_its_own_format(tmp_path: Path) -> None:
    issue, page = tmp_path / "a.md", tmp_path / "a.html"
    code, out, _ = invoke("analyze", "-f", "markdown", "-o", str(issue), "-o", str(page), str(SEED))
    assert code == 1
    assert issue.read_text().startswith("## pdlogdoctor:")
    assert page.read_text().startswith("<!doctype html>")
    assert out.startswith("## pdlogdoctor:")  # -f markdown: stdout's format


def test_an_extension_that_names_no_format_takes_the_stdout_format(tmp_path: Path) -> None:
    report = tmp_path / "report.out"
    code, out, _ = invoke("analyze", "-f", "json", "-o", str(report), str(SEED))
    assert code == 1 and json.loads(report.read_text())["verdict"]["id"] == "mori-mr-size-limit"
    assert json.loads(out)["verdict"]["id"] == "mori-mr-size-limit"
    code, out, _ = invoke("analyze", "-o", str(report), str(SEED))
    assert (code, out) == (1, "")  # -o without -f: the file only, as `ruff -o` does
    assert report.read_text().startswith("A KV buffer is larger")


def test_quiet_prints_its_line_whatever_the_outputs(tmp_path: Path) -> None:
    page = tmp_path / "t.html"
    code, out, _ = invoke("analyze", "-o", str(page), "-q", str(SEED))
    assert code == 1 and out.startswith("mori-mr-size-limit 0.") and out.count("\n") == 1
    assert page.read_text().startswith("<!doctype html>")


def test_help_states_where_each_output_goes() -> None:
    _, out, _ = invoke("analyze", "--help")
    flat = " ".join(out.split())
    assert "stdout" in flat and "extension" in flat
    assert "-f github -o report.html" in flat  # the contradiction, resolved in words


# ---------------------------------------------------------------- missing inputs


def test_a_missing_path_beside_good_ones_is_reported_and_the_rest_analysed(tmp_path: Path) -> None:
    missing = tmp_path / "router.log"  # the router never started, so its log was never written
    code, out, err = invoke("analyze", "-f", "json", str(SEED), str(missing))
    assert code == 1  # the verdict's exit code
    document = json.loads(out)
    assert document["verdict"]["id"] == "mori-mr-size-limit"
    problems = {item["file"]: [p["code"] for p in item["problems"]] for item in document["inputs"]}
    assert problems[str(missing)] == ["not-found"]
    assert document["incomplete"] is True
    assert f"warning: {missing}: no such file or directory" in err


def test_a_missing_path_beside_a_healthy_run_is_not_called_healthy(tmp_path: Path) -> None:
    code, out, _ = invoke("analyze", "-q", str(HEALTHY), str(tmp_path / "decode.log"))
    assert code == 3 and out.startswith("inconclusive ")  # healthy is a claim about every input


def test_only_missing_paths_is_a_usage_error(tmp_path: Path) -> None:
    code, out, err = invoke("analyze", str(tmp_path / "a.log"), str(tmp_path / "b.log"))
    assert (code, out) == (2, "")
    assert err.startswith(f"error: {tmp_path / 'a.log'}: no such file or directory")


def test_an_empty_last_green_run_is_nothing_readable_for_diff_and_baseline(tmp_path: Path) -> None:
    empty = tmp_path / "downloaded"
    empty.mkdir()  # a `gh run download` that found no artefact
    code, out, err = invoke("diff", str(empty), str(SEED))
    assert (code, out) == (4, "")
    assert err == f"error: nothing readable in the last green run {empty}: 1 empty directory\n"
    code, out, err = invoke("analyze", str(SEED), "--baseline", str(empty))
    assert (code, out) == (4, "")
    assert err == f"error: nothing readable in the last green run {empty}: 1 empty directory\n"


def test_a_readable_last_green_run_still_compares(tmp_path: Path) -> None:
    code, out, _ = invoke("diff", str(GREEN), str(SEED))
    assert code == 1 and "max_total_num_tokens" in out
