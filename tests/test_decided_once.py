"""The verdict is decided once: after the decision step, every later pass only adds.

Each case of the corpus goes through the pipeline; the report the decision step returned and the
report the pipeline returns must carry the same verdict id and confidence. A planted pass that
changes the confidence is caught (the guard's twin), so the check cannot pass vacuously.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from pathlib import Path

import pytest

from pdlogdoctor import pipeline
from pdlogdoctor.library.patterns import Library
from pdlogdoctor.model import Report

from .conftest import BUNDLES, CaseAnalyses

ROOT = Path(__file__).resolve().parent.parent
CASES = sorted({*BUNDLES, *(p.parent for p in (ROOT / "tests" / "data").rglob("expected.toml"))})


def test_no_later_pass_changes_the_verdict(case_analyses: CaseAnalyses) -> None:
    """Each case's decided report is recorded as the corpus is analysed (conftest.analysed)."""
    changed = []
    for case in CASES:
        decided, final = case_analyses[case].decided, case_analyses[case].analysis.report
        kept = pipeline.KEPT_DECISION in final.notes  # a pass tried, and the guard put the decision back
        if kept or (decided.verdict.id, decided.verdict.confidence) != (final.verdict.id, final.verdict.confidence):
            changed.append(
                f"{case.name}: {decided.verdict.id} {decided.verdict.confidence} -> "
                f"{final.verdict.id} {final.verdict.confidence}"
            )
    assert not changed, "\n".join(changed)


def test_a_pass_that_changes_the_confidence_is_caught(library: Library) -> None:
    """The guard's twin: a planted pass that raises the confidence is undone, and the report says so
    (the note the corpus test fails on); a pass that only adds leaves the report as it was."""
    decided = pipeline.run([str(BUNDLES[0])], library)
    planted = (lambda r: r, lambda r: replace(r, verdict=replace(r.verdict, confidence=r.verdict.confidence + 0.05)))
    guarded = pipeline.only_adding(decided, planted)
    assert guarded.verdict == decided.verdict
    assert pipeline.KEPT_DECISION in guarded.notes
    assert pipeline.only_adding(decided, planted[:1]) == decided


def test_a_pass_that_changes_the_verdict_is_caught(library: Library) -> None:
    decided = pipeline.run([str(BUNDLES[0])], library)
    planted = (lambda r: replace(r, verdict=replace(r.verdict, id="inconclusive", confidence=0.0)),)
    guarded = pipeline.only_adding(decided, planted)
    assert (guarded.verdict.id, guarded.verdict.confidence) == (decided.verdict.id, decided.verdict.confidence)
    assert pipeline.KEPT_DECISION in guarded.notes


def test_the_named_steps_add_up_to_the_confidence(case_reports: Mapping[Path, Report]) -> None:
    """Every verdict says how its confidence was reached: the first step's value plus each named
    change is the confidence (to rounding), and each step says why."""
    wrong = []
    for case in CASES:
        verdict = case_reports[case].verdict
        steps = verdict.reasons
        total = sum(step.change for step in steps)
        if not steps or abs(total - verdict.confidence) > 0.011 or not all(step.why for step in steps):
            wrong.append(f"{case.name}: {verdict.confidence} from {[(s.name, s.change) for s in steps]}")
    assert not wrong, "\n".join(wrong)


def test_every_step_is_a_row_of_the_table(case_reports: Mapping[Path, Report]) -> None:
    """The confidence module's table (confidence.RULES, the README's and the report's) names every
    step a verdict of the corpus carries: no number is added anywhere without its row."""
    from pdlogdoctor.reason.confidence import NAMES

    names = {step.name for case in CASES for step in case_reports[case].verdict.reasons}
    assert names and names <= NAMES, names - NAMES


def test_json_and_verbose_text_show_the_steps(library: Library) -> None:
    from pdlogdoctor.render.document import report_document

    report = pipeline.run([str(ROOT / "fixtures" / "accuracy-regression-kimi")], library)
    steps = report_document(report)["verdict"]["confidence_reasons"]
    assert [s["name"] for s in steps][:1] == ["base"] and steps[0]["change"] == 0.6  # a mechanism-tier verdict
    assert sum(s["change"] for s in steps) == pytest.approx(report.verdict.confidence, abs=0.011)
