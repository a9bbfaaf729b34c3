"""Two readings of evaluation output that a careful engineer makes before calling a regression.

A gate missed by a hair: an evaluation of a few hundred questions moves by a point or more from one
run to the next, so a score under its threshold by less than 1 % of it is named with low confidence
and a rerun is the first step (blind round 50 excerpts-c 06: optimum-graphcore's SWAG test, 0.6462
against 0.65). A clear miss keeps its confidence.

A filter at zero beside one that scored: lm-eval prints a task's filters on consecutive rows; when
strict-match finds nothing while flexible-extract scores like a working model, the answers are
there and the strict filter's format is what failed (round 50 excerpts-c 08: GPQA 0.0 beside
0.5455). Beside a filter that scored little too (0.06 beside 0.17), it is still a collapse.
"""

from __future__ import annotations

from pathlib import Path

from pdlogdoctor.library.patterns import Library
from pdlogdoctor.model import Report
from pdlogdoctor.pipeline import run

PYTEST = """\
tests/test_examples.py .....................................x

=========================================================================
>                   self.assertGreaterEqual(float(results[self.SCORE_NAME]), threshold)
E                   AssertionError: {value} not greater than or equal to 0.65

tests/test_examples.py:185: AssertionError

=========================== short test summary info ============================
FAILED tests/test_examples.py::MultipleChoiceExampleTester::test_run_swag_distilbert
============ 1 failed, 37 passed, 1 warning in 30425.34s (8:27:05) =============
"""

LM_EVAL = """\
|            Tasks             |Version|     Filter     |n-shot|  Metric   |   |Value |   |Stderr|
|------------------------------|------:|----------------|-----:|-----------|---|-----:|---|-----:|
|gpqa_diamond_generative_n_shot|      2|flexible-extract|     5|exact_match|↑  |{flexible}|±  |0.0355|
|                              |       |strict-match    |     5|exact_match|↑  |{strict}|±  |0.0000|
"""


def _report(tmp_path: Path, library: Library, text: str) -> Report:
    (tmp_path / "excerpt.log").write_text(text)
    return run([str(tmp_path / "excerpt.log")], library)


def test_a_gate_missed_by_a_hair_is_named_with_low_confidence(tmp_path: Path, library: Library) -> None:
    report = _report(tmp_path, library, PYTEST.format(value="0.6461915373802185"))
    assert report.verdict.id == "accuracy-regression"
    assert report.verdict.confidence <= 0.4
    assert "rerun it before bisecting" in report.verdict.summary
    assert "near-miss" in {step.name for step in report.verdict.reasons}


def test_a_clear_miss_keeps_its_confidence(tmp_path: Path, library: Library) -> None:
    report = _report(tmp_path, library, PYTEST.format(value="0.52"))
    assert report.verdict.id == "accuracy-regression"
    assert report.verdict.confidence >= 0.5
    assert "rerun it before bisecting" not in report.verdict.summary


def test_strict_match_at_zero_beside_a_working_filter_is_no_collapse(tmp_path: Path, library: Library) -> None:
    report = _report(tmp_path, library, LM_EVAL.format(flexible="0.5455", strict="0.0000"))
    assert report.verdict.id == "inconclusive", report.verdict
    assert "accuracy-regression" not in {a.id for a in report.alternatives if a.confidence >= 0.5}


def test_both_filters_low_is_still_a_collapse(tmp_path: Path, library: Library) -> None:
    report = _report(tmp_path, library, LM_EVAL.format(flexible="0.1683", strict="0.0629"))
    assert report.verdict.id == "accuracy-regression", report.verdict
