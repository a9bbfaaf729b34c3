"""The pattern library: data files, validated on load, that test themselves.

Each `patterns/<group>/<id>.toml` describes one condition seen in a log line.
`patterns/verdicts.toml` lists the verdicts the diagnosis may give.
"""

from __future__ import annotations

import operator
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import field
from pathlib import Path
from typing import Any, TypeVar

from ..model import FieldValue, Kind, Mark, Role, Severity, Tier
from ..model.errors import PatternError
from ..model.values import record
from .consequences import ConsequenceGroup, check_group_names, edge_targets
from .errorlines import ErrorLayer
from .frames import FrameTable
from .lazyregex import LazyRegex, RegexCompileError, compile_now

# percent: "95.9" or "95.9%" read as the fraction 0.959; bool: True/False (Python's spelling) as a bool.
FIELD_TYPES = ("int", "float", "bytes", "duration", "str", "int_list", "percent", "bool")
CXX_WHAT = "cxx-what"  # a C++ exception nothing caught: `terminate called ...` and its what() line
BLOCK_KINDS = ("python-traceback", CXX_WHAT)
MAX_STOP_AFTER = 20  # no more than the scanner keeps of one pattern in one source
MATCH_TIMEOUT_S = 0.5  # per regex search: a catastrophic pattern cannot hang a run
DEFAULT_WINDOW_S = 1800.0
DEFAULT_SKEW_S = 10.0
PROFILE_FILE = "profile.toml"

_PATTERN_KEYS = {
    "id", "title", "roles", "severity", "kind", "verdict", "anchors", "regex", "fields",
    "failure_if", "block", "explain", "advice", "references", "causes", "examples", "stop_after",
    "marks", "unexplained", "identity", "cleared_by", "says",
}  # fmt: skip
_REQUIRED_KEYS = ("id", "title", "severity", "kind", "anchors", "regex", "explain", "examples")
_CAUSE_KEYS = {"pattern", "group", "window", "skew", "join"}
_EXAMPLE_KEYS = {"match", "no_match", "captures"}
_VERDICT_KEYS = {
    "id",
    "title",
    "tier",
    "explain",
    "advice",
    "analyzer",
    "explains",
    "identity",
    "phase",
    "never_survived",
}
# A verdict about one phase of a server's life: its root lines count only in that phase.
START_UP = "start-up"
VERDICT_PHASES = (START_UP,)
# Join keys that are not captures: the same file, the same host (from the file name), the same role.
PSEUDO_JOIN_KEYS = frozenset({"source", "node", "role"})
# Placeholders an `unexplained` sentence may use besides the pattern's own fields.
_HINT_PLACES = frozenset({"where"})
_VERDICT_ID = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
_PLACEHOLDER = re.compile(r"\{(\w+)\}")
_E = TypeVar("_E", Severity, Kind, Tier, Mark)


@record
class Condition:
    """`a op b [and|or ...]` over an event's fields; see `parse_condition`."""

    text: str
    clauses: tuple[tuple[tuple[str, str, str], ...], ...]  # OR of ANDs of (left, op, right)

    def holds(self, fields: Mapping[str, FieldValue]) -> bool:
        return any(all(_atom_holds(atom, fields) for atom in ands) for ands in self.clauses)


@record
class CauseRule:
    """One pattern this line explains, and how: what link.py joins events by."""

    target: str
    window_s: float
    skew_s: float
    join: tuple[str, ...]


@record
class CauseEdge:
    """One `[[causes]]` table as written: the patterns and consequence groups it reaches
    (consequences.py expands the groups), with one window, skew and join for all of them."""

    patterns: tuple[str, ...]
    groups: tuple[str, ...]
    window_s: float
    skew_s: float
    join: tuple[str, ...]

    def rule(self, target: str) -> CauseRule:
        return CauseRule(target, self.window_s, self.skew_s, self.join)


@record
class Examples:
    match: tuple[str, ...]
    no_match: tuple[str, ...]
    captures: tuple[tuple[str, Any], ...]


