"""The pattern library: data files, validated on load, that test themselves.

Each `patterns/<group>/<id>.toml` describes one condition seen in a log line.
`patterns/verdicts.toml` lists the verdicts the diagnosis may give.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import field
from pathlib import Path
from types import MappingProxyType
from typing import Any

from ..model import FieldValue, Kind, Mark, Role, Severity, Tier
from ..model.errors import PatternError
from ..model.lazyre import lazy_re
from ..model.values import record
from . import schema
from .conditions import Condition, parse_condition
from .errorlines import ErrorLayer
from .fields import DERIVED_FIELDS, FIELD_TYPES, typed_fields
from .formats import Formats
from .formats import shipped as shipped_formats
from .frames import FrameTable
from .known import KnownBook
from .lazyregex import LazyRegex

CXX_WHAT = "cxx-what"  # a C++ exception nothing caught: `terminate called ...` and its what() line
# A traceback that starts at the matched line, a frame (a paste that lost the lines above it).
PYTHON_FRAMES = "python-frames"
# A Markdown table's row, read with the header above it (scan/tables.py: which way its change columns point).
TABLE_ROW = "table-row"
# The lines below a heading that state numbers (scan/headings.py: `before <commit>` over a benchmark's lines).
MEASURES_BELOW = "measures-below"
# The rows below a Markdown table's header that names a baseline and a candidate column (scan/tables.py).
TABLE_SIDES = "table-sides-below"
# The rows below a Markdown table's header whose first column names releases (scan/tables.py).
TABLE_RELEASES = "table-releases-below"
# The rows below a whitespace-aligned table's header whose rows are variants of one model (scan/tables.py).
TABLE_VARIANTS = "table-variants-below"
# The rows below a Markdown table's header whose first column names configurations (scan/tables.py).
TABLE_CONFIGURATIONS = "table-configurations-below"
# The rows below a Markdown table's header whose rows are runs, a baseline's and a candidate's (scan/tables.py).
TABLE_RUNS = "table-runs-below"
# The rows below a Markdown table's header whose first column names models, one model on several rows (scan/tables.py).
TABLE_MODEL_ROWS = "table-model-rows-below"
# The rows below a Markdown table's header whose last column is a speedup ratio (scan/tables.py).
TABLE_SPEEDUP = "table-speedup-below"
# Two llama-bench tables each closed by its `build: <commit> (<number>)` line (scan/tables.py).
TABLE_BUILDS = "table-builds-above"
# A results table's row and the same row of the same table printed earlier in the file (scan/tables.py).
TABLE_EARLIER_ROW = "table-earlier-row-above"
# The lines above a bound stated on its own line, for the accuracy it bounds (scan/headings.py).
MEASURE_ABOVE = "measure-above"
# The times below a status dump's state reason: when that state ended, or began (scan/states.py).
STATE_TIMES = "state-times-below"
# A table row's outcome cell, named by its column's header cell (scan/tables.py: `TG128 (t/s)` over
# `**16.80** ← regression` says what regressed).
TABLE_COLUMN = "table-column-above"
# The `timeout DURATION COMMAND` above a command's exit status: the limit it ran under (scan/time_limits.py).
TIME_LIMIT = "time-limit-above"
BLOCK_KINDS = (
    "python-traceback",
    PYTHON_FRAMES,
    CXX_WHAT,
    TABLE_ROW,
    MEASURES_BELOW,
    TABLE_SIDES,
    TABLE_RELEASES,
    TABLE_VARIANTS,
    TABLE_CONFIGURATIONS,
    TABLE_RUNS,
    TABLE_MODEL_ROWS,
    TABLE_SPEEDUP,
    TABLE_BUILDS,
    TABLE_EARLIER_ROW,
    MEASURE_ABOVE,
    STATE_TIMES,
    TABLE_COLUMN,
    TIME_LIMIT,
)
# What a block says of a line it found a comparison on but could not judge (Library.unjudged).
UNDIRECTED = "undirected"
# The fields a block adds that a pattern's `failure_if` and `unexplained` may read besides its captures.
BLOCK_FIELDS = MappingProxyType(
    {
        TABLE_ROW: ("worse", "metric", "change", "header", "undirected"),
        MEASURES_BELOW: ("measured",),
        TABLE_SIDES: ("worse", "metric", "change", "value", "baseline", "row", "sides"),
        TABLE_RELEASES: ("worse", "metric", "change", "value", "baseline", "row", "sides"),
        TABLE_VARIANTS: ("worse", "metric", "change", "value", "baseline", "row", "sides"),
        TABLE_CONFIGURATIONS: ("worse", "metric", "change", "value", "baseline", "row", "sides"),
        TABLE_RUNS: ("worse", "metric", "change", "value", "baseline", "row", "sides"),
        TABLE_MODEL_ROWS: ("worse", "metric", "change", "value", "baseline", "row", "sides"),
        TABLE_SPEEDUP: ("worse", "metric", "change", "value", "baseline", "row", "sides"),
        TABLE_BUILDS: ("worse", "metric", "change", "value", "baseline", "row", "sides"),
        TABLE_EARLIER_ROW: ("worse", "metric", "change", "value", "baseline", "row", "sides"),
        MEASURE_ABOVE: ("value", "measured"),
        STATE_TIMES: ("stated_time",),
        TABLE_COLUMN: ("column",),
        TIME_LIMIT: ("limit", "command"),
        # the exception the frames end in, when they reach it, and whether they do ("yes", "no")
        PYTHON_FRAMES: ("exc_type", "exc_message", "exception_read"),
    }
)
MAX_STOP_AFTER = 20  # no more than the scanner keeps of one pattern in one source
MATCH_TIMEOUT_S = 0.5  # per regex search: a catastrophic pattern cannot hang a run
DEFAULT_WINDOW_S = 1800.0
DEFAULT_SKEW_S = 10.0
PROFILE_FILE = "profile.toml"

_PATTERN_KEYS = {
    "id", "title", "roles", "severity", "kind", "verdict", "anchors", "regex", "fields",
    "failure_if", "block", "explain", "advice", "references", "causes", "examples", "stop_after",
    "marks", "unexplained", "identity", "cleared_by", "not_cleared_by", "cleared_by_run", "cleared_on", "says",
    "search_anchor", "any_anchors", "pastes_only", "prose",
}  # fmt: skip
# The title `patterns suggest` writes into a skeleton (suggest.py), for a person to replace.
SKELETON_TITLE = "TODO: what this line means"
_REQUIRED_KEYS = ("id", "title", "severity", "kind", "regex", "explain", "examples")  # and anchors: _anchors
_CAUSE_KEYS = {"pattern", "group", "window", "skew", "join"}
_VERDICT_REQUIRED = ("id", "title", "tier", "explain", "advice")
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
    "survived_by_restart",
    "peer_side",
    "advice_from_root",
    "advice_for",
}
# The engines whose own advice a verdict may carry beside its general one (`[verdict.advice_for]`).
ADVICE_ENGINES = ("sglang", "vllm", "trtllm")
# A verdict about one phase of a server's life: its root lines count only in that phase.
START_UP = "start-up"
VERDICT_PHASES = (START_UP,)
# Join keys that are not captures: the same file, the same host (from the file name), the same role.
PSEUDO_JOIN_KEYS = frozenset({"source", "node", "role"})
# Placeholders an `unexplained` sentence may use besides the pattern's own fields.
# Places an `unexplained` sentence may name besides the pattern's fields: where the line is, and the
# innermost frame of the stack read under it (a `block`: a py-spy dump's stuck call).
_HINT_PLACES = frozenset({"where", "frame"})
_VERDICT_ID = lazy_re(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
_PLACEHOLDER = lazy_re(r"\{(\w+)\}")


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
    # Patterns whose line, later in the same file and before the first clearing line, says this one
    # was not got over (a container's `Ready: False` under its OOMKilled, beside another container's
    # `Ready: True`): the first word after the failure on it decides.
    not_cleared_by: tuple[str, ...] = ()
    # Patterns whose line anywhere in the run after this one (any file: a harness's check) shows it
    # did no harm (a warmup's garbage tokens, then an accuracy check the model passed).
    cleared_by_run: tuple[str, ...] = ()
    # Captures a clearing line must share with this one (the pod a Kubernetes event is about): a pod
    # scheduled later clears its own FailedScheduling, not another pod's.
    cleared_on: tuple[str, ...] = ()
    # The `[[causes]]` tables as written; `causes` is what they expand to once the library's
    # consequence groups are known (consequences.expand).
    edges: tuple[CauseEdge, ...] = ()
    # What the line says, in words a summary can quote ("a device-side assertion in CUDA kernel
    # {kernel}"): the first part always, each further part only when all its fields were captured.
    says: tuple[str, ...] = ()
    # The anchor the scanner searches for, when the longest is not the rarest (`primary_anchor`).
    search_anchor: str | None = None
    # Literals of which every match holds at least one (a line shaped two ways: a table row's change
    # cell inside the row, `% |`, or last, `| -17.56%`): the scanner searches for each of them, not
    # for the primary anchor (`search_keys`); `anchors` (none, when the spellings share nothing) still
    # must all be in the line.
    any_anchors: tuple[str, ...] = ()
    # A shape with no literal to search for (a word looping: `you, you, you, ...`), so never searched
    # for in a scan: read on every line of an input small enough to be read whole, a paste
    # (scan/pastes.py). Its `anchors`, when it has any, must still all be in the line.
    pastes_only: bool = False
    # A sentence a person writes (a report's `285 of 1319 answers degenerate`), which a paste may
    # hold wrapped by hand over several rows: read again on a paste's sentences (scan/prose.py).
    prose: bool = False

    @property
    def primary_anchor(self) -> str:
        """The anchor the scanner searches for: the one the pattern names (`search_anchor`: a longer
        anchor is on every line of a busy family, a shorter one on its failing lines only), else the
        longest, which is usually the rarest."""
        return self.search_anchor or max(self.anchors or self.any_anchors, key=len)

    @property
    def search_keys(self) -> tuple[str, ...]:
        """What the scanner searches for to find the pattern's lines: each of `any_anchors`, or the
        primary anchor; nothing for a pattern read on pastes only."""
        if self.pastes_only:
            return ()
        return self.any_anchors or (self.primary_anchor,)


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
    # Its server serving on does not show the run got over it (a listener that could not bind stays
    # unbound while the engine answers by recomputing): only its next life (a restart's own log, or a
    # ready or warmup line after the failure in the same one) or an end-to-end check that passed does
    # (diagnose._answered_after_recoveries).
    survived_by_restart: bool = False
    # What a server sees when its peer goes away (a link that fails, a transfer or handshake that
    # times out, a collective a rank never joins): a peer stopped from outside just before it is the
    # failure, and this is its consequence (unexplained._peer_stopped_first).
    peer_side: bool = False
    # Its `advice` is the general case in one engine's words, and its root lines' own patterns know
    # the fix for their component (vLLM's handshake hash, an Actions time limit): the root's wins.
    advice_from_root: bool = False
    # The advice in one engine's own words (its flags and variables), by engine: a report on that
    # engine's logs gives it instead of `advice`, which names every engine's knobs.
    advice_for: tuple[tuple[str, str], ...] = ()

    def advice_of(self, engine: str | None) -> str:
        """The advice for logs written by `engine`: its own when the verdict has one, else the general."""
        return dict(self.advice_for).get(engine or "", self.advice)


# ---------------------------------------------------------------- consequence groups (consequences.py loads them)


@record
class ConsequenceGroup:
    id: str
    explain: str  # what the members have in common: why a cause leads to all of them
    members: tuple[str, ...]  # pattern ids and group ids
    path: str


def members_of(group_id: str, by_id: Mapping[str, ConsequenceGroup]) -> tuple[str, ...]:
    """The pattern ids a group reaches, its groups expanded, in the order written."""
    found: list[str] = []
    for member in by_id[group_id].members:
        found += members_of(member, by_id) if member in by_id else [member]
    return tuple(found)


def edge_targets(edge: CauseEdge, by_id: Mapping[str, ConsequenceGroup]) -> list[tuple[str, str]]:
    """(pattern id, the name it was reached through) for every pattern a `[[causes]]` table reaches:
    its patterns, then its groups' members. A group it names must be known (`_rules` checks)."""
    targets = [(name, name) for name in edge.patterns]
    return targets + [(target, name) for name in edge.groups for target in members_of(name, by_id)]


