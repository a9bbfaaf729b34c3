"""What a benchmark sent, with no `--num-prompts` in its output (reason/planned.py): its measured peak
in flight (vLLM's `Peak concurrent requests`) is the least it sent; its concurrency cap is that floor
only for a run sent all at once (`inf`): one paced at a finite rate, or one of fewer prompts than its
cap, keeps fewer in flight, and a block whose every request completed is no failure."""

from __future__ import annotations

from pathlib import Path

from pdlogdoctor.cli.behaviour import exit_code_for
from pdlogdoctor.library.patterns import Library
from pdlogdoctor.model import Report
from pdlogdoctor.pipeline import run


def _vllm_block(completed: int, cap: int, rate: str, peak: str | None) -> str:
    """`vllm bench serve`'s result block, its lines as vllm/benchmarks/serve.py formats them."""
    lines = [
        "============ Serving Benchmark Result ============",
        f"{'Successful requests:':<40} {completed:<10}",
        f"{'Maximum request concurrency:':<40} {cap:<10}",
        f"{'Request rate configured (RPS):':<40} {rate:<10}",
        f"{'Benchmark duration (s):':<40} {131.63:<10.2f}",
        f"{'Total input tokens:':<40} {61363:<10}",
        f"{'Total generated tokens:':<40} {61440:<10}",
        f"{'Request throughput (req/s):':<40} {0.23:<10.2f}",
        f"{'Output token throughput (tok/s):':<40} {466.77:<10.2f}",
        f"{'Peak output token throughput (tok/s):':<40} {750.00:<10.2f}",
    ]
    if peak is not None:
        lines.append(f"{'Peak concurrent requests:':<40} {peak:<10}")
    lines += [f"{'Mean TTFT (ms):':<40} {125.17:<10.2f}", "=" * 50]
    return "\n".join(lines) + "\n"


def _report(tmp_path: Path, library: Library, text: str) -> Report:
    (tmp_path / "bench.log").write_text(text)
    return run([str(tmp_path / "bench.log")], library)


def _short(report: Report) -> list[int | None]:
    """The `sent_at_least` of each count judged short of what its run sent."""
    return [e.get("sent_at_least") for e in report.chain if e.pattern == "bench-serving-result" and e.failing]


def test_a_paced_run_under_a_high_cap_sent_what_it_completed(tmp_path: Path, library: Library) -> None:
    # vllm-project/vllm-ascend#3696's run: 30 prompts at 0.7 requests/s under a cap of 256.
    report = _report(tmp_path, library, _vllm_block(30, 256, "0.70", "30.00"))
    assert _short(report) == [] and report.verdict.id == "healthy"


def test_a_paced_run_without_its_peak_is_not_judged_by_its_cap(tmp_path: Path, library: Library) -> None:
    report = _report(tmp_path, library, _vllm_block(30, 256, "4.00", None))
    assert _short(report) == [] and int(exit_code_for(report)) == 0


def test_a_peak_above_the_completed_count_is_a_run_short(tmp_path: Path, library: Library) -> None:
    # 64 were in flight at once, 30 came back: 34 at least failed, whatever the rate.
    report = _report(tmp_path, library, _vllm_block(30, 256, "0.70", "64.00"))
    assert _short(report) == [64] and report.verdict.id != "healthy"


def test_a_run_sent_all_at_once_is_still_held_to_its_cap(tmp_path: Path, library: Library) -> None:
    # Look-alike: the floor the cap sets for an unpaced run with no peak stated stays.
    report = _report(tmp_path, library, _vllm_block(12, 64, "inf", None))
    assert _short(report) == [64] and int(exit_code_for(report)) != 0


def test_sglangs_paced_block_is_not_judged_by_its_cap(tmp_path: Path, library: Library) -> None:
    # sglang's bench_serving states its rate above its count (python/sglang/bench_serving.py).
    block = (
        "============ Serving Benchmark Result ============\n"
        f"{'Backend:':<40} {'sglang':<10}\n"
        f"{'Traffic request rate:':<40} {'4.0':<10}\n"
        f"{'Max request concurrency:':<40} {'256':<10}\n"
        f"{'Successful requests:':<40} {100:<10}\n"
        f"{'Benchmark duration (s):':<40} {25.3:<10.2f}\n"
    )
    assert _short(_report(tmp_path, library, block)) == []
    unpaced = block.replace(f"{'4.0':<10}", f"{'inf':<10}")
    assert _short(_report(tmp_path, library, unpaced)) == [256]
