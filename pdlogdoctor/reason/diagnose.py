"""Diagnose: from linked events to one verdict, its chain, its rivals and what is missing.

1. Every failing event whose pattern supports a verdict is a candidate root,
   unless an event upstream of it (through the links) supports a verdict too:
   then it is a consequence, and the upstream one wins.
2. Candidate roots are grouped by verdict into hypotheses; each hypothesis's
   chain is everything reachable from its roots.
3. Analyzers check discriminators, relabel, reject or compute advice.
4. The best surviving hypothesis (tier, then how much of the failure it
   explains, then how early it starts) is the verdict; the rest are alternatives.
5. Without a surviving hypothesis: `healthy` when nothing fails and something
   shows serving, `inconclusive` otherwise, with the missing evidence named.
6. Inputs not fully read mark the report incomplete; "healthy" is a claim about
   everything, so with unread input it becomes `inconclusive`.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace

from ..ingest import BINARY, CORE_DUMP, NOT_A_LOG, PASTED
from ..ingest.duplicates import DUPLICATE_CODE
from ..library.patterns import BLOCK_FIELDS, START_UP, Library, Pattern
from ..library.templates import message_of
from ..model import (
    SERVER_ROLES,
    Alternative,
    Event,
    FieldValue,
    Finding,
    Kind,
    Link,
    Mark,
    Report,
    Role,
    Severity,
    Source,
    Tier,
    Verdict,
)
from ..model.textcut import clip
from ..model.verdicts import HEALTHY, INCONCLUSIVE, NO_FAILURE_SEEN
from ..scan.logshape import NOT_SERVING_LOG
from ..scan.traceback import stack_of
from . import confidence
from .analyzers import ANALYZERS, DETECTORS
from .compared import REGRESSED_SHARE, first_stated
from .fleets import with_fleet
from .hypothesis import Evidence, Hypothesis, count_matches, described, never_survived
from .incidents import EARLIER_LIFE, Precedence, Split, came_back, precedence, split_incidents, why_separate
from .link import children_of, downstream, upstream_of

# Lines that show the deployment serving (when not failing themselves), and the end-to-end ones among them.
SERVING_PROOF = (Mark.SERVER_UP, Mark.WARMUP, Mark.ANSWERED, Mark.END_TO_END)
# Problems that leave no evidence unread: an empty file or directory holds nothing to miss.
# A binary file or a core dump is no log left unread: a core dump is evidence of its own (binaries.py).
COMPLETE_PROBLEMS = frozenset(
    {"empty", "empty-directory", DUPLICATE_CODE, NOT_A_LOG, PASTED, NOT_SERVING_LOG, BINARY, CORE_DUMP}
)
MAX_NAMES_IN_NOTE = 8
PARTIAL_TITLE = "No failure in what was read; evidence incomplete"
# A rival of the verdict's tier that nothing links costs the verdict confidence.NEAR_TIE when their
# order is not known, nothing when the verdict clearly comes first and explains it, twice that when
# the rival clearly comes first (incidents.Precedence.margin); the rival loses up to RIVAL_MARGIN_DROP.
RIVAL_MARGIN_DROP = 0.25
RULED_OUT_CONFIDENCE = confidence.RULED_OUT  # a verdict its own phase rules out, listed as an alternative
# Another reading of the verdict's own lines that the evidence leaves open is listed at least at this
# (lower, it would read as ruled out), and at most the analyzer's distance below the verdict.
OPEN_READING = 0.2
SHALLOWER_GAP = confidence.SHALLOWER  # a rival of a shallower tier: at least this far below the verdict
# The serving proof in words, in the order a reader checks it: end to end first.
PROOF_WORDS = {
    Mark.END_TO_END: "the end-to-end checks",
    Mark.GATE_FAILED: "the results judged within their limits",
    Mark.SERVER_UP: "the servers' ready lines",
    Mark.WARMUP: "the warmup requests",
    Mark.ANSWERED: "the requests answered",
}


def diagnose(
    events: Sequence[Event],
    links: Sequence[Link],
    sources: Sequence[Source],
    library: Library,
    clock_slack: Mapping[str, float] | None = None,
) -> Report:
    failing = [e for e in events if e.failing and e.kind is not Kind.CONTEXT]
    # A failed gate (a test summary, a job's exit line) reports that the run failed, not why: any root
    # explains it, so it does not count against a hypothesis's coverage.
    gated = library.marked(Mark.GATE_FAILED)
    groups = frozenset((e.pattern, e.source) for e in failing if e.pattern not in gated)
    evidence = Evidence(tuple(events), tuple(links), tuple(sources), library, groups, dict(clock_slack or {}))
    candidates, consequences = _candidates(failing, links, library)
    hypotheses = [h for c in candidates for h in _analyze(c, evidence)]
    hypotheses += [_with_coverage(h, evidence) for detect in DETECTORS for h in detect(evidence)]
    hypotheses = _carriers_yield(hypotheses)
    viable = sorted((h for h in hypotheses if h.rejected is None), key=lambda h: _rank(h, library), reverse=True)
    missing = _missing_roles(evidence)
    if viable:
        split = split_incidents(viable, evidence)
        survived = _survived_blip(split, failing, evidence)
        if survived is not None:
            return _mark_incomplete(_survived_report(split, survived, failing, hypotheses, evidence, missing))
        consequences = [c for c in consequences if not split.elsewhere(c[0])]  # another incident's story
        report = _report_for(split.best, split.rivals, hypotheses, consequences, evidence, missing)
        report = with_fleet(_with_incidents(report, split, evidence), evidence)
    else:
        report = _no_cause_report(failing, hypotheses, consequences, evidence, missing)
    return _mark_incomplete(replace(report, harmless=_harmless(hypotheses)))


def _harmless(hypotheses: list[Hypothesis]) -> tuple[Event, ...]:
    """The failing lines of the hypotheses an analyzer found benign: they failed nothing."""
    return tuple(sorted((e for e in _benign_lines(hypotheses).values() if e.failing), key=_time_key))


def _benign_lines(hypotheses: Sequence[Hypothesis]) -> dict[int, Event]:
    """The lines (by identity) of the hypotheses an analyzer found benign: roots and chains."""
    return {id(e): e for h in hypotheses if h.benign for e in (*h.roots, *h.chain)}


# ---------------------------------------------------------------- candidates


def _candidates(
    failing: list[Event], links: Sequence[Link], library: Library
) -> tuple[list[Hypothesis], list[tuple[Event, Event]]]:
    parents = upstream_of(links)
    children = children_of(links)
    roots: dict[str, list[Event]] = {}
    consequences: list[tuple[Event, Event]] = []  # (event with a verdict, the upstream event explaining it)
    for event in failing:
        verdict = library.pattern(event.pattern).verdict
        if verdict is None:
            continue
        explainer = _upstream_with_verdict(event, parents, library)
        if explainer is None:
            roots.setdefault(verdict, []).append(event)
        else:
            consequences.append((event, explainer))
    hypotheses = []
    for verdict, events in roots.items():
        ordered = sorted(events, key=_time_key)
        chain = _chain(downstream(ordered, children))
        tier = library.verdict(verdict).tier
        hypotheses.append(Hypothesis(verdict, tuple(ordered), chain, confidence.BASE[tier]))
    return hypotheses, consequences


def _upstream_with_verdict(event: Event, parents: dict[int, list[Event]], library: Library) -> Event | None:
    seen: set[int] = set()
    queue = list(parents.get(id(event), ()))
    while queue:
        cause = queue.pop(0)
        if id(cause) in seen:
            continue
        seen.add(id(cause))
        if library.pattern(cause.pattern).verdict is not None:
            return cause
        queue.extend(parents.get(id(cause), ()))
    return None


def _chain(events: list[Event], depth: dict[int, int] | None = None) -> tuple[Event, ...]:
    """One event per (pattern, source), in time order: repeats are counted, not listed.

    With `depth` (causal distance from the root), events within the same second are ordered
    cause first: sglang stamps whole seconds while glog and MORI stamp micro- or milliseconds,
    so a root printed at 10:16:03.885 must not sort after its effect stamped 10:16:03.
    """
    firsts: dict[tuple[str, str, object], Event] = {}
    for event in sorted(events, key=_time_key):
        # A stack frame an analyzer quotes under its crash line (field `frame`) is an entry of its own.
        firsts.setdefault((event.pattern, event.source, event.get("frame")), event)
    if depth is None:
        return tuple(sorted(firsts.values(), key=_time_key))
    return tuple(sorted(firsts.values(), key=lambda e: _causal_key(e, depth)))


def _causal_key(event: Event, depth: dict[int, int]) -> tuple[float, int, float, str, int]:
    second = float(int(event.time)) if event.time is not None else float("inf")
    time, source, line = _time_key(event)
    return (second, depth.get(id(event), len(depth)), time, source, line)


def _depths(roots: Sequence[Event], links: Sequence[Link]) -> dict[int, int]:
    """Longest causal distance from the roots of every reachable event (by identity), so that
    every link's cause ranks before its effect: in topological order over the events the roots
    reach, each link read once. `patterns check` refuses a cycle in the pattern graph, so the
    events' graph has none and every reached event is ordered."""
    children = children_of(links)
    waiting = dict.fromkeys((id(event) for event in downstream(roots, children)), 0)  # edges in, from reached events
    for key in list(waiting):
        for child in children.get(key, ()):
            waiting[id(child)] += 1
    depth = {id(root): 0 for root in roots}
    ready = deque(key for key, count in waiting.items() if count == 0)
    while ready:
        key = ready.popleft()  # its causes are all ordered, and it is reached: it has a depth
        for child in children.get(key, ()):
            depth[id(child)] = max(depth.get(id(child), -1), depth[key] + 1)
            waiting[id(child)] -= 1
            if waiting[id(child)] == 0:
                ready.append(id(child))
    return depth


