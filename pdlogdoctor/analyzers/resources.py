"""Resource exhaustion: GPU memory (torch OOM, a KV pool that does not fit) and host memory
(the kernel OOM killer). Says which server ran out, when (startup or while serving), and
what the allocator or the kernel reported, so the advice can be acted on."""

from __future__ import annotations

from dataclasses import replace

from ..hypothesis import Evidence, Hypothesis
from ..model import Event, FactValue, Mark, Role

SIGKILL = -9
SHARED_STREAMS = (Role.MIXED, Role.CI)  # streams that carry several servers' lines


def gpu_oom(hypothesis: Hypothesis, evidence: Evidence) -> list[Hypothesis]:
    root = hypothesis.first_root
    served = _ready_before(root, evidence)
    when = "while serving" if served is not None else "during startup"
    facts: list[tuple[str, FactValue]] = [("server", _server_name(root)), ("phase", when)]
    if root.pattern == "not-enough-memory":
        fraction = root.get("mem_fraction_static")
        facts.append(("mem_fraction_static", fraction))
        detail = "its KV pool does not fit in the memory the weights left"
        if fraction is not None:
            detail += f" (mem_fraction_static={fraction})"
    else:
        for name in ("device", "requested", "free", "gpu"):
            if root.get(name) is not None:
                facts.append((name, root.get(name)))
        detail = f"{root.get('device', 'GPU')} out of memory. Tried to allocate {root.get('requested', '?')}"
        if root.get("free") is not None:
            detail += f" with {root.get('free')} free on GPU {root.get('gpu')}"
    downstream = _downstream_summary(hypothesis)
    summary = f"The {_server_name(root)} ran out of GPU memory {when}: {detail}.{downstream}"
    used = (served,) if served is not None else ()
    return [replace(hypothesis, facts=tuple(facts), summary=summary, confidence=0.85, lines_used=used)]


def host_oom(hypothesis: Hypothesis, evidence: Evidence) -> list[Hypothesis]:
    kill = hypothesis.first_root
    facts: list[tuple[str, FactValue]] = [
        ("killed_pid", kill.get("pid")),
        ("killed_process", kill.get("comm")),
        ("scope", "memory cgroup (container limit)" if "cgroup" in str(kill.get("scope", "")) else "whole host"),
    ]
    if kill.get("anon_rss") is not None:
        facts.append(("anon_rss", kill.get("anon_rss")))  # as the kernel logs it (KiB)
    died = [e for e in evidence.carrying("exit_code") if e.get("exit_code") == SIGKILL]
    corroborated = bool(died)
    facts.append(("server_exit_code_minus_9", died[0].where if died else None))
    summary = f"The kernel OOM killer ended process {kill.get('pid')} ({kill.get('comm')}) [{dict(facts)['scope']}]" + (
        f"; the server reports a scheduler killed by SIGKILL (exit code -9) at {died[0].where}." if died else "."
    )
    missing = () if corroborated else ("no server line shows a process ending with exit code -9 (SIGKILL)",)
    return [
        replace(
            hypothesis,
            facts=tuple(facts),
            summary=summary,
            confidence=0.85 if corroborated else 0.6,
            lines_used=tuple(died[:1]),
            missing=hypothesis.missing + missing,
        )
    ]


def _ready_before(event: Event, evidence: Evidence) -> Event | None:
    ready = [e for e in evidence.marked(Mark.SERVER_UP) if e.source == event.source and _before(e, event)]
    return ready[0] if ready else None


def _before(event: Event, other: Event) -> bool:
    if event.time is not None and other.time is not None and event.time != other.time:
        return event.time < other.time
    return event.line < other.line


def _server_name(event: Event) -> str:
    role = event.role.value
    return f"{role} server" if role in ("prefill", "decode") else "server"


def _downstream_summary(hypothesis: Hypothesis) -> str:
    others = sorted({e.role.value for e in hypothesis.chain if e.source != hypothesis.first_root.source})
    if not others:
        return ""
    return f" Everything after it on {', '.join(others)} follows from it."


def model_load(hypothesis: Hypothesis, evidence: Evidence) -> list[Hypothesis]:
    """A model-load failure stops a server before it serves: the same server coming up after the
    line refutes it (a full disk under a compile cache, a hub disk-space warning on a filesystem
    that misreports its free space)."""
    root = hypothesis.first_root
    if root.role in SHARED_STREAMS:
        return [hypothesis]  # a ready line in a stream of several servers may be another server's
    up = [e for e in evidence.marked(Mark.SERVER_UP) if _same_server(e, root) and not e.failing and _before(root, e)]
    if not up:
        return [hypothesis]
    why = f"{evidence.said(up[0])} shows the same server up after {evidence.said(root)}: the model loaded"
    return [replace(hypothesis, rejected=why, confidence=0.1)]


def _same_server(event: Event, other: Event) -> bool:
    return event.source == other.source and event.role == other.role
