"""Scheduler crashes: what died, of what, where (the native frame it crashed in), when (before
or after serving, before or after KV pool sizing), and what the exit code's signal means.

The phase is told from evidence only: a request served or a ready line before the crash; the
frames of its stack (frames.toml: the outermost frame a rule names); a line that says so
itself; and, only when the log shows the server's start, the absence of a ready line. When none
of these is in the lines, the verdict says the phase is unknown and keeps both readings open.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import NamedTuple, TypeVar

from ...library.frames import EITHER, Culprit, Frame, OwnCode, PhaseEvidence, short_name
from ...library.patterns import CXX_WHAT, match_line
from ...model import SERVING_BEFORE_CRASH, Event, FieldValue, Mark
from ...model.lazyre import lazy_re
from ...model.signals import KILL_GRACE_S, SENT_SIGNALS, STOP_LEAD_S
from ...model.textcut import clip
from ...model.values import record
from ...model.verdicts import CI_CANCELLED, HOST_OOM, SCHEDULER_CRASH, SCHEDULER_INIT_CRASH, SCHEDULER_RUNTIME_CRASH
from ...scan.traceback import CHAIN_CAUSE, stack_of
from .. import confidence
from ..hypothesis import Evidence, Hypothesis

INIT, RUNTIME = SCHEDULER_INIT_CRASH, SCHEDULER_RUNTIME_CRASH
UNKNOWN_PHASE = SCHEDULER_CRASH  # a crash whose phase the lines cannot tell
Found = TypeVar("Found")
SIGNALS = {
    -3: "SIGQUIT: sent by sglang to its children after another child failed; the first failure is the cause",
    -6: "SIGABRT: the process aborted (a failed assertion, or a native library calling abort())",
    -9: "SIGKILL: usually the kernel OOM killer (check `dmesg -T | grep -i oom`)",
    -11: "SIGSEGV: a native crash (driver, kernel library or extension)",
    -15: "SIGTERM: the process was told to stop (launcher, job timeout or cancellation)",
    1: "exit 1: a Python exception ended the process",
}
SIGKILL = -9
SIGNAL_NAMES = {
    "SIGSEGV": "a segmentation fault",
    "SIGABRT": "an abort",
    "SIGBUS": "a bus error",
    "SIGILL": "an illegal instruction",
    "SIGFPE": "an arithmetic fault",
}
SIGABRT = -6
SIGNAL_NAME = lazy_re(r"SIG[A-Z0-9]+")
# Native libraries known to abort() a scheduler, by their pattern group: named in SIGABRT's meaning
# only when their own lines are in the logs (a run that never reached MORI is not pointed at it).
ABORTING_LIBRARIES = {"mori": "MORI", "mooncake": "Mooncake", "nixl": "NIXL/UCX"}
# An exception's last error is looked up in the lines above it by this many of its first characters.
MIN_LAST_ERROR = 20
# A crash whose cause is a library line no verdict names is not stated with more confidence than this.
OUTSIDE_CATALOGUE_CONFIDENCE = confidence.OUTSIDE_CATALOGUE
# Crashed in the serving loop, but no line says the server had finished its warmup: the
# crash could be in the warmup request, so runtime is the better reading, not a certain one.
LOOP_ONLY_CONFIDENCE = 0.45
# The lines show a crash but not its phase: both readings stay open, neither is stated.
UNKNOWN_PHASE_CONFIDENCE = 0.35
# A phase the evidence leaves open, listed under the reading it favours (the serving loop's
# runtime, or the phase-unknown verdict): that far below it, not beside it (diagnose keeps the
# distance through the penalties both share), and never as if ruled out.
OPEN_PHASE_CONFIDENCE = 0.2
# Lines above a crash line read for a symptom the process logged just before it died.
SYMPTOM_LINES = 10
WORK_LINES = 3  # batch lines after the start-up lines: more than the server's own warmup request prints
# Tokens one prefill batch takes past which it is no warmup's: the request a server sends itself before
# it reports ready is a short prompt (sglang's `The capital city of France is`, a few tokens).
WARMUP_TOKENS = 64
CALL_CHARS = 120  # of the source line a cut traceback's innermost frame was running
# The process a crash line's pattern group says died, where it is not sglang's scheduler.
PROCESS_OF_GROUP = {"vllm": "vLLM's engine (its engine core or a model worker)"}
# Where sglang sizes the KV pool: a crash raised here is neither before nor after it.
POOL_SIZING_CODE = ("pool_configurator", "memory_pool_config", "init_memory_pool", "profile_max_num_token", "mr_limit")


@record
class Phase:
    """The phase a crash happened in, and the evidence that says so."""

    verdict: str  # INIT, RUNTIME or UNKNOWN_PHASE
    fact: str  # what decided it, for the facts
    sentence: str  # what the summary adds about it ("" when the facts say enough)
    certain: bool  # served, a start-up frame, the line itself, or the start seen without a ready line


def analyze(hypothesis: Hypothesis, evidence: Evidence) -> list[Hypothesis]:
    named = _what_named_elsewhere(hypothesis.roots, evidence)
    if named is not None:
        return [replace(hypothesis, rejected=named, confidence=0.1)]
    crash = _earliest(list(hypothesis.roots))
    exception = _exception_for(crash, evidence)
    exit_event = _exit_code_for(crash, evidence)
    stop = _stopped_by_its_job(crash, exit_event, evidence)
    if stop is not None:
        why = (
            f"it died by a signal a stop sends (exit code {exit_event.get('exit_code') if exit_event else '?'}) as "
            f"{evidence.said(stop)} stopped its job: the stop, not a crash of its own"
        )
        return [replace(hypothesis, rejected=why, confidence=0.1)]
    launched = _launched_before(crash, evidence)
    served = _served_before(crash, launched, evidence)
    sized = _sizing_before(crash, launched, evidence)
    stacks = _stacks(crash, exception, hypothesis, evidence)
    frame_phase = _first_found(stacks, lambda stack: _phase_told(evidence.library.frames.phase_of(stack)))
    culprit = _first_found(stacks, evidence.library.frames.culprit)
    own = None if culprit is not None else _first_found(stacks, evidence.library.frames.own_code)
    crashed_at = _crash_frame(culprit, own, exception, stacks, evidence)
    phase = _phase(crash, served, launched, frame_phase, evidence)
    sizing_frame = _in_pool_sizing(exception or crash)
    pool_fact, pool_phrase = _pool_phase(sized, launched, phase.verdict == RUNTIME, sizing_frame)
    facts = _facts(exception, exit_event, served, pool_fact, phase, culprit, own, _aborting_libraries(evidence))
    native = _native_cause(crash, evidence)
    uncaught = exception is not None and evidence.library.pattern(exception.pattern).block == CXX_WHAT
    summary = _summary(phase, crash, exception, exit_event, pool_phrase, culprit, own, crashed_at, native, uncaught)
    summary = _named_process(summary, evidence.library.pattern(crash.pattern).group)
    used = tuple(e for e in (exception, exit_event, served, sized) if e is not None and e not in hypothesis.chain)
    used += _crash_frame_line(crashed_at)
    confidence = 0.85 if exception is not None else 0.7
    missing = hypothesis.missing + _missing_kernel_log(exit_event, evidence)
    told = Told(summary, "", used, confidence, missing)
    reported = _last_error_line(exception, evidence)
    if reported is not None:
        # The exception only wraps a library's own failure (torch's 'unhandled system error' around
        # NCCL's): quote the library's line, take its pattern's advice, and say no verdict names it.
        told = _told_by(told, reported, f"{evidence.said(reported)} logged it", hypothesis, evidence)
    unnamed = exception is None or _only_wraps(exception, evidence)
    symptom = _symptom_just_above(crash, hypothesis, evidence) if unnamed and reported is None else None
    if symptom is not None:
        # No exception names the cause (the traceback was cut, or the engine's exception only says a
        # worker failed: vLLM's `WorkerProc initialization failed due to an exception in a background
        # process`): a failure the library knows but cannot explain, logged by the same process just
        # above the crash line, is the likeliest reason.
        told = _told_by(told, symptom, "Just above it, the same process logged", hypothesis, evidence)
    summary, advice, used, confidence, missing = told
    crash_pattern = evidence.library.pattern(crash.pattern)
    if not advice and Mark.IN_SERVING in crash_pattern.marks:
        # A line only the serving loop writes names its own limit (sglang's KV token pool): its fix.
        advice = " ".join(crash_pattern.advice.split())
    chosen = replace(
        hypothesis,
        verdict=phase.verdict,
        facts=facts,
        summary=summary,
        confidence=confidence,
        lines_used=used,
        missing=missing,
        advice=advice,
    )
    return _with_alternatives(chosen, phase, served, frame_phase)


class Told(NamedTuple):
    """What a crash's report says so far: its summary, advice, lines used, confidence, missing evidence."""

    summary: str
    advice: str
    used: tuple[Event, ...]
    confidence: float
    missing: tuple[str, ...]


