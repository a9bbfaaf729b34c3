"""Results summaries a harness prints that say by a mark whether a check held (issue 22: a failed
gate is never healthy; a passed one is proof of serving).

k6's end-of-test summary marks a metric with a threshold ✓ or ✗ (huggingface/text-generation-inference
#317's load test, blind round 78's excerpts-c 01: `no-failure-seen` at first sight). A box-drawn
table (Python's rich) gives each check a status cell (NVIDIA/TensorRT-LLM#14971's re-enabled tests,
round 78's excerpts-d 07; NVIDIA-NeMo/RL#2584's `Metric Checks`, round 74's excerpts-d 06). Look-alikes:
a k6 metric with no threshold has no mark; a Markdown table's status cell is other patterns' to read.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from pdlogdoctor.cli.behaviour import exit_code_for
from pdlogdoctor.library.patterns import Library
from pdlogdoctor.model import Report
from pdlogdoctor.pipeline import run

K6 = [
    "✓ queue_time.....................: avg=657.6ms min=1ms med=651.5ms max=1.43s p(90)=1.19s p(95)=1.27s",
    "{mark} time_per_token.................: avg=70.62ms min=58ms med=71ms max=74ms p(90)=72ms p(95)=72ms",
    "  inference_time.................: avg=4.26s min=3.5s med=4.28s max=4.48s p(90)=4.32s p(95)=4.37s",
]
BOX = [
    "  │ TestGemma4MoE::test_bf16                 │ DGX_H100-4_GPUs-AutoDeploy-1 │ ✅ PASSED            │",
    "  │ TestQwen3_5_397B_MoE::test_bf16_small[4] │ DGX_H100-4_GPUs-AutoDeploy-1 │ {outcome}            │",
]


def _report(tmp_path: Path, library: Library, lines: list[str]) -> Report:
    (tmp_path / "summary.txt").write_text("\n".join(lines) + "\n")
    return run([str(tmp_path)], library)


@pytest.mark.parametrize(("mark", "verdict", "code"), [("✓", "healthy", 0), ("✗", "performance-regression", 1)])
def test_k6s_threshold_marks(tmp_path: Path, library: Library, mark: str, verdict: str, code: int) -> None:
    report = _report(tmp_path, library, [line.replace("{mark}", mark) for line in K6])
    assert report.verdict.id == verdict, report.verdict.summary
    assert "time_per_token" in report.verdict.summary
    assert int(exit_code_for(report)) == code


@pytest.mark.parametrize(("outcome", "healthy"), [("✅ PASSED", True), ("❌ FAILED", False)])
def test_a_box_tables_status_cells(tmp_path: Path, library: Library, outcome: str, healthy: bool) -> None:
    report = _report(tmp_path, library, [line.replace("{outcome}", outcome) for line in BOX])
    assert (report.verdict.id == "healthy") is healthy, report.verdict.summary
    if not healthy:
        assert "TestQwen3_5_397B_MoE::test_bf16_small[4]" in report.verdict.summary
        assert int(exit_code_for(report)) != 0
