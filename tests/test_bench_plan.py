"""A benchmark's plan is read from its command line, and a shortfall a survived outage accounts for
is that outage's cost.

sgl-project/sglang#6411 pastes `bench_serving ... --num-prompts 64 --max-concurrency 640` above its
result: 64 requests completed of 64 sent. A cap on requests in flight is no count of requests sent:
read alone it made the run look short by 576. Look-alike: the same command line with fewer completed
than asked is a benchmark that failed part of its requests.

A 2P1D soak (round 8's bundle 18) lost the 6 requests in flight with a prefill its probe restarted,
and its benchmark completed 19,994 of 20,000: the run survived the outage, and the 6 missing are the
outage's own. Look-alike: 100 missing are more than the outage cost, and the run is no healthy one.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from pdlogdoctor.library.patterns import Library
from pdlogdoctor.pipeline import run

from .conftest import ROOT, analysed_lines

COMMAND = (
    "python3 -m sglang.bench_serving --backend sglang --dataset-name random --random-input 4096 --random-output 1 "
    "--random-range-ratio 1 --num-prompts {sent} --max-concurrency 640 --request-rate inf --port 8000 --pd-separated"
)
RESULT = [
    "============ Serving Benchmark Result ============",
    "Backend:                                 sglang",
    "Traffic request rate:                    inf",
    "Max request concurrency:                 640",
    "Successful requests:                     64",
    "Benchmark duration (s):                  32.92",
]
SOAK = ROOT / "tests/data/blind-round8-bundles/18-2p1d-soak-prefill-restarted-once"


def test_a_command_line_s_count_is_the_plan_not_the_concurrency_cap(tmp_path: Path, library: Library) -> None:
    report = analysed_lines(tmp_path, library, [COMMAND.format(sent=64), *RESULT], "bench.txt")
    assert report.verdict.id == "healthy"
    assert "fewer than it sent" not in " ".join(report.missing)


def test_fewer_completed_than_the_command_line_asked_failed(tmp_path: Path, library: Library) -> None:
    report = analysed_lines(tmp_path, library, [COMMAND.format(sent=100), *RESULT], "bench.txt")
    assert report.verdict.id == "inconclusive"
    assert any("completed 64 requests, fewer than it sent" in item for item in report.missing)


def test_a_shortfall_the_survived_outage_accounts_for_is_its_cost(library: Library) -> None:
    report = run([str(SOAK)], library)
    assert report.verdict.id == "healthy"
    assert "6 requests affected" in report.verdict.summary


def test_a_shortfall_beyond_the_outage_s_cost_is_no_healthy_run(tmp_path: Path, library: Library) -> None:
    copy = tmp_path / "soak"
    shutil.copytree(SOAK, copy)
    bench = copy / "bench.log"
    text = bench.read_text()
    assert "Successful requests:                     19994" in text
    bench.write_text(text.replace("requests:                     19994", "requests:                     19900"))
    report = run([str(copy)], library)
    assert report.verdict.id != "healthy"