def _told_by(told: Told, line: Event, words: str, hypothesis: Hypothesis, evidence: Evidence) -> Told:
    """The report with a failure the library knows but no verdict names added as what the crash
    reports: `words` introduce its quoted line, its pattern's advice is the fix, and the confidence
    stays below a named cause's."""
    return Told(
        summary=f"{told.summary} {words}: {clip(line.text.strip(), 300)}.",
        advice=f"{evidence.library.pattern(line.pattern).advice} (from {line.where})",
        used=told.used + ((line,) if line not in hypothesis.chain else ()),
        confidence=min(told.confidence, OUTSIDE_CATALOGUE_CONFIDENCE),
        missing=(*told.missing, f"no verdict of the library names the failure at {line.where}"),
    )


def _named_process(summary: str, group: str) -> str:
    """The summary with the process that died named as its engine calls it (vLLM's engine core)."""
    process = PROCESS_OF_GROUP.get(group)
    return summary.replace("A scheduler died", process + " died", 1) if process else summary


def _last_error_line(exception: Event | None, evidence: Evidence) -> Event | None:
    """The library line (with advice of its own) that logged the error an exception reports as its
    last error: NCCL's WARN behind torch's DistBackendError. Same server, before the exception."""
    last = str(exception.get("exc_last_error") or "") if exception is not None else ""
    if exception is None or len(last) < MIN_LAST_ERROR:
        return None
    said = [
        e
        for e in evidence.events
        if e.source == exception.source
        and e.line < exception.line
        and last[:MIN_LAST_ERROR] in e.text
        and evidence.library.pattern(e.pattern).advice
    ]
    return said[-1] if said else None


