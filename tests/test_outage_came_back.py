"""An outage no pattern names the cause of, that a restarted server came back from (issue 22: recovery
is understood).

Round 77's bundle: a 1P1D SGLang deployment whose decode pod was replaced mid-run (kubectl events:
`Killing`, then the new pod started); for ~90 s the prefill's transfers failed (`Decode instance could
be dead`) and the router answered 500 and found no decode worker; the new decode came up (`The server
is fired up and ready to roll!`) and a second benchmark answered 400 of 400. Seen failing at first
sight: inconclusive. Look-alikes: the benchmark after it failed requests; no line shows a server
starting again after the burst (its ready line gone).
"""

from __future__ import annotations

import shutil
from pathlib import Path

from pdlogdoctor.cli.behaviour import exit_code_for
from pdlogdoctor.library.patterns import Library
from pdlogdoctor.model import Report
from pdlogdoctor.pipeline import run

BUNDLE = Path(__file__).parent / "data" / "blind-round77-bundles-1" / "03-decode-recreated-midrun-then-served"
READY = "The server is fired up and ready to roll!"


def _run(tmp_path: Path, library: Library, edit: tuple[str, str, str] | None = None) -> Report:
    shutil.copytree(BUNDLE, tmp_path / "run", ignore=shutil.ignore_patterns("expected.toml"))
    if edit is not None:
        name, old, new = edit
        path = tmp_path / "run" / name
        assert old in path.read_text()
        path.write_text(path.read_text().replace(old, new))
    return run([str(tmp_path / "run")], library)


def test_an_outage_a_restarted_server_came_back_from_is_survived(tmp_path: Path, library: Library) -> None:
    report = _run(tmp_path, library)
    assert report.verdict.id == "healthy", report.verdict.summary
    assert "then a server started again" in report.verdict.summary and READY in report.verdict.summary
    assert "Successful requests: 400" in report.verdict.summary
    assert int(exit_code_for(report)) == 0


def test_requests_failed_after_it_is_no_survived_outage(tmp_path: Path, library: Library) -> None:
    failed = "Successful requests:                     363\nFailed requests:                         37\n"
    report = _run(tmp_path, library, ("bench.log", "Successful requests:                     400\n", failed))
    assert report.verdict.id != "healthy", report.verdict.summary
    assert int(exit_code_for(report)) != 0


def test_no_line_showing_a_server_start_after_the_burst_is_no_survived_outage(tmp_path: Path, library: Library) -> None:
    report = _run(tmp_path, library, ("decode.log", READY, ""))  # its ready line gone
    assert report.verdict.id != "healthy", report.verdict.summary
