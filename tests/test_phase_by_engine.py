"""Which phase a crash's frames tell, engine by engine (patterns/frames.toml's [[phase]] rules).

The rules name functions an engine reaches only while serving or only while starting up, read
from its source: sglang's run_scheduler_process builds the Scheduler (model, KV pool, CUDA graphs),
reports {"status": "ready"}, then enters run_event_loop -> dispatch_event_loop -> event_loop_*;
vLLM V1's engine core steps through execute_model/sample_tokens once its KV cache is sized
(profile_run) and its graphs captured (capture_model); TensorRT-LLM builds its PyExecutor in
create_py_executor. Names both phases reach decide nothing by themselves: the model's forward
(run by CUDA-graph capture and by sglang's dynamic-chunking profile), vLLM's _dummy_run (profile
and capture at start-up, an idle data-parallel rank's dummy batch while serving), V0's
execute_model (under profile_run), TensorRT-LLM's executor loop (run on dummy requests by
estimate_max_tokens before serving). The frame lines are real (the threads each rule's comment
cites), the stacks put together from them in the order the source calls them.
"""

from __future__ import annotations

from pathlib import Path

from pdlogdoctor.library.frames import Frame, parse_frame
from pdlogdoctor.library.patterns import Library
from pdlogdoctor.model import Report

from .conftest import analysed_lines
from .corpus import REJECTED

INIT, RUNTIME, UNKNOWN = "scheduler-init-crash", "scheduler-runtime-crash", "scheduler-crash"
SGL = "/sgl-workspace/sglang/python/sglang/srt"
HEADER = "[2026-07-07 07:20:43 TP1] Scheduler hit an exception: Traceback (most recent call last):"

# sglang (an Ascend deployment's paste): the scheduler dies in its overlap loop; the paste stops
# at torch's decorator, before the innermost frames and the exception line.
SGLANG_CUT_IN_THE_LOOP = [
    HEADER,
    f'  File "{SGL}/managers/scheduler.py", line 4270, in run_scheduler_process',
    "    scheduler.run_event_loop()",
    f'  File "{SGL}/managers/scheduler.py", line 1487, in run_event_loop',
    "    dispatch_event_loop(self)",
    f'  File "{SGL}/managers/scheduler.py", line 4135, in dispatch_event_loop',
    "    scheduler.event_loop_overlap()",
    '  File "/usr/local/python3.11.14/lib/python3.11/site-packages/torch/utils/_contextlib.py", line 120, '
    "in decorate_context",
    "    return func(*args, **kwargs)",
]
# Its look-alike: the same header and entry, the Scheduler's constructor under it, CUDA-graph
# capture running the model's forward (a serving-path name) at start-up.
SGLANG_CAPTURE_AT_START_UP = [
    HEADER,
    f'  File "{SGL}/managers/scheduler.py", line 2297, in run_scheduler_process',
    "    scheduler = Scheduler(",
    f'  File "{SGL}/managers/scheduler.py", line 412, in __init__',
    "    self.tp_worker = TpModelWorker(",
    f'  File "{SGL}/model_executor/model_runner.py", line 571, in initialize',
    "    self.init_cuda_graphs()",
    f'  File "{SGL}/model_executor/cuda_graph_runner.py", line 513, in _capture_one_stream',
    "    ) = self.capture_one_batch_size(bs, forward, stream_idx)",
    f'  File "{SGL}/model_executor/cuda_graph_runner.py", line 732, in capture_one_batch_size',
    "    run_once()",
    f'  File "{SGL}/model_executor/cuda_graph_runner.py", line 719, in run_once',
    "    logits_output_or_pp_proxy_tensors = forward(",
    f'  File "{SGL}/model_executor/model_runner.py", line 2110, in forward',
    "    output = self._forward_raw(",
    "RuntimeError: FlashAttention only support fp16 and bf16 data type",
]

VLLM_WORKER = "(Worker_TP0 pid=51886) ERROR 11-14 08:13:55 [multiproc_executor.py:671] "
VLLM = "/usr/local/lib/python3.12/dist-packages/vllm"


