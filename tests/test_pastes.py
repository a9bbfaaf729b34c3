"""Patterns read on pastes only (scan/pastes.py): a looping generation, a shape no anchor finds.

Real pastes from public threads, each with the report they get, and look-alikes that must not fire:
a tensor of NaNs, a hexdump, a masked key, base64's zeros, a tokenizer's padding.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from pdlogdoctor.library.patterns import Library, match_line
from pdlogdoctor.model import Report
from pdlogdoctor.pipeline import run
from pdlogdoctor.scan.events import HEAD_BYTES
from pdlogdoctor.scan.pastes import could_match

# ollama/ollama#12506: Qwen3-Coder under ollama 0.12.3, the answer pasted from the terminal.
OLLAMA_LOOP = [
    "ollama version is 0.12.3",
    ">>> Hello who are you and who created you?",
    "you, I am Qwen you, you, I am a large, I, am you, I am, you, I am, I, you, I, you, you, you, I, you, you, "
    "you, you, you, you, you, you, you, you, you, you, you, you, you,",
]
# AutoGPTQ/AutoGPTQ#321: a GPTQ Llama-7B's answers, printed as a Python list.
GPTQ_RUN = [
    "['Elon Musk is a South African-born Canadian-American business magnate, investor and inventor. He is the",
    " and chief engineer/designer of SpaceX; co-founder, CEO, and product architectOOODelegt_DelegO_OtOt" + "O" * 90,
]
LOOK_ALIKES = [
    "tensor([nan nan nan nan nan nan nan nan nan nan nan nan])",
    "00000010  ff ff ff ff ff ff ff ff ff ff ff ff ff ff ff ff  |................|",
    "api_key=sk-" + "X" * 64,
    "data: " + "A" * 80,
    "input_ids: " + " ".join(["[PAD]"] * 12),
    "INFO INFO INFO",
]


def report_of(tmp_path: Path, library: Library, lines: list[str], name: str = "paste.txt") -> Report:
    path = tmp_path / name
    path.write_text("\n".join(lines) + "\n")
    return run([str(path)], library)


@pytest.mark.parametrize(("lines", "looping"), [(OLLAMA_LOOP, 3), (GPTQ_RUN, 2)], ids=["ollama-12506", "autogptq-321"])
def test_a_pasted_generation_that_loops_is_output_corruption(
    tmp_path: Path, library: Library, lines: list[str], looping: int
) -> None:
    """Seen failing before: no-failure-seen, exit 3, nothing quoted (the loop is in no field)."""
    report = report_of(tmp_path, library, lines)
    assert report.verdict.id == "output-corruption"
    assert [(event.pattern, event.line) for event in report.roots] == [("generation-loop-in-paste", looping)]


def test_look_alikes_of_a_loop_are_no_failure(tmp_path: Path, library: Library) -> None:
    report = report_of(tmp_path, library, LOOK_ALIKES)
    assert report.verdict.id == "no-failure-seen"
    assert not [event for event in report.chain if event.pattern == "generation-loop-in-paste"]


def test_a_log_too_large_to_be_a_paste_is_not_read_for_loops(tmp_path: Path, library: Library) -> None:
    """Past HEAD_BYTES an input is a log, scanned by its anchors only: the shape is not searched."""
    filler = ["[2026-07-02 10:00:00] a line of no interest"] * (HEAD_BYTES // 40 + 10)
    report = report_of(tmp_path, library, [*filler, *OLLAMA_LOOP])
    assert not [event for event in report.chain if event.pattern == "generation-loop-in-paste"]


def test_the_cheap_test_lets_every_example_of_the_paste_patterns_through(library: Library) -> None:
    """pastes.could_match skips the patterns' own search on a paste it refuses: it must refuse
    nothing they match (their examples), and refuse a plain log's lines (the patterns' exclusions,
    not the test, refuse the look-alikes)."""
    pasted = [pattern for pattern in library.patterns if pattern.pastes_only]
    assert pasted
    for pattern in pasted:
        for example in pattern.examples.match:
            assert match_line(pattern, example) is not None
            assert could_match(example), (pattern.id, example)
    batch = "[2026-07-02 10:16:03 TP0] Decode batch. #running-req: 3, #token: 1234, gen throughput (token/s): 88.1"
    assert not could_match("\n".join([batch] * 40))


# vllm-project/vllm#6060: an answer after a model switch, garbage tokens of five scripts and a byte
# the detokenizer could not decode, as pasted (cut to its first words).
GARBAGE_TOKENS = [
    "Generated text:",
    "`ดาร价位 presenter �久しぶ האמריק流行пут崖耕地 conseils.quantity塅 interesseinscriptionoduexpenses",
]


def test_a_pasted_answer_of_garbage_tokens_is_corruption(tmp_path: Path, library: Library) -> None:
    report = report_of(tmp_path, library, GARBAGE_TOKENS)
    assert report.verdict.id == "output-corruption", report.verdict.summary
    assert [e for e in report.chain if e.pattern == "generation-undecodable-in-paste" and e.line == 2]


@pytest.mark.parametrize(
    "line",
    [
        "  | ���� Error: The command exited with status 3221225786",  # a runner's emoji its viewer mangled
        "[2026-01-05 10:00:01] 加载模型 model.safetensors � 完成",  # a log record's own decode error
        "价位 presenter 久しぶ пут conseils",  # several scripts, every byte decoded
    ],
)
def test_undecodable_bytes_outside_an_answer_are_no_corruption(tmp_path: Path, library: Library, line: str) -> None:
    report = report_of(tmp_path, library, [line])
    assert report.verdict.id != "output-corruption", report.verdict.summary


def test_a_log_too_large_to_be_a_paste_is_not_read_for_garbage_tokens(tmp_path: Path, library: Library) -> None:
    filler = ["[2026-07-02 10:00:00] a line of no interest"] * (HEAD_BYTES // 40 + 10)
    report = report_of(tmp_path, library, [*filler, *GARBAGE_TOKENS])
    assert not [e for e in report.chain if e.pattern == "generation-undecodable-in-paste"]
