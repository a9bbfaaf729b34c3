"""Rotated segments of one log (`decode.log.2.gz`, `decode.log.1`, `decode.log`) are one node's one
stream on one clock, while every quoted line keeps its real file and line."""

from __future__ import annotations

import gzip
from collections.abc import Mapping
from pathlib import Path

from pdlogdoctor.ingest.rotation import per_file, rotation_order, segment_of, streams
from pdlogdoctor.model import ClockOffset, Report
from pdlogdoctor.render.markdown import markdown_report
from pdlogdoctor.render.options import RenderOptions
from pdlogdoctor.scan.roles import node_from_name
from pdlogdoctor.scan.timeline import clean_line

from .conftest import FIXTURES
from .corpus import case_report

BUNDLE = FIXTURES / "rotated-decode-log-one-node-nic"


def test_segments_and_their_ages() -> None:
    assert segment_of("logs.tgz!logs/decode_b07.log.1") == ("logs.tgz!logs/decode_b07.log", 1)
    assert segment_of("/x/decode.log.12.gz") == ("/x/decode.log", 12)
    assert segment_of("/x/decode.log") == ("/x/decode.log", 0)
    assert segment_of("/x/run.2026.log") == ("/x/run.2026.log", 0)  # a number inside the name is no rotation
    names = ["/x/decode.log", "/x/decode.log.2.gz", "/x/decode.log.1"]
    assert sorted(names, key=rotation_order) == ["/x/decode.log.2.gz", "/x/decode.log.1", "/x/decode.log"]


def test_a_stream_goes_by_its_newest_segment_and_lone_files_are_not_streams() -> None:
    named = streams(["/x/decode.log.1", "/x/decode.log", "/x/prefill.log", "/y/decode.log.3", "/y/decode.log.2"])
    assert named == {
        "/x/decode.log.1": "/x/decode.log",
        "/x/decode.log": "/x/decode.log",
        "/y/decode.log.3": "/y/decode.log.2",  # the live file was not given
        "/y/decode.log.2": "/y/decode.log.2",
    }
    assert streams(["/x/decode.log", "/x/prefill.log.1"]) == {}  # a lone `.1` is a file of its own


def test_a_streams_clock_offset_goes_to_each_segment() -> None:
    offset = ClockOffset("/x/decode.log", "/x/router.log", 7200.0, 7200.0, 2, "paired", ("same rid",))
    named = streams(["/x/decode.log.1", "/x/decode.log"])
    spread = per_file([offset], named)
    assert [o.source for o in spread] == ["/x/decode.log.1", "/x/decode.log"]
    assert {(o.correction, o.reference, o.method) for o in spread} == {(7200.0, "/x/router.log", "paired")}


def test_a_rotated_segment_names_the_same_node() -> None:
    assert node_from_name("decode_gpu-c02.log.1") == node_from_name("decode_gpu-c02.log.2.gz") == "gpu-c02"


def test_the_rotated_node_is_one_node_of_the_fleet(bundle_reports: Mapping[Path, Report]) -> None:
    report = bundle_reports[BUNDLE]
    failing = dict(report.verdict.facts)["failing_nodes"]
    assert isinstance(failing, str) and failing.startswith("1 of 2 decode nodes failed")
    assert "decode_gpu-c01.log" in failing and "decode_gpu-c02.log.1" not in failing


def test_all_segments_share_the_clock_measured_on_one(bundle_reports: Mapping[Path, Report]) -> None:
    report = bundle_reports[BUNDLE]
    segments = {Path(o.source).name: o for o in report.clocks if "decode_gpu-c02" in o.source}
    assert sorted(segments) == ["decode_gpu-c02.log", "decode_gpu-c02.log.1", "decode_gpu-c02.log.2.gz"]
    assert {(o.method, o.correction, o.uncertainty) for o in segments.values()} == {("paired", 7200.0, 0.0)}


def test_the_shared_clock_is_said_once_for_the_stream(bundle_reports: Mapping[Path, Report]) -> None:
    """One sentence for the rotated log, naming its live file and how many segments share the clock
    (it was one identical sentence per segment)."""
    notes = [note for note in bundle_reports[BUNDLE].time_notes if "decode_gpu-c02" in note]
    assert len(notes) == 1, notes
    assert "decode_gpu-c02.log (with its 2 rotated segments) clock is 2 h ahead of the router" in notes[0]


def test_quoted_lines_name_their_real_segment_and_line(bundle_reports: Mapping[Path, Report]) -> None:
    report = bundle_reports[BUNDLE]
    quoted = [(e.source, e.line, e.text) for e in report.chain] + [
        (line.source, line.line, line.text) for window in report.excerpt for line in window.lines
    ]
    assert any(Path(source).name == "decode_gpu-c02.log" for source, _, _ in quoted)
    for source, number, text in quoted:
        path = Path(source)
        raw = gzip.decompress(path.read_bytes()).decode() if path.suffix == ".gz" else path.read_text()
        assert clean_line(raw.splitlines()[number - 1])[0] == text, (source, number)


def test_rotated_segments_in_an_archive_are_one_node(case_reports: Mapping[Path, Report]) -> None:
    """A blind tester's tar.gz of a rotated decode log (blind-round4/02): one node, one clock."""
    body = markdown_report(case_report(case_reports, "tests/data/blind-round4/02-"), RenderOptions(redact=False))
    assert "mori-mr-size-limit" in body
    assert "of 2 decode nodes" not in body
    assert "could not be aligned with" not in body
