"""Unexplained errors: rank the error lines no pattern names and let them shape the verdict.

Two halves. `gather` runs before the decision, on the generic error layer's lines (errorlines.py),
and hands it their templates as evidence; `weigh` is part of the decision (decide.py):

- lines are grouped into templates (templates.py) with a count, first and last occurrence,
  roles and files;
- templates are ranked: before the first known symptom (or the verdict's root) first, then
  severity, cause-like lines before lines that only report an ending (5xx, exit codes),
  server roles, rarity, time; the earliest error before the first symptom is named;
- an inconclusive report leads with that error instead of saying nothing failed; when its words
  (or a line of the same process beside it) name a cause family (open-world/families.toml), the
  report takes that family's verdict at a confidence below 0.5, the line quoted first; a healthy
  run keeps its verdict only when its end-to-end checks passed; a named verdict loses
  confidence when a severe error comes before its root, and a verdict that is only a
  symptom ("might be dead", "Lost connection") yields to a cause-like error beside it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace
from itertools import islice

from ..library.errorlines import BENIGN_PREFIX, EXPLAINED_LINES, PYTHON_EXCEPTION, SWALLOW_LINES, ErrorLayer, Family
from ..library.formats import ENGINE_LINES
from ..library.frames import Frame, PhaseEvidence, short_name
from ..library.lazyregex import LazyRegex
from ..library.patterns import CauseRule, Library, Pattern
from ..library.templates import message_of, mine, quote_of, template_of
from ..model import (
    SERVER_ROLES,
    SERVING_BEFORE_CRASH,
    Alternative,
    Event,
    Kind,
    Mark,
    Report,
    Role,
    Severity,
    Source,
    Tier,
    UnexplainedError,
    Verdict,
)
from ..model.counts import count_of
from ..model.signals import KILL_GRACE_S, SENT_SIGNALS
from ..model.textcut import clip, clip_around, ended
from ..model.values import record
from ..model.verdicts import (
    HEALTHY,
    INCONCLUSIVE,
    META,
    NO_CAUSE,
    NO_FAILURE_SEEN,
    OUTPUT_CORRUPTION,
    SCHEDULER_CRASH,
    SCHEDULER_INIT_CRASH,
    SCHEDULER_RUNTIME_CRASH,
)
from ..scan.pastes import under_its_header
from ..scan.traceback import TRACEBACK_HEADER, stack_of, states_exception
from . import confidence
from .analyzers.serving_quality import MODEL_PATH_FIRST
from .incidents import next_lives, wait_began

SERVING_MARKS = (Mark.SERVER_UP, Mark.WARMUP, Mark.ANSWERED, Mark.END_TO_END)
START_UP_MARKS = (Mark.SERVER_UP, Mark.WARMUP)  # a server came up: errors above it were its start-up's
CAUSE_ROLES = frozenset(SERVER_ROLES)
DEPLOYMENT_ROLES = frozenset({*SERVER_ROLES, Role.ROUTER})  # a mixed stream may hold a side-car too
# The run's own check: a benchmark's or a test's output (a CI job's stream holds every component).
CHECK_ROLES = frozenset({Role.HARNESS})
BESIDE_SYMPTOM_AFTER_S = 60.0  # a cause logged up to this long after a symptom is still 'beside' it
BESIDE_SYMPTOM_BEFORE_S = 600.0
# How far below a child's exception its parent's line that the child died may come: the parent logs it
# as soon as it notices (sglang's SIGQUIT handler, vLLM's engine client), after a blank line or two.
CHILD_DIED_LINES = 20
# How far below an error line its component's word that it fell back may come (`_fell_back_below`).
FALLBACK_LINES = 2
# An exception's first clause this long, found in the error line above it: that line said it first.
RESTATED_CHARS = 12
RECURRING_FALLBACKS = 3  # moments one handled error came back at: the fallback is then the way it runs
# Batches a server printed before its crash that show it was serving (sglang's `Decode batch` lines):
# a warmup request prints a line or two, not several.
SERVING_BATCHES = 3
# Lines this close are one moment: components stamp whole seconds or milliseconds, and a
# consequence printed in the same burst may carry an earlier stamp than its cause.
SAME_MOMENT_S = 1.0
# How long before a crash a driver's or the kernel's line may come and still be what stopped it (a
# PCIe AER error a second before the Xid and the process's CUDA error).
SOURCE_LEAD_S = 5.0
MAX_KEPT = 50  # templates kept in the report (the rest are counted in a note)
QUOTE = 240  # characters of a line quoted in a summary
FOLLOWERS_QUOTED = 2  # kinds of error after an unexplained lead an inconclusive summary quotes too
NOTHING_FAILED = NO_CAUSE  # verdicts that name no cause
SERVED_DESPITE_TITLE = "The deployment served; errors no pattern explains did not stop it"
TRACEBACK_SOURCE = "traceback-source"  # the error layer's marker of a logger-prefixed traceback's source lines
# A Python exception line: `KeyError: 'UCX'`, `nixl._bindings.nixlBackendError: NIXL_ERR_BACKEND`.
_EXCEPTION_LINE = LazyRegex(r"^(?:[A-Za-z_]\w*\.)*(?:[A-Za-z_]\w*(?:Error|Exception)|Exception)(?::|\s*$)")
# asyncio's report of a task whose exception nobody retrieved names that exception in the task's repr
# (`future: <Task finished name='Task-12' coro=<...> exception=DataPlaneError('...')>`): the line
# says what failed, as an exception line does.
_NAMES_ITS_EXCEPTION = LazyRegex(r"\bexception=(?:[A-Za-z_]\w*\.)*[A-Za-z_]\w*(?:Error|Exception)\(")
# An assert() that failed, in the forms no pattern reads as a crash's cause (glibc's is
# native-assertion-abort's): UCX's own (`proto_select.c:549  Assertion `...' failed`), CUDA's
# device-side (`... Assertion `srcIndex < srcSelectDimSize` failed.`).
_ASSERTED = LazyRegex(r"\bAssertion [`'].{1,400}?[`'] failed\.?\s*$")
# ... or any exception a traceback ends in, the bare `Exception: ...` too, and one whose class is not
# named an error but is qualified by its module, as a traceback's last line prints it
# (`huggingface_hub.errors.OfflineModeIsEnabled: Cannot reach ...`, `requests.exceptions.ReadTimeout: ...`).
_RAISED = LazyRegex(
    r"^(?:(?:[A-Za-z_]\w*\.)*(?:[A-Za-z_]\w*?)?(?:Error|Exception)(?::|\s*$)"
    r"|(?:[a-z_][a-z0-9_]*\.)+[A-Z][A-Za-z0-9]*: )"
)
# A line that says an import failed (Python's own exceptions, and the words a fallback logs).
_IMPORT_FAILED = LazyRegex(r"\b(?:ModuleNotFoundError|ImportError)\b|\b(?i:failed to import|could not import)\b")
# The roles of a file whose lines after a stop are that process's teardown (unexplained.gather).
STOPPED_ROLES = (*SERVER_ROLES, Role.UNKNOWN)
TRACEBACK_GAP = 8  # lines between two source lines of one traceback (its frame lines, a CI's stamps)
TRIGGER_LINES = 3  # how far above a crash line an error of the same process is its likely trigger
TRACEBACK_ABOVE = 2  # a traceback's first frame: its header above it, the message over that
ROUTINE_LEAD_S = 600.0  # a repeated line that began this long before the failure is routine noise
ROUTINE_SPAN_S = 300.0  # ... when its repeats span at least this long
CAUSE_WINDOW_S = 120.0  # a cause-stating line this close to a wrapper of its process is that failure's cause
UNTIMED_ABOVE_LINES = 40  # an error with no time this close above its file's first symptom came before it


@record
class Unrecognised:
    """The error lines no pattern names, as the decision receives them."""

    templates: tuple[UnexplainedError, ...]  # in the order of their first line, not yet ranked
    recovered: tuple[Event, ...]  # failing lines set aside as blips the servers recovered from
    errors: tuple[Event, ...] = ()  # the lines the templates group
    handled: tuple[Event, ...] = ()  # error lines their component handled: a fallback just below them
    torn_down: tuple[Event, ...] = ()  # error lines after their process was told to stop: its teardown


def gather(
    errors: Sequence[Event], events: Sequence[Event], library: Library, recovered: Sequence[Event] = ()
) -> Unrecognised:
    """The generic layer's lines that no library line accounts for, as templates.
    `recovered`: the library's failing lines set aside as blips the servers recovered from."""
    folded = _folded_tracebacks(_unaccounted(errors, events), events, errors)
    fell_back = _fell_back_lines(events, library)
    stopped = _told_to_stop_at(events, library)
    handled: list[Event] = []
    torn_down: list[Event] = []
    unhandled: list[Event] = []
    for event in folded:
        if _fell_back_below(event, fell_back):
            handled.append(event)
        elif event.role in STOPPED_ROLES and event.source in stopped and event.line > stopped[event.source]:
            # A server's own log (or one process's terminal, pasted): what it logs after its stop is its
            # teardown. A CI job's or a harness's log goes on to the steps after a server's stop (an
            # upload, a cleanup): their errors are theirs.
            torn_down.append(event)
        else:
            unhandled.append(event)
    always = _fell_back_every_time(handled, library)
    handled = [e for e in handled if e not in always]
    errors, blips = benign_split([*unhandled, *always], library, context=events)
    templates = tuple(templates_of(errors, library.errors))
    return Unrecognised(templates, (*recovered, *blips), tuple(errors), tuple(handled), tuple(torn_down))


def _fell_back_every_time(handled: Sequence[Event], library: Library) -> list[Event]:
    """The handled errors whose one message came back at RECURRING_FALLBACKS or more moments of its file:
    a fallback taken again and again is the way the component now runs, not a blip it handled (llm-d's
    routing sidecar that cannot reach its prefill and serves every request from the decode alone: a
    disaggregated deployment running aggregated). Repeats at one moment (each rank of a start-up falling
    back once) are one fallback."""
    masks = library.errors.masks if library.errors is not None else ()

    def kind(event: Event) -> tuple[str, str]:
        return (event.source, template_of(message_of(event.text), masks))

    moments: dict[tuple[str, str], set[float]] = {}
    for event in handled:
        if event.time is not None:
            moments.setdefault(kind(event), set()).add(event.time)
    again = {key for key, times in moments.items() if len(times) >= RECURRING_FALLBACKS}
    return [e for e in handled if kind(e) in again] if again else []


def _told_to_stop_at(events: Sequence[Event], library: Library) -> dict[str, int]:
    """The first line, by file, where its process says it was told to stop (a SIGTERM it drains on, a
    terminal's `^C`): the errors it logs after it are its teardown (connections to peers it closes,
    callbacks of endpoints it drops), not what went wrong in the run."""
    told = library.marked(Mark.TOLD_TO_STOP)
    stops: dict[str, int] = {}
    for event in events:
        if event.pattern in told:
            stops[event.source] = min(stops.get(event.source, event.line), event.line)
    return stops


def weigh(report: Report, unrecognised: Unrecognised, events: Sequence[Event], library: Library) -> Report:
    """The decided report in the light of the errors no pattern names (part of the decision)."""
    report = _with_recoveries(report, unrecognised.recovered, library)
    report = _with_handled(report, unrecognised.handled)
    report = _with_torn_down(report, unrecognised.torn_down)
    report = _crash_named_by_its_exception(report, library, events) or report
    report = _chain_named_by_words(report, library, events) or report
    if not unrecognised.templates:
        return report
    symptom_time = _first_failure_time(events, library)
    root_time = _first_time(report.roots) if report.verdict.id not in META else None
    effects = library.errors.effects() if library.errors else frozenset()
    known = [e for e in events if e.failing and e.kind is not Kind.CONTEXT]
    stopping = library.errors.by_source() - effects if library.errors else frozenset()
    named = _warnings_naming_a_cause(report, unrecognised.templates, library, symptom_time is not None)
    # With no cause named, a warning that states one beside a known failing line is the lead it lacks;
    # beside a named cause or a run that served, it stays a warning.
    beside = known if report.verdict.id == INCONCLUSIVE else ()
    ranked = _ranked(list(unrecognised.templates), root_time, symptom_time, effects, known, stopping, named, beside)
    ranked, answered = _answers_split(report, ranked, library)
    if answered:
        report = _noted(report, _answers_note(answered))
    if not ranked:
        return replace(report, unrecognised=())
    report = replace(report, unrecognised=tuple(ranked[:MAX_KEPT]))
    if len(ranked) > MAX_KEPT:
        report = _noted(report, f"{len(ranked) - MAX_KEPT} more unrecognised error templates are not listed")
    wrapped = _cause_of_wrapper(report, ranked, library)
    if wrapped is not None:
        return _crash_died_of(report, wrapped, library)
    serious = _serious(ranked, effects, named, beside)
    if not serious:
        if report.verdict.id == HEALTHY:
            return _warned_while_serving(report, ranked, library, events)
        return _warned(report, ranked, library, events) if report.verdict.id == NO_FAILURE_SEEN else report
    if report.verdict.id in NOTHING_FAILED:
        return _inconclusive(report, serious, library, (*unrecognised.errors, *events))
    if report.verdict.id == HEALTHY:
        return _healthy(report, serious, library, events, unrecognised.errors)
    transfer = _transfer_failed_beside_garbage(report, serious)
    if transfer is not None:
        return transfer
    killed = _killed_from_outside(report, serious, library)  # a stop's record is an effect: all are read
    if killed is not None:
        return _ended_from_outside(report, killed, library, (*unrecognised.errors, *events))
    causes = [t for t in serious if t.marker not in effects]
    return _named(report, causes, library, root_time, (*unrecognised.errors, *events))


# A line's own words that a KV transfer (or the connection it runs over) failed.
_TRANSFER_FAILED = LazyRegex(
    r"(?i)\btransfer\w*\b[^\n]{0,60}\bfail|\bfail\w*\b[^\n]{0,60}\btransfer"
    r"|\bfailed to connect to (?:target|segment|peer)"
)
GARBAGE_NOT_TRANSPORT = "no KV-transfer error is logged"


def _transfer_failed_beside_garbage(report: Report, serious: Sequence[UnexplainedError]) -> Report | None:
    """Garbage output read as the model path's because no transfer error is logged, while an error
    line no pattern names says a transfer failed (vllm-ascend's `Mooncake transfer failed for request`,
    its Ascend transport's `Failed to connect to target`: vllm-project/vllm-ascend#8427): the claim is
    withdrawn, the line quoted, and the reading kept as a lead (a decode that answers from KV that never
    arrived writes the same garbage). None for any other report."""
    if report.verdict.id != OUTPUT_CORRUPTION or GARBAGE_NOT_TRANSPORT not in report.verdict.summary:
        return None
    said = [t for t in serious if _TRANSFER_FAILED.search(t.first.text)]
    if not said:
        return None
    first = min(said, key=_first_key)
    summary = report.verdict.summary.replace(f"and {GARBAGE_NOT_TRANSPORT}, but", "but").replace(
        MODEL_PATH_FIRST,
        f"A line no pattern names says a KV transfer failed ({quote(first)}): a decode that answers from KV that "
        "never arrived writes the same garbage, so the transport is not ruled out.",
    )
    score = confidence.transfer_said_failed(confidence.of(report.verdict), first.first.where)
    return replace(report, verdict=confidence.applied(replace(report.verdict, summary=summary), score))


