"""A decode restarted by its startup probe; three smoke requests failed through the proxy meanwhile,
and the prefill released their KV unread 480 s later; then the benchmark's 3,000 requests and GSM8K
went through (round 46 bundles-b 02).

The releases are a start-up race (their waits began before the decode's last start:
tests/test_startup_race_release.py); the proxy's three 500s come first in its file, and every
request below them was answered while an end-to-end check passed: the run served. Look-alike: the
same 500s at the end of the proxy's file, after its answers: a failure the run did not answer past.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from pdlogdoctor.cli.behaviour import exit_code_for
from pdlogdoctor.model import Report
from pdlogdoctor.pipeline import run

from .conftest import shipped_library

CASE = Path(__file__).parent / "data" / "blind-round46-bundles-b" / "02-healthy-vllm-nixl-decode-restarted"
LIBRARY = shipped_library()
ERRORS_END = 28  # the proxy's start-up lines and its three failed requests with their tracebacks


def _run(tmp_path: Path, errors_last: bool = False) -> Report:
    bundle = tmp_path / "run"
    shutil.copytree(CASE, bundle, ignore=shutil.ignore_patterns("expected.toml"))
    if errors_last:
        proxy = bundle / "proxy.log"
        lines = proxy.read_text().splitlines(keepends=True)
        proxy.write_text("".join([*lines[:4], *lines[ERRORS_END:], *lines[4:ERRORS_END]]))
    return run([str(bundle)], LIBRARY)


def test_error_answers_the_proxy_answered_past_are_its_start(tmp_path: Path) -> None:
    report = _run(tmp_path)
    assert report.verdict.id == "healthy", report.verdict.summary
    assert "came before every later request of that file was answered" in report.verdict.summary
    assert int(exit_code_for(report)) == 0


def test_error_answers_after_the_answers_are_no_start(tmp_path: Path) -> None:
    report = _run(tmp_path, errors_last=True)
    assert report.verdict.id != "healthy", report.verdict.summary
    assert int(exit_code_for(report)) != 0
