"""A failure the run survived: a blip while serving is noted in a healthy report, never its verdict.

The cases are the blind testers' (tests/data/blind-*, corpus cases checked in tests/test_corpus.py).
"""

from __future__ import annotations

import shutil
from collections.abc import Callable, Mapping
from pathlib import Path

from pdlogdoctor.cli.behaviour import exit_code_for
from pdlogdoctor.library.patterns import Library
from pdlogdoctor.model import Report
from pdlogdoctor.pipeline import run
from pdlogdoctor.render.markdown import markdown_report
from pdlogdoctor.render.options import RenderOptions

from .conftest import ROOT
from .corpus import case_report


def test_a_recovered_health_blip_is_noted_in_a_healthy_report(case_reports: Mapping[Path, Report]) -> None:
    """One /health 503 the server recovered from during serving: healthy, and the report says so."""
    report = case_report(case_reports, "tests/data/blind-round3/14-healthy-health-blip-prefill-utc8")
    assert report.verdict.id == "healthy"
    # The first of the blip's lines: sglang's own `Health check failed.` (560), then its 503 (561).
    assert any("recovered from" in note and "decode-0.log:560" in note for note in report.notes), report.notes
    assert "recovered from" in report.verdict.summary, report.verdict.summary
    # the line is quoted (the words the chain's lines hold may be set as code: `HTTP/1.1`)
    quoted = markdown_report(report, RenderOptions(redact=False)).replace("`", "")
    assert "Health check failed. Server couldn't get a response from detokenizer" in quoted


def test_a_retried_slice_error_with_no_consequence_is_a_noted_blip(case_reports: Mapping[Path, Report]) -> None:
    """One Mooncake slice error, nothing downstream failed, serving went on and the gate passed:
    healthy, and the summary and a note name the blip; rdma-link-failure is a low alternative."""
    report = case_report(case_reports, "tests/data/blind-round4/14-")
    assert report.verdict.id == "healthy", report.verdict.summary
    assert "decode_h100-d01.log:7" in report.verdict.summary and "end-to-end checks passed" in report.verdict.summary
    assert any("survived" in note and "transport retry counter exceeded" in note for note in report.notes)
    rdma = next(a for a in report.alternatives if a.id == "rdma-link-failure")
    # rejected: it had no consequence, or the server went on answering after it (a /generate answer)
    assert rdma.confidence <= 0.1, rdma
    assert "without consequence" in rdma.why_not or "the server went on" in rdma.why_not, rdma


# ---------------------------------------------------------------- a component that recovered on its own, or came back

RECOMPUTED = "tests/data/blind-round8-bundles/19-vllm-pd-one-transfer-error-recomputed"
RESTARTED = "tests/data/blind-round8-bundles/18-2p1d-soak-prefill-restarted-once"
# vLLM's scheduler with kv_load_failure_policy=fail (v1/core/sched/scheduler.py): the requests fail.
FAILED_POLICY = (
    "(EngineCore_DP0 pid=266) ERROR 07-09 16:21:33 [scheduler.py:2290] Failing 1 request(s) due to KV load failure "
    "(failure_policy=fail, 3072 tokens affected). Request IDs: {'cmpl-012abbfb48d7ea9ce2909f60b5dfc034-0'}"
)


def _edited(tmp_path: Path, case: str, name: str, edit: Callable[[list[str]], list[str]]) -> Path:
    """A copy of the corpus case with one file's lines edited (its expected.toml left behind)."""
    bundle = tmp_path / Path(case).name
    shutil.copytree(ROOT / case, bundle, ignore=shutil.ignore_patterns("expected.toml"))
    path = bundle / name
    path.write_text("\n".join(edit(path.read_text().splitlines())) + "\n")
    return bundle


def test_a_kv_load_failure_the_engine_recomputed_is_a_survived_blip(case_reports: Mapping[Path, Report]) -> None:
    """One RDMA READ past its retries, the blocks marked invalid, the scheduler's `Recovered from KV
    load failure: 1 request(s) rescheduled`, then 12000/12000 served and the release check passed:
    healthy; the summary names the recovery line, a note the UCX error, rdma-link-failure is ruled out."""
    report = case_report(case_reports, RECOMPUTED)
    assert report.verdict.id == "healthy", report.verdict.summary
    assert "decode-node-d.log:2462" in report.verdict.summary, report.verdict.summary
    assert any("survived" in note and "decode-node-d.log:2459" in note for note in report.notes), report.notes
    rdma = next(a for a in report.alternatives if a.id == "rdma-link-failure")
    assert rdma.confidence <= 0.1 and "recovered" in rdma.why_not, rdma


