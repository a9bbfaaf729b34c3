"""Failures said quietly: at warning level, by a test script's tag, by the first line of a report
(issue 22, round 169).

- A server's own step that failed and was logged as a warning (Dynamo's SGLang prefill: `Prefill
  warmup failed: ...`, then it registers anyway) is the cause of the decode's failed transfers, even
  when no pattern names those failures' cause and the verdict was only inconclusive.
- An exception whose words name a crash (a CUDA illegal memory access) happened in the phase its
  traceback's frames name: sglang's batch step is serving, its memory-pool set-up is start-up.
- libfabric's `<warn>` is its highest level: most such lines are harmless, but the EFA provider's
  error handlers (`efa_rdm_txe_handle_error()`, `rxr_cq_handle_tx_error()`) report an operation
  that failed for good: a completion error, with the status the line gives and no other.
- NCCL's OFI plugin failing to start (`aws-ofi-nccl initialization failed`) leaves NCCL on TCP
  sockets: a failure, whose cause is the plugin's warning above it that states its errno (a warning
  that states a cause counts near a known failing line as near an error). NCCL choosing sockets on a
  host with no RDMA device is no failure.
- The first line of the kernel's OOM report (`<task> invoked oom-killer: gfp_mask=...`) shows host
  memory ran out even where the paste stops before the victim's `Killed process` line.
- A harness script's `[FAIL] <check>` (and GoogleTest's `[  FAILED  ]`) is a failed check: a run
  whose servers answered is still not healthy.
- Round 170: vLLM's INFO line that no platform was detected (every device check failed) is a
  failure, though one platform's check failing is routine; a Go program refusing its command line
  (`unknown flag: --x`, pflag's words, no error word) is an error line; an assertion's report
  (`Assertion failed: <condition>`) states its cause and leads the wrapper its caller raised.
Each with its look-alike that must still read as before.
"""

from __future__ import annotations

from pathlib import Path

from pdlogdoctor.cli.behaviour import exit_code_for
from pdlogdoctor.library.patterns import Library

from .conftest import analysed_files, analysed_lines

# ai-dynamo/dynamo#7944 and #7797: the prefill's warmup fails and is logged as a warning
WARMUP_WARNED = [
    "2026-03-30T16:18:08.412960Z  INFO init_llm._warmup_prefill_engine: Start of prefill disaggregation warmup ...",
    "2026-03-30T16:18:08.436201Z  WARN init_llm._warmup_prefill_engine: Prefill warmup failed: "
    "'SamplingParams' object is not subscriptable",
    "2026-03-30T16:18:09.100412Z  INFO init_llm.init_prefill: Registering model with endpoint types: chat,completions",
]
DECODE_NEVER_RECEIVED = [
    "2026-03-30T16:18:16.733580Z  INFO init_llm.init_decode: Registering model with endpoint types: chat,completions",
    "2026-03-30T16:25:41.880932Z ERROR conn.poll: Request 4417702395120846693 waiting_timeout",
    "2026-03-30T16:25:41.881419Z ERROR decode.pop_transferred: Decode transfer failed for request rank=0 "
    "decode_req.req.rid='8d2f47c1e0b94a6e9c3a5b7d1f2e8c60' decode_req.req.bootstrap_room=4417702395120846693 "
    "with exception NIXL KVReceiver Exception",
]


def test_a_warmup_failed_as_a_warning_is_the_cause_of_the_transfers_that_failed(
    tmp_path: Path, library: Library
) -> None:
    files = {"prefill.log": WARMUP_WARNED, "decode.log": DECODE_NEVER_RECEIVED}
    report = analysed_files(tmp_path, library, files)
    assert report.verdict.id == "warmup-failure"
    assert "Prefill warmup failed: 'SamplingParams' object is not subscriptable" in report.verdict.summary
    assert report.verdict.confidence < 0.5  # read from the words alone: a lead


def test_a_warning_that_names_no_cause_leaves_the_failed_transfers_unexplained(
    tmp_path: Path, library: Library
) -> None:
    # torch's deprecation warning says nothing failed: the decode's failures keep no named cause
    deprecated = (
        "2026-03-30T16:18:08.436201Z  WARN torch.storage: TypedStorage is deprecated. It will be removed in the "
        "future and UntypedStorage will be the only storage class."
    )
    prefill = [WARMUP_WARNED[0], deprecated, WARMUP_WARNED[2]]
    report = analysed_files(tmp_path, library, {"prefill.log": prefill, "decode.log": DECODE_NEVER_RECEIVED})
    assert report.verdict.id == "inconclusive"


