"""NaN in what sglang's sampler draws from is output corruption while requests answer 200
(patterns/sglang/sampling-nan; sglang#1742 as blind round 110 wrote it): the report names what the
sampler found, not a pattern's id. The same words of a training note name nothing."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from pdlogdoctor.model import Report

from .conftest import analysed_lines, shipped_library

LIBRARY = shipped_library()
CASE = Path(__file__).parent / "data" / "blind-round110-excerpts-b" / "02-nan-sampling-200-under-concurrency"


def test_nan_while_answering_is_garbage_output_named_in_words(case_reports: Mapping[Path, Report]) -> None:
    report = case_reports[CASE]
    assert report.verdict.id == "output-corruption", report.verdict
    assert "the sampler found NaN in the probability it sampled from" in report.verdict.summary
    assert "sampling-nan" not in report.verdict.summary


def test_logits_checked_by_nan_detection_read_the_same(tmp_path: Path) -> None:
    lines = [
        "[2025-06-11 08:01:16 TP3] Decode batch. #running-req: 16, #token: 14210, token usage: 0.06, "
        "gen throughput (token/s): 612.40, #queue-req: 0",
        "[2025-06-11 08:01:17 TP3] Detected errors during sampling! NaN in the logits.",
    ]
    report = analysed_lines(tmp_path, LIBRARY, lines, "decode.log")
    assert report.verdict.id == "output-corruption", report.verdict


def test_a_note_about_nan_names_nothing(tmp_path: Path) -> None:
    note = "float16 causes NaN in the probability tensor during generation"
    report = analysed_lines(tmp_path, LIBRARY, [note], "notes.log")
    assert report.verdict.id != "output-corruption", report.verdict
