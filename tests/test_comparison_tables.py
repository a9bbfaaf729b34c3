"""A comparison table's row read with its header: a change column worse by more than 10 % is a failed
gate (issue 22: no failed run called healthy or "no failure seen").

People post regressions as Markdown tables with a percentage column beside each measure
(vllm-project/vllm-ascend#4110: `| TTFT | Improvement | TPOT | Improvement |`, -53.73 % on the newer
image). The row alone cannot say which way -53.73 % points; scan/tables.py reads the header above
it: an improvement column is worse when negative, a regression column when positive, a change
column as its measure goes (named in its header, the nearest measure column to its left, or the
row's first cell). Look-alikes that must stay quiet: improvements, changes within 10 %, a row its
harness judged (`pass`), a percentage that is a value (an accuracy, a hit rate), a row under no
header, a change column whose measure says neither direction.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from pdlogdoctor.cli.behaviour import exit_code_for
from pdlogdoctor.model import Report
from pdlogdoctor.pipeline import run
from pdlogdoctor.scan.tables import read_row

from .conftest import shipped_library

LIBRARY = shipped_library()
IMPROVEMENT_TABLE = [
    "Latency of each image against v0.9.1:",
    "",
    "| Image | TTFT (ms) | Improvement | TPOT (ms) | Improvement |",
    "|-------|-----------|-------------|-----------|-------------|",
    "| v0.9.1 | 45.8 | - | 20.1 | - |",
    "| v0.11.0rc1 | 79.8 | -74.2% | 22.6 | -12.4% |",
]
# A PR description's before/after table: the measure in the first cell, the change last.
CHANGE_TABLE = [
    "| Metric | main | this PR | Change |",
    "| :--- | ---: | ---: | ---: |",
    "| Output token throughput (tok/s) | 2514.3 | 2101.7 | -16.4 % |",
    "| Mean TTFT (ms) | 412.0 | 420.3 | +2.0 % |",
]
# A nightly dashboard as a browser copies its rendered table: no outer bars, the change last, the
# measure named in a row's `Metric` cell (vllm-project/vllm-omni's nightly performance summary).
DASHBOARD = [
    "Source | Model | Type | Config | Test | Metric | latest | baseline | vs baseline ",
    "-- | -- | -- | -- | -- | -- | -- | -- | -- ",
    "Buildkite | Qwen/Qwen3-8B | other | c=1, n=20 | qwen3 | median_ttft_ms | 402.7 | 300.0 | +34.2%",
]
ACCURACY_TABLE = [
    "| Task | Baseline | Candidate | Accuracy change |",
    "|---|---|---|---|",
    "| gsm8k | 0.912 | 0.701 | -23.1% |",
]


def _analysed(tmp_path: Path, lines: list[str]) -> Report:
    (tmp_path / "comparison.md").write_text("".join(f"{line}\n" for line in lines))
    return run([str(tmp_path)], LIBRARY)


@pytest.mark.parametrize(
    ("lines", "verdict", "said"),
    [
        (IMPROVEMENT_TABLE, "performance-regression", "TTFT (ms) Improvement -74.2%"),
        (CHANGE_TABLE, "performance-regression", "Output token throughput (tok/s) Change -16.4 %"),
        (ACCURACY_TABLE, "accuracy-regression", "Accuracy change -23.1%"),
        (DASHBOARD, "performance-regression", "median_ttft_ms vs baseline +34.2%"),
    ],
    ids=["improvement-negative", "throughput-change-down", "accuracy-change-down", "dashboard-without-bars"],
)
def test_a_row_worse_than_its_baseline_is_a_failed_gate(
    tmp_path: Path, lines: list[str], verdict: str, said: str
) -> None:
    report = _analysed(tmp_path, lines)
    assert report.verdict.id == verdict, report.verdict.summary
    assert int(exit_code_for(report)) == 1
    gate = report.roots[0]
    assert gate.pattern == "table-change-worse" and gate.failing
    assert said in report.verdict.summary
    assert "under the header" in report.verdict.summary


def _swapped_signs(lines: list[str]) -> list[str]:
    return [line.replace("-74.2%", "+74.2%").replace("-12.4%", "+12.4%") for line in lines]


@pytest.mark.parametrize(
    "lines",
    [
        _swapped_signs(IMPROVEMENT_TABLE),  # improvements
        [line.replace("-16.4 %", "-6.4 %") for line in CHANGE_TABLE],  # within the allowance
        [
            "| model | ttft | vs baseline | status |",
            "|---|---|---|---|",
            "| Qwen3-8B | 120.4 | +18.0% | pass |",
        ],  # its harness judged the row
        ["| Task | Accuracy | Cache hit |", "|---|---|---|", "| gsm8k | 95.9% | 12.0% |"],  # values, not changes
        ["Throughput dropped on the new build:", "| v0.11.0rc1 | 79.8 | -74.2% | 22.6 | -12.4% |"],  # no header
        ["| Config | Batch | Change |", "|---|---|---|", "| tp8 | 64 | -40.0% |"],  # a change of what?
        [line.replace("+34.2%", "+4.2%") for line in DASHBOARD],  # within the allowance
        [line.replace("median_ttft_ms", "gpu_count") for line in DASHBOARD],  # a measure of no direction
        ["decode-1  | INFO:     10.0.0.1:4242 - abc | -12.5%"],  # a compose prefix: no table
    ],
    ids=[
        "improved",
        "within-allowance",
        "harness-passed",
        "percent-values",
        "no-header",
        "no-direction",
        "dashboard-within-allowance",
        "dashboard-no-direction",
        "compose-line",
    ],
)
def test_a_row_that_is_not_worse_is_no_gate(tmp_path: Path, lines: list[str]) -> None:
    report = _analysed(tmp_path, lines)
    assert not any(e.pattern == "table-change-worse" and e.failing for e in report.chain), report.verdict.summary
    assert report.verdict.id not in ("performance-regression", "accuracy-regression")


def test_the_header_is_the_line_above_the_separator_even_far_above() -> None:
    rows = [f"| run {n} | {40 + n}.0 | -{n}.0% |" for n in range(1, 60)]
    text = "\n".join(["| Run | TTFT | Improvement |", "|---|---|---|", *rows]).encode()
    last = text.rindex(b"\n") + 1
    fields = read_row(text, last, len(text))
    assert fields["metric"] == "TTFT Improvement"
    assert fields["change"] == "-59.0%"
    assert fields["worse"] == pytest.approx(0.59)


def test_a_row_of_another_width_than_its_header_is_not_read() -> None:
    text = b"| Run | TTFT | Improvement |\n|---|---|---|\n| run 1 | 41.0 | -30.0% | extra |"
    assert read_row(text, text.rindex(b"\n") + 1, len(text)) == {}


# A table whose rows are releases and whose columns are measures (vllm-project/vllm#40838: gpt-oss
# on v0.16.0 and v0.17.0, the paste cut inside its last row): the lower release is the baseline.
RELEASE_ROWS = [
    "| Version | measured rps | output_tok/s | ttft_median (ms) | tpot_median (ms) |",
    "|---------|-------------|-------------|-------------------|------------------|",
    "| **v0.16.0** | **15.4667** | **16055.10** | 473.90 | **18.67** |",
    "| v0.17.0 | {rps} | {throughput} | 380.14 | {tpot}",
]


@pytest.mark.parametrize(
    ("rps", "throughput", "tpot", "failed"),
    [
        ("12.6556", "13305.99", "22.40", True),
        ("15.5012", "16100.00", "18.70", False),
        ("14.9000", "15500.00", "19.20", False),
    ],
    ids=["newer-worse", "newer-same", "within-10-percent"],
)
def test_a_table_of_releases_judges_the_newer_row_against_the_older(
    tmp_path: Path, rps: str, throughput: str, tpot: str, failed: bool
) -> None:
    text = "\n".join(RELEASE_ROWS).format(rps=rps, throughput=throughput, tpot=tpot) + "\n"
    (tmp_path / "bench.log").write_text(text)
    report = run([str(tmp_path / "bench.log")], LIBRARY)
    header = [e for e in report.chain if e.pattern == "table-releases-header"]
    if failed:
        assert report.verdict.id == "performance-regression", report.verdict
        assert header and header[0].get("sides") == "v0.16.0 -> v0.17.0"
        assert header[0].get("metric") == "tpot_median (ms)" and header[0].get("change") == "+20.0%"
    else:
        assert report.verdict.id in ("no-failure-seen", "healthy"), report.verdict


# lmstudio-ai/lmstudio-bug-tracker#1917's shape with a third release: the middle one regressed, the
# last recovered; a note after a release (`(pre-release)`) is no part of it.
RELEASES_MIDDLE_REGRESSED = [
    "| Runtime | TPS |",
    "|---|---:|",
    "| 1.7.0 | 106.99 |",
    "| **1.8.1** | **73.35** |",
    "| 1.8.5 (pre-release) | 104.20 |",
]


def test_a_release_between_two_good_ones_that_regressed_is_judged_against_the_first(tmp_path: Path) -> None:
    report = _analysed(tmp_path, RELEASES_MIDDLE_REGRESSED)
    assert report.verdict.id == "performance-regression", report.verdict.summary
    header = [e for e in report.chain if e.pattern == "table-releases-header"]
    assert header and header[0].get("sides") == "1.7.0 -> 1.8.1"
    assert header[0].get("change") == f"{(73.35 - 106.99) / 106.99:+.1%}"


# sgl-project/sglang#28224: the sides name the change they stand either side of, and the values carry
# their unit (no measure column names one).
SIDES_NAMED_BY_THE_CHANGE = [
    "| Workload | System / shape | Before #26496 | After #26496 | Drop |",
    "| --- | --- | ---: | ---: | ---: |",
    "| `nvidia/Llama-3.3-70B-Instruct-NVFP4` | GB200, 1 node, 4 GPUs, TP=4 | ~126.9 tok/s | ~{after} tok/s | ~16.2% |",
]


def test_sides_named_by_their_change_and_values_by_their_unit(tmp_path: Path) -> None:
    report = _analysed(tmp_path, [line.replace("{after}", "104.4") for line in SIDES_NAMED_BY_THE_CHANGE])
    assert report.verdict.id == "performance-regression", report.verdict.summary
    assert "126.9 to 104.4" in report.verdict.summary


def test_sides_named_by_their_change_within_the_allowance_are_no_gate(tmp_path: Path) -> None:
    report = _analysed(tmp_path, [line.replace("{after}", "125.9") for line in SIDES_NAMED_BY_THE_CHANGE])
    assert report.verdict.id != "performance-regression", report.verdict.summary


# sgl-project/sglang#2496: a model's evaluations as rows, the model named in the first cell only on
# its first row and the evaluation in a later label cell; the measure is that cell, not the model.
EVALUATIONS_BY_MODEL = [
    "| Model                          | kv-cache-dtype | eval_name | Before | After |",
    "| ------------------------------ | -------------- | --------- | ------ | ----- |",
    "| Yi-1.5-9B-Chat                 | auto           | mmlu      | 0.641  | 0.645 |",
    "|                                |                | humaneval | 0.616  | {after} |",
    "|                                |                | mgsm_en   | 0.868  | 0.880 |",
]


@pytest.mark.parametrize(("after", "failed"), [("0.615", False), ("0.421", True)])
def test_an_evaluation_named_in_a_later_cell_is_the_row_s_measure(tmp_path: Path, after: str, failed: bool) -> None:
    report = _analysed(tmp_path, [line.replace("{after}", after) for line in EVALUATIONS_BY_MODEL])
    if failed:
        assert report.verdict.id in ("accuracy-regression", "performance-regression"), report.verdict.summary
        assert "0.616 to 0.421" in report.verdict.summary
    else:
        assert report.verdict.id == "healthy", report.verdict.summary


# ggml-org/llama.cpp#24216: compare-llama-bench's table, the speedup last (the PR measured no slower).
SPEEDUP_TABLE = [
    "| GPU                   | Model              |     Microbatch size | Test     |     t/s 7c158fbb4 |"
    "     t/s d1408e59d |     Speedup |",
    "| :---------            | :----------------- | ------------------: | :------- | ----------------: |"
    " ----------------: | ----------: |",
    "| MI60 / MI50           | llama 1B BF16      |                   1 | pp512    |            191.42 |"
    "            192.01 |        1.00 |",
    "| MI60 / MI50           | llama 1B BF16      |                  16 | pp512    |            142.25 |"
    "            482.60 |        3.39 |",
]


def test_a_speedup_table_at_or_above_one_is_served_and_no_gate(tmp_path: Path) -> None:
    """Seen failing before: no-failure-seen (no pattern read the table)."""
    report = _analysed(tmp_path, SPEEDUP_TABLE)
    assert report.verdict.id == "healthy", report.verdict.summary


def test_a_speedup_row_below_one_is_the_candidate_slower(tmp_path: Path) -> None:
    slower = [*SPEEDUP_TABLE[:3], SPEEDUP_TABLE[3].replace("482.60", "101.30").replace("3.39", "0.71")]
    report = _analysed(tmp_path, slower)
    assert report.verdict.id == "performance-regression", report.verdict.summary
    assert "from 142.25 to 101.3" in report.verdict.summary
    assert int(exit_code_for(report)) == 1


# llama-bench's tables, each closed by the build that measured it (its markdown printer's footer),
# as people paste them to bisect: the model's type renamed between builds, the other cells the same.
def _bench_tables(first: tuple[str, str, str], second: tuple[str, str, str]) -> list[str]:
    header = [
        "| model                          |       size |     params | backend    |    threads | test       |"
        "              t/s |",
        "| ------------------------------ | ---------: | ---------: | ---------- | ---------: | ---------- |"
        " ---------------: |",
    ]
    lines = []
    for model, rate, build in (first, second):
        lines += [
            *header,
            f"| llama 7B {model}                  |   3.56 GiB |     6.74 B | BLAS       |          4 |"
            f" pp 32      |     {rate} ± 0.05 |",
            "",
            f"build: {build}",
            "",
        ]
    return lines


def test_a_later_build_slower_on_a_test_is_a_regression(tmp_path: Path) -> None:
    report = _analysed(
        tmp_path, _bench_tables(("mostly Q4_0", "11.19", "9d5949f (1552)"), ("Q4_0", "7.48", "bb6d00bb (2392)"))
    )
    assert report.verdict.id == "performance-regression", report.verdict.summary
    assert "pp 32 (t/s) went from 11.19 to 7.48" in report.verdict.summary
    assert "build 9d5949f (1552) -> build bb6d00bb (2392)" in report.verdict.summary
    assert int(exit_code_for(report)) == 1


def test_builds_pasted_newest_first_keep_the_lower_build_as_baseline(tmp_path: Path) -> None:
    """The newer build's table first, faster: the older build was the slower one, an improvement."""
    report = _analysed(
        tmp_path, _bench_tables(("Q4_0", "11.19", "bb6d00bb (2392)"), ("mostly Q4_0", "7.48", "9d5949f (1552)"))
    )
    assert report.verdict.id == "healthy", report.verdict.summary


