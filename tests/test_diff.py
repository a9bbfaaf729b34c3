"""`pdlogdoctor diff GOOD BAD` and `analyze BAD --baseline GOOD`: every pair of fixtures/pairs.toml
says what changed, and the verdict is read in its light."""

from __future__ import annotations

import json
import shutil
import tomllib
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from pdlogdoctor.cli.commands import app
from pdlogdoctor.library.patterns import Library
from pdlogdoctor.model import Comparison, Delta, Report
from pdlogdoctor.pipeline import analyse, run
from pdlogdoctor.runs.baseline import profile_of, run_with_baseline
from pdlogdoctor.runs.compare import compare, explains_verdict, strengthen_verdict
from pdlogdoctor.runs.profile import load_profile_spec, parse_repr_arguments, unknown_patterns

from .conftest import FIXTURES

PAIRS: list[dict[str, Any]] = tomllib.loads((FIXTURES / "pairs.toml").read_text(encoding="utf-8"))["pair"]
ABSENT = "__absent__"  # pairs.toml: the value is not in that run's logs
runner = CliRunner()


def _compared(pair: dict[str, Any], library: Library) -> Report:
    return run_with_baseline([str(FIXTURES / pair["bad"])], [str(FIXTURES / pair["good"])], library)


@pytest.fixture(scope="module")
def compared(library: Library) -> dict[str, Report]:
    return {pair["name"]: _compared(pair, library) for pair in PAIRS}


def _comparison(report: Report) -> Comparison:
    assert report.comparison is not None
    return report.comparison


def _delta(comparison: Comparison, key: str) -> Delta:
    found = [delta for delta in comparison.deltas if delta.key == key]
    assert found, f"no change of {key}; changes: {[d.key for d in comparison.deltas]}"
    return found[0]


def test_every_pair_names_existing_bundles() -> None:
    for pair in PAIRS:
        assert (FIXTURES / pair["good"] / "expected.toml").is_file(), pair["name"]
        assert (FIXTURES / pair["bad"] / "expected.toml").is_file(), pair["name"]


def test_the_profile_rules_name_only_known_patterns(library: Library) -> None:
    assert unknown_patterns(load_profile_spec(), library) == []


@pytest.mark.parametrize("pair", PAIRS, ids=[p["name"] for p in PAIRS])
def test_pair_changes(pair: dict[str, Any], compared: dict[str, Report]) -> None:
    comparison = _comparison(compared[pair["name"]])
    assert comparison.changed is (pair["exit_code"] == 1), [d.key for d in comparison.deltas if d.relevant]
    assert comparison.baseline_failing is pair.get("baseline_failing", False)
    shown = [delta.key for delta in comparison.deltas]
    assert shown[: len(pair.get("first", []))] == pair.get("first", [])
    for key, (before, after) in pair.get("values", {}).items():
        delta = _delta(comparison, key)
        assert (delta.before, delta.after) == tuple(None if v == ABSENT else v for v in (before, after))
    for key, words in pair.get("notes", {}).items():
        assert words in _delta(comparison, key).note
    for key, change in pair.get("changes", {}).items():
        assert _delta(comparison, key).change == change
    new = {error.template for error in comparison.errors if error.change == "new"}
    assert set(pair.get("new_errors", [])) <= new


@pytest.mark.parametrize("pair", PAIRS, ids=[p["name"] for p in PAIRS])
def test_pair_verdict_is_read_in_the_light_of_the_changes(
    pair: dict[str, Any], compared: dict[str, Report], library: Library
) -> None:
    report = compared[pair["name"]]
    alone = run([str(FIXTURES / pair["bad"])], library)
    assert report.verdict.id == alone.verdict.id  # a baseline never changes what failed
    for words in pair.get("bearing", []):
        assert words in report.verdict.summary
        assert words in dict(report.verdict.facts)["changed_since_baseline"]
    if not _comparison(report).bearing:
        assert report.verdict.summary == alone.verdict.summary
    if _comparison(report).baseline_failing:
        assert report.verdict.confidence == alone.verdict.confidence  # a failing baseline proves nothing
        assert (
            f"Since the baseline (which failed too: {_comparison(report).baseline_verdict})" in report.verdict.summary
        )


