"""A process restarted by its supervisor leaves two logs: its earlier life (`kubectl logs --previous`
saved as `<name>.previous.log`) and its current one. A failure in the earlier life that the current
one served after is a failure the run survived (issue 22.3); a file that merely sits beside another
is no later life of it."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from pdlogdoctor.library.patterns import Library
from pdlogdoctor.pipeline import run
from pdlogdoctor.reason.incidents import next_lives

from .conftest import FIXTURES

SERVED = FIXTURES / "busy-passing-sglang"  # an sglang PD run that served and passed its checks
CRASHED = FIXTURES / "blind-init-crash-zerodiv-dp8ep8" / "prefill_mi355x-n05.log"  # a prefill that died starting


@pytest.mark.parametrize(
    ("name", "later"),
    [
        ("prefill-worker.previous.log", "prefill-worker.log"),
        ("prefill-worker-previous.log", "prefill-worker.log"),
        ("decode_prev.log", "decode.log"),
        ("decode.prev", "decode"),
    ],
)
def test_the_later_life_of_a_saved_earlier_log_is_its_plain_name(name: str, later: str) -> None:
    sources = {f"/logs/{name}", f"/logs/{later}", "/logs/other.log"}
    assert next_lives(f"/logs/{name}", sources) == {f"/logs/{later}"}


# A rotated segment (`router.log.1`) is the same life as its live file, not an earlier one.
@pytest.mark.parametrize("name", ["prefill.log", "prefill-worker.crash.log", "previous.log", "router.log.1"])
def test_other_files_have_no_later_life(name: str) -> None:
    sources = {f"/logs/{name}", "/logs/prefill.log", "/logs/router.log"}
    assert next_lives(f"/logs/{name}", sources) == set()


def _restarted_run(tmp_path: Path, crashed_name: str) -> Path:
    """The served run, with the prefill's start-up crash (the same host's clock, an hour before the
    served run's start) saved beside its log as `crashed_name`."""
    for log in SERVED.glob("*.log"):
        shutil.copy(log, tmp_path / log.name)
    crash = CRASHED.read_text().replace("2026-07-07 14:", "2026-11-28 01:")
    (tmp_path / crashed_name).write_text(crash)
    return tmp_path


def test_a_crash_in_the_previous_life_of_a_server_that_then_served_is_survived(
    tmp_path: Path, library: Library
) -> None:
    report = run([str(_restarted_run(tmp_path, "prefill_b200-07.previous.log"))], library)
    assert report.verdict.id == "healthy"
    survived = [note for note in report.notes if note.startswith("a failure the run survived")]
    assert survived and "prefill_b200-07.previous.log" in survived[0] and "Scheduler hit an exception" in survived[0]
    crash = {a.id: a for a in report.alternatives}["scheduler-init-crash"]
    assert "prefill_b200-07.log" in crash.why_not  # the later life's line that shows it serving


def test_the_same_crash_in_a_file_that_is_no_earlier_life_stays_the_cause(tmp_path: Path, library: Library) -> None:
    report = run([str(_restarted_run(tmp_path, "prefill_b200-07.crash.log"))], library)
    assert report.verdict.id == "scheduler-init-crash"
    assert "ZeroDivisionError" in report.verdict.summary
