"""A traceback a logger prints line by line and a paste cuts before its exception (issue 22).

vllm-omni's benchmark client logs `ERROR: send request failed, reason is: Traceback (most recent call
last):` and the frames below, each behind the logger's prefix (vllm-project/vllm-omni#2389). Cut
before the exception, two lines say the most: the header's message (what failed) and the innermost
frame's source line (where). Both are kept, the message first; a bare header (no message) says
nothing the frames do not, and a traceback that goes on to its exception is that exception's.
"""

from __future__ import annotations

from pathlib import Path

from pdlogdoctor.library.patterns import Library

from .conftest import analysed_lines

PREFIX = "ERROR 03-31 18:46:48 [patch.py:236] "
HEADER = PREFIX + "ERROR: send request failed, reason is: Traceback (most recent call last):"
FRAMES = [
    PREFIX + '  File "/usr/local/lib/python3.12/dist-packages/vllm_omni/benchmarks/patch/patch.py", line 163, in send',
    PREFIX + "    data = json.loads(chunk)",
    PREFIX + '  File "/usr/lib/python3.12/json/__init__.py", line 346, in loads',
    PREFIX + "    return _default_decoder.decode(s)",
]
EXCEPTION = PREFIX + "json.decoder.JSONDecodeError: Expecting value: line 1 column 1 (char 0)"


def test_a_cut_tracebacks_announcing_message_leads(tmp_path: Path, library: Library) -> None:
    report = analysed_lines(tmp_path, library, [HEADER, *FRAMES], "benchmark.log")
    assert report.verdict.id == "inconclusive", report.verdict.summary
    summary = report.verdict.summary
    assert "send request failed, reason is:" in summary
    assert summary.index("send request failed") < summary.index("return _default_decoder.decode(s)")


def test_a_bare_header_is_not_kept_beside_the_innermost_frame(tmp_path: Path, library: Library) -> None:
    bare = PREFIX + "Traceback (most recent call last):"
    report = analysed_lines(tmp_path, library, [bare, *FRAMES], "benchmark.log")
    assert "return _default_decoder.decode(s)" in report.verdict.summary
    assert [t.first.line for t in report.unrecognised] == [5]


def test_a_traceback_that_reaches_its_exception_is_the_exceptions(tmp_path: Path, library: Library) -> None:
    report = analysed_lines(tmp_path, library, [HEADER, *FRAMES, EXCEPTION], "benchmark.log")
    assert "JSONDecodeError: Expecting value" in report.verdict.summary
    assert "return _default_decoder.decode(s)" not in report.verdict.summary


# A paste of frames alone: its header and its exception both cut (sgl-project/sglang#12272 as a blind
# round's excerpt posted it: a NIXL bootstrap thread binding its port, down into pyzmq).
BIND_FRAMES = [
    '  File "/sgl-workspace/sglang/python/sglang/srt/disaggregation/nixl/conn.py", line 139, in __init__',
    "    self._start_bootstrap_thread()",
    '  File "/sgl-workspace/sglang/python/sglang/srt/disaggregation/common/conn.py", line 96, in _bind_server_socket',
    "    self.server_socket.bind(format_tcp_address(self.local_ip, self.rank_port))",
    '  File "/usr/local/lib/python3.12/dist-packages/zmq/sugar/socket.py", line 320, in bind',
    "    super().bind(addr)",
    '  File "zmq/backend/cython/_zmq.py", line 1009, in zmq.backend.cython._zmq.Socket.bind',
]
# vLLM's engine core, cut the same way inside torch (frames.toml's examples and a blind round's paste).
ENGINE_FRAMES = [
    '  File "/usr/local/lib/python3.12/dist-packages/vllm/v1/engine/core.py", line 264, in run_engine_core',
    "    engine_core.run_busy_loop()",
    '  File "/workspace/my_connector/worker.py", line 88, in register_kv_caches',
    "    self.agent.register_memory(descs)",
    '  File "/usr/lib/python3.12/threading.py", line 355, in wait',
    "    waiter.acquire()",
]


