"""A benchmark's finished progress bar is the requests it sent (reason/planned.py): sglang's
bench_serving and `vllm bench serve` draw one bar with no description over their requests, just
above the result block whose `Successful requests:` says how many came back. A block short of its
bar failed, whatever it prints; a bar further up (an accuracy eval's over its questions, with its
accuracy between) is no plan of the block below it."""

from __future__ import annotations

import shutil
from pathlib import Path

from pdlogdoctor.cli.behaviour import exit_code_for
from pdlogdoctor.library.patterns import Library
from pdlogdoctor.pipeline import run

DATA = Path(__file__).parent / "data"
# MI355X, MORI, a healthy nightly: the GSM8K client's own bar (1319 questions) and its accuracy, then
# three sweep points whose blocks count 120, 480 and 1920 successful requests.
NIGHTLY = DATA / "blind-round7-bundles" / "14-healthy-mori-nightly"
BAR = "100%|██████████| 2000/2000 [04:10<00:00,  7.98it/s]"


def _with_bench(tmp_path: Path, edit: str) -> Path:
    """The nightly with the concurrency-64 run's header replaced by `edit`, and its echoed command
    line dropped: a run whose output shows no `--num-prompts` (an exact count, read before any bar)."""
    bundle = tmp_path / "run"
    shutil.copytree(NIGHTLY, bundle, ignore=shutil.ignore_patterns("expected.toml"))
    bench = bundle / "bench.log"
    lines = bench.read_text().replace("=== concurrency=64 ===\n", edit, 1).splitlines(keepends=True)
    bench.write_text("".join(line for line in lines if "--num-prompts 1920" not in line))
    return bundle


def test_a_block_short_of_its_bar_failed(tmp_path: Path, library: Library) -> None:
    # The concurrency-64 run drew its bar over 2000 requests; its block counts 1920.
    report = run([str(_with_bench(tmp_path, f"=== concurrency=64 ===\n{BAR}\n"))], library)
    assert report.verdict.id != "healthy" and int(exit_code_for(report)) != 0
    failing = [e for e in report.chain if e.failing and e.pattern == "bench-serving-result"]
    assert failing and failing[0].get("planned") == 2000 and failing[0].get("completed") == 1920


def test_a_block_that_completed_its_bar_passed(tmp_path: Path, library: Library) -> None:
    bar = BAR.replace("2000/2000", "1920/1920")
    report = run([str(_with_bench(tmp_path, f"=== concurrency=64 ===\n{bar}\n"))], library)
    assert report.verdict.id == "healthy"


def test_an_accuracy_evals_bar_is_no_plan_of_the_block_below(library: Library) -> None:
    # As shipped: the GSM8K bar (1319) stands 13 lines above the first block (120), its accuracy between.
    report = run([str(NIGHTLY)], library)
    assert report.verdict.id == "healthy"


def test_a_bar_with_a_result_between_is_no_plan(tmp_path: Path, library: Library) -> None:
    # The bar just above the header, but an accuracy line between it and the count: the bar was the eval's.
    report = run([str(_with_bench(tmp_path, f"=== concurrency=64 ===\n{BAR}\nAccuracy: 0.950\n"))], library)
    assert report.verdict.id == "healthy"


GSP = DATA / "blind-round111-bundles-1" / "01-healthy-mooncake-tp4-gsp"


def test_the_bar_that_closes_the_block_outweighs_the_arguments_echoed(library: Library) -> None:
    # sglang's generated-shared-prefix dataset sends groups x prompts per group (80 x 8 = 640) whatever
    # `num_prompts=1000` its echoed arguments say: the bar's 640/640 is what it sent, and 640 came back.
    report = run([str(GSP)], library)
    assert report.verdict.id == "healthy", report.verdict


def test_a_block_short_of_its_bar_fails_whatever_the_arguments_say(tmp_path: Path, library: Library) -> None:
    bundle = tmp_path / "run"
    shutil.copytree(GSP, bundle, ignore=shutil.ignore_patterns("expected.toml"))
    bench = bundle / "bench.log"
    bench.write_text(
        bench.read_text().replace(
            "Successful requests:                     640", "Successful requests:                     600"
        )
    )
    report = run([str(bundle)], library)
    assert report.verdict.id != "healthy" and int(exit_code_for(report)) != 0
    failing = [e for e in report.chain if e.failing and e.pattern == "bench-serving-result"]
    assert failing and failing[0].get("planned") == 640 and failing[0].get("completed") == 600
