"""A traceback a logger prints line by line and a paste cuts before its exception (issue 22).

vllm-omni's benchmark client logs `ERROR: send request failed, reason is: Traceback (most recent call
last):` and the frames below, each behind the logger's prefix (vllm-project/vllm-omni#2389). Cut
before the exception, two lines say the most: the header's message (what failed) and the innermost
frame's source line (where). Both are kept, the message first; a bare header (no message) says
nothing the frames do not, and a traceback that goes on to its exception is that exception's.
"""

from __future__ import annotations

from pathlib import Path

from pdlogdoctor.library.patterns import Library

from .conftest import analysed_lines

PREFIX = "ERROR 03-31 18:46:48 [patch.py:236] "
HEADER = PREFIX + "ERROR: send request failed, reason is: Traceback (most recent call last):"
FRAMES = [
    PREFIX + '  File "/usr/local/lib/python3.12/dist-packages/vllm_omni/benchmarks/patch/patch.py", line 163, in send',
    PREFIX + "    data = json.loads(chunk)",
    PREFIX + '  File "/usr/lib/python3.12/json/__init__.py", line 346, in loads',
    PREFIX + "    return _default_decoder.decode(s)",
]
EXCEPTION = PREFIX + "json.decoder.JSONDecodeError: Expecting value: line 1 column 1 (char 0)"


def test_a_cut_tracebacks_announcing_message_leads(tmp_path: Path, library: Library) -> None:
    report = analysed_lines(tmp_path, library, [HEADER, *FRAMES], "benchmark.log")
    assert report.verdict.id == "inconclusive", report.verdict.summary
    summary = report.verdict.summary
    assert "send request failed, reason is:" in summary
    assert summary.index("send request failed") < summary.index("return _default_decoder.decode(s)")


def test_a_bare_header_is_not_kept_beside_the_innermost_frame(tmp_path: Path, library: Library) -> None:
    bare = PREFIX + "Traceback (most recent call last):"
    report = analysed_lines(tmp_path, library, [bare, *FRAMES], "benchmark.log")
    assert "return _default_decoder.decode(s)" in report.verdict.summary
    assert [t.first.line for t in report.unrecognised] == [5]


def test_a_traceback_that_reaches_its_exception_is_the_exceptions(tmp_path: Path, library: Library) -> None:
    report = analysed_lines(tmp_path, library, [HEADER, *FRAMES, EXCEPTION], "benchmark.log")
    assert "JSONDecodeError: Expecting value" in report.verdict.summary
    assert "return _default_decoder.decode(s)" not in report.verdict.summary
