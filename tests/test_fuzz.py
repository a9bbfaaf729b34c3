"""Property tests for the reader (ingest.text_stream) and the scanner (issue 6, item 5).

Random noise bytes, random line endings, random chunk sizes and random compression
(none/gz/zst, optionally truncated): no exception escapes, and the planted incident
line is always found when it was stored intact. Example counts are bounded so the
module runs in well under 60 s on 2 cores.
"""

from __future__ import annotations

import gzip
import io
import zlib

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from pdlogdoctor import ingest
from pdlogdoctor.ingest.streams import UTF16_SNIFF_BYTES, utf16_encoding
from pdlogdoctor.scan import accel
from pdlogdoctor.scan.index import AnchorIndex
from pdlogdoctor.scan.search import scan_stream

from .conftest import shipped_library, zstd_compress

PLANTED = (
    b"[2026-07-02 10:16:03.412] [48211] [application] [error] RegisterRdmaMemoryRegion failed! "
    b"addr:0x7f2a80000000, size:6002442240, accessFlag:15, errno:22 (Invalid argument)"
)
LIBRARY = shipped_library()
# Every installed matcher: each example draws one, so all of them meet every kind of input.
INDEXES = {name: AnchorIndex.build(LIBRARY, name) for name in accel.MATCHERS if accel.installed(name) == name}
matchers = st.sampled_from(sorted(INDEXES))
pytestmark = pytest.mark.slow  # hundreds of examples per property: the longest module of the suite
FUZZ = settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])

noise_line = st.binary(max_size=200).map(lambda b: b.replace(b"\n", b" ").replace(b"\r", b" "))
ending = st.sampled_from([b"\n", b"\r\n", b"\r"])


def _compress(data: bytes, kind: str) -> bytes:
    if kind == "gz":
        return gzip.compress(data, compresslevel=1)
    if kind == "zst":
        return zstd_compress(data, level=1)
    return data


def _scan(blob: bytes, chunk: int, matcher: str = accel.PURE) -> list[int]:
    stream = ingest.text_stream(io.BytesIO(blob), ingest.Budget())
    result = scan_stream(stream, "prefill_fuzz.log", INDEXES[matcher], chunk_bytes=chunk)
    return [int(e.get("size")) for e in result.events if e.pattern == "mori-mr-register-failed"]


@FUZZ
@given(
    before=st.lists(noise_line, max_size=30),
    after=st.lists(noise_line, max_size=30),
    ends=st.lists(ending, min_size=1, max_size=4),
    kind=st.sampled_from(["none", "gz", "zst"]),
    chunk=st.integers(min_value=1, max_value=4096),
    matcher=matchers,
)
def test_planted_line_always_found(
    before: list[bytes], after: list[bytes], ends: list[bytes], kind: str, chunk: int, matcher: str
) -> None:
    lines = [*before, PLANTED, *after]
    data = b"".join(line + ends[i % len(ends)] for i, line in enumerate(lines))
    assert 6002442240 in _scan(_compress(data, kind), chunk, matcher)


