"""A run profile: what one run was (configuration, sizing, behaviour, errors), from its events.

Which capture of which pattern becomes which profile value is data (`patterns/profile.toml`);
this module only reads that file, picks the values out of a run's events, and parses the one
structured line that carries many values at once (sglang's `server_args=ServerArgs(...)`).
Run-specific values (ports, hosts, paths, seeds, ids) are dropped here, so they can never show
as a change between two runs.
"""

from __future__ import annotations

import fnmatch
import statistics
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from ..library import schema
from ..library.load import builtin_library_dir
from ..library.patterns import PROFILE_FILE, Library
from ..model import Event, FieldValue, Kind, Report, Severity, Source, UnexplainedError
from ..model.counts import count_of, shares
from ..model.values import record
from ..model.verdicts import HEALTHY

SECTIONS = ("sizing", "configuration", "behaviour")
TAKES = ("last", "max", "min", "median", "count", "seen")


@record
class ValueSpec:
    """One [[value]] of profile.toml: a capture of a pattern's events becomes a profile value."""

    key: str  # may hold "{capture}", e.g. env.{name}
    section: str
    pattern: str
    field: str
    take: str = "last"
    unit: str = ""
    tolerance: float = 0.0
    bears_on: tuple[str, ...] = ()
    seen: str = ""


@record
class IntervalSpec:
    """One [[interval]]: seconds from a file's first `start` event to its first `end` event."""

    key: str
    section: str
    start: str
    end: str
    unit: str = "s"
    tolerance: float = 0.0
    bears_on: tuple[str, ...] = ()


@record
class ProfileSpec:
    values: tuple[ValueSpec, ...]
    intervals: tuple[IntervalSpec, ...]
    noise_keys: tuple[str, ...]  # globs of run-specific names
    basename_keys: tuple[str, ...]
    sizing_args: tuple[str, ...]  # server_args keys shown under sizing
    args_bears_on: tuple[str, ...]
    sizing_args_bears_on: tuple[str, ...]
    bears: tuple[tuple[str, tuple[str, ...]], ...] = ()  # [[bears]]: key prefix -> verdicts it can explain
    args_pattern: str = ""  # [server_args] pattern: the launch line whose `args_field` lists every key=value
    args_field: str = ""

    def is_noise(self, name: str) -> bool:
        lowered = name.lower()
        return any(fnmatch.fnmatchcase(lowered, glob) for glob in self.noise_keys)

    def rules_for(self, key: str) -> tuple[float, tuple[str, ...]]:
        """(tolerance, bears_on) of a profile key, however it was produced."""
        rule = self._rule(key)
        extra = tuple(verdict for prefix, verdicts in self.bears for verdict in verdicts if key.startswith(prefix))
        if rule is not None:
            return rule.tolerance, (*rule.bears_on, *extra)
        if key.startswith("server_args."):
            name = key.removeprefix("server_args.")
            return 0.0, self.sizing_args_bears_on if name in self.sizing_args else self.args_bears_on
        return 0.0, ()

    def rank(self, key: str) -> int:
        """Position of a key's rule in profile.toml: rows are shown in the file's order."""
        rules: list[ValueSpec | IntervalSpec] = [*self.values, *self.intervals]
        rule = self._rule(key)
        return rules.index(rule) if rule is not None else len(rules)

    def _rule(self, key: str) -> ValueSpec | IntervalSpec | None:
        rules: list[ValueSpec | IntervalSpec] = [*self.values, *self.intervals]
        for rule in rules:
            if key == rule.key or ("{" in rule.key and key.startswith(rule.key.split("{", 1)[0])):
                return rule
        return None


@record
class ProfileValue:
    section: str
    role: str
    key: str
    value: FieldValue
    unit: str
    family: str  # the pattern it came from: a value missing where its family was logged was removed
    where: str


@record
class ErrorCount:
    template: str  # a pattern id, or an open-world template
    title: str
    count: int
    first: str
    first_time: float | None


