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
from pdlogdoctor.library.patterns import Library, match_line
from pdlogdoctor.model import Mark
from pdlogdoctor.pipeline import run

from .conftest import FIXTURES, shipped_library
from .gate_shapes import gate_line, stamped

SERVED = FIXTURES / "healthy-sglang-bench-serving-result"  # a NIXL PD pair that served, with a benchmark
LIBRARY = shipped_library()
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
# Look-alikes of a failed gate among healthy output (real formats): nothing failed on these lines.
LOOK_ALIKES = (
    "Failed requests:                         0         ",  # vllm/benchmarks/serve.py, none failed
    "(APIServer pid=205253) INFO 09-22 13:28:53 [metrics.py:98] KV Transfer metrics: Num successful transfers=12, "
    "Num failed transfers=0, Avg xfer time (ms)=9.862, Throughput (MB/s)=7097.952",  # vLLM NIXL stats, a FAIL-like name
    # genai-perf's table (perf_analyzer#433; console_exporter.py)
    "│             Time To First Token (ms) │  1,764.61 │  1,732.66 │  1,885.98 │  1,874.74 │  1,773.52 │  1,757.67 │",
    "│ Output Token Throughput (tokens/sec) │ 1,166.41 │    N/A │    N/A │    N/A │    N/A │    N/A │",
    "|gsm8k|      3|flexible-extract|     5|exact_match|↑  |0.7847|±  |0.0113|",  # lm-eval's table
    "gsm8k | exact_match,strict-match: ground_truth=0.78 | measured=0.7847",  # vLLM's lm-eval correctness print
    "Mean TTFT (ms):                          9408.20   ",  # a benchmark's result, no gate
    "Finished: SUCCESS",
    "Success. Time elapsed: 214.09s",
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


CLOCKS = st.integers(min_value=-12, max_value=12)  # the job's clock, in hours from the servers'


@PROPERTY
@given(
    noise=st.lists(st.sampled_from(NOISE + LOOK_ALIKES), max_size=14),
    passed=st.lists(gate_line(failing=False), max_size=3),
    clock=CLOCKS,
    data=st.data(),
)
def test_a_failed_gate_of_any_real_shape_is_never_healthy(
    tmp_path: Path, noise: list[str], passed: list[str], clock: int, data: st.DataObject
) -> None:
    """Gate lines generated from the harnesses' formats (tests/gate_shapes.py), behind any runner's
    prefix on any clock, among healthy serving lines, passing gates and look-alikes, in any order:
    never healthy, never exit 0, and the report quotes a failed gate first."""
    gates = data.draw(st.lists(stamped(gate_line(failing=True), clock), min_size=1, max_size=3))
    lines = [*noise, *passed]
    for gate in gates:
        lines.insert(data.draw(st.integers(0, len(lines))), gate)
    report = run([str(_bundle(tmp_path, lines))], LIBRARY)
    assert report.verdict.id != "healthy", lines
    assert int(exit_code_for(report)) != 0, lines
    assert report.verdict.summary.startswith("A gate failed: "), (lines, report.verdict.summary)
    quoted = report.chain[0].text.strip() if report.chain else "-"
    assert any(gate.strip().endswith(quoted) for gate in gates), (lines, quoted)  # a runner's prefix is no part of it


@PROPERTY
@given(
    noise=st.lists(st.sampled_from(NOISE + LOOK_ALIKES), max_size=14),
    passed=st.lists(gate_line(failing=False), min_size=1, max_size=4),
)
def test_passing_gates_of_every_shape_and_look_alikes_stay_healthy(
    tmp_path: Path, noise: list[str], passed: list[str]
) -> None:
    """The twin: the same shapes on their passing side, and the look-alikes, keep a served run
    healthy (the property cannot hold by calling every gate-like line a failure)."""
    lines = [*noise, *passed]
    report = run([str(_bundle(tmp_path, lines))], LIBRARY)
    assert report.verdict.id == "healthy", (lines, report.verdict.summary)
    assert int(exit_code_for(report)) == 0
