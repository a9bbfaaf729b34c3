"""What a crashed process said last, read where it stands.

- A carriage return pasted as the two characters `^M` (as `cat -v`, vim and less show it) ends no line's
  words: a traceback's frames still read as frames.
- A line with no time of its own is marked inferred (it was written at or after the stamped line above it),
  so glibc's assertion printed between a health check and the crash it caused stands beside that crash,
  whose own exception (vLLM V1's `EngineDeadError`) only points at the stack above it.
- A crash that names its exception still quotes the error its process logged in the same moment just
  above it.
- An exception a logger wrote at its level (`ERROR ... [engine.py:164] IndexError('...')`, vLLM V0's
  `repr(e)`) is read as the exception it is, its process's own cut traceback below it placing the crash.
"""

from __future__ import annotations

from pathlib import Path

from pdlogdoctor.library.patterns import Library, match_line
from pdlogdoctor.model import Report
from pdlogdoctor.pipeline import run
from pdlogdoctor.scan.timeline import clean_line

# vllm-project/vllm#6716: Triton's assertion, as glibc prints it before it aborts the process.
TRITON_ASSERT = (
    "python3: /project/lib/Analysis/Allocation.cpp:43: std::pair<llvm::SmallVector, llvm::SmallVector > "
    "mlir::triton::getCvtOrder(mlir::Attribute, mlir::Attribute): Assertion `!(srcMmaLayout && dstMmaLayout "
    "&& !srcMmaLayout.isAmpere())' failed."
)
# vLLM V1's lines (vllm/v1/executor/multiproc_executor.py, core_client.py, engine/exceptions.py).
V1_SERVED = '(APIServer pid=1) INFO:     10.1.1.182:44467 - "GET /health HTTP/1.1" 200 OK'
V1_STARTED = "(APIServer pid=1) INFO 07-14 09:24:53 [api_server.py:1620] Supported_tasks: ['generate']"
V1_WORKER_DIED = (
    "(EngineCore_DP0 pid=24) ERROR 07-14 09:27:43 [multiproc_executor.py:227] Worker proc VllmWorker-0 died "
    "unexpectedly, shutting down executor."
)
V1_CORE_DIED = (
    "(APIServer pid=1) ERROR 07-14 09:27:43 [core_client.py:598] Engine core proc EngineCore_DP0 died "
    "unexpectedly, shutting down client."
)
V1_DEAD = (
    "(APIServer pid=1) ERROR 07-14 09:27:43 [async_llm.py:480] vllm.v1.engine.exceptions.EngineDeadError: "
    "EngineCore encountered an issue. See stack trace (above) for the root cause."
)


def _report(tmp_path: Path, library: Library, name: str, lines: list[str]) -> Report:
    (tmp_path / name).write_text("\n".join(lines) + "\n")
    return run([str(tmp_path)], library)


def test_a_caret_return_ends_no_words() -> None:
    frame = '  File "/opt/vllm/vllm/engine/multiprocessing/engine.py", line 162, in start^M'
    assert clean_line(frame)[0] == '  File "/opt/vllm/vllm/engine/multiprocessing/engine.py", line 162, in start'
    assert clean_line("cost: 3^Mb")[0] == "cost: 3^Mb"  # inside a line: text


def test_an_assertion_just_above_a_crash_is_what_it_died_of(tmp_path: Path, library: Library) -> None:
    lines = [V1_STARTED, V1_SERVED, V1_SERVED, TRITON_ASSERT, V1_WORKER_DIED, V1_CORE_DIED, V1_DEAD]
    report = _report(tmp_path, library, "decode.log", lines)
    assert report.verdict.id == "scheduler-runtime-crash"
    assert "Assertion `!(srcMmaLayout && dstMmaLayout" in report.verdict.summary


def test_an_assertion_that_is_not_near_the_crash_is_not_its_cause(tmp_path: Path, library: Library) -> None:
    # Two hours of stamped lines between them: the assertion was written before the first of them.
    later = [
        f"(APIServer pid=1) INFO 07-14 {hour}:30:00 [loggers.py:118] Engine 000: Avg prompt throughput: 0.0 "
        "tokens/s, Avg generation throughput: 12.0 tokens/s, Running: 1 reqs, Waiting: 0 reqs, GPU KV cache "
        "usage: 0.1%, Prefix cache hit rate: 0.0%"
        for hour in ("09", "10", "11")
    ]
    dead = [line.replace("07-14 09:27:43", "07-14 11:31:00") for line in (V1_WORKER_DIED, V1_CORE_DIED, V1_DEAD)]
    report = _report(tmp_path, library, "decode.log", [V1_STARTED, TRITON_ASSERT, *later, *dead])
    assert report.verdict.id == "scheduler-runtime-crash"
    assert "the likeliest reason it died" not in report.verdict.summary


