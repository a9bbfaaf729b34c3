"""An error no pattern names, after the last line of its file that shows the deployment serving,
is failure evidence when no end-to-end result vouches for the run (issue 22, round 11): a paste
whose server came up, then whose Mooncake transfer engine could not fetch its peer's segment
descriptor, is not healthy. The look-alike: the same error before the server came up and served.

An answered request vouches for nothing before it either (round 12): vllm-ascend's Mooncake
transfer failed, then the request came back `200 OK` with garbage; only a start-up after an error
(the server came up after it) or an end-to-end result sets it aside.

The lines are the round 11 blind tester's excerpt (tests/data/blind-round11-excerpts-a/03-...),
verbatim from sglang PR 4880's thread.
"""

from __future__ import annotations

from pathlib import Path

from pdlogdoctor.library.patterns import Library
from pdlogdoctor.pipeline import run

PASTE = (
    Path(__file__).parent / "data" / "blind-round11-excerpts-a" / "03-mooncake-metadata-segment-not-found" / "paste.txt"
)
METADATA_404 = "response code: 404 response body: metadata not found"


def _paste(tmp_path: Path, lines: list[str]) -> Path:
    path = tmp_path / "paste.txt"
    path.write_text("".join(lines))
    return path


def test_an_error_after_the_last_serving_line_of_its_file_is_not_healthy(tmp_path: Path, library: Library) -> None:
    report = run([str(_paste(tmp_path, PASTE.read_text().splitlines(keepends=True)))], library)
    assert report.verdict.id == "inconclusive", report.verdict.summary
    assert METADATA_404 in report.verdict.summary, report.verdict.summary


def test_the_same_error_before_the_server_came_up_does_not_stop_it_being_healthy(
    tmp_path: Path, library: Library
) -> None:
    lines = PASTE.read_text().splitlines(keepends=True)
    ready, rest = lines[0], lines[1:]
    report = run([str(_paste(tmp_path, [*rest, ready]))], library)
    assert report.verdict.id == "healthy", report.verdict.summary
    assert any(METADATA_404 in note for note in report.notes), report.notes


ASCEND = Path(__file__).parent / "data" / "blind-round12-excerpts-b" / "05-ascend-adxl-connect-503900" / "paste.txt"
# The earliest error leads (the connection the transfer needed, refused with CANN's 503900), not the
# worker's exception below it with other errors between: reason/unexplained._exception_of.
CONNECT_FAILED = "Failed to connect to target: 10.196.186.72:20064, status: 503900"


def test_an_error_before_an_answered_request_is_not_vouched_for_by_it(tmp_path: Path, library: Library) -> None:
    lines = ASCEND.read_text().splitlines(keepends=True)
    assert '"POST /v1/chat/completions HTTP/1.1" 200 OK' in lines[-1]
    report = run([str(_paste(tmp_path, lines))], library)
    assert report.verdict.id == "inconclusive", report.verdict.summary
    assert CONNECT_FAILED in report.verdict.summary, report.verdict.summary


def test_an_error_a_later_start_up_followed_is_still_set_aside(tmp_path: Path, library: Library) -> None:
    """The look-alike: the same failure, then the server came up (sglang's ready line) and answered."""
    lines = ASCEND.read_text().splitlines(keepends=True)
    ready = PASTE.read_text().splitlines(keepends=True)[0]
    report = run([str(_paste(tmp_path, [*lines[:-1], ready, lines[-1]]))], library)
    assert report.verdict.id == "healthy", report.verdict.summary
