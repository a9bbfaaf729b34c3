"""Results people state in their own words (issue 22; round 143's blind cases).

Each mechanism is computed, not taken on the words, so each has its look-alike that must not fire:

- a score beside the limit it missed (`is 0.01,less than 0.88`): above its limit, or an expectation with
  no score of its own (`no less than 0.88`), it fails nothing;
- a check retold as `measured V vs expected T (tolerance D)`: within its tolerance, no failure;
- a script's tally of its checks (`1 pass / 7 wrong`): with none failed, no failure; answers counted
  wrong are an accuracy, failed tests are not;
- a degradation stated in Chinese (`劣化22%`): an improvement (`提升`), a negated one (`没有劣化`) or one
  under 5 % fails nothing, and one of accuracy (`精度`) is not a performance regression;
- a measure told then and now (`In 0.6.1 ... 1.27 seconds. Now ... 8.23 seconds`): a time that fell, a
  rate that rose, a change under 5 % or a fix fails nothing;
- an accuracy drop said in words (`we observed an accuracy drop`): one feared (`may cause accuracy
  drop`), denied or fixed fails nothing.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from pdlogdoctor.library.patterns import Library
from pdlogdoctor.model import Report
from pdlogdoctor.model.verdicts import HEALTHY, NO_CAUSE

from .conftest import analysed_lines


def failing(report: Report, pattern: str) -> bool:
    """The report's chain shows a line of `pattern` whose failure condition held."""
    return any(event.pattern == pattern and event.failing for event in report.chain)


# Ascend/sglang#35 (a nightly's GSM8K gate, retold by its test report)
ASCEND_REPORT = [
    "[Description]",
    "accuracy of the baidu/ERNIE-4.5-21B-A3B-PT model on the GSM8K dataset is 0.01,less than 0.88",
    "[Expected Result]",
    "accuracy of the baidu/ERNIE-4.5-21B-A3B-PT model on the GSM8K dataset is no less than 0.88.",
]


def test_a_score_stated_under_its_limit_is_an_accuracy_regression(tmp_path: Path, library: Library) -> None:
    report = analysed_lines(tmp_path, library, ASCEND_REPORT, "report.md")
    assert report.verdict.id == "accuracy-regression", report.verdict.summary
    assert "is 0.01,less than 0.88" in report.verdict.summary


@pytest.mark.parametrize(
    "line",
    [
        "accuracy of the baidu/ERNIE-4.5-21B-A3B-PT model on the GSM8K dataset is no less than 0.88.",
        "P99 latency of 150ms, lower than the baseline 500ms",
    ],
)
def test_a_score_above_its_limit_or_no_score_fails_nothing(line: str, tmp_path: Path, library: Library) -> None:
    report = analysed_lines(tmp_path, library, [line], "report.md")
    assert report.verdict.id in (HEALTHY, *NO_CAUSE), report.verdict.summary
    assert report.verdict.id != "inconclusive" or "gate failed" not in report.verdict.summary


# vllm-project/vllm#42526 (the CI failure analyzer's summary of a P/D accuracy test)
def test_measured_outside_its_tolerance_is_an_accuracy_regression(tmp_path: Path, library: Library) -> None:
    line = (
        "- **Hybrid SSM NixlConnector PD accuracy tests (4 GPUs)** — Accuracy regression: measured 0.766 vs "
        "expected 0.8 (tolerance 0.03)"
    )
    report = analysed_lines(tmp_path, library, ["### Failed test", line], "summary.md")
    assert report.verdict.id == "accuracy-regression", report.verdict.summary
    assert "measured 0.766 vs expected 0.8" in report.verdict.summary


@pytest.mark.parametrize(
    "line",
    [
        "- **PD accuracy tests** — measured 0.79 vs expected 0.8 (tolerance 0.03)",
        "- **PD accuracy tests** — measured 0.85 vs expected 0.8",
    ],
)
def test_measured_within_tolerance_or_above_fails_nothing(line: str, tmp_path: Path, library: Library) -> None:
    report = analysed_lines(tmp_path, library, [line], "summary.md")
    assert not failing(report, "gate-measured-vs-expected")
    assert report.verdict.id != "accuracy-regression", report.verdict.summary


# eugr/spark-vllm-docker#281 (a concurrency test of a served model's answers)
def test_a_tally_of_mostly_wrong_answers_is_an_accuracy_regression(tmp_path: Path, library: Library) -> None:
    lines = [
        "--- round 1: firing 8 concurrent requests ---",
        "  r1.1 WRONG (want 1788): 137",
        "  round 1: 1 pass / 7 wrong / 0 server-error",
    ]
    report = analysed_lines(tmp_path, library, lines, "check.log")
    assert report.verdict.id == "accuracy-regression", report.verdict.summary
    assert "1 pass / 7 wrong" in report.verdict.summary


def test_a_tally_of_failed_tests_is_no_accuracy(tmp_path: Path, library: Library) -> None:
    report = analysed_lines(tmp_path, library, ["Test results: 3 passed / 5 failed"], "run.log")
    assert report.verdict.id == "inconclusive", report.verdict.summary
    assert "3 passed / 5 failed" in report.verdict.summary


@pytest.mark.parametrize(
    "line",
    [
        "  round 3: 8 pass / 0 wrong / 0 server-error",
        "========================= 1 failed, 16 passed in 3.21s =========================",
        "- Benchmarks: `FAIL` (0/16 passed, 1 failed, 15 NA)",
    ],
)
def test_a_tally_with_nothing_failed_or_another_shape_is_not_this_gate(
    line: str, tmp_path: Path, library: Library
) -> None:
    report = analysed_lines(tmp_path, library, [line], "run.log")
    assert not failing(report, "outcome-tally-failed")


