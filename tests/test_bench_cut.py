"""A benchmark whose progress bar stops short of its total ended while it waited for answers: the run
never finished (patterns/harness/bench-progress-partial.toml). Alone it is a log that ends mid-wait
(reason/waiting.py); beside a queue that stood, the bottleneck's client that waited (performance.weigh:
round 99's bundles-1 01, a prefill held at full batches). A bar that reaches its total is no wait."""

from __future__ import annotations

from pathlib import Path

from pdlogdoctor.library.patterns import Library

from .conftest import analysed_lines

STARTED = [
    "Starting warmup with 1 sequences...",
    "Warmup completed with 1 sequences. Starting main benchmark run...",
    "  0%|          | 0/1000 [00:00<?, ?it/s]",
    "  7%|          | 77/1000 [00:58<11:44,  1.31it/s]",
    " 16%|█         | 160/1000 [01:57<10:16,  1.36it/s]",
]


def test_a_benchmark_cut_short_of_its_total_is_a_wait_that_never_ended(tmp_path: Path, library: Library) -> None:
    report = analysed_lines(tmp_path, library, STARTED, "bench.log")
    assert report.verdict.id == "inconclusive"
    assert "The log ends while waiting" in report.verdict.summary
    assert "160/1000" in report.verdict.summary


def test_a_benchmark_that_reached_its_total_is_no_wait(tmp_path: Path, library: Library) -> None:
    lines = [*STARTED, "100%|██████████| 1000/1000 [11:52<00:00,  1.40it/s]"]
    report = analysed_lines(tmp_path, library, lines, "bench.log")
    assert "ends while waiting" not in report.verdict.summary
