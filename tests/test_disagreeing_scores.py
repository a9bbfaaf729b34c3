"""One evaluation scored twice in one input, far apart, is an accuracy regression of the lower.

sgl-project/sglang#14382 posts GSM8K with DeepEP (0.901) and without it (0.951) side by side: no gate,
but the lines compare two runs themselves. The lower is named as a lead (confidence below 0.5), both
lines quoted. Look-alikes: two scores within sampling noise stay healthy; different MMLU subjects
score differently by what they ask (TensorRT-LLM's evaluator, percentages), not by a regression.
"""

from __future__ import annotations

from pathlib import Path

from pdlogdoctor.library.patterns import Library
from pdlogdoctor.reason.accuracy import questions_on_grid

from .conftest import analysed_lines

SGLANG_GSM8K = [
    "{title}:",
    "Accuracy: {accuracy}",
    "Invalid: 0.000",
    "Latency: 52.745 s",
    "Output throughput: 3133.510 token/s",
]
# TensorRT-LLM's MMLU evaluator (the pattern's own example's shape): a percentage, the questions, the subject.
MMLU = "[05/02/2025-18:{minute:02d}:22] [TRT-LLM] [I] Average accuracy {accuracy} (72) - {subject}"


def _gsm8k(*runs: tuple[str, float]) -> list[str]:
    return [line.format(title=title, accuracy=f"{score:.3f}") for title, score in runs for line in [*SGLANG_GSM8K, ""]]


def test_two_scores_of_one_evaluation_far_apart_name_the_lower(tmp_path: Path, library: Library) -> None:
    report = analysed_lines(tmp_path, library, _gsm8k(("DeepEP", 0.901), ("Without DeepEP", 0.951)), "paste.txt")
    assert report.verdict.id == "accuracy-regression"
    assert report.verdict.confidence < 0.5
    summary = report.verdict.summary
    assert "Accuracy: 0.901" in summary and "Accuracy: 0.951" in summary and "5.0 points apart" in summary
    facts = dict(report.verdict.facts)
    assert facts["accuracy"] == 0.901 and facts["compared_with"] == 0.951
    assert report.roots[0].line == 2


def test_two_scores_within_noise_stay_healthy(tmp_path: Path, library: Library) -> None:
    report = analysed_lines(tmp_path, library, _gsm8k(("run 1", 0.945), ("run 2", 0.951)), "paste.txt")
    assert report.verdict.id == "healthy"


def test_subjects_that_score_differently_are_no_regression(tmp_path: Path, library: Library) -> None:
    lines = [
        MMLU.format(minute=1, accuracy=71.3, subject="abstract_algebra"),
        MMLU.format(minute=2, accuracy=88.6, subject="anatomy"),
        MMLU.format(minute=3, accuracy=64.0, subject="college_physics"),
    ]
    report = analysed_lines(tmp_path, library, lines, "mmlu.log")
    assert report.verdict.id != "accuracy-regression"


def test_one_subject_scored_twice_far_apart_is_one_in_percent(tmp_path: Path, library: Library) -> None:
    lines = [
        MMLU.format(minute=1, accuracy=71.3, subject="anatomy"),
        MMLU.format(minute=9, accuracy=60.2, subject="anatomy"),
    ]
    report = analysed_lines(tmp_path, library, lines, "mmlu.log")
    assert report.verdict.id == "accuracy-regression"
    assert "11.1 points apart" in report.verdict.summary


def _labelled(*runs: tuple[str, float]) -> list[str]:
    """sgl-project/sglang#10180's shape: each result under a `before:` or `after:` line."""
    return [line for label, score in runs for line in [f"{label}:", f"Accuracy: {score:.3f}", "Invalid: 0.000", ""]]


def test_scores_labelled_before_and_after_a_fix_that_raised_them_are_no_regression(
    tmp_path: Path, library: Library
) -> None:
    # The lower score is the run before the fix: the labels say which way the change went.
    lines = ["flashinfer attention backend", *_labelled(("before", 0.510), ("after", 0.948))]
    report = analysed_lines(tmp_path, library, lines, "accuracy.txt")
    assert report.verdict.id == "healthy", report.verdict.summary


def test_scores_labelled_before_and_after_a_change_that_lowered_them_are_a_regression(
    tmp_path: Path, library: Library
) -> None:
    report = analysed_lines(tmp_path, library, _labelled(("before", 0.948), ("after", 0.510)), "accuracy.txt")
    assert report.verdict.id == "accuracy-regression"
    assert "0.948" in report.verdict.summary and "0.51" in report.verdict.summary


# ais_bench's summary (OpenCompass's table) of three AIME2024 runs: 25, 23 and 27 of its 30 questions.
AIME_RUN = [
    "dataset          version    metric    mode      vllm-api-general-chat",
    "---------------  ---------  --------  ------  -----------------------",
    "aime2024dataset  -          accuracy  gen                       {score}",
]


def _aime(*scores: str) -> list[str]:
    return [line.format(score=score) for score in scores for line in [*AIME_RUN, ""]]


def test_reruns_of_a_small_set_apart_by_a_few_questions_are_its_noise(tmp_path: Path, library: Library) -> None:
    # vllm-project/vllm-ascend#4964: 13.3 points between reruns are 4 of 30 questions, within the
    # noise of a set that small (twice the standard error of a difference: about 19 points here).
    report = analysed_lines(tmp_path, library, _aime("83.33", "76.67", "90.00"), "ais_bench.log")
    assert report.verdict.id == "healthy", report.verdict.summary


def test_the_same_gap_on_scores_of_no_small_set_is_a_regression(tmp_path: Path, library: Library) -> None:
    report = analysed_lines(tmp_path, library, _gsm8k(("run 1", 0.900), ("run 2", 0.767)), "paste.txt")
    assert report.verdict.id == "accuracy-regression"


def test_the_questions_are_read_from_the_grid_the_scores_sit_on() -> None:
    assert questions_on_grid([(0.8333, 4), (0.7667, 4), (0.9, 4)]) == 30
    # three decimals cannot tell a set of hundreds from chance: no count is read
    assert questions_on_grid([(0.901, 3), (0.951, 3)]) is None