def test_a_paste_of_frames_alone_quotes_the_programs_innermost_call(tmp_path: Path, library: Library) -> None:
    report = analysed_lines(tmp_path, library, BIND_FRAMES, "excerpt.log")
    assert report.verdict.id == "inconclusive", report.verdict.summary
    assert "self.server_socket.bind(format_tcp_address(" in report.verdict.summary
    assert [t.first.line for t in report.unrecognised] == [4]


def test_python_s_own_library_is_no_programs_frame(tmp_path: Path, library: Library) -> None:
    report = analysed_lines(tmp_path, library, ENGINE_FRAMES, "pasted.txt")
    assert report.verdict.id == "inconclusive", report.verdict.summary
    assert "self.agent.register_memory(descs)" in report.verdict.summary


def test_frames_that_reach_their_exception_add_no_line(tmp_path: Path, library: Library) -> None:
    lines = [*BIND_FRAMES, "zmq.error.ZMQError: Address already in use (addr='tcp://10.0.0.7:8998')"]
    report = analysed_lines(tmp_path, library, lines, "excerpt.log")
    assert "Address already in use" in report.verdict.summary
    assert all(t.first.line == len(lines) for t in report.unrecognised)


def test_a_stack_dump_or_one_quoted_frame_is_no_cut_traceback(tmp_path: Path, library: Library) -> None:
    dump = [
        "Thread 0x00007f1c2a7fc640 (most recent call first):",
        '  File "/usr/lib/python3.12/threading.py", line 355 in wait',
        '  File "/usr/local/lib/python3.12/dist-packages/vllm/v1/engine/core.py", line 264 in run_engine_core',
    ]
    one = ["the hang is here:", BIND_FRAMES[2], BIND_FRAMES[3]]
    for name, lines in (("dump.txt", dump), ("one.txt", one)):
        folder = tmp_path / name
        folder.mkdir()
        report = analysed_lines(folder, library, lines, name)
        # the dump is a line of its own kind (sources.toml's thread dump), never a cut traceback's
        assert all(t.marker != "traceback-source" for t in report.unrecognised), (name, report.verdict.summary)


# kvcache-ai/Mooncake#1986 as a blind round's excerpt posted it: gdb's backtrace of the thread that
# crashed, its frames' arguments left out, no signal's line above.
GDB = [
    "#0  __memcpy_avx512_unaligned_erms ()",
    "    at ../sysdeps/x86_64/multiarch/memmove-vec-unaligned-erms.S:265",
    "#1  mooncake::MemcpyWorkerPool::workerThread ()",
    "    from .../site-packages/mooncake/store.so",
    "#2  std::execute_native_thread_routine",
    "#3  start_thread",
    "#4  clone3",
]


def test_a_pasted_native_backtrace_quotes_its_innermost_own_frame(tmp_path: Path, library: Library) -> None:
    report = analysed_lines(tmp_path, library, GDB, "gdb-backtrace.txt")
    assert report.verdict.id == "inconclusive", report.verdict.summary
    assert "mooncake::MemcpyWorkerPool::workerThread ()" in report.verdict.summary
    # gdb's #0 frame (the error layer's line) and the innermost frame outside the C library (the paste's)
    assert sorted(t.first.line for t in report.unrecognised) == [1, 3]
    assert all(t.marker == "gdb-backtrace" for t in report.unrecognised)


def test_a_list_of_issue_numbers_is_no_backtrace(tmp_path: Path, library: Library) -> None:
    lines = ["Fixed in:", "#1234  Fix the KV pool's size on MI355X", "#1240  Retry the bootstrap on refused"]
    report = analysed_lines(tmp_path, library, lines, "notes.txt")
    assert report.verdict.id != "inconclusive", report.verdict.summary


