"""Stale KV: requests answered from KV blocks the prefill had already freed.

Each request a kv-expired line names may have been answered from blocks that by then held another
request's KV, with HTTP 200 (vLLM does not fail it), so the report says how many requests that is:
the distinct request ids (or bootstrap rooms) in the verdict's lines. The verdict is never cleared
by what follows (`never_survived` in verdicts.toml): a passing gate samples answers, it does not
check each one.
"""

from __future__ import annotations

from dataclasses import replace

from ...model import Event, FactValue, Mark
from ..hypothesis import Evidence, Hypothesis, count_matches

# The captures that name the request a line is about: vLLM's request id, sglang's rid and bootstrap room.
REQUEST_FIELDS = ("request", "rid", "bootstrap_room")
SHOWN_IDS = 3


# A prefill that freed blocks before the decode pulled them shows the risk, not the stale read: the
# decode may never have pulled (its request failed or was dropped), and then nothing was answered
# from them. Without a line saying a decode read freed blocks the verdict stays below confident.
UNSEEN_READ_CONFIDENCE = 0.4


def analyze(hypothesis: Hypothesis, evidence: Evidence) -> list[Hypothesis]:
    lines = evidence.failing(*evidence.library.rooting(hypothesis.verdict))
    requests = _requests(lines)
    matched = count_matches(lines)
    complete = matched == len(lines)  # past a file's first lines of a pattern only the count is kept
    read = next((e for e in lines if Mark.STALE_READ in evidence.library.pattern(e.pattern).marks), None)
    facts: list[tuple[str, FactValue]] = [
        ("requests_affected", len(requests) if requests else None),
        ("kv_expired_lines", matched),
        ("stale_read_seen", read.where if read is not None else "no"),
    ]
    missing = () if requests else ("the kv-expired lines name no request, so how many were affected is not known",)
    where = f" ({matched} line(s), first at {hypothesis.first_root.where})"
    if read is None:
        return [_freed_before_pull(hypothesis, requests, complete, where, facts, missing)]
    summary = f"{_affected(requests, complete)} answered from KV blocks the prefill had already freed{where}"
    if any(not e.failing for e in evidence.marked(Mark.END_TO_END)):
        summary += "; the end-to-end checks passed, but they sample answers and do not clear these"
    summary += ": their outputs may be wrong though the client got HTTP 200."
    return [replace(hypothesis, facts=tuple(facts), summary=summary, missing=hypothesis.missing + missing)]


def _freed_before_pull(
    hypothesis: Hypothesis,
    requests: list[str],
    complete: bool,
    where: str,
    facts: list[tuple[str, FactValue]],
    missing: tuple[str, ...],
) -> Hypothesis:
    """Blocks freed before the decode pulled them, and no line showing a decode reading them after."""
    summary = f"The prefill freed the KV blocks of {_subject(requests, complete)} before the decode pulled them{where}"
    summary += (
        "; no line here shows a decode reading them afterwards: a late pull reads blocks that may hold another"
        " request's KV and answers with HTTP 200, and a decode that never pulled makes it a KV transfer that"
        " timed out"
    )
    unseen = ("no line shows a decode reading the freed blocks (the decode's log, or its answers)",)
    return replace(
        hypothesis,
        facts=tuple(facts),
        summary=summary + ".",
        missing=hypothesis.missing + missing + unseen,
        confidence=min(hypothesis.confidence, UNSEEN_READ_CONFIDENCE),
    )


def _requests(lines: list[Event]) -> list[str]:
    """The distinct requests the lines name, in the order they were first logged."""
    ordered = sorted(lines, key=lambda e: (e.time is None, e.time or 0.0, e.source, e.line))
    named = (str(value) for event in ordered for name in REQUEST_FIELDS if (value := event.get(name)) is not None)
    return list(dict.fromkeys(named))


def _subject(requests: list[str], complete: bool) -> str:
    """'request a', '3 requests (a, b, c)', 'at least 21 requests (...)': whose blocks were freed."""
    if not requests:
        return "requests the lines do not name"
    shown = ", ".join(requests[:SHOWN_IDS]) + (", ..." if len(requests) > SHOWN_IDS else "")
    if len(requests) == 1 and complete:
        return f"request {shown}"
    return f"{'' if complete else 'at least '}{len(requests)} requests ({shown})"


def _affected(requests: list[str], complete: bool) -> str:
    """'3 requests (a, b, c) were', 'At least 21 requests (...) were': the subject of the summary."""
    if not requests:
        return "Some requests (the lines do not name them) were"
    shown = ", ".join(requests[:SHOWN_IDS]) + (", ..." if len(requests) > SHOWN_IDS else "")
    noun, verb = ("request", "was") if len(requests) == 1 and complete else ("requests", "were")
    return f"{'' if complete else 'At least '}{len(requests)} {noun} ({shown}) {verb}"