def test_builds_whose_tables_measure_other_tests_are_not_compared(tmp_path: Path) -> None:
    lines = _bench_tables(("Q4_0", "11.19", "9d5949f (1552)"), ("Q4_0", "7.48", "bb6d00bb (2392)"))
    lines[-4] = lines[-4].replace("pp 32 ", "tg 128")
    report = _analysed(tmp_path, lines)
    assert report.verdict.id != "performance-regression", report.verdict.summary


# tenstorrent/tt-xla#5426's nightly table (its delta columns left out): yesterday's run against today's, the
# unit in the sides' names.
YESTERDAY_TODAY = [
    "Job | Hardware | Yesterday (sps) | Today (sps)",
    "-- | -- | -- | --",
    "mistral_7b | n150-perf | 11.90 | 4.41",
    "qwen_3_8b | n150-perf | 4.94 | 4.79",
]


def test_today_against_yesterday_is_a_regression(tmp_path: Path) -> None:
    report = _analysed(tmp_path, YESTERDAY_TODAY)
    assert report.verdict.id == "performance-regression", report.verdict.summary
    assert "11.9" in report.verdict.summary and "4.41" in report.verdict.summary


# Round 82's excerpts-c 02 (aws-samples/aws-do-eks PR #101): a nightly's legs named by their stack's
# release with a build's suffix and the engine's release in a note, the measure's way in its values' unit.
LEGS = [
    "| leg | decode step p50 |",
    "|---|---|",
    "| 1.3.1-patched (vLLM 0.23) | 114.7 ms |",
    "| 1.4.0-patched (vLLM 0.26) | {later} ms |",
    "| 1.4.0-patched + this pin | **117.0 ms** |",
]


