"""A job's exit takes what it measured from its step's own error line just above it (issue 22).

A CI step that compares a benchmark with its baseline prints its verdict in its own words, as an
error no pattern knows (`##[error]perf gate failed: output_throughput regressed 15.6% (allowed
10.0%)`), then the runner's exit line (`##[error]Process completed with exit code 1.`). The exit is
the failed gate; the line above says what the gate measured: a throughput or a latency makes the
run a performance regression, an accuracy an accuracy regression. Look-alikes: an error above the
exit that names no measure, and a measure named too far above the exit (another step's output),
leave the gate unnamed and the run inconclusive.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from pdlogdoctor.cli.behaviour import exit_code_for
from pdlogdoctor.pipeline import run

from .conftest import FIXTURES, shipped_library

SERVED = FIXTURES / "healthy-sglang-bench-serving-result"  # a NIXL PD pair that served, with a benchmark
LIBRARY = shipped_library()
EXIT = "2025-11-25T02:54:13.2358904Z ##[error]Process completed with exit code 1."
STEP = "2025-11-25T02:54:13.2149819Z ##[group]Run python3 ci/pd/compare_baseline.py results.json baseline.json"


def _job(tmp_path: Path, lines: list[str]) -> Path:
    bundle = tmp_path / "run"
    shutil.copytree(SERVED, bundle, ignore=shutil.ignore_patterns("expected.toml", "job.log"))
    (bundle / "job.log").write_text("".join(f"{line}\n" for line in lines))
    return bundle


@pytest.mark.parametrize(
    ("said", "verdict"),
    [
        ("##[error]perf gate failed: output_throughput regressed 15.6% (allowed 10.0%)", "performance-regression"),
        ("##[error]check failed: median TTFT went up 41% against the baseline run", "performance-regression"),
        ("##[error]eval check failed: gsm8k accuracy is 7 points under the baseline run", "accuracy-regression"),
    ],
)
def test_the_exit_is_the_gate_its_step_named_above_it(tmp_path: Path, said: str, verdict: str) -> None:
    lines = [STEP, f"2025-11-25T02:54:13.2272061Z {said}", EXIT]
    report = run([str(_job(tmp_path, lines))], LIBRARY)
    assert report.verdict.id == verdict, report.verdict.summary
    assert int(exit_code_for(report)) == 1
    assert report.performance is not None and report.performance.gate is not None
    assert report.performance.gate.text.endswith("Process completed with exit code 1.")


@pytest.mark.parametrize(
    "said",
    [
        "##[error]compare failed: results.json has no entry for run",
        # a test's source listing: a comment that names a measure but states no value of it
        "        # Assert at the end, print all scores even on failure for debugging.",
    ],
)
def test_an_error_above_the_exit_that_states_no_measured_value_leaves_it_a_job_that_failed(
    tmp_path: Path, said: str
) -> None:
    lines = [STEP, f"2025-11-25T02:54:13.2272061Z {said}", EXIT]
    report = run([str(_job(tmp_path, lines))], LIBRARY)
    assert report.verdict.id == "inconclusive", report.verdict.summary
    assert "Process completed with exit code 1" in report.verdict.summary


def test_a_measure_named_by_an_earlier_step_does_not_name_this_exit(tmp_path: Path) -> None:
    said = "2025-11-25T02:50:13.2272061Z ##[error]perf gate failed: output_throughput regressed 15.6% (allowed 10.0%)"
    others = [f"2025-11-25T02:5{1 + i // 10}:0{i % 10}.0000000Z step output {i}" for i in range(20)]
    report = run([str(_job(tmp_path, [said, *others, STEP, EXIT]))], LIBRARY)
    assert report.verdict.id not in ("performance-regression", "healthy"), report.verdict.summary


def test_a_step_that_states_both_scores_is_the_gate_itself(tmp_path: Path) -> None:
    # The drop with its two values is a gate of its own (score-change-stated): the line quoted first.
    said = "##[error]eval check failed: gsm8k accuracy dropped from 0.91 to 0.84"
    report = run([str(_job(tmp_path, [STEP, f"2025-11-25T02:54:13.2272061Z {said}", EXIT]))], LIBRARY)
    assert report.verdict.id == "accuracy-regression", report.verdict.summary
    assert report.performance is not None and report.performance.gate is not None
    assert report.performance.gate.text.endswith("dropped from 0.91 to 0.84")
