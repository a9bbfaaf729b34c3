"""Consequence groups: symptoms that many causes share, named once (`patterns/consequences.toml`).

A cause's `[[causes]]` table may name groups besides patterns (`group = "serving-failed"`); on
load every group is expanded into its member patterns, each reached with the table's window,
skew and join. A new shared symptom is then one line in one group, and a new cause names the
groups it leads to instead of copying their edges. A group may hold other groups.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from ..model.errors import PatternError
from ..model.lazyre import lazy_re
from . import schema
from .patterns import CauseRule, ConsequenceGroup, Pattern, check_group_names, edge_targets, members_of

CONSEQUENCES_FILE = "consequences.toml"
_GROUP_KEYS = {"id", "explain", "members"}
_ID = lazy_re(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")


def load_groups(path: Path) -> list[ConsequenceGroup]:
    where = str(path)
    data = schema.read_toml(path)
    schema.check_keys(data, {"group"}, (), where)
    return [_group(raw, where, f"group[{index}]") for index, raw in enumerate(data.get("group", []))]


def _group(raw: Any, where: str, key: str) -> ConsequenceGroup:
    schema.check_keys(schema.table(raw, where, key), _GROUP_KEYS, _GROUP_KEYS, where, key)
    group_id = schema.string(raw, "id", where, key)
    if not _ID.match(group_id):
        raise PatternError(where, f"{key}.id", f"'{group_id}' must be kebab-case: lower-case letters, digits and '-'")
    members = schema.string_list(raw, "members", where, key)
    if not members:
        raise PatternError(where, f"{key}.members", "must be a non-empty list of pattern or group ids")
    return ConsequenceGroup(group_id, schema.string(raw, "explain", where, key), members, where)


# ---------------------------------------------------------------- expansion


def expand(patterns: Sequence[Pattern], groups: Sequence[ConsequenceGroup]) -> tuple[Pattern, ...]:
    """Every pattern with its `causes` made from its edges, each group replaced by its members.
    Refuses what would make an edge mean something else than it says (see `_check_groups`)."""
    pattern_ids = {pattern.id for pattern in patterns}
    by_id = _check_groups(groups, pattern_ids)
    return tuple(replace(pattern, causes=_rules(pattern, by_id, pattern_ids)) for pattern in patterns)


def _rules(pattern: Pattern, by_id: Mapping[str, ConsequenceGroup], pattern_ids: set[str]) -> tuple[CauseRule, ...]:
    rules: list[CauseRule] = []
    reached: dict[str, str] = {}  # target -> the name (pattern or group) through which it was reached
    check_group_names(pattern, by_id, pattern_ids)
    for index, edge in enumerate(pattern.edges):
        key = f"causes[{index}].group"
        for target, via in edge_targets(edge, by_id):
            if target == pattern.id:
                problem = f"group '{via}' holds this pattern: a line does not explain itself"
                raise PatternError(pattern.path, key, problem)
            if target in reached:
                problem = f"reaches '{target}' twice: through '{via}' and '{reached[target]}'"
                raise PatternError(pattern.path, f"causes[{index}]", problem)
            reached[target] = via
            rules.append(edge.rule(target))
    return tuple(rules)


def _check_groups(groups: Sequence[ConsequenceGroup], pattern_ids: set[str]) -> dict[str, ConsequenceGroup]:
    """Groups by id, once each id is unique and no pattern's, every member is known, no group holds
    itself through others and none reaches a pattern twice."""
    by_id: dict[str, ConsequenceGroup] = {}
    for group in groups:
        if group.id in by_id:
            raise PatternError(group.path, "id", f"duplicate group id '{group.id}' (also in {by_id[group.id].path})")
        if group.id in pattern_ids:
            raise PatternError(group.path, "id", f"'{group.id}' is a pattern id: a group needs a name of its own")
        by_id[group.id] = group
    for group in groups:
        for member in group.members:
            if member not in by_id and member not in pattern_ids:
                raise PatternError(group.path, f"{group.id}.members", f"unknown pattern or group '{member}'")
    for group in groups:
        _check_no_cycle(group.id, by_id, [])
        reached = members_of(group.id, by_id)
        twice = sorted({target for target in reached if reached.count(target) > 1})
        if twice:
            raise PatternError(group.path, f"{group.id}.members", f"reaches {twice} more than once")
    return by_id


def _check_no_cycle(group_id: str, by_id: Mapping[str, ConsequenceGroup], path: list[str]) -> None:
    if group_id in path:
        cycle = " -> ".join([*path[path.index(group_id) :], group_id])
        raise PatternError(by_id[group_id].path, f"{group_id}.members", f"cycle: {cycle}")
    for member in by_id[group_id].members:
        if member in by_id:
            _check_no_cycle(member, by_id, [*path, group_id])


def unused_groups(patterns: Iterable[Pattern], groups: Sequence[ConsequenceGroup]) -> list[ConsequenceGroup]:
    """Groups no cause names, directly or through another group: dead data (`patterns check`)."""
    by_id = {group.id: group for group in groups}
    used: set[str] = set()
    queue = [name for pattern in patterns for edge in pattern.edges for name in edge.groups]
    while queue:
        name = queue.pop()
        if name in used or name not in by_id:
            continue
        used.add(name)
        queue += [member for member in by_id[name].members if member in by_id]
    return [group for group in groups if group.id not in used]
