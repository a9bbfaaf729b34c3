"""A candidate verdict while the diagnosis weighs it, and what analyzers see."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import field
from typing import Protocol

from ..library.patterns import Library, say
from ..model import Event, FactValue, Kind, Link, Mark, Role, Source, Suggestion
from ..model.counts import count_of
from ..model.values import record
from ..scan.roles import STREAM

# What a running component logs besides its failures: a stream holding one of these is its log.
LIFE_MARKS = (Mark.SERVER_LAUNCH, Mark.SERVER_UP, Mark.KV_POOL_SIZED, Mark.WARMUP, Mark.ANSWERED, Mark.METRICS)


@record
class Hypothesis:
    verdict: str
    roots: tuple[Event, ...]
    chain: tuple[Event, ...]
    confidence: float
    summary: str = ""
    facts: tuple[tuple[str, FactValue], ...] = ()
    suggestions: tuple[Suggestion, ...] = ()
    rejected: str | None = None  # why this hypothesis cannot be the verdict
    benign: bool = False  # rejected because its lines are expected noise (a client abort), not a failure
    missing: tuple[str, ...] = ()
    why_not: str = ""  # what to say if it is viable but loses to another hypothesis
    lines_used: tuple[Event, ...] = ()  # context lines an analyzer read (shown with the chain)
    advice: str = ""  # the fix an analyzer computed from the lines; the verdict's own advice otherwise
    coverage: float = 0.0  # what the share of the failure it explains added to `confidence` (confidence.py)

    @property
    def first_root(self) -> Event:
        return self.roots[0]

    @property
    def failures_explained(self) -> int:
        """The kinds of failing line the chain accounts for: one per pattern and file, as the
        coverage in its confidence counts them. What ranks rivals of one tier: lines that did not
        fail (a detector's context roots) add nothing, nor do repeats, and it depends on which
        symptoms the cause reaches, never on how its edges are written."""
        return len({(e.pattern, e.source) for e in self.chain if e.failing and e.kind is not Kind.CONTEXT})


def never_survived(verdict: str, roots: tuple[Event, ...], library: Library) -> bool:
    """A verdict whose harm is done when it is logged (`never_survived`: answers served from freed KV, a
    garbage answer a client got, a measure below its bar), unless every line it rests on is a server's
    own warmup: that is the server probing itself before it serves (a PD decode warms up on a fake
    transfer and answers `!!!!`), which its serving after clears."""
    if not library.verdict(verdict).never_survived:
        return False
    warmup = library.marked(Mark.WARMUP)
    return not roots or not all(root.pattern in warmup for root in roots)


@record
class Evidence:
    """Everything an analyzer may read: all events, edges and inputs of the run."""

    events: tuple[Event, ...]
    links: tuple[Link, ...]
    sources: tuple[Source, ...]
    library: Library
    failing_groups: frozenset[tuple[str, str]] = field(default_factory=frozenset)
    clock_slack: Mapping[str, float] = field(default_factory=dict)  # seconds a file's clock may be off

    def of(self, *pattern_ids: str) -> list[Event]:
        return [e for e in self.events if e.pattern in pattern_ids]

    def says(self, event: Event) -> str | None:
        """What the line says, in its pattern's words (`says`), or None when its pattern has none."""
        return say(self.library.pattern(event.pattern), dict(event.fields))

    def said(self, event: Event) -> str:
        """An event in words for prose: the pattern's title and the place (ids stay in the chain's column)."""
        return described(self.library, event)

    def failing(self, *pattern_ids: str) -> list[Event]:
        return [e for e in self.events if e.pattern in pattern_ids and e.failing]

    def end_to_end_passed(self) -> bool:
        """The run's end-to-end checks (probe, accuracy gate, benchmark result) ran, and none failed:
        what a warning beside them, or a start-up's errors before them, cost no request they count."""
        checks = self.marked(Mark.END_TO_END)
        return bool(checks) and not any(e.failing for e in checks)

    def marked(self, *marks: Mark) -> list[Event]:
        """Events of the patterns that carry any of `marks` (what a line shows: model.Mark), but not
        a line its block could not judge (a results row whose table says not which way its change
        column points: no evidence that a check passed, nor that it failed)."""
        ids = self.library.marked(*marks)
        return [e for e in self.events if e.pattern in ids and not self.library.unjudged(e.pattern, e.fields)]

    def carrying(self, field_name: str) -> list[Event]:
        """Events that captured `field_name` (e.g. every line that logs an exit_code)."""
        return [e for e in self.events if e.get(field_name) is not None]

    def roles(self) -> set[Role]:
        """Components whose logs are in the evidence: by file, and by line for mixed files. A stream
        a collector's prefix names in a shared file (`decode-1  | `: scan/roles.STREAM) is its
        component's log when it shows the component's life, not only its failure (LIFE_MARKS: its
        launch, sizing, readiness, warmup, answers or metrics); a paste of its failure lines is an
        excerpt of its log (the cause may sit in the rest of it), though its lines are its own."""
        by_file = {s.role for s in self.sources if s.lines > 0}
        alive = {(e.source, e.get(STREAM)) for e in self.marked(*LIFE_MARKS) if e.get(STREAM) and not e.failing}
        return by_file | {
            e.role
            for e in self.events
            if e.role is not Role.UNKNOWN and (not e.get(STREAM) or (e.source, e.get(STREAM)) in alive)
        }

    def unseen_peer(self, side: Role) -> Role | None:
        """The other server side of `side` (prefill <-> decode) when its log is not in the evidence:
        where a cause of what `side` reports may sit unseen. None when a job log interleaves everything."""
        if side not in (Role.PREFILL, Role.DECODE):
            return None
        roles = self.roles()
        peer = Role.DECODE if side is Role.PREFILL else Role.PREFILL
        return None if peer in roles or any(role.interleaves for role in roles) else peer

    def same_server(self, event: Event, candidates: list[Event]) -> list[Event]:
        """Candidates from the same source, else from any server log, else all."""
        same = [c for c in candidates if c.source == event.source]
        if same:
            return same
        servers = [c for c in candidates if c.role in (Role.PREFILL, Role.DECODE, Role.SERVER)]
        return servers or candidates


def described(library: Library, event: Event) -> str:
    """The pattern's title and the place; a line its pattern's condition passed is only its place:
    the title names the failing form (`... returned near-all-zero output ids` for a warmup whose ids
    were fine)."""
    pattern = library.pattern(event.pattern)
    if pattern.failure_if is not None and not event.failing:
        return f"the line at {event.where}"
    return f"'{pattern.title}' at {event.where}"


def count_matches(events: list[Event]) -> int:
    """Matches, not kept events: the lines the events stand for (model/counts.py)."""
    return count_of(events).lines


class Analyzer(Protocol):
    def __call__(self, hypothesis: Hypothesis, evidence: Evidence) -> list[Hypothesis]: ...


class Detector(Protocol):
    """Proposes hypotheses no single failing line roots, from context events read together
    (e.g. two server_args lines that disagree). Run once per diagnosis."""

    def __call__(self, evidence: Evidence) -> list[Hypothesis]: ...
