"""Upstream knowledge as data: `patterns/known/*.toml`, and where a run's logs tell versions.

An entry ties a verdict (and, where the verdict alone is too broad, a condition on the report: a
backend, a pattern seen in the logs, a fact's value or range) to a public upstream thread: what
the change did, its status, the first release that has it, the workaround. Every entry names its
source thread; `# evidence:` comments in the file quote what the thread and the code say.

`known/versions.toml` says which lines tell which component's version (a pattern of the library
and its capture), and which package names stand for a component. `known/no-upstream-fix.toml`
lists the verdicts no upstream change addresses, with why: together with the entries, every
verdict of the catalogue is accounted for (tests/test_known.py).

A team's own known issues (`known = ["ci/known-issues.toml"]` in the config) are a smaller
dialect read by `load_team_issues`: a tracker link and the fingerprints or verdicts it stands for.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import Any

from ..model.errors import PatternError
from ..model.known import TeamIssue
from ..model.values import record
from . import schema
from .lazyregex import LazyRegex

KNOWN_DIR = "known"
VERSIONS_FILE = "versions.toml"
NO_FIX_FILE = "no-upstream-fix.toml"
# fixed: a release has a change that removes the cause; mitigated: a release makes it rarer or
# fail clearly; workaround-only: upstream documents or applies a workaround, no code change ships;
# open: reported, nothing merged; unmerged: a fix was proposed and closed without being merged.
STATUSES = ("fixed", "mitigated", "workaround-only", "open", "unmerged")
PUBLIC_THREAD = LazyRegex(r"^https://github\.com/[\w.-]+/[\w.-]+/(?:issues|pull|discussions)/\d+$")
# `when` keys that are not facts of the verdict: the backend (a pattern group among the verdict's
# root lines) and a pattern whose line is somewhere in the logs.
WHEN_BACKEND, WHEN_PATTERN = "backend", "pattern"
_ENTRY_KEYS = (
    "id", "verdict", "title", "project", "component", "source", "references", "fixed_in", "status",
    "workaround", "note", "when",
)  # fmt: skip
_SOURCE_KEYS = ("pattern", "field", "component", "component_field", "name_pattern", "extract", "how")
_TEAM_KEYS = ("link", "title", "fingerprints", "verdicts")


@record
class Condition:
    """One `when` key: the report must show `name` with a value in [low, high] (equal when one value)."""

    name: str
    low: int | float | str
    high: int | float | str


@record
class KnownEntry:
    id: str
    path: str
    verdicts: tuple[str, ...]
    title: str
    project: str  # owner/name of the repository the change is in
    source: str  # the public thread the entry rests on
    references: tuple[str, ...]
    status: str
    component: str | None = None  # whose version decides whether a run has the change
    fixed_in: str | None = None  # the first release of `component` with the change
    workaround: str = ""
    note: str = ""
    when: tuple[Condition, ...] = ()

    @property
    def links(self) -> tuple[str, ...]:
        return (self.source, *self.references)


@record
class VersionSource:
    """A line that tells a component's version: a pattern's capture, named for a component."""

    pattern: str
    field: str
    how: str
    component: str | None = None  # fixed, or:
    component_field: str | None = None  # the capture naming a package (pip rows), or:
    name_pattern: str | None = None  # the line just above is this pattern's and names the package
    extract: LazyRegex | None = None  # applied to the capture; its `version` group is the version


@record
class Component:
    name: str
    packages: tuple[str, ...]  # Python package names (PEP 503 normalised) that stand for it


@record
class NoFix:
    verdict: str
    why: str


@record
class KnownBook:
    entries: tuple[KnownEntry, ...] = ()
    sources: tuple[VersionSource, ...] = ()
    components: tuple[Component, ...] = ()
    without_fix: tuple[NoFix, ...] = ()

    def for_verdict(self, verdict_id: str) -> tuple[KnownEntry, ...]:
        return tuple(entry for entry in self.entries if verdict_id in entry.verdicts)

    def entry(self, entry_id: str) -> KnownEntry | None:
        return next((entry for entry in self.entries if entry.id == entry_id), None)

    def component_of(self, package: str) -> str | None:
        """The component a package name stands for (any spelling: `Nixl_CU13` is nixl)."""
        name = normalise_package(package)
        return next((c.name for c in self.components if name in c.packages or name == c.name), None)


def normalise_package(name: str) -> str:
    """PEP 503: case-insensitive, runs of `-`, `_`, `.` are one `-`."""
    out: list[str] = []
    dash = False
    for char in name.strip().lower():
        if char in "-_.":
            dash = True
            continue
        if dash and out:
            out.append("-")
        dash = False
        out.append(char)
    return "".join(out)


# ---------------------------------------------------------------- reading


def is_known_file(path: Path, directory: Path) -> bool:
    """A file of the known/ directory: read here, not as a pattern."""
    return KNOWN_DIR in path.relative_to(directory).parts[:-1]


def load_known(listing: Iterable[tuple[Path, list[Path]]]) -> KnownBook:
    entries: list[KnownEntry] = []
    sources: list[VersionSource] = []
    components: list[Component] = []
    without: list[NoFix] = []
    for directory, files in listing:
        for path in files:
            if not is_known_file(path, directory):
                continue
            data, where = schema.read_toml(path), str(path)
            if path.name == VERSIONS_FILE:
                found_components, found_sources = _versions(data, where)
                components += found_components
                sources += found_sources
            elif path.name == NO_FIX_FILE:
                without += _no_fix(data, where)
            else:
                entries.append(_entry(data, where, path.stem))
    return KnownBook(tuple(entries), tuple(sources), tuple(components), tuple(without))


def _entry(data: Mapping[str, Any], where: str, stem: str) -> KnownEntry:
    schema.check_keys(data, _ENTRY_KEYS, ("id", "verdict", "title", "project", "source", "status"), where)
    entry_id = schema.string(data, "id", where)
    if entry_id != stem:
        raise PatternError(where, "id", f"'{entry_id}' must equal the file name '{stem}'")
    source = schema.string(data, "source", where)
    references = schema.string_list(data, "references", where) or ()
    for key, link in [("source", source), *(("references", ref) for ref in references)]:
        if not PUBLIC_THREAD.match(link):
            raise PatternError(where, key, f"'{link}' is not a public GitHub issue, pull request or discussion")
    fixed_in = data.get("fixed_in")
    if fixed_in is not None and "component" not in data:
        raise PatternError(where, "fixed_in", "needs `component`: whose release is it?")
    return KnownEntry(
        id=entry_id,
        path=where,
        verdicts=schema.names(data, "verdict", where),
        title=schema.string(data, "title", where),
        project=schema.string(data, "project", where),
        source=source,
        references=references,
        status=schema.one_of(data, "status", STATUSES, where),
        component=schema.string(data, "component", where) if "component" in data else None,
        fixed_in=schema.string(data, "fixed_in", where) if fixed_in is not None else None,
        workaround=" ".join(str(data.get("workaround", "")).split()),
        note=str(data.get("note", "")).strip(),
        when=_when(data.get("when", {}), where),
    )


def _when(raw: Any, where: str) -> tuple[Condition, ...]:
    conditions = []
    for name, value in schema.table(raw, where, "when").items():
        if isinstance(value, list) and len(value) == 2 and all(_scalar(item) for item in value):
            conditions.append(Condition(name, value[0], value[1]))
        elif _scalar(value):
            conditions.append(Condition(name, value, value))
        else:
            raise PatternError(where, f"when.{name}", "must be a value or a [low, high] range")
    return tuple(conditions)


def _scalar(value: Any) -> bool:
    return isinstance(value, int | float | str) and not isinstance(value, bool)


def _versions(data: Mapping[str, Any], where: str) -> tuple[list[Component], list[VersionSource]]:
    schema.check_keys(data, ("component", "source"), (), where)
    components = []
    for name, raw in schema.table(data.get("component", {}), where, "component").items():
        key = f"component.{name}"
        schema.check_keys(schema.table(raw, where, key), ("packages",), ("packages",), where, key)
        packages = schema.string_list(raw, "packages", where, key) or ()
        components.append(Component(name, tuple(normalise_package(p) for p in packages)))
    sources = [_source(raw, where, f"source[{index}]") for index, raw in enumerate(data.get("source", []))]
    return components, sources


def _source(raw: Any, where: str, key: str) -> VersionSource:
    table = schema.table(raw, where, key)
    schema.check_keys(table, _SOURCE_KEYS, ("pattern", "how"), where, key)
    naming = [name for name in ("component", "component_field", "name_pattern") if name in table]
    if len(naming) != 1:
        raise PatternError(where, key, "needs exactly one of component, component_field, name_pattern")
    return VersionSource(
        pattern=schema.string(table, "pattern", where, key),
        field=schema.string(table, "field", where, key) if "field" in table else "version",
        how=schema.string(table, "how", where, key),
        component=schema.string(table, "component", where, key) if "component" in table else None,
        component_field=schema.string(table, "component_field", where, key) if "component_field" in table else None,
        name_pattern=schema.string(table, "name_pattern", where, key) if "name_pattern" in table else None,
        extract=schema.regex(table, "extract", where, key) if "extract" in table else None,
    )


def _no_fix(data: Mapping[str, Any], where: str) -> list[NoFix]:
    schema.check_keys(data, ("verdict",), (), where)
    found = []
    for index, raw in enumerate(data.get("verdict", [])):
        key = f"verdict[{index}]"
        table = schema.table(raw, where, key)
        schema.check_keys(table, ("id", "why"), ("id", "why"), where, key)
        found.append(
            NoFix(schema.string(table, "id", where, key), " ".join(schema.string(table, "why", where, key).split()))
        )
    return found


# ---------------------------------------------------------------- a team's own known issues


def load_team_issues(path: Path, has_verdict: Callable[[str], bool]) -> tuple[TeamIssue, ...]:
    """A team's tracker links: `[[issue]]` tables with `link`, `title` and the `fingerprints`
    (pdld-...) and/or `verdicts` they stand for."""
    where = str(path)
    data = schema.read_toml(path)
    schema.check_keys(data, ("issue",), ("issue",), where)
    issues = []
    for index, raw in enumerate(data["issue"] if isinstance(data["issue"], list) else []):
        key = f"issue[{index}]"
        table = schema.table(raw, where, key)
        schema.check_keys(table, _TEAM_KEYS, ("link",), where, key)
        fingerprints = schema.names(table, "fingerprints", where, key)
        verdicts = schema.names(table, "verdicts", where, key)
        if not fingerprints and not verdicts:
            raise PatternError(where, key, "names no fingerprint and no verdict: give `fingerprints` or `verdicts`")
        for verdict in verdicts:
            if not has_verdict(verdict):
                raise PatternError(where, f"{key}.verdicts", f"'{verdict}' is not a known verdict id")
        for value in fingerprints:
            if not (value.startswith("pdld-") and len(value) == 17):
                raise PatternError(
                    where, f"{key}.fingerprints", f"'{value}' is not a fingerprint (pdld- and 12 hex digits)"
                )
        link = schema.string(table, "link", where, key)
        title = schema.string(table, "title", where, key) if "title" in table else ""
        issues.append(TeamIssue(link=link, title=title, fingerprints=fingerprints, verdicts=verdicts))
    if not issues:
        raise PatternError(where, "issue", "must be a list of [[issue]] tables")
    return tuple(issues)