@pytest.mark.parametrize(("later", "failed"), [("130.8", True), ("116.1", False)], ids=["slower", "steady"])
def test_legs_named_by_releases_are_judged_by_their_values_unit(tmp_path: Path, later: str, failed: bool) -> None:
    report = _analysed(tmp_path, [line.format(later=later) for line in LEGS])
    header = [e for e in report.chain if e.pattern == "table-releases-header"]
    if failed:
        assert report.verdict.id == "performance-regression", report.verdict.summary
        assert header and header[0].get("metric") == "decode step p50 (ms)" and header[0].get("change") == "+14.0%"
    else:
        assert report.verdict.id != "performance-regression", report.verdict.summary


# Round 78's excerpts-c 08 (a bisection of vLLM's structured-output slowdown): commits with a note after
# the hash, rows of the culprit with files reverted, a rate per minute.
BISECTION = [
    "| build | drain time | rate |",
    "|---|---|---|",
    "| 8dd1b702f (parent commit) | 513 s | 233 req/min |",
    "| 7df3d7dad (culprit) | {time} s | {rate} req/min |",
    "| 7df3d7dad + ALL 29 v1/* files reverted to parent | 534 s | 224 req/min |",
]


@pytest.mark.parametrize(
    ("time", "rate", "failed"), [("985", "121", True), ("520", "230", False)], ids=["halved", "same"]
)
def test_a_bisection_s_commits_with_their_notes_are_judged_in_order(
    tmp_path: Path, time: str, rate: str, failed: bool
) -> None:
    report = _analysed(tmp_path, [line.format(time=time, rate=rate) for line in BISECTION])
    header = [e for e in report.chain if e.pattern == "table-releases-header"]
    if failed:
        assert report.verdict.id == "performance-regression", report.verdict.summary
        assert header and header[0].get("sides") == "8dd1b702f (parent commit) -> 7df3d7dad (culprit)"
    else:
        assert report.verdict.id != "performance-regression", report.verdict.summary


