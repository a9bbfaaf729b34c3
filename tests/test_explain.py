"""`pdlogdoctor explain`: verdicts and patterns explained from the library; unknown ids exit 2 with suggestions."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from pdlogdoctor.cli.commands import app
from pdlogdoctor.cli.explain import explain, nearest_ids
from pdlogdoctor.library.patterns import Library

runner = CliRunner()


def test_verdict_lists_the_patterns_that_support_it(library: Library) -> None:
    result = runner.invoke(app, ["explain", "gpu-oom"])
    assert result.exit_code == 0, result.output
    supporting = [p for p in library.patterns if p.verdict == "gpu-oom"]
    assert supporting
    for pattern in supporting:
        assert pattern.id in result.output
        assert pattern.primary_anchor in result.output
    assert library.verdict("gpu-oom").title in result.output
    assert "What to do:" in result.output


def test_pattern_shows_anchors_verdict_and_links(library: Library) -> None:
    text = explain(library, "scheduler-exception")
    assert text is not None
    assert "Scheduler hit an exception: " in text
    assert "Supports verdict scheduler-init-crash" in text
    # cuda-oom explains scheduler-exception, so it appears as an upstream pattern
    assert "explained by (upstream):" in text and "cuda-oom" in text.split("explained by (upstream):")[1]


def test_meta_verdict_says_how_it_is_reached(library: Library) -> None:
    text = explain(library, "inconclusive")
    assert text is not None and "missing" in text


@pytest.mark.parametrize(("typo", "want"), [("gpu-om", "gpu-oom"), ("ci-canceled", "ci-cancelled")])
def test_unknown_id_exits_2_with_nearest_ids(typo: str, want: str) -> None:
    result = runner.invoke(app, ["explain", typo])
    assert result.exit_code == 2
    assert want in result.output


def test_nearest_ids_finds_substrings(library: Library) -> None:
    assert "mori-mr-size-limit" in nearest_ids(library, "size-limit")


def test_every_verdict_and_pattern_can_be_explained(library: Library) -> None:
    for item in [v.id for v in library.verdicts] + [p.id for p in library.patterns]:
        text = explain(library, item)
        assert text is not None and item in text.splitlines()[0]


@pytest.mark.parametrize(
    ("written", "meant"),
    [("MORI-MR-SIZE-LIMIT", "verdict mori-mr-size-limit"), ("GPU-OOM", "verdict gpu-oom"),
     ("Scheduler-Exception", "scheduler-exception"), ("mori_mr_size_limit", "verdict mori-mr-size-limit"),
     (" gpu-oom ", "verdict gpu-oom")],
)  # fmt: skip
def test_an_id_is_found_in_any_case_and_with_underscores(written: str, meant: str) -> None:
    """As --format and --color take their values in any case, explain takes an id so (and with _ for
    -): a shipped id is lower case with hyphens, so a capitalised or snake_case one can mean only it."""
    result = runner.invoke(app, ["explain", written])
    assert result.exit_code == 0, result.output
    assert meant in result.output.splitlines()[0]


def test_a_capitalised_typo_still_gets_suggestions() -> None:
    result = runner.invoke(app, ["explain", "GPU-OM"])
    assert result.exit_code == 2 and "gpu-oom" in result.output
