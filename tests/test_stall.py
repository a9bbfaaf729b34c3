"""An engine whose last stats line shows requests running and nothing prefilled or generated hung
with work in flight: never healthy (reason/stall.py). An idle engine, or one still generating at
the log's end, is no stall. Nor is an engine healthy whose waiting queue stood in every stats line,
nothing admitted, beside a cache with room; a queue waiting on a full cache, or admitted, is load."""

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


# vLLM's stats line with its waiting queue and KV cache usage (the V0 shape: Pending, CPU KV cache).
QUEUED = (
    "INFO 10-08 09:{minute}:03 metrics.py:161] Avg prompt throughput: {prompt} tokens/s, Avg generation "
    "throughput: 12.5 tokens/s, Running: {running} reqs, Swapped: 0 reqs, Pending: {waiting} reqs, "
    "GPU KV cache usage: {usage}%, CPU KV cache usage: 0.0%"
)


def _queued(minute: int, prompt: str, running: int, waiting: int, usage: str) -> str:
    return QUEUED.format(minute=minute, prompt=prompt, running=running, waiting=waiting, usage=usage)


def test_a_queue_that_stands_beside_a_cache_with_room_is_not_healthy(tmp_path: Path, library: Library) -> None:
    lines = [_queued(minute, "0.0", 2, 9, usage) for minute, usage in ((11, "40.1"), (12, "40.3"), (13, "40.6"))]
    report = analysed_lines(tmp_path, library, lines, "server.log")
    assert report.verdict.id == "inconclusive"
    assert "stopped admitting" in report.verdict.summary
    assert "3 stats lines up to" in report.verdict.summary and "at least 9 request(s) waited" in report.verdict.summary
    assert report.chain[0].line == 3


def test_a_queue_waiting_on_a_full_cache_is_load(tmp_path: Path, library: Library) -> None:
    """Requests wait for the cache to free: a saturated engine, no stuck scheduler."""
    lines = [_queued(minute, "0.0", 2, 9, usage) for minute, usage in ((11, "96.1"), (12, "97.3"), (13, "98.0"))]
    report = analysed_lines(tmp_path, library, lines, "server.log")
    assert "stopped admitting" not in report.verdict.summary


def test_a_queue_that_is_admitted_is_load(tmp_path: Path, library: Library) -> None:
    lines = [_queued(11, "0.0", 2, 9, "40.1"), _queued(12, "812.4", 3, 8, "44.3"), _queued(13, "0.0", 3, 8, "44.6")]
    report = analysed_lines(tmp_path, library, lines, "server.log")
    assert "stopped admitting" not in report.verdict.summary


def test_fewer_waiting_than_running_is_load(tmp_path: Path, library: Library) -> None:
    """A full batch with a few behind it: they are admitted as the batch's requests finish."""
    lines = [_queued(minute, "0.0", 64, 5, "52.0") for minute in (11, 12, 13)]
    report = analysed_lines(tmp_path, library, lines, "server.log")
    assert "stopped admitting" not in report.verdict.summary


def test_two_stats_lines_are_too_few_for_a_standing_queue(tmp_path: Path, library: Library) -> None:
    lines = [_queued(minute, "0.0", 2, 9, "40.1") for minute in (11, 12)]
    report = analysed_lines(tmp_path, library, lines, "server.log")
    assert "stopped admitting" not in report.verdict.summary


def _waiting(minute: int, prompt: str, running: int, waiting: int) -> str:
    """vLLM V1's stats line with its waiting queue."""
    return _stats(minute, prompt, "0.0" if running == 0 else "311.8", running).replace(
        "Waiting: 0 reqs", f"Waiting: {waiting} reqs"
    )


def test_requests_waiting_none_running_and_nothing_done_at_the_end_is_a_stall(tmp_path: Path, library: Library) -> None:
    """No request was admitted in a whole interval although some waited: the V1 line, beside the V0
    one round 102's tester found (vllm#8378's Pending climbing while Running stayed 0)."""
    lines = [READY, _waiting(11, "532.2", 4, 0), _waiting(12, "0.0", 0, 14)]
    report = analysed_lines(tmp_path, library, lines, "server.log")
    assert report.verdict.id == "inconclusive"
    assert "14 request(s) waiting, none running," in report.verdict.summary
    assert report.chain[0].line == 3


def test_requests_waiting_while_prompts_are_prefilled_are_being_admitted(tmp_path: Path, library: Library) -> None:
    """The same counts with prompt tokens prefilled in the interval: the engine admits them."""
    lines = [READY, _waiting(11, "532.2", 4, 0), _waiting(12, "812.0", 0, 14)]
    report = analysed_lines(tmp_path, library, lines, "server.log")
    assert "stopped making progress" not in report.verdict.summary


