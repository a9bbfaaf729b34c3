"""A check that raised before it compared anything measured nothing (reason/performance.py
`measured_gates`): pytest's `FAILED <test> - ImportError: ...` under an accuracy test's name is no
worse accuracy, one under a latency test's name no slower run. The gate still failed (never healthy,
never exit 0); its measure is the assertion's, when a test states one."""

from __future__ import annotations

from pathlib import Path

import pytest

from pdlogdoctor.cli.behaviour import exit_code_for
from pdlogdoctor.library.patterns import Library
from pdlogdoctor.pipeline import run

RUNNER = "2026-06-16T19:42:16.1661043Z "


def _job(tmp_path: Path, failed: str) -> Path:
    lines = [
        "##[group]Run python3 -m pytest -q test/srt/",
        f"FAILED {failed}",
        "============================== 1 failed in 9.84s ===============================",
        "##[error]Process completed with exit code 1.",
    ]
    path = tmp_path / "job.log"
    path.write_text("".join(RUNNER + line + "\n" for line in lines))
    return path


@pytest.mark.parametrize(
    "failed",
    [
        # vllm-project/vllm-ascend#10595: lm-eval pinned against a vLLM that moved its helper
        "tests/e2e/models/test_lm_eval_correctness.py::test_lm_eval_correctness_param[cfg0] - ImportError: "
        "cannot import name 'resolve_hf_chat_template' from 'vllm.entrypoints.chat_utils'",
        "test/srt/test_bench_serving.py::TestBenchServing::test_online_latency_default - "
        "requests.exceptions.ConnectionError: HTTPConnectionPool(host='127.0.0.1', port=21000): Max retries exceeded",
        "test/srt/test_eval_accuracy_large.py::TestEvalAccuracyLarge::test_gsm8k - RuntimeError: Server process "
        "exited with code -9",
    ],
)
def test_a_check_that_raised_names_no_regression(tmp_path: Path, library: Library, failed: str) -> None:
    report = run([str(_job(tmp_path, failed))], library)
    assert report.verdict.id not in ("accuracy-regression", "performance-regression", "healthy")
    assert int(exit_code_for(report)) != 0


def test_a_check_that_compared_is_its_measure(tmp_path: Path, library: Library) -> None:
    # Look-alike: the assertion compared a score with its threshold.
    failed = (
        "test/srt/test_eval_accuracy_large.py::TestEvalAccuracyLarge::test_mmlu - "
        "AssertionError: 0.62 not greater than or equal to 0.71"
    )
    assert run([str(_job(tmp_path, failed))], library).verdict.id == "accuracy-regression"
