"""Gate lines in the shapes real harnesses print them, failing or passing, for the property tests.

Drawn from the formats, not from the pattern library's examples (a gate the tool does not read
fails the property instead of being left out of it):
- benchmark and evaluation gates: a metric (sglang bench_serving's JSON keys `mean_ttft_ms`,
  `output_throughput` ...; vLLM's `Mean TTFT`, `Output token throughput`; an accuracy), its value, a
  comparison or a limit word, the limit, and an outcome word before or after (issue 31's
  `... < gate ... -- FAIL`);
- test runners: pytest's `E   assert 0.61 > 0.7` (vllm#24314) and summary line, unittest's
  `AssertionError: 0.69 not greater than 0.7` (sglang#22100), `FAIL: test_x (...)` header and
  `FAILED (failures=1)`, sglang's CI runner's `FAILED: f returned exit code 1`, `Fail. Time
  elapsed`, `Test Summary: k/n passed`;
- benchmarks: `Failed requests:` (vllm/benchmarks/serve.py's `"{:<40} {:<10}"`);
- results tables: a row of numbers with a FAIL status cell (sglang's nightly evaluations'
  `| {model} | ... | ❌ FAIL |`, a perf-check script's `metric  baseline  current  delta  allowed
  FAIL`), and gates in words (sglang's `Model {m} score (0.7912) is below threshold (0.8300)`,
  TensorRT-LLM's perf regression check `d_seq_throughput: value=... baseline=... threshold=5.00%
  diff=-13.08%`);
- CI runners: Actions' `##[error]Process completed with exit code N.`, GitLab's `ERROR: Job failed:
  exit code N`, Buildkite's `🚨 Error: The command exited with status N`, Jenkins' `ERROR: script
  returned exit code N` and `Finished: FAILURE`, actions/toolkit's `The process '...' failed with exit
  code N`, Slurm's `srun: error: <node>: task 0: Exited with exit code N`;
each behind a CI runner's prefix (none, Actions, Buildkite, GitLab, Jenkins' timestamper, a Python
log stamp) on a clock of its own.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from hypothesis import strategies as st

LATENCIES = ("mean_ttft_ms", "median_ttft_ms", "p99_ttft_ms", "mean_tpot_ms", "median_itl_ms", "mean_e2e_latency_ms",
             "Mean TTFT", "P99 TPOT", "median TTFT", "TTFT p99", "Median E2E Latency",
             "ttft_median_ms", "tpot_p99_ms")  # fmt: skip
RATES = ("output_throughput", "input_throughput", "request_throughput", "total_throughput", "output token throughput",
         "Output token throughput", "request goodput", "output_throughput_tok_s")  # fmt: skip
ACCURACIES = ("accuracy", "gsm8k accuracy", "score", "exact_match")
FAMILIES = (("latency", LATENCIES, (" ms", "ms", "")), ("rate", RATES, (" tok/s", "")), ("accuracy", ACCURACIES, ("",)))
LIMIT_WORDS = ("gate", "threshold", "limit", "target")
START = datetime(2026, 12, 1, 1, 9, 35)


def _prefix(kind: int, when: datetime) -> str:
    return (
        "",
        f"{when:%Y-%m-%dT%H:%M:%S}.4414031Z ",
        f"[{when:%Y-%m-%dT%H:%M:%S}Z] ",
        f"{when:%Y-%m-%dT%H:%M:%S}.122066Z 00O ",
        f"{when:%H:%M:%S}  ",
        f"[{when:%Y-%m-%d %H:%M:%S}] ",
    )[kind]


def _side(family: str, limit: float, ratio: float, failing: bool) -> float:
    """A value on the failing (or passing) side of `limit`: a latency over it fails, a rate or an
    accuracy under it."""
    worse = family == "latency"
    over = limit * (1 + ratio) if worse == failing else limit * (1 - ratio * 0.9)
    return round(over, 2)


@st.composite
def metric_gate(draw: st.DrawFn, failing: bool) -> str:
    family, names, units = draw(st.sampled_from(FAMILIES))
    name = draw(st.sampled_from(names))
    unit = draw(st.sampled_from(units))
    limit = draw(st.sampled_from((0.62, 0.7, 35.0, 1500.0, 2000.0, 5000.0)))
    value = _side(family, limit, draw(st.sampled_from((0.05, 0.3, 1.5))), failing)
    up = value > limit
    rel = draw(st.sampled_from((">", ">=", "exceeds", "above") if up else ("<", "<=", "below", "under")))
    word = draw(st.sampled_from(LIMIT_WORDS))
    outcome = "FAIL" if failing else "PASS"
    shape = draw(st.integers(0, 4))
    if shape == 0:  # the outcome first
        lead = draw(st.sampled_from((f"{outcome}ED:", f"[{outcome}]", outcome)))
        return f"{lead} {name} {value}{unit} {rel} {limit}{unit}"
    if shape == 1:  # the outcome last
        sep = draw(st.sampled_from(("-- ", ": ", "=> ", "| ")))
        return f"{name} {value}{unit} {rel} {word} {limit}{unit} {sep}{outcome}"
    if shape == 2:  # key=value
        return f"[{outcome}] {name}={value} ({word} {limit})"
    if shape == 3:  # no outcome word: the threshold's side says
        return f"{name} {value}{unit} {rel} threshold {limit}{unit}"
    return f"{name} {value}{unit} {rel} {word} {limit}{unit} -- {outcome}"


@st.composite
def assertion_gate(draw: st.DrawFn, failing: bool) -> str:
    """A test's threshold assertion: pytest's rewrite, unittest's message, a failed test's header."""
    limit = draw(st.sampled_from((0.62, 0.7, 70, 1500)))
    value = round(limit * draw(st.sampled_from((0.5, 0.9, 0.97))), 2)
    if not failing:
        return draw(st.sampled_from(("OK", "Ran 1 test in 212.118s", f"{'Successful requests:':<40} {512:<10}")))
    spaces = " " * draw(st.integers(3, 11))
    return draw(
        st.sampled_from(
            (
                f"E{spaces}assert {value} > {limit}",
                f"E{spaces}AssertionError: assert {value} >= {limit}",
                f"AssertionError: {value} not greater than {limit}",
                f"AssertionError: {value} not greater than or equal to {limit}",
                "FAIL: test_gsm8k (__main__.TestDisaggregationAccuracy.test_gsm8k)",
                "E       assert False",
            )
        )
    )


@st.composite
def outcome_gate(draw: st.DrawFn, failing: bool) -> str:
    """A runner's outcome: failed requests, failed tests, a step or job that exited non-zero."""
    n = draw(st.integers(1, 140)) if failing else 0
    total = draw(st.integers(2, 9))
    if not failing:
        return draw(
            st.sampled_from(
                (
                    f"{'Failed requests:':<40} {0:<10}",
                    f"Test Summary: {total}/{total} passed",
                    "Success. Time elapsed: 214.09s",
                    "Finished: SUCCESS",
                    f"========================= {total} passed in 214.09s (0:03:34) =========================",
                )
            )
        )
    code = draw(st.sampled_from((1, 2, 137, 255)))
    return draw(
        st.sampled_from(
            (
                f"{'Failed requests:':<40} {n:<10}",
                f"##[error]Process completed with exit code {code}.",
                f"ERROR: Job failed: exit code {code}",
                f"🚨 Error: The command exited with status {code}",
                f"ERROR: script returned exit code {code}",
                "Finished: FAILURE",
                f"srun: error: mia1-p06-g13: task 0: Exited with exit code {code}",
                f"Error: The process '/usr/bin/bash' failed with exit code {code}",
                f"FAILED: test/srt/test_disaggregation.py returned exit code {code}",
                f"Fail. Time elapsed: {n * 10.5:.2f}s",
                f"Test Summary: {total - 1}/{total} passed",
                f"==================== {min(n, 9)} failed, {total} passed in 881.27s (0:14:41) ====================",
                f"FAILED (failures={min(n, 9)})",
            )
        )
    )


