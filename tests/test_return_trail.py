"""NCCL's return trail is an error, and the warning above it says why.

With NCCL_DEBUG=INFO, an NCCL call that fails logs one `NCCL INFO <file>.cc:<line> -> <code>` line per
frame it returns through, at INFO level and with no error word; the WARN just above the trail states
what failed (NVIDIA/nccl#1524: a queue pair's `local access violation work queue error`, then a
completion with status=5; sgl-project/sglang#3820: a bootstrap connect `returned 113(No route to
host)`). The trail makes the excerpt a failure; the warning above it leads the report. Look-alike: a
channel line's `0[e000] -> 1[f000]` is no return code.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from pdlogdoctor.library.patterns import Library

from .conftest import analysed_lines

QP_ERROR = [
    "ubuntu20-server-2:94639:94647 [0] transport/net_ib.cc:100 NCCL WARN NET/IB : mlx5_0:1 Got async event : local "
    "access violation work queue error",
    "ubuntu20-server-2:94639:94652 [0] NCCL INFO transport/net.cc:1298 -> 6",
    "ubuntu20-server-2:94639:94652 [0] NCCL INFO proxy.cc:694 -> 6",
    "ubuntu20-server-2:94639:94652 [0] NCCL INFO proxy.cc:874 -> 6 [Progress Thread]",
]
NO_ROUTE = [
    "node5:240:240 [6] misc/socket.cc:533 NCCL WARN socketPollConnect: Connect to 10.0.0.4<56849> returned 113(No "
    "route to host) errno 115(Operation now in progress)",
    "node5:240:240 [6] NCCL INFO misc/socket.cc:570 -> 2",
    "node5:240:240 [6] NCCL INFO bootstrap.cc:285 -> 2",
    "node5:240:240 [6] NCCL INFO init.cc:1534 -> 2",
]
CHANNELS = [
    "h0913n-ubuntu:12877:12877 [0] NCCL INFO Channel 00 : 0[e000] -> 1[f000] via P2P/IPC",
    "h0913n-ubuntu:12877:12877 [1] NCCL INFO Channel 00 : 1[f000] -> 2[1000] via P2P/IPC",
    "h0913n-ubuntu:12877:12877 [0] NCCL INFO comm 0x7f3b30000e00 rank 0 nranks 8 - Init COMPLETE",
]


@pytest.mark.parametrize(
    ("lines", "said"),
    [(QP_ERROR, "local access violation work queue error"), (NO_ROUTE, "returned 113(No route to host)")],
    ids=["qp-error", "no-route"],
)
def test_a_return_trail_is_led_by_the_warning_above_it(
    tmp_path: Path, library: Library, lines: list[str], said: str
) -> None:
    report = analysed_lines(tmp_path, library, [*lines, *CHANNELS], "nccl.log")
    assert report.verdict.id not in ("no-failure-seen", "healthy")
    summary = report.verdict.summary
    assert said in summary.split("No pattern of the library")[0], summary  # said before anything else
    assert any(item.marker == "nccl-return-trail" for item in report.unrecognised)


def test_the_known_line_above_a_trail_gives_its_fix(tmp_path: Path, library: Library) -> None:
    report = analysed_lines(tmp_path, library, NO_ROUTE, "nccl.log")
    assert "NCCL_SOCKET_IFNAME" in report.advice


def test_channel_lines_are_no_return_codes(tmp_path: Path, library: Library) -> None:
    report = analysed_lines(tmp_path, library, CHANNELS, "nccl.log")
    assert report.verdict.id == "no-failure-seen"
    assert not report.unrecognised
