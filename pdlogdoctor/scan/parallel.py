"""Scan one large plain file on every core: newline-aligned byte ranges, merged exactly.

One range per core: forked workers scan all but the last, this process scans the last
itself. A worker never outlives this process: it closes the pipe end it inherited, dies with
its parent (a death signal, or a thread watching the parent), and holds none of the caller's
descriptors (its stdio is /dev/null), so a parent killed mid-scan leaves no process behind
that keeps a `$(...)` or a CI step waiting; Ctrl-C ends the workers instead of waiting for them.

Each range is scanned with `scan_partial`, given the bytes just before the range (for the
starting timestamp) and just after it (for a traceback that runs past its end).
`merge_partials` renumbers lines and applies the per-pattern event cap in file order, so the
result equals the sequential scan's.
"""

from __future__ import annotations

import io
import itertools
import os
import signal
import sys
import threading
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, BinaryIO

from ..ingest import ByteSource
from ..ingest.streams import Limited
from ..library.lazyregex import watched
from ..model import InputProblem
from . import accel
from .events import Partial, ScanResult, merge_partials
from .index import AnchorIndex
from .reader import CHUNK_BYTES, MAX_LINE_BYTES
from .search import BLOCK_LOOKAHEAD, scan_partial
from .wrapped import WRAP_MIN_CHARS

if TYPE_CHECKING:  # multiprocessing is imported only when a large file is split (start-up)
    from multiprocessing.connection import Connection

# A worker costs ~10-25 ms of CPU (fork, copy-on-write faults, its buffer's first touch) and the
# scan runs at ~1 GB/s per core: below this, splitting saves less wall time than it costs.
MIN_PARALLEL_BYTES = 64 << 20
MIN_RANGE_BYTES = 32 << 20
BEFORE_BYTES = 256 << 10  # room for the stamp lookback's lines before a range
AFTER_BYTES = BLOCK_LOOKAHEAD + MAX_LINE_BYTES
WRAP_SEARCH_BYTES = 64 << 10  # how far past a range's planned end a short row is looked for


def usable_cores() -> int:
    """The default number of workers (RunOptions.workers overrides it)."""
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


def plain_file_path(stream: ByteSource) -> str | None:
    """The path behind a stream that is an uncompressed regular file, else None."""
    marked = getattr(stream, "plain_path", None)  # ingest.text_stream of a plain file
    if isinstance(marked, str):
        return marked if os.path.isfile(marked) else None
    raw = getattr(stream, "raw", None)
    if not isinstance(stream, io.BufferedReader) or not isinstance(raw, io.FileIO):
        return None
    name = raw.name
    return name if isinstance(name, str) and os.path.isfile(name) else None


def worth_splitting(path: str, count: int) -> bool:
    return count > 1 and os.path.getsize(path) >= MIN_PARALLEL_BYTES