def _vllm_worker_traceback(*frames_and_sources: str, error: str) -> list[str]:
    """vLLM V1's multiproc worker reporting an RPC that raised, every line behind its logger prefix."""
    lines = [
        "WorkerProc hit an exception.",
        "Traceback (most recent call last):",
        f'  File "{VLLM}/v1/executor/multiproc_executor.py", line 666, in worker_busy_loop',
        "    output = func(*args, **kwargs)",
        *frames_and_sources,
        error,
    ]
    return [VLLM_WORKER + line for line in lines]


# Serving: the engine core asked the worker to sample the step's tokens.
VLLM_SAMPLING = _vllm_worker_traceback(
    f'  File "{VLLM}/v1/worker/gpu_worker.py", line 1015, in sample_tokens',
    "    return self.model_runner.sample_tokens(grammar_output)",
    f'  File "{VLLM}/v1/worker/gpu_model_runner.py", line 3386, in sample_tokens',
    "    self._bookkeeping_sync(",
    error="RuntimeError: CUDA error: an illegal memory access was encountered",
)
# Its look-alike: the same worker loop sizing the KV cache at start-up; profile_run runs a dummy
# batch through the model (_dummy_run, the model's forward: names serving reaches too).
VLLM_PROFILING = _vllm_worker_traceback(
    f'  File "{VLLM}/v1/worker/gpu_worker.py", line 339, in determine_available_memory',
    "    self.model_runner.profile_run()",
    f'  File "{VLLM}/v1/worker/gpu_model_runner.py", line 5156, in profile_run',
    "    hidden_states, last_hidden_states = self._dummy_run(",
    f'  File "{VLLM}/v1/worker/gpu_model_runner.py", line 4870, in _dummy_run',
    "    outputs = self.model(",
    error="RuntimeError: CUDA error: an illegal memory access was encountered",
)


def _report(tmp_path: Path, library: Library, lines: list[str], name: str) -> Report:
    return analysed_lines(tmp_path, library, lines, name)


def _ruled_out(report: Report, verdict: str) -> bool:
    return next(a for a in report.alternatives if a.id == verdict).confidence < REJECTED


def _stack(*lines: str) -> list[Frame]:
    frames = [parse_frame(line) for line in lines]
    assert all(frame is not None for frame in frames), lines
    return [frame for frame in frames if frame is not None]


# ---------------------------------------------------------------- whole reports


def test_an_sglang_paste_cut_inside_the_event_loop_is_a_crash_while_serving(tmp_path: Path, library: Library) -> None:
    report = _report(tmp_path, library, SGLANG_CUT_IN_THE_LOOP, "prefill.log")
    assert report.verdict.id == RUNTIME
    assert "run_event_loop" in str(dict(report.verdict.facts)["phase_evidence"])
    # No exception line: the summary still quotes the crash's own first line, and start-up, which
    # no ready line rules out, stays open below.
    assert "Scheduler hit an exception" in report.verdict.summary
    assert not _ruled_out(report, INIT)


def test_sglang_graph_capture_running_the_models_forward_stays_start_up(tmp_path: Path, library: Library) -> None:
    report = _report(tmp_path, library, SGLANG_CAPTURE_AT_START_UP, "prefill.log")
    assert report.verdict.id == INIT
    assert "constructing the server" in str(dict(report.verdict.facts)["phase_evidence"])
    assert _ruled_out(report, RUNTIME)


def test_a_vllm_worker_sampling_tokens_is_a_crash_while_serving(tmp_path: Path, library: Library) -> None:
    report = _report(tmp_path, library, VLLM_SAMPLING, "vllm.log")
    assert report.verdict.id == RUNTIME
    assert "sample_tokens" in str(dict(report.verdict.facts)["phase_evidence"])


def test_a_vllm_worker_profiling_the_kv_cache_stays_start_up(tmp_path: Path, library: Library) -> None:
    report = _report(tmp_path, library, VLLM_PROFILING, "vllm.log")
    assert report.verdict.id == INIT
    assert "determine_available_memory" in str(dict(report.verdict.facts)["phase_evidence"])


