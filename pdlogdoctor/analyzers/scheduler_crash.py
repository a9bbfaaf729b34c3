"""Scheduler crashes: what died, of what, when (before or after serving, before or
after KV pool sizing), and what the exit code's signal means."""

from __future__ import annotations

from dataclasses import replace

from ..hypothesis import Evidence, Hypothesis
from ..model import Event, FieldValue, Mark

INIT = "scheduler-init-crash"
RUNTIME = "scheduler-runtime-crash"
SIGNALS = {
    -3: "SIGQUIT: sent by sglang to its children after another child failed; the first failure is the cause",
    -6: "SIGABRT: the process aborted (a failed assertion, or a native library such as MORI calling abort())",
    -9: "SIGKILL: usually the kernel OOM killer (check `dmesg -T | grep -i oom`)",
    -11: "SIGSEGV: a native crash (driver, kernel library or extension)",
    -15: "SIGTERM: the process was told to stop (launcher, job timeout or cancellation)",
    1: "exit 1: a Python exception ended the process",
}
SIGKILL = -9
HOST_OOM = "host-oom"  # the verdict whose lines are the kernel's OOM kills
# Serving before a crash: the ready line, or a request the server answered.
SERVED = (Mark.SERVER_UP, Mark.ANSWERED)
# Crashed in the serving loop, but no line says the server had finished its warmup: the
# crash could be in the warmup request, so runtime is the better reading, not a certain one.
LOOP_ONLY_CONFIDENCE = 0.55
# Where sglang sizes the KV pool: a crash raised here is neither before nor after it.
POOL_SIZING_CODE = ("pool_configurator", "memory_pool_config", "init_memory_pool", "profile_max_num_token", "mr_limit")


def analyze(hypothesis: Hypothesis, evidence: Evidence) -> list[Hypothesis]:
    crash = _earliest(list(hypothesis.roots))
    exception = _exception_for(crash, evidence)
    exit_event = _exit_code_for(crash, evidence)
    served = _served_before(crash, evidence)
    sized = _sizing_before(crash, evidence)
    loop = _serving_frame(crash, exception) if served is None else None
    verdict = RUNTIME if served is not None or loop is not None else INIT
    sizing_frame = _in_pool_sizing(exception or crash)
    pool_fact, pool_phrase = _pool_phase(sized, _launched_before(crash, evidence), verdict == RUNTIME, sizing_frame)
    facts = _facts(exception, exit_event, served, pool_fact)
    summary = _summary(verdict, crash, exception, exit_event, pool_phrase)
    if loop is not None:
        summary += (
            f" No line shows the server ready: the stack runs through the serving loop ({loop}()),"
            " which also serves the warmup request."
        )
    used = tuple(e for e in (exception, exit_event, served, sized) if e is not None and e not in hypothesis.chain)
    confidence = 0.85 if exception is not None else 0.7
    missing = hypothesis.missing + _missing_kernel_log(exit_event, evidence)
    chosen = replace(
        hypothesis,
        verdict=verdict,
        facts=facts,
        summary=summary,
        confidence=confidence,
        lines_used=used,
        missing=missing,
    )
    other = INIT if verdict == RUNTIME else RUNTIME
    if loop is not None:
        # Not rejected: the other reading stays live, and neither is stated with confidence.
        why = (
            f"the crash is in the serving loop ({loop}()), which also serves the warmup request;"
            " no ready line was given"
        )
        return [
            replace(chosen, confidence=min(confidence, LOOP_ONLY_CONFIDENCE)),
            replace(chosen, verdict=other, summary=why, confidence=0.3),
        ]
    why_not = (
        f"the server was serving at {served.where} before the crash"
        if verdict == RUNTIME and served is not None
        else "the server never reported ready before the crash"
    )
    return [chosen, replace(chosen, verdict=other, rejected=why_not, confidence=0.1)]


def _serving_frame(crash: Event, exception: Event | None) -> str | None:
    """The serving-loop function the crash's stack runs through, if its stack was logged."""
    for event in (crash, exception):
        if event is not None and event.get("serving_frame"):
            return str(event.get("serving_frame"))
    return None


def _missing_kernel_log(exit_event: Event | None, evidence: Evidence) -> tuple[str, ...]:
    """A SIGKILL with no kernel line: the OOM killer is the usual suspect, but only the kernel log can say."""
    if exit_event is None or exit_event.get("exit_code") != SIGKILL or evidence.of(*evidence.library.rooting(HOST_OOM)):
        return ()
    return (
        "no kernel log (dmesg) given: exit code -9 is usually the host OOM killer; "
        "add the node's `dmesg -T | grep -i oom` output to confirm",
    )


