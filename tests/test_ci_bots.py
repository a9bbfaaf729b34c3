"""A CI bot's comments on a PR: its pipeline's result, and the kill that stopped it (issue 22: a
pipeline stopped on purpose is ci-cancelled; one that failed on its own is no cancellation).

NVIDIA/TensorRT-LLM#2957: `/bot kill`, then the bot's `... completed with status: 'FAILURE'` for
the running pipeline and `Successfully killed previous jobs for commit <sha>`.
"""

from __future__ import annotations

from pathlib import Path

from pdlogdoctor.cli.behaviour import exit_code_for
from pdlogdoctor.model import Report
from pdlogdoctor.pipeline import run

from .conftest import shipped_library

LIBRARY = shipped_library()
FAILED = (
    "[/LLM/main/L0_MergeRequest_PR pipeline #162](https://nv/trt-llm-cicd/job/main/job/L0_MergeRequest_PR/162/) "
    "completed with status: 'FAILURE'"
)
KILLED = "Successfully killed previous jobs for commit 678803d4a336790111cb9fae2dad5a0810fa62e7"


def _analysed(tmp_path: Path, lines: list[str]) -> Report:
    (tmp_path / "pr-comments.txt").write_text("".join(f"{line}\n" for line in lines))
    return run([str(tmp_path)], LIBRARY)


def test_a_failure_beside_the_bots_kill_is_a_cancellation(tmp_path: Path) -> None:
    report = _analysed(tmp_path, ["/bot kill", FAILED, KILLED])
    assert report.verdict.id == "ci-cancelled", report.verdict.summary
    assert KILLED in report.verdict.summary
    assert int(exit_code_for(report)) == 1


def test_a_pipeline_that_failed_without_a_kill_is_a_failed_run(tmp_path: Path) -> None:
    report = _analysed(tmp_path, ["/bot run", FAILED])
    assert report.verdict.id not in ("ci-cancelled", "healthy", "no-failure-seen"), report.verdict.summary
    assert int(exit_code_for(report)) != 0
    assert "completed with status: 'FAILURE'" in report.verdict.summary


def test_a_pipeline_that_passed_is_no_failure(tmp_path: Path) -> None:
    report = _analysed(tmp_path, ["/bot run", FAILED.replace("FAILURE", "SUCCESS")])
    assert report.verdict.id in ("healthy", "no-failure-seen"), report.verdict.summary