@record
class Pattern:
    id: str
    title: str
    path: str
    group: str
    roles: tuple[Role, ...]
    severity: Severity
    kind: Kind
    verdict: str | None
    anchors: tuple[str, ...]
    regex: LazyRegex  # compiled on its first search
    fields: tuple[tuple[str, str], ...]
    failure_if: Condition | None
    block: str | None
    explain: str
    advice: str
    references: tuple[str, ...]
    causes: tuple[CauseRule, ...]  # the edges expanded: one rule per pattern explained
    examples: Examples
    stop_after: int | None = None  # context seen this often in one source is enough: stop looking
    marks: tuple[Mark, ...] = ()  # what the line shows beyond itself (model.Mark)
    # When this failure is seen with no cause: what evidence is missing, e.g. "no server-side error
    # explains the 5xx answers"; `{field}` and `{where}` are filled from the event.
    unexplained: str | None = None
    # The captures that identify the incident (for the fingerprint); None: not declared. Required
    # for a pattern that roots a verdict without an analyzer, whose facts are its captures.
    identity: tuple[str, ...] | None = None
    # Patterns whose line, later in the same file, shows this one did no harm (UCX's API-version
    # warning, then NIXL's UCX backend instantiated): this line then fails nothing.
    cleared_by: tuple[str, ...] = ()
    # The `[[causes]]` tables as written; `causes` is what they expand to once the library's
    # consequence groups are known (consequences.expand).
    edges: tuple[CauseEdge, ...] = ()
    # What the line says, in words a summary can quote ("a device-side assertion in CUDA kernel
    # {kernel}"): the first part always, each further part only when all its fields were captured.
    says: tuple[str, ...] = ()

    @property
    def primary_anchor(self) -> str:
        """The anchor the scanner searches for: the longest is usually the rarest."""
        return max(self.anchors, key=len)


@record
class VerdictSpec:
    id: str
    title: str
    tier: Tier
    explain: str
    advice: str
    analyzer: str | None
    explains: tuple[str, ...] = ()  # pattern ids of failures it accounts for (verdicts no single line roots)
    identity: tuple[str, ...] | None = None  # names of the facts that identify the incident (fingerprint)
    # "start-up": a failure of loading or starting; a root line after its server (or the whole
    # deployment) was shown serving is not one (diagnose._in_phase).
    phase: str | None = None
    # The harm is done when the line is logged (answers served from freed KV): no later serving,
    # restart or passing check clears it (diagnose._survived_blip, incidents.recovery).
    never_survived: bool = False


@record
class Library:
    patterns: tuple[Pattern, ...]
    verdicts: tuple[VerdictSpec, ...]
    errors: ErrorLayer | None = None  # the generic error layer (open-world/): lines no pattern names
    frames: FrameTable = field(default_factory=FrameTable)  # what a crash's stack frames say (frames.toml)
    # Named sets of consequences that `[[causes]]` tables reach (consequences.toml); already
    # expanded into each pattern's `causes`, kept for `patterns check` and `explain`.
    groups: tuple[ConsequenceGroup, ...] = ()

    def pattern(self, pattern_id: str) -> Pattern:
        for pattern in self.patterns:
            if pattern.id == pattern_id:
                return pattern
        raise KeyError(pattern_id)

    def verdict(self, verdict_id: str) -> VerdictSpec:
        for spec in self.verdicts:
            if spec.id == verdict_id:
                return spec
        raise KeyError(verdict_id)

    def has_verdict(self, verdict_id: str) -> bool:
        return any(spec.id == verdict_id for spec in self.verdicts)

    def marked(self, *marks: Mark) -> frozenset[str]:
        """Ids of the patterns carrying any of `marks`."""
        return frozenset(p.id for p in self.patterns if set(p.marks) & set(marks))

    def rooting(self, verdict_id: str) -> frozenset[str]:
        """Ids of the patterns whose failure supports `verdict_id`."""
        return frozenset(p.id for p in self.patterns if p.verdict == verdict_id)


# ---------------------------------------------------------------- one pattern


def load_pattern(path: Path, group: str = "") -> Pattern:
    where = str(path)
    import tomllib  # here: a run whose library comes from the cache parses no TOML (library_cache.py)

    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise PatternError(where, None, f"cannot be read as TOML: {exc}") from exc
    return parse_pattern(data, where, path.stem, group)


