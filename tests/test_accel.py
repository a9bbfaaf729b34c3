"""Every compiled matcher finds exactly what the pure-Python scanner finds: on every fixture,
on random chunkings, and (for the raw positions) on random anchors and haystacks."""

from __future__ import annotations

import functools
import importlib.util
import io
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pdlogdoctor.ingest import discover
from pdlogdoctor.library.load import load_library
from pdlogdoctor.library.patterns import Library
from pdlogdoctor.scan import accel
from pdlogdoctor.scan.events import ScanResult
from pdlogdoctor.scan.index import AnchorIndex
from pdlogdoctor.scan.search import scan_stream

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"
COMPILED = [name for name in accel.MATCHERS if name != accel.PURE]


@pytest.fixture(scope="module", params=COMPILED)
def indexes(request: pytest.FixtureRequest, library: Library) -> tuple[AnchorIndex, AnchorIndex]:
    """(the index with this compiled matcher, the same index with the pure loop)."""
    compiled = AnchorIndex.build(library, request.param)
    if compiled.fast is None:
        pytest.skip(f"{request.param} is not installed")
    assert compiled.matcher == request.param
    return compiled, replace(compiled, fast=None)


@functools.cache  # the same files for every matcher
def fixture_streams() -> tuple[tuple[str, bytes], ...]:
    """Every other fixture file: the matchers' agreement is one mechanism whatever the logs say, and
    half the fixtures' files (some 300, every format among them) give it its variety at half the
    time; test_matchers_agree_on_any_chunking draws from every pattern's examples besides."""
    streams = []
    for log_input in discover([str(FIXTURES)])[::2]:
        if log_input.open is None:
            continue
        with log_input.open() as stream:
            streams.append((log_input.name, stream.read()))
    return tuple(streams)


@functools.cache  # the pure loop's scan is every matcher's reference: made once
def pure_scans() -> tuple[ScanResult, ...]:
    plain = AnchorIndex.build(load_library(), accel.PURE)
    return tuple(scan_stream(io.BytesIO(data), name, plain) for name, data in fixture_streams())


def test_every_fixture_scans_identically_with_every_matcher(library: Library) -> None:
    """Every installed compiled matcher against the pure loop's scan of every fixture, in one test:
    the pure scan, the slow reference, is made once in the run, not once in each worker."""
    streams = fixture_streams()
    assert len(streams) > 10
    compiled = [index for name in COMPILED if (index := AnchorIndex.build(library, name)).fast is not None]
    if not compiled:
        pytest.skip("no compiled matcher is installed here (the pure loop is the only one)")
    events = 0
    for fast in compiled:
        for (name, data), reference in zip(streams, pure_scans(), strict=True):
            accelerated = scan_stream(io.BytesIO(data), name, fast)
            assert accelerated == reference, (fast.matcher, name)
            events += len(reference.events)
    assert events > 50  # the fixtures do hold findings to compare


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_matchers_agree_on_any_chunking(
    library: Library, indexes: tuple[AnchorIndex, AnchorIndex], data: st.DataObject
) -> None:
    fast, plain = indexes
    pool = [p.examples.match[0] for p in library.patterns if p.examples.match] + ["noise", "x" * 300]
    text = "\n".join(data.draw(st.lists(st.sampled_from(pool), min_size=1, max_size=40)))
    chunk = data.draw(st.integers(min_value=1, max_value=4096))
    accelerated = scan_stream(io.BytesIO(text.encode()), "x.log", fast, chunk_bytes=chunk)
    assert accelerated == scan_stream(io.BytesIO(text.encode()), "x.log", plain)


def every_start(buf: bytes, anchor: bytes, lo: int, hi: int) -> list[int]:
    starts, pos = [], buf.find(anchor, lo, hi)
    while pos != -1:
        starts.append(pos)
        pos = buf.find(anchor, pos + 1, hi)
    return starts


