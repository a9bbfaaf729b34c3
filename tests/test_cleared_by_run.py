"""A failing line that a later line anywhere in the run shows harmless (`cleared_by_run`): the PD
warmup's near-all-zero output ids, then an accuracy check the model passed (round 12's first sight:
a healthy two-node run called output-corruption 0.90 for its warmup's zeros, though GSM8K scored
0.945 after it). Look-alikes: the seed incident (zeros, no check passed) and the same run whose
check failed keep the zeros as the failure."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from pdlogdoctor.library.patterns import Library
from pdlogdoctor.pipeline import run

from .conftest import FIXTURES

HEALTHY = Path(__file__).parent / "data" / "blind-round12-bundles" / "11-healthy-sglang-mooncake-2node"
ACCURACY = "Accuracy: 0.945"


def _with_check(tmp_path: Path, check: str) -> Path:
    bundle = tmp_path / "run"
    shutil.copytree(HEALTHY, bundle)
    bench = bundle / "bench.log"
    text = bench.read_text()
    assert ACCURACY in text
    bench.write_text(text.replace(ACCURACY, check))
    return bundle


def test_a_passed_accuracy_check_clears_the_warmups_zero_tokens(library: Library) -> None:
    report = run([str(HEALTHY)], library)
    assert report.verdict.id == "healthy", report.verdict.summary
    notes = [note for note in report.notes if "near-all-zero output ids" in note]
    assert notes and all(ACCURACY in note for note in notes), report.notes


@pytest.mark.parametrize(
    "check",
    [
        "Accuracy: 0.000",  # the client's accuracy at zero: no right answer came back
        "[gsm8k] accuracy=0.412 threshold=0.92",  # a gate the run failed
    ],
)
def test_a_check_that_failed_clears_nothing(library: Library, tmp_path: Path, check: str) -> None:
    report = run([str(_with_check(tmp_path, check))], library)
    assert report.verdict.id != "healthy", report.verdict.summary
    assert not any("near-all-zero output ids" in note for note in report.notes), report.notes


def test_the_seed_incidents_zeros_stay_its_failure(library: Library) -> None:
    report = run([str(FIXTURES / "mori-mr-size-limit-seed")], library)
    assert report.verdict.id == "mori-mr-size-limit"
    assert any(e.pattern == "warmup-output-ids" and e.failing for e in report.chain)


# A VLM's PD warmup answered 400 (its /generate payload posted to /v1/chat/completions), then a
# benchmark whose every request succeeded (round 39 bundles-b 01); a kernel `Link down` on a port
# before a run that served every request (round 40 bundles-b 01).
WARMUP_400 = [
    "[2026-05-27 18:15:25] Start of pd disaggregation warmup ...",
    "[2026-05-27 18:15:25] Prefill disaggregation mode warm Up Failed, status code: 400",
    "[2026-05-27 18:15:25] The server is fired up and ready to roll!",
]
LINK_DOWN = ["[Wed Mar 11 08:41:21 2026] mlx5_core 0000:d2:00.0 enp210s0np0: Link down"]


def _bench(failed: int) -> list[str]:
    return [
        "============ Serving Benchmark Result ============",
        f"Successful requests:                     {160 - failed}",
        f"Failed requests:                         {failed}",
        "Benchmark duration (s):                  63.11",
    ]


def _run(tmp_path: Path, library: Library, files: dict[str, list[str]]) -> str:
    tmp_path.mkdir(parents=True, exist_ok=True)
    for name, lines in files.items():
        (tmp_path / name).write_text("\n".join(lines) + "\n")
    return run([str(tmp_path)], library).verdict.id


@pytest.mark.parametrize(
    ("name", "lines", "verdict"),
    [("prefill.log", WARMUP_400, "warmup-failure"), ("dmesg.txt", LINK_DOWN, "rdma-link-failure")],
)
def test_a_run_that_served_every_request_clears_what_failed_before_it(
    tmp_path: Path, library: Library, name: str, lines: list[str], verdict: str
) -> None:
    clean = _run(tmp_path / "clean", library, {name: lines, "bench.log": _bench(0)})
    short = _run(tmp_path / "short", library, {name: lines, "bench.log": _bench(12)})
    assert clean != verdict
    assert short == verdict  # a run with failed requests clears nothing: the failure stays the cause
