"""A whitespace-aligned results table whose rows are variants of one model: a variant whose accuracy
is more than 10 % below the model's is a failed gate (issue 22: no failed run called healthy).

ArcticInference's `Final Benchmark Summary` prints pandas' table: two header lines (the task over
its metric) over a row per configuration of one model, `llama_8b` then `llama_8b_shift`,
`llama_8b_swiftkv`, ... (snowflakedb/ArcticInference#217: the SwiftKV row's ifeval at 0.589 against
0.796, under a pytest summary that passed). scan/tables.read_variants_below takes the first row
whose name begins other rows' names as the model and judges the others' accuracy columns against it.
Look-alikes that must stay quiet: variants within 10 %, a variant worse only on latency or
throughput (what a variant changes), rows of different models, a header with no row below.
"""

from __future__ import annotations

from pathlib import Path

from pdlogdoctor.cli.behaviour import exit_code_for
from pdlogdoctor.model import Report
from pdlogdoctor.pipeline import run
from pdlogdoctor.scan.tables import read_configurations_below, read_variants_below

from .conftest import shipped_library

LIBRARY = shipped_library()
HEADER = [
    "=========================== Final Benchmark Summary ============================",
    "task                      batch     single           arc_challenge     gsm8k    ifeval  mmlu_pro",
    "metric               throughput    ttft_ms   tpot_ms           acc       acc     score       acc",
    "llama_8b           87719.882994  28.708074  2.940518      0.825939  0.796058  0.795644  0.326961",
    "llama_8b_shift     97438.926692   28.96442  3.338278      0.829352  0.794541   0.78895  0.324967",
]
SWIFTKV_DROPPED = "llama_8b_swiftkv  120503.192562  23.448478  4.084228      0.824232  0.749052  0.589365  0.301114"
# The same variant scoring like the model, with a latency twice the model's: not judged.
SWIFTKV_SLOWER = "llama_8b_swiftkv  120503.192562  57.448478  8.084228      0.824232  0.790052  0.781365  0.321114"
PASSED = "=========== 30 passed, 5 skipped, 27 warnings in 9057.21s (2:30:57) ============"


def _analysed(tmp_path: Path, lines: list[str]) -> Report:
    (tmp_path / "bench.log").write_text("".join(f"{line}\n" for line in lines))
    return run([str(tmp_path)], LIBRARY)


def _read(lines: list[str], header_at: int) -> dict[str, object]:
    text = "".join(f"{line}\n" for line in lines).encode()
    start = sum(len(line) + 1 for line in lines[:header_at])
    return dict(read_variants_below(text, start, start + len(lines[header_at]), len(text)))


def test_a_variant_scoring_a_quarter_lower_is_an_accuracy_regression(tmp_path: Path) -> None:
    report = _analysed(tmp_path, [*HEADER, SWIFTKV_DROPPED, PASSED])
    assert report.verdict.id == "accuracy-regression"
    assert exit_code_for(report) != 0
    assert "0.589365" in report.verdict.summary and "llama_8b -> llama_8b_swiftkv" in report.verdict.summary


def test_the_worst_accuracy_column_is_named_with_its_task_and_metric() -> None:
    found = _read([*HEADER, SWIFTKV_DROPPED], 1)
    assert found["metric"] == "ifeval score"
    assert (found["baseline"], found["value"]) == (0.795644, 0.589365)
    assert found["worse"] == round((0.795644 - 0.589365) / 0.795644, 4)
    assert found["row"] == SWIFTKV_DROPPED


def test_the_second_header_line_does_not_read_the_table_again() -> None:
    assert _read([*HEADER, SWIFTKV_DROPPED], 2) == {}


def test_a_variant_slower_but_as_accurate_is_not_judged(tmp_path: Path) -> None:
    assert _read([*HEADER, SWIFTKV_SLOWER], 1)["worse"] < 0.1
    report = _analysed(tmp_path, [*HEADER, SWIFTKV_SLOWER, PASSED])
    assert report.verdict.id == "healthy"


def test_rows_of_different_models_are_not_compared() -> None:
    table = [
        "model            gsm8k     mmlu",
        "llama-3.1-8b    0.7910   0.6810",
        "qwen2.5-1.5b    0.6210   0.5980",
    ]
    assert _read(table, 0) == {}


def test_a_header_with_no_row_below_reads_nothing() -> None:
    assert _read(["model            gsm8k     mmlu", "(no results)"], 0) == {}


# intel/auto-round#2067's table: the first row is the unquantised model the others are measured against.
CONFIGURATIONS = [
    "| Precision                  | hellaswag | piqa   | mmlu   | gsm8k  | average | Ratio  |",
    "| -------------------------- | --------- | ------ | ------ | ------ | ------- | ------ |",
    "| bf16                       | 0.5976    | 0.8025 | 0.6837 | 0.7119 | 0.69893 |    -   |",
    "| mxfp4_mixed ultrachat_200k | 0.5978    | 0.8025 | 0.6768 | {gsm8k} | 0.67868 | 0.9709 |",
]