def _earliest(events: list[Event]) -> Event:
    return min(events, key=lambda e: (e.time if e.time is not None else float("inf"), e.line))


def _exception_for(crash: Event, evidence: Evidence) -> Event | None:
    candidates = [e for e in evidence.of("scheduler-exception") if e.get("exc_type")]
    if not candidates:
        return None
    nearby = evidence.same_server(crash, candidates)
    return _earliest(nearby)


def _exit_code_for(crash: Event, evidence: Evidence) -> Event | None:
    candidates = evidence.carrying("exit_code")
    if not candidates:
        return None
    return _earliest(evidence.same_server(crash, candidates))


def _served_before(crash: Event, evidence: Evidence) -> Event | None:
    ready = [e for e in evidence.marked(*SERVED) if e.source == crash.source and _before(e, crash)]
    return ready[0] if ready else None


def _sizing_before(crash: Event, evidence: Evidence) -> Event | None:
    sized = [e for e in evidence.marked(Mark.KV_POOL_SIZED) if e.source == crash.source and _before(e, crash)]
    return sized[0] if sized else None


def _before(event: Event, crash: Event) -> bool:
    if event.time is not None and crash.time is not None and event.time != crash.time:
        return event.time < crash.time
    return event.line < crash.line


def _launched_before(crash: Event, evidence: Evidence) -> Event | None:
    """The server's start (its server_args line) in the same log, before the crash."""
    started = [e for e in evidence.of("server-args") if e.source == crash.source and _before(e, crash)]
    return started[0] if started else None


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


def _facts(
    exception: Event | None, exit_event: Event | None, served: Event | None, pool_fact: str
) -> tuple[tuple[str, FieldValue], ...]:
    facts: list[tuple[str, FieldValue]] = []
    if exception is not None:
        facts.append(("exception", f"{exception.get('exc_type')}: {exception.get('exc_message', '')}".strip()))
        if exception.get("frame_file"):
            where = f"{exception.get('frame_file')}:{exception.get('frame_line')} in {exception.get('frame_func')}"
            facts.append(("innermost_project_frame", where))
    if exit_event is not None:
        code = int(exit_event.get("exit_code"))
        facts.append(("exit_code", code))
        facts.append(("exit_code_meaning", SIGNALS.get(code, "a non-zero exit")))
    facts.append(("after_server_ready", "yes" if served is not None else "no"))
    facts.append(("after_kv_pool_sizing", pool_fact))
    return tuple(facts)


def _native_cause(crash: Event) -> str | None:
    """What a crash line without a Python exception says killed the process."""
    if crash.pattern == "native-segfault":
        return "a segmentation fault" + (f" ({crash.get('detail')})" if crash.get("detail") else "")
    if crash.pattern == "cuda-device-assert":
        return f"a device-side assertion in CUDA kernel {crash.get('kernel')} (`{crash.get('assertion')}`)"
    return None


def _summary(verdict: str, crash: Event, exception: Event | None, exit_event: Event | None, pool: str) -> str:
    when = "while serving" if verdict == RUNTIME else "during initialization"
    parts = [f"A scheduler died {when}" + (f", {pool}" if pool else "")]
    native = _native_cause(crash)
    if exception is None:
        if native is not None:
            parts.append(f"of {native}")
        if crash.get("frame_file"):
            frame = str(crash.get("frame_file")).rsplit("/", 1)[-1]
            parts.append(f"in {frame}:{crash.get('frame_line')} {crash.get('frame_func')}()")
    if exception is not None:
        parts.append(f"of {exception.get('exc_type')}: {exception.get('exc_message', '')}".rstrip(": "))
        if exception.get("frame_file"):
            frame = str(exception.get("frame_file")).rsplit("/", 1)[-1]
            parts.append(f"raised in {frame}:{exception.get('frame_line')} {exception.get('frame_func')}()")
    if exit_event is not None:
        code = int(exit_event.get("exit_code"))
        meaning = SIGNALS.get(code, "non-zero exit").split(":")[0]
        if code == SIGKILL:
            meaning += ", usually the host OOM killer"
        parts.append(f"exit code {code} ({meaning})")
    return ", ".join(parts) + "."
