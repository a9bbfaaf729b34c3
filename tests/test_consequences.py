"""Consequence groups: a cause names the symptoms it leads to once, as groups, and loading expands
them into exactly the causal rules link.py joins events by.

- The shipped library expands to the rules recorded in tests/data/causal-rules.txt (written by
  `python -m tests.causal_rules`): the 575 edges the library held before groups existed, so the
  migration changed no rule, and any later change to a group or an edge shows as the rules it
  adds or removes.
- On a library made for the test: a group's members each get the table's window, skew and join;
  groups nest; one member added to a group reaches every cause that names it; what would make an
  edge mean something else than it says is refused on load, and `patterns check` reports a group
  no cause names.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from pdlogdoctor.cli.commands import app
from pdlogdoctor.library.load import load_library
from pdlogdoctor.library.patterns import CauseRule, Library
from pdlogdoctor.model.errors import PatternError

from .causal_rules import read_rules, rule_lines


def test_the_shipped_library_expands_to_the_recorded_rules(library: Library) -> None:
    expanded, recorded = set(rule_lines(library)), set(read_rules())
    assert len(rule_lines(library)) == len(expanded), "a pattern reaches one target by two rules"
    assert expanded == recorded, (
        f"rules added: {sorted(expanded - recorded)[:10]}; rules gone: {sorted(recorded - expanded)[:10]}. "
        "If the change is meant, rewrite the record: python -m tests.causal_rules"
    )


def test_the_shipped_groups_name_what_many_causes_share(library: Library) -> None:
    """The groups took the place of copied edges: each reaches the symptoms of at least two causes
    (named directly or through a group holding it), and the transport family's one group stands
    for the 19 symptoms each of its causes used to list."""
    by_id = {group.id: group for group in library.groups}

    def reached(name: str) -> set[str]:
        return {name} | {inner for member in by_id[name].members if member in by_id for inner in reached(member)}

    for group in library.groups:
        users = [p.id for p in library.patterns if any(group.id in reached(n) for e in p.edges for n in e.groups)]
        assert len(users) >= 2, f"{group.id} is reached by {users}"
    mori = library.pattern("mori-cqe-error")
    assert [edge.groups for edge in mori.edges] == [(), ("kv-link-failed",), ("end-to-end-failed",)]
    # 23 + gsm8k-client-invalid, which joined end-to-end-failed, + the router's start-up timeout,
    # which joined workers-lost, + vLLM's NIXL read that raised and vLLM V0's decode recomputing a KV it
    # did not receive, which joined vllm-kv-transfer-failed
    assert len(mori.causes) == 27  # http-health-unavailable joined request-failed-in-transfer


# ---------------------------------------------------------------- a library made for the test


def pattern_toml(pattern_id: str, causes: str = "", kind: str = "symptom") -> str:
    word = pattern_id.upper().replace("-", "_")
    return f"""id = "{pattern_id}"
