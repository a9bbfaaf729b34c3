"""Binary inputs in the report: never missing evidence, never a reason for `inconclusive`.

A binary file that is no core dump (an executable, an image, weights) is named in a note as not
read, and the verdict stands. A core dump is evidence that a process crashed.

A core dump joins the verdict's chain as "a process dumped core" right after the crash it matches:
a crash line whose pattern declares that it can leave a core (`[[causes]]` to process-dumped-core,
with its window and join keys: the core written within minutes after the crash, the same pid when
both name one). A core dump no crash in the chain matches is named in a note with the program its
header names, whatever the verdict: with serving proof and passing checks the run stays healthy.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace

from ..ingest import BINARY
from ..library.patterns import CauseRule, Library
from ..model import Event, Link, Mark, Report
from ..model.verdicts import META
from .link import joins

MAX_NAMED = 5
HOUR_S = 3600.0


def split_core_dumps(events: Sequence[Event], library: Library) -> tuple[list[Event], list[Event]]:
    """(the other events, the core dumps): a core dump is no failure of its own for the diagnosis."""
    dumped = library.marked(Mark.CORE_DUMPED)
    return [e for e in events if e.pattern not in dumped], [e for e in events if e.pattern in dumped]


def with_binaries(
    report: Report,
    cores: Sequence[Event],
    library: Library,
    nodes: dict[str, str | None],
    slack: Mapping[str, float],
) -> Report:
    # A stack frame the chain quotes under its crash line (field `frame`) is that crash, not another.
    crashes = [e for e in report.chain if e.failing and e.get("frame") is None and _rule_to_core(e, library)]
    chain, links, notes = list(report.chain), list(report.links), list(report.notes)
    for core in sorted(cores, key=lambda e: (e.time is None, e.time or 0.0, e.source)):
        crash = _matching_crash(core, crashes, library, nodes, slack)
        if crash is None:
            notes.append(_unmatched_note(core, report))
            continue
        chain.insert(chain.index(crash) + 1, core)
        links.append(Link(crash, core, "the crash left this core dump: written within minutes after it, same pid"))
        notes.append(
            f"{core.source}: {core.text}; dumped by the crash at {crash.where}: open it with gdb for its stack"
        )
    notes += _unread_binaries_note(report)
    return replace(report, chain=tuple(chain), links=tuple(links), notes=tuple(notes))


def _unread_binaries_note(report: Report) -> list[str]:
    binaries = [source.name for source in report.inputs if any(p.code == BINARY for p in source.problems)]
    if not binaries:
        return []
    shown = ", ".join(binaries[:MAX_NAMED]) + (
        f" and {len(binaries) - MAX_NAMED} more" if len(binaries) > MAX_NAMED else ""
    )
    return [f"{len(binaries)} binary file(s) not read, as no log: {shown}; nothing in them is missing evidence"]


def _rule_to_core(event: Event, library: Library) -> CauseRule | None:
    dumped = library.marked(Mark.CORE_DUMPED)
    return next((rule for rule in library.pattern(event.pattern).causes if rule.target in dumped), None)


def _matching_crash(
    core: Event, crashes: list[Event], library: Library, nodes: dict[str, str | None], slack: Mapping[str, float]
) -> Event | None:
    """The crash the core matches in time and pid; of several, the nearest in time before it. A core's
    time is UTC, a log's may be local time read as UTC: the same pid on both matches across whole hours."""
    matching = []
    for crash in crashes:
        rule = _rule_to_core(crash, library)
        if rule is None or core.time is None:
            continue
        if joins(crash, core, rule, nodes, slack) or _same_pid_hours_apart(crash, core, rule, nodes, slack):
            matching.append(crash)
    return min(matching, key=lambda crash: abs((core.time or 0.0) - (crash.time or 0.0)) % HOUR_S, default=None)


def _same_pid_hours_apart(
    crash: Event, core: Event, rule: CauseRule, nodes: dict[str, str | None], slack: Mapping[str, float]
) -> bool:
    if crash.time is None or core.time is None or crash.get("pid") is None or crash.get("pid") != core.get("pid"):
        return False
    hours = round((core.time - crash.time) / HOUR_S)
    return hours != 0 and joins(crash, replace(core, time=core.time - hours * HOUR_S), rule, nodes, slack)


def _unmatched_note(core: Event, report: Report) -> str:
    found = f"a core dump is among the inputs: {core.source}: {core.text}"
    if report.verdict.id in META and not any(e.failing for e in report.chain):
        return f"{found}. A process crashed, though no log line shows it; open the core with gdb to see which and where"
    return f"{found}. No crash in this report's chain matches it in time and pid; it may be another process's"