def _answers_split(
    report: Report, ranked: list[UnexplainedError], library: Library
) -> tuple[list[UnexplainedError], list[UnexplainedError]]:
    """(the templates still unrecognised, the error answers the chain explains). A client's or
    proxy's report of a 5xx (curl's `returned error: 502`) is the chain's failed requests as the
    client received them, when the verdict names a cause, its chain shows requests failing or
    answered with errors, and the line did not come before the root."""
    answers = library.errors.answers() if library.errors else frozenset()
    failed_requests = library.marked(Mark.ERROR_ANSWER, Mark.REQUEST_FAILED)
    if report.verdict.id in META or not any(e.pattern in failed_requests for e in report.chain):
        return ranked, []
    explained = [t for t in ranked if t.marker in answers and t.position == "after"]
    return [t for t in ranked if t not in explained], explained


def _answers_note(answered: Sequence[UnexplainedError]) -> str:
    quoted = "; ".join(f"{t.first.text!r} ({t.first.where})" for t in answered[:MAX_ANSWERS_QUOTED])
    more = f" and {len(answered) - MAX_ANSWERS_QUOTED} more" if len(answered) > MAX_ANSWERS_QUOTED else ""
    return f"the chain's failed requests as a client received them: {quoted}{more}"


MAX_ANSWERS_QUOTED = 3


# ---------------------------------------------------------------- what is already accounted for


def benign_split(
    events: Sequence[Event], library: Library, context: Sequence[Event] = ()
) -> tuple[list[Event], list[Event]]:
    """Failing lines that benign data names are not evidence: a favicon 404, a /health 503 the
    service recovered from (benign only when something later shows it serving: a line of the
    same file, or an end-to-end check that passed through the whole deployment), a retry or a
    fallback a later line of the same file shows overcome (`overcome_by`). Returns (the
    lines kept, the recovered ones that came while the file's server was already serving: blips
    worth a note, unlike a 503 during start-up). Times must be corrected across files.
    `context`: the library's lines, when `events` are the error layer's (which hold no serving line)."""
    if library.errors is None or not library.errors.benign:
        return list(events), []
    spans = _serving_spans([*events, *context], library)
    last_lines = _last_serving_lines([*events, *context], library)
    sources = {e.source for e in (*events, *context)}
    kept: list[Event] = []
    blips: list[Event] = []
    for event in events:
        entry = library.errors.benign_entry(event.text) if event.failing else None
        served = (
            _served_after(event, spans)
            or last_lines.get(event.source, 0) > event.line
            # a restarted process's later life (its current log beside its `--previous` one) that
            # served: every line of it is later than every line of the earlier life
            or any(later in last_lines for later in next_lives(event.source, sources))
        )
        if entry is not None and entry.overcome_by:
            if not _overcome(event, entry.overcome_by, [*events, *context]):
                kept.append(event)  # strict: a retry or fallback no later line shows working stays
            continue
        if entry is None or (entry.recovered and not served):
            kept.append(event)
        elif entry.recovered and _served_before(event, spans):
            blips.append(event)
    return kept, blips


def _fell_back_lines(events: Sequence[Event], library: Library) -> dict[str, list[int]]:
    """The lines, by file, where a component says it takes another way after a failure."""
    marked = library.marked(Mark.FELL_BACK)
    lines: dict[str, list[int]] = {}
    for e in events:
        if e.pattern in marked and not e.failing:
            lines.setdefault(e.source, []).append(e.line)
    return lines


def _fell_back_below(event: Event, fell_back: Mapping[str, Sequence[int]]) -> bool:
    """An error line no pattern names with, at most FALLBACK_LINES lines below it in its file, its
    component's word that it fell back: the error was handled there (a handled error logs its
    fallback on its next line or the one after, with a detail line between at most)."""
    return any(0 < line - event.line <= FALLBACK_LINES for line in fell_back.get(event.source, ()))


def _overcome(event: Event, by: Sequence[str], lines: Sequence[Event]) -> bool:
    """A later line of the same file is one of the patterns that show the warning's trouble overcome
    (NCCL FastSocket's `Connected after 1000 retries.` after its `Maximum retry reached for connect`)."""
    return any(e.pattern in by and e.source == event.source and e.line > event.line for e in lines)


def cleared_split(
    events: Sequence[Event], library: Library, errors: Sequence[Event] = (), inputs: Sequence[str] = ()
) -> tuple[list[Event], list[tuple[Event, Event]]]:
    """Failing lines a later line shows harmless: one of the same file (the pattern's `cleared_by`)
    or one anywhere in the run (`cleared_by_run`). A clearing line that fails itself (a gate under
    its threshold) clears nothing, nor does one that came after the cause's consequences (`errors`:
    the generic layer's lines, which no pattern names, count among them). Kept, but no longer
    failing (`inputs`: the names of the run's files, which tell a restarted process's next life).
    Returns (the events, the (cleared, clearing) pairs)."""
    pairs: list[tuple[Event, Event]] = []
    kept: list[Event] = []
    # The lines that can clear, by pattern, in the run's order: a failing line looks only at the
    # patterns that clear it, not at every line of the run (quadratic on 100,000 small files).
    clearing: dict[str, list[tuple[int, Event]]] = {}
    for position, e in enumerate(events):
        if not e.failing:
            clearing.setdefault(e.pattern, []).append((position, e))
    # A run whose checks failed somewhere (a gate, a benchmark's failed requests) shows no line
    # harmless by a check that passed beside them: `cleared_by_run` then clears nothing.
    checks = library.marked(Mark.GATE_FAILED, Mark.END_TO_END)
    run_clean = not any(e.failing and e.pattern in checks for e in events)
    # A killed process whose next life came up, and checks that ran and all passed, show the run got
    # over what failed while it was down (round 26's bundles-b 02: an OOM-killed prefill restarted
    # and served, a validation job green after it). A link that came back is no such proof: the
    # benchmark that ran across its flaps passed, slower (round 85's bundles-2 02).
    end_to_end = library.marked(Mark.END_TO_END)
    got_over = (
        run_clean
        and any(e.pattern in end_to_end for e in events)
        and _restarted_and_served(events, {*inputs, *(e.source for e in events)}, library)
    )
    failed_at: dict[str, list[float]] = {}  # the failing lines' times, by pattern: what a cause explains
    for e in events:
        if e.failing and e.time is not None:
            failed_at.setdefault(e.pattern, []).append(e.time)
    for event in events:
        pattern = library.pattern(event.pattern)
        first = event.failing and (
            _first_clearing(event, pattern, clearing, run_clean) or _prefill_warmed_up(event, clearing)
        )
        if (
            first
            and pattern.kind is Kind.CAUSE
            and not got_over
            and (
                _caused_before_it_cleared(event, first, pattern.causes, failed_at)
                or _peers_erred_before_it_cleared(event, first, errors)
            )
        ):
            first = None
        if first:
            pairs.append((event, first))
            event = replace(event, failing=False)
        kept.append(event)
    return _echoes_cleared(*_polled_before_a_clean_benchmark(kept, pairs, library), library)


# How long after the line that clears a cause its consequences may still be logged (a transfer that
# timed out while the port was down is reported when its timeout runs out).
CLEARED_LATE_S = 60.0


def _caused_before_it_cleared(
    event: Event, clearing: Event, causes: Sequence[CauseRule], failed_at: Mapping[str, list[float]]
) -> bool:
    """Lines a cause explains (its `[[causes]]` targets) failed between it and the line that clears
    it: a port that came back up after a flap had failed transfers while it was down (round 84's
    bundles-2 05 and round 85's 02: NIXL's `NIXL_ERR_REMOTE_DISCONNECT` seven seconds after `Link
    down`), so it is no blip the run got over without a trace, whatever a retry carried afterwards."""
    if event.time is None or not causes:
        return False
    until = (clearing.time if clearing.time is not None else event.time) + CLEARED_LATE_S
    return any(event.time <= at <= until for rule in causes for at in failed_at.get(rule.target, ()))


def _restarted_and_served(events: Sequence[Event], sources: set[str], library: Library) -> bool:
    """A process's next life (`prefill.log` beside `prefill-previous.log`) came up or served."""
    later = {life for source in sources for life in next_lives(source, sources)}
    up = library.marked(*SERVING_BEFORE_CRASH)
    return any(e.source in later and e.pattern in up and not e.failing for e in events)


def _peers_erred_before_it_cleared(event: Event, clearing: Event, errors: Sequence[Event]) -> bool:
    """Another file logged errors no pattern names between a cause and the line that clears it: an
    OOM-killed prefill's container ready again, while the routing sidecar in front of it had
    answered 502 for every request sent to it while it was down (round 84's bundles-2 01, round
    86's bundles-2 01: Go's `http: proxy error: dial tcp ...: connect: connection refused`). The
    run did not get over it without a trace: the cause stands."""
    if event.time is None:
        return False
    until = (clearing.time if clearing.time is not None else event.time) + CLEARED_LATE_S
    return any(
        e.source != event.source
        and e.severity.rank >= Severity.ERROR.rank
        and e.time is not None
        and event.time <= e.time <= until
        for e in errors
    )


FAILED_REQUESTS = "failed"  # a benchmark's count of its requests that failed (the capture's name)


def _polled_before_a_clean_benchmark(
    events: list[Event], pairs: list[tuple[Event, Event]], library: Library
) -> tuple[list[Event], list[tuple[Event, Event]]]:
    """Error answers before a benchmark that then counted none of its requests failed, in a run whose
    checks all passed: they answered no request of the benchmark's, but a readiness poll knocking
    before the servers were up (`vllm bench serve`'s ready checker posts a completion every few
    seconds until one comes back; a harness's curl loop). Only a count of failed requests says so: a
    gate on accuracy or latency passes over a request that failed."""
    checks = library.marked(Mark.GATE_FAILED, Mark.END_TO_END)
    if any(e.failing and e.pattern in checks for e in events):
        return events, pairs
    clean = [e for e in events if e.pattern in checks and not e.failing and e.get(FAILED_REQUESTS) == 0]
    if not clean:
        return events, pairs
    answers = library.marked(Mark.ERROR_ANSWER)
    kept: list[Event] = []
    for event in events:
        counted = event.failing and event.pattern in answers
        bench = next((c for c in clean if _later_in_run(c, event)), None) if counted else None
        if bench is not None:
            pairs.append((event, bench))
            event = replace(event, failing=False)
        kept.append(event)
    return kept, pairs


def _echoes_cleared(
    events: list[Event], pairs: list[tuple[Event, Event]], library: Library
) -> tuple[list[Event], list[tuple[Event, Event]]]:
    """An error answer for a request whose own failure was cleared is cleared with it: the router's
    503 for a request it could not place before its workers were activated answers that request, a
    start-up moment, not a failure of its own. The two lines name the same request (`request_id`)
    in the same file."""
    cleared = {(e.source, e.get("request_id")): clearing for e, clearing in pairs if e.get("request_id")}
    if not cleared:
        return events, pairs
    answers = library.marked(Mark.ERROR_ANSWER)
    kept: list[Event] = []
    for event in events:
        clearing = cleared.get((event.source, event.get("request_id"))) if event.failing else None
        if clearing is not None and event.pattern in answers:
            pairs.append((event, clearing))
            event = replace(event, failing=False)
        kept.append(event)
    return kept, pairs


def _first_clearing(
    event: Event, pattern: Pattern, clearing: dict[str, list[tuple[int, Event]]], run_clean: bool
) -> Event | None:
    """The run's first line that clears `event`: one of the pattern's `cleared_by` later in its file,
    or, in a run none of whose checks failed, of its `cleared_by_run` later in the run; either sharing
    the captures `cleared_on` names."""
    found: list[tuple[int, Event]] = []
    for pattern_id in set(pattern.cleared_by):
        found.extend(
            (position, e)
            for position, e in clearing.get(pattern_id, ())
            if e.source == event.source and e.line > event.line
        )
    for pattern_id in set(pattern.cleared_by_run) if run_clean else ():
        found.extend((position, e) for position, e in clearing.get(pattern_id, ()) if _later_in_run(e, event))
    found = [(position, e) for position, e in found if all(e.get(k) == event.get(k) for k in pattern.cleared_on)]
    if not found:
        return None
    position, first = min(found, key=lambda item: item[0])
    return None if _said_not_cleared(event, pattern, clearing, position) else first


def _said_not_cleared(
    event: Event, pattern: Pattern, clearing: dict[str, list[tuple[int, Event]]], before: int
) -> bool:
    """A line of the pattern's `not_cleared_by` comes after `event` in its file and before the
    clearing line at `before` (the run's order): the first word on the failure says it was not got
    over, and a later line that looks like a recovery is about something else."""
    return any(
        e.source == event.source and e.line > event.line and position < before
        for pattern_id in pattern.not_cleared_by
        for position, e in clearing.get(pattern_id, ())
    )


def _prefill_warmed_up(event: Event, clearing: dict[str, list[tuple[int, Event]]]) -> Event | None:
    """The prefill's warmup that returned real tokens, for a decode's warmup whose tokens look broken.
    sglang warms a decode up on a fake KV transfer (FAKE_BOOTSTRAP_HOST): it decodes from a cache no
    prefill filled, so its tokens are noise by design, while the prefill's warmup runs the model's real
    forward pass (the seed incident's zeros were the prefill's). Without a prefill's clean warmup in
    the run, the decode's stays evidence."""
    if event.role is not Role.DECODE or event.get("output_ids_zero_fraction") is None:
        return None
    return next((e for _, e in clearing.get(event.pattern, ()) if e.role is Role.PREFILL), None)


def _later_in_run(line: Event, event: Event) -> bool:
    """`line` comes after `event`: by time when both have one; else by line in the same file; a
    line of another file without a time is taken as later (a run's checks follow its start-up)."""
    if line.time is not None and event.time is not None:
        return line.time >= event.time
    return line.source != event.source or line.line > event.line


