"""The pattern library tests itself: every example of every pattern, and the library's shape."""

from __future__ import annotations

from pathlib import Path

import pytest

from pdlogdoctor.library.load import load_library
from pdlogdoctor.library.patterns import Library, check_examples, load_pattern, match_line, say
from pdlogdoctor.model import verdicts
from pdlogdoctor.model.errors import PatternError
from pdlogdoctor.reason.analyzers import ANALYZERS
from pdlogdoctor.scan.index import _search_keys

from .conftest import ROOT, shipped_library

LIBRARY = shipped_library()


@pytest.mark.parametrize("pattern_id", [p.id for p in LIBRARY.patterns])
def test_pattern_examples(pattern_id: str) -> None:
    assert check_examples(LIBRARY.pattern(pattern_id)) == []


def test_ids_equal_file_stems_and_are_unique(library: Library) -> None:
    ids = [p.id for p in library.patterns]
    assert len(ids) == len(set(ids))
    for pattern in library.patterns:
        assert Path(pattern.path).stem == pattern.id


def test_every_analyzer_named_by_a_verdict_exists(library: Library) -> None:
    for spec in library.verdicts:
        assert spec.analyzer is None or spec.analyzer in ANALYZERS


def test_every_non_meta_verdict_is_reachable_from_some_pattern(library: Library) -> None:
    supported = {p.verdict for p in library.patterns}
    relabelled = {
        "mr-registration-rejected",
        "scheduler-runtime-crash",
        "scheduler-crash",
    }  # analyzers relabel to these; the performance reading gives its own
    for spec in library.verdicts:
        if spec.tier.value != "meta":
            assert spec.id in supported | relabelled | set(verdicts.PERFORMANCE), spec.id