def _symptom_just_above(crash: Event, hypothesis: Hypothesis, evidence: Evidence) -> Event | None:
    """The nearest failing line of a symptom the library cannot explain by itself (its pattern has an
    `unexplained` sentence: UCX without its GPU transports) in the SYMPTOM_LINES above the crash line
    of the same file, and not one the library links to the crash either way (the SIGQUIT a dying
    child sends): the order in one file tells, whatever the clocks of two formats in it say."""
    library = evidence.library
    roots = {root.pattern for root in hypothesis.roots}
    linked = {rule.target for pattern in roots for rule in library.pattern(pattern).causes}
    near = [
        e
        for e in evidence.events
        if e.source == crash.source
        and 0 < crash.line - e.line <= SYMPTOM_LINES
        and e.failing
        and e not in hypothesis.chain
        and library.pattern(e.pattern).unexplained
        and e.pattern not in linked
        and not any(rule.target in roots for rule in library.pattern(e.pattern).causes)
    ]
    return max(near, key=lambda e: e.line) if near else None


def _only_wraps(exception: Event, evidence: Evidence) -> bool:
    """The exception only reports that something else failed (open-world/causes.toml's wrappers)."""
    errors = evidence.library.errors
    said = f"{exception.get('exc_type')}: {exception.get('exc_message', '')}"
    return errors is not None and not exception.get("exc_cause") and errors.wraps(said)


def _what_named_elsewhere(roots: tuple[Event, ...], evidence: Evidence) -> str | None:
    """When the crash is only C++ aborts whose what() text another cause's pattern names (the NCCL
    watchdog's timeout, thrown as c10::DistBackendError), that cause is the diagnosis, not its abort."""
    if any(evidence.library.pattern(root.pattern).block != CXX_WHAT for root in roots):
        return None
    for root in roots:
        text = str(root.get("exc_message") or "")
        for pattern in evidence.library.patterns:
            if pattern.verdict is None or Mark.EXCEPTION in pattern.marks:
                continue
            try:
                named = match_line(pattern, text) is not None
            except TimeoutError:
                named = False
            if named:
                return f"the what() text of the exception at {root.where} is a line of {pattern.id} ('{pattern.title}')"
    return None


def _with_alternatives(
    chosen: Hypothesis, phase: Phase, served: Event | None, frame_phase: tuple[Event, PhaseEvidence] | None
) -> list[Hypothesis]:
    """The chosen reading and the other phases: rejected when the evidence rules them out, kept
    open (not rejected, low confidence) when it does not."""
    if phase.verdict == UNKNOWN_PHASE:
        why = "these lines do not show whether the scheduler was starting up or serving"
        open_phase = replace(
            chosen, summary=why, why_not=f"{why}: the phase is unknown", confidence=OPEN_PHASE_CONFIDENCE
        )
        return [
            replace(chosen, confidence=UNKNOWN_PHASE_CONFIDENCE),
            replace(open_phase, verdict=INIT),
            replace(open_phase, verdict=RUNTIME),
        ]
    other = INIT if phase.verdict == RUNTIME else RUNTIME
    if not phase.certain:
        # Not rejected: the other reading stays live, below the one the evidence favours.
        why_not = f"the likelier reading is {phase.verdict}: {phase.fact}; no ready line was given"
        return [
            replace(chosen, confidence=min(chosen.confidence, LOOP_ONLY_CONFIDENCE)),
            replace(
                chosen,
                verdict=other,
                summary=phase.fact + "; no ready line was given",
                why_not=why_not,
                confidence=OPEN_PHASE_CONFIDENCE,
            ),
        ]
    if served is not None:
        why_not = f"the server was serving at {served.where} before the crash"
    elif frame_phase is not None:
        why_not = f"the crash's stack is in {frame_phase[1].why} ({short_name(frame_phase[1].frame.func)})"
    else:
        why_not = phase.fact
    return [chosen, replace(chosen, verdict=other, rejected=why_not, confidence=0.1)]


def _phase(
    crash: Event,
    served: Event | None,
    launched: Event | None,
    frame_phase: tuple[Event, PhaseEvidence] | None,
    evidence: Evidence,
) -> Phase:
    """Which phase the evidence shows, strongest first."""
    if served is not None:
        return Phase(RUNTIME, f"served before the crash ({served.where})", "", True)
    said = _said_by_crash_line(crash, evidence)
    if said is not None:
        return said
    if frame_phase is not None:
        return _phase_from_frames(crash, launched, *frame_phase, evidence)
    did = _served_since_start_up(crash, evidence)
    if did is not None:
        sentence = f"No line shows the server ready, but its start-up lines end and {did}."
        return Phase(RUNTIME, f"past its start-up lines, {did}", sentence, True)
    says = [e for e in evidence.marked(Mark.IN_START_UP) if e.source == crash.source]
    if says:
        return Phase(INIT, f"the line says so ({says[0].where})", "", True)
    serving = _written_while_serving(crash, evidence)
    if serving is not None:
        sentence = f"No line shows the server ready, but only its serving loop writes {serving.where}."
        return Phase(RUNTIME, f"the line says so ({serving.where})", sentence, True)
    if launched is not None:
        fact = f"the server's start is logged ({launched.where}) and no ready line before the crash"
        return Phase(INIT, fact, "", True)
    sized = _sizing_before(crash, launched, evidence)
    if sized is not None:
        # The KV pool is sized while the server starts, before it reports ready: a crash after its
        # sizing line with no ready line or served request between them came before ready.
        fact = f"the server sized its KV pool ({sized.where}) and no ready line or served request follows it"
        return Phase(INIT, fact, "", True)
    sentence = (
        "These lines cannot tell whether it was starting up or serving: they show no ready line, no served"
        " request and not the server's start, and no frame of its stack names a start-up or serving step."
    )
    return Phase(
        UNKNOWN_PHASE, "unknown (no ready line, served request, server start or telling frame)", sentence, False
    )


