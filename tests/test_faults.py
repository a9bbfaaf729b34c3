"""Faults from outside the logs (issue 24): a parent killed mid-scan, Ctrl-C, names that are not
UTF-8, deep or linked directory trees, a full or read-only output. Each ends with a clear message
and, where anything was readable, the verdict of what was read; none hangs its caller."""

from __future__ import annotations

import faulthandler
import io
import json
import os
import shutil
import signal
import subprocess
import sys
import textwrap
import threading
import time
import zipfile
from pathlib import Path
from typing import Any

import pytest

from pdlogdoctor.ingest.content import looks_binary
from pdlogdoctor.library.patterns import Library
from pdlogdoctor.model.options import Limits, RunOptions
from pdlogdoctor.pipeline import run

from .bundle_copy import SEED

# A log line sglang prints on every decode step (the review's reproducer, D2): each one is an event,
# so a worker's result is far larger than a pipe's buffer and its send blocks until it is read.
DECODE_LINE = b"[2026-07-02 10:16:03 TP0] Decode batch. #running-req: 24, #token: 66684\n"
VERDICT = "mori-mr-size-limit"
HANG_GUARD = 60.0  # seconds: a bound on waiting for a hung process, not a speed requirement

# Runs the command line on one large file, split between a forked worker and this process, with
# the parallel thresholds lowered so a few MB are enough. This process stops in its own range
# (it reports "scanning" on the side channel and sleeps), so the test can kill it mid-scan.
DRIVER = textwrap.dedent(
    """
    import os, sys, time
    from pdlogdoctor.scan import parallel
    from pdlogdoctor.cli.main import main

    import faulthandler, signal
    faulthandler.register(signal.SIGUSR1, all_threads=True)
    # Ctrl-C as a terminal's foreground command gets it: a suite started in the background of a
    # non-interactive shell (`pytest ... &`) hands SIGINT down ignored, and Python then never
    # raises KeyboardInterrupt (the run slept on, and the test failed only when so started).
    signal.signal(signal.SIGINT, signal.default_int_handler)
    side = int(sys.argv[1])
    parallel.MIN_PARALLEL_BYTES = parallel.MIN_RANGE_BYTES = 1 << 20
    parent = os.getpid()
    original = parallel._scan_range
    worker_delay = float(os.environ.get("WORKER_DELAY", "0"))

    def scan_range(*args, **kwargs):
        if os.getpid() == parent:
            os.write(side, b"scanning\\n")
            time.sleep(600)
        os.write(side, f"worker {os.getpid()}\\n".encode())
        time.sleep(worker_delay)
        return original(*args, **kwargs)

    parallel._scan_range = scan_range
    main(["analyze", "-f", "json", sys.argv[2]])
    """
)


