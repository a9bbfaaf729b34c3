"""A log pasted inside another tool's prefix is read as the log itself (issue 22, item 6).

Blind cases whose answer rests on more than one line (a benchmark's result block read below its
heading, a comparison table read with its header, a traceback's frames and code lines, the start-up
lines that set a crash's phase) are re-read with every line wrapped the way people paste: a GitHub
quote (`> `), the Actions runner's time, `docker compose logs`' service column, `grep -n`'s file
and line, journald's time, host and program, a paste indented as a whole. Each must keep the
verdict its thread gave. Seen failing before: 40 of 792 case-shape pairs of rounds 35 to 38
changed (quote, runner time, compose, grep), 9 of them to `healthy` on a regressed benchmark,
because the lines below or above a matched line were read with the prefix still on them;
journald's prefix changed 19 of 132, an indented paste 13 of 132.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from pdlogdoctor.library.patterns import Library
from pdlogdoctor.pipeline import run

from .corpus import DATA, load_expected, verdict_problems

CASES = [
    "blind-round38-excerpts-c/01-trtllm-fp4-bench-regression",  # two result blocks, one workload
    "blind-round36-excerpts-c/08-ascend-ttft-change-column",  # a table's change column
    "blind-round35-excerpts-c/10-gpt-oss-h200-throughput-after-before",  # after/before headings
    "blind-round37-excerpts-c/06-vllm-l4-opt-benchmark-revert",
    "blind-round38-excerpts-a/05-sglang-mi300-lds-out-of-resource",  # a traceback's frames: start-up
    "blind-round35-excerpts-a/08-sglang-ascend-tp6-heads-not-divisible",
    "blind-round35-excerpts-c/03-bench-random-empty-prompt-kills-scheduler",
]
SHAPES: dict[str, Callable[[int, str], str]] = {
    "quote": lambda i, line: f"> {line}",
    "runner-time": lambda i, line: f"2025-11-06T08:{i // 60 % 60:02d}:{i % 60:02d}.1234567Z {line}",
    "compose": lambda i, line: f"bench-1  | {line}",
    "grep-n": lambda i, line: f"run.log:{i + 1}:{line}",
    "journald": lambda i, line: f"Dec 04 09:{i // 60 % 60:02d}:{i % 60:02d} gpu-node-1 bash[1234]: {line}",
    "indented": lambda i, line: f"    {line}",
}


@pytest.mark.parametrize("shape", sorted(SHAPES))
@pytest.mark.parametrize("case", CASES)
def test_a_wrapped_paste_keeps_its_verdict(tmp_path: Path, library: Library, case: str, shape: str) -> None:
    source = DATA / case
    for log in source.iterdir():
        if log.name != "expected.toml":
            lines = log.read_text(encoding="utf-8").splitlines()
            wrapped = [SHAPES[shape](i, line) for i, line in enumerate(lines)]
            (tmp_path / log.name).write_text("\n".join(wrapped) + "\n", encoding="utf-8")
    report = run([str(tmp_path)], library)
    problems = verdict_problems(load_expected(source), report)
    assert not problems, problems


@pytest.mark.parametrize(
    "line",
    [">       assert inc(3) == 5", ">           run_vllm_bench_case(model, port, cases, baseline)", ">   main()"],
)
def test_pytests_mark_of_a_failing_line_is_no_quote(library: Library, line: str) -> None:
    """The look-alike: pytest's `>` before the line a test failed on (three blanks, then the source
    line with its own indentation) is pytest's, not a quote: the line keeps its mark."""
    assert library.formats.line_source(line) is None
    assert library.formats.line_source(">     scheduler = Scheduler(server_args)") is not None
