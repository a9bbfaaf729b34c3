"""Results people post, read where they state their measure (round 105's testers): a heading that names
the measure of a failed table below it, an accuracy check's actual beside its reference, a measure that
fell from one value to another in a sentence. Each with a look-alike that fails nothing."""

from __future__ import annotations

from pathlib import Path

from pdlogdoctor.library.patterns import Library

from .conftest import analysed_lines

# tenstorrent/tt-metal#41857: the measure only in the heading over the gate's table
TTFT_TABLE = [
    "## TTFT Benchmark Failure",
    "",
    "| Level | Target (ms) | Actual (ms) | Status |",
    "|---|---|---|---|",
    "| Functional | 120 | 677 | FAIL |",
]


def test_a_heading_names_the_measure_of_the_failed_table_below(tmp_path: Path, library: Library) -> None:
    report = analysed_lines(tmp_path, library, TTFT_TABLE, "excerpt.log")
    assert report.verdict.id == "performance-regression", report.verdict.summary
    assert "| Functional | 120 | 677 | FAIL |" in report.verdict.summary


def test_a_heading_that_names_no_measure_says_nothing_of_it(tmp_path: Path, library: Library) -> None:
    report = analysed_lines(tmp_path, library, ["## Results", *TTFT_TABLE[1:]], "excerpt.log")
    assert report.verdict.id not in ("performance-regression", "accuracy-regression"), report.verdict.summary


def test_an_accuracy_checks_actual_beside_its_reference_is_a_regression(tmp_path: Path, library: Library) -> None:
    """tenstorrent/tt-inference-server#4225's release acceptance check."""
    line = (
        "evals.longbench_code_e: Accuracy check failed; actual score=8.3850; reference gpu_reference_score=48.1200; "
        "ratio=0.1743."
    )
    report = analysed_lines(tmp_path, library, [line], "excerpt.log")
    assert report.verdict.id == "accuracy-regression", report.verdict.summary


def test_a_throughput_check_within_its_threshold_fails_nothing(tmp_path: Path, library: Library) -> None:
    line = "- `benchmarks.functional.tput_check`: actual tput=140.2000; threshold tput=132.8000; ratio=1.0557."
    report = analysed_lines(tmp_path, library, [line], "excerpt.log")
    assert report.verdict.id not in ("performance-regression", "inconclusive"), report.verdict.summary


def test_a_score_that_fell_in_a_sentence_is_a_regression(tmp_path: Path, library: Library) -> None:
    """vllm-project/tpu-inference#2318: the values as links to the two builds."""
    line = 'And "strict-match" drops from [0.31](https://buildkite.com/a/L697) to [0.0](https://buildkite.com/b/L697)'
    report = analysed_lines(tmp_path, library, [line], "excerpt.log")
    assert report.verdict.id == "accuracy-regression", report.verdict.summary


def test_a_latency_that_fell_is_an_improvement(tmp_path: Path, library: Library) -> None:
    report = analysed_lines(tmp_path, library, ["Mean TTFT dropped from 912 to 340 ms with the new scheduler"], "x.log")
    assert report.verdict.id not in ("performance-regression", "accuracy-regression"), report.verdict.summary


# vllm-project/vllm-ascend#6235 (round 106's tester): pytest's traceback of a failed throughput check,
# its `>` statements far above the assertion the check raised.
PYTEST_BLOCK = [
    "    def test_models(model: str, tp_size: int) -> None:",
    ">       run_vllm_bench_case(model, port, vllm_bench_cases, baseline_throughput)",
    *(f"        line_{n} = {n}" for n in range(18)),
    ">           raise RuntimeError(error_msg) from e",
    "E           RuntimeError: vllm_bench run failed, reason is Performance verification failed. The current Output "
    "Token Throughput is 1549.45 token/s, which is not greater than or equal to 0.97 * baseline 1600.0.",
]


def test_a_failed_checks_own_traceback_is_no_other_failure(tmp_path: Path, library: Library) -> None:
    report = analysed_lines(tmp_path, library, PYTEST_BLOCK, "pytest.log")
    assert report.verdict.id == "performance-regression", report.verdict.summary