def _phase_from_frames(
    crash: Event, launched: Event | None, event: Event, found: PhaseEvidence, evidence: Evidence
) -> Phase:
    """The phase when a frame of the crash's stack names a step: a start-up step decides; the serving
    loop's (which the server's own warmup request runs through too) is weighed against the lines
    around the crash, positive evidence before a missing line."""
    where = f"{event.source}:{event.line + found.frame.offset}"
    name = short_name(found.frame.func)
    fact = f"the stack runs through {found.why}: {name} ({where})"
    if found.phase == "init":
        return Phase(INIT, fact, f"The stack runs through {found.why} ({name}).", True)
    warming = _warming_up(crash, evidence)
    if warming is not None:
        fact = f"{fact}, in the server's own warmup request (begun at {warming.where}, no result or ready line after)"
        sentence = (
            f"The stack runs through {found.why} ({name}), in the warmup request the server sends itself "
            f"before it reports ready (begun at {warming.where}; no warmup result or ready line follows)."
        )
        return Phase(INIT, fact, sentence, True)
    not_ready = _still_not_ready(crash, launched, evidence)
    if not_ready is not None:
        fact = f"{fact}, while the server still answered that it was not ready ({not_ready.where})"
        sentence = (
            f"The stack runs through {found.why} ({name}), but the server still answered that it was "
            f"not ready ({not_ready.where}) and no ready line, healthy answer or served request follows: "
            "the loop was running the warmup request the server sends itself before it reports ready."
        )
        return Phase(INIT, fact, sentence, False)  # the warmup read from a missing ready line: not sure
    ready = _engine_ready_before(crash, launched, evidence)
    if ready is not None:
        sentence = (
            f"No server's ready line is shown, but the engine finished its start-up, its warmup included "
            f"({ready.where}), and the stack runs through {found.why} ({name}): it was running requests."
        )
        return Phase(RUNTIME, f"{fact}, after the engine finished its start-up ({ready.where})", sentence, True)
    serving = _written_while_serving(crash, evidence, launched)
    if serving is not None:
        # A line of the same file written only once the server served (the API server's
        # EngineDeadError, vLLM's `EngineCore encountered a fatal error.`) says the loop ran
        # requests: the frames' reading is no longer a guess, and no missing ready line outweighs it.
        sentence = (
            f"No line shows the server ready, but the stack runs through {found.why} ({name}) and only "
            f"a serving server writes {serving.where}."
        )
        return Phase(RUNTIME, f"{fact}; the line says so ({serving.where})", sentence, True)
    if launched is not None and not _worked_before(crash, launched, evidence):
        # The log holds the server's start and no ready line, served request or batch of work before
        # the crash: the loop ran before the server was ready (the loop's own set-up). A node that
        # serves no HTTP (a pipeline's second node) prints no ready line: its batches say it worked.
        fact = f"{fact}, before the server was ready (its start is logged at {launched.where}, no ready line)"
        sentence = (
            f"The stack runs through {found.why} ({name}), but the server's start is logged "
            f"({launched.where}) and no ready line or served request comes before the crash: the loop "
            "crashed before the server was ready, in its set-up, before any batch."
        )
        return Phase(INIT, fact, sentence, False)  # read from a line that is not there: not sure
    warmup_batch = _only_a_warmup_batch(crash, launched, evidence) if launched is not None else None
    if launched is not None and warmup_batch is not None:
        tokens = _tokens_prefilled(warmup_batch)
        fact = (
            f"{fact}, in the only batch since the server's start ({warmup_batch.where}: {tokens} new tokens, "
            "a warmup request's size) and no ready line"
        )
        sentence = (
            f"The stack runs through {found.why} ({name}), but the only work since the server's start "
            f"({launched.where}) is a batch of {tokens} new tokens ({warmup_batch.where}), the size of the "
            "warmup request the server sends itself before it reports ready, and no ready line follows."
        )
        return Phase(INIT, fact, sentence, False)  # read from a batch's size and a missing line: not sure
    sentence = (
        f"No line shows the server ready: the stack runs through {found.why} ({name}),"
        " which runs once requests are served (the server's own warmup request too)."
    )
    return Phase(RUNTIME, fact, sentence, False)


