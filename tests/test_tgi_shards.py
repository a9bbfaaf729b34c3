"""TGI's launcher reports a shard that died: `Shard N crashed` once the server runs (a crash while
serving, whatever lines before it are missing), `Shard N failed to start` before (a crash at
start-up): patterns/tgi (blind rounds 110 and 111: an illegal instruction on a VM's CPU, PyTorch's
NCCL watchdog aborting a shard). The launcher's own shutdown of its webserver names no crash. Such a
line reports a death, not how: an error just before it whose words name a family (a port in use)
leads, as a lead below 0.5 (reason/unexplained.py `_reports_a_death`); a crash line that says how the
process died (a segmentation fault) stays the verdict."""

from __future__ import annotations

from pathlib import Path

import pytest

from pdlogdoctor.pipeline import run

from .conftest import analysed_lines, shipped_library

LIBRARY = shipped_library()
DATA = Path(__file__).parent / "data"


@pytest.mark.parametrize(
    ("case", "verdict"),
    [
        ("blind-round111-excerpts-e/05-tgi-shard-crash-nccl-watchdog", "scheduler-runtime-crash"),
        ("blind-round110-excerpts-e/01-tgi-shard-sigill-vm", "scheduler-init-crash"),
    ],
)
def test_the_launchers_word_gives_the_phase(case: str, verdict: str) -> None:
    report = run([str(DATA / case)], LIBRARY)
    assert report.verdict.id == verdict, report.verdict


def test_a_webserver_shut_down_by_its_launcher_is_no_crash(tmp_path: Path) -> None:
    lines = [
        "2024-10-01T07:43:22.392498Z  INFO text_generation_launcher: Terminating webserver",
        "2024-10-01T07:43:22.392528Z  INFO text_generation_launcher: Waiting for webserver to gracefully shutdown",
        "2024-10-01T07:43:22.492706Z  INFO text_generation_launcher: webserver terminated",
    ]
    report = analysed_lines(tmp_path, LIBRARY, lines, "launcher.log")
    assert report.verdict.id not in ("scheduler-runtime-crash", "scheduler-init-crash", "scheduler-crash")


def test_a_port_in_use_before_a_shard_failed_to_start_leads() -> None:
    # Round 51's OpenShift pod: torch's store could not bind port 29500, then the launcher's report.
    report = run([str(DATA / "blind-round51-excerpts-a" / "03-tgi-openshift-master-port-in-use")], LIBRARY)
    assert report.verdict.id == "bind-failed" and report.verdict.confidence < 0.5, report.verdict
    assert "scheduler-init-crash" in {a.id for a in report.alternatives}


def test_a_segfault_after_a_named_error_stays_the_crash() -> None:
    # The crash line says how the process died (a segmentation fault): the UCX error before it is
    # quoted as the likeliest reason, and the crash stays the verdict (fixtures' UCX DevX bundle).
    report = run([str(Path(__file__).parent.parent / "fixtures" / "ucx-devx-error-then-segfault-prefill")], LIBRARY)
    assert report.verdict.id == "scheduler-runtime-crash", report.verdict
    assert "the likeliest reason it died" in report.verdict.summary
