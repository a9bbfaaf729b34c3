"""A server process that died by a signal another process sends (SIGTERM -15, SIGKILL -9) did not
crash by itself: a record of the stop in the run (a container's exit in `kubectl describe`, Slurm
cancelling the step) leads the report (inconclusive; for a job's cancel, ci-cancelled), and the death
is its consequence.

Round 26's excerpt (an Akash provider's vLLM): `Worker VllmWorkerProcess pid 143 died, exit code:
-15` read as a scheduler crash at 0.35, while `kubectl describe` beside it said the container was
killed (`Exit Code: 137`); the thread found the pod's memory limit. Look-alikes: a death by SIGSEGV
beside the same stop is a crash; a SIGTERM death with no record of a stop stays a crash (the lines
cannot tell who sent it).
"""

from __future__ import annotations

from pathlib import Path

from pdlogdoctor.library.patterns import Library
from pdlogdoctor.pipeline import run

VLLM_WORKER = (
    "ERROR 08-11 16:59:41 multiproc_worker_utils.py:120] Worker VllmWorkerProcess pid 143 died, exit code: -15"
)
DESCRIBE = """\
    State:          Running
      Started:      Sun, 11 Aug 2024 19:00:04 +0200
    Last State:     Terminated
      Reason:       Error
      Exit Code:    137
      Started:      Sun, 11 Aug 2024 17:16:14 +0200
      Finished:     Sun, 11 Aug 2024 19:00:03 +0200
"""
SLURM_JOB = """\
[2026-04-25 02:40:11] server_args=ServerArgs(model_path='deepseek-ai/DeepSeek-V3', disaggregation_mode='prefill')
[2026-04-25 02:46:52] The server is fired up and ready to roll!
[2026-04-25 02:52:29] Subprocess scheduler_0 (pid=214) crashed with exit code {code}. Triggering SIGQUIT for cleanup...
slurmstepd: error: *** STEP 12903.2 ON mia1-p01-g19 CANCELLED AT 2026-04-25T02:52:29 DUE TO TIME LIMIT ***
"""


def _run(tmp_path: Path, library: Library, files: dict[str, str]):  # type: ignore[no-untyped-def]
    for name, text in files.items():
        (tmp_path / name).write_text(text if text.endswith("\n") else text + "\n")
    return run([str(tmp_path)], library)


def test_a_worker_killed_with_its_container_is_the_containers_stop(tmp_path: Path, library: Library) -> None:
    report = _run(tmp_path, library, {"vllm.log": VLLM_WORKER, "kubectl-describe.txt": DESCRIBE})
    assert report.verdict.id == "inconclusive", report.verdict.summary
    assert report.verdict.summary.startswith("A process was stopped from outside: ")
    assert "kubectl-describe.txt:5: Exit Code: 137" in " ".join(report.verdict.summary.split())
    assert "exit code -15" in report.verdict.summary
    assert report.alternatives[0].id == "scheduler-crash"


def test_a_scheduler_ended_by_slurms_cancel_is_the_cancel(tmp_path: Path, library: Library) -> None:
    """Since session 28 a pattern names Slurm's cancel (ci-cancelled): the SIGTERM death is the stop."""
    report = _run(tmp_path, library, {"job-12903.out": SLURM_JOB.format(code=-15)})
    assert report.verdict.id == "ci-cancelled", report.verdict.summary
    assert "CANCELLED AT 2026-04-25T02:52:29 DUE TO TIME LIMIT" in report.verdict.summary
    rejected = {a.id: a.why_not for a in report.alternatives}
    crash = next((why for verdict, why in rejected.items() if verdict.startswith("scheduler-")), "")
    assert "a signal a stop sends (exit code -15)" in crash, rejected


def test_a_segfault_beside_a_stop_is_still_a_crash(tmp_path: Path, library: Library) -> None:
    report = _run(tmp_path, library, {"job-12903.out": SLURM_JOB.format(code=-11)})
    assert report.verdict.id == "scheduler-runtime-crash", report.verdict.summary


def test_a_sigterm_death_with_no_record_of_a_stop_stays_a_crash(tmp_path: Path, library: Library) -> None:
    report = _run(tmp_path, library, {"vllm.log": VLLM_WORKER})
    assert report.verdict.id == "scheduler-crash", report.verdict.summary
