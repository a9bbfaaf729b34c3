"""A report where nothing failed still shows what the lines hold: where each log ends, and the
warnings no pattern names (quiet.py). Lines are real ones (Mooncake#257, nixl#503, sglang#12688),
reordered and mixed with noise."""

from __future__ import annotations

import io
import json
from pathlib import Path

import jsonschema

from pdlogdoctor.cli import exit_code_for
from pdlogdoctor.model import Severity
from pdlogdoctor.patterns import Library
from pdlogdoctor.pipeline import run
from pdlogdoctor.render.document import report_document
from pdlogdoctor.render.html import html_report
from pdlogdoctor.render.json_format import schema_text
from pdlogdoctor.render.markdown import markdown_report
from pdlogdoctor.render.options import RenderOptions
from pdlogdoctor.render.text import render

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
    warnings = [(item.first.line, item.severity) for item in report.unrecognised]
    assert warnings == [(2, Severity.WARNING)]  # the tokenizers line states no level: not a warning
    terminal = io.StringIO()
    render(report, terminal, RenderOptions(redact=False, verbose=True))
    markdown = markdown_report(report, RenderOptions(redact=False))
    for body in (terminal.getvalue(), markdown):
        assert "Unrecognised warnings" in body and "Where the logs end" in body
        assert "No RDMA devices found, check your device installation" in body
        assert "FakeKVSender init with kv_indices: 4, aux_index: 0" in body
        assert "got forked" not in body
    page = html_report(report, RenderOptions(redact=False))
    assert "Where the logs end" in page and "FakeKVSender init with kv_indices: 4, aux_index: 0" in page
    assert "a warning line no pattern of the library names" in page
    jsonschema.validate(json.loads(json.dumps(report_document(report))), json.loads(schema_text()))


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
