"""A step that connects a queue pair or an address handle to a peer's NIC, failed, names an RDMA
link failure by its words alone (patterns/open-world/families.toml, queue-pair-connect-refused):
NVSHMEM's IBGDA naming the firmware command (nvshmem#45) and UCX's address handle for a UD or RC
connect (aibrix#1771), both blind round 110's. A lead, not a proof: below 0.5. The local step
before the peer's address is given (RST2INIT) names nothing."""

from __future__ import annotations

from pathlib import Path

import pytest

from pdlogdoctor.pipeline import run

from .conftest import analysed_lines, shipped_library

LIBRARY = shipped_library()
DATA = Path(__file__).parent / "data" / "blind-round110-excerpts-a"


@pytest.mark.parametrize("case", ["01-nvshmem-ib-traffic-class-init2rtr", "03-sglang-2p2d-ucx-create-ah-enodev"])
def test_a_failed_connect_to_the_peers_nic_is_a_link_lead(case: str) -> None:
    report = run([str(DATA / case)], LIBRARY)
    assert report.verdict.id == "rdma-link-failure", report.verdict
    assert report.verdict.confidence < 0.5


def test_the_local_step_names_no_link(tmp_path: Path) -> None:
    line = (
        "/opt/nvshmem/src/modules/transport/ibgda/ibgda.cpp:1390: non-zero status: 121 "
        "Error in mlx5dv_devx_obj_modify for RST2INIT_QP with syndrome 0"
    )
    report = analysed_lines(tmp_path, LIBRARY, [line], "excerpt.log")
    assert report.verdict.id != "rdma-link-failure", report.verdict
