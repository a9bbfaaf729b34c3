"""A report where nothing failed still shows what the lines hold: where each log ends, and the
warnings no pattern names (quiet.py). Lines are real ones (Mooncake#257, nixl#503, sglang#12688),
reordered and mixed with noise."""

from __future__ import annotations

import gzip
import io
import json
import pickle
from dataclasses import replace
from pathlib import Path

import jsonschema
import pytest

from pdlogdoctor.cli.behaviour import exit_code_for
from pdlogdoctor.library.errorlines import check_layer
from pdlogdoctor.library.load import load_library
from pdlogdoctor.library.patterns import Library
from pdlogdoctor.model import Severity
from pdlogdoctor.model.options import RunOptions
from pdlogdoctor.pipeline import run
from pdlogdoctor.render.document import report_document
from pdlogdoctor.render.html import html_report
from pdlogdoctor.render.json_format import schema_text
from pdlogdoctor.render.markdown import markdown_report
from pdlogdoctor.render.options import RenderOptions
from pdlogdoctor.render.text import render
from pdlogdoctor.scan import accel

NO_RDMA = "W20250516 09:00:52.240088 45697 topology.cpp:55] **No RDMA devices found, check your device installation**"
FORKED = (
    "huggingface/tokenizers: The current process just got forked, after parallelism has already been used. "
    "Disabling parallelism to avoid deadlocks..."
)
STARTING = [
    "I20250516 09:00:52.199445 45697 transfer_engine.cpp:44] Transfer Engine starting. Server: 10.8.59.192, "
    "Metadata: P2PHANDSHAKE, ip_or_host_name: , rpc_port: 0",
    NO_RDMA,
    FORKED,
    "I20250516 09:00:52.240238 45697 tcp_transport.cpp:241] **TcpTransport: listen on port 16218**",
    "[2025-06-26 02:04:09] Start of prefill warmup ...",
    "[2025-06-26 02:04:09] FakeKVSender init with kv_indices: 4, aux_index: 0",
]


def _write(path: Path, lines: list[str]) -> Path:
    path.write_text("\n".join(lines) + "\n\n")  # a blank line at the end is not where it ends
    return path


def test_nothing_failed_shows_where_the_log_ends_and_its_warnings(tmp_path: Path, library: Library) -> None:
    report = run([str(_write(tmp_path / "prefill.log", STARTING))], library)
    assert report.verdict.id == "no-failure-seen" and int(exit_code_for(report)) == 3
    assert [(end.line, end.text) for end in report.log_ends] == [(6, STARTING[-1])]
    # The four lines above the last are shown with it, in order: what led to where it stops.
    assert [(line.line, line.text, line.distance) for line in report.log_ends_above] == [
        (2 + at, text, 4 - at) for at, text in enumerate(STARTING[1:5])
    ]
    warnings = [(item.first.line, item.severity) for item in report.unrecognised]
    assert warnings == [(2, Severity.WARNING)]  # the tokenizers line states no level: not a warning
    terminal = io.StringIO()
    render(report, terminal, RenderOptions(redact=False, verbose=True))
    markdown = markdown_report(report, RenderOptions(redact=False))
    for body in (terminal.getvalue(), markdown):
        assert "Unrecognised warnings" in body and "Where the logs end" in body
        assert "No RDMA devices found, check your device installation" in body
        assert "FakeKVSender init with kv_indices: 4, aux_index: 0" in body
        warnings_part, _, ends_part = body.partition("Where the logs end")
        assert "got forked" not in warnings_part  # not a warning: shown only as a line above the end
        assert ends_part.index("got forked") < ends_part.index("FakeKVSender init")
    page = html_report(report, RenderOptions(redact=False))
    assert "Where the logs end" in page and "FakeKVSender init with kv_indices: 4, aux_index: 0" in page
    assert "a warning line no pattern of the library names" in page
    jsonschema.validate(json.loads(json.dumps(report_document(report))), json.loads(schema_text()))


@pytest.mark.parametrize(
    "prefix", ["", "2026-07-01T12:00:00.1234567Z ", "prefill-1  | "], ids=["bare", "actions-stamp", "compose"]
)
def test_a_prefixed_glog_warning_is_shown_as_the_bare_one_is(tmp_path: Path, library: Library, prefix: str) -> None:
    """A CI runner's stamp or a collector's prefix before each line hides no warning."""
    report = run([str(_write(tmp_path / "prefill.log", [prefix + line for line in STARTING]))], library)
    assert report.verdict.id == "no-failure-seen"
    warnings = [(item.first.line, item.severity, item.first.text) for item in report.unrecognised]
    assert warnings == [(2, Severity.WARNING, NO_RDMA)]


def test_the_warning_regexes_are_compiled_only_for_a_line_holding_a_key(tmp_path: Path) -> None:
    """A quiet log whose lines hold no warning key compiles no warning marker's regex (start-up);
    one that holds one reports its warning (a glog W line: its format says the level)."""
    library = pickle.loads(pickle.dumps(load_library()))  # as from the cache: its regexes not compiled yet
    assert library.errors is not None
    regexes = [marker.regex for marker in library.errors.warnings if marker.regex is not None]
    calm = run([str(_write(tmp_path / "prefill.log", ["2026-07-01 12:00:00 INFO server started"]))], library)
    assert calm.verdict.id == "no-failure-seen" and not calm.unrecognised
    assert regexes and all(regex._compiled is None for regex in regexes)
    warned = run([str(_write(tmp_path / "decode.log", STARTING))], library)
    assert [item.first.line for item in warned.unrecognised] == [2]


