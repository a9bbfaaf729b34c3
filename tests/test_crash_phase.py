"""A crash's phase comes from evidence, never from absence alone (issue 10 item 7).

Evidence, strongest first: a request served (or a ready line) before the crash; the frames of
its stack, read with patterns/frames.toml (the outermost frame a rule names decides); a line that
says so itself; and, only when the log shows the server's start, the lack of a ready line. With
none of these, the report says it cannot tell and keeps both phases open. The native frame the
crash happened in (Mooncake, NIXL, UCX, MORI) is named in the summary and quoted in the chain,
whichever handler printed the stack: the `Segfault encountered` banner, faulthandler, glog's or
abseil's failure signal handler, or gdb.

The stacks below are real (Mooncake#1000's banner, sglang#7338's faulthandler dump) or put
together from the real formats (glog's signalhandler.cc, abseil's failure_signal_handler.cc, gdb's
`bt`) with the real Mooncake symbols of Mooncake#1000.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from pathlib import Path

import pytest

from pdlogdoctor.library.frames import Frame, check_frames, parse_frame
from pdlogdoctor.library.patterns import Library
from pdlogdoctor.model import Report
from pdlogdoctor.pipeline import run
from pdlogdoctor.render.markdown import markdown_report
from pdlogdoctor.render.options import RenderOptions

from .conftest import FIXTURES, ROOT, analysed_lines
from .corpus import REJECTED, case_report

EXCERPTS = ROOT / "tests" / "data" / "excerpts"
INIT, RUNTIME, UNKNOWN = "scheduler-init-crash", "scheduler-runtime-crash", "scheduler-crash"

MOONCAKE_1000 = EXCERPTS / "mooncake-1000-ep-deconstruct-segfault"
SGLANG_7338 = EXCERPTS / "sglang-7338-mooncake-transfer-sync-segfault"

SERVER_ARGS = (
    "[2026-07-02 10:14:11] server_args=ServerArgs(model_path='/models/Qwen3-8B', port=30000, "
    "disaggregation_mode='prefill', disaggregation_transfer_backend='mooncake')"
)
READY = "[2026-07-02 10:15:02] The server is fired up and ready to roll!"
ANSWERED = '[2026-07-02 10:16:03] INFO:     10.0.0.9:40232 - "POST /generate HTTP/1.1" 200 OK'
GLOG_SIGSEGV = [
    '*** Aborted at 1782987364 (unix time) try "date -d @1782987364" if you are using GNU date ***',
    "PC: @     0x7f3a2c1b4f00 ibv_destroy_qp",
    "*** SIGSEGV (@0x0) received by PID 48211 (TID 0x7f3a0bfff640) from PID 0; stack trace: ***",
    "    @     0x7f3a4e842520 (unknown)",
    "    @     0x7f3a2c1b4f00 ibv_destroy_qp",
    "    @     0x7f3a2d0a1c3e mooncake::RdmaEndPoint::deconstruct()",
    "    @     0x7f3a2d0a2011 mooncake::RdmaEndPoint::~RdmaEndPoint()",
    "    @     0x7f3a2d0b5a7d mooncake::WorkerPool::performPostSend()",
    "    @     0x7f3a2d0b6c12 mooncake::WorkerPool::transferWorker()",
    "    @     0x7f3a4e894ac3 (unknown)",
]
GDB_CORE = [
    "Program terminated with signal SIGSEGV, Segmentation fault.",
    "#0  0x00007f3a2c1b4f00 in ibv_destroy_qp () from /lib/x86_64-linux-gnu/libibverbs.so.1",
    "[Current thread is 1 (Thread 0x7f3a0bfff640 (LWP 48299))]",
    "(gdb) bt",
    "#0  0x00007f3a2c1b4f00 in ibv_destroy_qp () from /lib/x86_64-linux-gnu/libibverbs.so.1",
    "#1  0x00007f3a2d0a1c3e in mooncake::RdmaEndPoint::deconstruct() () from /usr/lib/python3/mooncake/engine.so",
    "#2  0x00007f3a2d0b5a7d in mooncake::WorkerPool::performPostSend(int) () from /usr/lib/python3/mooncake/engine.so",
    "#3  0x00007f3a2d0b6c12 in mooncake::WorkerPool::transferWorker(int) () from /usr/lib/python3/mooncake/engine.so",
    "#4  0x00007f3a4e894ac3 in start_thread () from /lib/x86_64-linux-gnu/libc.so.6",
]
# A faulthandler dump whose frames name no start-up or serving step (a CUDA stream sync).
NEUTRAL_SEGFAULT = [
    "Fatal Python error: Segmentation fault",
    "",
    "Current thread 0x00007f3a0bfff640 (most recent call first):",
    '  File "/usr/local/lib/python3.10/dist-packages/torch/cuda/streams.py", line 224 in synchronize',
]
INIT_TRACEBACK = [
    "[2026-07-02 10:14:40 TP0] Scheduler hit an exception: Traceback (most recent call last):",
    '  File "/sgl-workspace/sglang/python/sglang/srt/managers/scheduler.py", line 2297, in run_scheduler_process',
    "    scheduler = Scheduler(",
    '  File "/sgl-workspace/sglang/python/sglang/srt/managers/scheduler.py", line 412, in __init__',
    "    self.tp_worker = TpModelWorker(",
    '  File "/sgl-workspace/sglang/python/sglang/srt/model_executor/model_runner.py", line 571, in initialize',
    "    self.init_memory_pool(",
    '  File "/sgl-workspace/sglang/python/sglang/srt/model_executor/model_runner_kv_cache_mixin.py", line 318, '
    "in init_memory_pool",
    "    per_layer = total // num_layers",
    "ZeroDivisionError: integer division or modulo by zero",
]


def _report(tmp_path: Path, library: Library, lines: list[str], name: str = "prefill.log") -> Report:
    return analysed_lines(tmp_path, library, lines, name)


def _alternatives(report: Report) -> dict[str, bool]:
    """Each alternative verdict: True when it was ruled out, False when it stays open (live)."""
    return {a.id: a.confidence < REJECTED for a in report.alternatives}


def _chain_texts(report: Report) -> list[str]:
    return [event.text for event in report.chain]


def test_the_shipped_frames_table_passes_its_own_examples(library: Library) -> None:
    assert check_frames(library.frames) == []
    assert {rule.phase for rule in library.frames.phases} == {"init", "runtime", "either"}


def test_a_frame_example_an_earlier_rule_decides_is_reported(library: Library) -> None:
    rules = library.frames.phases
    loop = next(rule for rule in rules if rule.id == "sglang-serving-loop")
    broken = replace(library.frames, phases=(loop, *(replace(r, match=loop.match) for r in rules if r is not loop)))
    assert any("decided by sglang-serving-loop" in problem for problem in check_frames(broken))


@pytest.mark.parametrize(
    ("line", "func", "native"),
    [
        ('  File "/sgl/srt/managers/scheduler.py", line 1034, in event_loop_normal', "event_loop_normal", False),
        (
            '  File "/sgl/srt/disaggregation/prefill.py", line 540 in process_batch_result_disagg_prefill',
            "process_batch_result_disagg_prefill",
            False,
        ),
        ('  File "<unknown>", line 0, in nixlUcxWorker::arm() const', "nixlUcxWorker::arm() const", True),
        (
            "    @     0x7f3a2d0a1c3e mooncake::RdmaEndPoint::deconstruct()",
            "mooncake::RdmaEndPoint::deconstruct()",
            True,
        ),
        ("PC: @     0x7f5fba26bfb7  (unknown)  raise", "raise", True),
        (
            "#1  0x00007f3a2d0a1c3e in mooncake::RdmaEndPoint::deconstruct() () from /x/engine.so",
            "mooncake::RdmaEndPoint::deconstruct()",
            True,
        ),
        (
            "#5  mooncake::WorkerPool::transferWorker (this=0x5f, thread_id=3) at /src/worker_pool.cpp:301",
            "mooncake::WorkerPool::transferWorker",
            True,
        ),
        (
            "frame #1: c10d::ProcessGroupNCCL::WorkNCCL::checkTimeout() + 0x2b4 (0x7fd1 in /x/libtorch_cuda.so)",
            "c10d::ProcessGroupNCCL::WorkNCCL::checkTimeout()",
            True,
        ),
        # UCX's backtrace: with its symbol reader (the source file unread: `???`, or nothing) ...
        (
            " 1 0x000000000006751c tensorrt_llm::batch_manager::GptManager::returnCompletedRequests()  :0",
            "tensorrt_llm::batch_manager::GptManager::returnCompletedRequests()",
            True,
        ),
        (" 2 0x000000000008fc91 ucp_get()  ???:0", "ucp_get()", True),
        (
            "0 0x000000000001e2d0 uct_ib_iface_fill_ah_attr_from_gid_lid() /tmp/ucx/src/uct/ib/base/ib_iface.c:746",
            "uct_ib_iface_fill_ah_attr_from_gid_lid()",
            True,
        ),
        # ... and without it, the C library's symbols (a library's offset alone names no function)
        ("    3  /lib/x86_64-linux-gnu/libucp.so.0(ucp_get+0x52) [0x7108781c3e52]", "ucp_get", True),
        ("    1  /lib/x86_64-linux-gnu/libucs.so.0(+0x24fec) [0x710878158fec]", "(unknown)", True),
    ],
)
def test_every_stack_format_is_read_as_a_frame(line: str, func: str, native: bool) -> None:
    frame = parse_frame(line)
    assert frame is not None and frame.func == func and frame.native is native


def test_a_native_frame_names_the_culprit_and_the_transfer_worker_says_serving(library: Library) -> None:
    """Mooncake#1000: no ready line and no start in the lines; the transfer worker frame says
    serving (at low confidence, start-up kept open) and the Mooncake frame is the culprit."""
    report = run([str(MOONCAKE_1000)], library)
    assert report.verdict.id == RUNTIME and report.verdict.confidence <= 0.6
    assert _alternatives(report).get(INIT) is False
    summary = report.verdict.summary
    assert "while serving" in summary and "in mooncake::RdmaEndPoint::deconstruct() (Mooncake" in summary
    assert "at ibv_destroy_qp" in summary
    frame = next(e for e in report.chain if "mooncake::RdmaEndPoint::deconstruct()" in e.text)
    assert frame.line == 4 and frame.pattern == "native-segfault-banner"
    assert "mooncake::WorkerPool::transferWorker" in dict(report.verdict.facts)["phase_evidence"]


def test_a_python_transfer_thread_says_serving(library: Library) -> None:
    """sglang#7338: faulthandler's dump of a KV transfer thread (transfer_sync, process_layer)."""
    report = run([str(SGLANG_7338)], library)
    assert report.verdict.id == RUNTIME and report.verdict.confidence <= 0.6
    assert "transfer_sync" in report.verdict.summary
    assert _alternatives(report).get(INIT) is False


