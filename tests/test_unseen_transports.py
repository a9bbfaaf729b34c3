"""Issue 22, unseen failures: the mechanism, not one fixture's wording.

RDMA memory registration refused on the transports the stack uses besides the verbs ones already
known (Mooncake's EFA transport, libfabric's EFA provider, NIXL's libfabric backend, aws-ofi-nccl's
fi_mr_regattr, the kernel's EFA driver): the errno each line gives decides between a refusal of the
buffer and pinned memory running out. And an RDMA port that a port-state tool (`rdma link`, ibstat,
ibv_devinfo) shows not active, while the same tools' active ports, and ports switched off, fire
nothing. The lines are the real ones the patterns cite (tests/data/excerpts hold the threads)."""

from __future__ import annotations

from pathlib import Path

import pytest

from pdlogdoctor.library.patterns import Library
from pdlogdoctor.model import Report
from pdlogdoctor.pipeline import run


def _report(tmp_path: Path, library: Library, name: str, *lines: str) -> Report:
    log = tmp_path / name
    log.write_text("\n".join(lines) + "\n")
    return run([str(log)], library)


@pytest.mark.parametrize(
    ("line", "pattern", "errno"),
    [
        # kvcache-ai/Mooncake#3177: FI_HMEM_CUDA refused by the EFA provider
        (
            "efa_context.cpp  fi_mr_regattr failed for GPU memory 0x726d08000000 (device 3): Operation not supported",
            "mooncake-fi-mr-reg-failed",
            95,
        ),
        # ai-dynamo/nixl#1609: CUDA dmabuf refused on GB200
        (
            "E... libfabric_rail.cpp:1362] fi_mr_reg failed on rail 2: Bad address "
            "(buffer=0xe15fbdc00000, length=1048576, requested_key=0)",
            "nixl-libfabric-mr-reg-failed",
            14,
        ),
        # aws-ofi-nccl 1.20 over verbs;ofi_rxm: the provider lacks the extended registration
        (
            "NET/OFI Couldn't register memory region with regattr. RC: -38, ERROR: Function not implemented",
            "nccl-ofi-mr-regattr-failed",
            38,
        ),
    ],
)
def test_a_refused_registration_on_any_transport_is_a_refusal_with_its_errno(
    tmp_path: Path, library: Library, line: str, pattern: str, errno: int
) -> None:
    report = _report(tmp_path, library, "worker.log", line)
    assert report.verdict.id == "mr-registration-rejected", report.verdict.summary
    assert [e.pattern for e in report.roots] == [pattern]
    assert dict(report.verdict.facts)["errnos"] == (errno,)
    assert "not for size" in report.verdict.summary


def test_enosys_is_named_as_the_provider_lacking_the_registration(tmp_path: Path, library: Library) -> None:
    line = "NET/OFI Couldn't register memory region with regattr. RC: -38, ERROR: Function not implemented"
    report = _report(tmp_path, library, "worker.log", line)
    assert "ENOSYS" in report.verdict.summary and "does not implement" in report.verdict.summary


@pytest.mark.parametrize(
    ("name", "line", "pattern"),
    [
        # aws/aws-ofi-nccl#141: libfabric's EFA provider, the older shape
        (
            "train.log",
            "libfabric:718890:1658904526::efa:mr:efa_mr_reg_impl():517<warn> Unable to register MR: "
            "Cannot allocate memory",
            "libfabric-efa-mr-reg-failed",
        ),
        # NVIDIA/nccl#563: the kernel's EFA driver
        ("dmesg.txt", "[1038619.695161] infiniband efa_0: Failed to register mr [-12]", "efa-register-mr-failed"),
    ],
)
def test_enomem_on_any_transport_is_pinned_memory_running_out(
    tmp_path: Path, library: Library, name: str, line: str, pattern: str
) -> None:
    report = _report(tmp_path, library, name, line)
    assert report.verdict.id == "rdma-resource-exhausted", report.verdict.summary
    assert [e.pattern for e in report.roots] == [pattern]
    assert dict(report.verdict.facts)["errnos"] == (12,)
    assert "ulimit -l unlimited" in report.advice


