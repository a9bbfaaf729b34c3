"""Slow runs (issue 31): the metrics lines read as series, and the verdicts read from them.

The series: every line of a metrics pattern is measured, however many the event cap keeps, in a
bounded number of time buckets. The verdicts: a slow run (a failed latency or throughput gate over
whatever series) is never healthy and never exits 0; the same run whose gate passed is healthy
whatever its series; a burst that drains is no backlog.
"""

from __future__ import annotations

import io
import shutil
from datetime import datetime, timedelta
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pdlogdoctor.cli.behaviour import exit_code_for
from pdlogdoctor.library.load import load_library
from pdlogdoctor.library.patterns import Library, match_line
from pdlogdoctor.model import Mark, Role, Series, verdicts
from pdlogdoctor.pipeline import analyse, run
from pdlogdoctor.reason.performance import backlog, performance_words
from pdlogdoctor.scan.events import KEEP_PER_PATTERN, SAMPLE_FULL, EventSink
from pdlogdoctor.scan.index import AnchorIndex
from pdlogdoctor.scan.search import scan_stream
from pdlogdoctor.scan.series import MAX_BUCKETS

from .conftest import FIXTURES

LIBRARY = load_library()
START = datetime(2026, 11, 28, 2, 15, 0)
PROPERTY = settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


def decode_line(t: datetime, running: int, usage: float, prealloc: int, queue: int, gen: float) -> str:
    """sglang's 2026 PD decode line (observability report_decode_stats)."""
    return (
        f"[{t:%Y-%m-%d %H:%M:%S} TP0] Decode batch, #running-req: {running}, #token: {int(usage * 3122176)}, "
        f"token usage: {usage:.2f}, pre-allocated usage: 0.01, #prealloc-req: {prealloc}, #transfer-req: 0, "
        f"#retracted-req: 0, cuda graph: True, gen throughput (token/s): {gen:.2f}, #queue-req: {queue}"
    )


def prefill_line(t: datetime, queue: int, boot: int, inflight: int) -> str:
    """sglang's 2026 PD prefill line (observability report_prefill_stats)."""
    return (
        f"[{t:%Y-%m-%d %H:%M:%S} TP0] Prefill batch, #new-seq: 2, #new-token: 4096, #cached-token: 0, "
        f"token usage: 0.05, #running-req: 0, #queue-req: {queue}, #pending-token: 0, #bootstrap-req: {boot}, "
        f"#inflight-req: {inflight}, cuda graph: False, input throughput (token/s): 15200.00"
    )


# ---------------------------------------------------------------- the series


def test_a_series_sees_every_line_the_event_cap_drops(library: Library) -> None:
    """4,000 decode lines: 21 events are kept (the cap, and the last), the series counts all
    4,000 in at most MAX_BUCKETS buckets, and its extremes and mean are every line's."""
    lines = [
        decode_line(START + timedelta(seconds=2 * i), 200 + i % 50, 0.5, 0, i % 7, 1000.0 + i % 100)
        for i in range(4_000)
    ]
    data = "\n".join(lines).encode()
    assert len(data) < SAMPLE_FULL  # every line read: the sample starts past them
    index = AnchorIndex.build(library, "pure", 0)
    result = scan_stream(io.BytesIO(data), "decode_x.log", index)
    kept = [e for e in result.events if Mark.METRICS in library.pattern(e.pattern).marks]
    assert len(kept) == KEEP_PER_PATTERN + 1 and kept[0].repeats == 4_000
    assert kept[-1].line == 4_000  # the last line's event is made when the scan ends
    series = {s.metric: s for s in result.series.series("decode_x.log", Role.DECODE, None)}
    queue, running = series["queue"], series["running"]
    assert queue.count == running.count == 4_000
    assert (queue.low, queue.high) == (0, 6) and (running.low, running.high) == (200, 249)
    assert abs(running.mean - sum(200 + i % 50 for i in range(4_000)) / 4_000) < 1e-9
    assert len(queue.points) <= MAX_BUCKETS and queue.points[0][0] < queue.points[-1][0]
    assert (queue.first_line, queue.last_line) == (1, 4_000)


