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


def _changed(case: Path, bench_name: str, tmp_path: Path, *changes: tuple[str, str]) -> Report:
    """`case` copied (its expectation left out) with each (old, new) replaced in its benchmark's log
    `bench_name`, and analysed."""
    bundle = tmp_path / case.name
    shutil.copytree(case, bundle, ignore=shutil.ignore_patterns("expected.toml"))
    bench = bundle / bench_name
    text = bench.read_text()
    for old, new in changes:
        assert old in text
        text = text.replace(old, new)
    bench.write_text(text)
    return run([str(bundle)], LIBRARY)


def _run(tmp_path: Path, *changes: tuple[str, str]) -> Report:
    return _changed(CASE, "bench_serving.log", tmp_path, *changes)


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


# A KV-transfer queue that stood (sglang PR#20680 as round 174's bundles-2 01 built it: a synchronous
# NIXL transfer held ~30 requests in flight on the prefill, the decode's pool nearly empty): one
# request's KV moves in well under a second, so a first token seconds late waited in that queue, where
# a long prompt's prefill may take seconds of its own (the look-alike above: a prefill queue's client
# waiting seconds is load, not a failure).
BACKLOG = Path(__file__).parent / "data" / "blind-round174-bundles-2" / "01-sglang-nixl-sync-transfer-backlog"
BACKLOG_MEAN = "Mean TTFT (ms):                          9843.55"
BACKLOG_MEDIAN = "Median TTFT (ms):                        10211.40"


def _backlog(tmp_path: Path, *changes: tuple[str, str]) -> Report:
    return _changed(BACKLOG, "bench.log", tmp_path, *changes)


def test_a_standing_transfer_queue_and_a_first_token_seconds_late_name_the_backlog(tmp_path: Path) -> None:
    """Seen failing before the transfer's own threshold: healthy at 0.85, the backlog only a note."""
    report = _backlog(tmp_path)
    assert report.verdict.id == "kv-transfer-backlog", report.verdict.summary
    assert "its client waited" in report.verdict.summary and "9843.55" in report.verdict.summary
    assert report.verdict.confidence < 0.5
    assert int(exit_code_for(report)) == 1


def test_a_standing_transfer_queue_whose_client_got_its_first_token_in_a_second_is_load(tmp_path: Path) -> None:
    report = _backlog(
        tmp_path,
        (BACKLOG_MEAN, "Mean TTFT (ms):                          1243.55"),
        (BACKLOG_MEDIAN, "Median TTFT (ms):                        1011.40"),
    )
    assert report.verdict.id == "healthy", report.verdict.summary
    assert any("kv-transfer-backlog" in note for note in report.notes)


def test_a_prefill_queue_whose_client_waited_ten_seconds_is_still_load(tmp_path: Path) -> None:
    """The transfer's threshold is the transfer's: a prefill queue's ten seconds may be long prompts."""
    report = _run(
        tmp_path,
        (MEAN, "Mean TTFT (ms):                          9843.55"),
        (MEDIAN, "Median TTFT (ms):                        10211.40"),
    )
    assert report.verdict.id == "healthy", report.verdict.summary


def test_a_standing_transfer_queue_under_an_slo_check_that_passed_is_a_healthy_run(tmp_path: Path) -> None:
    """A harness's own check (`[slo] metric=value limit=N -- PASS`, round 5 slow 12's form) judged the
    run fast enough: its queue and its client's wait are load. Seen failing when only gate lines
    counted as a passed measure (kv-transfer-backlog at 0.45 for round 5 slow 12)."""
    report = _backlog(
        tmp_path,
        (BACKLOG_MEAN, BACKLOG_MEAN + "\n[slo] median_tpot_ms=23.61 limit=60 -- PASS"),
    )
    assert report.verdict.id == "healthy", report.verdict.summary
