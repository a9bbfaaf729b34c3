"""One evaluation's results table printed twice: each row of the later table judged against the same
row of the earlier (scan/tables.py read_earlier_row_above, pattern lm-eval-row-below-earlier-run).

People paste two lm-eval tables to compare two runs (`hf` then `vllm`, main then a pull request). With
no label to say which run is which, the earlier table is the baseline; a row worse by more than 10 %
fails, and the run is an accuracy regression. The rows pair by task, filter, shots and metric (a
blank task cell is the task above's), only between tables of the same header, and only across a few
lines of prose.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from pdlogdoctor.cli.behaviour import exit_code_for
from pdlogdoctor.library.patterns import Library
from pdlogdoctor.model import Report

from .conftest import analysed_files

HEADER = "|  Tasks  |Version|     Filter     |n-shot|  Metric   |   |Value |   |Stderr|"
RULE = "|---------|------:|----------------|-----:|-----------|---|-----:|---|-----:|"


def _table(flexible: str, strict: str, task: str = "gsm8k_cot") -> list[str]:
    return [
        HEADER,
        RULE,
        f"|{task}|      3|flexible-extract|     8|exact_match|↑  |{flexible}|±  |0.0249|",
        f"|         |       |strict-match    |     8|exact_match|↑  |{strict}|±  |0.0078|",
    ]


def _two_runs(first: list[str], second: list[str], prose: int = 1) -> list[str]:
    between = ["while when using `vllm`, the performance is:", *[""] * max(prose - 1, 0)]
    return ["when using `hf` backend, the performance is:", "", *first, "", *between, "", *second]


def _report(folder: Path, library: Library, lines: list[str]) -> Report:
    return analysed_files(folder, library, {"excerpt.log": lines})


def test_a_row_worse_than_in_the_earlier_table_is_an_accuracy_regression(tmp_path: Path, library: Library) -> None:
    report = _report(tmp_path, library, _two_runs(_table("0.9141", "0.7813"), _table("0.6719", "0.6500")))
    assert report.verdict.id == "accuracy-regression"
    assert exit_code_for(report) == 1
    assert 0.3 <= report.verdict.confidence < 0.7  # the baseline is inferred from the order: a lead
    failed = next(e for e in report.chain if e.pattern == "lm-eval-row-below-earlier-run")
    assert failed.line == 12 and "0.6719" in failed.text  # the later table's flexible-extract row
    assert (failed.get("baseline"), failed.get("value"), failed.get("change")) == (0.9141, 0.6719, "-26.5%")
    assert "0.9141" in report.verdict.summary and "0.6719" in report.verdict.summary


def test_the_rows_pair_by_filter_under_a_blank_task_cell(tmp_path: Path, library: Library) -> None:
    # flexible-extract holds; strict-match (its task cell blank) falls from 0.78 to 0.55
    report = _report(tmp_path, library, _two_runs(_table("0.9141", "0.7813"), _table("0.9000", "0.5500")))
    assert report.verdict.id == "accuracy-regression"
    failed = next(e for e in report.chain if e.pattern == "lm-eval-row-below-earlier-run")
    assert "strict-match" in failed.text and failed.get("baseline") == 0.7813


@pytest.mark.parametrize(
    ("later_flexible", "later_strict"),
    [("0.9000", "0.7600"), ("0.9400", "0.8100")],
    ids=["within-the-allowance", "better"],
)
def test_a_later_table_as_good_is_no_failure(
    tmp_path: Path, library: Library, later_flexible: str, later_strict: str
) -> None:
    report = _report(tmp_path, library, _two_runs(_table("0.9141", "0.7813"), _table(later_flexible, later_strict)))
    assert report.verdict.id == "healthy"
    assert exit_code_for(report) == 0


def test_tables_of_other_tasks_or_far_apart_are_not_compared(tmp_path: Path, library: Library) -> None:
    other_task = _report(
        tmp_path / "task", library, _two_runs(_table("0.9141", "0.7813"), _table("0.6719", "0.65", "mmlu"))
    )
    far = _report(
        tmp_path / "far",
        library,
        [*_table("0.9141", "0.7813"), *[f"note {n}" for n in range(20)], *_table("0.6719", "0.65")],
    )
    groups = [line.replace("Tasks", "Groups") for line in _table("0.6719", "0.65")]
    other_header = _report(tmp_path / "groups", library, _two_runs(_table("0.9141", "0.7813"), groups))
    for report in (other_task, far, other_header):
        assert report.verdict.id == "healthy"
        assert not any(e.pattern == "lm-eval-row-below-earlier-run" and e.failing for e in report.chain)


def test_a_strict_match_zero_beside_a_working_filter_is_harmless(tmp_path: Path, library: Library) -> None:
    # the answers are there (flexible-extract 0.91): strict-match's zero is its extraction, no failure
    report = _report(tmp_path, library, _table("0.9141", "0.0000"))
    assert report.verdict.id == "healthy"
    assert [e.line for e in report.harmless] == [4]


def test_the_earlier_table_is_found_past_its_groups_table(tmp_path: Path, library: Library) -> None:
    # lm-eval prints a groups table under its tasks': the later run's rows still pair with the earlier
    # run's tasks table, above it
    groups = [
        "|Groups|Version|Filter|n-shot|Metric|   |Value |   |Stderr|",
        RULE,
        "|mmlu  |      2|none  |      |acc   |↑  |0.7000|±  |0.0037|",
    ]
    lines = [*_table("0.9141", "0.7813"), "", *groups, "", "", *_table("0.6719", "0.6500")]
    report = _report(tmp_path, library, lines)
    assert report.verdict.id == "accuracy-regression"
    failed = next(e for e in report.chain if e.pattern == "lm-eval-row-below-earlier-run")
    assert failed.get("baseline") == 0.9141
