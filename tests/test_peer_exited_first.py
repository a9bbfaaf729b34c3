"""Completion errors toward a peer whose process is seen exiting just before them (issue 22).

A prefill's Mooncake slices fail with `transport retry counter exceeded` toward the decode; the
decode's own log was never collected, and the job's output shows srun's `srun: error: gpu-a04: task
0: Exited with exit code 1` a second before the first failure. A dead peer stops acknowledging: its
side's completions fail exactly as a broken link's would. The link is not shown at fault: the RDMA
verdict is ruled out (named, with why) and the run is inconclusive, the exit quoted first.
Look-alikes that keep the link's verdict: the exit on the reporting side's own node, or after the
first completion error.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from pdlogdoctor.model import Report
from pdlogdoctor.pipeline import run

from .conftest import shipped_library

CASE = Path(__file__).parent / "data" / "blind-round29-bundles-b" / "08-decode-died-log-missing-inconclusive"
JOB = "slurm-7719003.out"
EXIT = "srun: error: gpu-a04: task 0: Exited with exit code 1"
LIBRARY = shipped_library()


def _run_with_job(tmp_path: Path, old: str, new: str) -> Report:
    bundle = tmp_path / "run"
    shutil.copytree(CASE, bundle, ignore=shutil.ignore_patterns("expected.toml"))
    job = bundle / JOB
    text = job.read_text()
    assert old in text
    job.write_text(text.replace(old, new))
    return run([str(bundle)], LIBRARY)


def test_the_peers_exit_just_before_rules_the_link_out(tmp_path: Path) -> None:
    report = _run_with_job(tmp_path, EXIT, EXIT)
    assert report.verdict.id == "inconclusive", report.verdict.summary
    assert EXIT in report.verdict.summary
    ruled_out = next(a for a in report.alternatives if a.id == "rdma-link-failure")
    assert "gpu-a04 exited with code 1" in ruled_out.why_not and ruled_out.confidence <= 0.15


def test_an_exit_on_the_reporting_node_is_not_the_peers(tmp_path: Path) -> None:
    report = _run_with_job(tmp_path, EXIT, EXIT.replace("gpu-a04", "gpu-a03"))
    assert report.verdict.id == "rdma-link-failure", report.verdict.summary


def test_an_exit_after_the_first_completion_error_is_not_its_cause(tmp_path: Path) -> None:
    # srun's line has no time of its own: the job's stamped line below it bounds it (14:22:06, a
    # second before the first failure); moved to 14:30, the exit may have come after the failures.
    report = _run_with_job(
        tmp_path, "[2025-10-21 14:22:06] decode step exited", "[2025-10-21 14:30:06] decode step exited"
    )
    assert report.verdict.id == "rdma-link-failure", report.verdict.summary