def _time_key(event: Event) -> tuple[float, str, int]:
    return (event.time if event.time is not None else float("inf"), event.source, event.line)


def _analyze(hypothesis: Hypothesis, evidence: Evidence) -> list[Hypothesis]:
    spec = evidence.library.verdict(hypothesis.verdict)
    analyzed = [_in_phase(hypothesis, spec.phase, evidence)]
    if spec.analyzer is not None and analyzed[0].rejected is None:
        analyzed = ANALYZERS[spec.analyzer](analyzed[0], evidence)
    return [_with_coverage(h, evidence) for h in analyzed]


def _carriers_yield(hypotheses: list[Hypothesis]) -> list[Hypothesis]:
    """A crash whose own traceback ends in an exception another hypothesis roots (a page-size
    mismatch raised in the scheduler) is how that failure ended, not a rival cause: it is ruled
    out in its favour, whatever the times say (lines without times cannot be linked by them)."""
    live = [h for h in hypotheses if h.rejected is None]
    return [_carrier_ruled_out(h, live) if h.rejected is None else h for h in hypotheses]


def _carrier_ruled_out(hypothesis: Hypothesis, live: list[Hypothesis]) -> Hypothesis:
    for event in (*hypothesis.roots, *hypothesis.lines_used):
        raised = _raised(event)
        if raised is None:
            continue
        for other in live:
            root = next((r for r in other.roots if _ends_traceback(r, event, raised)), None)
            if other.verdict != hypothesis.verdict and root is not None:
                why = (
                    f"its traceback ({event.where}) ends in the exception at {root.where}, which {other.verdict} "
                    "names: the crash is how that failure ended"
                )
                return replace(hypothesis, rejected=why, confidence=min(hypothesis.confidence, RULED_OUT_CONFIDENCE))
    return hypothesis


def _raised(event: Event) -> str | None:
    """`Type: message` of the exception a crash line's traceback ends in, as the line reads."""
    exc_type = event.get("exc_type")
    if not exc_type:
        return None
    message = str(event.get("exc_message", "")).strip()
    return f"{exc_type}: {message}"[:120] if message else None


def _ends_traceback(root: Event, crash: Event, raised: str) -> bool:
    """The root is the crash's exception line: below the crash line in the same file, saying the same,
    with its type (Python's `Type: message`) or its message alone (C++'s `terminate called after
    throwing an instance of 'c10::DistBackendError'`, then `what():  <message>` on the next line)."""
    if root.source != crash.source or root.line <= crash.line:
        return False
    message = raised.partition(": ")[2]
    return raised in root.text or (len(message) >= MESSAGE_MATCH and message[:MESSAGE_MATCH] in root.text)


MESSAGE_MATCH = 40  # characters of an exception's message that identify it on its what() line


# What shows a server past start-up: the deployment answering requests (every server had loaded),
# or this server's own ready line or warmup.
DEPLOYMENT_SERVED = (Mark.ANSWERED, Mark.END_TO_END)
# Lines that show a component was down and came back (a start, its own warmup, its own word that
# it recovered): only these make the failures before them an outage it survived.
DOWN_AND_BACK = (Mark.SERVER_UP, Mark.WARMUP, Mark.RECOVERED)
SERVER_SERVED = (Mark.SERVER_UP, Mark.WARMUP)
# A cause logged this many times is no blip retried without consequence (one RDMA slice retried in a
# soak): the run served through it every time (vLLM recomputing each prompt whose KV handshake failed).
RECURRING = 3
RECURRING_SPAN_S = 60.0  # ... over at least this long: a burst at one moment is one failure


def _in_phase(hypothesis: Hypothesis, phase: str | None, evidence: Evidence) -> Hypothesis:
    """A start-up verdict (the library's `phase`) keeps only the roots logged before their server
    was shown serving: a disk that fills while a benchmark writes its results after a passing
    accuracy gate is no model-load failure."""
    if phase != START_UP:
        return hypothesis
    late = {id(root): served for root in hypothesis.roots if (served := _served_before(root, evidence))}
    if not late:
        return hypothesis
    kept = tuple(root for root in hypothesis.roots if id(root) not in late)
    if kept:
        chain = tuple(event for event in hypothesis.chain if id(event) not in late)
        return replace(hypothesis, roots=kept, chain=chain)
    root = hypothesis.first_root
    why = (
        f"{evidence.said(root)} comes after {evidence.said(late[id(root)])}: the server had loaded and served "
        "by then, so this is no start-up failure"
    )
    return replace(hypothesis, rejected=why, confidence=min(hypothesis.confidence, RULED_OUT_CONFIDENCE))


def _served_before(root: Event, evidence: Evidence) -> Event | None:
    """The first line of the root's own file, above it, that shows its server (or the deployment) serving."""
    for event in evidence.marked(*SERVING_PROOF):
        if event.source != root.source or event.line >= root.line or event.failing:
            continue
        marks = evidence.library.pattern(event.pattern).marks
        if any(mark in DEPLOYMENT_SERVED for mark in marks) or event.role is root.role:
            return event
    return None


def _with_coverage(hypothesis: Hypothesis, evidence: Evidence) -> Hypothesis:
    """Raise confidence by the share of the failure this hypothesis explains."""
    if hypothesis.rejected is not None or not evidence.failing_groups:
        return hypothesis
    explained = {(e.pattern, e.source) for e in hypothesis.chain} & evidence.failing_groups
    raised = confidence.coverage(hypothesis.confidence, len(explained), len(evidence.failing_groups))
    return replace(hypothesis, confidence=raised, coverage=hypothesis.coverage + raised - hypothesis.confidence)


def _rank(hypothesis: Hypothesis, library: Library) -> tuple[int, int, int, float, float]:
    """Causal position first (tier, then how many kinds of failing line it explains), then
    severity; never how many times a line repeats, nor lines that did not fail. A verdict that rests
    only on lines naming it as one of several possible causes (Ray's worker-died message lists the OOM
    killer first) holds no cause's place: a verdict a line states outranks a guess."""
    tier = library.verdict(hypothesis.verdict).tier
    weight = GUESS_WEIGHT if _only_guessed(hypothesis, library) else tier.weight
    severity = max(root.severity.rank for root in hypothesis.roots)
    start = hypothesis.first_root.time
    return (
        weight,
        hypothesis.failures_explained,
        severity,
        hypothesis.confidence,
        -(start if start is not None else 1e18),
    )


GUESS_WEIGHT = Tier.SYMPTOM.weight  # the causal place of a verdict only guessed at: below any one a line states


def _only_guessed(hypothesis: Hypothesis, library: Library) -> bool:
    guessed = library.marked(Mark.POSSIBLE_CAUSE)
    return all(root.pattern in guessed for root in hypothesis.roots)


# ---------------------------------------------------------------- reports


