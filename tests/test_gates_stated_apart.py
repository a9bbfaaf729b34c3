"""Gates and results a harness or a person states in shapes of their own (issue 22, round 163).

- A gate line that names the measure, the comparison and the limit, with the value on the line
  above (tpu-inference's MLPerf job: `Total token throughput: 1304.19`, then `Total token throughput
  comparison (>= 1500): FAILED`): a failed gate, never healthy; its PASSED twin is the proof a
  healthy report quotes.
- A change stated as a signed share (`throughput at c=32 is −12%`: ray-project/ray#59681; `p99 TPOT
  is +50.879%`): a throughput down or a latency up by more than 10 % is a regression; noise and
  improvements are read and fail nothing.
- Under a failed gate, a line that only reports an exit status (`command terminated with exit code
  2`, a command typed to look around) is no failure besides the gate: the bottleneck the metrics
  show is still the verdict.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from pdlogdoctor.cli.behaviour import ExitCode, exit_code_for
from pdlogdoctor.library.patterns import Library

from .conftest import analysed_files, analysed_lines

STAMP = "[2026-06-15T04:34:47Z] "
SERVED = [
    STAMP
    + "(APIServer pid=157) INFO 06-15 04:33:01 [api_server.py:1991] Starting vLLM API server 0 on http://0.0.0.0:8000",
    STAMP + 'INFO:     127.0.0.1:48112 - "POST /v1/completions HTTP/1.1" 200 OK',
    STAMP + "Successful requests:                     1000",
]


def test_a_comparison_gate_that_failed_is_never_healthy(tmp_path: Path, library: Library) -> None:
    lines = [
        *SERVED,
        STAMP + "Total token throughput: 1304.19",
        STAMP + "Total token throughput comparison (>= 1500): FAILED",
    ]
    report = analysed_lines(tmp_path, library, lines, "mlperf.log")
    assert report.verdict.id != "healthy"
    assert exit_code_for(report) != ExitCode.HEALTHY
    assert "Total token throughput comparison (>= 1500): FAILED" in report.verdict.summary


def test_the_passed_comparison_gate_is_the_healthy_reports_proof(tmp_path: Path, library: Library) -> None:
    lines = [
        *SERVED,
        STAMP + "Total token throughput: 5871.42",
        STAMP + "Total token throughput comparison (>= 1500): PASSED",
        STAMP + "Overall: PASSED",
    ]
    report = analysed_lines(tmp_path, library, lines, "mlperf.log")
    assert report.verdict.id == "healthy", report.verdict.summary
    assert "Total token throughput comparison (>= 1500): PASSED" in report.verdict.summary


@pytest.mark.parametrize(
    "line",
    [
        "E2E latency p50 is only +1–4% (token generation itself is engine-bound and identical); throughput at c=32 "
        "is −12%.",
        "DWDP throughput is -16.81% versus native HF.",
        "Against the eager reference, p99 TPOT is +50.879% and all exceed the promotion policy.",
    ],
)
def test_a_measure_stated_worse_by_a_signed_share_is_a_regression(tmp_path: Path, library: Library, line: str) -> None:
    report = analysed_lines(tmp_path, library, [line], "excerpt.log")
    assert report.verdict.id == "performance-regression", report.verdict.summary
    assert line in report.verdict.summary


@pytest.mark.parametrize(
    "line",
    [
        "Against the immediate predecessor at eight clients, throughput is -1.84 percent.",
        "With the new scheduler, mean TTFT is -22% at c=32.",
        "This will send 50,000,000 records. Throughput is -1, which means that there will be no throttling.",
    ],
)
def test_noise_an_improvement_or_a_setting_is_no_regression(tmp_path: Path, library: Library, line: str) -> None:
    report = analysed_lines(tmp_path, library, [line], "excerpt.log")
    assert report.verdict.id != "performance-regression", report.verdict.summary
    assert exit_code_for(report) != ExitCode.ROOT_CAUSE


def _decode_waiting_for_kv() -> list[str]:
    """A vLLM decode whose waiting queue climbs while its pool has room and each KV transfer takes 1.2 s."""
    lines = [
        "(EngineCore_DP0 pid=291) INFO 09-12 09:00:18 [v1/engine/core.py:93] Initializing a V1 LLM engine (v0.27.0) "
        "with config: model='Qwen/Qwen3-8B'",
        "(APIServer pid=1) INFO 09-12 09:01:15 [entrypoints/openai/api_server.py:1991] Starting vLLM API server 0 on "
        "http://0.0.0.0:8200",
    ]
    for i, waiting in enumerate([2, 3, 5, 6, 7, 8, 10, 10, 12, 13, 14, 15, 17, 17, 18, 20, 21, 21, 22, 14, 5, 0]):
        minute, second = divmod(10 + 10 * i, 60)
        at = f"09-12 09:{5 + minute:02d}:{second:02d}"
        lines.append(
            f"(APIServer pid=1) INFO {at} [v1/metrics/loggers.py:259] Engine 000: Avg prompt throughput: 0.0 tokens/s, "
            f"Avg generation throughput: 190.0 tokens/s, Running: {6 if i % 3 == 0 else 5} reqs, "
            f"Waiting: {waiting} reqs, GPU KV cache usage: {min(20 + 2.5 * waiting, 74):.1f}%, "
            "Prefix cache hit rate: 0.0%"
        )
        lines.append(
            f"(APIServer pid=1) INFO {at} [metrics.py:98] KV Transfer metrics: Num successful transfers=8, Avg xfer "
            "time (ms)=1196.9, P90 xfer time (ms)=1215.3, Avg post time (ms)=0.4, P90 post time (ms)=0.5, Avg MB per "
            "transfer=576.0, Throughput (MB/s)=481.3, Avg number of descriptors=36.0"
        )
    return lines


def test_an_exit_status_under_a_failed_gate_leaves_the_bottleneck_its_verdict(tmp_path: Path, library: Library) -> None:
    bench = [
        "[slo] pd-1p1d isl=4096 osl=256 rate=0.95: mean_ttft_ms=14745.36 target<=1500 -> FAIL",
        "[slo] 1 of 2 gates failed; exit 1",
    ]
    probe = ["$ kubectl -n pd exec decode-0 -- ls /dev/infiniband", "command terminated with exit code 2"]
    files = {"decode-0.log": _decode_waiting_for_kv(), "bench.log": bench, "pods.txt": probe}
    report = analysed_files(tmp_path / "run", library, files)
    assert report.verdict.id == "kv-transfer-backlog", report.verdict.summary
