"""An engine whose last stats line shows requests running and nothing prefilled or generated hung
with work in flight: never healthy (reason/stall.py). An idle engine, or one still generating at
the log's end, is no stall."""

from __future__ import annotations

from pathlib import Path

from pdlogdoctor.library.patterns import Library

from .conftest import analysed_lines

# vLLM V1's stats line (vllm/v1/metrics/loggers.py), every 10 s while the engine has work.
STATS = (
    "(APIServer pid=1) INFO 10-08 09:{minute}:03 [loggers.py:127] Engine 000: "
    "Avg prompt throughput: {prompt} tokens/s, Avg generation throughput: {generated} tokens/s, "
    "Running: {running} reqs, Waiting: 0 reqs, GPU KV cache usage: 8.8%, Prefix cache hit rate: 0.0%"
)
READY = "(APIServer pid=1) INFO 10-08 09:10:01 [api_server.py:1839] Starting vLLM API server 0 on http://0.0.0.0:8000"


def _stats(minute: int, prompt: str, generated: str, running: int) -> str:
    return STATS.format(minute=minute, prompt=prompt, generated=generated, running=running)


def test_requests_running_and_nothing_generated_at_the_end_is_a_stall(tmp_path: Path, library: Library) -> None:
    lines = [READY, _stats(11, "532.2", "1804.6", 23), _stats(12, "0.0", "911.0", 23), _stats(13, "0.0", "0.0", 3)]
    report = analysed_lines(tmp_path, library, lines, "server.log")
    assert report.verdict.id == "inconclusive"
    assert "stopped making progress" in report.verdict.summary
    assert "server.log:4" in report.verdict.summary and "Running: 3 reqs" in report.verdict.summary
    assert report.chain[0].line == 4


def test_an_engine_still_generating_at_the_end_is_no_stall(tmp_path: Path, library: Library) -> None:
    lines = [READY, _stats(11, "532.2", "1804.6", 23), _stats(12, "0.0", "0.0", 3), _stats(13, "0.0", "911.0", 3)]
    report = analysed_lines(tmp_path, library, lines, "server.log")
    assert "stopped making progress" not in report.verdict.summary
    assert report.verdict.id == "healthy"


def test_an_idle_engine_is_no_stall(tmp_path: Path, library: Library) -> None:
    lines = [READY, _stats(11, "532.2", "1804.6", 23), _stats(12, "0.0", "0.0", 0)]
    report = analysed_lines(tmp_path, library, lines, "server.log")
    assert "stopped making progress" not in report.verdict.summary
    assert report.verdict.id == "healthy"


def test_a_decode_batch_line_with_no_throughput_is_no_stall(tmp_path: Path, library: Library) -> None:
    """sglang prints its decode line per batch, not on an interval: a zero there is no stalled interval."""
    lines = [
        "[2026-03-02 14:44:11 TP0] Decode batch, #running-req: 1, #token: 73, token usage: 0.00, cuda graph: True, "
        "gen throughput (token/s): 0.00, #queue-req: 0",
    ]
    report = analysed_lines(tmp_path, library, lines, "decode.log")
    assert "stopped making progress" not in report.verdict.summary