def test_served_requests_make_it_runtime_and_glogs_frames_name_the_culprit(tmp_path: Path, library: Library) -> None:
    report = _report(tmp_path, library, [SERVER_ARGS, READY, ANSWERED, *GLOG_SIGSEGV])
    assert report.verdict.id == RUNTIME
    assert _alternatives(report).get(INIT) is True  # ruled out: it had served
    summary = report.verdict.summary
    assert "while serving" in summary and "SIGSEGV" in summary
    assert "mooncake::RdmaEndPoint::deconstruct()" in summary
    assert "@     0x7f3a2d0a1c3e mooncake::RdmaEndPoint::deconstruct()" in _chain_texts(report)


def test_gdb_frames_name_the_culprit(tmp_path: Path, library: Library) -> None:
    report = _report(tmp_path, library, GDB_CORE, "decode.log")
    assert report.verdict.id == RUNTIME and report.verdict.confidence <= 0.6
    assert "in mooncake::RdmaEndPoint::deconstruct() (Mooncake transfer engine), at ibv_destroy_qp" in (
        report.verdict.summary
    )
    assert any("#1  0x00007f3a2d0a1c3e in mooncake::RdmaEndPoint::deconstruct()" in t for t in _chain_texts(report))


# UCX's signal handler (a Triton TensorRT-LLM backend's crash, triton-inference-server/tensorrtllm_backend#273):
# its backtrace between two banners, innermost first, the handler's own frame on top.
UCX_SIGSEGV = [
    "Signal (11) received.",
    "[e2e-102-219:6082 :0:6592] Caught signal 11 (Segmentation fault: address not mapped to object at address (nil))",
    "==== backtrace (tid:   6592) ====",
    " 0 0x0000000000042520 __sigaction()  ???:0",
    " 1 0x000000000006751c tensorrt_llm::batch_manager::GptManager::returnCompletedRequests()  :0",
    " 2 0x000000000006ce1e tensorrt_llm::batch_manager::GptManager::decoupled_execution_loop()  :0",
    " 3 0x0000000000094ac3 pthread_condattr_setpshared()  ???:0",
    " 4 0x0000000000125bf4 clone()  ???:0",
    "=================================",
]


