"""ggml's abort (llama.cpp's server, Ollama's runner) is a crash (pattern ggml-assert-abort); a slot's
task line before it (pattern llama-server-slot-processing: only the serving loop writes it) makes it a
crash while serving."""

from __future__ import annotations

from pathlib import Path

from pdlogdoctor.library.patterns import Library

from .conftest import analysed_lines

TASK = "slot launch_slot_: id  2 | task 1950 | processing task"
ASSERT = "src/llama.cpp:3504: GGML_ASSERT(cell.has_seq_id(seq_id)) failed"
ABORT = [
    "libggml-base.so(ggml_print_backtrace+0x21f)[0x72edb99cd82f]",
    "libggml-base.so(ggml_abort+0x152)[0x72edb99cda02]",
]


def test_an_assertion_while_a_slot_serves_is_a_crash_while_serving(tmp_path: Path, library: Library) -> None:
    report = analysed_lines(tmp_path, library, [TASK, ASSERT], "server.log")
    assert report.verdict.id == "scheduler-runtime-crash"
    assert report.roots[0].pattern == "ggml-assert-abort"
    assert report.roots[0].get("condition") == "cell.has_seq_id(seq_id)"


def test_an_abort_alone_is_a_crash_of_unknown_phase(tmp_path: Path, library: Library) -> None:
    report = analysed_lines(tmp_path, library, ABORT, "server.log")
    assert report.verdict.id == "scheduler-crash"
    assert report.roots[0].line == 2  # ggml_abort's frame, not the printer's above it
