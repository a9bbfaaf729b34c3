"""An RDMA device's fatal asynchronous event is the failure the transfers after it report.

kvcache-ai/Mooncake#277 (round 124's bundles-2 03): vLLM with MooncakeStore on one host; Mooncake's
worker logs `Worker: Received context async event local access violation work queue error for context
mlx5_0` at WARNING as the first KV is written, and vLLM V0's decode then recomputes every request
(`Failed to receive all KVs and hidden states, redo model forwarding.`) while answering 200. The event
is the verdict's root (rdma-link-failure), named with its device; the recomputes are its consequences.
Look-alike: a link coming back (`port active`) fails nothing.
"""

from __future__ import annotations

from pathlib import Path

from pdlogdoctor.library.patterns import Library

from .conftest import analysed_files

STARTED = "INFO 04-19 23:50:10 [api_server.py:1081] Starting vLLM API server on http://0.0.0.0:{port}"
EVENT = (
    "W0419 23:51:51.067479 114309 worker_pool.cpp:373] Worker: Received context async event {event} for context mlx5_0"
)
RECOMPUTED = (
    "WARNING 04-19 23:51:{second} [simple_connector.py:330] [rank0]: Failed to receive all KVs and hidden states, "
    "redo model forwarding."
)
ANSWERED = 'INFO:     127.0.0.1:52734 - "POST /v1/chat/completions HTTP/1.1" 200 OK'


def _bundle(event: str) -> dict[str, list[str]]:
    return {
        "producer.log": [STARTED.format(port=8100), EVENT.format(event=event), ANSWERED],
        "consumer.log": [STARTED.format(port=8200), *(RECOMPUTED.format(second=52 + i) for i in range(3)), ANSWERED],
    }


def test_a_queue_pair_broken_by_the_device_is_the_transfers_failure(tmp_path: Path, library: Library) -> None:
    report = analysed_files(tmp_path, library, _bundle("local access violation work queue error"))
    assert report.verdict.id == "rdma-link-failure", report.verdict.summary
    facts = dict(report.verdict.facts)
    assert facts["device"] == "mlx5_0" and facts["event"] == "local access violation work queue error", facts
    assert "The RDMA device mlx5_0 reported a fatal event" in report.verdict.summary
    assert {e.pattern for e in report.chain} >= {"mooncake-rdma-async-event", "vllm-v0-kv-recv-failed"}


def test_a_port_coming_back_is_no_failure(tmp_path: Path, library: Library) -> None:
    bundle = _bundle("port active")
    bundle["consumer.log"] = [STARTED.format(port=8200), ANSWERED]
    report = analysed_files(tmp_path, library, bundle)
    assert report.verdict.id == "healthy", report.verdict.summary
