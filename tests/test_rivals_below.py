"""A runner-up never shows more confidence than the verdict it lost to: not when the diagnosis
ranks them, and not after the errors no pattern names lower the verdict (reason/decide.py,
_rivals_kept_below). A reader who sees a rival above the verdict cannot tell which to believe."""

from __future__ import annotations

from pathlib import Path

from pdlogdoctor.model import Report
from pdlogdoctor.model.verdicts import META

from .corpus import case_id, case_report


def test_no_runner_up_is_above_its_named_verdict(case_reports: dict[Path, Report]) -> None:
    above = [
        f"{case_id(case)}: {report.verdict.id} {report.verdict.confidence} < {a.id} {a.confidence}"
        for case, report in case_reports.items()
        if report.verdict.id not in META
        for a in report.alternatives
        if a.confidence > max(report.verdict.confidence, 0.05) + 1e-9
    ]
    assert not above, "\n".join(above)


def test_a_guess_lowered_with_its_verdict_stays_clearly_below(case_reports: dict[Path, Report]) -> None:
    """KubeRay, Xid 79 on one worker, NCCL watchdogs time out: Ray's worker-died message names the OOM
    killer as one possibility. The verdict loses 0.2 to a driver line no pattern names before its
    root; the guess loses as much and stays a clear runner-up below it."""
    report = case_report(case_reports, "tests/data/blind-round16-bundles-b/03-kuberay-pp2-xid79")
    rivals = {a.id: a.confidence for a in report.alternatives}
    assert report.verdict.id == "collective-timeout"
    assert rivals["host-oom"] <= report.verdict.confidence - 0.1
