"""A restarted server is up before its router takes it back: the router's errors until then are the
outage, not a failure after the recovery.

Round 26's blind bundle (bundles-b/02): the prefill was OOMKilled at 09:31:40; the decode lost it and
failed its requests in one burst; the restarted prefill was ready at 09:34:00, but sglang's router,
which checks its workers every 60 s, answered 503 until 09:35:20 and took it back at 09:36:08; the
validation job passed after. The rule that a server must start after the burst's last line called
the run inconclusive. Now a server up within the burst counts as the burst's end when what fails
after it is only requests answered with errors (a router not admitting it yet), for READMIT_S at most.
Look-alikes: the router still failing requests long after the server was up, and a server-side
failure after the ready line, are failures after the recovery.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from pdlogdoctor.library.patterns import Library
from pdlogdoctor.pipeline import run

BUNDLE = Path(__file__).parent / "data" / "blind-round26-bundles-b" / "02-prefill-oomkilled-restarted-k8s"
ROUTER_503 = (
    "[pod/sglang-router-6d9f7c8b5d-q7x2m/router] 2026-07-21 {clock} ERROR http_request{{method=POST "
    'uri=/v1/chat/completions version=HTTP/1.1 request_id="chatcmpl-5L4C5oSI9e5eJKioNpyBgLqm" status_code=503 '
    'latency="0.000484475s"}}: sglang_router_rs::response: src/middleware.rs:209: request failed with server error'
)
DECODE_LOST = (
    "[pod/sglang-decode-0/decode] [2026-07-21 {clock} TP0] Lost connection with prefill instance "
    "(bootstrap_addr: 10.244.3.17:8998), 3 requests affected"
)


def _bundle(tmp_path: Path, name: str = "", line: str = "") -> Path:
    """The bundle, with `line` put into its file `name` at its place in time."""
    for source in BUNDLE.iterdir():
        if source.name != "expected.toml":
            shutil.copy(source, tmp_path / source.name)
    if name:
        path = tmp_path / name
        lines = path.read_text().splitlines()
        stamp = line.split("2026-07-21 ", 1)[1][:8]
        at = next(
            i for i, text in enumerate(lines) if "2026-07-21 " in text and text.split("2026-07-21 ", 1)[1][:8] > stamp
        )
        path.write_text("\n".join([*lines[:at], line, *lines[at:]]) + "\n")
    return tmp_path


def _clock(line: str) -> str:
    """The line's time of day (its day is the bundle's), or "" for a line without one."""
    return line.split("2026-07-21 ", 1)[1][:8] if "2026-07-21 " in line else ""


def test_the_routers_errors_until_it_takes_the_server_back_are_the_outage(tmp_path: Path, library: Library) -> None:
    report = run([str(_bundle(tmp_path))], library)
    assert report.verdict.id == "healthy", report.verdict.summary
    assert "then a server started again" in report.verdict.summary
    assert "prefill.log:76" in report.verdict.summary  # the restarted prefill's ready line


def test_the_router_still_failing_long_after_the_server_was_up_is_a_failure(tmp_path: Path, library: Library) -> None:
    late = ROUTER_503.format(clock="09:36:30")  # 150 s after the prefill's ready line, still in the burst
    report = run([str(_bundle(tmp_path, "router.log", late))], library)
    assert report.verdict.id != "healthy", report.verdict.summary


def test_a_server_side_failure_after_the_ready_line_is_a_failure(tmp_path: Path, library: Library) -> None:
    again = DECODE_LOST.format(clock="09:34:40")  # the decode losing the prefill again, after it was up
    report = run([str(_bundle(tmp_path, "decode.log", again))], library)
    assert report.verdict.id != "healthy", report.verdict.summary
