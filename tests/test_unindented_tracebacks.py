"""Traceback frames are frames whatever their indentation (issue 30, decision 3).

Exports that strip leading whitespace (Cloud Logging: sglang#28702's export; some collectors;
pastes) print a Python traceback flush left: a frame's source line then stands where an exception
line would. The reader still yields every `File "...", line N, in func` frame, the exception line
and so the crash phase; a flush-left source or caret line is never read as the exception, and an
indented traceback reads as it did.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from pdlogdoctor.library.frames import parse_frame
from pdlogdoctor.library.patterns import Library
from pdlogdoctor.model import FieldValue
from pdlogdoctor.pipeline import run
from pdlogdoctor.scan.traceback import read_traceback

from .conftest import FIXTURES, ROOT

ANNOUNCED = "[2026-07-07 14:43:49 DP5 TP5 EP5] Scheduler hit an exception: Traceback (most recent call last):"
ZERODIV = FIXTURES / "blind-init-crash-zerodiv-dp8ep8" / "decode_mi355x-n06.log"  # lines 12-40: one traceback
CUDA_OOM = FIXTURES / "cloud-logging-export-decode-cuda-oom" / "decode-0.cloud-logging.txt"  # lines 6-14
SGLANG_28702 = ROOT / "tests" / "data" / "excerpts" / "sglang-28702-gcp-prefixed-committed-kv-freed"


def _read(lines: list[str]) -> dict[str, FieldValue]:
    """The fields read from the traceback under the first line."""
    buf = ("\n".join(lines) + "\n").encode()
    return read_traceback(buf, buf.index(b"\n"), len(buf))


def _stripped(lines: list[str]) -> list[str]:
    return [line.lstrip() for line in lines]


def _lines(path: Path, first: int, last: int) -> list[str]:
    return path.read_text().splitlines()[first - 1 : last]


@pytest.mark.parametrize(
    ("path", "first", "last", "frames", "exc_type"),
    [(ZERODIV, 12, 40, 10, "ZeroDivisionError"), (CUDA_OOM, 6, 14, 3, "torch.OutOfMemoryError")],
    ids=["zerodiv-carets", "cloud-logging-cuda-oom"],
)
def test_a_stripped_traceback_reads_as_the_indented_one(
    path: Path, first: int, last: int, frames: int, exc_type: str
) -> None:
    indented = _read(_lines(path, first, last))
    assert indented["traceback_frames"] == frames and indented["exc_type"] == exc_type
    # A Cloud Logging text export (`ERROR <time> `) stripped after its prefix, or a paste stripped whole.
    after_prefix = [re.sub(r"^((?:ERROR|INFO) \S+Z )\s+", r"\1", line) for line in _lines(path, first, last)]
    assert _read(after_prefix) == indented
    assert _read(_stripped(_lines(path, first, last))) == indented


def test_a_flush_left_source_line_is_never_the_exception() -> None:
    """sglang#28702's export lost the indentation and cut the traceback before its exception: four
    frames, no exception (`scheduler.event_loop_overlap()` and the carets are no exception)."""
    fields = _read((SGLANG_28702 / "cloud-logging.txt").read_text().splitlines()[1:])
    assert fields["traceback_frames"] == 4
    assert "exc_type" not in fields
    assert fields["frame_func"] == "get_next_batch_to_run"


def test_an_unindented_frame_line_is_never_the_exception() -> None:
    fields = _read(
        [ANNOUNCED, 'File "/sgl-workspace/sglang/python/sglang/srt/managers/scheduler.py", line 3071, in run']
    )
    assert fields["traceback_frames"] == 1 and "exc_type" not in fields


def test_a_frame_without_its_source_is_followed_by_the_exception_flush_left() -> None:
    """A frame whose source file could not be read prints no source line: the exception comes next."""
    lines = [
        ANNOUNCED,
        'File "/sgl-workspace/sglang/python/sglang/srt/managers/scheduler.py", line 3071, in run_scheduler_process',
        'File "/opt/app/compiled_only.py", line 12, in step',
        "ZeroDivisionError: division by zero",
    ]
    fields = _read(lines)
    assert fields["traceback_frames"] == 2
    assert (fields["exc_type"], fields["exc_message"]) == ("ZeroDivisionError", "division by zero")


def test_an_indented_traceback_reads_as_before() -> None:
    """The look-alike: with its indentation kept, a flush-left line under a source-less frame is the
    exception whatever its case (`socket.timeout`, a lowercase type), as it always was."""
    lines = [
        ANNOUNCED,
        '  File "/usr/lib/python3.10/socket.py", line 705, in readinto',
        "socket.timeout: timed out",
    ]
    fields = _read(lines)
    assert (fields["exc_type"], fields["exc_message"]) == ("socket.timeout", "timed out")


def test_faulthandler_frames_print_no_source_line() -> None:
    """faulthandler's frames (`line N in f`, no comma) have no source under them: the line after the
    last one is not swallowed as one."""
    frame = parse_frame('File "/usr/lib/python3.10/threading.py", line 953 in run')
    assert frame is not None and not frame.source_below
    python = parse_frame('File "/usr/lib/python3.10/threading.py", line 953, in run')
    assert python is not None and python.source_below
    native = parse_frame('File "<unknown>", line 0, in mooncake::Session::writeBody()')
    assert native is not None and not native.source_below


def test_the_crash_phase_comes_from_flush_left_frames(library: Library) -> None:
    report = run([str(FIXTURES / "unindented-traceback-init-crash-cloud-logging-json")], library)
    assert report.verdict.id == "scheduler-init-crash"
    facts = dict(report.verdict.facts)
    assert facts["exception"] == "ZeroDivisionError: division by zero"
    assert "constructing the server" in str(facts["phase_evidence"])


@pytest.mark.parametrize("quotes", [("\u201c", "\u201d"), ('"', '"')])
def test_a_frame_pasted_with_typographic_quotes_is_a_frame(quotes: tuple[str, str]) -> None:
    """An issue's body or a chat turns a paste's quotes typographic (vllm-ascend#13966's traceback):
    `File “/x.py”, line 957, in worker_busy_loop` is the frame it was."""
    opening, closing = quotes
    path = "/vllm-workspace/vllm/vllm/v1/executor/multiproc_executor.py"
    frame = parse_frame(f"File {opening}{path}{closing}, line 957, in worker_busy_loop")
    assert frame is not None and (frame.file, frame.line, frame.func) == (path, 957, "worker_busy_loop")
    assert parse_frame(f"File {opening}{path}{closing} line 957 in worker_busy_loop") is None  # no frame's shape


@pytest.mark.parametrize("elided", ["...", "\u2026", "    ...", "[... 12 frames omitted ...]"])
def test_frames_a_paste_left_out_do_not_end_the_traceback(elided: str) -> None:
    """A paste that leaves frames out (`...`: wtdcode/vllm-backport#18, a worker's Triton OOM) still
    ends in its exception: the line that stands for the missing frames is read past."""
    lines = [
        ANNOUNCED,
        '  File "/usr/local/lib/python3.12/dist-packages/vllm/v1/executor/multiproc_executor.py", line 1012, in '
        "worker_busy_loop",
        "    output = func(*args, **kwargs)",
        elided,
        '  File "/usr/local/lib/python3.12/dist-packages/triton/runtime/jit.py", line 761, in run',
        "    kernel.run(grid_0, grid_1, grid_2, stream, kernel.function, *args)",
        "RuntimeError: Triton Error [CUDA]: out of memory",
    ]
    fields = _read(lines)
    assert fields["traceback_frames"] == 2
    assert (fields["exc_type"], fields["exc_message"]) == ("RuntimeError", "Triton Error [CUDA]: out of memory")


def test_a_sentence_that_starts_with_dots_still_ends_the_traceback() -> None:
    """The look-alike: a line of words after the exception (`... and the server stopped`) is no gap
    in the frames: the traceback ended at its exception above it."""
    lines = [
        ANNOUNCED,
        '  File "/opt/app/step.py", line 12, in step',
        "ZeroDivisionError: division by zero",
        "... and the server stopped",
    ]
    fields = _read(lines)
    assert (fields["exc_type"], fields["exc_message"]) == ("ZeroDivisionError", "division by zero")
