"""The decision: the one step that sets a report's verdict and its confidence.

In: the library's events and their links, the inputs, and the error lines no pattern names
(gathered before it: unexplained.gather). Out: the report whose verdict id and confidence every
later pass keeps (pipeline.only_adding). Each number it sets is a named step of confidence.py.

1. diagnose: candidate roots, hypotheses, analyzers, ranking; healthy / inconclusive otherwise.
2. unexplained.weigh: errors no pattern names may lead an inconclusive report, unseat a symptom,
   name what a crash died of, or keep a healthy run from being called healthy.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace

from ..library.patterns import Library
from ..model import Event, Link, Report, Source
from . import confidence
from .diagnose import diagnose
from .unexplained import Unrecognised, weigh


def decide(
    events: Sequence[Event],
    links: Sequence[Link],
    sources: Sequence[Source],
    library: Library,
    clock_slack: Mapping[str, float],
    unrecognised: Unrecognised,
) -> Report:
    report = diagnose(events, links, sources, library, clock_slack)
    return weigh(report, unrecognised, events, library)


def reconsidered_with_baseline(report: Report, explained: bool) -> Report:
    """The decision reopened with one more piece of evidence, the last green run: when a change
    since then is one the verdict's mechanism names (`explained`), its confidence rises a step."""
    if not explained:
        return report
    return replace(
        report, verdict=confidence.applied(report.verdict, confidence.baseline_explains(confidence.of(report.verdict)))
    )
