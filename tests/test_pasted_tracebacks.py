"""Tracebacks and C programs' errors as people paste them (issue 22, round 166).

- A traceback whose frames lost their indentation in an issue's body (`File "...", line 27, in
  __init__` flush left, then `raise Exception(`) is still output of a run: the paste is read as
  evidence, never set aside as program source.
- Python's base class raised as it is prints `Exception: message`: an exception's line like any
  `XError: message`.
- The `raise ...` statement printed under the innermost frame is the code that raised, not an event:
  the exception's line below it states what happened and is the line to read first. A paste cut
  before the exception keeps the statement as the failure's only words.
- perror()'s shape, `<what it did>: <libc's words for the errno>` ending the line (NIXL's agent dying
  in libnuma: `request to allocate mask for invalid number: Invalid argument`), is an error line with
  no level or error word; the same words inside a sentence, or before more text, are not.
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
