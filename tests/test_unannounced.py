"""An sglang scheduler's traceback pasted without its `Scheduler hit an exception:` line still names
the crash (patterns/sglang/scheduler-traceback-unannounced.toml), with its phase from the frames;
beside that line, the frame is the announced crash's and adds no second event
(reason/unannounced.py)."""

from __future__ import annotations

from pathlib import Path

from pdlogdoctor.library.patterns import Library
from pdlogdoctor.pipeline import run

from .conftest import FIXTURES, analysed_lines

UNANNOUNCED = "scheduler-traceback-unannounced"
# A prefill whose scheduler died building its KV pool (ZeroDivisionError), announced as sglang logs it.
ANNOUNCED_LOG = FIXTURES / "blind-init-crash-zerodiv-dp8ep8" / "prefill_mi355x-n05.log"
HEADER = "Scheduler hit an exception: Traceback (most recent call last):"


def _traceback_only(tmp_path: Path, keep_header_line: str) -> Path:
    """The announced crash's lines from its traceback on, its announcing line replaced."""
    lines = ANNOUNCED_LOG.read_text().splitlines()
    start = next(i for i, line in enumerate(lines) if HEADER in line)
    pasted = [keep_header_line, *lines[start + 1 :]] if keep_header_line else lines[start + 1 :]
    (tmp_path / "paste.txt").write_text("\n".join(pasted) + "\n")
    return tmp_path


def test_an_announced_crash_is_one_event(library: Library) -> None:
    report = run([str(ANNOUNCED_LOG.parent)], library)
    assert report.verdict.id == "scheduler-init-crash"
    assert "scheduler-exception" in {e.pattern for e in report.chain}
    assert UNANNOUNCED not in {e.pattern for e in report.chain}


def test_the_traceback_without_its_announcing_line_names_the_same_crash(tmp_path: Path, library: Library) -> None:
    report = run([str(_traceback_only(tmp_path, ""))], library)
    assert report.verdict.id == "scheduler-init-crash"
    assert [e.pattern for e in report.chain if e.pattern == UNANNOUNCED] == [UNANNOUNCED]
    assert "ZeroDivisionError: division by zero" in report.verdict.summary
    assert "KV pool sizing" in report.verdict.summary  # the phase, from the frames alone


def test_a_bare_traceback_header_keeps_one_crash(tmp_path: Path, library: Library) -> None:
    report = run([str(_traceback_only(tmp_path, "Traceback (most recent call last):"))], library)
    assert report.verdict.id == "scheduler-init-crash"
    crashes = [e for e in report.chain if e.pattern == UNANNOUNCED]
    assert len(crashes) == 1 and crashes[0].line == 2


def test_another_projects_run_scheduler_process_names_nothing(tmp_path: Path, library: Library) -> None:
    lines = [
        "Traceback (most recent call last):",
        '  File "/opt/app/jobs/scheduler.py", line 88, in run_scheduler_process',
        "    run()",
        "ValueError: bad job",
    ]
    report = analysed_lines(tmp_path, library, lines, "paste.txt")
    assert UNANNOUNCED not in {e.pattern for e in report.chain}
    assert not report.verdict.id.startswith("scheduler")


def test_an_announced_crash_a_collector_interleaved_stays_one_event(tmp_path: Path, library: Library) -> None:
    """A Kubernetes console's export puts its own line after every log line: the announcing line
    reads no frame, and the frame two lines below it is still its traceback's."""
    lines = ANNOUNCED_LOG.read_text().splitlines()
    start = next(i for i, line in enumerate(lines) if HEADER in line)
    woven = [part for line in lines[start - 2 :] for part in (line, "2026-07-07 14:43:52  prefill-0  ")]
    (tmp_path / "prefill.log").write_text("\n".join(woven) + "\n")
    report = run([str(tmp_path)], library)
    # the phase is lost with the frames (no line of the stack read), the crash is not
    assert report.verdict.id in {"scheduler-init-crash", "scheduler-crash"}
    assert "scheduler-exception" in {e.pattern for e in report.chain}
    assert UNANNOUNCED not in {e.pattern for e in report.chain}


# vllm-project/vllm-ascend#4744: a vLLM engine core's traceback pasted from its wrapper's frame on and
# cut before its exception. The wrapper (`init_worker`) is only the way in and says the phase; the
# summary names where the traceback stopped: the innermost frame and the call it was running.
ENGINE_CORE = "(EngineCore_DP0 pid=626) ERROR 12-05 07:51:00 [core.py:708] "
CUT_ENGINE_TRACEBACK = [
    ENGINE_CORE + '  File "/vllm-workspace/vllm/vllm/worker/worker_base.py", line 248, in init_worker',
    ENGINE_CORE + "    self.worker = worker_class(**kwargs)",
    ENGINE_CORE + '  File "/vllm-workspace/vllm-ascend/vllm_ascend/worker/worker_v1.py", line 90, in __init__',
    ENGINE_CORE + "    init_ascend_soc_version()",
    ENGINE_CORE + '  File "/vllm-workspace/vllm-ascend/vllm_ascend/utils.py", line 564, in init_ascend_soc_version',
    ENGINE_CORE + "    soc_version = torch_npu.npu.get_soc_version()",
]


def test_a_cut_traceback_is_named_by_its_innermost_frame(tmp_path: Path, library: Library) -> None:
    report = analysed_lines(tmp_path, library, CUT_ENGINE_TRACEBACK, "vllm-serve.log")
    assert report.verdict.id == "scheduler-init-crash", report.verdict.summary
    summary = report.verdict.summary
    assert "in utils.py:564 init_ascend_soc_version(), at `soc_version = torch_npu.npu.get_soc_version()`" in summary
    assert "(init_worker)" in summary  # the wrapper still says the phase


def test_a_traceback_cut_at_its_first_frame_is_named_by_that_frame(tmp_path: Path, library: Library) -> None:
    report = analysed_lines(tmp_path, library, CUT_ENGINE_TRACEBACK[:2], "vllm-serve.log")
    assert "in worker_base.py:248 init_worker(), at `self.worker = worker_class(**kwargs)`" in report.verdict.summary
