"""A failure whose consequences go on after its server came up was not survived (issue 22).

A listener that could not bind (a bootstrap or transfer port another process holds) does not
stop its server: the server comes up and answers, and every KV handshake that needed the listener
stalls, for as long as the server runs. The bind failure is the root (data: the bind patterns
cause `kv-transfer-stalled` within 2 h), and the server's ready line does not clear it when the
failure's own consequences in other files come after that line (incidents._consequences_after).
The look-alike: the same bind failure with the server ready and nothing failing after it is a
failure the run survived.

Lines: sglang's bootstrap server (asyncio's errno 98, as in tests/data/blind-round5-bundles/24),
Mooncake's TCP transport (`tcp_transport_install_failed`, Mooncake#601), sglang's ready line
and the decode's KV timeout (disaggregation/decode.py).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from pdlogdoctor.library.patterns import Library
from pdlogdoctor.model import Report
from pdlogdoctor.pipeline import run

SGLANG_BIND = (
    "[2026-03-25 08:02:23] Server error: [Errno 98] error while attempting to bind on address "
    "('0.0.0.0', 8998): address already in use\n"
)
MOONCAKE_BIND = (
    'E0325 08:02:23.118862  2211 client.cpp:196] tcp_transport_install_failed error_message="bind: '
    'Address already in use"\n'
)
READY = "[2026-03-25 08:04:54] The server is fired up and ready to roll!\n"


def _decode_timeout(clock: str, room: str) -> str:
    return (
        f"[2026-03-25 {clock} TP0] Decode transfer failed for request rank=0 "
        f"decode_req.req.rid='7aa56ae763e05248411fb16e49895bf4' decode_req.req.bootstrap_room={room} with "
        f"exception KVTransferError(bootstrap_room={room}): Request {room} timed out after 299.2s in "
        "KVPoll.WaitingForInput\n"
    )


DECODE_STALLED = _decode_timeout("08:10:39", "8773042853148382709") + _decode_timeout("08:41:59", "1773042853148382701")


def _report(library: Library, tmp_path: Path, files: dict[str, str]) -> Report:
    for name, text in files.items():
        (tmp_path / name).write_text(text)
    return run([str(tmp_path)], library)


@pytest.mark.parametrize("bind", [SGLANG_BIND, MOONCAKE_BIND], ids=["sglang-bootstrap", "mooncake-tcp"])
def test_a_listener_that_never_bound_is_the_root_of_the_stalls_after_its_server_came_up(
    library: Library, tmp_path: Path, bind: str
) -> None:
    report = _report(library, tmp_path, {"prefill-1.log": bind + READY, "decode.log": DECODE_STALLED})
    assert report.verdict.id == "bind-failed"
    assert not report.other_incidents, [f.verdict.id for f in report.other_incidents]
    assert {"kv-waiting-timeout", "kv-transfer-failed-decode"} & {e.pattern for e in report.chain}


def test_a_failure_whose_consequences_ended_before_its_server_came_up_is_survived(
    library: Library, tmp_path: Path
) -> None:
    """The look-alike: the same bind failure and a stalled handshake, both before the server came
    up, then the end-to-end probe passing: a failure the run came back from."""
    files = {
        "prefill-1.log": SGLANG_BIND + READY,
        "decode.log": _decode_timeout("08:03:10", "8773042853148382709"),
        "bench.log": "[2026-03-25 08:06:02] [probe] ok:  Paris. It is the largest city in France and\n",
    }
    report = _report(library, tmp_path, files)
    assert report.verdict.id == "healthy"