# ---------------------------------------------------------------- stacks cut at the top


def test_sglang_serving_steps_tell_serving_without_the_loop_above_them(library: Library) -> None:
    """sglang PR #24972's thread: the paste starts inside admission (add_one_req -> init_load_back)."""
    base = "/home/baoskee/.venv/lib/python3.12/site-packages/sglang/srt"
    found = library.frames.phase_of(
        _stack(
            f'  File "{base}/managers/schedule_policy.py", line 878, in add_one_req',
            f'  File "{base}/mem_cache/unified_radix_cache.py", line 1390, in init_load_back',
            f'  File "{base}/mem_cache/unified_radix_cache.py", line 1240, in load_back',
        )
    )
    assert found is not None and found.phase == "runtime" and found.frame.func == "add_one_req"


def test_sglang_capture_cut_above_the_runner_still_says_start_up(library: Library) -> None:
    found = library.frames.phase_of(
        _stack(
            f'  File "{SGL}/model_executor/cuda_graph_runner.py", line 732, in capture_one_batch_size',
            f'  File "{SGL}/model_executor/cuda_graph_runner.py", line 719, in run_once',
            f'  File "{SGL}/model_executor/model_runner.py", line 2110, in forward',
        )
    )
    assert found is not None and found.phase == "init" and found.frame.func == "capture_one_batch_size"


def test_the_models_forward_alone_tells_no_phase(library: Library) -> None:
    """sglang's forward runs in CUDA-graph capture and in the dynamic-chunking profile before ready."""
    stack = _stack(
        f'  File "{SGL}/model_executor/model_runner.py", line 2110, in forward',
        f'  File "{SGL}/model_executor/model_runner.py", line 1985, in forward_extend',
    )
    assert library.frames.phase_of(stack) is None


def test_vllm_v0_profiling_through_execute_model_stays_start_up(library: Library) -> None:
    """V0's profile_run reaches execute_model (a serving step's name) through _dummy_run."""
    base = "/usr/local/conda/lib/python3.10/site-packages/vllm"
    found = library.frames.phase_of(
        _stack(
            f'  File "{base}/worker/worker.py", line 229, in determine_num_available_blocks',
            f'  File "{base}/worker/model_runner.py", line 1235, in profile_run',
            f'  File "{base}/worker/model_runner.py", line 1346, in _dummy_run',
            f'  File "{base}/worker/model_runner.py", line 1720, in execute_model',
        )
    )
    assert found is not None and found.phase == "init" and found.frame.func == "determine_num_available_blocks"


def test_tensorrt_llm_executor_creation_is_start_up(library: Library) -> None:
    """Model-Optimizer#1933: TensorRT-LLM's worker dies loading the model inside create_py_executor."""
    base = "/usr/local/lib/python3.12/dist-packages/tensorrt_llm"
    found = library.frames.phase_of(
        _stack(
            f'  File "{base}/executor/worker.py", line 302, in worker_main',
            f'  File "{base}/executor/base_worker.py", line 286, in setup_engine',
            f'  File "{base}/_torch/pyexecutor/py_executor_creator.py", line 516, in create_py_executor',
            f'  File "{base}/_torch/pyexecutor/model_engine.py", line 341, in __init__',
            f'  File "{base}/_torch/pyexecutor/model_loader.py", line 519, in load',
        )
    )
    assert found is not None and found.phase == "init" and found.frame.func == "setup_engine"


def test_tensorrt_llms_executor_loop_alone_tells_no_phase(library: Library) -> None:
    """estimate_max_tokens runs the executor loop on dummy requests before serving: its thread's
    frames are the same in both phases."""
    stack = _stack(
        'File ".../py_executor.py", line 671, in _event_loop_wrapper',
        'File ".../py_executor.py", line 2240, in _executor_loop_overlap',
        'File ".../py_executor.py", line 1828, in _prepare_and_schedule_batch',
    )
    assert library.frames.phase_of(stack) is None
