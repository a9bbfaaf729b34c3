"""A failure a restart came back from (issue 22.3), where the proof of serving after it is not a
timed answer in the servers' logs: the client's untimed result (reason/diagnose._client_results),
and a kill logged outside the victim's log whose earlier life ended silently
(reason/incidents._killed_life_came_back). Each beside the look-alike that must stay a failure."""

from __future__ import annotations

import shutil
from pathlib import Path

from pdlogdoctor.library.patterns import Library
from pdlogdoctor.pipeline import run

DATA = Path(__file__).parent / "data"
# MI300X, MORI: the decode's first life ran out of HIP memory capturing CUDA graphs; the pod restarted
# with a lower memory fraction, came up and served; the GSM8K client (no times) scored 0.952.
GPU_OOM_RESTART = DATA / "blind-round19-bundles-a" / "03-mi300x-mori-decode-restart-recovered"
# llm-d on Kubernetes: the kernel's OOM killer ended the decode's first container while it loaded
# weights (its log just stops), kubelet restarted it, and the benchmark completed 800 of 800.
HOST_OOM_RESTART = DATA / "blind-round17-bundles-b" / "03-llmd-decode-oomkilled-then-served"


def _copy(case: Path, target: Path) -> Path:
    shutil.copytree(case, target, ignore=shutil.ignore_patterns("expected.toml"))
    return target


def test_a_restart_vouched_for_by_the_clients_untimed_result_is_survived(library: Library) -> None:
    report = run([str(GPU_OOM_RESTART)], library)
    assert report.verdict.id == "healthy"
    survived = next(note for note in report.notes if note.startswith("a failure the run survived"))
    assert "decode.previous.log:64" in survived and "HIP out of memory" in survived  # the cause, not the header
    assert {a.id for a in report.alternatives} >= {"gpu-oom"}


def test_without_a_client_result_the_restart_is_not_vouched_for(tmp_path: Path, library: Library) -> None:
    bundle = _copy(GPU_OOM_RESTART, tmp_path / "run")
    (bundle / "gsm8k.log").unlink()
    assert run([str(bundle)], library).verdict.id == "gpu-oom"


def test_a_failure_in_a_file_that_is_no_earlier_life_stays_the_cause(tmp_path: Path, library: Library) -> None:
    bundle = _copy(GPU_OOM_RESTART, tmp_path / "run")
    (bundle / "decode.previous.log").rename(bundle / "decode-node3.log")
    assert run([str(bundle)], library).verdict.id == "gpu-oom"


def test_a_kill_logged_outside_a_life_that_ended_silently_and_came_back_is_survived(library: Library) -> None:
    report = run([str(HOST_OOM_RESTART)], library)
    assert report.verdict.id == "healthy"
    host_oom = {a.id: a for a in report.alternatives}["host-oom"]
    assert "decode.log" in host_oom.why_not  # the next life's line that shows it serving


def test_a_kill_with_no_restarted_life_stays_the_cause(tmp_path: Path, library: Library) -> None:
    bundle = _copy(HOST_OOM_RESTART, tmp_path / "run")
    (bundle / "decode-previous.log").rename(bundle / "decode-first-container.log")
    assert run([str(bundle)], library).verdict.id == "host-oom"
