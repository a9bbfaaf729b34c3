"""Settings a server states on lines of their own are compared like its launch line's (round 39
bundles-b 07).

sglang logs the KV cache dtype it resolved (`Using KV cache dtype: torch.float8_e4m3fn`); a decode
launched with `--kv-cache-dtype fp8_e4m3` beside a bf16 prefill, whose transfers then fail, is a
config mismatch even when no server_args line is given. The look-alikes: the same dtype on both,
or different dtypes with nothing failing after them.
"""

from __future__ import annotations

from pathlib import Path

from pdlogdoctor.library.patterns import Library
from pdlogdoctor.model import Report
from pdlogdoctor.pipeline import run

FAILED = (
    "[2026-02-24 16:44:10 TP0] Decode transfer failed for request rank=0 "
    "decode_req.req.rid='7008fc0f5443e691c08d2dd831f01999' decode_req.req.bootstrap_room=4206448 with "
    "exception KVTransferError(bootstrap_room=4206448): Failed to get kvcache from prefill instance, it might be dead"
)


def _report(tmp_path: Path, library: Library, prefill_dtype: str, decode_dtype: str, failing: bool) -> Report:
    tmp_path.mkdir(parents=True, exist_ok=True)
    (tmp_path / "prefill.log").write_text(f"[2026-02-24 16:40:29 TP0] Using KV cache dtype: {prefill_dtype}\n")
    decode = [f"[2026-02-24 16:40:32 TP0] Using KV cache dtype: {decode_dtype}", *([FAILED] if failing else [])]
    (tmp_path / "decode.log").write_text("\n".join(decode) + "\n")
    return run([str(tmp_path)], library)


def test_resolved_kv_dtypes_that_differ_before_failed_transfers_are_a_mismatch(
    tmp_path: Path, library: Library
) -> None:
    report = _report(tmp_path, library, "torch.bfloat16", "torch.float8_e4m3fn", failing=True)
    assert report.verdict.id == "config-mismatch"
    assert dict(report.verdict.facts)["decode_kv_dtype_used"] == "torch.float8_e4m3fn"
    assert "kv_dtype_used: prefill torch.bfloat16, decode torch.float8_e4m3fn" in report.verdict.summary


def test_the_same_dtype_or_nothing_failing_is_no_mismatch(tmp_path: Path, library: Library) -> None:
    same = _report(tmp_path / "same", library, "torch.bfloat16", "torch.bfloat16", failing=True)
    quiet = _report(tmp_path / "quiet", library, "torch.bfloat16", "torch.float8_e4m3fn", failing=False)
    assert same.verdict.id != "config-mismatch"
    assert quiet.verdict.id != "config-mismatch"


def _launched(tmp_path: Path, library: Library, prefill_spec: str, decode_spec: str) -> Report:
    """Both servers' launch lines, then the decode's transfers failing (sglang#33877's shape: GLM-5.2
    with Mooncake, the prefill without MTP, the decode with EAGLE)."""
    tmp_path.mkdir(parents=True, exist_ok=True)
    args = "server_args=ServerArgs(model_path='/models/GLM-5.2-FP8', tp_size=8, page_size=64, kv_cache_dtype='auto', "
    tail = "disaggregation_transfer_backend='mooncake')"
    prefill = f"[2026-08-05 21:02:11] {args}speculative_algorithm={prefill_spec}, disaggregation_mode='prefill', {tail}"
    decode = f"[2026-08-05 21:02:14] {args}speculative_algorithm={decode_spec}, disaggregation_mode='decode', {tail}"
    (tmp_path / "prefill.log").write_text(prefill + "\n")
    (tmp_path / "decode.log").write_text(f"{decode}\n{FAILED.replace('2026-02-24 16:44:10', '2026-08-05 21:12:04')}\n")
    return run([str(tmp_path)], library)


def test_a_speculative_algorithm_on_one_side_only_is_a_mismatch(tmp_path: Path, library: Library) -> None:
    report = _launched(tmp_path, library, "None", "'EAGLE'")
    assert report.verdict.id == "config-mismatch"
    assert "speculative_algorithm: prefill None, decode EAGLE" in report.verdict.summary
    assert dict(report.verdict.facts)["decode_speculative_algorithm"] == "EAGLE"
    assert "--speculative-algorithm" in report.advice


def test_the_same_speculative_algorithm_on_both_is_no_mismatch(tmp_path: Path, library: Library) -> None:
    report = _launched(tmp_path, library, "'EAGLE'", "'EAGLE'")
    assert report.verdict.id != "config-mismatch"


def test_a_speculative_algorithm_on_one_side_explains_no_accuracy_gate_alone(tmp_path: Path, library: Library) -> None:
    """Each side sizes the buffers of the draft's hidden states by its own setting: what fails is the
    servers' transfers. A harness's accuracy gate that failed while both served (a blind round's MI355X
    run, GSM8K at 0 from a MoRI dispatch buffer sized too small) is no effect of it."""
    args = "server_args=ServerArgs(model_path='/models/DeepSeek-R1', tp_size=8, page_size=1, kv_cache_dtype='auto', "
    tail = "disaggregation_transfer_backend='mori')"
    (tmp_path / "prefill.log").write_text(
        f"[2026-08-05 21:02:11] {args}speculative_algorithm=None, disaggregation_mode='prefill', {tail}\n"
    )
    (tmp_path / "decode.log").write_text(
        f"[2026-08-05 21:02:14] {args}speculative_algorithm='EAGLE', disaggregation_mode='decode', {tail}\n"
    )
    (tmp_path / "job.out").write_text("[gsm8k] accuracy=0.000 threshold=0.91\n")
    report = run([str(tmp_path)], library)
    assert report.verdict.id == "accuracy-regression", report.verdict.summary
