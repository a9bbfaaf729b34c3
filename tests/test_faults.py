"""Faults from outside the logs (issue 24): a parent killed mid-scan, Ctrl-C, names that are not
UTF-8, deep or linked directory trees, a full or read-only output. Each ends with a clear message
and, where anything was readable, the verdict of what was read; none hangs its caller."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path

import pytest

# A log line sglang prints on every decode step (the review's reproducer, D2): each one is an event,
# so a worker's result is far larger than a pipe's buffer and its send blocks until it is read.
DECODE_LINE = b"[2026-07-02 10:16:03 TP0] Decode batch. #running-req: 24, #token: 66684\n"
HANG_GUARD = 60.0  # seconds: a bound on waiting for a hung process, not a speed requirement

# Runs the command line on one large file, split between a forked worker and this process, with
# the parallel thresholds lowered so a few MB are enough. This process stops in its own range
# (it reports "scanning" on the side channel and sleeps), so the test can kill it mid-scan.
DRIVER = textwrap.dedent(
    """
    import os, sys, time
    from pdlogdoctor.scan import parallel
    from pdlogdoctor.cli.main import main

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
        assert code == 130
        assert _wait_gone(workers, 10)
    finally:
        os.close(side)
        process.kill()
        for pid in workers:
            if not _gone(pid):
                os.kill(pid, signal.SIGKILL)
