"""An accuracy test's failed assertion names an accuracy regression, not only "a gate failed" (issue 22).

vLLM's accuracy tests fail with `Expected: X | Measured: Y` (the P/D connectors' sweep,
tests/v1/kv_connector/nixl_integration/test_accuracy.py) or `Expected: X ± rtol | Measured: Y`
(tests/quantization), raised as AssertionError and printed on pytest's `E` line: the score and
the expected one are read, and the verdict is accuracy-regression with both. The look-alike: the
same words printed as a result summary, without the exception, are no failure.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from pdlogdoctor.library.patterns import Library
from pdlogdoctor.pipeline import run

FAILED = [
    ("E       AssertionError: Expected: 0.76 | Measured: 0.000758150113722517", 0.76),
    ("E       AssertionError: Expected: 0.6 ± 0.03 | Measured: 0.41", 0.6),
]


@pytest.mark.parametrize(("line", "expected"), FAILED, ids=["p-d-sweep", "quantization"])
def test_a_failed_accuracy_assertion_is_an_accuracy_regression(
    library: Library, tmp_path: Path, line: str, expected: float
) -> None:
    (tmp_path / "pytest.txt").write_text(line + "\n")
    report = run([str(tmp_path)], library)
    assert report.verdict.id == "accuracy-regression"
    facts = dict(report.verdict.facts)
    assert facts["threshold"] == expected and facts["accuracy"] < expected


def test_the_same_words_in_a_summary_are_no_failure(library: Library, tmp_path: Path) -> None:
    summary = "Task: gsm8k | Metric: exact_match,strict-match | Expected: 0.3 | Measured: 0.52"
    (tmp_path / "run.log").write_text(summary + "\n")
    assert run([str(tmp_path)], library).verdict.id != "accuracy-regression"
