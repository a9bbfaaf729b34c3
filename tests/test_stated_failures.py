"""Failures a person or a plain C tool states in words, with no level and no pattern's wording
(issue 22; round 39's blind excerpts).

- A report that states a measure fell by a share (`shows ~38% throughput regression between v0.18.0
  and v0.21.0`, vllm-project/vllm#43029) is a performance regression, in any of its word orders; a
  line that fixes or reverts the regression, or a share within noise, is none.
- A program that prints no level states a failed step by its first words (perftest's `Couldn't
  allocate MR`, linux-rdma/perftest#126): an error line the report quotes; the same words in a
  sentence that only mentions them, or at INFO, are not.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from pdlogdoctor.library.patterns import Library
from pdlogdoctor.model import Report
from pdlogdoctor.pipeline import run


def _report(tmp_path: Path, library: Library, lines: list[str]) -> Report:
    (tmp_path / "report.md").write_text("\n".join(lines) + "\n")
    return run([str(tmp_path)], library)


@pytest.mark.parametrize(
    "line",
    [
        "MiniMax-M2.5 (FP8) on AMD MI325X shows ~38% throughput regression between vLLM ROCm v0.18.0 and v0.21.0:",
        "We see a 15% drop in throughput on H100 since the last nightly",
        "TTFT regression of 22% at concurrency 64",
    ],
)
def test_a_stated_regression_is_a_performance_regression(tmp_path: Path, library: Library, line: str) -> None:
    report = _report(tmp_path, library, ["## Nightly results", line])
    assert report.verdict.id == "performance-regression", report.verdict.summary
    assert line.rstrip(":") in report.verdict.summary


@pytest.mark.parametrize(
    "line",
    [
        "This PR fixes the 38% throughput regression introduced in #4100",
        "Reverting #4100 recovers the 38% throughput drop",
        "no throughput regression (0.4% drop), within noise",
        "throughput regression of 2% (noise)",
    ],
)
def test_a_regression_fixed_or_within_noise_is_none(tmp_path: Path, library: Library, line: str) -> None:
    report = _report(tmp_path, library, ["## Nightly results", line])
    assert report.verdict.id != "performance-regression", report.verdict.summary


PERFTEST = [
    "root@rdma-cuda-test-pod-1:~# ib_write_bw -d mlx5_0 -F -R -q 2 --use_cuda=0 192.168.111.1",
    "allocated GPU buffer address at 0000010013000000 pointer=0x10013000000",
    "Couldn't allocate MR",
    "failed to create mr",
]


def test_a_step_a_tool_could_not_do_is_quoted_first(tmp_path: Path, library: Library) -> None:
    report = _report(tmp_path, library, PERFTEST)
    assert report.unrecognised[0].first.text == "Couldn't allocate MR"
    assert "Couldn't allocate MR" in report.verdict.summary


def test_could_not_in_a_sentence_or_at_info_is_no_error(tmp_path: Path, library: Library) -> None:
    lines = [
        "If the server cannot find the model, check the path",
        "[2026-07-02 10:16:03] INFO: Could not find a cached file, downloading",
    ]
    report = _report(tmp_path, library, lines)
    assert not report.unrecognised
    assert report.verdict.id == "no-failure-seen"


def test_a_heading_a_blank_line_then_its_measure_is_compared(tmp_path: Path, library: Library) -> None:
    """Round 40 excerpts-c 03 (a PR thread's Markdown): `before PR...`, a blank line, the measure;
    the same after. The blank line between a heading and its block is the Markdown's, not the end."""
    lines = [
        "before PR28569",
        "",
        "Output token throughput (tok/s): 3240",
        "",
        "after PR28569",
        "",
        "Output token throughput (tok/s): 2895",
    ]
    report = _report(tmp_path, library, lines)
    assert report.verdict.id == "performance-regression", report.verdict.summary
    assert "2895" in report.verdict.summary


def test_a_heading_with_two_blank_lines_then_prose_is_no_comparison(tmp_path: Path, library: Library) -> None:
    lines = ["before PR28569", "", "", "Output token throughput (tok/s): 3240", "after PR28569", "", "", "see below"]
    report = _report(tmp_path, library, lines)
    assert report.verdict.id != "performance-regression", report.verdict.summary
