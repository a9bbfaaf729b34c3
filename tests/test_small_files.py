"""Many small files (issue 26): what a run over them keeps is smaller, and it says the same.

The benchmark's `files` bundle (benchmarks/dense.py) is the seed incident beside small files of
real corpus lines. Events with equal fields share one tuple (events.shared_fields), and a file's
search looks only at the anchors the matcher found in it (search._searched); the reference for
each is the run without it.
"""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from benchmarks.dense import generate_files
from pdlogdoctor import pipeline
from pdlogdoctor.library.patterns import Library
from pdlogdoctor.model import OutputFormat, Report, Role
from pdlogdoctor.render import render
from pdlogdoctor.scan import accel, events, search
from pdlogdoctor.scan.events import shared_fields
from pdlogdoctor.scan.index import AnchorIndex
from pdlogdoctor.scan.search import scan_stream


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


@pytest.mark.parametrize("matcher", [m for m in accel.MATCHERS if m != accel.PURE and accel.installed(m) == m])
def test_only_the_anchors_the_matcher_found_are_looked_at(
    small_files: Path, library: Library, matcher: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`_find_lines` walks the anchors a region holds (and the sampled ones), not all of them:
    each file scans to what the walk over every anchor finds."""
    index = AnchorIndex.build(library, matcher)  # built now: every file, however small, is searched by it
    files = sorted(small_files.iterdir())[:120]

    def scans() -> list[tuple[object, ...]]:
        found = []
        for path in files:
            with path.open("rb") as stream:
                result = scan_stream(stream, path.name, index)
            found.append((result.events, result.lines, result.series.series(path.name, Role.UNKNOWN, None)))
        return found

    walked = scans()
    monkeypatch.setattr(search, "_searched", lambda hits, index: range(len(index.by_anchor)))
    assert walked == scans()
    assert sum(len(events) for events, _, _ in walked) > len(files)  # the files' lines were found
