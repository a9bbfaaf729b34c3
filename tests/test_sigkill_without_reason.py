"""A container's exit code 137 with no reason beside it is SIGKILL: the OOM killer at its memory limit
is the likeliest sender, not a certain one (patterns/kubernetes/k8s-container-exit-137, marked
possible-cause; reason/analyzers/resources.py). KServe's status copies the code beside its own
reason (kserve#2260/#2290, blind round 110); `kubectl get pod -o json` holds it the same way. The
kubelet's own reason OOMKilled is a named kill; another exit code is no OOM."""

from __future__ import annotations

from pathlib import Path

from pdlogdoctor.pipeline import run

from .conftest import analysed_lines, shipped_library

LIBRARY = shipped_library()
KSERVE_CASE = Path(__file__).parent / "data" / "blind-round110-excerpts-e" / "04-kserve-triton-predictor-exit137"
POD_JSON = [
    '    "lastState": {',
    '        "terminated": {',
    '            "containerID": "containerd://5b0c",',
    '            "exitCode": 137,',
    '            "finishedAt": "2026-03-02T10:11:12Z",',
    '            "startedAt": "2026-03-02T10:09:40Z"',
    "        }",
    "    },",
]


def test_kserves_status_code_137_is_a_lead_to_the_memory_limit() -> None:
    report = run([str(KSERVE_CASE)], LIBRARY)
    assert report.verdict.id == "host-oom", report.verdict
    assert report.verdict.confidence < 0.5
    assert "exitCode: 137" in report.verdict.summary
    assert "not a" in report.verdict.summary and "certain" in report.verdict.summary


def test_a_pods_json_state_reads_the_same(tmp_path: Path) -> None:
    report = analysed_lines(tmp_path, LIBRARY, POD_JSON, "pod.txt")
    assert report.verdict.id == "host-oom", report.verdict
    assert report.verdict.confidence < 0.5


def test_the_kubelets_own_reason_is_a_named_kill(tmp_path: Path) -> None:
    report = analysed_lines(
        tmp_path,
        LIBRARY,
        ["    Last State:     Terminated", "      Reason:       OOMKilled", "      Exit Code:    137"],
        "pod.txt",
    )
    assert report.verdict.id == "host-oom", report.verdict
    assert report.verdict.confidence >= 0.5


def test_another_exit_code_is_no_oom(tmp_path: Path) -> None:
    report = analysed_lines(tmp_path, LIBRARY, [line.replace("137", "1") for line in POD_JSON], "pod.txt")
    assert report.verdict.id != "host-oom", report.verdict
    assert any('"exitCode": 1,' in t.first.text for t in report.unrecognised)


def test_the_reason_beside_the_code_leads() -> None:
    # kuberay's head pod as `kubectl get pod -o yaml` shows it: `exitCode: 137` and `reason: OOMKilled`.
    case = Path(__file__).parent / "data" / "blind-round16-excerpts-b" / "06-kuberay-head-oomkilled"
    report = run([str(case)], LIBRARY)
    assert report.verdict.id == "host-oom" and report.verdict.confidence >= 0.5, report.verdict
    assert "OOMKilled" in report.verdict.summary
