"""Not a serving log at all (issue 10, item 9): a file whose lines have no shape a deployment's
component prints, and whose name names no component, is no evidence. Python sources pasted into
one text file, a word list and a CSV of past failures hold the library's words, and once gave
confident verdicts (the CSV below was gpu-oom 0.80, the sources scheduler-init-crash 0.48); alone
they are now "0 of N files look like serving logs" and exit 4, and beside a real log they change
nothing of its verdict."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pdlogdoctor.cli.behaviour import exit_code_for
from pdlogdoctor.cli.commands import app
from pdlogdoctor.library.patterns import Library
from pdlogdoctor.pipeline import run
from pdlogdoctor.render.github import annotation_lines
from pdlogdoctor.render.markdown import markdown_report
from pdlogdoctor.render.options import RenderOptions
from pdlogdoctor.scan.logshape import NOT_SERVING_LOG, serving_log_reason, set_aside

from .conftest import ROOT

EXCERPT = ROOT / "tests" / "data" / "excerpts" / "mooncake-691-create-qp-enomem"

# What a developer's file of sources holds: the failure strings of every family, as code.
SOURCES = '''\
import logging

import torch

logger = logging.getLogger(__name__)


class MooncakeTransferEngine:
    def __init__(self, hostname: str, gpu_id: int) -> None:
        ret = self.engine.initialize(hostname, "P2PHANDSHAKE", "rdma", "")
        if ret != 0:
            logger.error("Mooncake Transfer Engine initialization failed.")
            raise RuntimeError("Mooncake Transfer Engine initialization failed.")

    def register(self, ptr: int, length: int) -> None:
        if self.engine.register_memory(ptr, length) != 0:
            logger.error("Failed to register memory %s", ptr)
            raise RuntimeError("CUDA out of memory")


def check_page_size(prefill: int, decode: int) -> None:
    """Raises:
        RuntimeError: Page size mismatch: prefill and decode differ.
    """
    if prefill != decode:
        raise RuntimeError(
            f"Page size mismatch: prefill server has page_size={prefill}, but decode server has "
            f"page_size={decode}. Both servers must use the same --page-size value."
        )


def alloc(n: int) -> torch.Tensor:
    try:
        return torch.empty(n, device="cuda")
    except torch.OutOfMemoryError:
        logger.error("torch.OutOfMemoryError: CUDA out of memory. Tried to allocate %s", n)
        print("Fatal Python error: Segmentation fault")
        logger.error("Rank 0 scheduler died during initialization (exit code: -9).")
        logger.error("Failed to get kvcache from prefill instance, it might be dead")
        raise RuntimeError("Not enough memory. Please try to increase --mem-fraction-static.")
'''

# A word list: the failure words, one a line, as a dictionary or a spell-checker keeps them.
FAILURE_WORDS = (
    "abort Aborted allocate bind bootstrap corrupted crash dead decode died ERROR error Exception exception "
    "failed Failed FAILED failure fatal FATAL fault Killed killed memory mismatch prefill refused "
    "Segmentation segmentation signal SIGSEGV timeout Traceback warmup"
)
WORDS = "\n".join(sorted(FAILURE_WORDS.split()))

CSV = "run_id,backend,status,error_message,exit_code\n" + "".join(
    f'{1000 + i},{backend},failed,"{message}",{code}\n'
    for i, (backend, message, code) in enumerate(
        [
            ("mori", "RegisterRdmaMemoryRegion failed! errno:22 (Invalid argument)", -6),
            ("mooncake", "Failed to get kvcache from prefill instance, it might be dead", 1),
            ("nixl", "CUDA out of memory. Tried to allocate 2.00 GiB", -9),
            ("mori", "Segmentation fault (core dumped)", -11),
            ("mooncake", "OSError: [Errno 98] Address already in use", 1),
        ]
        * 12
    )
)


def _write(directory: Path, files: dict[str, str]) -> Path:
    directory.mkdir(parents=True, exist_ok=True)
    for name, text in files.items():
        (directory / name).write_text(text)
    return directory


@pytest.mark.parametrize(
    "name, text",
    [("all_sources.txt", SOURCES), ("words", WORDS + "\n"), ("runs.csv", CSV)],
    ids=["python-sources", "word-list", "csv"],
)
def test_a_file_that_is_no_serving_log_alone_is_nothing_to_diagnose(
    tmp_path: Path, library: Library, name: str, text: str
) -> None:
    path = _write(tmp_path, {name: text}) / name
    report = run([str(path)], library)
    assert set_aside(report.inputs) == [str(path)]
    assert report.chain == () and report.unrecognised == () and report.roots == ()
    assert int(exit_code_for(report)) == 4
    result = CliRunner().invoke(app, ["analyze", "-f", "json", str(path)])
    assert (result.exit_code, result.stdout) == (4, "")
    assert "0 of 1 file looks like a serving log" in result.stderr


def test_the_count_line_says_how_many_files_were_looked_at(tmp_path: Path) -> None:
    directory = _write(tmp_path / "dump", {"a.txt": SOURCES, "b.txt": SOURCES, "words": WORDS, "runs.csv": CSV})
    (directory / "empty.txt").write_text("")
    result = CliRunner().invoke(app, ["analyze", str(directory)])
    assert result.exit_code == 4 and result.stdout == ""
    (line,) = result.stderr.splitlines()
    assert line.startswith(f"error: nothing to diagnose in {directory}: 0 of 4 files look like serving logs (")
    assert line.endswith("; 1 empty file")


def test_beside_a_real_log_the_sources_change_nothing(tmp_path: Path, library: Library) -> None:
    alone = run([str(EXCERPT)], library)
    bundle = tmp_path / "bundle"
    shutil.copytree(EXCERPT, bundle, ignore=shutil.ignore_patterns("expected.toml"))
    _write(bundle, {"all_sources.txt": SOURCES})
    mixed = run([str(bundle)], library)
    assert alone.verdict.id == "rdma-resource-exhausted"
    assert (mixed.verdict.id, mixed.verdict.confidence) == (alone.verdict.id, alone.verdict.confidence)
    assert all(alternative.confidence <= 0.5 for alternative in mixed.alternatives)
    shown = [*mixed.chain, *mixed.roots, *(t.first for t in mixed.unrecognised)]
    assert shown and not [event.where for event in shown if event.source.endswith("all_sources.txt")]
    (source,) = [s for s in mixed.inputs if s.name.endswith("all_sources.txt")]
    assert source.role.value == "unknown" and [p.code for p in source.problems] == [NOT_SERVING_LOG]
    assert not mixed.incomplete, "a file set aside was read whole: nothing is missing"


def test_every_format_says_which_files_were_set_aside(tmp_path: Path, library: Library) -> None:
    bundle = tmp_path / "bundle"
    shutil.copytree(EXCERPT, bundle, ignore=shutil.ignore_patterns("expected.toml"))
    _write(bundle, {"all_sources.txt": SOURCES})
    sentence = "2 of 3 files read look like serving logs; this one does not, and its lines were not used as evidence"
    options = RenderOptions(redact=False)
    assert any(sentence in line for line in annotation_lines(run([str(bundle)], library), options))
    assert f"{sentence}: `{bundle}/all_sources.txt`" in markdown_report(run([str(bundle)], library), options)
    for fmt in ("text", "json", "html"):
        result = CliRunner().invoke(app, ["analyze", "-f", fmt, "--no-redact", str(bundle)], env={"COLUMNS": "400"})
        assert result.exit_code == 1, result.stderr
        assert sentence in (json.loads(result.stdout)["notes"][0] if fmt == "json" else result.stdout), fmt


def test_a_log_named_for_nothing_still_counts_by_its_lines(tmp_path: Path, library: Library) -> None:
    """A real log under a neutral name (`output.txt`, stdin) is read by the shape of its lines;
    a one-line paste named after its component is read by its name."""
    seed = next((ROOT / "fixtures" / "mori-mr-size-limit-seed").glob("prefill_*.log")).read_text()
    path = _write(tmp_path / "a", {"output.txt": seed}) / "output.txt"
    assert run([str(path)], library).verdict.id == "mori-mr-size-limit"
    line = "Failed to create QP: Cannot allocate memory\n"
    assert not set_aside(run([str(_write(tmp_path / "b", {"prefill.log": line}))], library).inputs)
    assert set_aside(run([str(_write(tmp_path / "c", {"paste.txt": line}))], library).inputs)
    assert set_aside(run([str(_write(tmp_path / "d", {"router.cc": line}))], library).inputs), "a source name"


@pytest.mark.parametrize(
    "line",
    [
        '    raise RuntimeError("CUDA out of memory")',
        '        logger.error("Failed to register memory %s", ptr)',
        "        RuntimeError: if the page sizes differ.",
        'LOG(ERROR) << "Failed to create QP: " << strerror(errno);',
        "Aborted",
        "error,failed,exception",
        "WARNING: it is critical that the binary compressed file is read",  # prose (a README, libjpeg.txt)
        "    >>> recipes[5:]\n    Traceback (most recent call last):\n    ...\n    ValueError: slice",  # a doctest
    ],
)
def test_code_and_words_have_no_log_shape(library: Library, line: str) -> None:
    assert serving_log_reason("x.txt", line + "\n", library.errors) is None


def test_a_runtime_traceback_is_a_log_shape(library: Library) -> None:
    traceback = 'Traceback (most recent call last):\n  File "/app/x.py", line 3, in <module>\n'
    assert serving_log_reason("x.txt", traceback, library.errors) == "a line in the shape of python-traceback"