@pytest.mark.parametrize("pair", PAIRS, ids=[p["name"] for p in PAIRS])
def test_diff_exit_code(pair: dict[str, Any]) -> None:
    result = runner.invoke(app, ["diff", str(FIXTURES / pair["good"]), str(FIXTURES / pair["bad"])])
    assert result.exit_code == pair["exit_code"], result.output


def test_noise_rules_are_what_hides_the_other_nodes_ports(library: Library) -> None:
    """The other-nodes pair is empty because of profile.toml's noise rules, not because nothing differs."""
    spec = load_profile_spec()
    bare = replace(spec, noise_keys=())
    good = profile_of(analyse([str(FIXTURES / "pair-seed-0701-green")], library), bare, library)
    bad = profile_of(analyse([str(FIXTURES / "pair-seed-0701-other-nodes-green")], library), bare, library)
    keys = {delta.key for delta in compare(good, bad, bare, library).deltas if delta.relevant}
    assert {"server_args.port", "server_args.disaggregation_bootstrap_port"} <= keys


def test_seed_week_diff_names_the_sizing_change_and_the_crossed_ceiling_first() -> None:
    good, bad = FIXTURES / "pair-seed-0701-green", FIXTURES / "mori-mr-size-limit-seed"
    result = runner.invoke(app, ["diff", str(good), str(bad)], env={"COLUMNS": "200"})  # a row per line
    lines = [line for line in result.stdout.splitlines() if line.startswith(("!", "*"))]
    assert lines[0].split()[:4] == ["!", "max_total_num_tokens", "decode,", "prefill"]
    assert "8,551,168" in lines[0] and "23,448,064" in lines[0] and "×2.74" in lines[0]
    assert "largest_kv_region" in lines[1] and "2.19 GB" in lines[1] and "6.00 GB" in lines[1]
    assert "crossed 4 GiB (2^32)" in lines[1]
    assert result.stdout.index("Changed since the last green run") < result.stdout.index("mori-mr-size-limit")


def test_a_change_the_verdict_names_raises_its_confidence(tmp_path: Path, library: Library) -> None:
    """One failing registration leaves the MR-limit verdict uncertain; the sizing change since the
    last green run explains it, and the confidence rises (never past diagnose's ceiling)."""
    bad = tmp_path / "bad"
    shutil.copytree(FIXTURES / "mori-mr-size-limit-seed", bad)
    prefill = bad / "prefill_mia1-p06-g13.log"
    lines = prefill.read_text().splitlines(keepends=True)
    failures = [n for n, line in enumerate(lines) if "RegisterRdmaMemoryRegion failed" in line]
    prefill.write_text("".join(line for n, line in enumerate(lines) if n != failures[-1]))
    alone = run([str(bad)], library)
    assert alone.verdict.id == "mori-mr-size-limit" and alone.verdict.confidence < 0.9
    report = run_with_baseline([str(bad)], [str(FIXTURES / "pair-seed-0701-green")], library)
    assert report.verdict.confidence == pytest.approx(alone.verdict.confidence + 0.05)


def test_a_failing_baseline_annotates_without_raising(library: Library) -> None:
    report = run([str(FIXTURES / "mori-mr-size-limit-seed")], library)
    explaining = Delta("sizing", ("prefill",), "max_total_num_tokens", 1, 2, "changed", explains=True, bears=True)
    comparison = Comparison(("good",), "gpu-oom", 0.9, "", True, (explaining,), (), ("max_total_num_tokens 1 → 2",))
    lowered = replace(report, verdict=replace(report.verdict, confidence=0.5))
    assert not explains_verdict(comparison)
    strengthened = strengthen_verdict(lowered, comparison)
    assert strengthened.verdict.confidence == 0.5
    assert "max_total_num_tokens 1 → 2" in strengthened.verdict.summary


