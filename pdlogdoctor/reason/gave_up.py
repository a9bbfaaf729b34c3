"""Clients that gave up: requests cancelled by their clients all at once, and none answered after.

decide: a report that would say healthy or no failure was seen, while lines marked `client-aborted`
show BURST requests or more cancelled within BURST_S of each other (a client's timeout firing on
every request it had in flight: vLLM's `Aborted request ...`, Dynamo's `Connection closed
unexpectedly; issuing cancellation`) and no line after them shows a request answered, is
inconclusive: the clients stopped waiting on the server. These lines do not say why the answers were
late; the engines' lines over the wait would. A cancel here and there is a user who pressed stop; a
burst followed by answers is a benchmark's end, or a client's restart the server outlived.

The same holds, one at a time, when every request the lines show was cancelled and none answered
(ABANDONED distinct requests or more): each client's timeout fired in turn (vLLM-Omni's diffusion
requests aborted five minutes after each was added, vllm-project/vllm-omni#3167).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from ..library.patterns import Library
from ..model import Event, Mark, Report
from ..model.counts import count_of
from ..model.textcut import clip
from ..model.verdicts import HEALTHY, NO_FAILURE_SEEN
from .unexplained import as_inconclusive

BURST = 3  # requests cancelled together: one client's timeout on what it had in flight
BURST_S = 2.0  # ... within this many seconds of each other (one timeout, logged as it fires)
ABANDONED = 2  # distinct requests cancelled, one after another, with none answered in the lines


def burst(events: Sequence[Event], library: Library) -> list[Event] | None:
    """The cancellation lines of the first burst of BURST requests or more within BURST_S, when no
    request is shown answered after it; None when there is none."""
    aborted = sorted(
        (e for e in events if e.pattern in library.marked(Mark.CLIENT_ABORTED) and e.time is not None),
        key=lambda e: (e.time or 0.0, e.source, e.line),
    )
    for start, first in enumerate(aborted):
        together = [e for e in aborted[start:] if (e.time or 0.0) - (first.time or 0.0) <= BURST_S]
        if _requests(together) >= BURST and not _answered_after(together[-1], events, library):
            return together
    return None


def abandoned(events: Sequence[Event], library: Library) -> list[Event] | None:
    """The cancellation lines, when they cancel ABANDONED distinct requests or more and no line shows a
    request answered anywhere; None otherwise."""
    aborted = sorted(
        (e for e in events if e.pattern in library.marked(Mark.CLIENT_ABORTED)),
        key=lambda e: (e.time if e.time is not None else float("inf"), e.source, e.line),
    )
    ids = {request for e in aborted for request in _ids(e)}
    answered = library.marked(Mark.ANSWERED, Mark.END_TO_END)
    if len(ids) < ABANDONED or any(e.pattern in answered and not e.failing for e in events):
        return None
    return aborted


def _requests(lines: Sequence[Event]) -> int:
    """The requests the lines cancel: each line's list (`Aborted request(s) a, b.`), its repeats counted.
    Lines that name their requests are counted by the requests they name: two components logging the
    same cancel (vLLM-Omni's front end and its orchestrator) cancel one request, not two."""
    if all(_ids(e) for e in lines):
        return len({request for e in lines for request in _ids(e)})
    listed = max((len(str(e.get("requests")).split(",")) for e in lines if e.get("requests")), default=1)
    return max(count_of(lines).lines, len(lines) * listed)


def _ids(line: Event) -> set[str]:
    """The request ids a cancellation line names (a list, or one)."""
    said = line.get("requests") or line.get("request")
    return {part.strip(" '\"[]") for part in str(said).split(",")} if said else set()


def _answered_after(last: Event, events: Sequence[Event], library: Library) -> bool:
    answered = library.marked(Mark.ANSWERED, Mark.END_TO_END)
    return any(
        e.pattern in answered
        and not e.failing
        and (
            (e.time is not None and last.time is not None and e.time > last.time)
            or (e.source == last.source and e.line > last.line)
        )
        for e in events
    )


def weigh(report: Report, events: Sequence[Event], library: Library) -> Report:
    """The report, inconclusive when it would show nothing failed while clients gave up on their requests."""
    if report.verdict.id not in (HEALTHY, NO_FAILURE_SEEN):
        return report
    found = burst(events, library)
    together = found is not None
    found = found or abandoned(events, library)
    if found is None:
        return report
    first, last = found[0], found[-1]
    count = _requests(found)
    place = first.where if first is last else f"{first.where} to {last.where}"
    how = "at once" if together else "one after another, every request these lines show"
    summary = (
        f"The clients gave up: {count} requests were cancelled by their clients {how} ({place}), and no line "
        "after them shows a request answered. A client cancels what it has in flight when its timeout fires: the "
        f"server answered too late or not at all. These lines do not say why. The first: {first.where}: "
        f"{clip(first.text.strip(), 240)}"
    )
    needed = f"the engines' lines before {first.where}: what they were doing while the clients waited"
    gave_up = replace(report, chain=(*found, *report.chain), missing=tuple(dict.fromkeys((needed, *report.missing))))
    return as_inconclusive(gave_up, summary, library, f"clients cancelled {count} requests {how} ({first.where})")
