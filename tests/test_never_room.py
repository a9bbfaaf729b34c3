"""A server full in every metrics line read is no healthy server, however short the excerpt.

vllm#27073: three engine-stats lines, each with 62 requests waiting and the KV cache at 98-99.7 %,
a few requests still answered 200. Too few lines for a trend, but none shows room: the server is
saturated (decode-saturated, a lead's confidence), not healthy. SGLang's decode batch lines say the
same in their words. Look-alikes: one line with room (a queue that drained, a pool below full) is
load; a passing end-to-end result keeps a busy run healthy.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from pdlogdoctor.library.patterns import Library

from .conftest import analysed_lines

VLLM_STATS = (
    "(APIServer pid=1) INFO 10-14 17:07:{second:02d} [loggers.py:123] Engine 000: Avg prompt throughput: 0.0 tokens/s, "
    "Avg generation throughput: 569.6 tokens/s, Running: 27 reqs, Waiting: {waiting} reqs, GPU KV cache usage: "
    "{usage}%, Prefix cache hit rate: 46.3%"
)
VLLM_ANSWER = '(APIServer pid=1) INFO:     10.250.3.7:42662 - "POST /v1/chat/completions HTTP/1.1" 200 OK'
SGLANG_DECODE = (
    "[2026-07-09 02:12:{second:02d} TP0] Decode batch. #running-req: 32, #token: 66304, token usage: {usage}, "
    "cuda graph: True, gen throughput (token/s): 1987.73, #queue-req: {waiting}"
)
SGLANG_ANSWER = '[2026-07-09 02:12:{second:02d}] INFO:     10.0.0.7:5{second:04d} - "POST /generate HTTP/1.1" 200 OK'


def _vllm(rows: list[tuple[int, float]]) -> list[str]:
    lines = []
    for at, (waiting, usage) in enumerate(rows):
        lines += [VLLM_STATS.format(second=at * 10, waiting=waiting, usage=usage * 100), VLLM_ANSWER]
    return lines


def _sglang(rows: list[tuple[int, float]]) -> list[str]:
    lines = []
    for at, (waiting, usage) in enumerate(rows):
        second = at * 10
        lines += [SGLANG_DECODE.format(second=second, waiting=waiting, usage=usage)]
        lines += [SGLANG_ANSWER.format(second=second + 1), SGLANG_ANSWER.format(second=second + 2)]
    return lines


Render = Callable[[list[tuple[int, float]]], list[str]]
FULL = [(62, 0.997), (63, 0.979), (63, 0.986)]
ONE_WITH_ROOM = [(62, 0.997), (0, 0.41), (63, 0.986)]


@pytest.mark.parametrize("render", [_vllm, _sglang], ids=["vllm-stats", "sglang-decode-batch"])
def test_a_server_full_in_every_line_is_saturated(tmp_path: Path, library: Library, render: Render) -> None:
    report = analysed_lines(tmp_path, library, render(FULL), "server.log")
    assert report.verdict.id == "decode-saturated"
    assert report.verdict.confidence <= 0.4  # too few lines for a trend: a lead
    assert "stayed up in 100% of its run" in report.verdict.summary


@pytest.mark.parametrize("render", [_vllm, _sglang], ids=["vllm-stats", "sglang-decode-batch"])
def test_one_line_with_room_is_load(tmp_path: Path, library: Library, render: Render) -> None:
    report = analysed_lines(tmp_path, library, render(ONE_WITH_ROOM), "server.log")
    assert report.verdict.id == "healthy"


def test_a_passing_end_to_end_result_keeps_a_full_server_healthy(tmp_path: Path, library: Library) -> None:
    lines = [*_vllm(FULL), "[gsm8k] accuracy=0.944 threshold=0.91"]
    report = analysed_lines(tmp_path, library, lines, "server.log")
    assert report.verdict.id == "healthy"


# vllm#43295 (round 123's excerpts-b 01): 23 to 56 waiting in every line, the pool at 88 to 98 %: one
# line admitted a burst of prompts between full ones, and the queue had no lasting room.
FULL_ON_AVERAGE = [(43, 0.959), (42, 0.955), (33, 0.877), (23, 0.959), (23, 0.984)]
ROOMY_ON_AVERAGE = [(43, 0.959), (42, 0.70), (33, 0.877), (23, 0.959), (23, 0.80)]


@pytest.mark.parametrize("render", [_vllm, _sglang], ids=["vllm-stats", "sglang-decode-batch"])
def test_a_pool_full_on_average_with_a_queue_in_every_line_is_saturated(
    tmp_path: Path, library: Library, render: Render
) -> None:
    report = analysed_lines(tmp_path, library, render(FULL_ON_AVERAGE), "server.log")
    assert report.verdict.id == "decode-saturated", report.verdict.summary
    assert "stayed up in 100% of its run" in report.verdict.summary


@pytest.mark.parametrize("render", [_vllm, _sglang], ids=["vllm-stats", "sglang-decode-batch"])
def test_a_pool_with_room_on_average_is_load(tmp_path: Path, library: Library, render: Render) -> None:
    report = analysed_lines(tmp_path, library, render(ROOMY_ON_AVERAGE), "server.log")
    assert report.verdict.id == "healthy", report.verdict.summary