def check_group_names(pattern: Pattern, by_id: Mapping[str, ConsequenceGroup], pattern_ids: Iterable[str]) -> None:
    for index, edge in enumerate(pattern.edges):
        for name in edge.groups:
            if name not in by_id:
                known = "a pattern: name it under `pattern`" if name in pattern_ids else "no consequence group"
                raise PatternError(pattern.path, f"causes[{index}].group", f"'{name}' is {known}")


@record
class Library:
    patterns: tuple[Pattern, ...]
    verdicts: tuple[VerdictSpec, ...]
    errors: ErrorLayer | None = None  # the generic error layer (open-world/): lines no pattern names
    frames: FrameTable = field(default_factory=FrameTable)  # what a crash's stack frames say (frames.toml)
    # Named sets of consequences that `[[causes]]` tables reach (consequences.toml); already
    # expanded into each pattern's `causes`, kept for `patterns check` and `explain`.
    groups: tuple[ConsequenceGroup, ...] = ()
    formats: Formats = field(default_factory=shipped_formats)  # each component's line format (formats/)
    # Upstream knowledge (known/): the problems each verdict is known as, and where versions are told.
    known: KnownBook = field(default_factory=KnownBook)

    # The patterns by id, filled on the first look-up: `pattern` is asked per event (hundreds of
    # thousands of times on a large run), and a walk of the tuple cost ~36 us each time. Not an
    # argument (init=False): `replace` gives a library with other patterns an empty one of its own.
    by_id: dict[str, Pattern] = field(default_factory=dict, compare=False, repr=False, init=False)
    # The ids each set of marks names, filled as asked: the reasoning asks per event and per line
    # (a benchmark's plan, a wait, a stop), and a walk of every pattern cost ~0.2 ms each time.
    by_marks: dict[frozenset[Mark], frozenset[str]] = field(default_factory=dict, compare=False, repr=False, init=False)
    # What a later stage builds from the library alone, by a name it chooses, kept with it: the
    # scan's anchor plan (~15 ms; made as the library is read, so the cache keeps it: load.py's
    # `derive`) and its index (the plan and a matcher) once per library in a process that analyses
    # many times (`--follow`'s passes, `triage` over runs, a test session).
    derived: dict[str, object] = field(default_factory=dict, compare=False, repr=False, init=False)

    def pattern(self, pattern_id: str) -> Pattern:
        return self._by_id()[pattern_id]

    def knows(self, pattern_id: str) -> bool:
        """A pattern of this library has the id (the generic layer's lines have ids of their own)."""
        return pattern_id in self._by_id()

    def _by_id(self) -> dict[str, Pattern]:
        if not self.by_id:
            for pattern in self.patterns:
                self.by_id.setdefault(pattern.id, pattern)  # the first of an id wins, as the walk found it
        return self.by_id

    def verdict(self, verdict_id: str) -> VerdictSpec:
        for spec in self.verdicts:
            if spec.id == verdict_id:
                return spec
        raise KeyError(verdict_id)

    def has_verdict(self, verdict_id: str) -> bool:
        return any(spec.id == verdict_id for spec in self.verdicts)

    def marked(self, *marks: Mark) -> frozenset[str]:
        """Ids of the patterns carrying any of `marks`."""
        key = frozenset(marks)
        found = self.by_marks.get(key)
        if found is None:
            found = self.by_marks[key] = frozenset(p.id for p in self.patterns if key.intersection(p.marks))
        return found

    def unjudged(self, pattern_id: str, fields: tuple[tuple[str, object], ...]) -> bool:
        """A line whose block found what the line compares but not which way is worse (a results
        row's change column that no measure directs: `undirected`): no evidence that a check
        passed, nor that it failed. Asked per event: the patterns whose block can say so first."""
        if pattern_id not in self._undirecting():
            return False
        return any(name == UNDIRECTED for name, _ in fields)

    def _undirecting(self) -> frozenset[str]:
        found = self.derived.get(UNDIRECTED)
        if not isinstance(found, frozenset):
            found = self.derived[UNDIRECTED] = frozenset(
                p.id for p in self.patterns if p.block and UNDIRECTED in BLOCK_FIELDS.get(p.block, ())
            )
        return found

    def rooting(self, verdict_id: str) -> frozenset[str]:
        """Ids of the patterns whose failure supports `verdict_id`."""
        return frozenset(p.id for p in self.patterns if p.verdict == verdict_id)


