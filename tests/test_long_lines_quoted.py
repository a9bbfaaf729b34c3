"""A long line is quoted with what its pattern matched in view, and kept with it past the event's cut.

sglang's decode words a request's failure `Decode transfer failed for request rank=0
decode_req.req.rid='...' decode_req.req.bootstrap_room=... with exception KVTransferError(...):
Request N timed out after 300.0s in KVPoll.WaitingForInput`: what failed comes two hundred characters
in, past a quote's length. TGI's request line puts its timings after the request's parameters, a
grammar's JSON schema among them: two thousand characters and more. A quote cut at its length, or an
event cut at MAX_TEXT, would show neither. Look-alike: a short line is quoted whole, as before.
"""

from __future__ import annotations

from pathlib import Path

from pdlogdoctor.library.patterns import Library
from pdlogdoctor.scan.events import MAX_TEXT

from .conftest import analysed_files, analysed_lines

ROOM = 8540833238269219769
DECODE_TIMEOUT = (
    "[2026-08-12 14:10:29 TP0] Decode transfer failed for request rank=0 decode_req.req.rid="
    f"'02660c0ac04a4a4c961d8bc0413649b2' decode_req.req.bootstrap_room={ROOM} with exception "
    f"KVTransferError(bootstrap_room={ROOM}): Request {ROOM} timed out after 300.0s in KVPoll.WaitingForInput"
)
DECODE_ANSWER = (
    '[2026-08-12 14:10:29] INFO:     10.0.7.2:48264 - "POST /v1/chat/completions HTTP/1.1" 500 Internal Server Error'
)
TGI_SPAN = (
    "{stamp}  INFO generate{{parameters=GenerateParameters {{ best_of: None, max_new_tokens: Some(2048), "
    'grammar: {grammar}, adapter_id: None }} total_time="{total}s" validation_time="5.669107ms" '
    'queue_time="{queue}" inference_time="23.453502270s" time_per_token="46.255823ms" seed="None"}}: '
    "text_generation_router::server: router/src/server.rs:425: Success"
)
SCHEMA = "Some(Json(Object {" + ", ".join(f'"field{i}": Object {{"type": String("string")}}' for i in range(60)) + "}))"


def _tgi(stamp: str, queue: str, grammar: str = "None", total: float = 23.5) -> str:
    return TGI_SPAN.format(stamp=stamp, grammar=grammar, queue=queue, total=total)


def test_a_long_failure_line_is_quoted_with_what_failed(tmp_path: Path, library: Library) -> None:
    report = analysed_files(tmp_path, library, {"decode.log": [DECODE_TIMEOUT, DECODE_ANSWER]})
    assert report.verdict.id == "kv-transfer-timeout", report.verdict.summary
    assert f"Request {ROOM} timed out after 300.0s in KVPoll.WaitingForInput" in report.verdict.summary


def test_a_request_queued_for_minutes_is_no_healthy_answer(tmp_path: Path, library: Library) -> None:
    queued = _tgi("2025-04-15T09:16:03.561870Z", "161.454300714s", grammar=SCHEMA, total=184.9)
    assert len(queued) > MAX_TEXT  # the timings come after the cut
    lines = [_tgi("2025-04-15T09:12:40.118203Z", "61.307µs"), queued]
    report = analysed_lines(tmp_path, library, lines, "tgi.log")
    assert report.verdict.id == "inconclusive", report.verdict.summary
    assert "waited 161.454300714 s in the queue" in report.verdict.summary
    assert 'queue_time="161.454300714s"' in report.verdict.summary  # the line's own words, past the cut


def test_requests_taken_up_at_once_are_answers(tmp_path: Path, library: Library) -> None:
    lines = [_tgi("2025-04-15T09:12:40.118203Z", "61.307µs"), _tgi("2025-04-15T09:12:41.118203Z", "2.5ms")]
    report = analysed_lines(tmp_path, library, lines, "tgi.log")
    assert report.verdict.id == "healthy", report.verdict.summary