@st.composite
def table_gate(draw: st.DrawFn, failing: bool) -> str:
    """A results table's row: what was checked, its numbers, a status cell. sglang's nightly
    evaluations (`| {model} | {tp} | {score:.3f} | {threshold} | {startup}s | ... | ❌ FAIL |`), a
    perf-check script against its baseline (`metric  baseline  current  delta  allowed  FAIL`)."""
    family, names, _ = draw(st.sampled_from(FAMILIES))
    name = draw(st.sampled_from(names)).replace(" ", "_")
    baseline = draw(st.sampled_from((0.82, 22.3, 371.9, 1782.4)))
    ratio = draw(st.sampled_from((0.05, 0.13, 0.4)))
    allowed = 0.1 if failing else ratio + 0.1
    current = _side(family, baseline, ratio, failing)
    delta = (current - baseline) / baseline * 100
    if draw(st.booleans()):  # the status after a glyph, in a markdown row
        statuses = ("❌ FAIL", "FAILED", "FAIL") if failing else ("✅ PASS", "PASS")
        status = draw(st.sampled_from(statuses))
        model = draw(st.sampled_from(("meta-llama/Llama-3.1-8B-Instruct", "Qwen/Qwen2-57B-A14B-Instruct", name)))
        limit = baseline if failing else round(current * (0.9 if family != "latency" else 1.1), 2)
        return f"| {model} | 2 | {current:.3f} | {limit} | 95s | 210s | 305s | {status} |"
    status = "FAIL" if failing else draw(st.sampled_from(("ok", "PASS", "pass")))
    sign = -1 if family != "latency" else 1
    return f"  {name:<26}{baseline:>10}{current:>13.1f}{delta:>+9.1f}%{sign * allowed * 100:>+8.0f}%   {status}"