title = "{pattern_id}"
severity = "error"
kind = "{kind}"
anchors = ["{word}"]
regex = '{word}(?: room=(?P<room>\\d+))?'
explain = "x"
{causes}
[examples]
match = ["{word} room=1"]
no_match = ["nothing"]
"""


def group_toml(group_id: str, *members: str) -> str:
    listed = ", ".join(f'"{member}"' for member in members)
    return f'[[group]]\nid = "{group_id}"\nexplain = "what they share"\nmembers = [{listed}]\n'


def write_library(directory: Path, causes: dict[str, str], groups: str) -> Path:
    directory.mkdir(exist_ok=True)
    for symptom in ("t-transfer", "t-answer-5xx", "t-router-502", "t-probe"):
        (directory / f"{symptom}.toml").write_text(pattern_toml(symptom))
    for cause, tables in causes.items():
        (directory / f"{cause}.toml").write_text(pattern_toml(cause, tables, kind="cause"))
    (directory / "consequences.toml").write_text(groups)
    return directory


GROUPS = (
    group_toml("t-requests-failed", "t-answer-5xx", "t-router-502")
    + group_toml("t-serving-failed", "t-transfer", "t-requests-failed")
    + group_toml("t-checks-failed", "t-probe")
)
NIC = """[[causes]]
group = "t-serving-failed"
window = "30m"
skew = "5s"
join = ["room"]
[[causes]]
group = "t-checks-failed"
window = "2h"
"""


def rules(library: Library, pattern_id: str) -> set[CauseRule]:
    return set(library.pattern(pattern_id).causes)


def test_a_group_reaches_each_member_with_the_tables_timing(tmp_path: Path) -> None:
    library = load_library([write_library(tmp_path / "mine", {"t-nic": NIC}, GROUPS)])
    assert rules(library, "t-nic") == {
        CauseRule("t-transfer", 1800.0, 5.0, ("room",)),
        CauseRule("t-answer-5xx", 1800.0, 5.0, ("room",)),  # through the nested t-requests-failed
        CauseRule("t-router-502", 1800.0, 5.0, ("room",)),
        CauseRule("t-probe", 7200.0, 10.0, ()),  # the default skew
    }


def test_a_new_shared_symptom_is_one_line_in_one_group(tmp_path: Path) -> None:
    """Two causes name the group; the symptom added to it is reached by both, nothing else edited."""
    causes = {"t-nic": NIC, "t-crash": '[[causes]]\ngroup = "t-serving-failed"\nwindow = "10m"\n'}
    before = load_library([write_library(tmp_path / "mine", causes, GROUPS)])
    assert "t-probe" not in {rule.target for rule in before.pattern("t-crash").causes}
    grown = GROUPS.replace('"t-answer-5xx", "t-router-502"', '"t-answer-5xx", "t-router-502", "t-probe"')
    grown = grown.replace(group_toml("t-checks-failed", "t-probe"), "")
    nic = NIC.replace('[[causes]]\ngroup = "t-checks-failed"\nwindow = "2h"\n', "")
    after = load_library([write_library(tmp_path / "mine", {**causes, "t-nic": nic}, grown)])
    assert CauseRule("t-probe", 600.0, 10.0, ()) in rules(after, "t-crash")
    assert CauseRule("t-probe", 1800.0, 5.0, ("room",)) in rules(after, "t-nic")


def test_a_table_may_name_patterns_and_groups_together(tmp_path: Path) -> None:
    tables = '[[causes]]\ngroup = ["t-requests-failed"]\npattern = ["t-transfer", "t-probe"]\nwindow = "1m"\n'
    library = load_library([write_library(tmp_path / "mine", {"t-nic": tables}, GROUPS)])
    targets = {rule.target for rule in rules(library, "t-nic")}
    assert targets == {"t-answer-5xx", "t-router-502", "t-transfer", "t-probe"}
    assert {rule.window_s for rule in rules(library, "t-nic")} == {60.0}


REFUSED = {
    "unknown member": (NIC, GROUPS + group_toml("t-more", "t-answer-5xxx"), "unknown pattern or group 't-answer-5xxx'"),
    "unknown group": (
        '[[causes]]\ngroup = "t-serving-faild"\n',
        GROUPS,
        "causes[0].group: 't-serving-faild' is no consequence group",
    ),
    "a pattern named as a group": (
        '[[causes]]\ngroup = "t-probe"\n',
        GROUPS,
        "'t-probe' is a pattern: name it under `pattern`",
    ),
    "a group named as a pattern": (
        '[[causes]]\npattern = "t-checks-failed"\n',
        GROUPS,
        "unknown pattern 't-checks-failed': it is a consequence group, name it under `group`",
    ),
    "a cycle": (
        NIC,
        GROUPS.replace('"t-answer-5xx", "t-router-502"', '"t-answer-5xx", "t-serving-failed"'),
        "cycle: t-requests-failed -> t-serving-failed -> t-requests-failed",
    ),
    "a pattern reached twice": (
        NIC + '[[causes]]\npattern = "t-probe"\nwindow = "5m"\n',
        GROUPS,
        "causes[2]: reaches 't-probe' twice: through 't-probe' and 't-checks-failed'",
    ),
    "a group reaching a pattern twice": (
        NIC,
        GROUPS + group_toml("t-twice", "t-probe", "t-checks-failed"),
        "t-twice.members: reaches ['t-probe'] more than once",
    ),
    "a group holding its cause": (
        '[[causes]]\ngroup = "t-with-nic"\n',
        GROUPS + group_toml("t-with-nic", "t-probe", "t-nic"),
        "group 't-with-nic' holds this pattern: a line does not explain itself",
    ),
    "a group named like a pattern": (NIC, GROUPS + group_toml("t-probe", "t-transfer"), "'t-probe' is a pattern id"),
    "a join key one member lacks": (
        NIC.replace('join = ["room"]', 'join = ["rooms"]'),
        GROUPS,
        "causes[0].join: 'rooms' is not a named group of this pattern nor t-transfer",
    ),
}


@pytest.mark.parametrize("case", sorted(REFUSED))
def test_what_would_change_an_edges_meaning_is_refused_on_load(tmp_path: Path, case: str) -> None:
    tables, groups, problem = REFUSED[case]
    with pytest.raises(PatternError) as caught:
        load_library([write_library(tmp_path / "mine", {"t-nic": tables}, groups)])
    assert problem in str(caught.value)


def test_patterns_check_reports_a_group_no_cause_names(tmp_path: Path) -> None:
    mine = write_library(tmp_path / "mine", {"t-nic": NIC}, GROUPS + group_toml("t-forgotten", "t-probe"))
    result = CliRunner().invoke(app, ["patterns", "check", "--patterns", str(mine)])
    assert result.exit_code == 2
    assert "t-forgotten: no cause names this consequence group" in result.output
    assert "t-requests-failed" not in result.output  # named only through t-serving-failed, still used
    kept = write_library(tmp_path / "kept", {"t-nic": NIC}, GROUPS)
    assert CliRunner().invoke(app, ["patterns", "check", "--patterns", str(kept)]).exit_code == 0
