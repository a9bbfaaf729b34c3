"""Many small files (issue 26): what a run over them keeps is smaller, and it says the same.

The benchmark's `files` bundle (benchmarks/dense.py) is the seed incident beside small files of
real corpus lines. Events with equal fields share one tuple (events.shared_fields) and the cyclic
collector is paused while the inputs are scanned (pipeline.collector_paused); the reference for
each is the run with it turned off.
"""

from __future__ import annotations

import gc
import io
from pathlib import Path

import pytest

from benchmarks.dense import generate_files
from pdlogdoctor import pipeline
from pdlogdoctor.library.patterns import Library
from pdlogdoctor.model import OutputFormat, Report
from pdlogdoctor.render import render
from pdlogdoctor.scan import events
from pdlogdoctor.scan.events import shared_fields


@pytest.fixture(scope="module")
def small_files(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return generate_files(tmp_path_factory.mktemp("files"), count=300)


def _outputs(report: Report) -> dict[OutputFormat, str]:
    found = {}
    for kind in (OutputFormat.JSON, OutputFormat.TEXT, OutputFormat.MARKDOWN):
        out = io.StringIO()
        render(report, kind, out)
        found[kind] = out.getvalue()
    return found


def test_shared_fields_change_no_report(small_files: Path, library: Library, monkeypatch: pytest.MonkeyPatch) -> None:
    shared = pipeline.analyse([str(small_files)], library)
    monkeypatch.setattr(events, "shared_fields", lambda fields: fields)
    alone = pipeline.analyse([str(small_files)], library)
    assert _outputs(shared.report) == _outputs(alone.report)
    assert shared.events == alone.events  # the same fields, line by line
    assert shared.report.verdict.id == alone.report.verdict.id
    assert [e.where for e in shared.report.chain] == [e.where for e in alone.report.chain]  # the same cited lines
    kept = [e.fields for e in shared.events if e.fields]
    assert len({id(f) for f in kept}) < len(kept)  # equal fields are one object
    assert len({id(e.fields) for e in alone.events if e.fields}) > len({id(f) for f in kept})


def test_shared_fields_keep_each_value_its_type() -> None:
    """1, 1.0 and True are equal to Python, 0.0 and -0.0 too; a report writes each as read."""
    made = [(("n", 1),), (("n", 1.0),), (("n", True),), (("n", 0.0),), (("n", -0.0),)]
    for fields in made:
        shared_fields(fields)
    for fields in made:
        again = shared_fields(tuple(fields))
        assert [type(value) for _, value in again] == [type(value) for _, value in fields]
        assert [str(value) for _, value in again] == [str(value) for _, value in fields]
    first = (("test-small-files", 0), ("status", "ok"))
    assert shared_fields(first) is first
    assert shared_fields((("test-small-files", 0), ("status", "ok"))) is first


def test_the_collector_is_paused_only_while_scanning(small_files: Path, library: Library) -> None:
    assert gc.isenabled()
    with pipeline.collector_paused():
        assert not gc.isenabled()
    assert gc.isenabled()
    gc.disable()
    try:
        with pipeline.collector_paused():
            pass
        assert not gc.isenabled()  # as it was
    finally:
        gc.enable()
    pipeline.analyse([str(small_files)], library)
    assert gc.isenabled()
