"""Resource and memory limits in the shapes each component states them (issue 22).

Each mechanism is read from real lines of at least two components or threads, and a look-alike
must not fire:
- a memory registration that failed with ENOMEM (NCCL's ibvwrap, UCX's ib_md with its memlock hint,
  NCCL's OFI plugin, the async-rdma crate) is the locked-memory limit: rdma-resource-exhausted, the
  fix names that limit (and NCCL_BUFFSIZE for NCCL); the same lines with another errno are a refusal;
- Ray's memory monitor killing workers is host memory (host-oom), never GPU memory; Ray's worker-died
  message, which lists the OOM killer among possible causes, is only a lead;
- an engine's own words for GPU memory that ran out (vLLM's start-up check, TensorRT-LLM's runtime
  allocation) are gpu-oom, with that engine's knobs;
- NVSHMEM's missing peer-memory module is a registration refusal that names nvidia_peermem.
"""

from __future__ import annotations

from pathlib import Path

from pdlogdoctor.library.patterns import Library
from pdlogdoctor.model import Report
from pdlogdoctor.pipeline import run

from .conftest import ROOT

EXCERPTS = ROOT / "tests" / "data" / "excerpts"
SGLANG_FLAGS = ("--mem-fraction-static", "--cuda-graph-max-bs")


def _analyze(tmp_path: Path, files: dict[str, list[str]], library: Library) -> Report:
    bundle = tmp_path / "case"
    bundle.mkdir(parents=True)
    for name, lines in files.items():
        (bundle / name).write_text("\n".join(lines) + "\n")
    return run([str(bundle)], library)


# ---------------------------------------------------------------- registrations that hit memlock

# NVIDIA/nccl-tests#206 (ulimit -l 8192) and the Azure health check's NCCL 'Last error' (dmabuf).
NCCL_REG_ENOMEM = "misc/ibvwrap.cc:278 NCCL WARN Call to ibv_reg_mr_iova2 failed with error Cannot allocate memory"
NCCL_DMABUF_ENOMEM = "Call to ibv_reg_dmabuf_mr failed with error Cannot allocate memory"
# UCX's ib_md.c line with ib_log.c's memlock hint (tests/data/blind-round5-bundles/05's format).
UCX_DMABUF_ENOMEM = (
    "[1773222205.082985] [gpu-h100-08:48230:0]           ib_md.c:293  UCX  ERROR ibv_reg_dmabuf_mr("
    "address=0x7fe4c3000000, length=6710886400, access=0xf) failed: Cannot allocate memory : Please set max "
    "locked memory (ulimit -l) to 'unlimited' (current: 64 kbytes)"
)
# NVIDIA/nccl#563 (EFA) and PRONTOLab/GB-25 (Slingshot, EINVAL).
OFI_ENOMEM = (
    "ip-10-0-87-143:149:298 [5] register_mr_buffers:465 NCCL WARN NET/OFI Unable to register memory "
    "(type = 1) for device 0. RC: 12, Error: Cannot allocate memory"
)
OFI_EINVAL = (
    "nid001264:1291155:1293014 [1] register_mr_buffers:647 NCCL WARN NET/OFI Unable to register memory "
    "(type = 2) for device 5. RC: -22, Error: Invalid argument"
)
# NVIDIA/nccl#778 (a driver stack without dmabuf support).
NCCL_DMABUF_UNSUPPORTED = (
    "misc/ibvwrap.cc:288 NCCL WARN Call to ibv_reg_dmabuf_mr failed with error Operation not supported"
)
# datenlord/async-rdma#107 (the rpc example run without the privileges that lift memlock).
ASYNC_RDMA = [
    "2023-07-20T12:27:48.882393Z ERROR async_rdma::memory_region::raw: ibv_reg_mr err, arguments:",
    " len:2097152,",
    ', err info:Os { code: 12, kind: OutOfMemory, message: "Cannot allocate memory" }',
    "2023-07-20T12:27:48.882461Z ERROR async_rdma::mr_allocator: RawMemoryRegion::register_from_pd failed "
    'Os { code: 12, kind: OutOfMemory, message: "Cannot allocate memory" }',
]


