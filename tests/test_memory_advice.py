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


def test_the_least_viable_fraction_the_engine_states_is_raised_to(tmp_path: Path) -> None:
    """Newer sglang words the same budget `Loaded weights leave no GPU memory for the KV cache under
    --mem-fraction-static=0.3. Raise --mem-fraction-static above 0.320 (...)`: raise to the hundredth
    above its least, 0.33. Where the least is below the value it ran with (0.95 against 0.923: the
    fraction is not what limits it), no number is claimed from it."""
    from pdlogdoctor.library.load import load_library
    from pdlogdoctor.pipeline import run

    library = load_library()
    log = tmp_path / "server.log"
    said = (
        "ValueError: Loaded weights leave no GPU memory for the KV cache under --mem-fraction-static={}. "
        "Raise --mem-fraction-static above {} (minimum viable = 1 - available/pre = {})."
    )
    log.write_text(said.format("0.2", "0.290", "0.2898") + "\n")  # 0.29 * 100 is 28.999...: still 0.30
    report = run([str(log)], library)
    assert report.verdict.id == "gpu-oom"
    assert [(s.name, s.value) for s in report.suggestions] == [("--mem-fraction-static", "0.30")]
    log.write_text(said.format("0.3", "0.320", "0.3198") + "\n")
    report = run([str(log)], library)
    assert [(s.name, s.value) for s in report.suggestions] == [("--mem-fraction-static", "0.33")]
    assert "the engine puts the least at 0.32" in report.advice
    log.write_text(said.format("0.95", "0.923", "0.9224") + "\n")
    report = run([str(log)], library)
    assert report.verdict.id == "gpu-oom"
    assert report.advice.startswith("Raise --mem-fraction-static on the server above 0.95"), report.advice
    assert [s.value for s in report.suggestions] == []
