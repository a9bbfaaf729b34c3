"""The blind sets under tests/data: their cases, and each case's expectation as its tester wrote it."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

from pdlogdoctor.cli.behaviour import exit_code_for
from pdlogdoctor.library.patterns import Library
from pdlogdoctor.model import Report
from pdlogdoctor.pipeline import run

from .conftest import ROOT

CONFIDENT = 0.5  # above this a verdict reads as a diagnosis: a wrong one is confidently wrong
NAMED_CAUSE_EXIT = 1


def blind_cases(name: str) -> list[Path]:
    """The cases of the blind set tests/data/<name>: one directory with an expected.toml each."""
    return sorted(path.parent for path in (ROOT / "tests" / "data" / name).glob("*/expected.toml"))


def expected(case: Path) -> dict[str, Any]:
    loaded: dict[str, Any] = tomllib.loads((case / "expected.toml").read_text())["expected"]
    return loaded


def reports_of(cases: list[Path], library: Library) -> dict[Path, Report]:
    return {case: run([str(case)], library) for case in cases}


def assert_verdict_and_exit_code(case: Path, report: Report, arguable: set[str]) -> None:
    """The tester's verdict with its exit code, or (for a cause outside the catalogue) one of the
    `arguable` verdicts, named-cause exit, whose summary names a key line; never a `must_not_be`
    verdict above CONFIDENT."""
    want = expected(case)
    verdict, code = report.verdict, int(exit_code_for(report))
    wrong = verdict.id in want["must_not_be"] and verdict.confidence > CONFIDENT
    assert not wrong, f"{verdict.id} {verdict.confidence:.2f}: {verdict.summary}"
    if verdict.id == want["verdict"]:
        assert code == want["exit_code"], verdict.summary
        return
    assert verdict.id in arguable, f"{verdict.id} {verdict.confidence:.2f}: {verdict.summary}"
    assert code == NAMED_CAUSE_EXIT
    assert any(line in verdict.summary for line in want["key_lines"]), (
        f"the summary names another cause: {verdict.summary}"
    )