def test_nccl_registrations_that_hit_memlock_name_the_limit_and_nccls_buffers(tmp_path: Path, library: Library) -> None:
    for n, line in enumerate((NCCL_REG_ENOMEM, NCCL_DMABUF_ENOMEM)):
        report = _analyze(tmp_path / f"n{n}", {"worker.log": [line]}, library)
        assert report.verdict.id == "rdma-resource-exhausted", line
        assert "ulimit -l unlimited" in report.advice and "NCCL_BUFFSIZE" in report.advice


def test_ucx_prints_the_limit_and_the_report_names_it(tmp_path: Path, library: Library) -> None:
    report = _analyze(tmp_path, {"decode.log": [UCX_DMABUF_ENOMEM]}, library)
    assert report.verdict.id == "rdma-resource-exhausted"
    assert "64 kbytes" in report.verdict.summary and dict(report.verdict.facts)["memlock_limit"] == "64 kbytes"
    assert report.advice.startswith("For Cannot allocate memory, raise the locked-memory limit")


def test_ofi_and_rust_registrations_with_enomem_are_the_limit(tmp_path: Path, library: Library) -> None:
    ofi = _analyze(tmp_path / "ofi", {"job.log": [OFI_ENOMEM]}, library)
    rust = _analyze(tmp_path / "rust", {"paste.txt": ASYNC_RDMA}, library)
    for report in (ofi, rust):
        assert report.verdict.id == "rdma-resource-exhausted"
        assert "locked-memory limit" in report.advice
    assert [e.line for e in rust.chain] == [3]  # the record's error row, before the allocator's repeat


def test_the_same_registrations_with_another_errno_are_a_refusal_not_the_limit(
    tmp_path: Path, library: Library
) -> None:
    for n, line in enumerate((OFI_EINVAL, NCCL_DMABUF_UNSUPPORTED)):
        report = _analyze(tmp_path / f"n{n}", {"worker.log": [line]}, library)
        assert report.verdict.id == "mr-registration-rejected", line
        assert all(alt.id != "rdma-resource-exhausted" for alt in report.alternatives)


def test_a_queue_creation_enomem_is_not_read_as_a_registration(library: Library) -> None:
    """NCCL's ibv_create_cq ENOMEM (DeepEP#143) stays the queue pattern's line."""
    line = (
        "msm-h200-2:4016:4653 [7] misc/ibvwrap.cc:190 NCCL WARN Call to ibv_create_cq failed with error "
        "Cannot allocate memory"
    )
    assert library.pattern("nccl-ibv-reg-mr-failed").regex.search(line) is None
    assert library.pattern("rdma-resource-enomem").regex.search(line) is not None


# ---------------------------------------------------------------- host memory by Ray's monitor


def test_rays_memory_monitor_kill_is_host_memory_with_the_nodes_ram_as_the_limit(library: Library) -> None:
    report = run([str(EXCERPTS / "vllm-738-ray-oom-raylet")], library)
    assert report.verdict.id == "host-oom" and report.verdict.confidence >= 0.7
    assert "host (CPU) memory, not GPU memory" in report.verdict.summary
    assert "host RAM is the limit" in report.advice and "RAY_memory_usage_threshold" in report.advice


def test_a_terminal_wrapped_raylet_line_is_read_whole_at_its_first_row(tmp_path: Path, library: Library) -> None:
    rows = [  # vllm-project/vllm#1160, as the terminal wrapped it
        "#033[2m#033[33m(raylet)#033[0m [DATE] (raylet) node_manager.cc:3007: 2 Workers (tasks /",
        " actors) killed due to memory pressure (OOM), 0 Workers crashed due to other reasons at node "
        "(ID: abd406d415bd2b74a5",
    ]
    report = _analyze(tmp_path, {"syslog.txt": rows}, library)
    assert report.verdict.id == "host-oom" and [e.line for e in report.roots] == [1]
    assert all(alt.id != "gpu-oom" for alt in report.alternatives)