def test_a_configuration_scoring_more_than_a_tenth_lower_than_the_first_row_is_a_regression(tmp_path: Path) -> None:
    report = _analysed(tmp_path, [line.replace("{gsm8k}", "0.6376") for line in CONFIGURATIONS])
    assert report.verdict.id == "accuracy-regression", report.verdict.summary
    assert "bf16 -> mxfp4_mixed ultrachat_200k" in report.verdict.summary
    assert f"{(0.6376 - 0.7119) / 0.7119:+.1%}" in report.verdict.summary


def test_a_configuration_within_a_tenth_of_the_first_row_is_no_gate(tmp_path: Path) -> None:
    report = _analysed(tmp_path, [line.replace("{gsm8k}", "0.6950") for line in CONFIGURATIONS])
    assert report.verdict.id != "accuracy-regression", report.verdict.summary


def test_a_configuration_only_slower_is_not_judged(tmp_path: Path) -> None:
    table = [
        "| Backend | gsm8k | TTFT (ms) |",
        "|---|---|---|",
        "| flashinfer | 0.951 | 120 |",
        "| triton | 0.948 | 310 |",
    ]
    report = _analysed(tmp_path, table)
    assert report.verdict.id != "accuracy-regression", report.verdict.summary
    assert report.verdict.id != "performance-regression", report.verdict.summary


def test_an_accuracy_column_is_better_higher_whatever_its_task_is_named() -> None:
    # `hellaswag` is no word model/measures.py knows the way of: a drop is still a drop, a rise no drop
    variant = "| mxfp4_mixed ultrachat_200k | 0.5978    |"
    dropped = [
        line.replace("{gsm8k}", "0.7119").replace(variant, variant.replace("0.5978", "0.4700"))
        for line in CONFIGURATIONS
    ]
    risen = [
        line.replace("{gsm8k}", "0.7119").replace(variant, variant.replace("0.5978", "0.7100"))
        for line in CONFIGURATIONS
    ]
    found = _read_configurations(dropped)
    assert found["metric"] == "hellaswag"
    assert found["worse"] == round((0.5976 - 0.4700) / 0.5976, 4)
    assert _read_configurations(risen)["worse"] < 0.1


def _read_configurations(lines: list[str]) -> dict[str, object]:
    text = "".join(f"{line}\n" for line in lines).encode()
    return dict(read_configurations_below(text, 0, len(lines[0]), len(text)))


# sgl-project/sglang#26518's table (round 81's excerpts-c 08): one model on two attention backends, and
# two other models beside it.
MODEL_ROWS = [
    "| Model | Quant | MoE | Attention backend | MMLU avg |",
    "|---|---|---:|---|---:|",
    "| `nvidia/Gemma-4-26B-A4B-NVFP4` | NVFP4 | yes | `trtllm_mha` default | {low} |",
    "| `nvidia/Gemma-4-26B-A4B-NVFP4` | NVFP4 | yes | `triton` | 0.622 |",
    "| `google/gemma-4-26B-A4B-it` | BF16 | yes | `trtllm_mha` default | 0.627 |",
    "| `nvidia/Gemma-4-31B-IT-NVFP4` | NVFP4 | no | `trtllm_mha` default | 0.681 |",
]


def test_one_model_scoring_far_lower_under_one_setting_is_a_regression(tmp_path: Path) -> None:
    report = _analysed(tmp_path, [line.replace("{low}", "0.037") for line in MODEL_ROWS])
    assert report.verdict.id == "accuracy-regression", report.verdict.summary
    assert "`triton` -> `trtllm_mha` default" in report.verdict.summary
    assert f"{(0.037 - 0.622) / 0.622:+.1%}" in report.verdict.summary


def test_one_model_within_a_fifth_of_its_best_is_no_gate(tmp_path: Path) -> None:
    """The best of a model's rows is the reference only after the fact: a drop of 12 % is no gate."""
    report = _analysed(tmp_path, [line.replace("{low}", "0.547") for line in MODEL_ROWS])
    assert report.verdict.id != "accuracy-regression", report.verdict.summary


def test_rows_of_different_models_in_a_model_table_are_not_compared(tmp_path: Path) -> None:
    """Each model once: a 1B model at a third of a 70B's score is what it is."""
    table = [
        "| Model | Quant | gsm8k |",
        "|---|---|---|",
        "| Llama-3.2-1B | BF16 | 0.301 |",
        "| Llama-3.3-70B | FP8 | 0.952 |",
    ]
    report = _analysed(tmp_path, table)
    assert report.verdict.id != "accuracy-regression", report.verdict.summary