def _served_since_start_up(crash: Event, evidence: Evidence) -> str | None:
    """What the crash's file shows the server doing before the crash and after every line of that
    file that only a starting server writes (`in-start-up`), citing its first such line: a line only
    a serving server writes (`in-serving`: vLLM's engine running requests), or WORK_LINES batch lines
    or more (`metrics`: sglang's `Decode batch`, more than the server's own warmup request prints).
    Whatever start-up line is far above in the file (its `Init torch distributed begin`, hours
    earlier), the server got past it. None when nothing shows it."""
    marks = (Mark.IN_SERVING, Mark.IN_START_UP, Mark.METRICS)
    before = [e for e in evidence.marked(*marks) if e.source == crash.source and _before(e, crash)]
    pattern_marks = {e.pattern: evidence.library.pattern(e.pattern).marks for e in before}
    last_start = max((e.line for e in before if Mark.IN_START_UP in pattern_marks[e.pattern]), default=-1)
    after = sorted((e for e in before if e.line > last_start and not e.failing), key=lambda e: e.line)
    serving = [e for e in after if Mark.IN_SERVING in pattern_marks[e.pattern]]
    if serving:
        return f"it served ({serving[0].where})"
    batches = [e for e in after if Mark.METRICS in pattern_marks[e.pattern]]
    if len(batches) >= WORK_LINES:
        return f"it ran batches ({len(batches)} batch lines from {batches[0].where})"
    long = next((e for e in batches if _tokens_prefilled(e) > WARMUP_TOKENS), None)
    if long is not None:
        return f"it prefilled {_tokens_prefilled(long)} tokens in one batch ({long.where}), no warmup's short prompt"
    return None


def _tokens_prefilled(batch: Event) -> int:
    """The new tokens a batch line says its batch prefilled (sglang's `#new-token`), 0 when it says none."""
    tokens = batch.get("new_tokens")
    return tokens if isinstance(tokens, int) else 0


def _written_while_serving(crash: Event, evidence: Evidence, launched: Event | None = None) -> Event | None:
    """The first line of the crash's file that only a serving server writes (the `in-serving` mark),
    after the server's last start before the crash when that is known (an earlier life's says nothing)."""
    after = launched.line if launched is not None else -1
    return next((e for e in evidence.marked(Mark.IN_SERVING) if e.source == crash.source and e.line > after), None)


def _worked_before(crash: Event, launched: Event, evidence: Evidence) -> bool:
    """A metrics line of a batch (sglang's `Prefill batch`, `Decode batch`) in the crash's file between
    its start and the crash: the loop was doing work, a warmup's or a request's."""
    return any(e.source == crash.source and launched.line < e.line < crash.line for e in evidence.marked(Mark.METRICS))


def _engine_ready_before(crash: Event, launched: Event | None, evidence: Evidence) -> Event | None:
    """The crashed engine's line saying it finished its start-up, warmup included (`engine-ready`),
    in its life before the crash."""
    ready = [e for e in evidence.marked(Mark.ENGINE_READY) if _in_the_life_of(e, crash, launched)]
    return ready[-1] if ready else None


def _only_a_warmup_batch(crash: Event, launched: Event, evidence: Evidence) -> Event | None:
    """The batch line, when the only work the crash's file shows between the server's start and the
    crash is fewer than WORK_LINES prefill batches of at most WARMUP_TOKENS new tokens each: the
    server's own warmup request (sglang sends it once it listens, before its ready line), not a
    client's. None when a batch line says no tokens (a decode batch) or a longer prompt ran."""
    batches = [
        e for e in evidence.marked(Mark.METRICS) if e.source == crash.source and launched.line < e.line < crash.line
    ]
    if not batches or len(batches) >= WORK_LINES:
        return None
    if any(not 0 < _tokens_prefilled(e) <= WARMUP_TOKENS for e in batches):
        return None
    return None if _answered_healthy(crash, launched, evidence) else batches[0]


def _answered_healthy(crash: Event, launched: Event, evidence: Evidence) -> bool:
    """The server answered a health check as ready in the crash's life: its `not ready` answer (503)
    cleared by a healthy one (the pattern's `cleared_by`), or a ready line or warmup result of its own."""
    life = [
        e for e in evidence.marked(Mark.NOT_READY, Mark.SERVER_UP, Mark.WARMUP) if _in_the_life_of(e, crash, launched)
    ]
    return any(not e.failing for e in life)


def _still_not_ready(crash: Event, launched: Event | None, evidence: Evidence) -> Event | None:
    """The crash's server's last answer that it was not ready yet (its health check's 503), in the
    crash's life (after `launched`, when logged), when no ready line, healthy answer or served request
    of its file comes between it and the crash. A healthy answer later in the file clears the 503 (its
    pattern's `cleared_by`): it no longer fails."""
    since = launched.line if launched is not None else -1
    answers = [
        e
        for e in evidence.marked(Mark.NOT_READY)
        if e.failing and e.source == crash.source and since < e.line < crash.line and _before(e, crash)
    ]
    if not answers:
        return None
    last = max(answers, key=lambda e: e.line)
    up = evidence.marked(Mark.SERVER_UP, Mark.WARMUP, Mark.ANSWERED)
    if any(e.source == crash.source and last.line < e.line < crash.line and not e.failing for e in up):
        return None
    return last


def _warming_up(crash: Event, evidence: Evidence) -> Event | None:
    """The line of the crash's file that began the server's own warmup request, when no warmup result
    or ready line comes between it and the crash: the serving loop was running that request."""
    begun = [e for e in evidence.marked(Mark.WARMUP_STARTED) if e.source == crash.source and _before(e, crash)]
    if not begun:
        return None
    start = max(begun, key=lambda e: e.line)
    done = evidence.marked(Mark.SERVER_UP, Mark.WARMUP)
    if any(e.source == crash.source and start.line < e.line < crash.line for e in done):
        return None
    return start