def _report_for(
    best: Hypothesis,
    runners_up: list[Hypothesis],
    hypotheses: list[Hypothesis],
    consequences: list[tuple[Event, Event]],
    evidence: Evidence,
    missing: list[str],
) -> Report:
    spec = evidence.library.verdict(best.verdict)
    score = confidence.named(spec.tier, best.confidence, best.coverage, spec.analyzer)
    orders = _time_orders(best, runners_up, evidence)
    # Another reading of the verdict's own lines (the crash's other phase) is no rival: the
    # analyzer weighed the two readings against each other already.
    rivals = [other for other in runners_up if not _reads_the_same_lines(other, best)]
    if rivals and evidence.library.verdict(rivals[0].verdict).tier == spec.tier:
        # A rival of the same tier that nothing links: a near tie, unless the verdict clearly comes first.
        order = orders.get(id(rivals[0]))
        score = confidence.near_tie(score, order.margin if order else 0.0, rivals[0].verdict)
    score = confidence.missing_roles(score, missing)
    verdict = confidence.applied(
        Verdict(
            best.verdict,
            spec.title,
            0.0,
            best.summary or _default_summary(best, spec.title),
            best.facts or _root_facts(best.roots),
            # The analyzer's facts are identified by the verdict's declaration, a root line's by its pattern's.
            spec.identity if best.facts else evidence.library.pattern(best.first_root.pattern).identity,
        ),
        score.rounded(),
    )
    alternatives = _alternatives(best, runners_up, hypotheses, consequences, evidence.library, score.value, orders)
    chain = _chain(list(best.chain) + list(best.lines_used), _depths(best.roots, evidence.links))
    in_chain = frozenset(best.chain)  # a set: a bundle's links and chain may each run to thousands
    links = tuple(link for link in evidence.links if link.cause in in_chain and link.effect in in_chain)
    return Report(
        verdict=verdict,
        chain=chain,
        links=links,
        alternatives=alternatives,
        suggestions=best.suggestions,
        missing=tuple(missing + list(best.missing)),
        inputs=evidence.sources,
        advice=best.advice
        or (_root_advice(best, evidence.library) if spec.advice_from_root else "")
        or spec.advice.strip(),
        explain=spec.explain.strip(),
        roots=best.roots,
    )


def _root_advice(best: Hypothesis, library: Library) -> str:
    """The fix the root line's own pattern states, for a verdict marked `advice_from_root`: written
    for that component's line in its engine's knobs, where the verdict's is the general case."""
    return library.pattern(best.first_root.pattern).advice.strip() if best.roots else ""


def _requests_lost(failing: Sequence[Event], library: Library) -> int:
    """The requests the failures failed, as their lines count them: a lost peer's `N requests
    affected` (once per peer: each rank may say it), else the error answers (each line one request)."""
    affected: dict[object, int] = {}
    for event in failing:
        value = event.get("affected")
        if isinstance(value, int):
            peer = event.get("bootstrap_addr") or event.source
            affected[peer] = max(affected.get(peer, 0), value)
    if affected:
        return sum(affected.values())
    answers = library.marked(Mark.ERROR_ANSWER, Mark.REQUEST_FAILED)
    return count_matches([e for e in failing if e.pattern in answers])


def _short_by_at_most(check: Event, lost: int) -> bool:
    """A benchmark's count short of its plan by no more than the requests the outage failed: the
    outage's cost, counted again at the end (2P1D soak: 6 requests lost with a restarted prefill,
    19,994 of 20,000 completed)."""
    completed, planned = check.get("completed"), check.get("planned")
    return isinstance(completed, int) and isinstance(planned, int) and 0 < planned - completed <= lost


def _survived_blip(split: Split, failing: list[Event], evidence: Evidence) -> str | None:
    """Why the run is healthy despite its catalogued causes, when every one is a blip it survived:
    nothing downstream of it (or anywhere) failed, an end-to-end check passed after it (or untimed;
    with no check in the logs, requests answered after every cause came back in its own file),
    and its server was shown serving around it (serving again after it in its own file, or up before
    it). A cause with no consequence and a passing end-to-end result did not fail the run (one
    retried RDMA slice in a 30-minute soak); nor one whose consequences came in one burst after
    which a server started again (incidents.came_back: a prefill restarted by its probe, the six
    requests it held lost), the checks passing after that; None otherwise."""
    viable = split.primary.hypotheses + tuple(h for incident in split.others for h in incident.hypotheses)
    if any(never_survived(h.verdict, h.roots, evidence.library) for h in viable):
        return None  # stale KV: the answers were served from freed blocks; nothing after takes them back
    roots = {id(root) for h in viable for root in h.roots}
    outage = _during_outage(viable, split, evidence.library.marked(*DOWN_AND_BACK))
    lost = _requests_lost(failing, evidence.library)
    failing = [e for e in failing if not _short_by_at_most(e, lost)]  # the outage's cost, counted at the end
    # Lines that name the same cause again (Mooncake marking the endpoint its slices failed on
    # inactive, then moving the slices to another rail) are the cause unfolding, not what it caused.
    restating = {h.verdict for h in viable}
    # A loss that says it affected no request (`Lost connection with prefill instance ..., 0 requests
    # affected`: a teardown's) failed nothing; nor does a warning in a run whose end-to-end checks all
    # passed (one request a client aborted: the checks say the rest were served), unless it is a gate
    # itself (a benchmark's failed requests).
    gated = evidence.library.marked(Mark.GATE_FAILED)
    warnings_served = evidence.end_to_end_passed()
    after = [
        event
        for event in failing
        if id(event) not in roots
        and not outage(event)
        and _verdict_of(event, evidence) not in restating
        and event.get("affected") != 0
        and not (warnings_served and event.severity.rank <= Severity.WARNING.rank and event.pattern not in gated)
    ]
    back = came_back(failing, evidence) if after and not any(e.pattern in gated for e in after) else None
    if after and back is None:
        return None  # what it caused failed too, and no server came back after it
    checks = (
        evidence.marked(Mark.END_TO_END)
        or _answered_after_recoveries(viable, split, evidence)
        or _answered_after_coming_back(back, evidence)
    )
    if any(e.failing and not _short_by_at_most(e, lost) for e in checks):
        return None  # a check failed beyond the requests the outage itself cost
    if back is not None and any(e.time is not None and back.time is not None and e.time < back.time for e in checks):
        return None  # a check that passed before the server came back says nothing of after
    nodes = {source.name: source.node for source in evidence.sources}
    proofs = [
        _served_around(h, split, checks, evidence)
        or _came_back_as(h, back, nodes)
        or _peer_came_back(h, back, evidence.library.verdict(h.verdict).peer_side)
        for h in viable
    ]
    if not all(proofs):
        return None
    proof = proofs[0]
    assert proof is not None
    passed = "the end-to-end checks passed" if evidence.marked(Mark.END_TO_END) else "requests were answered"
    if back is not None:
        return (
            f"what it caused came in one burst, then a server started again ({evidence.said(back)}), nothing "
            f"failed after that, and {passed}, so the run survived the outage"
        )
    if any(id(h) in split.recoveries for h in viable):
        return (
            f"the component came back: it went on after the failure ({evidence.said(proof)}), nothing "
            f"failed after that, and {passed} after it, so the run survived it"
        )
    if any(_recurring(h, evidence) for h in viable):
        return None  # a cause that came back again and again while serving is how the run served, no blip
    return (
        f"its server was serving ({evidence.said(proof)}), no request or check failed and the end-to-end "
        "checks passed, so it was retried or recovered without consequence"
    )


def _verdict_of(event: Event, evidence: Evidence) -> str | None:
    """The verdict the event's pattern supports, if any (an error line no pattern names has none)."""
    return evidence.library.pattern(event.pattern).verdict if evidence.library.knows(event.pattern) else None


def _recurring(hypothesis: Hypothesis, evidence: Evidence) -> bool:
    """The cause's line came back again and again while its server served: RECURRING times or more,
    over RECURRING_SPAN_S (or, without times, with other lines between them in its file). A burst of
    them at one moment (six slices of one transfer) is one failure."""
    root = hypothesis.first_root
    same = sorted(
        (e for e in evidence.events if e.failing and e.pattern == root.pattern and e.source == root.source),
        key=lambda e: e.line,
    )
    if max(len(same), root.repeats) < RECURRING or not same:
        return False
    times = [e.time for e in same if e.time is not None]
    if len(times) == len(same) and len(same) > 1:
        return max(times) - min(times) >= RECURRING_SPAN_S
    # No times to tell: lines of other kinds between them (the server's own lines of the requests it
    # went on answering) tell a failure that kept coming back from one burst of consecutive lines.
    lines = max(len(same), root.repeats)
    return same[-1].line - same[0].line + 1 > lines + RECURRING


