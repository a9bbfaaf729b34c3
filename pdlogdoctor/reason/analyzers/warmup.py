"""Warmup failures: what the server's own warmup request got back, and whether it was a timeout.

A warmup verdict stands only when nothing upstream explains it (diagnosis already demotes it
when a backend error or crash is linked); here it gets the exception or status and the
evidence that would have shown the deeper cause.
"""

from __future__ import annotations

from dataclasses import replace

from ...model import FieldValue, Role
from ..hypothesis import Evidence, Hypothesis

TIMEOUT_MARKERS = ("Timeout", "timed out", "TimeoutError")


def analyze(hypothesis: Hypothesis, evidence: Evidence) -> list[Hypothesis]:
    root = hypothesis.first_root
    facts: list[tuple[str, FieldValue]] = [("server", root.role.value)]
    if root.get("exc_type"):
        exception = f"{root.get('exc_type')}: {root.get('exc_message', '')}".strip().rstrip(":")
        facts.append(("exception", exception))
        outcome = f"raised {exception}"
    elif root.get("status") is not None:
        facts.append(("status", root.get("status")))
        outcome = f"answered HTTP {root.get('status')}"
    else:
        outcome = "failed"
    timeout = any(marker in str(dict(facts).get("exception", "")) for marker in TIMEOUT_MARKERS)
    facts.append(("timeout", "yes" if timeout else "no"))
    peer = Role.DECODE if root.role is Role.PREFILL else Role.PREFILL
    unseen = evidence.unseen_peer(root.role)
    missing = (f"no {unseen.value} server log given: the warmup's peer may hold the cause",) if unseen else ()
    cause = (
        f"the {peer.value} server never completed the transfer in time"
        if timeout
        else "the request failed inside this server or its transfer backend"
    )
    # A server whose side is not known is "the server", not "the server server".
    server = "server" if root.role is Role.SERVER else f"{root.role.value} server"
    summary = (
        f"The {server}'s warmup request {outcome} ({root.where}). "
        f"No backend error, crash or OOM in these logs explains it; most likely {cause}."
    )
    return [replace(hypothesis, facts=tuple(facts), summary=summary, missing=hypothesis.missing + missing)]