def test_rays_advice_alone_tells_a_kill(tmp_path: Path, library: Library) -> None:
    # Ray writes this advice only under a kill it reports (the raylet's summary, the task's
    # OutOfMemoryError); a job's log truncated to its tail may keep nothing else of it
    # (TideDra/lmm-r1#71, OpenRLHF/OpenRLHF#911).
    advice = (
        "(raylet) Refer to the documentation on how to address the out of memory issue: "
        "https://docs.ray.io/en/latest/ray-core/scheduling/ray-oom-prevention.html. Consider provisioning "
        "more memory on this node or reducing task parallelism by requesting more CPUs per task."
    )
    report = _analyze(tmp_path, {"driver.log": [advice]}, library)
    assert report.verdict.id == "host-oom"
    assert [e.pattern for e in report.roots] == ["ray-memory-monitor-advice"]


def test_rays_documentation_in_prose_is_no_kill(tmp_path: Path, library: Library) -> None:
    prose = (
        "When the application fails due to OOM, consider reducing the memory usage of the tasks and actors; "
        "see https://docs.ray.io/en/latest/ray-core/scheduling/ray-oom-prevention.html for the monitor."
    )
    report = _analyze(tmp_path, {"notes.txt": [prose]}, library)
    assert report.verdict.id != "host-oom"


def test_rays_list_of_possible_causes_is_a_lead_not_a_finding(tmp_path: Path, library: Library) -> None:
    line = (  # vllm-project/vllm#586
        "The actor is dead because its worker process has died. Worker exit type: SYSTEM_ERROR Worker exit detail: "
        "Worker unexpectedly exits with a connection error code 2. End of file. There are some potential root "
        "causes. (1) The process is killed by SIGKILL by OOM killer due to high memory usage. (2) ray stop --force "
        "is called. (3) The worker is crashed unexpectedly due to SIGSEGV or other unexpected errors."
    )
    report = _analyze(tmp_path, {"paste.txt": [line]}, library)
    assert report.verdict.id == "host-oom" and report.verdict.confidence < 0.5
    assert "dmesg" in report.advice and any("confirms the kill" in item for item in report.missing)


# ---------------------------------------------------------------- GPU memory in an engine's own words

VLLM_HELD = (  # llm-d-incubation/llm-d-fast-model-actuation#709
    "(EngineCore pid=3310) ERROR 08-11 13:56:14 [v1/engine/core.py:1195] ValueError: Free memory on device cuda:0 "
    "(0.41/79.18 GiB) on startup is less than desired GPU memory utilization (0.85, 67.3 GiB). Decrease GPU memory "
    "utilization or reduce GPU memory used by other processes."
)
VLLM_HELD_BARE = (  # vllm-project/vllm#50135's title: no vLLM prefix, the engine is the pattern's
    "ValueError: Free memory on device xpu:0 (0.22/30.3 GiB) on startup is less than desired GPU memory "
    "utilization (0.7, 21.21 GiB). Decrease GPU memory utilization or reduce GPU memory used by oth"
)


def test_vllms_start_up_check_names_another_process_holding_the_gpu(tmp_path: Path, library: Library) -> None:
    for n, line in enumerate((VLLM_HELD, VLLM_HELD_BARE)):
        report = _analyze(tmp_path / f"n{n}", {"engine.log": [line]}, library)
        assert report.verdict.id == "gpu-oom", line
        assert report.advice.startswith("Another process holds GPU memory")
        assert not any(flag in report.advice for flag in SGLANG_FLAGS)
        assert dict(report.verdict.facts)["phase"] == "during startup"
    held = _analyze(tmp_path / "held", {"engine.log": [VLLM_HELD]}, library)
    assert "78.77 of 79.18 GiB on cuda:0" in held.advice