@FUZZ
@given(blob=st.binary(max_size=4096), chunk=st.integers(min_value=1, max_value=1024), matcher=matchers)
def test_random_bytes_never_raise(blob: bytes, chunk: int, matcher: str) -> None:
    _scan(blob, chunk, matcher)
    _scan(gzip.compress(blob)[: max(1, len(blob) // 2)], chunk, matcher)  # truncated gz of random bytes
    _scan(b"\x1f\x8b" + blob, chunk, matcher)  # gzip magic then garbage
    _scan(b"\x28\xb5\x2f\xfd" + blob, chunk, matcher)  # zstd magic then garbage


@FUZZ
@given(
    kind=st.sampled_from(["gz", "zst"]),
    cut=st.floats(min_value=0.0, max_value=1.0),
    chunk=st.integers(min_value=1, max_value=4096),
    matcher=matchers,
)
def test_truncated_compression_keeps_what_it_can(kind: str, cut: float, chunk: int, matcher: str) -> None:
    noise = b"".join(b"INFO line %d %x\n" % (k, (k * 2654435761) % 2**32) for k in range(3000))
    data = PLANTED + b"\n" + noise
    packed = _compress(data, kind)
    blob = packed[: int(len(packed) * cut)]
    # Fewer than 4 bytes cannot show their magic: such a stub is read as (binary) text.
    assume(len(blob) >= 4)
    stream = ingest.text_stream(io.BytesIO(blob), ingest.Budget())
    result = scan_stream(stream, "prefill_fuzz.log", INDEXES[matcher], chunk_bytes=chunk)
    assert result.bytes <= len(data)
    assert data.startswith(_read_all(blob)[: result.bytes])
    if cut < 1.0 and blob:
        assert result.problems or result.bytes == len(data)


def _read_all(blob: bytes) -> bytes:
    stream = ingest.text_stream(io.BytesIO(blob), ingest.Budget())
    parts = []
    try:
        while data := stream.read(997):
            parts.append(data)
    except EOFError:
        pass
    return b"".join(parts)


@FUZZ
@given(data=st.binary(max_size=2048), piece=st.integers(min_value=1, max_value=64))
def test_the_text_stream_hands_plain_bytes_on_as_they_are(data: bytes, piece: int) -> None:
    """CRs included (a lone CR is text: lines end at LF), whatever the read sizes."""
    assume(not data.startswith((b"\x1f\x8b", b"\x28\xb5\x2f\xfd")))
    assume(utf16_encoding(data[:UTF16_SNIFF_BYTES]) is None)  # UTF-16 text is read as UTF-8: below
    stream = ingest.text_stream(io.BytesIO(data), ingest.Budget())
    parts = []
    while chunk := stream.read(piece):
        parts.append(chunk)
    assert b"".join(parts) == _read_all(data) == data


printable_ascii = st.text(st.characters(min_codepoint=0x20, max_codepoint=0x7E), min_size=260, max_size=300)


@FUZZ
@given(
    head=printable_ascii,
    rest=st.text(st.characters(blacklist_categories=("Cs",)), max_size=400),
    codec=st.sampled_from(["utf-16", "utf-16-le", "utf-16-be"]),
    piece=st.integers(min_value=1, max_value=64),
)
def test_a_utf16_stream_reads_as_its_text_in_utf8(head: str, rest: str, codec: str, piece: int) -> None:
    """A log line's worth of ASCII, then any text, written as UTF-16 with a byte-order mark
    (`utf-16` writes one) or without: the same text, as UTF-8, whatever the read sizes."""
    text = f"{head} \n{rest}"
    stream = ingest.text_stream(io.BytesIO(text.encode(codec)), ingest.Budget())
    parts = []
    while chunk := stream.read(piece):
        parts.append(chunk)
    assert b"".join(parts) == text.encode("utf-8")


cr_noise = st.lists(st.binary(max_size=80).map(lambda b: bytes(b"x\r "[x % 3] for x in b)), max_size=20)


@FUZZ
@given(before=cr_noise, after=cr_noise, chunk=st.integers(min_value=1, max_value=4096), matcher=matchers)
def test_a_line_number_counts_line_feeds_only(
    before: list[bytes], after: list[bytes], chunk: int, matcher: str
) -> None:
    """Lone CRs (progress-bar redraws) anywhere in the lines before and after: the planted line
    keeps the number grep -n gives it, and its text is its own line."""
    data = b"\n".join([*before, PLANTED, *after])
    stream = ingest.text_stream(io.BytesIO(data), ingest.Budget())
    result = scan_stream(stream, "prefill_fuzz.log", INDEXES[matcher], chunk_bytes=chunk)
    [event] = [e for e in result.events if e.pattern == "mori-mr-register-failed"]
    assert event.line == len(before) + 1
    assert event.text.encode() == PLANTED


def test_zlib_is_really_what_gzip_uses() -> None:
    # guards the wbits=31 assumption of ingest.streams._Inflater
    assert zlib.decompressobj(wbits=31).decompress(gzip.compress(b"x")) == b"x"
