"""The performance summary in every format (issue 31.4): the text and markdown reports state each
charted series with the numbers of the JSON report's `performance.series` and the HTML charts'
legends (one count, one rounding), for sglang and vLLM runs; a run that served with no failed gate
and no bottleneck shows one line, not the table."""

from __future__ import annotations

import io
import json
import re

import pytest

from pdlogdoctor.library.patterns import Library
from pdlogdoctor.model import OutputFormat, Report
from pdlogdoctor.pipeline import run
from pdlogdoctor.render import render
from pdlogdoctor.render.options import RenderOptions

from .conftest import FIXTURES

PLAIN = RenderOptions(redact=False)
SLOW = (
    "slow-decode-saturated-sglang",
    "slow-regression-vllm",
    "slow-kv-backlog-sglang-mooncake",
    "slow-decode-saturated-sglang-router-latency",
)


def _rendered(report: Report, form: OutputFormat) -> str:
    out = io.StringIO()
    render(report, form, out, PLAIN)
    return out.getvalue()


def _shown(value: float) -> str:
    """How a JSON number reads in a table: 96.0 is 96."""
    return f"{value:.15g}"


def _section(report: str, heading: str) -> list[str]:
    """The lines under `heading` up to the first blank line after its first non-blank one."""
    lines = report.split(heading, 1)[1].splitlines()[1:]
    start = next(number for number, line in enumerate(lines) if line.strip())
    end = next((number for number, line in enumerate(lines[start:], start) if not line.strip()), len(lines))
    return [heading, *lines[start:end]]


@pytest.mark.parametrize("name", SLOW)
def test_text_and_markdown_state_the_json_series_numbers(name: str, library: Library) -> None:
    report = run([str(FIXTURES / name)], library)
    series = json.loads(_rendered(report, OutputFormat.JSON))["performance"]["series"]
    text = _rendered(report, OutputFormat.TEXT)
    markdown = _rendered(report, OutputFormat.MARKDOWN)
    page = _rendered(report, OutputFormat.HTML)
    assert "Metrics read" in text and "### Metrics read" in markdown
    rows = [line.split() for line in _section(text, "Metrics read (")[2:]]  # under its header row
    cells = [[c.strip() for c in line.strip("|").split("|")] for line in _section(markdown, "### Metrics read")[3:]]
    assert len(rows) == len(cells) >= 3
    for item in series:
        numbers = [str(item["count"]), *(_shown(item[k]) for k in ("low", "mean", "high", "last"))]
        label = item["node"] or item["file"].rsplit("/", 1)[-1]
        in_text = [row for row in rows if row[-5:] == numbers and any(label in cell for cell in row)]
        in_markdown = [row for row in cells if row[2:] == numbers and label in row[1]]
        assert bool(in_text) == bool(in_markdown), (item, in_text, in_markdown)
        if in_text:  # a charted series: its peak and count are the HTML legend's too
            assert re.search(rf"{re.escape(label)}[^<]*: peak {re.escape(numbers[3])}, {numbers[0]} lines", page)
    charted = sum(
        1
        for item in series
        for row in rows
        if row[-5:] == [str(item["count"]), *(_shown(item[k]) for k in ("low", "mean", "high", "last"))]
    )
    assert charted >= len(rows)  # every row of the table is a JSON series


def test_a_served_run_with_no_failed_gate_gets_one_line_not_the_table(library: Library) -> None:
    """The look-alike: metrics lines in a healthy run are load, not a finding."""
    report = run([str(FIXTURES / "healthy-sglang-bench-serving-result")], library)
    assert report.performance is not None and report.performance.series
    text = _rendered(report, OutputFormat.TEXT)
    assert f"Metrics read: {len(report.performance.series)} series from 2 files" in text
    assert "Metrics read (" not in text
    assert "### Metrics read" not in _rendered(report, OutputFormat.MARKDOWN)