# Few letters, so that anchors overlap each other and themselves (`aba` inside `ababa`,
# `ab` starting inside `bab`): the leftmost-first automaton must still report every start.
small_words = st.binary(min_size=1, max_size=5).map(lambda b: bytes(b"ab\n"[x % 3] for x in b))


@pytest.mark.parametrize("name", COMPILED)
@settings(max_examples=300, deadline=None)
@given(
    anchors=st.lists(small_words, min_size=1, max_size=8, unique=True),
    haystack=st.binary(max_size=200).map(lambda b: bytes(b"ab\n"[x % 3] for x in b)),
    cut=st.tuples(st.integers(0, 200), st.integers(0, 200)),
)
def test_positions_are_every_occurrence(name: str, anchors: list[bytes], haystack: bytes, cut: tuple[int, int]) -> None:
    if importlib.util.find_spec({"hyperscan": "hyperscan", "ahocorasick": "ahocorasick_rs"}[name]) is None:
        pytest.skip(f"{name} is not installed")
    matcher = accel.load(anchors, name)
    assert matcher is not None and matcher.name == name
    lo, hi = min(cut), min(max(cut), len(haystack))
    found = matcher.positions(haystack, lo, hi)
    assert found == [every_start(haystack, anchor, lo, hi) for anchor in anchors]


@settings(max_examples=200, deadline=None)
@given(
    anchors=st.lists(small_words, min_size=1, max_size=8, unique=True),
    haystacks=st.lists(st.binary(max_size=120).map(lambda b: bytes(b"ab\n"[x % 3] for x in b)), min_size=1, max_size=4),
    build_at=st.integers(0, 100),
)
def test_a_deferred_matcher_finds_every_occurrence_before_and_after_it_is_built(
    anchors: list[bytes], haystacks: list[bytes], build_at: int
) -> None:
    """A run's matcher is built once the regions searched reach `build_at` bytes in all (many small
    files are a large input): the regions before it are searched by passes of bytes.find, the rest
    by the matcher, each exactly."""
    matcher = accel.deferred(anchors, accel.AUTO, build_at)
    if matcher is None:
        pytest.skip("no compiled matcher is installed")
    searched = 0
    for haystack in haystacks:
        found = matcher.positions(haystack, 0, len(haystack))
        assert found == [every_start(haystack, anchor, 0, len(haystack)) for anchor in anchors]
        searched += len(haystack)
        assert (matcher.built is not None) == (searched >= build_at)  # type: ignore[attr-defined]
    assert matcher.name == accel.installed()


def test_a_run_on_a_small_input_builds_no_matcher(library: Library, tmp_path: Path) -> None:
    """A one-line log is searched by bytes.find passes: its run neither imports nor builds a compiled
    matcher (~3.5 ms with hyperscan); a larger input builds the one `auto` picks."""
    index = AnchorIndex.build(library, accel.AUTO, accel.BUILD_AT)
    if index.fast is None:
        pytest.skip("no compiled matcher is installed")
    line = b"[2026-07-02 10:16:42 DP0 TP3 EP0] Decode batch. #running-req: 6, #token: 11224, cuda graph: True\n"
    small = scan_stream(io.BytesIO(line), "decode.log", index)
    assert index.fast.built is None  # type: ignore[attr-defined]
    large = scan_stream(io.BytesIO(line * 400), "decode.log", index)
    assert index.fast.built is not None and index.matcher == accel.installed()  # type: ignore[attr-defined]
    assert (small.lines, large.lines) == (1, 400)