# Round 83's excerpts-c 04 (vllm-project/vllm#43153): the date first, the release in the second column.
DATED_RELEASES = [
    "| Date | vLLM ROCm | Token Throughput / GPU @ ~17 tok/s/user |",
    "|---|---|---|",
    "| 2026-03-27 | **v0.18.0** | **~1,223 tok/s/gpu** (peak ~1,300) |",
    "| 2026-05-17 | **v0.21.0** | **~{later} tok/s/gpu** |",
]


@pytest.mark.parametrize(("later", "failed"), [("753", True), ("1,210", False)], ids=["fell", "held"])
def test_releases_in_a_column_after_the_date_are_judged(tmp_path: Path, later: str, failed: bool) -> None:
    report = _analysed(tmp_path, [line.format(later=later) for line in DATED_RELEASES])
    header = [e for e in report.chain if e.pattern == "table-releases-header"]
    if failed:
        assert report.verdict.id == "performance-regression", report.verdict.summary
        assert header and header[0].get("sides") == "v0.18.0 -> v0.21.0"
        assert header[0].get("change") == f"{(753 - 1223) / 1223:+.1%}"
    else:
        assert report.verdict.id != "performance-regression", report.verdict.summary


# Round 83's excerpts-c 06 (vllm-project/vllm#49881): a gate reported in prose bullets.
BULLETED_GATE = [
    "This caused the MTP configuration to fail in Buildkite build #80270:",
    "",
    "- `Qwen3.5-397B-A17B-NVFP4-DEP2-MTP`: {value} accuracy, 5.8% invalid rate",
    "- Required lower bound: 0.8500",
]


