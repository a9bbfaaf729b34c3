"""Exceptions pasted alone or with a cut stack, read for the process they end (issue 22, round 164).

- A stack cut to the model's forward (its layers, its kernels' wrappers) ends the engine's process
  whatever the phase: sglang's scheduler and vLLM V1's engine core catch nothing raised there
  (vllm-project/vllm#32565, EPLB's routing; sgl-project/DeepGEMM#37, a kernel its DeepGEMM lacks). The
  crash is a lead, its phase unknown. A layer's weight loading is no such frame.
- A native kernel library's check that names its source (FlashInfer's `Error in function 'x' at
  file.h:49`, DeepEP's `Failed: Assertion error file.cpp:1233 '...'`) is the engine's crash, in words.
- vLLM's weight loader finding a tensor its model class has no place for is a model that could not
  load (vllm-project/vllm#12783), not a crash of unknown cause.
- PyTorch's watchdog line that it ended the process, its what() on the next line, is the collective
  timeout that line states (sgl-project/sglang#37059), not a crash of its own.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from pdlogdoctor.library.patterns import Library

from .conftest import analysed_lines

VLLM_TAG = "(EngineCore_DP5 pid=4109610) "
VLLM_FORWARD = [
    VLLM_TAG + '  File "/code/vllm/vllm/model_executor/layers/fused_moe/layer.py", line 305, in select_experts',
    VLLM_TAG + "    return self.layer._select_experts(hidden_states, router_logits)",
    VLLM_TAG + '  File "/code/vllm/vllm/model_executor/layers/fused_moe/layer.py", line 1564, in _select_experts',
    VLLM_TAG + "    raise ValueError(",
    VLLM_TAG + "ValueError: enable_eplb=True requiere expert_load_view != None",
]
SGLANG_FORWARD = [
    'File "/sgl-workspace/sglang/python/sglang/srt/layers/moe/moe_runner/deep_gemm.py", line 520, in '
    "_run_masked_bf16_gemm",
    "    deep_gemm_wrapper.grouped_gemm_nt_bf16_masked(",
    'File "/sgl-workspace/sglang/python/sglang/srt/layers/deep_gemm_wrapper/entrypoint.py", line 103, in '
    "grouped_gemm_nt_bf16_masked",
    "    return deep_gemm.m_grouped_bf16_gemm_nt_masked(",
    "AttributeError: module 'deep_gemm' has no attribute 'm_grouped_bf16_gemm_nt_masked'.",
]


@pytest.mark.parametrize("lines", [VLLM_FORWARD, SGLANG_FORWARD], ids=["vllm-tagged", "sglang-bare"])
def test_a_stack_cut_to_the_models_forward_is_a_crash_of_unknown_phase(
    tmp_path: Path, library: Library, lines: list[str]
) -> None:
    report = analysed_lines(tmp_path, library, lines, "excerpt.log")
    assert report.verdict.id == "scheduler-crash", report.verdict.summary
    assert report.verdict.confidence < 0.5
    assert lines[-1].removeprefix(VLLM_TAG) in report.verdict.summary


def test_a_layers_weight_loading_places_no_crash(tmp_path: Path, library: Library) -> None:
    loading = [
        '  File "/usr/local/lib/python3.12/dist-packages/vllm/model_executor/layers/linear.py", line 1203, in '
        "weight_loader",
        "    assert param_data.shape == loaded_weight.shape",
        "AssertionError",
    ]
    report = analysed_lines(tmp_path, library, loading, "excerpt.log")
    assert report.verdict.id == "inconclusive", report.verdict.summary


@pytest.mark.parametrize(
    "line",
    [
        "RuntimeError: Error in function 'aligned_alloc' at /workspace/include/flashinfer/allocator.h:49:",
        "RuntimeError: Failed: Assertion error /build/DeepEP/csrc/deep_ep.cpp:1233 'x.size(0) == topk_idx.size(0) "
        "and x.size(0) <= num_max_dispatch_tokens_per_rank'",
    ],
    ids=["flashinfer", "deepep"],
)
def test_a_native_kernel_librarys_check_is_the_engines_crash_in_words(
    tmp_path: Path, library: Library, line: str
) -> None:
    report = analysed_lines(tmp_path, library, [line], "excerpt.log")
    assert report.verdict.id == "scheduler-crash", report.verdict.summary
    assert report.verdict.confidence < 0.5


def test_an_error_that_only_names_a_function_is_no_kernel_check(tmp_path: Path, library: Library) -> None:
    report = analysed_lines(tmp_path, library, ["An error occurred in function 'run': see the log above"], "x.log")
    assert report.verdict.id != "scheduler-crash", report.verdict.summary


@pytest.mark.parametrize(
    "line",
    [
        "ValueError: There is no module or parameter named 'aligner' in DeepseekV4ForCausalLM",
        "ValueError: There is no module or parameter named '_orig_mod' in Qwen2ForCausalLM",
    ],
)
def test_a_weight_the_model_class_has_no_place_for_is_a_model_that_could_not_load(
    tmp_path: Path, library: Library, line: str
) -> None:
    report = analysed_lines(tmp_path, library, [line], "excerpt.log")
    assert report.verdict.id == "model-load-failure", report.verdict.summary


def test_the_watchdogs_line_with_its_timeout_below_is_the_collective_timeout(tmp_path: Path, library: Library) -> None:
    lines = [
        "[PG ID 4 PG GUID 23(attention_tp:device) Rank 3] Process group watchdog thread terminated with exception:",
        "[Rank 3] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=14708, OpType=_ALLGATHER_BASE,",
        "NumelIn=38144, NumelOut=152576, Timeout(ms)=600000) ran for 600083 milliseconds before timing out.",
    ]
    report = analysed_lines(tmp_path, library, lines, "excerpt.log")
    assert report.verdict.id == "collective-timeout", report.verdict.summary


def test_the_watchdogs_line_with_a_gpu_error_below_stays_the_crash(tmp_path: Path, library: Library) -> None:
    lines = [
        "[PG ID 0 PG GUID 0(default_pg) Rank 1] Process group watchdog thread terminated with exception:",
        "HIP error: an illegal memory access was encountered",
    ]
    report = analysed_lines(tmp_path, library, lines, "excerpt.log")
    assert report.verdict.id != "collective-timeout", report.verdict.summary


def test_a_kernel_librarys_check_raised_outside_an_engine_is_no_schedulers_crash(
    tmp_path: Path, library: Library
) -> None:
    # deepseek-ai/DeepEP#114: its own test script, the stack in DeepEP's package alone
    lines = [
        '  File "/usr/local/lib/python3.10/dist-packages/deep_ep/buffer.py", line 426, in internode_combine',
        "    combined_x, combined_topk_weights, event = self.runtime.internode_combine(",
        "RuntimeError: Failed: Assertion error /workspace/DeepEP/csrc/kernels/internode.cu:1713 "
        "'num_max_nvl_chunked_recv_tokens / num_rdma_ranks > std::max(num_max_rdma_chunked_send_tokens, "
        "num_max_nvl_chunked_send_tokens)'",
    ]
    report = analysed_lines(tmp_path, library, lines, "excerpt.log")
    assert report.verdict.id == "inconclusive", report.verdict.summary


def test_a_message_that_ends_in_a_colon_is_read_with_its_indented_line_below(tmp_path: Path, library: Library) -> None:
    # vllm-project/vllm#40023: FlashInfer's error, its words on the lines under its first
    lines = [
        "RuntimeError: Error in function 'aligned_alloc' at /workspace/include/flashinfer/allocator.h:49:",
        "  Buffer overflow when allocating memory for batch_prefill_tmp_v",
        "  with size 536346624 and alignment 16,",
    ]
    report = analysed_lines(tmp_path, library, lines, "excerpt.log")
    assert "Buffer overflow when allocating memory for batch_prefill_tmp_v" in report.verdict.summary


def test_a_frame_below_a_colon_is_no_part_of_the_message(tmp_path: Path, library: Library) -> None:
    lines = [
        "Traceback (most recent call last):",
        '  File "/app/run.py", line 3, in <module>',
        "    main()",
        "RuntimeError: the worker failed with:",
        '  File "/app/worker.py", line 9, in step',
    ]
    report = analysed_lines(tmp_path, library, lines, "excerpt.log")
    assert "the worker failed with:" in report.verdict.summary
    assert 'failed with: File "/app/worker.py"' not in report.verdict.summary


# sgl-project/sglang#29008 as pasted: the install's path elided up to SGLang's runtime package.
SGLANG_ELIDED = [
    'File ".../srt/layers/attention/flashinfer_mla_backend.py", line 533, in forward_extend',
    "    return self.mha_chunk_kv_cache.forward(q, k, v, layer, forward_batch)",
    'File ".../flashinfer/prefill.py", line 3318, in run',
    "    raise ValueError(",
    "ValueError: q.shape[0] (8126) does not match qo_indptr[-1] (8125).",
]
# The same stack with another project's `srt` package (a subtitle library's), which ends no engine.
ELSEWHERE = [line.replace(".../srt/layers/attention/", ".../pysrt/layers/") for line in SGLANG_ELIDED]


def test_a_forward_whose_path_a_paste_elided_is_still_sglangs(tmp_path: Path, library: Library) -> None:
    (tmp_path / "sglang").mkdir()
    (tmp_path / "elsewhere").mkdir()
    report = analysed_lines(tmp_path / "sglang", library, SGLANG_ELIDED, "excerpt.log")
    assert report.verdict.id == "scheduler-crash", report.verdict.summary
    assert "does not match qo_indptr[-1] (8125)" in report.verdict.summary
    elsewhere = analysed_lines(tmp_path / "elsewhere", library, ELSEWHERE, "excerpt.log")
    assert elsewhere.verdict.id == "inconclusive", elsewhere.verdict.summary


def test_an_attention_backend_refusing_its_layer_is_a_crash_at_start_up(tmp_path: Path, library: Library) -> None:
    """vllm-project/vllm#24358: the attention layer builds its backend's implementation with the model,
    and FlexAttention refuses gpt-oss's sliding window: a start-up crash, not one of unknown phase."""
    tag = "(EngineCore_0 pid=62) ERROR 09-05 20:51:21 [core.py:718] "
    lines = [
        tag + '  File "/usr/local/lib/python3.12/dist-packages/vllm/attention/layer.py", line 182, in __init__',
        tag + "    self.impl = impl_cls(num_heads, head_size, scale, num_kv_heads,",
        tag + '  File "/usr/local/lib/python3.12/dist-packages/vllm/v1/attention/backends/flex_attention.py", '
        "line 644, in __init__",
        tag + "    raise NotImplementedError(",
        tag + "NotImplementedError: FlexAttention does not support sliding window yet.",
    ]
    report = analysed_lines(tmp_path, library, lines, "excerpt.log")
    assert report.verdict.id == "scheduler-init-crash", report.verdict.summary


def test_a_bare_assertion_is_quoted_with_the_statement_that_failed(tmp_path: Path, library: Library) -> None:
    """vllm-project/vllm#5162: a logger printed the traceback line by line; its `AssertionError` says
    nothing, the assert statement above it says what did not hold."""
    tag = "ERROR 06-01 09:25:52 async_llm_engine.py:45] "
    lines = [
        tag + '  File "/home/vllm/vllm/model_executor/layers/sampler.py", line 760, in _get_logprobs',
        tag + "    assert len(next_token_ids) == len(query_indices)",
        tag + "AssertionError",
    ]
    report = analysed_lines(tmp_path, library, lines, "excerpt.log")
    assert "`assert len(next_token_ids) == len(query_indices)`" in report.verdict.summary
