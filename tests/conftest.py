from __future__ import annotations

from pathlib import Path

import pytest

from pdlogdoctor.patterns import Library, load_library

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "fixtures"


@pytest.fixture(scope="session")
def library() -> Library:
    return load_library()
