"""Rows that look like something else: a grep's indented rows, driver lines that share their commas,
a table's header with an `error` column, a comment block's long rows.

Each was a first-sight miss of round 23 (or found by reshaping the real excerpts the way logs arrive):
- `grep -H` puts the file name before every line, a traceback's indented frames too
  (`server.log:  File "..."`): the frames keep their indent, so the crash's stack is read;
- the driver's Xid lines (`NVRM: Xid (PCI:...): 45, pid=..., name=python3, ...`) have as many commas
  each, but no row names columns: a log, not a table set aside;
- nccl-tests' result table has two columns named `error`: its header is no error line;
- a comment's or a table's rows (`#  ...`) each start a line of their own, however long the one above.
"""

from __future__ import annotations

from pathlib import Path

from pdlogdoctor.library.patterns import Library
from pdlogdoctor.model import Report
from pdlogdoctor.pipeline import run

ROOT = Path(__file__).resolve().parent.parent
EAGLE_CRASH = ROOT / "tests/data/blind-round22-excerpts-a/08-sglang-eagle-illegal-memory/server.log"
XID = [
    "kernel: NVRM: Xid (PCI:0000:dc:00): 45, pid=1818990, name=python3, Ch 00000001 caused by previous Xid 149",
    "kernel: NVRM: Xid (PCI:0000:ed:00): 45, pid=1818992, name=python3, Ch 0000000c caused by previous Xid 145",
    "kernel: NVRM: Xid (PCI:0000:ba:00): 45, pid=1818989, name=python3, Ch 00000002 caused by previous Xid 145",
    "kernel: NVRM: Xid (PCI:0000:97:00): 45, pid=1818987, name=python3, Ch 00000003 caused by previous Xid 145",
]
# NVIDIA/nccl-tests#82 as pasted: the table's two header rows (the first padded to the terminal's width).
NCCL_TABLE = [
    "#" + " " * 53 + "out-of-place" + " " * 23 + "in-place          ",
    "#       size         count    type    root     time   algbw   busbw  error     time   algbw   busbw  error",
    "#        (B)    (elements)                     (us)  (GB/s)  (GB/s)            (us)  (GB/s)  (GB/s)       ",
    "           8             2   float       0    45.82    0.00    0.00    N/A    38.17    0.00    0.00    N/A",
]


def _write(tmp_path: Path, name: str, lines: list[str]) -> Path:
    path = tmp_path / name
    path.write_text("\n".join(lines) + "\n")
    return path


def _report(library: Library, path: Path) -> Report:
    return run([str(path)], library)


def test_a_traceback_pasted_from_grep_h_is_read_as_without_the_file_names(tmp_path: Path, library: Library) -> None:
    plain = _report(library, EAGLE_CRASH)
    lines = EAGLE_CRASH.read_text().splitlines()
    grepped = _report(library, _write(tmp_path, "grep.txt", [f"server.log:{line}" for line in lines]))
    assert plain.verdict.id == grepped.verdict.id == "scheduler-runtime-crash"
    facts = dict(grepped.verdict.facts)
    assert "event_loop_normal" in str(facts["phase_evidence"])
    assert "eagle_worker.py:258" in grepped.verdict.summary


def test_a_download_progress_line_is_no_grep_file_name(tmp_path: Path, library: Library) -> None:
    """One space after the colon is prose or a progress bar (`merges.txt: 100%|...`), not grep's."""
    assert library.formats.line_source("merges.txt: 100%|██████████| 456k/456k [00:00<00:00, 3.1MB/s]") is None
    assert library.formats.line_source('server.log:  File "/x.py", line 1, in f') is not None


def test_driver_lines_that_share_their_commas_are_read_as_a_log(tmp_path: Path, library: Library) -> None:
    report = _report(library, _write(tmp_path, "dmesg.txt", XID))
    assert not any(problem.code == "not-a-serving-log" for source in report.inputs for problem in source.problems)
    assert report.verdict.id == "inconclusive"
    assert "Xid (PCI:0000:dc:00): 45, pid=1818990" in report.verdict.summary


def test_a_table_header_with_an_error_column_is_no_error(tmp_path: Path, library: Library) -> None:
    report = _report(library, _write(tmp_path, "terminal.txt", NCCL_TABLE))
    assert report.verdict.id == "no-failure-seen"
    assert not report.unrecognised


def test_a_comment_row_under_a_long_comment_row_is_a_line_of_its_own(tmp_path: Path, library: Library) -> None:
    """The first header row is as long as the terminal; the second starts with `#`: not its tail."""
    report = _report(library, _write(tmp_path, "terminal.txt", NCCL_TABLE[:2]))
    assert not report.unrecognised
