"""Lines whose words say error or failed, read for what the line is (issue 22, round 163).

- A commit's subject as git and CI pages print it (`HEAD is now at 65ced44 Allow ignoring known non
  fatal error message`) is a title, not an error of the run.
- Python's warnings module says its category (`compiler.py:782: UserWarning: Error reading
  persistent compilation cache entry ...`): a warning, never ranked as an error.
- A field's label and value on a line of its own (`Commit: <sha> "..."` under `Branch: ...`) is not
  the rest of the line above, however long that one is.
- When nothing failed, an INFO line that says a step failed and the program went on (`NCCL INFO
  Failed to open libibverbs.so[.1]`: NCCL on sockets) is shown among the lines that look wrong, and
  so is an answer that what was asked is not implemented (sglang's PD router's `Model info endpoint
  not yet implemented in RouterManager`).
Each with its look-alike that must still read as before.
"""

from __future__ import annotations

from pathlib import Path

from pdlogdoctor.library.patterns import Library

from .conftest import analysed_lines

SERVED = [
    "(APIServer pid=157) INFO 06-15 04:33:01 [api_server.py:1991] Starting vLLM API server 0 on http://0.0.0.0:8000",
    'INFO:     127.0.0.1:48112 - "POST /v1/completions HTTP/1.1" 200 OK',
]


def _unrecognised(report_lines: list[str], tmp_path: Path, library: Library, name: str = "job.log") -> list[str]:
    report = analysed_lines(tmp_path, library, report_lines, name)
    return [t.first.text for t in report.unrecognised]


def test_a_commit_subject_is_no_error_of_the_run(tmp_path: Path, library: Library) -> None:
    lines = [
        "[2026-06-15T04:31:08Z] $ git checkout -f 65ced442afe19455b95ebd083a1ca9d3b4fce605",
        "[2026-06-15T04:31:08Z] HEAD is now at 65ced442a Allow ignoring known non fatal error message",
        *SERVED,
    ]
    assert not any("HEAD is now at" in text for text in _unrecognised(lines, tmp_path, library))


def test_a_line_that_only_mentions_a_commit_is_still_read(tmp_path: Path, library: Library) -> None:
    lines = ["error: Your local changes to the following files would be overwritten by checkout", *SERVED]
    assert any("would be overwritten" in text for text in _unrecognised(lines, tmp_path, library))


WARNED = (
    "/usr/local/lib/python3.12/site-packages/jax/_src/compiler.py:782: UserWarning: Error reading persistent "
    "compilation cache entry for 'jit_run_model': OSError: [Errno 116] Stale file handle"
)


def test_a_python_warning_is_a_warning_whatever_its_words(tmp_path: Path, library: Library) -> None:
    # the job's gates passed after it: the warning did not matter (a failing warning with no end-to-end
    # result beside it leaves the run inconclusive, as any warning that says something failed does)
    passed = "Total token throughput comparison (>= 1500): PASSED"
    report = analysed_lines(tmp_path, library, [*SERVED, WARNED, "  warnings.warn(", passed], "job.log")
    warned = [t for t in report.unrecognised if "Stale file handle" in t.first.text]
    assert warned and all(t.severity.value == "warning" for t in warned)
    assert report.verdict.id == "healthy", report.verdict.summary


def test_an_exception_a_program_raised_is_still_an_error(tmp_path: Path, library: Library) -> None:
    raised = "OSError: [Errno 116] Stale file handle: '/cache/jit_run_model'"
    report = analysed_lines(tmp_path, library, [raised], "job.log")
    assert any(t.severity.value in ("error", "critical") for t in report.unrecognised if "Stale" in t.first.text)


def test_a_label_line_is_not_the_rest_of_a_long_line_above(tmp_path: Path, library: Library) -> None:
    lines = [
        "tpu-commons / tpu-inference-ci  -  Build #15284",
        "Branch: refs/pull/2885/head  (theminghuang:ignore-non-fatal-errors-in-the-ci)",
        'Commit: 65ced442afe19455b95ebd083a1ca9d3b4fce605  "Allow ignoring known non fatal error message"',
        "State: passed",
    ]
    said = _unrecognised(lines, tmp_path, library, "build-summary.txt")
    assert not any("Branch:" in text and "Commit:" in text for text in said), said


def test_a_terminal_wrapped_line_is_still_joined(tmp_path: Path, library: Library) -> None:
    # a MORI line cut at the terminal's width, its errno on the next row (the part starts mid-message)
    whole = (
        "[2026-07-02 10:16:03.412] [48211] [application] [error] RegisterRdmaMemoryRegion ibv_reg_mr "
        "registration failed (addr:0x7f2a80000000, size:4294836224, errno:22 (Invalid argument))"
    )
    rows = [whole[:100], whole[100:]]
    report = analysed_lines(tmp_path, library, rows, "decode.log")
    assert "errno:22" in report.verdict.summary or any("errno:22" in e.text for e in report.chain)


def test_an_info_line_that_says_a_step_failed_is_shown_when_nothing_failed(tmp_path: Path, library: Library) -> None:
    lines = ["...", "NCCL INFO Failed to open libibverbs.so[.1]", "...", "NCCL INFO NET/Socket : Using [0]ib0.<ip>"]
    report = analysed_lines(tmp_path, library, lines, "excerpt.log")
    assert report.verdict.id == "no-failure-seen", report.verdict.summary
    shown = [t.first.text for t in report.unrecognised]
    assert "NCCL INFO Failed to open libibverbs.so[.1]" in shown
    assert not any("NET/Socket" in text for text in shown)


def test_an_answer_that_something_is_not_implemented_is_shown_when_nothing_failed(
    tmp_path: Path, library: Library
) -> None:
    # sgl-project/sglang#12751: the PD router's answer to `GET /get_model_info`, pasted with the curl
    lines = [
        "root@host:~/sglang# curl -X GET http://127.0.0.1:8000/get_model_info",
        "Model info endpoint not yet implemented in RouterManager",
    ]
    report = analysed_lines(tmp_path, library, lines, "excerpt.log")
    assert report.verdict.id == "no-failure-seen", report.verdict.summary
    assert "Model info endpoint not yet implemented in RouterManager" in [t.first.text for t in report.unrecognised]


def test_a_peer_that_refused_the_connection_is_an_error_with_no_error_word(tmp_path: Path, library: Library) -> None:
    # kubernetes-sigs/lws#612: a Go client's call chain ends in the errno's words
    refused = (
        'generating with llama.cpp: making HTTP request: Post "http://llamacpp:80/completion": dial tcp '
        "10.96.0.12:80: connect: connection refused"
    )
    report = analysed_lines(tmp_path, library, [refused], "excerpt.log")
    assert report.verdict.id == "inconclusive", report.verdict.summary
    assert "connect: connection refused" in report.verdict.summary


def test_a_readiness_poll_that_says_info_is_still_no_error(tmp_path: Path, library: Library) -> None:
    polled = "[2026-07-02 10:16:03] INFO: waiting for the server: connection refused, retrying in 5s"
    report = analysed_lines(tmp_path, library, [polled], "excerpt.log")
    assert report.verdict.id == "no-failure-seen", report.verdict.summary
