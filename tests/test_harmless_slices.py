"""RDMA slices that failed nothing do not hide where a slow run's time went (round 43 bundles-b 06).

A CI perf job on SGLang PD with Mooncake: early on, the prefill's Mooncake worker logs three
`Process failed for slice ... transport retry counter exceeded`; the slices are posted again and no
transfer, request or session fails. Later the decode's KV pool stands at 0.96-0.99 with requests
queued and retracted, and both latency gates fail. The link is ruled out (its slices failed nothing
beside a failed gate), and with it the slices stop counting as a failure besides the gates: the
decode's saturation is the verdict. Look-alike: the same run where the decode says a request's KV
never arrived: the slices then failed something, and no bottleneck is named over that failure.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from pdlogdoctor.model import Report
from pdlogdoctor.pipeline import run

from .conftest import shipped_library

CASE = (
    Path(__file__).parent
    / "data"
    / "blind-round43-bundles-b"
    / "06-sglang-mooncake-rdma-retry-recovered-decode-pool-saturated"
)
LIBRARY = shipped_library()
# sglang's decode, when a request's KV cache never came (disaggregation/decode.py's format).
KV_NEVER_CAME = (
    "[2025-11-08 16:46:14 TP0] Decode transfer failed for request rank=0 decode_req.req.rid='5f0c2d1e9a8b4c7d' "
    "decode_req.req.bootstrap_room=4411829301122334455 with exception "
    "KVTransferError(bootstrap_room=4411829301122334455): "
    "Failed to get kvcache from prefill instance, it might be dead\n"
)


def _run(tmp_path: Path, decode_line: str = "") -> Report:
    bundle = tmp_path / "run"
    shutil.copytree(CASE, bundle, ignore=shutil.ignore_patterns("expected.toml"))
    if decode_line:
        decode = bundle / "decode.log"
        lines = decode.read_text().splitlines(keepends=True)
        at = next(i for i, line in enumerate(lines) if "16:46:1" in line)
        decode.write_text("".join([*lines[:at], decode_line, *lines[at:]]))
    return run([str(bundle)], LIBRARY)


def test_slices_that_failed_nothing_leave_the_decodes_saturation_named(tmp_path: Path) -> None:
    report = _run(tmp_path)
    assert report.verdict.id == "decode-saturated", report.verdict.summary
    assert "gate mean_tpot_ms: 120.84 > 60.00" in report.verdict.summary
    assert "KV cache pool is full. Retract requests." in report.verdict.summary
    link = next(a for a in report.alternatives if a.id == "rdma-link-failure")
    assert "caused nothing" in link.why_not and link.confidence <= 0.15
    assert [e.line for e in report.harmless] and all("Process failed for slice" in e.text for e in report.harmless)


def test_slices_beside_a_request_that_failed_name_no_bottleneck(tmp_path: Path) -> None:
    report = _run(tmp_path, KV_NEVER_CAME)
    assert report.verdict.id != "decode-saturated", report.verdict.summary
    assert not report.harmless
