from __future__ import annotations

from pathlib import Path

import pytest

from pdlogdoctor.model import Report
from pdlogdoctor.patterns import Library, load_library
from pdlogdoctor.pipeline import run

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "fixtures"
# Every fixture bundle: a directory with logs and the expected.toml that states its meaning.
BUNDLES = sorted(path.parent for path in FIXTURES.glob("*/expected.toml"))


@pytest.fixture(scope="session")
def library() -> Library:
    return load_library()


@pytest.fixture(scope="session")
def bundle_reports(library: Library) -> dict[Path, Report]:
    """Every fixture bundle analysed once for the whole session; reports are frozen, so tests share them."""
    return {bundle: run([str(bundle)], library) for bundle in BUNDLES}
