"""Blind round 4: 20 bundles written from the real formats by a tester who never read the code
(tests/data/blind-round4; INDEX.md describes each, each expected.toml keeps the tester's reasoning).

What the tester asked for, checked as written:

- the verdict the tester expected, or (for a failure whose cause is outside the catalogue) one
  the tester allowed: never one of `must_not_be` above 0.5 confidence;
- the exit code that goes with it (0 healthy, 1 a named cause, 3 inconclusive);
- a line the tester points at (`key_lines`) quoted in the markdown --no-redact report, whole, or as
  its message with the container runtime's wrapper taken off (never half unwrapped);
- the report flaws the tester listed on right verdicts (FINDINGS.md), each as its own test.

Known misses stay visible as strict xfails with their reason: whoever fixes one removes its entry.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from pdlogdoctor.library.patterns import Library
from pdlogdoctor.model import Report
from pdlogdoctor.reason.fingerprint import fingerprint
from pdlogdoctor.render.markdown import markdown_report
from pdlogdoctor.render.options import RenderOptions

from .blind_sets import CONFIDENT, assert_verdict_and_exit_code, blind_cases, expected, reports_of
from .conftest import FIXTURES

CASES = blind_cases("blind-round4")
# The tester allowed a generic scheduler-init-crash where a scheduler really died of an error outside
# the catalogue, if the verdict's summary names that error.
ARGUABLE = {
    "06-hip-no-binary-for-gpu": {"scheduler-init-crash", "scheduler-crash"},
    "08-nccl-no-route-multinode-prefill": {"scheduler-init-crash", "scheduler-crash"},
}
# Known misses (strict xfails): remove the entry with the fix.
WRONG_VERDICT: dict[str, str] = {}
UNQUOTED: dict[str, str] = {
    "03-crlf-ansi-truncated-gpu-oom": "the 480-character key line is cut at the excerpt limit",
    "05-vllm-nixl-not-installed": "both engines print the same lines; one template stands for both and quotes "
    "the decode's copy (pid 298), the key lines are the prefill's (pid 311)",
}
# The containerd CRI wrapper: RFC 3339 time, stream, partial/full tag.
CRI_WRAPPER = re.compile(r"^\S+ (?:stdout|stderr) [FP] ")


def _marked(cases: dict[str, str]) -> list[object]:
    return [
        pytest.param(c, id=c.name, marks=pytest.mark.xfail(strict=True, reason=cases[c.name]))
        if c.name in cases
        else pytest.param(c, id=c.name)
        for c in CASES
    ]


@pytest.fixture(scope="module")
def reports(library: Library) -> dict[Path, Report]:
    return reports_of(CASES, library)


def _report(reports: dict[Path, Report], prefix: str) -> Report:
    return next(report for case, report in reports.items() if case.name.startswith(prefix))


def _body(report: Report) -> str:
    return markdown_report(report, RenderOptions(redact=False))


def _is_quoted(line: str, body: str) -> bool:
    """The line whole, or its message with the runtime's wrapper removed and no remnant of it left."""
    if line in body:
        return True
    message = CRI_WRAPPER.sub("", line)
    if message == line or message not in body:
        return False
    return re.search(r"(?:stdout|stderr) [FP] " + re.escape(message), body) is None


def test_the_set_is_whole() -> None:
    kinds = [expected(case)["verdict"] for case in CASES]
    assert len(CASES) == 20 and kinds.count("healthy") == 4 and kinds.count("inconclusive") == 7


@pytest.mark.parametrize("case", _marked(WRONG_VERDICT))
def test_verdict_and_exit_code(case: Path, reports: dict[Path, Report]) -> None:
    assert_verdict_and_exit_code(case, reports[case], ARGUABLE.get(case.name, set()))


@pytest.mark.parametrize("case", _marked(UNQUOTED))
def test_key_line_is_quoted(case: Path, reports: dict[Path, Report]) -> None:
    want, report = expected(case), reports[case]
    body = _body(report)
    assert any(_is_quoted(line, body) for line in want["key_lines"]), f"no key line quoted; verdict {report.verdict.id}"


def test_a_retried_slice_error_with_no_consequence_is_a_noted_blip(reports: dict[Path, Report]) -> None:
    """14: one Mooncake slice error, nothing downstream failed, serving went on and the gate passed:
    healthy, and the summary and a note name the blip; rdma-link-failure is a low alternative."""
    report = _report(reports, "14-")
    assert report.verdict.id == "healthy", report.verdict.summary
    assert "decode_h100-d01.log:7" in report.verdict.summary and "end-to-end checks passed" in report.verdict.summary
    assert any("survived" in note and "transport retry counter exceeded" in note for note in report.notes)
    rdma = next(a for a in report.alternatives if a.id == "rdma-link-failure")
    assert rdma.confidence <= 0.1 and "without consequence" in rdma.why_not, rdma


def test_rotated_segments_of_one_log_are_one_node(reports: dict[Path, Report]) -> None:
    body = _body(_report(reports, "02-"))
    assert "of 2 decode nodes" not in body
    assert "could not be aligned with" not in body


def test_a_dmesg_root_line_keeps_its_time(reports: dict[Path, Report]) -> None:
    report = _report(reports, "10-")
    root = next(event for event in report.chain if event.pattern == "oom-killed-process")
    assert root.time is not None


