"""A cause in words no pattern knows names its verdict family (issue 22; open-world/families.toml).

A line no pattern of the library knows, that leads a report with no named cause, names the
catalogue verdict whose cause its words state (a port held, a model refused, a host-memory kill, a
device out of memory, a bootstrap refused, no worker left), whichever component wrote it: at a
confidence below 0.5 (words alone are a lead), quoting the line first, with the family's fix in the
knobs of the engine that wrote the log. Look-alikes do not fire: the words in a run that served, a
config or advice line, a client's own error.

The lines are real, from the threads named beside them; none is a family's own example unless said.
"""

from __future__ import annotations

import shutil
from dataclasses import replace
from pathlib import Path

import pytest

from pdlogdoctor.library.errorlines import check_layer
from pdlogdoctor.library.patterns import Library
from pdlogdoctor.library.templates import message_of
from pdlogdoctor.model import Report
from pdlogdoctor.pipeline import run
from pdlogdoctor.reason.confidence import WORDS_ONLY

from .conftest import FIXTURES

# (thread, file name, lines, the verdict the words name)
PASTES = [
    # bind-failed: sglang's bootstrap server in CI (sgl-project/sglang#21268), tritonserver's gRPC
    # endpoint (triton-inference-server/pytriton#1), a Mooncake sender under vLLM (vllm-project/vllm-ascend#8938).
    # (HCCL's listen failure on Ascend, vllm-ascend#4725, has a pattern of its own since session 37.)
    ("sglang#21268", "job.log", ["OSError: [Errno 98] address already in use"], "bind-failed"),
    (
        "pytriton#1",
        "server.log",
        [
            "E0118 08:25:14.316508 570 main.cc:245] failed to start GRPC service: Unavailable - Socket "
            "'0.0.0.0:2222' already in use",
        ],
        "bind-failed",
    ),
    # model-load-failure: Dynamo's Rust hub client (ai-dynamo/dynamo#286), requests under
    # huggingface_hub (huggingface/diffusers#4447)
    (
        "dynamo#286",
        "paste.txt",
        [
            "ERROR dynamo_runtime::worker: Application shutdown with error: Failed to download file 'USE_POLICY.md' "
            "from model 'meta-llama/Llama-3.2-3B-Instruct': request error: HTTP status client error (401 Unauthorized) "
            "for url (https://huggingface.co/meta-llama/Llama-3.2-3B-Instruct/resolve/main/USE_POLICY.md)"
        ],
        "model-load-failure",
    ),
    (
        "diffusers#4447",
        "train.log",
        [
            "HTTPError: 403 Client Error: Forbidden for url: "
            "https://huggingface.co/DeepFloyd/IF-I-XL-v1.0/resolve/main/model_index.json"
        ],
        "model-load-failure",
    ),
    # host-oom: Slurm's cgroup handler (nextflow-io/nextflow#5932), Ray's kill inside vLLM's engine
    # core (vllm-project/vllm#15102)
    (
        "nextflow#5932",
        "slurm-11300781.out",
        [
            "slurmstepd: error: Detected 1 oom_kill event in StepId=11300781.0. Some of the step tasks have been OOM "
            "Killed.",
            "srun: error: sdumont6156: task 0: Out Of Memory",
        ],
        "host-oom",
    ),
    (
        "vllm#15102",
        "server.log",
        [
            "ERROR 03-21 17:27:44 [core.py:340] ray.exceptions.OutOfMemoryError: Task was killed due to the node "
            "running low on memory."
        ],
        "host-oom",
    ),
    # gpu-oom on other accelerators: Intel's XPU (intel/intel-extension-for-pytorch#629; Ascend's NPU
    # wording is torch/cuda-oom's own since round 25, vllm-project/vllm-ascend#1987)
    (
        "ipex#629",
        "paste.txt",
        [
            "RuntimeError: XPU out of memory. Tried to allocate 1.71 GiB (GPU 0; 15.56 GiB total capacity; 0 bytes "
            "already allocated; 0 bytes reserved in total by PyTorch)"
        ],
        "gpu-oom",
    ),
    # rdma-link-failure: an error completion, in HCCL's words on Ascend (vllm-project/vllm-ascend#7384;
    # the process's shutdown line leads, the CQE line beside it names the cause) and UCX's
    # (openucx/ucx#2322)
    (
        "vllm-ascend#7384",
        "log.txt",
        [
            "[rank11]:[E313 06:55:06.502205450 compiler_depend.ts:1795] To avoid data inconsistency, we are taking "
            "the entire process down.",
            "[rank11]:[E313 06:55:06.502248200 compiler_depend.ts:1693] [Rank 1] HCCL watchdog thread terminated with "
            "exception: [PID: 335] 2026-03-13-06:55:06.896.485 Execution_Error_ROCE_CQE(EI0013): An error CQE "
            "occurred during operator execution.",
        ],
        "rdma-link-failure",
    ),
    (
        "ucx#2322",
        "worker.log",
        [
            "[jazz22:93644:0:93644] rc_verbs_iface.c:63   FATAL: send completion with error: "
            "transport retry counter exceeded"
        ],
        "rdma-link-failure",
    ),
    # gpu-oom: XLA compiling a program whose buffers did not fit one TPU chip's HBM (erfanzar/EasyDeL#142,
    # a blind round's excerpt)
    (
        "EasyDeL#142",
        "notebook.log",
        [
            "XlaRuntimeError: RESOURCE_EXHAUSTED: XLA:TPU compile permanent error. Ran out of memory in memory "
            "space hbm. Used 30.21G of 15.48G hbm. Exceeded hbm capacity by 14.73G."
        ],
        "gpu-oom",
    ),
    # model-load-failure: TGI's launcher whose download step failed (opea-project/GenAIExamples#1991, a
    # blind round's excerpt: its exit line printed before the error line it follows)
    (
        "GenAIExamples#1991",
        "tgi.log",
        [
            "Error: DownloadError",
            "2025-05-23T03:12:22.649807Z ERROR download: text_generation_launcher: Download encountered an error:",
        ],
        "model-load-failure",
    ),
    # bootstrap-unreachable: sglang's own wordings are patterns' (bootstrap-connect-failed); the
    # family's words are tested on a wording no pattern knows in the corpus
    # (tests/data/blind-round7-bundles/19-router-wrong-bootstrap-port-pytest)
]


