"""A failed test whose own lines state why (round 130's excerpts-d 01: a multi-node nightly's test that
looked its nodes' names up before their DNS records existed): the gate leads the report, then the line
that states the cause, its limit and its fix; no verdict is named from it. And the GitHub Actions
runner's echo of a step's script is the step's source, never an error line of the run."""

from __future__ import annotations

from pathlib import Path

from pdlogdoctor.library.patterns import Library
from pdlogdoctor.model import Report
from tests.conftest import analysed_lines

STAMP = "2025-11-18T02:41:26.45{:05d}Z "
CYAN, PLAIN = "\x1b[36;1m", "\x1b[0m"
SCRIPT = [  # the runner's echo of the step's `run:` script (bold cyan lines under ##[group]Run)
    "##[group]Run set -euo pipefail",
    f'{CYAN}kubectl logs -f "$LEADER_POD" | while read -r line; do{PLAIN}',
    f'{CYAN}  if echo "$line" | grep -q "$FAIL_TAG"; then{PLAIN}',
    f"{CYAN}    exit 1   # workflow step failed{PLAIN}",
    f"{CYAN}  fi{PLAIN}",
    f"{CYAN}done{PLAIN}",
    "##[endgroup]",
]
TEST = [
    "tests/e2e/nightly/multi_node/test_multi_node.py::test_multi_node FAILED",
    "=================================== FAILURES ===================================",
    ">   return [socket.gethostbyname(dns) for dns in cluster_dns]",
    "E   socket.gaierror: {error}",
    "tests/e2e/nightly/multi_node/config/utils.py:54: gaierror",
    "FAILED tests/e2e/nightly/multi_node/test_multi_node.py::test_multi_node - socket.gaierror: {error}",
    "##[error]Process completed with exit code 1.",
]


def _job(tmp_path: Path, library: Library, error: str, script: bool = True) -> Report:
    lines = [*(SCRIPT if script else []), *(line.format(error=error) for line in TEST)]
    return analysed_lines(tmp_path, library, [STAMP.format(n) + line for n, line in enumerate(lines)], "job.log")


def test_a_failed_test_that_states_its_cause_names_it_after_the_gate(tmp_path: Path, library: Library) -> None:
    report = _job(tmp_path, library, "[Errno -2] Name or service not known")
    assert report.verdict.id == "inconclusive"
    summary = report.verdict.summary
    assert summary.index("test_multi_node FAILED") < summary.index("The line that says why")
    assert "socket.gaierror: [Errno -2] Name or service not known (a host name the resolver does not know" in summary
    assert "no line in these logs shows their cause" not in summary
    assert "DNS" in report.advice and "headless service" in report.advice


def test_a_failed_test_whose_exception_states_no_cause_says_so(tmp_path: Path, library: Library) -> None:
    """The look-alike: an exception that says only that something is wrong names no limit."""
    report = _job(tmp_path, library, "[Errno -9] something odd")
    assert report.verdict.id == "inconclusive"
    assert "The line that says why" not in report.verdict.summary


def test_the_runners_echo_of_a_steps_script_is_no_error_line(tmp_path: Path, library: Library) -> None:
    report = _job(tmp_path, library, "[Errno -2] Name or service not known")
    texts = [t.first.text for t in report.unrecognised]
    assert not any("exit 1   # workflow step failed" in text for text in texts)


def test_the_same_words_printed_by_the_step_are_an_error_line(tmp_path: Path, library: Library) -> None:
    """The look-alike: the step's own output (no bold cyan) saying it exits with a failure is read."""
    line = STAMP.format(1) + "ERROR: exit 1 from the launcher, workflow step failed"
    report = analysed_lines(tmp_path, library, [line], "job.log")
    assert any("workflow step failed" in t.first.text for t in report.unrecognised)
