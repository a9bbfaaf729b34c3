"""Real log excerpts from public issues (tests/data/excerpts/*): behaviour their lines showed.

Each excerpt is a corpus case (tests/corpus.py): its verdict, chain and key lines are checked with
every other case in tests/test_corpus.py. Here, what particular excerpts taught about reading lines.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

import pytest

from pdlogdoctor.model import Report
from pdlogdoctor.render.markdown import markdown_report
from pdlogdoctor.render.options import RenderOptions

from .corpus import DATA

EXCERPTS = DATA / "excerpts"


@pytest.fixture(scope="module")
def reports(case_reports: Mapping[Path, Report]) -> Mapping[Path, Report]:
    return case_reports


def _excerpt(name: str) -> Path:
    return EXCERPTS / name


@pytest.mark.parametrize(
    "name",
    [
        "aibrix-1433-ucx-umr-qp-rtr-no-such-device",
        "nixl-1983-ucx-srd-flush-new-decode",
        "mooncake-2177-segment-descriptor-after-upgrade",
    ],
)
def test_markdown_quotes_log_lines_with_their_spacing(name: str, reports: Mapping[Path, Report]) -> None:
    """UCX pads its level (`UCX  ERROR`) and glog its thread id: a line copied out of the markdown
    report must grep back to the log, so every quoted line keeps its runs of spaces."""
    report = reports[_excerpt(name)]
    markdown = markdown_report(report, RenderOptions(redact=False))
    quoted = [t.first.text.strip() for t in report.unrecognised] + [e.text.strip() for e in report.chain]
    assert any("  " in line for line in quoted), "the excerpt must hold a line with a run of spaces"
    for line in quoted:
        assert line in markdown, line


def test_a_raise_statement_is_not_a_second_occurrence(reports: Mapping[Path, Report]) -> None:
    """sglang's `raise RuntimeError("Mooncake memory registration failed.")` is source a traceback
    quotes; the exception line under it is the one failure (Mooncake#281 counted it twice)."""
    report = reports[_excerpt("mooncake-281-register-memory-failed-glog-noise")]
    lines = [e for e in report.chain if e.pattern == "mooncake-sglang-registration-failed"]
    assert [e.text for e in lines] == ["RuntimeError: Mooncake memory registration failed."]
    assert lines[0].repeats == 1


@pytest.mark.parametrize(
    ("name", "exception"),
    [
        ("vllm-32222-nixl-not-available-rocm-ci", "RuntimeError: NIXL is not available"),
        ("vllm-29176-amd-ci-nixl-without-ucx", "self.connector_worker.register_kv_caches(kv_caches)"),
    ],
)
def test_an_error_prefixed_traceback_leads_with_its_exception(
    name: str, exception: str, reports: Mapping[Path, Report]
) -> None:
    """vLLM prints every traceback line under its ERROR prefix: the summary names the exception line
    (or, when the excerpt stops before it, the innermost frame), never an outer source or caret line."""
    report = reports[_excerpt(name)]
    assert exception in report.verdict.summary
    assert "^^^" not in report.verdict.summary and "raise " not in report.verdict.summary
    assert not any(t.first.text.rstrip().endswith("^") for t in report.unrecognised)
