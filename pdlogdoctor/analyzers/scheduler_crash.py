"""Scheduler crashes: what died, of what, when (before or after serving, before or
after KV pool sizing), and what the exit code's signal means."""

from __future__ import annotations

from dataclasses import replace

from ..hypothesis import POOL_SIZING_PATTERNS, Evidence, Hypothesis
from ..model import Event, FieldValue

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
CRASH_PATTERNS = ("scheduler-exception", "scheduler-died-init", "scheduler-dead-legacy")
EXIT_CODE_PATTERNS = ("scheduler-died-init", "scheduler-exit-code", "subprocess-crashed")
SIGKILL = -9
KERNEL_OOM_PATTERNS = ("oom-killed-process",)


def analyze(hypothesis: Hypothesis, evidence: Evidence) -> list[Hypothesis]:
    crash = _earliest(list(hypothesis.roots))
    exception = _exception_for(crash, evidence)
    exit_event = _exit_code_for(crash, evidence)
    served = _served_before(crash, evidence)
    sized = _sizing_before(crash, evidence)
    verdict = RUNTIME if served is not None else INIT
    facts = _facts(exception, exit_event, served, sized)
    summary = _summary(verdict, crash, exception, exit_event, sized)
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
    why_not = (
        f"the server reported ready at {served.where} before the crash"
        if verdict == RUNTIME and served is not None
        else "the server never reported ready before the crash"
    )
    return [chosen, replace(chosen, verdict=other, rejected=why_not, confidence=0.1)]


def _missing_kernel_log(exit_event: Event | None, evidence: Evidence) -> tuple[str, ...]:
    """A SIGKILL with no kernel line: the OOM killer is the usual suspect, but only the kernel log can say."""
    if exit_event is None or exit_event.get("exit_code") != SIGKILL or evidence.of(*KERNEL_OOM_PATTERNS):
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
    candidates = [e for e in evidence.of(*EXIT_CODE_PATTERNS) if e.get("exit_code") is not None]
    if not candidates:
        return None
    return _earliest(evidence.same_server(crash, candidates))


def _served_before(crash: Event, evidence: Evidence) -> Event | None:
    ready = [e for e in evidence.of("server-ready") if e.source == crash.source and _before(e, crash)]
    return ready[0] if ready else None


def _sizing_before(crash: Event, evidence: Evidence) -> Event | None:
    sized = [e for e in evidence.of(*POOL_SIZING_PATTERNS) if e.source == crash.source and _before(e, crash)]
    return sized[0] if sized else None


def _before(event: Event, crash: Event) -> bool:
    if event.time is not None and crash.time is not None and event.time != crash.time:
        return event.time < crash.time
    return event.line < crash.line


def _facts(
    exception: Event | None, exit_event: Event | None, served: Event | None, sized: Event | None
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
    facts.append(("after_kv_pool_sizing", f"yes ({sized.where})" if sized is not None else "no"))
    return tuple(facts)


def _summary(verdict: str, crash: Event, exception: Event | None, exit_event: Event | None, sized: Event | None) -> str:
    when = "while serving" if verdict == RUNTIME else "during initialization"
    pool = "after KV pool sizing" if sized is not None else "before KV pool sizing"
    parts = [f"A scheduler died {when}, {pool}"]
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