def parse_pattern(data: dict[str, Any], where: str, stem: str, group: str) -> Pattern:
    _check_keys(data, _PATTERN_KEYS, _REQUIRED_KEYS, where)
    pattern_id = _string(data, "id", where)
    if pattern_id != stem:
        raise PatternError(where, "id", f"'{pattern_id}' must equal the file name '{stem}'")
    compiled = _compile(data, where)
    fields = _fields(data, compiled, where)
    edges = _edges(data, where)
    return Pattern(
        id=pattern_id,
        title=_string(data, "title", where),
        path=where,
        group=group,
        roles=_roles(data, where),
        severity=_enum(Severity, data, "severity", where),
        kind=_enum(Kind, data, "kind", where),
        verdict=data.get("verdict"),
        anchors=_anchors(data, where),
        regex=compiled,
        fields=fields,
        failure_if=_failure_condition(data, fields, where),
        block=_block(data, where),
        explain=_string(data, "explain", where),
        advice=str(data.get("advice", "")),
        references=tuple(str(ref) for ref in data.get("references", [])),
        causes=tuple(edge.rule(target) for edge in edges for target in edge.patterns),  # groups: at load
        examples=_examples(data, where),
        stop_after=_stop_after(data, where),
        marks=_marks(data, where),
        unexplained=_unexplained(data, fields, where),
        identity=_identity(data, fields, where),
        cleared_by=tuple(_string_list(data, "cleared_by", where) or ()),
        edges=edges,
        says=_says(data, fields, where),
    )


def _check_keys(data: Mapping[str, Any], allowed: set[str], required: Iterable[str], where: str) -> None:
    for key in data:
        if key not in allowed:
            raise PatternError(where, key, "unknown key")
    for key in required:
        if key not in data:
            raise PatternError(where, key, "missing required key")


def _string(data: Mapping[str, Any], key: str, where: str) -> str:
    value = data.get(key)
    if not isinstance(value, str) or not value.strip():
        raise PatternError(where, key, "must be a non-empty string")
    return value


def _enum(cls: type[_E], data: Mapping[str, Any], key: str, where: str) -> _E:
    value = str(data.get(key))
    try:
        return cls(value)
    except ValueError:
        allowed = ", ".join(member.value for member in cls)
        raise PatternError(where, key, f"'{value}' is not one of: {allowed}") from None


def _roles(data: Mapping[str, Any], where: str) -> tuple[Role, ...]:
    raw = data.get("roles", [])
    if not isinstance(raw, list):
        raise PatternError(where, "roles", "must be a list")
    try:
        return tuple(Role(role) for role in raw)
    except ValueError as exc:
        raise PatternError(where, "roles", str(exc)) from None


def _anchors(data: Mapping[str, Any], where: str) -> tuple[str, ...]:
    raw = data.get("anchors")
    if not isinstance(raw, list) or not raw or not all(isinstance(a, str) and a for a in raw):
        raise PatternError(where, "anchors", "must be a non-empty list of non-empty strings")
    for anchor in raw:
        if not anchor.isascii():
            raise PatternError(where, "anchors", f"'{anchor}' must be ASCII (it is searched as bytes)")
    return tuple(raw)


def _compile(data: Mapping[str, Any], where: str) -> LazyRegex:
    source = _string(data, "regex", where)
    try:
        return compile_now(source)
    except RegexCompileError as exc:
        raise PatternError(where, "regex", f"does not compile: {exc}") from None


def _fields(data: Mapping[str, Any], compiled: LazyRegex, where: str) -> tuple[tuple[str, str], ...]:
    raw = data.get("fields", {})
    if not isinstance(raw, dict):
        raise PatternError(where, "fields", "must be a table of name = type")
    groups = set(compiled.groupindex)
    for name, kind in raw.items():
        if kind not in FIELD_TYPES:
            raise PatternError(where, f"fields.{name}", f"type '{kind}' is not one of {FIELD_TYPES}")
        if name not in groups:
            raise PatternError(where, f"fields.{name}", "is not a named group of the regex")
    # Named groups without a declared type are strings.
    typed = {name: raw.get(name, "str") for name in compiled.groupindex}
    return tuple(sorted(typed.items()))


def _failure_condition(data: Mapping[str, Any], fields: tuple[tuple[str, str], ...], where: str) -> Condition | None:
    text = data.get("failure_if")
    if text is None:
        return None
    try:
        condition = parse_condition(str(text))
    except ValueError as exc:
        raise PatternError(where, "failure_if", str(exc)) from None
    known = {name for name, _ in fields} | {
        f"{name}_{suffix}" for name, kind in fields if kind == "int_list" for suffix in ("zero_fraction", "len")
    }
    for ands in condition.clauses:
        for left, _, right in ands:
            for operand in (left, right):
                if _is_identifier(operand) and operand not in known:
                    raise PatternError(where, "failure_if", f"'{operand}' is not a field of the pattern")
    return condition