def test_past_its_first_megabytes_a_stream_s_metrics_lines_are_sampled_by_offset() -> None:
    """Every line in the first SAMPLE_FULL bytes is read, then fewer and fewer blocks (a log ten
    times as long costs a few more reads, not ten times as many); a line read stands for the
    blocks skipped beside it, and which lines are read depends on their offsets alone."""
    line = 200
    for size in (SAMPLE_FULL, 10 * SAMPLE_FULL, 100 * SAMPLE_FULL):
        sink = EventSink("x.log", sampled={0: "sglang-decode-stats"})
        weights = [sink.take(0, offset) for offset in range(0, size, line)]
        read = sum(line for weight in weights if weight)
        assert read <= SAMPLE_FULL * (1 + (size // SAMPLE_FULL).bit_length())
        assert abs(sum(weights) - len(weights)) <= len(weights) // 50  # the weights stand for every line
    sink = EventSink("x.log", sampled={0: "sglang-decode-stats"})
    assert all(sink.take(0, offset) == 1 for offset in range(0, SAMPLE_FULL, line))


def _series(points: list[float], metric: str = "queue") -> Series:
    buckets = tuple((1000.0 + 10 * i, value, value, value) for i, value in enumerate(points))
    return Series(
        "decode.log", Role.DECODE, "n1", "", "sglang-decode-stats", metric, len(points), 1, len(points),
        1000.0, 1000.0 + 10 * len(points), points[0], points[-1], min(points), max(points),
        sum(points) / len(points), 1, 1000.0, "", buckets,
    )  # fmt: skip


def test_a_standing_queue_is_a_backlog_and_a_burst_that_drains_is_not() -> None:
    standing = _series([0, 5, 20, 40, 60, 80, 90, 95, 96, 96, 94, 96, 95, 96, 90, 70, 40, 10])
    burst = _series([0, 0, 0, 0, 0, 0, 30, 80, 60, 10, 0, 0, 0, 0, 0, 0, 0, 0])
    small = _series([3, 4, 5, 6, 5, 4, 6, 7, 5, 6, 4, 5, 6, 7, 5, 4, 3, 5])  # pipelining, never 8
    found = backlog(standing)
    assert found is not None and found.peak == 96 and found.share >= 0.5
    assert backlog(burst) is None
    assert backlog(small) is None


def test_only_a_queue_that_still_climbs_is_unhealthy_without_a_gate() -> None:
    """A queue held at a level (a closed-loop benchmark at its concurrency) is load; one that only
    grows, to its peak at the end of the log, is a server falling behind (sglang#22877)."""
    held = _series([60, 62, 61, 60, 63, 62, 60, 61, 62, 60, 61, 63, 62, 60, 61, 62, 60, 61])
    climbing = _series([1, 1, 2, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 14, 15, 17, 18])
    standing, rising = backlog(held), backlog(climbing)
    assert standing is not None and not standing.rising
    assert rising is not None and rising.rising


def test_a_year_less_series_moves_with_its_file_and_pattern() -> None:
    """Mooncake's glog lines in an sglang prefill log have no year: their series takes the year the
    timeline gave their events (its own pattern's shift), not the sglang lines' (which is none)."""
    analysis = analyse([str(FIXTURES / "slow-kv-backlog-sglang-mooncake")], LIBRARY)
    performance = analysis.report.performance
    assert performance is not None
    glog = next(s for s in performance.series if s.metric == "kv_throughput")
    first = min((e for e in analysis.events if e.pattern == glog.pattern), key=lambda e: e.line)
    assert first.line == glog.first_line and first.time == glog.first_time
    assert glog.points[0][0] == glog.first_time  # the buckets moved with it
    sglang = next(s for s in performance.series if s.metric == "transfer_queue")
    assert sglang.first_time is not None and glog.first_time is not None
    assert abs(glog.first_time - sglang.first_time) < 60  # the same minute of the same run


# ---------------------------------------------------------------- the verdicts


def _failing_gate_lines(library: Library) -> list[str]:
    """The examples of the gate patterns that their own condition fails on a latency or a throughput."""
    lines = []
    for pattern_id in sorted(library.marked(Mark.GATE_FAILED)):
        pattern = library.pattern(pattern_id)
        if "metric" not in dict(pattern.fields):
            continue
        for line in pattern.examples.match:
            fields = match_line(pattern, line)
            failed = fields is not None and (pattern.failure_if is None or pattern.failure_if.holds(fields))
            if failed and fields is not None and performance_words(str(fields.get("metric", ""))):
                lines.append(line)
    return lines


FAILED_GATES = _failing_gate_lines(LIBRARY)
PASSED_GATES = (
    "median TTFT 850.2 ms <= gate 2000 ms -- PASS",
    "output throughput 2412.8 tok/s >= gate 1500 tok/s -- PASS",
)
LEVELS = st.lists(st.integers(min_value=0, max_value=200), min_size=6, max_size=40)


def _bundle(
    tmp_path: Path, gate: str, queues: list[int], prealloc: list[int], usage: list[int], inflight: list[int]
) -> Path:
    bundle = tmp_path / "run"
    if bundle.exists():
        shutil.rmtree(bundle)
    bundle.mkdir()
    decode = ["[2026-11-28 02:10:20] The server is fired up and ready to roll!"]
    prefill = ["[2026-11-28 02:10:19] The server is fired up and ready to roll!"]
    for i, queue in enumerate(queues):
        t = START + timedelta(seconds=4 * i)
        share = usage[i % len(usage)] / 200
        decode.append(decode_line(t, 64, share, prealloc[i % len(prealloc)], queue, 2000.0))
        prefill.append(prefill_line(t, queue // 2, prealloc[i % len(prealloc)] // 3, inflight[i % len(inflight)]))
    (bundle / "decode_n2.log").write_text("\n".join(decode) + "\n")
    (bundle / "prefill_n1.log").write_text("\n".join(prefill) + "\n")
    bench = ["============ Serving Benchmark Result ============", f"{'Successful requests:':<40} {512:<10}", gate]
    (bundle / "bench.log").write_text("\n".join(bench) + "\n")
    return bundle


@PROPERTY
@given(gate=st.sampled_from(FAILED_GATES), queues=LEVELS, prealloc=LEVELS, usage=LEVELS, inflight=LEVELS)
def test_a_slow_run_is_never_healthy_and_never_exits_0(
    tmp_path: Path, gate: str, queues: list[int], prealloc: list[int], usage: list[int], inflight: list[int]
) -> None:
    report = run([str(_bundle(tmp_path, gate, queues, prealloc, usage, inflight))], LIBRARY)
    assert report.verdict.id != verdicts.HEALTHY
    assert int(exit_code_for(report)) != 0
    assert report.verdict.id in verdicts.PERFORMANCE  # the gate's failure is read, whatever the series
    assert report.chain and report.chain[0].text == gate  # the gate line is quoted first


@PROPERTY
@given(gate=st.sampled_from(PASSED_GATES), queues=LEVELS, prealloc=LEVELS, usage=LEVELS, inflight=LEVELS)
def test_the_same_run_whose_gate_passed_is_healthy(
    tmp_path: Path, gate: str, queues: list[int], prealloc: list[int], usage: list[int], inflight: list[int]
) -> None:
    """The twin: the property cannot hold by calling every busy run slow."""
    report = run([str(_bundle(tmp_path, gate, queues, prealloc, usage, inflight))], LIBRARY)
    assert report.verdict.id == verdicts.HEALTHY
    assert int(exit_code_for(report)) == 0


def test_a_slow_run_whose_requests_failed_is_not_called_merely_slow(tmp_path: Path) -> None:
    """A latency gate fails, but the decode also answered requests with 500s no line explains: the
    slowness may be their consequence, so the decision's inconclusive stands (the gate quoted)."""
    bundle = _bundle(tmp_path, FAILED_GATES[0], [0, 1, 0, 2, 0, 1], [0], [40], [1])
    with (bundle / "decode_n2.log").open("a") as decode:
        decode.write(
            '[2026-11-28 02:15:30] INFO:     10.12.0.3:51820 - "POST /generate HTTP/1.1" 500 Internal Server Error\n'
        )
    report = run([str(bundle)], LIBRARY)
    assert report.verdict.id not in verdicts.PERFORMANCE
    assert int(exit_code_for(report)) != 0


def test_every_kind_of_gate_line_is_drawn() -> None:
    assert len(FAILED_GATES) >= 5 and any("throughput" in line for line in FAILED_GATES)


@pytest.mark.parametrize(
    ("gate", "named"),
    [
        ("FAIL accuracy 0.55 (expected >= 0.62)", True),
        ("gsm8k accuracy 0.612 < threshold 0.700", True),
        ("E       assert 0.55 > 0.62", False),
        ("FAILED (failures=1)", False),
    ],
)
def test_a_failed_gate_that_measured_no_speed_is_not_blamed_on_a_backlog(
    tmp_path: Path, gate: str, named: bool
) -> None:
    """Wrong answers are no queue's doing: with only an accuracy gate failed, a standing backlog in
    the series is not the verdict (it was: kv-transfer-backlog or decode-saturated at 0.6); a test
    whose measure is unknown may point at it, but below 0.5 (it was 0.6). The gate is quoted first."""
    standing = [0, 20, 60, 90, 95, 96, 96, 94, 96, 95, 96, 90, 96, 95, 96, 94, 96, 95]
    report = run([str(_bundle(tmp_path, gate, standing, standing, [198], standing))], LIBRARY)
    assert report.verdict.id != verdicts.HEALTHY and int(exit_code_for(report)) != 0
    if named:
        assert report.verdict.id not in verdicts.PERFORMANCE
    assert report.verdict.id not in verdicts.PERFORMANCE or report.verdict.confidence < 0.5
    assert report.verdict.summary.startswith("A gate failed: ") and report.chain[0].text.endswith(gate)


@pytest.mark.parametrize(
    ("pattern_id", "needed"),
    [
        ("sglang-decode-stats", {"running", "token_usage", "gen_throughput", "queue"}),
        ("sglang-prefill-stats", {"queue", "new_tokens"}),
        ("vllm-engine-stats", {"running", "queue", "token_usage", "gen_throughput"}),
        ("router-request-latency", {"latency_us"}),
    ],
)
def test_every_variant_of_a_metrics_line_gives_its_series(pattern_id: str, needed: set[str]) -> None:
    """Each wording a version prints (sglang's SWA + mamba and HiSparse pool parts, vLLM's V0 and V1
    engine lines, ...) is read into the series the verdicts use, not only its first example."""
    pattern = LIBRARY.pattern(pattern_id)
    assert Mark.METRICS in pattern.marks
    for line in pattern.examples.match:
        fields = match_line(pattern, line)
        assert fields is not None and needed <= fields.keys(), (line, fields)
