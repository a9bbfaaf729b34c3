"""The searcher's reader: one source's bytes in a reused window, and the lines around a position.

Reads are sized by `ingest.streams.read_sizes`; a decompressing stream is read ahead on a thread.
Nothing here knows a pattern: the searcher (search.py) finds anchors in what this reads.
"""

from __future__ import annotations

import io
import queue
import threading
import zlib
from collections.abc import Iterator

from ..ingest import ByteSource, StreamStopped
from ..ingest.streams import read_into, read_sizes
from ..model import InputProblem

CHUNK_BYTES = 8 << 20
PREFETCH_MIN_CHUNK = 1 << 20  # smaller reads (tests) stay on one thread
PREFETCH_CHUNKS = 2  # decompressed chunks read ahead: bounded memory
MAX_LINE_BYTES = 64 << 10  # what we keep of one line around an anchor
NEWLINE = ord("\n")

# What the scan reads: the bytes in front are a window's, the rest stale (bytearray: reused buffer).
Buffer = bytes | bytearray


class Window:
    """One source's bytes as the scan sees them, in one bytearray reused from read to read: the
    unfinished tail the last scan left at the front, fresh bytes after it. A plain file is read
    into it in place: no fresh buffer per read, no join of pieces, no join of tail and chunk.

    The first read is small, the next ones chunk_bytes (read_sizes), the buffer growing once:
    zeroing a buffer for a whole chunk up front cost a one-line file ~5 ms of its start-up (the
    scan does not depend on where reads end: tests/test_scanner.py)."""

    def __init__(self, chunk_bytes: int, size: int | None = None) -> None:
        self.chunk_bytes = chunk_bytes
        self.size = size  # the source's, when known
        self.sizes = read_sizes(chunk_bytes, size)  # `size`: the source's, when known
        self.reading = next(self.sizes)  # the next read's size
        self.data = bytearray(_with_tail_room(self.reading))
        self.end = 0  # data[:end] is the source's; the rest is stale
        self.short = False  # the last read gave less than it asked for (the end, or a slow pipe)

    def read(self, stream: ByteSource, problems: list[InputProblem]) -> int:
        """Up to `reading` more bytes from `stream`: how many; 0 at the end (early: a problem says why).
        After a short read the buffer grows only once full: the read that finds the end needs no
        chunk-sized buffer (~5 ms for a one-line stdin)."""
        size = self.reading
        if not self.short or self.end == len(self.data):
            self._room(size)
        stop = min(self.end + size, len(self.data))
        try:
            got = read_into(stream, self.data, self.end, stop)
        except Exception as exc:
            problems.append(_read_problem(exc))
            return 0
        self.short = got < stop - self.end
        self.end += got
        self.reading = next(self.sizes)
        return got

    def append(self, data: bytes) -> None:
        self._room(len(data))
        self.data[self.end : self.end + len(data)] = data
        self.end += len(data)

    def drop_before(self, cut: int) -> None:
        """Keep data[cut:end] only, moved to the front (usually a few lines: the lookahead)."""
        if cut:
            self.data[: self.end - cut] = self.data[cut : self.end]
            self.end -= cut

    def _room(self, size: int) -> None:
        """Grow when reads grow, or when the tail is long (a long line, a traceback waiting for its end)."""
        if self.end + size > len(self.data):
            grown = bytearray(max(self.end + _with_tail_room(size), 2 * len(self.data)))
            grown[: self.end] = memoryview(self.data)[: self.end]
            self.data = grown


def _with_tail_room(read: int) -> int:
    """A buffer for reads of `read` bytes, with room for the usual tail in front: no growth."""
    return read + read // 8


def fills(window: Window, stream: ByteSource, problems: list[InputProblem]) -> Iterator[int]:
    """Fill `window` read by read; yields how many bytes each read added.

    A decompressing stream is read ahead on a thread: zstd and zlib release the GIL,
    so the next chunk inflates on the other core while this one is matched.
    """
    if window.chunk_bytes >= PREFETCH_MIN_CHUNK and not _is_plain(stream):
        for data in _read_ahead(stream, problems, window.chunk_bytes):
            window.append(data)
            yield len(data)
        return
    while got := window.read(stream, problems):
        yield got


def _is_plain(stream: ByteSource) -> bool:
    raw = getattr(stream, "raw", None)
    return getattr(stream, "plain_path", None) is not None or isinstance(raw, io.FileIO)


def _read_ahead(stream: ByteSource, problems: list[InputProblem], size: int) -> Iterator[bytes]:
    ready: queue.Queue[bytes | None] = queue.Queue(maxsize=PREFETCH_CHUNKS)
    stop = threading.Event()
    found: list[InputProblem] = []  # problems are handed over only after the last chunk

    def hand_over(item: bytes | None) -> bool:
        """Queue an item for the consumer; False once the consumer has stopped reading."""
        while not stop.is_set():
            try:
                ready.put(item, timeout=0.1)
                return True
            except queue.Full:
                continue
        return False

    def produce() -> None:
        try:
            for data in _read_chunks(stream, found, size):
                if not hand_over(data):
                    return
        finally:
            hand_over(None)

    worker = threading.Thread(target=produce, name="pdlogdoctor-read-ahead", daemon=True)
    worker.start()
    try:
        while (data := ready.get()) is not None:
            yield data
    finally:
        stop.set()  # the consumer may stop early: let the reader end instead of blocking
        worker.join()
        problems.extend(found)


def _read_chunks(stream: ByteSource, problems: list[InputProblem], size: int) -> Iterator[bytes]:
    while True:
        try:
            data = stream.read(size)
        except Exception as exc:
            problems.append(_read_problem(exc))
            return
        if not data:
            return
        yield data


def _read_problem(exc: Exception) -> InputProblem:
    """Why a read stopped early: a truncated or corrupt stream ends the source, it is no error."""
    if isinstance(exc, StreamStopped):  # ingest knows why: truncated, output cap, still growing, timeout
        return exc.problem
    if isinstance(exc, (EOFError, zlib.error, OSError, ValueError)):
        return InputProblem("truncated", f"stopped reading early: {exc or type(exc).__name__}")
    return InputProblem("corrupt", f"stopped reading early: {exc}")  # zstandard raises its own error type


def line_start(buf: Buffer, pos: int) -> int:
    floor = max(0, pos - MAX_LINE_BYTES)
    newline = buf.rfind(b"\n", floor, pos)
    return newline + 1 if newline != -1 else floor


def line_end(buf: Buffer, pos: int, end: int) -> int:
    ceiling = min(end, pos + MAX_LINE_BYTES)
    newline = buf.find(b"\n", pos, ceiling)
    return newline if newline != -1 else ceiling


class Newlines:
    """The newlines of one buffer, counted once from left to right: the line numbers of its hits
    and the buffer's line total share one pass (`bytes.count` is most of the scan's cost after
    the matcher)."""

    def __init__(self, buf: Buffer) -> None:
        self.buf = buf
        self.counted_to = 0
        self.count = 0

    def before(self, pos: int) -> int:
        """Newlines in buf[:pos]; `pos` never decreases from one call to the next."""
        self.count += self.buf.count(b"\n", self.counted_to, pos)
        self.counted_to = pos
        return self.count
