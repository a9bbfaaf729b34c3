"""Every cross-reference between the library and the code resolves, and a broken one is refused.

- No library id (pattern, verdict, consequence group) is written in the package's
  Python except in model/verdicts.py, the verdicts the code itself gives or decides between: what
  code needs to know of a line is a mark, a `says`, a group or a capture in the data.
- A kebab-case id written in Python must name something in the library (meta-test over the
  package's source), so what Python still names does not go stale.
- On load: `[[causes]].join` keys are captures of both ends (or pseudo-keys), causes, verdicts and
  `explains` exist, windows parse, verdict ids are kebab-case, marks come from the closed
  vocabulary, `identity` and `unexplained` name real fields.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from pdlogdoctor.library.load import load_library
from pdlogdoctor.library.patterns import Library
from pdlogdoctor.model import Mark
from pdlogdoctor.model.errors import PatternError
from pdlogdoctor.reason.analyzers import ANALYZERS

from .conftest import ROOT

PACKAGE = ROOT / "pdlogdoctor"
KEBAB = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)+$")
# Kebab-case strings in the package that are not library ids, each with what it is.
NOT_IDS = {
    "utf-8": "an encoding",
    "anchor-plan": "a name in Library.derived (scan/index.py)",
    "server-arg": "a Suggestion kind",
    "python-traceback": "a pattern block kind (patterns.BLOCK_KINDS)",
    "python-frames": "a pattern block kind (patterns.BLOCK_KINDS)",
    "table-row": "a pattern block kind (patterns.BLOCK_KINDS)",
    "measures-below": "a pattern block kind (patterns.BLOCK_KINDS)",
    "table-sides-below": "a pattern block kind (patterns.BLOCK_KINDS)",
    "table-releases-below": "a pattern block kind (patterns.BLOCK_KINDS)",
    "table-variants-below": "a pattern block kind (patterns.BLOCK_KINDS)",
    "table-configurations-below": "a pattern block kind (patterns.BLOCK_KINDS)",
    "table-runs-below": "a pattern block kind (patterns.BLOCK_KINDS)",
    "table-model-rows-below": "a pattern block kind (patterns.BLOCK_KINDS)",
    "table-speedup-below": "a pattern block kind (patterns.BLOCK_KINDS)",
    "state-times-below": "a pattern block kind (patterns.BLOCK_KINDS)",
    "table-column-above": "a pattern block kind (patterns.BLOCK_KINDS)",
    "time-limit-above": "a pattern block kind (patterns.BLOCK_KINDS)",
    "table-builds-above": "a pattern block kind (patterns.BLOCK_KINDS)",
    "table-earlier-row-above": "a pattern block kind (patterns.BLOCK_KINDS)",
    "measure-above": "a pattern block kind (patterns.BLOCK_KINDS)",
    "pdlogdoctor-read-ahead": "a thread name",
    "duplicate-skipped": "an input problem code (duplicates.py)",
    "not-a-log": "an input problem code",
    "empty-directory": "an input problem code",
    "not-found": "an input problem code (discover.py): a path that is not there",
    "not-a-file": "an input problem code (ingest)",
    "outside-input": "an input problem code (discover.py): a link out of the input, not followed",
    "too-deep": "an input problem code (discover.py): directories past the depth cap",
    "read-as-paste": "an input problem code (ingest): a document read because nothing else is a log",
    "start-up": "a verdict's phase (patterns.VERDICT_PHASES)",
    "not-a-serving-log": "an input problem code (logshape.py): read, but no line has a serving-log shape",
    "whole-hours": "a clock-offset method (clocks.py)",
    "start-times": "a clock-offset method (clocks.py)",
    "hf-token": "a redaction kind",
    "gh-token": "a redaction kind",
    "aws-key": "a redaction kind",
    "before-root": "where an unexplained error sits (unexplained.py)",
    "unrecognised-error": "the id a suggested pattern skeleton starts with (suggest.py)",
    "before-first-symptom": "where an unexplained error sits (unexplained.py)",
    "workaround-only": "a known issue's status (library/known.py STATUSES)",
    "not-in-logs": "a known issue's standing: the component's version is not in the logs (reason/known.py)",
    "no-release": "a known issue's standing: no release has a fix (reason/known.py)",
}
# Calls whose first argument is an input-problem code or a redaction kind (redact.py), not a library id.
PROBLEM_CALLS = {"InputProblem", "unread", "StreamStopped", "Refusal", "Rule", "placeholder"}
# A module that imports none of these never sees an event or the library (ingest's readers, the
# accelerator): its kebab-case strings are problem codes and the like, not ids.
DOMAIN_TYPES = {"Event", "Library", "Evidence", "Report", "Pattern", "Hypothesis", "Analyzer"}


def reads_the_library(path: Path) -> bool:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    imported = {alias.name for node in ast.walk(tree) if isinstance(node, ast.ImportFrom) for alias in node.names}
    return bool(imported & DOMAIN_TYPES) or path.name == "patterns.py"


DOMAIN_MODULES = [path for path in sorted(PACKAGE.rglob("*.py")) if reads_the_library(path)]


def library_names(library: Library) -> set[str]:
    return (
        {p.id for p in library.patterns}
        | {v.id for v in library.verdicts}
        | set(ANALYZERS)
        | {mark.value for mark in Mark}
        | ({m.id for m in library.errors.markers} if library.errors else set())  # the generic error layer
    )


def kebab_literals(source: str) -> list[tuple[int, str]]:
    """(line, text) of every kebab-case string constant, except problem codes passed to their constructors."""
    tree = ast.parse(source)
    codes = {
        id(node.args[0])
        for node in ast.walk(tree)
        if isinstance(node, ast.Call)
        and node.args
        and (getattr(node.func, "id", None) or getattr(node.func, "attr", None)) in PROBLEM_CALLS
    }
    return [
        (node.lineno, node.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant)
        and isinstance(node.value, str)
        and KEBAB.match(node.value)
        and id(node) not in codes
    ]


def dangling(source: str, names: set[str]) -> list[tuple[int, str]]:
    return [(line, text) for line, text in kebab_literals(source) if text not in names and text not in NOT_IDS]


@pytest.mark.parametrize("path", DOMAIN_MODULES, ids=lambda p: str(p.relative_to(PACKAGE)))
def test_every_id_written_in_python_names_something_in_the_library(path: Path, library: Library) -> None:
    found = dangling(path.read_text(encoding="utf-8"), library_names(library))
    assert not found, (
        f"{path.relative_to(ROOT)}: {found} name no pattern, verdict, analyzer or mark. Fix the id, or "
        "if it is another vocabulary, add it to NOT_IDS with what it is"
    )


def test_the_meta_test_catches_a_misspelt_id(library: Library) -> None:
    planted = (
        'EFFECTS = ("kv-transfer-failed-decode", "kv-transfer-faild-prefill")\nproblem = InputProblem("x-y", "m")\n'
    )
    assert dangling(planted, library_names(library)) == [(1, "kv-transfer-faild-prefill")]


# The one module that may write library ids: the verdicts the code gives or decides between.
VERDICT_CONSTANTS = PACKAGE / "model" / "verdicts.py"
PACKAGE_MODULES = [path for path in sorted(PACKAGE.rglob("*.py")) if path != VERDICT_CONSTANTS]


def library_ids(library: Library) -> set[str]:
    """What the data names and the diagnosis reads: patterns, verdicts, consequence groups. (The
    open-world layer's marker ids are not counted: two are still read by unexplained.py.)"""
    return {p.id for p in library.patterns} | {v.id for v in library.verdicts} | {g.id for g in library.groups}


def ids_written(source: str, ids: set[str]) -> list[tuple[int, str]]:
    """(line, id) of every string constant that is a library id."""
    tree = ast.parse(source)
    return [
        (node.lineno, node.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value in ids
    ]


@pytest.mark.parametrize("path", PACKAGE_MODULES, ids=lambda p: str(p.relative_to(PACKAGE)))
def test_no_library_id_is_written_in_the_package(path: Path, library: Library) -> None:
    found = ids_written(path.read_text(encoding="utf-8"), library_ids(library))
    assert not found, (
        f"{path.relative_to(ROOT)}: {found} are library ids. Say what the code needs in the data "
        "(a mark, a `says`, a consequence group, a capture), or for a verdict the code gives by its own "
        "reasoning, a constant in pdlogdoctor/model/verdicts.py"
    )


def test_the_id_scan_catches_a_planted_id(library: Library) -> None:
    planted = (
        'LINK = ("mori-cqe-error",)\nKIND = "server-arg"\nif v == "kv-link-failed" or m is Mark.EXCEPTION:\n    pass\n'
    )
    assert ids_written(planted, library_ids(library)) == [(1, "mori-cqe-error"), (3, "kv-link-failed")]


def test_the_verdict_constants_name_library_verdicts(library: Library) -> None:
    tree = ast.parse(VERDICT_CONSTANTS.read_text(encoding="utf-8"))
    assigned = [node.value for node in tree.body if isinstance(node, ast.Assign)]
    written = {node.value for value in assigned for node in ast.walk(value) if isinstance(node, ast.Constant)}
    assert written and written <= {v.id for v in library.verdicts}, written - {v.id for v in library.verdicts}


def test_the_scan_covers_the_reasoning_modules() -> None:
    scanned = {str(path.relative_to(PACKAGE)) for path in DOMAIN_MODULES}
    reasoning = {"reason/diagnose.py", "reason/hypothesis.py", "reason/fingerprint.py", "reason/link.py"}
    reasoning.add("scan/roles.py")
    assert reasoning <= scanned
    analyzers = PACKAGE / "reason" / "analyzers"
    assert {f"reason/analyzers/{path.name}" for path in analyzers.glob("*.py")} <= scanned


def test_no_vocabulary_entry_shadows_a_library_id(library: Library) -> None:
    assert not set(NOT_IDS) & library_names(library)


def test_every_analyzer_is_named_by_a_verdict_and_exists(library: Library) -> None:
    named = {v.analyzer for v in library.verdicts if v.analyzer is not None}
    assert named == set(ANALYZERS)


def test_marks_the_diagnosis_reads_are_carried_by_patterns(library: Library) -> None:
    for mark in Mark:
        assert library.marked(mark), f"no pattern carries mark {mark.value}"


# ---------------------------------------------------------------- load-time validation

CAUSE = """id = "user-cause"
title = "a cause"
severity = "error"
kind = "cause"
anchors = ["CAUSE"]
regex = 'CAUSE room=(?P<bootstrap_room>\\d+)'
explain = "x"
{extra}
[[causes]]
pattern = "user-effect"
window = "{window}"
join = [{join}]
[examples]
match = ["CAUSE room=1"]
no_match = ["nothing"]
"""
EFFECT = """id = "user-effect"
title = "an effect"
severity = "error"
kind = "symptom"
anchors = ["EFFECT"]
regex = 'EFFECT room=(?P<bootstrap_room>\\d+)(?: rid=(?P<rid>\\w+))?'
explain = "x"
[examples]
match = ["EFFECT room=1"]
no_match = ["nothing"]
"""


def load_pair(tmp_path: Path, join: str, window: str = "5m", extra: str = "", verdicts: str = "") -> Library:
    directory = tmp_path / "mine"
    directory.mkdir(exist_ok=True)
    (directory / "user-cause.toml").write_text(CAUSE.format(join=join, window=window, extra=extra))
    (directory / "user-effect.toml").write_text(EFFECT)
    if verdicts:
        (directory / "verdicts.toml").write_text(verdicts)
    return load_library([directory])


def refused(tmp_path: Path, **kwargs: str) -> str:
    with pytest.raises(PatternError) as caught:
        load_pair(tmp_path, **{"join": '"bootstrap_room"', **kwargs})
    return str(caught.value)


def test_join_keys_captured_on_both_ends_and_pseudo_keys_load(tmp_path: Path) -> None:
    library = load_pair(tmp_path, '"bootstrap_room", "source", "node", "role"')
    assert library.pattern("user-cause").causes[0].join == ("bootstrap_room", "source", "node", "role")


def test_a_misspelt_join_key_is_refused(tmp_path: Path) -> None:
    message = refused(tmp_path, join='"bootstrap_rom"')
    assert "user-cause.toml" in message and "causes[0].join" in message
    assert "'bootstrap_rom' is not a named group of this pattern nor user-effect" in message


def test_a_join_key_captured_on_one_end_only_is_refused(tmp_path: Path) -> None:
    message = refused(tmp_path, join='"rid"')
    assert "'rid' is not a named group of this pattern" in message and "nor" not in message


def test_a_window_that_does_not_parse_is_refused(tmp_path: Path) -> None:
    assert "causes[0].window" in refused(tmp_path, window="soon")


VERDICT = """[[verdict]]
id = "{id}"
title = "t"
tier = "cause"
explain = "x"
advice = "y"
{extra}
"""


@pytest.mark.parametrize(
    ("extra", "verdicts", "problem"),
    [
        ('verdict = "user-verdict"', VERDICT.format(id="User_Verdict", extra=""), "must be kebab-case"),
        ('verdict = "no-such-verdict"\nidentity = []', "", "'no-such-verdict' is not a known verdict id"),
        ('verdict = "user-verdict"', VERDICT.format(id="user-verdict", extra=""), "identity: missing"),
        ('verdict = "user-verdict"\nidentity = ["roomz"]', VERDICT.format(id="user-verdict", extra=""), "'roomz'"),
        (
            'verdict = "user-verdict"\nidentity = []',
            VERDICT.format(id="user-verdict", extra='explains = ["user-efect"]'),
            "unknown pattern 'user-efect'",
        ),
        ('marks = ["end-to-ends"]', "", "is not one of"),
        ('unexplained = "room {room} at {where}"', "", "'{room}' is not a field"),
        ('says = ["a cause", " in room {room}"]', "", "says: '{room}' is not a field"),
    ],
    ids=[
        "verdict-id-shape",
        "unknown-verdict",
        "identity-missing",
        "identity-field",
        "explains",
        "mark",
        "hint",
        "says",
    ],
)
def test_broken_metadata_is_refused_naming_the_key(tmp_path: Path, extra: str, verdicts: str, problem: str) -> None:
    with pytest.raises(PatternError) as caught:
        load_pair(tmp_path, '"bootstrap_room"', extra=extra, verdicts=verdicts)
    assert problem in str(caught.value)


def test_good_metadata_loads(tmp_path: Path) -> None:
    extra = (
        'verdict = "user-verdict"\nidentity = []\nmarks = ["end-to-end"]\n'
        'unexplained = "room {bootstrap_room} at {where}"'
    )
    library = load_pair(tmp_path, '"bootstrap_room"', extra=extra, verdicts=VERDICT.format(id="user-verdict", extra=""))
    cause = library.pattern("user-cause")
    assert cause.identity == () and cause.marks == (Mark.END_TO_END,)
    assert "user-cause" in library.marked(Mark.END_TO_END) and library.rooting("user-verdict") == {"user-cause"}


def test_every_dialect_refuses_an_unknown_key_naming_file_and_key(tmp_path: Path) -> None:
    """One loader (library/schema.py) for every TOML dialect: a misspelt key in profile.toml, frames.toml
    or consequences.toml is refused like one in a pattern file, not silently ignored."""
    from pdlogdoctor.library.consequences import load_groups
    from pdlogdoctor.library.frames import load_frames
    from pdlogdoctor.runs.profile import load_profile_spec

    (tmp_path / "profile.toml").write_text('[[value]]\nkey = "k"\nsection = "sizing"\npattern = "p"\ntolerence = 0.1\n')
    (tmp_path / "frames.toml").write_text('[[phase]]\nid = "x"\nphase = "init"\nfunction = "f"\nwhy = "w"\nwhen = 1\n')
    (tmp_path / "consequences.toml").write_text('[[group]]\nid = "g"\nexplain = "e"\nmembers = ["p"]\nmember = []\n')
    loads = {
        "profile.toml": lambda: load_profile_spec(tmp_path),
        "frames.toml": lambda: load_frames([tmp_path]),
        "consequences.toml": lambda: load_groups(tmp_path / "consequences.toml"),
    }
    expected = {  # a key near one the dialect knows is named (did_you_mean); 'when' is near none
        "profile.toml": "value[0].tolerence: unknown key (did you mean 'tolerance'?)",
        "frames.toml": "phase[0].when: unknown key",
        "consequences.toml": "group[0].member: unknown key (did you mean 'members'?)",
    }
    for name, load in loads.items():
        with pytest.raises(PatternError) as caught:
            load()
        assert str(caught.value) == f"{tmp_path / name}: {expected[name]}"
