"""A slow run no gate judged: the prefill's queue stood all run and the client waited minutes for
its first token (round 45 bundles-a 07).

sglang PD serving long prompts: the prefill's queue held near 180 requests for 91 % of the run at
full 16,384-token batches, its transfers flowing, the decode idle; bench_serving finished every
request with a mean TTFT of 143 s. No gate line exists, and every request was answered: the run
served, slowly. The standing queue and the client's own latency together name the bottleneck (a
lead, below 0.5). Look-alikes that stay healthy: the same run whose client waited seconds, and the
same run whose latency gate passed.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from pdlogdoctor.cli.behaviour import exit_code_for
from pdlogdoctor.model import Report
from pdlogdoctor.pipeline import run

from .conftest import shipped_library

CASE = Path(__file__).parent / "data" / "blind-round45-bundles-a" / "07-prefill-bound-long-context-run"
LIBRARY = shipped_library()
MEAN = "Mean TTFT (ms):                          143390.71"
MEDIAN = "Median TTFT (ms):                        151872.55"


def _run(tmp_path: Path, *changes: tuple[str, str]) -> Report:
    bundle = tmp_path / "run"
    shutil.copytree(CASE, bundle, ignore=shutil.ignore_patterns("expected.toml"))
    bench = bundle / "bench_serving.log"
    text = bench.read_text()
    for old, new in changes:
        assert old in text
        text = text.replace(old, new)
    bench.write_text(text)
    return run([str(bundle)], LIBRARY)


def test_a_standing_prefill_queue_and_a_client_that_waited_minutes_name_the_bottleneck(tmp_path: Path) -> None:
    report = _run(tmp_path)
    assert report.verdict.id == "prefill-saturated", report.verdict.summary
    assert "its client waited" in report.verdict.summary and "143390.71" in report.verdict.summary
    assert report.verdict.confidence < 0.5
    assert int(exit_code_for(report)) == 1


def test_a_client_that_waited_seconds_is_load_not_a_failure(tmp_path: Path) -> None:
    report = _run(
        tmp_path,
        (MEAN, "Mean TTFT (ms):                          4390.71"),
        (MEDIAN, "Median TTFT (ms):                        5872.55"),
    )
    assert report.verdict.id == "healthy", report.verdict.summary
    assert any("prefill-saturated" in note for note in report.notes)


def test_a_latency_gate_that_passed_keeps_the_run_healthy(tmp_path: Path) -> None:
    report = _run(tmp_path, (MEAN, MEAN + "\nmedian TTFT 151872.55 ms <= gate 200000 ms -- PASS"))
    assert report.verdict.id == "healthy", report.verdict.summary