def with_cleared_notes(report: Report, pairs: Sequence[tuple[Event, Event]], library: Library) -> Report:
    """Say which failing-looking lines were not counted, and what showed them harmless: one note per
    kind of line and the line that cleared it (a router's start-up errors are many lines of one kind,
    cleared by one activation), naming the first and how many."""
    groups: dict[tuple[str, int], list[Event]] = {}
    clearers: dict[int, Event] = {}
    for cleared, clearing in pairs:
        groups.setdefault((cleared.pattern, id(clearing)), []).append(cleared)
        clearers[id(clearing)] = clearing
    for (pattern_id, clearing_id), lines in groups.items():
        first, clearing = lines[0], clearers[clearing_id]
        more = f" and {len(lines) - 1} more such line{'s' if len(lines) > 2 else ''}" if len(lines) > 1 else ""
        counted = "are not counted as failures: after them" if more else "is not counted as a failure: after it"
        note = (
            f"{library.pattern(pattern_id).title} ({first.where}: {message_of(first.text)}){more} {counted}, "
            f"{library.pattern(clearing.pattern).title} ({clearing.where}: {message_of(clearing.text)})."
        )
        report = _noted(report, note)
    return report


# The key under which _serving_spans keeps the passing end-to-end checks of any file.
_END_TO_END = ""


def _serving_spans(events: Sequence[Event], library: Library) -> dict[str, tuple[float, float]]:
    """The first and last time each file shows serving, and (under _END_TO_END) the passing
    end-to-end checks': a probe or gate through the router exercised every server."""
    serving, end_to_end = library.marked(*SERVING_MARKS), library.marked(Mark.END_TO_END)
    spans: dict[str, tuple[float, float]] = {}
    for event in events:
        if event.pattern not in serving or event.failing or event.time is None:
            continue
        for key in (event.source, _END_TO_END) if event.pattern in end_to_end else (event.source,):
            first, last = spans.get(key, (event.time, event.time))
            spans[key] = (min(first, event.time), max(last, event.time))
    return spans


def _last_serving_lines(
    events: Sequence[Event], library: Library, marks: Sequence[Mark] = SERVING_MARKS, first: bool = False
) -> dict[str, int]:
    """The last line of each file that shows serving (or, with `marks`, another kind of line): for a
    line without a time (UCX's and glog's stamps may not be read), a serving line below it in its
    file shows the serving after it. `first`: each file's first such line instead."""
    serving = library.marked(*marks)
    pick = min if first else max
    lines: dict[str, int] = {}
    for event in events:
        if event.pattern in serving and not event.failing:
            lines[event.source] = pick(lines.get(event.source, event.line), event.line)
    return lines


def _imported_before_serving(warning: Event, first_served: Mapping[str, int]) -> bool:
    """A warning that an import failed, above the first line of its file that shows serving: modules
    are imported as the process starts (an optional one its platform lacks: vllm-ascend's `Failed to
    import from vllm._C with ModuleNotFoundError`), and the server went on to serve past it. One
    below a serving line was a lazy import a request needed, and stays a lead."""
    return bool(_IMPORT_FAILED.search(warning.text)) and warning.line < first_served.get(warning.source, 0)


def _served_after(event: Event, spans: dict[str, tuple[float, float]]) -> bool:
    if event.time is None:
        return False
    return any(key in spans and spans[key][1] > event.time for key in (event.source, _END_TO_END))


def _served_before(event: Event, spans: dict[str, tuple[float, float]]) -> bool:
    """Its own file showed serving before it: a blip while serving, not an answer during start-up."""
    return event.time is not None and event.source in spans and spans[event.source][0] < event.time


def _with_recoveries(report: Report, recovered: Sequence[Event], library: Library) -> Report:
    """A healthy run says what it tolerated: the failing lines its servers recovered from while serving."""
    if not recovered or report.verdict.id != HEALTHY or library.errors is None:
        return report
    first = min(recovered, key=_time_key)
    entry = library.errors.benign_entry(first.text)
    why = f" {entry.reason}" if entry is not None else ""
    note = (
        f"{len(recovered)} failing line(s) the servers recovered from are not counted as failures; "
        f"the first, at {first.where}: {message_of(first.text)}.{why}"
    )
    return _set_aside(report, f"{len(recovered)} failing line(s) the servers recovered from while serving", note)


def _with_handled(report: Report, handled: Sequence[Event]) -> Report:
    """A run in which nothing failed says which error lines it does not count: those its component
    handled, its next line saying it fell back."""
    if not handled or report.verdict.id not in (HEALTHY, NO_FAILURE_SEEN):
        return report
    first = min(handled, key=_time_key)
    note = (
        f"{len(handled)} error line(s) are not counted as failures: the line just below each says its component "
        f"fell back to another way; the first, at {first.where}: {message_of(first.text)}"
    )
    return _set_aside(report, f"{len(handled)} error line(s) handled by a fallback", note)


def _with_torn_down(report: Report, torn_down: Sequence[Event]) -> Report:
    """A run in which nothing failed says which error lines it does not count: those its process
    logged after it was told to stop, in its teardown."""
    if not torn_down or report.verdict.id not in (HEALTHY, NO_FAILURE_SEEN):
        return report
    first = min(torn_down, key=_time_key)
    note = (
        f"{len(torn_down)} error line(s) are not counted as failures: each came after its process was told to stop "
        f"(a SIGTERM it drained on, a terminal's ^C), in its teardown; the first, at {first.where}: "
        f"{message_of(first.text)}"
    )
    return _set_aside(report, f"{len(torn_down)} error line(s) logged after a stop", note)


def _set_aside(report: Report, lines: str, note: str) -> Report:
    """The report with `note` on the lines it does not count, and a summary that names them: it must
    not read as if nothing had failed at all."""
    summary = f"{report.verdict.summary} That is apart from {lines} (see the notes)."
    return _noted(replace(report, verdict=replace(report.verdict, summary=summary)), note)


def _unaccounted(errors: Sequence[Event], events: Sequence[Event]) -> list[Event]:
    """Drop exception lines of tracebacks that a library pattern read (its verdict names the
    exception) or that follow a benign line owning them ('Exception ignored in')."""
    # A context pattern that only quotes a traceback explains nothing.
    owners = [
        (e.source, e.line, _exception_text(e), EXPLAINED_LINES)
        for e in events
        if e.get("exc_type") and e.kind is not Kind.CONTEXT
    ]
    owners += [(e.source, e.line, "", SWALLOW_LINES) for e in errors if e.pattern.startswith(BENIGN_PREFIX)]
    # A traceback read above its announcing line (scan/traceback.read_traceback_above): every line of
    # it, from its first frame down to that line, is the record the pattern read.
    records = [_record_above(e) for e in events if e.kind is not Kind.CONTEXT and _read_above(e)]
    kept = []
    for error in errors:
        if error.pattern.startswith(BENIGN_PREFIX) or any(_within(record, error) for record in records):
            continue
        if error.pattern == PYTHON_EXCEPTION and any(_owns(owner, error) for owner in owners):
            continue
        kept.append(error)
    return kept


def _read_above(event: Event) -> int:
    """How many lines above `event` the traceback it read starts (scan/traceback.read_traceback_above:
    its frames' offsets are negative), or 0."""
    at = event.get("stack_at")
    return -min(at) if isinstance(at, tuple) and at and min(at) < 0 else 0


def _record_above(event: Event) -> tuple[str, int, int]:
    """(source, first line, last line) of the traceback read above `event`, down to the line above it."""
    return event.source, event.line - _read_above(event), event.line - 1


def _within(record: tuple[str, int, int], error: Event) -> bool:
    source, first, last = record
    return error.source == source and first <= error.line <= last


def _folded_tracebacks(errors: Sequence[Event], events: Sequence[Event], read: Sequence[Event] = ()) -> list[Event]:
    """A traceback a logger prints line by line (vLLM's `ERROR ... [core.py:NNN]` on every line) is
    one failure: a failing line below its source lines (its exception line, named or not) speaks for
    them; a traceback cut before its exception line keeps its innermost source line, the deepest
    frame's. Caret lines (`^^^^`) say nothing a source line beside them does not. `read`: every error
    line read, those already accounted for too (an exception a benign `Exception ignored in` line
    owns still ends the traceback whose bare header is above it, and so does a benign exception line:
    multiprocessing's resource tracker's KeyError)."""
    sources = [e for e in errors if e.pattern == TRACEBACK_SOURCE]
    if not sources:
        return list(errors)
    below = [
        e
        for e in (*errors, *read, *events)
        if (e.pattern != TRACEBACK_SOURCE and e.failing and e.kind is not Kind.CONTEXT)
        or e.pattern.startswith(BENIGN_PREFIX)  # a benign exception line ends its traceback too
    ]
    cut = [s for s in sources if not _followed(s, below, EXPLAINED_LINES)]
    cut = [s for s in cut if not _is_caret_line(s)] or cut  # a lone caret line is still an error line
    cut = _below_the_own_call_dropped(cut)
    innermost = {id(s) for s in cut if not _followed(s, cut, TRACEBACK_GAP) or _announces(s)}
    return [e for e in errors if e.pattern != TRACEBACK_SOURCE or id(e) in innermost]


def _below_the_own_call_dropped(cut: list[Event]) -> list[Event]:
    """A paste's stack cut before its exception has its innermost own call chosen already (the
    source line scan/pastes.py gave the frames to: the program's deepest frame, not an installed
    package's wrapper below it, `return func(*args, **kwargs)` in torch's c10d_logger); the source
    lines below it in that stack are the library's and are dropped."""
    chosen = [s for s in cut if s.get("stack") is not None and not under_its_header(s)]
    return [s for s in cut if not any(c.source == s.source and s.line > c.line for c in chosen)]


def _announces(event: Event) -> bool:
    """A cut traceback's header that a message announces (`send request failed, reason is:
    Traceback ...`): the message says what failed, the innermost frame where; both are kept."""
    before, header, _ = message_of(event.text).partition(TRACEBACK_HEADER)
    return bool(header) and before.rstrip().endswith(":") and any(char.isalpha() for char in before)


def _followed(event: Event, others: Sequence[Event], reach: int) -> bool:
    """Another of `others` comes below `event` in its file, at most `reach` lines down."""
    return any(o.source == event.source and 0 < o.line - event.line <= reach for o in others)


def _is_caret_line(event: Event) -> bool:
    return not message_of(event.text).strip(" ^~")


def _exception_text(event: Event) -> str:
    message = event.get("exc_message", "")
    return f"{event.get('exc_type')}: {message}" if message else str(event.get("exc_type"))


def _owns(owner: tuple[str, int, str, int], error: Event) -> bool:
    source, line, text, reach = owner
    if source != error.source or not 0 < error.line - line <= reach:
        return False
    return not text or text[:200] in error.text


# ---------------------------------------------------------------- templates and ranking


def templates_of(errors: Sequence[Event], layer: ErrorLayer | None = None) -> list[UnexplainedError]:
    """Lines of the generic layer grouped into templates, in the order of their first line; with
    the layer, each says whether its first line states a cause or only wraps one (causes.toml)."""
    ordered = _in_logged_order(errors)
    found = []
    for template, members in mine(ordered, lambda e: e.template or ""):
        first, last = members[0], members[-1]
        cause = layer.cause_of(first.text) if layer is not None else None
        found.append(
            UnexplainedError(
                template=template,
                marker=first.pattern,
                severity=max((e.severity for e in members), key=lambda s: s.rank),
                count=count_of(members).lines,  # the scan keeps a template's first lines and counts the rest
                first=first,
                last=last,
                roles=tuple(dict.fromkeys(e.role for e in members)),
                files=tuple(dict.fromkeys(e.source for e in members)),
                position="after",
                cause=cause.id if cause is not None else "",
                wrapper=layer is not None and cause is None and layer.wraps(first.text),
            )
        )
    return found


def _in_logged_order(errors: Sequence[Event]) -> list[Event]:
    """`errors` in the order they were logged: by time, a line with none taking the time of the
    first timed line below it in its file (it was logged no later: NCCL's untimed `NCCL WARN` above
    the timed error lines torch wrote of it), the file's order deciding a tie."""
    placed: dict[tuple[str, int], float] = {}
    below: dict[str, float] = {}
    for event in sorted(errors, key=lambda e: (e.source, -e.line)):
        if event.time is not None:
            below[event.source] = event.time
        placed[(event.source, event.line)] = below.get(event.source, float("inf"))
    return sorted(errors, key=lambda e: (placed[(e.source, e.line)], e.source, e.line))


def _ranked(
    templates: list[UnexplainedError],
    root_time: float | None,
    symptom_time: float | None,
    effects: frozenset[str],
    known: Sequence[Event] = (),
    stopping: frozenset[str] = frozenset(),
    named: frozenset[tuple[str, int]] = frozenset(),
    beside: Sequence[Event] = (),
) -> list[UnexplainedError]:
    """`known`: the library's failing lines; without times to place the errors, one logged below
    one of them in the same file came after it and is not the earliest. `stopping`: the markers
    of lines that are errors by their source (the job scheduler's cancel, the kernel's OOM kill).
    `named`, `beside`: the warnings that count as errors here (_serious)."""
    placed = [replace(t, position=_position(t.first, root_time, symptom_time, t.marker in stopping)) for t in templates]
    first_known: dict[str, Event] = {}
    for event in known:  # each file's first failing line the library knows
        if event.source not in first_known or event.line < first_known[event.source].line:
            first_known[event.source] = event
    placed = [_above_the_first_symptom(t, first_known.get(t.first.source), symptom_time) for t in placed]
    serious = [t for t in _serious(placed, effects, named, beside) if t.marker not in effects]
    anchor = _failure_moment(root_time, symptom_time, serious)
    ranked = sorted(placed, key=lambda t: _rank_key(t, effects, anchor))
    # A traceback's source line leads only when nothing else failed: its exception line (a cut
    # excerpt's other piece) or any other error says more.
    serious = [t for t in serious if t.marker != TRACEBACK_SOURCE] or serious
    unplaced = [t for t in serious if not any(_followed(k, [t.first], EXPLAINED_LINES) for k in known)]
    early = [t for t in serious if t.position != "after"] or (unplaced if symptom_time is None else [])
    if not early:
        return ranked
    # The earliest error that is not routine: one already printing long before the failure, while
    # the service worked, is no lead (it may still be the only error there is).
    first = min(early, key=lambda t: (_routine(t, anchor), *_placed_key(t, early)))
    earliest = first if first.cause else _cause_near(first, serious) or _exception_of(first, early)
    return [replace(t, earliest=True) if t is earliest else t for t in ranked]


def _placed_key(template: UnexplainedError, others: Sequence[UnexplainedError]) -> tuple[float, str, int]:
    """When a template's first line was logged, for ordering: its time, or, with none, the time of
    the first timed line below it in its file (it was logged no later: a pasted torch warning without
    a time above lmdeploy's timed error), the file's order deciding a tie."""
    first = template.first
    if first.time is not None:
        return (first.time, first.source, first.line)
    below = [
        o.first.time
        for o in others
        if o.first.source == first.source and o.first.line > first.line and o.first.time is not None
    ]
    return (min(below) if below else float("inf"), first.source, first.line)