def test_each_log_ends_on_its_own_line(tmp_path: Path, library: Library) -> None:
    prefill = _write(tmp_path / "prefill.log", STARTING[:2])
    decode = _write(tmp_path / "decode.log", STARTING[4:])
    report = run([str(prefill), str(decode)], library)
    assert {(Path(end.source).name, end.line) for end in report.log_ends} == {("prefill.log", 2), ("decode.log", 2)}


def test_a_failure_report_has_no_log_ends(tmp_path: Path, library: Library) -> None:
    failing = "E0729 05:04:30.527725 14093 rdma_endpoint.cpp:70] Failed to create QP: Cannot allocate memory [12]"
    report = run([str(_write(tmp_path / "decode.log", [*STARTING, failing]))], library)
    assert report.verdict.id != "no-failure-seen"
    assert report.log_ends == ()
    assert all(item.severity is not Severity.WARNING or item.marker == "nccl-warn" for item in report.unrecognised)


def test_stdin_cannot_be_read_again_and_still_reports(library: Library) -> None:
    stdin = io.BytesIO(("\n".join(STARTING) + "\n").encode())
    report = run(["-"], library, stdin=stdin)
    assert report.verdict.id == "no-failure-seen"
    assert report.log_ends == () and report.unrecognised == ()


def test_a_file_set_aside_as_not_a_serving_log_shows_no_end(tmp_path: Path, library: Library) -> None:
    prefill = _write(tmp_path / "prefill.log", STARTING)
    notes = _write(tmp_path / "notes.txt", ["def warmup(self):", "    # WARNING: keep this short", "    return 1"])
    report = run([str(prefill), str(notes)], library)
    assert report.verdict.id == "no-failure-seen"
    assert [Path(end.source).name for end in report.log_ends] == ["prefill.log"]
    assert all(Path(item.first.source).name == "prefill.log" for item in report.unrecognised)


def test_line_numbers_hold_across_read_chunks(tmp_path: Path, library: Library) -> None:
    filler = STARTING[4].replace("Start of prefill warmup ...", "Prefill batch. #new-seq: 1, #new-token: 4" + " " * 60)
    lines = [filler] * 60_000 + [NO_RDMA, "", filler, NO_RDMA.replace("W2025", "I2025"), STARTING[-1]]  # > 4 MiB
    report = run([str(_write(tmp_path / "prefill.log", lines))], library)
    assert [item.first.line for item in report.unrecognised] == [60_001]
    assert [end.line for end in report.log_ends] == [60_005]


ENDINGS = {  # how a plain file may end: (its bytes after the STARTING lines, the end line expected)
    "newline": (b"", 6),
    "blank lines and spaces": (b"  \n\t\n\n   ", 6),
    "no newline": (b"[2025-06-26 02:04:10] Prefill batch. #new-seq: 1", 7),
    "crlf": (b"[2025-06-26 02:04:10] Prefill batch. #new-seq: 1\r\n\r\n", 7),
    "lone crs": (b"Capturing batches (bs=8): 10%\rCapturing batches (bs=8): 100%\r", 7),  # one line
}


@pytest.mark.parametrize("ending", ENDINGS)
def test_a_plain_file_read_from_its_end_ends_where_the_same_log_compressed_does(
    tmp_path: Path, library: Library, ending: str
) -> None:
    """A plain file's last line is read backwards from its end and numbered from the scan's count;
    a gzip copy is read forwards (quiet.py): both must name the same line, past a read block."""
    tail, line = ENDINGS[ending]
    filler = STARTING[4].replace("Start of prefill warmup ...", "Prefill batch. #new-seq: 1, #new-token: 4")
    body = ("\n".join([*STARTING, *[filler] * 2_000]) + "\n").encode()  # > TAIL_BLOCK: several blocks back
    plain, packed = tmp_path / "plain" / "prefill.log", tmp_path / "packed" / "prefill.log.gz"
    for path in (plain, packed):
        path.parent.mkdir()
    plain.write_bytes(body + tail)
    packed.write_bytes(gzip.compress(body + tail))
    ends = [run([str(path)], library).log_ends for path in (plain, packed)]
    assert [(end.line, end.text) for end in ends[0]] == [(end.line, end.text) for end in ends[1]]
    assert [end.line for end in ends[0]] == [2_000 + line]


@pytest.mark.parametrize("matcher", accel.MATCHERS)
def test_every_matcher_finds_the_same_warnings(tmp_path: Path, library: Library, matcher: str) -> None:
    """The warning keys are found by the compiled matcher when one is installed, by bytes.find
    otherwise; a line holding a key but no warning (a W in a request id) is no warning."""
    if matcher != accel.PURE and accel.installed(matcher) != matcher:
        pytest.skip(f"{matcher} is not installed")
    lines = [
        *STARTING,
        '[2025-06-26 02:04:11] INFO:     10.0.0.7:51234 - "POST /generate?rid=W0a1 HTTP/1.1" 200 OK',
        "[rank3]:[W908 08:39:25.154812319 ProcessGroupNCCL.cpp:4454] Warning: TORCH_NCCL_AVOID_RECORD_STREAMS is "
        "the default now",
        "[2025-11-05 16:38:03] WARNING:  Invalid HTTP request received.",
    ]
    report = run([str(_write(tmp_path / "prefill.log", lines))], library, options=RunOptions(matcher=matcher))
    assert sorted((item.first.line, item.marker) for item in report.unrecognised) == [
        (2, "glog-warning"),
        (8, "torch-rank-warning"),
        (9, "level-warning"),
    ]


def test_a_warning_example_no_key_finds_is_reported(library: Library) -> None:
    assert library.errors is not None
    keyless = tuple(replace(m, keys=("NOPE",)) if m.id == "level-warning" else m for m in library.errors.warnings)
    problems = check_layer(replace(library.errors, warnings=keyless))
    assert problems and all("level-warning" in problem and "no key finds" in problem for problem in problems)