@pytest.mark.parametrize(("value", "failed"), [("0.8469", True), ("0.8772", False)], ids=["under", "over"])
def test_a_bound_on_its_own_line_judges_the_accuracy_above_it(tmp_path: Path, value: str, failed: bool) -> None:
    report = _analysed(tmp_path, [line.format(value=value) for line in BULLETED_GATE])
    gates = [e for e in report.chain if e.pattern == "gate-bound-below" and e.failing]
    assert bool(gates) is failed, report.verdict.summary
    # Held, the bound is a check the run passed: healthy at most as a guess (nothing else shows serving).
    assert report.verdict.id != "healthy" if failed else report.verdict.confidence < 0.5
    if failed:
        assert gates[0].get("value") == 0.8469 and gates[0].get("limit") == 0.85
        assert int(exit_code_for(report)) != 0


# Round 84's excerpts-c 04 (NVIDIA/TensorRT-Model-Connect#885): values with their bound in brackets.
@pytest.mark.parametrize(
    ("line", "failed"),
    [
        ("- Accuracy drop: 0.35 (maximum allowed: 0.01)", True),
        ("- Accuracy drop: 0.004 (maximum allowed: 0.01)", False),
        ("- Prediction agreement: 0.00 (required: at least 0.98)", True),
        ("- Prediction agreement: 0.99 (required: at least 0.98)", False),
    ],
)
def test_a_value_beside_its_bound_fails_on_the_wrong_side_of_it(tmp_path: Path, line: str, failed: bool) -> None:
    report = _analysed(tmp_path, ["## Observed behavior", "", "- Reference accuracy: 0.35", line])
    gates = [e for e in report.chain if e.pattern == "gate-value-beside-allowance" and e.failing]
    assert bool(gates) is failed, report.verdict.summary
    assert (report.verdict.id in ("healthy", "no-failure-seen")) is not failed


