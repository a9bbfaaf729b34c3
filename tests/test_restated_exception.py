"""An exception that repeats the error line logged just above it, with less, does not lead
(reason/unexplained.py `_restates`): MORI logs `ibv_create_qp failed: errno=25 (...); dev=... caps`,
then raises `RuntimeError: ibv_create_qp failed: Inappropriate ioctl for device` (ROCm/mori's
errno-masking fix): the logged line names the device and the capacities. An exception with words of
its own after a logger's heading (`EngineCore failed to start.`, then the error) still says what failed."""

from __future__ import annotations

from pathlib import Path

from pdlogdoctor.model import Report
from pdlogdoctor.pipeline import run

from .conftest import shipped_library

LIBRARY = shipped_library()
MORI_LOGGED = (
    "[2026-07-01 14:52:09.318] [40712] [application] [error] ibv_create_qp failed: errno=25 (Inappropriate "
    "ioctl for device); dev=bnxt_re0 port=1 max_send_wr=32768 max_recv_wr=32768"
)
MORI_RAISED = "RuntimeError: ibv_create_qp failed: Inappropriate ioctl for device"


def _first_read(tmp_path: Path, lines: list[str]) -> str:
    (tmp_path / "excerpt.log").write_text("".join(f"{line}\n" for line in lines))
    report: Report = run([str(tmp_path / "excerpt.log")], LIBRARY)
    return next(t.first.text for t in report.unrecognised if t.earliest)


def test_the_logged_line_that_says_more_leads(tmp_path: Path) -> None:
    assert "dev=bnxt_re0" in _first_read(tmp_path, [MORI_LOGGED, MORI_RAISED])


def test_an_exception_of_its_own_words_still_leads(tmp_path: Path) -> None:
    logged = "[2026-07-01 14:52:09.318] [40712] [application] [error] worker 3 failed during setup"
    raised = "ValueError: expected 8 KV heads per rank, got 6"
    assert _first_read(tmp_path, [logged, raised]) == raised
