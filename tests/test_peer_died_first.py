"""RDMA errors toward a peer whose own log shows it dying just before them (round 42 bundles-b 07).

The decode's tensor-parallel allreduce hung; ten minutes later NCCL's watchdog aborted every decode
rank (03:14:41). Three seconds after, the prefill's Mooncake slices to the decode fail with `remote
access error`, hundreds of them: the loudest lines of the bundle, and a cause-level verdict
(rdma-link-failure) that outranked the decode's collective timeout. A dead peer stops acknowledging:
its side's completions fail as a broken link's would, and the decode's log, given, says it died
first. The RDMA verdict is ruled out (named, with why); the collective timeout is the verdict.
Look-alike that keeps the link's verdict: the decode's death after the first completion error.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from pdlogdoctor.model import Report
from pdlogdoctor.pipeline import run

from .conftest import shipped_library

CASE = Path(__file__).parent / "data" / "blind-round42-bundles-b" / "07-decode-nccl-watchdog-then-teardown-flood"
LIBRARY = shipped_library()


def _run(tmp_path: Path, moved: tuple[str, str] | None = None) -> Report:
    bundle = tmp_path / "run"
    shutil.copytree(CASE, bundle, ignore=shutil.ignore_patterns("expected.toml"))
    if moved is not None:
        decode = bundle / "decode.log"
        decode.write_text(decode.read_text().replace(*moved))
    return run([str(bundle)], LIBRARY)


def test_the_peers_death_just_before_rules_the_link_out(tmp_path: Path) -> None:
    report = _run(tmp_path)
    assert report.verdict.id == "collective-timeout", report.verdict.summary
    assert "Watchdog caught collective operation timeout" in report.verdict.summary
    ruled_out = next(a for a in report.alternatives if a.id == "rdma-link-failure")
    assert "the decode server failed first" in ruled_out.why_not and ruled_out.confidence <= 0.15
    assert "A collective operation timed out" in ruled_out.why_not  # the line that failed first, named


def test_a_peer_dying_after_the_first_completion_error_is_not_why(tmp_path: Path) -> None:
    # The decode's death moved two minutes later (its watchdog, abort and exit lines): the prefill's
    # completion errors at 03:14:44 came first, and nothing says the decode was gone then.
    report = _run(tmp_path, ("03:14:4", "03:16:4"))
    assert report.verdict.id == "rdma-link-failure", report.verdict.summary
