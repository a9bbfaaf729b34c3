"""Hangs and watchdogs are failures, whoever prints them (issue 22, task "hangs").

A watchdog that kills its process is the failure's own line: sglang's scheduler watchdog (a
crash of the scheduler, its phase told by the other lines), PyTorch's NCCL watchdog in each of its
wordings (a collective timeout when the line says timeout, a symptom when it says "error or
timeout"). A py-spy dump is evidence that a process hung, and its running thread's innermost frame
is where: the report quotes it. Look-alikes stay quiet: a soft watchdog (the process goes on), the
watchdog's start-up line, an idle thread in a dump.

The lines are real (sglang#5034, sglang#3932, sglang PR #27563) or rendered from the source
(sglang utils/watchdog.py, py-spy src/dump.rs), as the patterns' comments say.
"""

from __future__ import annotations

from pathlib import Path

from pdlogdoctor.cli.behaviour import exit_code_for
from pdlogdoctor.library.frames import parse_frame
from pdlogdoctor.library.patterns import Library
from pdlogdoctor.model import Report
from pdlogdoctor.scan.traceback import read_traceback, stack_of

from .conftest import analysed_lines

PYSPY_DUMP = [
    "Process 309: sglang::scheduler_TP6",
    "Python v3.12.12 (/usr/bin/python3.12)",
    "",
    'Thread 0x7CBADFD28B80 (active): "MainThread"',
    "    create_backend (nixl_cu13/_api.py:383)",
    "    __init__ (nixl/conn.py:400)",
    "    _init_kv_manager (prefill.py:205)",
    "    init_disaggregation (scheduler.py:1186)",
    "    __init__ (scheduler.py:537)",
    "",
    'Thread 12816 (idle): "Thread-10 (watchdog_thread)"',
    "    watchdog_thread (scheduler.py:2257)",
    "    run (threading.py:1012)",
]


def _report(tmp_path: Path, library: Library, lines: list[str], name: str = "paste.txt") -> Report:
    return analysed_lines(tmp_path, library, lines, name)


def test_py_spy_frames_are_frames_innermost_first() -> None:
    python = parse_frame("    create_backend (nixl_cu13/_api.py:383)")
    native = parse_frame("    cuStreamSynchronize (libcuda.so.1)")
    assert python is not None and (python.func, python.file, python.line) == (
        "create_backend",
        "nixl_cu13/_api.py",
        383,
    )
    assert python.innermost_first and not python.native
    assert native is not None and native.native and native.file == "libcuda.so.1"
    for line in ("    return foo(x)", 'Thread 12816 (idle): "Thread-10 (watchdog_thread)"', "    select (x)"):
        assert parse_frame(line) is None, line


def test_a_dump_under_a_thread_reads_its_stack_outermost_first() -> None:
    buf = "\n".join(PYSPY_DUMP[3:]).encode()
    fields = read_traceback(buf, buf.find(b"\n"), len(buf))
    stack = stack_of(fields.get)
    assert [frame.func for frame in stack][:2] == ["__init__", "init_disaggregation"]
    assert stack[-1].func == "create_backend"  # the innermost, where the thread stood
    assert fields["traceback_frames"] == 5  # the idle thread's frames are another stack


def test_a_py_spy_dump_is_a_hang_and_its_stuck_frame_is_quoted(tmp_path: Path, library: Library) -> None:
    report = _report(tmp_path, library, PYSPY_DUMP)
    assert report.verdict.id == "inconclusive"
    assert int(exit_code_for(report)) == 3
    assert any("create_backend (nixl_cu13/_api.py:383)" in line for line in report.missing)


def test_an_idle_thread_in_a_dump_is_no_failure(tmp_path: Path, library: Library) -> None:
    report = _report(tmp_path, library, [*PYSPY_DUMP[:3], *PYSPY_DUMP[10:]])  # the watchdog thread, idle
    assert report.verdict.id == "no-failure-seen"


