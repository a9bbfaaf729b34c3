"""A results table row with several checks says which failed by its column's header (issue 22).

tt-inference-server's release report puts each check in a column of its own (`Functional TTFT Check`,
`Complete TTFT Check`, `Target Tput User Check`) and marks each cell PASS or FAIL: the row's FAIL cell
is a failed gate, and the header over it names what it measured (tt-inference-server#744: a
latency target missed, a performance regression). Look-alike: the same row whose failed column is an
accuracy check is no performance gate.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from pdlogdoctor.cli.behaviour import exit_code_for
from pdlogdoctor.pipeline import run

from .conftest import shipped_library

LIBRARY = shipped_library()
SEPARATOR = "|-----|-----|-------------|-----------|-----------------|-------------------|-----------------------|"
ROW = "| 128 | 128 |           1 |      83.2 |           20.98 |              21.0 | PASS ✅ | FAIL ⛔ |"


@pytest.mark.parametrize(
    ("failed_column", "verdict"),
    [
        ("Complete TTFT Check", "performance-regression"),
        ("Accuracy Check", "inconclusive"),
    ],
)
def test_the_failed_cell_is_named_by_its_column(tmp_path: Path, failed_column: str, verdict: str) -> None:
    header = (
        "| ISL | OSL | Concurrency | TTFT (ms) | Tput User (TPS) | Tput Decode (TPS) | Functional TTFT Check "
        f"| {failed_column} |"
    )
    excerpt = tmp_path / "release-report.md"
    excerpt.write_text("\n".join([header, SEPARATOR + "------|", ROW]) + "\n")
    report = run([str(excerpt)], LIBRARY)
    assert report.verdict.id == verdict, report.verdict.summary
    assert int(exit_code_for(report)) != 0
