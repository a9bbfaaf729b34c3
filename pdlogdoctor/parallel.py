"""Scan one large plain file on every core: newline-aligned byte ranges, merged exactly.

Each worker scans its range with `scan_partial`, given the bytes just before the
range (for the starting timestamp) and just after it (for a traceback that runs
past its end). `merge_partials` renumbers lines and applies the per-pattern event
cap in file order, so the result equals the sequential scan's.
"""

from __future__ import annotations

import io
import itertools
import os
from collections.abc import Callable
from typing import BinaryIO

from .extract import (
    BLOCK_LOOKAHEAD,
    CHUNK_BYTES,
    MAX_LINE_BYTES,
    AnchorIndex,
    Partial,
    ScanResult,
    merge_partials,
    scan_partial,
)
from .ingest import ByteSource
from .ingest.streams import Limited, LoneCr, lone_cr_to_lf
from .model import InputProblem

MIN_PARALLEL_BYTES = 16 << 20  # below this, starting workers costs more than it saves
MIN_RANGE_BYTES = 8 << 20
BEFORE_BYTES = 256 << 10  # room for the stamp lookback's lines before a range
AFTER_BYTES = BLOCK_LOOKAHEAD + MAX_LINE_BYTES


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
    """About 2 ranges per worker (the slower ones even out), each ending after a newline."""
    size = os.path.getsize(path) if size is None else size
    pieces = max(1, min(2 * count, size // MIN_RANGE_BYTES))
    bounds = [0]
    with open(path, "rb") as handle:
        for k in range(1, pieces):
            cut = _newline_after(handle, size * k // pieces)
            if bounds[-1] < cut < size:
                bounds.append(cut)
    bounds.append(size)
    return list(itertools.pairwise(bounds))


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
    from concurrent.futures import ProcessPoolExecutor

    size = os.path.getsize(path)  # like the sequential read: the file as it is now, growth reported
    ranges = plan_ranges(path, count, size)
    context = multiprocessing.get_context("fork")  # workers inherit the index unpickled
    workers = min(count, len(ranges))
    with ProcessPoolExecutor(workers, context, initializer=_hold_index, initargs=(index,)) as pool:
        futures = [pool.submit(_scan_range, path, name, start, end) for start, end in ranges]
        partials = []
        for future, (start, end) in zip(futures, ranges, strict=True):
            partials.append(future.result())
            if on_progress:
                on_progress(end - start)
    result = merge_partials(name, partials, index.limits())
    grown = os.path.getsize(path)
    if grown > size:
        message = f"the file grew from {size} to {grown} bytes while being read; read the first {size} bytes"
        result.problems.append(InputProblem("still-growing", message))
    return result


_WORKER_INDEX: list[AnchorIndex] = []  # filled once in each worker process, never in the parent


def _hold_index(index: AnchorIndex) -> None:
    _WORKER_INDEX.append(index)


def _scan_range(path: str, name: str, start: int, end: int) -> Partial:
    with open(path, "rb") as handle:
        handle.seek(max(0, start - BEFORE_BYTES))
        before = handle.read(start - max(0, start - BEFORE_BYTES))
        if start > BEFORE_BYTES:  # drop the cut-off first line: it is no line's start
            before = before[before.find(b"\n") + 1 :]
        handle.seek(end)
        after = handle.read(AFTER_BYTES)
        handle.seek(start)
        # The same bytes the sequential read sees: lone CRs are line breaks there too.
        context = (lone_cr_to_lf(before), lone_cr_to_lf(after))
        return scan_partial(LoneCr(Limited(handle, end - start)), name, _WORKER_INDEX[0], CHUNK_BYTES, context=context)