# ---------------------------------------------------------------- one pattern


def load_pattern(path: Path, group: str = "") -> Pattern:
    return parse_pattern(schema.read_toml(path), str(path), path.stem, group)


def parse_pattern(data: dict[str, Any], where: str, stem: str, group: str) -> Pattern:
    schema.check_keys(data, _PATTERN_KEYS, _REQUIRED_KEYS, where)
    pattern_id = schema.string(data, "id", where)
    if pattern_id != stem:
        raise PatternError(where, "id", f"'{pattern_id}' must equal the file name '{stem}'")
    compiled = schema.regex(data, "regex", where)
    fields = _fields(data, compiled, where)
    edges = _edges(data, where)
    anchors = _anchors(data, where)
    return Pattern(
        id=pattern_id,
        title=_title(data, where),
        path=where,
        group=group,
        roles=_roles(data, where),
        severity=schema.member(Severity, data.get("severity"), where, "severity"),
        kind=schema.member(Kind, data.get("kind"), where, "kind"),
        verdict=data.get("verdict"),
        anchors=anchors,
        regex=compiled,
        fields=fields,
        failure_if=_failure_condition(data, fields, where),
        block=_block(data, where),
        explain=schema.string(data, "explain", where),
        advice=str(data.get("advice", "")),
        references=tuple(str(ref) for ref in data.get("references", [])),
        causes=tuple(edge.rule(target) for edge in edges for target in edge.patterns),  # groups: at load
        examples=_examples(data, where),
        stop_after=_stop_after(data, where),
        marks=_marks(data, where),
        unexplained=_unexplained(data, fields, where),
        identity=_identity(data, fields, where),
        cleared_by=schema.string_list(data, "cleared_by", where) or (),
        not_cleared_by=schema.string_list(data, "not_cleared_by", where) or (),
        cleared_by_run=schema.string_list(data, "cleared_by_run", where) or (),
        cleared_on=schema.string_list(data, "cleared_on", where) or (),
        edges=edges,
        says=_says(data, fields, where),
        search_anchor=_search_anchor(data, anchors, where),
        any_anchors=_any_anchors(data, where),
        pastes_only=_pastes_only(data, where),
        prose=_prose(data, where),
    )


