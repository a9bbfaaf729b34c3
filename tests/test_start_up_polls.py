"""A readiness poll's refusals before the servers were up are the run's start-up, not a failure that a
failed performance gate may follow from.

Round 26's blind bundle (bundles-b/04, a GitHub Actions P/D job): `scripts/pd/wait_ready.sh` polled
the prefill with curl, refused every 5 s for 55 s (`curl: (7) Failed to connect`), until both vLLM
servers logged `Starting vLLM API server`; the throughput gate then failed with no bottleneck in the
metrics. The refusals, errors no pattern names, counted as failures besides the gate: inconclusive
instead of performance-regression. Look-alike: the same refusal while the benchmark ran is a failure
the slowness may follow from.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from pdlogdoctor.library.patterns import Library
from pdlogdoctor.pipeline import run

BUNDLE = Path(__file__).parent / "data" / "blind-round26-bundles-b" / "04-vllm-nixl-throughput-gate-no-bottleneck"
REFUSED = (
    "2026-07-16T{clock}Z curl: (7) Failed to connect to localhost port 8100 after 0 ms: Couldn't connect to server"
)


def _bundle(tmp_path: Path, extra: str = "") -> Path:
    for source in BUNDLE.iterdir():
        if source.name != "expected.toml":
            shutil.copy(source, tmp_path / source.name)
    if extra:
        job = tmp_path / "job-logs.txt"
        lines = job.read_text().splitlines()
        at = next(i for i, line in enumerate(lines) if line[:27] > extra[:27])
        job.write_text("\n".join([*lines[:at], extra, *lines[at:]]) + "\n")
    return tmp_path


def test_refusals_until_the_servers_are_up_leave_the_gate_a_performance_regression(
    tmp_path: Path, library: Library
) -> None:
    report = run([str(_bundle(tmp_path))], library)
    assert report.verdict.id == "performance-regression", report.verdict.summary
    assert "output throughput 2839.7 tok/s below gate 3300 tok/s" in report.verdict.summary
    assert any("Failed to connect" in error.first.text for error in report.unrecognised)  # still listed


def test_a_refusal_while_the_benchmark_ran_is_a_failure_besides_the_gate(tmp_path: Path, library: Library) -> None:
    report = run([str(_bundle(tmp_path, REFUSED.format(clock="02:17:30.0000000")))], library)
    assert report.verdict.id == "inconclusive", report.verdict.summary
