"""The kernel's line for an RDMA port losing its link is the cause of the KV transfer failures after it
(round 34 bundles-a/04: a prefill node's ConnectX port went down mid-run; the decode's transfers
failed and the prefill released KV no decode read, while the prefill itself stayed up).

Real formats: mlx5's netdev carrier line and the IB core's port-state line (dmesg -T and the
kernel's own stamps), vLLM NixlConnector's expired-blocks warning. Look-alikes: a port coming up,
another driver's NIC going down, and a port that went down with nothing failing through it.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from pdlogdoctor.model import Report
from pdlogdoctor.pipeline import run

from .conftest import shipped_library

LIBRARY = shipped_library()
EXPIRED = (
    "(EngineCore_DP0 pid=3747544) WARNING 12-17 14:{minute}:21 [nixl_connector.py:1048] Releasing expired KV blocks "
    "for request cmpl-3da205a6-1c3c-41b5-aeaa-b8421e81fd5c-{n} which were retrieved by 0 decode worker(s) within "
    "120 seconds."
)


def _analysed(tmp_path: Path, kernel: list[str], prefill: list[str]) -> Report:
    (tmp_path / "dmesg-node-07.txt").write_text("".join(f"{line}\n" for line in kernel))
    if prefill:
        (tmp_path / "prefill.log").write_text("".join(f"{line}\n" for line in prefill))
    return run([str(tmp_path)], LIBRARY)


FAILURES = [EXPIRED.format(minute=m, n=n) for n, m in enumerate(("15", "16", "17"))]


@pytest.mark.parametrize(
    "down",
    [
        "[Wed Dec 17 14:13:52 2025] mlx5_core 0000:c2:00.0 enp194s0np0: Link down",
        "[Wed Dec 17 14:13:52 2025] mlx5_core 0000:c2:00.0 mlx5_3: Port: 1 Link DOWN",
    ],
    ids=["mlx5-netdev-carrier", "ib-core-port-state"],
)
def test_a_port_that_went_down_causes_the_transfer_failures_after_it(tmp_path: Path, down: str) -> None:
    report = _analysed(tmp_path, [down], FAILURES)
    assert report.verdict.id == "rdma-link-failure", report.verdict.summary
    assert report.roots[0].pattern == "rdma-port-link-down"
    assert "the kernel says the port lost its link" in report.verdict.summary
    assert "consequences" in report.verdict.summary


@pytest.mark.parametrize(
    "line",
    [
        "[Wed Dec 17 14:13:52 2025] mlx5_core 0000:c2:00.0 enp194s0np0: Link up",
        "[Wed Dec 17 14:13:52 2025] ixgbe 0000:05:00.0 enp5s0: NIC Link is Down",
    ],
    ids=["link-up", "another-driver"],
)
def test_no_rdma_port_down_no_link_failure(tmp_path: Path, line: str) -> None:
    report = _analysed(tmp_path, [line], FAILURES)
    assert not any(e.pattern == "rdma-port-link-down" for e in report.chain)


def test_a_port_down_with_nothing_failing_through_it_stays_a_guess(tmp_path: Path) -> None:
    report = _analysed(tmp_path, ["[Wed Dec 17 14:13:52 2025] mlx5_core 0000:c2:00.0 enp194s0np0: Link down"], [])
    assert report.verdict.confidence < 0.5, report.verdict


def test_a_port_that_came_back_up_flapped_and_is_set_aside(tmp_path: Path) -> None:
    flap = [
        "[Wed Dec 17 14:13:52 2025] mlx5_core 0000:c2:00.0 enp194s0np0: Link down",
        "[Wed Dec 17 14:13:58 2025] mlx5_core 0000:c2:00.0 enp194s0np0: Link up",
    ]
    report = _analysed(tmp_path, flap, [])
    assert not any(e.pattern == "rdma-port-link-down" and e.failing for e in report.chain)
    assert report.verdict.id != "rdma-link-failure", report.verdict.summary
