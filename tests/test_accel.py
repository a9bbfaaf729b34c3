"""pdlogdoctor[fast] finds exactly what the pure-Python scanner finds, on every fixture."""

from __future__ import annotations

import io
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pdlogdoctor.extract import AnchorIndex, scan_stream
from pdlogdoctor.ingest import discover
from pdlogdoctor.patterns import Library

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"


@pytest.fixture(scope="module")
def indexes(library: Library) -> tuple[AnchorIndex, AnchorIndex]:
    fast = AnchorIndex.build(library)
    if fast.fast is None:
        pytest.skip("pdlogdoctor[fast] (hyperscan) is not installed")
    return fast, replace(fast, fast=None)


def fixture_streams() -> list[tuple[str, bytes]]:
    streams = []
    for log_input in discover([str(FIXTURES)]):
        if log_input.open is None:
            continue
        with log_input.open() as stream:
            streams.append((log_input.name, stream.read()))
    return streams


def test_every_fixture_scans_identically(indexes: tuple[AnchorIndex, AnchorIndex]) -> None:
    fast, plain = indexes
    streams = fixture_streams()
    assert len(streams) > 10
    events = 0
    for name, data in streams:
        accelerated = scan_stream(io.BytesIO(data), name, fast)
        reference = scan_stream(io.BytesIO(data), name, plain)
        assert accelerated == reference, name
        events += len(reference.events)
    assert events > 50  # the fixtures do hold findings to compare


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_accelerator_agrees_on_any_chunking(
    library: Library, indexes: tuple[AnchorIndex, AnchorIndex], data: st.DataObject
) -> None:
    fast, plain = indexes
    pool = [p.examples.match[0] for p in library.patterns if p.examples.match] + ["noise", "x" * 300]
    text = "\n".join(data.draw(st.lists(st.sampled_from(pool), min_size=1, max_size=40)))
    chunk = data.draw(st.integers(min_value=1, max_value=4096))
    accelerated = scan_stream(io.BytesIO(text.encode()), "x.log", fast, chunk_bytes=chunk)
    assert accelerated == scan_stream(io.BytesIO(text.encode()), "x.log", plain)