def _answered_after_recoveries(viable: Sequence[Hypothesis], split: Split, evidence: Evidence) -> list[Event]:
    """With no end-to-end check in the logs, the requests answered after every cause came back (a
    server restarted by its orchestrator, its own ready line after its failure in its file, then
    requests answered, a client's accuracy) stand for the check: they show the run going on past
    it. Only when every cause recovered in its own file: a failure with no such line has nothing
    that says the run went on past it, and answered lines before the recovery say nothing of after.
    A client's untimed results stand when every cause's server started again after it (a restart's
    own file, or its ready line after the failure in the same one). A cause whose verdict is
    `survived_by_restart` stands only when its server started again."""
    recovered = [split.recoveries.get(id(h)) for h in viable]
    times = [r.proof.time for r in recovered if r is not None and r.proof.time is not None]
    if not times or len(times) != len(recovered):
        return []
    started = evidence.library.marked(*SERVER_SERVED)
    # A cause its server's serving on does not get over (a side channel that could not bind, the
    # engine answering by recomputing): only its next life stands for the check, in a file of its own
    # or a start-up line (ready, warmup) after the failure in the same one.
    if any(
        evidence.library.verdict(h.verdict).survived_by_restart
        and not (r is not None and (r.restarted or r.proof.pattern in started))
        for h, r in zip(viable, recovered, strict=True)
    ):
        return []
    since = max(times)
    answered = [e for e in evidence.marked(Mark.ANSWERED) if not e.failing]
    after = [e for e in answered if e.time is not None and e.time > since]
    # A life that ended and started again: in a file of its own, or relaunched in the same file (an
    # operator appending each launch to one log) with its ready line after the failure.
    if after or not all(r is not None and (r.restarted or r.proof.pattern in started) for r in recovered):
        return after
    return _client_results(answered, evidence)


def _answered_after_coming_back(back: Event | None, evidence: Evidence) -> list[Event]:
    """With no end-to-end check in the logs, the requests answered after a server started again
    following the outage (a restarted prefill's ready line, then answers), and a client's untimed
    results: they show the run going on past it."""
    if back is None or back.time is None:
        return []
    answered = [e for e in evidence.marked(Mark.ANSWERED) if not e.failing]
    after = [e for e in answered if e.time is not None and e.time > back.time]
    return after + _client_results(answered, evidence) if after else []


def _client_results(answered: Sequence[Event], evidence: Evidence) -> list[Event]:
    """A client's results printed without any time (a GSM8K script's `Accuracy: 0.952`, a
    benchmark's summary), when every failure was survived by a restart that came up in its own next
    log: the client's file says nothing of when it ran, and the run's one client result is the
    run's, not the earlier life's (which never ran past its failure)."""
    timed = {e.source for e in evidence.events if e.time is not None}
    return [e for e in answered if e.source not in timed and e.role in (Role.HARNESS, Role.CI)]


def _during_outage(viable: Sequence[Hypothesis], split: Split, back: frozenset[str]) -> Callable[[Event], bool]:
    """Whether a failing line belongs to a failure the component came back from: a kind of line in
    a recovered hypothesis's chain (the crash's own death lines, the router's errors while it was
    down), logged before the line that shows its server serving again (in that server's file, by
    line; elsewhere, by time). A failure after the recovery is a failure of its own. Only a
    recovery that says the component was down and came back (`back`: a start, its warmup, its own
    word; or any serving line in the log of its next life, a restart's own file) makes an outage: a
    server that merely answered again after a failure was never down, and the requests that failed
    in between are that failure's consequences."""
    recovered = [
        (h, split.recoveries[id(h)].proof)
        for h in viable
        if id(h) in split.recoveries
        and (split.recoveries[id(h)].proof.pattern in back or split.recoveries[id(h)].restarted)
    ]
    kinds = {(e.pattern, e.source): proof for h, proof in recovered for e in h.chain if e.failing}
    # A life that ended and was restarted in a file of its own (`decode-previous.log`, then
    # `decode.log` serving): whatever failed in that earlier life is how it ended.
    ended = {h.first_root.source for h in viable if id(h) in split.recoveries and split.recoveries[id(h)].restarted}

    def before_recovery(event: Event) -> bool:
        if event.source in ended:
            return True
        proof = kinds.get((event.pattern, event.source))
        if proof is None:
            return False
        if event.source == proof.source:
            return event.line < proof.line
        return event.time is not None and proof.time is not None and event.time <= proof.time

    return before_recovery


def _came_back_as(hypothesis: Hypothesis, back: Event | None, nodes: Mapping[str, str | None]) -> Event | None:
    """The start after the burst, when it is the failed root's server starting again: the root's
    file is named as a process's earlier life (`decode-vllm-previous.log`, `kubectl logs --previous`)
    whose next life is not beside it under its name but in another file (a stern stream of several
    pods), and the start is its side's, on no other node (`prefill_gpu0` coming up says nothing of
    `prefill_gpu1`). A failure in a file that is no earlier life stays the cause."""
    root = hypothesis.first_root
    if back is None or back.role is not root.role or back.source == root.source:
        return None
    if EARLIER_LIFE.match(root.source.rpartition("/")[2]) is None:
        return None
    here, there = nodes.get(root.source), nodes.get(back.source)
    return back if here is None or there is None or here == there else None


def _peer_came_back(hypothesis: Hypothesis, back: Event | None, peer_side: bool) -> Event | None:
    """The start after the burst, when the verdict is what a server sees of its peer going away
    (`peer_side`: a decode that lost its prefill) and the server that started again is of the other
    side: the peer that went away came back (round 84's bundles-1 09: an operator's systemd restart of
    one prefill, six requests lost, the gate passed after it)."""
    root = hypothesis.first_root
    if not peer_side or back is None or back.source == root.source:
        return None
    sides = {Role.PREFILL, Role.DECODE}
    return back if back.role in sides and root.role in sides and back.role is not root.role else None


def _served_around(hypothesis: Hypothesis, split: Split, passed: list[Event], evidence: Evidence) -> Event | None:
    """The line that shows the root's server serving around a failure the end-to-end checks passed after."""
    root = hypothesis.first_root
    if not any(e.time is None or root.time is None or e.time > root.time for e in passed):
        return None
    recovery = split.recoveries.get(id(hypothesis))
    return recovery.proof if recovery is not None else _served_before(root, evidence)


def _survived_report(
    split: Split,
    reason: str,
    failing: list[Event],
    hypotheses: list[Hypothesis],
    evidence: Evidence,
    missing: list[str],
) -> Report:
    """A healthy report that names the survived blip, with its cause as a low alternative saying why."""
    alternatives = tuple(
        Alternative(h.verdict, min(h.confidence, RULED_OUT_CONFIDENCE), _why_survived(h, split, reason))
        for h in {h.verdict: h for h in reversed(hypotheses)}.values()
    )
    proof = [e for e in evidence.marked(*SERVING_PROOF) if not e.failing]
    report = _healthy(proof, evidence, alternatives, missing, tolerated=failing, benign=reason)
    # The survived failure's own cause line when a hypothesis names one (the OOM, not the traceback's
    # header above it), else the earliest failing line.
    first = split.primary.hypotheses[0].first_root if split.primary.hypotheses else min(failing, key=_time_key)
    note = f"a failure the run survived is not counted: {evidence.said(first)}: {clip(first.text.strip(), 400)}"
    return replace(report, notes=(*report.notes, note))


def _why_survived(hypothesis: Hypothesis, split: Split, reason: str) -> str:
    if hypothesis.rejected is not None:
        return hypothesis.rejected
    recovery = split.recoveries.get(id(hypothesis))
    return recovery.why(hypothesis) if recovery is not None else f"survived: {reason}"


def _time_orders(best: Hypothesis, runners_up: list[Hypothesis], evidence: Evidence) -> dict[int, Precedence]:
    """How the verdict's first failure stands in time to each rival of its tier (by the rival's identity)."""
    tier = evidence.library.verdict(best.verdict).tier
    orders = {}
    for rival in runners_up:
        order = precedence(best, rival, evidence) if evidence.library.verdict(rival.verdict).tier == tier else None
        if order is not None:
            orders[id(rival)] = order
    return orders


def _with_incidents(report: Report, split: Split, evidence: Evidence) -> Report:
    """Failures the service recovered from become alternatives that say so; unrelated incidents
    elsewhere in time become findings of their own."""
    recovered = tuple(
        Alternative(h.verdict, 0.05, split.recoveries[id(h)].why(h))
        for h in split.recovered_rivals
        if h.verdict != report.verdict.id
    )
    kept = tuple(a for a in report.alternatives if a.id not in {r.id for r in recovered})
    findings = tuple(_finding(incident.hypotheses[0], why_separate(incident, split.primary, split.recoveries), evidence)
                     for incident in split.others)  # fmt: skip
    return replace(report, alternatives=(*kept, *recovered), other_incidents=findings)


def _finding(hypothesis: Hypothesis, why: str, evidence: Evidence) -> Finding:
    spec = evidence.library.verdict(hypothesis.verdict)
    verdict = Verdict(
        hypothesis.verdict,
        spec.title,
        hypothesis.confidence,
        hypothesis.summary or _default_summary(hypothesis, spec.title),
        hypothesis.facts or _root_facts(hypothesis.roots),
    )
    chain = _chain(list(hypothesis.chain) + list(hypothesis.lines_used), _depths(hypothesis.roots, evidence.links))
    return Finding(verdict, chain, why)


