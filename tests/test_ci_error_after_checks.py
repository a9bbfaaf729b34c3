"""A CI step that failed after the checks passed keeps the job from healthy (issue 22).

A CI runner's error annotation is an ending (`effect`), not a cause, so errors like it are not read as
what broke the deployment. But when the runner says a step failed after the end-to-end checks
passed (ai-dynamo/dynamo#14377: `702 passed`, then `##[error]Failed to FinalizeArtifact: ...
(403) Forbidden`), the job is red for that step: the run is not healthy, and the line is quoted.
Look-alike: the same annotation before the checks passed is what the checks came through.
"""

from __future__ import annotations

from pathlib import Path

from pdlogdoctor.cli.behaviour import exit_code_for
from pdlogdoctor.pipeline import run

from .conftest import shipped_library

LIBRARY = shipped_library()
PASSED = "2026-09-15T03:50:11.2233445Z ================= 702 passed, 16 skipped in 1986.13s (0:33:06) ================="
REFUSED = (
    "2026-09-15T03:52:26.8873304Z ##[error]Failed to FinalizeArtifact: Received non-retryable error: Failed request: "
    '(403) Forbidden: Error from intermediary with HTTP status code 403 "Forbidden"'
)
EARLIER = (
    "2026-09-15T03:12:26.8873304Z ##[error]Failed to restore cache: Received non-retryable error: Failed request: "
    '(403) Forbidden: Error from intermediary with HTTP status code 403 "Forbidden"'
)


def _job(tmp_path: Path, lines: list[str]) -> Path:
    path = tmp_path / "job.log"
    path.write_text("".join(f"{line}\n" for line in lines))
    return path


def test_a_step_that_failed_after_the_checks_passed_is_no_healthy_run(tmp_path: Path) -> None:
    report = run([str(_job(tmp_path, [PASSED, REFUSED]))], LIBRARY)
    assert report.verdict.id == "inconclusive", report.verdict.summary
    assert "Failed to FinalizeArtifact" in report.verdict.summary
    assert int(exit_code_for(report)) != 0


def test_a_step_that_failed_before_the_checks_passed_did_not_stop_them(tmp_path: Path) -> None:
    report = run([str(_job(tmp_path, [EARLIER, PASSED]))], LIBRARY)
    assert report.verdict.id == "healthy", report.verdict.summary