def test_ucx_backtrace_names_the_frame_and_the_batch_manager_loop_says_serving(
    tmp_path: Path, library: Library
) -> None:
    report = _report(tmp_path, library, UCX_SIGSEGV)
    assert report.verdict.id == RUNTIME and report.verdict.confidence <= 0.6
    summary = report.verdict.summary
    assert "in tensorrt_llm::batch_manager::GptManager::returnCompletedRequests()" in summary
    assert "__sigaction" not in summary  # the handler's own frame is never the crash's
    assert "decoupled_execution_loop" in dict(report.verdict.facts)["phase_evidence"]


def test_a_ucx_backtrace_of_no_serving_step_leaves_the_phase_open(tmp_path: Path, library: Library) -> None:
    """The look-alike: the same handler's stack in a request's serialisation (NVIDIA/TensorRT-LLM#649,
    gptManagerBenchmark crashing as it read its dataset) names its frame but no phase."""
    lines = [*UCX_SIGSEGV[1:4], " 1 0x000000000007c262 tensorrt_llm::batch_manager::NamedTensor::serialize()  ???:0"]
    report = _report(tmp_path, library, [*lines, UCX_SIGSEGV[-1]])
    assert report.verdict.id == UNKNOWN
    assert "in tensorrt_llm::batch_manager::NamedTensor::serialize()" in report.verdict.summary


def test_start_up_frames_make_it_init_without_a_start_line(tmp_path: Path, library: Library) -> None:
    report = _report(tmp_path, library, INIT_TRACEBACK)
    assert report.verdict.id == INIT
    assert _alternatives(report).get(RUNTIME) is True
    assert "during initialization" in report.verdict.summary
    # The outermost frame a rule names decides: Scheduler.__init__, not init_memory_pool under it.
    assert "constructing the server" in dict(report.verdict.facts)["phase_evidence"]


def test_a_logged_start_without_a_ready_line_is_init(tmp_path: Path, library: Library) -> None:
    report = _report(tmp_path, library, [SERVER_ARGS, *NEUTRAL_SEGFAULT])
    assert report.verdict.id == INIT
    assert "the server's start is logged" in dict(report.verdict.facts)["phase_evidence"]


def test_without_start_ready_requests_or_telling_frames_it_cannot_tell(tmp_path: Path, library: Library) -> None:
    """The 5-line segfault excerpt: absence of a ready line alone is not start-up."""
    report = _report(tmp_path, library, NEUTRAL_SEGFAULT)
    assert report.verdict.id == UNKNOWN
    assert report.verdict.confidence < 0.5
    summary = report.verdict.summary
    assert "cannot tell whether it was starting up or serving" in summary
    assert "during initialization" not in summary and "while serving" not in summary
    alternatives = _alternatives(report)
    assert alternatives.get(INIT) is False and alternatives.get(RUNTIME) is False  # both open


def test_patterns_check_runs_a_users_frames_file(tmp_path: Path) -> None:
    """A library directory may add phase rules; `patterns check` runs their examples like the shipped ones."""
    from typer.testing import CliRunner

    from pdlogdoctor.cli.commands import app

    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / "frames.toml").write_text(
        "[[phase]]\n"
        'id = "my-serving-loop"\n'
        'phase = "runtime"\n'
        "function = '^my_serve_forever$'\n"
        'why = "my serving loop"\n'
        "[phase.examples]\n"
        "match = ['  File \"/srv/sglang/srt/managers/scheduler.py\", line 9, in event_loop_normal']\n"
        "no_match = ['  File \"/srv/app.py\", line 9, in main']\n"
    )
    result = CliRunner().invoke(app, ["patterns", "check", "--patterns", str(mine)])
    assert result.exit_code == 2
    assert "phase my-serving-loop: example decided by sglang-serving-loop" in result.output


def test_a_native_frame_of_no_known_component_is_still_named(tmp_path: Path, library: Library) -> None:
    """The banner's innermost named frame (not the signal handling's gsignal) is where it crashed."""
    banner = [
        "!!!!!!! Segfault encountered !!!!!!!",
        '  File "<unknown>", line 0, in gsignal',
        '  File "<unknown>", line 0, in cuEventQuery',
    ]
    report = _report(tmp_path, library, banner)
    assert report.verdict.id == UNKNOWN
    assert "of a segmentation fault, in cuEventQuery." in report.verdict.summary
    assert 'File "<unknown>", line 0, in cuEventQuery' in _chain_texts(report)


BLIND_08 = ROOT / "tests" / "data" / "blind-round3" / "08-illegal-memory-access-custom-kernel"


def test_the_users_own_kernel_is_named_as_where_the_crash_was_raised(library: Library) -> None:
    """Blind round 3, bundle 08: the illegal memory access is raised from an in-house op
    (/opt/acme-kernels, called from sglang's llama.py, dispatched by torch's _ops.py): the summary
    names that frame, the user's code, not sglang's llama.py, and the chain quotes its line."""
    report = run([str(BLIND_08)], library)
    summary = report.verdict.summary
    assert (
        "raised in forward() in /opt/acme-kernels/acme_kernels/rope_fp8.py:88 (your own or the model's code" in summary
    )
    assert "called from llama.py:189 forward()" in summary
    assert "_ops.py" not in summary  # torch's dispatch is the runtime under it, never the culprit
    assert 'File "/opt/acme-kernels/acme_kernels/rope_fp8.py", line 88, in forward' in _chain_texts(report)


def _stack(*lines: str) -> list[Frame]:
    frames = [parse_frame(line) for line in lines]
    assert all(frames), lines
    return [frame for frame in frames if frame is not None]


# c10's backtrace of an op in a user's extension (the format of sglang#8296's frames; the
# extension's symbol and path are the user's), innermost first as printed.
USER_EXTENSION = (
    "frame #2: c10::cuda::c10_cuda_check_implementation(int, char const*, char const*, int, bool) + 0x118"
    " (0x7f84171cc918 in /usr/local/lib/python3.10/dist-packages/torch/lib/libc10_cuda.so)",
    "frame #3: acme::fused_rope_quant_fp8(at::Tensor&, at::Tensor&) + 0x1c0"
    " (0x7f83a1d2c1c0 in /opt/acme-kernels/acme_kernels/_C.cpython-312-x86_64-linux-gnu.so)",
    "frame #4: <unknown function> + 0x94ac3 (0x7f8831f90ac3 in /usr/lib/x86_64-linux-gnu/libc.so.6)",
)