# Captures that say where a line came from, not what it says.
_PLACE_FIELDS = frozenset({"dp", "tp", "ep", "pp", "rank", "attn_cp", "moe_dp"})


def _root_facts(roots: Sequence[Event]) -> tuple[tuple[str, FieldValue], ...]:
    """Without an analyzer, the root line's own typed captures are the verdict's facts, and what it
    leaves unnamed the later root lines of its pattern in its file name: one failure worded over
    several lines (transformers' gated-repo OSError first, huggingface_hub's line naming the model below)."""
    first = roots[0]
    facts = {name: value for name, value in first.fields if name not in _PLACE_FIELDS}
    for root in roots[1:]:
        if root.pattern != first.pattern or root.source != first.source:
            continue
        for name, value in root.fields:
            if name not in _PLACE_FIELDS and facts.get(name) is None and value is not None:
                facts[name] = value
    return tuple(facts.items())


def _default_summary(hypothesis: Hypothesis, title: str) -> str:
    root = hypothesis.first_root
    raised = _raised_below(root)
    if raised:
        # A frame read as its traceback's first line: the exception the frames end in says what
        # went wrong, the frame only where.
        return f"{title}: {raised}, raised under {clip(root.text.strip(), 160)} ({root.where})"
    return f"{title}: {clip(root.text.strip(), 300)} ({root.where})"


def _raised_below(root: Event) -> str:
    """'PermissionError: [Errno 13] Permission denied: ...': the exception a root line's traceback
    block ends in, when the line itself does not name it; empty otherwise."""
    kind, message = root.get("exc_type"), root.get("exc_message")
    if not isinstance(kind, str) or kind in root.text:
        return ""
    return f"{kind}: {clip(str(message), 200)}" if message else kind


def _alternatives(
    best: Hypothesis,
    runners_up: list[Hypothesis],
    hypotheses: list[Hypothesis],
    consequences: list[tuple[Event, Event]],
    library: Library,
    verdict_confidence: float,
    orders: dict[int, Precedence],
) -> tuple[Alternative, ...]:
    # A runner-up never shows more confidence than the verdict it lost to.
    ceiling = max(0.05, min(0.5, verdict_confidence - 0.05))
    found: dict[str, Alternative] = {}
    for other in runners_up:
        why = other.why_not or (
            f"explains less: its chain links {other.failures_explained} kinds of failing line against "
            f"{best.failures_explained} for {best.verdict}, starting at {other.first_root.where}"
        )
        confidence = min(other.confidence, ceiling)
        if _reads_the_same_lines(other, best):
            # What lowered the verdict's confidence (logs not given) lowers every reading of its
            # lines alike: the other reading stays as far below it as the analyzer put it.
            distance = best.confidence - other.confidence
            confidence = min(ceiling, max(OPEN_READING, verdict_confidence - distance))
        elif _only_guessed(other, library) and not _only_guessed(best, library):
            why = f"its lines only name it as one of several possible causes; a line states {best.verdict}"
            confidence = max(0.05, min(confidence, verdict_confidence - SHALLOWER_GAP))
        elif library.verdict(other.verdict).tier.weight < library.verdict(best.verdict).tier.weight:
            tier = library.verdict(other.verdict).tier.value
            why = f"a {tier}-level verdict, and a deeper cause ({best.verdict}) is in the evidence"
            confidence = max(0.05, min(confidence, verdict_confidence - SHALLOWER_GAP))
        elif id(other) in orders:  # the time order first: it is what decides between rivals of one tier
            why = f"{orders[id(other)].sentence()}; {why}"
            confidence = max(0.05, confidence - RIVAL_MARGIN_DROP * max(0.0, orders[id(other)].margin))
        found.setdefault(other.verdict, Alternative(other.verdict, round(confidence, 2), why))
    for rejected in hypotheses:
        if rejected.rejected is not None and rejected.verdict != best.verdict:
            confidence = min(rejected.confidence, ceiling)
            found.setdefault(rejected.verdict, Alternative(rejected.verdict, confidence, rejected.rejected))
    for event, explainer in consequences:
        verdict = library.pattern(event.pattern).verdict
        if verdict is not None and verdict != best.verdict:
            why = f"{described(library, event)} follows from {described(library, explainer)}"
            found.setdefault(verdict, Alternative(verdict, 0.05, why))
    return tuple(sorted(found.values(), key=lambda a: (-a.confidence, a.id)))


def _reads_the_same_lines(other: Hypothesis, best: Hypothesis) -> bool:
    """Another verdict an analyzer read from exactly the verdict's root lines (a crash's phases)."""
    return other.verdict != best.verdict and other.roots == best.roots


def _no_cause_report(
    failing: list[Event],
    hypotheses: list[Hypothesis],
    consequences: list[tuple[Event, Event]],
    evidence: Evidence,
    missing: list[str],
) -> Report:
    library = evidence.library
    alternatives = tuple(
        sorted(
            {h.verdict: Alternative(h.verdict, h.confidence, h.rejected or "") for h in hypotheses}.values(),
            key=lambda a: (-a.confidence, a.id),
        )
    )
    proof = [e for e in evidence.marked(*SERVING_PROOF) if not e.failing]
    benign = (
        _benign_reason(failing, proof, hypotheses, evidence)
        or _client_caused(failing, proof, evidence)
        or _outage_came_back(failing, evidence)
    )
    if failing and benign is not None:  # the failing lines' own reason first: it says more than "served"
        return _healthy(proof, evidence, alternatives, missing, tolerated=failing, benign=benign)
    if failing and _only_warnings_while_serving(failing, proof, evidence):
        # A few aborted requests in a run whose probe and gate passed: noise, not a failure.
        return _healthy(proof, evidence, alternatives, missing, tolerated=failing)
    if not failing:
        passed = _gates_passed(evidence)
        unanswered = _received_unanswered(proof, evidence)
        if unanswered:  # a ready server that never answered what it received shows no serving
            return _no_failure_seen(alternatives, missing, evidence, unanswered=unanswered)
        if proof or passed:
            return _healthy([*proof, *passed], evidence, alternatives, missing)
        return _no_failure_seen(alternatives, missing, evidence)  # error lines no pattern names: unexplained.py
    chain = _chain(failing)
    first, last = chain[0], chain[-1]
    # The last kind too: where the failures ended (a job cancelled after a stuck test, a server's
    # exit after its errors) is the other line a reader looks for.
    other = last.pattern != first.pattern and last.where != first.where  # a line quoted once (two patterns' line)
    then = f"; last: {library.pattern(last.pattern).title} at {last.where}" if other else ""
    kinds = f"{'One kind of failure is' if len(chain) == 1 else f'{len(chain)} kinds of failure are'} logged"
    stated = _stated_cause(chain, hypotheses, library)
    if stated is not None:
        cause, why = stated
        # The line says what went wrong (a full disk), but not which failure of the deployment it
        # was: its family was ruled out. Say so, and give the line's own remedy, not "add the logs".
        lead = "" if cause is first else f" (first: {library.pattern(first.pattern).title} at {first.where}{then})"
        stating = evidence.said(cause)  # the line itself, quoted: it is the report's lead
        summary = f"{kinds}{lead}; {stating} states its own cause, but no failure family fits it: {why}."
        missing = [*missing, *_missing_for_symptoms(failing, library)]
        score = confidence.no_cause("a cause no family fits")
        report = _inconclusive(summary, chain, alternatives, missing, evidence, score)
        advice = library.pattern(cause.pattern).advice.strip()
        return replace(report, advice=advice) if advice else report
    # The first line in its pattern's words for what it says when it has them (a request's queue wait
    # of 161 s), else its title: a line that fails by a condition on its values is not what its title names.
    named = evidence.says(first) or library.pattern(first.pattern).title
    summary = f"{kinds} (first: {named} at {first.where}{_innermost(first)}{then}), {NO_LINE_SHOWS_CAUSE}"
    missing = [*missing, *_missing_for_symptoms(failing, library)]
    return _inconclusive(summary, chain, alternatives, missing, evidence, confidence.no_cause("no line shows a cause"))


NO_LINE_SHOWS_CAUSE = "but no line in these logs shows their cause."


