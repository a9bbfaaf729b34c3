"""Lines where nothing failed say how far they got (issue 22): the no-failure-seen summary quotes
the latest line the library knows (a start-up's last step, the last request routed), so a
start-up excerpt is told from another and the reader sees where the lines stop. The look-alike:
lines the library does not know give no step (none is made up).

Lines: vLLM's memory profile result (gpu_worker.py, vllm-project/aibrix#1433), sglang's KV pool
(mem_cache/memory_pool.py), Dynamo's response stream (tcp/server.rs, as a Dynamo worker logs it).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from pdlogdoctor.library.patterns import Library
from pdlogdoctor.pipeline import run

STARTS = [
    (
        "INFO 08-10 22:41:01 [config.py:1472] Using max model len 40960\n"
        "INFO 08-10 22:42:06 [gpu_worker.py:232] Available KV cache memory: 68.17 GiB\n",
        "Available KV cache memory: 68.17 GiB",
    ),
    (
        "[2025-08-08 03:34:38] KV Cache is allocated. #tokens: 104273, K size: 5.57 GB, V size: 5.57 GB\n",
        "KV Cache is allocated. #tokens: 104273",
    ),
    (
        "2025-09-07T07:05:29.018986Z DEBUG dynamo_runtime::pipeline::network::tcp::server: Registering new "
        "TcpStream on 10.63.146.171:44637\n",
        "Registering new TcpStream on 10.63.146.171:44637",
    ),
]


@pytest.mark.parametrize(("text", "step"), STARTS, ids=["vllm", "sglang", "dynamo"])
def test_the_summary_quotes_the_last_step_shown(library: Library, tmp_path: Path, text: str, step: str) -> None:
    (tmp_path / "server.log").write_text(text)
    report = run([str(tmp_path)], library)
    assert report.verdict.id == "no-failure-seen"
    assert "The last step shown:" in report.verdict.summary and step in report.verdict.summary


def test_lines_the_library_does_not_know_give_no_step(library: Library, tmp_path: Path) -> None:
    (tmp_path / "server.log").write_text("INFO 08-10 22:41:01 [config.py:1472] Using max model len 40960\n")
    report = run([str(tmp_path)], library)
    assert report.verdict.id == "no-failure-seen" and "last step" not in report.verdict.summary
