"""A run that failed a latency gate and an accuracy gate says both (issue 22).

tt-inference-server's release report lists each failed acceptance check on a line of its own: its
evaluations below the GPU reference, then its TTFT and throughput targets missed (round 135's
excerpts-c 04). The verdict is the performance gate's; its summary names the accuracy gates that
failed beside it, the first quoted, and each quote's own full stop ends its sentence.
"""

from __future__ import annotations

from pathlib import Path

from pdlogdoctor.pipeline import run

from .conftest import shipped_library

LIBRARY = shipped_library()
ACCURACY = (
    "- `evals.longbench_code_e`: Accuracy check failed; actual score=9.3767; reference "
    "gpu_reference_score=48.1200; ratio=0.1949."
)
LATENCY = (
    "- `benchmarks.complete.ttft_check`: complete ttft_check failed; actual ttft=34.1000; threshold "
    "ttft=30.0000; ratio=1.1367."
)


def test_the_accuracy_gates_beside_a_failed_latency_gate_are_named(tmp_path: Path) -> None:
    excerpt = tmp_path / "release.md"
    excerpt.write_text(f"{ACCURACY}\n{LATENCY}\n")
    report = run([str(excerpt)], LIBRARY)
    assert report.verdict.id == "performance-regression", report.verdict.summary
    summary = report.verdict.summary
    assert "release.md:2:" in summary and "ttft=34.1000" in summary
    assert "An accuracy gate failed too: " in summary and "release.md:1:" in summary
    assert "ratio=0.1949." in summary and ".." not in summary


def test_a_latency_gate_alone_names_no_accuracy_gate(tmp_path: Path) -> None:
    excerpt = tmp_path / "release.md"
    excerpt.write_text(f"{LATENCY}\n")
    report = run([str(excerpt)], LIBRARY)
    assert report.verdict.id == "performance-regression", report.verdict.summary
    assert "accuracy gate" not in report.verdict.summary and ".." not in report.verdict.summary
