"""A server told to stop, whose scheduler then ends by SIGTERM, shut down: it did not crash.

sglang's server logs `SIGTERM received ... Draining requests and shutting down...` when its launcher,
Kubernetes or a job's teardown sends it SIGTERM; once drained, its watchdog reports each scheduler
as `crashed with exit code -15` (sglang's tokenizer_manager SignalHandler and its subprocess watchdog,
as a round 23 bundle's prefill printed them when its StatefulSet deleted the pod). That line is the
shutdown: the decode losing the prefill afterwards is the failure, and the report names the stop.
Look-alikes: the same death with no told-to-stop line is a crash; a SIGKILL after the stop is a crash
too (a drain does not end in SIGKILL by itself); a server told to stop at the end of a run that
served is no failure at all.
"""

from __future__ import annotations

from pathlib import Path

from pdlogdoctor.library.patterns import Library
from pdlogdoctor.model import Report
from pdlogdoctor.pipeline import run

# Two answers: the first /generate of a server's life is its own warmup request (own_warmup.py).
SERVED = [
    f'[2026-05-19 11:07:0{second}] INFO:     10.244.1.9:4820{second} - "POST /generate HTTP/1.1" 200 OK'
    for second in (7, 8)
]
TOLD = "[2026-05-19 11:07:41] SIGTERM received. signum=None frame=None. Draining requests and shutting down..."
DRAINED = (
    "[2026-05-19 11:07:52] Gracefully exiting... Remaining number of requests 0. Remaining requests remaining_rids=[]."
)
DIED = (
    "[2026-05-19 11:07:53] Subprocess scheduler_0 (pid=214) crashed with exit code {code}. Triggering SIGQUIT for "
    "cleanup..."
)
SIGQUIT = "[2026-05-19 11:07:53] SIGQUIT received. signum=None, frame=None. It usually means one child failed."
LOST = (
    "[2026-05-19 11:08:06 TP0] Lost connection with prefill instance (bootstrap_addr: 10.244.3.17:8998), 11 requests "
    "affected"
)
DECODE_FAILED = (
    "[2026-05-19 11:08:06 TP0] Decode transfer failed for request rank=0 decode_req.req.rid='8540051d74e5221a72a1c05739"
    "7706bb' decode_req.req.bootstrap_room=616641653096138722 with exception KVTransferError(bootstrap_room="
    "616641653096138722): Failed to get kvcache from prefill instance, it might be dead"
)


def _bundle(tmp_path: Path, library: Library, prefill: list[str], decode: list[str] | None = None) -> Report:
    (tmp_path / "prefill.log").write_text("\n".join(prefill) + "\n")
    if decode is not None:
        (tmp_path / "decode.log").write_text("\n".join(decode) + "\n")
    return run([str(tmp_path)], library)


def test_a_decode_that_loses_a_prefill_told_to_stop_names_the_stop(tmp_path: Path, library: Library) -> None:
    report = _bundle(tmp_path, library, [*SERVED, TOLD, DRAINED, DIED.format(code=-15), SIGQUIT], [LOST, DECODE_FAILED])
    assert report.verdict.id == "peer-lost"
    summary = report.verdict.summary
    assert "after the prefill was told to stop" in summary and "prefill.log:3" in summary
    assert "SIGTERM received. signum=None frame=None." in summary
    assert "Find who stopped the server" in report.advice
    assert not any(a.id.startswith("scheduler") and a.confidence >= 0.3 for a in report.alternatives)


def test_the_same_death_with_no_stop_announced_is_a_crash(tmp_path: Path, library: Library) -> None:
    report = _bundle(tmp_path, library, [*SERVED, DIED.format(code=-15), SIGQUIT], [LOST, DECODE_FAILED])
    assert report.verdict.id.startswith("scheduler-")
    assert dict(report.verdict.facts)["exit_code"] == -15


def test_a_sigkill_after_the_stop_is_still_a_crash(tmp_path: Path, library: Library) -> None:
    report = _bundle(tmp_path, library, [*SERVED, TOLD, DIED.format(code=-9), SIGQUIT], [LOST, DECODE_FAILED])
    assert report.verdict.id.startswith("scheduler-")
    assert dict(report.verdict.facts)["exit_code"] == -9


def test_a_server_stopped_after_it_served_is_no_failure(tmp_path: Path, library: Library) -> None:
    """A CI job's teardown: the server answered, was told to stop and shut down; nothing failed but
    the watchdog's wording (the SIGQUIT the parent gets for its children is the same shutdown)."""
    report = _bundle(tmp_path, library, [*SERVED, TOLD, DRAINED, DIED.format(code=-15)])
    assert report.verdict.id == "healthy"


# A pytest run of a served deployment (ai-dynamo/dynamo's sglang tests): the client gave up on a
# request, the test's teardown stopped the server (its scheduler ended by SIGTERM), then pytest's
# summary named the failed test. Times are the harness's own.
TEST_RUN = [
    "[TEST] 2026-05-08T09:41:12 INFO test_sglang_deployment[aggregated-2]: Starting test_deployment",
    "[TEST] 2026-05-08T09:43:05 ERROR tests.utils.client: Request timed out after 60.00 seconds",
    "[2026-05-08 09:43:11] Subprocess scheduler_0 (pid=48213) crashed with exit code {code}. Triggering cleanup...",
    "FAILED tests/serve/test_sglang.py::test_sglang_deployment[aggregated-2] - requests.exceptions.ReadTimeout: "
    "HTTPConnectionPool(host='localhost', port=8000): Read timed out. (read timeout=60)",
]


def _test_run(tmp_path: Path, library: Library, code: int) -> Report:
    (tmp_path / "ci-test.log").write_text("\n".join(TEST_RUN).format(code=code) + "\n")
    return run([str(tmp_path)], library)


def test_a_server_a_failed_test_tore_down_is_no_crash(tmp_path: Path, library: Library) -> None:
    report = _test_run(tmp_path, library, -15)
    assert report.verdict.id == "inconclusive", report.verdict.summary
    assert "ci-test.log:4: FAILED tests/serve/test_sglang.py::test_sglang_deployment" in report.verdict.summary


def test_a_segfault_beside_a_failed_test_is_still_a_crash(tmp_path: Path, library: Library) -> None:
    report = _test_run(tmp_path, library, -11)
    assert report.verdict.id.startswith("scheduler-"), report.verdict.summary
    assert dict(report.verdict.facts)["exit_code"] == -11
