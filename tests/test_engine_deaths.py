"""How an engine's death is read when the lines around it are not the usual ones (issue 22, rounds 161
and 162).

Four readings, each with the look-alike that must read otherwise:
- a traceback written behind its process's tag goes on past lines another stream wrote between its
  lines: its exception is the tagged one, not an extension's bare message (vllm-project/vllm#30346);
- an engine's hardware plugin (vllm_gaudi, vllm_ascend) is the engine's own code: a cut stack's
  innermost frame is the plugin's, not the engine frame that called it;
- a serving loop's crash while the server still answered its health check with 503 (sglang answers
  so until its own warmup request came back) was in that warmup: start-up, not serving; a healthy
  answer between them leaves it to serving;
- a table's value written with thousands separators (`1,703 s`) is a number.
"""

from __future__ import annotations

from pathlib import Path

from pdlogdoctor.library.fields import convert_field
from pdlogdoctor.library.patterns import Library

from .conftest import analysed_files, analysed_lines

TAG = "(EngineCore_DP0 pid=55) "
CORE = "/usr/local/lib/python3.12/dist-packages/vllm/v1/engine/core.py"
ENGINE_CORE_DEATH = [
    TAG + "Process EngineCore_DP0:",
    TAG + "Traceback (most recent call last):",
    TAG + f'  File "{CORE}", line 701, in run_engine_core',
    TAG + "    engine_core.run_busy_loop()",
    TAG + f'  File "{CORE}", line 728, in run_busy_loop',
    TAG + "    scheduler_output = self.scheduler.schedule()",
]
EXCEPTION = (
    TAG + "RuntimeError: [06:33:23] /project/cpp/json_schema_converter.cc:2181: items must be a boolean or an object"
)


def test_another_streams_line_inside_a_tagged_traceback_is_not_its_exception(tmp_path: Path, library: Library) -> None:
    # nanobind reports its leaks on the bare stderr as the interpreter exits, between the frames
    lines = [*ENGINE_CORE_DEATH[:4], "nanobind: leaked 1 instances!", *ENGINE_CORE_DEATH[4:], EXCEPTION]
    report = analysed_lines(tmp_path, library, lines, "excerpt.log")
    assert report.verdict.id == "scheduler-runtime-crash", report.verdict.summary
    assert "items must be a boolean or an object" in report.verdict.summary
    assert "nanobind" not in report.verdict.summary


def test_an_untagged_traceback_still_ends_at_its_first_flush_left_line(tmp_path: Path, library: Library) -> None:
    # the same lines with no process tag: nothing tells another stream's line apart
    bare = [line.removeprefix(TAG) for line in (*ENGINE_CORE_DEATH[:4], EXCEPTION)]
    report = analysed_lines(tmp_path, library, bare, "excerpt.log")
    assert "items must be a boolean or an object" in report.verdict.summary


GAUDI = "(EngineCore_DP0 pid=1079040) "
LOGGED = GAUDI + "ERROR 01-21 06:56:31 [core.py:935] "
PLUGIN_STACK = [
    GAUDI + "INFO 01-21 06:55:29 [runtime.py:28] User flags:",
    LOGGED + '  File "/mnt/vllm/vllm/v1/executor/uniproc_executor.py", line 75, in collective_rpc',
    LOGGED + "    result = run_method(self.driver_worker, method, args, kwargs)",
    LOGGED + '  File "/mnt/vllm/vllm/v1/worker/worker_base.py", line 320, in initialize_from_config',
    LOGGED + "    self.worker.initialize_from_config(kv_cache_config)",
    LOGGED + '  File "/mnt/vllm-gaudi/vllm_gaudi/v1/worker/hpu_worker.py", line 292, in initialize_from_config',
    LOGGED + "    self.compile_or_warm_up_model()",
]


def test_a_plugins_frame_is_the_engines_own(tmp_path: Path, library: Library) -> None:
    report = analysed_lines(tmp_path, library, PLUGIN_STACK, "excerpt.log")
    assert report.verdict.id == "scheduler-init-crash", report.verdict.summary
    assert "hpu_worker.py:292" in report.verdict.summary
    assert "worker_base.py:320" not in report.verdict.summary


def test_a_library_below_the_engine_is_still_not_its_frame(tmp_path: Path, library: Library) -> None:
    torch_frame = [
        LOGGED + '  File "/usr/lib/python3/site-packages/torch/nn/modules/module.py", line 1773, in _call_impl',
        LOGGED + "    return forward_call(*args, **kwargs)",
    ]
    report = analysed_lines(tmp_path, library, [*PLUGIN_STACK, *torch_frame], "excerpt.log")
    assert "hpu_worker.py:292" in report.verdict.summary
    assert "module.py" not in report.verdict.summary


def _sglang_prefill(between: list[str]) -> list[str]:
    """An sglang prefill that sized its pool, listened, answered its health check 503, ran one small
    batch and crashed in its serving loop; `between`: lines after the 503, before the batch."""
    return [
        "[2025-11-19 14:45:10] server_args=ServerArgs(model_path='Llama-3.3-70B', disaggregation_mode='prefill')",
        "[2025-11-19 14:45:16 TP0] KV Cache is allocated. #tokens: 1034752, K size: 0.25 GB, V size: 0.25 GB",
        "[2025-11-19 14:49:44] INFO:     Uvicorn running on http://0.0.0.0:30000 (Press CTRL+C to quit)",
        '[2025-11-19 14:49:45] INFO:     10.20.0.5:51220 - "GET /health HTTP/1.1" 503 Service Unavailable',
        *between,
        "[2025-11-19 14:49:49 TP0] Prefill batch. #new-seq: 1, #new-token: 4, #cached-token: 0, token usage: 0.00, "
        "#unbootstrapped-req: 0, #queue-req: 0, #transferring-req: 0, input throughput (token/s): 0.00, ",
        "[2025-11-19 14:49:50 TP0] Scheduler hit an exception: Traceback (most recent call last):",
        '  File "/sgl-workspace/sglang/python/sglang/srt/managers/scheduler.py", line 2746, in run_scheduler_process',
        "    scheduler.event_loop_normal_disagg_prefill()",
        '  File "/sgl-workspace/sglang/python/sglang/srt/disaggregation/prefill.py", line 460, '
        "in process_batch_result_disagg_prefill",
        "    self.send_kv_chunk(req, last_chunk=True)",
        "",
        "[2025-11-19 14:49:50] Received sigquit from a child process. It usually means the child failed.",
    ]