def _said_by_crash_line(crash: Event, evidence: Evidence) -> Phase | None:
    """The phase the crash line itself states (its pattern's marks): a line written only while
    starting (vLLM's `EngineCore failed to start.`) or only once started (`EngineCore encountered a
    fatal error.`, EngineDeadError) outweighs a stack's frames, which only suggest it."""
    marks = evidence.library.pattern(crash.pattern).marks
    if Mark.IN_START_UP in marks:
        return Phase(INIT, f"the line says so ({crash.where})", "", True)
    if Mark.IN_SERVING in marks:
        sentence = f"No line shows the server ready, but {crash.where} is written only once it had started."
        return Phase(RUNTIME, f"the line says so ({crash.where})", sentence, True)
    return None


def _stacks(
    crash: Event, exception: Event | None, hypothesis: Hypothesis, evidence: Evidence
) -> list[tuple[Event, list[Frame]]]:
    """The stacks logged with the crash: its own, its exception's, and those of the other crash
    lines of the same process (a faulthandler dump and a native banner of one segfault)."""
    events = [crash, *([exception] if exception else []), *hypothesis.roots, *hypothesis.chain]
    seen: set[tuple[str, int]] = set()
    stacks: list[tuple[Event, list[Frame]]] = []
    for event in events:
        if event.source != crash.source or (event.source, event.line) in seen:
            continue
        seen.add((event.source, event.line))
        stack = stack_of(event.get)
        if stack:
            stacks.append((event, stack))
    return stacks


def _phase_told(placed: PhaseEvidence | None) -> PhaseEvidence | None:
    """The frames' phase when they tell one: code both phases run (frames.toml's `either`) tells none."""
    return None if placed is None or placed.phase == EITHER else placed


def _first_found(
    stacks: list[tuple[Event, list[Frame]]], read: Callable[[list[Frame]], Found | None]
) -> tuple[Event, Found] | None:
    """What `read` finds in the first stack it finds anything in, with that stack's event."""
    for event, stack in stacks:
        found = read(stack)
        if found is not None:
            return event, found
    return None


def _crash_frame(
    culprit: tuple[Event, Culprit] | None,
    own: tuple[Event, OwnCode] | None,
    exception: Event | None,
    stacks: list[tuple[Event, list[Frame]]],
    evidence: Evidence,
) -> tuple[Event, Frame] | None:
    """The frame the crash happened in: the native culprit's, else (a signal, no exception) the
    innermost named frame of its stack (a Python frame, or a native one of no known component)."""
    if culprit is not None:
        return culprit[0], culprit[1].frame
    if own is not None:
        return own[0], own[1].frame
    if exception is not None or not stacks:
        return None
    innermost = evidence.library.frames.innermost(stacks[0][1])
    return (stacks[0][0], innermost) if innermost is not None else None


def _crash_frame_line(crashed_at: tuple[Event, Frame] | None) -> tuple[Event, ...]:
    """The frame line the crash happened in, shown in the chain under its crash line."""
    if crashed_at is None:
        return ()
    event, frame = crashed_at
    named = (("frame", short_name(frame.func)),)
    return (replace(event, line=event.line + frame.offset, text=frame.text, fields=named, repeats=1),)


def _missing_kernel_log(exit_event: Event | None, evidence: Evidence) -> tuple[str, ...]:
    """A SIGKILL with no kernel line: the OOM killer is the usual suspect, but only the kernel log can say."""
    if exit_event is None or exit_event.get("exit_code") != SIGKILL or evidence.of(*evidence.library.rooting(HOST_OOM)):
        return ()
    return (
        "no kernel log (dmesg) given: exit code -9 is usually the host OOM killer; "
        "add the node's `dmesg -T | grep -i oom` output to confirm",
    )


def _stopped_by_its_job(crash: Event, exit_event: Event | None, evidence: Evidence) -> Event | None:
    """The job scheduler's or CI runner's cancel (a line rooting ci-cancelled) in the moment a server
    died by a signal a stop sends: its death is that stop (a death by SIGSEGV beside it is not)."""
    code = exit_event.get("exit_code") if exit_event is not None else None
    if code not in SENT_SIGNALS or crash.time is None:
        return None
    cancels = evidence.of(*evidence.library.rooting(CI_CANCELLED))
    near = [
        e
        for e in cancels
        if e.failing and e.time is not None and crash.time - STOP_LEAD_S <= e.time <= crash.time + KILL_GRACE_S
    ]
    return min(near, key=lambda e: e.time or 0.0) if near else None


def _earliest(events: list[Event]) -> Event:
    return min(events, key=lambda e: (e.time if e.time is not None else float("inf"), e.line))


def _exception_for(crash: Event, evidence: Evidence) -> Event | None:
    """The earliest exception its server raised, but not a wrapper that points elsewhere for the cause
    (vLLM V1's `EngineDeadError: EngineCore encountered an issue. See stack trace (above) ...`)
    when the crash line says itself what killed the process (a native assertion, a signal)."""
    candidates = [e for e in evidence.marked(Mark.EXCEPTION) if e.get("exc_type")]
    if evidence.says(crash) is not None:
        candidates = [e for e in candidates if not _wraps(e, evidence)]
    if not candidates:
        return None
    nearby = evidence.same_server(crash, candidates)
    return _earliest(nearby)


def _wraps(exception: Event, evidence: Evidence) -> bool:
    errors = evidence.library.errors
    said = f"{exception.get('exc_type')}: {exception.get('exc_message', '')}"
    return errors is not None and errors.wraps(said)


