"""An answer that is only a few `!` is token id 0 at every step (NaN or flat logits: vllm-project/vllm#22881),
however short; a garbage answer is never a blip the run survived, whatever was answered well around it
(vllm-project/vllm#20263: one completion in several came back `!!!!!!!!!!` from a P2pNcclConnector race,
every request 200); and with no transfer error the summary names the model path first without ruling the
transfer out. Look-alike: an answer that exclaims among words (SGLang's PD warmup answering `!` as a Python
dict is the pattern's own no_match example)."""

from __future__ import annotations

from pathlib import Path

from pdlogdoctor.cli.behaviour import exit_code_for
from pdlogdoctor.library.patterns import Library
from pdlogdoctor.pipeline import run

GOOD = (
    '{"id":"cmpl-0d9","object":"text_completion","created":1751263680,"model":"base_model","choices":[{"index":0,'
    '"text":" a city in California, known for its hills","logprobs":null,"finish_reason":"length"}]}'
)
BANGS = (
    '{"id":"cmpl-1e4","object":"text_completion","created":1751263688,"model":"base_model","choices":[{"index":0,'
    '"text":"!!!!!!!!!!","logprobs":null,"finish_reason":"length"}]}'
)
EXCLAIMS = '{"text":"!!!! That is great news"}'
# vLLM's access line and engine stats line (vllm/v1/metrics/loggers.py), a decode that served.
SERVED = [
    'INFO:     10.0.1.1:51001 - "POST /v1/completions HTTP/1.1" 200 OK',
    "(APIServer pid=1) INFO 06-30 06:08:10 [loggers.py:118] Engine 000: Avg prompt throughput: 0.0 tokens/s, "
    "Avg generation throughput: 12.0 tokens/s, Running: 1 reqs, Waiting: 0 reqs, GPU KV cache usage: 0.1%, "
    "Prefix cache hit rate: 0.0%",
]


def _verdict(tmp_path: Path, library: Library, files: dict[str, list[str]]) -> tuple[str, str, int]:
    for name, lines in files.items():
        (tmp_path / name).write_text("\n".join(lines) + "\n")
    report = run([str(tmp_path)], library)
    return report.verdict.id, report.verdict.summary, int(exit_code_for(report))


def test_ten_bangs_among_good_answers_are_corruption(tmp_path: Path, library: Library) -> None:
    verdict, summary, exit_code = _verdict(
        tmp_path, library, {"client.log": [GOOD, GOOD, BANGS, GOOD], "decode.log": SERVED * 3}
    )
    assert (verdict, exit_code) == ("output-corruption", 1)
    assert '"text":"!!!!!!!!!!"' in summary
    # No transfer error is no proof the transfer worked: the summary must not rule it out.
    assert "not the transport" not in summary and "without an error writes the same garbage" in summary


def test_four_bangs_alone_are_corruption(tmp_path: Path, library: Library) -> None:
    verdict, _, _ = _verdict(tmp_path, library, {"excerpt.log": ['{"text":"!!!!"}']})
    assert verdict == "output-corruption"


def test_an_answer_that_exclaims_among_words_is_not_garbage(tmp_path: Path, library: Library) -> None:
    verdict, _, _ = _verdict(tmp_path, library, {"client.log": [EXCLAIMS, GOOD], "decode.log": SERVED})
    assert verdict != "output-corruption"


def test_a_pd_decodes_warmup_of_bangs_is_cleared_by_its_serving(tmp_path: Path, library: Library) -> None:
    # A PD decode warms up on a fake transfer and may answer `!` (ids 0): the server probing itself before
    # it serves, which its ready line and answers after clear; a garbage answer a client got is not.
    warmup = (
        "[2025-10-16 15:12:55] End of prefill disaggregation mode warmup with status 200, resp: [{'text': "
        "'!!!!!!!!', 'output_ids': [0, 0, 0, 0, 0, 0, 0, 0], 'meta_info': {'id': '4bcb8afb05192ee31f1cf1ac3fcf3c04', "
        "'finish_reason': {'type': 'length', 'length': 8}, 'prompt_tokens': 4, 'weight_version': 'default', "
        "'completion_tokens': 8, 'cached_tokens': 0, 'e2e_latency': 0.6113244884786861}}]"
    )
    served = [
        warmup,
        "[2025-10-16 15:12:55] The server is fired up and ready to roll!",
        '[2025-10-16 15:13:20] INFO:     127.0.0.1:45678 - "POST /generate HTTP/1.1" 200 OK',
        '[2025-10-16 15:13:21] INFO:     127.0.0.1:45679 - "POST /generate HTTP/1.1" 200 OK',
    ]
    verdict, _, exit_code = _verdict(tmp_path, library, {"decode.log": served})
    assert (verdict, exit_code) == ("healthy", 0)