def _illegal_access_under(frame: str) -> list[str]:
    return [
        "Traceback (most recent call last):",
        frame,
        "    seq_lens_cpu = self.seq_lens.cpu()",
        "RuntimeError: CUDA error: an illegal memory access was encountered",
        "CUDA kernel errors might be asynchronously reported at some other API call, so the stacktrace below "
        "might be incorrect.",
    ]


# verl-project/verl#1611: an SGLang rollout engine's batch step, the paste cut below run_batch
BATCH_STEP = (
    '  File "/opt/ac2/lib/python3.12/site-packages/sglang/srt/managers/schedule_batch.py", line 1602, '
    "in get_model_worker_batch"
)
POOL_SET_UP = (
    '  File "/sgl-workspace/sglang/python/sglang/srt/model_executor/model_runner.py", line 1410, in init_memory_pool'
)


def test_a_crash_named_by_its_words_is_placed_by_its_frames(tmp_path: Path, library: Library) -> None:
    serving = analysed_files(tmp_path / "serving", library, {"excerpt.log": _illegal_access_under(BATCH_STEP)})
    assert serving.verdict.id == "scheduler-runtime-crash"
    assert "get_model_worker_batch" in serving.verdict.summary
    starting = analysed_files(tmp_path / "starting", library, {"excerpt.log": _illegal_access_under(POOL_SET_UP)})
    assert starting.verdict.id == "scheduler-init-crash"


def test_a_crash_with_no_frame_keeps_its_phase_open(tmp_path: Path, library: Library) -> None:
    lines = _illegal_access_under(BATCH_STEP)[3:]  # the exception and CUDA's note, no traceback
    report = analysed_lines(tmp_path, library, lines, "excerpt.log")
    assert report.verdict.id == "scheduler-crash"


# aws/aws-ofi-nccl#346 (current libfabric) and aws/aws-cdi-sdk's user guide (before 1.18: no time field)
EFA_FAILED_SEND = [
    "libfabric:451707:1708520807::efa:cq:efa_rdm_txe_handle_error():737<warn> err: 5, message: Invalid address "
    "My EFA addr: fi_addr_efa://[fe80::13:c2ff:fe6f:f03d]:0:1072483550 My host id: i-0db7083f3fcbebb65 "
    "Peer EFA addr: fi_addr_efa://[fe80::b8:aff:fe44:425]:0:947699476 Peer host id: i-0ce6d3d57139f053c (7)",
    "ip-172-31-69-127:451707:453373 [4] NCCL INFO Channel 00/0 : 0[4] -> 8[4] [send] via NET/AWS Libfabric/4/GDRDMA",
]
EFA_HARMLESS = [
    "libfabric:1428:core:core:fi_getinfo_():962<warn> fi_getinfo: provider ofi_rxm returned -61 (No data available)",
    "libfabric:1428:core:mr:ofi_uffd_init():346<warn> syscall/userfaultfd Operation not permitted",
]


def test_libfabrics_error_handler_line_is_a_completion_error_with_its_own_status(
    tmp_path: Path, library: Library
) -> None:
    report = analysed_lines(tmp_path, library, EFA_FAILED_SEND, "excerpt.log")
    assert report.verdict.id == "rdma-link-failure"
    assert "err: 5, message: Invalid address" in report.verdict.summary
    assert "retry" not in report.verdict.summary  # a status the line never logged


def test_libfabrics_harmless_warnings_are_no_failure(tmp_path: Path, library: Library) -> None:
    report = analysed_lines(tmp_path, library, EFA_HARMLESS, "excerpt.log")
    assert report.verdict.id != "rdma-link-failure"


# aws/aws-ofi-nccl#889: an endpoint the plugin could not create, then NCCL on sockets
OFI_FAILED_TO_START = [
    "ip-10-36-29-253:86:2554 [0] nccl_net_ofi_domain_get_ep:969 NCCL WARN NET/OFI Creating new endpoint for "
    "domain 0x7f899ba992c0 failed: Invalid argument",
    "ip-10-36-29-253:86:2554 [0] nccl_net_ofi_create_plugin:335 NCCL WARN NET/OFI aws-ofi-nccl initialization failed",
    "ip-10-36-29-253:86:2554 [0] nccl_net_ofi_init:155 NCCL WARN NET/OFI Initializing plugin failed",
    "ip-10-36-29-253:86:2554 [0] NCCL INFO NET/IB : No device found.",
    "ip-10-36-29-253:86:2554 [0] NCCL INFO NET/Socket : Using [0]eth0:10.36.29.253<0>",
    "ip-10-36-29-253:86:2554 [0] NCCL INFO Using network Socket",
]


