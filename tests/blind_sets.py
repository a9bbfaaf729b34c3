"""The blind sets under tests/data: their cases, and each case's expectation as its tester wrote it."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

from pdlogdoctor.model import Report
from pdlogdoctor.patterns import Library
from pdlogdoctor.pipeline import run

from .conftest import ROOT


def blind_cases(name: str) -> list[Path]:
    """The cases of the blind set tests/data/<name>: one directory with an expected.toml each."""
    return sorted(path.parent for path in (ROOT / "tests" / "data" / name).glob("*/expected.toml"))


def expected(case: Path) -> dict[str, Any]:
    loaded: dict[str, Any] = tomllib.loads((case / "expected.toml").read_text())["expected"]
    return loaded


def reports_of(cases: list[Path], library: Library) -> dict[Path, Report]:
    return {case: run([str(case)], library) for case in cases}
