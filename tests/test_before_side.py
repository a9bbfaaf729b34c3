"""A failure stated under a Before side's heading is the baseline a change was measured against.

A fix's paste states the broken run under `before:` and the fixed one under `after:` (round 57's
excerpt, sgl-project/sglang's NVFP4 chunked prefix-cache fix: half the GSM8K answers unreadable
before, none after): the Before side's failing lines are the state the change fixed, not the run the
paste reports, and the report judges the After side. Look-alikes: the same Before block with no After
side is the run's own failure; a failure under the After side stays one.
"""

from __future__ import annotations

from pathlib import Path

from pdlogdoctor.library.patterns import Library

from .conftest import analysed_lines

# sglang's few-shot GSM8K client (few_shot_gsm8k.py): `Accuracy:` then `Invalid:`.
BROKEN = ["Accuracy: 0.510", "Invalid: 0.480"]
FIXED = ["Accuracy: 0.948", "Invalid: 0.000"]


def test_a_broken_before_side_beside_a_clean_after_side_is_the_baseline(tmp_path: Path, library: Library) -> None:
    report = analysed_lines(tmp_path, library, ["before:", *BROKEN, "", "after:", *FIXED], "accuracy.txt")
    assert report.verdict.id == "healthy", report.verdict.summary


def test_a_broken_run_with_no_after_side_is_the_failure(tmp_path: Path, library: Library) -> None:
    report = analysed_lines(tmp_path, library, ["before:", *BROKEN], "accuracy.txt")
    assert report.verdict.id == "output-corruption", report.verdict.summary
    assert "48% of the GSM8K answers hold no number" in report.verdict.summary


def test_a_broken_after_side_stays_the_failure(tmp_path: Path, library: Library) -> None:
    report = analysed_lines(tmp_path, library, ["before:", *FIXED, "", "after:", *BROKEN], "accuracy.txt")
    assert report.verdict.id == "output-corruption", report.verdict.summary
