"""A verdict about start-up (`phase = "start-up"` in verdicts.toml) is rooted only by lines logged
before their server was shown serving. Blind case ow15 was model-load-failure 0.85: the runner's
disk filled while the benchmark wrote its results, after the probe and the accuracy gate passed."""

from __future__ import annotations

from pathlib import Path

import pytest

from pdlogdoctor.library.load import load_library
from pdlogdoctor.library.patterns import Library
from pdlogdoctor.model.errors import PatternError
from pdlogdoctor.pipeline import run

from .conftest import FIXTURES

ENOSPC = FIXTURES / "blind-fam-sglang-decode-hf-download-enospc"
READY = "[2026-07-02 13:00:40] The server is fired up and ready to roll!\n"


def test_a_disk_that_fills_while_loading_is_a_load_failure(library: Library) -> None:
    report = run([str(ENOSPC)], library)
    assert report.verdict.id == "model-load-failure"
    # The hub's warning that the file will not fit comes first and roots it; the ENOSPC follows.
    assert {root.pattern for root in report.roots} == {"hf-disk-space-short"}
    assert "disk-full" in {event.pattern for event in report.chain}


def test_the_same_line_after_its_server_was_ready_is_not(tmp_path: Path, library: Library) -> None:
    decode = (ENOSPC / "decode.log").read_text().splitlines(keepends=True)
    (tmp_path / "decode.log").write_text("".join([decode[0], READY, *decode[1:]]))
    report = run([str(tmp_path / "decode.log")], library)
    assert report.verdict.id != "model-load-failure"
    (ruled_out,) = [a for a in report.alternatives if a.id == "model-load-failure"]
    assert "decode.log:2" in ruled_out.why_not and "no start-up failure" in ruled_out.why_not
    assert ruled_out.confidence <= 0.1


def test_another_server_being_ready_says_nothing_of_this_one(tmp_path: Path, library: Library) -> None:
    """One stream of both servers (a launch script's `[prefill] `/`[decode] ` tags): the prefill's
    ready line above the decode's failed download does not make the decode past its start-up."""
    prefill = (ENOSPC / "prefill.log").read_text().splitlines(keepends=True)
    decode = (ENOSPC / "decode.log").read_text().splitlines(keepends=True)
    lines = [f"[prefill] {line}" for line in prefill] + [f"[decode] {line}" for line in decode]
    (tmp_path / "launch.log").write_text("".join(lines))
    report = run([str(tmp_path / "launch.log")], library)
    assert report.verdict.id == "model-load-failure", report.verdict.summary


def test_an_unknown_phase_is_refused(tmp_path: Path) -> None:
    verdict = 'id = "x"\ntitle = "X"\ntier = "cause"\nexplain = "X."\nadvice = ""\nphase = "runtime"'
    (tmp_path / "verdicts.toml").write_text(f"[[verdict]]\n{verdict}\n")
    with pytest.raises(PatternError, match="'runtime' is not one of"):
        load_library([tmp_path])