def test_own_code_is_the_innermost_frame_outside_the_runtime_that_no_component_names(library: Library) -> None:
    frames = library.frames
    own = frames.own_code(_stack(*USER_EXTENSION)[::-1])  # outermost first, as stacks are kept
    assert own is not None and own.frame.func.startswith("acme::fused_rope_quant_fp8")
    assert own.describe().startswith("acme::fused_rope_quant_fp8() in /opt/acme-kernels/")
    # An installed package the table does not know is named as that package, not as "your code".
    plugin = frames.own_code(
        _stack(
            '  File "/usr/local/lib/python3.12/dist-packages/sglang/srt/models/llama.py", line 189, in forward',
            '  File "/usr/local/lib/python3.12/dist-packages/acme_kernels/rope_fp8.py", line 88, in forward',
            '  File "/usr/local/lib/python3.12/dist-packages/torch/_ops.py", line 1243, in __call__',
        )
    )
    assert plugin is not None and plugin.package == "acme_kernels"
    assert "(the package acme_kernels," in plugin.describe()
    # A remote-code model (trust_remote_code) runs from the hub's module cache: the model's own code.
    model = frames.own_code(
        _stack(
            '  File "/usr/local/lib/python3.12/dist-packages/vllm/model_executor/models/qwen.py", line 41, in forward',
            '  File "/root/.cache/huggingface/modules/transformers_modules/m/modeling_m.py", line 231, in forward',
            '  File "/usr/local/lib/python3.12/dist-packages/torch/nn/modules/module.py", line 1773, in _call_impl',
        )
    )
    assert model is not None and model.frame.line == 231 and "your own or the model's code" in model.describe()


@pytest.mark.parametrize(
    "lines",
    [
        # the innermost frame outside the runtime is sglang's: a known component, not the user's
        (
            '  File "/sgl-workspace/sglang/python/sglang/srt/layers/linear.py", line 1254 in weight_loader',
            '  File "/usr/local/lib/python3.12/dist-packages/torch/_ops.py", line 829 in __call__',
        ),
        # code TorchInductor generated (from the model, but torch's): the runtime's, under sglang's frame
        (
            '  File "/sgl-workspace/sglang/python/sglang/srt/model_executor/model_runner.py", line 2081, in forward',
            '  File "/tmp/torchinductor_root/aa/caaxqz3zace2333c7pgcxjpk4xv6km5jhat4mywt.py", line 1078, in call',
        ),
        # a native symbol printed without its library (glog): whose it is cannot be told
        ("    @     0x7f3a2d0a1c3e acme::fused_rope_quant_fp8()", "    @     0x7f3a4e842520 (unknown)"),
        # a symbol of a system library the table does not name: a driver's or the distribution's
        (
            "frame #4: <unknown function> + 0x94ac3 (0x7f8831f90ac3 in /usr/lib/x86_64-linux-gnu/libc.so.6)",
            "frame #5: ncclProxyProgress + 0x1c0 (0x7f83a1d2c1c0 in /usr/lib/x86_64-linux-gnu/libnccl.so.2)",
        ),
    ],
)
def test_no_own_code_is_claimed_where_the_frames_cannot_support_it(lines: tuple[str, ...], library: Library) -> None:
    stack = _stack(*lines)
    assert library.frames.own_code(stack if not stack[0].native else stack[::-1]) is None


# What a crash died of, in the blind testers' cases (tests/data/blind-round4) and their look-alikes.
CONFIDENT = 0.5  # above this a verdict reads as a diagnosis


def test_a_harness_exit_status_137_counts_as_sigkill(case_reports: Mapping[Path, Report]) -> None:
    """The harness's rc=137 is 128 + SIGKILL: it corroborates the OOM kill, and the report does not
    ask to verify what the harness already shows."""
    report = case_report(case_reports, "tests/data/blind-round4/10-")
    assert "rc=137" in report.verdict.summary and "harness.log:2" in report.verdict.summary
    assert not any("SIGKILL" in missing for missing in report.missing), report.missing


def test_an_abort_without_mori_names_its_runtime_error_not_mori(case_reports: Mapping[Path, Report]) -> None:
    """The HIP runtime's error before the SIGABRT is the crash's likeliest cause, stated with the
    low confidence of a cause outside the catalogue; MORI, which logged nothing, is not hinted at."""
    report = case_report(case_reports, "tests/data/blind-round4/06-")
    line = "hipErrorNoBinaryForGpu: Unable to find code object for all current devices!"
    assert line in report.verdict.summary and "prefill_mi325-n04.log:3" in report.advice
    assert report.verdict.confidence <= CONFIDENT
    assert "MORI" not in markdown_report(report, RenderOptions(redact=False))


def test_an_error_in_another_servers_log_is_not_what_the_crash_died_of(bundle_reports: Mapping[Path, Report]) -> None:
    """The look-alike: the only HIP error is in the prefill's log, the decode aborted; the decode's
    crash does not claim it (it stays listed as unrecognised), unlike its variant where it is the
    decode's own line."""
    own = bundle_reports[FIXTURES / "hip-no-code-object-amd-log-level"]
    other = bundle_reports[FIXTURES / "hip-error-in-other-server-only"]
    assert "hipErrorNoBinaryForGpu" in own.verdict.summary
    assert "hipErrorNoBinaryForGpu" not in other.verdict.summary and "likeliest" not in other.verdict.summary
    assert any("hipErrorNoBinaryForGpu" in t.template for t in other.unrecognised)


def test_an_nccl_bootstrap_failure_points_at_reachability(case_reports: Mapping[Path, Report]) -> None:
    """The crash quotes NCCL's own WARN line, its fix is about the nodes reaching each other, and
    its confidence says that no verdict names an NCCL bootstrap that cannot connect."""
    report = case_report(case_reports, "tests/data/blind-round4/08-")
    warn = "node5:240:240 [6] misc/socket.cc:533 NCCL WARN socketPollConnect: Connect to 10.0.0.4<56849> returned 113"
    assert warn in report.verdict.summary
    assert "NCCL_SOCKET_IFNAME" in report.advice, report.advice
    assert report.verdict.confidence <= CONFIDENT or report.verdict.id == "inconclusive"


# ---------------------------------------------------------------- the readings of one crash (issue 22 item 8)
# The phase readings of one crash are not rivals: the one its evidence favours leads, the other stays
# open below it by the distance the analyzer put between them, whatever lowers the verdict (logs not
# given) lowers them alike. The corpus's rule: a reading the case rules out is no close runner-up.
BLIND8 = ROOT / "tests" / "data" / "blind-round8-excerpts-a"
BLIND7 = ROOT / "tests" / "data" / "blind-round7-excerpts-a"


def _open_reading(report: Report, verdict: str) -> float:
    reading = next(a for a in report.alternatives if a.id == verdict)
    assert reading.confidence >= REJECTED, f"{verdict} reads as ruled out ({reading.confidence})"
    return reading.confidence


