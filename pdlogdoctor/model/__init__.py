"""The immutable values that flow between the pipeline stages.

ingest -> LogInput; scan -> Source, Event; link -> Link; diagnose -> Report (+ its excerpt).
Nothing here formats or colours anything: renderers do that.
"""

from __future__ import annotations

from dataclasses import field
from enum import StrEnum
from typing import Any

from .known import KnownIssue, TeamMatch, VersionSeen
from .values import record

FieldValue = int | float | str | tuple[int, ...]
# A verdict's fact: typed as JSON shows it (a number, a list, null when the logs do not tell).
FactValue = int | float | str | None | tuple[int, ...] | tuple[float, ...] | tuple[str, ...]


class Role(StrEnum):
    PREFILL = "prefill"
    DECODE = "decode"
    SERVER = "server"  # a prefill or decode server whose side is not known
    ROUTER = "router"
    HARNESS = "harness"
    CI = "ci"
    MIXED = "mixed"  # several components in one stream: a concatenation, a pasted excerpt
    UNKNOWN = "unknown"

    @property
    def interleaves(self) -> bool:
        """A whole CI job's log: it may hold every component's output, so none is 'missing'.
        (A mixed stream is judged by the roles of its lines instead.)"""
        return self is Role.CI


# The roles of a serving engine's own log: a prefill, a decode, or a server whose side is not known.
SERVER_ROLES = (Role.PREFILL, Role.DECODE, Role.SERVER)

# The words in a file's name that say which part wrote it: the scan's role when the content does
# not say (scan/roles.role_from_name), and the files a walk over its file cap reads first (ingest).
ROLE_NAME_HINTS: tuple[tuple[Role, tuple[str, ...]], ...] = (
    (Role.PREFILL, ("prefill",)),
    (Role.DECODE, ("decode",)),
    (Role.ROUTER, ("router", "gateway", "smg", "lb_", "loadbalancer")),
    (Role.HARNESS, ("bench", "harness", "probe", "gsm8k", "client", "loadgen")),
    (Role.CI, ("job", "workflow", "actions", "runner")),
)


class Severity(StrEnum):
    DEBUG = "debug"
    INFO = "info"
    WARNING = "warning"
    ERROR = "error"
    CRITICAL = "critical"

    @property
    def rank(self) -> int:
        return list(Severity).index(self)


class Kind(StrEnum):
    """Where a pattern sits in a failure: a cause, a symptom, or plain context."""

    CAUSE = "cause"
    SYMPTOM = "symptom"
    CONTEXT = "context"


class Tier(StrEnum):
    """How far upstream a verdict sits; upstream tiers win over downstream ones."""

    CAUSE = "cause"
    MECHANISM = "mechanism"
    SYMPTOM = "symptom"
    META = "meta"  # healthy, inconclusive

    @property
    def weight(self) -> int:
        return {"cause": 3, "mechanism": 2, "symptom": 1, "meta": 0}[self.value]


