"""A failed gate is never healthy (issue 22.2).

Gate lines are data: every pattern marked `gate-failed`. The property test draws failing gate
lines from those patterns' own examples (so a new harness's gate is covered the day it is added)
and hides them among healthy-looking noise beside a PD pair that served; whatever the mix, the
run is never `healthy` and never exits 0. Its twin: the same noise with only passing gate lines
stays healthy, so the property cannot hold by calling everything a failure.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pdlogdoctor.cli.behaviour import exit_code_for
from pdlogdoctor.library.load import load_library
from pdlogdoctor.library.patterns import Library, match_line
from pdlogdoctor.model import Mark
from pdlogdoctor.pipeline import run

from .conftest import FIXTURES

SERVED = FIXTURES / "healthy-sglang-bench-serving-result"  # a NIXL PD pair that served, with a benchmark
LIBRARY = load_library()
# Healthy-looking lines of test and benchmark runs (the fixtures' own, real formats): none is a gate failure.
NOISE = (
    "Successful requests:                     1024      ",
    "Failed requests:                         0         ",
    "Ran 3 tests in 212.118s",
    "OK",
    "========================= 1 passed, 2 warnings in 214.09s (0:03:34) =========================",
    "Success. Time elapsed: 214.09s",
    "Evaluation metrics: {'accuracy': 0.71, 'invalid': 0.0, 'latency': 58.024, 'output_throughput': 2445.236}",
    'INFO:     10.12.0.3:50112 - "POST /generate HTTP/1.1" 200 OK',
    "##[group]Run python3 run_suite.py --suite per-commit-8-gpu-b200",
    "##[endgroup]",
    "Test Summary: 3/3 passed",
)


def _failing_gate_lines(library: Library) -> list[str]:
    """Every example line of a gate pattern that the pattern itself calls failing."""
    lines = []
    for pattern_id in sorted(library.marked(Mark.GATE_FAILED)):
        pattern = library.pattern(pattern_id)
        for line in pattern.examples.match:
            fields = match_line(pattern, line)
            if fields is not None and (pattern.failure_if is None or pattern.failure_if.holds(fields)):
                lines.append(line)
    return lines


GATES = _failing_gate_lines(LIBRARY)
PROPERTY = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


def test_every_kind_of_harness_has_a_failing_gate_line() -> None:
    """The gates the brief names are in the data: CI runners, test runners, benchmarks, sglang's runner."""
    ids = LIBRARY.marked(Mark.GATE_FAILED)
    assert {"actions-exit-nonzero", "gitlab-job-failed", "pytest-summary-failed", "unittest-summary-failed"} <= ids
    assert {"bench-failed-requests", "sglang-ci-file-failed", "unittest-threshold-assert"} <= ids
    assert len(GATES) >= 2 * len(ids) - 3  # most gate patterns give more than one failing example


def _bundle(tmp_path: Path, lines: list[str]) -> Path:
    bundle = tmp_path / "run"
    if bundle.exists():
        shutil.rmtree(bundle)
    shutil.copytree(SERVED, bundle, ignore=shutil.ignore_patterns("expected.toml", "job.log"))
    (bundle / "job.log").write_text("".join(f"{line}\n" for line in lines))
    return bundle


@PROPERTY
@given(
    noise=st.lists(st.sampled_from(NOISE), max_size=12),
    gates=st.lists(st.sampled_from(GATES), min_size=1, max_size=3),
    where=st.randoms(use_true_random=False),
)
def test_a_failed_gate_is_never_healthy(tmp_path: Path, noise: list[str], gates: list[str], where: object) -> None:
    lines = list(noise)
    for gate in gates:
        lines.insert(where.randint(0, len(lines)), gate)  # type: ignore[attr-defined]
    report = run([str(_bundle(tmp_path, lines))], LIBRARY)
    assert report.verdict.id != "healthy", lines
    assert int(exit_code_for(report)) != 0, lines
    assert report.verdict.summary.startswith("A gate failed: ") or report.verdict.id not in (
        "inconclusive",
        "no-failure-seen",
    ), report.verdict.summary


@PROPERTY
@given(noise=st.lists(st.sampled_from(NOISE), min_size=1, max_size=12))
def test_passing_gates_among_the_same_noise_stay_healthy(tmp_path: Path, noise: list[str]) -> None:
    report = run([str(_bundle(tmp_path, noise))], LIBRARY)
    assert report.verdict.id == "healthy", (noise, report.verdict.summary)
    assert int(exit_code_for(report)) == 0
