"""Lines that say the run is not well though requests were answered (issue 22: a failed run is never
healthy). Round 81's first sight called two failed runs healthy: a vLLM server generating 0.8 tokens/s
for its one request on a GPU whose `nvidia-smi -q` said `Reset Required : Yes` (vllm#8847), and an
Actions job whose self-hosted runner's container hook failed after `286 passed` (ai-dynamo/dynamo).
A GPU's state holds until someone acts, so answers beside it do not vouch for it; a runner's
`Executing the custom container implementation failed` marks the step failed whatever tests passed.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from pdlogdoctor.cli.behaviour import exit_code_for
from pdlogdoctor.library.patterns import Library
from pdlogdoctor.model import Report
from pdlogdoctor.pipeline import run

SERVED = (
    'INFO:     2.36.8.92:56164 - "POST /v1/chat/completions HTTP/1.1" 200 OK\n'
    "INFO 09-26 11:35:23 engine.py:288] Added request chat-cc6296ad51b74d88bf17ba75459c06aa.\n"
)
SMI = "    GPU Reset Status\n        Reset Required                    : {required}\n"


def _run(tmp_path: Path, library: Library, files: dict[str, str]) -> Report:
    for name, text in files.items():
        (tmp_path / name).write_text(text)
    return run([str(tmp_path)], library)


def test_a_gpu_that_needs_a_reset_is_no_healthy_run(tmp_path: Path, library: Library) -> None:
    report = _run(tmp_path, library, {"excerpt.log": SERVED, "nvidia-smi-q.txt": SMI.format(required="Yes")})
    assert report.verdict.id == "inconclusive", report.verdict.summary
    assert "Reset Required" in report.verdict.summary
    assert int(exit_code_for(report)) != 0


def test_a_gpu_in_order_leaves_the_run_healthy(tmp_path: Path, library: Library) -> None:
    report = _run(tmp_path, library, {"excerpt.log": SERVED, "nvidia-smi-q.txt": SMI.format(required="No")})
    assert report.verdict.id == "healthy", report.verdict.summary


PASSED = "================== 286 passed, 2 skipped in 75.41s (0:01:15) ===================\n"
HOOK = (
    "##[error]Error: connect ECONNREFUSED 172.20.0.1:443\n"
    "##[error]Executing the custom container implementation failed. Please contact your self hosted runner "
    "administrator.\n"
)


@pytest.mark.parametrize("order", ["hook-first", "tests-first"])
def test_a_runner_whose_container_hook_failed_failed_the_job(tmp_path: Path, library: Library, order: str) -> None:
    text = HOOK + "\n" + PASSED if order == "hook-first" else PASSED + HOOK
    report = _run(tmp_path, library, {"ci.log": text})
    assert report.verdict.id not in ("healthy", "no-failure-seen"), report.verdict.summary
    assert "Executing the custom container implementation failed" in report.verdict.summary
    assert int(exit_code_for(report)) != 0


def test_the_same_tests_passing_without_the_hook_is_healthy(tmp_path: Path, library: Library) -> None:
    report = _run(tmp_path, library, {"ci.log": PASSED})
    assert report.verdict.id == "healthy", report.verdict.summary
