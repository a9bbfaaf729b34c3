"""A batch job its scheduler stopped (issue 22: a job that did not finish never passes).

Round 77's bundle: a vLLM 1P1D benchmark sweep in one Slurm job, served well for two hours, cut at its
time limit 57 % into its last concurrency point (`*** JOB ... CANCELLED AT ... DUE TO TIME LIMIT ***`).
Seen failing at first sight: `healthy` at 0.80 (exit 0), the banner an unexplained line the run
"survived" because requests were answered before it. Look-alikes: the same job ended by its own
script's `scancel` (a banner with no reason: the normal end of a serving step) is healthy; a job whose
servers served nothing in the last 15 minutes before its limit was stuck, and the limit only ended it.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

from pdlogdoctor.cli.behaviour import exit_code_for
from pdlogdoctor.library.patterns import Library
from pdlogdoctor.model import Report
from pdlogdoctor.pipeline import run

BUNDLE = Path(__file__).parent / "data" / "blind-round77-bundles-2" / "09-slurm-time-limit-mid-sweep"
BANNER = "CANCELLED AT 2026-05-11T04:00:12 DUE TO TIME LIMIT ***"


def _run(tmp_path: Path, library: Library, banner: str = BANNER, servers_end: str | None = None) -> Report:
    shutil.copytree(BUNDLE, tmp_path / "job", ignore=shutil.ignore_patterns("expected.toml"))
    out = tmp_path / "job" / "slurm-4412871.out"
    out.write_text(out.read_text().replace(BANNER, banner))
    if servers_end is not None:  # the servers went silent then: their lines after it cut off
        for log in (tmp_path / "job" / "logs").iterdir():
            log.write_text(
                "".join(line for line in log.read_text().splitlines(keepends=True) if _before(line, servers_end))
            )
    return run([str(tmp_path / "job")], library)


def _before(line: str, end: str) -> bool:
    """Whether a vLLM line (`INFO 05-11 03:40:00 ...`) was logged before `end` (`03:40:00`); an untimed one is kept."""
    found = re.search(r" 05-11 (\d\d:\d\d:\d\d) ", line)
    return found is None or found.group(1) < end


def test_a_sweep_cut_at_its_time_limit_is_a_cancelled_job(tmp_path: Path, library: Library) -> None:
    report = _run(tmp_path, library)
    assert report.verdict.id == "ci-cancelled", report.verdict.summary
    assert "JOB 4412871 ON gpu-a12 CANCELLED AT 2026-05-11T04:00:12 DUE TO TIME LIMIT" in report.verdict.summary
    assert int(exit_code_for(report)) != 0


def test_a_job_its_own_script_cancelled_is_the_normal_end(tmp_path: Path, library: Library) -> None:
    report = _run(tmp_path, library, "CANCELLED AT 2026-05-11T04:00:12 ***")
    assert report.verdict.id == "healthy", report.verdict.summary


def test_a_job_that_served_nothing_before_its_limit_was_stuck(tmp_path: Path, library: Library) -> None:
    """The servers silent from 03:35 (a hang), the limit at 04:00: no request answered in its last 15
    minutes, so the cancel is not the story; the report does not say the job was merely cancelled."""
    report = _run(tmp_path, library, servers_end="03:35:00")
    assert report.verdict.id != "ci-cancelled", report.verdict.summary
    assert report.verdict.id != "healthy", report.verdict.summary
    rejected = {a.id: a.why_not for a in report.alternatives}
    assert "stuck before it was stopped" in rejected.get("ci-cancelled", ""), rejected


def _untimed_server(lines: int) -> str:
    """A server's output as TensorRT-LLM's disaggregated workers print it under Slurm: a few stamped
    start-up lines, then uvicorn's access lines, which carry no time, up to the step's cancel."""
    head = [
        "[12/04/2026-11:00:45] [TRT-LLM] [I] Using LLM with PyTorch backend",
        "[12/04/2026-11:00:47] [TRT-LLM] [I] Generating a new HMAC key for server proxy_request_queue",
        "INFO:     Application startup complete.",
    ]
    answers = [f'INFO:     10.52.3.7:{40000 + i} - "POST /v1/completions HTTP/1.1" 200 OK' for i in range(lines)]
    cancel = "slurmstepd: error: *** STEP 812345.1 ON gpu-b07 CANCELLED AT 2026-12-04T14:00:12 DUE TO TIME LIMIT ***"
    return "\n".join([*head, *answers, cancel]) + "\n"


def test_answers_with_no_time_up_to_the_cancel_are_no_stall(tmp_path: Path, library: Library) -> None:
    """Round 81's bundle: a TensorRT-LLM sweep under Slurm whose workers' last stamped line is three
    hours before the cancel, every line after it an access line with no time. When those answers came
    is not in the lines read (the scan stops reading a file's answers after a few), so no stall can
    be told: the job was cut at its limit (first sight: inconclusive, 'nothing was served in the 15
    min before the time limit'). The look-alike is the test above: timed lines that stop."""
    (tmp_path / "gpu-b07_ctx_w0.out").write_text(_untimed_server(400))
    report = run([str(tmp_path)], library)
    assert report.verdict.id == "ci-cancelled", report.verdict.summary
    assert "STEP 812345.1 ON gpu-b07 CANCELLED AT 2026-12-04T14:00:12 DUE TO TIME LIMIT" in report.verdict.summary


# Round 89's bundles-1 08: the CI runner stamps its log in UTC, the servers log their local time six
# hours behind, and slurmstepd's line (received by the runner) states the cancel on the servers' clock.
CLOCKS_APART = Path(__file__).parent / "data" / "blind-round89-bundles-1" / "08-nightly-sweep-hits-slurm-time-limit"


def test_a_cancel_stated_on_the_servers_clock_is_read_on_it(tmp_path: Path, library: Library) -> None:
    """The files' clocks were aligned by whole hours from where they start and end, the cancel line's
    own time was not: read as both are written, the servers worked up to the limit (first sight:
    inconclusive, 'nothing was served in the 15 min before the time limit')."""
    report = run([str(CLOCKS_APART)], library)
    assert report.verdict.id == "ci-cancelled", report.verdict.summary


def test_a_cancel_stated_long_after_the_servers_last_work_was_a_stall(tmp_path: Path, library: Library) -> None:
    """The look-alike: the same cancel stating a time 45 minutes after the servers' last line on their
    clock (00:00:11): nothing was served in the 15 minutes before it, whichever clock reads it."""
    shutil.copytree(CLOCKS_APART, tmp_path / "job", ignore=shutil.ignore_patterns("expected.toml"))
    log = tmp_path / "job" / "ci-job.log"
    log.write_text(log.read_text().replace("CANCELLED AT 2026-12-02T00:00:14", "CANCELLED AT 2026-12-02T00:45:14"))
    report = run([str(tmp_path / "job")], library)
    assert report.verdict.id != "ci-cancelled", report.verdict.summary
    assert report.verdict.id != "healthy"