# vLLM's access and stats lines (vllm/v1/metrics/loggers.py, uvicorn's access log), then a py-spy
# dump of its engine core whose threads all wait (vllm-project/vllm#47958: the engine idle on its
# input queue while another thread spun; /health answered 200 throughout).
SERVED_THEN_DUMPED = [
    '(APIServer pid=94384) INFO:     10.20.3.41:51862 - "POST /v1/chat/completions HTTP/1.1" 200 OK',
    "(APIServer pid=94384) INFO 07-06 14:02:21 [loggers.py:257] Engine 000: Avg prompt throughput: 1911.6 "
    "tokens/s, Avg generation throughput: 71.4 tokens/s, Running: 0 reqs, Waiting: 0 reqs, GPU KV cache "
    "usage: 0.0%, Prefix cache hit rate: 11.4%",
    '(APIServer pid=94384) INFO:     127.0.0.1:40216 - "GET /health HTTP/1.1" 200 OK',
    "",
    "Process 96637: VLLM::EngineCore",
    'Thread 96637 (idle): "MainThread"',
    "    wait (threading.py:320)",
    "    get (queue.py:171)",
    "    _process_input_queue (vllm/v1/engine/core.py:1249)",
]


def test_a_dump_taken_after_serving_is_no_healthy_run_even_when_every_thread_waits(
    tmp_path: Path, library: Library
) -> None:
    (tmp_path / "dumped").mkdir()
    (tmp_path / "served").mkdir()
    report = _report(tmp_path / "dumped", library, SERVED_THEN_DUMPED)
    assert report.verdict.id == "inconclusive", report.verdict.summary
    assert 'Thread 96637 (idle): "MainThread"' in report.verdict.summary
    assert int(exit_code_for(report)) == 3
    served = _report(tmp_path / "served", library, SERVED_THEN_DUMPED[:3])  # the same lines, no dump
    assert served.verdict.id == "healthy", served.verdict.summary


def test_the_sglang_watchdog_kills_a_scheduler_and_is_quoted(tmp_path: Path, library: Library) -> None:
    lines = [
        "[2025-04-03 20:06:34 DP1 TP0] Watchdog timeout (self.watchdog_timeout=300)",
        "[2025-04-03 20:06:39] Received sigquit from a child proces. It usually means the child failed.",
    ]
    report = _report(tmp_path, library, lines, "server.log")
    assert report.verdict.id == "scheduler-crash"  # nothing shows whether it was serving
    assert "Watchdog timeout (self.watchdog_timeout=300)" in report.verdict.summary
    assert {event.pattern for event in report.chain} == {"scheduler-watchdog-timeout", "sigquit-from-child"}


def test_the_sglang_watchdog_while_serving_is_a_runtime_crash(tmp_path: Path, library: Library) -> None:
    lines = [
        "[2026-12-01 01:06:58] The server is fired up and ready to roll!",
        '[2026-12-01 01:07:04] INFO:     10.12.0.3:50112 - "POST /generate HTTP/1.1" 200 OK',
        "[2026-12-01 01:12:10 TP0] Scheduler watchdog timeout (self.watchdog_timeout=300, self.soft=False)",
    ]
    report = _report(tmp_path, library, lines, "server.log")
    assert report.verdict.id == "scheduler-runtime-crash"


def test_a_soft_watchdog_and_the_start_up_line_are_no_crash(tmp_path: Path, library: Library) -> None:
    lines = [
        "[2026-12-01 01:06:58] The server is fired up and ready to roll!",
        "[2026-12-01 01:08:12 TP0] Watchdog Scheduler initialized.",
        "[2026-12-01 01:09:14 TP0] Scheduler watchdog timeout (self.watchdog_timeout=60, self.soft=True)",
        '[2026-12-01 01:09:31] INFO:     10.12.0.3:51820 - "POST /generate HTTP/1.1" 200 OK',
    ]
    report = _report(tmp_path, library, lines, "server.log")
    assert report.verdict.id == "healthy"


def test_the_nccl_watchdog_s_newer_wording_is_a_collective_timeout(tmp_path: Path, library: Library) -> None:
    lines = [
        "[rank3]:[E227 16:30:43.526290891 ProcessGroupNCCL.cpp:1785] [PG ID 2 PG GUID 3 Rank 3] Exception (either "
        "an error or timeout) detected by watchdog at work: 32, "
        "last enqueued NCCL work: 32, last completed NCCL work: 31.",
        "[rank3]:[E227 16:30:43.526301625 ProcessGroupNCCL.cpp:1834] [PG ID 2 PG GUID 3 Rank 3] Timeout at NCCL work: "
        "32, last enqueued NCCL work: 32, last completed NCCL work: 31.",
    ]
    report = _report(tmp_path, library, lines)
    assert report.verdict.id == "collective-timeout"
    # "error or timeout" alone does not say which: failure evidence, not the timeout verdict
    (tmp_path / "alone").mkdir()
    alone = _report(tmp_path / "alone", library, lines[:1])
    assert alone.verdict.id == "inconclusive"
