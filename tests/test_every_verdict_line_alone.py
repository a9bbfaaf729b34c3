"""Each line a verdict pattern's examples call failing, pasted alone, gets a report that is no
"nothing failed" and names its verdict or leaves the cause open.

A pattern's analyzer may expect captures a sibling pattern of its verdict always has (an accuracy
gate's measured and expected scores): a new pattern of that verdict without them crashed the run
(round 59's `has erroneous gsm8k lm_eval`). Every verdict pattern's failing examples are run through
the whole pipeline as a one-line excerpt, so a new pattern is covered the day it is added.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from pdlogdoctor.library.patterns import Library, match_line
from pdlogdoctor.model import Severity
from pdlogdoctor.pipeline import run

from .conftest import shipped_library

LIBRARY = shipped_library()
QUIET = ("healthy", "no-failure-seen")


def _failing_examples(library: Library) -> list[tuple[str, str]]:
    cases = []
    for pattern in library.patterns:
        if pattern.verdict is None or pattern.severity.rank < Severity.ERROR.rank:
            continue
        for line in pattern.examples.match:
            fields = match_line(pattern, line)
            if fields is not None and (pattern.failure_if is None or pattern.failure_if.holds(fields)):
                cases.append((pattern.id, line))
                break  # one per pattern: the analyzer's inputs are the pattern's captures
    return cases


@pytest.mark.parametrize(("pattern_id", "line"), _failing_examples(LIBRARY))
def test_a_failing_example_pasted_alone_is_a_failure(tmp_path: Path, pattern_id: str, line: str) -> None:
    (tmp_path / "excerpt.log").write_text(line + "\n")
    report = run([str(tmp_path)], LIBRARY)
    assert report.verdict.id not in QUIET, f"{pattern_id}: {report.verdict.summary}"
