"""A regression stated in words, then measured against its threshold and met, is no failure (issue 22).

sglang-jax#1077's description explains the ~13 % throughput regression it fixes, then posts its
verification table: each row a threshold (`> 11000`) and the value measured beside it, every row met.
The table's rows judge themselves (patterns/harness/gate-table-threshold-row.toml); the words are
answered by the measurement after them (reason/met_later.py). Look-alikes: a row that misses its
threshold fails, and keeps the stated regression failing; a measurement of another kind (an
accuracy) answers no throughput regression; a measurement above the words answers nothing.
"""

from __future__ import annotations

from pathlib import Path

from pdlogdoctor.cli.behaviour import exit_code_for
from pdlogdoctor.pipeline import run

from .conftest import shipped_library

LIBRARY = shipped_library()
WHY = (
    "The DMA tile is ~16× larger than the test's actual ≤1K-token sequences, wasting HBM bandwidth and causing"
    " ~13% throughput regression — main has been intermittently failing this test since 2026-04-22."
)
HEADER = ["| sub-test | metric | threshold | measured | headroom |", "|---|---|---|---|---|"]
MET = [
    "| test_input_throughput | input_throughput | > 64960 | 68859 | +6% |",
    "| test_output_throughput | output_throughput | > 11000 | 12101 | +10% |",
    "| test_ttft | median_ttft_ms | < 38 | 28.56 | 25% |",
]


def _excerpt(tmp_path: Path, lines: list[str]) -> Path:
    path = tmp_path / "pr-description.md"
    path.write_text("".join(f"{line}\n" for line in lines))
    return path


def test_a_stated_regression_then_a_table_that_meets_every_threshold_is_healthy(tmp_path: Path) -> None:
    report = run([str(_excerpt(tmp_path, ["## Why", WHY, "", "## Verification", *HEADER, *MET]))], LIBRARY)
    assert report.verdict.id == "healthy", report.verdict.summary
    assert int(exit_code_for(report)) == 0


def test_a_row_that_misses_its_threshold_fails_and_keeps_the_regression(tmp_path: Path) -> None:
    missed = "| test_output_throughput | output_throughput | > 11000 | 9741 | -11% |"
    lines = ["## Why", WHY, "", "## Verification", *HEADER, MET[0], missed, MET[2]]
    report = run([str(_excerpt(tmp_path, lines))], LIBRARY)
    assert report.verdict.id == "performance-regression", report.verdict.summary
    assert report.performance is not None and report.performance.gate is not None
    assert report.performance.gate.get("value") == 9741.0
    assert report.performance.gate.get("limit") == 11000.0
    assert int(exit_code_for(report)) == 1


def test_a_ceiling_row_above_its_threshold_fails(tmp_path: Path) -> None:
    slow = "| test_ttft | median_ttft_ms | < 38 | 52.10 | -37% |"
    report = run([str(_excerpt(tmp_path, [*HEADER, MET[0], slow]))], LIBRARY)
    assert report.verdict.id == "performance-regression", report.verdict.summary
    assert report.performance is not None and report.performance.gate is not None
    assert report.performance.gate.get("value") == 52.1


def test_an_accuracy_measured_after_a_throughput_regression_does_not_answer_it(tmp_path: Path) -> None:
    accuracy = "| gsm8k | accuracy | > 0.90 | 0.93 | +3% |"
    report = run([str(_excerpt(tmp_path, [WHY, *HEADER, accuracy]))], LIBRARY)
    assert report.verdict.id != "healthy", report.verdict.summary
    assert int(exit_code_for(report)) != 0


def test_a_measurement_above_the_stated_regression_does_not_answer_it(tmp_path: Path) -> None:
    report = run([str(_excerpt(tmp_path, [*HEADER, *MET, "", WHY]))], LIBRARY)
    assert report.verdict.id != "healthy", report.verdict.summary
    assert int(exit_code_for(report)) != 0
