"""A symptom seen from one side, its peer saturated on the other (blind round 52 bundles-b 04).

The decode's KV transfers time out in KVPoll.WaitingForInput (kv-transfer-timeout: the verdict for
timeouts "nothing upstream explains"), a TTFT gate fails, and the prefill's metrics lines show its
queue standing at hundreds while the decode has room: the prefill never got to those requests. The
queue is the deeper cause: the report names prefill-saturated, keeps the timeouts in its chain, and
lists kv-transfer-timeout below it. Without a failed latency or throughput gate, a queue alone does
not overturn the named symptom; a decode that threw work away all run does (sglang#9726 as blind
round 110 wrote it: the prefill's bootstrap timing out for 120 s while the decode's pool stayed at
99 % and it retracted requests every interval): the timeouts were requests waiting for its room.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

from pdlogdoctor.library.patterns import Library
from pdlogdoctor.pipeline import run

CASE = Path(__file__).parent / "data" / "blind-round52-bundles-b" / "04-slow-ttft-waiting-timeouts-prefill-bound"
THROWN_AWAY = Path(__file__).parent / "data" / "blind-round110-bundles-1" / "02-prefill-bootstrap-timeout-decode-full"


def test_the_peers_queue_is_named_under_the_timeouts(library: Library) -> None:
    report = run([str(CASE)], library)
    assert report.verdict.id == "prefill-saturated", report.verdict
    assert any(e.pattern == "kv-waiting-timeout" for e in report.chain)
    below = {a.id: a for a in report.alternatives}
    assert "kv-transfer-timeout" in below
    assert below["kv-transfer-timeout"].confidence < report.verdict.confidence


def test_without_a_failed_gate_the_timeouts_stay_the_verdict(tmp_path: Path, library: Library) -> None:
    bundle = tmp_path / "bundle"
    shutil.copytree(CASE, bundle)
    (bundle / "ci-perf-test.log").unlink()
    report = run([str(bundle)], library)
    assert report.verdict.id == "kv-transfer-timeout", report.verdict


def test_a_decode_that_threw_work_away_all_run_is_named_under_the_timeouts(library: Library) -> None:
    report = run([str(THROWN_AWAY)], library)
    assert report.verdict.id == "decode-saturated", report.verdict
    assert any(e.pattern == "kv-bootstrap-timeout" for e in report.chain)
    below = {a.id: a for a in report.alternatives}
    assert below["kv-transfer-timeout"].confidence < report.verdict.confidence


def test_a_decode_with_room_leaves_the_timeouts_the_verdict(tmp_path: Path, library: Library) -> None:
    bundle = tmp_path / "bundle"
    shutil.copytree(THROWN_AWAY, bundle)
    decode = bundle / "decode.log"
    lines = [line for line in decode.read_text().splitlines() if "Retract requests" not in line]
    roomy = [
        re.sub(r"#retracted-req: \d+", "#retracted-req: 0", re.sub(r"token usage: 0\.\d+", "token usage: 0.41", line))
        for line in lines
    ]
    decode.write_text("\n".join(roomy) + "\n")
    report = run([str(bundle)], library)
    assert report.verdict.id == "kv-transfer-timeout", report.verdict