def test_an_ofi_plugin_that_failed_to_start_is_a_failure_led_by_the_step_that_failed(
    tmp_path: Path, library: Library
) -> None:
    report = analysed_lines(tmp_path, library, OFI_FAILED_TO_START, "excerpt.log")
    # the plugin's own wrapper says it failed, not why (no missing fabric is claimed); the warning above
    # it that states its errno leads
    assert report.verdict.id == "inconclusive"
    assert report.unrecognised[0].first.text.endswith("failed: Invalid argument")
    assert "Creating new endpoint for domain 0x7f899ba992c0 failed: Invalid argument" in report.verdict.summary
    assert "OFI plugin failed to initialise" in report.verdict.summary


def test_nccl_on_sockets_with_no_rdma_device_is_no_failure(tmp_path: Path, library: Library) -> None:
    report = analysed_lines(tmp_path, library, OFI_FAILED_TO_START[3:], "excerpt.log")
    assert report.verdict.id == "no-failure-seen"


# b4rtaz/distributed-llama#59: the root node's syslog keeps only the report's first line
OOM_REPORT_FIRST_LINE = (
    "May 19 08:46:24 ubuntu kernel: [107061.602328] main invoked oom-killer: "
    "gfp_mask=0x1100dca(GFP_HIGHUSER_MOVABLE|__GFP_ZERO), order=0, oom_score_adj=0"
)
PEER_ABORTED = [
    "Listening on 0.0.0.0:9998...",
    "Client connected",
    "terminate called after throwing an instance of 'ReadSocketException'",
    "  what():  std::exception",
    "Aborted",
]


def test_the_oom_reports_first_line_is_host_memory_running_out(tmp_path: Path, library: Library) -> None:
    files = {"syslog.log": [OOM_REPORT_FIRST_LINE], "worker.log": PEER_ABORTED}
    report = analysed_files(tmp_path, library, files)
    assert report.verdict.id == "host-oom"
    assert "main invoked oom-killer" in report.verdict.summary


def test_the_oom_report_read_whole_names_its_victim(tmp_path: Path, library: Library) -> None:
    report_lines = [
        "[25375.401100] python invoked oom-killer: gfp_mask=0xcc0(GFP_KERNEL), order=0, oom_score_adj=0",
        "[25375.402210] Tasks state (memory values in pages):",
        "[25375.451210] Out of memory: Killed process 3352 (python) total-vm:23187684kB, anon-rss:15423936kB, "
        "file-rss:4kB, shmem-rss:0kB, UID:1000 pgtables:36164kB oom_score_adj:0",
    ]
    report = analysed_lines(tmp_path, library, report_lines, "dmesg.log")
    assert report.verdict.id == "host-oom"
    assert dict(report.verdict.facts)["killed_process"] == "python"


def test_the_oom_reaper_alone_is_no_oom_kill(tmp_path: Path, library: Library) -> None:
    reaped = "[20409.627732] oom_reaper: reaped process 32055 (php-fpm), now anon-rss:0kB, file-rss:0kB, shmem-rss:0kB"
    report = analysed_lines(tmp_path, library, [reaped], "dmesg.log")
    assert report.verdict.id != "host-oom"


# ovg-project/kvcached#327: the harness's request through the P/D proxy never came back
SERVED = [
    "(APIServer pid=413102) INFO 05-09 13:11:08 [api_server.py:1967] Starting vLLM API server 0 on http://0.0.0.0:20003",
    '(APIServer pid=413102) INFO:     127.0.0.1:40555 - "GET /health HTTP/1.1" 200 OK',
    '(APIServer pid=413102) INFO:     10.128.0.12:51322 - "POST /v1/completions HTTP/1.1" 200 OK',
]


def _harness(outcome: str) -> list[str]:
    return [
        "[INFO] ========== PHASE 4: Send request ==========",
        "[INFO] Sending request_1 through upstream proxy: The capital of France is",
        outcome,
    ]


