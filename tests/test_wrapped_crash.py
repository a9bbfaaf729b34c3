"""An engine whose exception only says a worker failed (vLLM's `WorkerProc initialization failed due to
an exception in a background process`) died of what the worker logged just above it: a failure the
library knows but cannot explain by itself is named, as when a traceback is cut (round 102's Dynamo
bundle: NIXL's backend error at start-up, UCX_NET_DEVICES=all). An exception that names its own cause
keeps it."""

from __future__ import annotations

from pathlib import Path

from pdlogdoctor.library.patterns import Library

from .conftest import analysed_lines

WORKER = "(EngineCore_DP0 pid=186) (Worker_TP0 pid=255) ERROR 06-19 03:26:41 [multiproc_executor.py:597] "
CORE = "(EngineCore_DP0 pid=186) ERROR 06-19 03:26:44 [core.py:708] "
NIXL_FAILED = WORKER + "nixl._bindings.nixlBackendError: NIXL_ERR_BACKEND"
CORE_FAILED = [
    "(EngineCore_DP0 pid=186) INFO 06-19 03:26:42 [multiproc_executor.py:558] Parent process exited, "
    "terminating worker",
    CORE + "EngineCore failed to start.",
    CORE + "Exception: WorkerProc initialization failed due to an exception in a background process. See stack "
    "trace for root cause.",
]


def test_a_wrapping_exception_names_the_failure_logged_just_above(tmp_path: Path, library: Library) -> None:
    report = analysed_lines(tmp_path, library, [NIXL_FAILED, *CORE_FAILED], "prefill.log")
    assert report.verdict.id in ("scheduler-init-crash", "scheduler-crash")
    assert "nixlBackendError: NIXL_ERR_BACKEND" in report.verdict.summary
    assert report.verdict.confidence < 0.5  # the library knows the line, no verdict names its cause


def test_an_exception_that_names_its_cause_keeps_it(tmp_path: Path, library: Library) -> None:
    named = CORE + "ValueError: The model's max seq len (131072) is larger than the maximum number of tokens"
    lines = [NIXL_FAILED, CORE_FAILED[0], CORE_FAILED[1], named]
    report = analysed_lines(tmp_path, library, lines, "prefill.log")
    assert "max seq len (131072)" in report.verdict.summary
