"""MORI's automatic registration warns of each method that failed, and errors only when both did.

At MORI_APP_LOG_LEVEL=warning, RegisterRdmaMemoryRegionAuto prints `ibv_reg_mr registration failed
(... errno:14 (Bad address))` when the plain registration fails and then tries dmabuf; only `... both
failed` means the region was not registered (blind round 49 bundles-b 03). Warnings of one method
followed by the server's batch lines are a fallback that worked: they are no cause of what failed
later, and the report lists them as harmless. The same warnings followed by the error stay the cause.
"""

from __future__ import annotations

from pathlib import Path

from pdlogdoctor.library.patterns import Library
from pdlogdoctor.pipeline import run

WARNING = (
    "[2026-12-01 21:42:05.{ms:03d}] [5120{rank}] [application] [warning] RegisterRdmaMemoryRegionAuto ibv_reg_mr "
    "registration failed (addr:0x7f50a0000000, size:3623878656, errno:14 (Bad address))"
)
BOTH_FAILED = (
    "[2026-12-01 21:42:05.100] [51200] [application] [error] RegisterRdmaMemoryRegionAuto failed: ibv_reg_mr and "
    "dmabuf registration both failed (addr:0x7f50a0000000, size:3623878656, accessFlag:15, errno:14 (Bad address))"
)
BATCH = (
    "[2026-12-01 21:{minute:02d}:10] Prefill batch. #new-seq: 1, #new-token: 512, #cached-token: 0, token usage: 0.02, "
    "#running-req: 0, #queue-req: 0,"
)
READY = "[2026-12-01 21:41:50] The server is fired up and ready to roll!"
OOM = (
    "[Tue Dec  1 21:48:30 2026] Out of memory: Killed process 61877 (sglang::schedul) total-vm:980000000kB, "
    "anon-rss:930000000kB, file-rss:0kB, shmem-rss:0kB, UID:0 pgtables:1900000kB oom_score_adj:0"
)


def _bundle(tmp_path: Path, after_warnings: list[str]) -> Path:
    warnings = [WARNING.format(ms=3 * rank, rank=rank) for rank in range(4)]
    (tmp_path / "prefill.log").write_text("\n".join([READY, *warnings, *after_warnings]) + "\n")
    (tmp_path / "dmesg-decode.txt").write_text(OOM + "\n")
    return tmp_path


def test_warnings_of_one_method_then_batches_are_a_fallback_that_worked(tmp_path: Path, library: Library) -> None:
    report = run([str(_bundle(tmp_path, [BATCH.format(minute=m) for m in range(43, 48)]))], library)
    assert report.verdict.id == "host-oom", report.verdict
    harmless = {e.pattern for e in report.harmless}
    assert "mori-mr-auto-attempt-failed" in harmless
    assert not any(e.pattern == "mori-mr-auto-attempt-failed" for e in report.chain)


def test_both_methods_failing_stays_a_registration_failure(tmp_path: Path, library: Library) -> None:
    report = run([str(_bundle(tmp_path, [BOTH_FAILED, *(BATCH.format(minute=m) for m in range(43, 45))]))], library)
    assert "mori-mr-auto-attempt-failed" not in {e.pattern for e in report.harmless}
    named = {report.verdict.id, *(a.id for a in report.alternatives)}
    assert named & {"mr-registration-rejected", "mori-mr-size-limit"}


def test_warnings_with_no_work_after_them_are_not_called_harmless(tmp_path: Path, library: Library) -> None:
    report = run([str(_bundle(tmp_path, []))], library)
    assert "mori-mr-auto-attempt-failed" not in {e.pattern for e in report.harmless}