@st.composite
def words_gate(draw: st.DrawFn, failing: bool) -> str:
    """A gate in words: sglang's nightly `Model {m} score ({s:.4f}) is below threshold ({t:.4f})`;
    TensorRT-LLM's perf regression check `  {metric}: value=... baseline=... threshold=5.00% diff=-13.08%`
    (diff positive when better; worse than -threshold fails)."""
    if draw(st.booleans()):
        threshold = draw(st.sampled_from((0.62, 0.83, 0.86)))
        score = round(threshold * (0.93 if failing else 1.04), 4)
        side = "below" if failing else "above"
        model = draw(
            st.sampled_from(("neuralmagic/Meta-Llama-3.1-8B-Instruct-FP8", "mistralai/Mistral-7B-Instruct-v0.3"))
        )
        return f"Model {model} score ({score:.4f}) is {side} threshold ({threshold:.4f})"
    metric = draw(st.sampled_from(("d_seq_throughput", "d_token_throughput", "d_mean_ttft", "d_median_e2el")))
    threshold = draw(st.sampled_from((0.05, 0.1)))
    share = -draw(st.sampled_from((1.6, 3.0))) if failing else draw(st.sampled_from((-0.5, 0.4)))  # of the threshold
    diff = share * threshold * 100
    baseline = 1782.4
    value = baseline * (1 + diff / 100) if "throughput" in metric else baseline * (1 - diff / 100)
    return f"  {metric}: value={value:.4f} baseline={baseline:.4f} threshold={threshold * 100:.2f}% diff={diff:+.2f}%"


def gate_line(failing: bool) -> st.SearchStrategy[str]:
    return st.one_of(
        metric_gate(failing), assertion_gate(failing), outcome_gate(failing), table_gate(failing), words_gate(failing)
    )


@st.composite
def stamped(draw: st.DrawFn, line: st.SearchStrategy[str], clock_hours: int) -> str:
    """`line` behind a runner's prefix, stamped on a clock `clock_hours` from the servers'."""
    when = START + timedelta(hours=clock_hours, seconds=draw(st.integers(0, 600)))
    return _prefix(draw(st.integers(0, 5)), when) + draw(line)
