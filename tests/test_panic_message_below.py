"""A Rust panic's text is read with its header (issue 22: a cause in words no pattern knows).

Since Rust 1.73 a panic prints `thread 'main' panicked at src/main.rs:2:5:` and its text on the next
line; Dynamo's frontend and router are Rust. The header alone names only a place; the line below
names the cause (`could not bind to address: 0.0.0.0:8000`, ai-dynamo/dynamo#3587). The severity
marker `panic` (and `panic-mid-line`, for a header printed after another line's text, stdout and
stderr interleaved) reads the next line with it (`message_below`), so the report quotes the text and
its words name the cause. Look-alikes: a next line that starts like a line of its own (a stamped
log line) is not taken in, and a header that names its message on its own line (Rust before 1.73)
reads nothing more.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from pdlogdoctor.model import Report
from pdlogdoctor.pipeline import run

from .conftest import shipped_library

LIBRARY = shipped_library()
HEADER = "thread 'tokio-runtime-worker' panicked at /workspace/lib/llm/src/http/service/service_v2.rs:117:33:"
TEXT = "could not bind to address: 0.0.0.0:8000"
INFO = (
    "2025-08-19T23:44:39.231286Z INFO dynamo_llm::http::service::service_v2: Starting HTTP service on: "
    '0.0.0.0:8000 address="0.0.0.0:8000"'
)
NOTE = "note: run with `RUST_BACKTRACE=1` environment variable to display a backtrace"


def _analysed(tmp_path: Path, lines: list[str]) -> Report:
    (tmp_path / "frontend.log").write_text("".join(f"{line}\n" for line in lines))
    return run([str(tmp_path)], LIBRARY)


@pytest.mark.parametrize(
    "lines",
    [
        [INFO, HEADER, TEXT, NOTE],  # Rust 1.73 and later: the text under its header
        [
            f"{INFO} thread 'tokio-runtime-worker' panicked at",
            f"{HEADER.split(' at ', 1)[1]} {TEXT}",
            NOTE,
        ],  # interleaved
    ],
    ids=["header-then-text", "header-after-an-info-line"],
)
def test_the_panic_is_read_with_its_text(tmp_path: Path, lines: list[str]) -> None:
    report = _analysed(tmp_path, lines)
    assert report.verdict.id == "bind-failed", report.verdict.summary
    assert report.verdict.confidence < 0.5  # named by words alone: a lead
    assert TEXT in report.verdict.summary
    lead = report.unrecognised[0]
    assert lead.severity.value == "critical" and "could not bind to address" in lead.template


def test_a_line_of_its_own_below_the_header_is_not_its_text(tmp_path: Path) -> None:
    stamped = "2025-08-19T23:44:40.000000Z ERROR dynamo_runtime::worker: could not bind to address: 0.0.0.0:8000"
    report = _analysed(tmp_path, [INFO, HEADER, stamped])
    panic = next(t for t in report.unrecognised if "panicked at" in t.template)
    assert "could not bind" not in panic.template


def test_a_header_that_holds_its_message_reads_nothing_more(tmp_path: Path) -> None:
    old = "thread 'main' panicked at 'called `Option::unwrap()` on a `None` value', src/main.rs:4:37"
    report = _analysed(tmp_path, [old, TEXT, NOTE])
    panic = next(t for t in report.unrecognised if "panicked at" in t.template)
    assert "could not bind" not in panic.template
    # The line below is read on its own (the could-not marker, session 28): a line of its own, not the
    # panic's text.
    assert any(t.template.startswith("could not bind") and t is not panic for t in report.unrecognised)
