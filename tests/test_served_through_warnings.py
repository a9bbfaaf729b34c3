"""A run whose harness states its result served through the warnings beside it.

blind round 56's bundle 03 (SGLang 1P1D with NIXL): two client-cancelled requests are logged as
`Decode transfer failed ... Aborted by AbortReq.` (a warning) while the decode's batches flow and
GSM8K's own log ends `Accuracy: 0.941`. A harness that lost requests says so in error lines of its
own (failed requests, a score at collapse); warnings under a result it states are noise. The
look-alike: the same warning beside a result quoted in a pasted excerpt proves nothing (no harness
log, its lines may be from any run), so the report stays inconclusive.
"""

from __future__ import annotations

from pathlib import Path

from pdlogdoctor.library.patterns import Library
from pdlogdoctor.pipeline import run

ABORTED = (
    "[2026-04-02 14:54:03 DP0 TP0] Decode transfer failed for request rank=0 "
    "decode_req.req.rid='b0e7d2e30dfeed05b73ca1e99d644b60' decode_req.req.bootstrap_room=9172551536122382016 "
    "with exception KVTransferError(bootstrap_room=9172551536122382016): Aborted by AbortReq."
)
BATCH = (
    "[2026-04-02 14:54:{second:02d} DP0 TP0] Decode batch. #running-req: 12, #token: 20480, token usage: 0.08, "
    "gen throughput (token/s): 1290.11, #queue-req: 0"
)
GSM8K = ["Accuracy: 0.941", "Invalid: 0.000", "Latency: 142.318 s", "Output throughput: 1291.406 token/s"]


def test_warnings_under_a_harness_result_are_served_through(tmp_path: Path, library: Library) -> None:
    (tmp_path / "decode.log").write_text("\n".join([ABORTED, *(BATCH.format(second=s) for s in range(5, 30))]) + "\n")
    (tmp_path / "gsm8k.log").write_text("\n".join(GSM8K) + "\n")
    report = run([str(tmp_path)], library)
    assert report.verdict.id == "healthy", report.verdict.summary
    assert "did not stop it" in report.verdict.summary and "decode.log:1" in report.verdict.summary


def test_a_warning_beside_a_result_in_a_paste_is_no_proof(tmp_path: Path, library: Library) -> None:
    (tmp_path / "excerpt.log").write_text("\n".join([ABORTED, *GSM8K]) + "\n")
    report = run([str(tmp_path)], library)
    assert report.verdict.id == "inconclusive", report.verdict.summary