def _start_driver(tmp_path: Path, worker_delay: float = 0) -> tuple[subprocess.Popen[bytes], int, list[int]]:
    big = tmp_path / "decode_big.log"
    big.write_bytes(DECODE_LINE * ((4 << 20) // len(DECODE_LINE)))
    side_read, side_write = os.pipe()
    env = {**os.environ, "PDLOGDOCTOR_WORKERS": "2", "WORKER_DELAY": str(worker_delay), "PDLOGDOCTOR_NO_CACHE": "1"}
    process = subprocess.Popen(
        [sys.executable, "-c", DRIVER, str(side_write), str(big)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        pass_fds=(side_write,),
        env=env,
    )
    os.close(side_write)
    workers = _wait_for_scan(side_read)
    return process, side_read, workers


def _wait_for_scan(side: int) -> list[int]:
    """The workers' pids once the parent is in its own range and every worker has started."""
    seen = b""
    deadline = time.monotonic() + HANG_GUARD
    while b"scanning" not in seen or b"worker" not in seen:
        assert time.monotonic() < deadline, seen
        seen += os.read(side, 4096)
    return [int(line.split()[1]) for line in seen.decode().splitlines() if line.startswith("worker")]


def _ends_within(stream: object, seconds: float) -> bool:
    """Whether reading `stream` reaches end of file within `seconds` (a reader on a thread)."""
    done = threading.Event()

    def drain() -> None:
        while stream.read(65536):  # type: ignore[attr-defined]
            pass
        done.set()

    threading.Thread(target=drain, daemon=True).start()
    return done.wait(seconds)


def _hang_report(pids: list[int]) -> str:
    """What each process waits in, and its signals' dispositions (a hung run's failure message)."""
    report = []
    for pid in pids:
        try:
            status = Path(f"/proc/{pid}/status").read_text().splitlines()
            wchan = Path(f"/proc/{pid}/wchan").read_text()
        except OSError as error:
            report.append(f"{pid}: {error}")
            continue
        keep = [line for line in status if line.startswith(("State", "Sig", "Shd", "PPid"))]
        report.append(f"{pid} wchan={wchan} " + " | ".join(keep))
    return "\n".join(report) + "\n"


def _gone(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (FileNotFoundError, ProcessLookupError):
        return True
    return state in ("Z", "X")


def _wait_gone(pids: list[int], seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if all(_gone(pid) for pid in pids):
            return True
        time.sleep(0.05)
    return False


@pytest.mark.skipif(not Path("/proc").is_dir() or not hasattr(os, "fork"), reason="needs fork and /proc")
def test_a_parent_killed_mid_scan_leaves_no_worker_holding_the_callers_pipes(tmp_path: Path) -> None:
    """D2: the caller waits for end of file on the tool's stdout and stderr (`$(...)`, `| tee`,
    communicate()); once the parent is SIGKILLed, no worker may keep them open or live on."""
    process, side, workers = _start_driver(tmp_path)
    try:
        assert workers
        process.kill()
        process.wait(HANG_GUARD)
        assert _ends_within(process.stdout, 10) and _ends_within(process.stderr, 10)
        assert _wait_gone(workers, 10), [Path(f"/proc/{pid}/stat").read_text() for pid in workers if not _gone(pid)]
    finally:
        os.close(side)
        for pid in workers:
            if not _gone(pid):
                os.kill(pid, signal.SIGKILL)


@pytest.mark.skipif(not Path("/proc").is_dir() or not hasattr(os, "fork"), reason="needs fork and /proc")
def test_ctrl_c_ends_the_workers_instead_of_waiting_for_their_ranges(tmp_path: Path) -> None:
    """D12: Ctrl-C mid-scan exits 130 at once, its workers ended, not finished."""
    process, side, workers = _start_driver(tmp_path, worker_delay=600)
    try:
        process.send_signal(signal.SIGINT)
        try:
            code = process.wait(20)
        except subprocess.TimeoutExpired:
            code = None
        said = "" if code is not None else _hang_report([os.getpid(), process.pid, *workers])
        if code is None:
            process.send_signal(signal.SIGUSR1)  # the driver's Python stacks (faulthandler) on its stderr
            time.sleep(1)
            process.kill()
        assert code == 130, said + (process.stderr.read().decode(errors="replace")[-3000:] if process.stderr else "")
        assert _wait_gone(workers, 10)
    finally:
        os.close(side)
        process.kill()
        for pid in workers:
            if not _gone(pid):
                os.kill(pid, signal.SIGKILL)


# ---------------------------------------------------------------- the walk


def _analyze(*args: str, env: dict[str, str] | None = None) -> tuple[int, str, str]:
    from typer.testing import CliRunner

    from pdlogdoctor.cli.commands import app

    result = CliRunner().invoke(app, ["analyze", *args], env=env)
    return result.exit_code, result.stdout, result.stderr


def _json(*args: str) -> tuple[int, dict[str, Any], str]:
    code, out, err = _analyze("-f", "json", *args)
    return code, (json.loads(out) if out.strip() else {}), err


def _seed_copy(target: Path) -> Path:
    shutil.copytree(SEED, target)
    (target / "expected.toml").unlink()
    return target


def _problems(report: dict[str, Any], code: str) -> list[tuple[str, str]]:
    return [(s["file"], p["message"]) for s in report["inputs"] for p in s["problems"] if p["code"] == code]


def test_a_deep_directory_tree_is_cut_and_said_not_a_crash(tmp_path: Path) -> None:
    """D7: 1,500 nested directories beside the logs (RecursionError before): the logs are diagnosed,
    the levels past the cap are reported as not read."""
    bundle = _seed_copy(tmp_path / "bundle")
    levels = [bundle]
    try:
        for _ in range(1500):
            levels.append(levels[-1] / "d")
            levels[-1].mkdir()
        (levels[-1] / "x.log").write_text("[2026-07-02 10:16:03] ERROR deep below\n")
        code, report, err = _json(str(bundle))
    finally:  # bottom up: shutil.rmtree (pytest's clean-up) recurses too
        (levels[-1] / "x.log").unlink(missing_ok=True)
        for level in reversed(levels[1:]):
            level.rmdir()
    assert code == 1 and report["verdict"]["id"] == VERDICT, err
    deep_problems = _problems(report, "too-deep")
    assert len(deep_problems) == 1 and "levels" in deep_problems[0][1]
    assert "[too-deep]" in err and "Traceback" not in err


def test_links_out_of_the_input_are_not_followed_unless_asked(tmp_path: Path) -> None:
    """D11: a link to a directory or a file outside the input is reported and not read (its lines
    would be quoted in a shareable report); --follow-symlinks reads it; a link inside is followed."""
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "app.log").write_text("[2026-07-02 10:16:05] ERROR pdld-outside-marker: leaked line\n")
    bundle = _seed_copy(tmp_path / "bundle")
    (bundle / "etc").symlink_to(outside, target_is_directory=True)
    (bundle / "peer.log").symlink_to(outside / "app.log")
    (bundle / "inner").mkdir()
    (bundle / "inner" / "bench-again.log").symlink_to(bundle / "bench.log")  # inside: followed
    code, report, err = _json("-v", str(bundle))
    assert code == 1 and report["verdict"]["id"] == VERDICT
    read = {s["file"] for s in report["inputs"] if s["bytes"]}
    assert not any("etc" in name or "peer.log" in name for name in read)
    assert any(name.endswith("inner/bench-again.log") for name in read)
    assert sorted(Path(name).name for name, _ in _problems(report, "outside-input")) == ["etc", "peer.log"]
    assert "pdld-outside-marker" not in json.dumps(report) and "[outside-input]" in err

    code, report, _ = _json("--follow-symlinks", str(bundle))
    assert code == 1 and not _problems(report, "outside-input")
    read = {s["file"] for s in report["inputs"] if s["bytes"]}
    assert any(name.endswith("peer.log") for name in read) and any("/etc/" in name for name in read)


# ---------------------------------------------------------------- streams with no text in their head


class _Zeros(io.RawIOBase):
    """`/dev/zero` as standard input: NUL bytes without end."""

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        view = memoryview(buffer)
        view[:] = bytes(len(view))
        return len(view)


SMALL_HEAD = Limits(binary_head=1 << 20)  # a test-sized cap: 1 MiB of nothing but NULs or binary


def _stdin_problems(library: Library, stdin: Any, limits: Limits = SMALL_HEAD) -> list[tuple[str, str]]:
    report = run(["-"], library, stdin=stdin, options=RunOptions(limits=limits, excerpt=False))
    return [(p.code, p.message) for source in report.inputs for p in source.problems]


def test_standard_input_of_nul_bytes_without_end_stops(library: Library) -> None:
    """D13: `analyze - < /dev/zero` never ended. A hang guard, not a speed check."""
    faulthandler.dump_traceback_later(300, exit=True)
    try:
        problems = _stdin_problems(library, io.BufferedReader(_Zeros()))
    finally:
        faulthandler.cancel_dump_traceback_later()
    stopped = [message for code, message in problems if code == "binary"]
    assert len(stopped) == 1 and "first 1 MiB" in stopped[0]


def test_binary_standard_input_is_sniffed_like_a_file(library: Library) -> None:
    """D13: a core dump piped in is skipped as binary, as the same bytes in a file are."""
    elf = b"\x7fELF\x02\x01\x01\x00" + bytes(range(256)) * 64 + b"RegisterRdmaMemoryRegion failed! errno:22\n"
    assert looks_binary(elf[:8192])
    assert [code for code, _ in _stdin_problems(library, io.BytesIO(elf))] == ["binary"]
    # a log on standard input is read as before
    seed_log = (SEED / "prefill_mia1-p06-g13.log").read_bytes()
    report = run(["-"], library, stdin=io.BytesIO(seed_log), options=RunOptions(excerpt=False))
    assert report.inputs[0].lines == seed_log.count(b"\n") and not report.inputs[0].problems


def test_an_archive_member_of_nul_bytes_stops_early_and_costs_that_member_only(
    library: Library, tmp_path: Path
) -> None:
    """D13: a zip of zeros (a bomb within the caps) is read only as far as the cap on a text-less head."""
    bundle = _seed_copy(tmp_path / "bundle")
    with zipfile.ZipFile(tmp_path / "logs.zip", "w", zipfile.ZIP_DEFLATED) as archive:
        archive.write(bundle / "router.log", "run/router.log")
        with archive.open("run/zeros.log", "w") as member:
            for _ in range(8):
                member.write(bytes(1 << 20))
    report = run(
        [str(bundle / "prefill_mia1-p06-g13.log"), str(tmp_path / "logs.zip")],
        library,
        options=RunOptions(limits=SMALL_HEAD),
    )
    problems = {source.name.rsplit("!", 1)[-1]: [p.code for p in source.problems] for source in report.inputs}
    assert problems["run/zeros.log"] == ["binary"] and problems["run/router.log"] == []
    zeros = next(source for source in report.inputs if source.name.endswith("zeros.log"))
    assert zeros.bytes < 4 << 20  # stopped near the 1 MiB cap, not after all 8 MiB


def test_a_source_whose_reread_stops_early_ends_the_reread_not_the_run(library: Library, tmp_path: Path) -> None:
    """D13's bomb, whole: a zip holding only NUL bytes past the text-less head's cap (64 MiB). The
    scan stops that member with 'binary'; the report's second read of it (where each input ends,
    describe/quiet) met the same stop and raised it: a traceback and exit 1 for 4 x 1 GiB of NULs."""
    with (
        zipfile.ZipFile(tmp_path / "zeros.zip", "w", zipfile.ZIP_DEFLATED) as archive,
        archive.open("run/zeros.log", "w") as member,
    ):
        for _ in range((Limits().binary_head >> 20) + 1):
            member.write(bytes(1 << 20))
    report = run([str(tmp_path / "zeros.zip")], library)
    assert [problem.code for problem in report.inputs[0].problems] == ["binary"]


def test_over_the_file_cap_the_files_named_for_a_server_role_are_read_first(library: Library, tmp_path: Path) -> None:
    """D14: noise files past the cap beside the logs (r00000.log ...) cut the walk in name order, so
    router.log, sorting after them, was never read. The cap still holds, and says what it left."""
    bundle = _seed_copy(tmp_path / "bundle")
    for number in range(40):
        (bundle / f"r{number:05d}.log").write_text("[2026-07-02 10:16:03] ok\n")
    cap = 10
    report = run([str(bundle)], library, options=RunOptions(limits=Limits(files=cap)))
    read = [Path(source.name).name for source in report.inputs if not source.problems]
    assert "router.log" in read and "prefill_mia1-p06-g13.log" in read
    assert len(read) == cap
    assert [p.code for s in report.inputs for p in s.problems] == ["too-many-files"]
    assert report.verdict.id == VERDICT


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="no /dev/full")
def test_a_report_file_that_cannot_be_written_still_says_the_verdict(tmp_path: Path) -> None:
    """A full disk (or a read-only directory) under -o: one error line and exit 2, as before, and the
    verdict of what was read on stderr instead of nowhere (the report had no other output)."""
    for target in ("/dev/full", str(tmp_path)):  # no space left; a directory where the file should be
        code, out, err = _analyze("-o", target, str(SEED))
        assert code == 2 and out == ""
        assert [line for line in err.splitlines() if line.startswith("error:")], err
        said = [line for line in err.splitlines() if line.startswith("verdict, not written:")]
        assert len(said) == 1 and said[0].split()[3] == VERDICT, err
