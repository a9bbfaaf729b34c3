"""A quiet excerpt's summary names the line that matters (issue 22; the round 7 misses a/08, b/20):
the step a start-up reached (the NIXL connector registering the KV caches) and a warning a later line
cleared (UCX older than required, then its backend up; UCX's ENOMEM on an HCA it will not use, then the
benchmark running). The look-alike: an excerpt with no cleared warning names none.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from pdlogdoctor.library.patterns import Library
from pdlogdoctor.model import Report
from pdlogdoctor.pipeline import run

ROUND7 = Path(__file__).parent / "data"
# ai-dynamo/nixl: UCX's version check, both wordings (openucx/ucx ucp_context.c), then NIXL's backend up.
UCX_OLD_WORDING = (
    "[1745994234.385141] [iv-ydsu9xoq9sqbxys4g59z:711260:0]     ucp_context.c:1774 UCX  WARN  UCP version is "
    "incompatible, required: 1.18, actual: 1.12 (release 1)"
)
BACKEND_UP = "Backend UCX was instantiated"
# openucx/ucx#8746 as posted, then the OSU benchmark's header (the job ran past it).
UCX_ENOMEM = (
    "[1668693503.473099] [ampere:1188443:0]          ib_log.c:246  UCX  ERROR mlx5_0: ibv_create_cq() failed: "
    "Cannot allocate memory. Please set max locked memory (ulimit -l) to 'unlimited' (current: 64 kbytes)"
)
OSU_RAN = "# OSU MPI Broadcast Latency Test v5.8"
CLEARED = "One line warned, and a later one shows it harmless so far"


def _pasted(tmp_path: Path, library: Library, lines: list[str]) -> Report:
    path = tmp_path / "paste.txt"
    path.write_text("\n".join(lines) + "\n")
    return run([str(path)], library)


@pytest.mark.parametrize(
    ("lines", "named"),
    [
        ([UCX_OLD_WORDING, BACKEND_UP], "UCP version is incompatible, required: 1.18, actual: 1.12"),
        ([UCX_ENOMEM, OSU_RAN], "ibv_create_cq() failed: Cannot allocate memory"),
    ],
    ids=["ucx-version-then-backend", "ucx-enomem-then-benchmark"],
)
def test_a_quiet_summary_names_a_warning_a_later_line_cleared(
    tmp_path: Path, library: Library, lines: list[str], named: str
) -> None:
    report = _pasted(tmp_path, library, lines)
    assert report.verdict.id in ("no-failure-seen", "healthy"), report.verdict.summary
    assert CLEARED in report.verdict.summary and named in report.verdict.summary, report.verdict.summary


def test_a_quiet_summary_with_no_cleared_warning_names_none(tmp_path: Path, library: Library) -> None:
    report = _pasted(tmp_path, library, [BACKEND_UP])
    assert report.verdict.id == "no-failure-seen" and CLEARED not in report.verdict.summary


def test_a_vllm_start_up_cut_after_the_nixl_registration_names_it(tmp_path: Path, library: Library) -> None:
    case = ROUND7 / "blind-round7-excerpts-b" / "20-nixl-startup-cut-short"
    report = run([str(case / "prefill.log")], library)
    assert "The last step shown: vLLM's NIXL connector registers the KV caches" in report.verdict.summary
    assert "Registering KV_Caches. use_mla: False" in report.verdict.summary