# mozilla-ai/llamafile#974: a release's stock build and the same release patched, beside the release
# before them; the lowest release is the baseline, the next release's first column the candidate.
RELEASE_COLUMNS = [
    "| dense Llama-3.1-8B Q4_K_M | **0.9.3** | 0.10.1 stock | 0.10.1 + this PR |",
    "|---|---:|---:|---:|",
    "| pp2048 (t/s) | **76.29 ± 1.92** | 30.05 ± 0.75 | 30.54 ± 0.75 |",
    "| tg32 (t/s)   | **16.32 ± 0.51** | 6.01 ± 0.22 | 6.12 ± 0.06 |",
]


@pytest.mark.parametrize(
    ("rows", "failed"),
    [
        (RELEASE_COLUMNS[2:], True),
        # the later release as fast as the one before it: within the allowance
        (["| pp2048 (t/s) | 76.29 ± 1.92 | 75.10 ± 0.75 | 75.54 ± 0.75 |"], False),
    ],
    ids=["slower-later-release", "later-release-as-fast"],
)
def test_release_columns_judge_the_later_release_against_the_earlier(
    tmp_path: Path, rows: list[str], failed: bool
) -> None:
    report = _analysed(tmp_path, [*RELEASE_COLUMNS[:2], *rows])
    assert (report.verdict.id == "performance-regression") is failed, report.verdict.summary
    assert (int(exit_code_for(report)) == 1) is failed
    if failed:  # the worst row: tg32 fell 63.2 % (16.32 to 6.01), pp2048 60.6 %
        assert "tg32 (t/s) went from 16.32 to 6.01 (-63.2%" in report.verdict.summary


def test_two_columns_of_one_release_name_no_baseline(tmp_path: Path) -> None:
    """Two builds of the lowest release: which one is the baseline is not said."""
    header = "| model | 0.9.3 stock | 0.9.3 patched | 0.10.1 |"
    report = _analysed(tmp_path, [header, "|---|---|---|---|", "| pp2048 (t/s) | 76.2 | 75.9 | 30.1 |"])
    assert report.verdict.id != "performance-regression"


# tenstorrent/tt-metal#53484's shape: a change column named only against a baseline, no measure
# named to say whether +13.8 % is slower or faster.
UNDIRECTED = [
    "| date | run | sha | branch | vs healthy baseline |",
    "|---|---|---|---|---|",
    "| 08-17 05:11 | 31996994902 | `e16f6cb` | main | −0.7% |",
    "| 08-17 22:21 | 32075671439 | `6ad0080` | main | +12.3% |",
]


def test_a_change_no_measure_directs_is_no_evidence_either_way(tmp_path: Path) -> None:
    """Neither a failed gate (the way is not known) nor a check that passed (round 89's excerpts-c 03,
    first sight: healthy on a run whose perf gate was red)."""
    report = _analysed(tmp_path, UNDIRECTED)
    assert report.verdict.id not in ("healthy", "performance-regression"), report.verdict.summary
    assert int(exit_code_for(report)) != 0


def test_the_same_change_under_a_measure_is_judged(tmp_path: Path) -> None:
    directed = [UNDIRECTED[0].replace("vs healthy baseline", "latency vs healthy baseline"), *UNDIRECTED[1:]]
    report = _analysed(tmp_path, directed)
    assert report.verdict.id == "performance-regression", report.verdict.summary


# ggml-org/llama.cpp#26918: builds in rows, the one named `(baseline)` the reference, llama-bench's
# tests (pp512, tg128: tokens per second) in the columns.
BASELINE_ROW = [
    "| Build | pp512 | pp2048 | tg128 | Compiler |",
    "|---|---|---|---|---|",
    "| b10356 official (baseline) | ~1029 | ~1271 | ~32 | Clang 20.1.8 |",
]


