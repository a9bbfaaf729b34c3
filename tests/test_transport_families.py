"""Discriminators of the transport / connectivity / config verdicts, on small inline logs."""

from __future__ import annotations

from pathlib import Path

from pdlogdoctor.library.patterns import Library
from pdlogdoctor.model import Report
from pdlogdoctor.pipeline import run

ARGS = (
    "[2026-04-07 09:30:01] server_args=ServerArgs(model_path='/models/DeepSeek-V3', tp_size={tp}, page_size=1, "
    "kv_cache_dtype='{kvd}', disaggregation_mode='{mode}', disaggregation_transfer_backend='mooncake')"
)
GARBAGE = (
    "[2026-04-07 09:33:10] End of prefill disaggregation mode warmup with status 200, resp: [{{'text': '', "
    "'output_ids': [0, 0, 0, 0, 0, 0, 0, 0], 'meta_info': {{'id': 'x', 'prompt_tokens': 4}}}}]"
)


def _bundle(tmp_path: Path, files: dict[str, list[str]]) -> Path:
    for name, lines in files.items():
        (tmp_path / name).write_text("\n".join(lines) + "\n")
    return tmp_path


def _analyze(tmp_path: Path, files: dict[str, list[str]], library: Library) -> Report:
    return run([str(_bundle(tmp_path, files))], library)


def test_big_einval_outside_mori_is_not_the_mori_ceiling(tmp_path: Path, library: Library) -> None:
    # UCX prints the length, but a 6 GiB EINVAL under NIXL is no reason to set a MORI variable.
    line = (
        "[1706257302.851919] [node1:2038794:0]           ib_md.c:309  UCX  ERROR "
        "ibv_reg_mr(address=0x7fe35ea00000, length=6442450944, access=0x10000f) failed: Invalid argument"
    )
    report = _analyze(tmp_path, {"prefill.log": [line]}, library)
    assert report.verdict.id == "mr-registration-rejected"
    assert "SGLANG_MORI_MAX_MR_BYTES" not in {s.name for s in report.suggestions}
    assert dict(report.verdict.facts)["errnos"] == (22,)  # read from the strerror text


def test_sizeless_registration_line_never_yields_the_size_ceiling(tmp_path: Path, library: Library) -> None:
    line = (
        "E0605 10:48:27.885119 10136 rdma_context.cpp:203] "
        "Failed to register memory 0x7b375b400000: Invalid argument [22]"
    )
    report = _analyze(tmp_path, {"prefill.log": [line]}, library)
    assert report.verdict.id == "mr-registration-rejected"
    assert "no failing region size is logged" in report.verdict.summary


def test_different_tp_alone_is_not_a_config_mismatch(tmp_path: Path, library: Library) -> None:
    # MLA models run prefill TP16 / decode TP8 legitimately; only an explicit error flags TP.
    files = {
        "prefill.log": [ARGS.format(tp=16, kvd="auto", mode="prefill"), GARBAGE],
        "decode.log": [ARGS.format(tp=8, kvd="auto", mode="decode")],
    }
    report = _analyze(tmp_path, files, library)
    assert report.verdict.id != "config-mismatch"


def test_a_dtype_difference_with_nothing_failing_is_not_a_verdict(tmp_path: Path, library: Library) -> None:
    ready = "[2026-04-07 09:33:11] The server is fired up and ready to roll!"
    files = {
        "prefill.log": [ARGS.format(tp=8, kvd="fp8_e4m3", mode="prefill"), ready],
        "decode.log": [ARGS.format(tp=8, kvd="auto", mode="decode"), ready],
    }
    report = _analyze(tmp_path, files, library)
    assert report.verdict.id != "config-mismatch"


def test_implicit_dtype_mismatch_names_both_values(tmp_path: Path, library: Library) -> None:
    files = {
        "prefill.log": [ARGS.format(tp=8, kvd="fp8_e4m3", mode="prefill")],
        "decode.log": [ARGS.format(tp=8, kvd="auto", mode="decode"), GARBAGE],
    }
    report = _analyze(tmp_path, files, library)
    assert report.verdict.id == "config-mismatch"
    facts = dict(report.verdict.facts)
    assert (facts["prefill_kv_cache_dtype"], facts["decode_kv_cache_dtype"]) == ("fp8_e4m3", "auto")


def test_peer_lost_with_a_clean_prefill_log_names_no_missing_prefill(tmp_path: Path, library: Library) -> None:
    lost = (
        "[2026-03-02 11:20:41 TP0] Lost connection with prefill instance "
        "(bootstrap_addr: 10.20.1.13:8998), 3 requests affected"
    )
    batch = (
        "[2026-03-02 11:20:30 TP0] Prefill batch. #new-seq: 1, #new-token: 512, #cached-token: 0, "
        "token usage: 0.01, #running-req: 0, #queue-req: 0"
    )
    report = _analyze(tmp_path, {"decode.log": [lost], "prefill.log": [batch]}, library)
    assert report.verdict.id == "peer-lost"
    assert not any("prefill server's log" in item for item in report.missing)
    assert dict(report.verdict.facts)["requests_affected"] == 3


def test_refused_registration_without_consequence_is_not_the_verdict(tmp_path: Path, library: Library) -> None:
    # An AMD Mooncake guide calls this errno-12 line normal: the run served, nothing else failed.
    line = (
        "E0702 10:16:03.412345 48211 rdma_context.cpp:265] "
        "Failed to register memory 0x768b23fff010: Cannot allocate memory [12]"
    )
    files = {"prefill.log": [line], "bench.log": ["[probe] ok:  Paris. It is the capital of France."]}
    report = _analyze(tmp_path, files, library)
    assert report.verdict.id != "mr-registration-rejected"
    # The probe passed after it and nothing else failed: the refusal failed nothing, and the report
    # lists it among the lines that were harmless rather than calling the run's health unknown.
    assert report.verdict.id == "healthy", report.verdict.summary
    assert [e.line for e in report.harmless] == [1]


def test_router_health_check_noise_alone_is_not_a_failure(tmp_path: Path, library: Library) -> None:
    noise = (
        "2025-10-07 23:31:33 DEBUG sglang_router_rs::core::worker_manager: src/core/worker_manager.rs:1031: "
        "Worker http://10.0.0.2:30000 health check failed: Connection failed for worker http://10.0.0.2:30000"
    )
    files = {"router.log": [noise], "bench.log": ["[probe] ok:  Paris. It is the capital of France."]}
    report = _analyze(tmp_path, files, library)
    assert report.verdict.id == "healthy"