def _stated_cause(
    chain: Sequence[Event], hypotheses: Sequence[Hypothesis], library: Library
) -> tuple[Event, str] | None:
    """The first line of the chain whose pattern is a cause, with why its family was ruled out (a
    disk that filled under a build directory is no model that could not load), or that no family
    names it (a health probe on a path the server does not serve: the line is its cause, the
    catalogue has no verdict for it)."""
    for event in chain:
        if event.kind is not Kind.CAUSE:
            continue
        rejected = [h.rejected for h in hypotheses if h.rejected and any(root is event for root in h.roots)]
        if rejected:
            return event, str(rejected[0])
        if library.pattern(event.pattern).verdict is None:
            return event, "the catalogue has no verdict for it"
    return None


def _proof_words(kinds: list[str], library: Library) -> str:
    """The kinds of serving proof in words ('the end-to-end checks and the servers' ready lines'), not ids."""
    marks = {mark for kind in kinds for mark in library.pattern(kind).marks}
    words = [text for mark, text in PROOF_WORDS.items() if mark in marks] or ["the logs"]
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def _warning_lines(count: int) -> str:
    return "one warning-level line" if count == 1 else f"{count:,} warning-level lines"


def _benign_reason(
    failing: list[Event], proof: list[Event], hypotheses: list[Hypothesis], evidence: Evidence
) -> str | None:
    """Why every failing line is harmless, when each belongs to a hypothesis an analyzer found
    benign (KV released after the client aborted, or for requests sent before the decode was up)
    or is one of a few error answers its file answered past (every later request answered), and
    something shows the deployment serving."""
    benign = [h for h in hypotheses if h.benign]
    covered = _benign_lines(benign)
    # Warnings beside them (a client's aborted request) fail nothing in a run whose end-to-end
    # checks all passed; error answers must have been answered past.
    served = evidence.end_to_end_passed()
    rest = [e for e in failing if id(e) not in covered and not (served and e.severity.rank <= Severity.WARNING.rank)]
    if not proof or not benign or any(e.pattern not in evidence.library.marked(Mark.ERROR_ANSWER) for e in rest):
        return None
    if not all(_answered_past(source, evidence) for source in {e.source for e in rest}):
        return None
    reasons = [str(h.rejected) for h in benign]
    if rest:
        first = min(rest, key=_time_key)
        reasons.append(
            f"the {len(rest)} error answer(s) from {first.where} on came before every later request of that file was "
            "answered (none failed after them)"
        )
    return "; ".join(reasons)


def _outage_came_back(failing: list[Event], evidence: Evidence) -> str | None:
    """Why failures no pattern names a cause of were an outage the run came back from: requests were
    answered before them, they came in one burst (a decode pod replaced mid-run: its peer's transfers
    failed, the router answered 5xx and found no worker), then a server started again
    (incidents.came_back), and the end-to-end checks after it passed (untimed: a client's results,
    which no failed request of the burst reached). None when a gate failed, a line's verdict is never
    survived, a check failed, or nothing shows requests answered after it."""
    library = evidence.library
    if any(e.pattern in library.marked(Mark.GATE_FAILED) for e in failing):
        return None
    if any(never_survived(v, (e,), library) for e in failing if (v := _verdict_of(e, evidence)) is not None):
        return None  # a job stopped by its scheduler, answers served from freed KV: nothing takes it back
    back = came_back(failing, evidence)
    if back is None or back.time is None:
        return None
    first = min(failing, key=_time_key)
    answered = [e for e in evidence.marked(Mark.ANSWERED) if not e.failing and e.time is not None]
    if first.time is None or not any(e.time is not None and e.time < first.time for e in answered):
        return None  # nothing served before the burst: a start-up's errors, no outage it came back from
    checks = evidence.marked(Mark.END_TO_END)
    if any(e.failing for e in checks):
        return None
    after = [e for e in checks if e.time is None or e.time > back.time] or _answered_after_coming_back(back, evidence)
    if not after:
        return None
    return (
        f"the failures from {first.where} on came in one burst, then a server started again ({evidence.said(back)}), "
        f"nothing failed after that, and {evidence.said(after[0])} passed after it, so the run survived the outage"
    )


# Answers a file gives after a few error answers, and how many times their number, for those errors
# to be the file's start (requests sent before its backends were up), not a failure of the run.
ANSWERED_PAST = 10


def _answered_past(source: str, evidence: Evidence) -> bool:
    """A file whose error answers (a proxy's 500s) it answered past: at least ANSWERED_PAST times as
    many requests answered below its last failing line as it has failing lines. Read once a file."""
    same = [e for e in evidence.events if e.source == source]
    errors = [e for e in same if e.failing]
    last = max(e.line for e in errors)
    answered = evidence.library.marked(Mark.ANSWERED)
    kept: dict[str, list[Event]] = {}
    for e in same:
        if e.pattern in answered and not e.failing:
            kept.setdefault(e.pattern, []).append(e)
    if _lines_after(kept, last) >= ANSWERED_PAST * max(count_matches(errors), 1):
        return True
    # The scan keeps a routine line's first few of a file (`stop_after`) and stops there: a pattern
    # that reached its cap below the errors answered on past it, which the end-to-end checks confirm.
    capped = any(
        any(e.line > last for e in events) and len(events) >= (evidence.library.pattern(p).stop_after or 0) > 0
        for p, events in kept.items()
    )
    return capped and any(not e.failing for e in evidence.marked(Mark.END_TO_END))


def _lines_after(kept: dict[str, list[Event]], last: int) -> int:
    """The lines of each pattern below line `last` (the kept ones, and those they stand for: `repeats`),
    counted only where a kept line is already below `last`."""
    after = 0
    for events in kept.values():
        if any(e.line > last for e in events):
            after += max(e.repeats for e in events) - sum(1 for e in events if e.line < last)
    return after


def _client_caused(failing: list[Event], proof: list[Event], evidence: Evidence) -> str | None:
    """Why every failing line is a client's bad request, when it is: each is an error answer (a
    proxy's 5xx, a failed request), no more of them than requests the server refused for what they
    asked (vLLM's `maximum context length is N tokens. However, your request has M`), and the run
    shows serving. The refusal is the server working as it should; what passes it on is its echo."""
    library = evidence.library
    refused = evidence.marked(Mark.CLIENT_REJECTED)
    answers = library.marked(Mark.ERROR_ANSWER, Mark.REQUEST_FAILED)
    if not proof or not refused or any(e.pattern not in answers for e in failing):
        return None
    # Each file echoes the refusals once: the server's own line for the request it refused, the
    # proxy's 5xx for it. No file may hold more error answers than there were refusals.
    echoes = [[e for e in failing if e.source == source] for source in {e.source for e in failing}]
    if any(count_matches(each) > count_matches(refused) for each in echoes):
        return None
    first = min(refused, key=_time_key)
    return (
        f"they answer {count_matches(refused)} request(s) the server refused for what they asked "
        f"({described(library, first)}: {clip(first.text.strip(), 200)}): a client's error, passed on"
    )


def _only_warnings_while_serving(failing: list[Event], proof: list[Event], evidence: Evidence) -> bool:
    """Warning-level symptoms only, and the run's result says it served through them: an end-to-end
    check (probe, accuracy gate) passed, or a harness's own log states its result (an accuracy, a
    benchmark's summary) in a file apart from the warnings, and nothing in it failed. A harness
    that lost requests says so in error lines of its own (failed requests, a score at collapse),
    which are no warnings; a paste that quotes a result beside a warning is no harness's log (its
    lines may come from any run), so the result proves nothing there."""
    if not all(e.severity.rank <= Severity.WARNING.rank for e in failing):
        return False
    library = evidence.library
    end_to_end = any(e.pattern in library.marked(Mark.END_TO_END) for e in proof)
    warned = {e.source for e in failing}
    harness_logs = {s.name for s in evidence.sources if s.role is Role.HARNESS} - warned
    answered = library.marked(Mark.ANSWERED)
    harness_result = any(e.source in harness_logs and e.pattern in answered for e in proof)
    return end_to_end or harness_result


def _judged_within(line: Event, evidence: Evidence) -> str:
    """What a check that passed judged, when the line is a gate's and its block read a measure
    (a comparison table's row: the measure, its baseline and its value); "" otherwise."""
    if line.pattern not in evidence.library.marked(Mark.GATE_FAILED) or not line.get("row"):
        return ""
    baseline, value = line.get("baseline"), line.get("value")
    if not isinstance(baseline, int | float) or not isinstance(value, int | float):
        return ""
    return (
        f" It judged {line.get('metric')} from {baseline:g} to {value:g} ({line.get('change')}), within its limit: "
        f"{clip(str(line.get('row')).strip(), 240)}"
    )


