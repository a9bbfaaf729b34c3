"""Lines that report a failure in words of state, not of error (issue 22, the round 7 misses): a node
marked dead, a worker killed, a 5xx status a client printed with its body. Pasted alone, each gets a
report that quotes it and is never `no-failure-seen` or `healthy`; its look-alike (a name, a negation,
a count, a success status) stays `no-failure-seen`. And a unit test's own exception is its failure's
cause: a server's message the test printed above it does not become the verdict.

The lines are real (their threads are cited); the look-alikes are the shapes that must not fire.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

import pytest

from pdlogdoctor.library.patterns import Library
from pdlogdoctor.model import Report
from pdlogdoctor.pipeline import run

from .corpus import case_report

REPORTS = {
    # vllm-project/vllm#19960: the message of a Ray GCS RAY_NODE_REMOVED record
    "ray-node-marked-dead": "The node with node id: ada3a3771fac751bd7c6b674e3b5e2df045b93550e6d31a410cad0be and "
    "address: 156.176.0.154 and node name: 156.176.0.154 has been marked dead because the detector has missed too "
    "many heartbeats from it.",
    # a Ray actor error (code index id 24504983427)
    "ray-actor-node-died": "The actor died because its node has died.",
    # SemiAnalysisAI/InferenceX#2255: an eval script printing the SGLang router's 503 and its body
    "router-503-body": '503 "No available prefill workers (all circuits open or unhealthy)"',
    # a Ray task on a 33 GB node (code index id 40770263063): the memory monitor's kill
    "ray-memory-monitor": "Memory on the node (IP: 172.17.0.2, ID: 3a4b60759256926fd0e84a9ff596dab3d7be854134107ef21b0"
    "e0260) where the task was running was 32.91GB / 33.28GB (0.988698), which exceeds the memory usage threshold of "
    "0.969955. Ray killed this worker (ID: 5c9ac30f8a9eda340f651a204de5d94f1ff965c5d9f72175579bd8dd) because it was "
    "the most recently scheduled task",
    # failure-words: a wait that timed out, a deadline passed, a process the shell saw abort
    "ollama-runner-timed-out": 'msg="loading llama server" error="timed out waiting for llama runner to start"',
    "grpc-deadline-exceeded": 'status: DeadlineExceeded, message: "Deadline Exceeded", details: []',
    "bash-job-aborted": "./webui.sh: line 304:  4388 Aborted                 python3 launch.py",
    # sources.toml: a GPU page fault in the amdgpu driver's words, ROCr's fault report (ROCm/legacy-rocm-build#4021)
    "amdgpu-page-fault": "[5615152.198606] amdgpu 0008:00:00.0: amdgpu: [gfxhub0] retry page fault (src_id:0 ring:0 "
    "vmid:3 pasid:32850)",
    "rocm-memory-access-fault": "Memory access fault by GPU node-4 (Agent handle: 0x26ff9f00) on address "
    "0x7edbdee00000. Reason: Unknown.",
}
LOOK_ALIKES = {
    "a-queue-name": "[2026-07-02 10:16:03] dead_letter_queue=0 retries=3",
    "a-negation": "[2026-07-02 10:16:03] worker 3 is not dead, skipping restart",
    "a-zero-count": "[2026-07-02 10:16:03] 0 were killed, 0 restarted",
    "a-success-status": '200 "OK"',
    "a-request-count": "completed 503 requests in 12.1 s",
    "a-timeout-setting": "[2026-07-02 10:16:03] server_args=ServerArgs(watchdog_timeout=300, request_timeout=600)",
    "a-zero-timed-out": "[2026-07-02 10:16:03] bench: 500 completed, 0 timed out",
    "help-text": "  --dist-timeout DIST_TIMEOUT  Set timeout for torch.distributed initialization.",
}


def _pasted(tmp_path: Path, library: Library, text: str) -> Report:
    path = tmp_path / "paste.txt"
    path.write_text(text + "\n")
    return run([str(path)], library)


def _quoted(report: Report, line: str) -> bool:
    """The line's words stand in the summary or among the evidence the report lists."""
    head = line[:60]
    listed = [e.text for e in report.chain] + [t.first.text for t in report.unrecognised]
    return head in report.verdict.summary or any(head in text for text in listed)


@pytest.mark.parametrize("line", REPORTS.values(), ids=REPORTS.keys())
def test_a_line_that_reports_a_failure_is_failure_evidence(tmp_path: Path, library: Library, line: str) -> None:
    report = _pasted(tmp_path, library, line)
    assert report.verdict.id not in ("no-failure-seen", "healthy"), report.verdict.summary
    assert _quoted(report, line), (report.verdict.summary, report.unrecognised)


@pytest.mark.parametrize("line", LOOK_ALIKES.values(), ids=LOOK_ALIKES.keys())
def test_its_look_alike_is_no_failure(tmp_path: Path, library: Library, line: str) -> None:
    assert _pasted(tmp_path, library, line).verdict.id == "no-failure-seen"


