"""The exception a process died of, read by a pattern, whose own words state the cause (issue 22:
cause lines outrank wrappers; round 145's excerpts-a 02).

torch's process-group watchdog ends the process with `terminate called after throwing an instance of
'c10::DistBackendError'` and, on the `what():` line, the exception it died of. Patterns read both lines
as the crash's exception, but the crash's reading could not name a cause, and the report was
inconclusive though the words say which one. The words name it now, as they do on a line no pattern
reads: the family's verdict as a lead below 0.5, the line quoted. A watchdog's exception in no
family's words stays inconclusive.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from pdlogdoctor.library.patterns import Library

from .conftest import analysed_lines

TERMINATE = "terminate called after throwing an instance of 'c10::DistBackendError'"


def _watchdog(exception: str) -> list[str]:
    what = f"  what():  [PG ID 2 PG GUID 3 Rank 5] Process group watchdog thread terminated with exception: {exception}"
    return [TERMINATE, what, "Exception raised from query at /pytorch/c10/hip/HIPEvent.h:112 (most recent call first):"]


@pytest.mark.parametrize(
    ("exception", "verdict"),
    [
        # vllm-project/vllm#41622 (vLLM with LoRA on ROCm: the watchdog during graph capture)
        (
            "CUDA error: operation not permitted on an event last recorded in a capturing stream",
            "scheduler-init-crash",
        ),
        # the same watchdog on an allocation that failed (torch's NCCL checks, device memory's words)
        ("CUDA error: out of memory", "gpu-oom"),
    ],
)
def test_an_exception_whose_words_name_a_cause_gives_that_cause_as_a_lead(
    exception: str, verdict: str, tmp_path: Path, library: Library
) -> None:
    report = analysed_lines(tmp_path, library, _watchdog(exception), "worker.log")
    assert report.verdict.id == verdict, report.verdict.summary
    assert report.verdict.confidence < 0.5
    assert exception in report.verdict.summary
    assert report.alternatives[0].id == "inconclusive"


def test_an_exception_in_no_family_s_words_stays_inconclusive(tmp_path: Path, library: Library) -> None:
    report = analysed_lines(tmp_path, library, _watchdog("CUDA error: unknown error"), "worker.log")
    assert report.verdict.id == "inconclusive", report.verdict.summary
