"""A vLLM V1 engine dead in the moment its NIXL KV load failed died of that failure (pattern
vllm-nixl-transfer-failure's link to vllm-engine-dead-error): what to fix is the transfer's cause
(here UCX's refused connection, bootstrap-unreachable), not the engine. A death long after the
failure is not its consequence.
"""

from __future__ import annotations

from pathlib import Path

from pdlogdoctor.library.patterns import Library
from pdlogdoctor.model import Report

from .conftest import analysed_lines

REFUSED = (
    "[1779377479.994167] [ip-172-16-243-103:564  :0]            sock.c:348  UCX  ERROR   "
    "connect(fd=256, dest_addr=169.254.0.1:44263) failed: Connection refused"
)
FAILED = "(EngineCore pid=564) ERROR 05-21 15:31:19 [nixl_connector.py:1521] NIXL transfer failure: handshake_failed"


def _dead(at: str) -> str:
    return (
        f"(APIServer pid=1) ERROR 05-21 {at} [async_llm.py:877] vllm.v1.engine.exceptions.EngineDeadError: "
        "EngineCore encountered an issue. See stack trace (above) for the root cause."
    )


def _report(tmp_path: Path, library: Library, dead_at: str) -> Report:
    return analysed_lines(tmp_path, library, [REFUSED, FAILED, _dead(dead_at)], "decode-worker.log")


def test_an_engine_dead_as_its_kv_load_failed_died_of_the_transfer(tmp_path: Path, library: Library) -> None:
    report = _report(tmp_path, library, "15:31:20")
    assert report.verdict.id == "bootstrap-unreachable"
    links = {(link.cause.pattern, link.effect.pattern) for link in report.links}
    assert ("vllm-nixl-transfer-failure", "vllm-engine-dead-error") in links


def test_an_engine_dead_long_after_is_not_the_transfers(tmp_path: Path, library: Library) -> None:
    report = _report(tmp_path, library, "15:45:02")
    links = {(link.cause.pattern, link.effect.pattern) for link in report.links}
    assert ("vllm-nixl-transfer-failure", "vllm-engine-dead-error") not in links
