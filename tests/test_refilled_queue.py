"""A decode whose KV pool is pinned full and that retracts is saturated, though its queue never stands.

Round 25's blind bundle (bundles-b/03): a throughput gate failed; the decode's pool sat at 0.98-0.99
for most of the run, it retracted requests again and again, and its queue rose to ~100 and fell back
to 0 within each time bucket (the retracted requests go back to the queue, are taken in again, and
are retracted again). No bucket held the queue up from start to end, so the standing-queue rule saw
no backlog and the report said no bottleneck showed. The pool pinned (not one peak) and the
retractions say the decode had no room. SGLang's decode batch lines and vLLM's engine stats
(preemptions) say the same in their words. Look-alikes: a pool full only at its peak is load; with no
gate that failed, a busy decode is no verdict.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from pdlogdoctor.library.patterns import Library

from .conftest import run

START_MIN = 10  # the lines run from 10:10:00, one every 2 s, for 40 minutes
LINES = 1201  # ends on an empty queue: a queue up when the log ends is a backlog of its own
SAW = 8  # lines per tooth: the queue climbs for 8 lines, then retractions empty it back to 0

SGLANG = (
    "[2026-05-19 {clock} TP0] Decode batch, #running-req: {running}, #token: 430029, token usage: {usage:.2f}, "
    "pre-allocated usage: 0.00, #prealloc-req: 0, #transfer-req: 0, #retracted-req: {retracted}, cuda graph: True, "
    "gen throughput (token/s): 3065.38, #queue-req: {queue},"
)
VLLM = (
    "(APIServer pid=1) INFO 05-19 {clock} [loggers.py:123] Engine 000: Avg prompt throughput: 812.0 tokens/s, "
    "Avg generation throughput: 3065.4 tokens/s, Running: {running} reqs, Waiting: {queue} reqs, "
    "Preemptions: {retracted}, GPU KV cache usage: {percent:.1f}%, Prefix cache hit rate: 0.0%"
)
GATE = [
    "======================================================================",
    "FAIL: test_output_throughput_c192 (test_pd_perf.TestPDPerf.test_output_throughput_c192)",
    "----------------------------------------------------------------------",
    "Traceback (most recent call last):",
    '  File "/sgl-workspace/sglang/test/srt/test_pd_perf.py", line 88, in test_output_throughput_c192',
    '    self.assertGreater(res["output_throughput"], 5200)',
    "AssertionError: 4043.62 not greater than 5200",
    "----------------------------------------------------------------------",
    "Ran 1 test in 2411.532s",
    "",
    "FAILED (failures=1)",
]

Row = tuple[int, float, int]  # queue, pool usage, retracted
Shape = Callable[[int], Row]


def _clock(index: int) -> str:
    seconds = index * 2
    return f"10:{START_MIN + seconds // 60:02d}:{seconds % 60:02d}"


def _pinned_saw(index: int) -> Row:
    """The pool at 0.97-0.99 throughout; the queue climbs to 84 and is emptied by retractions."""
    tooth = index % SAW
    return tooth * 12, 0.97 + 0.01 * (index % 3), 40 if tooth == SAW - 1 else 0


def _peak_only_saw(index: int) -> Row:
    """The same queue and retractions, the pool full at one line only."""
    queue, _, retracted = _pinned_saw(index)
    return queue, 0.95 if index == LINES // 2 else 0.55, retracted


def _rendered(template: str) -> Callable[[Shape], list[str]]:
    """The metrics lines of `template` (sglang's decode batch line, vLLM's engine stats) for a shape."""

    def lines(shape: Shape) -> list[str]:
        rows = (shape(index) for index in range(LINES))
        return [
            template.format(
                clock=_clock(index),
                running=190 - queue,
                usage=usage,
                percent=usage * 100,
                retracted=retracted,
                queue=queue,
            )
            for index, (queue, usage, retracted) in enumerate(rows)
        ]

    return lines


_sglang, _vllm = _rendered(SGLANG), _rendered(VLLM)


def _analysed(tmp_path: Path, library: Library, server: list[str], gate: bool) -> object:
    (tmp_path / "decode.log").write_text("\n".join(server) + "\n")
    if gate:
        (tmp_path / "perf_test.txt").write_text("\n".join(GATE) + "\n")
    return run([str(tmp_path)], library)


@pytest.mark.parametrize("render", [_sglang, _vllm], ids=["sglang-decode-batch", "vllm-engine-stats"])
def test_a_pinned_pool_that_retracts_is_the_bottleneck_of_a_failed_gate(
    tmp_path: Path, library: Library, render: Callable[[Shape], list[str]]
) -> None:
    report = _analysed(tmp_path, library, render(_pinned_saw), gate=True)
    assert report.verdict.id == "decode-saturated", report.verdict.summary  # type: ignore[attr-defined]
    summary = report.verdict.summary  # type: ignore[attr-defined]
    assert "AssertionError: 4043.62 not greater than 5200" in summary
    # the queue was up (>= 8) in 7 of each 8 lines: in every bucket; it filled again, it never stood
    assert "filled again in 100% of its run" in summary and "(peak 84" in summary
    assert "its KV pool reached 99% of its tokens" in summary


@pytest.mark.parametrize("render", [_sglang, _vllm], ids=["sglang-decode-batch", "vllm-engine-stats"])
def test_a_pool_full_at_one_peak_is_no_bottleneck(
    tmp_path: Path, library: Library, render: Callable[[Shape], list[str]]
) -> None:
    report = _analysed(tmp_path, library, render(_peak_only_saw), gate=True)
    assert report.verdict.id == "performance-regression", report.verdict.summary  # type: ignore[attr-defined]


def test_without_a_failed_gate_a_busy_decode_is_no_verdict(tmp_path: Path, library: Library) -> None:
    report = _analysed(tmp_path, library, _sglang(_pinned_saw), gate=False)
    assert report.verdict.id not in ("decode-saturated", "performance-regression")  # type: ignore[attr-defined]
    assert any("decode-saturated" in note for note in report.notes)  # type: ignore[attr-defined]


def _standing_and_preempting(index: int) -> Row:
    """The queue stands at 80-88, the pool at 0.97-0.99, and requests are preempted on most lines."""
    return 80 + index % 9, 0.97 + 0.01 * (index % 3), 0 if index % 4 == 0 else 3


BENCH_CLEAN = ["Successful requests:                     512", "Failed requests:                         0"]
GATE_PASSED = ["output throughput 2412.8 tok/s >= gate 1500 tok/s -- PASS"]


@pytest.mark.parametrize(
    ("harness", "saturated"),
    [(BENCH_CLEAN, True), ([*BENCH_CLEAN, *GATE_PASSED], False)],
    ids=["a-benchmark-that-only-counted-answers", "a-throughput-gate-that-passed"],
)
def test_a_decode_that_threw_work_away_all_run_is_saturated_unless_a_performance_gate_passed(
    tmp_path: Path, library: Library, harness: list[str], saturated: bool
) -> None:
    """A standing queue at a pinned pool, preempting on most lines (round 36's bundles-a 08: TTFT of
    minutes, no gate): the decode is saturated though every request was answered. A latency or
    throughput gate that passed says the run met its bar: then it is load, noted, not a verdict."""
    (tmp_path / "bench.log").write_text("\n".join(harness) + "\n")
    report = _analysed(tmp_path, library, _vllm(_standing_and_preempting), gate=False)
    verdict = report.verdict  # type: ignore[attr-defined]
    assert (verdict.id == "decode-saturated") is saturated, verdict.summary
    if saturated:
        assert "requests waiting in its queue stayed up" in verdict.summary and "preemptions" in verdict.summary
    else:
        assert any("decode-saturated" in note for note in report.notes)  # type: ignore[attr-defined]
