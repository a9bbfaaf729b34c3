"""The mlx5 driver's `CREATE_MKEY ... failed, status no resources` in the kernel's log, in the seconds
a transfer engine's registration failed, says why it failed: the NIC had no memory key left
(rdma-resource-exhausted), not a registration refused for its flags or memory (Mooncake's
troubleshooting page; blind round 112's vLLM P/D prefill behind the Mooncake connector). Without the
kernel's line, the registration's own errno is all there is."""

from __future__ import annotations

import shutil
from collections.abc import Mapping
from pathlib import Path

from pdlogdoctor.model import Report
from pdlogdoctor.pipeline import run

from .conftest import shipped_library

LIBRARY = shipped_library()
CASE = Path(__file__).parent / "data" / "blind-round112-bundles-2" / "03-vllm-mooncake-connector-mkey-exhausted"


def test_the_kernels_line_names_why_the_registration_failed(case_reports: Mapping[Path, Report]) -> None:
    report = case_reports[CASE]
    assert report.verdict.id == "rdma-resource-exhausted", report.verdict
    assert "CREATE_MKEY(0x200) op_mod(0x0) failed, status no resources(0xf)" in report.verdict.summary
    assert any(e.pattern == "mooncake-register-memory-failed" for e in report.chain)


def test_without_the_kernels_line_the_registration_stays_refused(tmp_path: Path) -> None:
    bundle = tmp_path / "bundle"
    shutil.copytree(CASE, bundle, ignore=shutil.ignore_patterns("expected.toml", "dmesg*"))
    report = run([str(bundle)], LIBRARY)
    assert report.verdict.id == "mr-registration-rejected", report.verdict