def _stop_after(data: Mapping[str, Any], where: str) -> int | None:
    value = data.get("stop_after")
    if value is None:
        return None
    if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= MAX_STOP_AFTER:
        raise PatternError(where, "stop_after", f"must be a whole number of matches from 1 to {MAX_STOP_AFTER}")
    if data.get("kind") != "context":
        raise PatternError(where, "stop_after", "only context patterns may stop early: failures are always counted")
    return value


def _string_list(data: Mapping[str, Any], key: str, where: str) -> tuple[str, ...] | None:
    raw = data.get(key)
    if raw is None:
        return None
    if not isinstance(raw, list) or not all(isinstance(item, str) and item for item in raw):
        raise PatternError(where, key, "must be a list of non-empty strings")
    return tuple(raw)


def _marks(data: Mapping[str, Any], where: str) -> tuple[Mark, ...]:
    names = _string_list(data, "marks", where) or ()
    return tuple(_enum(Mark, {"marks": name}, "marks", where) for name in names)


def _unexplained(data: Mapping[str, Any], fields: tuple[tuple[str, str], ...], where: str) -> str | None:
    if "unexplained" not in data:
        return None
    text = _string(data, "unexplained", where)
    known = {name for name, _ in fields} | _HINT_PLACES
    for name in re.findall(r"\{(\w*)\}", text):
        if name not in known:
            raise PatternError(where, "unexplained", f"'{{{name}}}' is not a field of the pattern nor {{where}}")
    return text


def _says(data: Mapping[str, Any], fields: tuple[tuple[str, str], ...], where: str) -> tuple[str, ...]:
    raw = data.get("says")
    if raw is None:
        return ()
    parts = [raw] if isinstance(raw, str) else raw
    if not isinstance(parts, list) or not parts or not all(isinstance(part, str) and part for part in parts):
        raise PatternError(where, "says", "must be a sentence, or a list of parts (the first always said)")
    known = {name for name, _ in fields}
    for name in _PLACEHOLDER.findall("".join(parts)):
        if name not in known:
            raise PatternError(where, "says", f"'{{{name}}}' is not a field (named group) of the pattern")
    return tuple(parts)


def say(pattern: Pattern, values: Mapping[str, FieldValue]) -> str | None:
    """What `pattern`'s line says (its `says`), filled from the line's captures; None without `says`.
    A part after the first is left out when one of its fields was not captured."""
    if not pattern.says:
        return None
    first, *rest = pattern.says
    told = [first, *(part for part in rest if all(values.get(n) is not None for n in _PLACEHOLDER.findall(part)))]
    return _PLACEHOLDER.sub(lambda found: str(values.get(found.group(1), "?")), "".join(told))


def _identity(data: Mapping[str, Any], fields: tuple[tuple[str, str], ...], where: str) -> tuple[str, ...] | None:
    names = _string_list(data, "identity", where)
    known = {name for name, _ in fields}
    for name in names or ():
        if name not in known:
            raise PatternError(where, "identity", f"'{name}' is not a field (named group) of the pattern")
    return names


def _block(data: Mapping[str, Any], where: str) -> str | None:
    block = data.get("block")
    if block is not None and block not in BLOCK_KINDS:
        raise PatternError(where, "block", f"'{block}' is not one of {BLOCK_KINDS}")
    return block


def _edges(data: Mapping[str, Any], where: str) -> tuple[CauseEdge, ...]:
    """`[[causes]]` tables: `pattern` and/or `group` (a name or a list of names), `window`, `skew`, `join`."""
    edges = []
    for index, raw in enumerate(data.get("causes", [])):
        key = f"causes[{index}]"
        if not isinstance(raw, dict):
            raise PatternError(where, key, "must be a table")
        _check_keys(raw, _CAUSE_KEYS, (), f"{where}: {key}")
        patterns = _names(raw, "pattern", where, key)
        groups = _names(raw, "group", where, key)
        if not patterns and not groups:
            raise PatternError(where, key, "names no pattern and no group: give `pattern` or `group`")
        edges.append(
            CauseEdge(
                patterns=patterns,
                groups=groups,
                window_s=parse_duration(raw.get("window", DEFAULT_WINDOW_S), where, f"{key}.window"),
                skew_s=parse_duration(raw.get("skew", DEFAULT_SKEW_S), where, f"{key}.skew"),
                join=tuple(str(name) for name in raw.get("join", [])),
            )
        )
    return tuple(edges)