def plan_ranges(path: str, count: int, size: int | None = None) -> list[tuple[int, int]]:
    """Up to `count` ranges of at least MIN_RANGE_BYTES, each ending after a newline."""
    size = os.path.getsize(path) if size is None else size
    pieces = max(1, min(count, size // MIN_RANGE_BYTES))
    bounds = [0]
    with open(path, "rb") as handle:
        for k in range(1, pieces):
            cut = _line_start_after(handle, size * k // pieces)
            if bounds[-1] < cut < size:
                bounds.append(cut)
    bounds.append(size)
    return list(itertools.pairwise(bounds))


# The first byte of a line inside a JSON record printed over several lines (records.py): a range
# never starts there, so each range reads its records whole.
_INSIDE_A_RECORD = (b" ", b"\t", b"}", b"]")


def _line_start_after(handle: BinaryIO, pos: int) -> int:
    """The start of a line at or after `pos` that no wrapped line runs across: the one after a
    row shorter than a terminal (wrapped.py) that does not start inside a record printed over
    several lines (records.py), so each range reads its wrapped lines and records whole and
    the ranges' results equal the sequential scan's; after the next newline when no such row
    is in reach."""
    first = _newline_after(handle, pos)
    handle.seek(first)
    block = handle.read(WRAP_SEARCH_BYTES)
    row_start = 0
    while True:
        newline = block.find(b"\n", row_start)
        if newline == -1:
            return first
        if newline - row_start < WRAP_MIN_CHARS and block[newline + 1 : newline + 2] not in _INSIDE_A_RECORD:
            return first + newline + 1
        row_start = newline + 1


def _newline_after(handle: BinaryIO, pos: int) -> int:
    handle.seek(pos)
    while True:
        block = handle.read(1 << 16)
        if not block:
            return handle.tell()
        newline = block.find(b"\n")
        if newline != -1:
            return pos + newline + 1
        pos += len(block)


def scan_file_parallel(
    path: str,
    name: str,
    index: AnchorIndex,
    count: int,
    on_progress: Callable[[int], None] | None = None,
) -> ScanResult:
    import multiprocessing  # only a large file pays for it (start-up)

    size = os.path.getsize(path)  # like the sequential read: the file as it is now, growth reported
    ranges = plan_ranges(path, count, size)
    # Forked, each worker inherits the index as an argument, unpickled (a compiled matcher does not
    # pickle), and sends back only its Partial: no module state carries the index across the fork.
    context = multiprocessing.get_context("fork")
    # A run's matcher is built on its first large region (accel.Deferred): build it here, once, for
    # every worker to inherit, rather than in each worker after the fork.
    accel.build_now(index.fast)
    started: list[tuple[Any, Connection]] = []
    try:
        for start, end in ranges[:-1]:
            started.append(_start_worker(context, index, path, name, start, end, on_progress is not None))
        progress = _WorkerProgress(started, on_progress)
        own = _scan_range(index, path, name, *ranges[-1], progress.own)  # this core scans too: one fork fewer
        partials = [progress.result_of(worker, results) for worker, results in started]
    except BaseException:  # Ctrl-C, a timeout, a worker's error: end the others now, never wait for their ranges
        _end_workers(started)
        raise
    result = merge_partials(name, [*partials, own], index.limits())
    grown = os.path.getsize(path)
    if grown > size:
        message = f"the file grew from {size} to {grown} bytes while being read; read the first {size} bytes"
        result.problems.append(InputProblem("still-growing", message))
    return result


def _start_worker(
    context: Any, index: AnchorIndex, path: str, name: str, start: int, end: int, reports: bool = False
) -> tuple[Any, Connection]:
    """A worker for one range; `reports`: it sends the bytes of each chunk it read, then its Partial."""
    results, sender = context.Pipe(duplex=False)
    args = (sender, results, os.getpid(), index, path, name, start, end, reports)
    worker = context.Process(target=_scan_range_into, args=args, daemon=True)
    worker.start()
    sender.close()  # the parent keeps only the reading end: a dead worker then reads as end of file
    return worker, results


def _end_workers(started: list[tuple[Any, Connection]]) -> None:
    for worker, _ in started:
        if worker.is_alive():
            worker.terminate()
    for worker, results in started:
        results.close()
        worker.join()


class _WorkerProgress:
    """Every worker's bytes on the progress bar as they are read, not all at the end: a worker
    sends the size of each chunk it read (an int) before its Partial; this process passes them on
    after each chunk of its own range, then while it waits for each worker's result."""

    def __init__(self, started: list[tuple[Any, Connection]], report: Callable[[int], None] | None) -> None:
        self.started = started
        self.report = report
        self.outcomes: dict[int, object] = {}  # a worker's result, read while passing its progress on

    def own(self, got: int) -> None:
        if self.report is None:
            return
        self.report(got)
        for _, results in self.started:
            while id(results) not in self.outcomes and results.poll():
                self._take(results, results.recv())

    def result_of(self, worker: Any, results: Connection) -> Partial:
        try:
            while id(results) not in self.outcomes:
                self._take(results, results.recv())  # before join: a large Partial fills the pipe until read
        except EOFError:
            self.outcomes[id(results)] = RuntimeError(
                f"a scan worker ended without a result (exit code {worker.exitcode})"
            )
        finally:
            results.close()
            worker.join()
        outcome = self.outcomes.pop(id(results))
        if isinstance(outcome, BaseException):
            raise outcome
        assert isinstance(outcome, Partial)
        return outcome

    def _take(self, results: Connection, message: object) -> None:
        if isinstance(message, int) and not isinstance(message, bool):
            if self.report is not None:
                self.report(message)
        else:
            self.outcomes[id(results)] = message


def _scan_range_into(
    sender: Connection,
    inherited: Connection,
    parent: int,
    index: AnchorIndex,
    path: str,
    name: str,
    start: int,
    end: int,
    reports: bool = False,
) -> None:
    # The parent's reading end, inherited by the fork: left open here, the pipe would keep a reader
    # after the parent died, and a send that fills it would wait forever.
    inherited.close()
    _die_with_parent(parent)
    _release_stdio()
    try:
        with watched():  # the parent's timer is not inherited by a fork
            sender.send(_scan_range(index, path, name, start, end, sender.send if reports else None))
    except BaseException as exc:  # reported in the parent, which raises it as the pool did
        sender.send(exc)
    finally:
        sender.close()


def _scan_range(
    index: AnchorIndex, path: str, name: str, start: int, end: int, on_progress: Callable[[int], None] | None = None
) -> Partial:
    with open(path, "rb") as handle:
        handle.seek(max(0, start - BEFORE_BYTES))
        before = handle.read(start - max(0, start - BEFORE_BYTES))
        if start > BEFORE_BYTES:  # drop the cut-off first line: it is no line's start
            before = before[before.find(b"\n") + 1 :]
        handle.seek(end)
        after = handle.read(AFTER_BYTES)
        handle.seek(start)
        stream = Limited(handle, end - start)
        stream.plain_path = path  # plain bytes: read in place, not ahead on a thread (that is for inflating)
        return scan_partial(stream, name, index, CHUNK_BYTES, on_progress, context=(before, after), offset=start)


# ---------------------------------------------------------------- a worker's ties to its parent

PR_SET_PDEATHSIG = 1  # linux/prctl.h
PARENT_POLL_SECONDS = 0.5


def _die_with_parent(parent: int) -> None:
    """End this worker when the process that forked it ends: by a death signal where the kernel
    has one (Linux), else by a thread that watches the parent; and at once if it is gone already."""
    if not _death_signal():
        threading.Thread(target=_watch_parent, args=(parent,), daemon=True).start()
    if os.getppid() != parent:  # it died before the signal was asked for
        os._exit(1)


def _death_signal() -> bool:
    """SIGKILL to this process when its parent thread exits (prctl(PR_SET_PDEATHSIG)); False where unavailable."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        return int(libc.prctl(PR_SET_PDEATHSIG, int(signal.SIGKILL), 0, 0, 0)) == 0
    except (OSError, AttributeError):
        return False


def _watch_parent(parent: int) -> None:
    while os.getppid() == parent:
        threading.Event().wait(PARENT_POLL_SECONDS)
    os._exit(1)


def _release_stdio() -> None:
    """Standard input, output and error on /dev/null: a worker reports only through its pipe, and the
    caller's pipes (`$(...)`, `| tee`, a CI step) must close when the parent does, whatever happens here."""
    devnull = os.open(os.devnull, os.O_RDWR)
    for descriptor in (0, 1, 2):
        os.dup2(devnull, descriptor)
    os.close(devnull)