@record
class RunProfile:
    inputs: tuple[str, ...]
    values: tuple[ProfileValue, ...]
    errors: tuple[ErrorCount, ...]
    logged: frozenset[tuple[str, str]]  # (role, pattern) pairs that matched at least once
    verdict: str
    confidence: float
    summary: str

    @property
    def failing(self) -> bool:
        return self.verdict != HEALTHY


# ---------------------------------------------------------------- the data file


_TOP_KEYS = ("noise", "server_args", "value", "interval", "bears")
_NOISE_KEYS = ("keys", "basename")
_ARGS_KEYS = ("pattern", "field", "sizing", "bears_on", "sizing_bears_on")
_VALUE_KEYS = ("key", "section", "pattern", "field", "take", "unit", "tolerance", "bears_on", "seen")
_INTERVAL_KEYS = ("key", "section", "from", "to", "unit", "tolerance", "bears_on")


def load_profile_spec(directory: Path | None = None) -> ProfileSpec:
    path = (directory or builtin_library_dir()) / PROFILE_FILE
    where, data = str(path), schema.read_toml(path)
    schema.check_keys(data, _TOP_KEYS, (), where)
    noise = schema.table(data.get("noise", {}), where, "noise")
    args = schema.table(data.get("server_args", {}), where, "server_args")
    schema.check_keys(noise, _NOISE_KEYS, (), where, "noise")
    schema.check_keys(args, _ARGS_KEYS, (), where, "server_args")
    return ProfileSpec(
        values=tuple(_value_spec(item, where, f"value[{i}]") for i, item in enumerate(data.get("value", []))),
        intervals=tuple(
            _interval_spec(item, where, f"interval[{i}]") for i, item in enumerate(data.get("interval", []))
        ),
        noise_keys=schema.string_list(noise, "keys", where, "noise") or (),
        basename_keys=schema.string_list(noise, "basename", where, "noise") or (),
        sizing_args=schema.string_list(args, "sizing", where, "server_args") or (),
        args_bears_on=schema.string_list(args, "bears_on", where, "server_args") or (),
        sizing_args_bears_on=schema.string_list(args, "sizing_bears_on", where, "server_args") or (),
        bears=tuple(_bears(item, where, f"bears[{i}]") for i, item in enumerate(data.get("bears", []))),
        args_pattern=str(args.get("pattern", "")),
        args_field=str(args.get("field", "")),
    )


def _value_spec(item: Any, where: str, key: str) -> ValueSpec:
    schema.check_keys(schema.table(item, where, key), _VALUE_KEYS, ("key", "section", "pattern"), where, key)
    return ValueSpec(
        key=schema.string(item, "key", where, key),
        section=schema.one_of(item, "section", SECTIONS, where, key),
        pattern=schema.string(item, "pattern", where, key),
        field=str(item.get("field", "")),
        take=schema.one_of({"take": "last", **item}, "take", TAKES, where, key),
        unit=str(item.get("unit", "")),
        tolerance=float(item.get("tolerance", 0.0)),
        bears_on=schema.string_list(item, "bears_on", where, key) or (),
        seen=str(item.get("seen", "")),
    )


def _interval_spec(item: Any, where: str, key: str) -> IntervalSpec:
    schema.check_keys(schema.table(item, where, key), _INTERVAL_KEYS, ("key", "section", "from", "to"), where, key)
    return IntervalSpec(
        key=schema.string(item, "key", where, key),
        section=schema.one_of(item, "section", SECTIONS, where, key),
        start=schema.string(item, "from", where, key),
        end=schema.string(item, "to", where, key),
        unit=str(item.get("unit", "s")),
        tolerance=float(item.get("tolerance", 0.0)),
        bears_on=schema.string_list(item, "bears_on", where, key) or (),
    )


def _bears(item: Any, where: str, key: str) -> tuple[str, tuple[str, ...]]:
    schema.check_keys(schema.table(item, where, key), ("prefix", "on"), ("prefix", "on"), where, key)
    return schema.string(item, "prefix", where, key), schema.string_list(item, "on", where, key) or ()


