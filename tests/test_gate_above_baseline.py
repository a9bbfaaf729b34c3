"""A band around a baseline fails on a score above it too (vllm-ascend's aisbench: an accuracy `not
within 2 relative to baseline 95` at 100.0): no accuracy regression, the run stays inconclusive with
its gate quoted (accuracy._above_its_baseline); below the band it is one."""

from __future__ import annotations

from pathlib import Path

from pdlogdoctor.cli.behaviour import exit_code_for
from pdlogdoctor.library.patterns import Library

from .conftest import analysed_lines


def _run(accuracy: str) -> list[str]:
    return [
        "ERROR    root:aisbench.py:272 [1/3] Benchmark failed: acc, reason: Accuracy verification failed. "
        f"The accuracy of vllm-ascend/gsm8k-lite is {accuracy}, which is not within 2 relative to baseline 95.",
        "E       AssertionError: some aisbench cases failed, info were shown above.",
    ]


def test_a_score_above_its_band_is_no_accuracy_regression(tmp_path: Path, library: Library) -> None:
    report = analysed_lines(tmp_path, library, _run("100.0"), "nightly.log")
    assert report.verdict.id == "inconclusive"
    assert exit_code_for(report) == 3
    assert "is 100.0, which is not within 2 relative to baseline 95" in report.verdict.summary


def test_a_score_below_its_band_is_one(tmp_path: Path, library: Library) -> None:
    report = analysed_lines(tmp_path, library, _run("81.25"), "nightly.log")
    assert report.verdict.id == "accuracy-regression"
    assert exit_code_for(report) == 1