def test_library_is_found_from_any_working_directory(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    assert len(load_library().patterns) == len(LIBRARY.patterns)


BROKEN = {
    "bad regex": ('regex = "(unclosed"', "regex"),
    "unknown key": ('colour = "red"', "colour"),
    "field not a group": ('[fields]\nnot_a_group = "int"', "fields.not_a_group"),
    "search anchor not an anchor": ('search_anchor = "size"', "search_anchor"),
}


def _pattern_text(extra: str, regex_line: str = 'regex = "size:(?P<size>\\\\d+)"') -> str:
    lines = [
        'id = "broken"',
        'title = "t"',
        'severity = "error"',
        'kind = "cause"',
        'anchors = ["size:"]',
        'explain = "e"',
    ]
    if not extra.startswith("regex"):
        lines.append(regex_line)
    body = "\n".join(lines) + "\n"
    examples = '[examples]\nmatch = ["size:12"]\nno_match = ["nothing"]\n'
    if extra.startswith("["):
        return body + extra + "\n" + examples
    return body + extra + "\n" + examples


@pytest.mark.parametrize("case", sorted(BROKEN))
def test_broken_pattern_names_file_and_key(case: str, tmp_path: Path) -> None:
    extra, key = BROKEN[case]
    path = tmp_path / "broken.toml"
    path.write_text(_pattern_text(extra))
    with pytest.raises(PatternError) as caught:
        load_pattern(path)
    assert str(path) in str(caught.value)
    assert key in str(caught.value)


def test_a_named_search_anchor_is_searched_for(tmp_path: Path) -> None:
    """The longest anchor is searched for unless the pattern names another of its anchors."""
    path = tmp_path / "broken.toml"
    path.write_text(_pattern_text('anchors = ["size:", ":"]\nsearch_anchor = ":"').replace('anchors = ["size:"]\n', ""))
    assert load_pattern(path).primary_anchor == ":"
    path.write_text(_pattern_text('anchors = ["size:", ":"]').replace('anchors = ["size:"]\n', ""))
    assert load_pattern(path).primary_anchor == "size:"


def test_any_anchors_are_each_searched_for_and_one_must_be_in_the_line(tmp_path: Path) -> None:
    """A pattern whose lines come in two shapes names a literal of each (`any_anchors`): the scanner
    searches for every one of them, and a line holding none is no match, whatever the regex says."""
    path = tmp_path / "broken.toml"
    path.write_text(_pattern_text('any_anchors = ["size:1", "size:2"]'))
    pattern = load_pattern(path)
    assert pattern.search_keys == ("size:1", "size:2")
    assert match_line(pattern, "size:12") is not None
    assert match_line(pattern, "size:35") is None  # the regex matches, no search key is in the line
    path.write_text(_pattern_text('any_anchors = ["size:1"]'))
    with pytest.raises(PatternError, match="any_anchors"):
        load_pattern(path)  # one is `anchors`' job


def test_spellings_with_nothing_in_common_need_no_anchor_beside_their_any_anchors(tmp_path: Path) -> None:
    """`GOOD COMMIT` and `good commit` share no literal: the pattern names each as a search key and
    no `anchors`; without either key it does not load."""
    path = tmp_path / "broken.toml"
    path.write_text(_pattern_text('any_anchors = ["size:1", "SIZE:2"]').replace('anchors = ["size:"]\n', ""))
    pattern = load_pattern(path)
    assert pattern.anchors == () and pattern.search_keys == ("size:1", "SIZE:2")
    path.write_text(_pattern_text("").replace('anchors = ["size:"]\n', ""))
    with pytest.raises(PatternError, match="anchors"):
        load_pattern(path)


def test_unknown_cause_target_is_an_error(tmp_path: Path) -> None:
    (tmp_path / "broken.toml").write_text(_pattern_text('[[causes]]\npattern = "no-such-pattern"'))
    with pytest.raises(PatternError, match="no-such-pattern"):
        load_library([tmp_path])


def test_unknown_clearing_pattern_is_an_error(tmp_path: Path) -> None:
    (tmp_path / "broken.toml").write_text(_pattern_text('identity = []\ncleared_by = ["no-such-pattern"]'))
    with pytest.raises(PatternError, match="no-such-pattern") as caught:
        load_library([tmp_path])
    assert "cleared_by" in str(caught.value)


def test_shipped_library_has_the_core_patterns(library: Library) -> None:
    ids = {p.id for p in library.patterns}
    for needed in ("mori-mr-register-failed", "warmup-output-ids", "scheduler-died-init", "probe-not-serving"):
        assert needed in ids
    assert (ROOT / "patterns" / "verdicts.toml").is_file()


def test_what_a_line_says_is_its_patterns_sentence_with_its_captures(library: Library) -> None:
    """`says`: the first part always, a further part only when its fields were captured."""
    segfault, signal = library.pattern("native-segfault"), library.pattern("native-signal-backtrace")
    assert say(segfault, {"detail": "address not mapped to object"}) == (
        "a segmentation fault (address not mapped to object)"
    )
    assert say(segfault, {}) == "a segmentation fault"
    assert say(signal, {"signal": "SIGABRT", "pid": 7}) == "SIGABRT"
    assert say(library.pattern("server-ready"), {}) is None  # no `says`: callers use the title


def test_no_pattern_is_searched_for_by_a_key_another_pattern_stops_after(library: Library) -> None:
    """A pattern read only a few times per file (`stop_after`: a health poll's 200) is searched for
    no more once its key's patterns all have their lines; another pattern whose anchor holds that key
    (`"GET /health_generate` holds `"GET /health`) keeps the key searched for on every such line of a
    polled log, each handed to the patterns (dense 100 MB: 12.9 s to 20.4 s). Such a pattern names a
    key of its own (`search_anchor`)."""
    searched = {key.encode() for p in library.patterns for key in p.search_keys}
    if library.errors:
        searched |= {anchor.encode() for anchor in library.errors.anchors}
    keys = _search_keys(searched)
    stops = {p.primary_anchor.encode(): p.id for p in library.patterns if p.stop_after}
    shared = [
        (p.id, key, stops[keys[key.encode()]])
        for p in library.patterns
        for key in p.search_keys
        if keys[key.encode()] in stops and stops[keys[key.encode()]] != p.id
    ]
    assert not shared, shared