def _title(data: Mapping[str, Any], where: str) -> str:
    """The title every report shows; one still a placeholder (the skeleton's `TODO: ...`) is refused,
    so an unfinished pattern never names lines in a report."""
    title = schema.string(data, "title", where)
    if _UNFINISHED.match(title):
        raise PatternError(where, "title", f"{title!r} is a placeholder: say what the line means")
    return title


_UNFINISHED = lazy_re(r"\s*(?:TODO|FIXME|XXX)\b", re.IGNORECASE)


def _roles(data: Mapping[str, Any], where: str) -> tuple[Role, ...]:
    raw = data.get("roles", [])
    if not isinstance(raw, list):
        raise PatternError(where, "roles", "must be a list")
    try:
        return tuple(Role(role) for role in raw)
    except ValueError as exc:
        raise PatternError(where, "roles", str(exc)) from None


def _anchors(data: Mapping[str, Any], where: str) -> tuple[str, ...]:
    """The literals every line of the pattern holds. None at all only beside `any_anchors`: a line
    written in two spellings with nothing in common (`GOOD COMMIT` and `good commit`); or for a
    pattern read on pastes only, which no scan searches for."""
    if "anchors" not in data and ("any_anchors" in data or data.get("pastes_only") is True):
        return ()
    if "anchors" not in data:
        raise PatternError(where, "anchors", "missing required key")
    anchors = schema.string_list(data, "anchors", where)
    if not anchors:
        raise PatternError(where, "anchors", "must be a non-empty list of non-empty strings")
    return anchors