# sgl-project/sglang#14942 as a blind round's excerpt posted it: the scheduler's serving loop down to the
# call that raised, the exception's line cut.
SERVING_FRAMES = [
    '  File "/host_home/sglang/python/sglang/srt/managers/scheduler.py", line 993, in event_loop_normal',
    "    result = self.run_batch(batch)",
    "             ^^^^^^^^^^^^^^^^^^^^^",
    '  File "/host_home/sglang/python/sglang/srt/speculative/eagle_info.py", line 111, in prepare_for_verify',
    "    batch.out_cache_loc = alloc_token_slots(",
    "                          ^^^^^^^^^^^^^^^^^^",
]


def test_a_cut_traceback_through_the_serving_loop_is_a_crash_while_serving(tmp_path: Path, library: Library) -> None:
    report = analysed_lines(tmp_path, library, SERVING_FRAMES, "scheduler.log")
    assert report.verdict.id == "scheduler-runtime-crash", report.verdict.summary
    assert report.verdict.confidence < 0.5
    assert "an exception the paste cuts off" in report.verdict.summary
    assert "alloc_token_slots(" in report.verdict.summary and "event_loop_normal" in report.verdict.summary
    assert ("raised_under", "batch.out_cache_loc = alloc_token_slots(") in report.verdict.facts


def test_a_cut_traceback_that_ends_in_a_wait_is_no_crash(tmp_path: Path, library: Library) -> None:
    """A stack cut where a thread blocks (threading's wait) shows where it waited: a hang's, or one interrupted."""
    report = analysed_lines(tmp_path, library, ENGINE_FRAMES, "pasted.txt")
    assert report.verdict.id == "inconclusive", report.verdict.summary


def test_frames_behind_a_tag_every_row_shares_are_a_cut_traceback(tmp_path: Path, library: Library) -> None:
    """vllm-project/vllm#53900 as posted: each row keeps the logger's `[multiproc_executor.py:944]` and no
    more, so no source row is indented; the tag taken off, the frames are read as any paste's."""
    tagged = ["[multiproc_executor.py:944]" + row for row in BIND_FRAMES[:-1]]
    report = analysed_lines(tmp_path, library, tagged, "excerpt.log")
    assert report.verdict.id not in ("healthy", "no-failure-seen"), report.verdict.summary
    assert "excerpt.log:4: self.server_socket.bind(" in report.verdict.summary
    # the same tag on one row only is no shared tag: the rows stay as written, and nothing is a frame
    mixed = [BIND_FRAMES[0], *tagged[1:]]
    (tmp_path / "mixed").mkdir()
    assert analysed_lines(tmp_path / "mixed", library, mixed, "excerpt.log").verdict.id == "no-failure-seen"


def test_a_viewers_time_rows_between_frames_do_not_cut_them(tmp_path: Path, library: Library) -> None:
    """NVIDIA/TensorRT-LLM#13179 as copied from a log viewer: the time of each line on a row of its own
    between the frame rows; the rows keep their numbers, the quoted call is the innermost own one."""
    stamped = [row for frame in BIND_FRAMES[:-1] for row in ("\t\t2026-04-18 12:59:31.370\t", frame)]
    report = analysed_lines(tmp_path, library, stamped, "excerpt.log")
    assert report.verdict.id not in ("healthy", "no-failure-seen"), report.verdict.summary
    assert "excerpt.log:8: self.server_socket.bind(" in report.verdict.summary
    # the viewer's time after each line instead, the paste ending in one
    (tmp_path / "after").mkdir()
    after = [row for frame in BIND_FRAMES[:-1] for row in (frame, "\t\t2026-04-18 12:59:31.370\t")]
    report = analysed_lines(tmp_path / "after", library, after, "excerpt.log")
    assert "excerpt.log:7: self.server_socket.bind(" in report.verdict.summary, report.verdict.summary


