from __future__ import annotations

import functools
import gc
import os
import pickle
import sys
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

import pytest
from hypothesis import settings

from pdlogdoctor import pipeline
from pdlogdoctor.ingest.content import looks_binary
from pdlogdoctor.library.load import load_library
from pdlogdoctor.library.patterns import Library
from pdlogdoctor.model import Report
from pdlogdoctor.pipeline import Analysis, run

try:
    import fcntl
except ImportError:  # Windows
    fcntl = None  # type: ignore[assignment]

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


@functools.cache
def shipped_library() -> Library:
    """The shipped library, read once in a process: test modules that keep it at module level share
    it with the `library` fixture (each read parses every pattern file: ~0.6 s, and eighteen modules
    read it while the suite is being collected)."""
    return load_library()


@pytest.fixture(scope="session")
def library() -> Library:
    return shipped_library()


@dataclass(frozen=True)
class Analysed:
    """A corpus case's analysis, and the report its decision step returned: test_decided_once checks
    that no pass after the decision changes it, without a run of the corpus of its own."""

    analysis: Analysis
    decided: Report


def analysed(case: Path, library: Library) -> Analysed:
    """`case` through the pipeline, the decision step's report recorded on the way (the step
    itself is called as it is, once, and its report returned unchanged)."""
    decide = pipeline.decide  # type: ignore[attr-defined]
    decided: list[Report] = []

    def recording(*args: Any, **kwargs: Any) -> Report:
        decided.append(decide(*args, **kwargs))
        return decided[-1]

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(pipeline, "decide", recording)
        analysis = pipeline.analyse([str(case)], library)
    return Analysed(analysis, decided[0])


class CaseAnalyses(Mapping[Path, Analysed]):
    """Every corpus case (fixture bundles, excerpts, blind cases: tests/corpus.py), analysed when a
    test first reads it and kept for the session; analyses are frozen, so tests share them.

    Under xdist the workers share them too: the first to read a case analyses it and leaves it in
    `shared` (this run's directory, which both workers see), the other reads it back (~2 ms a case,
    against ~60 ms to analyse it). Both workers run tests of nearly every case, and the corpus is
    then analysed once in the run, not once in each worker."""

    def __init__(self, cases: Sequence[Path], library: Library, shared: Path | None) -> None:
        self._cases, self._known, self._library, self._shared = cases, frozenset(cases), library, shared
        self._done: dict[Path, Analysed] = {}

    def __getitem__(self, case: Path) -> Analysed:
        if case not in self._done:
            if case not in self._known:
                raise KeyError(case)
            self._done[case] = self._read_or_made(case) if self._shared else analysed(case, self._library)
            # Kept for the whole run: out of the collector's reach, or every later full collection
            # walks all the corpus's events again (the suite spent seconds per thousand cases so).
            gc.freeze()
        return self._done[case]

    def _read_or_made(self, case: Path) -> Analysed:
        """The case's analysis as the other worker left it, else made here and left for it. The lock
        makes a worker that reads a case while the other analyses it wait for that analysis."""
        assert self._shared is not None and fcntl is not None
        kept = self._shared / (str(case.relative_to(ROOT)).replace("/", "--") + ".pickle")
        with open(kept.with_suffix(".lock"), "w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file closes
            if kept.exists():
                read: Analysed = pickle.loads(kept.read_bytes())
                return read
            made = analysed(case, self._library)
            kept.write_bytes(pickle.dumps(made, pickle.HIGHEST_PROTOCOL))
            return made

    def __contains__(self, case: object) -> bool:  # without analysing it (Mapping's would)
        return case in self._known

    def __iter__(self) -> Iterator[Path]:
        return iter(self._cases)

    def __len__(self) -> int:
        return len(self._cases)


Key = TypeVar("Key")


class Reports(Mapping[Key, Report]):
    """Reports of corpus cases by a key of the reader's (the case, a bundle's name), each analysed
    when first read (CaseAnalyses): a test that reads one report analyses one case."""

    def __init__(self, cases: Mapping[Key, Path], analyses: CaseAnalyses) -> None:
        self._cases, self._analyses = cases, analyses

    def __getitem__(self, key: Key) -> Report:
        return self._analyses[self._cases[key]].analysis.report

    def __contains__(self, key: object) -> bool:
        return key in self._cases

    def __iter__(self) -> Iterator[Key]:
        return iter(self._cases)

    def __len__(self) -> int:
        return len(self._cases)


@pytest.fixture(scope="session")
def case_analyses(library: Library, tmp_path_factory: pytest.TempPathFactory) -> CaseAnalyses:
    from .corpus import CASES

    # Each xdist worker's base temporary directory is in the run's, which is this run's only (the
    # usual way to share a session fixture's work between workers). Without xdist, or without
    # fcntl's lock (Windows), each process analyses what it reads.
    shared = None
    if os.environ.get("PYTEST_XDIST_WORKER") and fcntl is not None:
        shared = tmp_path_factory.getbasetemp().parent / "case-analyses"
        shared.mkdir(exist_ok=True)
    return CaseAnalyses(CASES, library, shared)


@pytest.fixture(scope="session")
def case_reports(case_analyses: CaseAnalyses) -> Reports[Path]:
    """Every corpus case's report."""
    return Reports({case: case for case in case_analyses}, case_analyses)


@pytest.fixture(scope="session")
def bundle_reports(case_analyses: CaseAnalyses) -> Reports[Path]:
    """Every fixture bundle's report (fixtures/*)."""
    return Reports({bundle: bundle for bundle in BUNDLES}, case_analyses)


def analysed_lines(tmp_path: Path, library: Library, lines: list[str], name: str) -> Report:
    """`lines` written as one file `name` in `tmp_path`, and that folder analysed."""
    (tmp_path / name).write_text("\n".join(lines) + "\n")
    return run([str(tmp_path)], library)


def analysed_files(folder: Path, library: Library, files: dict[str, list[str]]) -> Report:
    """Each of `files` (a name and its lines) written into `folder` (made if missing), and it analysed."""
    folder.mkdir(parents=True, exist_ok=True)
    for name, lines in files.items():
        (folder / name).write_text("\n".join(lines) + "\n")
    return run([str(folder)], library)
