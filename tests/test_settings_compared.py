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


# ---------------------------------------------------------------- the context length each server resolved

SGLANG_POOL = (
    "[2025-11-18 09:11:45 TP0] max_total_num_tokens=1573376, chunked_prefill_size=8192, max_prefill_tokens=16384, "
    "max_running_requests=64, context_len={}, available_gpu_mem=13.87 GB"
)
SGLANG_REFUSED = (
    "[2025-11-18 09:15:21] [http_server] Error: The input (52337 tokens) is longer than the model's context length "
    "({} tokens)."
)
BOOTSTRAP_TIMEOUT = (
    "[2025-11-18 09:20:21 TP0] Prefill bootstrap failed for request rank=0 req.rid='0fd630f1f29d0da9953f48f1a09f76b5' "
    "req.bootstrap_room=445363681616962640 with exception KVTransferError(bootstrap_room=445363681616962640): "
    "Request 445363681616962640 timed out after 300.0s in KVPoll.Bootstrapping"
)
VLLM_CONFIG = (
    "(EngineCore_DP0 pid=2012) INFO 09-08 09:58:54 [core.py:97] Initializing a V1 LLM engine (v0.10.1) with config: "
    "model='Qwen/Qwen3-8B', speculative_config=None, tokenizer='Qwen/Qwen3-8B', dtype=torch.bfloat16, "
    "max_seq_len={}, download_dir=None, load_format=auto, tensor_parallel_size=1"
)
VLLM_REFUSED = (
    "(APIServer pid=1) ERROR 09-08 10:06:02 [serving_completion.py:153] ValueError: This model's maximum context "
    "length is {} tokens. However, your request has {} input tokens. Please reduce the length of the input messages."
)


def _sglang_contexts(tmp_path: Path, library: Library, prefill_len: int, decode_len: int, refused: bool) -> Report:
    """sglang#23380's shape: the decode refuses the long prompts its prefill took, the prefill's
    bootstrap for them times out."""
    tmp_path.mkdir(parents=True, exist_ok=True)
    prefill = [SGLANG_POOL.format(prefill_len), *([BOOTSTRAP_TIMEOUT] if refused else [])]
    decode = [SGLANG_POOL.format(decode_len), *([SGLANG_REFUSED.format(decode_len)] if refused else [])]
    (tmp_path / "prefill.log").write_text("\n".join(prefill) + "\n")
    (tmp_path / "decode.log").write_text("\n".join(decode).replace("09:11:45", "09:11:57") + "\n")
    return run([str(tmp_path)], library)


def test_a_decode_with_a_shorter_context_than_its_prefill_is_a_mismatch(tmp_path: Path, library: Library) -> None:
    report = _sglang_contexts(tmp_path, library, 131072, 40960, refused=True)
    assert report.verdict.id == "config-mismatch"
    assert "context_len: prefill 131072, decode 40960" in report.verdict.summary
    assert dict(report.verdict.facts)["decode_context_len"] == 40960
    assert "--context-length" in report.advice
    assert any("longer than the model's context length" in e.text for e in report.chain)


def test_the_same_context_or_nothing_refused_is_no_mismatch(tmp_path: Path, library: Library) -> None:
    """The same context on both: a long prompt refused is the client's, whatever the prefill's wait.
    Different contexts with no prompt between them: nothing failed of it."""
    same = _sglang_contexts(tmp_path / "same", library, 40960, 40960, refused=True)
    quiet = _sglang_contexts(tmp_path / "quiet", library, 131072, 40960, refused=False)
    assert same.verdict.id != "config-mismatch"
    assert quiet.verdict.id != "config-mismatch"


def _vllm_contexts(tmp_path: Path, library: Library, asked: int) -> Report:
    """vLLM servers at max_seq_len 32768 (prefill) and 16384 (decode); the decode refuses a prompt of `asked` tokens."""
    tmp_path.mkdir(parents=True, exist_ok=True)
    (tmp_path / "prefill.log").write_text(VLLM_CONFIG.format(32768) + "\n")
    decode = [VLLM_CONFIG.format(16384).replace("09:58:54", "09:58:56"), VLLM_REFUSED.format(16384, asked)]
    (tmp_path / "decode.log").write_text("\n".join(decode) + "\n")
    return run([str(tmp_path)], library)


def test_vllm_servers_of_different_max_model_len_are_a_mismatch(tmp_path: Path, library: Library) -> None:
    report = _vllm_contexts(tmp_path, library, 20480)
    assert report.verdict.id == "config-mismatch"
    assert "context_len: prefill 32768, decode 16384" in report.verdict.summary
    assert "--max-model-len" in report.advice


def test_a_prompt_longer_than_both_contexts_is_the_clients_alone(tmp_path: Path, library: Library) -> None:
    """41877 tokens: the prefill at 32768 would have refused it too; the difference did not fail it."""
    report = _vllm_contexts(tmp_path, library, 41877)
    assert report.verdict.id != "config-mismatch"


def test_different_contexts_explain_no_bootstrap_timeout_without_a_prompt_refused(
    tmp_path: Path, library: Library
) -> None:
    """A blind round's bundle: two prefills on one bootstrap port, one at 32768 beside a decode at 131072;
    the bootstrap timeouts follow the port clash, and no prompt was refused between the two lengths."""
    tmp_path.mkdir(parents=True, exist_ok=True)
    (tmp_path / "prefill.log").write_text(SGLANG_POOL.format(32768) + "\n" + BOOTSTRAP_TIMEOUT + "\n")
    (tmp_path / "decode.log").write_text(SGLANG_POOL.format(131072).replace("09:11:45", "09:11:57") + "\n")
    report = run([str(tmp_path)], library)
    assert report.verdict.id != "config-mismatch"
    assert all(alternative.verdict != "config-mismatch" for alternative in report.alternatives)