def unknown_patterns(spec: ProfileSpec, library: Library) -> list[str]:
    """Pattern ids profile.toml names that the library lacks (the test suite checks there are none)."""
    known = {pattern.id for pattern in library.patterns}
    named = {v.pattern for v in spec.values} | {i.start for i in spec.intervals} | {i.end for i in spec.intervals}
    return sorted((named | {spec.args_pattern}) - known)


# ---------------------------------------------------------------- one run


def build_profile(
    report: Report,
    events: Sequence[Event],
    sources: Sequence[Source],
    spec: ProfileSpec,
    titles: Mapping[str, str],
) -> RunProfile:
    """`titles`: pattern id -> title, for naming the kinds of error line."""
    values = [
        *_captured_values(events, spec),
        *_server_args_values(events, spec),
        *_interval_values(events, spec),
        *_node_counts(sources),
    ]
    return RunProfile(
        inputs=tuple(source.name for source in sources),
        values=tuple(values),
        errors=error_counts(events, titles, report.unrecognised),
        logged=frozenset((event.role.value, event.pattern) for event in events),
        verdict=report.verdict.id,
        confidence=report.verdict.confidence,
        summary=report.verdict.summary,
    )


def _captured_values(events: Sequence[Event], spec: ProfileSpec) -> list[ProfileValue]:
    by_pattern: dict[str, list[Event]] = defaultdict(list)
    for event in events:
        by_pattern[event.pattern].append(event)
    found: list[ProfileValue] = []
    for rule in spec.values:
        grouped: dict[tuple[str, str], list[Event]] = defaultdict(list)
        for event in by_pattern.get(rule.pattern, ()):
            key = _key_of(rule, event, spec)
            if key is not None and (rule.take in ("count", "seen") or event.get(rule.field) is not None):
                grouped[(event.role.value, key)].append(event)
        # A count splits a pattern's lines by role and key: each event's share of its kind's lines.
        parts = _shares(by_pattern.get(rule.pattern, ())) if rule.take == "count" else {}
        for (role, key), matched in grouped.items():
            value = _take(rule, matched, parts)
            if value is not None:
                found.append(ProfileValue(rule.section, role, key, value, rule.unit, rule.pattern, matched[-1].where))
    return found


def _key_of(rule: ValueSpec, event: Event, spec: ProfileSpec) -> str | None:
    """The profile key of one event; None for a run-specific name (a port, a host, a path)."""
    if "{" not in rule.key:
        return rule.key
    names = {name: str(value) for name, value in event.fields}
    try:
        key = rule.key.format_map(names)
    except KeyError:
        return None
    name = key.removeprefix(rule.key.split("{", 1)[0])
    return None if spec.is_noise(name) else key


def _shares(events: Sequence[Event]) -> dict[int, int]:
    return {id(event): part for event, part in zip(events, shares(events), strict=True)}


def _take(rule: ValueSpec, matched: list[Event], parts: Mapping[int, int]) -> FieldValue | None:
    if rule.take == "count":
        return sum(parts[id(event)] for event in matched)
    if rule.take == "seen":
        return rule.seen
    numbers = [event.get(rule.field) for event in matched]
    if rule.take == "last":
        last = numbers[-1]
        return _literal(last) if isinstance(last, str) and "{" in rule.key else last
    numeric = [float(n) for n in numbers if isinstance(n, int | float)]
    if not numeric:
        return None
    pick = max(numeric) if rule.take == "max" else min(numeric) if rule.take == "min" else statistics.median(numeric)
    return int(pick) if all(isinstance(n, int) for n in numbers) and pick == int(pick) else round(pick, 3)


