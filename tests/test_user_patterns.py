"""User pattern directories (--patterns): validated with errors naming file and key, and a
catastrophically backtracking regex cannot hang the run (issue 6, item 2)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pdlogdoctor.cli.commands import app
from pdlogdoctor.library.load import load_library
from pdlogdoctor.pipeline import analyse

from .conftest import FIXTURES

SEED = FIXTURES / "mori-mr-size-limit-seed"

GOOD = """id = "{id}"
title = "a user pattern"
severity = "warning"
kind = "context"
anchors = ["{anchor}"]
regex = '''{regex}'''
explain = "user supplied"
[examples]
match = ["{anchor}"]
no_match = ["nothing here"]
"""


def write_pattern(directory: Path, pattern_id: str, text: str) -> Path:
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / f"{pattern_id}.toml"
    path.write_text(text)
    return path


def good(pattern_id: str = "user-thing", anchor: str = "USERANCHOR", regex: str = "USERANCHOR") -> str:
    return GOOD.format(id=pattern_id, anchor=anchor, regex=regex)


@pytest.mark.parametrize(
    ("text", "key", "problem"),
    [
        (good().replace('severity = "warning"', 'severity = "loud"'), "severity", "is not one of"),
        (good().replace("regex = '''USERANCHOR'''", "regex = '''(unclosed'''"), "regex", "does not compile"),
        (good() + 'colour = "red"\n', "examples.colour", "unknown key"),  # appended: inside [examples]
        (good().replace('title = "a user pattern"\n', ""), "title", "missing required key"),
        (good().replace('id = "user-thing"', 'id = "other-name"'), "id", "must equal the file name"),
        (good() + "[fields]\nnope = 'int'\n", "fields.nope", "not a named group"),
        (good().replace('anchors = ["USERANCHOR"]', 'anchors = [""]'), "anchors", "non-empty strings"),
        ("id = 'user-thing'\nthis is not toml", None, "cannot be read as TOML"),
    ],
    ids=["bad-enum", "bad-regex", "unknown-key", "missing-key", "id-mismatch", "bad-field", "empty-anchor", "bad-toml"],
)
def test_invalid_user_pattern_names_file_and_key(tmp_path: Path, text: str, key: str | None, problem: str) -> None:
    path = write_pattern(tmp_path / "mine", "user-thing", text)
    result = CliRunner().invoke(app, ["analyze", str(SEED), "--patterns", str(tmp_path / "mine")])
    assert result.exit_code == 2
    first = result.stderr.splitlines()[0]
    assert first.startswith(f"error: {path}")
    if key is not None:
        assert f": {key}: " in first
    assert problem in first


def test_missing_patterns_directory(tmp_path: Path) -> None:
    result = CliRunner().invoke(app, ["analyze", str(SEED), "--patterns", str(tmp_path / "absent")])
    assert result.exit_code == 2
    assert "absent" in result.stderr and "not a directory" in result.stderr


def test_user_pattern_checked_by_patterns_check(tmp_path: Path) -> None:
    write_pattern(tmp_path / "mine", "user-thing", good())
    ok = CliRunner().invoke(app, ["patterns", "check", "--patterns", str(tmp_path / "mine")])
    assert ok.exit_code == 0, ok.stderr


@pytest.mark.parametrize("encoding", ["utf-8", "utf-16"])
def test_an_anchor_outside_ascii_finds_its_line(tmp_path: Path, encoding: str) -> None:
    # Every input is searched as UTF-8 (a UTF-16 log is converted first): a key may be any text, a
    # CI bot's red cross or a message in another script.
    write_pattern(tmp_path / "mine", "user-thing", good(anchor="❌ 检查失败", regex="❌ 检查失败"))
    log = tmp_path / "logs" / "job.log"
    log.parent.mkdir()
    log.write_text("[2026-07-02 10:16:03] step 3\n[2026-07-02 10:16:04] ❌ 检查失败 gsm8k\n", encoding=encoding)
    events = analyse([str(log)], load_library([tmp_path / "mine"])).events
    assert [(e.pattern, e.line) for e in events if e.pattern == "user-thing"] == [("user-thing", 2)]


def test_catastrophic_regex_cannot_hang_the_run(tmp_path: Path) -> None:
    # (a|aa)+$ against a long run of a's that ends in something else backtracks
    # exponentially; the regex module's per-search timeout stops each attempt.
    evil = good("user-evil", anchor="aaaaaaaa", regex="(a|aa)+$")
    write_pattern(tmp_path / "mine", "user-evil", evil)
    bundle = tmp_path / "bundle"
    shutil.copytree(SEED, bundle)
    (bundle / "expected.toml").unlink()
    (bundle / "decode_aaa.log").write_text(("a" * 5000 + "!\n") * 50)  # 50 lines, each would hang
    out = tmp_path / "r.json"
    args = ["analyze", str(bundle), "--patterns", str(tmp_path / "mine"), "-f", "json", "-o", str(out)]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 1
    report = json.loads(out.read_text())
    assert report["verdict"]["id"] == "mori-mr-size-limit"
    problems = [p for s in report["inputs"] if s["file"].endswith("decode_aaa.log") for p in s["problems"]]
    assert [p["code"] for p in problems] == ["pattern-timeout", "pattern-timeout"]
    assert "user-evil" in problems[0]["message"] and "line 1" in problems[0]["message"]
    assert "warning: " in result.stderr and "[pattern-timeout]" in result.stderr
    assert report["incomplete"] is True
