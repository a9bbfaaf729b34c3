"""Mooncake's warning that it could not register an engine's buffer is the KV path's failure.

kvcache-ai/Mooncake#1592 (round 125's bundles-2 02): vLLM over the Mooncake connector on hosts without
GPUDirect RDMA; each engine's KV cache fails to register (`RdmaTransport: Failed to register memory:
addr 0x... length N`, a glog WARNING), and the engines come up as if nothing happened. That is
mr-registration-rejected, not a healthy start. Look-alike: the same warning in a run whose end-to-end
check passed had no consequence (Mooncake went on without that buffer), and the run is healthy.
"""

from __future__ import annotations

from pathlib import Path

from pdlogdoctor.library.patterns import Library

from .conftest import analysed_files

REFUSED = (
    "W0302 10:03:01.210035 72983 rdma_transport.cpp:400] RdmaTransport: Failed to register memory: "
    "addr 0x733a96e00000 length 2896659072"
)
STARTED = "(APIServer pid=1) INFO 03-02 10:03:20 [api_server.py:1880] Starting vLLM API server 0 on http://0.0.0.0:8100"
HEALTH = '(APIServer pid=1) INFO:     127.0.0.1:41234 - "GET /health HTTP/1.1" 200 OK'


def test_a_kv_cache_mooncake_could_not_register_is_the_failure(tmp_path: Path, library: Library) -> None:
    report = analysed_files(tmp_path, library, {"prefill.log": [REFUSED, STARTED, HEALTH]})
    assert report.verdict.id == "mr-registration-rejected", report.verdict.summary
    assert "Failed to register memory: addr 0x733a96e00000 length 2896659072" in report.verdict.summary
    assert dict(report.verdict.facts)["largest_failing_region_bytes"] == 2896659072


def test_a_refusal_a_passing_check_outlived_is_no_failure(tmp_path: Path, library: Library) -> None:
    files = {
        "prefill.log": [REFUSED, STARTED, HEALTH],
        "bench.log": ["Accuracy: 0.952", "[gsm8k] accuracy=0.952 threshold=0.93"],
    }
    report = analysed_files(tmp_path, library, files)
    assert report.verdict.id == "healthy", report.verdict.summary
