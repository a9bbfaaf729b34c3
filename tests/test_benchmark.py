"""The benchmark keeps working: a tiny bundle, no timing asserted."""

from __future__ import annotations

import hashlib
import re
import shutil
from pathlib import Path

import pytest

from benchmarks.dense import Dated, corpus_files, generate_dense, generate_files, pools, shares
from benchmarks.generate import SEED_FIXTURE, generate, parse_size
from benchmarks.run import bench, installed_matchers, startup

from .conftest import shipped_library


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
    result = bench(1_500_000, tmp_path, keep=False)  # every matcher, grep and rg run over it: kept small
    assert result.verdict == result.fixture_verdict == "mori-mr-size-limit"
    # grep counts exactly the lines that hold an anchor of the library: the seed's, and the noise's
    # Prefill/Decode batch lines (the metrics lines the scan reads into series).
    bundle = generate(tmp_path / "count", 1_500_000)
    assert result.grep_matches == sum(
        1 for path in bundle.glob("*.log") for line in path.read_bytes().splitlines() if _anchored(line)
    )
    seed_lines = (b"".join(p.read_bytes() for p in SEED_FIXTURE.glob("*.log"))).splitlines()
    assert result.grep_matches > sum(1 for line in seed_lines if _anchored(line))
    assert result.tool_peak_rss > 0 and result.size > 1_400_000
    # Every installed matcher ran and found the seed incident; ripgrep (if installed) counts as grep does.
    assert set(result.tools) == set(installed_matchers()) and "pure" in result.tools
    assert {run.verdict for run in result.tools.values()} == {"mori-mr-size-limit"}
    assert result.rg_matches in (None, result.grep_matches)
    assert not (tmp_path / "1500000").exists()


def test_startup_reports_min_and_median_per_matcher() -> None:
    lines = startup(runs=2, matchers=["pure", "ahocorasick"])
    rows = [line.split(" | ") for line in lines if line.startswith("| pure") or line.startswith("| ahocorasick")]
    assert [row[0] for row in rows] == ["| pure", "| ahocorasick"]
    for row in rows:
        figures = [float(cell.strip(" |s")) for cell in row[1:]]
        assert len(figures) == 4 and all(value > 0 for value in figures)
        assert figures[0] <= figures[1] and figures[2] <= figures[3]  # min <= median


LIBRARY = shipped_library()
# The generic error layer's anchors are searched too (`patterns anchors` prints them for grep).
# A pattern's search keys are what `patterns anchors` prints for grep: its `any_anchors`, else its
# primary anchor (a pattern whose anchor is a space or `%` is searched by its any_anchors).
ANCHORS = {key.encode() for p in LIBRARY.patterns for key in p.search_keys} | {
    a.encode() for a in (LIBRARY.errors.anchors if LIBRARY.errors else ())
}


def _anchored(line: bytes) -> bool:
    return any(anchor in line for anchor in ANCHORS)


# ---------------------------------------------------------------- dense bundles (benchmarks/dense.py)


def _undated(data: bytes) -> bytes:
    """A line with its dates masked: a dense bundle moves each pass's dates on by a day."""
    return re.sub(rb"(?:\d{4}-)?\d\d-\d\d(?=[ T]\d\d:)|(?<=[IWEF])\d{4}(?= \d\d:)", b"<date>", data)


@pytest.mark.slow
def test_dense_bundle_is_the_corpus_lines_in_their_proportions(tmp_path: Path) -> None:
    bundle = generate_dense(tmp_path / "a", 3_000_000)
    assert digest(bundle) == digest(generate_dense(tmp_path / "b", 3_000_000))
    sizes = {path.name: path.stat().st_size for path in bundle.iterdir()}
    assert set(sizes) == {"prefill_node0.log", "decode_node1.log", "router.log", "job.log"}
    share = shares(pools())
    for name, size in sizes.items():
        role = name.split("_", 1)[0].removesuffix(".log")
        assert abs(size - 3_000_000 * share[role]) < 3_000_000 * 0.01 + 70_000, name  # a file cut at a line
    corpus = {_undated(line) for path in corpus_files() for line in path.read_bytes().splitlines()}
    lines = [line for path in bundle.iterdir() for line in path.read_bytes().splitlines()]
    assert all(_undated(line) in corpus for line in lines)
    # A stamped line does not repeat byte for byte in the next pass through the corpus: a day later.
    seed = SEED_FIXTURE / "decode_mia1-p06-g14.log"
    first, second = (set(Dated(seed.read_bytes()).shifted(day).splitlines()) for day in (0, 1))
    stamped = {line for line in first if re.match(rb"\[\d{4}-\d\d-\d\d \d\d:", line)}
    assert len(stamped) > 500 and not stamped & second
    assert b"[2026-07-03 10:02:11] server_args=ServerArgs(" in b"".join(second)


@pytest.mark.slow
def test_fleet_bundle_has_64_nodes_each_starting_elsewhere(tmp_path: Path) -> None:
    bundle = generate_dense(tmp_path, 640_000, nodes=64)  # 10 kB a node: enough for each first line
    nodes = sorted(path.name for path in bundle.iterdir() if path.name.startswith(("prefill_node", "decode_node")))
    assert len(nodes) == 64
    decode = pools()["decode"]
    for k in range(32):  # node k starts with the k-th decode file of the corpus
        first = decode[k % len(decode)].read_bytes().split(b"\n", 1)[0]
        assert (bundle / f"decode_node{32 + k}.log").read_bytes().startswith(first)


def test_small_files_sit_beside_the_seed_and_sort_before_its_router_log(tmp_path: Path) -> None:
    bundle = generate_files(tmp_path, count=200)
    names = sorted(path.name for path in bundle.iterdir())
    assert {src.name for src in SEED_FIXTURE.glob("*.log")} <= set(names)
    small = [name for name in names if name.startswith("rank")]
    assert len(small) == 200 and names.index("router.log") > names.index(small[-1])
    corpus = {line for path in corpus_files() for line in path.read_bytes().splitlines()}
    assert all(line in corpus for name in small for line in (bundle / name).read_bytes().splitlines())


@pytest.mark.skipif(shutil.which("grep") is None, reason="grep is the baseline")
@pytest.mark.slow
def test_tiny_dense_benchmark_counts_hits_and_every_matcher_agrees(tmp_path: Path) -> None:
    result = bench(3_000_000, tmp_path, keep=False, matchers=["ahocorasick", "pure"], kind="dense")
    assert result.grep_matches > 1000 and result.hits_per_gb > 100_000  # dense: a line in ~30 holds an anchor
    assert result.verdict == result.fixture_verdict
    assert {run.verdict for run in result.tools.values()} == {result.fixture_verdict}
