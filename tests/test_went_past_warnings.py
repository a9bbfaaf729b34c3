"""A warning that something failed, which its program then went past, is no failure.

A transport library probes what the machine offers and warns when a probe fails: NCCL cannot open
libibverbs on a node without InfiniBand and falls back to its socket transport (NVIDIA/nccl-tests#82,
#18); NVSHMEM skips a NIC that cannot hold its buffers on an intranode DeepEP run
(deepseek-ai/DeepEP#303). In lines with no error, the program's output going on after the warnings
(the benchmark's rows, every rank's result) shows the probe declined and nothing stopped: no failure
seen, the warning quoted. The same warnings as the last lines of a log are another matter: whatever
came after is not shown, and the report stays inconclusive; so are warnings that keep coming (vLLM's
Mooncake connector failing to send every few seconds), output around them or not.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from pdlogdoctor.library.patterns import Library

from .conftest import analysed_lines

NCCL_WARN = "v100-gpu-1:14926:14926 [0] misc/ibvwrap.cc:63 NCCL WARN Failed to open libibverbs.so[.1]"
NCCL_TABLE = [
    "NCCL version 2.9.6+cuda11.2",
    "#",
    "#       size         count    type    root     time   algbw   busbw  error     time   algbw   busbw  error",
    "           8             2   float       0    45.82    0.00    0.00    N/A    38.17    0.00    0.00    N/A",
    "          16             4   float       0    44.47    0.00    0.00    N/A    38.47    0.00    0.00    N/A",
    "          32             8   float       0    44.54    0.00    0.00    N/A    38.33    0.00    0.00    N/A",
]
LMCACHE_WARN = (
    "(EngineCore_DP0 pid=18188) [2025-11-12 21:12:41,177] LMCache WARNING: Failed to allocate memory object, "
    "retrying... (pd_backend.py:489:lmcache.v1.storage_backend.pd_backend)"
)
LMCACHE_GOES_ON = [
    "(EngineCore_DP0 pid=18188) [2025-11-12 21:12:41,180] LMCache INFO: Storing KV cache for 14 out of 14 tokens "
    "(skip_leading_tokens=0) for request cmpl-2dba466675be4983b71641cb7c06e0e1-0 "
    "(vllm_v1_adapter.py:1209:lmcache.integration.vllm.vllm_v1_adapter)",
    "(EngineCore_DP0 pid=18188) [2025-11-12 21:12:41,220] LMCache INFO: Stored 14 out of total 14 tokens. size: "
    "0.0015 gb, cost 40.1644 ms, throughput: 0.0372 GB/s; offload_time: 0.6422 ms, put_time: 39.5222 ms "
    "(cache_engine.py:303:lmcache.v1.cache_engine)",
    "(EngineCore_DP0 pid=18188) [2025-11-12 21:12:41,734] LMCache INFO: Post-initializing LMCacheEngine "
    "(cache_engine.py:179:lmcache.v1.cache_engine)",
]
MOONCAKE_SEND_FAILED = (
    "(EngineCore_DP0 pid=3388) WARNING 12-01 16:{minute:02d}:{second:02d} [mooncake_connector.py:1212] Sending to "
    "10.20.1.12:16841 failed (ret=-1) after 8.084494852631222 (319 descriptors, 69206016 bytes)"
)


@pytest.mark.parametrize(
    "lines, warning",
    [
        ([NCCL_WARN, *NCCL_TABLE], "Failed to open libibverbs.so[.1]"),
        ([LMCACHE_WARN, *LMCACHE_GOES_ON], "Failed to allocate memory object"),
    ],
    ids=["nccl-socket-fallback", "lmcache-retried"],
)
def test_a_warning_its_program_went_past_is_no_failure(
    tmp_path: Path, library: Library, lines: list[str], warning: str
) -> None:
    report = analysed_lines(tmp_path, library, lines, "terminal.txt")
    assert report.verdict.id == "no-failure-seen"
    summary = report.verdict.summary
    assert warning in summary and "did not stop their program" in summary
    assert f"goes on for {len(lines) - 1} lines after the last of them" in summary


@pytest.mark.parametrize(
    "lines",
    [[*NCCL_TABLE[:1], NCCL_WARN], [*LMCACHE_GOES_ON, LMCACHE_WARN]],
    ids=["nccl-warning-last", "lmcache-warning-last"],
)
def test_a_log_that_ends_on_the_warning_stays_inconclusive(tmp_path: Path, library: Library, lines: list[str]) -> None:
    report = analysed_lines(tmp_path, library, lines, "terminal.txt")
    assert report.verdict.id == "inconclusive"
    assert report.verdict.summary.startswith("No error-level line, but a warning says something failed")


def test_two_lines_after_the_warning_are_too_few_to_show_it_went_on(tmp_path: Path, library: Library) -> None:
    """A line or two after a warning (a blank line, a version banner) is no output going on."""
    report = analysed_lines(tmp_path, library, [NCCL_WARN, *NCCL_TABLE[:2]], "terminal.txt")
    assert report.verdict.id == "inconclusive"


def test_warnings_that_keep_coming_are_no_probe_however_much_follows(tmp_path: Path, library: Library) -> None:
    """Seventeen failed sends over two minutes, the engine's other lines after them: a transfer that
    keeps failing, not a probe the program went past."""
    sends = [MOONCAKE_SEND_FAILED.format(minute=6 + i * 8 // 60, second=i * 8 % 60) for i in range(17)]
    report = analysed_lines(tmp_path, library, [*sends, *LMCACHE_GOES_ON], "decode.log")
    assert report.verdict.id != "no-failure-seen"
