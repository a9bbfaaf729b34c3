"""A pipeline's timeout that cancels a job after a test already failed or errored in the same log is
the failure's consequence, not the story (analyzers/ci.py _above_the_cancel): one file's order is its
own, its lines timed or not. A cancel with nothing failed above it stays ci-cancelled."""

from __future__ import annotations

from pathlib import Path

import pytest

from pdlogdoctor.library.patterns import Library

from .conftest import analysed_files, analysed_lines

RUN = [
    "[2026-07-07T13:00:41.102Z] + srun pytest -v test/python",
    "[2026-07-07T13:00:42.553Z] test/python/test_nixl_api.py::test_list_plugins PASSED [ 3%]",
]
ERRORED = [
    "[2026-07-07T13:04:52.118Z] ERROR test/python/test_nixl_api.py::test_empty_notif_tag - Failed: Timeout (>5.0s) "
    "from pytest-timeout.",
    "[2026-07-07T13:04:52.119Z] ============= 23 passed, 2 skipped, 1 error in 251.41s (0:04:11) ==============",
]
PASSED = ["[2026-07-07T13:04:52.119Z] ============= 24 passed, 2 skipped in 251.41s (0:04:11) =============="]
CANCEL = [
    "[2026-07-07T14:00:41.007Z] Cancelling nested steps due to timeout",
    "[2026-07-07T14:00:41.012Z] Sending interrupt signal to process",
]


def test_a_test_that_errored_before_the_timeout_is_the_failure(tmp_path: Path, library: Library) -> None:
    report = analysed_lines(tmp_path, library, [*RUN, *ERRORED, *CANCEL], "jenkins.log")
    assert report.verdict.id != "ci-cancelled"
    rejected = next(a for a in report.alternatives if a.id == "ci-cancelled")
    assert "failed before the job was cancelled" in rejected.why_not
    assert "jenkins.log:3" in rejected.why_not  # the test's ERROR line, the first failure above the cancel


def test_a_cancel_with_nothing_failed_above_it_is_a_cancel(tmp_path: Path, library: Library) -> None:
    report = analysed_lines(tmp_path, library, [*RUN, *PASSED, *CANCEL], "jenkins.log")
    assert report.verdict.id == "ci-cancelled"


# A matrix of jobs (round 172's bundle, SemiAnalysisAI/InferenceX#2951's shape): one job's step failed,
# then the workflow cancelled the job still running (fail-fast). Each job's log is its own file, each
# line stamped by the CI service.
ACTIONS_FAILED = ["2026-09-10T00:52:37.6417301Z ##[error]Process completed with exit code 1."]
ACTIONS_CANCELLED = ["2026-09-10T00:52:37.7617300Z ##[error]The operation was canceled."]
BUILDKITE_FAILED = ["[2025-02-23T04:31:02Z] 🚨 Error: The command exited with status 1"]
BUILDKITE_CANCELLED = ["[2025-02-23T04:31:09Z] # Received cancellation signal, interrupting"]


@pytest.mark.parametrize(
    ("failed", "cancelled"),
    [(ACTIONS_FAILED, ACTIONS_CANCELLED), (BUILDKITE_FAILED, BUILDKITE_CANCELLED)],
    ids=["actions", "buildkite"],
)
def test_a_job_cancelled_after_another_job_failed_is_no_cancel_story(
    tmp_path: Path, library: Library, failed: list[str], cancelled: list[str]
) -> None:
    report = analysed_files(tmp_path / "run", library, {"job-a.log": failed, "job-b.log": cancelled})
    assert report.verdict.id != "ci-cancelled", report.verdict.summary
    rejected = next(a for a in report.alternatives if a.id == "ci-cancelled")
    assert "another job failed first" in rejected.why_not and "job-a.log:1" in rejected.why_not
    # Look-alike: the other job failed only after this one was cancelled: the cancel came first.
    late = [failed[0].replace("00:52:37.6417301Z", "00:53:40.0000000Z").replace("04:31:02Z", "04:32:10Z")]
    report = analysed_files(tmp_path / "late", library, {"job-a.log": late, "job-b.log": cancelled})
    assert report.verdict.id == "ci-cancelled", report.verdict.summary
