"""Which known problem a diagnosed failure is, and which versions its logs show.

Run after the diagnosis, on its report: it adds what the report says about known issues and
never changes the verdict, its confidence, its facts or its fingerprint.

- versions: every line a version source of `known/versions.toml` names, as (component, version,
  where, how), once per component, version and file;
- upstream: the entries of `known/` for the verdict whose conditions hold, each read against the
  versions of its component: "known upstream: <link> (...), fixed in X; these logs show Y";
- team: the team's own tracker links whose fingerprint (or, failing that, verdict) is this one.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import replace

from ..library.known import WHEN_BACKEND, WHEN_PATTERN, Condition, KnownEntry, VersionSource
from ..library.patterns import Library
from ..model import Event, FactValue, Report
from ..model.known import KnownIssue, TeamIssue, TeamMatch, VersionSeen
from ..model.verdicts import META
from ..model.versions import Standing, against_fix
from .fingerprint import fingerprint

STATUS_WORDS = {
    "fixed": "fixed",
    "mitigated": "mitigated",
    "workaround-only": "workaround only: no code fix",
    "open": "open: no fix merged",
    "unmerged": "closed unmerged: in no release",
}
NOT_IN_LOGS = "not-in-logs"
NO_RELEASE = "no-release"


def with_known(
    report: Report,
    events: Sequence[Event],
    library: Library,
    team: Sequence[TeamIssue] = (),
    every_line: Sequence[Event] | None = None,
) -> Report:
    """`report` with the versions its logs show, the upstream issues and the team's issues it matches.
    `events` are the evidence (a `when` pattern must be among them); `every_line` are all recognised
    lines read, whatever their time or file (a `pip list` beside the logs, a version printed before
    --since): where versions are read. By default the evidence."""
    versions = versions_seen(events if every_line is None else every_line, library)
    upstream = tuple(_read_against(entry, versions) for entry in matching_entries(report, events, library))
    return replace(report, versions=versions, known=upstream, team=team_matches(report, team))


# ---------------------------------------------------------------- versions


def versions_seen(events: Sequence[Event], library: Library) -> tuple[VersionSeen, ...]:
    by_pattern: dict[str, list[VersionSource]] = {}
    for source in library.known.sources:
        by_pattern.setdefault(source.pattern, []).append(source)
    above = _lines_above(events, {s.name_pattern for s in library.known.sources if s.name_pattern})
    seen: dict[tuple[str, str, str], VersionSeen] = {}
    for event in events:
        for source in by_pattern.get(event.pattern, ()):
            found = _version_of(event, source, library, above)
            if found is not None:
                seen.setdefault((found.component, found.version, event.source), found)
    return tuple(sorted(seen.values(), key=lambda v: (v.component, v.where)))


def _lines_above(events: Sequence[Event], patterns: set[str]) -> dict[tuple[str, int], Event]:
    """The events of `patterns` by the (file, line) of the line just below them."""
    return {(e.source, e.line + 1): e for e in events if e.pattern in patterns}


def _version_of(
    event: Event, source: VersionSource, library: Library, above: dict[tuple[str, int], Event]
) -> VersionSeen | None:
    value = event.get(source.field)
    if value is None:
        return None
    version = str(value)
    if source.extract is not None:
        found = source.extract.search(version)
        if found is None:
            return None
        version = found.group("version")
    component = _component_of(event, source, library, above)
    if component is None:
        return None
    return VersionSeen(component, version, event.where, source.how, event.role.value)


def _component_of(
    event: Event, source: VersionSource, library: Library, above: dict[tuple[str, int], Event]
) -> str | None:
    if source.component is not None:
        return source.component
    if source.component_field is not None:
        return library.known.component_of(str(event.get(source.component_field) or ""))
    named = above.get((event.source, event.line))
    if named is None or named.pattern != source.name_pattern:
        return None
    return library.known.component_of(str(named.get("package") or ""))


# ---------------------------------------------------------------- upstream entries


def matching_entries(report: Report, events: Sequence[Event], library: Library) -> list[KnownEntry]:
    """The known entries of the verdict whose `when` conditions the report and its logs meet."""
    if report.verdict.id in META:
        return []
    facts = dict(report.verdict.facts)
    backends = {library.pattern(e.pattern).group for e in report.roots if _has_pattern(library, e.pattern)}
    present = {e.pattern for e in events}
    return [
        entry
        for entry in library.known.for_verdict(report.verdict.id)
        if all(_holds(condition, facts, backends, present) for condition in entry.when)
    ]


def _has_pattern(library: Library, pattern_id: str) -> bool:
    return any(p.id == pattern_id for p in library.patterns)


def _holds(condition: Condition, facts: dict[str, FactValue], backends: set[str], present: set[str]) -> bool:
    if condition.name == WHEN_BACKEND:
        return condition.low in backends
    if condition.name == WHEN_PATTERN:
        return condition.low in present
    value = facts.get(condition.name)
    values: Iterable[object] = value if isinstance(value, tuple) else (value,)
    return any(_within(item, condition) for item in values if item is not None)


def _within(value: object, condition: Condition) -> bool:
    if (
        isinstance(value, int | float)
        and isinstance(condition.low, int | float)
        and isinstance(condition.high, int | float)
    ):
        return condition.low <= value <= condition.high
    return str(value) == str(condition.low) == str(condition.high)


def _read_against(entry: KnownEntry, versions: Sequence[VersionSeen]) -> KnownIssue:
    """The entry as the report says it, with the component's versions these logs show."""
    seen = tuple(v for v in versions if entry.component is not None and v.component == entry.component)
    standing, about = _standing(entry, seen)
    return KnownIssue(
        id=entry.id,
        title=entry.title,
        source=entry.source,
        status=entry.status,
        component=entry.component,
        fixed_in=entry.fixed_in,
        workaround=entry.workaround,
        seen=seen,
        standing=standing,
        fix=_fix_words(entry),
        about=about,
    )


