"""Errors a process logs after it was told to stop (a terminal's ^C, a SIGTERM it drains on) are its
teardown, not what went wrong in the run (unexplained.gather): ai-dynamo/dynamo#504, NIXL's error
callbacks for the endpoints it dropped after ctrl+c (round 104's tester). The same errors before the
stop still count."""

from __future__ import annotations

from pathlib import Path

from pdlogdoctor.library.patterns import Library

from .conftest import analysed_lines

SERVED = [
    "INFO 04-10 09:14:28 engine.py:275] Added request c8f1a2b3-6d7e-4f90-8a1b-2c3d4e5f6a7b.",
    'INFO:     10.0.0.5:51234 - "POST /v1/chat/completions HTTP/1.1" 200 OK',
]
CALLBACK = "error handling callback was invoked with status -80 (Endpoint timeout)"


def test_errors_after_a_ctrl_c_are_the_teardown(tmp_path: Path, library: Library) -> None:
    report = analysed_lines(tmp_path, library, [*SERVED, "^C", CALLBACK, CALLBACK], "worker.log")
    assert report.verdict.id == "healthy", report.verdict.summary
    assert "logged after a stop" in report.verdict.summary
    assert any("told to stop" in note and "Endpoint timeout" in note for note in report.notes)


def test_the_same_errors_before_a_stop_count(tmp_path: Path, library: Library) -> None:
    report = analysed_lines(tmp_path, library, [*SERVED, CALLBACK, CALLBACK, "^C"], "worker.log")
    assert report.verdict.id != "healthy"
    assert "Endpoint timeout" in report.verdict.summary
