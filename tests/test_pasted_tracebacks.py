"""Tracebacks and C programs' errors as people paste them (issue 22, round 166).

- A traceback whose frames lost their indentation in an issue's body (`File "...", line 27, in
  __init__` flush left, then `raise Exception(`) is still output of a run: the paste is read as
  evidence, never set aside as program source.
- Python's base class raised as it is prints `Exception: message`: an exception's line like any
  `XError: message`.
- The `raise ...` statement printed under the innermost frame is the code that raised, not an event:
  the exception's line below it states what happened and is the line to read first. A paste cut
  before the exception keeps the statement as the failure's only words.
- asyncio's report of a task whose exception nobody retrieved names that exception (`future: <Task
  finished ... exception=DataPlaneError(...)>`): the line says what failed.
- A request refused for its length (`This model's maximum context length is ...`) failed, the client's
  way: with nothing served, the excerpt is no quiet one; beside requests served, it is no failure.
- perror()'s shape, `<what it did>: <libc's words for the errno>` ending the line (NIXL's agent dying
  in libnuma: `request to allocate mask for invalid number: Invalid argument`), is an error line with
  no level or error word; the same words inside a sentence, or before more text, are not.
- NCCL's WARN line right above the `NCCL INFO <file>.cc:<line> -> <code>` trail it starts, from the same
  thread, is the failure that trail returns: an error, the one to read first.
Each with its look-alike that must still read as before.
"""

from __future__ import annotations

from pathlib import Path

from pdlogdoctor.library.patterns import Library
from pdlogdoctor.model import Report

from .conftest import analysed_lines

# llm-d/llm-d#770: the nightly's crash-looping vLLM pod, pasted with its frame flush left
FLUSH_LEFT = [
    'File "/opt/vllm-source/vllm/v1/kv_offload/cpu.py", line 27, in __init__',
    "    raise Exception(",
    "Exception: cpu_bytes_to_use must be specified in kv_connector_extra_config",
]


def _lead(report: Report) -> str:
    return report.unrecognised[0].first.text if report.unrecognised else ""


def test_a_flush_left_traceback_is_read_not_set_aside(tmp_path: Path, library: Library) -> None:
    report = analysed_lines(tmp_path, library, FLUSH_LEFT, "excerpt.log")
    assert not any(problem.code == "not-a-serving-log" for source in report.inputs for problem in source.problems)
    assert report.verdict.id not in ("healthy", "no-failure-seen")
    assert "cpu_bytes_to_use must be specified" in report.verdict.summary


def test_program_source_with_the_same_lines_is_still_set_aside(tmp_path: Path, library: Library) -> None:
    source = [
        "class CPUOffloadingSpec:",
        "    def __init__(self, config):",
        "        if config.cpu_bytes_to_use is None:",
        "            raise Exception(",
        '                "cpu_bytes_to_use must be specified in kv_connector_extra_config"',
        "            )",
    ]
    report = analysed_lines(tmp_path, library, source, "cpu.py.txt")
    assert any(problem.code == "not-a-serving-log" for source in report.inputs for problem in source.problems)


def test_the_exception_below_a_raise_statement_is_the_line_to_read(tmp_path: Path, library: Library) -> None:
    lines = [
        "Traceback (most recent call last):",
        '  File "/usr/local/lib/python3.12/site-packages/offload/engine.py", line 88, in start',
        '    raise RuntimeError("offload tier failed to start: no pinned memory")',
        "RuntimeError: offload tier failed to start: no pinned memory",
    ]
    report = analysed_lines(tmp_path, library, lines, "excerpt.log")
    assert _lead(report).startswith("RuntimeError: offload tier failed to start")
    assert not any(t.first.text.lstrip().startswith("raise ") for t in report.unrecognised)


def test_a_raise_statement_whose_exception_was_cut_off_is_still_read(tmp_path: Path, library: Library) -> None:
    lines = [
        "Traceback (most recent call last):",
        '  File "/usr/local/lib/python3.12/site-packages/offload/engine.py", line 88, in start',
        '    raise RuntimeError("offload tier failed to start: no pinned memory")',
    ]
    report = analysed_lines(tmp_path, library, lines, "excerpt.log")
    assert report.verdict.id not in ("healthy", "no-failure-seen")
    assert "offload tier failed to start" in _lead(report)


def test_perror_last_words_are_an_error(tmp_path: Path, library: Library) -> None:
    # vllm-project/vllm#39521: creating a NIXL agent on a RHEL host
    lines = [
        "$ python -c \"from nixl._api import nixl_agent; a = nixl_agent('test')\" 2>&1",
        "request to allocate mask for invalid number: Invalid argument",
    ]
    report = analysed_lines(tmp_path, library, lines, "excerpt.log")
    assert report.verdict.id == "inconclusive"
    assert _lead(report) == "request to allocate mask for invalid number: Invalid argument"