def _names(raw: Mapping[str, Any], name: str, where: str, key: str) -> tuple[str, ...]:
    """A `[[causes]]` key holding one name or a list of them."""
    value = raw.get(name, [])
    listed = [value] if isinstance(value, str) else value
    if not isinstance(listed, list) or not all(isinstance(item, str) and item for item in listed):
        raise PatternError(where, f"{key}.{name}", "must be a name or a list of names")
    return tuple(listed)


def _examples(data: Mapping[str, Any], where: str) -> Examples:
    raw = data.get("examples")
    if not isinstance(raw, dict):
        raise PatternError(where, "examples", "must be a table with match and no_match lists")
    _check_keys(raw, _EXAMPLE_KEYS, ("match", "no_match"), f"{where}: examples")
    match, no_match = raw["match"], raw["no_match"]
    if not isinstance(match, list) or not match:
        raise PatternError(where, "examples.match", "needs at least one line")
    if not isinstance(no_match, list) or not no_match:
        raise PatternError(where, "examples.no_match", "needs at least one line")
    captures = raw.get("captures", {})
    return Examples(tuple(map(str, match)), tuple(map(str, no_match)), tuple(sorted(captures.items())))


def parse_duration(value: Any, where: str, key: str) -> float:
    """`90`, `"90s"`, `"30m"`, `"2h"` -> seconds."""
    if isinstance(value, int | float):
        return float(value)
    text = str(value).strip()
    units = {"s": 1.0, "m": 60.0, "h": 3600.0}
    try:
        if text and text[-1] in units:
            return float(text[:-1]) * units[text[-1]]
        return float(text)
    except ValueError:
        raise PatternError(where, key, f"'{value}' is not a duration like 30s, 10m, 2h") from None


# ---------------------------------------------------------------- conditions

_OPERATORS: dict[str, Callable[[Any, Any], bool]] = {
    "<=": operator.le, ">=": operator.ge, "!=": operator.ne,
    "==": operator.eq, "<": operator.lt, ">": operator.gt,
}  # fmt: skip
_ATOM = re.compile(r"^\s*([\w.']+)\s*(<=|>=|!=|==|<|>)\s*([\w.'-]+)\s*$")


def parse_condition(text: str) -> Condition:
    clauses = []
    for disjunct in text.split(" or "):
        atoms = []
        for conjunct in disjunct.split(" and "):
            found = _ATOM.match(conjunct)
            if not found:
                raise ValueError(f"'{conjunct.strip()}' is not of the form `field op value`")
            atoms.append((found.group(1), found.group(2), found.group(3)))
        clauses.append(tuple(atoms))
    return Condition(text, tuple(clauses))


def _is_identifier(operand: str) -> bool:
    return operand[0].isalpha() or operand[0] == "_"


def _operand(operand: str, fields: Mapping[str, FieldValue]) -> Any:
    if operand.startswith("'"):
        return operand.strip("'")
    if _is_identifier(operand):
        return fields.get(operand)
    return float(operand)


def _atom_holds(atom: tuple[str, str, str], fields: Mapping[str, FieldValue]) -> bool:
    left, op, right = (_operand(atom[0], fields), atom[1], _operand(atom[2], fields))
    if left is None or right is None:
        return False
    try:
        return _OPERATORS[op](left, right)
    except TypeError:
        return False


# ---------------------------------------------------------------- matching


def match_line(pattern: Pattern, line: str) -> dict[str, FieldValue] | None:
    """The typed captures of `pattern` on `line`, or None.

    The scanner and `patterns check` both call this, so examples test exactly
    what a real run does. A search that exceeds its time limit raises TimeoutError.
    """
    if not all(anchor in line for anchor in pattern.anchors):
        return None
    found = pattern.regex.search(line, timeout=MATCH_TIMEOUT_S)
    if found is None:
        return None
    return typed_fields(pattern, found.groupdict())