def _above_the_first_symptom(
    t: UnexplainedError, first_known: Event | None, symptom_time: float | None
) -> UnexplainedError:
    """Within one second, a file's line order says what came first: an error logged above its
    file's first known failing line (`first_known`), in the same moment, when that line is the run's
    first symptom (a NIXL handshake's exception, then the 500 its request got), stands before it.
    So does an error with no time to place it (a pasted traceback's exception) logged just above
    that line (UNTIMED_ABOVE_LINES): the order in one file tells."""
    if t.position != "after" or symptom_time is None or first_known is None:
        return t
    if t.first.time is None:
        just_above = 0 < first_known.line - t.first.line <= UNTIMED_ABOVE_LINES
        first = first_known.time is not None and first_known.time <= symptom_time + SAME_MOMENT_S
        return replace(t, position="before-first-symptom") if just_above and first else t
    moment = first_known.time
    if moment is None or first_known.line < t.first.line or abs(moment - t.first.time) > SAME_MOMENT_S:
        return t
    return replace(t, position="before-first-symptom") if moment <= symptom_time + SAME_MOMENT_S else t


def _serious(
    templates: Sequence[UnexplainedError],
    effects: frozenset[str] = frozenset(),
    named: frozenset[tuple[str, int]] = frozenset(),
    beside: Sequence[Event] = (),
) -> list[UnexplainedError]:
    """The errors; and the warnings that state a cause near an error of their process (NCCL prints
    `No space left on device` as NCCL WARN above torch's `unhandled system error`), or that come just
    before an error of their process that only reports an ending (`effects`: NCCL's `-> 6` return
    trail under its WARN that a queue pair failed; an exit code under the warning that says why).
    A cause-stating warning with no error near it (UCX's API-version warning at a start-up that went
    on) stays one; so does one a failure family names (`named`, _warnings_naming_a_cause) beside a
    symptom. `beside`: known failing lines near which a cause-stating warning counts too (aws-ofi-nccl's
    `Creating new endpoint ... failed: Invalid argument` above its known `initialization failed`)."""
    errors = [t for t in templates if t.severity.rank >= Severity.ERROR.rank]
    ended = [e for e in errors if e.marker in effects]
    failing = [*(e.first for e in errors), *beside]
    return [
        t
        for t in templates
        if t.severity.rank >= Severity.ERROR.rank
        or (t.cause and t.severity.rank >= Severity.WARNING.rank and any(_near(t.first, e) for e in failing))
        or (t.severity is Severity.WARNING and any(_just_before(t.first, e.first) for e in ended))
        or (t.first.source, t.first.line) in named
    ]


def _warnings_naming_a_cause(
    report: Report, templates: Sequence[UnexplainedError], library: Library, failed: bool
) -> frozenset[tuple[str, int]]:
    """The places (file, line) of a server's warnings whose words a failure family names, when
    the verdict is only a symptom: a step that failed and was logged as a warning (Dynamo's SGLang
    prefill logs `Prefill warmup failed: ...` and registers anyway; the decode's transfers then time
    out) is a cause the symptom may yield to, as an error line would be. An inconclusive verdict over
    known failing lines (`failed`: the decode's transfers failed, no pattern says why) is such a
    symptom too. Beside no symptom it stays a warning."""
    symptom = _tier(report, library) is Tier.SYMPTOM or (report.verdict.id == INCONCLUSIVE and failed)
    if not symptom or library.errors is None:
        return frozenset()
    layer = library.errors
    return frozenset(
        (t.first.source, t.first.line)
        for t in templates
        if t.severity is Severity.WARNING
        and bool(set(t.roles) & CAUSE_ROLES)
        and layer.family_of(t.first.text) is not None
    )


def _tier(report: Report, library: Library) -> Tier:
    """How far upstream the report's verdict sits; a verdict the catalogue lacks counts as a cause."""
    return library.verdict(report.verdict.id).tier if library.has_verdict(report.verdict.id) else Tier.CAUSE


def _just_before(one: Event, other: Event) -> bool:
    """`one` is the same process's line, before `other` and near it."""
    return _near(one, other) and one.line < other.line


def _near(one: Event, other: Event) -> bool:
    """The same process's lines within a crash's window: the same file, near in lines and time. A line
    with no time of its own above `other` was written between the stamped lines around it (the one above
    gave it its time, the one below its latest): as near as that latest (glibc's assertion printed
    between a health check and the crash it caused)."""
    if one.source != other.source or abs(one.line - other.line) > EXPLAINED_LINES:
        return False
    if one.time is None or other.time is None:
        return True
    if one.time_inferred and one.line < other.line and one.time <= other.time:
        latest = one.time_latest if one.time_latest is not None else one.time
        return other.time - latest <= CAUSE_WINDOW_S
    return abs(one.time - other.time) <= CAUSE_WINDOW_S


def _cause_near(first: UnexplainedError, serious: list[UnexplainedError]) -> UnexplainedError | None:
    """A line that states a cause outranks a line of the same process, near it, that does not: the
    earliest cause-stating line of the first error's file within the crash's window (before or after
    it: NCCL's `Last error:` follows torch's wrapper), or None when the first error states its own."""
    if first.cause:
        return None
    # A cause line below the first error speaks for it only when the first only reports (a wrapper,
    # an exception line): below a line that failed by itself (UCX's `mlx5dv_devx_obj_create(CQ)
    # failed`), an errno a later call got (`Failed to allocate memory pool ...: Input/output error`)
    # is what its failure caused.
    reports = first.wrapper or bool(_EXCEPTION_LINE.match(message_of(first.first.text)))
    near = [
        t
        for t in serious
        if t.cause and _near(t.first, first.first) and (reports or _time_key(t.first) < _time_key(first.first))
    ]
    return min(near, key=lambda t: _time_key(t.first)) if near else None


def _says_its_exception(message: str) -> bool:
    """An exception's line, or a line that names the exception in what it reports (asyncio's task)."""
    return _EXCEPTION_LINE.match(message) is not None or _NAMES_ITS_EXCEPTION.search(message) is not None


def _exception_of(first: UnexplainedError, early: list[UnexplainedError]) -> UnexplainedError:
    """A logger's exception message (`EngineCore failed to start.`) heads the traceback it prints;
    the exception line at that traceback's end, in the same moment of the same file, says what failed
    (so does asyncio's `future: <Task finished ... exception=X(...)>` under its `Task exception was
    never retrieved`).
    A first line that is an exception line itself already says it: a later one (an error while shutting
    down, vllm#32222's AttributeError after `RuntimeError: NIXL is not available`) is no better lead;
    nor is one with other errors between them (UCX's and NIXL's own errors, then the engine's
    `RuntimeError: Worker ... died during startup`): the first line headed no traceback, it failed first."""
    start = first.first
    if _says_its_exception(message_of(start.text)):
        return first
    same = [
        t
        for t in early
        if t.first.source == start.source
        and 0 < t.first.line - start.line <= EXPLAINED_LINES
        and (t.first.time is None or start.time is None or abs(t.first.time - start.time) <= SAME_MOMENT_S)
        and _says_its_exception(message_of(t.first.text))
    ]
    if not same:
        return first
    ending = min(same, key=lambda t: _time_key(t.first))
    between = [
        t
        for t in early
        if t.first.source == start.source
        and start.line < t.first.line < ending.first.line
        and t.severity.rank >= Severity.ERROR.rank
    ]
    return first if between or _restates(ending.first, start) else ending


def _restates(exception: Event, logged: Event) -> bool:
    """The exception repeats what the logged line above it already said, with less (MORI's `[error]
    ibv_create_qp failed: errno=25 (...); dev=bnxt_re0 ...`, then `RuntimeError: ibv_create_qp failed:
    Inappropriate ioctl for device`): the line that says more leads. Its first clause is the test."""
    raised = message_of(exception.text).partition(":")[2].strip()
    return _restated(raised.partition(":")[0].strip(), (message_of(logged.text),))


def _restated(said: str, texts: Iterable[str]) -> bool:
    """`said` (an exception's message, or its first clause) stands whole in one of `texts`: a line
    that already said it. A phrase shorter than RESTATED_CHARS proves nothing."""
    return len(said) >= RESTATED_CHARS and any(said in text for text in texts)


def _position(first: Event, root_time: float | None, symptom_time: float | None, stopping: bool = False) -> str:
    """Where the error stands against the verdict's root or the first known symptom. With no root,
    a line that is an error by its source (`stopping`: Slurm's `CANCELLED ... DUE TO TIME LIMIT`,
    the OOM killer) logged in the same moment as the first symptom stands before it: what stopped
    the processes and the first of its consequences (a router's 502) come in one burst."""
    if first.time is None:
        return "after"
    if root_time is not None and first.time < root_time - SAME_MOMENT_S:
        return "before-root"
    if symptom_time is not None and first.time < symptom_time - SAME_MOMENT_S:
        return "before-first-symptom"
    if stopping and root_time is None and symptom_time is not None and first.time <= symptom_time + SAME_MOMENT_S:
        return "before-first-symptom"
    return "after"


def _rank_key(
    t: UnexplainedError, effects: frozenset[str], anchor: float | None = None
) -> tuple[int, int, int, int, int, int, int, float, tuple[float, str, int]]:
    return (
        t.position == "after",
        _routine(t, anchor),  # printing long before the failure, while the service worked: noise
        not t.cause,  # a line that states its cause before one that does not (a wrapper, a bare exception)
        -t.severity.rank,
        t.marker in effects,
        not any(role in SERVER_ROLES for role in t.roles),
        t.count > 10,  # rare lines first: a line printed once per request is rarely the cause
        _distance(t, anchor),  # nearest the first failure first
        _time_key(t.first),
    )


def _failure_moment(
    root_time: float | None, symptom_time: float | None, serious: list[UnexplainedError]
) -> float | None:
    """When things went wrong: the verdict's root, else the first known symptom, else (errors no
    pattern names only) the moment the newest kind of error first appeared."""
    if root_time is not None or symptom_time is not None:
        return root_time if root_time is not None else symptom_time
    starts = [t.first.time for t in serious if t.first.time is not None]
    return max(starts) if starts else None


def _routine(t: UnexplainedError, anchor: float | None) -> bool:
    """A line that kept repeating (over ROUTINE_SPAN_S) since long before the failure (ROUTINE_LEAD_S):
    it printed while things worked. The same line printed at one moment by several nodes is no routine."""
    start, end = t.first.time, t.last.time
    if t.count < 2 or start is None or end is None or anchor is None or t.first.source != t.last.source:
        return False  # one file's repeats: across files, clocks and nodes differ
    return anchor - start > ROUTINE_LEAD_S and end - start >= ROUTINE_SPAN_S


def _distance(t: UnexplainedError, anchor: float | None) -> float:
    """Seconds between the template's nearest line and the first failure (its root or first symptom)."""
    times = [e.time for e in (t.first, t.last) if e.time is not None]
    if anchor is None or not times:
        return float("inf")
    if min(times) <= anchor <= max(times):
        return 0.0
    return min(abs(time - anchor) for time in times)


def _time_key(event: Event) -> tuple[float, str, int]:
    return (event.time if event.time is not None else float("inf"), event.source, event.line)


def _first_time(events: Sequence[Event]) -> float | None:
    times = [e.time for e in events if e.time is not None]
    return min(times) if times else None


def _first_failure_time(events: Sequence[Event], library: Library) -> float | None:
    """When the first failing line was logged. Beside other failures, a failed gate is no moment
    of the failure: a benchmark prints its `Failed requests: 244` when it ends, a job its exit
    status after the kill (and an untimed harness line takes the time of the line above it, such
    as Slurm's cancel banner): it says the run failed, not when. When the gates are all that
    failed, their lines are the failure's moment."""
    gated = library.marked(Mark.GATE_FAILED)
    failing = [e for e in events if e.failing and e.kind.value != "context"]
    return _first_time([e for e in failing if e.pattern not in gated] or failing)


# ---------------------------------------------------------------- the report


def quote(t: UnexplainedError, words: str = "") -> str:
    """`file:line: the line` of a template's first occurrence, for summaries; a long line is cut
    around `words` when given (the words that name its cause)."""
    text = quote_of(t.first.text)
    # a token across the cut goes whole (textcut.clip): redaction runs on this text later
    text = text if len(text) <= QUOTE else clip_around(text, QUOTE - 1, words)
    more = f" ({t.count} lines like it in {len(t.files)} file(s))" if t.count > 1 else ""
    raised = t.first.get("raised_at")
    raised_at = f", raised at: {raised}" if raised else ""  # where an exception came from (scan/traceback.py)
    return f"{t.first.where}: {text}{raised_at}{more}"


def _cause_words(t: UnexplainedError, library: Library) -> str:
    """The words by which the template's line states its cause (causes.toml), to keep in view when
    a long line is cut for a summary: they are often at its end (`... does not support opType [X].`)."""
    cause = library.errors.cause(t.cause) if library.errors is not None and t.cause else None
    found = cause.regex.search(quote_of(t.first.text)) if cause is not None else None
    return found.group() if found else ""


def _after_the_lead(lead: UnexplainedError, serious: list[UnexplainedError]) -> str:
    """The next kinds of error after the lead, in the order they were logged (FOLLOWERS_QUOTED of
    them), for a summary: with no pattern to say which line states the cause, the first error is
    often a wrapper or a symptom and the line that names the cause comes a line or two later
    (NVSHMEM's `NULL value`, then `Unable to create ah.`; NIXL's failed tag, then the endpoints it
    could not read)."""
    after = sorted((t for t in serious if t is not lead and _time_key(lead.first) < _time_key(t.first)), key=_first_key)
    if not after:
        return ""
    return " After it: " + ended("; ".join(quote(t) for t in after[:FOLLOWERS_QUOTED]))


def _first_key(t: UnexplainedError) -> tuple[float, str, int]:
    return _time_key(t.first)


def _lead(serious: list[UnexplainedError]) -> UnexplainedError:
    flagged = [t for t in serious if t.earliest]
    return flagged[0] if flagged else serious[0]


def _lead_words(lead: UnexplainedError) -> str:
    if lead.earliest and lead.cause:
        return "The earliest error no pattern explains that states its cause"
    if not lead.earliest:
        return "An error no pattern explains"
    if lead.position == "before-first-symptom":
        return "The earliest error no pattern explains, before the first known symptom"
    return "The earliest error no pattern explains"


