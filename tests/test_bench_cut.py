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


SERVED = [
    "[2025-06-04 14:02:32] The server is fired up and ready to roll!",
    '[2025-06-04 14:02:40] INFO:     127.0.0.1:40112 - "POST /generate HTTP/1.1" 200 OK',
]


def test_a_served_run_whose_benchmark_never_finished_is_not_healthy(tmp_path: Path, library: Library) -> None:
    """Round 104's bundle (sglang#6857): requests answered, then the benchmark stuck at 1993/2000."""
    (tmp_path / "decode.log").write_text("\n".join(SERVED) + "\n")
    stuck = [" 99%|█████████ | 1993/2000 [06:00<?, 5.54it/s]", " 99%|█████████ | 1993/2000 [06:10<?, 5.39it/s]"]
    report = analysed_lines(tmp_path, library, [*STARTED, *stuck], "bench.log")
    assert report.verdict.id == "inconclusive", report.verdict.summary
    assert "1993/2000" in report.verdict.summary


def test_a_served_run_whose_benchmark_finished_stays_healthy(tmp_path: Path, library: Library) -> None:
    (tmp_path / "decode.log").write_text("\n".join(SERVED) + "\n")
    done = [*STARTED, "100%|██████████| 1000/1000 [11:52<00:00,  1.40it/s]"]
    report = analysed_lines(tmp_path, library, done, "bench.log")
    assert report.verdict.id == "healthy", report.verdict.summary
