"""Replaying a bundle of logs into files in the order their lines were written (for `--follow`)."""

from __future__ import annotations

import gzip
import heapq
import zlib
from collections.abc import Iterator
from pathlib import Path

from pdlogdoctor.ingest.content import ZIP_MAGIC
from pdlogdoctor.ingest.streams import GZIP_MAGIC, ZSTD_MAGIC, utf16_encoding
from pdlogdoctor.scan.timeline import clean_line, parse_actions_time, parse_stamp

Block = tuple[Path, bytes]  # a stamped line and the untimed lines under it, for one file


def written_as_text(data: bytes) -> bool:
    """A file a server writes line by line (not compressed, not an archive, not UTF-16)."""
    return not data.startswith((GZIP_MAGIC, ZSTD_MAGIC, ZIP_MAGIC)) and utf16_encoding(data[:512]) is None


def blocks(data: bytes) -> list[tuple[float | None, bytes]]:
    """The file's lines in blocks: each line with a time (its own, or the one a runner or collector
    put before it) with the untimed lines under it; lines above the first time, one by one."""
    found: list[tuple[float | None, bytes]] = []
    for line in data.splitlines(keepends=True):
        time = time_of(line)
        if time is not None or not found or found[-1][0] is None:
            found.append((time, line))
        else:
            found[-1] = (found[-1][0], found[-1][1] + line)
    return found


def time_of(line: bytes) -> float | None:
    text, received = clean_line(line.decode("utf-8", errors="replace"))
    stamp = parse_stamp(text) or (parse_actions_time(received) if received else None)
    return stamp.seconds if stamp is not None else None


def as_written(path: Path) -> tuple[Path, bytes] | None:
    """The file as its server wrote it, line by line: a text file as it is; a gzipped text log (kept
    compressed in the fixtures for its size) decompressed, under its name without `.gz`, unless the
    bundle also holds that name. None for what no server writes line by line (archives, UTF-16)."""
    data = path.read_bytes()
    if data.startswith(GZIP_MAGIC) and path.suffix == ".gz" and not path.with_suffix("").exists():
        try:
            data, path = gzip.decompress(data), path.with_suffix("")
        except (OSError, EOFError, zlib.error):
            return None
    return (path, data) if data and written_as_text(data) else None


def carries_times(bundle: Path) -> bool:
    return any(
        time is not None
        for path in bundle.rglob("*")
        if path.is_file() and (written := as_written(path)) is not None
        for time, _ in blocks(written[1])
    )


def in_time_order(bundle: Path, target: Path) -> tuple[list[Block], list[Path]]:
    """Every text file's blocks merged by time, each file's own order kept (gzipped logs as their
    servers wrote them: as_written); and the other files (archives: copied whole before the replay)."""
    queues: list[tuple[Path, list[tuple[float | None, bytes]]]] = []
    whole: list[Path] = []
    for path in sorted(p for p in bundle.rglob("*") if p.is_file()):
        written = as_written(path)
        if written is not None:
            queues.append((target / written[0].relative_to(bundle), blocks(written[1])))
        else:
            whole.append(path)
    return list(_merged(queues)), whole


def _merged(queues: list[tuple[Path, list[tuple[float | None, bytes]]]]) -> Iterator[Block]:
    heap: list[tuple[float, int, int]] = []
    for number, (_, found) in enumerate(queues):
        heapq.heappush(heap, (_key(found[0][0]), number, 0))
    while heap:
        _, number, position = heapq.heappop(heap)
        path, found = queues[number]
        yield path, found[position][1]
        if position + 1 < len(found):
            heapq.heappush(heap, (_key(found[position + 1][0]), number, position + 1))


def _key(time: float | None) -> float:
    return float("-inf") if time is None else time
