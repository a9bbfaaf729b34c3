"""Unexplained errors are ranked by proximity to the failure (issue 22.5): a line that was already
repeating long before the failure, while the service worked, is routine noise and never leads; the
error nearest the failure does. Its twin: the same routine line alone still leads (it is the only
error there is), so the rule demotes, it does not hide.
"""

from __future__ import annotations

from pathlib import Path

from pdlogdoctor.library.patterns import Library
from pdlogdoctor.pipeline import run

# vLLM's lines in a GitHub Actions job log (the runner's timestamp before each line, as a downloaded
# job log has it); the messages are real (tests/data/excerpts/07-vllm-chat-template-400 and
# llm-d/llm-d#352), the times are this test's: a routine error every five minutes for an hour, then
# the failure.
ROUTINE = "2026-10-13T{hh}:{mm}:25.1000000Z ERROR 10-13 {hh}:{mm}:25 [serving.py:217] Chat template warmup failed"
FAILURE = (
    "2026-10-13T09:06:25.2000000Z ERROR 10-13 09:06:25 [v1/executor/multiproc_executor.py:597] RuntimeError: "
    "NCCL error: unhandled system error (run with NCCL_DEBUG=INFO for details)"
)


def _routine_lines() -> list[str]:
    return [ROUTINE.format(hh=f"{8 + (m // 60):02d}", mm=f"{m % 60:02d}") for m in range(0, 65, 5)]


def _lead(library: Library, tmp_path: Path, lines: list[str]) -> str:
    (tmp_path / "worker.log").write_text("\n".join(lines) + "\n")
    report = run([str(tmp_path)], library)
    lead = next((t for t in report.unrecognised if t.earliest), None)
    return lead.first.text if lead else ""


def test_a_routine_error_never_leads_over_the_error_at_the_failure(library: Library, tmp_path: Path) -> None:
    lead = _lead(library, tmp_path, [*_routine_lines(), FAILURE])
    assert "unhandled system error" in lead, lead


def test_a_routine_error_alone_still_leads(library: Library, tmp_path: Path) -> None:
    lead = _lead(library, tmp_path, _routine_lines())
    assert "Chat template warmup failed" in lead, lead
