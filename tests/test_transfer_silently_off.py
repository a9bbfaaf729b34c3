"""A P/D deployment whose requests all answer 200 while no KV moves (issue 22, round 163).

vLLM's MooncakeConnector needs the router to make up a `transfer_id` (vllm-project/vllm#31034); the
NIXL toy proxy the older Mooncake docs named sends none, and the prefill warns `Missing transfer_id in
kv_transfer_params from router!` on every request while the decode recomputes each prompt
(kvcache-ai/Mooncake#4071). Every request answers 200: the warning is the only line that says the
disaggregated path is off, so it is the verdict (config-mismatch), never a healthy run. A fork's
test-only fallback that says it is not for P/D serving is no such line.
"""

from __future__ import annotations

from pathlib import Path

from pdlogdoctor.cli.behaviour import ExitCode, exit_code_for
from pdlogdoctor.library.patterns import Library

from .conftest import analysed_files

PREFILL_TAG = "(EngineCore_DP0 pid=198) "
CONNECTOR = "[distributed/kv_transfer/kv_connector/v1/mooncake/mooncake_connector.py:1486] "


def served(port: int) -> list[str]:
    """A vLLM server's start and four requests answered 200, as both sides of a P/D pair print them."""
    return [
        f"(APIServer pid=1) INFO 09-12 14:20:41 [api_server.py:1991] Starting vLLM API server 0 on http://0.0.0.0:{port}",
        *[f'INFO:     172.18.0.5:3911{i} - "POST /v1/completions HTTP/1.1" 200 OK' for i in range(4)],
        "(APIServer pid=1) INFO 09-12 14:24:10 [v1/metrics/loggers.py:259] Engine 000: Avg prompt throughput: "
        "2400.0 tokens/s, Avg generation throughput: 147.4 tokens/s, Running: 1 reqs, Waiting: 0 reqs, GPU KV "
        "cache usage: 0.3%, Prefix cache hit rate: 0.0%",
    ]


def test_a_prefill_warning_that_no_transfer_id_came_is_the_verdict(tmp_path: Path, library: Library) -> None:
    warned = (
        PREFILL_TAG + "WARNING 09-12 14:24:00 " + CONNECTOR + "Missing transfer_id in kv_transfer_params from router!"
    )
    report = analysed_files(
        tmp_path / "run",
        library,
        {"prefill.log": [*served(8010), warned], "decode.log": served(8020)},
    )
    assert report.verdict.id == "config-mismatch", report.verdict.summary
    assert "Missing transfer_id in kv_transfer_params from router!" in report.verdict.summary
    assert exit_code_for(report) == ExitCode.ROOT_CAUSE


def test_a_decode_that_could_not_use_the_parameters_is_the_same_failure(tmp_path: Path, library: Library) -> None:
    invalid = (
        "(EngineCore_DP0 pid=77) WARNING 06-02 10:11:12 [nixl_connector.py:402] Got invalid KVTransferParams: "
        "{'do_remote_prefill': True, 'remote_block_ids': None}. This request will not utilize KVTransfer"
    )
    report = analysed_files(tmp_path / "run", library, {"decode.log": [*served(8020), invalid]})
    assert report.verdict.id == "config-mismatch", report.verdict.summary


def test_a_test_only_fallback_that_says_so_is_no_such_line(tmp_path: Path, library: Library) -> None:
    fallback = (
        PREFILL_TAG + "WARNING 09-12 14:24:00 [kv_connector.py:311] Missing transfer_id in kv_transfer_params from "
        "router; falling back to local request_id. This is only safe for single-process tests and should not be "
        "used in PD serving."
    )
    report = analysed_files(tmp_path / "run", library, {"prefill.log": [*served(8010), fallback]})
    assert report.verdict.id == "healthy", report.verdict.summary


def test_a_trtllm_engine_without_its_cache_transceiver_is_a_mismatch(tmp_path: Path, library: Library) -> None:
    """TensorRT-LLM's twin: a disaggregated request on an engine started with no KV cache transceiver
    (ai-dynamo/aiconfigurator#585: the `cache_transceiver_config` block left out of prefill and decode
    configs). The block itself, in the engine's options, is no such line."""
    asserted = (
        "AssertionError: kv_cache_transceiver is disabled, please set 'cache_transceiver_config: "
        "backend:<backend_type>` in config file for disaggregated serving"
    )
    report = analysed_files(tmp_path / "run", library, {"prefill-worker.log": [asserted]})
    assert report.verdict.id == "config-mismatch", report.verdict.summary
    configured = analysed_files(
        tmp_path / "ok", library, {"prefill-worker.log": ["cache_transceiver_config: {backend: UCX}", *served(8010)]}
    )
    assert configured.verdict.id == "healthy", configured.verdict.summary