class Mark(StrEnum):
    """What a pattern's line shows beyond its own failure: the diagnosis reads these, never pattern ids.

    A pattern lists its marks (`marks = ["end-to-end"]`); the vocabulary is closed and checked on load.
    """

    SERVER_UP = "server-up"  # a server finished starting and listens
    WARMUP = "warmup"  # a server's own warmup request came back (its status or its output)
    # A server began its own warmup request (sglang's `Start of pd disaggregation warmup ...`): a crash in
    # its serving loop after it, with no warmup result or ready line between, was in that request.
    WARMUP_STARTED = "warmup-started"
    # A server answered that it is not ready yet (its health check's 503 once it listens: sglang answers
    # so until its own warmup request came back). A crash of its serving loop after it, with no ready
    # line, healthy answer or served request between, was in the only work it ran then: its warmup.
    NOT_READY = "not-ready"
    # An engine finished its own start-up, its warmup included (vLLM's `init engine (profile, create kv
    # cache, warmup model) took ...`): a crash its stack puts in the engine's busy loop after it was
    # while the engine ran requests, though no HTTP server's ready line is shown (a worker behind
    # Dynamo or llm-d serves none).
    ENGINE_READY = "engine-ready"
    ANSWERED = "answered"  # a request through the PD path got an answer (whatever its content)
    END_TO_END = "end-to-end"  # an end-to-end check (probe, accuracy gate) ran; it passed unless failing
    REQUEST_FAILED = "request-failed"  # a request through the PD path failed: it is not serving
    # A server logged a request arriving (sglang's `Receive: obj=...` under --log-requests): with no
    # answer after it, a ready line is no proof the deployment serves (it may hang on that request).
    REQUEST_RECEIVED = "request-received"
    KV_POOL_SIZED = "kv-pool-sized"  # the server has sized its KV pool (a sizing line)
    IN_START_UP = "in-start-up"  # the line itself says the server was still starting ("died during initialization")
    # The line itself says the server was serving: only the serving loop writes it (sglang's batch that
    # found no KV slots). A crash it explains is a crash while serving, though no ready line is shown.
    IN_SERVING = "in-serving"
    # A test, benchmark or CI gate reported failure: a failed assertion or test summary, failed
    # requests, a job or step that exited non-zero. A run holding one is never healthy (decide.py).
    GATE_FAILED = "gate-failed"
    # The line names what a failed gate measured, where the gate's own line gives only numbers: a
    # failed test's assertion statement (`self.assertLess(res["median_ttft_ms"], 2500)` over
    # `AssertionError: 15902.48 not less than 2500`). Context, no failure of its own.
    GATE_MEASURE = "gate-measure"
    # A failed gate said in a report's sentence, no measurement of its own (`causing ~13% throughput
    # regression`, `We see a performance drop`): a later line of its file that measured the same kind
    # of thing against a threshold and met it answers it (reason/met_later.py).
    STATED_IN_WORDS = "stated-in-words"
    # The component says it recovered from the failure it just logged, on its own: the request was
    # rescheduled and recomputed, the operation retried and went through (vLLM's `Recovered from KV
    # load failure: 1 request(s) rescheduled`). Like a ready line after a restart, it shows the
    # component going on after a failure (incidents.recovery); the same failure again soon after
    # still makes it the cause.
    RECOVERED = "recovered"
    # The line a server logs once as it launches, with its settings (sglang's `server_args=`): where
    # its life starts; its captures (mode, nnodes, dist_init_addr, page_size, args) are its configuration.
    SERVER_LAUNCH = "server-launch"
    # A line stating one setting a server chose as it started (sglang's `Using KV cache dtype:
    # torch.float8_e4m3fn`): its captures add to the server's launch settings where the launch line
    # is missing or states only the flag (`auto`).
    SETTING = "setting"
    # A request answered with an error status: a server's 5xx, or the router's error for it (a
    # pattern whose roles name the router). One such answer is one moment seen from two files (clocks).
    ERROR_ANSWER = "error-answer"
    # Every node of a multi-node server logs this line at the same step, right after the all-reduce
    # that sizes the KV pool: it pins the nodes' clocks to each other (clocks).
    LOCKSTEP = "lockstep"
    # The line says how the KV transport library is set up (UCX_TLS, its CUDA support): quoted
    # before a memory registration that fails without logging a size.
    TRANSPORT_SETUP = "transport-setup"
    # A harness waits for a server to become ready (`waiting_for` names which): a cancel long after
    # the last such line is a timeout over a server that never came up.
    WAITING = "waiting"
    # The process says it was told to stop and is shutting down (sglang's `SIGTERM received ...
    # Draining requests and shutting down...`): a child of it that then dies of SIGTERM ended in that
    # shutdown, not in a crash (reason/shutdowns.py); who sent the signal is outside its log.
    TOLD_TO_STOP = "told-to-stop"
    # The line names the exception a process died of: a Python traceback's last line, or the type
    # and what() of a C++ exception nothing caught (`exc_type`, `exc_message`).
    EXCEPTION = "exception"
    # A parent process says a child of it died and logs no error of its own (sglang's `Received
    # sigquit from a child process`, vLLM's `Engine core proc ... died unexpectedly`): an exception
    # the same file logged just above it is what the child died of (unexplained._died_of_exception).
    CHILD_DEATH_NOTICED = "child-death-noticed"
    # The component says it takes another way after a failure it just logged (`Auto-detection
    # failed, falling back to ...`): the error line just above it in the same file was handled, not
    # fatal (unexplained.benign_split). A fallback that fails is a line of its own.
    FELL_BACK = "fell-back"
    # The server says its KV pool does not fit in the memory the weights left: the memory fraction
    # must rise, not fall (an allocation that fails outside the pool needs it lowered).
    POOL_DOES_NOT_FIT = "pool-does-not-fit"
    # The line names its verdict's cause as one of several possibilities (Ray's worker-died message
    # lists the OOM killer, `ray stop --force` and a crash): a lead its analyzer weighs low until
    # another line confirms it.
    POSSIBLE_CAUSE = "possible-cause"
    # A NIC resource refused with no word of why (NVSHMEM IBGDA's `cannot allocate mlx5dv_devx_uar`):
    # used up by another user of the NIC, or not permitted (DevX in an unprivileged container). Named
    # exhausted only beside a line that shows another transport opened the NIC in the same process.
    REFUSED_OR_USED_UP = "refused-or-used-up"
    # A transport opened the RDMA NIC and holds UARs and queues of its own (NIXL's UCX backend).
    NIC_OPENED = "nic-opened"
    # An RDMA work completion failed between two endpoints (a CQE error, retries exceeded): the
    # link's own evidence, with its status and the NIC pair when the line gives them.
    COMPLETION_ERROR = "completion-error"
    # A transfer engine registered a buffer only up to the NIC's single-region ceiling and went on
    # (Mooncake before its auto-chunking, `shrink it to N`): the region is cut short, and RDMA
    # operations past its end fail later with a region's completion status (`remote access error`),
    # which reads like a link's failure (memory_registration.cut_region).
    REGION_CUT = "region-cut"
    # The line's peer is another rank of the same server's collective group (TP/PP), not the other
    # side of the prefill/decode pair: no role's log stands for it.
    RANK_PEER = "rank-peer"
    # A process's memory was dumped to a core (systemd-coredump's line, or a core file among the
    # inputs, whose header stands for it): a process crashed. The crash lines that can leave one name
    # this pattern in `[[causes]]`; the core joins the chain after the diagnosis (reason/binaries.py).
    CORE_DUMPED = "core-dumped"
    NIC_INACTIVE = "nic-inactive"  # a NIC was marked inactive (`nic`, `nic2` or `endpoint` names it)
    # A port-state tool (`rdma link`, ibstat, ibv_devinfo) shows an RDMA port that is not active: the
    # line alone does not say the port is one the job uses (an unused port of a dual-port card looks
    # the same), so alone it roots its verdict only weakly (transport.rdma_link); `device` names the port.
    PORT_DOWN = "port-down"
    HANDSHAKE_FAILED = "handshake-failed"  # a queue-pair handshake between the two sides failed
    # The RDMA device itself reported a fatal asynchronous event (a port error, a queue pair broken):
    # the transfers that fail after it are its consequences (`event` and `device` name it).
    DEVICE_EVENT = "device-event"
    # A request timed out in one phase of its KV transfer (bootstrap, waiting for input); `says` names the phase.
    PHASE_TIMEOUT = "phase-timeout"
    # A test runner's frame calling a test method (unittest's `_callTestMethod`): the exception that
    # ends the traceback below it ended a unit test, whatever its file's role: the test's own cause.
    UNIT_TEST = "unit-test"
    RELEASED_UNREAD = "released-unread"  # the prefill released KV blocks the decode never read (`request`)
    # The line says a decode read KV blocks after the prefill had freed them (NIXL's `Potentially
    # invalid KV blocks ... were retrieved by a decode worker`): the stale read itself, where a
    # force-free line shows only the blocks freed before the decode pulled them (stale_kv.py).
    STALE_READ = "stale-read"
    # The client aborted requests (`requests` lists them): what the server drops after it is no failure.
    CLIENT_ABORTED = "client-aborted"
    # The server refused a request for what it asked (a prompt longer than the model's context, an
    # invalid parameter): the client's error, answered with a 4xx. A proxy in front that answers the
    # refusal with a 5xx passes it on (diagnose._client_caused).
    CLIENT_REJECTED = "client-rejected"
    # The server answered a request 4xx (an access log's 400, 404, 422): refused as the client's
    # error. No failure of the server, and noise among answered requests; but lines that show
    # refusals and no request answered show a run that served nobody (diagnose._all_refused).
    REQUEST_REFUSED = "request-refused"
    # The line says a disk filled (a pod evicted for the node's ephemeral storage): not what filled
    # it. A model load's failure only when a server's log ends while its weights download
    # (resources.model_load), read from lines marked `downloading` (a weights file's progress bar).
    DISK_FILLED = "disk-filled"
    # A write failed on a full filesystem (errno 28, `No space left on device`): a server's model
    # load when a server's process wrote it; a CI job's or a benchmark client's own write filled its
    # runner's disk, which no server's verdict names (resources.model_load).
    WRITE_NO_SPACE = "write-no-space"
    # A server is fetching its weights: a file's download bar, or the engine's line that its weights
    # began to load (a weight its cache lacks is downloaded then). A log that ends on one was stopped
    # while its model loaded (resources.model_load).
    DOWNLOADING = "downloading"
    HEALTH_CHECK_FAILED = "health-check-failed"  # the router's health check of a worker (`worker`) failed
    # A benchmark harness says how many requests its run sends (`planned`: vllm's and sglang's
    # `num_prompts=` echoed with their arguments) or keeps in flight (`concurrency`: at least that
    # many are sent): an end-to-end count of completed requests (`completed`) below it in the same
    # file is a run that failed part of its requests, whatever words it prints (reason/planned.py).
    REQUESTS_PLANNED = "requests-planned"
    # A client's measured latency (`latency_ms`, by its `metric`: `Mean TTFT`): how long its requests
    # waited, which a queue that stood all run explains without any gate (reason/performance.py).
    CLIENT_LATENCY = "client-latency"
    # The line states a measure as one side of a before/after comparison (`Before: Throughput: ...`,
    # `After: ...`): an After line whose measure is worse than the Before line's above it by more than
    # the allowance is a failed gate (reason/compared.py).
    COMPARED = "compared"
    # A `compared` line no label says the run of: the same result block printed again in one paste
    # (a benchmark's result heading, once per run). The earlier block is the baseline, and only when
    # both state the same workload (the same counts of requests and tokens) is the later judged.
    COMPARED_IN_ORDER = "compared-in-order"
    # A `compared` heading over the run before a change (`before:`): its failing lines, with an After
    # side's heading below them, are the state the change fixed, not the run's (compared.before_sides_apart).
    # A baseline named otherwise (`Main:`, a good commit) is a state that still holds: not this mark.
    BEFORE_SIDE = "before-side"
    # A `compared` heading that names a version (`Here's my speed on the 0.2.7 release`, then `... on
    # 0.3.2`): of two that state the same measures, the lower version is the baseline, whatever the order.
    COMPARED_BY_VERSION = "compared-by-version"
    # A `compared` heading that names only a commit (`Commit: 412daacc...` over its measures): which
    # side it is, the lines marked `commit-role` of its file say (`Passing Commit: ...`, `Failing
    # Commit: ...`, a bisection's summary). A failing commit's measures are judged against the
    # passing commit's; a commit no line names either way is not judged.
    COMPARED_BY_COMMIT = "compared-by-commit"
    COMMIT_ROLE = "commit-role"
    # A sentence states the score a run should reach (`It should be 0.75.`, `expected accuracy: ~0.93`):
    # the gate no harness printed. A result in the same input scored more than the allowance below it
    # makes the sentence a failed gate (reason/expected.py).
    EXPECTED_SCORE = "expected-score"
    # A server's periodic load line (queue lengths, token usage, throughput): every one of its lines
    # is read into a time series per source (scan/series.py), not only the events the scan keeps.
    METRICS = "metrics"
    # The first such line after a server starts is its own warmup request, not a client's: sglang
    # answers its warmup on the same route (`POST /generate` 200) as every request the router sends it
    # in PD mode. The first one per start of its source is set aside (reason/own_warmup.py); the rest
    # are what the line's other marks say (answered requests).
    OWN_WARMUP_FIRST = "own-warmup-first"
    # The line is a frame that starts a crash's traceback whose announcing line may be missing (a
    # paste that lost it): inside a traceback another event read, it is that event's and is
    # dropped, so one crash stays one event (reason/unannounced.py).
    UNANNOUNCED = "unannounced"
    # The line is a frame that names what a traceback was doing (downloading a model), not what went
    # wrong: when another pattern reads the exception the traceback ends in (a full disk, a gated
    # repository), that line says it, and the frame's event is dropped (reason/unannounced.py).
    YIELDS_TO_ITS_EXCEPTION = "yields-to-its-exception"
    # The line fails only when it comes back: the same captures (one request's id) on RECURRING_LINES
    # lines of its file or more. Once, it is a race the component handles (reason/recurring.py).
    FAILS_WHEN_RECURRING = "fails-when-recurring"


