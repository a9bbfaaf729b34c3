"""Real log excerpts from public issues (tests/data/excerpts/*): the tool's check against
lines it was not designed on. Each directory holds the verbatim lines and an expected.toml
naming its source; the same checks as the fixture bundles apply, plus `alternatives`
(verdicts that must stay listed as live alternatives)."""

from __future__ import annotations

from pathlib import Path

import pytest

from pdlogdoctor.model import Report
from pdlogdoctor.patterns import Library
from pdlogdoctor.pipeline import run

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
