"""A failed NIXL handshake that takes the decode's engine core down (round 38 bundles-a 03).

vLLM 0.11's decode checks the prefill's KV layout at the handshake (block size, layer shape and
dtype, the compatibility hash). When the check fails the request stays queued for a read from an
engine it never mapped, and the next step raises in `_read_blocks` (KeyError on the remote engine
id): the engine core dies of the mismatch. The mismatch is the root; the crash is its consequence.

Look-alikes: the same crash in another server's file, or long after the mismatch, is not its.
"""

from __future__ import annotations

from pathlib import Path

from pdlogdoctor.library.patterns import Library
from pdlogdoctor.model import Report

from .conftest import analysed_files

CORE = "(EngineCore_DP0 pid=281) ERROR 10-28 {t} [{src}] "
READY = "(APIServer pid=1) INFO 10-28 10:13:28 [api_server.py:1912] Starting vLLM API server 0 on http://0.0.0.0:8200"
MISMATCH = [
    CORE + "Handshake with bd8ec9a1-f803-45ed-bd7c-9ec7081ab44d failed",
    CORE + "Traceback (most recent call last):",
    CORE + '  File "/usr/local/lib/python3.12/dist-packages/vllm/distributed/kv_transfer/kv_connector/v1/'
    'nixl_connector.py", line 1000, in add_remote_agent',
    CORE + "    assert remote_block_len == self.block_len_per_layer[0] * tp_ratio, (",
    CORE + "AssertionError: Remote P worker KV layer cache must be of shape [2, N, local_kv_heads*tp_ratio, "
    "block_size, head_dim] and same dtype.",
]
CRASH = [
    CORE + "EngineCore encountered a fatal error.",
    CORE + "Traceback (most recent call last):",
    CORE + '  File "/usr/local/lib/python3.12/dist-packages/vllm/v1/engine/core.py", line 701, in run_engine_core',
    CORE + "    engine_core.run_busy_loop()",
    '(EngineCore_DP0 pid=281)   File "/usr/local/lib/python3.12/dist-packages/vllm/distributed/kv_transfer/'
    'kv_connector/v1/nixl_connector.py", line 1275, in _read_blocks',
    "(EngineCore_DP0 pid=281)     remote_xfer_side_handle = self.dst_xfer_side_handles[dst_engine_id]",
    "(EngineCore_DP0 pid=281) KeyError: 'bd8ec9a1-f803-45ed-bd7c-9ec7081ab44d'",
    "(APIServer pid=1) ERROR 10-28 {t} [async_llm.py:480] vllm.v1.engine.exceptions.EngineDeadError: EngineCore "
    "encountered an issue. See stack trace (above) for the root cause.",
]


def _lines(lines: list[str], at: str) -> list[str]:
    return [
        line.format(t=at, src="nixl_connector.py:723" if "Handshake" in line or "remote" in line else "core.py:710")
        for line in lines
    ]


def _crash_patterns(report: Report) -> set[str]:
    return {e.pattern for e in report.chain} & {"vllm-engine-core-fatal", "vllm-engine-dead-error"}


def test_the_mismatch_is_the_root_of_the_crash_it_causes(tmp_path: Path, library: Library) -> None:
    decode = [READY, *_lines(MISMATCH, "10:15:31"), *_lines(CRASH, "10:15:31")]
    report = analysed_files(tmp_path, library, {"decode.log": decode})
    assert report.verdict.id == "config-mismatch"
    assert report.verdict.confidence >= 0.5
    assert _crash_patterns(report) == {"vllm-engine-core-fatal", "vllm-engine-dead-error"}
    assert "Remote P worker KV layer cache must be of shape" in report.verdict.summary


def test_a_crash_elsewhere_or_much_later_is_not_the_mismatchs(tmp_path: Path, library: Library) -> None:
    elsewhere = analysed_files(
        tmp_path / "two",
        library,
        {"decode.log": [READY, *_lines(MISMATCH, "10:15:31")], "decode-1.log": [READY, *_lines(CRASH, "10:15:32")]},
    )
    later = analysed_files(
        tmp_path / "later", library, {"decode.log": [READY, *_lines(MISMATCH, "10:15:31"), *_lines(CRASH, "11:40:02")]}
    )
    for report in (elsewhere, later):
        assert report.verdict.id == "scheduler-runtime-crash", report.verdict.summary
