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


# sgl-project/sglang#24523: a DeepSeek-V4 prefill's memory sizing, the whole paste (no known line).
DSV4_SIZING = [
    "[2026-05-06 09:15:41 DP7 TP7 EP7] Memory profiling: available_gpu_memory=17.94 GB, total_gpu_memory=138.17 GB, "
    "mem_fraction_static=0.90, rest_memory=4.13 GB",
    "[2026-05-06 09:15:41 DP7 TP7 EP7] DSv4 memory calculation: bytes_per_full_token=23749.84, "
    "available_bytes=4.13 GB, full_token=186368",
]
# vllm-project/vllm-ascend#2191: an API server's start, then its routes.
VLLM_UP = [
    "INFO 08-05 03:10:22 [api_server.py:1818] Starting vLLM API server 0 on http://0.0.0.0:8004",
    "INFO 08-05 03:10:22 [launcher.py:29] Available routes are:",
    "INFO 08-05 03:10:23 [launcher.py:37] Route: /openapi.json, Methods: HEAD, GET",
]
SGLANG_ANSWERS = [
    '[2025-06-10 08:11:02] INFO:     10.25.28.11:47301 - "POST /generate HTTP/1.1" 200 OK',
    '[2025-06-10 08:11:09] INFO:     10.25.28.11:47308 - "POST /generate HTTP/1.1" 200 OK',
]


def test_a_quiet_excerpt_of_unknown_lines_says_where_its_lines_end(tmp_path: Path, library: Library) -> None:
    report = _pasted(tmp_path, library, DSV4_SIZING)
    assert report.verdict.id == "no-failure-seen"
    assert (
        "The lines end at " in report.verdict.summary
        and "paste.txt:2: [2026-05-06 09:15:41 DP7 TP7 EP7] DSv4 memory calculation" in report.verdict.summary
    )


def test_a_quiet_excerpt_whose_last_line_is_its_last_step_names_it_once(tmp_path: Path, library: Library) -> None:
    """The last step shown is the file's last line: the summary says it once, not again as its end."""
    case = ROUND7 / "blind-round7-excerpts-b" / "20-nixl-startup-cut-short" / "prefill.log"
    lines = case.read_text().splitlines()
    registered = next(at for at, line in enumerate(lines) if "Registering KV_Caches" in line)
    report = _pasted(tmp_path, library, lines[: registered + 1])
    assert "The last step shown: vLLM's NIXL connector registers the KV caches" in report.verdict.summary
    assert "The lines end at" not in report.verdict.summary
    again = _pasted(tmp_path, library, lines[: registered + 2])  # one line more, of no known kind
    assert "The lines end at" in again.verdict.summary


@pytest.mark.parametrize(
    ("lines", "last"),
    [
        (VLLM_UP, "paste.txt:1: INFO 08-05 03:10:22 [api_server.py:1818] Starting vLLM API server 0"),
        (SGLANG_ANSWERS, "paste.txt:2: [2025-06-10 08:11:09] INFO:     10.25.28.11:47308"),
    ],
    ids=["vllm-ready-line", "sglang-answers"],
)
def test_a_healthy_summary_quotes_the_last_line_that_shows_serving(
    tmp_path: Path, library: Library, lines: list[str], last: str
) -> None:
    report = _pasted(tmp_path, library, lines)
    assert report.verdict.id == "healthy"
    assert f"The last line that shows it: {tmp_path / last}" in report.verdict.summary