def typed_fields(pattern: Pattern, raw: Mapping[str, str | None]) -> dict[str, FieldValue]:
    values: dict[str, FieldValue] = {}
    for name, kind in pattern.fields:
        text = raw.get(name)
        if text is None:
            continue
        value = convert_field(kind, text)
        if value is None:
            continue
        values[name] = value
        if isinstance(value, tuple):
            values[f"{name}_len"] = len(value)
            values[f"{name}_zero_fraction"] = (
                round(sum(1 for item in value if item == 0) / len(value), 4) if value else 0.0
            )
    return values


_SIZE_UNITS = {
    "": 1, "b": 1, "kb": 10**3, "mb": 10**6, "gb": 10**9, "tb": 10**12,
    "kib": 2**10, "mib": 2**20, "gib": 2**30, "tib": 2**40, "k": 2**10, "m": 2**20, "g": 2**30,
}  # fmt: skip
_SIZE = re.compile(r"^\s*([0-9][0-9_,]*(?:\.[0-9]+)?)\s*([a-zA-Z]*)\s*$")


def convert_field(kind: str, text: str) -> FieldValue | None:
    text = text.strip()
    try:
        if kind == "int":
            return int(text.replace(",", "").replace("_", ""), 0 if text.lower().startswith("0x") else 10)
        if kind == "float":
            return float(text)
        if kind == "percent":
            return round(float(text.rstrip("%")) / 100, 6)
        if kind == "bool":
            return {"true": True, "false": False}[text.lower()]
        if kind == "duration":
            return float(text.rstrip("sS"))
        if kind == "bytes":
            return _parse_bytes(text)
        if kind == "int_list":
            return tuple(int(item) for item in re.findall(r"-?\d+", text))
    except (ValueError, KeyError):
        return None
    return text


def _parse_bytes(text: str) -> int | None:
    found = _SIZE.match(text)
    if not found or found.group(2).lower() not in _SIZE_UNITS:
        return None
    number = float(found.group(1).replace(",", "").replace("_", ""))
    return int(number * _SIZE_UNITS[found.group(2).lower()])


# ---------------------------------------------------------------- verdicts


def load_verdicts(path: Path) -> list[VerdictSpec]:
    where = str(path)
    import tomllib  # here: a run whose library comes from the cache parses no TOML (library_cache.py)

    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise PatternError(where, None, f"cannot be read as TOML: {exc}") from exc
    specs = []
    for index, raw in enumerate(data.get("verdict", [])):
        key = f"verdict[{index}]"
        at = f"{where}: {key}"
        _check_keys(raw, _VERDICT_KEYS, ("id", "title", "tier", "explain", "advice"), at)
        verdict_id = _string(raw, "id", at)
        if not _VERDICT_ID.match(verdict_id):
            raise PatternError(at, "id", f"'{verdict_id}' must be kebab-case: lower-case letters, digits and '-'")
        specs.append(
            VerdictSpec(
                id=verdict_id,
                title=_string(raw, "title", at),
                tier=_enum(Tier, raw, "tier", at),
                explain=_string(raw, "explain", at),
                advice=str(raw["advice"]),
                analyzer=raw.get("analyzer"),
                explains=_string_list(raw, "explains", at) or (),
                identity=_string_list(raw, "identity", at),
                phase=_phase(raw, at),
                never_survived=_flag(raw, "never_survived", at),
            )
        )
    return specs


def _flag(raw: dict[str, Any], key: str, at: str) -> bool:
    value = raw.get(key, False)
    if not isinstance(value, bool):
        raise PatternError(at, key, f"must be true or false, not {value!r}")
    return value


def _phase(raw: dict[str, Any], at: str) -> str | None:
    phase = raw.get("phase")
    if phase is not None and phase not in VERDICT_PHASES:
        raise PatternError(at, "phase", f"'{phase}' is not one of {VERDICT_PHASES}")
    return phase if isinstance(phase, str) else None


# ---------------------------------------------------------------- the whole library