# A server's own proof that it was serving when it crashed: its ready line, or a request it answered.
# Its warmup alone is not: the crash may be in the warmup request's own batch (analyzers/scheduler_crash,
# unexplained._died_of_exception).
SERVING_BEFORE_CRASH = (Mark.SERVER_UP, Mark.ANSWERED)


class OutputFormat(StrEnum):
    TEXT = "text"
    JSON = "json"
    MARKDOWN = "markdown"  # an issue-ready body, redacted by default
    GITHUB = "github"  # GitHub Actions workflow commands (+ the step summary)
    HTML = "html"  # one self-contained page with the incident's timeline, redacted by default
    JUNIT = "junit"  # a JUnit XML test result for CI systems that show them, redacted by default


@record
class InputProblem:
    """Something wrong with one input that did not stop the analysis."""

    code: str  # short kebab-case id, e.g. "not-found", "truncated"
    message: str


@record
class CoreDump:
    """What a core file's name and ELF header say about the process that dumped it (ingest/coredump.py).
    Each value is None when neither tells it."""

    program: str | None = None  # the process's name (NT_PRPSINFO's pr_fname, or a systemd-coredump name's comm)
    args: str | None = None  # its command line as the kernel kept it (pr_psargs, at most 80 bytes)
    pid: int | None = None
    signal: int | None = None  # the signal it died of (NT_PRSTATUS's pr_cursig)
    written: float | None = None  # when it was dumped: the time in its name, else the file's modification time
    elf: bool = False  # an ELF file of type core, not a core by its name alone