def test_a_parallel_scan_builds_the_matcher_once_before_forking(
    library: Library, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The workers inherit the parent's built matcher instead of each building one after the fork."""
    from pdlogdoctor.scan import parallel

    index = AnchorIndex.build(library, accel.AUTO, accel.BUILD_AT)
    if index.fast is None:
        pytest.skip("no compiled matcher is installed")
    started: list[bool] = []

    def start(context: object, index: AnchorIndex, *args: object) -> object:
        started.append(index.fast.built is not None)  # type: ignore[union-attr]
        return real_start(context, index, *args)  # type: ignore[arg-type]

    real_start = parallel._start_worker
    monkeypatch.setattr(parallel, "_start_worker", start)
    monkeypatch.setattr(parallel, "MIN_RANGE_BYTES", 1 << 16)
    path = tmp_path / "decode.log"
    path.write_bytes(b"[2026-07-02 10:16:42 TP0] Decode batch. #running-req: 6, #token: 11224\n" * 4000)
    result = parallel.scan_file_parallel(str(path), "decode.log", index, 2)
    assert result.lines == 4000 and started == [True]


def test_groups_of_keys_are_searched_apart_and_still_complete(monkeypatch: pytest.MonkeyPatch) -> None:
    """Keys spread over several automata (the SIMD path takes at most AHO_GROUP): hits of each."""
    if importlib.util.find_spec("ahocorasick_rs") is None:
        pytest.skip("ahocorasick-rs is not installed")
    monkeypatch.setattr(accel, "AHO_GROUP", 2)
    anchors = [b"alpha", b"beta", b"gamma", b"phab", b"ta g"]
    matcher = accel.load(anchors, "ahocorasick")
    assert matcher is not None
    assert len(matcher.automata) == 3  # type: ignore[attr-defined]
    text = b"alphabeta gamma; betalpha"
    assert matcher.positions(text, 0, len(text)) == [every_start(text, a, 0, len(text)) for a in anchors]


def test_the_fastest_installed_matcher_is_chosen(library: Library) -> None:
    index = AnchorIndex.build(library)
    assert index.matcher == accel.installed()
    assert AnchorIndex.build(library, accel.PURE).fast is None
    with pytest.raises(ValueError, match="unknown matcher"):
        accel.check("grep")


def test_keys_shorter_than_the_fingerprint_get_automata_of_their_own() -> None:
    """Two-byte keys (glog's `E0`, `F1`) sit in an automaton apart from the longer keys (mixed in,
    they would slow every key's search), and every occurrence of every key is still reported."""
    if importlib.util.find_spec("ahocorasick_rs") is None:
        pytest.skip("ahocorasick-rs is not installed")
    anchors = [b"E0", b"Failed", b"F1", b"rror", b"E0729 x"]
    matcher = accel.load(anchors, "ahocorasick")
    assert matcher is not None
    assert [numbers for _, numbers in matcher.automata] == [[0, 2], [1, 3, 4]]  # type: ignore[attr-defined]
    text = b"F1222 E0729 x Failed; E0729 xrror F1"
    assert matcher.positions(text, 0, len(text)) == [every_start(text, a, 0, len(text)) for a in anchors]


def test_anchors_wanted_once_are_told_by_their_first_occurrence_in_the_same_pass() -> None:
    """A sampled metrics anchor is wanted once per region (does the region hold it, where first):
    hyperscan reports its first occurrence and no more; the other matchers leave it out, and the
    searcher looks for it with bytes.find (test_every_fixture_scans_identically covers the scan)."""
    anchors, once = [b"alpha", b"beta"], [b"Decode batch", b"gamma", b"absent"]
    text = b"x Decode batch alpha; Decode batch beta gamma; gamma Decode batch"
    for name in COMPILED:
        if importlib.util.find_spec(accel._MODULES[name]) is None:
            continue
        found = accel.load(anchors, name, once)
        assert found is not None
        for lo, hi in ((0, len(text)), (3, len(text) - 4), (20, 40)):
            positions = found.positions(text, lo, hi)
            assert positions[:2] == [every_start(text, a, lo, hi) for a in anchors]
            if name != "hyperscan":
                assert len(positions) == len(anchors)
                continue
            for anchor, reported in zip(once, positions[2:], strict=True):
                first = text.find(anchor, lo, hi)
                assert reported == ([] if first == -1 else [first])
