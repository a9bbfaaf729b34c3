"""A failed accuracy gate with nothing else failing is an accuracy regression (reason/accuracy.py),
whichever test runner printed it; a gate that measured something else, or a failure beside it,
leaves the decision to them."""

from __future__ import annotations

from pathlib import Path

from pdlogdoctor.library.patterns import Library
from pdlogdoctor.model import Report
from pdlogdoctor.pipeline import run

from .conftest import FIXTURES, analysed_lines

# sglang's unittest gate (test/srt/test_disaggregation.py: self.assertGreater(metrics["accuracy"], ...)),
# under the test id people paste above it (sgl-project/sglang#30946).
UNITTEST_GSM8K = ["TestDisaggregationHybridAttentionMamba.test_gsm8k", "AssertionError: 0.605 not greater than 0.87"]
# vLLM's GSM8K correctness test under pytest (vllm-project/vllm#50018).
PYTEST_GSM8K = [
    "evals/gsm8k/test_gsm8k_correctness.py::test_gsm8k_correctness[Qwen3.5-397B-A17B-NVFP4-DEP2]",
    "E           AssertionError: GSM8K metric too low: 0.8370 < 0.8800 - 0.0300 = 0.8500",
    "E           assert np.float64(0.8369977255496588) >= (0.88 - 0.03)",
]


def _verdict(report: Report) -> tuple[str, float]:
    return report.verdict.id, report.verdict.confidence


def test_a_unittest_accuracy_gate_under_its_test_id(tmp_path: Path, library: Library) -> None:
    report = analysed_lines(tmp_path, library, UNITTEST_GSM8K, "ci.log")
    assert _verdict(report) == ("accuracy-regression", 0.5)
    assert "AssertionError: 0.605 not greater than 0.87" in report.verdict.summary
    assert dict(report.verdict.facts) == {"accuracy": 0.605, "threshold": 0.87, "margin": -0.265}
    assert report.chain[0].text == "AssertionError: 0.605 not greater than 0.87"


def test_a_pytest_accuracy_gate_is_quoted_by_its_message(tmp_path: Path, library: Library) -> None:
    report = analysed_lines(tmp_path, library, PYTEST_GSM8K, "ci.log")
    assert _verdict(report) == ("accuracy-regression", 0.5)
    assert "GSM8K metric too low: 0.8370 < 0.8800 - 0.0300 = 0.8500" in report.verdict.summary


def test_an_unnamed_score_held_above_a_fraction_is_a_lead(tmp_path: Path, library: Library) -> None:
    """No word says accuracy: a value between 0 and 1 that had to exceed 0.87 reads as a score, below 0.5."""
    report = analysed_lines(tmp_path, library, ["AssertionError: 0.865 not greater than 0.87"], "ci.log")
    assert _verdict(report) == ("accuracy-regression", 0.35)
    assert "read as an accuracy" in report.verdict.summary


def test_a_score_near_zero_is_called_a_collapse(tmp_path: Path, library: Library) -> None:
    lines = ["TestDisaggregationAccuracy.test_gsm8k", "AssertionError: 0.02 not greater than 0.62"]
    report = analysed_lines(tmp_path, library, lines, "ci.log")
    assert report.verdict.id == "accuracy-regression"
    assert "garbage output" in report.verdict.summary


def test_a_throughput_or_latency_gate_is_no_accuracy(tmp_path: Path, library: Library) -> None:
    """Look-alikes: a bare number above 1, and a value that had to stay below its limit."""
    for line in ("AssertionError: 1532.4 not less than or equal to 1500", "AssertionError: 0.9 not less than 0.5"):
        report = analysed_lines(tmp_path, library, [line], "ci.log")
        assert report.verdict.id != "accuracy-regression", line
        assert report.verdict.id == "inconclusive", line


def test_a_latency_gate_beside_it_leaves_the_run_to_performance(tmp_path: Path, library: Library) -> None:
    lines = [
        *UNITTEST_GSM8K,
        "FAIL: test_online_latency_default (__main__.TestBenchServing)",
        "AssertionError: 15902.48 not less than 2500",
    ]
    report = analysed_lines(tmp_path, library, lines, "ci.log")
    assert report.verdict.id != "accuracy-regression"


def test_a_server_error_beside_the_gate_is_not_hidden_by_it(tmp_path: Path, library: Library) -> None:
    """The decode died; the gate's low score is its consequence, not a regression of the answers."""
    (tmp_path / "decode.log").write_text(
        "[2026-11-30 04:30:00 TP0] Scheduler hit an exception: Traceback (most recent call last):\n"
        "RuntimeError: CUDA error: an illegal memory access was encountered\n"
    )
    report = analysed_lines(tmp_path, library, UNITTEST_GSM8K, "ci.log")
    assert report.verdict.id != "accuracy-regression"


def test_the_servers_serving_make_it_surer(library: Library) -> None:
    """sglang's CI accuracy test failed while both servers' logs show them ready and answering."""
    report = run([str(FIXTURES / "gate-sglang-ci-threshold-assert")], library)
    assert _verdict(report) == ("accuracy-regression", 0.6)
    assert [step.name for step in report.verdict.reasons] == ["accuracy-gate", "gate-served"]


def test_a_test_in_an_e2e_folder_measures_what_its_name_says(tmp_path: Path, library: Library) -> None:
    """vLLM-Omni's accuracy test lives under tests/e2e/: the folder names no latency."""
    node = "tests/e2e/accuracy/qwen3_omni/test_qwen3_omni.py::test_qwen3_omni_daily_omni_accuracy_bench[omni_server0]"
    line = f"FAILED {node}"
    report = analysed_lines(tmp_path, library, [line], "ci.log")
    assert report.verdict.id == "accuracy-regression"


def test_a_latency_test_is_still_a_latency(tmp_path: Path, library: Library) -> None:
    line = "FAILED tests/perf/test_pd_nixl_qwen32b.py::test_e2e_latency - AssertionError: 15902.48 not less than 2500"
    report = analysed_lines(tmp_path, library, [line], "ci.log")
    assert report.verdict.id == "performance-regression"


def test_a_correctness_test_that_failed_its_share_is_an_accuracy_gate(tmp_path: Path, library: Library) -> None:
    """vllm-project/vllm#34700 (round 126's excerpts-d 02): vLLM's spec-decode correctness test counts
    the outputs matching the reference against the share it needs (`assert 53 >= 66`): an accuracy
    gate. Look-alike: the same test failing on an exception is no accuracy measured."""
    test = "v1/e2e/test_spec_decode.py::test_ngram_and_suffix_correctness[speculative_config1]"
    report = analysed_lines(tmp_path, library, [f"FAILED {test} - assert 53 >= 66"], "job.log")
    assert report.verdict.id == "accuracy-regression", report.verdict.summary
    (tmp_path / "raised").mkdir()
    raised = [f"FAILED {test} - RuntimeError: CUDA error: an illegal memory access was encountered"]
    report = analysed_lines(tmp_path / "raised", library, raised, "job.log")
    assert report.verdict.id != "accuracy-regression", report.verdict.summary
