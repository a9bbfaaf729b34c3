"""Failure shapes that blind rounds 138 to 140 showed the tool for the first time (issue 22), each
beside the look-alike that must not be read as it.

- a generation that is one digit or `@` repeated (`3333...`, ollama/ollama#12060), not a hash or an id;
- a chat answer escaped inside another JSON document, looping on one sentence (vllm-ascend#13381);
- a completion drawn from a handful of words among marks (vllm-ascend#1743), not an answer that
  exclaims once;
- capitals a script writes its outcome in (`FAILURE: check 80.4 <= 80.0: ...`, iree-org/iree#19442);
- a lower-case tool level (`warning: could not find ...`, gdb) is a warning, not an error;
- production-stack's router finding no serving engine, not one engine;
- a server's failed warmup logged as a warning, before the peer's transfers time out (Dynamo);
- a registration that failed in words other than the verbs call's, with its errno;
- a full pool whose generation throughput collapses (vLLM preempting in a loop), not a full pool
  that keeps generating.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from pdlogdoctor.model import Report

from .conftest import analysed_files, shipped_library

LIBRARY = shipped_library()


def _analysed(tmp_path: Path, files: dict[str, list[str]]) -> Report:
    return analysed_files(tmp_path, LIBRARY, files)


@pytest.mark.parametrize(
    ("answer", "garbage"),
    [
        ("3" * 128, True),
        ("@" * 60, True),
        ("0000000000000000000000000000000000000000 3f6c1b2e9a7d4c8b0e5f1a2b3c4d5e6f7a8b9c0d refs/heads/main", False),
        ("trace_id=00000000000000000000000000000000 span_id=0000000000000000", False),
    ],
)
def test_a_line_of_one_digit_repeated_is_a_broken_generation(tmp_path: Path, answer: str, garbage: bool) -> None:
    report = _analysed(
        tmp_path,
        {
            "response.txt": [">>> write a python function that reverses a string", answer],
            "server.log": [
                '[GIN] 2025/08/24 - 12:50:58 | 200 |         1m14s |       127.0.0.1 | POST     "/api/chat"'
            ],
        },
    )
    assert (report.verdict.id == "output-corruption") is garbage, report.verdict.summary
    if garbage:
        assert answer in report.verdict.summary


ESCAPED_CHAT = (
    '        "result": "{\\"id\\":\\"chatcmpl-a77b85\\",\\"object\\":\\"chat.completion\\",'
    '\\"choices\\":[{\\"index\\":0,\\"message\\":{\\"role\\":\\"assistant\\",\\"content\\":\\"{content}\\"}}]}"'
)


@pytest.mark.parametrize(("content", "garbage"), [("1 + 1 = 2. " * 40, True), ("1 + 1 = 2.", False)])
def test_an_escaped_chat_answer_looping_on_one_sentence_is_garbage(tmp_path: Path, content: str, garbage: bool) -> None:
    report = _analysed(tmp_path, {"answer.log": [ESCAPED_CHAT.replace("{content}", content.strip())]})
    assert (report.verdict.id == "output-corruption") is garbage, report.verdict.summary


SOUP = (
    ",.,. and,.,,,,,,.,0 and,, and,,,)),.,, a,;,,,.,,;;,,,,, and,, to,,,,,,,,,.,,,,,,,,,.,),,,, of,, and,; for, of,,,, "
    * 3
)
EXCLAIMED = (
    "Wow!!!! That is great news about the results of the benchmark, congratulations to the whole team on the "
    "new release and good luck with the move to the next cluster next week"
)


@pytest.mark.parametrize(("text", "garbage"), [(SOUP, True), (EXCLAIMED, False)])
def test_a_completion_of_a_handful_of_words_among_marks_is_garbage(tmp_path: Path, text: str, garbage: bool) -> None:
    answer = '{"id":"cmpl-1","object":"text_completion","choices":[{"index":0,"text":"' + text.strip() + '"}]}'
    access = 'INFO:     127.0.0.1:48110 - "POST /v1/completions HTTP/1.1" 200 OK'
    report = _analysed(tmp_path, {"excerpt.log": [access, answer]})
    assert (report.verdict.id == "output-corruption") is garbage, report.verdict.summary


def test_failure_in_capitals_is_an_error_line(tmp_path: Path) -> None:
    line = "FAILURE: check 80.4 <= 80.0: SDXL unet benchmark time should not regress"
    report = _analysed(tmp_path, {"excerpt.log": [line]})
    assert report.verdict.id not in ("healthy", "no-failure-seen"), report.verdict.summary
    assert line in report.verdict.summary


def test_a_lower_case_tool_warning_is_no_error(tmp_path: Path) -> None:
    warning = "warning: could not find '.gnu_debugaltlink' file for /lib/x86_64-linux-gnu/liblber.so.2"
    after = [
        "I0801 15:40:05.041813    1049 nixl_plugin_manager.cpp:316] Discovered and loaded plugin: UCX",
        "I0801 15:40:05.042197    1049 config.cpp:43] Modified UCX config: ADDRESS_VERSION=v2",
        "I0801 15:40:05.042222    1049 config.cpp:43] Modified UCX config: RNDV_THRESH=inf",
        "I0801 15:40:05.042235    1049 config.cpp:43] Modified UCX config: MAX_COMPONENT_MDS=32",
        "I0801 15:40:05.042247    1049 config.cpp:43] Modified UCX config: MAX_RMA_RAILS=2",
    ]
    start = "I0801 15:40:04.429156    1049 nixl_agent.cpp:92] NIXL ETCD is disabled"
    report = _analysed(tmp_path, {"excerpt.log": [start, warning, *after]})
    assert report.verdict.id == "no-failure-seen", report.verdict.summary
    # ... and the same words with no level are an error: a step that could not be done
    report = _analysed(tmp_path, {"excerpt.log": [start, warning.removeprefix("warning: "), *after]})
    assert report.verdict.id == "inconclusive", report.verdict.summary


@pytest.mark.parametrize(("engines", "no_workers"), [(0, True), (1, False)])
def test_a_router_scraping_no_engine_has_no_worker(tmp_path: Path, engines: int, no_workers: bool) -> None:
    scrape = (
        f"[2026-07-21 09:14:02,511] INFO: Scraping metrics from {engines} serving engine(s) "
        "(engine_stats.py:146:vllm_router.stats.engine_stats)"
    )
    report = _analysed(tmp_path, {"router.log": [scrape, 'INFO:     10.42.3.1:51022 - "GET /health HTTP/1.1" 200 OK']})
    assert (report.verdict.id == "router-no-workers") is no_workers, report.verdict.summary


PREFILL = [
    "2026-04-03T16:02:24.104233Z  INFO scheduler.__init__: max_total_num_tokens=1011840, chunked_prefill_size=8192",
    "2026-04-03T16:02:25.104233Z  INFO init_llm._warmup_prefill_engine: Start of prefill disaggregation warmup ...",
    "2026-04-03T16:02:25.516233Z  WARN init_llm._warmup_prefill_engine: "
    "Prefill warmup failed: 'SamplingParams' object is not subscriptable",
]
DECODE = [
    "2026-04-03T16:08:06.318220Z  WARN conn.poll: Some requests fail to receive KV Cache transfer done signal after "
    "bootstrapping. If a greater mean TTFT is acceptable, you can 'export SGLANG_DISAGGREGATION_WAITING_TIMEOUT=600' "
    "(10 minutes) to relax the timeout condition.",
]


def test_a_server_s_failed_warmup_logged_as_a_warning_is_the_cause_of_the_timeouts(tmp_path: Path) -> None:
    report = _analysed(tmp_path, {"prefill_worker.log": PREFILL, "decode_worker.log": DECODE})
    assert report.verdict.id == "warmup-failure", report.verdict.summary
    assert "Prefill warmup failed" in report.verdict.summary
    assert report.verdict.confidence < 0.5  # read from the words alone


def test_a_warning_no_family_names_leaves_the_timeout_its_verdict(tmp_path: Path) -> None:
    quiet = [
        *PREFILL[:2],
        "2026-04-03T16:02:25.516233Z  WARN init_llm.load: Failed to load the optional tokenizer cache",
    ]
    report = _analysed(tmp_path, {"prefill_worker.log": quiet, "decode_worker.log": DECODE})
    assert report.verdict.id == "kv-transfer-timeout", report.verdict.summary


@pytest.mark.parametrize(
    ("line", "verdict"),
    [
        ("RDMA buffer MR registration failed: Invalid argument", "mr-registration-rejected"),
        ("Libfabric error: (-12) Cannot allocate memory", "rdma-resource-exhausted"),
        ("Failed to register memory for the staging buffer, retrying with a smaller one", "inconclusive"),
    ],
)
def test_a_registration_failed_in_other_words_is_named_by_its_errno(tmp_path: Path, line: str, verdict: str) -> None:
    report = _analysed(
        tmp_path, {"excerpt.log": ["[RDMA] Selected NIC rdmap86s0 (index 1) for GPU 1, NUMA node 0", line]}
    )
    assert report.verdict.id == verdict, report.verdict.summary


def _engine_line(second: int, gen: float, running: int, waiting: int, usage: float) -> str:
    return (
        f"(APIServer pid=11574) INFO 03-17 15:{38 + second // 60:02d}:{second % 60:02d} [loggers.py:259] Engine 000: "
        f"Avg prompt throughput: 12000.0 tokens/s, Avg generation throughput: {gen:.1f} tokens/s, Running: "
        f"{running} reqs, Waiting: {waiting} reqs, GPU KV cache usage: {usage:.1f}%, Prefix cache hit rate: 0.0%"
    )


@pytest.mark.parametrize(("late_gen", "saturated"), [(12.0, True), (115.0, False)])
def test_a_full_pool_whose_generation_collapses_is_a_saturated_decode(
    tmp_path: Path, late_gen: float, saturated: bool
) -> None:
    early = [_engine_line(10 * i, 20.0 + 12 * i, 10 + 6 * i, 90 - 6 * i, 19.0 + 11 * i) for i in range(8)]
    late = [_engine_line(80 + 10 * i, late_gen, 48 + i % 2, 52 - i % 2, 99.8) for i in range(10)]
    access = '(APIServer pid=11574) INFO:     127.0.0.1:40112 - "POST /v1/completions HTTP/1.1" 200 OK'
    report = _analysed(tmp_path, {"excerpt.log": [access, *early, *late]})
    if saturated:
        assert report.verdict.id == "decode-saturated", report.verdict.summary
        assert "to 12 by the end" in report.verdict.summary
    else:
        assert report.verdict.id == "healthy", report.verdict.summary


WORKER = "(Worker_TP0 pid=406) ERROR 09-10 14:24:34 [multiproc_executor.py:585] "
ENGINE = "(EngineCore_DP0 pid=298) ERROR 09-10 14:24:35 [core.py:708] "
WRAPPED_START_UP = [
    WORKER + "Traceback (most recent call last):",
    WORKER + '  File "/opt/venv/lib/python3.12/site-packages/torch/distributed/rendezvous.py", line 174, in '
    "_create_c10d_store",
    WORKER + "    return TCPStore(",
    WORKER + "{exception}",
    ENGINE + "EngineCore failed to start.",
    ENGINE + "Traceback (most recent call last):",
    ENGINE + '  File "/opt/venv/lib/python3.12/site-packages/vllm/v1/engine/core.py", line 699, in run_engine_core',
    ENGINE + "    engine_core = EngineCoreProc(*args, **kwargs)",
    ENGINE + '  File "/opt/venv/lib/python3.12/site-packages/vllm/v1/executor/multiproc_executor.py", line 632, in '
    "wait_for_ready",
    ENGINE + "    raise e from None",
    ENGINE + "Exception: WorkerProc initialization failed due to an exception in a background process. "
    "See stack trace for root cause.",
]


@pytest.mark.parametrize(
    ("exception", "named"),
    [
        (
            "torch.distributed.DistStoreError: Timed out after 601 seconds waiting for clients. 4/8 clients joined.",
            True,
        ),
        # no exception of the worker above the wrapper: the wrapper is all the lines say
        ("    ^^^^^^^^^", False),
    ],
)
def test_a_wrapper_that_points_at_the_stack_above_dies_of_the_worker_s_exception(
    tmp_path: Path, exception: str, named: bool
) -> None:
    lines = [line.replace("{exception}", exception) for line in WRAPPED_START_UP]
    report = _analysed(tmp_path, {"prefill.log": lines})
    assert report.verdict.id == "scheduler-init-crash", report.verdict.summary
    assert ("4/8 clients joined" in report.verdict.summary) is named, report.verdict.summary
