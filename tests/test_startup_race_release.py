"""KV released unread because its request came before any decode was up (round 44 bundles-b 02).

A vLLM PD deployment behind a proxy, in one compose log: two smoke requests reach the prefill while
the decode is still capturing CUDA graphs; the proxy cannot connect to the decode, and 480 s later
NIXL's prefill releases the two requests' KV blocks, `retrieved by 0 decode worker(s) within 480
seconds`. Then GSM8K runs through the proxy and scores 0.886. The wait each release states began
before the decode's server said it was listening: no decode was there to read those blocks, a
start-up race, not a transfer that timed out. Look-alike: the same releases an hour later, whose
waits began long after the decode was up: the decode then never fetched KV it could have.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

from pdlogdoctor.cli.behaviour import exit_code_for
from pdlogdoctor.model import Report
from pdlogdoctor.pipeline import run

from .conftest import shipped_library

CASE = Path(__file__).parent / "data" / "blind-round44-bundles-b" / "02-healthy-vllm-nixl-startup-race-expired-blocks"
LIBRARY = shipped_library()
RELEASE = re.compile(r"WARNING 12-02 14:(\d\d:\d\d) (\[nixl_connector\.py:\d+\] Releasing expired KV blocks)")


def _run(tmp_path: Path, hour: str = "14") -> Report:
    bundle = tmp_path / "run"
    shutil.copytree(CASE, bundle, ignore=shutil.ignore_patterns("expected.toml"))
    log = bundle / "compose.log"
    log.write_text(RELEASE.sub(rf"WARNING 12-02 {hour}:\1 \2", log.read_text()))
    return run([str(bundle)], LIBRARY)


def test_kv_released_for_requests_sent_before_the_decode_was_up_is_a_start_up_race(tmp_path: Path) -> None:
    report = _run(tmp_path)
    assert report.verdict.id == "healthy", report.verdict.summary
    assert "prefilled before the decode was up" in report.verdict.summary
    assert int(exit_code_for(report)) == 0


def test_kv_released_long_after_the_decode_was_up_stays_a_transfer_timeout(tmp_path: Path) -> None:
    report = _run(tmp_path, hour="15")
    assert report.verdict.id == "kv-transfer-timeout", report.verdict.summary
    assert int(exit_code_for(report)) != 0
