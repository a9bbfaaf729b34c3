"""Blind round 3: 16 bundles written from the real formats by a tester who never read the code
(tests/data/blind-round3; INDEX.md describes each, each expected.toml keeps the tester's reasoning).

What the tester asked for, checked as written:

- the verdict the tester expected, or (for a failure whose cause is outside the catalogue) one
  the tester allowed: never one of `must_not_be` above 0.5 confidence;
- the exit code that goes with it (0 healthy, 1 a named cause, 3 inconclusive);
- a line the tester points at (`key_lines`) quoted in the markdown --no-redact report; for a
  named verdict the tester called arguable, in the verdict's own summary, not only in a list.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from pdlogdoctor.library.patterns import Library
from pdlogdoctor.model import Report
from pdlogdoctor.render.markdown import markdown_report
from pdlogdoctor.render.options import RenderOptions

from .blind_sets import assert_verdict_and_exit_code, blind_cases, expected, reports_of

CASES = blind_cases("blind-round3")
# The tester (INDEX.md) called a generic scheduler-crash verdict arguable where a scheduler
# really died of the error outside the catalogue: allowed, in the phase it died in (or the
# phase left open), if the summary names that error.
ARGUABLE = {
    "07-dev-shm-too-small-issue-comment": {"scheduler-init-crash", "scheduler-crash"},
    "08-illegal-memory-access-custom-kernel": {"scheduler-runtime-crash", "scheduler-crash"},
    "10-too-many-open-files-prefill": {"scheduler-runtime-crash", "scheduler-crash"},
}


@pytest.fixture(scope="module")
def reports(library: Library) -> dict[Path, Report]:
    return reports_of(CASES, library)


def test_the_set_is_whole() -> None:
    kinds = [expected(case)["verdict"] for case in CASES]
    assert len(CASES) == 16 and kinds.count("healthy") == 5


@pytest.mark.parametrize("case", [pytest.param(c, id=c.name) for c in CASES])
def test_verdict_and_exit_code(case: Path, reports: dict[Path, Report]) -> None:
    assert_verdict_and_exit_code(case, reports[case], ARGUABLE.get(case.name, set()))


@pytest.mark.parametrize("case", [pytest.param(c, id=c.name) for c in CASES])
def test_key_line_is_quoted(case: Path, reports: dict[Path, Report]) -> None:
    want, report = expected(case), reports[case]
    body = markdown_report(report, RenderOptions(redact=False))
    assert any(line in body for line in want["key_lines"]), f"no key line quoted; verdict {report.verdict.id}"


def test_a_recovered_health_blip_is_noted_in_a_healthy_report(reports: dict[Path, Report]) -> None:
    """One /health 503 the server recovered from during serving: healthy, and the report says so."""
    report = next(r for case, r in reports.items() if case.name == "14-healthy-health-blip-prefill-utc8")
    assert report.verdict.id == "healthy"
    assert any("recovered from" in note and "decode-0.log:561" in note for note in report.notes), report.notes
    assert "recovered from" in report.verdict.summary, report.verdict.summary
    assert '"GET /health HTTP/1.1" 503' in markdown_report(report, RenderOptions(redact=False))
