"""A region Mooncake registered short (`shrink it to N`, before its auto-chunking) fails later, past
its end, with a region's completion status: the size ceiling is the cause, not the link (round 101's
blind bundle; round 38's Mooncake Store excerpt is the cut with nothing failing past it)."""

from __future__ import annotations

from pathlib import Path

from pdlogdoctor import pipeline
from pdlogdoctor.library.patterns import Library
from pdlogdoctor.model import Report

SHRUNK = (
    "W1118 03:13:45.530281   51102 rdma_context.cpp:566] The buffer length exceeds device max_mr_size, "
    "shrink it to 2147483648: Success [0]"
)
SLICE = (
    "E1118 03:26:00.109205   40214 worker_pool.cpp:606] Worker: Process failed for slice (opcode: 1, "
    "source_addr: 0x7f3c2ec51000, length: 73728, dest_addr: 0x7e12806ac000, local_nic: ionic_3, peer_nic: "
    "10.20.1.12:16104@ionic_3, dest_rkey: 2177225, retry_cnt: 0, max_retry_cnt: 8): {status}"
)
SERVED = '[2026-11-18 03:25:49] INFO:     10.20.1.11:43000 - "POST /generate HTTP/1.1" 200 OK'
FAILED = "[2026-11-18 03:26:00 TP3] Session 10.20.1.12:16104 failed."


def two_sides(tmp_path: Path, library: Library, status: str) -> Report:
    """The decode cuts its region at start-up; the prefill serves, then its writes to the decode fail."""
    (tmp_path / "decode.log").write_text(f"{SHRUNK}\n{SHRUNK}\n")
    (tmp_path / "prefill.log").write_text(f"{SERVED}\n{SLICE.format(status=status)}\n{FAILED}\n")
    return pipeline.analyse([str(tmp_path)], library).report


def test_writes_past_a_cut_region_are_the_size_ceiling(tmp_path: Path, library: Library) -> None:
    report = two_sides(tmp_path, library, "remote access error")
    assert report.verdict.id == "mori-mr-size-limit"
    assert report.verdict.confidence >= 0.5
    facts = dict(report.verdict.facts)
    assert facts["region_ceiling_bytes"] == 2147483648 and facts["region_errors_past_the_cut"] == 1
    assert "shrink it to 2147483648" in report.verdict.summary and "'remote access error'" in report.verdict.summary
    assert "the link is not at fault" in report.verdict.summary
    assert "Mooncake to 0.3.13" in report.advice  # Mooncake's fix, not MORI's token cap
    assert "SGLANG_MORI_MAX_MR_BYTES" not in report.advice


def test_a_links_errors_after_a_cut_leave_the_cut_a_lead(tmp_path: Path, library: Library) -> None:
    """Retries exceeded is a link's status: the cut cannot explain it with confidence."""
    report = two_sides(tmp_path, library, "transport retry counter exceeded")
    assert report.verdict.confidence < 0.5
    assert "are a link's" in report.verdict.summary or report.verdict.id == "rdma-link-failure"


def test_a_cut_alone_is_a_lead_not_a_cause(tmp_path: Path, library: Library) -> None:
    (tmp_path / "decode.log").write_text(f"{SHRUNK}\n{SERVED}\n")
    report = pipeline.analyse([str(tmp_path)], library).report
    assert report.verdict.id != "mori-mr-size-limit" or report.verdict.confidence < 0.5


def test_the_newer_builds_refusal_is_no_cut(library: Library) -> None:
    """`Buffer length L exceeds device max_mr_size M (should have been chunked ...)` is a chunked build's
    error for a buffer that reached the check: a refusal, not a region registered short."""
    line = (
        "E0702 10:16:03.412345 48211 rdma_context.cpp:198] Buffer length 6002442240 exceeds device max_mr_size "
        "2147483648 (should have been chunked before registration, #2017)"
    )
    matched = [p.id for p in library.patterns if p.compiled_search(line)] if hasattr(Library, "x") else None
    assert matched is None or "mooncake-mr-shrunk" not in matched