# LMCache/LMCache-Ascend#12 as posted: two worker ranks print their tracebacks in the same moment, each
# line behind vLLM's prefix (the rank's process tag, the level, the time, the call site), interleaved;
# the paste ends before either exception line.
RANK0 = "(VllmWorker rank=0 pid=895) ERROR 09-08 21:48:38 [multiproc_executor.py:522] "
RANK1 = "(VllmWorker rank=1 pid=1034) ERROR 09-08 21:48:38 [multiproc_executor.py:522] "
INTERLEAVED_RANKS = [
    "INFO 09-08 21:48:37 [async_llm.py:270] Added request chatcmpl-b4c0bf8e704eb5a6162ac20172de3d4a.",
    RANK0 + '  File "/workspace/vllm-ascend/vllm_ascend/worker/model_runner_v1.py", line 1421, in execute_model',
    RANK1 + '  File "/workspace/LMCache/lmcache/integration/vllm/lmcache_connector_v1.py", line 99, in wait_for_save',
    RANK0 + "    num_scheduled_tokens_np, finished_sending, finished_recving) = (self._process_reqs(",
    RANK1 + "    self._lmcache_engine.wait_for_save()",
    RANK0 + '  File "/workspace/LMCache/lmcache/integration/vllm/vllm_v1_adapter.py", line 731, in wait_for_save',
    RANK1 + '  File "/workspace/LMCache/lmcache/v1/gpu_connector.py", line 293, in batched_from_gpu',
    RANK0 + "    self.lmcache_engine.store(",
    RANK1 + "    self.from_gpu(memory_obj, start, end, **kwargs)",
]


def test_interleaved_ranks_behind_a_loggers_prefix_are_read_one_stack_at_a_time(
    tmp_path: Path, library: Library
) -> None:
    """Each rank's rows, behind the prefix, are a traceback of their own: the last row's rank is read,
    its frames in order (the connector's per-step save: a crash while serving), its innermost call quoted."""
    report = analysed_lines(tmp_path, library, INTERLEAVED_RANKS, "vllm.log")
    assert report.verdict.id == "scheduler-runtime-crash", report.verdict.summary
    assert report.verdict.confidence < 0.5
    assert (
        "vllm.log:9:" in report.verdict.summary
        and "self.from_gpu(memory_obj, start, end, **kwargs)" in report.verdict.summary
    )
    assert ("raised_under", "self.from_gpu(memory_obj, start, end, **kwargs)") in report.verdict.facts
    # rank 0's frames are no part of rank 1's stack: its calls are not in the stack the summary names
    assert "wait_for_save" in report.verdict.summary and "_process_reqs" not in report.verdict.summary


def test_one_ranks_rows_behind_a_prefix_with_another_process_last_are_no_stack(
    tmp_path: Path, library: Library
) -> None:
    """The look-alike: the rows end with a line of another process (the API server's), so the last row's
    process printed no frames: nothing is read as a cut traceback."""
    lines = [*INTERLEAVED_RANKS[1:], "INFO 09-08 21:48:39 [async_llm.py:270] Added request chatcmpl-5d2."]
    report = analysed_lines(tmp_path, library, lines, "vllm.log")
    assert report.verdict.id == "inconclusive", report.verdict.summary
    assert "an exception the paste cuts off" not in report.verdict.summary
    assert not any(name == "raised_under" for name, _ in report.verdict.facts)


# vllm-project/vllm#7699 as posted: a worker's NCCL error logged with its traceback, then the engine
# process's own traceback (multiprocessing's `Process Process-1:`), cut in AsyncLLMEngine's constructor.
V0_PROCESS = "/usr/local/lib/python3.10/dist-packages/vllm/"
V0_WORKER_THEN_PROCESS = [
    "ERROR 08-19 21:33:11 worker_base.py:386]   File "
    f'"{V0_PROCESS}distributed/device_communicators/pynccl_wrapper.py", line 223, in NCCL_CHECK',
    'ERROR 08-19 21:33:11 worker_base.py:386]     raise RuntimeError(f"NCCL error: {error_str}")',
    "ERROR 08-19 21:33:11 worker_base.py:386] RuntimeError: NCCL error: invalid usage "
    "(run with NCCL_DEBUG=WARN for details)",
    "Process Process-1:",
    "Traceback (most recent call last):",
    '  File "/usr/lib/python3.10/multiprocessing/process.py", line 314, in _bootstrap',
    "    self.run()",
    f'  File "{V0_PROCESS}entrypoints/openai/rpc/server.py", line 217, in run_rpc_server',
    "    server = AsyncEngineRPCServer(async_engine_args, usage_context, port)",
    f'  File "{V0_PROCESS}engine/async_llm_engine.py", line 471, in from_engine_args',
    "    engine = cls(",
]