@pytest.mark.parametrize(
    ("line", "quoted"),
    [
        # vllm-project/vllm-ascend#9696
        ("qwen3-32b 0.11.0相较于0.18.0有劣化22%：v0.11.0吞吐1063.87，v0.18.0吞吐748.43", "有劣化22%"),
        # vllm-project/vllm-ascend#12349
        (
            "A3 四机2P1D，高吞吐配置（卡50ms），3.5K输入1.5K输出，并发1152，vllm-ascend 26.1.0-B050输出吞吐12372tps，"
            "vllm-ascend 26.0.0-B150输出吞吐14540tps，劣化15%",
            "劣化15%",
        ),
    ],
)
def test_a_degradation_stated_in_chinese_is_a_performance_regression(
    line: str, quoted: str, tmp_path: Path, library: Library
) -> None:
    report = analysed_lines(tmp_path, library, [line], "issue.md")
    assert report.verdict.id == "performance-regression", report.verdict.summary
    assert quoted in report.verdict.summary


@pytest.mark.parametrize(
    "line",
    [
        "把0.18.0的fia换成pa后，吞吐是557，提升10%",
        "升级后没有劣化5%以上",
        "TPOT劣化3%，在波动范围内",
        "GSM8K精度下降12%",
    ],
)
def test_an_improvement_a_negation_noise_or_an_accuracy_is_no_performance_regression(
    line: str, tmp_path: Path, library: Library
) -> None:
    report = analysed_lines(tmp_path, library, [line], "issue.md")
    assert report.verdict.id != "performance-regression", report.verdict.summary


# A measure told then and now (measure-before-now-stated): ai-dynamo/dynamo#4774, tenstorrent/tt-metal's
# Galaxy regression, EleutherAI/lm-evaluation-harness's ReCoRD after v0.4.
@pytest.mark.parametrize(
    ("line", "verdict", "values"),
    [
        (
            "Finally, I set it up for disk offload. In 0.6.1 I was getting a TTFT of 1.27 seconds. Now I'm seeing a "
            "TTFT of 8.23 seconds.",
            "performance-regression",
            (1.27, 8.23),
        ),
        (
            "Previously it was in the range of 72-71 t/s/u and its in the range of 67 t/s/u. Using bisection we found "
            "two commits which turned out to be an issue:",
            "performance-regression",
            (72.0, 67.0),
        ),
        (
            "For example, when testing Llama2 7B (base model), I previously got 90.42 EM, while in the latest "
            "version only 26.6 (basically a random guess).",
            "accuracy-regression",
            (90.42, 26.6),
        ),
    ],
)
def test_a_measure_told_then_and_now_that_got_worse_is_a_regression(
    line: str, verdict: str, values: tuple[float, float], tmp_path: Path, library: Library
) -> None:
    report = analysed_lines(tmp_path, library, [line], "report.md")
    assert report.verdict.id == verdict, report.verdict.summary
    told = [e for e in report.chain if e.pattern == "measure-before-now-stated" and e.failing]
    assert told and (told[0].get("was"), told[0].get("now")) == values


@pytest.mark.parametrize(
    "line",
    [
        "Previously the first token took 2.4 s and now it takes 0.9 s",  # a time that fell
        "We used to get 1800 tok/s, now we get 2400 tok/s",  # a rate that rose
        "Previously it was 72 t/s/u and now it's 70 t/s/u",  # under 5 %: noise
        "This PR fixes it: previously we got 12 tok/s, now we get 40 tok/s",
    ],
)
def test_a_measure_told_then_and_now_that_did_not_get_worse_fails_nothing(
    line: str, tmp_path: Path, library: Library
) -> None:
    report = analysed_lines(tmp_path, library, [line], "report.md")
    assert not failing(report, "measure-before-now-stated")
    assert report.verdict.id in (HEALTHY, *NO_CAUSE) and "gate failed" not in report.verdict.summary


# An accuracy drop said in words (accuracy-drop-stated): vllm-project/tpu-inference#1380, ROCm/aiter#1455.
@pytest.mark.parametrize(
    "line",
    [
        "Observation in our integration tests running lm-eval (v0.4.9.2) on GSM8K, we observed an accuracy drop:",
        "When testing Kimi-K2-Thinking with VLLM on MI300X with DP2TP4, enabling VLLM_ROCM_USE_AITER_MLA appears to "
        "result in complete accuracy loss as measured by gsm8k eval.",
    ],
)
def test_an_accuracy_drop_said_in_words_is_an_accuracy_regression(line: str, tmp_path: Path, library: Library) -> None:
    report = analysed_lines(tmp_path, library, [line], "report.md")
    assert report.verdict.id == "accuracy-regression", report.verdict.summary
    assert line[:60] in report.verdict.summary


@pytest.mark.parametrize(
    "line",
    [
        # vLLM's own note on every FP8 KV cache, in countless healthy serving logs
        "(APIServer pid=1) INFO 10-21 09:14:07 [cache.py:180] Using fp8 data type to store kv cache. It reduces the "
        "GPU memory footprint and boosts the performance. Meanwhile, it may cause accuracy drop without a proper "
        "scaling factor.",
        "I also verified the accuracy with the fix, it has no accuracy degradation",
        "This PR fixes the accuracy drop seen with DP attention",
    ],
)
def test_an_accuracy_drop_feared_denied_or_fixed_fails_nothing(line: str, tmp_path: Path, library: Library) -> None:
    report = analysed_lines(tmp_path, library, [line], "report.md")
    assert not failing(report, "accuracy-drop-stated")
    assert report.verdict.id != "accuracy-regression", report.verdict.summary