def _pasted(tmp_path: Path, library: Library, name: str, lines: list[str]) -> Report:
    path = tmp_path / name
    path.write_text("\n".join(lines) + "\n")
    return run([str(path)], library)


@pytest.mark.parametrize(("thread", "name", "lines", "verdict"), PASTES, ids=[p[0] for p in PASTES])
def test_the_words_name_the_family_at_low_confidence_quoting_the_line(
    thread: str, name: str, lines: list[str], verdict: str, library: Library, tmp_path: Path
) -> None:
    report = _pasted(tmp_path, library, name, lines)
    assert report.verdict.id == verdict, (thread, report.verdict.summary)
    assert 0 < report.verdict.confidence < 0.5 and report.verdict.confidence == WORDS_ONLY
    # the line is quoted first: the summary opens on the line no pattern knows, and says so
    assert report.verdict.summary.startswith("The earliest error no pattern explains")
    assert message_of(lines[0])[:60] in report.verdict.summary
    assert "No pattern of the library knows this line" in report.verdict.summary
    assert report.alternatives and report.alternatives[0].id == "inconclusive"


# vllm-project/vllm-ascend#19: Ascend's NPU out of memory in vLLM's format (torch/cuda-oom names it)
VLLM_NPU_OOM = (
    "ERROR 03-05 07:15:39 engine.py:387] NPU out of memory. Tried to allocate 22.00 MiB (NPU 0; 60.97 GiB "
    "total capacity; 10.24 GiB already allocated; 10.24 GiB current active; 19.52 MiB free; 10.65 GiB "
    "reserved in total by PyTorch) If reserved memory is >> allocated memory try setting max_split_size_mb "
    "to avoid fragmentation."
)


def test_the_fix_is_the_engine_s(library: Library, tmp_path: Path) -> None:
    """vLLM's format gets vLLM's knobs; a line in no engine's format, the family's default."""
    (tmp_path / "vllm").mkdir()
    (tmp_path / "bare").mkdir()
    vllm = _pasted(tmp_path / "vllm", library, "paste.txt", [VLLM_NPU_OOM])
    assert vllm.verdict.id == "gpu-oom"
    assert "--gpu-memory-utilization" in vllm.advice and "--mem-fraction-static" not in vllm.advice
    xpu = next(p for p in PASTES if p[0] == "ipex#629")
    bare = _pasted(tmp_path / "bare", library, xpu[1], xpu[2])
    assert "--gpu-memory-utilization" not in bare.advice and "--mem-fraction-static" not in bare.advice
    assert "Device memory ran out" in bare.advice


