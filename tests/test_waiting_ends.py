"""A log that ends on a wait that went on is a start-up that never came up, not a run with no failure.

The waiting lines are real formats: vLLM's API server polling for its engine core
(vllm/v1/engine/utils.py, posted in many start-up hang threads) and the SGLang router polling its
workers' /health (sgl-router core/worker.rs). Look-alikes: the same waits followed by the ready
line, one waiting line at a log's end (a step of start-up), and a wait in the middle of a log.
"""

from __future__ import annotations

from pathlib import Path

from pdlogdoctor.library.patterns import Library
from pdlogdoctor.pipeline import run

VLLM_WAIT = (
    "(APIServer pid=1) DEBUG 04-12 21:{clock} [v1/engine/utils.py:1143] Waiting for 1 local, 0 remote core engine "
    "proc(s) to start."
)
VLLM_READY = (
    "(APIServer pid=1) INFO 04-12 21:40:02 [api_server.py:1912] Starting vLLM API server 0 on http://0.0.0.0:8000"
)
ROUTER_PENDING = (
    "[Router (Rust)] 2025-03-08 02:33:{second} - INFO - Worker http://0.0.0.0:{port} health check is pending with "
    "error: error sending request for url (http://0.0.0.0:{port}/health)"
)
ROUTER_HEALTHY = "[Router (Rust)] 2025-03-08 02:40:09 - INFO - All workers are healthy"


def _write(tmp_path: Path, name: str, lines: list[str]) -> str:
    tmp_path.mkdir(parents=True, exist_ok=True)
    path = tmp_path / name
    path.write_text("\n".join(lines) + "\n")
    return str(tmp_path)


def _vllm_waits(count: int) -> list[str]:
    return [VLLM_WAIT.format(clock=f"{38 + i // 6:02d}:{(i % 6) * 10:02d}") for i in range(count)]


def test_a_vllm_start_up_that_ends_waiting_is_inconclusive(tmp_path: Path, library: Library) -> None:
    report = run([_write(tmp_path, "kubectl-logs.txt", _vllm_waits(6))], library)
    assert report.verdict.id == "inconclusive"
    summary = report.verdict.summary
    assert summary.startswith("The log ends while waiting")
    assert "kubectl-logs.txt:6" in summary and "6 such lines over 50 s" in summary
    assert [e.line for e in report.chain[:2]] == [1, 6]
    assert any("what it waited for" in item for item in report.missing)


def test_a_router_that_ends_waiting_for_its_workers_is_inconclusive(tmp_path: Path, library: Library) -> None:
    lines = [
        "SingleProcess AUTOTUNE benchmarking takes 1.3427 seconds and 8.8429 seconds precompiling",
        ROUTER_PENDING.format(second="09", port=31000),
        ROUTER_PENDING.format(second="09", port=31778),
    ]
    report = run([_write(tmp_path, "router.log", lines)], library)
    assert report.verdict.id == "inconclusive"
    # both workers' lines are quoted: they share a prefix, not a message
    assert "http://0.0.0.0:31000 health check is pending" in report.verdict.summary
    assert "http://0.0.0.0:31778 health check is pending" in report.verdict.summary


def test_a_wait_that_ended_is_start_up_going_on(tmp_path: Path, library: Library) -> None:
    report = run([_write(tmp_path, "server.log", [*_vllm_waits(6), VLLM_READY])], library)
    assert report.verdict.id != "inconclusive"
    lines = [ROUTER_PENDING.format(second="09", port=31000), ROUTER_PENDING.format(second="19", port=31000)]
    report = run([_write(tmp_path / "router", "router.log", [*lines, ROUTER_HEALTHY])], library)
    assert report.verdict.id != "inconclusive"


def test_one_waiting_line_at_the_end_is_a_step_of_start_up(tmp_path: Path, library: Library) -> None:
    report = run([_write(tmp_path, "server.log", _vllm_waits(1))], library)
    assert report.verdict.id == "no-failure-seen"


def test_a_wait_with_lines_after_it_is_not_where_the_log_ends(tmp_path: Path, library: Library) -> None:
    # vLLM's model runner once its weights are in (gpu_model_runner.py), then its profiling
    later = [
        f"(EngineCore_DP0 pid=210) INFO 04-12 21:39:{s:02d} [gpu_model_runner.py:1801] Model loading took "
        f"0.9277 GiB and 0.6{s} seconds"
        for s in range(10, 18)
    ]
    report = run([_write(tmp_path, "server.log", [*_vllm_waits(3), *later])], library)
    assert report.verdict.id == "no-failure-seen"


# llm-d/llm-d#355: a vLLM decode whose requests never get their KV (the routing sidecar spoke another
# connector's protocol), pasted with the poster's elision marks around the lines.
KV_WAIT = (
    "DEBUG 10-09 19:47:{second:02d} [scheduler.py:345] cmpl-c7da0225-3a9e-4d1e-b225-69f2aba46407-0 is still in "
    "WAITING_FOR_REMOTE_KVS state."
)


def test_a_decode_that_ends_waiting_for_kv_is_inconclusive_past_an_elision_mark(
    tmp_path: Path, library: Library
) -> None:
    lines = ["...", KV_WAIT.format(second=51), KV_WAIT.format(second=52), "..."]
    report = run([_write(tmp_path, "decode.log", lines)], library)
    assert report.verdict.id == "inconclusive"
    assert "request still waits for its KV from the prefill" in report.verdict.summary


def test_a_kv_wait_with_a_line_after_it_is_a_transfer_in_progress(tmp_path: Path, library: Library) -> None:
    stats = (
        "INFO 10-09 19:47:55 [loggers.py:123] Engine 000: Avg prompt throughput: 0.0 tokens/s, Avg generation "
        "throughput: 42.0 tokens/s, Running: 1 reqs, Waiting: 0 reqs, GPU KV cache usage: 0.4%, "
        "Prefix cache hit rate: 0.0%"
    )
    lines = [KV_WAIT.format(second=51), KV_WAIT.format(second=52), stats, "..."]
    report = run([_write(tmp_path, "decode.log", lines)], library)
    assert report.verdict.id != "inconclusive"


# gpustack/gpustack#5509: vLLM on Ray, one of two GPUs registered as a TPU, the group never placed.
PG_WAIT = (
    "(EngineCore pid=84) INFO 06-07 18:13:55 [ray_utils.py:464] Waiting for creating a placement group of specs "
    "for {seconds} seconds. specs=[{{'GPU': 1.0}}, {{'GPU': 1.0}}]. Check `ray status` and `ray list nodes` to see "
    "if you have enough resources, and make sure"
)


def test_one_line_that_says_it_waited_long_is_a_wait_that_went_on(tmp_path: Path, library: Library) -> None:
    report = run([_write(tmp_path, "engine.log", [PG_WAIT.format(seconds=150)])], library)
    assert report.verdict.id == "inconclusive", report.verdict.summary
    assert report.verdict.summary.startswith("The log ends while waiting: vLLM waiting for Ray")
    assert "for 150 seconds" in report.verdict.summary


def test_one_line_that_waited_a_moment_is_a_step_of_start_up(tmp_path: Path, library: Library) -> None:
    report = run([_write(tmp_path / "short", "engine.log", [PG_WAIT.format(seconds=10)])], library)
    assert report.verdict.id == "no-failure-seen", report.verdict.summary
