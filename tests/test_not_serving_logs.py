"""Any text is read (issue 22.1); only a document recognised for what else it is stays out of the
evidence. Python sources pasted into one text file and a CSV of past failures hold the library's
words and once gave confident verdicts (the CSV below was gpu-oom 0.80, the sources
scheduler-init-crash 0.48): they read as program source and a table (scan/logshape.py), their lines
are no evidence, and the run still gives a report (issue 10's refusal, "0 of N files look like serving
logs" and exit 4, is gone: exit 4 is only for an input with no text at all). A word list, prose (the
seed's PR description) and a one-line paste of any error are read like any log."""

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
from pdlogdoctor.scan.logshape import NOT_SERVING_LOG, document_kind, set_aside

from .conftest import ROOT

EXCERPT = ROOT / "tests" / "data" / "excerpts" / "mooncake-691-create-qp-enomem"
# The seed incident's PR description (sgl-project/sglang, the MORI single-MR clamp): prose that names
# errno 22, RegisterRdmaMemoryRegion and the whole chain of the incident in sentences.
SEED_PR = ROOT / "tests" / "data" / "documents" / "seed-pr-description.txt"

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
    "name, text, kind",
    [
        ("all_sources.txt", SOURCES, "program source"),
        ("runs.csv", CSV, "a table"),
        ("snippet.txt", '    raise RuntimeError("CUDA out of memory")\n', "program source"),
    ],
    ids=["python-sources", "csv", "one-raise"],
)
def test_source_or_a_table_alone_gets_a_report_and_no_verdict_from_it(
    tmp_path: Path, library: Library, name: str, text: str, kind: str
) -> None:
    path = _write(tmp_path, {name: text}) / name
    report = run([str(path)], library)
    assert set_aside(report.inputs) == [str(path)]
    assert kind in report.inputs[0].problems[0].message
    assert report.chain == () and report.unrecognised == () and report.roots == ()
    assert int(exit_code_for(report)) == 3, "a report, not 'nothing readable'"
    result = CliRunner().invoke(app, ["analyze", "-f", "json", str(path)])
    assert result.exit_code == 3 and json.loads(result.stdout)["verdict"]["id"] == "no-failure-seen"
    assert "as program source or a table" in json.loads(result.stdout)["notes"][-1]


@pytest.mark.parametrize(
    "path",
    [SEED_PR, None],
    ids=["the-seed-pr-description", "word-list"],
)
def test_prose_and_words_are_read_and_give_no_confident_verdict(
    tmp_path: Path, library: Library, path: Path | None
) -> None:
    """Read like any text: their error words are ranked, quoted, and never a confident cause."""
    source = path or _write(tmp_path, {"words": WORDS + "\n"}) / "words"
    report = run([str(source)], library)
    assert not set_aside(report.inputs)
    assert int(exit_code_for(report)) == 3
    assert report.verdict.confidence < 0.5
    assert report.unrecognised, "its error lines are ranked and quoted"


def test_only_an_input_with_no_text_is_nothing_readable(tmp_path: Path) -> None:
    directory = _write(tmp_path / "dump", {"empty.txt": ""})
    (directory / "weights.dat").write_bytes(b"\x00\x01\x02\x03" + bytes(range(256)) * 8)
    paths = [str(directory / "weights.dat"), str(directory / "empty.txt")]
    result = CliRunner().invoke(app, ["analyze", *paths])
    assert result.exit_code == 4 and result.stdout == ""
    (line,) = result.stderr.splitlines()
    assert line == f"error: nothing readable in {' '.join(paths)}: 1 binary file and 1 empty file"
    _write(directory, {"a.txt": SOURCES})
    assert CliRunner().invoke(app, ["analyze", "-q", str(directory)]).exit_code == 3


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
    sentence = (
        "2 of 3 files read are logs; this one reads as program source or a table, and its lines were not used "
        "as evidence"
    )
    options = RenderOptions(redact=False)
    assert any(sentence in line for line in annotation_lines(run([str(bundle)], library), options))
    assert f"{sentence}: `{bundle}/all_sources.txt`" in markdown_report(run([str(bundle)], library), options)
    for fmt in ("text", "json", "html"):
        result = CliRunner().invoke(app, ["analyze", "-f", fmt, "--no-redact", str(bundle)], env={"COLUMNS": "400"})
        assert result.exit_code == 1, result.stderr
        assert sentence in (json.loads(result.stdout)["notes"][0] if fmt == "json" else result.stdout), fmt


