"""Real log excerpts from public issues (tests/data/excerpts/*): the tool's check against
lines it was not designed on. Each directory holds the verbatim lines and an expected.toml
naming its source; the same checks as the fixture bundles apply, plus `alternatives`
(verdicts that must stay listed as live alternatives) and `key_lines`: the lines the thread's
maintainers or reporter pointed at, one of which the report must quote where a reader looks for
evidence. "Quotes" means the whole key text appears both in the terminal report (with log lines
unclipped, `--verbose`: at 80 columns a long line is cut at the edge) and in the markdown report
(unredacted, `--no-redact`: redaction may mask an address inside the line)."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import pytest

from pdlogdoctor.library.patterns import Library
from pdlogdoctor.model import Report
from pdlogdoctor.pipeline import run
from pdlogdoctor.render import text
from pdlogdoctor.render.markdown import markdown_report
from pdlogdoctor.render.options import RenderOptions

from . import test_fixtures as checks
from .conftest import ROOT

EXCERPTS = sorted(path.parent for path in (ROOT / "tests" / "data" / "excerpts").glob("*/expected.toml"))

# Excerpts the tool still gets wrong, each with what it misses: a strict xfail, so the fix that makes
# one pass must also remove it from here. KNOWN is about the verdict checks (verdict, chain, facts,
# summary), UNQUOTED about quoting a key line.
KNOWN: dict[str, str] = {}
UNQUOTED: dict[str, str] = {
    "lmcache-1343-nixl-ucx-1p1d-example-startup-benign": "vLLM's 'init engine ... took' line not shown",
}


def cases(known: dict[str, str]) -> list[Any]:
    """The excerpts as test parameters, the known misses as strict xfails."""
    return [
        pytest.param(b, marks=pytest.mark.xfail(strict=True, reason=known[b.name])) if b.name in known else b
        for b in EXCERPTS
    ]


@pytest.fixture(scope="module")
def reports(library: Library) -> dict[Path, Report]:
    return {bundle: run([str(bundle)], library) for bundle in EXCERPTS}


def test_there_are_excerpts() -> None:
    assert len(EXCERPTS) >= 5


def test_every_known_miss_is_an_excerpt() -> None:
    names = {bundle.name for bundle in EXCERPTS}
    assert set(KNOWN) | set(UNQUOTED) <= names


@pytest.mark.parametrize("bundle", cases(KNOWN), ids=[b.name for b in EXCERPTS])
def test_excerpt(bundle: Path, reports: dict[Path, Report]) -> None:
    checks.test_bundle_verdict(bundle, reports)
    checks.test_bundle_chain(bundle, reports)
    checks.test_bundle_suggestions_and_facts(bundle, reports)
    expected = checks.load_expected(bundle)
    listed = {alternative.id for alternative in reports[bundle].alternatives}
    for verdict in expected.get("alternatives", []):
        assert verdict in listed, f"{verdict} not among the alternatives {sorted(listed)}"


def quoted_key_lines(bundle: Path, report: Report) -> list[str]:
    """The key lines both the terminal report and the markdown report quote."""
    terminal = io.StringIO()
    text.render(report, terminal, RenderOptions(redact=False, verbose=True))
    markdown = markdown_report(report, RenderOptions(redact=False))
    return [
        line for line in checks.load_expected(bundle)["key_lines"] if line in terminal.getvalue() and line in markdown
    ]


def test_every_excerpt_names_its_key_lines() -> None:
    for bundle in EXCERPTS:
        keys = checks.load_expected(bundle).get("key_lines", [])
        logs = [
            line for path in bundle.iterdir() if path.name != "expected.toml" for line in path.read_text().splitlines()
        ]
        assert 1 <= len(keys) <= 3, f"{bundle.name}: give 1-3 key lines"
        assert all(any(key in line for line in logs) for key in keys), f"{bundle.name}: a key line is not in its logs"


@pytest.mark.parametrize("bundle", cases(UNQUOTED), ids=[b.name for b in EXCERPTS])
def test_excerpt_report_quotes_a_key_line(bundle: Path, reports: dict[Path, Report]) -> None:
    report = reports[bundle]
    assert quoted_key_lines(bundle, report), (
        f"no key line quoted; verdict {report.verdict.id}: {report.verdict.summary}"
    )


def _excerpt(name: str) -> Path:
    return next(bundle for bundle in EXCERPTS if bundle.name == name)


@pytest.mark.parametrize(
    "name",
    [
        "aibrix-1433-ucx-umr-qp-rtr-no-such-device",
        "nixl-1983-ucx-srd-flush-new-decode",
        "mooncake-2177-segment-descriptor-after-upgrade",
    ],
)
def test_markdown_quotes_log_lines_with_their_spacing(name: str, reports: dict[Path, Report]) -> None:
    """UCX pads its level (`UCX  ERROR`) and glog its thread id: a line copied out of the markdown
    report must grep back to the log, so every quoted line keeps its runs of spaces."""
    report = reports[_excerpt(name)]
    markdown = markdown_report(report, RenderOptions(redact=False))
    quoted = [t.first.text.strip() for t in report.unrecognised] + [e.text.strip() for e in report.chain]
    assert any("  " in line for line in quoted), "the excerpt must hold a line with a run of spaces"
    for line in quoted:
        assert line in markdown, line


def test_a_raise_statement_is_not_a_second_occurrence(reports: dict[Path, Report]) -> None:
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
    name: str, exception: str, reports: dict[Path, Report]
) -> None:
    """vLLM prints every traceback line under its ERROR prefix: the summary names the exception line
    (or, when the excerpt stops before it, the innermost frame), never an outer source or caret line."""
    report = reports[_excerpt(name)]
    assert exception in report.verdict.summary
    assert "^^^" not in report.verdict.summary and "raise " not in report.verdict.summary
    assert not any(t.first.text.rstrip().endswith("^") for t in report.unrecognised)
