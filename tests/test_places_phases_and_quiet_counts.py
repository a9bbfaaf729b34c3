"""Where a failure was, in which phase, and counts that are no failure (issue 22; round 145's blind cases).

- pytest's line under a failed test's last frame (`path.py:NN: TimeoutError`) is an error line: a paste
  that keeps only it is quoted, never "no failure seen"; its `path.py:NN: in test_x` frame lines are not.
- A count of failed requests at zero (`HTTP failed ...: 0`) is no error; `Failed to start: None` still is.
- vLLM's KV cache sizing line (`GPU KV cache size: N tokens`) is a start-up step: a worker's crash after
  it, with no ready line between, is a crash at start-up.
- vLLM V0's engine loop (`start` -> `run_engine_loop`, the exception logged by start()) died serving.
- A graph capture broken at start-up names a crash at start-up (as a lead).
- A table of releases whose columns are lm-eval's GSM8K filters (`strict-match`, `flexible-extract`) is
  judged: better higher.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from pdlogdoctor.library.patterns import Library
from pdlogdoctor.model.verdicts import HEALTHY, NO_CAUSE

from .conftest import analysed_lines

# nod-ai/amd-shark-ai#872 (a server test's wait ran out), vllm-project/vllm#23347 (an assertion raised in
# the engine's scheduler under a unit test)
PYTEST_PLACES = [
    "app_tests/integration_tests/llm/server_management.py:118: TimeoutError",
    "../vllm-internal/vllm/v1/core/sched/scheduler.py:558: AssertionError",
]


@pytest.mark.parametrize("place", PYTEST_PLACES)
def test_pytest_s_failure_place_is_an_error_quoted(place: str, tmp_path: Path, library: Library) -> None:
    lines = [
        "------------------------------ Captured log setup ------------------------------",
        "INFO     app_tests.integration_tests.llm.model_management:model_management.py:102 Copying local model",
    ]
    report = analysed_lines(tmp_path, library, [place, *lines], "ci.log")
    assert report.verdict.id not in (HEALTHY, "no-failure-seen"), report.verdict.summary
    assert place in report.verdict.summary


def test_a_frame_line_of_pytest_is_no_failure_place(tmp_path: Path, library: Library) -> None:
    report = analysed_lines(tmp_path, library, ["tests/test_server.py:118: in test_launch"], "ci.log")
    assert report.verdict.id == "no-failure-seen", report.verdict.summary


# vllm-project/vllm-omni#4094 (a benchmark's tally after the fix: every request answered)
def test_a_count_of_failed_requests_at_zero_is_no_error(tmp_path: Path, library: Library) -> None:
    lines = [
        "Overall Accuracy: 827/1197 = 69.09%",
        "Successful HTTP (GitHub denom.):         1197",
        "HTTP failed (excl. from GitHub acc.):    0",
    ]
    report = analysed_lines(tmp_path, library, lines, "bench.log")
    assert report.verdict.id in (HEALTHY, "no-failure-seen"), report.verdict.summary


def test_a_start_that_failed_with_none_is_still_an_error(tmp_path: Path, library: Library) -> None:
    report = analysed_lines(tmp_path, library, ["Failed to start: None"], "run.log")
    assert report.verdict.id == "inconclusive", report.verdict.summary


# intel/llm-scaler#578 (vLLM on Intel XPU, -tp=4: the workers die right after the KV cache is sized)
XPU_SIZED_THEN_DIED = [
    "(Worker_TP0 pid=548) INFO 07-29 21:48:17 [gpu_worker.py:462] Available KV cache memory: 17.8 GiB",
    "(EngineCore pid=518) INFO 07-29 21:48:17 [kv_cache_utils.py:1710] GPU KV cache size: 6,204,095 tokens",
    "(EngineCore pid=518) INFO 07-29 21:48:17 [kv_cache_utils.py:1711] Maximum concurrency for 65,536 tokens per "
    "request: 94.67x",
    "(Worker_TP1 pid=549) ERROR 07-29 21:48:54 [multiproc_executor.py:962] WorkerProc hit an exception.",
    "(Worker_TP1 pid=549) ERROR 07-29 21:48:54 [multiproc_executor.py:962] Traceback (most recent call last):",
    '(Worker_TP1 pid=549) ERROR 07-29 21:48:54 [multiproc_executor.py:962]   File "/opt/venv/lib/python3.12/'
    'site-packages/vllm/v1/executor/multiproc_executor.py", line 957, in worker_busy_loop',
]


def test_a_worker_dying_after_the_kv_cache_is_sized_died_at_start_up(tmp_path: Path, library: Library) -> None:
    report = analysed_lines(tmp_path, library, XPU_SIZED_THEN_DIED, "server.log")
    assert report.verdict.id == "scheduler-init-crash", report.verdict.summary


def test_a_worker_dying_after_the_server_answered_died_serving(tmp_path: Path, library: Library) -> None:
    ready = [
        "(APIServer pid=1) INFO 07-29 21:49:00 [api_server.py:1912] Starting vLLM API server 0 on http://0.0.0.0:8000",
        '(APIServer pid=1) INFO:     10.0.0.5:41234 - "POST /v1/completions HTTP/1.1" 200 OK',
    ]
    died = [line.replace("21:48:54", "21:50:54") for line in XPU_SIZED_THEN_DIED[3:]]
    report = analysed_lines(tmp_path, library, [*XPU_SIZED_THEN_DIED[:3], *ready, *died], "server.log")
    assert report.verdict.id == "scheduler-runtime-crash", report.verdict.summary


# ai-dynamo/dynamo#352 (a decode worker's V0 engine: the loop's exception, logged by start())
V0_LOOP = [
    "INFO 03-22 22:56:38 engine.py:404] Added request 7d10b72b-44b7-4c68-bafd-3b41378a34ed.",
    "ERROR 03-22 22:56:38 engine.py:244] AssertionError()",
    "ERROR 03-22 22:56:38 engine.py:244] Traceback (most recent call last):",
    'ERROR 03-22 22:56:38 engine.py:244]   File "/opt/dynamo/venv/lib/python3.12/site-packages/vllm/engine/'
    'multiprocessing/engine.py", line 242, in start',
    "ERROR 03-22 22:56:38 engine.py:244]     self.run_engine_loop()",
    'ERROR 03-22 22:56:38 engine.py:244]   File "/opt/dynamo/venv/lib/python3.12/site-packages/vllm/engine/'
    'multiprocessing/engine.py", line 315, in run_engine_loop',
    "ERROR 03-22 22:56:38 engine.py:244]     request_outputs = self.engine_step()",
]


def test_v0_s_engine_loop_dying_is_a_crash_while_serving(tmp_path: Path, library: Library) -> None:
    report = analysed_lines(tmp_path, library, V0_LOOP, "decode.log")
    assert report.verdict.id == "scheduler-runtime-crash", report.verdict.summary
    assert "run_engine_loop" in report.verdict.summary


def test_v0_s_startup_loop_dying_is_no_crash_while_serving(tmp_path: Path, library: Library) -> None:
    startup = [
        line.replace("line 315, in run_engine_loop", "line 228, in run_startup_loop")
        .replace("self.run_engine_loop()", "self.run_startup_loop()")
        .replace("request_outputs = self.engine_step()", "self._handle_startup_message()")
        for line in V0_LOOP
    ]
    report = analysed_lines(tmp_path, library, startup, "decode.log")
    assert report.verdict.id != "scheduler-runtime-crash", report.verdict.summary


# sgl-project/sglang's MI35x CI (a blind round's excerpt): HIP's graph capture broken by the watchdog
def test_a_graph_capture_broken_names_a_crash_at_start_up(tmp_path: Path, library: Library) -> None:
    line = "HIP error: operation not permitted on an event last recorded in a capturing stream"
    report = analysed_lines(tmp_path, library, [line], "server.log")
    assert report.verdict.id == "scheduler-init-crash", report.verdict.summary
    assert report.verdict.confidence < 0.5


def test_a_capture_that_finished_names_nothing(tmp_path: Path, library: Library) -> None:
    line = "INFO 07-29 21:48:20 [gpu_model_runner.py:2000] Graph capturing finished in 12 secs, took 0.45 GiB"
    report = analysed_lines(tmp_path, library, [line], "server.log")
    assert report.verdict.id in (HEALTHY, *NO_CAUSE), report.verdict.summary


# vllm-project/vllm#45943 (GSM8K across three vLLM images: each release at least as good)
RELEASES = [
    "| vLLM image | strict-match | flexible-extract |",
    "| ---------- | ------------ | ---------------- |",
    "| v0.18.0    | 0.9204 ± 0.0075 | 0.9219 ± 0.0074 |",
    "| v0.19.1    | 0.9280 ± 0.0071 | 0.9272 ± 0.0072 |",
    "| v0.22.0    | 0.9371 ± 0.0067 | 0.9363 ± 0.0067 |",
]


def test_gsm8k_filters_across_releases_judged_better_higher(tmp_path: Path, library: Library) -> None:
    report = analysed_lines(tmp_path, library, RELEASES, "comment.md")
    assert report.verdict.id == HEALTHY, report.verdict.summary


def test_gsm8k_filters_falling_across_releases_fail(tmp_path: Path, library: Library) -> None:
    fell = [*RELEASES[:4], "| v0.22.0    | 0.6371 ± 0.0067 | 0.6363 ± 0.0067 |"]
    report = analysed_lines(tmp_path, library, fell, "comment.md")
    assert report.verdict.id == "accuracy-regression", report.verdict.summary
