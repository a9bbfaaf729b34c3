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

import pytest

from pdlogdoctor.model import Report
from pdlogdoctor.patterns import Library
from pdlogdoctor.pipeline import run
from pdlogdoctor.render import text
from pdlogdoctor.render.markdown import markdown_report
from pdlogdoctor.render.options import RenderOptions

from . import test_fixtures as checks
from .conftest import ROOT

EXCERPTS = sorted(path.parent for path in (ROOT / "tests" / "data" / "excerpts").glob("*/expected.toml"))


@pytest.fixture(scope="module")
def reports(library: Library) -> dict[Path, Report]:
    return {bundle: run([str(bundle)], library) for bundle in EXCERPTS}


def test_there_are_excerpts() -> None:
    assert len(EXCERPTS) >= 5


@pytest.mark.parametrize("bundle", EXCERPTS, ids=[b.name for b in EXCERPTS])
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


@pytest.mark.parametrize("bundle", EXCERPTS, ids=[b.name for b in EXCERPTS])
def test_excerpt_report_quotes_a_key_line(bundle: Path, reports: dict[Path, Report]) -> None:
    report = reports[bundle]
    assert quoted_key_lines(bundle, report), (
        f"no key line quoted; verdict {report.verdict.id}: {report.verdict.summary}"
    )