def validate_library(library: Library) -> None:
    _check_unique([(p.id, p.path) for p in library.patterns], "pattern")
    _check_unique([(v.id, "verdicts.toml") for v in library.verdicts], "verdict")
    by_id = {p.id: p for p in library.patterns}
    groups = {group.id: group for group in library.groups}
    for pattern in library.patterns:
        if pattern.verdict is not None and not library.has_verdict(pattern.verdict):
            raise PatternError(pattern.path, "verdict", f"'{pattern.verdict}' is not a known verdict id")
        check_group_names(pattern, groups, by_id)
        for index, edge in enumerate(pattern.edges):
            for target_id, _ in edge_targets(edge, groups):
                target = by_id.get(target_id)
                if target is None:
                    hint = ": it is a consequence group, name it under `group`" if target_id in groups else ""
                    raise PatternError(pattern.path, f"causes[{index}].pattern", f"unknown pattern '{target_id}'{hint}")
                _check_join(pattern, target, edge.join, f"causes[{index}].join")
        _check_identity_declared(pattern)
        for name in pattern.cleared_by:
            if name not in by_id:
                raise PatternError(pattern.path, "cleared_by", f"unknown pattern '{name}'")
    for spec in library.verdicts:
        for name in spec.explains:
            if name not in by_id:
                raise PatternError("verdicts.toml", f"{spec.id}.explains", f"unknown pattern '{name}'")
    _check_acyclic(library)


def _check_join(cause: Pattern, target: Pattern, join: tuple[str, ...], key: str) -> None:
    """A join key must be captured on both sides: link.py lets a key absent from one event pass,
    so a misspelt key would silently turn a keyed edge into "anything within the window"."""
    cause_fields = {name for name, _ in cause.fields}
    target_fields = {name for name, _ in target.fields}
    for name in join:
        if name in PSEUDO_JOIN_KEYS:
            continue
        sides = [
            who for who, fields in (("this pattern", cause_fields), (target.id, target_fields)) if name not in fields
        ]
        if sides:
            raise PatternError(
                cause.path,
                key,
                f"'{name}' is not a named group of {' nor '.join(sides)} "
                f"(a join key is a capture of both ends, or one of {sorted(PSEUDO_JOIN_KEYS)})",
            )


def _check_identity_declared(pattern: Pattern) -> None:
    """A verdict whose analyzer sets no facts (or that has none) reports its root's captures, and the
    fingerprint is made from facts: the pattern must say which captures stay the same night to night."""
    if pattern.verdict is not None and pattern.identity is None and pattern.fields:
        raise PatternError(
            pattern.path,
            "identity",
            "missing: list the captures that identify the incident (not counters, times, ids that change "
            'every run), e.g. identity = ["errno"], or identity = [] for none',
        )


def _check_unique(items: list[tuple[str, str]], what: str) -> None:
    seen: dict[str, str] = {}
    for item_id, where in items:
        if item_id in seen:
            raise PatternError(where, "id", f"duplicate {what} id '{item_id}' (also in {seen[item_id]})")
        seen[item_id] = where


def _check_acyclic(library: Library) -> None:
    graph = {p.id: [rule.target for rule in p.causes] for p in library.patterns}
    state: dict[str, int] = {}  # 1 = on the current path, 2 = done

    def visit(node: str, path: list[str]) -> None:
        state[node] = 1
        for target in graph.get(node, []):
            if state.get(target) == 1:
                cycle = " -> ".join([*path, node, target])
                raise PatternError(library.pattern(node).path, "causes", f"cycle: {cycle}")
            if target not in state:
                visit(target, [*path, node])
        state[node] = 2

    for node in graph:
        if node not in state:
            visit(node, [])


def check_examples(pattern: Pattern) -> list[str]:
    """Every problem with the pattern's own examples; empty when they all hold."""
    problems = []
    for index, line in enumerate(pattern.examples.match):
        try:
            captured = match_line(pattern, line)
        except TimeoutError:
            problems.append(f"{pattern.id}: match[{index}] timed out")
            continue
        if captured is None:
            problems.append(f"{pattern.id}: match[{index}] does not match: {line!r}")
        elif index == 0:
            problems.extend(_capture_problems(pattern, captured))
    for index, line in enumerate(pattern.examples.no_match):
        try:
            if match_line(pattern, line) is not None:
                problems.append(f"{pattern.id}: no_match[{index}] matches: {line!r}")
        except TimeoutError:
            problems.append(f"{pattern.id}: no_match[{index}] timed out")
    return problems


def _capture_problems(pattern: Pattern, captured: Mapping[str, FieldValue]) -> list[str]:
    problems = []
    for name, expected in pattern.examples.captures:
        value = captured.get(name)
        actual: Any = list(value) if isinstance(value, tuple) else value
        if actual != expected:
            problems.append(f"{pattern.id}: match[0] captured {name}={actual!r}, expected {expected!r}")
    return problems
