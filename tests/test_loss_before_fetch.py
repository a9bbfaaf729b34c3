"""A bootstrap fetch that fails after the decode lost that prefill is the loss's, not a wrong address.

Round 123's bundle (sgl-project/sglang#34865): the decode's heartbeat gives up on its prefill (`Lost
connection with prefill instance (bootstrap_addr: ...), 9 requests affected`, once per TP rank), and
the next fetch of the prefill's parallel info times out against the same address. The loss is the
story (peer-lost); bootstrap-unreachable is rejected as what the loss looks like next. Look-alikes: a
fetch that fails before any loss, and one to another address after it, stay bootstrap-unreachable.
The count of requests the loss failed takes each rank's line once: the ranks count the same requests.
"""

from __future__ import annotations

from pathlib import Path

from pdlogdoctor.library.patterns import Library
from pdlogdoctor.model import Report
from pdlogdoctor.pipeline import run

SERVING = [
    "[2026-08-12 14:04:50 TP0] Decode batch. #running-req: 12, #token: 9000, token usage: 0.10, "
    "pre-allocated usage: 0.02, #retracted-req: 0, cuda graph: True, gen throughput (token/s): 900.00, #queue-req: 0,",
    '[2026-08-12 14:04:50] INFO:     10.42.0.5:33570 - "POST /v1/chat/completions HTTP/1.1" 200 OK',
]


def _lost(at: str, rank: int, count: int, addr: str = "10.42.0.17:8998") -> str:
    lost = f"Lost connection with prefill instance (bootstrap_addr: {addr}), {count} requests affected"
    return f"[2026-08-12 {at} TP{rank}] {lost}"


def _fetch_failed(at: str, host: str = "10.42.0.17") -> str:
    return (
        f"[2026-08-12 {at} TP0] Error fetching prefill parallel info from bootstrap: "
        f"HTTPConnectionPool(host='{host}', port=8998): Read timed out. (read timeout=5)"
    )


def _report(tmp_path: Path, library: Library, lines: list[str]) -> Report:
    (tmp_path / "decode.log").write_text("\n".join([*SERVING, *lines]) + "\n")
    return run([str(tmp_path)], library)


def test_a_fetch_after_the_loss_is_the_loss(tmp_path: Path, library: Library) -> None:
    lines = [_lost("14:05:23", 0, 9), _lost("14:05:23", 1, 9), _fetch_failed("14:05:29")]
    report = _report(tmp_path, library, lines)
    assert report.verdict.id == "peer-lost", report.verdict.summary
    assert dict(report.verdict.facts)["requests_affected"] == 9  # TP0 and TP1 count the same nine
    rejected = {a.id: a.why_not for a in report.alternatives}
    assert "had already lost that peer" in rejected.get("bootstrap-unreachable", ""), rejected


def test_a_fetch_before_any_loss_is_unreachable(tmp_path: Path, library: Library) -> None:
    report = _report(tmp_path, library, [_fetch_failed("14:05:17"), _lost("14:05:23", 0, 9)])
    assert report.verdict.id == "bootstrap-unreachable", report.verdict.summary


def test_a_fetch_to_another_prefill_after_the_loss_is_unreachable(tmp_path: Path, library: Library) -> None:
    report = _report(tmp_path, library, [_lost("14:05:23", 0, 9), _fetch_failed("14:05:29", host="10.42.0.99")])
    assert report.verdict.id == "bootstrap-unreachable", report.verdict.summary


def test_a_prefill_lost_twice_lost_both_sets_of_requests(tmp_path: Path, library: Library) -> None:
    lines = [_lost("14:05:23", 0, 9), _lost("14:05:23", 1, 9), _lost("14:09:40", 0, 4), _lost("14:09:40", 1, 4)]
    report = _report(tmp_path, library, lines)
    assert report.verdict.id == "peer-lost", report.verdict.summary
    assert dict(report.verdict.facts)["requests_affected"] == 13
