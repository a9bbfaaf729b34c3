from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import settings

from pdlogdoctor.ingest.content import looks_binary
from pdlogdoctor.library.load import load_library
from pdlogdoctor.library.patterns import Library
from pdlogdoctor.model import Report
from pdlogdoctor.pipeline import run

# The property tests draw the same examples on every run: main is green at every merge, and a
# red CI run must be reproducible from its commit. `HYPOTHESIS_PROFILE=explore` draws new ones
# (run it while working on a property; a failure it finds becomes an explicit example).
settings.register_profile("repeatable", derandomize=True, print_blob=True)
settings.register_profile("explore", derandomize=False, print_blob=True)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "repeatable"))

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "fixtures"
# Every fixture bundle: a directory with logs and the expected.toml that states its meaning.
BUNDLES = sorted(path.parent for path in FIXTURES.glob("*/expected.toml"))


def zstd_compress(data: bytes, level: int = 3) -> bytes:
    """`data` as one zstd frame, made by the module pdlogdoctor reads zstd with: the standard
    library's from Python 3.14 on (.ci/newest-python runs the suite's zstd tests there), else zstandard."""
    if sys.version_info >= (3, 14):
        from compression import zstd

        packed: bytes = zstd.compress(data, level)
        return packed
    import zstandard

    return zstandard.ZstdCompressor(level=level).compress(data)


def binary_input(path: Path) -> bool:
    """A fixture's core dump or stray binary (issue 30): no log to shift, reshape or rewrite."""
    if path.suffix in (".gz", ".zst", ".zip", ".tar"):
        return False
    head = path.read_bytes()[:8192]
    return head.startswith(b"\x7fELF") or looks_binary(head)


@pytest.fixture(scope="session", autouse=True)
def private_cache_dir(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """The command keeps its parsed library in the user's cache directory (library_cache.py):
    the suite's runs, in process and in subprocesses, keep theirs in a directory of their own."""
    previous = os.environ.get("XDG_CACHE_HOME")
    cache = tmp_path_factory.mktemp("xdg-cache")
    os.environ["XDG_CACHE_HOME"] = str(cache)
    yield cache
    if previous is None:
        os.environ.pop("XDG_CACHE_HOME", None)
    else:
        os.environ["XDG_CACHE_HOME"] = previous


@pytest.fixture(scope="session", autouse=True)
def no_forced_colour() -> Iterator[None]:
    """FORCE_COLOR colours output that is no terminal (behaviour.use_color); a runner that sets it
    would colour every report the suite reads as plain text. Tests that want it set it themselves."""
    previous = os.environ.pop("FORCE_COLOR", None)
    yield
    if previous is not None:
        os.environ["FORCE_COLOR"] = previous


@pytest.fixture(scope="session")
def library() -> Library:
    return load_library()


@pytest.fixture(scope="session")
def case_reports(library: Library) -> dict[Path, Report]:
    """Every corpus case (fixture bundles, excerpts, blind cases: tests/corpus.py) analysed once for
    the whole session; reports are frozen, so tests share them."""
    from .corpus import CASES

    return {case: run([str(case)], library) for case in CASES}


@pytest.fixture(scope="session")
def bundle_reports(case_reports: dict[Path, Report]) -> dict[Path, Report]:
    """Every fixture bundle's report (fixtures/*)."""
    return {bundle: case_reports[bundle] for bundle in BUNDLES}


def analysed_lines(tmp_path: Path, library: Library, lines: list[str], name: str) -> Report:
    """`lines` written as one file `name` in `tmp_path`, and that folder analysed."""
    (tmp_path / name).write_text("\n".join(lines) + "\n")
    return run([str(tmp_path)], library)
