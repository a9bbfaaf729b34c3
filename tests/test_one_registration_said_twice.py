"""One MORI registration refused with EINVAL, grepped from every rank's log (round 41 excerpts-b 01).

errno 22 on a region above 2 GiB reads the same for a NIC's single-region ceiling (the seed
incident) and for a NIC that refuses the access flags (Pensando ionic and IBV_ACCESS_REMOTE_ATOMIC,
accessFlag 15: ROCm/mori). The same size failing on each rank is that one line again: with no line
sizing the KV pool that made the region and none showing a region registered, neither reading is
confident. The seed incident's bundle, which sizes the pool, keeps its confident verdict.
"""

from __future__ import annotations

from pathlib import Path

from pdlogdoctor.library.patterns import Library
from pdlogdoctor.pipeline import run

from .conftest import FIXTURES

GREPPED = [
    "prefill-tp0.log:[application] [error] RegisterRdmaMemoryRegion failed! addr:0x7a4c1c000000, size:4211081216, "
    "accessFlag:15, errno:22 (Invalid argument)",
    "prefill-tp0.log:Fatal Python error: Aborted",
    "prefill-tp3.log:[application] [error] RegisterRdmaMemoryRegion failed! addr:0x7f02b8000000, size:4211081216, "
    "accessFlag:15, errno:22 (Invalid argument)",
    "prefill-tp3.log:Fatal Python error: Aborted",
]


def test_one_size_refused_on_every_rank_is_no_confident_ceiling(tmp_path: Path, library: Library) -> None:
    (tmp_path / "prefill.log").write_text("\n".join(GREPPED) + "\n")
    report = run([str(tmp_path)], library)
    assert report.verdict.confidence < 0.5, report.verdict
    assert "cannot be ruled out" in report.verdict.summary
    assert "mr-registration-rejected" in {a.id for a in report.alternatives}


def test_the_seed_incident_sizing_its_pool_stays_confident(library: Library) -> None:
    report = run([str(FIXTURES / "mori-mr-size-limit-seed")], library)
    assert report.verdict.id == "mori-mr-size-limit"
    assert report.verdict.confidence >= 0.8