def _prose(data: Mapping[str, Any], where: str) -> bool:
    if "prose" not in data:
        return False
    if not isinstance(data["prose"], bool):
        raise PatternError(where, "prose", "must be true or false")
    if data["prose"] and data.get("pastes_only") is True:
        raise PatternError(where, "prose", "a pattern read on pastes only reads their lines already")
    return bool(data["prose"])


def _pastes_only(data: Mapping[str, Any], where: str) -> bool:
    if "pastes_only" not in data:
        return False
    if not isinstance(data["pastes_only"], bool):
        raise PatternError(where, "pastes_only", "must be true or false")
    if data["pastes_only"] and ("any_anchors" in data or "search_anchor" in data):
        raise PatternError(where, "pastes_only", "is never searched for: no any_anchors or search_anchor beside it")
    return bool(data["pastes_only"])


def _any_anchors(data: Mapping[str, Any], where: str) -> tuple[str, ...]:
    if "any_anchors" not in data:
        return ()
    anchors = schema.string_list(data, "any_anchors", where)
    if not anchors or len(anchors) < 2:
        raise PatternError(where, "any_anchors", "must list two or more non-empty strings (one is `anchors`)")
    if "search_anchor" in data:
        raise PatternError(where, "any_anchors", "searches for each of its strings: no search_anchor beside it")
    return anchors


