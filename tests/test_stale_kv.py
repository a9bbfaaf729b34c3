"""Stale KV is never survived (issue 30, decision 2): `kv-expired` means requests were answered from
KV blocks already freed; a passing gate samples answers and a restart does not take them back, so
the survived-blip rule and recovery never clear it. The verdict's `never_survived = true` in
verdicts.toml is what the rule reads: the same lines under a verdict without it are a blip."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from pdlogdoctor.library.load import load_library
from pdlogdoctor.library.patterns import Library
from pdlogdoctor.model.errors import PatternError
from pdlogdoctor.pipeline import run

from .conftest import FIXTURES

NIXL_READ = FIXTURES / "kv-expired-nixl-stale-read-bench-passed"
MOONCAKE_RESTART = FIXTURES / "kv-expired-ascend-mooncake-force-freed-restart-gate-passed"
SLICE_RETRIED = FIXTURES / "recovered-mooncake-slice-retry-prefill"


def _without_the_mark(library: Library) -> Library:
    verdicts = tuple(replace(v, never_survived=False) if v.id == "kv-expired" else v for v in library.verdicts)
    return replace(library, verdicts=verdicts)


@pytest.mark.parametrize("bundle", [NIXL_READ, MOONCAKE_RESTART], ids=["nixl-read", "mooncake-restart"])
def test_stale_kv_stands_after_serving_and_a_passing_gate(bundle: Path, library: Library) -> None:
    report = run([str(bundle)], library)
    assert report.verdict.id == "kv-expired"
    assert not any("survived" in note for note in report.notes)
    # The mark decides: without it the very same lines were cleared as a blip the run survived.
    unmarked = run([str(bundle)], _without_the_mark(library))
    assert unmarked.verdict.id == "healthy"
    assert any("survived" in note for note in unmarked.notes)


def test_the_count_is_of_requests_not_of_lines(library: Library) -> None:
    """Five lines (two TP workers log the same request) name three requests."""
    report = run([str(NIXL_READ)], library)
    facts = dict(report.verdict.facts)
    assert facts["requests_affected"] == 3 and facts["kv_expired_lines"] == 5
    assert report.verdict.summary.startswith("3 requests (cmpl-9c41e0d2-7b3a-4f19-a2d6-51e8c0b7f3a4-0, ")


def test_a_restart_after_stale_kv_is_no_recovery(library: Library) -> None:
    """The prefill restarts and serves after the force-freed lines: without the mark that restart
    is what showed it 'serving again'; with it, the lines keep the verdict and stay in the chain."""
    report = run([str(MOONCAKE_RESTART)], library)
    assert report.verdict.id == "kv-expired"
    assert {e.pattern for e in report.chain} == {"vllm-mooncake-force-freed"}
    assert report.chain[0].line == 8


def test_a_retried_rdma_slice_is_still_a_survived_blip(library: Library) -> None:
    """The look-alike: a catalogued cause without the mark, nothing downstream failed, the gate
    passed: still healthy, the blip named."""
    report = run([str(SLICE_RETRIED)], library)
    assert report.verdict.id == "healthy"
    assert any("survived" in note and "transport retry counter exceeded" in note for note in report.notes)


def test_never_survived_must_be_true_or_false(tmp_path: Path) -> None:
    verdict = 'id = "x"\ntitle = "X"\ntier = "cause"\nexplain = "X."\nadvice = ""\nnever_survived = "yes"'
    (tmp_path / "verdicts.toml").write_text(f"[[verdict]]\n{verdict}\n")
    with pytest.raises(PatternError, match=r"never_survived.*true or false"):
        load_library([tmp_path])


def test_blocks_freed_before_the_pull_are_a_risk_until_a_line_shows_the_read(library: Library) -> None:
    """A force-free says the prefill let go of blocks a decode had not pulled yet: a later pull would
    read reused blocks, but no line says one came. The verdict stays, below confident, naming what
    is missing; NIXL's line that a decode did read freed blocks is the stale read itself."""
    freed = run([str(MOONCAKE_RESTART)], library).verdict
    assert freed.id == "kv-expired" and freed.confidence < 0.5
    assert dict(freed.facts)["stale_read_seen"] == "no"
    assert "before the decode pulled them" in freed.summary
    report = run([str(MOONCAKE_RESTART)], library)
    assert any("no line shows a decode reading the freed blocks" in gap for gap in report.missing)
    read = run([str(NIXL_READ)], library).verdict
    assert read.confidence >= 0.5
    assert str(dict(read.facts)["stale_read_seen"]).endswith("vllm_p0.log:14")