@pytest.mark.parametrize(
    "case",
    [
        BLIND8 / "10-mi355-mori-decode-scheduler-exception",  # SGLang decode, the disagg decode loop (MoRI)
        BLIND8 / "19-prefill-kv-pool-exhaustion-sigquit",  # SGLang prefill, the overlap loop
        MOONCAKE_1000,  # Mooncake's native transfer worker
    ],
    ids=["sglang-decode-loop", "sglang-prefill-loop", "mooncake-transfer-worker"],
)
def test_a_serving_loop_stack_leads_and_start_up_stays_open_well_below(case: Path, library: Library) -> None:
    report = run([str(case)], library)
    assert report.verdict.id == RUNTIME
    init = _open_reading(report, INIT)
    assert init <= max(report.verdict.confidence - 0.15, REJECTED), (init, report.verdict.confidence)
    assert "near-tie" not in {step.name for step in report.verdict.reasons}  # its own other reading is no rival
    why = next(a.why_not for a in report.alternatives if a.id == INIT)
    assert "the likelier reading is scheduler-runtime-crash" in why and "no ready line" in why


@pytest.mark.parametrize(
    "lines_or_case",
    [NEUTRAL_SEGFAULT, BLIND7 / "09-sglang-specv2-index-oob-decode"],
    ids=["faulthandler-cuda-sync", "torch-device-asserts"],
)
def test_with_no_phase_evidence_phase_unknown_leads_both_phases_below(
    lines_or_case: list[str] | Path, tmp_path: Path, library: Library
) -> None:
    if isinstance(lines_or_case, Path):
        report = run([str(lines_or_case)], library)
    else:
        report = _report(tmp_path, library, lines_or_case)
    assert report.verdict.id == UNKNOWN
    init, runtime = _open_reading(report, INIT), _open_reading(report, RUNTIME)
    assert init == runtime <= max(report.verdict.confidence - 0.1, REJECTED)
    assert "the phase is unknown" in next(a.why_not for a in report.alternatives if a.id == INIT)


def test_a_graph_capture_stack_says_start_up_in_vllm(library: Library) -> None:
    """vllm#3053: faulthandler's single stack ('Stack (most recent call first):', newest call first)
    runs through vLLM's capture_model: a crash at start-up; serving is ruled out."""
    report = run([str(EXCERPTS / "vllm-3053-sigsegv-cuda-graph-capture")], library)
    assert report.verdict.id == INIT
    assert "capture_model" in str(dict(report.verdict.facts)["phase_evidence"])
    assert _alternatives(report).get(RUNTIME) is True


def test_a_single_faulthandler_stack_naming_no_step_leaves_the_phase_open(tmp_path: Path, library: Library) -> None:
    """The look-alike of vllm#3053: the same faulthandler format ('Stack (most recent call first):'),
    frames that name no start-up or serving step (a CUDA stream sync): no phase is claimed."""
    lines = [
        "Fatal Python error: Segmentation fault",
        "",
        "Stack (most recent call first):",
        '  File "/usr/local/lib/python3.10/dist-packages/torch/cuda/streams.py", line 224 in synchronize',
    ]
    report = _report(tmp_path, library, lines)
    assert report.verdict.id == UNKNOWN


def test_a_rival_with_lines_of_its_own_still_costs_a_near_tie(bundle_reports: Mapping[Path, Report]) -> None:
    """The look-alike of a reading: a cause of the same tier read from other lines (an RDMA link
    failure beside a Mooncake segfault) is a rival, and the verdict pays its near tie."""
    report = bundle_reports[FIXTURES / "blind-runtime-segv-mooncake"]
    assert report.verdict.id == RUNTIME
    assert "near-tie" in {step.name for step in report.verdict.reasons}
    assert any(a.id == "rdma-link-failure" for a in report.alternatives)


# syv-ai/qwen38-27b-rtx3090#33's shape (round 128's bundles-2 02): a compose log holding a life that
# served, then a restart whose engine never came up. vLLM prints no server_args line; its `Starting to
# load model` is a start-up's own line, and the crash after it is the new life's, during initialization.
SERVED = [
    'vllm-1  | (APIServer pid=1) INFO:     172.18.0.1:51230 - "POST /v1/chat/completions HTTP/1.1" 200 OK',
    "vllm-1  | (APIServer pid=1) INFO 08-24 09:12:01 [loggers.py:259] Engine 000: Avg prompt throughput: 1184.3 "
    "tokens/s, Avg generation throughput: 27.9 tokens/s, Running: 2 reqs, Waiting: 0 reqs, GPU KV cache usage: 40.1%, "
    "Prefix cache hit rate: 0.0%",
]
RESTARTED = [
    "vllm-1  | (EngineCore pid=77) INFO 08-24 09:14:38 [gpu_model_runner.py:3601] Starting to load model "
    "/models/qwen...",
    "vllm-1  | (EngineCore pid=77) ERROR 08-24 09:14:49 [core.py:1108] EngineCore failed to start.",
    "vllm-1  | (EngineCore pid=77) ERROR 08-24 09:14:49 [core.py:1108] Traceback (most recent call last):",
    'vllm-1  | (EngineCore pid=77) ERROR 08-24 09:14:49 [core.py:1108]   File "/usr/local/lib/python3.12/dist-packages/'
    'vllm/v1/kv_offload/cpu/shared_offload_region.py", line 100, in __init__',
    "vllm-1  | (EngineCore pid=77) ERROR 08-24 09:14:49 [core.py:1108] OSError: [Errno 14] Bad address",
]


def test_a_crash_after_a_restart_is_the_new_life_s(tmp_path: Path, library: Library) -> None:
    report = analysed_lines(tmp_path, library, [*SERVED, *RESTARTED], "compose-logs.log")
    assert report.verdict.id == "scheduler-init-crash", report.verdict.summary
    # Look-alike: the same crash with no start-up line between it and the serving is a crash while serving.
    (tmp_path / "same").mkdir()
    report = analysed_lines(tmp_path / "same", library, [*SERVED, *RESTARTED[1:]], "compose-logs.log")
    assert report.verdict.id == "scheduler-runtime-crash", report.verdict.summary


