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
        ("decode-previous.log", "decode-current.log"),  # round 34 bundles-b/01 names them so
        ("prefill_prev.txt", "prefill_latest.txt"),
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


# A warning harmless once its server is shown serving (open-world/benign, `recovered`: sglang's
# skipped model module) in an earlier life killed while it loaded (by its liveness probe: round 25's
# bundles-a/07), which never served; its later life did. (A /health 503 is set aside by the
# end-to-end checks that passed after it, in either file.)
EARLIER_LIFE_WARNINGS = (
    "[2026-11-28 01:10:00] server_args=ServerArgs(model_path='deepseek-ai/DeepSeek-R1-Distill-Llama-70B')",
    "[2026-11-28 01:10:04 TP0] Ignore import error when loading sglang.srt.models.glmasr: cannot import name "
    "'GlmAsrConfig' from 'transformers' (/usr/local/lib/python3.12/dist-packages/transformers/__init__.py)",
    "[2026-11-28 01:10:06 TP0] Load weight begin. avail mem=178.23 GB",
    '[2026-11-28 01:10:30] INFO:     127.0.0.1:40112 - "GET /health HTTP/1.1" 503 Service Unavailable',
)


def _killed_while_loading(tmp_path: Path, earlier_name: str) -> Path:
    for log in SERVED.glob("*.log"):
        shutil.copy(log, tmp_path / log.name)
    (tmp_path / earlier_name).write_text("\n".join(EARLIER_LIFE_WARNINGS) + "\n")
    return tmp_path


def test_warnings_of_an_earlier_life_are_harmless_when_the_later_life_served(tmp_path: Path, library: Library) -> None:
    report = run([str(_killed_while_loading(tmp_path, "prefill_b200-07.previous.log"))], library)
    assert report.verdict.id == "healthy", report.verdict.summary
    assert not any("glmasr" in error.first.text for error in report.unrecognised)


def test_the_same_warnings_in_a_file_that_is_no_earlier_life_stay(tmp_path: Path, library: Library) -> None:
    report = run([str(_killed_while_loading(tmp_path, "prefill_b200-07.crash.log"))], library)
    quoted = [error.first.text for error in report.unrecognised]
    assert report.verdict.id != "healthy"
    assert any("glmasr" in text for text in quoted), quoted