def test_errno_words_inside_a_sentence_are_no_error(tmp_path: Path, library: Library) -> None:
    lines = [
        "INFO 06-15 04:33:01 [loader.py:12] a missing cache file reads as No such file or directory and is rebuilt",
        "open /etc/nccl.conf: No such file or directory (using defaults)",
    ]
    report = analysed_lines(tmp_path, library, lines, "excerpt.log")
    assert report.verdict.id == "no-failure-seen"


def test_an_unretrieved_task_exception_names_its_exception(tmp_path: Path, library: Library) -> None:
    # triton-inference-server/triton_distributed#36: asyncio's report, then the chained traceback
    lines = [
        "Task exception was never retrieved",
        "future: <Task finished name='Task-12' coro=<Worker._process_request_task() done, defined at "
        "/workspace/worker.py:176> exception=DataPlaneError('Error Referencing Tensor')>",
        "Traceback (most recent call last):",
        '  File "/usr/lib/python3.12/asyncio/tasks.py", line 520, in wait_for',
        "    return await fut",
        "asyncio.exceptions.CancelledError",
    ]
    report = analysed_lines(tmp_path, library, lines, "excerpt.log")
    assert "exception=DataPlaneError('Error Referencing Tensor')" in report.verdict.summary.split("After it")[0]


CONTEXT_REFUSED = (
    "(APIServer pid=1) ERROR 10-21 14:06:02 [serving_completion.py:153] ValueError: This model's maximum "
    "context length is 4096 tokens. However, you requested 4122 tokens (4106 in the messages, 16 in the "
    "completion). Please reduce the length of the messages or completion."
)


def test_requests_refused_for_their_length_are_no_quiet_excerpt(tmp_path: Path, library: Library) -> None:
    # vllm-project/vllm#17408, #16420: a benchmark's prompts longer than the context, each answered 400
    report = analysed_lines(tmp_path, library, [CONTEXT_REFUSED], "excerpt.log")
    assert report.verdict.id == "inconclusive"
    assert "maximum context length is 4096 tokens" in report.verdict.summary


def test_a_request_refused_for_its_length_beside_serving_is_no_failure(tmp_path: Path, library: Library) -> None:
    served = [
        "(APIServer pid=1) INFO 10-21 14:00:02 [api_server.py:1991] Starting vLLM API server 0 on http://0.0.0.0:8000",
        'INFO:     127.0.0.1:48112 - "POST /v1/completions HTTP/1.1" 200 OK',
    ]
    report = analysed_lines(tmp_path, library, [*served, CONTEXT_REFUSED, served[1]], "vllm.log")
    assert report.verdict.id == "healthy"


NCCL_WARN = (
    "n122-246-085:12251:12400 [5] misc/socket.cc:483 NCCL WARN socketStartConnect: Connect to "
    "fe80::966d:ae03:a2:8cf0%ib1<17943> failed : Software caused connection abort"
)


def test_an_nccl_warn_above_its_return_trail_is_the_error_to_read(tmp_path: Path, library: Library) -> None:
    # NVIDIA/nccl#975: other ranks' trails first, then one rank's WARN and the trail it starts
    lines = [
        "n122-246-085:12250:12403 [4] NCCL INFO init.cc:1350 -> 2",
        "n122-246-085:12250:12403 [4] NCCL INFO group.cc:65 -> 2 [Async thread]",
        NCCL_WARN,
        "n122-246-085:12251:12400 [5] NCCL INFO misc/socket.cc:564 -> 2",
        "n122-246-085:12251:12400 [5] NCCL INFO bootstrap.cc:270 -> 2",
    ]
    report = analysed_lines(tmp_path, library, lines, "excerpt.log")
    assert _lead(report) == NCCL_WARN


def test_an_nccl_warn_with_no_trail_under_it_stays_a_warning(tmp_path: Path, library: Library) -> None:
    lines = [
        "n122-246-085:12250:12403 [4] NCCL INFO init.cc:1350 -> 2",
        NCCL_WARN,
        "n122-246-085:12251:12400 [5] NCCL INFO Bootstrap : Using ib1:10.0.0.5<0>",
    ]
    report = analysed_lines(tmp_path, library, lines, "excerpt.log")
    warned = [t for t in report.unrecognised if t.first.text == NCCL_WARN]
    assert warned and warned[0].severity.value == "warning"
    assert _lead(report) != NCCL_WARN
