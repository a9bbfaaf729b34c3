"""Lint, format and types are part of the suite, so CI enforces them on every change."""

from __future__ import annotations

import subprocess
import sys

from .conftest import ROOT

CHECKED = ["pdlogdoctor", "tests", "benchmarks", ".ci"]


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", *args], cwd=ROOT, capture_output=True, text=True, check=False)


def test_ruff_lint_and_format() -> None:
    lint = _run("ruff", "check", *CHECKED)
    assert lint.returncode == 0, lint.stdout + lint.stderr
    formatted = _run("ruff", "format", "--check", *CHECKED)
    assert formatted.returncode == 0, formatted.stdout + formatted.stderr


def test_mypy_strict() -> None:
    result = _run("mypy")
    assert result.returncode == 0, result.stdout + result.stderr