def test_a_paste_is_read_whatever_its_name(tmp_path: Path, library: Library) -> None:
    """A real log under a neutral name (`output.txt`, stdin), and a one-line paste under any name, are
    read by their lines: the paste of Mooncake's QP line (mooncake#691's) names its cause."""
    seed = next((ROOT / "fixtures" / "mori-mr-size-limit-seed").glob("prefill_*.log")).read_text()
    path = _write(tmp_path / "a", {"output.txt": seed}) / "output.txt"
    assert run([str(path)], library).verdict.id == "mori-mr-size-limit"
    line = "Failed to create QP: Cannot allocate memory\n"
    for name in ("prefill.log", "paste.txt", "router.cc", "issue"):
        report = run([str(_write(tmp_path / name.replace(".", "-"), {name: line}))], library)
        assert not set_aside(report.inputs) and report.verdict.id == "rdma-resource-exhausted", name


@pytest.mark.parametrize(
    "text, kind",
    [
        (SOURCES, "program source"),
        (
            '    raise RuntimeError("CUDA out of memory")\n        logger.error("Failed to register memory %s", ptr)',
            "program source",
        ),
        ('LOG(ERROR) << "Failed to create QP: " << strerror(errno);', "program source"),
        (CSV, "a table"),
        (WORDS, None),  # text: read
        ("WARNING: it is critical that the binary compressed file is read", None),  # prose (a README, libjpeg.txt)
        ("    >>> recipes[5:]\n    Traceback (most recent call last):\n    ...\n    ValueError: slice", None),
        (
            'Traceback (most recent call last):\n  File "/app/x.py", line 3, in <module>\n    raise RuntimeError("x")',
            None,
        ),
        # A log that quotes source (a traceback's) or holds comma-separated values is a log all the same.
        ("[2026-07-02 10:16:03 TP0] a,b,c\n[2026-07-02 10:16:04 TP0] d,e,f\n[2026-07-02 10:16:05 TP0] g,h,i", None),
        # Lines of one driver message share their commas, and no row names columns: a log
        # (NVIDIA/open-gpu-kernel-modules#1150, as pasted: journald's `kernel: ` tag, no time).
        (
            "kernel: NVRM: Xid (PCI:0000:dc:00): 45, pid=1818990, name=python3, Ch 00000001 caused by previous Xid "
            "149\nkernel: NVRM: Xid (PCI:0000:ed:00): 45, pid=1818992, name=python3, Ch 0000000c caused by previous "
            "Xid 145\nkernel: NVRM: Xid (PCI:0000:ba:00): 45, pid=1818989, name=python3, Ch 00000002 caused by "
            "previous Xid 145",
            None,
        ),
        ("Time (s)\tqueue\tkv_usage\n0\t3\t0.41\n10\t5\t0.52\n20\t8\t0.61", "a table"),
        # An API answer printed over several lines (vllm-project/vllm#55291's pasted chat completion): its
        # braces are a JSON document's, not a block's, and the answer is evidence.
        (
            '{\n  "choices": [\n    {\n      "message": {\n        "role": "assistant",\n        "content": "!!!!"\n'
            "      }\n    }\n  ]\n}",
            None,
        ),
        # ... while C source that holds a JSON-looking member is still source.
        ('void init() {\n  if (ret != 0) {\n    LOG(ERROR) << "x";\n  }\n  "key": 1\n}', "program source"),
    ],
    ids=[
        "sources",
        "two-code-lines",
        "cpp-line",
        "csv",
        "words",
        "prose",
        "doctest",
        "traceback",
        "log-of-cells",
        "driver-lines-with-commas",
        "tsv",
        "pretty-json-answer",
        "source-with-a-member",
    ],
)
def test_what_a_document_is(library: Library, text: str, kind: str | None) -> None:
    assert document_kind(text + "\n", library.formats) == kind