def _closest_to_its_limit(evidence: Evidence) -> Event | None:
    """Of the results a comparison judged within its allowance, the one that got the most worse;
    None when none got worse at all."""
    worse = [
        e
        for e in evidence.marked(Mark.GATE_FAILED)
        if not e.failing and isinstance(e.get("worse"), int | float) and float(e.get("worse")) > 0
    ]
    return max(worse, key=lambda e: (float(e.get("worse")), _place(e))) if worse else None


def _gates_passed(evidence: Evidence) -> list[Event]:
    """Results a check judged and found within its limit: a gate's line whose condition held on the
    values it reads (a comparison table's candidate within 10 % of its baseline, a benchmark's zero
    failed requests). A result judged is one measured end to end: with nothing failing, it shows the
    deployment served. One side of a before/after comparison is judged by compared.py, not by its
    pattern's condition, and is no such check: what two runs stated (`Before: 128 GPUs`, a workaround's
    After beside the regressed Before) need not be a measure of the deployment serving well."""
    library = evidence.library
    sides = library.marked(Mark.COMPARED)
    passed = []
    for event in evidence.marked(Mark.GATE_FAILED):
        condition = library.pattern(event.pattern).failure_if
        if event.failing or condition is None or event.pattern in sides:
            continue
        if all(event.get(name) is not None for name in condition.fields):
            passed.append(event)
    return passed


def _healthy(
    proof: list[Event],
    evidence: Evidence,
    alternatives: tuple[Alternative, ...],
    missing: list[str],
    tolerated: list[Event] | None = None,
    benign: str | None = None,
) -> Report:
    spec = evidence.library.verdict(HEALTHY)
    kinds = sorted({e.pattern for e in proof})
    end_to_end = bool(set(kinds) & evidence.library.marked(Mark.END_TO_END, Mark.GATE_FAILED))
    score = confidence.healthy(len(kinds), len(missing), bool(tolerated), end_to_end)
    summary = f"No failure in the logs, and {_proof_words(kinds, evidence.library)} show the deployment serving."
    named: Event | None = None  # the line the summary quotes: in the chain too, so reports quote it whole
    if tolerated and benign is not None:
        first = min(tolerated, key=_time_key)
        summary = (
            f"The deployment served ({_proof_words(kinds, evidence.library)}); "
            f"the {count_matches(tolerated)} failing-looking line(s) "
            f"such as {described(evidence.library, first)} ({clip(first.text.strip(), 200)!r}) are harmless: "
            f"{benign}."
        )
    elif tolerated:
        first = min(tolerated, key=_time_key)
        summary = (
            f"The deployment served ({_proof_words(kinds, evidence.library)} show it); "
            f"{_warning_lines(count_matches(tolerated))} such as "
            f"'{evidence.library.pattern(first.pattern).title}' at {first.where} did not stop it."
        )
    if not tolerated:
        # The latest line that shows serving: how far the lines show it working (a reader checks it,
        # and a paste of a start-up is told from a run that served for hours).
        timed = [e for e in proof if e.time is not None]  # an untimed line sorts last by time: not "latest"
        last = max(timed, key=_time_key) if timed else max(proof, key=_place)
        # Whole, its time and call site too: when it was, and which component said it.
        said = clip(last.text.strip(), 240)
        summary += f" The last line that shows it: {last.where}: {said}{'' if said.endswith('.') else '.'}"
        summary += _judged_within(last, evidence)
        named = last
        closest = _closest_to_its_limit(evidence)
        if closest is not None and _place(closest) != _place(last):
            # A row that did get worse, within the allowance: the one a reader of the table checks
            # (its author may have marked it), quoted so that nobody has to find it.
            summary += (
                f" The result closest to its limit got worse by {float(closest.get('worse')):.1%}, within "
                f"{REGRESSED_SHARE:.0%}: {closest.where}: {clip(closest.text.strip(), 200)}"
            )
            named = closest
    compared = _compared_within_allowance(evidence)
    if compared is not None:
        summary += f" {_comparison_said(compared)}"
    if not end_to_end:
        # Servers that came up say nothing of what the harness saw end to end.
        missing = [*missing, "no end-to-end result (probe or accuracy gate) in the logs"]
        summary += " No end-to-end result (probe or accuracy gate) was given."
    return Report(
        verdict=confidence.applied(Verdict(HEALTHY, spec.title, 0.0, summary), score),
        chain=_with_named(_with_named(_chain([*proof, *(tolerated or [])]), named), compared),
        links=(),
        alternatives=alternatives,
        suggestions=(),
        missing=tuple(missing),
        inputs=evidence.sources,
        advice=spec.advice.strip(),
        explain=spec.explain.strip(),
    )


def _compared_within_allowance(evidence: Evidence) -> Event | None:
    """The first side of a comparison its baseline was judged against and found no worse than the
    allowance (compared.py: `compared_with`, not failing): what a before/after paste says of itself."""
    sides = evidence.marked(Mark.COMPARED)
    judged = [e for e in sides if not e.failing and e.get("compared_at") is not None]
    return min(judged, key=_place) if judged else None


def _comparison_said(side: Event) -> str:
    """`Compared with <where the baseline is> (<its first measure>), <where the side is> (<its first
    measure>) is worse by no more than the allowance on any measure: <its worst> went from ... to ...`."""
    return (
        f"Compared with {side.get('compared_at')} ({side.get('baseline_said')}), {side.where} "
        f"({first_stated(side)}) is worse by no more than {REGRESSED_SHARE:.0%} on any measure: "
        f"{side.get('metric')} went from {side.get('baseline'):g} to {side.get('value'):g} ({side.get('change')})."
    )


def _with_named(chain: tuple[Event, ...], named: Event | None) -> tuple[Event, ...]:
    """The chain with the line a summary names, beside the first of its kind the chain shows."""
    if named is None or any(_place(event) == _place(named) for event in chain):
        return chain
    return tuple(sorted((*chain, named), key=_time_key))


def _place(event: Event) -> tuple[str, int]:
    return (event.source, event.line)


def _received_unanswered(proof: Sequence[Event], evidence: Evidence) -> list[Event]:
    """The requests a server logged arriving when no line answers a request: its ready line is then the
    only proof, and a server that received requests and answered none in these lines may be stuck on
    them (sgl-project/sglang#26783). Empty when anything was answered or checked end to end."""
    if not proof or any(e.pattern not in evidence.library.marked(Mark.SERVER_UP) for e in proof):
        return []
    received = [e for e in evidence.marked(Mark.REQUEST_RECEIVED) if not e.failing]
    answered = [e for e in evidence.marked(Mark.ANSWERED, Mark.END_TO_END) if not e.failing]
    return sorted(received, key=_time_key) if received and not answered else []


def _no_failure_seen(
    alternatives: tuple[Alternative, ...], missing: list[str], evidence: Evidence, unanswered: Sequence[Event] = ()
) -> Report:
    """Nothing failed, and nothing shows serving either: a starting server, a short excerpt. Not a
    failure report (no failure title), and not healthy (nothing was shown to work). `unanswered`: the
    requests a ready server received and these lines show no answer to."""
    # A 4xx answer, or a request the server refused for what it asked (longer than the model's context):
    # the requests failed, the client's way.
    refused = evidence.marked(Mark.REQUEST_REFUSED, Mark.CLIENT_REJECTED)
    if refused:
        return _all_refused(refused, alternatives, missing, evidence)
    context = sorted({e.pattern for e in evidence.events})
    results = _results_said(evidence.sources)
    compared = _compared_within_allowance(evidence)
    if results and compared is not None:
        # Two runs the lines state, the later no worse than the earlier: said, though no check passed.
        summary = f"No failure seen in these lines: nothing in them failed. {_comparison_said(compared)}"
        summary += " No threshold judged them, and nothing else shows the deployment serving."
    elif results:
        # A stated result shows requests were answered, not that they were good enough: no check judged it.
        summary = f"No failure seen in these lines: nothing in them failed, and {results}"
        summary += " Whether they pass is not shown."
    else:
        summary = (
            "No failure seen in these lines: nothing in them failed, and nothing shows a request served yet "
            f"({', '.join(context[:5]) + ' seen' if context else 'no known line'}), so whether the deployment "
            "works is not shown either."
        )
    if unanswered:
        first = unanswered[0]
        summary = (
            f"No failure seen in these lines, but no request answered either: the server is ready, and "
            f"{count_matches(list(unanswered))} request(s) it received get no answer in them (first: {first.where}: "
            f"{clip(first.text.strip(), 240)}). It may be stuck on them, or the lines end before their answers."
        )
    last = _last_step(evidence.events)
    if last is not None:
        pattern = evidence.library.pattern(last.pattern)
        said = f"{last.where}: {clip(last.text.strip(), 240)}"
        if pattern.failure_if is None:
            summary += f" The last step shown: {pattern.title} ({said})."
        else:  # within its limit: its title names the failure it would have been (prose is no garbled answer)
            summary += f" The last line the library reads: {said}."
    ends = [s for s in evidence.sources if s.last_line is not None]
    if len(ends) == 1 and len(evidence.sources) == 1 and ends[0].last_line is not None:
        number, text = ends[0].last_line
        if last is None or (last.source, last.line) != (ends[0].name, number):
            said = clip(text, 240)  # whole, as written: its time and its component's tag say when and who
            summary += f" The lines end at {ends[0].name}:{number}: {said}{'' if said.endswith('.') else '.'}"
    warned = _cleared_warning(evidence)
    if warned is not None:
        summary += (
            f" One line warned, and a later one shows it harmless so far: {warned.where}: "
            f"{clip(message_of(warned.text).strip(), 200)}"
        )
    missing = ["no line shows a request being served (no ready server, probe or accuracy result)", *missing]
    report = _inconclusive(summary, (), alternatives, missing, evidence, confidence.no_failure_seen(), NO_FAILURE_SEEN)
    # What was seen tells one quiet excerpt from another (a starting vLLM from a NIXL agent's set-up):
    # a fact, so that distinct excerpts get distinct fingerprints and the same one keeps its own.
    seen: tuple[str, ...] = tuple(context)
    return replace(report, verdict=replace(report.verdict, facts=(("seen", seen),))) if seen else report