@record
class Source:
    """One log stream: a file, an archive member, or stdin."""

    name: str  # what the user sees: a path relative to what they passed, or "<stdin>"
    role: Role
    role_reason: str
    lines: int
    bytes: int
    problems: tuple[InputProblem, ...] = ()
    node: str | None = None
    core: CoreDump | None = None  # a core dump, read by its header only: evidence that a process crashed
    # Its last written line and that line's number, when the scan's head held the whole file (an
    # excerpt, a short log): where the lines stop, for a report in which nothing failed.
    last_line: tuple[int, str] | None = None
    # Its first lines that state results (a benchmark table's rows, a number beside a measure's words),
    # with their numbers, when the scan's head held the whole file: what a paste of results reports.
    results: tuple[tuple[int, str], ...] = ()


@record
class Event:
    """One pattern matched on one line."""

    pattern: str
    source: str  # Source.name
    line: int  # 1-based
    time: float | None  # seconds since the epoch, naive timestamps read as UTC
    time_text: str | None
    text: str  # the line, prefixes and colour codes removed, clipped
    fields: tuple[tuple[str, FieldValue], ...]
    severity: Severity
    kind: Kind
    failing: bool  # False when the pattern's failure condition did not hold
    role: Role = Role.UNKNOWN
    # The lines of this event's kind in its source (the pattern's failing, or passing, lines; an
    # unrecognised template's): the same on every kept event of the kind. Count with counts.count_of.
    repeats: int = 1
    time_inferred: bool = False  # the line has no time of its own: `time` is the stamped line above's
    time_latest: float | None = None  # and this the stamped line below's: the line sits between them
    template: str | None = None  # set on error lines of the generic layer: `pattern` is then its marker
    at_least: bool = False  # the pattern stopped being matched in this source (stop_after): repeats is a floor

    @property
    def unrecognised(self) -> bool:
        """An error line no pattern of the library names (see errorlines.py)."""
        return self.template is not None

    @property
    def latest(self) -> float | None:
        """The latest the event can have happened (its time, unless the time is inferred)."""
        return self.time_latest if self.time_latest is not None else self.time

    def get(self, name: str, default: Any = None) -> Any:
        for key, value in self.fields:
            if key == name:
                return value
        return default

    @property
    def where(self) -> str:
        return f"{self.source}:{self.line}"