def test_the_traceback_of_an_exceptions_own_process_places_its_crash(tmp_path: Path, library: Library) -> None:
    """The worker's exception says nothing of where its process was; the process's own traceback below
    it, cut in the engine's construction (from_engine_args), says start-up: a crash at start-up, as a lead."""
    report = analysed_lines(tmp_path, library, V0_WORKER_THEN_PROCESS, "excerpt.log")
    assert report.verdict.id == "scheduler-init-crash", report.verdict.summary
    assert report.verdict.confidence < 0.5
    assert "RuntimeError: NCCL error: invalid usage" in report.verdict.summary
    assert "building its engine" in report.verdict.summary
    # the look-alike: the same exception without its process's traceback places nothing
    (tmp_path / "alone").mkdir()
    alone = analysed_lines(tmp_path / "alone", library, V0_WORKER_THEN_PROCESS[:3], "excerpt.log")
    assert alone.verdict.id == "inconclusive", alone.verdict.summary


# vLLM's worker prints its traceback row by row behind its prefix; a paste cut inside torch's c10d
# wrapper (round 158's excerpt from vllm-project/vllm#45092: vllm-ascend's data-parallel sync calling
# Gloo's all_reduce). The program's own deepest call is where it failed; the wrapper's
# `return func(*args, **kwargs)` below it is torch's, and repeated higher up the same stack.
WORKER = "(Worker_DP0_TP0_EP0 pid=5609) ERROR 06-04 12:45:50 [v1/executor/multiproc_executor.py:932] "
ASCEND = "/vllm-workspace/vllm-ascend/vllm_ascend/worker/model_runner_v1.py"
TORCH = "/usr/local/python3.11.14/lib/python3.11/site-packages/torch"
C10D = f'  File "{TORCH}/distributed/c10d_logger.py", line 81, in wrapper'
DP_SYNC = [
    WORKER + "    return func(*args, **kwargs)",
    WORKER + f'  File "{ASCEND}", line 1203, in execute_model',
    WORKER + "    ) = self._determine_batch_execution_and_padding(",
    WORKER + f'  File "{ASCEND}", line 1902, in _sync_batch_across_dp',
    WORKER + "    dist.all_reduce(tensor, group=get_dp_group().cpu_group)",
    WORKER + C10D,
    WORKER + "    return func(*args, **kwargs)",
]
# The same cut under vLLM's own communicator, from a source checkout (a variation: another own frame).
COMMUNICATOR = "/vllm-workspace/vllm/vllm/distributed/device_communicators/cuda_communicator.py"
TP_REDUCE = [
    WORKER + f'  File "{COMMUNICATOR}", line 127, in all_reduce',
    WORKER + "    torch.distributed.all_reduce(out, group=self.device_group)",
    WORKER + C10D,
    WORKER + "    return func(*args, **kwargs)",
]


def test_a_cut_stack_names_the_programs_own_call_not_the_wrapper_below(tmp_path: Path, library: Library) -> None:
    for rows, call in ((DP_SYNC, "dist.all_reduce(tensor, group=get_dp_group().cpu_group)"),
                       (TP_REDUCE, "torch.distributed.all_reduce(out, group=self.device_group)")):  # fmt: skip
        report = analysed_lines(tmp_path, library, rows, "excerpt.log")
        summary = report.verdict.summary
        assert report.verdict.id == "inconclusive", summary
        assert call in summary and "return func(*args, **kwargs)" not in summary, summary