def test_a_bare_assertion_is_quoted_by_its_statement(tmp_path: Path, library: Library) -> None:
    """An AssertionError with no message says what failed only in the statement that raised it
    (vllm-project/vllm#20056: a KV connector's `assert(...)` in start_load_kv): the summary quotes it."""
    prefix = "ERROR 06-25 04:34:01 [core.py:521] "
    lines = [
        f"{prefix}EngineCore encountered a fatal error.",
        f"{prefix}Traceback (most recent call last):",
        f'{prefix}  File "/vllm/v1/worker/gpu_model_runner.py", line 1348, in execute_model',
        f"{prefix}    self.maybe_setup_kv_connector(scheduler_output)",
        f'{prefix}  File "/opt/vua/vllm/kv_connector_v1.py", line 317, in start_load_kv',
        f"{prefix}    assert(request.existing_token_ids % self._max_num_batched_tokens == 0)",
        f"{prefix}AssertionError",
    ]
    summary = _report(tmp_path, library, lines, "vllm.log").verdict.summary
    assert 'at "assert(request.existing_token_ids % self._max_num_batched_tokens == 0)"' in summary


def test_an_exception_with_its_message_is_not_quoted_by_its_statement(tmp_path: Path, library: Library) -> None:
    prefix = "ERROR 06-25 04:34:01 [core.py:521] "
    lines = [
        f"{prefix}EngineCore encountered a fatal error.",
        f"{prefix}Traceback (most recent call last):",
        f'{prefix}  File "/opt/vua/vllm/kv_connector_v1.py", line 317, in start_load_kv',
        f"{prefix}    raise ValueError(f'bad block count {{n}}')",
        f"{prefix}ValueError: bad block count 7",
    ]
    summary = _report(tmp_path, library, lines, "vllm.log").verdict.summary
    assert "ValueError: bad block count 7" in summary and 'at "raise' not in summary


# A prefill scheduler dying in its serving loop (sglang#8424: pipeline parallelism's first stage has no
# next-token ids), after its server began the warmup request it sends itself.
WARMUP_BEGUN = "[2025-07-27 14:10:36] Start of prefill warmup ..."
WARMUP_DONE = "[2025-07-27 14:10:37] End of prefill warmup with status 200, resp: [{'text': ' of the'}]"
LOOP_CRASH = [
    "[2025-07-27 14:10:38 PP0 TP0] Scheduler hit an exception: Traceback (most recent call last):",
    '  File "/sgl-workspace/sglang/python/sglang/srt/managers/scheduler.py", line 2960, in run_scheduler_process',
    "    scheduler.event_loop_normal_disagg_prefill()",
    '  File "/sgl-workspace/sglang/python/sglang/srt/disaggregation/prefill.py", line 381, in '
    "process_batch_result_disagg_prefill",
    "    next_token_ids = result.next_token_ids.tolist()",
    "AttributeError: 'NoneType' object has no attribute 'tolist'",
]


def test_a_serving_loop_crash_in_the_servers_own_warmup_is_before_ready(tmp_path: Path, library: Library) -> None:
    report = _report(tmp_path, library, [WARMUP_BEGUN, *LOOP_CRASH])
    assert report.verdict.id == INIT
    assert "in the warmup request the server sends itself" in report.verdict.summary
    assert "prefill.log:1" in dict(report.verdict.facts)["phase_evidence"]


def test_a_serving_loop_crash_after_the_warmup_came_back_is_while_serving(tmp_path: Path, library: Library) -> None:
    """The look-alike: the warmup's result between its start and the crash: the loop crashed on a later request."""
    report = _report(tmp_path, library, [WARMUP_BEGUN, WARMUP_DONE, *LOOP_CRASH])
    assert report.verdict.id == RUNTIME
    assert "warmup request the server sends itself" not in report.verdict.summary


# sglang's launch line, then its loop crashing (round 132's excerpts-d 01: a Triton hook the CI image's
# Triton lacked, in run_event_loop's own set-up; sgl-project/sglang#32754).
LAUNCH = "[2025-07-27 14:10:02] server_args=ServerArgs(model_path='/models/Qwen3-32B', tp_size=4, page_size=1)"
READY_LINE = "[2025-07-27 14:10:37] The server is fired up and ready to roll!"


def test_a_loop_crash_in_a_log_that_shows_the_start_and_no_ready_line_is_before_ready(
    tmp_path: Path, library: Library
) -> None:
    report = _report(tmp_path, library, [LAUNCH, *LOOP_CRASH])
    assert report.verdict.id == INIT and report.verdict.confidence < 0.6  # read from a line that is not there
    assert "no ready line or served request comes before the crash" in report.verdict.summary


def test_a_loop_crash_after_the_ready_line_is_while_serving(tmp_path: Path, library: Library) -> None:
    report = _report(tmp_path, library, [LAUNCH, READY_LINE, *LOOP_CRASH])
    assert report.verdict.id == RUNTIME


def test_a_loop_crash_after_batches_of_work_on_a_node_that_prints_no_ready_line_is_while_serving(
    tmp_path: Path, library: Library
) -> None:
    """The look-alike (round 127's bundles-1 03): a pipeline's second node serves no HTTP and prints no
    ready line, but its batches before the crash say the loop was working."""
    batch = (
        "[2025-07-27 14:10:30 PP1 TP0] Prefill batch, #new-seq: 2, #new-token: 16384, #cached-token: 0, "
        "token usage: 0.05, #running-req: 0, #queue-req: 140"
    )
    report = _report(tmp_path, library, [LAUNCH, batch, *LOOP_CRASH])
    assert report.verdict.id == RUNTIME


# An sglang worker thread's traceback with no frame that names a step (sgl-project/sglang#10554's shape:
# the overlap thread's forward, cut before its exception), below the scheduler's batch lines.
WORKER_THREAD_CRASH = [
    "[2025-09-17 06:54:37 TP2] TpModelWorkerClient hit an exception: Traceback (most recent call last):",
    '  File "/usr/local/lib/python3.11/site-packages/sglang/srt/managers/tp_worker_overlap_thread.py", line 143, '
    "in forward_thread_func",
    "    self.forward_thread_func_()",
]


@pytest.mark.parametrize(("new_tokens", "phase"), [(15488, RUNTIME), (900, RUNTIME), (7, UNKNOWN)])
def test_one_prefill_batch_longer_than_a_warmup_prompt_says_it_served(
    tmp_path: Path, library: Library, new_tokens: int, phase: str
) -> None:
    """No ready line and no start-up line, one batch line before the crash: a batch that prefilled
    more tokens than the server's own warmup prompt holds was a request's; the look-alike, a batch of
    a few tokens, may be the warmup's, and the phase stays open."""
    batch = (
        f"[2025-09-17 06:54:36 TP0] Prefill batch. #new-seq: 1, #new-token: {new_tokens}, #cached-token: 0, "
        "token usage: 0.00, #running-req: 1, #queue-req: 0, "
    )
    report = _report(tmp_path, library, [batch, *WORKER_THREAD_CRASH])
    assert report.verdict.id == phase, report.verdict.summary
    if phase == RUNTIME:
        assert f"prefilled {new_tokens} tokens in one batch" in report.verdict.summary


