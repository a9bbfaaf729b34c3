"""Binary inputs (issue 30, decision 1): an unread binary is no missing evidence; a core dump is
evidence that a process crashed, read by its header only.

The cores are the kernel's own (Linux wrote them on SIGSEGV and SIGABRT of a process that titled
itself as sglang's scheduler, and of a `python3` helper), cut to their first 1920 bytes: the ELF
header, the program headers and the first notes, NT_PRSTATUS and NT_PRPSINFO.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

from pdlogdoctor.ingest import discover
from pdlogdoctor.ingest.coredump import core_dump
from pdlogdoctor.library.patterns import Library
from pdlogdoctor.model import Report
from pdlogdoctor.pipeline import run

from .conftest import FIXTURES, zstd_compress

CRASH = FIXTURES / "core-dump-prefill-segfault-mooncake"
CRASH_CORE = CRASH / "core.16039.1782987366"
STRAY = FIXTURES / "core-dump-stray-in-healthy-run"
STRAY_CORE = STRAY / "core.16041"
EXECUTABLE = FIXTURES / "binary-stray-elf-in-healthy-run" / "all_reduce_perf"
CRASHED_AT = 1782987364.0  # glog's 'Aborted at' in CRASH's prefill.log (10:16:04 UTC)
BOOT_ID = "fce92e23f13844328c554edaf0845804"


def test_the_header_names_the_program_its_command_line_and_signal() -> None:
    core = core_dump(CRASH_CORE.name, CRASH_CORE.read_bytes(), None, None)
    assert core is not None and core.elf
    assert (core.program, core.args, core.signal) == ("sglang::schedul", "sglang::scheduler_TP0", 11)
    assert (core.pid, core.written) == (16039, 1782987366.0)  # core.%p.%t
    stray = core_dump("core", STRAY_CORE.read_bytes(), None, 1.5)
    assert stray is not None
    assert (stray.program, stray.args, stray.signal, stray.pid) == (
        "python3",
        "python3 /opt/ci/collect_metrics.py --interval 5",
        6,
        16041,  # from NT_PRSTATUS: the name `core` gives none
    )
    assert stray.written == 1.5  # no time in the name: the file's modification time


def test_an_executable_or_a_text_file_named_core_is_no_core_dump() -> None:
    assert core_dump("all_reduce_perf", EXECUTABLE.read_bytes(), None, None) is None
    assert core_dump("python3.core", EXECUTABLE.read_bytes(), None, None) is not None  # named so, and binary


def test_a_text_log_named_like_a_core_is_read_as_a_log(tmp_path: Path) -> None:
    (tmp_path / "core.log").write_text("[2026-07-02 10:15:02] The server is fired up and ready to roll!\n")
    (found,) = discover([str(tmp_path / "core.log")])
    assert found.core is None and found.open is not None


def _crash_with_core(tmp_path: Path, library: Library, core_name: str, modified: float | None = None) -> Report:
    bundle = tmp_path / "bundle"
    bundle.mkdir()
    shutil.copy(CRASH / "prefill.log", bundle)
    target = bundle / core_name
    shutil.copy(CRASH_CORE, target)
    if modified is not None:
        os.utime(target, (modified, modified))
    return run([str(bundle)], library)


def test_a_core_is_matched_by_its_modification_time_when_its_name_has_none(tmp_path: Path, library: Library) -> None:
    report = _crash_with_core(tmp_path, library, "core", modified=CRASHED_AT + 40)
    (core,) = [e for e in report.chain if e.pattern == "process-dumped-core"]
    assert core.source.endswith("/core") and core.get("pid") == 16039
    assert any("dumped by the crash at" in note and "prefill.log:6" in note for note in report.notes)


def test_a_log_in_local_time_still_matches_the_cores_utc_by_its_pid(tmp_path: Path, library: Library) -> None:
    """The log's stamps are read as UTC; written at UTC+8 they are 8 h off the core's time. The same
    pid on both matches them across whole hours."""
    report = _crash_with_core(tmp_path, library, "core", modified=CRASHED_AT - 8 * 3600 + 40)
    assert "process-dumped-core" in {e.pattern for e in report.chain}


def test_a_core_written_long_after_the_crash_is_not_its(tmp_path: Path, library: Library) -> None:
    report = _crash_with_core(tmp_path, library, "core", modified=CRASHED_AT + 2.5 * 3600)
    assert "process-dumped-core" not in {e.pattern for e in report.chain}
    assert any("No crash in this report's chain matches it" in note for note in report.notes)
    assert report.verdict.id == "scheduler-runtime-crash" and not report.incomplete


def test_a_core_of_another_pid_is_not_the_crashs(tmp_path: Path, library: Library) -> None:
    """The crash line names PID 16039; a core of pid 999 written at the same time is another's."""
    report = _crash_with_core(tmp_path, library, "core.999.1782987366")
    assert "process-dumped-core" not in {e.pattern for e in report.chain}


def test_systemd_coredumps_compressed_core_is_read_through_zstd(tmp_path: Path, library: Library) -> None:
    """systemd-coredump keeps `core.<comm>.<uid>.<boot id>.<pid>.<usec>.zst`: its name gives the
    pid and time, the decompressed header the program."""
    bundle = tmp_path / "bundle"
    bundle.mkdir()
    shutil.copy(CRASH / "prefill.log", bundle)
    name = f"core.python3.0.{BOOT_ID}.16039.{int((CRASHED_AT + 5) * 1e6)}.zst"
    (bundle / name).write_bytes(zstd_compress(CRASH_CORE.read_bytes()))
    report = run([str(bundle)], library)
    (core,) = [e for e in report.chain if e.pattern == "process-dumped-core"]
    assert core.get("program") == "sglang::schedul" and core.time == CRASHED_AT + 5


def test_binaries_by_name_are_listed_not_read_and_the_run_stays_healthy(tmp_path: Path, library: Library) -> None:
    bundle = tmp_path / "bundle"
    shutil.copytree(FIXTURES / "healthy-sglang-bench-serving-result", bundle)
    (bundle / "expected.toml").unlink()
    (bundle / "model.safetensors").write_bytes(b"\x00" * 64)
    report = run([str(bundle)], library)
    assert report.verdict.id == "healthy" and not report.incomplete
    (weights,) = [s for s in report.inputs if s.name.endswith("model.safetensors")]
    assert [p.code for p in weights.problems] == ["binary"]
    assert any("1 binary file(s) not read" in note and "model.safetensors" in note for note in report.notes)


def test_a_stray_core_keeps_a_healthy_run_healthy_and_is_named(library: Library) -> None:
    report = run([str(STRAY)], library)
    assert report.verdict.id == "healthy" and not report.incomplete
    (note,) = [n for n in report.notes if "core.16041" in n]
    assert "'python3' (python3 /opt/ci/collect_metrics.py --interval 5)" in note and "SIGABRT" in note
