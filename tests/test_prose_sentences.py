"""A report's sentence wrapped by hand over rows is read whole (scan/prose.py): a PR's `scores **74.00%**
with **285 of 1319 answers` / `degenerate**; with this PR ...` (a vllm-project/vllm PR, Kimi-K3 with an FP8
KV cache on ROCm AITER MLA), and ROCm/aiter#1455's sentence on an accuracy loss wrapped as an editor does at
66 columns; a row's sentences one at a time (vllm-project/vllm#41603), without Markdown's bold (iree-org/wave#192).
Look-alikes: the same rows in a code fence, as a list's items, as a log's stamped lines, rows too short to be an
editor's width, a paragraph break, a sentence that denies the finding; and a row that is one sentence stays the
scan's."""

from __future__ import annotations

import textwrap
from pathlib import Path

from pdlogdoctor.cli.behaviour import exit_code_for
from pdlogdoctor.library.formats import shipped
from pdlogdoctor.library.patterns import Library, match_line
from pdlogdoctor.pipeline import run
from pdlogdoctor.scan.prose import _paragraphs, _sentences_to_read

# The PR's rows as its author wrapped them (tests/data/blind-round157-excerpts-b/02-...).
KIMI_ROWS = [
    "Kimi-K3 at TP8 has 12 MLA heads per rank and cannot serve correctly with",
    "`--kv-cache-dtype fp8` on the ROCm AITER MLA backend. On unmodified main, a full",
    "GSM8K run at that configuration scores **74.00%** with **285 of 1319 answers",
    "degenerate**; with this PR it scores **97.19%** with **none**. The backend fails",
    "three different ways depending on head count and query length, and the third is",
    "the dangerous one because nothing reports it.",
]
# ROCm/aiter#1455's sentence (patterns/harness/accuracy-drop-stated.toml's example), wrapped at 66: its
# `appears to result in complete` on one row, `accuracy loss as measured by gsm8k eval.` on the next.
AITER_SENTENCE = (
    "When testing Kimi-K2-Thinking with VLLM on MI300X with DP2TP4, enabling VLLM_ROCM_USE_AITER_MLA appears "
    "to result in complete accuracy loss as measured by gsm8k eval."
)
AITER_ROWS = textwrap.wrap(AITER_SENTENCE, 66)


def _report(tmp_path: Path, library: Library, rows: list[str]) -> tuple[str, str, int]:
    (tmp_path / "excerpt.log").write_text("\n".join(rows) + "\n")
    report = run([str(tmp_path)], library)
    return report.verdict.id, report.verdict.summary, int(exit_code_for(report))


def test_a_count_of_degenerate_answers_across_rows_is_corruption(tmp_path: Path, library: Library) -> None:
    verdict, summary, exit_code = _report(tmp_path, library, ["## Purpose", "", *KIMI_ROWS])
    assert (verdict, exit_code) == ("output-corruption", 1)
    # Quoted as the sentence, at the row it starts on (the PR's fourth row: `... On unmodified main, a full`).
    assert "excerpt.log:4:" in summary and "285 of 1319 answers degenerate" in summary


def test_an_accuracy_loss_wrapped_at_66_columns_is_read(tmp_path: Path, library: Library) -> None:
    stated = library.pattern("accuracy-drop-stated")
    assert match_line(stated, AITER_SENTENCE) is not None
    assert all(match_line(stated, row) is None for row in AITER_ROWS)  # no row alone says it
    verdict, summary, exit_code = _report(tmp_path, library, AITER_ROWS)
    assert (verdict, exit_code) == ("accuracy-regression", 1)
    assert "excerpt.log:1:" in summary and "complete accuracy loss" in summary


def test_rows_that_are_not_one_paragraph_are_not_joined(tmp_path: Path, library: Library) -> None:
    shapes = {
        "fenced": ["```", *AITER_ROWS, "```"],
        "list items": [f"- {row}" for row in AITER_ROWS],
        "a log's lines": [f"[2026-03-02 10:00:0{n}] {row}" for n, row in enumerate(AITER_ROWS)],
        "rows shorter than an editor wraps at": textwrap.wrap(AITER_SENTENCE, 30),
        "a paragraph break": [*AITER_ROWS[:2], "", *AITER_ROWS[2:]],
    }
    for shape, rows in shapes.items():
        verdict, _, _ = _report(tmp_path, library, rows)
        assert verdict != "accuracy-regression", shape


def test_a_sentence_that_denies_the_loss_reports_none(tmp_path: Path, library: Library) -> None:
    denied = AITER_SENTENCE.replace("appears to result in", "does not result in")
    verdict, _, _ = _report(tmp_path, library, textwrap.wrap(denied, 66))
    assert verdict != "accuracy-regression"


def test_only_sentences_to_read_rows_are_read_again() -> None:
    rows = list(enumerate(KIMI_ROWS, start=3))
    (paragraph,) = list(_paragraphs("## Purpose\n\n" + "\n".join(KIMI_ROWS), shipped()))
    assert paragraph == rows
    sentences = list(_sentences_to_read(paragraph))
    # The first sentence lies on rows 3 and 4, the second on 4 to 6, the third on 6 to 8.
    assert [numbers for _, numbers in sentences] == [(3, 4), (4, 5, 6), (6, 7, 8)]
    assert sentences[1][0].startswith("On unmodified main, a full GSM8K run")
    assert sentences[1][0].endswith("with **none**.")


# vllm-project/vllm#41603's opening line: its second sentence's `reverts` (a test that reverts a change)
# would hide its first sentence's finding from a guard that reads the whole line.
THROUGHPUT_ROW = (
    "I'm seeing a large DeepSeek-V4-Pro MTP2 throughput regression on GB200 between a pre-merge PR container and "
    "newer vLLM images. A one-off test that reverts the FP32->FP4 cvt path from #41015 on top of the nightly "
    "recovers most of the lost throughput, so #41015 looks like the current lead suspect."
)


def test_a_row_of_sentences_is_read_a_sentence_at_a_time(tmp_path: Path, library: Library) -> None:
    stated = library.pattern("performance-drop-stated")
    assert match_line(stated, THROUGHPUT_ROW) is None  # the whole row: its `reverts` guards it
    verdict, summary, exit_code = _report(tmp_path, library, [THROUGHPUT_ROW])
    assert (verdict, exit_code) == ("performance-regression", 1)
    assert "excerpt.log:1:" in summary and "throughput regression on GB200" in summary
    # A sentence that denies it stays unread, whatever the sentence beside it says.
    denied = THROUGHPUT_ROW.replace("I'm seeing a large", "I'm not seeing a large")
    assert _report(tmp_path, library, [denied])[0] != "performance-regression"


# iree-org/wave#192's opening sentence: Markdown's bold between the words a pattern reads together.
BOLD_DROP = (
    "We observed a significant **accuracy drop** when running `Meta-Llama-3.1-8B-Instruct` on **MI355x**, while "
    "the same setup **passes on MI300x**. The issue has been also observed by Nithin."
)


def test_a_sentence_is_read_without_its_bold_marks(tmp_path: Path, library: Library) -> None:
    assert match_line(library.pattern("accuracy-drop-stated"), BOLD_DROP) is None
    verdict, summary, _ = _report(tmp_path, library, [BOLD_DROP])
    assert verdict == "accuracy-regression"
    assert "significant **accuracy drop**" in summary  # quoted as written
    # Bold around a denial is still a denial.
    denied = BOLD_DROP.replace("We observed a significant", "We did not observe a significant")
    assert _report(tmp_path, library, [denied])[0] != "accuracy-regression"