def _inconclusive(
    report: Report, serious: list[UnexplainedError], library: Library, context: Sequence[Event] = ()
) -> Report:
    """`context`: the lines read, for the engine that wrote the lead's file."""
    lead = _lead(serious)
    nothing_failed = report.verdict.id != INCONCLUSIVE  # the diagnosis saw no failing line at all
    if not nothing_failed and not lead.earliest:
        # The recognised failing lines come first (the summary quotes the first of them); an
        # error logged after them, such as the runner's closing '##[error]', is listed under the
        # unrecognised errors, not made the lead.
        listed = (*report.missing, f"no pattern explains the error at {lead.first.where}")
        return replace(report, missing=tuple(dict.fromkeys(listed)))
    above = _known_above(lead, library, context)
    said_above = (
        ""
        if above is None
        else f" Just above it, the same process logged: {library.pattern(above.pattern).title} ({above.where}: "
        f"{clip(message_of(above.text).strip(), 200)})."
    )
    quoted = quote(lead, _cause_words(lead, library))
    head = f"{_lead_words(lead)}: {ended(quoted)}{_after_the_lead(lead, serious)}{said_above}"
    rest = (
        " No pattern of the library names it, and nothing shows the deployment serving."
        if nothing_failed
        else " " + report.verdict.summary
    )
    missing = [f"no pattern explains the error at {lead.first.where}", *report.missing]
    why = f"an error no pattern names leads ({lead.first.where})"
    changed = as_inconclusive(replace(report, missing=tuple(dict.fromkeys(missing))), head + rest, library, why)
    if above is not None and library.pattern(above.pattern).advice.strip():
        changed = replace(changed, advice=library.pattern(above.pattern).advice.strip())
    named = _named_by_words(changed, lead, serious, library, context) or _died_of_exception(
        changed, lead, library, context
    )
    return named if named is not None else _with_limit_fix(changed, lead, library, context)


def _died_of_exception(
    report: Report, lead: UnexplainedError, library: Library, context: Sequence[Event]
) -> Report | None:
    """A Python exception no pattern names, then, just below it in the same file, its parent's line
    that a child died with no error of its own (marked `child-death-noticed`): the child died of that exception.
    The verdict is the crash (its phase from the lines before it: serving lines make it a crash while
    serving), as a lead below 0.5: the crash is known, its cause is the exception's own words. With no
    such line, a traceback whose frames frames.toml places in an engine's own serving loop or start-up
    (where an exception not caught ends the process) is that crash too, as a weaker lead; so is a
    paste's traceback cut before its exception line, unless it ends in a call a thread waits in."""
    if (
        lead.marker != PYTHON_EXCEPTION
        and not stack_of(lead.first.get)
        and not states_exception(message_of(lead.first.text))
    ):
        # neither a traceback's last line (severity.toml) nor a line with a traceback read above it (nor
        # the last call of a paste's traceback cut before its exception: scan/pastes.py keeps its frames),
        # nor an exception a logger wrote at its level (the level's marker decided the line first)
        return None
    exception, died_ids = lead.first, library.marked(Mark.CHILD_DEATH_NOTICED)
    died = next(
        (
            e
            for e in context
            if e.pattern in died_ids
            and e.source == exception.source
            and 0 < e.line - exception.line <= CHILD_DIED_LINES
        ),
        None,
    )
    placed = None
    if died is None:  # a child's death noticed below says how it died; the frames are read only without one
        placed = _placed_in_an_engine(exception, library) or _placed_by_its_process(exception, library, context)
    if died is None and placed is None:
        return None
    cut = lead.marker == TRACEBACK_SOURCE  # a paste's traceback cut before its exception: its last call
    if cut and _waiting(stack_of(exception.get)):
        return None  # a thread that waited there: a hang's stack (or an interrupted one's), no crash shown
    serving = _serving_before(exception, library, context)
    verdict_id = _crash_phase(serving, placed)
    spec = library.verdict(verdict_id)
    named = "an exception the paste cuts off, raised under the call" if cut else "an exception no pattern names"
    summary = (
        f"A process of the server died of {named}: {_the_call(lead)} {_how_it_died(died, placed, serving, library)}"
    )
    verdict = Verdict(
        verdict_id,
        spec.title,
        0.0,
        summary,
        facts=(("raised_under" if cut else "exception", clip(message_of(exception.text), 300)),),
    )
    score = (
        confidence.engine_exception(exception.where, placed.why)
        if placed is not None
        else confidence.unnamed_exception(exception.where)
    )
    verdict = confidence.applied(verdict, score)
    why = f"the exception at {exception.where} names no catalogued cause"
    alternatives = (Alternative(INCONCLUSIVE, report.verdict.confidence, why), *report.alternatives)
    advice = (
        f"Find the exception raised under the call at {exception.where} (the paste stops before its line) and "
        "fix what it says; the server's death follows from it."
        if cut
        else f"Fix what the exception at {exception.where} says; the server's death follows from it."
    )
    changed = replace(report, verdict=verdict, alternatives=alternatives, advice=advice, explain=spec.explain.strip())
    return _with_limit_fix(changed, lead, library, context)


# The calls a thread blocks in: a stack cut there shows where it waited, not that something raised.
_WAITS = frozenset({"wait", "acquire", "sleep", "select", "poll", "join"})


def _waiting(stack: Sequence[Frame]) -> bool:
    """The innermost frame of the stack is a call a thread blocks in (threading's `wait`, a lock's `acquire`)."""
    return bool(stack) and stack[-1].func in _WAITS


# A serving engine's own code (its package directory in a frame's path): another program may name a
# function as an engine does (a job runner's own `run_scheduler_process`), and its exception ends no engine.
# A paste may elide the path up to SGLang's runtime package (`.../srt/layers/...`).
_ENGINE_CODE = LazyRegex(
    r"(?:^|/)(?:sglang|vllm|vllm_ascend|vllm_gaudi|tensorrt_llm|lmdeploy)/"
    r"|(?:^|/)srt/(?:layers|managers|model_executor|mem_cache|disaggregation|models)/"
)


def _the_call(lead: UnexplainedError) -> str:
    """The lead quoted; for a stack cut under its header (the header's line holds its frames:
    scan/pastes.py), the call its innermost frame made, under which the exception was raised: the
    header itself says nothing."""
    exception = lead.first
    frames = stack_of(exception.get)
    if not frames or not under_its_header(exception) or not frames[-1].call:
        return ended(quote(lead))
    innermost = frames[-1]
    return (
        f"`{clip(innermost.call, 200)}` in {short_name(innermost.func)}, the innermost frame of the traceback "
        f"under the header at {exception.where}."
    )


def _placed_in_an_engine(exception: Event, library: Library) -> PhaseEvidence | None:
    """The phase frames.toml reads from the exception's traceback, when the frame that tells it is
    an engine's own code; None otherwise."""
    placed = library.frames.phase_of(stack_of(exception.get))
    return placed if placed is not None and _ENGINE_CODE.search(placed.frame.file) else None


def _placed_by_its_process(exception: Event, library: Library, context: Sequence[Event]) -> PhaseEvidence | None:
    """The phase the traceback of the exception's own process places it in: the traceback a process
    prints as it ends (multiprocessing's `Process Process-1:`, then its frames down to where it was
    when the exception reached it), read under its header just below the exception in the same file
    (a paste cut inside it: scan/pastes.py keeps its frames), when the exception's own frames say
    nothing of where its process was."""
    below = (
        e
        for e in context
        if e.source == exception.source
        and 0 < e.line - exception.line <= CHILD_DIED_LINES
        and e.pattern == TRACEBACK_SOURCE
    )
    return next((placed for e in below if (placed := _placed_in_an_engine(e, library)) is not None), None)


def _how_it_died(died: Event | None, placed: PhaseEvidence | None, serving: str, library: Library) -> str:
    """What shows the exception ended its process: its parent's line just below it (and the phase the
    lines before it show), or where its traceback runs (frames.toml: an engine's loop or start-up)."""
    lead = " Read from the exception alone, its cause is a lead to check."
    if died is None:
        through = f"{placed.why} ({short_name(placed.frame.func)})" if placed is not None else "the engine's code"
        return f"Its traceback runs through {through}, where an exception not caught ends the engine's process." + lead
    phase = (
        f"It was serving: {serving}." if serving else "These lines do not show whether it was starting up or serving."
    )
    return (
        f"Just below it, {_lowered(library.pattern(died.pattern).title)} ({died.where}). {phase} "
        "The crash is what the lines prove." + lead
    )


def _crash_phase(serving: str, placed: PhaseEvidence | None) -> str:
    """The crash verdict of a process that died of an exception: serving lines before it, or the
    phase its traceback's frames name (frames.toml), else the phase-unknown crash."""
    if serving or (placed is not None and placed.phase == "runtime"):
        return SCHEDULER_RUNTIME_CRASH
    if placed is not None and placed.phase == "init":
        return SCHEDULER_INIT_CRASH
    return SCHEDULER_CRASH


def _serving_before(exception: Event, library: Library, context: Sequence[Event]) -> str:
    """What shows the exception's server serving before it ("" when nothing does): a ready line or a
    served request, a line only its serving loop writes (vLLM's dump of the batch a step was running
    when it raised), or several batches of its metrics lines."""
    before = [e for e in context if e.source == exception.source and e.line < exception.line]
    served = library.marked(*SERVING_BEFORE_CRASH)
    shown = next((e for e in before if e.pattern in served and not e.failing), None)
    shown = shown or next((e for e in before if e.pattern in library.marked(Mark.IN_SERVING)), None)
    if shown is not None:
        return f"{_lowered(library.pattern(shown.pattern).title)} at {shown.where}"
    metrics = library.marked(Mark.METRICS)
    batches = [e for e in before if e.pattern in metrics and _positive(e.get("running"))]
    if len(batches) >= SERVING_BATCHES:
        return f"{len(batches)} of its batch lines ran requests before it, the first at {batches[0].where}"
    return ""


def _lowered(title: str) -> str:
    """A pattern's title inside a sentence: its first letter lowered, its acronyms kept (SIGQUIT)."""
    return title[:1].lower() + title[1:]


def _positive(value: object) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and value > 0


def _known_above(lead: UnexplainedError, library: Library, context: Sequence[Event]) -> Event | None:
    """For a lead that only reports an ending (NCCL's `-> 2` return trail, an exit code): the line of
    a known kind, warning or worse, its process logged just above it, which says what failed (NCCL's
    `socketPollConnect: Connect to ... returned 113(No route to host)`); None when there is none."""
    effects = library.errors.effects() if library.errors is not None else frozenset()
    if lead.marker not in effects:
        return None
    above = [
        e
        for e in context
        if not e.unrecognised
        and e.severity.rank >= Severity.WARNING.rank
        and _near(e, lead.first)
        and e.line < lead.first.line
    ]
    return max(above, key=lambda e: e.line) if above else None


def _with_limit_fix(report: Report, lead: UnexplainedError, library: Library, context: Sequence[Event] = ()) -> Report:
    """When the lead line names a known resource or environment limit, the fix is that limit's, in
    the knobs of the engine that wrote the line's file when the limit has engines' own fixes."""
    limit = library.errors.cause(lead.cause) if library.errors is not None and lead.cause else None
    if limit is None:
        return report
    fix = limit.fix_for(_engine_of_file(lead.first, context, library) if limit.fixes else None)
    advice = f"The line at {lead.first.where} names the limit: {limit.limit}. {fix}".rstrip()
    return replace(report, advice=advice)


# ---------------------------------------------------------------- a verdict named by words


def _named_by_words(
    report: Report,
    lead: UnexplainedError,
    serious: Sequence[UnexplainedError],
    library: Library,
    context: Sequence[Event],
    lead_words: str = "",
) -> Report | None:
    """The inconclusive report under the catalogue verdict whose cause the lead's words name
    (open-world/families.toml), or None when no family's words are in it or near it. A line of the
    same process near the lead may name it (a wrapper's lead, the errno on the line below). The
    verdict stays a lead: its confidence is below 0.5, the line is quoted first, and the fix is the
    family's in the knobs of the engine that wrote the file."""
    found = _family_line(lead, serious, library)
    if found is None or _outside_an_engine(*found):
        return None
    line, family = found
    # A crash the words name (a GPU's memory access fault) happened while serving when its process's
    # file shows it serving before the line, or in the phase its traceback's frames name (an engine's
    # batch step: verl-project/verl#1611); the words alone say nothing of the phase.
    crash = family.verdict == SCHEDULER_CRASH
    serving = _serving_before(line.first, library, context) if crash else ""
    placed = _placed_in_an_engine(line.first, library) if crash and not serving else None
    named = _crash_phase(serving, placed) if crash else family.verdict
    spec = library.verdict(named)
    words = family.words(line.first.text)
    beside = "" if line is lead else f" Beside it, the same process logged: {ended(quote(line, words))}"
    quoted_lead = quote(lead, words if line is lead else "")
    summary = (
        f"{lead_words or _lead_words(lead)}: {ended(quoted_lead)}{beside} No pattern of the library knows this "
        "line, but "
        f"its words ({words!r}) name a cause: {spec.title}. Read from the words alone, the verdict is a lead "
        "to check against the line, not a proof."
    )
    if serving:
        summary += f" It was serving: {serving}."
    elif placed is not None and named != SCHEDULER_CRASH:
        summary += f" Its traceback runs through {placed.why} ({short_name(placed.frame.func)})."
    old = report.verdict
    facts = (("cause_words", family.id),)
    verdict = Verdict(named, spec.title, 0.0, summary, facts=facts, identity=("cause_words",))
    verdict = confidence.applied(verdict, confidence.words_only(line.first.where))
    why = f"no pattern names the line at {line.first.where}; only its words name {named}"
    alternatives = (Alternative(INCONCLUSIVE, old.confidence, why), *report.alternatives)
    engine = _engine_of_file(line.first, context, library)
    advice = family.fix_for(engine) or spec.advice.strip()
    return replace(report, verdict=verdict, alternatives=alternatives, advice=advice, explain=spec.explain.strip())


def _outside_an_engine(line: UnexplainedError, family: Family) -> bool:
    """A family that names a scheduler's crash, on a line whose traceback holds frames none of which is
    an engine's code: the process that raised it is no engine's (DeepEP's own test script asserting
    in its kernels, deepseek-ai/DeepEP#114). A line with no frames says nothing of its process."""
    if family.verdict != SCHEDULER_CRASH:
        return False
    frames = stack_of(line.first.get)
    return bool(frames) and not any(_ENGINE_CODE.search(frame.file) for frame in frames)


def _crash_named_by_its_exception(report: Report, library: Library, context: Sequence[Event]) -> Report | None:
    """A crash whose own exception states a cause in a family's words (mscclpp's `IbError` whose
    what() is `ibv_reg_mr failed (errno 14) (Ib failure: Bad address)`): the process died of that
    cause, so the verdict is the family's, as a lead (below 0.5) with the crash kept as the reading
    beside it. None for any other report, and for a family whose verdict is itself a crash's."""
    old = report.verdict
    if not report.roots or not library.has_verdict(old.id) or library.verdict(old.id).analyzer != CRASH_ANALYZER:
        return None
    exception = dict(old.facts).get("exception")
    if not isinstance(exception, str):
        return None
    return _crash_cause_named_by_words(report, exception, "its exception's own words", library, context)