# A client's error below the engine's last stats line (vllm#1492, as round 102's tester pasted it).
CLIENT_500 = (
    "openai.error.APIError: Invalid response object from API: 'Internal Server Error' (HTTP response code was 500)"
)


def test_an_inconclusive_failure_names_the_engine_full_when_it_came(tmp_path: Path, library: Library) -> None:
    lines = [_queued(44, "642.0", 2, 20, "98.7"), CLIENT_500]
    report = analysed_lines(tmp_path, library, lines, "excerpt.log")
    assert report.verdict.id == "inconclusive"
    assert "20 request(s) waiting and its KV cache at 98.7%" in report.verdict.summary
    assert "Pending: 20 reqs, GPU KV cache usage: 98.7%" in report.verdict.summary  # the line quoted


def test_sglangs_full_decode_is_named_too(tmp_path: Path, library: Library) -> None:
    lines = [
        "[2026-03-02 14:44:11 TP0] Decode batch, #running-req: 31, #token: 411022, token usage: 0.97, "
        "cuda graph: True, gen throughput (token/s): 812.40, #queue-req: 57",
        CLIENT_500,
    ]
    report = analysed_lines(tmp_path, library, lines, "excerpt.log")
    assert report.verdict.id == "inconclusive"
    assert "57 request(s) waiting and its KV cache at 97.0%" in report.verdict.summary


def test_an_engine_with_room_is_not_called_full(tmp_path: Path, library: Library) -> None:
    lines = [_queued(44, "642.0", 2, 20, "61.0"), CLIENT_500]
    report = analysed_lines(tmp_path, library, lines, "excerpt.log")
    assert "the engine is full" not in report.verdict.summary


def test_a_full_engine_that_generates_nothing_hung_rather_than_saturated(tmp_path: Path, library: Library) -> None:
    """vllm#2731 (round 104's tester): 35 running, 116-118 pending, the KV cache at 99 % and 0.0 tokens/s
    in every interval: a saturated engine still generates, so this one hung."""
    frozen = QUEUED.replace("throughput: 12.5 tokens/s", "throughput: 0.0 tokens/s")
    lines = [
        frozen.format(minute=minute, prompt="0.0", running=35, waiting=116 + minute % 3, usage="99.0")
        for minute in range(10, 16)
    ]
    report = analysed_lines(tmp_path, library, lines, "server.log")
    assert report.verdict.id == "inconclusive", report.verdict.summary
    assert "stopped making progress" in report.verdict.summary


def test_a_full_engine_that_still_generates_is_load(tmp_path: Path, library: Library) -> None:
    lines = [_queued(minute, "0.0", 35, 116 + minute % 3, "99.0") for minute in range(10, 16)]
    report = analysed_lines(tmp_path, library, lines, "server.log")
    assert "stopped making progress" not in report.verdict.summary


def _v1(minute: int, generated: str, running: int, waiting: int, usage: str) -> str:
    return (
        STATS.format(minute=minute, prompt="1946.0", generated=generated, running=running)
        .replace("Waiting: 0 reqs", f"Waiting: {waiting} reqs")
        .replace("GPU KV cache usage: 8.8%", f"GPU KV cache usage: {usage}%")
    )


def test_a_queue_piling_up_beside_a_crawl_and_room_is_not_load(tmp_path: Path, library: Library) -> None:
    """vllm#53130 (round 105's tester): waiting climbs to 492 while 4 run at 0.5 tokens/s and the KV cache
    sits at 20 %, after one interval at 90 %: neither saturated nor healthy."""
    lines = [
        READY,
        _v1(11, "53.3", 29, 92, "90.0"),
        _v1(12, "1.2", 3, 227, "20.9"),
        _v1(13, "5.5", 4, 487, "20.0"),
        _v1(14, "0.5", 4, 492, "20.0"),
    ]
    report = analysed_lines(tmp_path, library, lines, "server.log")
    assert report.verdict.id == "inconclusive", report.verdict.summary
    assert "stopped keeping up" in report.verdict.summary and "492 request(s) waiting" in report.verdict.summary


def test_a_queue_beside_requests_that_generate_is_load(tmp_path: Path, library: Library) -> None:
    lines = [READY, *(_v1(m, "480.0", 16, 120 + m, "40.0") for m in range(11, 15))]
    report = analysed_lines(tmp_path, library, lines, "server.log")
    assert "stopped keeping up" not in report.verdict.summary