TRT_OOM = (  # triton-inference-server/tensorrtllm_backend#281
    "E1103 02:59:01.152656 81041 backend_model.cc:553] ERROR: Failed to create instance: unexpected error when "
    "creating modelInstanceState: [TensorRT-LLM][ERROR] CUDA runtime error in ::cudaMallocAsync(ptr, n, "
    "mCudaStream->get()): out of memory (/app/tensorrt_llm/cpp/tensorrt_llm/runtime/tllmBuffers.h:112)"
)
TRT_OOM_RUNTIME = (  # NVIDIA/TensorRT-LLM#1556
    "RuntimeError: [TensorRT-LLM][ERROR] CUDA runtime error in ::cudaMallocAsync(ptr, n, mCudaStream->get()): "
    "out of memory (/app/tensorrt_llm/cpp/tensorrt_llm/runtime/tllmBuffers.h:118)"
)


def test_tensorrt_llms_allocation_failure_is_gpu_oom_with_its_own_knobs(tmp_path: Path, library: Library) -> None:
    for n, line in enumerate((TRT_OOM, TRT_OOM_RUNTIME)):
        report = _analyze(tmp_path / f"n{n}", {"triton.log": [line]}, library)
        assert report.verdict.id == "gpu-oom", line
        assert "kv_cache_free_gpu_mem_fraction" in report.advice and "max_batch_size" in report.advice
        assert not any(flag in report.advice for flag in (*SGLANG_FLAGS, "--gpu-memory-utilization"))


def test_another_cuda_error_of_tensorrt_llm_is_no_gpu_oom(tmp_path: Path, library: Library) -> None:
    line = (  # NVIDIA/TensorRT-LLM#2358
        "Encountered an error in forwardAsync function: [TensorRT-LLM][ERROR] CUDA runtime error in "
        "cudaMemcpyAsync(dst, src.data(), src.getSizeInBytes(), cudaMemcpyDefault, mStream->get()): invalid argument"
    )
    report = _analyze(tmp_path, {"triton.log": [line]}, library)
    assert report.verdict.id != "gpu-oom"


# ---------------------------------------------------------------- a peer-memory module that is missing

NVSHMEM_IBRC = (  # deepseek-ai/DeepEP#223
    "/sgl-workspace/nvshmem/src/modules/transport/ibrc/ibrc.cpp:nvshmemt_init:1851: neither nv_peer_mem, "
    "or nvidia_peermem detected. Skipping transport."
)
NVSHMEM_IBGDA = (  # sgl-project/sglang#6017
    "/sgl-workspace/nvshmem/src/modules/transport/ibgda/ibgda.cpp:nvshmemt_init:3626: neither nv_peer_mem, "
    "or nvidia_peermem detected"
)


def test_nvshmem_without_peer_memory_is_a_refused_registration_naming_the_module(
    tmp_path: Path, library: Library
) -> None:
    for n, line in enumerate((NVSHMEM_IBRC, NVSHMEM_IBGDA)):
        report = _analyze(tmp_path / f"n{n}", {"docker-logs.txt": [line]}, library)
        assert report.verdict.id == "mr-registration-rejected", line
        assert "modprobe nvidia_peermem" in report.verdict.summary
        assert report.verdict.id not in ("rdma-resource-exhausted", "rdma-link-failure")


def test_nvshmem_skipping_a_transport_on_a_run_that_served_is_not_the_verdict(tmp_path: Path, library: Library) -> None:
    files = {"worker.log": [NVSHMEM_IBRC], "bench.log": ["[probe] ok:  Paris. It is the capital of France."]}
    report = _analyze(tmp_path, files, library)
    assert report.verdict.id != "mr-registration-rejected"


# ---------------------------------------------------------------- sglang's KV token pool, not the GPU

