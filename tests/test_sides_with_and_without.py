"""A setting's two sides, without it and with it (`W/o piecewise cudagraph : MMLU 84.60 / Gsm8K 93.17`,
then `W/ piecewise cudagraph : **MMLU 75.12**`: NVIDIA/TensorRT-LLM#12949 as blind round 111 wrote
it), are a before and an after (patterns/harness/measure-before, measure-after); an After that
restates only the first of its Before's measures is paired with it, number by number in order
(reason/compared.py). A fall within the allowance passes; a sentence that says `w/` with no measure
names no side."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from pdlogdoctor.model import Report

from .conftest import analysed_lines, shipped_library

LIBRARY = shipped_library()
CASE = Path(__file__).parent / "data" / "blind-round111-excerpts-c" / "07-trtllm-autodeploy-piecewise-mmlu-drop"
WITHOUT = "W/o fp8 kv cache : MMLU 84.60 / Gsm8K 93.17"


def test_with_a_setting_the_accuracy_fell_beyond_the_allowance(case_reports: Mapping[Path, Report]) -> None:
    report = case_reports[CASE]
    assert report.verdict.id == "accuracy-regression", report.verdict
    assert "84.6 to 75.12" in report.verdict.summary


def test_a_fall_within_the_allowance_is_no_regression(tmp_path: Path) -> None:
    report = analysed_lines(
        tmp_path,
        LIBRARY,
        ["W/o fp8 kv cache : MMLU 84.60 / Gsm8K 93.17", "W/ fp8 kv cache : MMLU 83.90"],
        "excerpt.log",
    )
    assert report.verdict.id != "accuracy-regression", report.verdict


def test_an_after_of_other_measures_is_not_paired(tmp_path: Path) -> None:
    report = analysed_lines(
        tmp_path,
        LIBRARY,
        ["W/o fp8 kv cache : MMLU 84.60 / Gsm8K 93.17", "W/ fp8 kv cache : TTFT 75.12 ms"],
        "excerpt.log",
    )
    assert report.verdict.id != "accuracy-regression", report.verdict
