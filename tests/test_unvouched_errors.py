"""An error no pattern names, after the last line of its file that shows the deployment serving,
is failure evidence when no end-to-end result vouches for the run (issue 22, round 11): a paste
whose server came up, then whose Mooncake transfer engine could not fetch its peer's segment
descriptor, is not healthy. The look-alike: the same error before the server came up and served.

An answered request vouches for nothing before it either (round 12): vllm-ascend's Mooncake
transfer failed, then the request came back `200 OK` with garbage; only a start-up after an error
(the server came up after it) or an end-to-end result sets it aside.

A warning whose words say something failed while the deployment served is held to the same
rule (round 147): not healthy without an end-to-end result, but the warning leads, not a failure.

The lines are the round 11 blind tester's excerpt (tests/data/blind-round11-excerpts-a/03-...),
verbatim from sglang PR 4880's thread.
"""

from __future__ import annotations

from pathlib import Path

import pytest

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
    # The line it came after is quoted where it is cited: the reader sees what served.
    assert "shows it serving (" in report.verdict.summary
    assert "The server is fired up and ready to roll!" in report.verdict.summary, report.verdict.summary


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


# A warning that says something failed while the deployment served (round 147's excerpts-e 01: vllm-ascend's
# Mooncake connector timing out on a receive, a request left waiting: vllm-project/vllm-ascend#7355).
RECEIVE = Path(__file__).parent / "data" / "blind-round147-excerpts-e" / "01-vllm-ascend-pd-mooncake-receive-timeout"
RECEIVE_FAILED = "Receive failed: Receive timeout, retrying..."


# Round 108's excerpts-b 03: production-stack's router retrying a request its engine dropped.
ROUTER = Path(__file__).parent / "data" / "blind-round108-excerpts-b" / "03-router-request-stats-leak"


def test_a_warning_that_something_failed_while_serving_is_not_healthy(tmp_path: Path, library: Library) -> None:
    report = run([str(ROUTER)], library)
    assert report.verdict.id == "inconclusive", report.verdict.summary
    assert "a warning says something failed while it served" in report.verdict.summary
    assert "failed on http://10.42.2.9:8000 (attempt 1/2): Server disconnected" in report.verdict.summary


def test_a_warning_in_a_kv_connectors_words_of_a_timeout_leads_to_the_transfer(
    tmp_path: Path, library: Library
) -> None:
    """The connector's line names the cause by its words (families.toml): a lead, below 0.5."""
    report = run([str(RECEIVE / "excerpt.log")], library)
    assert report.verdict.id == "kv-transfer-timeout", report.verdict.summary
    assert report.verdict.confidence < 0.5
    assert "a warning says something failed while it served" in report.verdict.summary
    assert RECEIVE_FAILED in report.verdict.summary


def test_an_end_to_end_result_that_passed_vouches_for_the_warning(tmp_path: Path, library: Library) -> None:
    """The look-alikes: a gate that passed shows the warning did not matter; a warning a start-up
    followed was the start-up's."""
    lines = (RECEIVE / "excerpt.log").read_text().splitlines(keepends=True)
    gate = "[gate] gsm8k flexible-extract 0.9158 >= 0.88 -> PASS\n"
    vouched = run([str(_paste(tmp_path, [*lines, gate]))], library)
    assert vouched.verdict.id == "healthy", vouched.verdict.summary
    ready = "(APIServer pid=701) INFO 03-17 02:19:24 [api_server.py:1995] Starting vLLM API server 0 on http://0.0.0.0:8100\n"
    restarted = run([str(_paste(tmp_path, [*lines, ready]))], library)
    assert restarted.verdict.id == "healthy", restarted.verdict.summary


# vLLM's custom-op module warns at import when its CUDA kernels are not built for the platform (round 180:
# vllm-ascend serving Qwen3-Next, vllm-project/vllm-ascend#4357), before the engine serves; its MoE ops'
# module the same way (vllm/_custom_ops.py logs each import it could not make with the exception).
IMPORT_WARNINGS = [
    "WARNING 11-22 08:12:21 [_custom_ops.py:20] Failed to import from vllm._C with "
    "ModuleNotFoundError(\"No module named 'vllm._C'\")\n",
    "WARNING 01-07 09:14:02 [_custom_ops.py:28] Failed to import from vllm._moe_C with "
    "ImportError('libcudart.so.12: cannot open shared object file: No such file or directory')\n",
]
ENGINE_STATS = (
    "(APIServer pid=1) INFO 11-22 08:13:{second} [loggers.py:127] Engine 000: Avg prompt throughput: 2.4 tokens/s, "
    "Avg generation throughput: 0.1 tokens/s, Running: 1 reqs, Waiting: 0 reqs, GPU KV cache usage: 0.5%, "
    "Prefix cache hit rate: 0.0%\n"
)


@pytest.mark.parametrize("warning", IMPORT_WARNINGS)
def test_an_import_that_failed_before_the_server_served_did_not_stop_it(
    tmp_path: Path, library: Library, warning: str
) -> None:
    """An import warning above the first line of its file that shows serving was the process's start:
    the server served past it. The look-alikes still lead: the same warning between two serving lines
    (a lazy import a request needed), and a router's retry warning above its first answer."""
    serving = [ENGINE_STATS.format(second=f"{s:02d}") for s in (9, 19, 39)]
    report = run([str(_paste(tmp_path, [warning, *serving]))], library)
    assert report.verdict.id == "healthy", report.verdict.summary
    (tmp_path / "between").mkdir()
    report = run([str(_paste(tmp_path / "between", [serving[0], warning, *serving[1:]]))], library)
    assert report.verdict.id != "healthy", report.verdict.summary
    assert "a warning says something failed while it served" in report.verdict.summary


# Round 181's bundles-1 01: a Dynamo frontend refuses a rolled-out decode worker (an ERROR no pattern
# names), then the clients get 503s after the last line that shows the deployment serving.
ROLLOUT = Path(__file__).parent / "data" / "blind-round181-bundles-1" / "01-dynamo-grove-rollout-checksum-reject"
CHECKSUM = "Checksum for new worker does not match existing WorkerSet's checksum."


def test_the_earliest_error_is_quoted_when_a_later_one_leads(tmp_path: Path, library: Library) -> None:
    """The clients' 503s lead (they come after the last serving line); the frontend's error logged
    before them, the earliest no pattern names, is quoted too. The look-alike: a lead that is itself
    the earliest error says nothing of an earlier one."""
    report = run([str(ROLLOUT)], library)
    assert report.verdict.id == "inconclusive", report.verdict.summary
    summary = report.verdict.summary
    assert "status=503" in summary and CHECKSUM in summary
    assert summary.index("status=503") < summary.index("The earliest error no pattern explains came before it")
    plain = run([str(_paste(tmp_path, PASTE.read_text().splitlines(keepends=True)))], library)
    assert "came before it" not in plain.verdict.summary