def test_a_crash_while_the_server_still_says_not_ready_is_in_its_warmup(tmp_path: Path, library: Library) -> None:
    report = analysed_files(tmp_path / "run", library, {"prefill.log": _sglang_prefill([])})
    assert report.verdict.id == "scheduler-init-crash", report.verdict.summary
    assert '"GET /health HTTP/1.1" 503' in report.verdict.summary


def test_a_healthy_answer_after_the_503_leaves_the_crash_to_serving(tmp_path: Path, library: Library) -> None:
    healthy = ['[2025-11-19 14:49:47] INFO:     10.20.0.5:51230 - "GET /health HTTP/1.1" 200 OK']
    report = analysed_files(tmp_path / "run", library, {"prefill.log": _sglang_prefill(healthy)})
    assert report.verdict.id == "scheduler-runtime-crash", report.verdict.summary


def test_thousands_separators_are_read_as_one_number() -> None:
    assert convert_field("float", "2,344.64") == 2344.64
    assert convert_field("duration", "1,703 s") == 1703.0
    assert convert_field("float", "1,5") is None  # a decimal comma is no thousands separator
    assert convert_field("duration", "12,5 s") is None


def test_the_api_servers_engine_dead_line_says_the_core_was_serving(tmp_path: Path, library: Library) -> None:
    # the engine core's own traceback, read whole, is the root; the API server's EngineDeadError in the
    # same file is written only once requests were served: the phase is certain, not left to no ready line
    dead = (
        "(APIServer pid=1) ERROR 05-05 12:36:59 [serving.py:1173] vllm.v1.engine.exceptions.EngineDeadError: "
        "EngineCore encountered an issue. See stack trace (above) for the root cause."
    )
    report = analysed_lines(tmp_path, library, [*ENGINE_CORE_DEATH, EXCEPTION, dead], "excerpt.log")
    assert report.verdict.id == "scheduler-runtime-crash", report.verdict.summary
    assert "only a serving server writes" in report.verdict.summary


# ---------------------------------------------------------------- round 163

HF3FS = [
    '  File "/path/to/sglang/srt/mem_cache/storage/hf3fs/storage_hf3fs.py", line 220, in __init__',
    "    self.num_pages = self.file_size // self.bytes_per_page",
    "ZeroDivisionError: integer division or modulo by zero",
]


def test_a_storage_backend_that_raised_in_its_constructor_died_at_start_up(tmp_path: Path, library: Library) -> None:
    # sgl-project/sglang#34969: HiCache's 3FS backend is built with the scheduler's cache, at start-up
    report = analysed_lines(tmp_path, library, HF3FS, "excerpt.log")
    assert report.verdict.id == "scheduler-init-crash", report.verdict.summary
    assert report.verdict.confidence < 0.5  # an exception no pattern names: a lead
    assert "ZeroDivisionError: integer division or modulo by zero" in report.verdict.summary


def test_a_radix_tree_node_built_while_serving_places_no_crash(tmp_path: Path, library: Library) -> None:
    node = [
        '  File "/sgl-workspace/sglang/python/sglang/srt/mem_cache/radix_cache.py", line 88, in __init__',
        "    self.id = TreeNode.counter",
        "AttributeError: type object 'TreeNode' has no attribute 'counter'",
    ]
    report = analysed_lines(tmp_path, library, node, "excerpt.log")
    assert report.verdict.id == "inconclusive", report.verdict.summary


def test_the_engine_init_sentence_alone_is_vllms_start_up_failure(tmp_path: Path, library: Library) -> None:
    report = analysed_lines(tmp_path, library, ["RuntimeError: Engine core initialization failed."], "apiserver.log")
    assert report.verdict.id == "scheduler-init-crash", report.verdict.summary


OFI_NO_FABRIC = (
    "[2025-10-16 22:16:08] ip-172-31-3-90:1929:1937 [0] nccl_net_ofi_rdma_init:7978 NCCL WARN NET/OFI OFI "
    "fi_getinfo() call failed: No data available"
)


def test_nccls_ofi_plugin_finding_no_fabric_is_an_rdma_path_that_cannot_be_set_up(
    tmp_path: Path, library: Library
) -> None:
    # aws/aws-ofi-nccl#1020: a container started without the EFA devices
    report = analysed_lines(tmp_path, library, [OFI_NO_FABRIC], "excerpt.log")
    assert report.verdict.id == "rdma-link-failure", report.verdict.summary
    assert "fi_getinfo() call failed: No data available" in report.verdict.summary


def test_the_ofi_plugins_wrappers_alone_name_no_missing_fabric(tmp_path: Path, library: Library) -> None:
    wrappers = [
        "nccl_net_ofi_create_plugin:261 NCCL WARN NET/OFI Unable to find a protocol that worked.  Failing "
        "initialization.",
        "nccl_net_ofi_init:134 NCCL WARN NET/OFI Initializing plugin failed",
    ]
    report = analysed_lines(tmp_path, library, wrappers, "excerpt.log")
    assert report.verdict.id == "inconclusive", report.verdict.summary
