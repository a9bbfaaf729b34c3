"""A pipeline's timeout that cancels a job after a test already failed or errored in the same log is
the failure's consequence, not the story (analyzers/ci.py _above_the_cancel): one file's order is its
own, its lines timed or not. A cancel with nothing failed above it stays ci-cancelled."""

from __future__ import annotations

from pathlib import Path

from pdlogdoctor.library.patterns import Library

from .conftest import analysed_lines

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
