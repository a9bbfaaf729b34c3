"""A measure stated Before and After a change: worse After is a failed gate (issue 22: no failed run
called healthy or "no failure seen").

vllm-project/vllm#4210 (a release blocker) states benchmark_throughput's line twice, `Before:` and
`After:` a commit: 20.13 then 17.67 requests/s, no FAIL anywhere. reason/compared.py pairs the After
line with the Before line above it that states the same measure and reads each number by its words:
a throughput or an accuracy is better higher, a latency lower. Worse by more than 10 %: a failed
gate naming the measure, both values and the change; the labels say which run is which, so an After
pasted above its Before is read the same (vllm-project/vllm#30326). Look-alikes that must stay
quiet: a better After, a change within the allowance, two lines that state different measures, a
number whose words say neither direction.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from pdlogdoctor.cli.behaviour import exit_code_for
from pdlogdoctor.library.patterns import match_line
from pdlogdoctor.model import Report
from pdlogdoctor.pipeline import run
from pdlogdoctor.scan.headings import read_measures_below

from .conftest import shipped_library

LIBRARY = shipped_library()
# vllm-project/vllm#4210, as posted
BEFORE = "Before: Throughput: 20.13 requests/s, 10308.29 tokens/s"
AFTER = "After: Throughput: 17.67 requests/s, 9048.03 tokens/s"


def _analysed(tmp_path: Path, lines: list[str]) -> Report:
    (tmp_path / "paste.txt").write_text("".join(f"{line}\n" for line in lines))
    return run([str(tmp_path)], LIBRARY)


@pytest.mark.parametrize(
    ("lines", "verdict", "said"),
    [
        (["#3550 seems to reduce throughput of vLLM", "", BEFORE, AFTER], "performance-regression", "(-12.2%)"),
        (
            ["- **Before** (v0.9.1): mean TTFT 51.91 ms", "- **After** (v0.11.0rc1): mean TTFT 76.28 ms"],
            "performance-regression",
            "from 51.91 to 76.28 (+46.9%)",
        ),
        (["Before: accuracy 0.912", "After: accuracy 0.623"], "accuracy-regression", "(-31.7%)"),
    ],
    ids=["throughput-fell", "latency-rose", "accuracy-fell"],
)
def test_a_worse_after_is_a_failed_gate(tmp_path: Path, lines: list[str], verdict: str, said: str) -> None:
    report = _analysed(tmp_path, lines)
    assert report.verdict.id == verdict, report.verdict.summary
    assert said in report.verdict.summary
    assert int(exit_code_for(report)) == 1
    gate = report.roots[0]
    assert gate.pattern == "measure-after" and gate.failing


@pytest.mark.parametrize(
    "lines",
    [
        [
            "Before: Throughput: 17.67 requests/s, 9048.03 tokens/s",
            "After: Throughput: 20.13 requests/s, 10308.29 tokens/s",
        ],
        ["Before: Throughput: 20.13 requests/s", "After: Throughput: 19.20 requests/s"],  # -4.6 %: within
        ["Before: Throughput: 20.13 requests/s", "After: mean TTFT 76.28 ms"],  # different measures
        ["Before: 128 GPUs", "After: 96 GPUs"],  # no word says which way is better
    ],
    ids=["improved", "within-allowance", "different-measures", "no-direction"],
)
def test_no_regression_no_failed_gate(tmp_path: Path, lines: list[str]) -> None:
    report = _analysed(tmp_path, lines)
    assert report.verdict.id == "no-failure-seen", report.verdict.summary
    assert int(exit_code_for(report)) != 1


# A heading of its own over each run's benchmark lines (sgl-project/sglang#30009, as posted).
HEADED = [
    "before https://github.com/sgl-project/sglang/pull/26766, stay in commit 27a374ea",
    "Output token throughput (tok/s): 513.61",
    "",
    "after https://github.com/sgl-project/sglang/pull/26766 in commit bea282ce",
    "Output token throughput (tok/s): 441.14",
]


@pytest.mark.parametrize(
    ("lines", "verdict", "said"),
    [
        (HEADED, "performance-regression", "from 513.61 to 441.14 (-14.1%)"),
        (
            [
                "**Before** (aiter 4f6f5917)",
                "Accuracy: 0.955",
                "Invalid: 0.000",
                "**After** (aiter 9c79a5b5)",
                "Accuracy: 0.760",
                "Invalid: 0.000",
            ],
            "accuracy-regression",
            "from 0.955 to 0.76 (-20.4%)",
        ),
    ],
    ids=["throughput-under-headings", "accuracy-under-bold-headings"],
)
def test_measures_under_before_and_after_headings_are_compared(
    tmp_path: Path, lines: list[str], verdict: str, said: str
) -> None:
    report = _analysed(tmp_path, lines)
    assert report.verdict.id == verdict, report.verdict.summary
    assert said in report.verdict.summary
    assert "(below it: " in report.verdict.summary  # the measures are quoted, not only their heading
    gate = report.roots[0]
    assert gate.pattern == "measure-after-heading" and gate.failing


@pytest.mark.parametrize(
    "lines",
    [
        [line.replace("441.14", "529.02") for line in HEADED],  # faster after
        [
            "After 3 retries the request went through",
            "Output token throughput (tok/s): 441.14",
        ],  # no before side
        [
            "before the restart",
            "Output token throughput (tok/s): 513.61",
            "after the restart",
            "",
            "Output token throughput (tok/s): 441.14",
        ],  # a blank line between the heading and the measure: not its measure
    ],
    ids=["improved", "no-before", "not-right-below"],
)
def test_headings_without_a_worse_measure_below_are_no_gate(tmp_path: Path, lines: list[str]) -> None:
    report = _analysed(tmp_path, lines)
    assert not any(e.pattern == "measure-after-heading" and e.failing for e in report.chain)
    assert report.verdict.id not in ("performance-regression", "accuracy-regression"), report.verdict.summary


# xorbitsai/inference#2050: a benchmark's block under each heading, a line per measure; the later
# measure's words follow the earlier one's unit on the joined text (`0.78 requests/s; Average latency:
# 38.63 s`), and the latency fell by 94 %: an improvement, not a drop of requests/s.
BLOCKS_BEFORE_AFTER = [
    "## Before",
    "",
    "```",
    "Total time: 38.64 s",
    "Throughput: 0.78 requests/s",
    "Average latency: 38.63 s",
    "Throughput: 145.40378699622423 tokens/s",
    "```",
    "",
    "## After",
    "",
    "```",
    "Total time: 6.02 s",
    "Throughput: 4.98 requests/s",
    "Average latency: 2.44 s",
    "Throughput: 959.2033185347453 tokens/s",
    "```",
]


def test_a_measure_is_named_by_its_own_words_not_the_unit_before_it(tmp_path: Path) -> None:
    report = _analysed(tmp_path, BLOCKS_BEFORE_AFTER)
    assert not any(e.pattern == "measure-after-heading" and e.failing for e in report.chain), report.verdict.summary
    worse = [line.replace("2.44 s", "52.44 s") for line in BLOCKS_BEFORE_AFTER]
    report = _analysed(tmp_path, worse)
    assert report.verdict.id == "performance-regression", report.verdict.summary
    assert "Average latency (s) went from 38.63 to 52.44" in report.verdict.summary


# tenstorrent/tt-metal#25107: a bisection's two runs of a demo, each under its commit and inside a
# code fence below a label of the device it ran on; the bad side's last line keeps a stray bracket.
BISECTED = [
    "GOOD COMMIT [0a95b34e33e2a016fe1ee390fd0ce49e552fea2a] (July 2)",
    "```",
    " > BH",
    "Average Time to First Token (TTFT): 208.25ms",
    "Average speed: 63.19ms @ 15.82 tok/s/user (15.82 tok/s throughput)",
    "```",
    "",
    "BAD COMMIT [74f5fada9740c9dab79d52efbb2076e9abf81640] (July 2)",
    "```",
    "> BH",
    "Average Time to First Token (TTFT): 285.09ms",
    "Average speed: 62.88ms @ 15.9 tok/s/user (15.9 tok/s throughput)]",
    "```",
]


def test_a_bisections_bad_commit_is_compared_with_its_good_commit(tmp_path: Path) -> None:
    report = _analysed(tmp_path, BISECTED)
    assert report.verdict.id == "performance-regression", report.verdict.summary
    assert "Average Time to First Token (TTFT) (ms) went from 208.25 to 285.09 (+36.9%)" in report.verdict.summary
    assert report.roots[0].pattern == "measure-bad-commit-heading"


def test_a_good_commit_pasted_below_the_bad_one_is_still_the_baseline(tmp_path: Path) -> None:
    bad_first = [*BISECTED[7:], "", *BISECTED[:6]]
    report = _analysed(tmp_path, bad_first)
    assert report.verdict.id == "performance-regression", report.verdict.summary
    assert "from 208.25 to 285.09" in report.verdict.summary


def test_a_bad_commit_as_fast_as_its_good_commit_is_no_gate(tmp_path: Path) -> None:
    report = _analysed(tmp_path, [line.replace("285.09", "209.10") for line in BISECTED])
    assert report.verdict.id != "performance-regression", report.verdict.summary


@pytest.mark.parametrize(
    ("below", "measured"),
    [
        (["```text", " > BH", "TTFT: 208.25ms"], "TTFT: 208.25ms"),
        (["> BH", "", "TTFT: 208.25ms"], "TTFT: 208.25ms"),  # one blank line is skipped, as after a heading
        ([" > BH the board we rented for the week, before the update", "TTFT: 208.25ms"], ""),  # a sentence
        (["```", "```", "```", "TTFT: 208.25ms"], ""),  # two openers at most
    ],
    ids=["fence-and-label", "label-and-blank", "sentence", "three-fences"],
)
def test_only_a_fence_or_a_short_label_opens_a_headings_block(below: list[str], measured: str) -> None:
    text = "\n".join(["GOOD COMMIT [0a95b34e] (July 2)", *below]).encode()
    heading_end = text.index(b"\n")
    assert read_measures_below(text, heading_end, len(text)).get("measured", "") == measured


@pytest.mark.parametrize(
    ("line", "fails"),
    [
        # ROCm/aiter#3366's title, as posted
        ("Regression: DeepSeek-V3.2 GSM8K accuracy 0.955 → 0.760 on MI35x rocm700 after #3148", True),
        ("gsm8k accuracy dropped from 94.5% to 81.2% with the nightly image", True),
        ("GSM8K accuracy 0.760 → 0.955 after the revert", False),  # it rose
        ("accuracy: 0.912 -> 0.901", False),  # within 10 %
        ("accuracy 0.95 to 1.0 of 200 samples", False),  # a range, not a change
    ],
    ids=["arrow-fell", "from-to-fell", "rose", "within-allowance", "a-range"],
)
def test_an_accuracy_stated_with_an_arrow(tmp_path: Path, line: str, fails: bool) -> None:
    report = _analysed(tmp_path, [line])
    assert (report.verdict.id == "accuracy-regression") is fails, report.verdict.summary
    assert any(e.pattern == "measure-arrow-accuracy" and e.failing for e in report.chain) is fails
    if fails:
        assert int(exit_code_for(report)) == 1 and line in report.verdict.summary


# vllm-project/vllm#30326 as posted: each After over its Before, two concurrencies one below the other.
AFTER_FIRST = [
    "TP8 concurrency=8",
    "after PR29708",
    "Output throughput: 1686.20 tok/s",
    "before PR29708",
    "Output throughput: 1947.66 tok/s",
    "",
    "TP8 concurrency=128",
    "after PR29708",
    "Output throughput: 8684.24 tok/s",
    "before PR29708",
    "Output throughput: 12781.05 tok/s",
]


def test_an_after_pasted_above_its_before_is_paired_with_the_nearest(tmp_path: Path) -> None:
    report = _analysed(tmp_path, AFTER_FIRST)
    assert report.verdict.id == "performance-regression", report.verdict.summary
    assert "from 1947.66 to 1686.2 (-13.4%)" in report.verdict.summary


def test_the_nearest_before_is_the_one_paired_not_the_one_above(tmp_path: Path) -> None:
    # The second concurrency alone, under the first one's Before: paired with the Before above it
    # (1947.66), the After (8684.24) would read as a gain; with its own below it, as the loss it is.
    lines = AFTER_FIRST[3:5] + AFTER_FIRST[6:]
    report = _analysed(tmp_path, lines)
    assert report.verdict.id == "performance-regression", report.verdict.summary
    assert "from 12781 to 8684.24 (-32.1%)" in report.verdict.summary


def test_a_plain_after_above_its_before_is_read_by_its_labels(tmp_path: Path) -> None:
    report = _analysed(tmp_path, [AFTER, BEFORE])
    assert report.verdict.id == "performance-regression", report.verdict.summary
    assert "(-12.2%)" in report.verdict.summary


# A serving benchmark's result block as vllm/benchmarks/serve.py prints it (`{:<40} {:<10}`).
def _result(concurrency: int, duration: float, throughput: float) -> list[str]:
    return [
        "============ Serving Benchmark Result ============",
        f"{'Successful requests:':<40} {200:<10}",
        f"{'Maximum request concurrency:':<40} {concurrency:<10}",
        f"{'Benchmark duration (s):':<40} {duration:<10.2f}",
        f"{'Total input tokens:':<40} {204800:<10}",
        f"{'Total generated tokens:':<40} {51200:<10}",
        f"{'Output token throughput (tok/s):':<40} {throughput:<10.2f}",
        "",
    ]


def test_a_later_result_of_the_same_workload_is_compared_with_the_earlier(tmp_path: Path) -> None:
    """Two result blocks pasted one under the other, no label: the earlier is the baseline. The later
    ran the same workload (requests, concurrency, tokens) slower: a failed gate naming the measure."""
    report = _analysed(
        tmp_path, ["# before the PR", *_result(16, 36.40, 1406.6), "# with the PR", *_result(16, 62.36, 821.0)]
    )
    assert report.verdict.id == "performance-regression"
    gate = next(e for e in report.chain if e.pattern == "bench-result-repeated")
    assert gate.line == 11 and gate.get("compared_with", "").startswith(f"{tmp_path / 'paste.txt'}:2: ")
    # The duration rose more (+71 %), but where a rate fell it is the measure named, as for a Before
    # and an After line: the work done per second, not a time that grows with the work.
    assert (gate.get("metric"), gate.get("baseline"), gate.get("value")) == (
        "Output token throughput (tok/s)",
        1406.6,
        821.0,
    )
    # Which block is the change is read from the order alone (vllm-project/vllm-ascend#6107 printed its
    # faster new path first): a lead, and the summary says how the sides were told.
    assert report.verdict.confidence <= 0.45 and "in the order they were printed" in report.verdict.summary


@pytest.mark.parametrize(
    ("first", "second"),
    [((16, 36.40, 1406.6), (64, 62.36, 821.0)), ((16, 62.36, 821.0), (16, 36.40, 1406.6))],
    ids=["a-concurrency-sweep", "the-later-faster"],
)
def test_a_sweep_or_a_faster_later_result_is_no_gate(
    tmp_path: Path, first: tuple[int, float, float], second: tuple[int, float, float]
) -> None:
    """A sweep over concurrency runs other workloads (the later slower by design); a later run that
    went faster regressed nothing. Neither is a failed gate: the run served."""
    report = _analysed(tmp_path, [*_result(*first), *_result(*second)])
    assert report.verdict.id == "healthy"
    assert int(exit_code_for(report)) == 0


# vllm-project/vllm#2971, as posted: one measure under a line naming each release.
OLD_RELEASE = [
    "Here's my speed on the 0.2.7 release",
    "`Avg prompt throughput: 1006.0 tokens/s, Avg generation throughput: 273.8 tokens/s,`",
]
NEW_RELEASE = [
    "Here's my speed on 0.3.2",
    "`Avg prompt throughput: 175.5 tokens/s, Avg generation throughput: 15.5 tokens/s,`",
]


@pytest.mark.parametrize(
    "lines",
    [[*OLD_RELEASE, "", *NEW_RELEASE], [*NEW_RELEASE, "", *OLD_RELEASE]],
    ids=["older-first", "newer-first"],
)
def test_the_newer_release_worse_than_the_older_is_a_failed_gate(tmp_path: Path, lines: list[str]) -> None:
    report = _analysed(tmp_path, lines)
    assert report.verdict.id == "performance-regression", report.verdict.summary
    assert "went from 273.8 to 15.5 (-94.3%)" in report.verdict.summary
    assert report.roots[0].get("version") == "0.3.2"


def test_a_newer_release_that_got_faster_fails_nothing(tmp_path: Path) -> None:
    swapped = [OLD_RELEASE[0], NEW_RELEASE[1], "", NEW_RELEASE[0], OLD_RELEASE[1]]
    report = _analysed(tmp_path, swapped)
    assert report.verdict.id not in ("performance-regression", "accuracy-regression"), report.verdict.summary
    assert int(exit_code_for(report)) != 1


@pytest.mark.parametrize(
    ("lines", "verdict", "said", "pattern"),
    [
        (
            ["main: Output token throughput (tok/s): 1234.5", "PR: Output token throughput (tok/s): 1000.2"],
            "performance-regression",
            "from 1234.5 to 1000.2 (-19.0%)",
            "measure-candidate-side",
        ),
        (
            ["**This PR**: Accuracy: 0.612", "", "**Baseline**: Accuracy: 0.951"],
            "accuracy-regression",
            "from 0.951 to 0.612 (-35.6%)",
            "measure-candidate-side",
        ),
        (
            ["v0.9.0: Output token throughput (tok/s): 600", "v0.8.5: Output token throughput (tok/s): 1200"],
            "performance-regression",
            "from 1200 to 600 (-50.0%)",
            "measure-version-line",
        ),
        (
            ["Old: mean TPOT 20 ms", "New: mean TPOT 45 ms"],
            "performance-regression",
            "(+125.0%)",
            "measure-candidate-side",
        ),
    ],
    ids=["main-then-pr", "pr-above-its-baseline", "newer-release-above", "old-and-new"],
)
def test_a_labelled_side_worse_than_its_baseline_is_a_failed_gate(
    tmp_path: Path, lines: list[str], verdict: str, said: str, pattern: str
) -> None:
    report = _analysed(tmp_path, lines)
    assert report.verdict.id == verdict, report.verdict.summary
    assert said in report.verdict.summary
    assert report.roots[0].pattern == pattern and report.roots[0].failing


@pytest.mark.parametrize(
    "lines",
    [
        ["main: Output token throughput (tok/s): 1000.2", "PR: Output token throughput (tok/s): 1234.5"],
        ["main: Output token throughput (tok/s): 1234.5", "PR: Mean TTFT (ms): 180"],
        ["v0.8.5: mean TTFT 120 ms", "v0.9.0: mean TTFT 80 ms"],
        ["main: Output token throughput (tok/s): 1234.5", "PR: Output token throughput (tok/s): 1200.0"],
    ],
    ids=["pr-faster", "different-measures", "newer-release-faster", "within-the-allowance"],
)
def test_a_labelled_side_no_worse_than_its_baseline_fails_nothing(tmp_path: Path, lines: list[str]) -> None:
    report = _analysed(tmp_path, lines)
    assert report.verdict.id not in ("performance-regression", "accuracy-regression"), report.verdict.summary
    assert int(exit_code_for(report)) != 1


TABLE_HEADER = "| | main | this PR |"


@pytest.mark.parametrize(
    ("rows", "said"),
    [
        (
            ["| Output throughput (tok/s) | 1234 | 1000 |", "| Mean TTFT (ms) | 100 | 180 |"],
            "went from 100 to 180 (+80.0%",
        ),
        (["| Output throughput (tok/s) | 1234 | 1000 |"], "went from 1234 to 1000 (-19.0%"),
    ],
    ids=["latency-rose-most", "throughput-fell"],
)
def test_a_tables_candidate_column_worse_than_its_baseline_is_a_failed_gate(
    tmp_path: Path, rows: list[str], said: str
) -> None:
    report = _analysed(tmp_path, [TABLE_HEADER, "|---|---|---|", *rows])
    assert report.verdict.id == "performance-regression", report.verdict.summary
    assert said in report.verdict.summary and "main -> this PR" in report.verdict.summary


@pytest.mark.parametrize(
    "lines",
    [
        [
            TABLE_HEADER,
            "|---|---|---|",
            "| Output throughput (tok/s) | 1000 | 1234 |",
            "| Mean TTFT (ms) | 180 | 100 |",
        ],
        ["| Test Case | 46cf57 | 06fd81 | Diff |", "| -- | -- | -- | -- |", "| llama_3_2_1b | 66.8 | 43.5 | 23.3 |"],
        [TABLE_HEADER, "|---|---|---|", "| model | llama | qwen |"],
    ],
    ids=["pr-better", "columns-no-side-names", "no-numbers"],
)
def test_a_table_without_a_worse_candidate_fails_nothing(tmp_path: Path, lines: list[str]) -> None:
    report = _analysed(tmp_path, lines)
    assert report.verdict.id != "performance-regression", report.verdict.summary
    judged = [e for e in report.chain if e.get("worse") is not None]
    if judged:
        # The candidate judged no worse than its baseline: a check that passed, the only proof of
        # serving in these lines, so a low-confidence healthy that names what it judged.
        assert report.verdict.id == "healthy" and report.verdict.confidence < 0.5
        assert "within its limit" in report.verdict.summary
    else:
        assert report.verdict.id != "healthy"  # a table nothing judged is no serving proof


# ROCm/pytorch#2910, as posted: each release's heading, the build's hash, the throughput line, then
# the shell session that listed the packages (a blank line under the first heading only).
RELEASE_BLOCKS = [
    "**release/2.8**",
    "",
    "cba8b9d296cf042e0b3832f497dcc978fc61c5a3-->",
    "**Throughput: 5.94 requests/s, 12925.15 total tokens/s, 12165.49 output tokens/s**",
    "Total num prompt tokens:  130953",
    "root@SMC-SC-DI08-33:/app# pip3 list|grep torch",
    "torch                             2.8.0+rocm7.1.1.lw.gitcba8b9d2",
    "",
    "**release/2.9**",
    "351ff442fbe2b9807b8a7ae6c2c30f448d56a736-->",
    "**Throughput: 1.21 requests/s, 2642.15 total tokens/s, 2486.86 output tokens/s**",
    "Total num prompt tokens:  130953",
    "root@SMC-SC-DI08-33:/app# pip3 list|grep torch",
    "torch                             2.9.1+rocm7.1.1.lw.git351ff442",
]


def test_release_blocks_past_a_hash_and_before_a_shell_prompt_are_compared(tmp_path: Path) -> None:
    report = _analysed(tmp_path, RELEASE_BLOCKS)
    assert report.verdict.id == "performance-regression", report.verdict.summary
    assert "went from 5.94 to 1.21 (-79.6%)" in report.verdict.summary
    assert "pip3 list" not in report.verdict.summary  # the block ended at the prompt


def _bisection(passing: str, failing: str, measures: dict[str, float]) -> list[str]:
    """tenstorrent/tt-mlir#8115's shape: the commits named by how they fared, then each commit's
    measure under a heading that is the commit alone."""
    lines = ["**MLIR COMMITS**", f"Passing Commit: {passing}", f"Failing Commit: {failing}", "", "**PERFORMANCE**", ""]
    for commit, value in measures.items():
        lines += [f"> Commit: {commit}", f"> | Sample per second: {value}", "> "]
    return lines


GOOD, BAD, OTHER = (
    "026940fee6f2343b2f0516fce5a2efc7562b26a9",
    "412daacc440f10bb98ccc685c311b01f1fadab70",
    "a8e9010ec53e",
)


def test_a_failing_commits_measure_below_the_passing_commits_is_a_regression(tmp_path: Path) -> None:
    report = _analysed(tmp_path, _bisection(GOOD, BAD, {BAD: 3.2156, OTHER: 3.2187, GOOD: 3.7191}))
    assert report.verdict.id == "performance-regression", report.verdict.summary
    gate = report.chain[0]
    assert gate.get("commit") == BAD and gate.get("baseline") == 3.7191 and gate.get("change") == "-13.5%"


def test_a_failing_commit_that_measured_as_well_is_no_regression(tmp_path: Path) -> None:
    report = _analysed(tmp_path, _bisection(GOOD, BAD, {BAD: 3.70, GOOD: 3.7191}))
    assert report.verdict.id != "performance-regression", report.verdict.summary


def test_a_commit_no_line_names_is_not_judged(tmp_path: Path) -> None:
    # Only the unnamed commit measured lower: which side it is, nothing says.
    report = _analysed(tmp_path, _bisection(GOOD, BAD, {OTHER: 2.0, GOOD: 3.7191}))
    assert report.verdict.id != "performance-regression", report.verdict.summary


def test_a_perplexity_after_a_change_higher_than_before_is_an_accuracy_regression(tmp_path: Path) -> None:
    # ggml-org/llama.cpp#6920: the runs named at their command line's end, perplexity lower is better
    command = "`./perplexity -m Meta-Llama-3-8B-Instruct.Q4_K_M.gguf -f wiki.test.raw` https://github.com/x/y/commit/"
    lines = [
        f"{command}3f167476 (before)",
        "Final estimate: PPL = 8.8955 +/- 0.09113",
        "",
        f"{command}544f1f10 (after)",
        "Final estimate: PPL = 11.4728 +/- 0.13020",
    ]
    report = _analysed(tmp_path, lines)
    assert report.verdict.id == "accuracy-regression", report.verdict.summary
    assert "8.8955 to 11.4728 (+29.0%)" in report.verdict.summary
    better = _analysed(tmp_path, [*lines[:4], "Final estimate: PPL = 8.7012 +/- 0.09013"])
    assert better.verdict.id != "accuracy-regression"


# ggml-org/llama.cpp#7254: each side named at the end of a sentence, over the command that ran it, the
# paste's `...` and llama.cpp's timings in a locale that writes a decimal comma.
LLAMA_CPP_TIMINGS = [
    "I used to generate 48 t/s with TinyLLama1.1 before this commit:",
    '$ bin/main -m ../models/tinyllama-1b/ggml-model-f16.gguf -p "Hello, my name is" -n 64 -ngl 99',
    "...",
    "llama_print_timings:        eval time =    1291,42 ms /    63 runs   "
    "(   20,50 ms per token,    48,78 tokens per second)",
    "...",
    "",
    "After commit 9c67c277 I am getting about 36 t/s without flash attention (which is the default):",
    '$ bin/main -m ../models/tinyllama-1b/ggml-model-f16.gguf -p "Hello, my name is" -n 64 -ngl 99',
    "...",
    "llama_print_timings:        eval time =    {ms} ms /    63 runs   "
    "(   {per_token} ms per token,    {rate} tokens per second)",
]


def test_a_side_named_at_a_sentences_end_over_a_command_and_decimal_commas(tmp_path: Path) -> None:
    """Seen failing before: no-failure-seen (the block below each heading began with the command that
    ran it; `48,78` read as 4878)."""
    lines = [*LLAMA_CPP_TIMINGS[:-1], LLAMA_CPP_TIMINGS[-1].format(ms="1742,03", per_token="27,65", rate="36,16")]
    report = _analysed(tmp_path, lines)
    assert report.verdict.id == "performance-regression", report.verdict.summary
    assert "(tokens per second) went from 48.78 to 36.16 (-25.9%)" in report.verdict.summary
    # Steady in every measure: its time per token too (a rise in it alone is a regression of its own).
    steady = [*LLAMA_CPP_TIMINGS[:-1], LLAMA_CPP_TIMINGS[-1].format(ms="1290,10", per_token="20,48", rate="48,83")]
    assert _analysed(tmp_path, steady).verdict.id != "performance-regression"


def test_a_count_in_a_failures_words_is_no_side() -> None:
    """The look-alike: `failed after 5 attempts:` ends naming `after` before a colon, and is a log's
    failure line, not a heading over measures."""
    after = LIBRARY.pattern("measure-after-heading")
    assert match_line(after, "13:40:48Z  scheduler crashes: tokenizer initialization failed after 5 attempts:") is None
    assert match_line(after, "After commit 9c67c277 I am getting about 36 t/s (which is the default):") is not None


# ollama/ollama#10746: `ollama run --verbose` stats under a bold heading that is the release alone,
# the newer release first; the token counts differ, so the durations are no measure to compare.
OLLAMA_VERBOSE = [
    "**0.7.0:**",
    "eval count:           74 token(s)",
    "eval duration:        5.657106746s",
    "eval rate:            **13.08 tokens/s**",
    "",
    "**0.6.8:**",
    "eval count:           63 token(s)",
    "eval duration:        1.748827692s",
    "eval rate:            **36.02 tokens/s**",
]


def test_a_bold_release_heading_and_the_rate_over_a_duration(tmp_path: Path) -> None:
    """Seen failing before: no-failure-seen (no key found `**0.7.0:**`), then inconclusive (the
    duration, which grows with the tokens generated, taken for the measure)."""
    report = _analysed(tmp_path, OLLAMA_VERBOSE)
    assert report.verdict.id == "performance-regression", report.verdict.summary
    assert "eval rate (tokens/s) went from 36.02 to 13.08 (-63.7%)" in report.verdict.summary
    assert report.roots[0].get("version") == "0.7.0"


# vllm-project/vllm#12380's shape: benchmark_latency's lines under a baseline named by its branch and
# under the change's own heading (values varied: main slower, then the PR slower).
def _branch_sides(main: str, pr: str, pr_heading: str = "after this PR:", pr_p90: str | None = None) -> list[str]:
    return [
        "main branch:",
        "",
        "```text",
        f"Avg latency: {main} seconds",
        f"90% percentile latency: {main} seconds",
        "```",
        "",
        pr_heading,
        "",
        "```text",
        f"Avg latency: {pr} seconds",
        f"90% percentile latency: {pr_p90 or pr} seconds",
        "```",
    ]


@pytest.mark.parametrize("heading", ["after this PR:", "This PR:", "**Optimized**:"])
def test_a_change_slower_than_main_under_its_heading_is_a_regression(tmp_path: Path, heading: str) -> None:
    report = _analysed(tmp_path, _branch_sides("1.0009459006755301", "1.1250504679279403", heading))
    assert report.verdict.id == "performance-regression", report.verdict.summary
    assert "+12.4%" in report.verdict.summary
    assert "main branch:" in report.verdict.summary  # the baseline it was compared with is named


def test_a_change_faster_than_main_is_served_and_no_gate(tmp_path: Path) -> None:
    """The healthy report says what it compared: main's line and the PR's, and the measure that moved."""
    report = _analysed(tmp_path, _branch_sides("1.1250504679279403", "1.0009459006755301", pr_p90="1.0900000000000001"))
    assert report.verdict.id == "healthy", report.verdict.summary
    assert "Compared with" in report.verdict.summary
    assert "(Avg latency: 1.1250504679279403 seconds)" in report.verdict.summary  # main's, quoted
    assert "(Avg latency: 1.0009459006755301 seconds) is worse by no more than 10%" in report.verdict.summary
    # its worst measure, the 90th percentile (-3.1 %), named without its label's `%`
    assert "percentile latency (seconds) went from 1.12505 to 1.09 (-3.1%)" in report.verdict.summary
    assert "% percentile latency" not in report.verdict.summary


# huggingface/transformers#40136's shape: lm-eval's table under a Markdown heading naming each release
# of a dependency; the table's header and rule lie between the block's lines (values as posted).
def _release_tables(before: str, after: str) -> list[str]:
    lines = []
    for release, value in (("4.53.3", before), ("4.54.0", after)):
        lines += [
            f"### Transformers {release} Output",
            "```",
            "hf-multimodal (pretrained=Qwen/Qwen2.5-VL-7B-Instruct,dtype=bfloat16), gen_kwargs: (None), limit: None",
            "|  Tasks   |Version|Filter|n-shot|Metric|   |Value |   |Stderr|",
            "|----------|------:|------|-----:|------|---|-----:|---|-----:|",
            f"|Literature|      0|none  |     0|acc   |↑  |{value}|±  |0.0631|",
            "```",
            "",
        ]
    return lines


def test_an_accuracy_under_the_newer_releases_heading_lower_is_a_regression(tmp_path: Path) -> None:
    report = _analysed(tmp_path, _release_tables("0.8667", "0.7333"))
    assert report.verdict.id == "accuracy-regression", report.verdict.summary
    assert "acc went from 0.8667 to 0.7333 (-15.4%)" in report.verdict.summary  # `acc`, its cells' bars gone


def test_the_same_accuracy_under_both_releases_is_no_gate(tmp_path: Path) -> None:
    report = _analysed(tmp_path, _release_tables("0.8667", "0.8600"))
    assert report.verdict.id != "accuracy-regression", report.verdict.summary


def _bench_serving(concurrency: str, duration: str, throughput: str) -> list[str]:
    """sglang's bench_serving summary (python/sglang/bench_serving.py): its settings in words (the
    backend, a concurrency `not set`) among its measures."""
    return [
        "============ Serving Benchmark Result ============",
        "Backend:                                 sglang    ",
        "Traffic request rate:                    9.0       ",
        f"Max request concurrency:                 {concurrency}",
        "Successful requests:                     1000      ",
        f"Benchmark duration (s):                  {duration}",
        "Total input tokens:                      1024000   ",
        "Total generated tokens:                  512000    ",
        f"Request throughput (req/s):              {throughput}",
        "Concurrency:                             85.50     ",
        "==================================================",
    ]


def test_a_summarys_settings_in_words_do_not_end_its_block() -> None:
    text = "\n".join(_bench_serving("not set", "121.44", "8.23")).encode()
    heading_end = text.index(b"\n")
    measured = str(read_measures_below(text, heading_end, len(text))["measured"])
    assert measured.startswith("Traffic request rate:") and "Request throughput (req/s):              8.23" in measured
    assert "Backend" not in measured and "not set" not in measured


def test_a_second_run_of_one_workload_at_half_the_rate_regressed(tmp_path: Path) -> None:
    """Mooncake issue 522's second pass, as a blind round's bundle wrote it: the same command run twice,
    the second at half the throughput (its measured concurrency differs: a result, not a setting)."""
    first, second = _bench_serving("not set", "121.44", "8.23"), _bench_serving("not set", "239.71", "4.17")
    report = _analysed(tmp_path, ["# run 1", *first, "# run 2", *second])
    assert report.verdict.id == "performance-regression", report.verdict.summary
    assert "from 8.23 to 4.17" in report.verdict.summary or "from 121.44 to 239.71" in report.verdict.summary


def test_runs_at_two_maximum_concurrencies_are_not_compared(tmp_path: Path) -> None:
    first, second = _bench_serving("16", "121.44", "8.23"), _bench_serving("64", "239.71", "4.17")
    report = _analysed(tmp_path, [*first, *second])
    assert report.verdict.id != "performance-regression", report.verdict.summary


# vllm-project/vllm#25735's shape: each side's name alone on its line (`main`, `this pr`), no colon,
# over a code fence of bench_serving's summary (values varied).
def _bare_sides(main: str, pr: str) -> list[str]:
    lines: list[str] = []
    for side, value in (("main", main), ("this pr", pr)):
        lines += [
            side,
            "```",
            "============ Serving Benchmark Result ============",
            "Successful requests:                     100",
            f"Output token throughput (tok/s):         {value}",
            "==================================================",
            "```",
            "",
        ]
    return lines


def test_sides_named_alone_on_their_lines_are_compared(tmp_path: Path) -> None:
    report = _analysed(tmp_path, _bare_sides("1014.26", "802.11"))
    assert report.verdict.id == "performance-regression", report.verdict.summary
    assert "1014.26 to 802.11" in report.verdict.summary
    (tmp_path / "faster").mkdir()
    report = _analysed(tmp_path / "faster", _bare_sides("802.11", "1014.26"))
    assert report.verdict.id == "healthy", report.verdict.summary


# vllm-project/vllm#25752's shape: two Markdown headings over `vllm bench throughput`, the second naming
# itself the baseline; the command under each heading states settings, not measures (values as posted).
def _baseline_beside(with_caching: str, baseline: str, label: str = " (Baseline)") -> list[str]:
    lines: list[str] = []
    for heading, value, flag in (
        ("# Benchmark Throughput WITH Prefix Caching Enabled", with_caching, "--enable-prefix-caching"),
        (f"# Benchmark Throughput WITHOUT Prefix Caching{label}", baseline, "--no-enable-prefix-caching"),
    ):
        lines += [
            heading,
            f"vllm bench throughput --model ibm-granite/granite-4.0-tiny-preview --output-len 50 {flag}",
            "",
            f"Throughput: {value} requests/s, 31975.46 total tokens/s, 1488.62 output tokens/s",
            "Total num prompt tokens:  1024000",
            "",
        ]
    return lines


def test_a_heading_beside_one_naming_itself_the_baseline_is_compared_with_it(tmp_path: Path) -> None:
    report = _analysed(tmp_path, _baseline_beside("29.77", "40.88"))
    assert report.verdict.id == "performance-regression", report.verdict.summary
    assert "went from 40.88 to 29.77 (-27.2%)" in report.verdict.summary
    assert "vllm bench throughput" not in report.verdict.summary  # the command is no measure


def test_markdown_headings_with_no_baseline_among_them_are_not_judged(tmp_path: Path) -> None:
    report = _analysed(tmp_path, _baseline_beside("29.77", "40.88", label=""))
    assert report.verdict.id != "performance-regression", report.verdict.summary
    assert not any(e.failing for e in report.chain), report.verdict.summary


def test_an_after_with_a_note_of_its_own_is_compared_with_its_before(tmp_path: Path) -> None:
    """sgl-project/sglang-jax's MTP commit: `After:` restates the Before's measures and adds its own
    note (`(+5.5% throughput)`); the share is the throughput's, not the TPOT's before it. The pair is
    compared, and the report says so; a worse After with the same note fails."""
    lines = [
        "  Before: 620 tok/s output, 50.1ms TPOT",
        "  After:  654 tok/s output, 48.4ms TPOT (+5.5% throughput)",
    ]
    report = _analysed(tmp_path, lines)
    assert report.verdict.id == "no-failure-seen", report.verdict.summary
    assert "tok/s output went from 620 to 654 (+5.5%)" in report.verdict.summary
    (tmp_path / "worse").mkdir()
    worse = [lines[0], "  After:  520 tok/s output, 58.4ms TPOT (-16.1% throughput)"]
    report = _analysed(tmp_path / "worse", worse)
    assert report.verdict.id == "performance-regression", report.verdict.summary
