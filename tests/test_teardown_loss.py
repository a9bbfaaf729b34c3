"""RDMA slices retried mid-run, and at the end the decode losing its prefill with `0 requests
affected` as the harness stopped the servers (round 47 bundles-b 01).

Two Mooncake slices failed and were posted again while the run served; GSM8K and every benchmark
request passed; the harness then stopped the prefill first, and the decode logged that it lost it,
affecting no request. A loss that affected no request failed nothing: the slices were a blip the
run survived, and the run is healthy. Look-alike: the same loss affecting 37 requests is a failure
after the blip, and the run is not called healthy.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from pdlogdoctor.cli.behaviour import exit_code_for
from pdlogdoctor.model import Report
from pdlogdoctor.pipeline import run

from .conftest import shipped_library

CASE = Path(__file__).parent / "data" / "blind-round47-bundles-b" / "01-healthy-mooncake-cqe-retry-recovered"
LIBRARY = shipped_library()
LOST = "0 requests affected"


def _run(tmp_path: Path, affected: str = LOST) -> Report:
    bundle = tmp_path / "run"
    shutil.copytree(CASE, bundle, ignore=shutil.ignore_patterns("expected.toml"))
    decode = next(bundle.glob("decode_*.log"))
    text = decode.read_text()
    assert LOST in text
    decode.write_text(text.replace(LOST, affected))
    return run([str(bundle)], LIBRARY)


def test_a_loss_that_affected_no_request_leaves_the_blip_survived(tmp_path: Path) -> None:
    report = _run(tmp_path)
    assert report.verdict.id == "healthy", report.verdict.summary
    assert int(exit_code_for(report)) == 0


def test_a_loss_that_affected_requests_is_no_teardown(tmp_path: Path) -> None:
    report = _run(tmp_path, "37 requests affected")
    assert report.verdict.id != "healthy", report.verdict.summary
    assert int(exit_code_for(report)) != 0
