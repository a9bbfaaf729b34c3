"""A paste of results with nothing to judge them by: the report names the results it read.

People post a benchmark's table or a tool's timings and ask whether something is wrong. With no
threshold, baseline or earlier run beside them, nothing fails and the verdict is no-failure-seen;
its summary then names the first result line, and every format lists the first few
(scan/results.py, describe/quiet.py). A result line is a table's data row stating a number, or a
number beside a measure's words; a table's header or separator, a progress bar's redraw, a log line
that states no measure are not.
"""

from __future__ import annotations

import io
import json
from pathlib import Path

import jsonschema
import pytest

from pdlogdoctor.cli.behaviour import exit_code_for
from pdlogdoctor.pipeline import run
from pdlogdoctor.render.document import report_document
from pdlogdoctor.render.html import html_report
from pdlogdoctor.render.json_format import schema_text
from pdlogdoctor.render.markdown import markdown_report
from pdlogdoctor.render.options import RenderOptions
from pdlogdoctor.render.text import render
from pdlogdoctor.scan.results import RESULTS_KEPT, result_lines, states_a_result

from .conftest import shipped_library

LIBRARY = shipped_library()
# unslothai/unsloth#11349 (llama-bench's tokens per second by depth, four builds), as posted
DEPTH_TABLE = [
    "| depth | ours CUDA 13 | ours CUDA 12 | upstream CUDA 13 | upstream CUDA 12 |",
    "| ---: | ---: | ---: | ---: | ---: |",
    "| 0 | 220.4 | 214.8 | 220.7 | 214.8 |",
    "| 4096 | 200.7 | 193.2 | 200.7 | 193.2 |",
]
# InternLM/lmdeploy#1494, as posted (two engines' run time in milliseconds and tokens per second)
ENGINES = [
    "lmdeploy 运行时间: 23355.064453125 毫秒, 4.3245438351374705 token/s.",
    "vllm 运行时间: 36341.265625 毫秒, 2.7516928285295514 token/s.",
]
# oobabooga/textgen#4611
TIMINGS = (
    "llama_print_timings: prompt eval time = 78151.46 ms /  3200 tokens"
    " (   24.42 ms per token,    40.95 tokens per second)"
)


@pytest.mark.parametrize(
    ("line", "below"),
    [
        (DEPTH_TABLE[2], DEPTH_TABLE[3]),
        (ENGINES[0], None),
        (TIMINGS, None),
        ("Output token throughput (tok/s):         1287.41", None),
    ],
)
def test_a_line_stating_a_result(line: str, below: str | None) -> None:
    assert states_a_result(line, below)


@pytest.mark.parametrize(
    ("line", "below"),
    [
        (DEPTH_TABLE[0], DEPTH_TABLE[1]),  # a header: its separator is below it
        (DEPTH_TABLE[1], DEPTH_TABLE[2]),
        ("Loading safetensors checkpoint shards:  45% Completed | 9/20 [00:03<00:04,  2.71it/s]", None),
        ("[2025-06-26 02:04:09] FakeKVSender init with kv_indices: 4, aux_index: 0", None),
        ("| model | backend | notes |", None),  # a row without a number
        ("I tried it 3 times on two machines", None),
    ],
)
def test_a_line_stating_no_result(line: str, below: str | None) -> None:
    assert not states_a_result(line, below)


def test_the_first_result_lines_are_kept_with_their_numbers() -> None:
    head = "\n".join(["Results on an RTX 5090:", "", *DEPTH_TABLE, *DEPTH_TABLE[2:] * 4]) + "\n"
    found = result_lines(head)
    assert len(found) == RESULTS_KEPT
    assert found[:2] == ((5, DEPTH_TABLE[2]), (6, DEPTH_TABLE[3]))


def _analysed(tmp_path: Path, lines: list[str]):  # type: ignore[no-untyped-def]
    (tmp_path / "bench.txt").write_text("".join(f"{line}\n" for line in lines))
    return run([str(tmp_path)], LIBRARY)


@pytest.mark.parametrize("lines", [DEPTH_TABLE, ENGINES])
def test_nothing_judged_names_the_results_it_read(tmp_path: Path, lines: list[str]) -> None:
    report = _analysed(tmp_path, lines)
    assert report.verdict.id == "no-failure-seen" and int(exit_code_for(report)) == 3
    first = next(line for line in lines if states_a_result(line, None) and "---" not in line and "depth" not in line)
    assert "judged against nothing" in report.verdict.summary and first in report.verdict.summary
    assert report.results_read[0].text == first
    terminal = io.StringIO()
    render(report, terminal, RenderOptions(redact=False, verbose=True))
    for body in (
        terminal.getvalue(),
        markdown_report(report, RenderOptions(redact=False)),
        html_report(report, RenderOptions(redact=False)),
    ):
        assert "Results read" in body
    document = json.loads(json.dumps(report_document(report)))
    assert document["results_read"][0]["text"] == first
    jsonschema.validate(document, json.loads(schema_text()))


def test_a_report_with_a_failure_lists_no_results(tmp_path: Path) -> None:
    failing = [*DEPTH_TABLE, "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB."]
    report = _analysed(tmp_path, failing)
    assert report.verdict.id != "no-failure-seen"
    assert report.results_read == ()
