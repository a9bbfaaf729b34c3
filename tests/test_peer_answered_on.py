"""A decode that calls its prefill down while the prefill answers on is no lost peer (issue 22).

Round 119's bundle (sgl-project/sglang#22990): the decode's first request with a DP rank set fails
its handshake with `Prefill server with bootstrap_addr: ... is healthy before, but now it is down`,
while the prefill's own log answers every request after it, with no restart between. The decode's
view of its peer was wrong: peer-lost is rejected and the report stays inconclusive. Look-alike: the
same bundle with the prefill's log ending before the loss (nothing shows it alive after) is the lost
peer the decode reports.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from pdlogdoctor.library.patterns import Library
from pdlogdoctor.pipeline import run

CASE = Path(__file__).parent / "data" / "blind-round119-bundles-1" / "04-first-request-dp-rank-false-prefill-down"
LOSS = "22:05:20"  # the decode's handshake failure


def _bundle(tmp_path: Path, prefill_until_loss: bool) -> Path:
    bundle = tmp_path / "run"
    shutil.copytree(CASE, bundle, ignore=shutil.ignore_patterns("expected.toml"))
    if prefill_until_loss:
        lines = (bundle / "prefill.log").read_text().splitlines()
        kept = [line for line in lines if not line.startswith("[2026-04-15 22:0") or line[12:20] < LOSS]
        (bundle / "prefill.log").write_text("\n".join(kept) + "\n")
    return bundle


def test_a_prefill_that_answered_on_is_not_the_lost_peer(tmp_path: Path, library: Library) -> None:
    report = run([str(_bundle(tmp_path, prefill_until_loss=False))], library)
    assert report.verdict.id == "inconclusive", report.verdict.summary
    rejected = {a.id: a.why_not for a in report.alternatives}
    assert "the prefill went on answering after the decode called it down" in rejected.get("peer-lost", ""), rejected


def test_a_prefill_whose_log_ends_before_the_loss_is_the_lost_peer(tmp_path: Path, library: Library) -> None:
    report = run([str(_bundle(tmp_path, prefill_until_loss=True))], library)
    assert report.verdict.id == "peer-lost", report.verdict.summary
