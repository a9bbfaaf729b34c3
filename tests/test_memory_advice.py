"""GPU memory advice follows the error line: which way --mem-fraction-static must move, and to what.

The cases are a blind tester's (tests/data/blind-round4, corpus cases checked in tests/test_corpus.py).
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from pdlogdoctor.model import Report

from .corpus import case_report


def test_memory_advice_follows_the_error_line(case_reports: Mapping[Path, Report]) -> None:
    """20: the KV pool did not fit at 0.6 and the error says to increase it: raise (to the prefill's
    0.85, which came up). 03: a graph-capture allocation failed at 0.93: lower, by the shortfall
    (1.75 - 1.02) GiB / 191.98 GiB = 0.0038, to 0.92."""
    kv_pool, graph_capture = (
        case_report(case_reports, "tests/data/blind-round4/20-"),
        case_report(case_reports, "tests/data/blind-round4/03-"),
    )
    assert kv_pool.advice.startswith("Raise --mem-fraction-static on the decode") and "0.6" in kv_pool.advice
    assert [(s.name, s.value) for s in kv_pool.suggestions] == [("--mem-fraction-static", "0.85")]
    assert graph_capture.advice.startswith("Lower --mem-fraction-static on the decode")
    assert "0.93" in graph_capture.advice
    assert [(s.name, s.value) for s in graph_capture.suggestions] == [("--mem-fraction-static", "0.92")]


def test_the_direction_is_said_when_the_value_is_not_in_the_logs(tmp_path: Path) -> None:
    """A CI job log with no launch line (the review's gpu-oom-hip-ci-job-log): `HIP out of memory.
    Tried to allocate ...` is an allocation outside the pool, so lower; sglang's `Not enough memory.
    Please try to increase --mem-fraction-static.` without its current value: raise. No number."""
    from pdlogdoctor.library.load import load_library
    from pdlogdoctor.pipeline import run

    from .conftest import FIXTURES

    library = load_library()
    hip = run([str(FIXTURES / "gpu-oom-hip-ci-job-log")], library)
    assert hip.verdict.id == "gpu-oom"
    assert hip.advice.startswith("Lower --mem-fraction-static on the server"), hip.advice
    assert "job-logs.txt.gz:40" in hip.advice and not hip.suggestions
    log = tmp_path / "decode.log"
    log.write_text("RuntimeError: Not enough memory. Please try to increase --mem-fraction-static.\n")
    pool = run([str(log)], library)
    assert pool.verdict.id == "gpu-oom"
    assert pool.advice.startswith("Raise --mem-fraction-static on the decode server"), pool.advice
    assert not pool.suggestions