def _exit_code_for(crash: Event, evidence: Evidence) -> Event | None:
    candidates = evidence.carrying("exit_code")
    if not candidates:
        return None
    return _earliest(evidence.same_server(crash, candidates))


def _served_before(crash: Event, launched: Event | None, evidence: Evidence) -> Event | None:
    """The first ready line or answered request of the crashed server's life (since `launched`, its
    last start before the crash)."""
    ready = [e for e in evidence.marked(*SERVING_BEFORE_CRASH) if _in_the_life_of(e, crash, launched)]
    return ready[0] if ready else None


def _sizing_before(crash: Event, launched: Event | None, evidence: Evidence) -> Event | None:
    sized = [e for e in evidence.marked(Mark.KV_POOL_SIZED) if _in_the_life_of(e, crash, launched)]
    return sized[0] if sized else None


def _before(event: Event, crash: Event) -> bool:
    if event.time is not None and crash.time is not None and event.time != crash.time:
        return event.time < crash.time
    return event.line < crash.line


def _launched_before(crash: Event, evidence: Evidence) -> Event | None:
    """The server's last start (its server_args line, or a line only a start-up prints: vLLM's
    `Starting to load model`) in the same log before the crash: a server restarted in one log (a
    supervisor, a pod's restarts appended, docker compose's restart loop) crashed in its latest life."""
    marks = (Mark.SERVER_LAUNCH, Mark.IN_START_UP)
    started = [e for e in evidence.marked(*marks) if e.source == crash.source and _before(e, crash)]
    return max(started, key=lambda e: e.line) if started else None


def _in_the_life_of(event: Event, crash: Event, launched: Event | None) -> bool:
    """`event` is in the crash's log, before it, and after the server's last start before it
    (`launched`): what an earlier life of the server did (its ready line, its answers) says nothing
    of this one."""
    if event.source != crash.source or not _before(event, crash):
        return False
    return launched is None or event.line > launched.line


def _in_pool_sizing(event: Event) -> str | None:
    """The innermost frame, when it is part of sizing the KV pool."""
    where = f"{event.get('frame_file', '')} {event.get('frame_func', '')}"
    return str(event.get("frame_func")) if any(marker in where for marker in POOL_SIZING_CODE) else None


def _pool_phase(
    sized: Event | None, launched: Event | None, running: bool, sizing_frame: str | None
) -> tuple[str, str]:
    """(fact, summary phrase) for where the crash sits relative to KV pool sizing.

    "Before" is only claimed when the log shows the server's start and no sizing line
    between it and the crash; a log excerpt that begins later cannot tell. A crash raised
    in the sizing code itself happened during sizing, whatever was printed before it.
    """
    if sized is not None:
        return f"yes ({sized.where})", "after KV pool sizing"
    if running:
        return "yes (not in these lines)", ""  # a serving server has sized its pool
    if sizing_frame is not None:
        return f"during (raised in {sizing_frame})", "during KV pool sizing"
    if launched is not None:
        return "no", "before KV pool sizing"
    return "unknown (the log does not show the server's start)", "KV pool sizing not seen (the log starts later)"


def _aborting_libraries(evidence: Evidence) -> tuple[str, ...]:
    """The native libraries that could have aborted the process, among those whose lines are logged."""
    groups = {evidence.library.pattern(e.pattern).group for e in evidence.events}
    return tuple(name for group, name in ABORTING_LIBRARIES.items() if group in groups)


def _signal_meaning(code: int, libraries: tuple[str, ...]) -> str:
    meaning = SIGNALS.get(code, "a non-zero exit")
    if code == SIGABRT and libraries:
        meaning = meaning.replace("a native library", f"a native library such as {' or '.join(libraries)}")
    return meaning


def _facts(
    exception: Event | None,
    exit_event: Event | None,
    served: Event | None,
    pool_fact: str,
    phase: Phase,
    culprit: tuple[Event, Culprit] | None,
    own: tuple[Event, OwnCode] | None,
    libraries: tuple[str, ...],
) -> tuple[tuple[str, FieldValue], ...]:
    facts: list[tuple[str, FieldValue]] = []
    if culprit is not None:
        facts.append(
            ("crashed_in", f"{culprit[1].describe()} ({culprit[0].source}:{culprit[0].line + culprit[1].frame.offset})")
        )
    if own is not None:
        facts.append(("own_code_frame", f"{own[1].describe()} ({own[0].source}:{own[0].line + own[1].frame.offset})"))
    if exception is not None:
        facts.append(("exception", f"{exception.get('exc_type')}: {exception.get('exc_message', '')}".strip()))
        if exception.get("exc_cause"):
            facts.append((str(exception.get("exc_cause_link")).replace(" ", "_"), exception.get("exc_cause")))
        if exception.get("exc_last_error"):
            facts.append(("last_error", exception.get("exc_last_error")))
        if exception.get("frame_file"):
            where = f"{exception.get('frame_file')}:{exception.get('frame_line')} in {exception.get('frame_func')}"
            facts.append(("innermost_project_frame", where))
    if exit_event is not None:
        code = int(exit_event.get("exit_code"))
        facts.append(("exit_code", code))
        facts.append(("exit_code_meaning", _signal_meaning(code, libraries)))
    facts.append(("after_server_ready", "yes" if served is not None else "no"))
    facts.append(("after_kv_pool_sizing", pool_fact))
    facts.append(("phase_evidence", phase.fact))
    return tuple(facts)


