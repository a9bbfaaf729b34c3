"""A launch that failed, then a relaunch appended to the same log that came up and served (round 43
bundles-b 04).

The operator appends each launch to one file per server. The evening's prefill could not bind its
port (a stale server held it) and the decode's requests failed against it; the next morning both
servers were launched again, came up, and sglang's GSM8K client scored 0.921 (its results carry no
time). The bind error is an earlier life's: the prefill's ready line after it in the same file says
the server started again, and the client's untimed result stands for a check after it, as a
restart's own file does. Look-alikes that stay failures: the relaunch never came up (the file ends in
the failed launch), and a relaunch whose client scored nothing.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from pdlogdoctor.cli.behaviour import exit_code_for
from pdlogdoctor.model import Report
from pdlogdoctor.pipeline import run

from .conftest import shipped_library

CASE = Path(__file__).parent / "data" / "blind-round43-bundles-b" / "04-sglang-nixl-healthy-yesterdays-bind-error"
LIBRARY = shipped_library()
BIND_ERROR = "[Errno 98] error while attempting to bind on address ('0.0.0.0', 30000)"


def _run(tmp_path: Path, prefill_lines: int | None = None, accuracy: str | None = None) -> Report:
    bundle = tmp_path / "run"
    shutil.copytree(CASE, bundle, ignore=shutil.ignore_patterns("expected.toml"))
    if prefill_lines is not None:
        prefill = bundle / "prefill.log"
        prefill.write_text("".join(prefill.read_text().splitlines(keepends=True)[:prefill_lines]))
    if accuracy is not None:
        client = bundle / "gsm8k.log"
        client.write_text(client.read_text().replace("Accuracy: 0.921", f"Accuracy: {accuracy}"))
    return run([str(bundle)], LIBRARY)


def test_a_failed_launch_before_a_relaunch_that_served_is_survived(tmp_path: Path) -> None:
    report = _run(tmp_path)
    assert report.verdict.id == "healthy", report.verdict.summary
    assert BIND_ERROR in report.verdict.summary
    assert "The server is fired up and ready to roll!" in report.verdict.summary
    assert int(exit_code_for(report)) == 0


def test_a_failed_launch_that_was_never_relaunched_stays_the_cause(tmp_path: Path) -> None:
    report = _run(tmp_path, prefill_lines=11)  # the file ends with the failed launch's shutdown
    assert report.verdict.id == "bind-failed", report.verdict.summary
    assert int(exit_code_for(report)) == 1


def test_a_relaunch_whose_client_scored_nothing_is_no_survival(tmp_path: Path) -> None:
    report = _run(tmp_path, accuracy="0.000")
    assert report.verdict.id != "healthy", report.verdict.summary
    assert int(exit_code_for(report)) != 0
