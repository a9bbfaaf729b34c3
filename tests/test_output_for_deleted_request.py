"""sglang's tokenizer manager logging output for a request it had dropped, again and again (five lines
or more for one id: reason/recurring.py), is a request the scheduler keeps decoding for nobody
(sglang#36876 as blind rounds 100 and 111 wrote it): a failure, never a healthy run, even with requests
answered 200 around it. Once per request it is the race at a request's end; sglang's own health check
ids are left out."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from pdlogdoctor.model import Report

from .conftest import analysed_lines, shipped_library

LIBRARY = shipped_library()
CASE = Path(__file__).parent / "data" / "blind-round111-excerpts-b" / "04-sglang-zombie-requests-after-disconnect"
ANSWERED = '[2026-08-22 17:44:31] INFO:     127.0.0.1:40312 - "POST /v1/chat/completions HTTP/1.1" 200 OK'


def test_output_for_a_dropped_request_is_no_healthy_run(case_reports: Mapping[Path, Report]) -> None:
    report = case_reports[CASE]
    assert report.verdict.id == "inconclusive", report.verdict
    assert "Received output for rid='fa58389fa9704408a710d5ad34474e45'" in report.verdict.summary


def test_the_health_checks_own_id_is_left_out(tmp_path: Path) -> None:
    dropped = (
        "[2026-08-22 17:45:19] Received output for rid='HEALTH_CHECK_1724345119' but the state was deleted in "
        "TokenizerManager."
    )
    report = analysed_lines(tmp_path, LIBRARY, [ANSWERED, dropped, ANSWERED], "server.log")
    assert report.verdict.id == "healthy", report.verdict


def test_once_per_request_is_the_race_at_a_requests_end(tmp_path: Path) -> None:
    # Healthy busy runs log it now and then, each time for another request (blind rounds 5, 25, 60).
    dropped = [
        f"[2026-08-22 17:45:{second:02d}] Received output for rid='{second:032x}' but the state was deleted in "
        "TokenizerManager."
        for second in range(10, 16)
    ]
    report = analysed_lines(tmp_path, LIBRARY, [ANSWERED, *dropped, ANSWERED], "server.log")
    assert report.verdict.id == "healthy", report.verdict
