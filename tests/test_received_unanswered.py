"""A ready server whose log shows requests arriving and none answered is not shown serving
(diagnose._received_unanswered): sglang under --log-requests writes `Receive: obj=...` for each
request and `Finish: obj=..., out=...` for its answer; with only the ready line and received
requests, the run is no-failure-seen, not healthy (sgl-project/sglang#26783: a hang after warmup).
"""

from __future__ import annotations

from pathlib import Path

from pdlogdoctor.cli.behaviour import exit_code_for
from pdlogdoctor.library.patterns import Library

from .conftest import analysed_lines

READY = "[2026-05-30 18:55:47] The server is fired up and ready to roll!"


def _received(second: int, rid: str) -> str:
    params = "sampling_params={'max_new_tokens': 8}"
    return f"[2026-05-30 18:56:{second:02d}] Receive: obj=GenerateReqInput(rid='{rid}', {params})"


def _finished(second: int, rid: str) -> str:
    return f"[2026-05-30 18:56:{second:02d}] Finish: obj=GenerateReqInput(rid='{rid}'), out={{'text': ' Paris'}}"


def test_requests_received_and_never_answered_are_no_proof_of_serving(tmp_path: Path, library: Library) -> None:
    report = analysed_lines(
        tmp_path, library, [READY, _received(19, "33b8e82c"), _received(21, "0020ce40")], "server.log"
    )
    assert report.verdict.id == "no-failure-seen"
    assert exit_code_for(report) == 3
    assert "2 request(s) it received get no answer" in report.verdict.summary
    assert "server.log:2" in report.verdict.summary  # the first request left unanswered


def test_requests_answered_or_no_request_logged_leave_the_ready_server_healthy(
    tmp_path: Path, library: Library
) -> None:
    (tmp_path / "answered").mkdir()
    answered = analysed_lines(
        tmp_path / "answered", library, [READY, _received(19, "33b8e82c"), _finished(20, "33b8e82c")], "server.log"
    )
    quiet = analysed_lines(tmp_path, library, [READY], "server.log")
    assert answered.verdict.id == "healthy"
    assert quiet.verdict.id == "healthy"