def _fix_words(entry: KnownEntry) -> str:
    """`fixed in nixl 1.0.0`, `mitigated in vllm 0.11.1`, `open: no fix merged`..."""
    if entry.fixed_in is not None:
        return f"{STATUS_WORDS[entry.status]} in {entry.component} {entry.fixed_in}"
    if entry.status in ("fixed", "mitigated"):
        return f"{STATUS_WORDS[entry.status]} upstream, in no release checked"
    return STATUS_WORDS[entry.status]


def _standing(entry: KnownEntry, seen: Sequence[VersionSeen]) -> tuple[str, str]:
    """Where the logs' versions stand against the fix, and the words that say it."""
    if entry.component is None:
        return NO_RELEASE, "no component version decides it"
    if not seen:
        return NOT_IN_LOGS, f"{entry.component}'s version is not in these logs"
    shown = _versions_said(seen)
    if entry.fixed_in is None:
        return NO_RELEASE, f"these logs show {entry.component} {shown}"
    readings = [against_fix(v.version, entry.fixed_in) for v in seen]
    standings = {standing for standing, _ in readings}
    if standings == {Standing.HAS_FIX}:
        return (
            Standing.HAS_FIX,
            f"these logs show {entry.component} {shown}: that has the change, so it did not prevent this",
        )
    if standings == {Standing.BEFORE_FIX}:
        return Standing.BEFORE_FIX, f"these logs show {entry.component} {shown}: older than the fix"
    reasons = "; ".join(reason for _, reason in readings if reason)
    mixed = "" if len(standings) == 1 else " (the logs disagree)"
    return Standing.CANNOT_COMPARE, f"these logs show {entry.component} {shown}: cannot tell{mixed}" + (
        f" ({reasons})" if reasons else ""
    )


def _versions_said(seen: Sequence[VersionSeen]) -> str:
    """`0.11.0 (vLLM's engine line: prefill.log:3, decode.log:4)`: each version once, with its lines."""
    by_version: dict[str, list[VersionSeen]] = {}
    for item in seen:
        by_version.setdefault(item.version, []).append(item)
    parts = []
    for text, lines in by_version.items():
        hows = dict.fromkeys(line.how for line in lines)
        wheres = ", ".join(line.where for line in lines)
        parts.append(f"{text} ({'; '.join(hows)}: {wheres})")
    return ", ".join(parts)


# ---------------------------------------------------------------- the team's own tracker


def team_matches(report: Report, team: Sequence[TeamIssue]) -> tuple[TeamMatch, ...]:
    """The team's issues for this failure: those naming its fingerprint; failing any, those naming its verdict."""
    if not team or report.verdict.id in META:
        return ()
    mine = fingerprint(report)
    by_print = [TeamMatch(i.link, i.title, "fingerprint") for i in team if mine in i.fingerprints]
    if by_print:
        return tuple(by_print)
    return tuple(TeamMatch(i.link, i.title, "verdict") for i in team if report.verdict.id in i.verdicts)
