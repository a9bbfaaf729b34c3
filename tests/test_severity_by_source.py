"""Severity by source (issue 22.5, the data half): kernel, driver, orchestrator and job-scheduler
lines, and INFO-level lease losses, are error lines by where they come from and what they say
(patterns/open-world/sources.toml), though most hold no error word or state a lower level. Each
pair: a real line that is one, and a real look-alike from the same source that is not."""

from __future__ import annotations

import pytest

from pdlogdoctor.library.patterns import Library
from pdlogdoctor.model import Severity
from pdlogdoctor.scan.timeline import clean_line

PAIRS = [
    (  # Mooncake#2039: the master's INFO line that expires a client; its metrics line is INFO indeed
        "I0505 14:52:17.509413   182 master_service.cpp:3741] client_id=6505391507972573188-9897067433713881278, "
        "action=client_expired",
        "I0107 01:41:52.813350    24 rpc_service.cpp:39] Master Metrics: Mem Storage: 0 B / 0 B | SSD Storage: 0 B "
        "/ 0 B | Keys: 0 (soft-pinned: 0) | Clients: 0",
        "lease-expired",
    ),
    (  # kubernetes#91600: a Warning Evicted event; the Normal event beside it
        "  Warning  Evicted         18m                kubelet, mgt04     The node was low on resource: "
        "ephemeral-storage. Container calico-node was using 92Ki, which exceeds its request of 0.",
        "  Normal   Killing         18m (x2 over 18m)  kubelet, mgt04     Stopping container calico-node",
        "k8s-warning-event",
    ),
    (  # gpud#46: an Xid; the driver's GPU UUID line before a first Xid (index id 56985729989)
        "[Fri Aug 30 11:43:14 2024] NVRM: Xid (PCI:0000:cb:00): 109, pid=1797828, name=pt_main_thread, Ch 00000008, "
        "errorString CTX SWITCH TIMEOUT, Info 0x58005",
        "[ 1399.140318] NVRM: GPU at PCI:0000:01:00: GPU-34d7319c-5b19-1e75-186d-c187099e4fe5",
        "nvidia-xid",
    ),
    (  # the link down and the link up of one mlx5 port (index id 53115452667; gpud#1209)
        "[ 4443.974372] mlx5_core 0000:53:00.0 mlx5_3: Port: 1 Link DOWN",
        "kernel: mlx5_core 0000:ab:00.0 mlx5_5: Port: 1 Link ACTIVE",
        "mlx5-port-down",
    ),
    (  # the kernel's OOM killer invoked; its reaper's report after the kill is no new failure
        "[20409.613189] php-fpm invoked oom-killer: gfp_mask=0xcc0(GFP_KERNEL), order=0, oom_score_adj=934",
        "[20409.627732] oom_reaper: reaped process 32055 (php-fpm), now anon-rss:0kB, file-rss:0kB, shmem-rss:19292kB",
        "oom-killer-invoked",
    ),
    (  # KubeRay's RayService troubleshooting: Ray Serve's message for a replica no node can hold
        '#   Message:                  Deployment "fruit_app_FruitMarket" has 1 replicas that have taken more than '
        "30s to be scheduled. This may be caused by waiting for the cluster to auto-scale, or waiting for a runtime "
        'environment to install. Resources required for each replica: {"CPU": 1.0}, resources available: {}.',
        "#   Status:                   UPDATING",
        "ray-serve-replica-unschedulable",
    ),
    (  # ai-dynamo/dynamo PR#3899 (blind round 173): a worker's etcd lease lost at INFO; the reconnect line
        "decode-1  | 2025-10-27T18:07:32.876104Z  INFO dynamo_runtime::transports::etcd::lease: keep alive task "
        "failed: Unable to refresh lease - deadline exceeded. Check etcd server status",
        "2026-06-12T17:29:50.626995Z  INFO dynamo_runtime::transports::etcd::connector: Successfully reconnected to "
        "ETCD cluster",
        "dynamo-lease-lost",
    ),
]


@pytest.mark.parametrize(("line", "look_alike", "source"), PAIRS, ids=[source for _, _, source in PAIRS])
def test_a_line_is_an_error_by_its_source_and_its_look_alike_is_not(
    library: Library, line: str, look_alike: str, source: str
) -> None:
    assert library.errors is not None
    hit = library.errors.classify(clean_line(line)[0])
    assert hit is not None and hit.marker == source and hit.severity.rank >= Severity.ERROR.rank
    assert source in library.errors.by_source()
    other = library.errors.classify(clean_line(look_alike)[0])
    assert other is None or other.marker not in library.errors.by_source()


def test_the_source_catalogue_is_read_before_the_level_words(library: Library) -> None:
    """An INFO line (glog's I) of a lost lease is decided by its source, not by its level letter."""
    assert library.errors is not None
    line = "I0505 14:52:17.509413   182 master_service.cpp:3741] client_id=1-2, action=client_expired"
    assert library.errors.markers[0].component, "sources.toml's entries come first"
    hit = library.errors.classify(line)
    assert hit is not None and hit.template == "client_id=<num>-<num>, action=client_expired"


def test_every_source_names_what_writes_its_lines(library: Library) -> None:
    assert library.errors is not None
    sources = [marker for marker in library.errors.markers if marker.component]
    assert {"kernel's OOM killer", "Kubernetes", "Slurm", "Ray", "Mooncake"} <= {
        word for marker in sources for word in (
            "kernel's OOM killer", "Kubernetes", "Slurm", "Ray", "Mooncake") if word in marker.component
    }  # fmt: skip
    assert all(len(marker.match) >= 2 for marker in sources), "two real lines each"