@record
class Link:
    cause: Event
    effect: Event
    reason: str  # which rule joined them, e.g. "same bootstrap_room"


@record
class Suggestion:
    """One fix; a report's suggestions are alternatives (each alone is a fix), most preferred first."""

    kind: str  # "env", "server-arg", "action"
    name: str
    value: int | str | None
    reason: str
    arithmetic: tuple[str, ...] = ()
    lines_used: tuple[str, ...] = ()  # file:line of the evidence the value came from
    applies_to: tuple[Role, ...] = ()  # the servers to change; empty when the logs do not tell


@record
class Alternative:
    id: str
    confidence: float
    why_not: str


@record
class ConfidenceStep:
    """One named step of a verdict's confidence: where it started, or what was added or taken off
    and why (reason/confidence.py owns every such number)."""

    name: str  # e.g. "base", "coverage", "missing-role"
    change: float  # the starting value for the first step; the signed change for the others
    why: str


@record
class Verdict:
    id: str
    title: str
    confidence: float
    summary: str
    facts: tuple[tuple[str, FactValue], ...] = ()
    # Names of the facts that identify the incident (the fingerprint's), as the library declares
    # them; None when undeclared (the fingerprint then drops run-specific facts by name).
    identity: tuple[str, ...] | None = None
    reasons: tuple[ConfidenceStep, ...] = ()  # how the confidence was reached, first step first