def test_the_router_body_a_client_printed_names_the_side_with_no_worker(tmp_path: Path, library: Library) -> None:
    report = _pasted(tmp_path, library, REPORTS["router-503-body"])
    assert report.verdict.id == "router-no-workers", report.verdict.summary
    assert dict(report.verdict.facts).get("no_workers_side") == ("prefill",), report.verdict.facts


# sgl-project/sglang#32270's CI output (a round 7 blind case): a mocked test's KV warning, then the
# next test's traceback through unittest's call of the test method, up to its exception line.
UNIT_TEST_CASE = Path(__file__).parent / "data" / "blind-round7-excerpts-a" / "15-sglang-ci-nixl-unittest-typeerror"
UNIT_TEST_LINES = (UNIT_TEST_CASE / "job.log").read_text().splitlines()
TYPE_ERROR = 11  # the index of the TypeError that ends the test's traceback


def _unit_test_ending_in(exception: str) -> str:
    return "\n".join([*UNIT_TEST_LINES[:TYPE_ERROR], exception])


def test_a_unit_tests_own_exception_outranks_a_server_line_it_printed(tmp_path: Path, library: Library) -> None:
    """sgl-project/sglang#32270: a mocked NIXL test prints the KV waiting-timeout warning; the next
    test raises a TypeError. The TypeError is the failure, the timeout only what a test printed."""
    exception = UNIT_TEST_LINES[TYPE_ERROR]
    assert exception.startswith("TypeError: KVArgsRegisterInfo.__init__() missing 1 required")
    report = _pasted(tmp_path, library, _unit_test_ending_in(exception))
    assert report.verdict.id == "inconclusive", report.verdict.summary
    assert "KVArgsRegisterInfo.__init__() missing 1 required" in report.verdict.summary
    assert any(a.id == "kv-transfer-timeout" and a.confidence < 0.5 for a in report.alternatives)


def test_a_unit_tests_assertion_is_its_outcome_not_a_cause(tmp_path: Path, library: Library) -> None:
    """The look-alike: the same traceback ending in an AssertionError (a check that failed, as a gate
    does) does not take the symptom's place as a cause."""
    report = _pasted(tmp_path, library, _unit_test_ending_in("AssertionError: 0.41 not greater than 0.62"))
    assert "AssertionError" not in report.verdict.summary.split(".")[0], report.verdict.summary


def test_the_round7_unit_test_case_is_inconclusive(case_reports: Mapping[Path, Report]) -> None:
    report = case_report(case_reports, "tests/data/blind-round7-excerpts-a/15-sglang-ci-nixl-unittest-typeerror")
    assert report.verdict.id == "inconclusive" and "TypeError" in report.verdict.summary, report.verdict.summary


# lm-eval's results table (lm_eval/utils.py make_table): a collapsed score is a failed gate though no
# gate line says so; a table of good scores is requests answered, nothing failed.
HEADER = "|Tasks|Version|     Filter     |n-shot|  Metric   |   |Value|   |Stderr|"
COLLAPSED = {
    # vllm-project/vllm#14471 (an MLA change: DeepSeek-Coder-V2-Lite 0.06 / 0.00, 0.77 before it)
    "vllm-mla": [
        HEADER,
        "|gsm8k|      3|flexible-extract|     5|exact_match|↑  | 0.06|±  |0.0239|",
        "|     |       |strict-match    |     5|exact_match|↑  | 0.00|±  |0.0000|",
    ],
    # an AQLM-quantised model's "borked" run (index id 34060324941), the table without the arrow column
    "aqlm-borked": [
        "|gsm8k|      3|strict-match    |     5|exact_match|0.0099|±  |0.0027|",
        "|     |       |flexible-extract|     5|exact_match|0.0402|±  |0.0054|",
    ],
}
GOOD_SCORES = [  # Llama-3-8B-Instruct's scores (index id 18590499418)
    "|gsm8k    |      3|strict-match    |     5|exact_match|0.7331|±  |0.0122|",
    "|         |       |flexible-extract|     5|exact_match|0.7415|±  |0.0121|",
]


@pytest.mark.parametrize("rows", COLLAPSED.values(), ids=COLLAPSED.keys())
def test_a_collapsed_score_in_a_results_table_is_a_failed_gate(
    tmp_path: Path, library: Library, rows: list[str]
) -> None:
    report = _pasted(tmp_path, library, "\n".join(rows))
    assert report.verdict.id == "accuracy-regression", report.verdict.summary
    first = next(row for row in rows if "exact_match" in row)
    assert first in report.verdict.summary or any(first in e.text for e in report.chain)


def test_a_table_of_good_scores_is_no_failure(tmp_path: Path, library: Library) -> None:
    report = _pasted(tmp_path, library, "\n".join(GOOD_SCORES))
    assert report.verdict.id in ("healthy", "no-failure-seen"), report.verdict.summary
    assert not any(e.failing for e in report.chain)