def _chain_named_by_words(report: Report, library: Library, context: Sequence[Event]) -> Report | None:
    """An inconclusive report whose chain holds the exception a process died of in a family's words:
    a pattern read the line as that exception (`what(): ... Process group watchdog thread terminated
    with exception: ...` under `terminate called after throwing`), the crash's reading could not
    name its cause, and the words it carries state one (`operation not permitted on an event last
    recorded in a capturing stream`). The family's verdict, as a lead below 0.5, the line quoted
    first, as for a line no pattern names; the first such line of the chain decides. Lines the
    analyses weighed for their own verdict (a transport's completion errors ruled out by a peer's
    exit, a router's empty pool) are no exceptions and keep their reading. None for any other report."""
    if report.verdict.id != INCONCLUSIVE or library.errors is None:
        return None
    for event in report.chain:
        if Mark.EXCEPTION not in library.pattern(event.pattern).marks:
            continue
        family = library.errors.family_of(event.text)
        if family is None or family.lead_only or not library.has_verdict(family.verdict):
            continue
        return _chain_line_names(report, event, family, library, context)
    return None


def _chain_line_names(
    report: Report, event: Event, family: Family, library: Library, context: Sequence[Event]
) -> Report:
    """The report under the verdict `family` names by the words of the chain's `event`, as a lead."""
    spec = library.verdict(family.verdict)
    words = family.words(event.text)
    text = quote_of(event.text)
    text = text if len(text) <= QUOTE else clip_around(text, QUOTE - 1, words)
    summary = (
        f"The line at {event.where} ({ended(text)}) names a cause in words ({words!r}): {spec.title}. The "
        "crash's own reading named none: read from the words alone, the verdict is a lead to check against "
        "the line, not a proof."
    )
    facts = (("cause_words", family.id),)
    verdict = Verdict(family.verdict, spec.title, 0.0, summary, facts=facts, identity=("cause_words",))
    verdict = confidence.applied(verdict, confidence.words_only(event.where))
    why = f"{report.verdict.summary} (the chain's line at {event.where} names {family.verdict} in words only)"
    alternatives = (Alternative(INCONCLUSIVE, report.verdict.confidence, why), *report.alternatives)
    advice = family.fix_for(_engine_of_file(event, context, library)) or spec.advice.strip()
    return replace(report, verdict=verdict, alternatives=alternatives, advice=advice, explain=spec.explain.strip())


def _reports_a_death(report: Report, library: Library) -> bool:
    """The crash's line says only that a process died, and when (its pattern marked as written at
    start-up or while serving), not how (a signal, a native frame, an exception)."""
    marks = library.pattern(report.roots[0].pattern).marks if report.roots else frozenset()
    return (Mark.IN_START_UP in marks or Mark.IN_SERVING in marks) and not dict(report.verdict.facts).get("exception")


def _announces_its_traceback(cause: UnexplainedError, report: Report, library: Library) -> bool:
    """The error is the message a record printed just over the crash's traceback (vLLM V0's
    run_mp_engine: `logger.exception(e)`, the exception's text then `Traceback (most recent call
    last):`), read as the traceback's first frame (an `unannounced` pattern), and the traceback is
    cut before the exception it ends in: the message is the exception's only statement."""
    root = report.roots[0] if report.roots else None
    if root is None or Mark.UNANNOUNCED not in library.pattern(root.pattern).marks:
        return False
    if dict(report.verdict.facts).get("exception"):
        return False
    return cause.first.source == root.source and 0 < root.line - cause.first.line <= TRACEBACK_ABOVE


def _crash_cause_named_by_words(
    report: Report, text: str, whose: str, library: Library, context: Sequence[Event]
) -> Report | None:
    """The crash report under the verdict a family names in `text` (the crash's exception, or the
    error its process logged just before it: `whose` words they are), as a lead below 0.5 with the
    crash beside it; None when no family (other than a crash's, or one kept to leads) names it."""
    old = report.verdict
    if library.errors is None or not report.roots:
        return None
    family = library.errors.family_of(text)
    if family is None or family.lead_only or not library.has_verdict(family.verdict):
        return None
    spec = library.verdict(family.verdict)
    if spec.analyzer == CRASH_ANALYZER:
        return None
    crash = report.roots[0]
    words = family.words(text)
    summary = (
        f"{old.summary} {whose[:1].upper()}{whose[1:]} ({words!r}) name a cause: {spec.title}. No pattern of "
        "the library knows that line: read from its words, the verdict is a lead to check against the line."
    )
    facts = (*old.facts, ("cause_words", family.id))
    verdict = Verdict(family.verdict, spec.title, 0.0, summary, facts=facts, identity=("cause_words",))
    verdict = confidence.applied(verdict, confidence.words_only(crash.where))
    why = f"the crash at {crash.where}; {whose} name {family.verdict}"
    alternatives = (Alternative(old.id, min(old.confidence, verdict.confidence), why), *report.alternatives)
    advice = family.fix_for(_engine_of_file(crash, context, library)) or spec.advice.strip()
    return replace(report, verdict=verdict, alternatives=alternatives, advice=advice, explain=spec.explain.strip())


def _family_line(
    lead: UnexplainedError, serious: Sequence[UnexplainedError], library: Library
) -> tuple[UnexplainedError, Family] | None:
    """The lead with the family its words name; else the earliest line of the same process near it
    that names one (by a family not kept to leads, unless the lead is a wrapper: a report that
    something failed is no error of its own, so a line below it is still the first to fail)."""
    layer = library.errors
    if layer is None or not layer.families:
        return None
    near = [t for t in serious if t is not lead and _near(t.first, lead.first)]
    for template in [lead, *sorted(near, key=lambda t: _time_key(t.first))]:
        family = layer.family_of(template.first.text)
        if family is None or (family.lead_only and template is not lead and not lead.wrapper):
            continue
        if library.has_verdict(family.verdict):
            return template, family
    return None


def _engine_of_file(line: Event, context: Sequence[Event], library: Library) -> str | None:
    """The serving engine that wrote the line's file: the one most of its lines' formats tell."""
    same = islice((e for e in (line, *context) if e.source == line.source), ENGINE_LINES)
    return library.formats.engine_of_lines(e.text for e in same)


def _warned(
    report: Report, warnings: list[UnexplainedError], library: Library, context: Sequence[Event] = ()
) -> Report:
    """No error-level line, but warnings whose words say something failed: what they say is
    quoted as the finding, never 'nothing failed'. When the first one's words name a cause family
    (TensorRT-LLM warns its KV cache transfers that timed out), that family's verdict is the lead,
    as for an error line's words."""
    lead = min(warnings, key=lambda t: _time_key(t.first))
    more = f" ({len(warnings)} kinds of such warnings)" if len(warnings) > 1 else ""
    summary = (
        f"No error-level line, but a warning says something failed{more}; the first: {ended(quote(lead))} "
        "No pattern of the library names its cause, and nothing shows the deployment serving."
    )
    missing = [f"no pattern explains the warning at {lead.first.where}", *report.missing]
    why = f"a warning no pattern names says something failed ({lead.first.where})"
    changed = as_inconclusive(replace(report, missing=tuple(dict.fromkeys(missing))), summary, library, why)
    named = _named_by_words(changed, lead, warnings, library, context, WARNING_LEAD)
    if named is not None:
        return named
    after = _lines_after(warnings, report.inputs)
    if after >= WENT_ON_LINES and sum(t.count for t in warnings) <= PROBE_LINES:
        return _went_past(report, lead, more, after)
    return changed


# Lines of its file after the last warning, in a log with no error line, that show its program went
# on past it: a probe that declined (NCCL's `Failed to open libibverbs.so`, then its socket transport
# and the benchmark's rows), not a failure that ended the run (that is a log ending on the warning).
WENT_ON_LINES = 3
# ... when the warnings are few: a probe warns once per process or device (eight GPUs, a node's
# NICs), where a failure the program keeps meeting warns on (vLLM's Mooncake connector's `Sending
# to ... failed` every few seconds is a transfer failing over and over, output around it or not).
PROBE_LINES = 16


def _lines_after(warnings: Sequence[UnexplainedError], inputs: Sequence[Source]) -> int:
    """The fewest lines any warning's file holds after that warning's last line."""
    sizes = {source.name: source.lines for source in inputs}
    last: dict[str, int] = {}
    for template in warnings:
        for event in (template.first, template.last):
            last[event.source] = max(last.get(event.source, 0), event.line)
    return min((sizes.get(source, 0) - line for source, line in last.items()), default=0)


def _went_past(report: Report, lead: UnexplainedError, more: str, after: int) -> Report:
    """Nothing failed: the warnings' program went on past them (their files continue). The first
    warning is quoted, so the reader sees what was said and why it is not taken for the failure."""
    summary = (
        f"No failure seen: no line is an error, and the warnings that say something failed{more} did not stop "
        f"their program: its output goes on for {after} lines after the last of them. The "
        f"first: {ended(quote(lead))} Nothing shows a request served either."
    )
    return replace(report, verdict=replace(report.verdict, summary=summary))


WARNING_LEAD = "No error-level line, but a warning says something failed"


def _healthy(
    report: Report,
    serious: list[UnexplainedError],
    library: Library,
    events: Sequence[Event] = (),
    errors: Sequence[Event] = (),
) -> Report:
    """Serving proves errors before it did not matter; it proves nothing about errors after it,
    and without an end-to-end check, nothing about errors in the deployment's own logs, nor
    about an error in the serving lines' own file after the last of them. `errors`: the error
    layer's lines, where an error's own traceback below it is read (`_named_after_serving`)."""
    passed = _passed_checks(report, library)
    if not passed:
        # Per file, read once: its last line that shows serving, and its last start-up line.
        served = _last_serving_lines(events, library)
        started = _last_serving_lines(events, library, START_UP_MARKS)
        unvouched = [t for t in serious if _after_serving_in_its_file(t.first, served)]
        if unvouched:
            lead = _lead(unvouched)
            shown = _serving_line_quoted(events, lead.first.source, served)
            why = (
                f"after the last line of its file that shows it serving{shown}, and no end-to-end result vouches for it"
            )
            changed = _not_healthy(report, lead, why, library, unvouched, serious)
            return _named_after_serving(changed, unvouched, library, (*errors, *events), last_words=True) or changed
        unvouched = [t for t in serious if _while_serving_in_its_file(t.first, served, started)]
        if unvouched:
            why = "while it served (no start-up follows it), and no end-to-end result vouches for it"
            changed = _not_healthy(report, _lead(unvouched), why, library, unvouched, serious)
            # Its words may still name a cause, as a lead (lmdeploy's `CUDA runtime error: out of memory`
            # between two 200s whose answers came back empty: InternLM/lmdeploy#1991).
            return _named_after_serving(changed, unvouched, library, (*errors, *events)) or changed
    if passed:
        effects = library.errors.effects() if library.errors else frozenset()
        last_check = max((e.time for e in passed if e.time is not None), default=None)
        # A side-car's errors (a file of unknown role) are not the run's. An ending is no cause, but the
        # CI runner's own (`##[error]Failed to FinalizeArtifact: ... (403) Forbidden` after `702 passed`:
        # ai-dynamo/dynamo#14377) says a step failed after the checks: the job is red for it.
        run = [
            t for t in serious if set(t.roles) - {Role.UNKNOWN} and (t.marker not in effects or t.roles == (Role.CI,))
        ]
        later = [t for t in run if _after(t.last, last_check)]
        if later:
            return _not_healthy(
                report,
                later[0],
                "after the end-to-end checks passed, so they do not vouch for it",
                library,
                later,
                serious,
            )
    # A state of the machine the run served on (a GPU that needs a reset) holds whenever it was read:
    # serving beside it says nothing of what it cost, whatever file reported it.
    standing = library.errors.standing() if library.errors else frozenset()
    held = [t for t in serious if t.marker in standing]
    if not passed and held:
        why = "from a state of the machine that holds until someone acts, and no end-to-end result vouches for the run"
        return _not_healthy(report, _lead(held), why, library, held, serious)
    deployment = [t for t in serious if set(t.roles) & DEPLOYMENT_ROLES]
    if not passed and deployment:
        why = "while no end-to-end result (probe or accuracy gate) shows that it did not matter"
        return _not_healthy(report, _lead(deployment), why, library, deployment, serious)
    # The benchmark or test that measures the run failed in its own output (a client's traceback:
    # sglang's bench_sglang.py died on a garbled answer while every request came back 200) and no
    # result of it passed: the servers answering says nothing of what they answered.
    checks = [t for t in serious if set(t.roles) & CHECK_ROLES]
    if not passed and checks:
        why = "in the output of the run's own benchmark or test, and no result of it passed"
        return _not_healthy(report, _lead(checks), why, library, checks, serious)
    lead = _lead(serious)
    critical = any(t.severity is Severity.CRITICAL for t in serious)
    count = sum(t.count for t in serious)
    note = (
        f"{count} error line(s) no pattern explains did not stop the deployment serving; "
        f"the first worth reading: {quote(lead)}"
    )
    score = confidence.served_despite(confidence.of(report.verdict), critical)
    verdict = confidence.applied(replace(report.verdict, title=SERVED_DESPITE_TITLE), score)
    return _noted(replace(report, verdict=verdict), note)


def _named_after_serving(
    report: Report,
    unvouched: list[UnexplainedError],
    library: Library,
    context: Sequence[Event],
    last_words: bool = False,
) -> Report | None:
    """An error in a file that showed serving (after its last serving line, or between serving lines
    with no start-up after it), whose words name a cause family: that family's verdict, as a lead
    (below 0.5: answered requests around it do not say the error spoiled them, nor that it did not).
    A crash named so was a crash while serving: its file served before it (a kernel fault in vLLM's
    model step after answered requests). `last_words`: the errors come after the last line of their file
    that shows it serving; then an exception its process died of is a crash too (`_died_of_exception`:
    its parent's line below it, or its traceback's frames in an engine's serving step). A process that
    served after the exception did not die of it (a transfer thread's death: sglang's
    `Exception in thread Thread-7 (transfer_worker)`, the scheduler serving on)."""
    lead = _lead(unvouched)
    named = _named_by_words(report, lead, unvouched, library, context)
    if named is None and last_words and not _worked_after(lead.first, library, context):
        named = _died_of_exception(report, lead, library, context)
    if named is None or named.verdict.id != SCHEDULER_CRASH:
        return named
    spec = library.verdict(SCHEDULER_RUNTIME_CRASH)
    summary = f"{named.verdict.summary} Its file showed the deployment serving before it: a crash while serving."
    verdict = replace(named.verdict, id=SCHEDULER_RUNTIME_CRASH, title=spec.title, summary=summary)
    return replace(named, verdict=verdict, explain=spec.explain.strip())