def test_a_harness_fail_tag_is_a_failed_check(tmp_path: Path, library: Library) -> None:
    files = {"prefill.log": SERVED, "run.log": _harness("[FAIL] request_1 failed or timed out after 300s")}
    report = analysed_files(tmp_path, library, files)
    assert report.verdict.id not in ("healthy", "no-failure-seen")
    assert int(exit_code_for(report)) != 0
    assert "request_1 failed or timed out after 300s" in report.verdict.summary


def test_a_harness_pass_tag_leaves_the_run_healthy(tmp_path: Path, library: Library) -> None:
    files = {"prefill.log": SERVED, "run.log": _harness("[PASS] request_1 answered in 1.2s")}
    report = analysed_files(tmp_path, library, files)
    assert report.verdict.id == "healthy"


PLATFORM_CHECKS = [
    "DEBUG 08-29 04:29:54 [__init__.py:58] Checking if CUDA platform is available.",
    "DEBUG 08-29 04:29:54 [__init__.py:99] CUDA platform is not available because: NVML Shared Library Not Found",
    "DEBUG 08-29 04:29:54 [__init__.py:106] Checking if ROCm platform is available.",
]


def test_vllm_finding_no_platform_is_a_failure(tmp_path: Path, library: Library) -> None:
    # vllm-project/vllm#23935: a pod whose GPU libraries were never injected
    lines = [
        *PLATFORM_CHECKS,
        "INFO 08-29 04:29:54 [__init__.py:245] No platform detected, vLLM is running on UnspecifiedPlatform",
    ]
    report = analysed_lines(tmp_path, library, lines, "excerpt.log")
    assert report.verdict.id == "inconclusive"
    assert "No platform detected" in report.verdict.summary


def test_one_platform_not_available_is_routine(tmp_path: Path, library: Library) -> None:
    lines = [*PLATFORM_CHECKS, "INFO 08-29 04:29:54 [__init__.py:239] Automatically detected platform rocm."]
    report = analysed_lines(tmp_path, library, lines, "excerpt.log")
    assert report.verdict.id == "no-failure-seen"


SIM_USAGE = [
    "Usage of llm-d-inference-sim flags:",
    "      --lora string                List of LoRA adapters, separated by comma",
    "      --model string               Currently 'loaded' model",
    "      --port int                   Port (default 8000)",
]


def test_a_flag_the_program_does_not_know_is_an_error(tmp_path: Path, library: Library) -> None:
    # llm-d/llm-d-inference-sim#96: a manifest passing a flag the image does not know, then its usage
    lines = [
        'I0715 15:49:45.773832       1 cmd.go:36] "Start vllm simulator"',
        "unknown flag: --lora-modules",
        *SIM_USAGE,
    ]
    report = analysed_lines(tmp_path, library, lines, "excerpt.log")
    assert report.verdict.id == "inconclusive"
    assert "unknown flag: --lora-modules" in report.verdict.summary


def test_a_usage_text_alone_is_no_error(tmp_path: Path, library: Library) -> None:
    report = analysed_lines(tmp_path, library, SIM_USAGE, "excerpt.log")
    assert report.verdict.id == "no-failure-seen"


BRITON_WRAPPER = [
    "Traceback (most recent call last):",
    '  File "/usr/local/briton/venv/lib/python3.10/site-packages/briton/error_handling.py", line 32, in '
    "grpc_error_handling",
    '    raise HTTPException(status_code=500, detail="Briton error during inference")',
    "fastapi.exceptions.HTTPException: 500: Briton error during inference",
    "",
    "Handled request: POST /v1/chat/completions HTTP/1.1 500 ",
    "",
]
EXECUTOR_ASSERT = (
    "E0624 21:46:14.504165488     296 briton.cpp:205]                       Executor requestId=235 failed with "
    "error: Encountered an error in forwardAsync function: [TensorRT-LLM][ERROR] Assertion failed: "
    "decoderFinishedEvent must be nullopt. (/src/tensorrt_llm/cpp/tensorrt_llm/batch_manager/"
    "trtGptModelInflightBatching.cpp:1040) "
)


def test_an_assertions_report_leads_the_wrapper_its_caller_raised(tmp_path: Path, library: Library) -> None:
    # NVIDIA/TensorRT-LLM#5451: Briton's Python wrapper printed above the executor's assertion
    report = analysed_lines(tmp_path, library, [*BRITON_WRAPPER, EXECUTOR_ASSERT], "excerpt.log")
    assert report.unrecognised[0].first.text.strip() == EXECUTOR_ASSERT.strip()
    assert "decoderFinishedEvent must be nullopt" in report.verdict.summary
