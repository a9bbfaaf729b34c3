"""A straggler's launch switch that its peers do not share is named and quoted (issue 22; round 7
bundle 18: one decode started with disable_cuda_graph=True ran at a third of its peer's throughput).
The look-alike: the same straggler whose launch line differs from its peer's only in values every
two servers differ in (a random seed) names no setting.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from pdlogdoctor.library.patterns import Library
from pdlogdoctor.model import Report
from pdlogdoctor.pipeline import run

BUNDLE = Path(__file__).parent / "data" / "blind-round7-bundles" / "18-slow-one-decode-without-cuda-graph"
SWITCH = "disable_cuda_graph=True"


def _run(tmp_path: Path, library: Library, straggler_args: tuple[str, str] | None = None) -> Report:
    for path in BUNDLE.iterdir():
        if path.name != "expected.toml":
            shutil.copy(path, tmp_path / path.name)
    if straggler_args is not None:
        decode = tmp_path / "decode-1.log"
        decode.write_text(decode.read_text().replace(*straggler_args, 1))
    return run([str(tmp_path)], library)


def test_the_switch_only_the_straggler_set_is_named(tmp_path: Path, library: Library) -> None:
    report = _run(tmp_path, library)
    assert report.verdict.id == "straggler-node", report.verdict.summary
    assert f"it was launched with {SWITCH}" in report.verdict.summary, report.verdict.summary


def test_a_launch_line_that_differs_only_in_values_names_no_setting(tmp_path: Path, library: Library) -> None:
    report = _run(tmp_path, library, (SWITCH, "disable_cuda_graph=False"))
    assert report.verdict.id == "straggler-node", report.verdict.summary
    assert "it was launched with" not in report.verdict.summary, report.verdict.summary