@record
class Finding:
    """A separate incident in the same logs: its own verdict and chain, and why it stands apart."""

    verdict: Verdict
    chain: tuple[Event, ...]
    why_separate: str


@record
class ClockOffset:
    """How one file's clock relates to the reference file's, and what was done about it."""

    source: str
    reference: str  # Source.name whose clock the others are brought onto
    measured: float  # seconds this file's clock reads ahead of the reference (median of its pairs)
    correction: float  # seconds taken off this file's times before linking (0: left as logged)
    pairs: int  # near-simultaneous line pairs the estimate rests on
    method: str  # reference | paired | whole-hours | start-times | disagreeing | unaligned
    reasons: tuple[str, ...]  # which kinds of pair, e.g. "same bootstrap_room"
    uncertainty: float = 0.0  # seconds by which cross-file windows are widened for this file


@record
class ExcerptLine:
    source: str
    line: int
    text: str
    distance: int  # lines from the nearest chain line; 0 for a chain line


@record
class ExcerptWindow:
    """Consecutive lines of one source around one or more chain lines."""

    source: str
    time: float | None  # of its earliest chain event: windows are shown in this order
    lines: tuple[ExcerptLine, ...]


@record
class Delta:
    """One profile value that differs between the last green run (GOOD) and this one (BAD)."""

    section: str  # configuration | sizing | behaviour
    roles: tuple[str, ...]  # the roles whose files show it (identical rows of several roles are one)
    key: str  # e.g. max_total_num_tokens, server_args.page_size, env.SGLANG_MORI_NUM_WORKERS
    before: FieldValue | None  # None: not in GOOD's logs
    after: FieldValue | None  # None: not in BAD's logs
    change: str  # changed | added | removed | unlogged (only one run got far enough to log it)
    unit: str = ""
    ratio: float | None = None  # after / before, for numbers
    note: str = ""  # what the change means, e.g. "crossed 4 GiB (2^32)"
    bears: bool = False  # it can explain BAD's verdict (patterns/profile.toml `bears_on`)
    explains: bool = False  # it names BAD's verdict explicitly: raises the verdict's confidence
    where: tuple[str, ...] = ()  # file:line in GOOD, then in BAD

    @property
    def relevant(self) -> bool:
        return self.change != "unlogged"


