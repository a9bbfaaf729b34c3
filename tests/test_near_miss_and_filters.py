"""Three readings of evaluation output that a careful engineer makes before calling a regression.

A gate missed by a hair: an evaluation of a few hundred questions moves by a point or more from one
run to the next, so a score under its threshold by less than 1 % of it is named with low confidence
and a rerun is the first step (blind round 50 excerpts-c 06: optimum-graphcore's SWAG test, 0.6462
against 0.65). A clear miss keeps its confidence.

A filter at zero beside one that scored: lm-eval prints a task's filters on consecutive rows; when
strict-match finds nothing while flexible-extract scores like a working model, the answers are
there and the strict filter's format is what failed (round 50 excerpts-c 08: GPQA 0.0 beside
0.5455). Beside a filter that scored little too (0.06 beside 0.17), it is still a collapse.

A perplexity in the thousands is a model reading garbage (round 51 excerpts-c 07: gemma-2-9b's
LAMBADA at 2645 without its BOS token), unless the same paste measures the task again below it,
after a fix (round 51 excerpts-c 01: 5.9e9 before the BOS token, 3.46 after).
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
    # The answers are there: strict-match's zero is its extraction's, a harmless line quoted as such, and
    # the run served (blind round 50's excerpts-c 08 accepts healthy).
    report = _report(tmp_path, library, LM_EVAL.format(flexible="0.5455", strict="0.0000"))
    assert report.verdict.id == "healthy", report.verdict
    assert "accuracy-regression" not in {a.id for a in report.alternatives if a.confidence >= 0.5}
    assert "|strict-match    |     5|exact_match|↑  |0.0000|" in report.verdict.summary
    assert "another filter of the same task scored 0.5455" in report.verdict.summary


def test_both_filters_low_is_still_a_collapse(tmp_path: Path, library: Library) -> None:
    report = _report(tmp_path, library, LM_EVAL.format(flexible="0.1683", strict="0.0629"))
    assert report.verdict.id == "accuracy-regression", report.verdict


PERPLEXITY = """\
|    Tasks     |Version|Filter|n-shot|  Metric  |   |  Value  |   | Stderr |
|--------------|------:|------|-----:|----------|---|--------:|---|-------:|
|lambada_openai|      1|none  |     0|acc       |↑  |   0.2663|±  |  0.0062|
|              |       |none  |     0|perplexity|↓  |{perplexity}|±  |240.9389|
"""
AFTER_FIX = """\
After adding the BOS token:
|    Tasks     |Version|Filter|n-shot|  Metric  |   |Value |   |Stderr|
|--------------|------:|------|-----:|----------|---|-----:|---|-----:|
|lambada_openai|      1|none  |     0|perplexity|↓  |3.4640|±  |0.0677|
|              |       |none  |     0|acc       |↑  |0.6707|±  |0.0065|
"""


def test_a_perplexity_in_the_thousands_is_a_collapse(tmp_path: Path, library: Library) -> None:
    report = _report(tmp_path, library, PERPLEXITY.format(perplexity="2645.4121"))
    assert report.verdict.id == "accuracy-regression", report.verdict
    assert "perplexity at 2645.41" in report.verdict.summary


def test_a_working_perplexity_is_served(tmp_path: Path, library: Library) -> None:
    report = _report(tmp_path, library, PERPLEXITY.format(perplexity="3.4640"))
    assert report.verdict.id in ("healthy", "no-failure-seen"), report.verdict


def test_a_collapse_measured_again_after_a_fix_is_its_past(tmp_path: Path, library: Library) -> None:
    report = _report(tmp_path, library, PERPLEXITY.format(perplexity="5909545606.3929") + AFTER_FIX)
    assert report.verdict.id in ("healthy", "no-failure-seen"), report.verdict
    assert any(e.pattern == "lm-eval-perplexity-row" for e in report.harmless)


# casper-hansen/AutoAWQ#360: a quantisation script's perplexities stated in prose, the later one absurd.
STATED_PERPLEXITIES = "wikitext-ppl=13.560\nthen got much worse ppl={after}, \n"


def test_a_perplexity_stated_in_the_millions_is_a_collapse(tmp_path: Path, library: Library) -> None:
    report = _report(tmp_path, library, STATED_PERPLEXITIES.format(after="1056944.250"))
    assert report.verdict.id == "accuracy-regression", report.verdict
    assert "A perplexity of 1,056,944 is stated" in report.verdict.summary
    assert "lm-eval" not in report.verdict.summary  # no harness named where none printed it


def test_a_perplexity_stated_in_tens_is_no_failure(tmp_path: Path, library: Library) -> None:
    report = _report(tmp_path, library, STATED_PERPLEXITIES.format(after="14.020"))
    assert report.verdict.id not in ("accuracy-regression", "output-corruption"), report.verdict


def test_a_stated_collapse_measured_again_below_is_its_past(tmp_path: Path, library: Library) -> None:
    text = "Before the fix: PPL = 23104.55\nAfter the fix:\nFinal estimate: PPL = 5.9066 +/- 0.03321\n"
    report = _report(tmp_path, library, text)
    assert report.verdict.id != "accuracy-regression", report.verdict


def test_a_perplexity_in_the_hundreds_is_a_collapse(tmp_path: Path, library: Library) -> None:
    """vllm-project/vllm#17689's gemma-3-27b-it: LAMBADA at 955 (the smallest models reach 40 to 130)."""
    report = _report(tmp_path, library, PERPLEXITY.format(perplexity="955.5915"))
    assert report.verdict.id == "accuracy-regression", report.verdict


def test_a_small_models_perplexity_is_no_collapse(tmp_path: Path, library: Library) -> None:
    report = _report(tmp_path, library, PERPLEXITY.format(perplexity="131.2004"))
    assert report.verdict.id in ("healthy", "no-failure-seen"), report.verdict
