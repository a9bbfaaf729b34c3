"""A failure the run survived: a blip while serving is noted in a healthy report, never its verdict.

The cases are the blind testers' (tests/data/blind-*, corpus cases checked in tests/test_corpus.py).
"""

from __future__ import annotations

from pathlib import Path

from pdlogdoctor.model import Report
from pdlogdoctor.render.markdown import markdown_report
from pdlogdoctor.render.options import RenderOptions

from .corpus import case_report


def test_a_recovered_health_blip_is_noted_in_a_healthy_report(case_reports: dict[Path, Report]) -> None:
    """One /health 503 the server recovered from during serving: healthy, and the report says so."""
    report = case_report(case_reports, "tests/data/blind-round3/14-healthy-health-blip-prefill-utc8")
    assert report.verdict.id == "healthy"
    assert any("recovered from" in note and "decode-0.log:561" in note for note in report.notes), report.notes
    assert "recovered from" in report.verdict.summary, report.verdict.summary
    assert '"GET /health HTTP/1.1" 503' in markdown_report(report, RenderOptions(redact=False))


def test_a_retried_slice_error_with_no_consequence_is_a_noted_blip(case_reports: dict[Path, Report]) -> None:
    """One Mooncake slice error, nothing downstream failed, serving went on and the gate passed:
    healthy, and the summary and a note name the blip; rdma-link-failure is a low alternative."""
    report = case_report(case_reports, "tests/data/blind-round4/14-")
    assert report.verdict.id == "healthy", report.verdict.summary
    assert "decode_h100-d01.log:7" in report.verdict.summary and "end-to-end checks passed" in report.verdict.summary
    assert any("survived" in note and "transport retry counter exceeded" in note for note in report.notes)
    rdma = next(a for a in report.alternatives if a.id == "rdma-link-failure")
    assert rdma.confidence <= 0.1 and "without consequence" in rdma.why_not, rdma
