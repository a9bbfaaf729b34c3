"""A server stopped while requests were still open did not serve them (uvicorn's shutdown).

uvicorn closes idle connections when told to stop and waits for the ones still answering a request
(`Waiting for connections to close. (CTRL+C to force quit)`). InternLM/lmdeploy#1619: an api_server hung
under many concurrent requests; its user pressed ctrl+c twice, and the 200s before the shutdown made it
look healthy. Look-alike: the same shutdown that completes (`Application shutdown complete.`) let its
requests end, and the run that served stays healthy.
"""

from __future__ import annotations

from pathlib import Path

from pdlogdoctor.library.patterns import Library

from .conftest import analysed_lines

SERVED = [f'INFO:     127.0.0.1:3791{n} - "POST /v1/chat/completions HTTP/1.1" 200 OK' for n in range(4)]
SHUTDOWN = ["^CINFO:     Shutting down", "INFO:     Waiting for connections to close. (CTRL+C to force quit)"]
FORCED = ["^CTraceback (most recent call last):", "    raise KeyboardInterrupt()", "KeyboardInterrupt"]
COMPLETED = ["INFO:     Waiting for application shutdown.", "INFO:     Application shutdown complete."]


def test_a_shutdown_forced_while_requests_were_open_is_no_healthy_run(tmp_path: Path, library: Library) -> None:
    report = analysed_lines(tmp_path, library, [*SERVED, *SHUTDOWN, *FORCED], "api_server.log")
    assert report.verdict.id == "inconclusive", report.verdict.summary
    assert "Waiting for connections to close" in report.verdict.summary


def test_a_shutdown_that_completed_let_its_requests_end(tmp_path: Path, library: Library) -> None:
    report = analysed_lines(tmp_path, library, [*SERVED, *SHUTDOWN, *COMPLETED], "api_server.log")
    assert report.verdict.id == "healthy", report.verdict.summary
