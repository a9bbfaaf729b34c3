"""A short id for "this failure", stable across nights, for finding an existing issue.

Made from what identifies the incident, never from what changes every run:
the verdict id, the pattern that starts the chain, and the verdict's identifying
facts, with run-specific text normalised.

The library declares which facts identify an incident: a pattern's `identity`
(for the captures a verdict reports as its facts) or a verdict's `identity` (for
an analyzer's facts); `Verdict.identity` carries the declaration. Only where
nothing is declared (an analyzer's verdict without `identity`, a hand-built
report) are facts chosen by name. Dropped then: names that talk about times, pids, addresses, request ids,
rooms, hosts, paths or lines; counts (how many failures a night produced
depends on traffic, not on the cause); which GPU or rank, and free or used
memory (they move between nights of the same incident); and floats
(measurements such as an accuracy or a zero fraction).
Kept: integers such as sizes, errnos and exit codes, and normalised strings.
"""

from __future__ import annotations

import hashlib

from ..library.formats import shipped
from ..library.lazyregex import LazyRegex
from ..model import FactValue, Report
from ..model.lazyre import lazy_re
from ..model.verdicts import HEALTHY, NO_CAUSE

PREFIX = "pdld-"
_RUN_SPECIFIC_NAME = LazyRegex(
    r"(?i)(?:^|_)(?:time|timestamp|pid|pids|addr|address|rid|request|room|host|hostname|node|path|file|line|where|"
    r"latency|duration|elapsed|seconds|count|failures|repeats|attempts|errors|occurrences|affected|checks|"
    r"free|avail|available|usage|rss|gpu|rank)(?:_|s?$)"
)
_BEFORE_TIMES: tuple[tuple[LazyRegex, str], ...] = (
    (LazyRegex(r"<([a-z][a-z0-9-]*)-\d+>"), r"<\1>"),  # redacted text: <kind-n> (Redactor.placeholder)
    (LazyRegex(r"\S+:\d+(?=\)|,|\s|$)"), "<where>"),  # file:line references
)
# Then any time as a line format writes it inside text (patterns/formats/, `in_text`), then:
_AFTER_TIMES: tuple[tuple[LazyRegex, str], ...] = (
    (LazyRegex(r"\b0x[0-9a-fA-F]+\b"), "<addr>"),
    (LazyRegex(r"\b[0-9a-f]{16,}\b"), "<id>"),
    (LazyRegex(r"\b(?:\d{1,3}\.){3}\d{1,3}\b"), "<ip>"),
    (LazyRegex(r"(?:/[\w.+-]+){2,}"), "<path>"),
    (LazyRegex(r"(?i)\b(?:pid|room|rid|request_id)[=: ]+\S+"), "<var>"),
    (LazyRegex(r"\bx\d+\b"), "x<n>"),  # "KVPoll.Bootstrapping x8": how often varies by night
)
# A last line's stamps, pids, hosts and addresses change every night: numbers are masked. With `re`,
# not the library's `regex`: a quiet one-line paste is answered without importing it (test_cli_fast_path).
_NUMBERS = lazy_re(r"0x[0-9a-fA-F]+|\d+")


def _masked(text: str) -> str:
    return " ".join(_NUMBERS.sub("<n>", text).split())


def normalise(text: str) -> str:
    for rule, replacement in _BEFORE_TIMES:
        text = rule.sub(replacement, text)
    text = shipped().time_in_text.sub("<time>", text)
    for rule, replacement in _AFTER_TIMES:
        text = rule.sub(replacement, text)
    return " ".join(text.split())


def key_facts(report: Report) -> list[tuple[str, str]]:
    declared = report.verdict.identity
    return [
        (name, _fact_value(value))
        for name, value in report.verdict.facts
        if (name in declared if declared is not None else _is_key_fact(name, value))
    ]


def _is_key_fact(name: str, value: FactValue) -> bool:
    if value is None or isinstance(value, float) or _RUN_SPECIFIC_NAME.search(name):
        return False
    return not (isinstance(value, tuple) and any(isinstance(item, float) for item in value))


def _fact_value(value: FactValue) -> str:
    if value is None:
        return "unknown"
    if isinstance(value, tuple):
        return ",".join(sorted({normalise(str(item)) for item in value}))
    return normalise(value) if isinstance(value, str) else str(value)


def _leading_unexplained(report: Report) -> str:
    """The template of the unexplained error a report without a cause reads first (its lines'
    varying parts are already placeholders), normalised like a fact; "" when there is none."""
    flagged = [t for t in report.unrecognised if t.earliest]
    leads = flagged or list(report.unrecognised)
    return normalise(leads[0].template) if leads else ""


def _quiet_ends(report: Report) -> str:
    """Where each input of an excerpt in which nothing failed ends, normalised: the known lines it
    holds are already in the fingerprint (the verdict's `seen` fact), but a paste no pattern knows
    has none, and without this every such paste would share one fingerprint (an issue search by
    fingerprint would find every unrelated quiet paste)."""
    return "ends=" + "|".join(_masked(line.text) for line in report.log_ends)


def fingerprint(report: Report) -> str:
    """`pdld-` and 12 hex digits; the same for the same incident on another night."""
    # The verdict's root names the cause; without one, the first failing event starts the failure
    # (context such as a ready server or a size line may precede it).
    first_failing = next(
        (e.pattern for e in report.chain if e.failing), report.chain[0].pattern if report.chain else ""
    )
    root = report.roots[0].pattern if report.roots else first_failing
    if report.verdict.id == HEALTHY:
        root = ""  # nothing failed: every healthy run is the same "incident"
    parts = [report.verdict.id, root, *(f"{name}={value}" for name, value in sorted(key_facts(report)))]
    if report.verdict.id in NO_CAUSE:
        # No cause and no facts: the kinds of failure seen, and the error no pattern names that the
        # report leads with, are what tell one unexplained failure from another.
        parts.append("failures=" + ",".join(sorted({e.pattern for e in report.chain if e.failing})))
        parts.append("unexplained=" + _leading_unexplained(report))
        if not any(e.failing for e in report.chain):
            parts.append(_quiet_ends(report))
    digest = hashlib.sha256("\n".join(parts).encode()).hexdigest()
    return PREFIX + digest[:12]
