"""Ingest: turn the user's paths into readable byte streams, never writing anything.

Files, directories (recursively, symlink loops cut), `-` for stdin, `.gz` and
`.zst` (by their magic bytes, whatever the name), and zip / tar archives read
member by member in memory. Anything that cannot be read becomes an
`InputProblem` on a `LogInput` and the rest is still analysed.
"""

from __future__ import annotations

import gzip
import io
import os
import stat
import sys
import tarfile
import zipfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

import zstandard

from .model import InputProblem

GZIP_MAGIC = b"\x1f\x8b"
ZSTD_MAGIC = b"\x28\xb5\x2f\xfd"
ZIP_MAGIC = b"PK\x03\x04"
MAX_MEMBER_OUTPUT = 8 << 30  # decompressed bytes read from one archive member or compressed file
MAX_FILES = 100_000
BINARY_SNIFF = 8192
SKIP_SUFFIXES = (".png", ".jpg", ".jpeg", ".so", ".pt", ".safetensors", ".bin", ".core", ".whl")


@dataclass(frozen=True, slots=True)
class LogInput:
    """One stream to scan, or (with `open` None) a path that could not be read."""

    name: str
    size: int
    open: Callable[[], BinaryIO] | None
    problems: tuple[InputProblem, ...] = ()
    members: Callable[[], Iterator[tuple[str, BinaryIO]]] | None = None  # a streamed archive


def discover(paths: list[str], stdin: BinaryIO | None = None) -> list[LogInput]:
    found: list[LogInput] = []
    for raw in paths:
        if raw == "-":
            found.append(_stdin_input(stdin))
            continue
        found.extend(_walk(Path(raw)))
    return found


def _stdin_input(stdin: BinaryIO | None) -> LogInput:
    stream = stdin if stdin is not None else sys.stdin.buffer
    return LogInput("<stdin>", 0, lambda: _decompressing(stream))


def _walk(root: Path) -> Iterator[LogInput]:
    try:
        info = root.stat()
    except FileNotFoundError:
        yield _problem(str(root), "not-found", "no such file or directory")
        return
    except PermissionError:
        yield _problem(str(root), "permission-denied", "permission denied")
        return
    except OSError as exc:
        yield _problem(str(root), "unreadable", str(exc))
        return
    if stat.S_ISDIR(info.st_mode):
        yield from _walk_directory(root)
    else:
        yield from _file_inputs(root, str(root), info)


def _walk_directory(root: Path) -> Iterator[LogInput]:
    seen_dirs: set[tuple[int, int]] = set()
    count = 0
    yielded_any = False
    for directory, subdirs, files in os.walk(root, followlinks=True, onerror=None):
        here = Path(directory)
        try:
            key = (here.stat().st_dev, here.stat().st_ino)
        except OSError:
            continue
        if key in seen_dirs:
            subdirs[:] = []
            yield _problem(str(here), "symlink-loop", "directory seen before (symlink loop); skipped")
            continue
        seen_dirs.add(key)
        subdirs.sort()
        for name in sorted(files):
            count += 1
            if count > MAX_FILES:
                yield _problem(str(here), "too-many-files", f"stopped after {MAX_FILES} files")
                return
            path = here / name
            display = str(path)
            try:
                info = path.stat()
            except OSError as exc:
                yield _problem(display, "unreadable", exc.strerror or str(exc))
                continue
            for item in _file_inputs(path, display, info):
                yielded_any = True
                yield item
    if not yielded_any:
        yield _problem(str(root), "empty-directory", "no files in directory")


def _file_inputs(path: Path, display: str, info: os.stat_result) -> Iterator[LogInput]:
    if not stat.S_ISREG(info.st_mode):
        yield _problem(display, "not-a-file", "not a regular file (FIFO, socket or device); skipped")
        return
    if path.name == "expected.toml" or path.suffix.lower() in SKIP_SUFFIXES:
        return
    if not os.access(path, os.R_OK):
        yield _problem(display, "permission-denied", "permission denied")
        return
    if info.st_size == 0:
        yield _problem(display, "empty", "empty file")
        return
    head = _read_head(path)
    if head.startswith(ZIP_MAGIC):
        yield from _zip_inputs(path, display)
    elif _is_tar(path, head):
        yield from _tar_inputs(path, display)
    else:
        yield LogInput(display, info.st_size, lambda: _decompressing(path.open("rb")))


def _read_head(path: Path) -> bytes:
    try:
        with path.open("rb") as handle:
            return handle.read(512)
    except OSError:
        return b""


def _is_tar(path: Path, head: bytes) -> bool:
    name = path.name.lower()
    if name.endswith((".tar", ".tar.gz", ".tgz", ".tar.zst")):
        return True
    return len(head) >= 262 and head[257:262] == b"ustar"


def _problem(name: str, code: str, message: str) -> LogInput:
    return LogInput(name, 0, None, (InputProblem(code, message),))


# ---------------------------------------------------------------- decompression