def _native_cause(crash: Event, evidence: Evidence) -> str | None:
    """What a crash line without a Python exception says killed the process (its pattern's `says`);
    a bare signal name with what the signal means."""
    said = evidence.says(crash)
    if said is not None and SIGNAL_NAME.fullmatch(said):
        return f"{said} ({SIGNAL_NAMES.get(said, 'a fatal signal')})"
    return said


def _exception_said(exception: Event, kind: str) -> str:
    """`of Type: message`; where the exception was raised from another (`raise ... from`: a wrapper
    re-saying a failure in its own words, "Please install mooncake ..."), that first one leads, as
    the cause; one raised while another was handled follows it."""
    last = f"{exception.get('exc_type')}: {exception.get('exc_message', '')}".rstrip(": ")
    cause, link = exception.get("exc_cause"), exception.get("exc_cause_link")
    if not cause:
        return f"of {kind}{last}"
    if link == CHAIN_CAUSE:
        return f"of {kind}{cause}, re-raised as {last}"
    return f"of {kind}{last}, {link} {cause}"


def _summary(
    phase: Phase,
    crash: Event,
    exception: Event | None,
    exit_event: Event | None,
    pool: str,
    culprit: tuple[Event, Culprit] | None,
    own: tuple[Event, OwnCode] | None,
    crashed_at: tuple[Event, Frame] | None,
    native: str | None,
    uncaught: bool,
) -> str:
    when = {RUNTIME: " while serving", INIT: " during initialization", UNKNOWN_PHASE: ""}[phase.verdict]
    parts = [f"A scheduler died{when}" + (f", {pool}" if pool and phase.verdict != UNKNOWN_PHASE else "")]
    if exception is None and native is not None:
        parts.append(f"of {native}")
    python_frame = str(crash.get("frame_file", "")).endswith(".py")
    if exception is None and python_frame:
        path, line, func, call = _innermost_frame(crash)
        parts.append(f"in {path.rsplit('/', 1)[-1]}:{line} {func}()")
        if call:
            parts.append(f"at `{call}` (the lines end before the exception it raised)")
    if culprit is not None:
        parts.append(f"{'crashing ' if python_frame or exception else ''}in {culprit[1].describe()}")
    elif own is not None and exception is None:
        parts.append(f"in {own[1].describe()}")
    elif crashed_at is not None and crashed_at[1].native:
        parts.append(f"in {short_name(crashed_at[1].func)}")
    if exception is not None:
        kind = "an uncaught C++ exception, " if uncaught else ""
        parts.append(_exception_said(exception, kind))
        if exception.get("exc_last_error"):
            parts.append(f"whose last error was: {exception.get('exc_last_error')}")
        if own is not None:
            parts.append(f"raised in {own[1].describe()}")
        if exception.get("frame_file"):
            frame = str(exception.get("frame_file")).rsplit("/", 1)[-1]
            verb = "called from" if own is not None else "raised in"
            parts.append(f"{verb} {frame}:{exception.get('frame_line')} {exception.get('frame_func')}()")
            # An exception with no message (a bare `assert`'s AssertionError) says what failed only in
            # the statement that raised it: its frame's source line.
            call = _call_in_frame(exception) if not exception.get("exc_message") else ""
            if call:
                parts.append(f'at "{call}"')
    if exit_event is not None:
        code = int(exit_event.get("exit_code"))
        meaning = SIGNALS.get(code, "non-zero exit").split(":")[0]
        if code == SIGKILL:
            meaning += ", usually the host OOM killer"
        parts.append(f"exit code {code} ({meaning})")
    return ", ".join(parts) + "." + (f" {phase.sentence}" if phase.sentence else "")


# A frame line of a Python traceback as the crash's stack keeps it.
_FRAME_LINE = lazy_re(r'File "(?P<path>[^"]+)", line (?P<line>\d+), in (?P<func>\S+)')


def _innermost_frame(crash: Event) -> tuple[str, FieldValue, FieldValue, str]:
    """The frame a traceback cut before its exception stopped in, with the source line it was
    running: the last of the crash's stack when that stack is a traceback read down from the crash
    line (outermost first; the wrapper a crash line names, `init_worker`, is the way in, not where
    it failed), else the crash line's own frame."""
    stack, calls = str(crash.get("stack", "")).split("\n"), str(crash.get("stack_calls", "")).split("\n")
    first, last = _FRAME_LINE.search(stack[0]), _FRAME_LINE.search(stack[-1])
    if len(stack) > 1 and len(calls) == len(stack) and first and last and first["path"] == crash.get("frame_file"):
        return last["path"], last["line"], last["func"], clip(calls[-1].strip(), CALL_CHARS)
    return str(crash.get("frame_file")), crash.get("frame_line"), crash.get("frame_func"), _call_in_frame(crash)


def _call_in_frame(crash: Event) -> str:
    """The source line the crash's innermost project frame was running (`self.remote_socket.bind(
    socket_addr)`), read from its stack: where a traceback cut before its exception stopped."""
    stack, calls = str(crash.get("stack", "")).split("\n"), str(crash.get("stack_calls", "")).split("\n")
    where = f"line {crash.get('frame_line')}, in {crash.get('frame_func')}"
    for frame, call in zip(stack, calls, strict=False):
        if frame.endswith(where) and str(crash.get("frame_file")) in frame:
            return clip(call.strip(), CALL_CHARS)
    return ""