def _search_anchor(data: Mapping[str, Any], anchors: tuple[str, ...], where: str) -> str | None:
    """The anchor named to be searched for: one of `anchors`."""
    if "search_anchor" not in data:
        return None
    named = schema.string(data, "search_anchor", where)
    if named not in anchors:
        raise PatternError(where, "search_anchor", f"{named!r} must be one of the anchors {list(anchors)}")
    return named


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


def _field_names(fields: tuple[tuple[str, str], ...], data: Mapping[str, Any]) -> set[str]:
    """The captures' names, the values their types add beside them (`output_ids_zero_fraction`),
    and the fields the pattern's block reads (BLOCK_FIELDS)."""
    derived = {f"{name}_{suffix}" for name, kind in fields for suffix in DERIVED_FIELDS.get(kind, ())}
    return {name for name, _ in fields} | derived | set(BLOCK_FIELDS.get(str(data.get("block")), ()))


def _failure_condition(data: Mapping[str, Any], fields: tuple[tuple[str, str], ...], where: str) -> Condition | None:
    text = data.get("failure_if")
    if text is None:
        return None
    try:
        condition = parse_condition(str(text))
    except ValueError as exc:
        raise PatternError(where, "failure_if", str(exc)) from None
    known = _field_names(fields, data)
    for name in sorted(condition.fields - known):
        raise PatternError(where, "failure_if", f"'{name}' is not a field of the pattern")
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


def _marks(data: Mapping[str, Any], where: str) -> tuple[Mark, ...]:
    return tuple(schema.member(Mark, name, where, "marks") for name in schema.string_list(data, "marks", where) or ())


def _unexplained(data: Mapping[str, Any], fields: tuple[tuple[str, str], ...], where: str) -> str | None:
    if "unexplained" not in data:
        return None
    text = schema.string(data, "unexplained", where)
    known = _field_names(fields, data) | _HINT_PLACES
    for name in re.findall(r"\{(\w*)\}", text):
        if name not in known:
            raise PatternError(
                where, "unexplained", f"'{{{name}}}' is not a field of the pattern nor {{where}} or {{frame}}"
            )
    return text


def _says(data: Mapping[str, Any], fields: tuple[tuple[str, str], ...], where: str) -> tuple[str, ...]:
    raw = data.get("says")
    if raw is None:
        return ()
    parts = [raw] if isinstance(raw, str) else raw
    if not isinstance(parts, list) or not parts or not all(isinstance(part, str) and part for part in parts):
        raise PatternError(where, "says", "must be a sentence, or a list of parts (the first always said)")
    known = _field_names(fields, data)
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
    names = schema.string_list(data, "identity", where)
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
        schema.check_keys(raw, _CAUSE_KEYS, (), where, key)
        patterns = schema.names(raw, "pattern", where, key)
        groups = schema.names(raw, "group", where, key)
        if not patterns and not groups:
            raise PatternError(where, key, "names no pattern and no group: give `pattern` or `group`")
        edges.append(
            CauseEdge(
                patterns=patterns,
                groups=groups,
                window_s=schema.duration(raw.get("window", DEFAULT_WINDOW_S), where, f"{key}.window"),
                skew_s=schema.duration(raw.get("skew", DEFAULT_SKEW_S), where, f"{key}.skew"),
                join=tuple(str(name) for name in raw.get("join", [])),
            )
        )
    return tuple(edges)