class _CappedReader(io.RawIOBase):
    """Stops a decompressed stream at MAX_MEMBER_OUTPUT bytes (decompression bombs)."""

    def __init__(self, inner: BinaryIO, cap: int) -> None:
        self.inner = inner
        self.left = cap

    def readable(self) -> bool:
        return True

    def read(self, size: int = -1) -> bytes:
        if self.left <= 0:
            raise EOFError(f"decompressed output cap of {MAX_MEMBER_OUTPUT >> 30} GiB reached")
        data = self.inner.read(min(size if size >= 0 else self.left, self.left))
        self.left -= len(data)
        return data

    def close(self) -> None:
        self.inner.close()
        super().close()


def _decompressing(raw: BinaryIO) -> BinaryIO:
    """Wrap `raw` in the decompressor its magic bytes call for."""
    buffered = raw if isinstance(raw, io.BufferedReader) else io.BufferedReader(_Passthrough(raw))
    magic = buffered.peek(4)[:4]
    if magic.startswith(GZIP_MAGIC):
        return _CappedReader(gzip.GzipFile(fileobj=buffered), MAX_MEMBER_OUTPUT)  # type: ignore[return-value]
    if magic == ZSTD_MAGIC:
        reader = zstandard.ZstdDecompressor().stream_reader(buffered, read_across_frames=True)
        return _CappedReader(reader, MAX_MEMBER_OUTPUT)  # type: ignore[arg-type, return-value]
    return buffered


class _Passthrough(io.RawIOBase):
    def __init__(self, inner: BinaryIO) -> None:
        self.inner = inner

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: bytearray | memoryview) -> int:  # type: ignore[override]
        data = self.inner.read(len(buffer))
        buffer[: len(data)] = data
        return len(data)


# ---------------------------------------------------------------- archives


def _zip_inputs(path: Path, display: str) -> Iterator[LogInput]:
    try:
        with zipfile.ZipFile(path) as archive:
            members = sorted((m for m in archive.infolist() if not m.is_dir()), key=lambda m: m.filename)
    except (zipfile.BadZipFile, OSError, ValueError) as exc:
        yield _problem(display, "corrupt-archive", f"cannot read zip: {exc}")
        return
    for member in members:
        if member.file_size == 0:
            continue
        name = f"{display}!{_safe_member_name(member.filename)}"
        yield LogInput(name, member.compress_size, _zip_opener(path, member.filename))


def _zip_opener(path: Path, member: str) -> Callable[[], BinaryIO]:
    def opener() -> BinaryIO:
        archive = zipfile.ZipFile(path)
        return _decompressing(_CappedReader(archive.open(member), MAX_MEMBER_OUTPUT))  # type: ignore[arg-type]

    return opener


def _tar_inputs(path: Path, display: str) -> Iterator[LogInput]:
    """One input for the whole tar: its members are streamed in one pass, in order."""
    yield LogInput(display, path.stat().st_size, None, (), lambda: _tar_members(path, display))


def _tar_members(path: Path, display: str) -> Iterator[tuple[str, BinaryIO]]:
    handle = _decompressing(path.open("rb"))
    try:
        with tarfile.open(fileobj=handle, mode="r|") as archive:
            for member in archive:
                if not member.isfile() or member.size == 0:
                    continue
                extracted = archive.extractfile(member)
                if extracted is not None:
                    name = f"{display}!{_safe_member_name(member.name)}"
                    yield name, _decompressing(_CappedReader(extracted, MAX_MEMBER_OUTPUT))  # type: ignore[arg-type]
    finally:
        handle.close()


def _safe_member_name(name: str) -> str:
    """Members are only ever read, never written; still, show no absolute or `..` path."""
    parts = [part for part in name.replace("\\", "/").split("/") if part not in ("", ".", "..")]
    return "/".join(parts) or "(unnamed)"


# ---------------------------------------------------------------- re-reading after the scan


def reopen(name: str) -> BinaryIO | None:
    """Open a source again by the name the scan gave it (for evidence context), or None.

    `<stdin>` cannot be read twice; a tar member is found by streaming the tar
    again up to it. Never used by the scan itself.
    """
    path_text, _, member = name.partition("!")
    path = Path(path_text)
    if name == "<stdin>" or not path.is_file():
        return None
    try:
        if not member:
            return _decompressing(path.open("rb"))
        if _read_head(path).startswith(ZIP_MAGIC):
            return _zip_member(path, member)
        return _tar_member(path, path_text, name)
    except (OSError, zipfile.BadZipFile, tarfile.TarError, ValueError, EOFError):
        return None


def _zip_member(path: Path, member: str) -> BinaryIO | None:
    with zipfile.ZipFile(path) as archive:
        names = [info.filename for info in archive.infolist() if _safe_member_name(info.filename) == member]
    return _zip_opener(path, names[0])() if names else None


def _tar_member(path: Path, display: str, name: str) -> BinaryIO | None:
    for member_name, stream in _tar_members(path, display):
        if member_name == name:
            return _TarMemberCopy(stream)  # the tar handle closes when the generator ends
        stream.close()
    return None


class _TarMemberCopy(io.BytesIO):
    """A tar member read into memory, capped: tar streams cannot be reopened mid-way."""

    def __init__(self, stream: BinaryIO, cap: int = 256 << 20) -> None:
        super().__init__(stream.read(cap))
