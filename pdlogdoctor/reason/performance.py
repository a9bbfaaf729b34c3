"""Why a run was slow: the servers' periodic metrics lines, read as time series, on top of the decision.

The scan reads every line of the patterns marked `metrics` into bounded series per source and rank
(scan/series.py). When the decision names no cause (healthy, no failure seen, inconclusive) and a
performance gate failed, this module says where the time went, from the series alone:

- kv-transfer-backlog: the prefill's transfers (or handshakes) pile up and stay up while the decode's
  pool has room, or the transfer engine's throughput falls under load;
- decode-saturated: the decode's queue stays up with its KV pool near full, retracting or preempting;
- prefill-saturated: the prefill's own queue stays up, its transfers do not, the decode has room;
- straggler-node: one node of a role is much slower than its peers (named, with what differs);
- performance-regression: a latency or throughput gate failed and none of the above shows.

A queue only counts when it stays up (`SUSTAINED_SHARE` of the time its server printed), so a burst
that drains is load, not a bottleneck. A bottleneck becomes the verdict with a failed performance
gate; without one (or with a gate that measured something else), only when it is plainly unhealthy
(`Backlog.rising`: it still climbs when the log ends) and no gate or end-to-end check passed, or
when the decode threw work away for most of the run (`Finding.chronic`: a standing queue, the pool
pinned, preemptions in most intervals) and no latency or throughput gate passed: a busy run whose
gate passed stays healthy.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import replace

from ..library.errorlines import EXIT_STATUS
from ..library.patterns import Library
from ..library.templates import message_of
from ..model import (
    SERVER_ROLES,
    Alternative,
    Event,
    FactValue,
    Kind,
    Mark,
    Performance,
    Report,
    Role,
    Series,
    Severity,
    Source,
    Suggestion,
    Tier,
    UnexplainedError,
    Verdict,
    verdicts,
)
from ..model.lazyre import lazy_re
from ..model.textcut import clip, ended
from ..model.values import record
from . import compared, confidence
from .incidents import EARLIER_LIFE
from .quotes import series_place
from .waiting import ended_waiting

GATE_MISSING = "no line says why the gate"  # decide.py's missing evidence: the series say it now
REGRESSION = verdicts.PERFORMANCE_REGRESSION
MIN_BUCKETS = 4  # fewer time buckets than this is too short a series to call a trend
SUSTAINED_SHARE = 0.5  # a queue standing in at least half the time its server printed is a backlog
STANDING = 0.25  # ... standing: never below this share of its peak within a time bucket
QUEUE_MIN = 8.0  # requests: a queue that never exceeds this is pipelining, no backlog
# A queue still at this share of its peak when the lines end, beside a pool below ROOM_LEFT, waits on
# something else than the pool (_stood_with_room).
QUEUE_STILL_UP, ROOM_LEFT = 0.8, 0.5
FULL_POOL = 0.9  # token usage at or above this is the pool's limit (sglang's guide wants > 0.9 at full load)
FALLEN = 0.5  # a transfer throughput at this share of its early level (or a time at 1/FALLEN) has changed
END_SHARE = 0.2  # the last fifth of a series is its end
STILL_UP = 0.8  # a rising backlog ends at this share of its peak at least ...
RISEN = 2.0  # ... and this many times its early level
NEVER_ROOM_LINES = 2  # metrics lines, each with a queue up and a full pool: a server that never had room
SHORT_EXCERPT_S = 300.0  # a series of metrics lines spanning no more than this is an excerpt, not a run
AT_CAP = 0.95  # a running batch at this share of its peak or above is held at its cap
# Output within this factor of its peers' is no more output (two nodes' means differ by noise).
SAME_OUTPUT = 1.05
PREFILL_ONLY = 0.02  # generated tokens per prompt token below which a server only prefilled
SLOWER = 0.5  # a node at this share of its peers' throughput, or 1/SLOWER their interval, lags them
# A node whose requests queue while its peers' do not lags them, whatever its throughput per batch (a
# GPU that throttles serves each batch nearly as fast, but fewer of them): its mean queue at least
# QUEUED requests and PILED_UP times its peers' (a peer's empty queue counted as half a request).
QUEUED = 5.0
PILED_UP = 10.0
# A node holding more running requests than its peers for no more output lags them only when it holds
# this many more: a prefill holds its one request for a step, and a mean of 0.5 against 0.2 is the
# noise of when each node printed, not a slow node.
MORE_HELD = 2.0
# Two nodes whose metrics lines lie this far apart in time ran in different runs, not side by side.
SAME_RUN_SLACK_S = 600.0
TARGET_USAGE = 0.85  # the pool usage a suggested batch cap aims at: room for the running requests to grow
DEFAULT_TRANSFER_QUEUES = 4  # sglang's SGLANG_DISAGGREGATION_QUEUE_SIZE default (environ.py)
GATE_BLOCK = 12  # lines: a failed test's block, its header over its traceback and assertion
CHECK_TAG = lazy_re(r"\[[a-z][\w.-]*\] *$")  # `[slo] `: lower-case, as no level or time tag is
_DIGIT = lazy_re(r"\d")
_COMMENT = lazy_re(r"\s*#\s")  # a source line's comment (an Actions annotation, `##[error]`, is none)
OUTCOME_WORD = lazy_re(r"(?<![\w-])FAIL(?:ED)?(?![\w-])")  # a gate line's outcome, upper-case and whole
# `time per token`, `queue time`, `req duration`: a load generator's names (k6's summary: TGI's
# `time_per_token`, its own `http_req_duration`).
LATENCY_WORDS = (
    "ttft",
    "tpot",
    "itl",
    "e2e",
    "latency",
    "time to first",
    "time per output",
    "time per token",
    "queue time",
    "req duration",
    "benchmark duration",
)
# The short ones only as words of their own: `itl` is in "title", `e2e` a test folder's name too.
# A measure named with a unit of time (`median_audio_ttfp_ms`) is a latency whatever it times; speech
# output's own are its first packet's time (`ttfp`) and its real-time factor (`rtf`, seconds of compute
# per second of audio), both better lower (vLLM-Omni's nightly). A value glued to its unit (`3.22ms`, a
# row a gate's cross marks) says so too, as does a duration or a time of something by name (`drain
# time`, a bisection's table; not `failed to start in time`), a start-up's (`Cold Start (s)`), or a
# column whose unit is a time (`(s)`). A unit alone stands as a word of its own, not as a piece of a
# name (`pods/ms-precise-prefix-cache-...`: a pod's, whose `ms` times nothing).
_SHORT_LATENCY = lazy_re(
    r"\b(?:ttft|tpot|itl|e2e|ttfp|rtf|duration)\b|(?<![\w/.-])(?:ms|[uµμ]s|msec)(?![\w/.-])|(?<=\d)(?:ms|[uµμ]s)\b"
    r"|\b(?:drain|wall|run|step|total|response|decode|prefill|elapsed|request|iteration|batch|token) time\b"
    r"|\b(?:cold|warm) start\b|\((?:s|secs?|seconds|min)\)"
)
# Rates by their short units, whole words only (`sps`: samples per second, a nightly's column).
# `perf`: performance, said short; `t/s`: tokens per second as llama.cpp's benches write it; `speed`
# (sglang's speculative-decoding test_bs_1_speed: `self.assertGreater(speed, self.bs_1_speed_thres)`).
# llama-bench's tests are rates too: `pp512` (prompt processing), `tg128` (generation), in tokens/s.
_SHORT_RATE = lazy_re(r"\b(?:sps|tps|qps|rps|perf|speed)\b|(?<![\w/])t/s\b|\b(?:pp|tg)\d+\b")
# What an accuracy test is named after: its metric, or the benchmark it scores (lm-eval's tasks).
ACCURACY_WORDS = (
    "accuracy",
    "perplexity",
    "ppl",
    "exact match",
    # lm-eval's GSM8K filters, named alone when a post quotes one (`"strict-match" drops from 0.31 to 0.0`)
    "strict match",
    "flexible extract",
    "score",
    # a test that compares the outputs with references: vLLM's spec-decode e2e checks
    # (`test_ngram_and_suffix_correctness ... - assert 53 >= 66`: matching outputs against the share needed)
    "correctness",
    "gsm8k",
    "mmlu",
    "gpqa",
    "humaneval",
    "math500",
    "aime",
    "lm eval",
    # lm-eval's and the serving projects' nightly evaluations, by their task names
    "ifeval",
    "mmmu",
    "mgsm",
    "hellaswag",
    "winogrande",
    "truthfulqa",
    "arc challenge",
    "arc easy",
    "bbh",
    "livecodebench",
    "longbench",
    "chartqa",
    "docvqa",
    # speech output scored by recognising it again: word and character error rates
    "word error rate",
    "(wer)",
    "(cer)",
)
THROUGHPUT_WORDS = ("throughput", "tok/s", "tokens/s", "req/s", "per second")  # measures.BETTER_HIGHER in words
# "performance" names no one measure, but a gate that says it measured one is a speed gate.
LONG_PERFORMANCE_WORDS = (
    *(w for w in (*LATENCY_WORDS, *THROUGHPUT_WORDS) if w not in ("ttft", "tpot", "itl", "e2e")),
    "performance",
    "slower",  # a share said slower (`34% slower`) measured a speed
)
# The queues whose backlog each verdict reads, by the metrics patterns' capture names.
TRANSFER_QUEUES = ("transfer_queue", "bootstrap_queue")
DECODE_QUEUES = ("queue", "prealloc_queue")
RETRACTIONS = ("retracted", "retracted_reqs", "preemptions", "swapped")


@record
class Backlog:
    """A queue that stayed up: the series, the share of its time it was non-empty, its peak and end."""

    series: Series
    share: float
    peak: float
    early: float  # the mean of its first fifth
    end: float  # the mean of its last fifth
    # Up in `share` of its time buckets without standing through them: a queue refilled by
    # retractions at a full pool (_refilled), not a standing one.
    refilled: bool = False

    @property
    def rising(self) -> bool:
        """Still climbing when the log ends: at its peak at the end, from well below it at the start.
        A queue held at a level (a closed-loop benchmark's) is load; one that only grows is a server
        falling further behind, plainly unhealthy without any gate (sglang#22877)."""
        return self.end >= STILL_UP * self.peak and self.early * RISEN <= self.end


@record
class Finding:
    """A bottleneck the series show: the verdict, its node, the sentence and the series it rests on."""

    verdict: str
    role: Role
    node: str
    summary: str
    facts: tuple[tuple[str, FactValue], ...]
    evidence: tuple[Series, ...]
    severe: bool
    signals: int  # independent kinds of evidence (a queue, a full pool, retractions, a fallen throughput)
    suggestions: tuple[Suggestion, ...] = ()
    # The server threw work away for most of its run: its queue stood, its pool pinned at its limit,
    # and requests preempted or retracted (their prefill recomputed) in most of its intervals. No
    # request failing says that run was fine: only a latency or throughput gate that passed does. A
    # queue that only fills again between retractions (never standing) is a busy decode, no verdict.
    chronic: bool = False
    engine: str = ""  # the engine that wrote the node's lines (its patterns' group): whose advice applies


def weigh(
    report: Report,
    series: Sequence[Series],
    events: Sequence[Event],
    library: Library,
    sources: Sequence[Source] = (),
) -> Report:
    """The report with the run's series attached and, when the decision named no cause, the
    bottleneck they show (or performance-regression for a failed gate nothing explains); a peer-side
    symptom under a failed latency or throughput gate yields to the peer's saturation they show."""
    gates = failed_gates(events, library, report.unrecognised)
    if not series and not gates:
        return report
    finding = _finding(series, events, library, report.unrecognised)
    perf_gates = [gate for gate in measured_gates(gates) if gate_metric(gate)]
    performance = Performance(gates[0] if gates else None, tuple(series), "")
    counts = _line_counts(events)
    # A failed latency or throughput gate measured the load. Without one, a queue alone does not
    # overturn the named symptom; a decode that threw work away all run (its pool pinned, requests
    # taken back in most intervals) does: the requests the symptom names waited for its room
    # (sglang#9726: the prefill's bootstrap timing out beside a decode full and retracting).
    if finding is not None and (perf_gates or finding.chronic) and _peer_overloaded(report, finding, library):
        gate = perf_gates[0] if perf_gates else None
        return _load_under_symptom(report, finding, gate, performance, library, counts)
    if report.verdict.id not in verdicts.META or failed_besides_gates(report, events, library):
        return replace(report, performance=performance)  # a named cause, or failures no gate explains
    if perf_gates and finding is not None:
        return _bottleneck_report(report, finding, perf_gates[0], performance, library, counts)
    if perf_gates:
        accuracy = [gate for gate in gates if measures_accuracy(gate) and gate not in perf_gates]
        return _regression_report(report, perf_gates[0], series, performance, library, events, accuracy)
    if finding is not None and finding.severe and not _only_accuracy(gates) and (gates or not _passed(events, library)):
        return _bottleneck_report(report, finding, gates[0] if gates else None, performance, library, counts)
    if finding is not None and finding.chronic and not gates and not _performance_passed(events, library):
        return _bottleneck_report(report, finding, None, performance, library, counts)
    # One node at half its peers' pace or worse, beside peers doing the same work, is no load the run
    # was given but a node set up or running differently (CUDA graphs off, a slow NIC): the requests
    # it held were slow, whether or not a gate measured them. Only a performance gate that passed
    # says the run was fast enough anyway.
    if (
        finding is not None
        and finding.verdict == verdicts.STRAGGLER_NODE
        and not gates
        and not _performance_passed(events, library)
    ):
        return _bottleneck_report(report, finding, None, performance, library, counts)
    waited = (
        _client_waited(events, library, sources, _waited_ms(finding))
        if finding is not None and _stood(finding)
        else None
    )
    if finding is not None and waited is not None and not gates and not _performance_passed(events, library):
        return _bottleneck_report(report, finding, None, performance, library, counts, waited)
    if finding is not None:
        note = f"the metrics lines show load ({finding.verdict}: {finding.summary}), but no gate failed on it"
        return replace(report, performance=performance, notes=(*report.notes, note))
    return replace(report, performance=performance)


# ---------------------------------------------------------------- gates


def failed_gates(events: Sequence[Event], library: Library, errors: Sequence[UnexplainedError] = ()) -> list[Event]:
    """Failed gates (lines marked `gate-failed`: a failed test, benchmark or job), earliest first;
    within one second, a line that states the measured value and its limit before one that does
    not (unittest's `FAIL: test_x` header, then its `AssertionError: 0.55 not greater than 0.62`):
    the report quotes the gate with its numbers. `errors`: the error lines no pattern names, whose
    words may say what a gate below them measured (`_with_measure`, `_said_by_errors`)."""
    gated = library.marked(Mark.GATE_FAILED)
    gates = [e for e in events if e.failing and e.pattern in gated]
    measured = library.marked(Mark.GATE_MEASURE)
    namers = [*gates, *(e for e in events if e.pattern in measured), *_said_by_errors(errors)]
    return sorted((_with_measure(gate, namers) for gate in gates), key=_gate_order)


def held_to(event: Event, bounds: tuple[str, ...] = ("limit", "threshold", "baseline")) -> bool:
    """The line states the value it measured and what it was held to: the first of `bounds` it captured
    (a limit, a threshold, the baseline it was compared with)."""
    bound = next((event.get(name) for name in bounds if event.get(name) is not None), None)
    return isinstance(event.get("value"), int | float) and isinstance(bound, int | float)


def _said_by_errors(errors: Sequence[UnexplainedError]) -> list[Event]:
    """The error lines no pattern names, each with its message as a capture: a CI step's own words
    for what failed (`##[error]perf gate failed: output_throughput regressed 15.6% (allowed 10.0%)`)
    name what the job's exit just below them measured."""
    lines = {(e.source, e.line): e for t in errors for e in (t.first, t.last)}
    said = [(e, message_of(e.text)) for e in lines.values()]
    return [replace(e, fields=(*e.fields, ("message", text))) for e, text in said if _states_a_value(text)]


def _states_a_value(message: str) -> bool:
    """A line that says what a gate measured states the value it found (`VLLM latency (3826.48ms) is
    greater than ...`, `output_throughput regressed 15.6%`); a comment of a test's source listing that
    only names a measure (`# print all scores even on failure`) does not, nor a step that could not
    reach a service: its time is how long it tried (`curl: (28) Failed to connect to ... after 134208
    ms`, a dashboard upload after the gates passed), not a measure of the run."""
    return (
        _COMMENT.match(message) is None
        and _DIGIT.search(message) is not None
        and _CONNECT_FAILED.search(message) is None
    )


_CONNECT_FAILED = lazy_re(
    r"(?i)\b(?:failed to connect|couldn'?t connect|could not connect|connection (?:refused|reset|timed out)"
    r"|could not resolve|name or service not known)\b"
)


def _with_measure(gate: Event, namers: Sequence[Event]) -> Event:
    """The gate with what it measured: an assertion that compares two bare numbers (unittest's
    `AssertionError: 64012.55 not less than 4000`) takes its measure from the line just above it in
    its file that names one: the failed test's header (unittest's `FAIL: test_pd_ttft_8k_in (...)`)
    or the assertion statement its traceback shows (a line marked `gate-measure`:
    `self.assertLess(res["median_ttft_ms"], 2500)`): the numbers are then a latency or a
    throughput. (pytest's `FAILED ...::test_x - AssertionError: ...` summary quotes the numbers.)"""
    if measure_named(gate):
        return gate
    headers = [
        other
        for other in namers
        if other.source == gate.source and gate.line - GATE_BLOCK <= other.line < gate.line and measure_named(other)
    ]
    if not headers:
        return gate
    header = max(headers, key=lambda other: other.line)
    # The gate's own `metric` (a table row's first cell: `Functional`) names no measure: the header's does.
    kept = tuple((name, value) for name, value in gate.fields if name != "metric")
    return replace(gate, fields=(*kept, ("metric", measure_named(header))))


def measure_named(event: Event) -> str:
    """What a gate's line, or a line naming its test or assertion, says was measured, when its words
    name a latency, a throughput or an accuracy: its `metric`, `test` or `message` capture; "" otherwise."""
    for name in ("metric", "test", "message"):
        value = event.get(name)
        if isinstance(value, str) and (performance_words(value) or _names(value, ACCURACY_WORDS)):
            return value
    return ""


def _gate_order(event: Event) -> tuple[float, int, str, int]:
    """Earliest first; within a second (or among lines with no time), a gate that states the value it
    measured and what it was held to (a limit, a threshold, the baseline it was compared with) before
    one that says only that it failed (a report's `We see a performance drop ...` over its numbers)."""
    second = float(int(event.time)) if event.time is not None else float("inf")
    return (second, 0 if held_to(event) else 1, event.source, event.line)


def failed_besides_gates(report: Report, events: Sequence[Event], library: Library) -> bool:
    """An inconclusive run whose lines fail in other ways than its gates (requests answered with
    errors, error lines no pattern names): slowness may be its consequence, not its story. Lines the
    diagnosis found harmless (slices posted again that failed nothing) are no such failure, nor are
    answers that came too late (a health probe's timeout): those are what slowness looks like."""
    if report.verdict.id != verdicts.INCONCLUSIVE:
        return False
    gated = library.marked(Mark.GATE_FAILED)
    harmless = {id(e) for e in report.harmless}
    failing = any(
        e.failing and e.kind is not Kind.CONTEXT and e.pattern not in gated and id(e) not in harmless for e in events
    )
    late = library.errors.slow_answers() if library.errors else frozenset()  # what slowness looks like
    gates = [e for e in events if e.failing and e.pattern in gated]
    gated_files = {g.source for g in gates}
    up = _last_server_up(events, library)
    return failing or any(
        error.severity.rank >= Severity.ERROR.rank
        and error.marker not in late
        # An exit status alone (`command terminated with exit code 2`) says something ended, not why:
        # under a failed gate, the harness's own exit or a command typed to look around (`kubectl exec
        # ... -- ls /dev/infiniband`). A thread dump, a signal or a 5xx says more, and still counts.
        and error.marker != EXIT_STATUS
        and not (_PYTEST_FLAG.match(error.first.text) and error.first.source in gated_files)
        and not _in_gate_block(error.first, gates)
        and not _while_starting(error, up)
        for error in report.unrecognised
    )


# pytest's flag on the statement a failed test's frame raised at (`>   raise RuntimeError(...)`): in a
# failed gate's file it is that test's own traceback, however long, not a failure besides the gate.
_PYTEST_FLAG = lazy_re(r"^\s*>\s{3,}")
START_UP_SLACK_S = 5.0  # a readiness poll's last refusal and the server's ready line: the same moment


def _last_server_up(events: Sequence[Event], library: Library) -> float | None:
    """When the last server of the run said it was up (its ready line), if any said so with a time."""
    ready = library.marked(Mark.SERVER_UP)
    return max((e.time for e in events if e.pattern in ready and not e.failing and e.time is not None), default=None)


def _while_starting(error: UnexplainedError, up: float | None) -> bool:
    """Errors that all came before the servers were up (a harness polling `curl` until they answer):
    the run's start-up, not a failure the slowness may follow from."""
    return up is not None and error.last.time is not None and error.last.time <= up + START_UP_SLACK_S


def _in_gate_block(line: Event, gates: Sequence[Event]) -> bool:
    """A line of the harness's own report of its failed gates: in the gate's file, within
    GATE_BLOCK lines of it (a check script's `[slo] 2 of 2 checks failed` under its FAIL lines, a
    test's traceback under its `FAIL:` header), in a file that is no server's log; in a server's log
    (a CI job's one log, the harness's output among the server's), only between two of its gates (a
    pytest failure's source lines under its `FAILED` and above its assertion)."""
    near = [g.line for g in gates if g.source == line.source and abs(g.line - line.line) <= GATE_BLOCK]
    if line.role not in SERVER_ROLES:
        return bool(near)
    return any(at < line.line for at in near) and any(at > line.line for at in near)


def _passed(events: Sequence[Event], library: Library) -> bool:
    """A gate or an end-to-end check that passed: the run met what it was measured against."""
    checked = library.marked(Mark.GATE_FAILED, Mark.END_TO_END)
    return any(not e.failing and e.pattern in checked for e in events)


# A client's mean or median time to its first token this long: its requests waited in a queue, not
# on the model (a prefill of a long prompt takes seconds); no interactive service accepts it.
WAITED_MS = 30_000.0
# ... beside a KV-transfer queue that stood: a transfer moves one request's cache in well under a second
# on any path the engines use (hundreds of MB at GB/s over RDMA, a second or two over TCP), so a first
# token this late waited in the transfer's queue, not on a long prompt's prefill (sglang PR#20680: a
# synchronous NIXL transfer held ~30 requests in flight, the client's mean TTFT ~10 s at 24 ms a token).
WAITED_ON_TRANSFER_MS = 5_000.0
# A bottleneck whose queue stood this share of the run (or, once it first rose, of the rest of it: a
# benchmark's load takes a while to fill the queue): the wait is the run's, not a burst's.
STOOD_SHARE = 0.8


def _waited_ms(finding: Finding) -> float:
    """The first-token latency at which the client's requests waited on the finding's queue."""
    return WAITED_ON_TRANSFER_MS if finding.verdict == verdicts.KV_TRANSFER_BACKLOG else WAITED_MS


def _client_waited(
    events: Sequence[Event], library: Library, sources: Sequence[Source] = (), waited_ms: float = WAITED_MS
) -> Event | None:
    """The client's line of a mean or median first-token latency of `waited_ms` or more, else the last
    line of a log that ends while it waits (a benchmark's progress bar short of its total: the run
    never finished, its requests outstanding), if any."""
    ended = ended_waiting(events, sources, library) if sources else None
    measured = library.marked(Mark.CLIENT_LATENCY)
    waits = [
        e
        for e in events
        if e.pattern in measured
        and (latency := _latency_ms(e)) is not None
        and latency >= waited_ms
        and str(e.get("metric", "")).lower() in ("mean", "median")
    ]
    if waits:
        return min(waits, key=lambda e: (e.source, e.line))
    return ended[-1] if ended else None


def _latency_ms(line: Event) -> float | None:
    """A client latency line's value in milliseconds: `latency_ms` as the line states it, or `latency`
    (a duration, in seconds) where the value carries its own unit."""
    stated = line.get("latency_ms")
    if isinstance(stated, (int, float)):
        return float(stated)
    seconds = line.get("latency")
    return float(seconds) * 1000 if isinstance(seconds, (int, float)) else None


def _stood(finding: Finding) -> bool:
    """The bottleneck's queue stood for most of the run (its busy share, as the finding states it), or
    stood for half of it at least and, from the bucket where it first rose, for most of the rest
    (round 83's bundles-2 07: empty for the first fifth of the run while the load built up, then up
    to its end)."""
    share = dict(finding.facts).get("queue_busy_share")
    if not isinstance(share, (int, float)):
        return False
    if share >= STOOD_SHARE:
        return True
    queue = finding.evidence[0] if finding.evidence else None
    return share >= SUSTAINED_SHARE and queue is not None and _held_since_it_rose(queue) >= STOOD_SHARE


def _held_since_it_rose(queue: Series) -> float:
    """The share of a queue's time buckets, from the first whose mean reached STANDING of its peak to
    the last, in which it stayed up (its lowest at that level): 0.0 when it never rose."""
    floor = max(1.0, STANDING * queue.high)
    first = next((at for at, point in enumerate(queue.points) if point[1] >= floor), None)
    if first is None:
        return 0.0
    rest = queue.points[first:]
    return sum(1 for point in rest if point[2] >= floor) / len(rest)


def _performance_passed(events: Sequence[Event], library: Library) -> bool:
    """A latency or throughput gate that passed (an answered benchmark only says nothing failed): a
    gate line within its limit, or an end-to-end check whose own outcome says PASS beside a metric
    (`[slo] median_tpot_ms=48.41 limit=60 -- PASS`: patterns/harness/gate-outcome-passed)."""
    gates, checks = library.marked(Mark.GATE_FAILED), library.marked(Mark.END_TO_END)
    return any(
        not e.failing
        and (e.pattern in gates or (e.pattern in checks and str(e.get("outcome", "")).upper().startswith("PASS")))
        and gate_metric(e)
        for e in events
    )


def gate_metric(gate: Event) -> str:
    """What a failed gate measured, when it is a latency or a throughput: its `metric` capture, or
    the words of its test's name or message; "" for any other gate (accuracy, a job's exit). A gate
    whose line names the kind of its measure apart from the metric's own name (Ray's release
    comparison: `client__get_calls (THROUGHPUT)`) is that kind's."""
    for name in ("metric", "test", "message"):
        value = gate.get(name)
        if isinstance(value, str) and performance_words(value):
            return value
    kind, metric = gate.get("measure"), gate.get("metric")
    if isinstance(kind, str) and performance_words(kind):
        return f"{metric} ({kind.lower()})" if isinstance(metric, str) else kind.lower()
    # A table row marked regressed says what by its column's header (`TG128 (t/s)`).
    column = gate.get("column")
    if isinstance(column, str) and performance_words(column) and not _measures(gate, ACCURACY_WORDS):
        return f"{column}: {metric}" if isinstance(metric, str) else column
    return ""


def _only_accuracy(gates: Sequence[Event]) -> bool:
    """Every failed gate measured an accuracy: no queue or transfer explains wrong answers."""
    return bool(gates) and all(_measures(gate, ACCURACY_WORDS) for gate in gates)


def measures_accuracy(gate: Event) -> bool:
    """The gate measured an accuracy, by the words of its metric, its test's name or its message
    (lm-eval's short metric names, `acc` and `acc_norm`, `em`, `f1`, as whole words; answers counted wrong)."""
    if _measures(gate, ACCURACY_WORDS):
        return True
    said = [_measured_part(value).lower() for value in map(gate.get, ("metric", "test")) if isinstance(value, str)]
    return any(_SHORT_ACCURACY.search(text) for text in said)


# ... and answers a check counted wrong (a script's tally: `1 pass / 7 wrong`): what it measured is the answers.
_SHORT_ACCURACY = lazy_re(r"\b(?:acc(?:_norm)?|em|f1|pass@\d+|wrong|incorrect)\b")


def measured_gates(gates: Sequence[Event]) -> list[Event]:
    """The failed gates that compared a value. Where a check raised before measuring (pytest's
    `FAILED <test> - ImportError: ...`), the run's counts and bare outcome lines (`1 failed in 9.84s`,
    `FAILED`) count that test too: only a gate stating its own comparison is then a measure."""
    if not any(raised_before_measuring(gate) for gate in gates):
        return list(gates)
    return [gate for gate in gates if gate.get("message") and not raised_before_measuring(gate)]


def raised_before_measuring(gate: Event) -> bool:
    """The check failed on an exception of its own, not on a comparison: pytest's `FAILED <test> -
    ImportError: ...`, a harness that could not import or connect. Its test's name says what it would
    have measured, but no value was compared: an accuracy test that never ran is no worse accuracy."""
    message = gate.get("message")
    if not isinstance(message, str):
        return False
    raised = _RAISED.match(message)
    return raised is not None and raised["kind"] not in _COMPARING


_RAISED = lazy_re(r"\s*(?:[A-Za-z_][\w]*\.)*(?P<kind>[A-Z]\w*(?:Error|Exception|Exit|Interrupt|Timeout)|Exception)\b")
# The exceptions a comparison raises: the check ran, and its values are the measure.
_COMPARING = frozenset({"AssertionError", "Failed"})


def _measures(gate: Event, words: tuple[str, ...]) -> bool:
    return any(
        isinstance(value, str) and _names(value, words) for value in map(gate.get, ("metric", "test", "message"))
    )


def _names(text: str, words: tuple[str, ...]) -> bool:
    lowered = _measured_part(text).lower().replace("_", " ").replace("-", " ")
    return any(word in lowered for word in words)


def performance_words(text: str) -> bool:
    lowered = _measured_part(text).lower().replace("_", " ")
    short = _SHORT_LATENCY.search(lowered) or _SHORT_RATE.search(lowered)
    return short is not None or any(word in lowered for word in LONG_PERFORMANCE_WORDS)


def _measured_part(text: str) -> str:
    """The words that can say what was measured: a test id's own name, not the folders it lives in
    (vLLM-Omni's `tests/e2e/accuracy/...::test_x_accuracy_bench` is an accuracy test, not a latency)."""
    if _GAVE_UP_LOOKING.search(text):
        return ""
    # A comparison names what it compared: `acceptance_len 3.051 is below 3.195; accuracy=0.895` measured
    # the acceptance length, whatever else the message reports beside it.
    compared = _COMPARED.search(text)
    if compared is not None and not _EXCEPTION_NAME.search(compared["subject"]):
        return compared["subject"]
    name = text.rsplit("::", 1)[-1]
    if "::" in text:
        return name.rsplit("/", 1)[-1]
    # A test file's folders are no measure either (vllm-ascend's `tests/e2e/multicard/...py`: `e2e`).
    return _FILE_FOLDERS.sub("", name)


# A check that looked for something and gave up: its time is how long it looked, not a measure of the
# run (dynamo's cancellation test: `AssertionError: Failed to find 'Decode Request ID: ' pattern after
# 100 iterations (500ms)`, ai-dynamo/dynamo#12895).
_GAVE_UP_LOOKING = lazy_re(
    r"(?i)\b(?:failed to (?:find|see|detect|observe|match)|(?:could|did) not (?:find|see|detect|observe|match)"
    r"|never (?:appeared|showed up|came up))\b[^\n]*?\bafter \d+ (?:iterations?|attempts?|tries|retries|polls?)\b"
)
# `<what> <value> is below <limit>`: the words just before the compared value (vllm#57647's DFlash test:
# `acceptance_len 3.051 is below 3.195`), not an exception's name (`AssertionError: 0.55 not greater than 0.62`).
_COMPARED = lazy_re(
    r"(?i)(?<![\w.])(?P<subject>[a-z][\w.-]*(?: [a-z][\w.-]*){0,3}?)\s*[:=]?\s*[-+]?\d[\d.,]*\s*(?:%|ms|s|x)?"
    r"\s+(?:is |was |are )?(?:below|above|under|over|(?:not )?(?:less|greater|lower|higher) than)\s+(?:the )?[-+]?\d"
)
_EXCEPTION_NAME = lazy_re(r"(?i)(?:error|exception|failed|failure)$")
_FILE_FOLDERS = lazy_re(r"(?:[\w.-]+/)+(?=[\w.-]+\.(?:py|sh|cpp|cc|cu|rs|go|ya?ml|json|toml)\b)")


# ---------------------------------------------------------------- series read per node


@record
class Node:
    """The series of one source (one server's log), by metric; its engine is its patterns' group."""

    source: str
    role: Role
    name: str
    engine: str
    series: tuple[Series, ...]
    # Its lines are one stream of a file holding several (a `grep -H` over the nodes' logs): an
    # extract, which may skip lines, so how often it prints says nothing of its speed.
    extract: bool = False

    def of(self, *metrics: str) -> list[Series]:
        return [s for s in self.series if s.metric in metrics]

    def total(self, metric: str) -> float:
        """The metric's mean summed over the node's ranks (each rank prints its own share)."""
        return sum(s.mean for s in self.of(metric))

    def span(self) -> tuple[float, float] | None:
        """When its metrics lines were printed: the first and the last time (None without times)."""
        firsts = [s.first_time for s in self.series if s.first_time is not None]
        lasts = [s.last_time for s in self.series if s.last_time is not None]
        return (min(firsts), max(lasts)) if firsts and lasts else None

    def ran_beside(self, other: Node) -> bool:
        """The two printed their metrics lines over one stretch of time (or a time is missing, and
        nothing says otherwise): a node is compared only with peers that served at the same time,
        never with another run's lines pasted beside its own (the last green run's)."""
        mine, theirs = self.span(), other.span()
        if mine is None or theirs is None:
            return True
        return mine[0] <= theirs[1] + SAME_RUN_SLACK_S and theirs[0] <= mine[1] + SAME_RUN_SLACK_S


def nodes_of(series: Sequence[Series], library: Library) -> list[Node]:
    """The servers the series are from: one per source, or per stream its collector named (a `grep -H`
    file over three decodes' logs holds three nodes)."""
    by_node: dict[tuple[str, str], list[Series]] = {}
    for item in series:
        by_node.setdefault((item.source, item.node or ""), []).append(item)
    found = []
    streams = Counter(source for source, _ in by_node)
    for (source, _), items in sorted(by_node.items()):
        first = items[0]
        if first.role is Role.ROUTER:
            continue  # the router's latencies are what clients saw, no server's load
        groups = {library.pattern(s.pattern).group for s in items if _known(library, s.pattern)}
        engine = "sglang" if "sglang" in groups else "vllm" if "vllm" in groups else (sorted(groups) or [""])[0]
        name = first.node or _file_name(source)
        extract = streams[source] > 1
        if first.role in SERVER_ROLES:
            found.append(Node(source, first.role, name, engine, tuple(items), extract))
            continue
        for role, side in _sides(items).items():
            found.append(Node(source, role, name, engine, tuple(side), extract))
    return _one_per_server(found)


def _one_per_server(nodes: list[Node]) -> list[Node]:
    """A server whose lines are in two files (its log, and a `grep -H` of it beside the others') is
    one node: the file with more of its metrics lines speaks for it."""
    best: dict[tuple[Role, str], Node] = {}
    for node in nodes:
        key = (node.role, node.name)
        if key not in best or _lines_read(node) > _lines_read(best[key]):
            best[key] = node
    return [node for node in nodes if best[(node.role, node.name)] is node]


def _lines_read(node: Node) -> int:
    return max((s.count for s in node.series), default=0)


def _sides(series: list[Series]) -> dict[Role, list[Series]]:
    """The series of a file of no server's role, by the side each metrics line is from: a paste of
    both sides' lines (`grep -H` over the decode's and the prefill's logs, a job log) holds a decode
    and a prefill, each known by what its lines count (_role_from_metrics); lines that tell no side
    go with the side the others tell, if only one."""
    by_pattern: dict[str, list[Series]] = {}
    for item in series:
        by_pattern.setdefault(item.pattern, []).append(item)
    sides: dict[Role, list[Series]] = {}
    for items in by_pattern.values():
        sides.setdefault(_role_from_metrics(items), []).extend(items)
    told = [role for role in sides if role is not Role.SERVER]
    if len(told) == 1 and Role.SERVER in sides:
        sides[told[0]].extend(sides.pop(Role.SERVER))
    return sides


def _role_from_metrics(series: list[Series]) -> Role:
    """The side a file of unknown role is on, from what its metrics lines count: only a PD prefill
    has a handshake (bootstrap) queue, only a PD decode a queue for KV memory (prealloc)."""
    metrics = {s.metric for s in series}
    if "bootstrap_queue" in metrics:
        return Role.PREFILL
    if "prealloc_queue" in metrics:
        return Role.DECODE
    return Role.SERVER


def _mean(values: Iterable[float]) -> float:
    """The arithmetic mean (`statistics` costs every run its import; this is all it is used for)."""
    items = list(values)
    return sum(items) / len(items) if items else 0.0


def _median(values: Iterable[float]) -> float:
    items = sorted(values)
    if not items:
        return 0.0
    middle = len(items) // 2
    return items[middle] if len(items) % 2 else (items[middle - 1] + items[middle]) / 2


def _known(library: Library, pattern_id: str) -> bool:
    return library.knows(pattern_id)


def backlog(series: Series) -> Backlog | None:
    """The queue as a backlog when it stayed up: standing (its lowest value at least STANDING of
    its peak) in SUSTAINED_SHARE of the time buckets its server printed in, QUEUE_MIN at its peak;
    or still climbing when the log ends (`Backlog.rising`, or its last value near its peak and well
    above its start), however late it started (sglang#5450: the transfers pile up only once the
    transfer engine slows, in the last minutes of the run)."""
    points = series.points
    if len(points) < MIN_BUCKETS and series.count >= NEVER_ROOM_LINES and series.low >= QUEUE_MIN:
        # Too short a series for a trend, but up in every line it has: a queue that never drained.
        return Backlog(series, 1.0, series.high, series.first, series.last)
    if len(points) < MIN_BUCKETS or series.high < QUEUE_MIN:
        return None
    floor = max(1.0, STANDING * series.high)
    held = sum(1 for point in points if point[2] >= floor)
    share = held / len(points)
    found = Backlog(series, round(share, 2), series.high, round(_early_level(series), 2), round(_end_level(series), 2))
    left_high = series.last >= STILL_UP * series.high and series.last >= RISEN * max(found.early, 1.0)
    if share < SUSTAINED_SHARE and not (found.rising or left_high):
        return None  # a burst that drained; one still climbing when the log ends fell behind late in the run
    return found


def _never_room(queue: Backlog, full: Series | None) -> bool:
    """In every line of the log, requests waited and the KV pool was full: the server never had room
    for them (vllm#27073: 62 waiting at 98-99.7 % usage and no prompt admitted). However short the
    excerpt, that is no healthy server, whatever load put it there. A pool full on average, with the
    queue up in every line, is one too: a line that admitted a burst of prompts between two full ones
    (vllm#43295: 23 to 56 waiting, the pool at 88 to 98 %) gave the queue no lasting room."""
    return (
        full is not None
        and (full.low >= FULL_POOL or full.mean >= FULL_POOL)
        and queue.series.low >= QUEUE_MIN
        and queue.series.count >= NEVER_ROOM_LINES
    )


def _end_level(series: Series) -> float:
    tail = series.points[-max(1, int(len(series.points) * END_SHARE)) :]
    return _mean(point[1] for point in tail)


def _early_level(series: Series) -> float:
    head = series.points[: max(1, int(len(series.points) * END_SHARE))]
    return _mean(point[1] for point in head)


def _backlogs(node: Node, metrics: Iterable[str]) -> list[Backlog]:
    return [b for s in node.of(*metrics) if (b := backlog(s)) is not None]


def _refilled(node: Node, full: Series | None, retracted: Sequence[Series]) -> list[Backlog]:
    """Queues that fill again and again at a pool pinned at its limit while the server retracts:
    each retraction hands requests back to the queue, which drains and fills as they are taken back
    in, never standing for a whole time bucket yet up (QUEUE_MIN) in SUSTAINED_SHARE of them. The
    pool full most of the run (not at one peak) and the retractions say it is the decode's room."""
    if not retracted or not _pinned(full):
        return []
    found = []
    for series in node.of(*DECODE_QUEUES):
        points = series.points
        if len(points) < MIN_BUCKETS:
            continue
        share = sum(1 for point in points if point[3] >= QUEUE_MIN) / len(points)
        if share >= SUSTAINED_SHARE:
            early, end = round(_early_level(series), 2), round(_end_level(series), 2)
            found.append(Backlog(series, round(share, 2), series.high, early, end, refilled=True))
    return found


def _pinned(pool: Series | None) -> bool:
    """The pool at its limit (FULL_POOL, as a time bucket's mean) in SUSTAINED_SHARE of its buckets."""
    if pool is None or len(pool.points) < MIN_BUCKETS:
        return False
    return sum(1 for point in pool.points if point[1] >= FULL_POOL) >= SUSTAINED_SHARE * len(pool.points)


def _pool_full(node: Node) -> Series | None:
    full = [s for s in node.of("token_usage") if s.high >= FULL_POOL]
    return max(full, key=lambda s: s.high) if full else None


def _retractions(node: Node) -> list[Series]:
    return [s for s in node.of(*RETRACTIONS) if s.high >= 1]


def _one_per_metric(series: Sequence[Series]) -> list[Series]:
    """The series of each metric with the most lines: every rank prints the same retraction
    warning, and one count of it says what happened."""
    best: dict[str, Series] = {}
    for item in series:
        if item.metric not in best or item.count > best[item.metric].count:
            best[item.metric] = item
    return list(best.values())


def _fallen(node: Node) -> list[tuple[Series, float, float]]:
    """Transfer throughputs that fell to FALLEN of their early level, and transfer times that rose
    as much: (series, early level, late level)."""
    changed = []
    for item in node.of("kv_throughput"):
        if len(item.points) >= MIN_BUCKETS and _early_level(item) > 0:
            early, late = _early_level(item), _end_level(item)
            if late <= FALLEN * early:
                changed.append((item, early, late))
    for item in node.of("xfer_ms"):
        if len(item.points) >= MIN_BUCKETS and _early_level(item) > 0:
            early, late = _early_level(item), _end_level(item)
            if late * FALLEN >= early:
                changed.append((item, early, late))
    return changed


# ---------------------------------------------------------------- findings


def _finding(
    series: Sequence[Series], events: Sequence[Event], library: Library, errors: Sequence[UnexplainedError] = ()
) -> Finding | None:
    nodes = nodes_of(series, library)
    decodes = [n for n in nodes if n.role in (Role.DECODE, Role.SERVER)]
    prefills = [n for n in nodes if n.role in (Role.PREFILL, Role.SERVER)]
    waiting = [b for n in prefills if n.role is Role.PREFILL for b in _backlogs(n, ("bootstrap_queue",))]
    saturated = [f for n in decodes if (f := _decode_saturated(n, waiting)) is not None]
    straggler = _straggler(nodes, events, library, errors)
    if straggler is not None and (not saturated or {f.node for f in saturated} == {straggler.node}):
        return straggler  # the one node that lags is the bottleneck, not its role
    if saturated:
        return max(saturated, key=lambda f: (f.severe, f.signals))
    transfer = _transfer_backlog(prefills, decodes, nodes)
    if transfer is not None:
        return transfer
    starved = [f for n in prefills if n.role is Role.PREFILL and (f := _prefill_saturated(n, decodes)) is not None]
    if starved:
        return max(starved, key=lambda f: (f.severe, f.signals))
    return straggler


def _stood_with_room(queue: Series, pool: Series) -> bool:
    """The queue ends at its peak while the pool it waits for is far from full (vllm#53130: 492
    waiting beside a KV cache at 20 %, after one interval at 90 %): requests wait on something else
    than memory (admission), so the pool's earlier peak says no saturation."""
    return queue.last >= QUEUE_STILL_UP * queue.high and pool.last < ROOM_LEFT


def _decode_saturated(node: Node, prefill_waiting: Sequence[Backlog] = ()) -> Finding | None:
    """A decode whose queue (or, on a PD decode, its queue for KV memory) stays up while its pool is
    near full or it retracts or preempts requests. A PD decode whose pool is full AND that retracts,
    or whose pool sat at its limit most of the run (`_pinned`), has no memory to pre-allocate for new
    requests: they wait on the prefill's side, in its bootstrap queue (`prefill_waiting`), and that
    queue is this decode's (sglang#6341: ~300 waiting to bootstrap on each prefill rank, the decode's
    pool at 0.93-0.96 with ~155 running, in a log whose decode line has no queue of its own)."""
    full = _pool_full(node)
    retracted = _retractions(node)
    queues = (
        _backlogs(node, DECODE_QUEUES)
        or _refilled(node, full, retracted)
        or (list(prefill_waiting) if full is not None and (retracted or _pinned(full)) else [])
    )
    if not queues or (full is None and not retracted):
        return None
    queue = max(queues, key=lambda b: b.peak)
    if full is not None and not retracted and _stood_with_room(queue.series, full):
        return None
    facts: list[tuple[str, FactValue]] = [
        ("role", node.role.value),
        ("node", node.name),
        ("shown_by", "decode queue, token usage, retractions"),
        ("queue_peak", int(queue.peak)),
        ("queue_busy_share", queue.share),
    ]
    how = "filled again" if queue.refilled else "stayed up"
    said = [f"{_queue_words(queue.series)} {how} in {queue.share:.0%} of its run ({_peak(queue)})"]
    if queue.series.source != node.source:
        prefill = queue.series.node or _file_name(queue.series.source)
        said = [
            f"requests waiting for its KV memory stayed up on the prefill {prefill} "
            f"(its bootstrap queue, in {queue.share:.0%} of its run, {_peak(queue)})"
        ]
    evidence = [queue.series]
    if full is not None:
        facts.append(("token_usage_peak", round(full.high, 2)))
        said.append(f"its KV pool reached {full.high:.0%} of its tokens (at {series_place(full)})")
        evidence.append(full)
    if retracted:
        retracted = _one_per_metric(retracted)
        words = [_retraction_words(s) for s in retracted]
        facts += [(s.metric, _retraction_amount(s)) for s in retracted]
        most = max(retracted, key=lambda s: s.high)
        said.append("it took requests back: " + ", ".join(words) + f" (most at once at {series_place(most)})")
        evidence.extend(retracted)
    throughput = node.of("gen_throughput")
    best = max(throughput, key=lambda s: s.count) if throughput else None
    starved = _starved(full, best)
    if best is not None:
        facts.append(("gen_throughput_mean", round(best.mean, 1)))
        if starved:
            facts.append(("gen_throughput_last", round(best.last, 1)))
            said.append(
                f"its generation throughput fell from {best.high:.0f} tokens/s (at {series_place(best)}) to "
                f"{best.last:.0f} by the end, the pool still full: requests held its memory, decoding all but stopped"
            )
        else:
            said.append(f"its generation throughput stayed near {best.mean:.0f} tokens/s")
        evidence.append(best)
    summary = f"On the decode {node.name}, " + "; ".join(said) + "."
    signals = 1 + (full is not None) + bool(retracted)
    suggestions = _decode_knobs(node, queue, full)
    severe = queue.rising or _never_room(queue, full)
    return Finding(
        verdicts.DECODE_SATURATED,
        node.role,
        node.name,
        summary,
        tuple(facts),
        tuple(evidence),
        severe,
        signals,
        suggestions,
        chronic=not queue.refilled and (_thrown_away(full, retracted) or starved),
        engine=node.engine,
    )


def _thrown_away(full: Series | None, retracted: Sequence[Series]) -> bool:
    """The pool pinned at its limit, and requests taken back in most of the intervals it printed."""
    if full is None or not retracted or not _pinned(full):
        return False
    taken_back = max(sum(1 for point in s.points if point[3] >= 1) for s in retracted)
    return taken_back >= SUSTAINED_SHARE * len(full.points)


def _starved(full: Series | None, best: Series | None) -> bool:
    """The pool pinned at its limit, and the tokens it generates (`best`: its generation throughput's
    longest series) fallen under FALLEN of their peak through the last END_SHARE of the run: the
    running requests hold the memory while decoding all but stops (vLLM preempting and recomputing the
    same requests in turn, its engine line counting no preemptions: vllm-project/vllm#37307). A full
    pool that keeps generating near its peak is load."""
    if best is None or not _pinned(full) or len(best.points) < MIN_BUCKETS or best.high <= 0:
        return False
    tail = best.points[-max(1, round(END_SHARE * len(best.points))) :]
    return all(point[1] <= FALLEN * best.high for point in tail)


def _transfer_backlog(prefills: list[Node], decodes: list[Node], nodes: list[Node]) -> Finding | None:
    """Transfers (or handshakes) that pile up on the prefill, or a decode waiting for KV with room in
    its pool, or a transfer throughput that fell under load."""
    piled = [(n, b) for n in prefills for b in _backlogs(n, TRANSFER_QUEUES)]
    if not any(_backlogs(n, ("queue",)) for n in prefills if n.role is Role.PREFILL):
        # A PD decode's transfer queue holds every request it pre-allocated for, from the moment
        # the prefill took it: with the prefill's own queue standing, they wait on its compute.
        piled += [(n, b) for n in decodes for b in _backlogs(n, ("transfer_queue",))]
    awaiting = [(n, b) for n in decodes for b in _awaiting_kv(n)]
    fallen = [(n, change) for n in nodes for change in _fallen(n)]
    waiting = [(n, b) for n in decodes for b in _backlogs(n, ("queue",)) if _pool_full(n) is None]
    if not piled and not awaiting and not (fallen and waiting):
        return None
    if piled:
        shown_by, (node, queue) = "transfer queue", max(piled, key=lambda item: item[1].peak)
    elif fallen and waiting:
        shown_by, (node, queue) = "transfer throughput", max(waiting, key=lambda item: item[1].peak)
    else:
        shown_by, (node, queue) = "decode waiting for its KV", max(awaiting, key=lambda item: item[1].peak)
    facts: list[tuple[str, FactValue]] = [
        ("role", node.role.value),
        ("node", node.name),
        ("shown_by", shown_by),
        ("queue_peak", int(queue.peak)),
        ("queue_busy_share", queue.share),
    ]
    words = _queue_words(queue.series)
    if node.role is Role.DECODE and queue.series.metric == "queue":
        words = "requests waiting for their KV (vLLM's decode holds them in its waiting queue until it lands)"
    said = [f"on the {node.role.value} {node.name}, {words} stayed up in {queue.share:.0%} of its run ({_peak(queue)})"]
    evidence = [queue.series]
    took = _transfer_time(node) if not fallen else None
    if took is not None:
        said.append(f"each transfer it received took {took.mean:.0f} ms on average (longest {took.high:.0f} ms)")
        facts.append(("xfer_ms_mean", round(took.mean, 1)))
        evidence.append(took)
    moved = _transfer_rate(nodes) if not fallen else None
    if moved is not None:
        said.append(
            f"the transfer engine moved {moved.mean:.1f} MB/s on average (between {moved.low:.1f} and {moved.high:.1f})"
        )
        facts.append(("kv_throughput_mean", round(moved.mean, 2)))
        evidence.append(moved)
    for changed_node, (item, early, late) in fallen[:2]:
        what = "KV transfer throughput" if item.metric == "kv_throughput" else "KV transfer time"
        unit = "MB/s" if item.metric == "kv_throughput" else "ms"
        said.append(f"the {what} on {changed_node.name} went from {early:.1f} to {late:.1f} {unit}")
        facts += [(f"{item.metric}_early", round(early, 2)), (f"{item.metric}_late", round(late, 2))]
        evidence.append(item)
    roomy = [s for n in decodes for s in n.of("token_usage")]
    if roomy:
        top = max(s.high for s in roomy)
        facts.append(("decode_token_usage_peak", round(top, 2)))
        said.append(f"while the decode's KV pool stayed below {top:.0%} and it retracted nothing")
    summary = "Requests waited on the KV transfer: " + "; ".join(said) + "."
    signals = 1 + bool(fallen) + bool(roomy)
    engine = node.engine
    return Finding(
        verdicts.KV_TRANSFER_BACKLOG,
        node.role,
        node.name,
        summary,
        tuple(facts),
        tuple(evidence),
        queue.rising or _never_sent(queue, node),
        signals,
        _transfer_knobs(engine, queue, [item for _, (item, _, _) in fallen]),
        engine=engine,
    )


# The metrics a decode prints when it receives its KV through a connector (vLLM's `KV Transfer metrics`).
RECEIVED_KV = ("xfer_ms", "kv_throughput", "transfers")


def _awaiting_kv(node: Node) -> list[Backlog]:
    """A vLLM decode's waiting queue that stood while its KV pool had room and its running batch was
    not held at a cap: with a KV connector, vLLM's decode keeps each request waiting until its remote
    KV has arrived (its WAITING_FOR_REMOTE_KVS state), so with neither memory nor a batch limit in
    the way, what those requests wait on is the transfer. Only a decode that printed the transfers
    it received is read so: the waiting queue of a vLLM server with no connector is its own."""
    if node.role is not Role.DECODE or node.engine != "vllm" or not node.of(*RECEIVED_KV):
        return []
    if _pool_full(node) is not None or _retractions(node) or any(_capped(s) for s in node.of("running")):
        return []
    return _backlogs(node, ("queue",))


def _transfer_rate(nodes: list[Node]) -> Series | None:
    """The transfer engine's throughput series with the most lines, on any node (Mooncake's
    `Transfer Engine Throughput`, NIXL's `Throughput (MB/s)`)."""
    return max((s for n in nodes for s in n.of("kv_throughput")), key=lambda s: s.count, default=None)


def _never_sent(queue: Backlog, node: Node) -> bool:
    """In every line of a short excerpt (`_short`), transfers stood in the prefill's queue while its own queue was
    empty: what it prefilled never left (sglang#5450: ~150 transferring and ~350 waiting for their
    handshake on every rank, #queue-req 0). However short, no healthy server holds that; a log
    long enough for a trend is read by `Backlog.rising` instead."""
    series = queue.series
    if node.role is not Role.PREFILL or series.metric not in TRANSFER_QUEUES or not _short(series):
        return False
    own = node.of("queue")
    return series.count >= NEVER_ROOM_LINES and series.low >= QUEUE_MIN and bool(own) and all(s.high == 0 for s in own)


def _short(series: Series) -> bool:
    """A series too short for a trend: fewer than MIN_BUCKETS time buckets, or SHORT_EXCERPT_S of lines."""
    if len(series.points) < MIN_BUCKETS:
        return True
    return (
        series.first_time is not None
        and series.last_time is not None
        and (series.last_time - series.first_time <= SHORT_EXCERPT_S)
    )


def _transfer_time(node: Node) -> Series | None:
    """The mean transfer time the node printed, from its longest series (NIXL's `Avg xfer time`)."""
    return max(node.of("xfer_ms"), key=lambda s: s.count, default=None)


def _capped(running: Series) -> bool:
    """A running batch held at its peak in SUSTAINED_SHARE of its buckets: a limit on how many run
    (`--max-num-seqs`), which keeps the others waiting whatever the transfers do."""
    points = running.points
    if len(points) < MIN_BUCKETS:
        return False
    return sum(1 for point in points if point[1] >= AT_CAP * running.high) >= SUSTAINED_SHARE * len(points)


def _prefill_saturated(node: Node, decodes: list[Node]) -> Finding | None:
    """A prefill whose own queue stays up while its transfers do not pile up, and a decode with room."""
    queues = _backlogs(node, ("queue",))
    if not queues or _backlogs(node, TRANSFER_QUEUES):
        return None
    if any(_decode_saturated(d) is not None for d in decodes):
        return None
    queue = max(queues, key=lambda b: b.peak)
    facts: list[tuple[str, FactValue]] = [
        ("role", node.role.value),
        ("node", node.name),
        ("shown_by", "prefill queue"),
        ("queue_peak", int(queue.peak)),
        ("queue_busy_share", queue.share),
    ]
    said = [
        f"On the prefill {node.name}, requests waiting to be prefilled stayed up in {queue.share:.0%} of its run "
        f"({_peak(queue)}) while its KV transfers did not pile up"
    ]
    evidence = [queue.series]
    batch = max(node.of("new_tokens"), key=lambda s: s.count, default=None)
    if batch is not None:
        at_cap = sum(1 for point in batch.points if point[3] >= batch.high) / len(batch.points)
        facts += [("prefill_batch_tokens_max", int(batch.high)), ("batches_at_max_share", round(at_cap, 2))]
        said.append(f"its prefill batches reached {batch.high:.0f} tokens (in {at_cap:.0%} of its time)")
        evidence.append(batch)
    throughput = max(node.of("input_throughput"), key=lambda s: s.count, default=None)
    if throughput is not None:
        facts.append(("input_throughput_mean", round(throughput.mean, 1)))
        evidence.append(throughput)
    idle = [s for d in decodes for s in d.of("running")]
    if idle:
        facts.append(("decode_running_mean", round(_mean(s.mean for s in idle), 1)))
        said.append(f"the decode ran {_mean(s.mean for s in idle):.0f} requests on average, its queue empty")
        evidence.append(max(idle, key=lambda s: s.count))
    summary = "; ".join(said) + "."
    return Finding(
        verdicts.PREFILL_SATURATED,
        node.role,
        node.name,
        summary,
        tuple(facts),
        tuple(evidence),
        queue.rising,
        1 + (batch is not None) + bool(idle),
        _prefill_knobs(node, batch),
        engine=node.engine,
    )


# ---------------------------------------------------------------- stragglers


def _straggler(
    nodes: list[Node], events: Sequence[Event], library: Library, errors: Sequence[UnexplainedError] = ()
) -> Finding | None:
    """One node of a role much slower than its peers: its throughput, how often it prints, or how
    many requests it holds for its output; named with what differs in its lines."""
    # A process's earlier life (`kubectl logs --previous`, beside its current log) is no peer: it ran
    # before its next life, up to its own end, and is compared with nothing.
    nodes = [n for n in nodes if EARLIER_LIFE.match(n.source.rpartition("/")[2]) is None]
    groups = [[n for n in nodes if n.role is role] for role in (Role.DECODE, Role.PREFILL)]
    servers = [n for n in nodes if n.role is Role.SERVER]
    groups += [[n for n in servers if _prefills_only(n) is work] for work in (False, True)]
    for peers in groups:
        if len({n.name for n in peers}) < 2:
            continue
        role = peers[0].role
        found = _lagging(peers, role)
        if found is not None:
            node, facts, said, evidence = found
            others = [p for p in peers if p is not node]
            differs = _what_differs(node, others, events, library) + _machine_says(node, others, nodes, errors)
            summary = f"The {role.value} {node.name} is much slower than its {len(peers) - 1} peer(s): {said}."
            if differs:
                summary += " What differs on it: " + "; ".join(differs) + "."
            facts = (*facts, ("differs", "; ".join(differs) if differs else "nothing in its lines"))
            action = Suggestion(
                "action",
                f"inspect {node.name}",
                None,
                f"{node.name} lags the other {role.value} nodes"
                + (f" and its lines differ ({differs[0]})" if differs else "")
                + ": check its GPUs and NICs, or take it out of the router's pool.",
                lines_used=tuple(f"{s.source}:{s.peak_line}" for s in evidence),
            )
            return Finding(verdicts.STRAGGLER_NODE, role, node.name, summary, facts, evidence, False, 2, (action,))
    return None


def _prefills_only(node: Node) -> bool:
    """A server of unknown side that only prefilled: it generated (about one token a request) a
    tiny share of the prompt tokens it read. A vLLM P/D pair set up as kv_both prints the same
    lines on both sides; a prefill is no slow peer of a decode."""
    prompt, generated = node.total("input_throughput"), node.total("gen_throughput")
    return prompt > 0 and generated < PREFILL_ONLY * prompt


def _rate_metric(role: Role, peers: list[Node]) -> str:
    if role is Role.PREFILL and all(n.of("input_throughput") for n in peers):
        return "input_throughput"
    return "gen_throughput" if all(n.of("gen_throughput") for n in peers) else ""


def _lagging(
    peers: list[Node], role: Role
) -> tuple[Node, tuple[tuple[str, FactValue], ...], str, tuple[Series, ...]] | None:
    metric = _rate_metric(role, peers)
    for node in peers:
        others = [p for p in peers if p is not node and p.ran_beside(node)]
        if not others:
            continue
        facts: list[tuple[str, FactValue]] = [("role", role.value), ("node", node.name)]
        said: list[str] = []
        evidence: list[Series] = []
        if metric:
            mine, theirs = node.total(metric), _median(p.total(metric) for p in others)
            if theirs > 0 and mine <= SLOWER * theirs:
                facts += [
                    ("shown_by", metric),
                    (f"{metric}_node", round(mine, 1)),
                    (f"{metric}_peers", round(theirs, 1)),
                ]
                said.append(
                    f"its {metric.replace('_', ' ')} averages {mine:.0f} tokens/s ({_read_from(node.of(metric))}) "
                    f"against {theirs:.0f} on its peers"
                )
                evidence += node.of(metric)
        whole = not any(p.extract for p in peers)
        gap, peer_gap = (_interval(node), _median(_interval(p) for p in others)) if whole else (0.0, 0.0)
        if gap > 0 and peer_gap > 0 and gap * SLOWER >= peer_gap:
            facts += [("interval_s_node", round(gap, 1)), ("interval_s_peers", round(peer_gap, 1))]
            said.append(
                f"it prints its metrics line every {gap:.1f} s against {peer_gap:.1f} s on its peers "
                "(each of its steps takes longer)"
            )
            evidence += node.series[:1]
        queued, peer_queued = node.total("queue"), _median(p.total("queue") for p in others)
        if queued >= QUEUED and queued >= PILED_UP * max(peer_queued, 0.5):
            facts += [("queue_node", round(queued, 1)), ("queue_peers", round(peer_queued, 1))]
            said.append(
                f"its requests queue ({queued:.0f} waiting on average, {_read_from(node.of('queue'))}) while its "
                f"peers' queues stay near empty ({peer_queued:.1f})"
            )
            evidence += node.of("queue")
        running, peer_running = node.total("running"), _median(p.total("running") for p in others)
        if (
            metric
            and peer_running > 0
            and running * SLOWER >= peer_running
            and running - peer_running >= MORE_HELD
            and node.total(metric) <= SAME_OUTPUT * _median(p.total(metric) for p in others)
        ):
            facts += [("running_node", round(running, 1)), ("running_peers", round(peer_running, 1))]
            held = max(node.of("running"), key=lambda s: s.high)  # the moment it held the most, quoted
            said.append(
                f"it holds {running:.0f} running requests against {peer_running:.0f} for no more output "
                f"(up to {held.high:.0f}: {series_place(held)})"
            )
            evidence += node.of("running")
        if said:
            if not any(name == "shown_by" for name, _ in facts):
                piled = any(name == "queue_node" for name, _ in facts)
                spaced = any(name == "interval_s_node" for name, _ in facts)
                shown = "metrics line interval" if spaced else "request queue" if piled else "running requests"
                facts.insert(2, ("shown_by", shown))
            return node, tuple(facts), "; ".join(said), tuple(dict.fromkeys(evidence))
    return None


def _interval(node: Node) -> float:
    """The node's typical seconds between two of its metrics lines (the median over its ranks)."""
    gaps = [s.interval for s in node.series if s.interval is not None]
    return _median(gaps) if gaps else 0.0


def _what_differs(node: Node, peers: list[Node], events: Sequence[Event], library: Library) -> list[str]:
    """What the straggler's lines show that its peers' do not: CUDA graphs off, another KV pool
    size, warning or error lines only it printed."""
    differs = []
    graph, peer_graph = node.of("graph"), [s for p in peers for s in p.of("graph")]
    if graph and peer_graph and _mean(s.mean for s in graph) < 0.5 <= _mean(s.mean for s in peer_graph):
        differs.append("its decode steps ran without CUDA graphs (cuda graph: False) while its peers' ran with them")
    sized = library.marked(Mark.KV_POOL_SIZED)
    peer_sources = {p.source for p in peers}  # once, not per event: a fleet has thousands of peers
    mine = _numbers_of(e for e in events if e.source == node.source and e.pattern in sized)
    theirs = _numbers_of(e for e in events if e.source in peer_sources and e.pattern in sized)
    for name, value in sorted(mine.items()):
        if name in theirs and theirs[name] != value:
            differs.append(f"its KV pool is sized differently ({name} {value:g} against {theirs[name]:g})")
            break
    switched = _switches_only_it_set(node, peer_sources, events, library)
    if switched:
        differs.append(f"it was launched with {switched} ({_LAUNCH_WORDS})")
    own = {e.pattern for e in events if e.source == node.source and e.severity.rank >= Severity.WARNING.rank}
    elsewhere = {e.pattern for e in events if e.source in peer_sources}
    lonely = sorted(own - elsewhere)
    if lonely:
        titles = [library.pattern(pid).title for pid in lonely[:2] if _known(library, pid)]
        differs.append("only it logged " + "; ".join(f"'{title}'" for title in titles))
    return differs


_NAME_TOKEN = lazy_re(r"[A-Za-z0-9]+")
_ROLE_WORDS = frozenset({"prefill", "decode", "server", "worker", "log", "out", "txt", "err"})


def _machine_says(node: Node, peers: list[Node], nodes: list[Node], errors: Sequence[UnexplainedError]) -> list[str]:
    """The error lines of the straggler's own machine: files beside the servers' logs (`dmesg`,
    `nvidia-smi -q`, a journal) whose names hold a word of the straggler's name that no peer's holds
    (`gpu-a03` in `dmesg-gpu-a03.txt` beside `decode-gpu-a03.log`; `node05` in `node05_nvidia-smi-q.txt`).
    A clock held down or a link trained down there is what its own lines cannot show."""
    own = _name_tokens(node.source) - _ROLE_WORDS
    for peer in peers:
        own -= _name_tokens(peer.source)
    if not own:
        return []
    servers = {n.source for n in nodes}
    said = []
    for error in errors:
        source = error.first.source
        if source not in servers and _name_tokens(source) & own:
            line = clip(error.first.text.strip(), 120)
            said.append(f"its machine's {_file_name(source)} reports '{line}' ({error.first.where})")
    return said[:2]


def _name_tokens(source: str) -> set[str]:
    """The words of a file's name (its folders left out), lower-cased: `decode-gpu-a03.log` as
    {decode, gpu, a03, log}."""
    return {token.lower() for token in _NAME_TOKEN.findall(source.rpartition("/")[2])}


# A launch line's `key=value` settings (sglang's `server_args=ServerArgs(...)`, its `args` capture):
# a value is a quoted string, a list, a dict, or anything up to the next comma.
_SETTING = lazy_re(r"""(?<![\w.])(\w+)=('(?:[^'\\]|\\.)*'|"[^"]*"|\[[^\]]*\]|\{[^}]*\}|[^,()]+)""")
_SWITCH_VALUES = frozenset({"True", "False"})
_LAUNCH_WORDS = "its peers' launch lines say otherwise"


def _switches_only_it_set(node: Node, peer_sources: set[str], events: Sequence[Event], library: Library) -> str:
    """The on/off settings of the node's launch line that differ from the one value all its peers'
    launch lines agree on (`disable_cuda_graph=True` against False): a feature one node runs without
    is the likeliest reason it is slower. Only switches: numbers and names differ between any two
    nodes (seeds, ports, addresses) without making one slow. Empty when none, or no launch lines."""
    launches = library.marked(Mark.SERVER_LAUNCH)
    by_source: dict[str, list[Event]] = {}  # one pass over the events, not one per peer (a fleet has thousands)
    for event in events:
        if event.pattern in launches:
            by_source.setdefault(event.source, []).append(event)
    mine = _settings_of(by_source.get(node.source, []))
    theirs = [_settings_of(by_source.get(src, [])) for src in peer_sources]
    theirs = [settings for settings in theirs if settings]
    if not mine or not theirs:
        return ""
    differing = []
    for key, value in mine.items():
        peer_values = {settings.get(key) for settings in theirs}
        agreed = peer_values.pop() if len(peer_values) == 1 else None
        if value in _SWITCH_VALUES and agreed in _SWITCH_VALUES and agreed != value:
            differing.append(f"{key}={value}")
    return ", ".join(differing)


def _settings_of(launches: list[Event]) -> dict[str, str]:
    args = next((str(e.get("args")) for e in launches if e.get("args")), "")
    return {key: value.strip() for key, value in _SETTING.findall(args)}


def _numbers_of(events: Iterable[Event]) -> dict[str, float]:
    numbers: dict[str, float] = {}
    for event in events:
        for name, value in event.fields:
            if isinstance(value, int | float) and not isinstance(value, bool) and name not in ("dp", "tp", "ep", "pp"):
                numbers.setdefault(name, float(value))
    return numbers


# ---------------------------------------------------------------- knobs (only with the lines that support them)


def _decode_knobs(node: Node, queue: Backlog, full: Series | None) -> tuple[Suggestion, ...]:
    """Fewer requests per decode (a value when its pool's usage at its peak batch is known), a
    larger pool, more decodes."""
    lines = tuple(f"{s.source}:{s.peak_line}" for s in (queue.series, *(x for x in (full,) if x is not None)))
    running = max(node.of("running"), key=lambda s: s.high, default=None)
    value: int | None = None
    arithmetic: tuple[str, ...] = ()
    if running is not None and full is not None:
        value = int(running.high * TARGET_USAGE / full.high)
        arithmetic = (
            f"{running.high:.0f} running requests ({running.source}:{running.peak_line}) with the pool at "
            f"{full.high:.2f} ({full.source}:{full.peak_line})",
            f"{running.high:.0f} x {TARGET_USAGE} / {full.high:.2f} = {value}: "
            f"the batch that keeps the pool at {TARGET_USAGE:.0%}",
        )
    if node.engine == "vllm":
        first = Suggestion(
            "server-arg",
            "--max-num-seqs",
            value,
            "cap the requests the decode runs at once below what its KV cache holds, so it stops preempting",
            arithmetic,
            lines,
            (Role.DECODE,),
        )
        more = Suggestion(
            "server-arg", "--gpu-memory-utilization", None, "a larger KV cache per decode", (), lines, (Role.DECODE,)
        )
    else:
        first = Suggestion(
            "server-arg",
            "--max-running-requests",
            value,
            "cap the batch below what the decode's KV pool holds, so it stops retracting requests",
            arithmetic,
            lines,
            (Role.DECODE,),
        )
        more = Suggestion(
            "server-arg", "--mem-fraction-static", None, "a larger KV pool per decode", (), lines, (Role.DECODE,)
        )
    scale = Suggestion(
        "action", "add decode instances", None, "spread the queue over more decodes", (), lines, (Role.DECODE,)
    )
    return (first, more, scale)


def _transfer_knobs(engine: str, queue: Backlog, fallen: list[Series]) -> tuple[Suggestion, ...]:
    lines = tuple(f"{s.source}:{s.peak_line}" for s in (queue.series, *fallen))
    if engine == "vllm":
        return (
            Suggestion(
                "action",
                "check UCX transports (UCX_TLS, UCX_NET_DEVICES)",
                None,
                "NIXL's transfers slowed: check which transports and NICs UCX chose for them",
                (),
                lines,
            ),
        )
    return (
        Suggestion(
            "env",
            "SGLANG_DISAGGREGATION_QUEUE_SIZE",
            2 * DEFAULT_TRANSFER_QUEUES,
            "more parallel transfer queues for the KV caches waiting on the prefill",
            (
                f"sglang's default is {DEFAULT_TRANSFER_QUEUES} queues (environ.py); "
                f"twice that: {2 * DEFAULT_TRANSFER_QUEUES}",
            ),
            lines,
            (Role.PREFILL,),
        ),
        Suggestion(
            "env",
            "SGLANG_DISAGGREGATION_THREAD_POOL_SIZE",
            None,
            "more transfer threads per rank (by default 3/4 of the CPUs / 8, between 4 and 12)",
            (),
            lines,
            (Role.PREFILL,),
        ),
    )


def _prefill_knobs(node: Node, batch: Series | None) -> tuple[Suggestion, ...]:
    lines = tuple(f"{s.source}:{s.peak_line}" for s in node.of("queue")[:1] + ([batch] if batch else []))
    value = int(2 * batch.high) if batch is not None else None
    arithmetic = (
        (
            f"prefill batches reach {batch.high:.0f} tokens ({batch.source}:{batch.peak_line}), "
            "the chunk that bounds them",
            f"2 x {batch.high:.0f} = {value}, as the prefill's memory allows",
        )
        if batch
        else ()
    )
    if node.engine == "vllm":
        first = Suggestion(
            "server-arg",
            "--max-num-batched-tokens",
            value,
            "more prompt tokens per prefill step",
            arithmetic,
            lines,
            (Role.PREFILL,),
        )
    else:
        first = Suggestion(
            "server-arg",
            "--chunked-prefill-size",
            value,
            "more prompt tokens per prefill batch",
            arithmetic,
            lines,
            (Role.PREFILL,),
        )
    scale = Suggestion(
        "action",
        "add prefill instances",
        None,
        "spread the prefill queue over more prefills",
        (),
        lines,
        (Role.PREFILL,),
    )
    return (first, scale)


# ---------------------------------------------------------------- reports


def _bottleneck_report(
    report: Report,
    finding: Finding,
    gate: Event | None,
    performance: Performance,
    library: Library,
    counts: dict[tuple[str, str], int],
    waited: Event | None = None,
) -> Report:
    """`waited`: with no gate, the client's latency line that says its requests waited."""
    spec = library.verdict(finding.verdict)
    kind = "performance" if gate is not None and gate_metric(gate) else "other" if gate is not None else "none"
    kind = "waited" if gate is None and waited is not None else kind
    why = f"{finding.verdict} on {finding.node}" + (f", the gate at {gate.where}" if gate is not None else "")
    why += f", the client's latency at {waited.where}" if waited is not None else ""
    score = confidence.slow_run(kind, finding.signals, why)
    if gate is None and all(len(s.points) < MIN_BUCKETS for s in finding.evidence):
        score = confidence.few_lines(score)
    head = f"{gate_sentence(gate)} " if gate is not None else ""
    head += (
        f"No gate judged the run, but its client waited: {waited.where}: {clip(waited.text.strip(), 240)}. "
        if waited
        else ""
    )
    evidence = tuple(peak_event(s, counts.get((s.source, s.pattern), 1)) for s in finding.evidence)
    chain = tuple(dict.fromkeys((*((gate,) if gate else ()), *((waited,) if waited else ()), *evidence)))
    facts = (*finding.facts, *_gate_facts(gate))
    verdict = Verdict(finding.verdict, spec.title, 0.0, head + finding.summary, facts, spec.identity)
    verdict = confidence.applied(verdict, score)
    return replace(
        report,
        verdict=verdict,
        chain=chain,
        roots=(gate,) if gate is not None else evidence[:1],
        links=(),
        suggestions=finding.suggestions,
        advice=spec.advice_of(finding.engine).strip(),
        explain=spec.explain.strip(),
        # What the diagnosis ruled out (RDMA slices that failed nothing) stays listed with why.
        alternatives=tuple(a for a in report.alternatives if a.id != spec.id and a.confidence < verdict.confidence),
        missing=tuple(m for m in report.missing if not m.startswith(GATE_MISSING)),
        performance=replace(performance, finding=finding.verdict, shown=tuple(s.metric for s in finding.evidence)),
    )


def _peer_overloaded(report: Report, finding: Finding, library: Library) -> bool:
    """The verdict is what a peer's trouble looks like from one side (a KV transfer that timed out
    waiting for the prefill), a latency or throughput gate failed, and the series show that peer
    saturated: its queue is the deeper cause the symptom verdict says it did not see."""
    if report.verdict.id in verdicts.META or not report.roots:
        return False
    spec = library.verdict(report.verdict.id)
    return spec.tier is Tier.SYMPTOM and spec.peer_side and all(r.role != finding.role for r in report.roots)


def _load_under_symptom(
    report: Report,
    finding: Finding,
    gate: Event | None,
    performance: Performance,
    library: Library,
    counts: dict[tuple[str, str], int],
) -> Report:
    """The bottleneck named, the symptom it caused kept in its chain and listed below it."""
    load = _bottleneck_report(report, finding, gate, performance, library, counts)
    why = (
        f"what the {finding.role.value}'s saturation looks like from the other side: its queue held the "
        f"requests whose KV the {report.roots[0].role.value} waited for ({report.roots[0].where})"
    )
    below = round(max(confidence.FLOOR, load.verdict.confidence - confidence.SHALLOWER), 2)
    symptom = Alternative(report.verdict.id, min(report.verdict.confidence, below), why)
    firsts: dict[str, Event] = {}
    for root in report.roots:
        firsts.setdefault(root.pattern, root)
    shown = tuple(firsts.values())[:SYMPTOM_LINES]
    return replace(load, chain=(*load.chain, *shown), alternatives=(symptom, *load.alternatives))


SYMPTOM_LINES = 2  # the symptom's first line of each kind, after the bottleneck's evidence


def _regression_report(
    report: Report,
    gate: Event,
    series: Sequence[Series],
    performance: Performance,
    library: Library,
    events: Sequence[Event] = (),
    accuracy: Sequence[Event] = (),
) -> Report:
    """`accuracy`: the accuracy gates that failed beside it, named after it (a release run's report
    that fails its evaluations and its latency targets: the report says both)."""
    spec = library.verdict(REGRESSION)
    read = _series_read(series)
    if read:
        shown = (
            f"The metrics lines read ({read}) show no bottleneck: no queue stayed up, no pool filled, "
            "no transfer piled up, no node lagged its peers; the logs do not show why the gate failed."
        )
        missing: tuple[str, ...] = ()
    else:
        shown = (
            "No server printed its periodic metrics lines here, so where the time went cannot be read: "
            "the logs do not show why the gate failed."
        )
        missing = ("the servers' periodic metrics lines (sglang's Prefill/Decode batch lines, vLLM's engine stats)",)
    summary = f"{gate_sentence(gate)} {shown}{_accuracy_failed_too(accuracy)}"
    facts = (*_gate_facts(gate), ("series_read", len(series)))
    verdict = Verdict(REGRESSION, spec.title, 0.0, summary, facts, spec.identity)
    score = confidence.gate_unexplained(f"the gate at {gate.where} failed")
    if gate.get("sides_by") == compared.ORDER:
        score = confidence.sides_by_order(score, f"the gate at {gate.where} is the later of two result blocks")
        summary += " The blocks were compared in the order they were printed: the later one was read as the After."
        verdict = replace(verdict, summary=summary)
    stated = _change_stated_beside(gate, events)
    if stated is not None:
        score = confidence.small_stated_change(
            score, f"its row marks it regressed, but the change it states ({stated:.1%}) is within the allowance"
        )
        verdict = replace(verdict, summary=f"{summary} The row's own change, {stated:.1%} worse, is within 10 %.")
    verdict = confidence.applied(verdict, score)
    action = Suggestion(
        "action",
        "compare with the last green run",
        None,
        "pdlogdoctor diff LAST_GREEN THIS_RUN: the change that slowed the run shows there",
        (),
        (gate.where,),
    )
    return replace(
        report,
        verdict=verdict,
        chain=gate_first(gate, report.chain),
        roots=(gate,),
        suggestions=(action,),
        advice=spec.advice.strip(),
        explain=spec.explain.strip(),
        missing=tuple(dict.fromkeys((*missing, *(m for m in report.missing if not m.startswith(GATE_MISSING))))),
        performance=performance,
    )


def _change_stated_beside(gate: Event, events: Sequence[Event]) -> float | None:
    """How much worse the gate's own line states its measure got (a table row's change column, read
    with its header: `worse`), when that is within the allowance (compared.REGRESSED_SHARE): a row its
    author marks `Regression` whose change says -2 % is a word and a small number that disagree."""
    beside = [
        e.get("worse")
        for e in events
        if e.source == gate.source and e.line == gate.line and e is not gate and isinstance(e.get("worse"), float)
    ]
    small = [float(w) for w in beside if w is not None and 0.0 < float(w) <= compared.REGRESSED_SHARE]
    return max(small) if small and len(small) == len(beside) else None


def _series_read(series: Sequence[Series]) -> str:
    """The series read, per role: `prefill: queue, transfer_queue; decode: queue, token_usage`."""
    by_role: dict[str, set[str]] = {}
    for item in series:
        by_role.setdefault(item.role.value, set()).add(item.metric)
    return "; ".join(f"{role}: {', '.join(sorted(metrics))}" for role, metrics in sorted(by_role.items()))


def _accuracy_failed_too(accuracy: Sequence[Event]) -> str:
    """The sentence naming the accuracy gates that failed beside a performance gate, the first quoted."""
    if not accuracy:
        return ""
    first = min(accuracy, key=lambda e: (e.source, e.line))
    lines = len({(e.source, e.line) for e in accuracy})
    more = f" ({lines} accuracy-gate lines)" if lines > 1 else ""
    return " " + ended(f"An accuracy gate failed too{more}: {first.where}: {clip(gate_quote(first), 240)}")


def gate_sentence(gate: Event | None) -> str:
    if gate is None:
        return ""
    before = gate.get("compared_with")
    if isinstance(before, str):  # a measure stated before and after a change (compared.py)
        return (
            f"A measure regressed against the line it is compared with: {gate.get('metric')} went from "
            f"{gate.get('baseline'):g} to {gate.get('value'):g} ({gate.get('change')}): {gate.where}: "
            f"{clip(_with_measures_below(gate), 240)}, against {clip(before, 240)}."
        )
    row = gate.get("row")
    if isinstance(row, str):  # a comparison table's baseline and candidate columns (scan/tables.py)
        return (
            f"A comparison table says a measure got worse than its baseline: {gate.get('metric')} went from "
            f"{gate.get('baseline'):g} to {gate.get('value'):g} ({gate.get('change')}, {gate.get('sides')}): "
            f"{gate.where}: {clip(gate.text.strip(), 240)}, the row: {clip(row, 240)}."
        )
    header = gate.get("header")
    if isinstance(header, str):  # a comparison table's row, read with its header (scan/tables.py)
        return (
            f"A comparison table says a measure got worse than its baseline: {gate.get('metric')} "
            f"{gate.get('change')}: {gate.where}: {clip(gate.text.strip(), 240)}, under the header "
            f"{clip(header, 240)}."
        )
    return ended(f"A gate failed: {gate.where}: {clip(gate_quote(gate), 240)}")


def _with_measures_below(gate: Event) -> str:
    """A compared gate's quote, with the measures below it when its line is only their heading."""
    quote, measured = gate_quote(gate), str(gate.get("measured", ""))
    return quote if measured in gate.text else f"{quote} (below it: {measured})"


def gate_first(gate: Event, chain: Sequence[Event]) -> tuple[Event, ...]:
    """The chain led by the gate's line, listed once: another gate pattern may read the same line
    (`median TTFT ... > gate ... -- FAIL` is a latency gate and a FAIL outcome)."""
    return (gate, *(e for e in chain if (e.source, e.line) != (gate.source, gate.line)))


def _peak(backlog: Backlog) -> str:
    """A queue's peak, and where it was read (the summary quotes that line: quotes.py)."""
    return f"peak {backlog.peak:.0f} at {series_place(backlog.series)}"


def _read_from(series: Sequence[Series]) -> str:
    """Where a value read from all of a series' lines (a mean) was read: its lines, from the first
    (the summary quotes that line: quotes.py)."""
    main = max(series, key=lambda s: s.count)
    return f"{main.count} lines from {series_place(main, main.first_line)}"


def gate_quote(gate: Event) -> str:
    """The gate's line as a summary quotes it: without its time and writer, but never without its
    outcome word (`[FAIL] ttft=...` reads like a level tag to the line formats, yet it is the verdict)."""
    message = message_of(gate.text).strip()
    outcome = OUTCOME_WORD.search(gate.text)
    if outcome is not None and OUTCOME_WORD.search(message) is None:
        start = outcome.start()
        bracketed = start > 0 and gate.text[start - 1] in "[("
        return gate.text[start - 1 if bracketed else start :].strip()
    return _with_check_tag(gate.text, message)


def _with_check_tag(text: str, message: str) -> str:
    """The message with the bracketed tag just before it kept: a check script's name for its gates
    (`[slo] mean_ttft_ms=... -- FAIL`, `[perf] ...`) is how its readers find the line; the line
    formats read it as a writer's tag."""
    at = text.rfind(message)
    tag = CHECK_TAG.search(text, 0, at) if at > 0 else None
    return text[tag.start() : at] + message if tag is not None else message


def _gate_facts(gate: Event | None) -> tuple[tuple[str, FactValue], ...]:
    if gate is None:
        return ()
    facts: list[tuple[str, FactValue]] = [("gate_metric", gate_metric(gate) or "unnamed")]
    for name in ("value", "limit"):
        value = gate.get(name)
        if isinstance(value, int | float):
            facts.append((f"gate_{name}", value))
    return tuple(facts)


def _line_counts(events: Sequence[Event]) -> dict[tuple[str, str], int]:
    """The lines of each metrics pattern in each file, as the scan counted them (`repeats`)."""
    counts: dict[tuple[str, str], int] = {}
    for event in events:
        key = (event.source, event.pattern)
        counts[key] = max(counts.get(key, 0), event.repeats)
    return counts


def peak_event(series: Series, repeats: int) -> Event:
    """The line where a series peaked, as an event of its pattern standing for its file's `repeats`
    lines of that pattern (model/counts.py): the chain quotes it."""
    return _line_event(series, series.peak_line, series.peak_time, series.peak_text, series.high, repeats)


def last_event(series: Series) -> Event:
    """The series' last line, standing for its file's lines of that pattern (a stall's line: stall.py)."""
    return _line_event(
        series, series.last_line, series.last_time, series.last_text, series.last, series.count, Severity.WARNING
    )


def _line_event(
    series: Series,
    line: int,
    time: float | None,
    text: str,
    value: float,
    repeats: int,
    severity: Severity = Severity.INFO,
) -> Event:
    return Event(
        pattern=series.pattern,
        source=series.source,
        line=line,
        time=time,
        time_text=None,
        text=text,
        fields=((series.metric, value),),
        severity=severity,
        kind=Kind.CONTEXT,
        failing=False,
        role=series.role,
        repeats=repeats,
    )


def _queue_words(series: Series) -> str:
    return {
        "queue": "requests waiting in its queue",
        "prealloc_queue": "requests waiting for KV memory (#prealloc-req)",
        "transfer_queue": "KV transfers in flight",
        "bootstrap_queue": "requests waiting for the decode's handshake",
    }.get(series.metric, series.metric)


def _retraction_amount(series: Series) -> int:
    """Retraction warnings and preemptions by how many were printed; a gauge (#retracted-req,
    Swapped) by its peak."""
    if series.metric == "preemptions":
        return round(series.mean * series.count)
    return series.count if series.metric == "retracted_reqs" else int(series.high)


def _retraction_words(series: Series) -> str:
    amount = _retraction_amount(series)
    return {
        "retracted_reqs": f"{amount} 'KV cache pool is full. Retract requests.' warnings",
        "retracted": f"#retracted-req up to {amount}",
        "preemptions": f"{amount} preemptions",
        "swapped": f"up to {amount} requests swapped out",
    }.get(series.metric, f"{series.metric} up to {amount}")


def _file_name(source: str) -> str:
    return source.rsplit("!", 1)[-1].rsplit("/", 1)[-1]


def _time_key(event: Event) -> tuple[float, str, int]:
    return (event.time if event.time is not None else float("inf"), event.source, event.line)


def align(series: Sequence[Series], events: Sequence[Event]) -> tuple[Series, ...]:
    """Series moved onto the events' timeline: the year a year-less stamp was given and the clock
    correction of their file. Both are per file and time shape (a Mooncake glog line in an sglang
    log is year-less, the sglang lines are not), so per file and pattern: the first line of a metrics
    pattern in a file is always a kept event, and the earliest series of that pattern starts on it."""
    firsts: dict[tuple[str, str], Event] = {}
    for event in events:
        key = (event.source, event.pattern)
        if key not in firsts or event.line < firsts[key].line:
            firsts[key] = event
    shifts: dict[tuple[str, str], float | None] = {}
    for item in sorted(series, key=lambda s: (s.source, s.pattern, s.first_line)):
        key = (item.source, item.pattern)
        anchor = firsts.get(key)
        if key in shifts or anchor is None or anchor.line != item.first_line or item.first_time is None:
            continue
        shifts[key] = None if anchor.time is None else anchor.time - item.first_time
    return tuple(_shifted(item, shifts.get((item.source, item.pattern), 0.0)) for item in series)


def _shifted(series: Series, seconds: float | None) -> Series:
    if seconds is None:  # a year-less file with no year to give it: times unknown
        return replace(series, first_time=None, last_time=None, peak_time=None)
    if not seconds:
        return series
    return replace(
        series,
        first_time=None if series.first_time is None else series.first_time + seconds,
        last_time=None if series.last_time is None else series.last_time + seconds,
        peak_time=None if series.peak_time is None else series.peak_time + seconds,
        points=tuple((t + seconds, mean, low, high) for t, mean, low, high in series.points),
    )