@pytest.mark.parametrize(
    ("row", "failed"),
    [
        ("| b10369 official (worst) | ~413 | ~534 | ~33 | Clang 20.1.8 |", True),
        ("| b10369 official | ~1020 | ~1266 | ~33 | Clang 20.1.8 |", False),
    ],
    ids=["slower-than-the-baseline-row", "as-fast"],
)
def test_rows_are_judged_against_the_row_named_baseline(tmp_path: Path, row: str, failed: bool) -> None:
    report = _analysed(tmp_path, [*BASELINE_ROW, row])
    assert (report.verdict.id == "performance-regression") is failed, report.verdict.summary
    if failed:
        assert "pp512 went from 1029 to 413" in report.verdict.summary


def test_a_row_of_changes_is_no_run_against_the_baseline(tmp_path: Path) -> None:
    """round 58's excerpts-c 06: a `Change` row of percentages under two runs' rows is not a third run."""
    lines = [
        "| Version | Output tok/s | Mean TTFT | Mean TPOT |",
        "|---|---|---|---|",
        "| Before rebase `c276bf7a`, 3-run mean | 696.82 | 728.82 ms | 31.23 ms |",
        "| After rebase `29a872d6`, 3-run mean | 703.78 | 770.15 ms | 30.96 ms |",
        "| Change | +1.00% | **+5.67% (regression)** | -0.86% (improvement) |",
    ]
    report = _analysed(tmp_path, lines)
    assert "to 1 (-99.9%" not in report.verdict.summary


# A change's timing with one row per run (vllm-project/vllm-omni#4627, round 102's tester): the merge
# base's row and the pull request head's, every column a measure or a label.
RUNS_TABLE = [
    "| Run | Commit | Steps | Wall | Inference | `stage_0_gen_ms` | Peak memory | Output |",
    "|---|---|---:|---:|---:|---:|---:|---|",
    "| Base | `f4d922d` | 2 | 17.075s | 16.080s | 13920.284ms | 38034 MB | `sha256=16ff21a2...`, 25,100,960 bytes |",
    "| PR head | `3387750` | 2 | 17.157s | 16.148s | 13984.633ms | 38034 MB | `sha256=0a07cfb9...`, 21,006,970 bytes |",
    "| Delta | | | -0.48% speed | -0.067s | -64.349ms | same | output changed |",
]


def test_runs_as_rows_within_the_allowance_show_the_run_passing(tmp_path: Path) -> None:
    report = _analysed(tmp_path, RUNS_TABLE)
    assert report.verdict.id == "healthy", report.verdict.summary
    assert "within its limit" in report.verdict.summary and "Base -> PR head" not in report.verdict.summary


def test_runs_as_rows_worse_by_more_than_the_allowance_are_a_regression(tmp_path: Path) -> None:
    slower = [line.replace("17.157s", "21.157s") for line in RUNS_TABLE]
    report = _analysed(tmp_path, slower)
    assert report.verdict.id == "performance-regression", report.verdict.summary
    assert any(e.pattern == "table-runs-header" and e.failing for e in report.chain)
    assert "Wall (s)" in report.verdict.summary


def test_runs_with_no_baseline_row_are_not_judged(tmp_path: Path) -> None:
    """Two runs of the same kind (two candidates) say nothing of which is the reference."""
    unnamed = [line.replace("| Base |", "| Run A |").replace("| PR head |", "| Run B |") for line in RUNS_TABLE]
    report = _analysed(tmp_path, unnamed)
    assert not any(e.pattern == "table-runs-header" for e in report.chain)
    assert report.verdict.id != "performance-regression"


# vllm-project/vllm-ascend#13158: the author marks rows `Regression` whose own change columns say
# -2.15 % throughput and +2.28 % TTFT: a word and a small number that disagree.
MARKED_TABLE = [
    "| Max batched tokens | Request shape | FlashComm disabled | FlashComm enabled | Throughput change "
    "| Mean TTFT change | Result |",
    "|---:|---:|---:|---:|---:|---:|---|",
    "| 8,192 | 4 × 2048 | 15.20K tok/s | 14.87K tok/s | **-2.15%** | +2.28% | Regression |",
]


