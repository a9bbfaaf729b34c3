"""A P/D decode that computed every prompt itself is no healthy run (issue 22; rounds 177 and 181).

The decode's own counters say the prefill's KV was not used: vLLM's stats line with a KV connector
(`External prefix cache hit rate: 0.0%` while requests run) and LMCache's lookup of each request
(`LMCache hit tokens: 0` for every one). The look-alikes: the same decode with its hits near 100 %, the
same zero hits in a prefill's log (a prefill misses on every new prompt by design), and too few lines.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from pdlogdoctor.library.patterns import Library
from pdlogdoctor.model import Report

from .conftest import analysed_files

ANSWERED = 'INFO:     10.0.0.7:{port} - "POST /v1/completions HTTP/1.1" 200 OK'


def _vllm_stats(second: int, external: float, running: int = 15, prompt: float = 10685.6) -> str:
    """vLLM's V1 stats line with a KV connector (vllm/v1/metrics/loggers.py), as a decode prints it."""
    return (
        f"(APIServer pid=1) INFO 09-23 10:05:{second:02d} [loggers.py:257] Engine 000: Avg prompt throughput: "
        f"{prompt:.1f} tokens/s, Avg generation throughput: 579.2 tokens/s, Running: {running} reqs, Waiting: 0 reqs, "
        f"GPU KV cache usage: 8.2%, Prefix cache hit rate: 0.0%, External prefix cache hit rate: {external:.1f}%"
    )


def _lmcache_lookup(n: int, hits: int) -> str:
    """LMCache's lookup line (lmcache/integration/vllm/vllm_v1_adapter.py, get_num_new_matched_tokens)."""
    return (
        f"[2025-07-23 06:20:{n:02d},869] LMCache INFO: Reqid: cmpl-{n:032x}-0, Total tokens 4001, "
        f"LMCache hit tokens: {hits}, need to load: {hits} "
        "(vllm_v1_adapter.py:822:lmcache.integration.vllm.vllm_v1_adapter)"
    )


def _served(lines: list[str]) -> list[str]:
    return [line for n, stat in enumerate(lines) for line in (stat, ANSWERED.format(port=40000 + n))]


PREFILL = ["[2025-07-23 06:19:00] INFO:     Uvicorn running on http://0.0.0.0:8100 (Press CTRL+C to quit)"]


def _report(tmp_path: Path, library: Library, decode: list[str], name: str = "decode.log") -> Report:
    return analysed_files(tmp_path, library, {"prefill.log": PREFILL, name: _served(decode)})


@pytest.mark.parametrize(
    ("lines", "said"),
    [
        ([_vllm_stats(s, 0.0) for s in (10, 20, 30, 40)], "external prefix cache hit rate"),
        ([_lmcache_lookup(n, 0) for n in range(1, 6)], "LMCache on the decode found none"),
    ],
    ids=["vllm-external-hits", "lmcache-lookups"],
)
def test_a_decode_that_loaded_no_kv_is_not_healthy(
    tmp_path: Path, library: Library, lines: list[str], said: str
) -> None:
    report = _report(tmp_path, library, lines)
    assert report.verdict.id == "inconclusive", report.verdict.summary
    assert said in report.verdict.summary
    assert "computed the prompts itself" in report.verdict.summary
    assert report.verdict.confidence < 0.5


@pytest.mark.parametrize(
    "lines",
    [
        [_vllm_stats(s, 99.5) for s in (10, 20, 30, 40)],
        [_lmcache_lookup(n, 3968) for n in range(1, 6)],
        [_vllm_stats(s, 0.0) for s in (10, 20)],  # two lines: too few to be a pattern
        # the engine's idle lines after its work: a rate over no request reads 0 (round 22's bundles-b 06)
        [*(_vllm_stats(s, 99.5) for s in (10, 20, 30)), *(_vllm_stats(s, 0.0, 0, 0.0) for s in (40, 50, 59))],
    ],
    ids=["vllm-hits", "lmcache-hits", "too-few", "idle-after-work"],
)
def test_a_decode_that_loaded_its_kv_stays_healthy(tmp_path: Path, library: Library, lines: list[str]) -> None:
    assert _report(tmp_path, library, lines).verdict.id == "healthy"


def test_zero_hits_in_a_prefills_log_are_by_design(tmp_path: Path, library: Library) -> None:
    lines = [_lmcache_lookup(n, 0) for n in range(1, 6)]
    report = analysed_files(tmp_path, library, {"prefiller.log": _served(lines), "decoder.log": PREFILL})
    assert report.verdict.id != "inconclusive", report.verdict.summary