def _examples(data: Mapping[str, Any], where: str) -> Examples:
    match, no_match = schema.examples(data, where, extra=("captures",))
    captures = data["examples"].get("captures", {})
    if not isinstance(captures, dict):
        raise PatternError(where, "examples.captures", "must be a table of capture = value")
    return Examples(match, no_match, tuple(sorted(captures.items())))


# ---------------------------------------------------------------- matching


def match_line(pattern: Pattern, line: str) -> dict[str, FieldValue] | None:
    """The typed captures of `pattern` on `line`, or None.

    The scanner and `patterns check` both call this, so examples test exactly
    what a real run does. A search that exceeds its time limit raises TimeoutError.
    """
    for anchor in pattern.anchors:
        if anchor not in line:
            return None
    if pattern.any_anchors and not any(anchor in line for anchor in pattern.any_anchors):
        return None
    found = pattern.regex.search(line, timeout=MATCH_TIMEOUT_S)
    if found is None:
        return None
    return typed_fields(pattern.fields, found.groupdict())


# ---------------------------------------------------------------- verdicts


def load_verdicts(path: Path) -> list[VerdictSpec]:
    where = str(path)
    data = schema.read_toml(path)
    schema.check_keys(data, {"verdict"}, (), where)
    specs = []
    for index, raw in enumerate(data.get("verdict", [])):
        key = f"verdict[{index}]"
        schema.check_keys(schema.table(raw, where, key), _VERDICT_KEYS, _VERDICT_REQUIRED, where, key)
        verdict_id = schema.string(raw, "id", where, key)
        if not _VERDICT_ID.match(verdict_id):
            raise PatternError(
                where, f"{key}.id", f"'{verdict_id}' must be kebab-case: lower-case letters, digits and '-'"
            )
        specs.append(
            VerdictSpec(
                id=verdict_id,
                title=schema.string(raw, "title", where, key),
                tier=schema.member(Tier, raw.get("tier"), where, f"{key}.tier"),
                explain=schema.string(raw, "explain", where, key),
                advice=str(raw["advice"]),
                analyzer=raw.get("analyzer"),
                explains=schema.string_list(raw, "explains", where, key) or (),
                identity=schema.string_list(raw, "identity", where, key),
                phase=_phase(raw, where, key),
                never_survived=schema.flag(raw, "never_survived", where, key),
                survived_by_restart=schema.flag(raw, "survived_by_restart", where, key),
                peer_side=schema.flag(raw, "peer_side", where, key),
                advice_from_root=schema.flag(raw, "advice_from_root", where, key),
                advice_for=_advice_for(raw, where, key),
            )
        )
    return specs


def _advice_for(raw: Mapping[str, Any], where: str, key: str) -> tuple[tuple[str, str], ...]:
    """A verdict's `[advice_for]` table: one advice string per engine of ADVICE_ENGINES."""
    table = raw.get("advice_for")
    if table is None:
        return ()
    if not isinstance(table, dict):
        raise PatternError(where, f"{key}.advice_for", "must be a table of engine = advice")
    unknown = sorted(set(table) - set(ADVICE_ENGINES))
    if unknown:
        raise PatternError(where, f"{key}.advice_for", f"{unknown} are no engines of {list(ADVICE_ENGINES)}")
    if not all(isinstance(text, str) and text.strip() for text in table.values()):
        raise PatternError(where, f"{key}.advice_for", "each engine's advice must be a non-empty string")
    return tuple((engine, " ".join(str(text).split())) for engine, text in sorted(table.items()))


def _phase(raw: Mapping[str, Any], where: str, key: str) -> str | None:
    return schema.one_of(raw, "phase", VERDICT_PHASES, where, key) if "phase" in raw else None


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
        for key, names in (
            ("cleared_by", pattern.cleared_by),
            ("not_cleared_by", pattern.not_cleared_by),
            ("cleared_by_run", pattern.cleared_by_run),
        ):
            for name in names:
                if name not in by_id:
                    raise PatternError(pattern.path, key, f"unknown pattern '{name}'")
                _check_join(pattern, by_id[name], pattern.cleared_on, "cleared_on")
    for entry in library.errors.benign if library.errors is not None else ():
        for name in entry.overcome_by:
            if name not in by_id:
                raise PatternError(entry.path, "overcome_by", f"unknown pattern '{name}'")
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