def _server_args_values(events: Sequence[Event], spec: ProfileSpec) -> list[ProfileValue]:
    """Every key of each role's last server_args= line, minus the run-specific ones."""
    last: dict[str, Event] = {}
    for event in events:
        if event.pattern == spec.args_pattern and isinstance(event.get(spec.args_field), str):
            last[event.role.value] = event
    found = []
    for role, event in last.items():
        for name, value in parse_repr_arguments(str(event.get(spec.args_field))):
            if spec.is_noise(name):
                continue
            if name in spec.basename_keys and isinstance(value, str):
                value = value.rstrip("/").rsplit("/", 1)[-1]
            section = "sizing" if name in spec.sizing_args else "configuration"
            found.append(ProfileValue(section, role, f"server_args.{name}", value, "", event.pattern, event.where))
    return found


def _interval_values(events: Sequence[Event], spec: ProfileSpec) -> list[ProfileValue]:
    found = []
    for rule in spec.intervals:
        starts: dict[str, Event] = {}
        for event in events:
            if event.time is None:
                continue
            if event.pattern == rule.start:
                starts.setdefault(event.source, event)
            elif event.pattern == rule.end and event.source in starts:
                begin = starts.pop(event.source)
                seconds = round(event.time - begin.time, 1) if begin.time is not None else None
                if seconds is not None and seconds >= 0:
                    role = event.role.value
                    found.append(ProfileValue(rule.section, role, rule.key, seconds, rule.unit, rule.end, event.where))
    return found


def _node_counts(sources: Sequence[Source]) -> list[ProfileValue]:
    """How many nodes each role ran on; their names differ from run to run and are not compared."""
    nodes: dict[str, set[str]] = defaultdict(set)
    for source in sources:
        if source.node:
            nodes[source.role.value].add(source.node)
    return [ProfileValue("configuration", role, "nodes", len(names), "", "", "") for role, names in nodes.items()]


def error_counts(
    events: Iterable[Event], titles: Mapping[str, str], unrecognised: Iterable[UnexplainedError] = ()
) -> tuple[ErrorCount, ...]:
    """Failing lines grouped by what they are, earliest first: a pattern's id, or the template of
    error lines no pattern names (the open-world layer's, ranked in the report: a new one since
    the last green run is news)."""
    groups: dict[str, list[Event]] = defaultdict(list)
    for event in events:
        if event.failing and event.kind is not Kind.CONTEXT:
            groups[event.pattern].append(event)
    counts = []
    for template, matched in groups.items():
        first = min(matched, key=lambda e: (e.time is None, e.time or 0.0, e.source, e.line))
        title = titles.get(template, "")
        counts.append(ErrorCount(template, title, count_of(matched).lines, first.where, first.time))
    for error in unrecognised:
        if error.severity.rank >= Severity.ERROR.rank:
            counts.append(ErrorCount(error.template, "", error.count, error.first.where, error.first.time))
    return tuple(sorted(counts, key=lambda c: (c.first_time is None, c.first_time or 0.0, c.template)))


# ---------------------------------------------------------------- the server_args repr


def parse_repr_arguments(text: str) -> list[tuple[str, FieldValue]]:
    """`a=1, b='x', c=[1, 2], d=None` (a dataclass repr's body) as (name, value) pairs.

    Commas inside quotes and brackets do not split; ints and floats become numbers,
    quoted strings lose their quotes, anything else (None, True, lists) stays as written.
    """
    pairs = []
    for part in _split_top_level(text):
        name, sep, raw = part.partition("=")
        name = name.strip()
        if sep and name.isidentifier():
            pairs.append((name, _literal(raw.strip())))
    return pairs


def _split_top_level(text: str) -> list[str]:
    parts, depth, quote, start = [], 0, "", 0
    for position, char in enumerate(text):
        if quote:
            if char == quote and text[position - 1] != "\\":
                quote = ""
        elif char in "'\"":
            quote = char
        elif char in "([{":
            depth += 1
        elif char in ")]}":
            depth -= 1
        elif char == "," and depth == 0:
            parts.append(text[start:position])
            start = position + 1
    parts.append(text[start:])
    return parts


def _literal(raw: str) -> FieldValue:
    if len(raw) >= 2 and raw[0] == raw[-1] and raw[0] in "'\"":
        return raw[1:-1]
    for convert in (int, float):
        try:
            return convert(raw)
        except ValueError:
            continue
    return raw