# vllm-project/vllm#16030 as its journal held it: a worker's exception, vLLM's front end shutting
# down in the same second, the launcher script's child killed, systemd's unit exiting with 137.
JOURNAL = "Apr  3 17:38:57 langmodel52 langmodel[140223]: "
XGRAMMAR_CRASH = [
    JOURNAL + "Traceback (most recent call last):",
    JOURNAL + ' File "/opt/pytorch/lib/python3.12/site-packages/vllm/v1/executor/multiproc_executor.py", '
    "line 372, in worker_busy_loop",
    JOURNAL + "   output = func(*args, **kwargs)",
    JOURNAL + "OSError: /root/.cache/torch_extensions/py312_cu124/xgrammar/xgrammar.so: "
    "cannot open shared object file: No such file or directory",
    "Apr  3 17:38:57 langmodel52 langmodel[139935]: 2025-04-03 17:38:57,455 - vllm.v1.engine.core_client - CRITICAL - "
    "Got fatal signal from worker processes, shutting down. See stack trace above for root cause issue.",
    "Apr  3 17:38:57 langmodel52 systemd[1]: langmodel.service: Main process exited, code=exited, status=137/n/a",
]


def test_an_exception_in_the_crashs_moment_above_it_is_what_it_died_of(tmp_path: Path, library: Library) -> None:
    """The exception logged just before the engine's shutdown line, in the same second, is the likeliest
    cause; the unit's exit status after it says only that the unit ended (systemd's `code=exited`)."""
    report = analysed_lines(tmp_path, library, XGRAMMAR_CRASH, "journal.log")
    assert report.verdict.id in (UNKNOWN, RUNTIME), report.verdict.summary
    summary = report.verdict.summary
    assert "the likeliest reason it died" in summary and "xgrammar.so: cannot open shared object file" in summary
    assert "orchestrator line reports" not in summary and "status=137" not in summary


# A vLLM V0 worker under NVIDIA Dynamo (ai-dynamo/dynamo#419's shape): its start-up lines far above,
# then its engine running requests, then UCX's fatal-signal handler. The start-up line above does
# not make the crash a start-up's: the server got past it and served.
V0_STARTED = [
    "INFO 03-27 16:02:23 model_runner.py:1110] Starting to load model qwq...",
    "INFO 03-27 16:03:29 model_runner.py:1115] Loading model weights took 61.0355 GB",
    "INFO 03-27 16:03:37 executor_base.py:110] # CUDA blocks: 1221, # CPU blocks: 1024",
]
V0_SERVING = [
    "INFO 03-27 16:06:41 metrics.py:455] Avg prompt throughput: 5.9 tokens/s, Avg generation throughput: 0.2 "
    "tokens/s, Running: 1 reqs, Swapped: 0 reqs, Pending: 0 reqs, GPU KV cache usage: 0.1%, CPU KV cache usage: 0.0%.",
    "INFO 03-27 16:06:46 metrics.py:455] Avg prompt throughput: 0.0 tokens/s, Avg generation throughput: 22.6 "
    "tokens/s, Running: 1 reqs, Swapped: 0 reqs, Pending: 0 reqs, GPU KV cache usage: 0.2%, CPU KV cache usage: 0.0%.",
]
UCX_CAUGHT = [
    "[gpu-server:59601:0:59888] Caught signal 11 (Segmentation fault: address not mapped to object at address (nil))",
    "==== backtrace (tid:  59888) ====",
    " 0  /opt/venv/lib/python3.12/site-packages/nixl.libs/libucs-36b9ef61.so.0.0.0(ucs_handle_error+0x304) "
    "[0x7ff41b1ad074]",
    "=================================",
]
# llama.cpp's server: a model file fetched at start (huggingface_hub's progress bar), then slots
# processing requests, then a segfault.
LLAMA_STARTED = ["model-q4_k_m.gguf: 100%|██████████| 4.92G/4.92G [00:41<00:00, 121MB/s]"]
LLAMA_SERVING = [
    "slot launch_slot_: id  0 | task 12 | processing task",
    "slot update_slots: id  0 | task 12 | new prompt, n_ctx_slot = 8192, n_keep = 0, task.n_tokens = 214",
]


@pytest.mark.parametrize(
    ("started", "serving", "crash"),
    [(V0_STARTED, V0_SERVING, UCX_CAUGHT), (LLAMA_STARTED, LLAMA_SERVING, NEUTRAL_SEGFAULT)],
    ids=["vllm-v0-under-dynamo", "llama-server"],
)
def test_a_crash_after_serving_that_followed_start_up_lines_is_a_serving_crash(
    tmp_path: Path, library: Library, started: list[str], serving: list[str], crash: list[str]
) -> None:
    report = _report(tmp_path, library, [*started, *serving, *crash], "serve.log")
    assert report.verdict.id == RUNTIME, report.verdict.summary
    evidence = dict(report.verdict.facts)["phase_evidence"]
    assert f"serve.log:{len(started) + 1}" in str(evidence)  # the first serving line after start-up
    # Look-alike: the same start-up lines and crash with no serving line between them: a start-up's.
    (tmp_path / "starting").mkdir()
    report = _report(tmp_path / "starting", library, [*started, *crash], "serve.log")
    assert report.verdict.id == INIT, report.verdict.summary


def test_a_crash_after_a_restart_that_served_before_is_the_new_life_s_start_up(
    tmp_path: Path, library: Library
) -> None:
    """Served, then started again (a restart appended to the log), then the crash: the crash is the
    new life's, in its start-up, whatever the earlier life served."""
    report = _report(tmp_path, library, [*V0_STARTED, *V0_SERVING, *V0_STARTED, *UCX_CAUGHT], "serve.log")
    assert report.verdict.id == INIT, report.verdict.summary


def _prefill_batch(new_tokens: int, second: int = 37) -> str:
    return (
        f"[2025-07-27 14:10:{second} PP0 TP0] Prefill batch. #new-seq: 1, #new-token: {new_tokens}, "
        "#cached-token: 0, token usage: 0.00, #unbootstrapped-req: 0, #queue-req: 0, #transferring-req: 0, "
    )


def test_a_loop_crash_in_the_only_batch_since_the_start_a_warmups_size_is_before_ready(
    tmp_path: Path, library: Library
) -> None:
    """Round 183's bundles-2 01 (sgl-project/sglang#10059): the server's start, one 4-token prefill batch
    (the request the server sends itself once it listens) and the loop's crash, no ready line: the
    warmup crashed, before the server was ready. A guess read from a batch's size: it stays low."""
    report = _report(tmp_path, library, [LAUNCH, _prefill_batch(4), *LOOP_CRASH])
    assert report.verdict.id == INIT and report.verdict.confidence < 0.6, report.verdict.summary
    assert "a batch of 4 new tokens" in report.verdict.summary