def test_a_recomputed_failure_that_keeps_coming_back_stays_the_cause(tmp_path: Path, library: Library) -> None:
    """Look-alike: the same RDMA READ failure and recompute again four minutes later: a recurring
    error, not a blip; the link failure stays the verdict."""

    def again(lines: list[str]) -> list[str]:
        failure = lines[2458:2462]  # the UCX pair, NIXL's failure, the scheduler's recovery
        later = [
            line.replace("1783614093.", "1783614333.").replace("16:21:33", "16:25:33").replace("wqe[1802]", "wqe[977]")
            for line in failure
        ]
        return [*lines[:2900], *later, *lines[2900:]]

    report = run([str(_edited(tmp_path, RECOMPUTED, "decode-node-d.log", again))], library)
    assert report.verdict.id == "rdma-link-failure", report.verdict.summary
    assert int(exit_code_for(report)) != 0


def test_a_kv_load_failure_that_failed_its_requests_is_no_blip(tmp_path: Path, library: Library) -> None:
    """Look-alike: the same failure under kv_load_failure_policy=fail (`Failing 1 request(s) due to
    KV load failure`): nothing says the engine went on past it; never healthy."""

    def failed(lines: list[str]) -> list[str]:
        return [FAILED_POLICY if "Recovered from KV load failure" in line else line for line in lines]

    report = run([str(_edited(tmp_path, RECOMPUTED, "decode-node-d.log", failed))], library)
    assert report.verdict.id != "healthy", report.verdict.summary


def test_a_prefill_restarted_by_its_probe_is_a_survived_outage(case_reports: Mapping[Path, Report]) -> None:
    """A prefill restarted once by its liveness probe: the decode lost it and failed the 6 requests
    it held (one burst), the restarted prefill came up (its new log's ready line) and the soak gates
    passed: healthy, the come-back quoted, the outage noted."""
    report = case_report(case_reports, RESTARTED)
    assert report.verdict.id == "healthy", report.verdict.summary
    assert "prefill-1.log:41" in report.verdict.summary, report.verdict.summary
    assert any("survived" in note and "decode-0.log:469" in note for note in report.notes), report.notes


def test_a_lost_prefill_that_never_came_back_is_no_survived_outage(tmp_path: Path, library: Library) -> None:
    """Look-alike: the same burst with no restarted prefill's log (nothing started after it): the
    outage is not shown survived; never healthy."""
    bundle = _edited(tmp_path, RESTARTED, "bench.log", lambda lines: lines)
    (bundle / "prefill-1.log").unlink()
    report = run([str(bundle)], library)
    assert report.verdict.id != "healthy", report.verdict.summary


def test_an_outage_that_comes_back_after_the_restart_is_no_blip(tmp_path: Path, library: Library) -> None:
    """Look-alike: the decode loses the same prefill again eight minutes after it came back: the
    failures are no single burst the run survived; never healthy."""

    def again(lines: list[str]) -> list[str]:
        lost = next(line for line in lines if "Lost connection with prefill instance" in line)
        return [*lines, lost.replace("11:43:19", "11:52:19")]

    report = run([str(_edited(tmp_path, RESTARTED, "decode-0.log", again))], library)
    assert report.verdict.id != "healthy", report.verdict.summary


# ---------------------------------------------------------------- a cause restated is not its consequence

FLAP = "tests/data/blind-round30-bundles-b/03-journald-rnic-flap-survived"
FLAP_PREFILL = "journal-prefill-gpu-a07.txt"
# sglang's prefill when a transfer it could not send fails its request (disaggregation/prefill.py),
# behind the same journald tag as the bundle's other lines.
FAILED_TRANSFER = (
    "Mar 04 12:32:10 gpu-a07 sglang-prefill[48211]: [2026-03-04 11:32:10 TP0] Prefill transfer failed for request "
    "rank=0 req.rid='bf08054b5ef7621ff234b6b160c81ddc' req.bootstrap_room=6416928802109334419 with exception "
    "KVTransferError(bootstrap_room=6416928802109334419): Failed to send kv chunk of 6416928802109334419 to "
    "10.1.4.22:40391"
)


def test_an_endpoint_marked_inactive_after_its_slices_failed_is_the_same_blip(
    case_reports: Mapping[Path, Report],
) -> None:
    """A 3 s link flap: Mooncake's slices fail, it marks the endpoint inactive (a line of the same
    cause, rdma-link-failure's own), moves the slices to other rails, and the benchmark completes
    1000/1000: a survived blip, not a link failure that failed the run."""
    report = case_report(case_reports, FLAP)
    assert report.verdict.id == "healthy", report.verdict.summary
    assert any("survived" in note and "transport retry counter exceeded" in note for note in report.notes)
    rdma = next(a for a in report.alternatives if a.id == "rdma-link-failure")
    assert rdma.confidence <= 0.1 and "survived" in rdma.why_not, rdma


def test_a_transfer_that_failed_its_request_after_the_flap_is_no_blip(tmp_path: Path, library: Library) -> None:
    """Look-alike: the same flap, and one request's transfer failed because of it: never healthy."""

    def failed(lines: list[str]) -> list[str]:
        at = next(i for i, line in enumerate(lines) if "mark it inactive" in line)
        return [*lines[: at + 1], FAILED_TRANSFER, *lines[at + 1 :]]

    report = run([str(_edited(tmp_path, FLAP, FLAP_PREFILL, failed))], library)
    assert report.verdict.id != "healthy", report.verdict.summary
