"""A regression stated in words, then measured against its threshold and met, did not fail this run.

People describe a change by the failure it fixes before they show what it now measures: a PR's
"Why" paragraph (`... causing ~13% throughput regression — main has been intermittently failing this
test`), then its verification table, each row a threshold and the value measured beside it, every
row met (sglang-jax#1077). The paragraph's line reads as a failed gate on its own; the measurement
below it is what the run shows. A gate stated only in words (its pattern marked `stated-in-words`)
is no failure when a later line of its file measured the same kind of thing (a latency or a
throughput; an accuracy) against a threshold or a limit and met it, and no line after it measured
that kind and failed.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from ..library.patterns import Library
from ..model import Event, Mark, Severity
from .performance import held_to, measure_named, performance_words
from .planned import recounted

BOUNDS = ("limit", "threshold")  # what a measurement that met its gate was held to (a baseline run is none)


def stated_then_met(events: Sequence[Event], library: Library) -> list[Event]:
    """The events, each failed gate said in words that a later measurement met made a passing line."""
    said = library.marked(Mark.STATED_IN_WORDS)
    if not any(e.failing and e.pattern in said for e in events):
        return list(events)
    gated = library.marked(Mark.GATE_FAILED) - said
    measured = [e for e in events if e.pattern in gated and measure_named(e)]
    out = [_met_later(e, measured) if e.failing and e.pattern in said else e for e in events]
    return recounted(out, events)


def _met_later(gate: Event, measured: Sequence[Event]) -> Event:
    """The gate, passing when a later line of its file measured its kind against a threshold and met
    it, and no later line of that kind failed. A comparison with a baseline run is no threshold: the
    tool's own allowance for it (compared.REGRESSED_SHARE) is not the gate the words said failed."""
    said = measure_named(gate)
    if not said:
        return gate
    kind = performance_words(said)
    later = [
        e
        for e in measured
        if e.source == gate.source and e.line > gate.line and performance_words(measure_named(e)) == kind
    ]
    met = [e for e in later if not e.failing and held_to(e, BOUNDS)]
    if not met or any(e.failing for e in later):
        return gate
    return replace(gate, failing=False, severity=Severity.INFO)
