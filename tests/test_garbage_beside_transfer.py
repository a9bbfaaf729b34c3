"""Garbage answers read as the model path's only while no transfer is said to have failed: a line no
pattern names that says a KV transfer failed (vllm-project/vllm-ascend#8427, round 105's tester:
Mooncake's Ascend transport could not connect, then a 200 full of newlines) withdraws the claim,
keeps the reading as a lead below 0.5 and quotes the line."""

from __future__ import annotations

from pathlib import Path

from pdlogdoctor.library.patterns import Library
from pdlogdoctor.pipeline import run

ANSWER = (
    '{"id":"chatcmpl-5b1d","object":"chat.completion","created":1776651942,"model":"qwen3","choices":[{"index":0,'
    '"message":{"role":"assistant","content":"' + "\\n" * 64 + '"},"finish_reason":"length"}]}'
)
CONNECT_FAILED = (
    "E20260420 10:21:37.401022 6388 ascend_direct_transport.cpp:820] Failed to connect to target: 10.0.2.11:25482, "
    "status: 103900"
)


def _report(tmp_path: Path, library: Library, decode: list[str]) -> tuple[str, str, float]:
    (tmp_path / "client.txt").write_text(ANSWER + "\n")
    if decode:
        (tmp_path / "decode.log").write_text("\n".join(decode) + "\n")
    report = run([str(tmp_path)], library)
    return report.verdict.id, report.verdict.summary, report.verdict.confidence


def test_a_transfer_said_failed_keeps_garbage_a_lead(tmp_path: Path, library: Library) -> None:
    verdict, summary, confidence = _report(tmp_path, library, [CONNECT_FAILED])
    assert verdict == "output-corruption" and confidence < 0.5
    assert "no KV-transfer error is logged" not in summary
    assert "Failed to connect to target: 10.0.2.11:25482" in summary


def test_garbage_with_no_transfer_error_keeps_its_reading(tmp_path: Path, library: Library) -> None:
    verdict, summary, _confidence = _report(tmp_path, library, [])
    assert verdict == "output-corruption"
    assert "Failed to connect" not in summary
