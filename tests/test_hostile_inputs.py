"""Hostile and broken input (issue 6): every bad input is reported on stderr and in the
report, the run does not crash or hang, and the planted seed incident in the good files
next to it is still diagnosed."""

from __future__ import annotations

import faulthandler
import gzip
import importlib
import io
import json
import os
import shutil
import socket
import tarfile
import time
import tracemalloc
import zipfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from pdlogdoctor import ingest
from pdlogdoctor.cli.behaviour import exit_code_for
from pdlogdoctor.cli.commands import app
from pdlogdoctor.ingest.content import looks_binary
from pdlogdoctor.library.patterns import Library
from pdlogdoctor.model.options import Limits, RunOptions
from pdlogdoctor.pipeline import run
from pdlogdoctor.render.document import report_document
from pdlogdoctor.scan.index import AnchorIndex
from pdlogdoctor.scan.search import scan_stream

from .conftest import FIXTURES, zstd_compress

# The module, not the function of the same name that the package exports.
discover_module = importlib.import_module("pdlogdoctor.ingest.discover")
SEED = FIXTURES / "mori-mr-size-limit-seed"
PREFILL = "prefill_mia1-p06-g13.log"
PLANTED = b"RegisterRdmaMemoryRegion failed! addr:0x7f2a80000000, size:6002442240"
VERDICT = "mori-mr-size-limit"


@pytest.fixture
def bundle(tmp_path: Path) -> Path:
    target = tmp_path / "bundle"
    shutil.copytree(SEED, target)
    (target / "expected.toml").unlink()
    return target


def analyze(tmp_path: Path, *paths: Path | str, extra: tuple[str, ...] = ()) -> tuple[int, dict[str, Any], str]:
    """Run the CLI; return (exit code, the JSON report, stderr)."""
    out = tmp_path / "report.json"
    args = ["analyze", *map(str, paths), "--format", "json", "--output", str(out), *extra]
    result = CliRunner().invoke(app, args, catch_exceptions=False)
    report = json.loads(out.read_text()) if out.exists() else {}
    return result.exit_code, report, result.stderr


def analyze_limited(library: Library, bundle: Path, limits: Limits) -> tuple[int, dict[str, Any], str]:
    """Run the pipeline with smaller caps; return (exit code, the JSON report, the warnings the CLI would print)."""
    report = run([str(bundle)], library, options=RunOptions(limits=limits))
    warnings = "".join(f"warning: {s.name}: {p.message} [{p.code}]\n" for s in report.inputs for p in s.problems)
    return int(exit_code_for(report)), report_document(report), warnings


def problems_of(report: dict[str, Any], name_part: str) -> list[dict[str, str]]:
    return [p for source in report["inputs"] if name_part in source["file"] for p in source["problems"]]


def assert_seed_found(code: int, report: dict[str, Any]) -> None:
    assert code == 1
    assert report["verdict"]["id"] == VERDICT
    assert any(event["pattern"] == "mori-mr-register-failed" for event in report["chain"])


def assert_warned(stderr: str, name_part: str, code: str) -> None:
    lines = [line for line in stderr.splitlines() if line.startswith("warning: ") and f"[{code}]" in line]
    assert any(name_part in line for line in lines), stderr


def assert_incomplete(report: dict[str, Any], name_part: str) -> None:
    assert report["incomplete"] is True
    assert any(name_part in note for note in report["notes"]), report["notes"]


# ---------------------------------------------------------------- paths that are not logs


def test_nonexistent_path_beside_good_ones_is_warned_and_the_rest_analysed(tmp_path: Path, bundle: Path) -> None:
    # It must not pass silently, nor hide what the other paths hold (issue 23): a warning, a
    # problem of that input, an incomplete report with the verdict's exit code.
    code, report, stderr = analyze(tmp_path, bundle, tmp_path / "nope.log")
    assert_seed_found(code, report)
    assert_warned(stderr, "nope.log", "not-found")
    assert_incomplete(report, "nope.log")
    # Alone, it is a usage error: CI tells a typo by exit 2.
    alone = tmp_path / "alone"
    alone.mkdir()
    code, report, stderr = analyze(alone, tmp_path / "nope.log")
    assert code == 2 and report == {}  # no report written
    assert stderr.count("\n") == 1 and stderr.startswith("error: ") and "nope.log" in stderr