def test_a_harness_exit_status_137_counts_as_sigkill(reports: dict[Path, Report]) -> None:
    """10: the harness's rc=137 is 128 + SIGKILL: it corroborates the OOM kill, and the report does not
    ask to verify what the harness already shows."""
    report = _report(reports, "10-")
    assert "rc=137" in report.verdict.summary and "harness.log:2" in report.verdict.summary
    assert not any("SIGKILL" in missing for missing in report.missing), report.missing


def test_unrelated_unexplained_failures_get_different_fingerprints(reports: dict[Path, Report]) -> None:
    nixl, template = _report(reports, "05-"), _report(reports, "07-")
    assert nixl.verdict.id == template.verdict.id == "inconclusive"
    assert fingerprint(nixl) != fingerprint(template)


def test_a_summary_that_reports_zero_errors_is_not_an_error(reports: dict[Path, Report]) -> None:
    report = _report(reports, "12-")
    assert report.verdict.id == "healthy"
    assert not report.unrecognised, [u.template for u in report.unrecognised]
    assert "errors no pattern explains" not in report.verdict.summary


def test_an_argparse_rejection_is_quoted_by_its_error_line(reports: dict[Path, Report]) -> None:
    summary = _report(reports, "19-").verdict.summary
    assert "launch_router.py: error: unrecognized arguments: --disable-circuit-breaker" in summary
    assert "usage:" not in summary


def test_a_wrapped_usage_and_a_zero_error_summary_are_not_errors(bundle_reports: dict[Path, Report]) -> None:
    """19's and 12's variant: argparse's usage wrapped over indented lines, and a health summary with
    `"errors": 0`, are no error lines; argparse's error line is the only unrecognised one."""
    report = bundle_reports[FIXTURES / "router-argparse-invalid-choice"]
    assert [t.first.text for t in report.unrecognised] == [
        "launch_router.py: error: argument --policy: invalid choice: 'least_load' "
        "(choose from 'random', 'round_robin', 'cache_aware', 'power_of_two')"
    ]


def test_a_vllm_benchmark_result_is_end_to_end_evidence(reports: dict[Path, Report]) -> None:
    report = _report(reports, "15-")
    assert report.verdict.id == "healthy" and report.verdict.confidence >= 0.8
    assert "No end-to-end result" not in report.verdict.summary


def test_memory_advice_follows_the_error_line(reports: dict[Path, Report]) -> None:
    """20: the KV pool did not fit at 0.6 and the error says to increase it: raise (to the prefill's
    0.85, which came up). 03: a graph-capture allocation failed at 0.93: lower, by the shortfall
    (1.75 - 1.02) GiB / 191.98 GiB = 0.0038, to 0.92."""
    kv_pool, graph_capture = _report(reports, "20-"), _report(reports, "03-")
    assert kv_pool.advice.startswith("Raise --mem-fraction-static on the decode") and "0.6" in kv_pool.advice
    assert [(s.name, s.value) for s in kv_pool.suggestions] == [("--mem-fraction-static", "0.85")]
    assert graph_capture.advice.startswith("Lower --mem-fraction-static on the decode")
    assert "0.93" in graph_capture.advice
    assert [(s.name, s.value) for s in graph_capture.suggestions] == [("--mem-fraction-static", "0.92")]


def test_an_abort_without_mori_names_its_runtime_error_not_mori(reports: dict[Path, Report]) -> None:
    """06: the HIP runtime's error before the SIGABRT is the crash's likeliest cause, stated with the
    low confidence of a cause outside the catalogue; MORI, which logged nothing, is not hinted at."""
    report = _report(reports, "06-")
    line = "hipErrorNoBinaryForGpu: Unable to find code object for all current devices!"
    assert line in report.verdict.summary and "prefill_mi325-n04.log:3" in report.advice
    assert report.verdict.confidence <= CONFIDENT
    assert "MORI" not in _body(report)


def test_an_error_in_another_servers_log_is_not_what_the_crash_died_of(
    bundle_reports: dict[Path, Report],
) -> None:
    """06's look-alike: the only HIP error is in the prefill's log, the decode aborted; the decode's
    crash does not claim it (it stays listed as unrecognised), unlike its variant where it is the
    decode's own line."""
    own = bundle_reports[FIXTURES / "hip-no-code-object-amd-log-level"]
    other = bundle_reports[FIXTURES / "hip-error-in-other-server-only"]
    assert "hipErrorNoBinaryForGpu" in own.verdict.summary
    assert "hipErrorNoBinaryForGpu" not in other.verdict.summary and "likeliest" not in other.verdict.summary
    assert any("hipErrorNoBinaryForGpu" in t.template for t in other.unrecognised)


def test_an_nccl_bootstrap_failure_points_at_reachability(reports: dict[Path, Report]) -> None:
    """08: the crash quotes NCCL's own WARN line, its fix is about the nodes reaching each other, and
    its confidence says that no verdict names an NCCL bootstrap that cannot connect."""
    report = _report(reports, "08-")
    warn = "node5:240:240 [6] misc/socket.cc:533 NCCL WARN socketPollConnect: Connect to 10.0.0.4<56849> returned 113"
    assert warn in report.verdict.summary
    assert "NCCL_SOCKET_IFNAME" in report.advice, report.advice
    assert report.verdict.confidence <= CONFIDENT or report.verdict.id == "inconclusive"
