"""GPU memory advice follows the error line: which way --mem-fraction-static must move, and to what.

The cases are a blind tester's (tests/data/blind-round4, corpus cases checked in tests/test_corpus.py).
"""

from __future__ import annotations

from pathlib import Path

from pdlogdoctor.model import Report

from .corpus import case_report


def test_memory_advice_follows_the_error_line(case_reports: dict[Path, Report]) -> None:
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
