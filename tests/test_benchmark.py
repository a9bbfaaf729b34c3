"""The benchmark keeps working: a tiny bundle, no timing asserted."""

from __future__ import annotations

import hashlib
import shutil
from pathlib import Path

import pytest

from benchmarks.generate import SEED_FIXTURE, generate, parse_size
from benchmarks.run import bench, installed_matchers, startup
from pdlogdoctor.library.load import load_library


def digest(directory: Path) -> str:
    hashed = hashlib.sha256()
    for path in sorted(directory.iterdir()):
        hashed.update(path.name.encode() + path.read_bytes())
    return hashed.hexdigest()


def test_parse_size_uses_decimal_units() -> None:
    assert parse_size("100M") == 100_000_000
    assert parse_size("4G") == 4_000_000_000
    assert parse_size("1500") == 1500


@pytest.mark.slow
def test_bundle_is_deterministic_and_keeps_every_seed_line_in_order(tmp_path: Path) -> None:
    first = generate(tmp_path / "a", 3_000_000)
    second = generate(tmp_path / "b", 3_000_000)
    assert digest(first) == digest(second)
    total = sum(p.stat().st_size for p in first.iterdir())
    assert 2_900_000 < total <= 3_100_000
    for src in SEED_FIXTURE.glob("*.log"):
        seed_lines = src.read_bytes().splitlines()
        big = first / src.name
        kept = [line for line in big.read_bytes().splitlines() if line in set(seed_lines)]
        assert kept == seed_lines, src.name


@pytest.mark.skipif(shutil.which("grep") is None, reason="grep is the baseline")
@pytest.mark.slow
def test_tiny_benchmark_reports_the_seed_verdict(tmp_path: Path) -> None:
    result = bench(3_000_000, tmp_path, keep=False)
    assert result.verdict == result.fixture_verdict == "mori-mr-size-limit"
    # grep counts exactly the lines that hold an anchor of the library: the seed's, and the noise's
    # Prefill/Decode batch lines (the metrics lines the scan reads into series).
    bundle = generate(tmp_path / "count", 3_000_000)
    assert result.grep_matches == sum(
        1 for path in bundle.glob("*.log") for line in path.read_bytes().splitlines() if _anchored(line)
    )
    seed_lines = (b"".join(p.read_bytes() for p in SEED_FIXTURE.glob("*.log"))).splitlines()
    assert result.grep_matches > sum(1 for line in seed_lines if _anchored(line))
    assert result.tool_peak_rss > 0 and result.size > 2_900_000
    # Every installed matcher ran and found the seed incident; ripgrep (if installed) counts as grep does.
    assert set(result.tools) == set(installed_matchers()) and "pure" in result.tools
    assert {run.verdict for run in result.tools.values()} == {"mori-mr-size-limit"}
    assert result.rg_matches in (None, result.grep_matches)
    assert not (tmp_path / "3000000").exists()


def test_startup_reports_min_and_median_per_matcher() -> None:
    lines = startup(runs=2, matchers=["pure", "ahocorasick"])
    rows = [line.split(" | ") for line in lines if line.startswith("| pure") or line.startswith("| ahocorasick")]
    assert [row[0] for row in rows] == ["| pure", "| ahocorasick"]
    for row in rows:
        figures = [float(cell.strip(" |s")) for cell in row[1:]]
        assert len(figures) == 4 and all(value > 0 for value in figures)
        assert figures[0] <= figures[1] and figures[2] <= figures[3]  # min <= median


LIBRARY = load_library()
# The generic error layer's anchors are searched too (`patterns anchors` prints them for grep).
ANCHORS = {p.primary_anchor.encode() for p in LIBRARY.patterns} | {
    a.encode() for a in (LIBRARY.errors.anchors if LIBRARY.errors else ())
}


def _anchored(line: bytes) -> bool:
    return any(anchor in line for anchor in ANCHORS)