def test_a_row_marked_regressed_within_its_stated_allowance_is_a_lead(tmp_path: Path) -> None:
    (tmp_path / "excerpt.log").write_text("\n".join(MARKED_TABLE) + "\n")
    report = run([str(tmp_path / "excerpt.log")], LIBRARY)
    assert report.verdict.id == "performance-regression"
    assert report.verdict.confidence <= 0.4 and "within 10 %" in report.verdict.summary
    assert "small-stated-change" in [step.name for step in report.verdict.reasons]


def test_a_row_marked_regressed_beyond_the_allowance_keeps_its_confidence(tmp_path: Path) -> None:
    lines = [*MARKED_TABLE[:2], "| 8,192 | 4 × 2048 | 15.20K tok/s | 12.87K tok/s | **-15.3%** | +2.28% | Regression |"]
    (tmp_path / "excerpt.log").write_text("\n".join(lines) + "\n")
    report = run([str(tmp_path / "excerpt.log")], LIBRARY)
    assert report.verdict.id == "performance-regression" and report.verdict.confidence >= 0.5


# vllm-project/recipes#112's shape: an `Improvement` column that holds each measure's plain change, a
# duration's fall as a negative number (values as posted): better, however the column is named.
PLAIN_CHANGES_UNDER_IMPROVEMENT = [
    "| Metric | With DeepGEMM | Without DeepGEMM | Improvement |",
    "|--------|---------------|------------------|-------------|",
    "| **Output Token Throughput** | 288.31 tok/s | 566.84 tok/s | **+96.6%** |",
    "| **Benchmark Duration** | 330.71s | 166.22s | **-49.7%** |",
    "| **Mean TPOT** | 32.21 ms | 16.39 ms | **-49.1%** |",
]


def test_an_improvement_column_of_plain_changes_is_read_by_its_measures(tmp_path: Path) -> None:
    report = _analysed(tmp_path, PLAIN_CHANGES_UNDER_IMPROVEMENT)
    assert report.verdict.id == "healthy", report.verdict.summary
    # Look-alike: the same durations rising, written as a plain change: worse, whatever the column's name.
    worse = [line.replace("166.22s | **-49.7%**", "496.06s | **+50.0%**") for line in PLAIN_CHANGES_UNDER_IMPROVEMENT]
    (tmp_path / "worse").mkdir()
    report = _analysed(tmp_path / "worse", worse)
    assert report.verdict.id == "performance-regression", report.verdict.summary
    assert "Benchmark Duration" in report.verdict.summary


# ikawrakow/ik_llama.cpp#2199's shape: the author marks the regressed cell in a llama-bench table; the
# column's header says what regressed (values as posted).
MARKED_REGRESSED = [
    "| Build | PP512 (t/s) | TG128 (t/s) |",
    "|-------|-------------|-------------|",
    "| ik 4706 (`70ea1522`) | 192.4 | **26.23** |",
    "| ik 4749 (`5f063b7b`) | 215.3 ✓ | **16.80** ← regression |",
]


def test_a_cell_marked_regressed_is_judged_by_its_column(tmp_path: Path) -> None:
    report = _analysed(tmp_path, MARKED_REGRESSED)
    assert report.verdict.id == "performance-regression", report.verdict.summary
    assert "**16.80** ← regression" in report.verdict.summary


# iree-org/wave#192: a measure's column beside what it should be, the expected value the baseline.
EXPECTED_TABLE = [
    "| Platform | Accuracy | Expected Accuracy |",
    "|----------|----------|-------------------|",
    "| **MI355x**   | 0.30     | 0.74              |",
    "| MI300x   | ✅ Pass  | 0.74              |",
]


def test_a_measure_under_its_expected_column_fails(tmp_path: Path) -> None:
    (tmp_path / "excerpt.log").write_text("\n".join(EXPECTED_TABLE) + "\n")
    report = run([str(tmp_path)], LIBRARY)
    assert report.verdict.id == "accuracy-regression", report.verdict.summary
    assert "from 0.74 to 0.3" in report.verdict.summary and int(exit_code_for(report)) == 1


def test_an_expected_column_met_or_not_a_measure_stays_quiet(tmp_path: Path) -> None:
    met = [*EXPECTED_TABLE[:2], "| MI355x | 0.75 | 0.74 |"]
    text = ["| Prompt | Output | Expected output |", "|---|---|---|", "| 2+2 | 4 | 4 |"]
    for rows in (met, text):
        (tmp_path / "excerpt.log").write_text("\n".join(rows) + "\n")
        assert run([str(tmp_path)], LIBRARY).verdict.id not in ("accuracy-regression", "performance-regression")
