"""A server stopped from outside just before its peer's transport fails: the stop is the failure.

When a decode is killed (systemd's SIGKILL, a Slurm cancel), the prefill's RDMA completions to it
fail within the second: Mooncake reports `transport retry counter exceeded`, which alone reads as a
link failure. The stop line is an error by its source (patterns/open-world/sources.toml, `stops`)
and no pattern names why it happened, so the run is inconclusive, led by the stop. Look-alikes: a
NIC port going down (a link's own fault: sources.toml's mlx5 line, no `stops`) and a stop long
before the transport errors.
"""

from __future__ import annotations

from pathlib import Path

from pdlogdoctor.library.patterns import Library
from pdlogdoctor.pipeline import run

# Mooncake's worker pool (transfer_engine worker_pool.cpp) inside an sglang prefill's log, glog format
SLICE_FAILED = (
    "E0314 03:12:{second}.911402  98946 worker_pool.cpp:297] Worker: Process failed for slice (opcode: 1, "
    "source_addr: 0x7f5a3c000000, length: 65536, dest_addr: 0x7f81e8000000, local_nic: mlx5_2, "
    "peer_nic: 10.40.0.17:15412@mlx5_2, dest_rkey: 3148545, retry_cnt: 0): transport retry counter exceeded"
)
PREFILL_BATCH = (
    "[2026-03-14 03:12:51 TP0] Prefill batch, #new-seq: 4, #new-token: 7171, #cached-token: 2193, token usage: 0.31, "
    "#running-req: 0, #queue-req: 0, #prealloc-req: 0, #inflight-req: 2, input throughput (token/s): 8481.20, "
    "cuda graph: False"
)
KILLED = "Mar 14 {clock} gpu-node-17 systemd[1]: sglang-decode.service: Main process exited, code=killed, status=9/KILL"
DECODE_OK = '[2026-03-14 03:12:53] INFO:     10.40.0.5:51767 - "POST /v1/chat/completions HTTP/1.1" 200 OK'


def _bundle(tmp_path: Path, decode_end: list[str], second: str = "55") -> str:
    (tmp_path / "prefill.log").write_text(f"{PREFILL_BATCH}\n{SLICE_FAILED.format(second=second)}\n")
    (tmp_path / "decode.log").write_text("\n".join([DECODE_OK, *decode_end]) + "\n")
    return str(tmp_path)


def test_a_decode_killed_by_systemd_is_why_the_prefills_rdma_failed(tmp_path: Path, library: Library) -> None:
    killed = (
        "Mar 14 03:12:55 gpu-node-17 systemd[1]: sglang-decode.service: Main process exited, code=killed, status=9/KILL"
    )
    report = run([_bundle(tmp_path, [killed])], library)
    assert report.verdict.id == "inconclusive"
    assert report.verdict.summary.startswith("A server was stopped from outside")
    assert "status=9/KILL" in report.verdict.summary
    rdma = next(a for a in report.alternatives if a.id == "rdma-link-failure")
    assert "stopped from outside" in rdma.why_not
    assert any("who stopped the server" in item for item in report.missing)


def test_a_cancelled_decode_job_is_why_too(tmp_path: Path, library: Library) -> None:
    cancelled = "slurmstepd: error: *** STEP 12903.2 ON gpu-node-17 CANCELLED AT 2026-03-14T03:12:55 ***"
    report = run([_bundle(tmp_path, [cancelled])], library)
    assert report.verdict.id == "inconclusive"
    assert "CANCELLED AT 2026-03-14T03:12:55" in report.verdict.summary


def test_a_nic_port_down_is_the_links_own_fault(tmp_path: Path, library: Library) -> None:
    down = "Mar 14 03:12:55 gpu-node-17 kernel: mlx5_core 0000:53:00.0 mlx5_2: Port: 1 Link DOWN"
    report = run([_bundle(tmp_path, [down])], library)
    assert report.verdict.id == "rdma-link-failure"


def test_a_stop_long_before_is_another_matter(tmp_path: Path, library: Library) -> None:
    killed = (
        "Mar 14 03:02:10 gpu-node-17 systemd[1]: sglang-decode.service: Main process exited, code=killed, status=9/KILL"
    )
    report = run([_bundle(tmp_path, [killed])], library)
    assert report.verdict.id == "rdma-link-failure"
