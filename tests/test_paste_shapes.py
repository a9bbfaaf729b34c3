"""Shapes a paste gives the lines it copies, read as the lines they were (issue 22).

A reporter copies a traceback and pastes its exception line apart from the frames, without the
process's tag every frame carries; a logger's prefix is all that tells one bare `AssertionError`
from another; a reporter's bold marks the part of an access line that matters.
"""

from __future__ import annotations

from pathlib import Path

from pdlogdoctor.library.patterns import Library

from .conftest import analysed_lines

TAG = "(EngineCore_0 pid=2353) "
# LMCache/LMCache#1478 as a blind round's excerpt posted it: vLLM's engine core starting its KV connector.
START_UP_FRAMES = [
    TAG + '  File "/opt/venv/lib/python3.12/site-packages/vllm/v1/worker/gpu_worker.py", line 192, in init_device',
    TAG + "    init_worker_distributed_environment(self.vllm_config, self.rank,",
    TAG + '  File "/opt/venv/lib/python3.12/site-packages/vllm/distributed/kv_transfer/kv_transfer_state.py", line 63, '
    "in ensure_kv_transfer_initialized",
    TAG + "    _KV_CONNECTOR_AGENT = KVConnectorFactory.create_connector(",
]
UNBOUND = "UnboundLocalError: cannot access local variable 'local_cpu_backend' where it is not associated with a value"


def test_an_exception_pasted_without_its_tag_ends_its_processs_traceback(tmp_path: Path, library: Library) -> None:
    report = analysed_lines(tmp_path, library, [*START_UP_FRAMES, UNBOUND], "excerpt.log")
    assert report.verdict.id == "scheduler-init-crash", report.verdict.summary
    assert "local_cpu_backend" in report.verdict.summary and "init_device" in report.verdict.summary


def test_an_exception_under_another_processs_lines_is_not_theirs(tmp_path: Path, library: Library) -> None:
    """A line of another process between the frames and the exception ends the frames read above it."""
    other = "(APIServer pid=2210) INFO 05-19 10:13:11 [api_server.py:1839] Starting vLLM API server 0"
    report = analysed_lines(tmp_path, library, [*START_UP_FRAMES, other, UNBOUND], "excerpt.log")
    assert report.verdict.id != "scheduler-init-crash", report.verdict.summary


def test_a_bare_exception_is_quoted_with_its_loggers_prefix(tmp_path: Path, library: Library) -> None:
    lines = [
        "[multiproc_executor.py:596] AssertionError",
        '[multiproc_executor.py:596]   File "/home/LMCache/lmcache/v1/cache_engine.py", line 263, in store',
        "[multiproc_executor.py:596]     memory_obj = self.storage_manager.allocate(",
    ]
    report = analysed_lines(tmp_path, library, lines, "worker.log")
    assert "worker.log:1: [multiproc_executor.py:596] AssertionError" in report.verdict.summary


def test_a_message_of_several_words_is_quoted_without_its_prefix(tmp_path: Path, library: Library) -> None:
    lines = ["[multiproc_executor.py:596] RuntimeError: NIXL is not available"]
    report = analysed_lines(tmp_path, library, lines, "worker.log")
    assert "worker.log:1: RuntimeError: NIXL is not available" in report.verdict.summary


def test_an_access_lines_path_in_bold_is_read(tmp_path: Path, library: Library) -> None:
    line = '(APIServer pid=158) INFO:     10.250.145.10:53780 - "POST **/chat/completions** HTTP/1.1" 404 Not Found'
    report = analysed_lines(tmp_path, library, [line, line.replace("53780", "53784")], "vllm-server.log")
    assert report.verdict.id == "inconclusive", report.verdict.summary
    assert "refused all 2 requests" in report.verdict.summary
