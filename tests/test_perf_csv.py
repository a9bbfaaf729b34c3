"""GenAI-Perf's and AIPerf's CSV summary: requests completed end to end, or none (issue 22).

Their CSV export ends with a `Metric,Value` section (`Request Count,50.00`, `Output Token
Throughput (tokens/sec),598.78`): requests that came back through the whole deployment. A run
whose CSV says so served (round 136's excerpts-c 01 was no-failure-seen); one whose count is 0
served nothing and is never healthy.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from pdlogdoctor.cli.behaviour import exit_code_for
from pdlogdoctor.pipeline import run

from .conftest import shipped_library

LIBRARY = shipped_library()
HEADER = ["Metric,avg,min,max,p99,p50", "Inter Token Latency (ms),2.83,2.78,2.91,3.20,2.82", "", "Metric,Value"]


@pytest.mark.parametrize(
    ("rows", "healthy"),
    [
        (["Output Token Throughput (tokens/sec),598.78", "Request Count,50.00"], True),
        (["Output Token Throughput (tokens/sec),0.00", "Request Count,0.00"], False),
        (["Request Count (count),3.00"], True),
    ],
)
def test_the_csv_summary_says_whether_requests_came_back(tmp_path: Path, rows: list[str], healthy: bool) -> None:
    report_csv = tmp_path / "profile_export_aiperf.csv"
    report_csv.write_text("\n".join([*HEADER, *rows]) + "\n")
    report = run([str(report_csv)], LIBRARY)
    assert (report.verdict.id == "healthy") is healthy, report.verdict.summary
    assert (int(exit_code_for(report)) == 0) is healthy