def test_an_excerpt_of_the_sglang_router_names_no_workers(library: Library, tmp_path: Path) -> None:
    """The router's 503, as an eval client printed it (SemiAnalysisAI/InferenceX PR#2255): no error
    word, but the router's own words (open-world/sources.toml) and a family name it."""
    answer = '503 "No available prefill workers (all circuits open or unhealthy)"'
    report = _pasted(tmp_path, library, "eval.log", [answer])
    assert report.verdict.id == "router-no-workers" and report.verdict.confidence < 0.5


def test_a_run_that_served_keeps_its_verdict(library: Library, tmp_path: Path) -> None:
    """Look-alikes: a port in use by a side-car of a run that served (the corpus's exporter bundle),
    and a hub 401 logged by a client after the end-to-end checks passed, name no family."""
    exporter = run([str(FIXTURES / "blind-fam-vllm-nixl-healthy-exporter-port-in-use")], library)
    assert exporter.verdict.id == "healthy"
    bundle = tmp_path / "served"
    shutil.copytree(FIXTURES / "gate-passed-stays-healthy", bundle)
    with (bundle / "client.log").open("w") as client:
        client.write(
            "requests.exceptions.HTTPError: 401 Client Error: Unauthorized for url: "
            "https://huggingface.co/meta-llama/Llama-3.3-70B-Instruct/resolve/main/config.json\n"
        )
    report = run([str(bundle)], library)
    assert report.verdict.id != "model-load-failure", report.verdict.summary


def test_look_alike_lines_name_nothing(library: Library, tmp_path: Path) -> None:
    """Error-level lines with a family's words out of their sense: a client's connection refused
    with no bootstrap in it (curl), Ray's advice after a kill summary, a server moving to a free port."""
    report = _pasted(
        tmp_path,
        library,
        "client.log",
        ["curl: (7) Failed to connect to localhost port 30000 after 0 ms: Connection refused"],
    )
    assert report.verdict.id not in {"bootstrap-unreachable", "bind-failed"}, report.verdict.summary
    layer = library.errors
    assert layer is not None
    for line in (
        "(raylet) Refer to the documentation on how to address the out of memory issue: "
        "https://docs.ray.io/en/latest/ray-core/scheduling/ray-oom-prevention.html.",
        "[I 08:58:24.417 NotebookApp] The port 8888 is already in use, trying another port.",
    ):
        assert layer.family_of(line) is None, line


def test_the_families_check_themselves(library: Library) -> None:
    """Every family names its own examples and none of its look-alikes; a planted wrong example is
    reported; every family's verdict is in the catalogue."""
    layer = library.errors
    assert layer is not None and layer.families and not check_layer(layer)
    assert all(library.has_verdict(family.verdict) for family in layer.families)
    family = layer.families[0]
    planted = replace(layer, families=(replace(family, no_match=(*family.no_match, family.match[0])),))
    assert any("no_match example matches" in problem for problem in check_layer(planted))
    planted = replace(layer, families=(replace(family, match=("NCCL INFO Connected all trees",)),))
    assert any("example named None" in problem for problem in check_layer(planted))


# ROCm/mori#363: expert-parallel dispatch read an expert id past its table; the GPU faulted under load.
GPU_FAULT = (
    "Memory access fault by GPU node-11 (Agent handle: 0x5627e8f3a2c0) on address 0x7f0e3a7ff000. "
    "Reason: Page not present or supervisor privilege."
)
DECODE_BATCH = (
    "[2026-06-03 02:25:{s:02d} DP9 TP9 EP9] Decode batch. #running-req: 9, #token: 12060, token usage: 0.04, "
    "cuda graph: True, gen throughput (token/s): 412.44, #queue-req: 0, "
)


def test_a_crash_the_words_name_after_batches_happened_while_serving(library: Library, tmp_path: Path) -> None:
    lines = [DECODE_BATCH.format(s=s) for s in range(0, 50, 5)] + [GPU_FAULT, "Fatal Python error: Aborted"]
    (tmp_path / "decode_node1.log").write_text("\n".join(lines) + "\n")
    report = run([str(tmp_path / "decode_node1.log")], library)
    assert report.verdict.id == "scheduler-runtime-crash", report.verdict.summary
    assert report.verdict.confidence < 0.5 and "It was serving" in report.verdict.summary