def _results_said(sources: Sequence[Source]) -> str:
    """The first result line the inputs state (a posted table's first row), which nothing judged:
    what a reader of a pasted benchmark wants to see the report read."""
    stated = [(source.name, number, text) for source in sources for number, text in source.results]
    if not stated:
        return ""
    name, number, text = stated[0]
    more = f", and {len(stated) - 1} more result line(s)" if len(stated) > 1 else ""
    return (
        "the results they state were judged against nothing (no threshold, baseline or earlier run was found): "
        f"first {name}:{number}: {clip(text, 240)}{more}."
    )


def _all_refused(
    refused: list[Event], alternatives: tuple[Alternative, ...], missing: list[str], evidence: Evidence
) -> Report:
    """Requests refused (4xx) and none answered: no server failed, but the run served nobody, and
    saying 'no failure seen' would send a red job's reader away. The refusals are what failed; the
    client's requests (their prompt, model name, key, body) are where to look."""
    first = min(refused, key=_time_key)
    count = count_matches(refused)
    summary = (
        f"No request was served: the server refused {'the one request' if count == 1 else f'all {count:,} requests'} "
        f"its lines show as the client's error (first: {first.where}: {clip(first.text.strip(), 240)}), and no line "
        "shows a request answered. Nothing in the server failed; what it refused is the client's requests "
        "(their prompt, model name, credentials or body)."
    )
    hint = "no line shows a request the server answered, nor why the client's requests were refused"
    report = _inconclusive(
        summary, (first,), alternatives, [hint, *missing], evidence, confidence.no_cause("every request refused")
    )
    return replace(report, advice=" ".join(evidence.library.pattern(first.pattern).advice.split()))


def _cleared_warning(evidence: Evidence) -> Event | None:
    """The first line of a pattern that warns of a cause which a later line cleared (`cleared_by`:
    UCX older than required, then NIXL's UCX backend up): in lines where nothing failed it is still
    the line to read first when the run fails later, so a quiet report names it."""
    cleared = [e for e in evidence.events if not e.failing and _clearable(evidence.library.pattern(e.pattern))]
    return min(cleared, key=_time_key) if cleared else None


def _clearable(pattern: Pattern) -> bool:
    return bool(pattern.cleared_by or pattern.cleared_by_run)


def _last_step(events: Sequence[Event]) -> Event | None:
    """The latest line the library knows in lines where nothing failed: how far they got (a
    start-up's last step, the last request routed), which tells a reader where to look next."""
    if not events:
        return None
    timed = [e for e in events if e.time is not None]
    return max(timed, key=_time_key) if timed else max(events, key=lambda e: (e.source, e.line))


def _inconclusive(
    summary: str,
    chain: tuple[Event, ...],
    alternatives: tuple[Alternative, ...],
    missing: list[str],
    evidence: Evidence,
    score: confidence.Score,
    verdict: str = INCONCLUSIVE,
) -> Report:
    """A report no root supports: inconclusive, or (nothing failing) no-failure-seen."""
    spec = evidence.library.verdict(verdict)
    return Report(
        verdict=confidence.applied(Verdict(verdict, spec.title, 0.0, summary), score),
        chain=chain,
        links=(),
        alternatives=alternatives,
        suggestions=(),
        missing=tuple(dict.fromkeys(missing)),
        inputs=evidence.sources,
        advice=spec.advice.strip(),
        explain=spec.explain.strip(),
    )


# ---------------------------------------------------------------- missing evidence


def _missing_roles(evidence: Evidence) -> list[str]:
    roles = evidence.roles()
    if any(role.interleaves for role in roles):
        return []  # a job log interleaves every component's output
    missing = []
    has_server = bool(roles & set(SERVER_ROLES))
    if Role.PREFILL not in roles and Role.SERVER not in roles:
        missing.append("no prefill server log given")
    if Role.DECODE not in roles and not (Role.SERVER in roles and has_server):
        missing.append("no decode server log given")
    if Role.ROUTER not in roles:
        missing.append("no router log given")
    if Role.HARNESS not in roles:
        missing.append("no harness/bench log given")
    return missing


def _missing_for_symptoms(failing: list[Event], library: Library) -> list[str]:
    """What each unexplained failure needs to be explained: its pattern's `unexplained` sentence,
    once a pattern (said of its first line: a thousand refused requests are one thing missing)."""
    first: dict[str, Event] = {}
    for event in failing:  # in the order given; each pattern said of its earliest line
        if event.pattern not in first or _time_key(event) < _time_key(first[event.pattern]):
            first[event.pattern] = event
    hints = [_unexplained(event, library) for event in first.values()]
    found = list(dict.fromkeys(hint for hint in hints if hint is not None))
    return found or ["no cause-level line (exception, backend error, OOM, crash) in the logs"]


def _innermost(event: Event) -> str:
    """`, its innermost frame <frame>` for a line with a stack read under it (a py-spy dump's stuck
    thread, a traceback): where the process stood, the line a reader of the stack looks for first."""
    stack = stack_of(event.get)
    return f", its innermost frame {stack[-1].text.strip()}" if stack else ""


def _unexplained(event: Event, library: Library) -> str | None:
    pattern = library.pattern(event.pattern)
    template = pattern.unexplained
    if template is None:
        return None
    names = [*(name for name, _ in pattern.fields), *BLOCK_FIELDS.get(pattern.block or "", ())]
    values = {name: str(event.get(name, "?")) for name in names}
    stack = stack_of(event.get)
    frame = stack[-1].text if stack else "?"  # the innermost frame of the stack read under the line
    return template.format(where=event.where, frame=frame, **values)


# ---------------------------------------------------------------- incomplete input


def _mark_incomplete(report: Report) -> Report:
    """Say when the verdict rests on partial evidence, and which inputs were not fully read."""
    partial = [
        f"{source.name} [{', '.join(sorted({p.code for p in source.problems}))}]"
        for source in report.inputs
        if any(p.code not in COMPLETE_PROBLEMS for p in source.problems)
    ]
    if not partial:
        return report
    shown = "; ".join(partial[:MAX_NAMES_IN_NOTE]) + (
        f"; and {len(partial) - MAX_NAMES_IN_NOTE} more" if len(partial) > MAX_NAMES_IN_NOTE else ""
    )
    notes = [f"evidence incomplete: {len(partial)} input(s) not fully read: {shown}"]
    if any(p.code == "timeout" for source in report.inputs for p in source.problems):
        notes.insert(0, "--timeout reached: this is the best verdict from what was read before it")
    report = replace(report, incomplete=True, notes=(*report.notes, *notes))
    return _not_healthy_when_partial(report, len(partial))


def _not_healthy_when_partial(report: Report, unread: int) -> Report:
    """ "Healthy" is a claim about everything; with inputs left unread it cannot be made."""
    if report.verdict.id != HEALTHY:
        return report
    summary = (
        f"No failure in what was read, and the deployment served; but {unread} input(s) were not fully read, "
        "so a failure may sit in what was missed."
    )
    verdict = confidence.applied(
        replace(report.verdict, id=INCONCLUSIVE, title=PARTIAL_TITLE, summary=summary),
        confidence.no_cause(f"{unread} input(s) not fully read"),
    )
    missing = (*report.missing, "the unread part of the inputs listed in the notes")
    return replace(report, verdict=verdict, missing=missing)