def test_an_error_just_above_a_named_crash_is_quoted_beside_it(tmp_path: Path, library: Library) -> None:
    # gpustack/gpustack#3551: MindIE's own error, then the C++ exception that ended the daemon.
    lines = [
        "[2025-11-25 17:59:09.908267] [240] [245] [llm] [ERROR] [executor.cpp:646] Invalid DP number per node: 0",
        "terminate called after throwing an instance of 'std::out_of_range'",
        "  what():  _Map_base::at",
    ]
    report = _report(tmp_path, library, "excerpt.log", lines)
    assert report.verdict.id == "scheduler-crash"
    assert "std::out_of_range" in report.verdict.summary
    assert "Invalid DP number per node: 0" in report.verdict.summary


def test_a_logged_exception_repr_over_its_cut_traceback_is_a_crash(tmp_path: Path, library: Library) -> None:
    # vllm-project/vllm#18834: vLLM V0's MQLLMEngine logs repr(e), then the traceback the capture cuts.
    prefix = "ERROR 05-28 10:18:40 [engine.py:164] "
    lines = [
        "INFO 05-28 10:17:20 [api_server.py:1090] Starting vLLM API server on http://0.0.0.0:8200",
        'INFO:     127.0.0.1:40588 - "POST /v1/completions HTTP/1.1" 200 OK',
        prefix + "IndexError('Dimension out of range (expected to be in range of [-2, 1], but got 2)')",
        prefix + "Traceback (most recent call last):",
        prefix + '  File "/opt/vllm/vllm/engine/multiprocessing/engine.py", line 162, in start',
        prefix + "    self.run_engine_loop()",
        prefix + '  File "/opt/vllm/vllm/engine/multiprocessing/engine.py", line 225, in run_engine_loop',
        prefix + "    request_outputs = self.engine_step()",
        prefix + '  File "/opt/vllm/vllm/engine/llm_engine.py", line 1393, in step',
        prefix + "    outputs = self.model_executor.execute_model(",
    ]
    report = _report(tmp_path, library, "decode.log", lines)
    assert report.verdict.id == "scheduler-runtime-crash"
    assert "Dimension out of range" in report.verdict.summary


def test_a_traceback_behind_a_launchers_process_tag_is_read_behind_it(tmp_path: Path, library: Library) -> None:
    # kyuz0/amd-strix-halo-vllm-toolboxes#80: vLLM's engine core printing its traceback to stderr behind
    # the launcher's `(EngineCore pid=N)` tag, no level; a Ray worker's RCCL lines above it.
    tag = "(EngineCore pid=6685) "
    lines = [
        "(EngineCore pid=6685) (RayWorkerProc pid=4775, ip=192.168.100.2) toolbox:4775:4775 [0] NCCL INFO RCCL version "
        ": 2.30.4-HEAD:2b22ab0",
        tag + "    self.device_communicator = device_comm_cls(",
        tag + '  File "/opt/venv/lib/python3.12/site-packages/vllm/distributed/device_communicators/'
        'cuda_communicator.py", line 86, in __init__',
        tag + "    self.pynccl_comm = PyNcclCommunicator(",
        tag + '  File "/opt/venv/lib/python3.12/site-packages/vllm/distributed/device_communicators/pynccl.py", '
        "line 137, in __init__",
    ]
    report = _report(tmp_path, library, "excerpt.log", lines)
    assert report.verdict.id == "scheduler-init-crash"
    assert "PyNcclCommunicator(" in report.verdict.summary


def test_a_glibc_assertion_is_a_native_crash_a_device_assert_is_not_it(library: Library) -> None:
    assertion = library.pattern("native-assertion-abort")
    mori = (
        "cheduler_DP2_TP2_EP2: /sgl-workspace/mori/src/application/transport/rdma/providers/ionic/ionic.cpp:350: "
        "void mori::application::IonicQpContainer::ModifyInit2Rtr(const RdmaEndpointHandle &, const ibv_port_attr &, "
        "uint32_t): Assertion `err == 0' failed."
    )
    assert match_line(assertion, mori) is not None  # the program's name cut: the line is still its assertion
    device = (
        "/root/pytorch/aten/src/ATen/native/cuda/Indexing.cu:1478: indexSelectSmallIndex: block: [16,0,0], "
        "thread: [0,0,0] Assertion `srcIndex < srcSelectDimSize` failed."
    )
    assert match_line(assertion, device) is None