def _worked_after(error: Event, library: Library, context: Sequence[Event]) -> bool:
    """Its file shows work after the error: a metrics line (its scheduler's batches) or a serving line
    below it. The count of a pattern that stopped matching keeps no line, so the last serving line
    read may stand above lines that served; a batch line below is the process still running."""
    working = library.marked(Mark.METRICS, *SERVING_MARKS)
    return any(
        e.source == error.source and e.line > error.line and not e.failing and e.pattern in working for e in context
    )


def _passed_checks(report: Report, library: Library) -> list[Event]:
    """The end-to-end results in the chain that passed (a probe, an accuracy gate): what vouches for a run."""
    end_to_end = library.marked(Mark.END_TO_END)
    return [e for e in report.chain if e.pattern in end_to_end and not e.failing]


def _warned_while_serving(
    report: Report, warnings: list[UnexplainedError], library: Library, events: Sequence[Event]
) -> Report:
    """Served, no error line, but a warning says something failed while its file's server served (no
    start-up follows it), and no end-to-end result vouches for the run: the requests answered before
    or around it do not show that what failed did not matter (vllm-ascend's Mooncake connector's
    `Receive failed: Receive timeout, retrying... (1 attempts left)` with a request left waiting:
    vllm-project/vllm-ascend#7355). Not healthy, not a failure either: the warning leads."""
    if _passed_checks(report, library):
        return report
    served = _last_serving_lines(events, library)
    started = _last_serving_lines(events, library, START_UP_MARKS)
    first_served = _last_serving_lines(events, library, first=True)
    unvouched = [
        t
        for t in warnings
        if t.severity is Severity.WARNING
        and _while_serving_in_its_file(t.first, served, started)
        and not _imported_before_serving(t.first, first_served)
    ]
    if not unvouched:
        return report
    lead = min(unvouched, key=lambda t: _time_key(t.first))
    more = f" ({len(unvouched)} kinds of such warnings)" if len(unvouched) > 1 else ""
    summary = (
        f"{SERVED_WARNING_LEAD}{more}: "
        f"{ended(quote(lead))} No line is an error, but no end-to-end result (probe or accuracy gate) shows "
        "that what failed did not matter."
    )
    missing = (*report.missing, f"no pattern explains the warning at {lead.first.where}")
    why = f"a warning no pattern names says something failed while the deployment served ({lead.first.where})"
    changed = as_inconclusive(replace(report, missing=tuple(dict.fromkeys(missing))), summary, library, why)
    return _named_by_words(changed, lead, unvouched, library, events, SERVED_WARNING_LEAD) or changed


SERVED_WARNING_LEAD = "The deployment served, but a warning says something failed while it served"


def _serving_line_quoted(events: Sequence[Event], source: str, served: Mapping[str, int]) -> str:
    """` (file:line: the line)`: the last line of `source` that shows it serving, for a sentence
    that says an error came after it (the reader sees what served: a health check, a request)."""
    line = served.get(source)
    found = next((e for e in events if e.source == source and e.line == line), None)
    if found is None:
        return ""
    text = quote_of(found.text)
    return f" ({found.where}: {text if len(text) <= QUOTE else clip(text, QUOTE)})"


def _after_serving_in_its_file(error: Event, served: Mapping[str, int]) -> bool:
    """The file the error is in shows the deployment serving (`served`: each file's last such line),
    and only before it (by line): a paste whose server came up, then a transfer failed, shows
    nothing served after the failure."""
    return error.source in served and served[error.source] < error.line


def _while_serving_in_its_file(error: Event, served: Mapping[str, int], started: Mapping[str, int]) -> bool:
    """The file the error is in shows the deployment serving, and no start-up (a ready server, a
    warmup; `started`: each file's last such line) follows the error in it: an answered request
    proves the server answered, not that the error before it did not spoil the answer
    (vllm-ascend's Mooncake transfer failed, then the request came back 200 with garbage). An error
    a later start-up followed was a start-up's."""
    return error.source in served and started.get(error.source, 0) < error.line


def _after(event: Event, moment: float | None) -> bool:
    return event.time is not None and moment is not None and event.time > moment


def _not_healthy(
    report: Report,
    lead: UnexplainedError,
    why: str,
    library: Library,
    among: Sequence[UnexplainedError] = (),
    every: Sequence[UnexplainedError] = (),
) -> Report:
    """`among`: the errors the lead was chosen from; the next kinds after it are quoted too (with no
    pattern to say which states the cause, it is often a line or two below the first). `every`: all the
    errors no pattern explains; the earliest of them is quoted too when it came before the lead (a
    router's error, then the clients' 503s that come after the last line showing it serve)."""
    after = _after_the_lead(lead, list(among))
    summary = (
        f"{_lead_words(lead)}: {ended(quote(lead))} The deployment served, but this error comes {why}."
        f"{_earliest_before(lead, every)}{after}"
    )
    missing = (*report.missing, f"no pattern explains the error at {lead.first.where}")
    cause = f"an error no pattern names ({lead.first.where}) comes {why}"
    return as_inconclusive(replace(report, missing=tuple(dict.fromkeys(missing))), summary, library, cause)


def _earliest_before(lead: UnexplainedError, every: Sequence[UnexplainedError]) -> str:
    """` The earliest error ... came before it: <quote>.` when the earliest unexplained error is not
    the lead and was logged before it, else ""."""
    earliest = next((t for t in every if t.earliest and t is not lead), None)
    if earliest is None or lead.earliest or _time_key(earliest.first) >= _time_key(lead.first):
        return ""
    return f" The earliest error no pattern explains came before it: {ended(quote(earliest))}"


def as_inconclusive(report: Report, summary: str, library: Library, why: str) -> Report:
    """The report under the inconclusive verdict: its title, advice and explanation too."""
    spec = library.verdict(INCONCLUSIVE)
    verdict = confidence.applied(Verdict(INCONCLUSIVE, spec.title, 0.0, summary), confidence.no_cause(why))
    return replace(report, verdict=verdict, advice=spec.advice.strip(), explain=spec.explain.strip())


def _named(
    report: Report,
    causes: list[UnexplainedError],
    library: Library,
    root_time: float | None,
    context: Sequence[Event] = (),
) -> Report:
    """`context`: the lines read (the error layer's and the library's), among them the test runner's
    frames that call a test method (a unit test's traceback)."""
    tier = _tier(report, library)
    # Cause-like lines are printed by servers and their backends; a harness or router line beside
    # a symptom is another view of the same symptom. A unit test's own exception is the cause of
    # its failure in any file: the symptom's line beside it is what the test printed.
    unit_test = library.marked(Mark.UNIT_TEST)  # once, not once per line read (a dense log's thousands)
    tests = [e for e in context if e.pattern in unit_test]
    waited_since = _wait_began(report.roots) or _last_wait_began(context, root_time, library)
    # An answer that came too late (a health probe's timeout) is what a slow or hung server looks
    # like from outside: beside a symptom it is more of that symptom (a gateway with no ready
    # backend, its backends' probes timing out), not its cause.
    late = library.errors.slow_answers() if library.errors else frozenset()
    beside = [
        t
        for t in causes
        if t.marker not in late
        and (_beside(t.first, root_time) or _during_wait(t.first, waited_since, root_time))
        and (
            set(t.roles) & CAUSE_ROLES
            or _ends_a_unit_test(t, tests)
            or _exception_of_a_paste(t)
            or _from_the_host(t, library)
        )
        and not _aftermath(t, report.roots)
    ]
    if tier is Tier.SYMPTOM and beside:
        cause = _lead(beside) if any(t.earliest for t in beside) else beside[0]
        return _symptom_yields(report, cause, library, context)
    peer = _peer_stopped_first(report, causes, library)
    if peer is not None:
        return _peer_went_away(report, peer, library, context)
    stopped = _stopped_by_source(report, causes, library)
    if stopped is not None:
        return _crash_died_of(report, stopped, library, by_source=True)
    before = [t for t in causes if t.position == "before-root"]
    died_of = _what_the_crash_died_of(report, before, causes, library)
    if died_of is not None:
        return _crash_died_of(report, died_of, library)
    report = _with_error_just_before(report, causes, library)
    if not before:
        return report
    worst = max(before, key=lambda t: t.severity.rank)
    earliest = min(before, key=lambda t: _time_key(t.first))
    score = confidence.unexplained_before_root(
        confidence.of(report.verdict), worst.severity is Severity.CRITICAL, earliest.first.where
    )
    verdict = confidence.applied(report.verdict, score)
    note = (
        f"{len(before)} kind(s) of error no pattern explains come before this verdict's root; "
        f"the earliest: {quote(earliest)}"
    )
    return _noted(replace(report, verdict=verdict), note)


# The analyzer whose verdicts are a process dying: when it names no cause (no exception, no native
# frame), an error logged before the death by the same servers is the likeliest cause.
CRASH_ANALYZER = "crash-phase"
CRASH_CAUSE_FACTS = ("exception", "crashed_in")


def _what_the_crash_died_of(
    report: Report, before: list[UnexplainedError], causes: list[UnexplainedError], library: Library
) -> UnexplainedError | None:
    """The unexplained error a crash verdict that names no cause of its own most likely died of:
    the earliest one before it from the crashed servers' own logs, or logged above the crash line in
    the same moment (a worker's exception, then the engine's `Got fatal signal from worker processes`
    in the same second: `_above_the_first_symptom`); with no times to place them, one just above the
    crash line in its file (UCX failing a device command, then SIGSEGV)."""
    if not library.has_verdict(report.verdict.id) or library.verdict(report.verdict.id).analyzer != CRASH_ANALYZER:
        return None
    if any(name in CRASH_CAUSE_FACTS for name, _ in report.verdict.facts):
        return None
    crashed = {root.source for root in report.roots}
    # In the same moment only an exception or a line that states its cause counts (an advice line
    # printed with it says nothing of the cause; NCCL's `Cuda failure 'operation not supported'` above a
    # worker's `WorkerProc failed to start.` does), no wrapper (`WorkerProc initialization failed ...
    # See stack trace for root cause`), and not the crash's own error said again (`RuntimeError: CUDA
    # error: peer access ...` above vLLM's `ERROR engine.run_mp_engine: CUDA error: peer access ...`).
    same_moment = [
        t
        for t in causes
        if t.position == "before-first-symptom"
        and (t.cause or _RAISED.match(message_of(t.first.text).strip()))
        and not t.wrapper
        and not _said_again(t, report.roots)
    ]
    own = [t for t in (*before, *same_moment) if set(t.files) & crashed and set(t.roles) & CAUSE_ROLES]
    if own:
        return min(own, key=lambda t: _time_key(t.first))
    above = [t for t in causes if report.roots and _just_above(t.first, report.roots[0])]
    return max(above, key=lambda t: t.first.line) if above else None


JUST_BEFORE_LINES = 3  # rows above a crash's line where its process's last words stand


def _with_error_just_before(report: Report, causes: list[UnexplainedError], library: Library) -> Report:
    """A crash that names its own exception (`terminate called after throwing an instance of
    'std::out_of_range'`) keeps it, and its summary quotes the error line its process logged in the
    same moment just above it, which often says in words what the exception does not (MindIE's
    `[ERROR] [executor.cpp:646] Invalid DP number per node: 0` above it: gpustack/gpustack#3551). The
    verdict and its confidence stay: the line is shown, not weighed."""
    if not report.roots or not library.has_verdict(report.verdict.id):
        return report
    if library.verdict(report.verdict.id).analyzer != CRASH_ANALYZER:
        return report
    root = report.roots[0]
    above = [
        t
        for t in causes
        if t.first.source == root.source
        and 0 < root.line - t.first.line <= JUST_BEFORE_LINES
        and t.severity.rank >= Severity.ERROR.rank
        and not t.wrapper
        and (t.first.time is None or root.time is None or abs(root.time - t.first.time) <= SAME_MOMENT_S)
    ]
    if not above:
        return report
    said = max(above, key=lambda t: t.first.line)
    summary = f"{report.verdict.summary} Just above it, in the same moment, its process logged: {ended(quote(said))}"
    return replace(report, verdict=replace(report.verdict, summary=summary))


def _said_again(template: UnexplainedError, roots: Sequence[Event]) -> bool:
    """The template's first line states what a root line states: its message (an exception's, its
    class aside) is in a root's text."""
    said = message_of(template.first.text).strip()
    raised = said.partition(": ")[2].strip() if _RAISED.match(said) else said
    return _restated(raised, (root.text for root in roots))


def _stopped_by_source(report: Report, causes: list[UnexplainedError], library: Library) -> UnexplainedError | None:
    """For a crash verdict: a line that is an error by its source (a GPU driver's Xid, a GPU off the
    bus, the kernel's OOM killer) logged in the moment of the crash, from its first sign a few seconds
    before (PCIe AER, then the Xid) to a second after: what stopped the process, whatever exception
    the process then raised (`CUDA error: unspecified launch failure` is the GPU gone, not a cause)."""
    if library.errors is None or not library.has_verdict(report.verdict.id):
        return None
    if library.verdict(report.verdict.id).analyzer != CRASH_ANALYZER:
        return None
    root_time = _first_time(report.roots)
    if root_time is None:
        return None
    stopping = library.errors.by_source() - library.errors.effects()
    near = [
        t
        for t in causes
        if t.marker in stopping
        and t.first.time is not None
        and root_time - SOURCE_LEAD_S <= t.first.time <= root_time + SAME_MOMENT_S
    ]
    return min(near, key=lambda t: _time_key(t.first)) if near else None


# How long before a server's first transport error its peer may have been stopped and still be why:
# a link's retries and a transfer's wait run tens of seconds before either side reports.
PEER_STOP_LEAD_S = 60.0


def _peer_stopped_first(report: Report, causes: list[UnexplainedError], library: Library) -> UnexplainedError | None:
    """For a verdict that is what a peer going away looks like (`peer_side`: a failed link, a timed-out
    transfer, a collective a rank never joined): a line saying a server was stopped from outside
    (sources.toml's `stops`: systemd's unit killed, a container OOM-killed or evicted, a job
    cancelled) in another server's log, from PEER_STOP_LEAD_S before the verdict's first root line to
    the same moment. That stop is the failure; the verdict's lines are its peer losing it."""
    if library.errors is None or not library.has_verdict(report.verdict.id):
        return None
    if not library.verdict(report.verdict.id).peer_side:
        return None
    root_time = _first_time(report.roots)
    if root_time is None:
        return None
    rooted = {root.source for root in report.roots}
    stops = library.errors.stopping_processes()
    near = [
        t
        for t in causes
        if t.marker in stops
        and set(t.roles) & CAUSE_ROLES
        and not set(t.files) & rooted
        and t.first.time is not None
        and root_time - PEER_STOP_LEAD_S <= t.first.time <= root_time + SAME_MOMENT_S
    ]
    return min(near, key=lambda t: _time_key(t.first)) if near else None