@record
class ErrorDelta:
    """A kind of error line (a pattern, or an open-world template) new, gone or changed in count."""

    template: str
    title: str
    before: int  # lines in GOOD
    after: int  # lines in BAD
    change: str  # new | gone | more | fewer
    first: str  # file:line of its earliest line (in BAD; in GOOD when gone)
    first_time: float | None


@record
class Series:
    """One number of a periodic metrics line, over a run, as one source (and one rank) printed it.

    Every line is read (scan/series.py), but only a summary and at most MAX_POINTS time buckets are
    kept: a day's log costs what an hour's does. Times are on the reference clock once aligned.
    """

    source: str  # Source.name
    role: Role
    node: str | None
    rank: str  # the line's rank tags ("DP0 TP0", "Engine 000"); "" when it names none
    pattern: str  # the metrics pattern whose lines it reads (for citing; reasoning reads `metric`)
    metric: str  # the capture's name: queue, running, token_usage, gen_throughput, ...
    count: int  # lines that carried it
    first_line: int
    last_line: int
    first_time: float | None
    last_time: float | None
    first: float
    last: float
    low: float
    high: float
    mean: float
    peak_line: int  # the line of its highest value, quoted as evidence
    peak_time: float | None
    peak_text: str
    # (time of the bucket's first line, mean, lowest, highest) per time bucket, oldest first
    points: tuple[tuple[float, float, float, float], ...] = ()
    longest_gap: float = 0.0  # seconds between two consecutive lines of this source and rank
    first_text: str = ""  # its first line, quoted where a value read from all its lines (a mean) is cited
    last_text: str = ""  # its last line, quoted where the series' end is cited (a stall at the log's end)

    @property
    def interval(self) -> float | None:
        """Mean seconds between its lines: how often its server printed them."""
        if self.count < 2 or self.first_time is None or self.last_time is None:
            return None
        return (self.last_time - self.first_time) / (self.count - 1)


@record
class SeriesRow:
    """One series of BAD beside the same series of the last green run (compare.py)."""

    metric: str
    role: str
    node: str
    before: Series | None
    after: Series | None
    departed: float | None = None  # seconds after BAD's first line when it left GOOD's range
    direction: str = ""  # "higher" | "lower" | "" (it stayed within GOOD's range)


@record
class Comparison:
    """BAD's report against the last green run: `pdlogdoctor diff` and `analyze --baseline`."""

    baseline: tuple[str, ...]  # GOOD's inputs
    baseline_verdict: str
    baseline_confidence: float
    baseline_summary: str
    baseline_failing: bool  # GOOD is not green itself: its deltas explain less
    deltas: tuple[Delta, ...]  # those bearing on BAD's verdict first
    errors: tuple[ErrorDelta, ...]  # earliest first
    bearing: tuple[str, ...]  # the deltas bearing on BAD's verdict, as sentences
    series: tuple[SeriesRow, ...] = ()  # the metrics series side by side, the one that changed first first

    @property
    def changed(self) -> bool:
        """Anything relevant differs (exit code 1 of `diff`)."""
        departed = any(row.departed is not None for row in self.series)
        return any(delta.relevant for delta in self.deltas) or bool(self.errors) or departed


