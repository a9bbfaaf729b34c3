"""A pasted generation of words with no sentence in them is garbage output (issue 22).

A broken model may draw its tokens as if at random from the vocabulary without repeating any and
without leaving one script (vllm-project/vllm#12096: `embarked Sol existed trainer Tunisia ...`), so
the loop and token-soup shapes miss it; the missing grammar gives it away: almost no function word
among thirty words and more, capitalised and not. Look-alikes that must not fire: prose, lists of one
case (packages, model names), a signature of code, a log record, and the same line in a server's own
log (the pattern reads pastes only).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from pdlogdoctor.library.fields import wordiness
from pdlogdoctor.library.patterns import Library

from .conftest import analysed_lines

SALAD = (
    "... embarked Sol existed trainer Tunisia replacing Wash Bac knowing franchise Premier sun lacked Tight "
    "circulating survived polishing policy redund Blocks visibly gorgeous freeway scan quieter colonization "
    "Wat Info venues Model monitor hypertension divine inexpensive commute Forum"
)
# Another thread's shape (a Mixtral on V100s under vLLM, a blind round's excerpt): the same missing grammar.
OTHER_SALAD = (
    "Qu handy Sab en English knoba healing Spec request motion cleanmate suspended Bobious spread Stat On Mid "
    "sharp wit glow Ann tune stack frame bright hollow signal tower dusk marble ribbon lantern"
)
PROSE = (
    "The model answers the first request correctly, but after the second one the server keeps returning "
    "the same partial sentence and then it stops generating until the request times out on the client side"
)
PACKAGES = (
    "pip install torch transformers accelerate datasets evaluate sentencepiece protobuf tokenizers "
    "safetensors einops ninja packaging wheel setuptools numpy scipy pandas tqdm requests aiohttp fastapi "
    "uvicorn pydantic psutil triton xformers flashinfer ray"
)
MODELS = (
    "Supported: Llama Qwen Mistral Gemma Phi Falcon Baichuan Bloom ChatGLM Cohere Deepseek Exaone Granite "
    "InternLM Jais Jamba MiniCPM Mixtral Nemotron Olmo Orion Persimmon Solar Starcoder Aquila Arctic Bert "
    "Chameleon Dbrx Fuyu Idefics Llava"
)


def test_the_measures_tell_salad_from_prose_and_lists() -> None:
    salad, prose, packages, models = (wordiness(text) for text in (SALAD, PROSE, PACKAGES, MODELS))
    assert salad.words >= 30 and salad.function_share < 0.06 and 0.1 <= salad.capital_share <= 0.7
    assert prose.function_share > 0.3
    assert packages.capital_share == 0.0
    assert models.capital_share > 0.9


@pytest.mark.parametrize("salad", [SALAD, OTHER_SALAD], ids=["vllm-12096", "mixtral-v100"])
def test_a_pasted_word_salad_is_garbage_output(tmp_path: Path, library: Library, salad: str) -> None:
    report = analysed_lines(tmp_path, library, ["curl localhost:8000/v1/chat/completions", "", salad], "paste.txt")
    assert report.verdict.id == "output-corruption", report.verdict.summary
    assert salad[:40] in report.verdict.summary or any(salad[:40] in e.text for e in report.roots)


@pytest.mark.parametrize("line", [PROSE, PACKAGES, MODELS], ids=["prose", "packages", "models"])
def test_prose_and_lists_are_no_salad(tmp_path: Path, library: Library, line: str) -> None:
    report = analysed_lines(tmp_path, library, [line], "paste.txt")
    assert report.verdict.id != "output-corruption", report.verdict.summary


def test_a_servers_own_log_is_not_read_for_it(tmp_path: Path, library: Library) -> None:
    start = "[2026-02-26 05:35:08 TP0] Load weight end. elapsed=887.93 s, type=GlmMoeDsaForCausalLM"
    report = analysed_lines(tmp_path, library, [start, SALAD], "prefill.log")
    assert report.verdict.id != "output-corruption", report.verdict.summary
