"""llama.cpp's timings pasted twice: the later run of the same prompt is compared with the earlier
(patterns/ggml/llama-timings-repeated.toml, reason/compared.py's in-order comparison).

oobabooga/textgen#4611 pasted llama-cpp-python 0.2.11's timings over 0.2.18's for one 3200-token
prompt: prompt eval fell from 40.95 to 11.07 tokens per second, and no line says FAIL. The load
time's line heads each block; each phase's line states several numbers, each read by its clause's
words (`prompt eval time · tokens per second`). Look-alikes that must stay quiet: a faster later
run, two prompts of different lengths (a sweep, not a regression), a single block.
"""

from __future__ import annotations

from pathlib import Path

from pdlogdoctor.cli.behaviour import exit_code_for
from pdlogdoctor.model import Report
from pdlogdoctor.pipeline import run
from pdlogdoctor.reason.compared import regressed_in_order

from .conftest import shipped_library

LIBRARY = shipped_library()
# oobabooga/textgen#4611, as posted (llama-cpp-python 0.2.11, then 0.2.18)
OLDER = [
    "0.2.11:",
    "",
    "llama_print_timings:        load time =  8880.86 ms",
    "llama_print_timings:      sample time =   109.16 ms /   200 runs  "
    " (    0.55 ms per token,  1832.16 tokens per second)",
    "llama_print_timings: prompt eval time = 78151.46 ms /  3200 tokens"
    " (   24.42 ms per token,    40.95 tokens per second)",
    "llama_print_timings:        eval time = 133905.11 ms /   199 runs  "
    " (  672.89 ms per token,     1.49 tokens per second)",
    "llama_print_timings:       total time = 212725.49 ms",
]
NEWER = [
    "0.2.18 without -DLLAMA_CUDA_FORCE_MMQ=ON:",
    "",
    "llama_print_timings:        load time =   41630.44 ms",
    "llama_print_timings:      sample time =     126.56 ms /   200 runs  "
    " (    0.63 ms per token,  1580.24 tokens per second)",
    "llama_print_timings: prompt eval time =  289150.58 ms /  3200 tokens"
    " (   90.36 ms per token,    11.07 tokens per second)",
    "llama_print_timings:        eval time =  147013.30 ms /   199 runs  "
    " (  738.76 ms per token,     1.35 tokens per second)",
    "llama_print_timings:       total time =  437592.15 ms",
]
# llama.cpp's newer printer (src/llama-context.cpp llama_perf_context_print), one run's timings
CONTEXT_PRINT = [
    "llama_perf_context_print:        load time =    1140.12 ms",
    "llama_perf_context_print: prompt eval time =      71.06 ms /    22 tokens"
    " (    3.23 ms per token,   309.60 tokens per second)",
    "llama_perf_context_print:        eval time =    1296.31 ms /    63 runs  "
    " (   20.58 ms per token,    48.60 tokens per second)",
    "llama_perf_context_print:       total time =    1422.88 ms /    85 tokens",
]


def _analysed(tmp_path: Path, lines: list[str]) -> Report:
    (tmp_path / "paste.txt").write_text("".join(f"{line}\n" for line in lines))
    return run([str(tmp_path)], LIBRARY)


def test_a_slower_later_run_of_the_same_prompt_is_a_regression(tmp_path: Path) -> None:
    report = _analysed(tmp_path, [*OLDER, "", *NEWER])
    assert report.verdict.id == "performance-regression"
    assert int(exit_code_for(report)) == 1
    assert "prompt eval time · tokens per second went from 40.95 to 11.07 (-73.0%)" in report.verdict.summary
    assert any("289150.58 ms" in event.text or "41630.44" in event.text for event in report.chain)


def test_the_newer_printer_is_compared_alike(tmp_path: Path) -> None:
    slower = [line.replace("309.60 tokens per second", "201.30 tokens per second") for line in CONTEXT_PRINT]
    report = _analysed(tmp_path, [*CONTEXT_PRINT, "", *slower])
    assert report.verdict.id == "performance-regression"
    assert "went from 309.6 to 201.3" in report.verdict.summary


def test_a_faster_later_run_is_no_failure(tmp_path: Path) -> None:
    report = _analysed(tmp_path, [*NEWER, "", *OLDER])
    assert report.verdict.id != "performance-regression"
    assert int(exit_code_for(report)) != 1


def test_two_prompts_of_different_lengths_are_not_compared(tmp_path: Path) -> None:
    longer = [line.replace("3200 tokens", "6400 tokens") for line in NEWER]
    report = _analysed(tmp_path, [*OLDER, "", *longer])
    assert report.verdict.id != "performance-regression"


def test_one_block_alone_is_judged_against_nothing(tmp_path: Path) -> None:
    report = _analysed(tmp_path, OLDER)
    assert report.verdict.id == "no-failure-seen"


def test_each_number_of_a_line_is_read_by_its_clause() -> None:
    before = "; ".join(OLDER[3:7])
    after = "; ".join(NEWER[3:7])
    assert regressed_in_order(before, after)
    assert not regressed_in_order(after, before)
