"""Two nights of one incident give one fingerprint: for every fixture bundle, and for the NCCL watchdog family.

The second night is each bundle with everything that changes between runs changed
(tests/night.py: dates and clocks, pids, rooms, request ids, sequence numbers, durations,
addresses, IPs); the incident is the same, so its fingerprint must be too. A pattern whose
`identity` lists a per-run capture fails here.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from pathlib import Path

import pytest

from pdlogdoctor.library.patterns import Library
from pdlogdoctor.model import Report
from pdlogdoctor.pipeline import run
from pdlogdoctor.reason.fingerprint import fingerprint, key_facts

from .conftest import BUNDLES, binary_input
from .corpus import case_report
from .night import another_night, copy_night


@pytest.mark.parametrize("bundle", BUNDLES, ids=lambda p: p.name)
def test_another_night_of_each_family_has_the_same_fingerprint(
    bundle: Path, library: Library, bundle_reports: Mapping[Path, Report], tmp_path: Path
) -> None:
    first = bundle_reports[bundle]
    second = run([str(copy_night(bundle, tmp_path / "night2"))], library)
    assert second.verdict.id == first.verdict.id
    assert key_facts(second) == key_facts(first)
    assert fingerprint(second) == fingerprint(first)


def test_the_second_night_really_differs() -> None:
    """The rewrite changes most bundles' logs (the check above does not compare a bundle with itself)."""
    changed = [b for b in BUNDLES if any(another_night(t) != t for t in _texts(b))]
    assert len(changed) >= 0.9 * len(BUNDLES)


def _texts(bundle: Path) -> list[str]:
    plain = [p for p in bundle.rglob("*") if p.is_file() and p.suffix not in (".gz", ".zst", ".zip", ".tar")]
    return [p.read_text(encoding="utf-8") for p in plain if p.name != "expected.toml" and not binary_input(p)]


# The NCCL watchdog family (patterns/torch/nccl-watchdog-timeout.toml, data only): its line carries a
# per-run sequence number and duration, and torch's own time prefix.
WATCHDOG_LINE = (
    "[rank1]:[E702 10:16:03.903881913 ProcessGroupNCCL.cpp:616] [Rank 1] Watchdog caught collective operation "
    "timeout: WorkNCCL(SeqNum=808, OpType=ALLREDUCE, NumelIn=9801523, NumelOut=9801523, Timeout(ms)=600000) "
    "ran for 600020 milliseconds before timing out."
)
NIGHT_ONE = (
    "[2026-07-02 10:05:00] server_args=ServerArgs(model_path='m', disaggregation_mode='prefill')\n" + WATCHDOG_LINE
)
NIGHT_TWO = (
    NIGHT_ONE.replace("2026-07-02", "2026-07-09")
    .replace("E702 10:16", "E709 23:41")
    .replace("SeqNum=808", "SeqNum=57")
    .replace("600020", "600081")
)


def watchdog_nights(library: Library, tmp_path: Path) -> list[Report]:
    reports = []
    for night, text in (("one", NIGHT_ONE), ("two", NIGHT_TWO)):
        log = tmp_path / night / "prefill_node1.log"
        log.parent.mkdir()
        log.write_text(text + "\n")
        reports.append(run([str(log)], library))
    return reports


def test_the_watchdog_family_keeps_one_fingerprint(library: Library, tmp_path: Path) -> None:
    first, second = watchdog_nights(library, tmp_path)
    assert first.verdict.id == second.verdict.id == "collective-timeout"
    assert dict(first.verdict.facts)["seq"] != dict(second.verdict.facts)["seq"]  # the nights differ...
    assert fingerprint(first) == fingerprint(second)  # ...the incident does not
    # torch's `[rank1]:[E702 10:16:03…]` prefix is read as the line's own time, not the line above's.
    root = first.roots[0]
    assert root.time is not None and int(root.time) % 86400 == 10 * 3600 + 16 * 60 + 3


def test_a_per_run_capture_in_identity_splits_the_incident(library: Library, tmp_path: Path) -> None:
    """The check can fail: declaring the sequence number as identity gives two fingerprints."""
    wrong = replace(library.pattern("nccl-watchdog-timeout"), identity=("op", "timeout_ms", "seq"))
    planted = replace(library, patterns=tuple(wrong if p.id == wrong.id else p for p in library.patterns))
    first, second = watchdog_nights(planted, tmp_path)
    assert fingerprint(first) != fingerprint(second)


def test_unrelated_unexplained_failures_get_different_fingerprints(case_reports: Mapping[Path, Report]) -> None:
    """Two blind cases (blind-round4/19, 07), both inconclusive with different errors no pattern names.
    (blind-round4/05, used here before, is a vLLM engine start-up crash the library names since the
    vLLM harvest of issue 22.)"""
    router, template = (
        case_report(case_reports, "tests/data/blind-round4/19-"),
        case_report(case_reports, "tests/data/blind-round4/07-"),
    )
    assert router.verdict.id == template.verdict.id == "inconclusive"
    assert fingerprint(router) != fingerprint(template)
