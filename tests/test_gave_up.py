"""Clients that gave up (reason/gave_up.py): requests their clients cancelled all at once, none answered
after, are never "nothing failed". Two components (round 102's testers: vLLM's aborts ten minutes after
the requests came, tenstorrent/tt-inference-server#350; Dynamo's frontend cancelling on closed
connections, ai-dynamo/dynamo#13088); look-alikes: one cancel, and a burst the server answered past."""

from __future__ import annotations

from pathlib import Path

from pdlogdoctor.library.patterns import Library

from .conftest import analysed_lines

VLLM_ABORT = "INFO 06-25 03:14:08 [engine.py:333] Aborted request cmpl-1dac86b037d24bbe97d7ce0f776e9250-{n}."
VLLM_STATS = (
    "INFO 06-25 03:13:58 [metrics.py:540] Avg prompt throughput: 0.0 tokens/s, Avg generation throughput: 72.7 "
    "tokens/s, Running: 32 reqs, Swapped: 0 reqs, Pending: 0 reqs, GPU KV cache usage: 38.5%, CPU KV cache usage: 0.0%."
)
DYNAMO_CANCEL = (
    "2026-08-12T03:19:31.20{n}853Z  WARN dynamo_llm::http::service::disconnect: Connection closed unexpectedly; "
    "issuing cancellation"
)
ANSWERED = 'INFO:     10.0.0.99:58210 - "POST /v1/completions HTTP/1.1" 200 OK'


def test_a_burst_of_vllm_aborts_is_clients_giving_up(tmp_path: Path, library: Library) -> None:
    lines = [VLLM_STATS, *(VLLM_ABORT.format(n=n) for n in range(8))]
    report = analysed_lines(tmp_path, library, lines, "server.log")
    assert report.verdict.id == "inconclusive"
    assert report.verdict.summary.startswith("The clients gave up: 8 requests were cancelled")
    assert "Aborted request cmpl-1dac86b037d24bbe97d7ce0f776e9250-0." in report.verdict.summary


def test_dynamos_cancellations_are_read_the_same(tmp_path: Path, library: Library) -> None:
    lines = [DYNAMO_CANCEL.format(n=n) for n in range(3)]
    report = analysed_lines(tmp_path, library, lines, "frontend.log")
    assert report.verdict.id == "inconclusive"
    assert "3 requests were cancelled by their clients at once" in report.verdict.summary


def test_one_cancel_is_a_user_who_left(tmp_path: Path, library: Library) -> None:
    report = analysed_lines(tmp_path, library, [VLLM_STATS, VLLM_ABORT.format(n=0)], "server.log")
    assert "gave up" not in report.verdict.summary


def test_a_burst_the_server_answered_past_is_no_giving_up(tmp_path: Path, library: Library) -> None:
    lines = [*(VLLM_ABORT.format(n=n) for n in range(8)), ANSWERED]
    report = analysed_lines(tmp_path, library, lines, "server.log")
    assert "gave up" not in report.verdict.summary
