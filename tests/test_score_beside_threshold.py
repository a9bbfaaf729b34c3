"""sglang's nightly evaluation summary row, a model's path, its score and its threshold
(`neuralmagic/gemma-2-2b-it-FP8 | 0.512 | 0.6`: sglang#4324 as blind round 112 wrote it), fails
when the score is under the threshold (patterns/harness/sglang-score-threshold-row): an accuracy
regression measured against what the test expects. A row at or above its threshold passes."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from pdlogdoctor.model import Report

from .conftest import analysed_lines, shipped_library

LIBRARY = shipped_library()
CASE = Path(__file__).parent / "data" / "blind-round112-excerpts-c" / "04-sglang-nightly-gemma-fp8-below-threshold"


def test_a_score_under_its_threshold_is_an_accuracy_regression(case_reports: Mapping[Path, Report]) -> None:
    report = case_reports[CASE]
    assert report.verdict.id == "accuracy-regression", report.verdict
    assert "measured 0.512 against an expected 0.6" in report.verdict.summary


def test_a_table_whose_scores_meet_their_thresholds_passes(tmp_path: Path) -> None:
    report = analysed_lines(
        tmp_path,
        LIBRARY,
        [
            " | model | score | threshold |",
            "| ----- | ----- | --------- |",
            "| meta-llama/Llama-3.1-8B-Instruct | 0.8532 | 0.83 |",
            "| neuralmagic/gemma-2-2b-it-FP8 | 0.612 | 0.6 |",
        ],
        "summary.md",
    )
    assert report.verdict.id == "healthy", report.verdict