@record
class UnexplainedError:
    """One template of error lines that no pattern of the library names, over all inputs."""

    template: str
    marker: str  # the severity marker that called these lines errors (errorlines.py)
    severity: Severity
    count: int
    first: Event
    last: Event
    roles: tuple[Role, ...]
    files: tuple[str, ...]
    position: str  # "before-root", "before-first-symptom", "after" (see unexplained.py)
    earliest: bool = False  # the earliest unexplained error before the first known symptom
    cause: str = ""  # the cause its first line states in its own words (open-world/causes.toml), if any
    wrapper: bool = False  # its first line only reports a failure (unhandled system error ...), never why


@record
class Performance:
    """What the periodic metrics lines say about a run: the gate that failed, the series read,
    and the bottleneck the performance analysis found (reason/performance.py)."""

    gate: Event | None  # the first failed performance gate, quoted first
    series: tuple[Series, ...]  # every series read, per source and rank
    finding: str  # the bottleneck's verdict id, "" when none was shown
    shown: tuple[str, ...] = ()  # metric names the finding rests on, charted first


@record
class Report:
    verdict: Verdict
    chain: tuple[Event, ...]
    links: tuple[Link, ...]
    alternatives: tuple[Alternative, ...]
    suggestions: tuple[Suggestion, ...]
    missing: tuple[str, ...]
    inputs: tuple[Source, ...]
    advice: str = ""
    explain: str = ""
    incomplete: bool = False
    notes: tuple[str, ...] = field(default=())
    roots: tuple[Event, ...] = ()  # the verdict's own evidence: where its chain starts
    # Failing lines an analyzer found harmless (a client's abort, slices posted again that failed
    # nothing): the run did not fail through them, whatever else it shows.
    harmless: tuple[Event, ...] = ()
    clocks: tuple[ClockOffset, ...] = ()  # every timed file's clock against the reference
    time_notes: tuple[str, ...] = ()  # sentences about clocks a reader must know, e.g. a correction
    other_incidents: tuple[Finding, ...] = ()  # unrelated failures elsewhere in time, each with its own chain
    # The chain's lines with their context, read by the pipeline (renderers never read inputs).
    excerpt: tuple[ExcerptWindow, ...] = ()
    glossary: tuple[tuple[str, str], ...] = ()  # pattern id -> its title, for the patterns the chain shows
    comparison: Comparison | None = None  # against the last green run (--baseline, diff)
    unrecognised: tuple[UnexplainedError, ...] = ()  # ranked: the one to read first comes first
    # file:line -> the part of a cited line its pattern matched: a quote cut to length keeps it in view
    # (reason/quotes.py), in the summary and wherever a renderer recognises the quote.
    quote_words: tuple[tuple[str, str], ...] = ()
    log_ends: tuple[ExcerptLine, ...] = ()  # when nothing failed: each input's last line (quiet.py)
    log_ends_above: tuple[ExcerptLine, ...] = ()  # and the few lines above each (distance: lines below it)
    results_read: tuple[ExcerptLine, ...] = ()  # when nothing failed: the lines stating results (quiet.py)
    performance: Performance | None = None  # the periodic metrics lines' series, when any was read
    # Added after the diagnosis (reason/known.py), never changing it: the components' versions the
    # logs show, the upstream problems this failure is known as (patterns/known/), and the team's
    # own tracker entries for it (the config's `known` files).
    versions: tuple[VersionSeen, ...] = ()
    known: tuple[KnownIssue, ...] = ()
    team: tuple[TeamMatch, ...] = ()