POOL_OOM = [  # sgl-project/sglang#34676 (hybrid mamba/radix cache, under load)
    "RuntimeError: Prefill out of memory. Try to lower your batch size.",
    "Try to allocate 8192 tokens.",
    "Available full tokens: 8070656 (full_available_size=7936 + full_evictable_size_=8062720)",
    "Available mamba: 760 (available_size=57 + component_evictable_size_=703)",
]
POOL_OOM_DECODE = "Decode out of memory. Try to lower your batch size."  # sgl-project/sglang#11581 (a pool leak)
RETRACTIONS = [  # sgl-project/sglang#4184: the routine notice of a full pool, nothing crashed
    "[2025-03-07 21:49:33 TP13] Decode out of memory happened. #retracted_reqs: 1, #new_token_ratio: 0.1474 -> 0.1845",
    "[2025-03-07 21:49:45 TP9] Decode out of memory happened. #retracted_reqs: 1, #new_token_ratio: 0.0980 -> 0.1919",
]


def test_a_batch_the_token_pool_cannot_hold_is_a_crash_while_serving_naming_the_pool(
    tmp_path: Path, library: Library
) -> None:
    for n, lines in enumerate((POOL_OOM, [POOL_OOM_DECODE])):
        report = _analyze(tmp_path / f"n{n}", {"server.log": lines}, library)
        assert report.verdict.id == "scheduler-runtime-crash", lines[0]
        assert report.advice.startswith("The KV token pool is the limit")
        assert "--max-running-requests" in report.advice and "--mem-fraction-static" in report.advice
        assert all(alt.id not in ("gpu-oom", "host-oom") for alt in report.alternatives)


def test_sglangs_retraction_notice_is_no_crash(tmp_path: Path, library: Library) -> None:
    report = _analyze(tmp_path, {"server.log": RETRACTIONS}, library)
    assert not report.verdict.id.startswith("scheduler-") and report.verdict.id != "gpu-oom"


# ---------------------------------------------------------------- a send queue that is full

SQ_FULL = "SQ full (batch): ep=0 depth=4351 requested=1 max=4351"  # SemiAnalysisAI/InferenceX#998
BRPC_POST_ENOMEM = (  # apache/brpc#3202
    "[ps-57] [        UNKNOWN][UNKNOWN][W][2026-01-26 09:05:15.372264][169925][rdma_endpoint.cpp:895] "
    "Fail to ibv_post_send: Cannot allocate memory, window=1, sq_current=16"
)


def test_a_full_send_queue_is_an_exhausted_rdma_resource_whose_limit_is_its_depth(
    tmp_path: Path, library: Library
) -> None:
    for n, line in enumerate((SQ_FULL, BRPC_POST_ENOMEM)):
        report = _analyze(tmp_path / f"n{n}", {"prefill.log": [line]}, library)
        assert report.verdict.id == "rdma-resource-exhausted", line
        assert report.advice.startswith("The send queue's depth is the limit")
        assert "ulimit -l does not help" in report.advice


def test_a_post_to_a_queue_pair_in_error_is_no_full_queue(tmp_path: Path, library: Library) -> None:
    line = (  # ydb-platform/nbs#4533: the queue pair had failed (retry exceeded) before
        "2025-10-15T06:49:33.973431Z :BLOCKSTORE_RDMA ERROR: ibv_post_recv failed with error 12: Cannot allocate memory"
    )
    report = _analyze(tmp_path, {"server.log": [line]}, library)
    assert report.verdict.id != "rdma-resource-exhausted"


def test_a_queue_creation_enomem_keeps_the_memlock_fix(tmp_path: Path, library: Library) -> None:
    line = "E0729 05:04:30.527725 14093 rdma_endpoint.cpp:70] Failed to create QP: Cannot allocate memory [12]"
    report = _analyze(tmp_path, {"prefill.log": [line]}, library)  # kvcache-ai/Mooncake#691
    assert report.verdict.id == "rdma-resource-exhausted"
    assert "locked-memory limit" in report.advice and "send queue" not in report.advice
