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


# vLLM-Omni's front end and orchestrator, each request aborted five minutes after it was added
# (vllm-project/vllm-omni#3167's stability run): one at a time, every request the lines show.
OMNI_ADDED = (
    "(APIServer pid=559) INFO 04-25 17:{m}:47 [orchestrator.py:889] [Orchestrator] _handle_add_request: stage=0 "
    "req=chatcmpl-58966032900{n} prompt_type=dict original_prompt_type=dict final_stage=0 num_sampling_params=1"
)
OMNI_ABORTED = [
    "(APIServer pid=559) INFO 04-25 17:{m}:48 [async_omni.py:348] [AsyncOmni] Request chatcmpl-58966032900{n} aborted.",
    "(APIServer pid=559) INFO 04-25 17:{m}:48 [orchestrator.py:1073] [Orchestrator] Aborted request(s) "
    "['chatcmpl-58966032900{n}']",
]


def _omni(requests: int) -> list[str]:
    lines = []
    for n in range(requests):
        lines.append(OMNI_ADDED.format(m=10 + 5 * n, n=n))
        lines.extend(line.format(m=15 + 5 * n, n=n) for line in OMNI_ABORTED)
    return lines


def test_every_request_cancelled_one_after_another_is_clients_giving_up(tmp_path: Path, library: Library) -> None:
    report = analysed_lines(tmp_path, library, _omni(2), "server.log")
    assert report.verdict.id == "inconclusive", report.verdict.summary
    # Two components logging one cancel count one request, not two.
    assert "2 requests were cancelled by their clients one after another" in report.verdict.summary


def test_cancels_beside_an_answered_request_are_no_giving_up(tmp_path: Path, library: Library) -> None:
    report = analysed_lines(tmp_path, library, [*_omni(2), ANSWERED], "server.log")
    assert report.verdict.id != "inconclusive", report.verdict.summary