def test_a_successful_registration_is_no_failure(tmp_path: Path, library: Library) -> None:
    """libfabric's info line for the same function (ofiwg/libfabric#11256)."""
    report = _report(
        tmp_path,
        library,
        "probe.log",
        "libfabric:23671:1753871169::efa:mr:efa_mr_reg_impl():835<info> Registered memory of size 75497472 for "
        "ibv pd 0x638d3f682120, total mr reg size 1149239424, mr reg count 2",
    )
    assert report.verdict.id not in ("mr-registration-rejected", "rdma-resource-exhausted")
    assert not report.chain


@pytest.mark.parametrize(
    ("name", "line", "pattern"),
    [
        # ROCm/rccl#1423
        (
            "rdma-link.txt",
            "link mlx5_7/1 subnet_prefix fe80:0000:0000:0000 lid 3403 sm_lid 1 lmc 0 state DOWN physical_state POLLING",
            "rdma-link-port-down",
        ),
        # leptonai/gpud#482
        ("ibstat.txt", "        Physical state: Polling", "ibstat-port-polling"),
        # ibv_devinfo of a port waiting for its subnet manager
        ("ibv_devinfo.txt", "                        state:                  PORT_INIT (2)", "ibv-devinfo-port-down"),
    ],
)
def test_a_port_not_active_roots_a_link_failure_held_low_when_alone(
    tmp_path: Path, library: Library, name: str, line: str, pattern: str
) -> None:
    report = _report(tmp_path, library, name, line)
    assert report.verdict.id == "rdma-link-failure", report.verdict.summary
    assert [e.pattern for e in report.roots] == [pattern]
    assert report.verdict.confidence < 0.5
    assert report.verdict.summary.startswith("An RDMA port is not active")
    assert "does not say the port is one the job uses" in report.verdict.summary


def test_the_port_is_named_with_its_states(tmp_path: Path, library: Library) -> None:
    line = "link mlx5_7/1 subnet_prefix fe80:0000:0000:0000 lid 3403 sm_lid 1 lmc 0 state DOWN physical_state POLLING"
    facts = dict(_report(tmp_path, library, "rdma-link.txt", line).verdict.facts)
    assert facts["ports_not_active"] == ("mlx5_7/1",)
    assert (facts["state"], facts["phys_state"]) == ("DOWN", "POLLING")


@pytest.mark.parametrize(
    ("name", "line"),
    [
        # the same port once it came up (ROCm/rccl#1423)
        (
            "rdma-link.txt",
            "link mlx5_7/1 subnet_prefix fe80:0000:0000:0000 lid 3403 sm_lid 1 lmc 0 "
            "state ACTIVE physical_state LINK_UP",
        ),
        # a port switched off beside active ones: not in use
        ("rdma-link.txt", "link mlx5_1/1 state DOWN physical_state DISABLED netdev eno34"),
        ("ibstat.txt", "                State: Down\n                Physical state: Disabled"),
        ("ibstat.txt", "                State: Active\n                Physical state: LinkUp"),
        ("ibv_devinfo.txt", "\t\t\tstate:\t\t\tPORT_ACTIVE (4)"),
        ("ibv_devinfo.txt", "\t\t\tstate:\t\t\tPORT_DOWN (1)"),
    ],
)
def test_active_and_switched_off_ports_fire_nothing(tmp_path: Path, library: Library, name: str, line: str) -> None:
    report = _report(tmp_path, library, name, line)
    assert report.verdict.id != "rdma-link-failure"
    assert not report.chain


def test_the_kernels_link_down_names_a_link_failure_as_a_lead(tmp_path: Path, library: Library) -> None:
    """No pattern names the kernel's port lines; their words name the verdict below 0.5 (the family
    rdma-port-link-down), quoting the line."""
    line = "[18865.848172] mlx5_core 0000:01:00.0 enp1s0f0np0: Link down"
    report = _report(tmp_path, library, "dmesg.txt", line)
    assert report.verdict.id == "rdma-link-failure"
    assert report.verdict.confidence < 0.5
    assert "enp1s0f0np0: Link down" in report.verdict.summary


def test_a_port_coming_up_is_no_link_failure(tmp_path: Path, library: Library) -> None:
    report = _report(
        tmp_path,
        library,
        "dmesg.txt",
        "[ 4441.768101] mlx5_core 0000:53:00.0 enp83s0f0np0: Link up",
        "[ 4441.769587] mlx5_core 0000:53:00.0 mlx5_3: Port: 1 Link ACTIVE",
    )
    assert report.verdict.id != "rdma-link-failure"