def test_permission_denied_real(tmp_path: Path, bundle: Path) -> None:
    if os.geteuid() == 0:
        pytest.skip("root reads mode-000 files; see test_permission_denied_on_open")
    locked = bundle / "decode_locked.log"
    locked.write_text("x\n")
    locked.chmod(0)
    code, report, stderr = analyze(tmp_path, bundle)
    assert_seed_found(code, report)
    assert_warned(stderr, "decode_locked.log", "permission-denied")


def test_permission_denied_on_open(tmp_path: Path, bundle: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    locked = bundle / "decode_locked.log"
    locked.write_text("x\n")
    real_open = os.open

    def refusing_open(path: Any, flags: int, *args: Any, **kwargs: Any) -> int:
        if str(path).endswith("decode_locked.log"):
            raise PermissionError(13, "Permission denied", str(path))
        return real_open(path, flags, *args, **kwargs)

    monkeypatch.setattr(os, "open", refusing_open)
    code, report, stderr = analyze(tmp_path, bundle)
    assert_seed_found(code, report)
    assert_warned(stderr, "decode_locked.log", "permission-denied")
    assert_incomplete(report, "decode_locked.log")


def test_directory_symlink_loop(tmp_path: Path, bundle: Path) -> None:
    (bundle / "sub").mkdir()
    (bundle / "sub" / "up").symlink_to(bundle, target_is_directory=True)
    (bundle / "self.log").symlink_to(bundle / "self.log")  # ELOOP
    code, report, stderr = analyze(tmp_path, bundle)
    assert_seed_found(code, report)
    assert_warned(stderr, "sub/up", "symlink-loop")
    assert_warned(stderr, "self.log", "symlink-loop")
    # each real file is read once, not once per trip round the loop
    names = [s["file"] for s in report["inputs"] if s["bytes"]]
    assert sum(PREFILL in n for n in names) == 1


def test_fifo_is_never_opened(tmp_path: Path, bundle: Path) -> None:
    os.mkfifo(bundle / "pipe.log")  # opening it for reading would block forever
    # A hang guard, not a speed check: a regression that opens the FIFO dumps a traceback.
    faulthandler.dump_traceback_later(300, exit=True)
    try:
        code, report, stderr = analyze(tmp_path, bundle)
    finally:
        faulthandler.cancel_dump_traceback_later()
    assert_seed_found(code, report)
    assert_warned(stderr, "pipe.log", "not-a-file")
    assert "FIFO" in problems_of(report, "pipe.log")[0]["message"]


def test_socket_is_skipped(tmp_path: Path, bundle: Path) -> None:
    path = bundle / "s.sock"
    if len(str(path)) > 100:
        pytest.skip("socket path too long for AF_UNIX")
    server = socket.socket(socket.AF_UNIX)
    try:
        server.bind(str(path))
        code, report, stderr = analyze(tmp_path, bundle)
    finally:
        server.close()
    assert_seed_found(code, report)
    assert_warned(stderr, "s.sock", "not-a-file")


def test_device_given_directly_is_a_usage_error(tmp_path: Path, bundle: Path) -> None:
    # Never opened (reading /dev/zero never ends); named on the command line, it is the user's mistake.
    code, report, stderr = analyze(tmp_path, bundle, "/dev/zero")
    assert code == 2 and report == {}
    assert stderr.startswith("error: /dev/zero: not a file, directory or archive") and stderr.count("\n") == 1


def test_empty_file_and_empty_directory(tmp_path: Path, bundle: Path) -> None:
    (bundle / "decode_empty.log").write_bytes(b"")
    (tmp_path / "nothing").mkdir()
    code, report, stderr = analyze(tmp_path, bundle, tmp_path / "nothing")
    assert_seed_found(code, report)
    assert_warned(stderr, "decode_empty.log", "empty")
    assert_warned(stderr, "nothing", "empty-directory")
    assert report["incomplete"] is False  # nothing in them could have been missed


def test_only_empty_inputs_exit_nothing_readable_in_one_line(tmp_path: Path) -> None:
    (tmp_path / "empty.log").write_bytes(b"")
    (tmp_path / "nothing").mkdir()
    code, report, stderr = analyze(tmp_path, tmp_path / "empty.log", tmp_path / "nothing")
    assert code == 4 and report == {}  # nothing to diagnose: no verdict, no report
    names = f"{tmp_path / 'empty.log'} {tmp_path / 'nothing'}"
    assert stderr.splitlines() == [f"error: nothing readable in {names}: 1 empty file and 1 empty directory"]


# ---------------------------------------------------------------- content


def test_binary_file_is_skipped_even_if_it_holds_log_strings(tmp_path: Path, bundle: Path) -> None:
    # A core dump holds copies of log strings; they are not evidence of what happened.
    fake = b"\x7fELF\x02\x01\x01" + bytes(range(256)) * 64 + b"\0" * 4000
    fake += b"RegisterRdmaMemoryRegion failed! addr:0x1, size:99, accessFlag:15, errno:14 (Bad address)\n"
    (bundle / "decode_core.log").write_bytes(fake)
    code, report, stderr = analyze(tmp_path, bundle)
    assert_seed_found(code, report)
    assert_warned(stderr, "decode_core.log", "binary")
    assert not any(e["file"].endswith("decode_core.log") for e in report["chain"])


@pytest.mark.parametrize(
    ("codec", "mark"), [("utf-16-le", b"\xff\xfe"), ("utf-16-be", b"\xfe\xff"), ("utf-16-le", b""), ("utf-16-be", b"")]
)
def test_a_utf16_log_is_read_as_text_with_the_files_line_numbers(
    tmp_path: Path, bundle: Path, codec: str, mark: bytes
) -> None:
    """Windows PowerShell's `>` writes UTF-16 with a byte-order mark (some collectors without
    one): such a prefill log was skipped as binary. It is read, and its lines keep their numbers."""
    prefill = bundle / PREFILL
    text = prefill.read_text(encoding="utf-8")
    prefill.write_bytes(mark + text.encode(codec))
    code, report, stderr = analyze(tmp_path, bundle)
    assert_seed_found(code, report)
    assert "binary" not in stderr
    register = next(e for e in report["chain"] if e["pattern"] == "mori-mr-register-failed")
    number = next(i for i, line in enumerate(text.splitlines(), 1) if PLANTED.decode() in line)
    assert register["file"].endswith(PREFILL) and register["line"] == number
    assert PLANTED.decode() in register["text"]
    assert report["verdict"]["facts"]["smallest_failing_region_bytes"] == 6002442240


def test_utf16_is_told_from_binary_and_from_a_nul_hole() -> None:
    from pdlogdoctor.ingest.streams import utf16_encoding

    assert utf16_encoding("[2026-07-01 12:00:00] INFO".encode("utf-16-le")) == "utf-16-le"
    assert utf16_encoding(b"\xff\xfe" + "\u00e9t\u00e9 \u00e0 Z\u00fcrich".encode("utf-16-le")) == "utf-16"
    assert utf16_encoding(b"\xfe\xff" + "[2026-07-01 12:00:00] INFO".encode("utf-16-be")) == "utf-16"
    assert utf16_encoding(b"\0" * 512) is None  # a sparse hole, not text
    assert utf16_encoding(b"\x7fELF\x02\x01\x01" + bytes(range(256))) is None
    assert utf16_encoding(b"plain ascii log line, long enough to judge\n") is None
    assert utf16_encoding(b"\xfe\xffRegisterRdmaMemoryRegion failed! addr:0x7f2a80000000") is None  # 8-bit text
    # 8-bit text behind the mark with a NUL hole after it: `\0\n` reads as a UTF-16 newline, the hole
    # as U+0000, which no UTF-16 text holds (test_fuzz found it)
    assert (
        utf16_encoding(b"\xfe\xff\n[2026-07-02 10:16:03.412] [48211] [error] Register failed\n\n" + b"\0" * 7 + b"\n")
        is None
    )


def test_leading_nul_hole_is_still_scanned(library: Library) -> None:
    data = b"\0" * 20000 + (SEED / PREFILL).read_bytes()
    result = scan_stream(ingest.text_stream(io.BytesIO(data)), "p.log", AnchorIndex.build(library))
    assert any(e.pattern == "mori-mr-register-failed" for e in result.events)
    assert looks_binary(data[:8192]) is False


def test_invalid_utf8_and_latin1_lines(tmp_path: Path, bundle: Path) -> None:
    prefill = bundle / PREFILL
    lines = prefill.read_bytes().split(b"\n")
    noisy = [line + b" caf\xe9 \xff\xfe \xc3\x28" if i % 3 == 0 else line for i, line in enumerate(lines)]
    prefill.write_bytes(b"\n".join(noisy))
    code, report, _ = analyze(tmp_path, bundle)
    assert_seed_found(code, report)
    assert report["verdict"]["facts"]["smallest_failing_region_bytes"] == 6002442240


def test_crlf_line_endings(tmp_path: Path, bundle: Path) -> None:
    for path in bundle.glob("*.log"):
        path.write_bytes(path.read_bytes().replace(b"\n", b"\r\n"))
    code, report, _ = analyze(tmp_path, bundle)
    assert_seed_found(code, report)
    register = next(e for e in report["chain"] if e["pattern"] == "mori-mr-register-failed")
    assert register["line"] == 34 and "\r" not in register["text"]


def test_cr_only_line_endings_are_one_line(tmp_path: Path, bundle: Path) -> None:
    """A file with no LF is one line, as grep -n, sed and the annotations' line= count it;
    what it holds is still read."""
    for path in bundle.glob("*.log"):
        path.write_bytes(path.read_bytes().replace(b"\n", b"\r"))
    code, report, _ = analyze(tmp_path, bundle)
    assert_seed_found(code, report)
    assert {event["line"] for event in report["chain"]} == {1}


PROGRESS = b"Capturing batches (bs=8): 10%\rCapturing batches (bs=8): 100%\r"  # sglang's CUDA-graph bar
FORGED = b"FORGED: this is not a line of the file"


def test_progress_bar_redraws_with_lone_cr(library: Library) -> None:
    """tqdm redraws with a lone CR: its line is one line, and the lines after it keep their numbers."""
    data = PROGRESS + b"\n" + (SEED / PREFILL).read_bytes()
    result = scan_stream(ingest.text_stream(io.BytesIO(data)), "prefill_x.log", AnchorIndex.build(library))
    event = next(e for e in result.events if e.pattern == "mori-mr-register-failed")
    assert event.get("size") == 6002442240
    assert event.line == 35 and "Capturing" not in event.text  # line 34 of the seed, one line below


def test_a_lone_cr_inside_a_line_forges_no_line(tmp_path: Path, bundle: Path, library: Library) -> None:
    """Line 32 ends with a CR and a forged 'line'; the root line 34 and the symptom line 36 start
    with a progress bar's redraws. Every report shows each as one line, the CR visible, at the
    file's line numbers."""
    prefill = bundle / PREFILL
    lines = prefill.read_bytes().split(b"\n")
    lines[31] += b"\r" + FORGED
    lines[33] = PROGRESS + lines[33]
    lines[35] = PROGRESS + lines[35]  # a symptom: annotated with its text
    prefill.write_bytes(b"\n".join(lines))
    in_file = prefill.read_bytes().decode().split("\n")  # not read_text: it would end lines at a CR
    code, report, _ = analyze(tmp_path, bundle)
    assert_seed_found(code, report)
    root = report["chain"][0]
    bar_shown = PROGRESS.decode().split("\r", 1)[1]  # of the bar's redraws, the last (timeline.clean_line)
    assert (root["line"], root["text"]) == (34, in_file[33].replace(PROGRESS.decode(), bar_shown))
    assert (root["time"], root["time_inferred"]) == ("2026-07-02T10:16:03.412Z", False)  # its own, after the CRs
    windows = [window for window in report["excerpt"] if window["file"] == root["file"]]
    context = {line["line"]: line["text"] for window in windows for line in window["lines"]}
    assert {n: context[n] for n in (32, 33)} == {n: in_file[n - 1] for n in (32, 33)} and context[34] == root["text"]
    markdown = CliRunner().invoke(app, ["analyze", "-f", "markdown", str(bundle)]).stdout
    assert "\r" not in markdown and f"\\r{FORGED.decode()}" in markdown
    [row] = [line for line in markdown.splitlines() if FORGED.decode() in line]
    assert row.lstrip().startswith("32 | ")  # the forged text sits on line 32, never as a line 33
    assert f"{PREFILL.replace('mia1-p06-g13', '<host-1>')}:34" in markdown
    env = {"GITHUB_WORKSPACE": str(tmp_path)}
    github = CliRunner().invoke(app, ["analyze", "-f", "github", str(bundle)], env=env).stdout
    assert github.startswith("::error ") and ",line=34::" in github.splitlines()[0]
    [symptom] = [line for line in github.splitlines() if ",line=36::" in line]
    assert symptom.startswith("::notice ") and "%0D" not in github
    assert symptom.split("::", 2)[2].startswith("Capturing batches (bs=8): 100%25\\r[2026-07-02 10:16:40")
    page = CliRunner().invoke(app, ["analyze", "-f", "html", str(bundle)]).stdout
    assert "\r" not in page and f"\\\\r{FORGED.decode()}" in page  # a visible \\r in the page's data
    terminal = CliRunner().invoke(app, ["analyze", "--verbose", str(bundle)]).stdout
    assert "\r" not in terminal and f"{PREFILL}:34" in terminal


def test_one_huge_line_keeps_memory_bounded(tmp_path: Path, bundle: Path, library: Library) -> None:
    size = 30 << 20
    huge = bundle / "decode_huge.log"
    with huge.open("wb") as handle:
        handle.write(b"x" * size)  # no newline at all
    tracemalloc.start()
    try:
        with ingest.text_stream(ingest.open_regular(huge)) as stream:
            result = scan_stream(stream, "decode_huge.log", AnchorIndex.build(library))
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert result.bytes == size
    assert peak < 64 << 20  # chunk + carry window, not the 30 MB line (plus copies of it)
    code, report, _ = analyze(tmp_path, bundle)
    assert_seed_found(code, report)


def test_file_growing_during_read(
    tmp_path: Path, bundle: Path, library: Library, monkeypatch: pytest.MonkeyPatch
) -> None:
    growing = bundle / "decode_growing.log"
    growing.write_bytes(b"INFO start\n" * 1000)
    real_open = ingest.open_regular

    def open_then_grow(path: Path) -> Any:
        # A writer appends right after we opened it: deterministic, unlike a racing thread.
        handle = real_open(path)
        if path.name == growing.name:
            with growing.open("ab") as writer:
                writer.write(b"INFO more\n" * 1000)
        return handle

    monkeypatch.setattr(discover_module, "open_regular", open_then_grow)
    code, report, stderr = analyze(tmp_path, bundle)
    assert_seed_found(code, report)
    # The read stops at the size seen when the file was opened (it ends; no endless tail).
    source = next(s for s in report["inputs"] if s["file"].endswith("decode_growing.log"))
    assert 0 < source["bytes"] < growing.stat().st_size
    assert_warned(stderr, "decode_growing.log", "still-growing")


@pytest.mark.parametrize("kind", ["gz", "zst"])
def test_truncated_compressed_log_keeps_what_was_readable(tmp_path: Path, bundle: Path, kind: str) -> None:
    prefill = bundle / PREFILL
    # Numbered filler compresses like a real log, so the cut falls blocks after the incident
    # (zstd cannot decode a partial block: what precedes the damaged block is what is kept).
    filler = b"".join(b"INFO filler %d %x after the incident\n" % (k, k * 2654435761 % 2**32) for k in range(50000))
    data = prefill.read_bytes() + filler
    packed = gzip.compress(data) if kind == "gz" else zstd_compress(data)
    prefill.unlink()
    (bundle / f"{PREFILL}.{kind}").write_bytes(packed[: len(packed) * 2 // 3])
    code, report, stderr = analyze(tmp_path, bundle)
    assert_seed_found(code, report)  # the planted line is in the readable first part
    assert_warned(stderr, PREFILL, "truncated")
    source = next(s for s in report["inputs"] if PREFILL in s["file"])
    assert 0 < source["bytes"] < len(data)
    assert_incomplete(report, PREFILL)


def test_corrupt_zip(tmp_path: Path, bundle: Path) -> None:
    (bundle / "artifacts.zip").write_bytes(b"PK\x03\x04" + os.urandom(2000))
    code, report, stderr = analyze(tmp_path, bundle)
    assert_seed_found(code, report)
    assert_warned(stderr, "artifacts.zip", "corrupt-archive")


def _listing(root: Path) -> set[str]:
    return {str(p) for p in root.rglob("*")} if root.exists() else set()


def test_zip_members_with_absolute_and_dotdot_paths_are_never_written(tmp_path: Path) -> None:
    escape_name = f"pdlogdoctor-escape-{os.getpid()}.log"
    archive = tmp_path / "in" / "evil.zip"
    archive.parent.mkdir()
    prefill = (SEED / PREFILL).read_bytes()
    with zipfile.ZipFile(archive, "w") as zf:
        zf.writestr(f"/tmp/{escape_name}", prefill)
        zf.writestr(f"../../{escape_name}", b"INFO hello\n")
        for other in SEED.glob("*.log"):
            if other.name != PREFILL:
                zf.writestr(f"../{other.name}", other.read_bytes())
    before_parent = {p.name for p in tmp_path.parent.iterdir()}
    before_tmp = set(os.listdir("/tmp"))
    code, report, _ = analyze(tmp_path, archive)
    assert_seed_found(code, report)
    assert not Path("/tmp", escape_name).exists()
    # What the archive's members would have made, had a name been followed: nothing else, since
    # other processes (the suite's own, a shared machine's) may make entries in /tmp meanwhile.
    members = {escape_name, *(other.name for other in SEED.glob("*.log"))}
    assert not (set(os.listdir("/tmp")) - before_tmp) & members
    assert {p.name for p in tmp_path.parent.iterdir()} == before_parent
    names = [s["file"] for s in report["inputs"]]
    assert f"{archive}!tmp/{escape_name}" in names
    assert all(".." not in name.split("!", 1)[1] for name in names)


def test_nested_archives(tmp_path: Path, bundle: Path) -> None:
    prefill = bundle / PREFILL
    inner_zip = io.BytesIO()
    with zipfile.ZipFile(inner_zip, "w") as zf:
        zf.writestr("inner.log", b"INFO x\n")
    tar_bytes = io.BytesIO()
    with tarfile.open(fileobj=tar_bytes, mode="w:gz") as tf:
        data = (bundle / "router.log").read_bytes()
        info = tarfile.TarInfo("logs/router.log")
        info.size = len(data)
        tf.addfile(info, io.BytesIO(data))
    with zipfile.ZipFile(bundle / "artifacts.zip", "w") as zf:
        zf.writestr(f"{PREFILL}.gz", gzip.compress(prefill.read_bytes()))  # .gz in a zip: decompressed
        zf.writestr("more.zip", inner_zip.getvalue())  # zip in a zip: not opened, reported
        zf.writestr("logs.tar.gz", tar_bytes.getvalue())  # tar.gz in a zip: streamed
    prefill.unlink()
    (bundle / "router.log").unlink()
    code, report, stderr = analyze(tmp_path, bundle)
    assert_seed_found(code, report)
    sources = {e["file"] for e in report["chain"]}
    assert any(s.endswith(f"artifacts.zip!{PREFILL}.gz") for s in sources)
    assert any(s.endswith("logs.tar.gz!logs/router.log") for s in sources)
    assert_warned(stderr, "artifacts.zip!more.zip", "nested-archive")


def test_decompression_bomb_member_cap(library: Library, bundle: Path) -> None:
    (bundle / "decode_bomb.log.gz").write_bytes(gzip.compress(b"\0" * (64 << 20), compresslevel=9))
    with zipfile.ZipFile(bundle / "bomb.zip", "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr("a.log", b"INFO a\n" * (1 << 20))
    code, report, stderr = analyze_limited(library, bundle, Limits(member_output=1 << 20))
    assert_seed_found(code, report)
    assert_warned(stderr, "decode_bomb.log.gz", "output-cap")
    assert_warned(stderr, "bomb.zip!a.log", "output-cap")
    for name in ("decode_bomb.log.gz", "bomb.zip!a.log"):
        source = next(s for s in report["inputs"] if s["file"].endswith(name))
        assert source["bytes"] <= 1 << 20


def test_decompression_bomb_total_cap(library: Library, bundle: Path) -> None:
    with zipfile.ZipFile(bundle / "many.zip", "w", zipfile.ZIP_DEFLATED) as zf:
        for k in range(5):
            zf.writestr(f"m{k}.log", b"INFO member line\n" * 80000)  # ~1.3 MB each
    code, report, stderr = analyze_limited(library, bundle, Limits(total_output=3 << 20))
    assert_seed_found(code, report)
    read = sum(s["bytes"] for s in report["inputs"] if "many.zip!" in s["file"])
    assert read <= 3 << 20
    assert "whole run" in stderr
    assert_incomplete(report, "many.zip")


def test_thousands_of_small_files(tmp_path: Path, bundle: Path) -> None:
    many = bundle / "ranks"
    many.mkdir()
    for k in range(3000):
        (many / f"rank{k:04}.log").write_bytes(b"[2026-07-02 10:00:00] INFO rank %d ok\n" % k)
    code, report, _ = analyze(tmp_path, bundle)
    assert_seed_found(code, report)
    assert sum("ranks/" in s["file"] for s in report["inputs"]) == 3000


# ---------------------------------------------------------------- never writes, runs or connects


def _snapshot(root: Path) -> dict[str, tuple[int, int]]:
    return {str(p): (p.stat().st_mtime_ns, p.stat().st_size) for p in [root, *root.rglob("*")]}


def test_never_writes_into_inputs(tmp_path: Path, bundle: Path) -> None:
    (bundle / "logs.zip").write_bytes(_zip_of(SEED / "bench.log"))
    (bundle / "router.log.gz").write_bytes(gzip.compress((bundle / "router.log").read_bytes()))
    (bundle / "router.log").unlink()
    before = _snapshot(bundle)
    out_dir = tmp_path / "elsewhere"
    out_dir.mkdir()
    for fmt in ("json", "text"):
        result = CliRunner().invoke(app, ["analyze", str(bundle), "-f", fmt, "-o", str(out_dir / f"r.{fmt}")])
        assert result.exit_code == 1
    assert _snapshot(bundle) == before
    refused = CliRunner().invoke(app, ["analyze", str(bundle), "-o", str(bundle / "report.txt")])
    assert refused.exit_code == 2
    assert _snapshot(bundle) == before


def _zip_of(path: Path) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as zf:
        zf.write(path, path.name)
    return buffer.getvalue()


def test_never_executes_log_content(tmp_path: Path, bundle: Path) -> None:
    marker = tmp_path / "executed"
    (bundle / "decode_x.log").write_text(f"$(touch {marker})\n`touch {marker}`\n; touch {marker}\n")
    code, report, _ = analyze(tmp_path, bundle)
    assert_seed_found(code, report)
    assert not marker.exists()


def test_no_network(tmp_path: Path, bundle: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def no_socket(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("pdlogdoctor opened a socket")

    monkeypatch.setattr(socket, "socket", no_socket)
    monkeypatch.setattr(socket, "create_connection", no_socket)
    code, report, _ = analyze(tmp_path, bundle)
    assert_seed_found(code, report)


# ---------------------------------------------------------------- --timeout


def _slow_reads(monkeypatch: pytest.MonkeyPatch, delay: float) -> None:
    real = ingest.text_stream

    class Slow(io.RawIOBase):
        def __init__(self, inner: Any) -> None:
            self.inner = inner

        def read(self, size: int = -1) -> bytes:
            time.sleep(delay)
            return bytes(self.inner.read(min(size, 4096) if size > 0 else 4096))

        def close(self) -> None:
            self.inner.close()

    def slow_text_stream(*args: Any, **kwargs: Any) -> Any:
        return Slow(real(*args, **kwargs))

    monkeypatch.setattr(discover_module, "text_stream", slow_text_stream)


def test_timeout_returns_best_verdict_so_far(tmp_path: Path, bundle: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # Sorted order reads bench, decode, prefill, router: the prefill (the cause) is read
    # only if time allows. With a tiny timeout nothing much is read, and the report
    # still comes back, marked incomplete, naming what was not read.
    _slow_reads(monkeypatch, 0.05)
    code, report, stderr = analyze(tmp_path, bundle, extra=("--timeout", "0.3"))
    assert code in (1, 3)  # a verdict from what was read, or inconclusive: never a crash
    assert report["incomplete"] is True
    assert any("--timeout reached" in note for note in report["notes"])
    assert "[timeout]" in stderr
    unread = [s["file"] for s in report["inputs"] if any(p["code"] == "timeout" for p in s["problems"])]
    assert unread and any(name in note for note in report["notes"] for name in unread)


def test_generous_timeout_changes_nothing(tmp_path: Path, bundle: Path) -> None:
    code, report, _ = analyze(tmp_path, bundle, extra=("--timeout", "600"))
    assert_seed_found(code, report)
    assert report["incomplete"] is False


def _ignore(_: Iterator[Any]) -> None:
    return None