def _killed_from_outside(report: Report, causes: list[UnexplainedError], library: Library) -> UnexplainedError | None:
    """For a crash verdict whose process died by a signal sent from outside (SENT_SIGNALS): a line
    saying a process was stopped from outside (sources.toml's `stops`: a container's non-zero exit,
    an OOM kill, an eviction, a cancelled job) from PEER_STOP_LEAD_S before the death to KILL_GRACE_S
    after it, or with no time of its own to place it (`kubectl describe`'s block): the stop is what
    the lines show; why it came, they do not."""
    if library.errors is None or not library.has_verdict(report.verdict.id):
        return None
    if library.verdict(report.verdict.id).analyzer != CRASH_ANALYZER:
        return None
    if dict(report.verdict.facts).get("exit_code") not in SENT_SIGNALS:
        return None
    root_time = _first_time(report.roots)
    stops = library.errors.stopping_processes()
    near = [
        t
        for t in causes
        if t.marker in stops
        and (
            root_time is None
            or t.first.time is None
            or t.first.time_inferred
            or root_time - PEER_STOP_LEAD_S <= t.first.time <= root_time + KILL_GRACE_S
        )
    ]
    return min(near, key=lambda t: _time_key(t.first)) if near else None


def _ended_from_outside(report: Report, stop: UnexplainedError, library: Library, context: Sequence[Event]) -> Report:
    """Inconclusive, led by the stop: the process was sent the signal it died of."""
    old = report.verdict
    root = report.roots[0].where if report.roots else "its first line"
    code = dict(old.facts).get("exit_code")
    summary = (
        f"A process was stopped from outside: {ended(quote(stop))} The server's own death ({old.id}, at {root}: "
        f"exit code {code}, a signal another process sends) is that stop, not a crash of its own. The server's "
        "lines do not say why the stop came."
    )
    why = f"its process died by a signal sent from outside, and {stop.first.where} records the stop"
    needed = f"who stopped the process at {stop.first.where}: the orchestrator's events or the host's kernel log"
    yielded = Yielding(
        summary, why, needed, f"the process was stopped from outside ({stop.first.where})", _who_stopped(stop)
    )
    return _yield_to(report, stop, yielded, (), library, context)


def _who_stopped(stop: UnexplainedError) -> str:
    """Where to find who stopped a server from outside (a peer's, or the crashed process's own)."""
    return (
        f"Find who stopped the server at {stop.first.where}: its host's kernel log (`dmesg -T`, `journalctl -k`) for "
        "the OOM killer, the orchestrator's events (`kubectl describe pod`, `kubectl get events`) for an eviction or "
        "a failed probe, the job scheduler's accounting (`sacct`) for a cancel; then read the server's own last lines."
    )


def _peer_went_away(report: Report, stop: UnexplainedError, library: Library, context: Sequence[Event] = ()) -> Report:
    """Inconclusive, led by the stopped server: what the verdict named is its peers losing it, and
    what stopped it is not in these logs (a kernel's or an orchestrator's record would say)."""
    old = report.verdict
    root = report.roots[0].where if report.roots else "its first line"
    title = old.title if old.title[1:2].isupper() else old.title[:1].lower() + old.title[1:]
    summary = (
        f"A server was stopped from outside: {ended(quote(stop))} Its peers lost it then: what looks like "
        f"{title} ({old.id}, from {root}) follows it, the other side of the same failure. These lines do not "
        "say why it was stopped."
    )
    why = f"it begins as its peer is stopped from outside ({stop.first.where}): the consequence, not the cause"
    needed = f"who stopped the server at {stop.first.where}: its host's kernel log (dmesg) or the orchestrator's events"
    yielded = Yielding(summary, why, needed, f"a peer was stopped first ({stop.first.where})", _who_stopped(stop))
    return _yield_to(report, stop, yielded, (), library, context)


def _wrapped_exception(report: Report, library: Library) -> bool:
    """The crash's exception is a generic wrapper (`NCCL error: unhandled system error`), not a cause."""
    exception = dict(report.verdict.facts).get("exception")
    return library.errors is not None and isinstance(exception, str) and library.errors.wraps(exception)


def _cause_of_wrapper(report: Report, ranked: list[UnexplainedError], library: Library) -> UnexplainedError | None:
    """For a crash whose exception is a generic wrapper: the earliest line that states a cause (at any
    level: NCCL states its causes as NCCL WARN), in the crashed process's file near its crash line
    (before it, or in the traceback below it), within the crash's window."""
    if not library.has_verdict(report.verdict.id) or library.verdict(report.verdict.id).analyzer != CRASH_ANALYZER:
        return None
    if not _wrapped_exception(report, library):
        return None
    near = [t for t in ranked if t.cause and any(_near(t.first, root) for root in report.roots)]
    if not near:
        # A wrapper that points at the stack above it (vLLM's `WorkerProc initialization failed due
        # to an exception in a background process. See stack trace for root cause.`): the exception a
        # worker raised just before it, in the same file, is that root cause, stated or not
        # (`torch.distributed.DistStoreError: Timed out after 601 seconds waiting for clients. 4/8
        # clients joined.`: ai-dynamo/dynamo#14735's prefill leader).
        near = [t for t in ranked if _raised_beside(t, report.roots, library)]
    return min(near, key=lambda t: _time_key(t.first)) if near else None


def _raised_beside(template: UnexplainedError, roots: Sequence[Event], library: Library) -> bool:
    """The template's first line is an exception line (or a C assertion that aborted its process: the
    native form of one), no wrapper itself, logged before a crash line of its file and near it."""
    text = message_of(template.first.text).strip()
    raised = _RAISED.match(text) or _ASSERTED.search(text)
    if not raised or (library.errors is not None and library.errors.wraps(text)):
        return False
    return any(_near(template.first, root) and template.first.line < root.line for root in roots)


def _crash_died_of(report: Report, cause: UnexplainedError, library: Library, by_source: bool = False) -> Report:
    """The crash's summary and fix name the error it died of, and its confidence says that no
    pattern of the library knows that error (`by_source`: a driver's or the kernel's line of the
    same moment, not the server's own)."""
    old = report.verdict
    after = (
        bool(report.roots) and cause.first.source == report.roots[0].source and cause.first.line > report.roots[0].line
    )
    where = "In its traceback" if after else "Before it"
    if by_source:  # what stopped the process comes first, then the crash it caused
        summary = (
            "In the moment of the crash, a kernel, driver or orchestrator line reports an error no pattern names, "
            f"the likeliest reason it died: {ended(quote(cause))} {old.summary}"
        )
    else:
        summary = (
            f"{old.summary} {where}, the same server logged an error no pattern names, the likeliest reason "
            f"it died: {ended(quote(cause))}"
        )
    score = confidence.outside_catalogue(confidence.of(old), cause.first.where)
    advice = (
        f"Fix what the error at {cause.first.where} says (no pattern of the library names it); "
        "the scheduler's death follows from it."
    )
    missing = (*report.missing, f"no pattern explains the error at {cause.first.where}")
    verdict = confidence.applied(replace(old, summary=summary), score)
    changed = replace(report, verdict=verdict, advice=advice, missing=tuple(dict.fromkeys(missing)))
    if not by_source and (_reports_a_death(report, library) or _announces_its_traceback(cause, report, library)):
        # A crash line that only reports a death (TGI's `Shard 0 failed to start`, vLLM's `EngineCore
        # failed to start.`), no signal or exception of its own: the error before it may name its
        # cause in a family's words (a port in use), and that cause leads, the crash beside it. So
        # may the message a record printed over its traceback, when the paste stops before the
        # traceback's last line (the exception's own words are then only there).
        named = _crash_cause_named_by_words(changed, cause.first.text, "the words of the error before it", library, ())
        if named is not None:
            return named
    return _with_limit_fix(changed, cause, library)


def _just_above(event: Event, root: Event) -> bool:
    """Logged by the same process just before its crash line: no time needed to tell the order."""
    if event.source != root.source or not 0 < root.line - event.line <= TRIGGER_LINES:
        return False
    return event.time is None or root.time is None or abs(root.time - event.time) <= SAME_MOMENT_S


def _ends_a_unit_test(template: UnexplainedError, tests: Sequence[Event]) -> bool:
    """The template's first line is the exception line of a traceback through a test runner's call
    of a test method (above it in its file, within a traceback's reach): the exception the test
    raised. An AssertionError is a check's outcome (a gate), not a cause: it stays the harness's."""
    text = message_of(template.first.text).strip()
    if not _EXCEPTION_LINE.match(text) or text.startswith("AssertionError"):
        return False
    first = template.first
    return any(t.source == first.source and 0 < first.line - t.line <= EXPLAINED_LINES for t in tests)


def _exception_of_a_paste(template: UnexplainedError) -> bool:
    """An exception line (the end of a traceback: a process died of it) in a stream whose lines no
    role claims (a pasted excerpt of several components): a server's death as likely as not, and a
    symptom beside it yields to it as it would to the server's own log."""
    mixed = {Role.MIXED, Role.UNKNOWN}
    return (
        bool(template.roles)
        and set(template.roles) <= mixed
        and bool(_RAISED.match(message_of(template.first.text).strip()))
    )


def _from_the_host(template: UnexplainedError, library: Library) -> bool:
    """A line of a host's own log (its kernel's: a file system that stopped answering, a task hung on
    it, a GPU gone): what it says happened to a server's processes, though no server wrote it."""
    return library.formats.host_line(template.first.text)


def _wait_began(roots: Sequence[Event]) -> float | None:
    """When the wait the symptom's lines report began (a router's `Timeout 600s waiting for workers`,
    a collective's `timeout_ms`: incidents.wait_began); None when no root states its wait."""
    began = [b for e in roots if (b := wait_began(e, ("timeout_s", "timeout_ms"))) is not None]
    return min(began) if began else None


def _last_wait_began(context: Sequence[Event], root_time: float | None, library: Library) -> float | None:
    """When the last wait logged before the symptom began (a line marked `waiting`: a harness polling
    for a server, a router for its workers): the symptom is how that wait ended, so what went wrong
    while it went on (a server's host stuck on its file system) is beside it, however long it took."""
    if root_time is None:
        return None
    waiting = library.marked(Mark.WAITING)
    began = [e.time for e in context if e.pattern in waiting and e.time is not None and e.time <= root_time]
    return max(began) if began else None


def _during_wait(first: Event, waited_since: float | None, root_time: float | None) -> bool:
    """Logged while the symptom's wait went on, or beside its start: a server that crashed as the
    router began to wait for it (or while it waited) is why the wait gave up, however long before
    the line that says it gave up."""
    if first.time is None or waited_since is None or root_time is None:
        return False
    return waited_since - BESIDE_SYMPTOM_BEFORE_S <= first.time <= root_time + SAME_MOMENT_S


def _beside(first: Event, root_time: float | None) -> bool:
    """Near the symptom in time; a line without a time cannot be ruled out."""
    if first.time is None or root_time is None:
        return True
    return -BESIDE_SYMPTOM_BEFORE_S <= first.time - root_time <= BESIDE_SYMPTOM_AFTER_S


def _aftermath(template: UnexplainedError, roots: Sequence[Event]) -> bool:
    """Logged below the symptom by the same process, in words that state no cause: what the process
    did about the symptom (Mooncake marks the session of a transfer that timed out `failed`), not a
    likelier cause of it. An exception is no such line: it ends a traceback of its own (a unit
    test's, printed after another test's noise)."""
    first = template.first
    if template.cause or template.marker == PYTHON_EXCEPTION:
        return False
    return any(r.source == first.source and r.line < first.line for r in roots)


def _symptom_yields(report: Report, cause: UnexplainedError, library: Library, context: Sequence[Event] = ()) -> Report:
    """A symptom's own wording guesses a cause; an error line beside it is better evidence."""
    old = report.verdict
    root = _stated_root(report.roots).where if report.roots else "its first line"
    summary = (
        f"{_lead_words(cause)}: {ended(quote(cause))} It is logged beside the symptom "
        f"{old.id} ({old.title}, {root}), whose wording only guesses a cause."
    )
    why = f"a symptom; the error at {cause.first.where}, which no pattern names, is beside it and is likelier the cause"
    needed = f"no pattern explains the error at {cause.first.where}"
    yielded = Yielding(summary, why, needed, f"the symptom yields to the error at {cause.first.where}")
    return _yield_to(report, cause, yielded, _yielded_too(report, library), library, context)


def _stated_root(roots: Sequence[Event]) -> Event:
    """The symptom's line to quote: its first, unless a warning that sums the symptom up (sglang's
    once-per-process `Some requests fail to receive KV Cache transfer done signal ...`) comes first
    and an error line of the same moment states it for a request (`Request N timed out after 300.0s
    in KVPoll.WaitingForInput`): that one says what happened."""
    first = roots[0]
    if first.severity is Severity.ERROR or first.time is None:
        return first
    at = first.time
    stated = [r for r in roots if r.severity is Severity.ERROR and r.time is not None and r.time - at <= SAME_MOMENT_S]
    return stated[0] if stated else first


@record
class Yielding:
    """How a verdict gives way to a line no pattern names: the new summary, why the old verdict lost,
    the evidence still needed, why the report is inconclusive, and its advice when the lead's own
    words name no fix (empty: the inconclusive verdict's)."""

    summary: str
    why_not: str
    needed: str
    why: str
    advice: str = ""


def _yield_to(
    report: Report,
    lead: UnexplainedError,
    yielding: Yielding,
    others: tuple[Alternative, ...],
    library: Library,
    context: Sequence[Event],
) -> Report:
    """The report inconclusive and led by `lead`, the old verdict its first alternative (`others`:
    the alternatives as they stand after it, the report's own when empty); a verdict the lead's
    words name (families.toml) or the limit it states (causes.toml) still takes over."""
    old = report.verdict
    lost = Alternative(old.id, min(old.confidence, confidence.YIELDED), yielding.why_not)
    alternatives = (lost, *(others or report.alternatives))
    missing = tuple(dict.fromkeys((yielding.needed, *report.missing)))
    changed = replace(report, alternatives=alternatives, suggestions=(), missing=missing)
    yielded = as_inconclusive(changed, yielding.summary, library, yielding.why)
    named = _named_by_words(yielded, lead, [lead], library, context)
    if named is not None:
        return named
    if yielding.advice and not lead.cause:
        return replace(yielded, advice=yielding.advice)
    return _with_limit_fix(yielded, lead, library, context)


def _yielded_too(report: Report, library: Library) -> tuple[Alternative, ...]:
    """The alternatives of a symptom that yielded: another symptom (a timeout, a lost peer) is the
    same failure seen from elsewhere, as far from a cause as the one that yielded."""
    return tuple(
        replace(a, confidence=min(a.confidence, confidence.YIELDED))
        if library.has_verdict(a.id) and library.verdict(a.id).tier is Tier.SYMPTOM
        else a
        for a in report.alternatives
    )


def _noted(report: Report, note: str) -> Report:
    return replace(report, notes=(*report.notes, note))
