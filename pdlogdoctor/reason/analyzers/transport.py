"""Transport and connectivity verdicts: what failed on which path, and what is not known.

These verdicts come straight from their lines; the analyzers name the discriminating
evidence (NIC pair and completion status, timeout phase, lost peer address) and lower
confidence when the log that could show a deeper cause was not given.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import replace

from ...library.templates import message_of
from ...model import SERVER_ROLES, Event, FactValue, Kind, Mark, Role, verdicts
from ...model.lazyre import lazy_re
from ...model.textcut import clip
from ...model.verdicts import RDMA_LINK
from ..hypothesis import Evidence, Hypothesis, count_matches
from ..incidents import CROSS_FILE_RESOLUTION_S, wait_began
from ..quotes import quote_around
from ..shutdowns import DRAIN_S  # a prefill told to stop drains this long at most before its decode loses it
from .resources import own_engine_advice

# The lines are read by their marks (model.Mark): completion errors, NICs marked inactive, failed
# handshakes, completion errors whose peer is another rank of one collective group (a server's
# TP/PP group, not the other side of prefill/decode), timeouts in one phase of a transfer.
# ibv_wc_status values a completion line may give as a bare number (NCCL before 2.28).
IBV_WC_STATUS = {12: "transport retry count exceeded", 13: "RNR retry count exceeded"}
PEER_PORT = lazy_re(r":\d+@")
# A peer's own log can only explain its loss if it is there and has an error in it.
SYMPTOM_ONLY = 0.45
PEER_UNSEEN = 0.5  # completion errors seen from one side only, the other side's log missing
PEER_EXITED = 0.15  # ... and a process on another node is seen exiting just before them
# How long before the first completion error another node's process may have exited and still be the
# peer whose death the errors report (retries run out within seconds; a QP's timeout within a minute).
PEER_EXIT_BEFORE_S = 60.0
PORT_LISTING_ONLY = 0.45  # a port-state tool's listing with nothing failing through the port
QUOTE_LIMIT = 300  # a Mooncake slice failure names its addresses before its status: keep the status
NO_WORKER_QUOTE_LIMIT = 500  # a gateway quotes its proxy's reply, whose reason comes last


def rdma_link(hypothesis: Hypothesis, evidence: Evidence) -> list[Hypothesis]:
    failures = _failing(evidence, Mark.COMPLETION_ERROR)
    handshakes = _failing(evidence, Mark.HANDSHAKE_FAILED)
    paths = Counter(_path(e) for e in failures)
    statuses = Counter(_status(e, evidence) for e in failures)
    marked = _failing(evidence, Mark.NIC_INACTIVE)
    inactive = sorted({str(e.get("nic") or e.get("nic2") or e.get("endpoint")) for e in marked})
    facts: list[tuple[str, FactValue]] = [
        ("completion_errors", count_matches(failures)),
        ("statuses", "; ".join(f"{status} x{n}" for status, n in statuses.most_common()) or "none logged"),
        ("failing_paths", "; ".join(f"{path} x{n}" for path, n in paths.most_common(4)) or "none logged"),
        ("marked_inactive", tuple(inactive)),
        ("handshake_failures", _handshakes(handshakes, evidence)),
    ]
    if not failures and not inactive and not handshakes:
        ports = _failing(evidence, Mark.PORT_DOWN)
        if ports and all(e.pattern in evidence.library.marked(Mark.PORT_DOWN) for e in hypothesis.roots):
            return [_port_down(hypothesis, ports, evidence)]
        if all(e.pattern in evidence.library.marked(Mark.DEVICE_EVENT) for e in hypothesis.roots):
            return [_device_event(hypothesis, evidence)]
        return [_setup_failure(hypothesis, evidence)]
    worst = paths.most_common(1)[0][0] if paths else (inactive[0] if inactive else "an RDMA path")
    status = _headline(statuses, inactive, handshakes, evidence)
    summary = (
        f"The RDMA transport failed on {worst}: {status}"
        f"{_plural(sum(statuses.values()), ' ({} completion error{})')}"
        f"{'; marked inactive: ' + ', '.join(inactive) if inactive else ''}. {_first_line(hypothesis)}"
        f"{_what_follows(hypothesis, evidence)}"
    )
    # Only bare completion errors are ambiguous; a NIC marked inactive or a failed handshake is local evidence.
    local = bool(inactive or handshakes)
    elsewhere = None if local else _failure_elsewhere(hypothesis, failures, evidence)
    if elsewhere is not None:
        why, harmless = elsewhere
        ruled_out = replace(hypothesis, rejected=why, benign=harmless, confidence=PEER_EXITED)
        return [replace(ruled_out, summary=summary, facts=tuple(facts))]
    peer = None if local else _unseen_peer(failures, evidence)
    if peer is not None:
        # A peer process that died stops acknowledging: its side's completions fail the same way.
        name, short = peer
        exited = _peer_exited_first(failures, evidence)
        if exited is not None:  # the peer's process is seen ending just before: its death is the story
            why = (
                f"a process on {exited.get('node')} exited with code {exited.get('code')} ({exited.where}) just "
                f"before the first completion error, and the log of the {name} is not given: a dead peer stops "
                "acknowledging, so its side's completions fail the same way; the link is not shown at fault"
            )
            return [replace(hypothesis, summary=summary, facts=tuple(facts), rejected=why, confidence=PEER_EXITED)]
        summary += (
            f" The log of the {name} is not given: a {short} that crashed produces the same completion"
            " errors, so a link fault is not established."
        )
        missing = (*hypothesis.missing, f"the log of the {name}: a crash there looks the same from this side")
        confidence = min(hypothesis.confidence, PEER_UNSEEN)
        return [replace(hypothesis, summary=summary, facts=tuple(facts), missing=missing, confidence=confidence)]
    return [replace(hypothesis, summary=summary, facts=tuple(facts))]


def _failure_elsewhere(hypothesis: Hypothesis, failures: list[Event], evidence: Evidence) -> tuple[str, bool] | None:
    """Why bare completion errors are not the link's failure, when the logs show the run failing
    elsewhere, and whether they are harmless: the other side's server failed first (a peer dying or
    dead stops acknowledging: its failure, not a harmless one), or the slices failed nothing and were
    posted again while a check failed that they do not reach (harmless: the run failed otherwise)."""
    died = _peer_died_first(failures, evidence)
    if died is not None:
        return (
            f"the {died.role.value} server failed first ({evidence.said(died)}), before the first completion "
            f"error ({failures[0].where if failures else hypothesis.first_root.where}): a peer that is dying or "
            "dead stops acknowledging, so this side's transfers to it fail; the link is not shown at fault",
            False,
        )
    gate = _gate_failed_beside(hypothesis, evidence)
    if gate is not None:
        return (
            f"its {count_matches(failures)} completion error(s) caused nothing in these logs (no transfer, request "
            f"or session failed through them: the slices were posted again), and {evidence.said(gate)} failed "
            "without them",
            True,
        )
    return None


def _peer_exited_first(failures: list[Event], evidence: Evidence) -> Event | None:
    """A process on a node other than the one reporting the completion errors that exited with a
    non-zero code (a failing line naming its `node` and exit `code`: srun's `task 0: Exited with exit
    code 1`) at most PEER_EXIT_BEFORE_S before the first of them; None when no such line is shown."""
    times = [e.time for e in failures if e.time is not None]
    if not times:
        return None
    first = min(times)
    reporting = {s.name: s.node for s in evidence.sources}
    here = {reporting.get(e.source) for e in failures} | {e.source for e in failures}
    for event in evidence.events:
        node, code = event.get("node"), event.get("code")
        if not event.failing or not isinstance(node, str) or not isinstance(code, int) or code == 0:
            continue
        if node in here or any(node in name for name in here if name):
            continue  # the reporting side's own node
        ended = event.latest
        if ended is not None and first - PEER_EXIT_BEFORE_S <= ended <= first:
            return event
    return None


# The lines by which a server's own log shows its process dying, besides the causes it states.
DYING_MARKS = (Mark.EXCEPTION, Mark.CHILD_DEATH_NOTICED, Mark.CORE_DUMPED)
# What a transport's own errors are marked: on the peer's side too, they are the same link's story.
TRANSPORT_MARKS = (Mark.COMPLETION_ERROR, Mark.NIC_INACTIVE, Mark.HANDSHAKE_FAILED)


def _peer_died_first(failures: list[Event], evidence: Evidence) -> Event | None:
    """The first line of the other side's log (decode for a prefill's completion errors, and back)
    that shows its server failing first: its process dying (an engine's exception, an abort, a
    child's death) or a cause of its own (a collective that timed out), at most PEER_EXIT_BEFORE_S
    before the first completion error, and begun before it by more than the two files' clocks can
    tell apart (incidents.CROSS_FILE_RESOLUTION_S and their slack): a wait that timed out began its
    stated timeout before its line (`Timeout(ms)=600000`). None when the peer's log shows none."""
    timed = [e for e in failures if e.time is not None]
    sides = {e.role for e in failures} & {Role.PREFILL, Role.DECODE}
    if not timed or len(sides) != 1:
        return None
    first = min(timed, key=lambda e: e.time or 0.0)
    peer = Role.DECODE if sides.pop() is Role.PREFILL else Role.PREFILL
    library = evidence.library
    dying, own = library.marked(*DYING_MARKS), library.marked(*TRANSPORT_MARKS)
    deaths = [
        e
        for e in evidence.events
        if e.failing
        and e.role is peer
        and e.time is not None
        and e.pattern not in own
        and (e.pattern in dying or (e.kind is Kind.CAUSE and _names_no_link(e, evidence)))
        and _failed_before(e, first, evidence)
    ]
    return min(deaths, key=lambda e: (e.time or 0.0, e.source, e.line)) if deaths else None


def _gate_failed_beside(hypothesis: Hypothesis, evidence: Evidence) -> Event | None:
    """A failed gate (a benchmark's threshold, an accuracy check) in a run where the link's failures
    lead to nothing: the hypothesis's chain holds no failing line but the transport's own."""
    own = evidence.library.marked(*TRANSPORT_MARKS)
    if any(e.failing and e.pattern not in own for e in hypothesis.chain):
        return None
    gates = [e for e in evidence.marked(Mark.GATE_FAILED) if e.failing]
    return min(gates, key=lambda e: (e.time or 0.0, e.source, e.line)) if gates else None


def _names_no_link(event: Event, evidence: Evidence) -> bool:
    """The line roots a verdict other than the link's own (a peer's link errors are the same story)."""
    return evidence.library.knows(event.pattern) and evidence.library.pattern(event.pattern).verdict != RDMA_LINK


def _failed_before(death: Event, first: Event, evidence: Evidence) -> bool:
    assert death.time is not None and first.time is not None
    if not first.time - PEER_EXIT_BEFORE_S <= death.time <= first.time + CROSS_FILE_RESOLUTION_S:
        return False
    stated = wait_began(death, ("timeout_ms",))
    began = death.time if stated is None else stated
    slack = evidence.clock_slack
    resolution = CROSS_FILE_RESOLUTION_S + slack.get(death.source, 0.0) + slack.get(first.source, 0.0)
    return began < first.time - resolution


def _failing(evidence: Evidence, mark: Mark) -> list[Event]:
    return [e for e in evidence.marked(mark) if e.failing]


def _first_line(hypothesis: Hypothesis) -> str:
    """The line the verdict rests on, in the component's words: a status or a count is a paraphrase,
    and a reader (or a search for the same message) needs the line itself."""
    root = hypothesis.first_root
    return f'The first line ({root.where}): "{clip(message_of(root.text).strip(), QUOTE_LIMIT)}". '


def _what_follows(hypothesis: Hypothesis, evidence: Evidence) -> str:
    """The consequences the chain shows, or that it shows none (a retried slice may fail nothing)."""
    own = evidence.library.marked(Mark.COMPLETION_ERROR, Mark.NIC_INACTIVE, Mark.HANDSHAKE_FAILED)
    if any(e.failing and e.pattern not in own for e in hypothesis.chain):
        return "The transfer failures and 5xx that follow are its consequences."
    return "No transfer, request or check failure follows it in these logs."


def _port_down(hypothesis: Hypothesis, ports: list[Event], evidence: Evidence) -> Hypothesis:
    """A port-state tool's output shows a port that is not active, and no transfer failed on the link
    in these logs. The port is named; with nothing downstream failing, the listing alone does not say
    the port is one the job uses (an unused port looks the same), so the verdict is held low and says
    what to check."""
    named = sorted({str(e.get("device")) for e in ports if e.get("device")})
    said = "; ".join(dict.fromkeys(evidence.says(e) or evidence.library.pattern(e.pattern).title for e in ports))
    root = hypothesis.first_root
    summary = f"An RDMA port is not active: {said}. {_first_line(hypothesis)}"
    own = evidence.library.marked(Mark.PORT_DOWN)
    if any(e.failing and e.pattern not in own for e in hypothesis.chain):
        summary += "The transfer failures that follow are its consequences."
        confidence = hypothesis.confidence
    else:
        summary += (
            "Nothing in these logs fails through it: a port-state listing does not say the port is one the job "
            "uses (an unused port of a dual-port card shows the same state); check that it is among the devices "
            "the transport uses (NCCL_IB_HCA, the transfer engine's device list) and the logs of the run."
        )
        confidence = min(hypothesis.confidence, PORT_LISTING_ONLY)
    facts: list[tuple[str, FactValue]] = [("ports_not_active", tuple(named) or count_matches(ports))]
    facts.extend((name, root.get(name)) for name in ("state", "phys_state") if root.get(name) is not None)
    return replace(hypothesis, summary=summary, facts=tuple(facts), confidence=confidence)


def _device_event(hypothesis: Hypothesis, evidence: Evidence) -> Hypothesis:
    """The RDMA device reported a fatal event and no completion error names a path: the event is the
    failure (a port that went down, a queue pair broken by an access it was not allowed), and what
    failed after it on the transfers is its consequence."""
    events = sorted({str(e.get("event")) for e in hypothesis.roots if e.get("event")})
    devices = sorted({str(e.get("device")) for e in hypothesis.roots if e.get("device")})
    summary = (
        f"The RDMA device {', '.join(devices) or 'in use'} reported a fatal event "
        f"({', '.join(events) or 'see its line'}). {_first_line(hypothesis)}{_what_follows(hypothesis, evidence)}"
    )
    facts: list[tuple[str, FactValue]] = [("device_events", count_matches(list(hypothesis.roots)))]
    facts += [("event", ", ".join(events))] if events else []
    facts += [("device", ", ".join(devices))] if devices else []
    return replace(hypothesis, summary=summary, facts=tuple(facts))


def _setup_failure(hypothesis: Hypothesis, evidence: Evidence) -> Hypothesis:
    """No completion ever failed: the path was never set up (no usable GID, no address handle to
    the peer). The root line says how; its own captures are the facts that matter."""
    root = hypothesis.first_root
    said = evidence.said(root)
    summary = (
        f"The RDMA path to the peer could not be set up: {said} "
        f"({clip(root.text.strip(), 200)}). No transfer can use it; the transfer failures that follow are "
        "its consequences."
    )
    own = [(name, value) for name, value in root.fields if name in ("device", "strerror", "purpose")]
    return replace(hypothesis, summary=summary, facts=(("setup_failures", count_matches(list(hypothesis.roots))), *own))


def _unseen_peer(failures: list[Event], evidence: Evidence) -> tuple[str, str] | None:
    """The side opposite the one reporting the errors, when that side's log was not given, as
    (its name, a short name); for NCCL's errors inside one server's group, the peer rank."""
    if all(e.pattern in evidence.library.marked(Mark.RANK_PEER) for e in failures):
        peers = sorted({str(e.get("peer")) for e in failures if e.get("peer")})
        return (f"NCCL peer at {', '.join(peers)}" if peers else "NCCL peer rank", "peer rank")
    sides = {e.role for e in failures} & {Role.PREFILL, Role.DECODE}
    peer = evidence.unseen_peer(sides.pop()) if len(sides) == 1 else None
    return (f"{peer.value} server", peer.value) if peer is not None else None


def _headline(statuses: Counter[str], inactive: list[str], handshakes: list[Event], evidence: Evidence) -> str:
    """What went wrong, from the most specific evidence: a completion status, an inactive NIC, a failed handshake."""
    if statuses:
        return statuses.most_common(1)[0][0]
    if inactive:
        return "NIC marked inactive"
    if handshakes:
        return f"the queue-pair handshake failed ({_handshakes(handshakes, evidence)})"
    return "an RDMA error"


def _handshakes(events: list[Event], evidence: Evidence) -> str:
    """'QP to RTR: Connection timed out [110] x8': the handshake step as its line says it (`says`), and count."""
    reasons = Counter(evidence.says(e) or evidence.library.pattern(e.pattern).title for e in events)
    return "; ".join(f"{reason} x{n}" for reason, n in reasons.most_common()) or "none"


def _plural(count: int, template: str) -> str:
    """The template filled with count and an 's' where needed; empty for zero."""
    return template.format(count, "" if count == 1 else "s") if count else ""


def _status(event: Event, evidence: Evidence) -> str:
    """The completion status as logged; a provider's bare code is kept as a code, not translated. A
    line that states no status is named by what its pattern says it is (UCX's retry line, NCCL's
    async event), never given a status it did not log."""
    if event.get("status"):
        return str(event.get("status"))
    if event.get("wc_status") is not None:
        code = int(event.get("wc_status"))
        return f"{IBV_WC_STATUS.get(code, 'ibv_wc_status')} ({code})"
    if event.get("status_code") is not None:
        return f"CQE error {event.get('status_code')} ({event.get('func') or 'provider'})"
    return evidence.says(event) or evidence.library.pattern(event.pattern).title


def _path(event: Event) -> str:
    local, peer = event.get("local_nic"), event.get("peer_nic")
    if local is not None:
        # peer_nic is host:port@device; the port is per-connection, the NIC pair is the path
        return f"{local} -> {PEER_PORT.sub('@', str(peer))}"
    if event.get("device") or event.get("device2"):
        return str(event.get("device") or event.get("device2"))
    if event.get("peer"):
        return f"the path to {event.get('peer')}"
    return f"qp {event.get('qp_num')}" if event.get("qp_num") is not None else "an unnamed NIC"


def transfer_timeout(hypothesis: Hypothesis, evidence: Evidence) -> list[Hypothesis]:
    aborted = _released_after_client_abort(hypothesis, evidence) or _released_before_decode_was_up(hypothesis, evidence)
    if aborted is not None:
        return [replace(hypothesis, rejected=aborted, benign=True, confidence=0.1)]
    timeouts = _failing(evidence, Mark.PHASE_TIMEOUT)
    phases = Counter(evidence.says(e) or e.pattern for e in timeouts)
    elapsed = sorted({float(e.get("elapsed")) for e in timeouts if e.get("elapsed") is not None})
    facts: list[tuple[str, FactValue]] = [
        ("phases", "; ".join(f"{phase} x{n}" for phase, n in phases.most_common()) or "warning only"),
        ("timeout_seconds", tuple(int(v) if v.is_integer() else v for v in elapsed) or None),
    ]
    said = ", ".join(phases) or "bootstrap or waiting"
    # The first request that timed out is quoted, its phase in view: its line names the phase and the
    # wait, where the warning beside it only says some requests failed.
    first = min(timeouts, key=lambda e: (e.time is None, e.time or 0.0, e.source, e.line), default=None)
    summary = (
        f"KV transfers timed out ({said}"
        f"{', after ' + ', '.join(f'{v:g}' for v in elapsed) + ' s' if elapsed else ''}"
        f"{_first_timeout(first, evidence)}) and no line in these logs shows why: no backend error, crash or lost peer."
    )
    missing = _missing_peer_logs(evidence)
    confidence = hypothesis.confidence if not missing else min(hypothesis.confidence, SYMPTOM_ONLY)
    # The verdict's advice names SGLang's timeouts; another engine's line names its own knobs.
    advice = own_engine_advice(hypothesis.first_root, evidence) or hypothesis.advice
    return [
        replace(
            hypothesis,
            summary=summary,
            facts=tuple(facts),
            missing=tuple(missing),
            confidence=confidence,
            advice=advice,
            lines_used=(
                *hypothesis.lines_used,
                *([first] if first is not None and first not in hypothesis.chain else []),
            ),
        )
    ]


def _first_timeout(first: Event | None, evidence: Evidence) -> str:
    """'; first at decode.log:4: "... timed out after 300.0s in KVPoll.WaitingForInput"', the phase in view."""
    if first is None:
        return ""
    words = str(first.get("phase") or evidence.says(first) or "")
    return f'; first at {first.where}: "{quote_around(first.text, words)}"'


def _released_after_client_abort(hypothesis: Hypothesis, evidence: Evidence) -> str | None:
    """KV released unread because the client had aborted the request: the decode was told to
    drop it, so nobody was ever going to read those blocks. Benign, not a transfer timeout."""
    if any(root.pattern not in evidence.library.marked(Mark.RELEASED_UNREAD) for root in hypothesis.roots):
        return None
    released = {str(root.get("request")) for root in hypothesis.roots}
    aborted = {
        request.strip()
        for event in evidence.marked(Mark.CLIENT_ABORTED)
        for request in str(event.get("requests", "")).split(",")
    }
    if not released or not released <= aborted:
        return None
    return (
        f"the {len(released)} request(s) whose KV the prefill released unread had been aborted by the client "
        f"({evidence.marked(Mark.CLIENT_ABORTED)[0].where}): their KV was never going to be read"
    )


def _released_before_decode_was_up(hypothesis: Hypothesis, evidence: Evidence) -> str | None:
    """KV released unread whose wait (`within 480 seconds`) began before the decode's last start:
    the request was prefilled while the decode was still starting, or starting again after a restart
    (a client or a smoke test sent it too early: the proxy could not reach the decode), so no decode
    was there to read it. A start-up race, not a transfer that timed out; whether the run then served
    is the caller's to say. None when a release's wait began after the decode's last start, or the
    lines do not say when it began."""
    if any(root.pattern not in evidence.library.marked(Mark.RELEASED_UNREAD) for root in hypothesis.roots):
        return None
    up = [
        e.time
        for e in evidence.marked(Mark.SERVER_UP)
        if e.role is Role.DECODE and not e.failing and e.time is not None
    ]
    began = [wait_began(root, ("timeout",)) for root in hypothesis.roots]
    if not up or any(start is None for start in began):
        return None
    last_up = max(up)
    if any(start is not None and start > last_up + CROSS_FILE_RESOLUTION_S for start in began):
        return None
    ready = min((e for e in evidence.marked(Mark.SERVER_UP) if e.role is Role.DECODE and e.time == last_up), key=_order)
    return (
        f"the {len(hypothesis.roots)} request(s) whose KV the prefill released unread were prefilled before the decode "
        f"was up (the wait each states began before {evidence.said(ready)}): no decode was there to read them, "
        "a start-up race, not a transfer that timed out"
    )


def _order(event: Event) -> tuple[str, int]:
    return (event.source, event.line)


def peer_lost(hypothesis: Hypothesis, evidence: Evidence) -> list[Hypothesis]:
    lost = evidence.failing(*evidence.library.rooting(hypothesis.verdict))  # every line that says the peer is gone
    if lost and all(e.role is Role.PREFILL for e in lost):
        # NIXL's and UCX's lines are the same on both sides; on the prefill they say it lost a decode.
        why = "every line that says a peer is gone is the prefill's own: it lost a decode, not the other way round"
        return [replace(hypothesis, rejected=why, confidence=0.1)]
    alive = _prefill_served_on(lost, evidence)
    if alive is not None:
        why = (
            f"the prefill went on answering after the decode called it down, with no restart between "
            f"({evidence.said(alive)}): it was not gone, the decode's view of it was wrong"
        )
        return [replace(hypothesis, rejected=why, confidence=0.1)]
    addrs = sorted({str(e.get("bootstrap_addr")) for e in lost if e.get("bootstrap_addr") is not None})
    affected = _requests_affected(lost)
    facts: list[tuple[str, FactValue]] = [
        ("lost_prefill", tuple(addrs) or None),
        ("requests_affected", affected or count_matches(lost)),
    ]
    prefill_given = any(role is Role.PREFILL or role.interleaves for role in evidence.roles())
    missing = (
        []
        if prefill_given
        else [f"the prefill server's log ({', '.join(addrs) or 'its address'}) that would say why it went away"]
    )
    where = ", ".join(addrs) or "its prefill"
    summary = f"Decode lost {where} ({hypothesis.first_root.where}); " + (
        "the prefill log given shows no crash, OOM or backend error that explains it."
        if prefill_given
        else "the prefill log was not given, so why it went away is not known."
    )
    stop = _prefill_told_to_stop(hypothesis.first_root, evidence)
    used, advice = hypothesis.lines_used, hypothesis.advice
    if stop is not None:
        summary = (
            f"Decode lost {where} ({hypothesis.first_root.where}) after the prefill was told to stop ({stop.where}: "
            f'"{clip(message_of(stop.text).strip(), NO_WORKER_QUOTE_LIMIT)}"): no crash, OOM or backend error of '
            "its own; whatever sent it SIGTERM (an orchestrator's deletion or scale-down, a launcher, a job's end) "
            "is the cause."
        )
        used, advice = (*used, stop), evidence.library.pattern(stop.pattern).advice.strip()
    confidence = hypothesis.confidence if prefill_given else min(hypothesis.confidence, SYMPTOM_ONLY)
    return [
        replace(
            hypothesis,
            summary=summary,
            facts=tuple(facts),
            missing=tuple(missing),
            confidence=confidence,
            lines_used=used,
            advice=advice,
        )
    ]


def reachability(hypothesis: Hypothesis, evidence: Evidence) -> list[Hypothesis]:
    """A peer its side could not reach. When that side had already called the same peer gone (its
    heartbeat failed: `Lost connection with prefill instance`), the unanswered fetch that follows is
    what the loss looks like next (sgl-project/sglang#34865: the parallel-info fetch times out after
    the heartbeat gave up), not a wrong address or port: the loss is the story, told by its verdict."""
    lost = _lost_before(hypothesis.first_root, evidence)
    if lost is None:
        return [hypothesis]
    why = (
        f"the same side had already lost that peer ({evidence.said(lost)}) before it could not reach it: "
        "the failed fetch follows the loss"
    )
    return [replace(hypothesis, rejected=why, confidence=0.1)]


def _lost_before(first: Event, evidence: Evidence) -> Event | None:
    """The earliest line of `first`'s own file that calls a peer gone, at or before `first`, naming the
    address `first` tried when both state one."""
    if first.time is None:
        return None
    rooting = evidence.library.rooting(verdicts.PEER_LOST)
    tried = _address(first)
    for lost in sorted(evidence.failing(*rooting), key=_order):
        if lost.source != first.source or lost.time is None or lost.time > first.time:
            continue
        gone = lost.get("bootstrap_addr")
        if tried is None or gone is None or str(gone) == tried:
            return lost
    return None


def _address(event: Event) -> str | None:
    """`host:port` of a failed connection's line, when it states both."""
    host, port = event.get("host"), event.get("port")
    return f"{host}:{port}" if host is not None and port is not None else None


def _requests_affected(lost: Sequence[Event]) -> int:
    """The requests the loss lines count: each rank of one server counts the same requests (`[TP0]` and
    `[TP1]` both say `9 requests affected` in one second), so per file, peer and second the largest
    count, summed over them (a peer lost twice lost two sets of requests)."""
    most: dict[tuple[str, str, int | None], int] = {}
    for event in lost:
        if event.get("affected") is not None:
            second = None if event.time is None else int(event.time)
            key = (event.source, str(event.get("bootstrap_addr")), second)
            most[key] = max(most.get(key, 0), int(event.get("affected")))
    return sum(most.values())


def _prefill_served_on(lost: Sequence[Event], evidence: Evidence) -> Event | None:
    """A prefill's answer after the last line that says the decode lost it, in a prefill log with no
    start-up between (sgl-project/sglang#22990: a decode's first request with a DP rank set called
    its prefill down while the prefill answered every request after it). A prefill that restarted and
    served again was gone for a while: that is a loss the run came back from, not this."""
    times = [e.time for e in lost if e.time is not None]
    if not times:
        return None
    since = max(times) + CROSS_FILE_RESOLUTION_S
    # Each prefill start-up line's file and time: a start between the loss and the answer is a restart.
    restarts = [
        (e.source, e.time) for e in evidence.marked(Mark.SERVER_UP) if e.role is Role.PREFILL and e.time is not None
    ]
    for answer in evidence.marked(Mark.ANSWERED):
        if answer.role is not Role.PREFILL or answer.failing or answer.time is None or answer.time <= since:
            continue
        answered = answer.time
        if not any(source == answer.source and max(times) <= at <= answered for source, at in restarts):
            return answer
    return None


def _prefill_told_to_stop(lost: Event, evidence: Evidence) -> Event | None:
    """The prefill's own line saying it received SIGTERM and shuts down, before the decode lost it."""
    told = [
        e
        for e in evidence.marked(Mark.TOLD_TO_STOP)
        if e.role is not Role.DECODE and (e.time is None or lost.time is None or 0.0 <= lost.time - e.time <= DRAIN_S)
    ]
    return told[-1] if told else None


def router_no_workers(hypothesis: Hypothesis, evidence: Evidence) -> list[Hypothesis]:
    no_workers = evidence.failing(*evidence.library.rooting(hypothesis.verdict))
    sides = Counter(str(e.get("side")) for e in no_workers if e.get("side"))
    health = sorted({str(e.get("worker")) for e in evidence.marked(Mark.HEALTH_CHECK_FAILED) if e.get("worker")})
    facts: list[tuple[str, FactValue]] = [
        ("no_workers_side", tuple(sides) or None),
        ("failed_health_checks", tuple(health)),
    ]
    early = _before_the_side_was_up(no_workers, sides, evidence)
    if early is not None:
        return [replace(hypothesis, rejected=early, benign=True, confidence=0.1)]
    missing = _missing_peer_logs(evidence)
    given = any(role in SERVER_ROLES for role in evidence.roles())
    shown = (
        "the server logs given show no error that explains it (check the router's view of the workers: "
        "addresses, ports, network)"
    )
    if missing and given:
        # One side's log is given (a decode's, a single server's): what it shows is worth saying.
        why = f"{shown}; not given: {'; '.join(missing)}"
    else:
        why = "the server logs that could say why are not given" if missing else shown
    summary = (
        f"{_no_worker_said(no_workers, sides, evidence)}"
        f"{' (health checks failed for ' + ', '.join(health) + ')' if health else ''}, and {why}."
    )
    return [replace(hypothesis, summary=summary, facts=tuple(facts), missing=tuple(missing))]


def _before_the_side_was_up(no_workers: list[Event], sides: Counter[str], evidence: Evidence) -> str | None:
    """Why the router's lack of workers was the deployment starting, when it was: every such line
    came before the first ready line of the side it named (of any server when it named none), and the
    run's end-to-end checks passed after. A router takes requests before its workers are up (a
    Kubernetes rollout, a probe's first minutes); once they are, it routes. None otherwise."""
    if not no_workers or not evidence.end_to_end_passed():
        return None
    roles = {Role(side) for side in sides if side in (Role.PREFILL.value, Role.DECODE.value)}
    ready = [
        e
        for e in evidence.marked(Mark.SERVER_UP)
        if not e.failing and e.time is not None and (not roles or e.role in roles)
    ]
    last = max((e.time for e in no_workers if e.time is not None), default=None)
    if not ready or last is None or any(e.time is None for e in no_workers):
        return None
    first_up = min(ready, key=lambda e: e.time or 0.0)
    if first_up.time is None or last >= first_up.time:
        return None
    return (
        f"the router had no worker only before the {first_up.role.value} server was up ({first_up.where}): "
        "the deployment starting, and the end-to-end checks passed after it"
    )


def _no_worker_said(no_workers: list[Event], sides: Counter[str], evidence: Evidence) -> str:
    """How the router (or the gateway in front of the engines) said it had no worker: the side it
    names; else, for a line that names none, its own words and place."""
    if sides:
        return f"The router had no available {', '.join(sides)} worker"
    if not no_workers:
        return "The router had no available worker"
    first = no_workers[0]
    return (
        f"The router had no worker ready to take the request: {evidence.says(first) or evidence.said(first)} "
        f'({first.where}: "{clip(message_of(first.text).strip(), NO_WORKER_QUOTE_LIMIT)}")'
    )


def _missing_peer_logs(evidence: Evidence) -> list[str]:
    roles = evidence.roles()
    if any(role.interleaves for role in roles):
        return []
    missing = []
    if Role.PREFILL not in roles and Role.SERVER not in roles:
        missing.append("the prefill server's log, where a deeper cause would show")
    if Role.DECODE not in roles and Role.SERVER not in roles:
        missing.append("the decode server's log, where a deeper cause would show")
    return missing