def test_json_has_baseline_and_diff_sections_that_match_the_schema() -> None:
    import jsonschema

    good, bad = FIXTURES / "pair-seed-0701-green", FIXTURES / "mori-mr-size-limit-seed"
    result = runner.invoke(app, ["analyze", str(bad), "--baseline", str(good), "--format", "json"])
    document = json.loads(result.stdout)
    schema = json.loads(runner.invoke(app, ["schema"]).stdout)
    jsonschema.validate(document, schema)
    assert document["baseline"]["verdict"] == "healthy" and document["baseline"]["failing"] is False
    first = document["diff"]["values"][0]
    assert (first["key"], first["before"], first["after"]) == ("max_total_num_tokens", 8551168, 23448064)
    assert result.exit_code == 1  # analyze keeps its own exit codes: a root cause


def test_markdown_has_the_changes_table() -> None:
    good, bad = FIXTURES / "pair-seed-0701-green", FIXTURES / "mori-mr-size-limit-seed"
    body = runner.invoke(app, ["analyze", str(bad), "--baseline", str(good), "--format", "markdown"]).stdout
    table = body[body.index("### Changed since the last green run") :]
    row = next(line for line in table.splitlines() if line.startswith("| `max_total_num_tokens`"))
    assert "8,551,168" in row and "**23,448,064**" in row and "×2.74" in row


def test_github_format_adds_one_notice_about_the_changes() -> None:
    good, bad = FIXTURES / "pair-seed-0701-green", FIXTURES / "mori-mr-size-limit-seed"
    out = runner.invoke(app, ["diff", str(good), str(bad), "--format", "github"]).stdout
    notices = [line for line in out.splitlines() if line.startswith("::notice title=pdlogdoctor%3A changed since")]
    assert len(notices) == 1 and "max_total_num_tokens 8,551,168 → 23,448,064" in notices[0]


def test_diff_usage_errors_exit_2(tmp_path: Path) -> None:
    assert runner.invoke(app, ["diff", str(FIXTURES / "pair-seed-0701-green")]).exit_code == 2
    missing = runner.invoke(app, ["diff", str(tmp_path / "nope"), str(FIXTURES / "mori-mr-size-limit-seed")])
    assert missing.exit_code == 2 and "no such file" in missing.stderr


def test_server_args_repr_is_split_at_top_level_commas_only() -> None:
    pairs = dict(parse_repr_arguments("a=1, b='x, y', c=[1, 2], d={'k': (3, 4)}, e=None, f=0.85, g=True"))
    assert pairs == {"a": 1, "b": "x, y", "c": "[1, 2]", "d": "{'k': (3, 4)}", "e": "None", "f": 0.85, "g": "True"}


def test_an_error_line_no_family_names_is_a_new_template(tmp_path: Path, library: Library) -> None:
    """A UCX ERROR line (the open-world layer's) that the green run did not have is a new kind of error
    line, its numbers masked; the same line with other numbers is the same template."""
    bad = tmp_path / "bad"
    shutil.copytree(FIXTURES / "pair-seed-0708-rerun-green", bad)
    with (bad / "decode_mia1-p06-g14.log").open("a") as log:  # the shape of a real UCX line (its pattern's example)
        log.write(
            "[1751968801.555759] [mia1-p06-g14:7053 :0]          tcp_ep.c:1260 UCX  ERROR "
            "tcp_ep 0x3c502370 (state=CONNECTED): send(110) failed: Input/output error\n"
        )
    report = run_with_baseline([str(bad)], [str(FIXTURES / "pair-seed-0701-green")], library)
    new = [error for error in _comparison(report).errors if error.change == "new"]
    assert [error.template for error in new] == [
        "tcp_ep <hex> (state=CONNECTED): send(<num>) failed: Input/output error"
    ]


def test_html_has_the_changes_table() -> None:
    good, bad = FIXTURES / "pair-seed-0701-green", FIXTURES / "mori-mr-size-limit-seed"
    page = runner.invoke(app, ["diff", str(good), str(bad), "--format", "html"]).stdout
    section = page[page.index("<summary>Changed since the last green run</summary>") :]
    assert "<td>max_total_num_tokens</td><td>decode, prefill</td><td>8,551,168</td><td>23,448,064</td>" in section