@pytest.mark.parametrize(
    "work",
    [
        pytest.param([_prefill_batch(4, 35), _prefill_batch(6, 36), _prefill_batch(5, 37)], id="three batches"),
        pytest.param([_prefill_batch(900)], id="a client's prompt"),
        pytest.param([_prefill_batch(4), READY_LINE], id="ready after it"),
    ],
)
def test_a_loop_crash_after_more_than_a_warmups_work_stays_while_serving(
    tmp_path: Path, library: Library, work: list[str]
) -> None:
    """The look-alikes: batches enough for the loop to have run requests, a batch longer than any
    warmup prompt, or the ready line the warmup's success prints."""
    report = _report(tmp_path, library, [LAUNCH, *work, *LOOP_CRASH])
    assert report.verdict.id == RUNTIME, report.verdict.summary
    assert "the size of the warmup request" not in report.verdict.summary


# Round 183's bundles-2 03 (ai-dynamo/dynamo#12198) in vLLM's own format: an engine that finished its
# start-up, then a model worker's exception in execute_model; a worker behind Dynamo prints no API
# server's ready line.
VLLM_START = (
    "(EngineCore_DP0 pid=1944) INFO 09-24 20:50:10 [core.py:77] Initializing a V1 LLM engine (v0.10.2) with "
    "config: model='/models/Qwen3-8B', speculative_config=None, tokenizer='/models/Qwen3-8B'"
)
VLLM_ENGINE_READY = (
    "(EngineCore_DP0 pid=1944) INFO 09-24 20:54:36 [core.py:218] init engine (profile, create kv cache, "
    "warmup model) took 216.57 seconds"
)
VLLM_WORKER_CRASH = [
    "(Worker pid=2011) ERROR 09-24 21:03:11 [multiproc_executor.py:671] WorkerProc hit an exception.",
    "(Worker pid=2011) ERROR 09-24 21:03:11 [multiproc_executor.py:671] Traceback (most recent call last):",
    '(Worker pid=2011) ERROR 09-24 21:03:11 [multiproc_executor.py:671]   File "/usr/local/lib/python3.12/'
    'dist-packages/vllm/v1/executor/multiproc_executor.py", line 666, in worker_busy_loop',
    "(Worker pid=2011) ERROR 09-24 21:03:11 [multiproc_executor.py:671]     output = func(*args, **kwargs)",
    '(Worker pid=2011) ERROR 09-24 21:03:11 [multiproc_executor.py:671]   File "/usr/local/lib/python3.12/'
    'dist-packages/vllm/v1/worker/gpu_worker.py", line 447, in execute_model',
    "(Worker pid=2011) ERROR 09-24 21:03:11 [multiproc_executor.py:671]     output = "
    "self.model_runner.execute_model(scheduler_output, intermediate_tensors)",
    "(Worker pid=2011) ERROR 09-24 21:03:11 [multiproc_executor.py:671] AssertionError",
]


@pytest.mark.parametrize(("lines", "phase"), [([VLLM_START, VLLM_ENGINE_READY], RUNTIME), ([VLLM_START], INIT)])
def test_an_engine_loop_crash_after_the_engine_finished_starting_is_while_serving(
    tmp_path: Path, library: Library, lines: list[str], phase: str
) -> None:
    """vLLM's `init engine (profile, create kv cache, warmup model) took ...` ends the engine's start-up,
    its warmup included: a crash in its busy loop after it ran a request, whatever ready line is missing.
    The look-alike: the engine's start and no such line, which keeps the start-up reading."""
    report = _report(tmp_path, library, [*lines, *VLLM_WORKER_CRASH])
    assert report.verdict.id == phase, report.verdict.summary
    assert ("finished its start-up" in report.verdict.summary) == (phase == RUNTIME)


def test_a_line_only_a_started_engine_writes_outweighs_a_missing_ready_line(tmp_path: Path, library: Library) -> None:
    """vLLM's `EngineCore encountered a fatal error.` (written only once the engine was built) under a
    worker's loop crash, in a log that shows the engine's start and no ready line: serving, not start-up."""
    fatal = "(EngineCore_DP0 pid=1944) ERROR 09-24 21:03:11 [core.py:710] EngineCore encountered a fatal error."
    report = _report(tmp_path, library, [VLLM_START, *VLLM_WORKER_CRASH, fatal])
    assert report.verdict.id == RUNTIME, report.verdict.summary


# Round 126's excerpts-a 02 (vllm-ascend): the engine's ready line, then a worker's exception with no
# frame that names a step (the paste cut them).
CUT_WORKER_CRASH = [
    "(VllmWorker rank=0 pid=816419) ERROR 06-24 10:27:08 [multiproc_executor.py:527] WorkerProc hit an exception.",
    "(VllmWorker rank=0 pid=816419) ERROR 06-24 10:27:08 [multiproc_executor.py:527] UnboundLocalError: local "
    "variable 'decode_hs_or_q_c' referenced before assignment",
]
ENGINE_READY_ASCEND = (
    "INFO 06-24 10:27:07 [core.py:171] init engine (profile, create kv cache, warmup model) took 27.77 seconds"
)
DISTRIBUTED_INIT = (
    "(VllmWorker rank=0 pid=816419) INFO 06-24 10:27:07 [parallel_state.py:1065] world_size=1 rank=0 local_rank=0 "
    "distributed_init_method=tcp://127.0.0.1:41755 backend=hccl"
)


@pytest.mark.parametrize(
    ("lines", "phase"),
    [
        pytest.param([ENGINE_READY_ASCEND], UNKNOWN, id="after the engine's ready line"),
        pytest.param([ENGINE_READY_ASCEND, DISTRIBUTED_INIT], INIT, id="a start-up line after it: a new life"),
    ],
)
def test_the_engines_ready_line_is_no_start_up_line(
    tmp_path: Path, library: Library, lines: list[str], phase: str
) -> None:
    """With no frame to tell, the engine's ready line is neither read as start-up (it once carried the
    KV pool's sizing mark, which made the crash read "no ready line after sizing": before ready) nor
    taken alone for serving (what the server set up after the engine may have failed, a LoRA adapter
    loaded for a request may be missing): the phase stays open. A start-up line after it is a new life."""
    report = _report(tmp_path, library, [*lines, *CUT_WORKER_CRASH])
    assert report.verdict.id == phase, report.verdict.summary
