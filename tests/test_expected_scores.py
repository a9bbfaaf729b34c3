"""A score below the one a sentence says the run should reach is a failed accuracy check.

vllm-project/vllm#28107 posts lm-eval's mmlu_pro row at 0.5071 under `It should be 0.75 .`: no harness
printed FAIL, and the table alone reads as answers served (a failed run called healthy at first
sight). The sentence is paired with the nearest result of its file on the same scale (reason/expected.py).
Look-alikes: a result at the expected score; a sentence whose number is no score.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from pdlogdoctor.library.patterns import Library

from .conftest import analysed_lines

HEADER = "|       Tasks       |Version|    Filter    |n-shot|  Metric   |   |Value |   |Stderr|"
RULE = "|-------------------|------:|--------------|-----:|-----------|---|-----:|---|-----:|"


def _table(expectation: str, score: str) -> list[str]:
    row = f"|mmlu_pro           |    2.0|custom-extract|      |exact_match|↑  |{score}|±  |0.0045|"
    return [expectation, "", HEADER, RULE, row]


def test_a_result_far_below_the_stated_expectation_is_an_accuracy_regression(tmp_path: Path, library: Library) -> None:
    report = analysed_lines(tmp_path, library, _table("It should be 0.75 .", "0.5071"), "excerpt.log")
    assert report.verdict.id == "accuracy-regression"
    summary = report.verdict.summary
    assert "0.75" in summary and "0.5071" in summary and "-32.4%" in summary


@pytest.mark.parametrize(
    ("expectation", "score"),
    [
        ("It should be 0.75 .", "0.7420"),  # within a tenth of it
        ("The accuracy should be around 52%.", "0.5071"),  # a percentage, met
        ("it should be 2 GPUs per node", "0.5071"),  # a count, no expectation of a score
        ("This should be fixed in 0.7.3", "0.5071"),  # a release, no expectation
    ],
)
def test_a_result_that_meets_or_has_no_expectation_stays_answers_served(
    tmp_path: Path, library: Library, expectation: str, score: str
) -> None:
    report = analysed_lines(tmp_path, library, _table(expectation, score), "excerpt.log")
    assert report.verdict.id == "healthy", report.verdict.summary


def test_a_percentage_expected_against_a_share_measured(tmp_path: Path, library: Library) -> None:
    report = analysed_lines(tmp_path, library, _table("expected accuracy: ~75%", "0.5071"), "excerpt.log")
    assert report.verdict.id == "accuracy-regression"


def test_results_stated_wrong_in_words_name_the_result_beside_them(tmp_path: Path, library: Library) -> None:
    # vllm-project/vllm#45699: the score alone (0.24, above the collapse floor) reads as answers served
    lines = [
        "`NVIDIA-Nemotron-3-Ultra-550B-A55B-NVFP4` on GB200 has erroneous gsm8k lm_eval on GB200:",
        "",
        "|       Tasks       |Version|Filter|n-shot|  Metric   |   | Value  |   |Stderr|",
        "|-------------------|------:|------|-----:|-----------|---|-------:|---|------|",
        "|adlr_gsm8k_chat_cot|    3.2|none  |     0|exact_match|↑  |  0.2407|±  |0.0587|",
    ]
    report = analysed_lines(tmp_path, library, lines, "excerpt.log")
    assert report.verdict.id == "accuracy-regression"
    assert report.verdict.confidence < 0.5  # words, no gate: a lead
    assert "0.2407" in report.verdict.summary and "erroneous gsm8k" in report.verdict.summary
