"""A failure line followed by proof that the same job got past it is not the root (issue 22).

UCX probes every HCA while MPI or NCCL initialises and logs `ibv_create_cq() failed: Cannot
allocate memory` for one it will not use (openucx/ucx#8746: shared-memory BTL only, the benchmark
ran). A later line of the same output showing the job measuring (an OSU micro-benchmark's header,
printed after MPI_Init) or finished (nccl-tests' average bus bandwidth) clears it: data, the
pattern's `cleared_by`. The look-alikes: the same error alone, a bandwidth check that FAILED, and
the completion in another file (another job's output) clear nothing.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from pdlogdoctor.library.patterns import Library
from pdlogdoctor.pipeline import run

# openucx/ucx#8746, as posted.
UCX_ENOMEM = (
    "[1668693503.473099] [ampere:1188443:0]          ib_log.c:246  UCX  ERROR mlx5_0: ibv_create_cq() failed: "
    "Cannot allocate memory. Please set max locked memory (ulimit -l) to 'unlimited' (current: 64 kbytes)\n"
)
OSU_RAN = "\n# OSU MPI Broadcast Latency Test v5.8\n# Size       Avg Latency(us)\n1                       0.23\n"
# NVIDIA/nccl-tests src/common.cu's closing lines.
NCCL_TESTS_RAN = "# Out of bounds values : 0 OK\n# Avg bus bandwidth    : 70.742 \n#\n"
NCCL_TESTS_CHECK_FAILED = "# Out of bounds values : 0 OK\n# Avg bus bandwidth    : 0.0236 FAILED\n#\n"


def _verdict(library: Library, tmp_path: Path, files: dict[str, str]) -> tuple[str, tuple[str, ...]]:
    for name, text in files.items():
        (tmp_path / name).write_text(text)
    report = run([str(tmp_path)], library)
    return report.verdict.id, report.notes


@pytest.mark.parametrize("after", [OSU_RAN, NCCL_TESTS_RAN], ids=["osu-header", "nccl-tests-bandwidth"])
def test_a_job_that_ran_past_the_error_clears_it(library: Library, tmp_path: Path, after: str) -> None:
    verdict, notes = _verdict(library, tmp_path, {"output.txt": UCX_ENOMEM + after})
    assert verdict != "rdma-resource-exhausted"
    assert any("ibv_create_cq() failed" in note and "is not counted as a failure" in note for note in notes)


@pytest.mark.parametrize(
    "files",
    [
        {"output.txt": UCX_ENOMEM},
        {"output.txt": UCX_ENOMEM + NCCL_TESTS_CHECK_FAILED},
        {"output.txt": UCX_ENOMEM, "other-job.txt": NCCL_TESTS_RAN},
    ],
    ids=["alone", "bandwidth-check-failed", "completion-in-another-file"],
)
def test_nothing_else_clears_it(library: Library, tmp_path: Path, files: dict[str, str]) -> None:
    verdict, _notes = _verdict(library, tmp_path, files)
    assert verdict == "rdma-resource-exhausted"