def test_a_crash_the_words_name_alone_keeps_its_phase_unknown(library: Library, tmp_path: Path) -> None:
    (tmp_path / "excerpt.log").write_text(f"{GPU_FAULT}\nFatal Python error: Aborted\n")
    report = run([str(tmp_path / "excerpt.log")], library)
    assert report.verdict.id == "scheduler-crash", report.verdict.summary


def test_an_error_between_answers_is_named_by_its_words_as_a_lead(library: Library, tmp_path: Path) -> None:
    """InternLM/lmdeploy#1991 (round 126's excerpts-b 02): TurboMind's `CUDA runtime error: out of memory`
    between two 200s whose answers came back empty. The 200 after it does not vouch for it: gpu-oom,
    from the words, below 0.5. Look-alike: an error no family names between two 200s stays inconclusive."""
    answered = 'INFO:     127.0.0.1:40526 - "POST /v1/chat/completions HTTP/1.1" 200 OK'
    oom = "[TM][ERROR] CUDA runtime error: out of memory /lmdeploy/src/turbomind/utils/allocator.h:233"
    (tmp_path / "oom").mkdir()
    (tmp_path / "oom" / "api_server.log").write_text(f"{answered}\n{oom}\n{answered}\n")
    report = run([str(tmp_path / "oom")], library)
    assert report.verdict.id == "gpu-oom", report.verdict.summary
    assert report.verdict.confidence < 0.5 and "CUDA runtime error: out of memory" in report.verdict.summary
    (tmp_path / "other").mkdir()
    (tmp_path / "other" / "api_server.log").write_text(f"{answered}\n[TM][ERROR] bad stop words\n{answered}\n")
    report = run([str(tmp_path / "other")], library)
    assert report.verdict.id == "inconclusive", report.verdict.summary


# vLLM V0's engine process logs what it died of as `logger.exception(e)`: the exception's text on the
# record's line, its traceback below (HabanaAI/vllm-fork#1474, a blind round's excerpt, cut at the
# traceback's run_mp_engine frame). Cut there, the record's line is the exception's only statement.
V0_FRAMES = [
    "ERROR 06-24 15:31:46 engine.py:389] Traceback (most recent call last):",
    'ERROR 06-24 15:31:46 engine.py:389]   File "/usr/local/lib/python3.10/dist-packages/vllm/engine/multiprocessing/'
    'engine.py", line 380, in run_mp_engine',
    "ERROR 06-24 15:31:46 engine.py:389]     engine = MQLLMEngine.from_engine_args(engine_args=engine_args,",
]
CACHE_MISSING = (
    "ERROR 06-24 15:31:46 engine.py:389] Cache directory not found: /data/.cache/huggingface. Please use "
    "`cache_dir` argument or set `HF_HUB_CACHE` environment variable."
)
# huggingface_hub's GatedRepoError, its message as the hub words it, in the same record
GATED = (
    "ERROR 06-24 15:31:46 engine.py:389] Access to model meta-llama/Llama-3.1-8B-Instruct is restricted and you "
    "are not in the authorized list. Visit https://huggingface.co/meta-llama/Llama-3.1-8B-Instruct to ask for access."
)


@pytest.mark.parametrize("message", [CACHE_MISSING, GATED], ids=["cache-missing", "gated"])
def test_a_record_s_message_over_its_cut_traceback_names_the_crash_s_cause(
    message: str, library: Library, tmp_path: Path
) -> None:
    report = _pasted(tmp_path, library, "engine.log", [message, *V0_FRAMES])
    assert report.verdict.id == "model-load-failure", report.verdict.summary
    assert 0 < report.verdict.confidence < 0.5  # words alone: a lead
    assert message_of(message)[:60] in report.verdict.summary
    assert any(a.id.startswith("scheduler") for a in report.alternatives)  # the crash stays beside it


def test_a_record_s_message_naming_no_cause_leaves_the_crash(library: Library, tmp_path: Path) -> None:
    """The look-alike: the message over the traceback states no family's words: the crash stands."""
    message = "ERROR 06-24 15:31:46 engine.py:389] 'NoneType' object has no attribute 'shape'"
    report = _pasted(tmp_path, library, "engine.log", [message, *V0_FRAMES])
    assert report.verdict.id.startswith("scheduler"), report.verdict.summary
