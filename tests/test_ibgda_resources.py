"""NVSHMEM's IBGDA transport out of NIC resources (pattern nvshmem-ibgda-nic-resource-failed).

IBGDA checks each DevX allocation with its NULL-check macro (`<file>:<line>: NULL value <message>`);
a UAR or a queue it could not get, in a process where another transport opened the NIC (NIXL's UCX
backend), is the NIC's resources used up; alone, the line does not say whether they were used up or
not permitted (an unprivileged container), and the run is inconclusive. The statuses after it
(`non-zero status: 7 connect EPS failed`) are only what failed of it, and an address handle refused
is no want of resources.
"""

from __future__ import annotations

from pathlib import Path

from pdlogdoctor.library.patterns import Library

from .conftest import analysed_lines

IBGDA = "/opt/nvshmem/src/modules/transport/ibgda/ibgda.cpp"
START = [
    "(EngineCore_DP0 pid=310) INFO 10-20 17:10:02 [nixl_connector.py:532] Initializing NIXL worker 3e1b5bd2",
    "Backend UCX was instantiated",
    f"{IBGDA} 2967 Creating 8 RC QPs",
]
STATUSES = [
    f"{IBGDA}:2978: non-zero status: 7 ibgda_create_dci failed on RC #157.",
    "/opt/nvshmem/src/host/transport/transport.cpp:420: non-zero status: 7 connect EPS failed",
]


def test_a_uar_or_queue_ibgda_could_not_get_is_the_nics_resources_used_up(tmp_path: Path, library: Library) -> None:
    for n, refused in enumerate(["cannot allocate mlx5dv_devx_uar", "mlx5dv_create_qp failed."]):
        lines = [*START, f"{IBGDA}:1830: NULL value {refused}", *STATUSES]
        report = analysed_lines(tmp_path, library, lines, f"decode-{n}.log")
        assert report.verdict.id == "rdma-resource-exhausted"
        assert report.roots[0].line == 4
        (tmp_path / f"decode-{n}.log").unlink()


def test_the_line_alone_names_no_exhaustion(tmp_path: Path, library: Library) -> None:
    # sgl-project/sglang#12533: the same line in a container that works with --privileged
    report = analysed_lines(
        tmp_path, library, [f"{IBGDA}:1889: NULL value cannot allocate mlx5dv_devx_uar"], "paste.txt"
    )
    assert report.verdict.id == "inconclusive"
    assert "cannot allocate mlx5dv_devx_uar" in report.verdict.summary
    rejected = next(a for a in report.alternatives if a.id == "rdma-resource-exhausted")
    assert "no line shows another transport" in rejected.why_not


def test_the_statuses_alone_or_an_address_handle_refused_name_no_exhaustion(tmp_path: Path, library: Library) -> None:
    lines = [*START, f"{IBGDA}:1761: NULL value Unable to create ah.", *STATUSES]
    report = analysed_lines(tmp_path, library, lines, "decode.log")
    assert report.verdict.id == "inconclusive"  # no cause named: the refused handle is quoted to read first
    assert "decode.log:4:" in report.verdict.summary and "Unable to create ah" in report.verdict.summary
