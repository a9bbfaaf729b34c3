"""Zip and tar archives, streamed member by member: only ever read, never extracted.

Member names are shown without absolute or `..` parts and nothing is written
anywhere. A gz/zst member is decompressed and a tar inside a zip is streamed; a
zip inside an archive is not opened (`nested-archive`): it needs random access,
i.e. holding it in memory or writing it to disk, and a tool running on untrusted
artifacts does neither. A zip member whose name claims UTF-8 but is not costs that
name only: it is read under its bytes (shown escaped by the renderers), the rest of
the archive as usual.
"""

from __future__ import annotations

import io
import struct
import tarfile
import zipfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import IO, Any

from ..model import CoreDump
from .content import BINARY, SNIFF_BYTES, ZIP_MAGIC, LogInput, is_tar, looks_binary, sniff, unread
from .coredump import ELF_MAGIC, core_dump, core_problem
from .streams import (
    DEFAULT_LIMITS,
    Budget,
    ByteSource,
    Guarded,
    Prepend,
    Reader,
    Refusal,
    StreamStopped,
    decoded_stream,
    open_regular,
    open_seekable,
    text_stream,
)


def zip_inputs(path: Path, display: str, budget: Budget) -> Iterator[LogInput]:
    try:
        archive = open_zip(path)
    except (zipfile.BadZipFile, OSError, ValueError, EOFError) as exc:
        yield unread(display, "corrupt-archive", f"cannot read zip: {exc}")
        return
    with archive:
        members = sorted(zip_members(archive), key=lambda pair: pair[0])
    for shown_name, member in members:
        if member.file_size == 0:
            continue
        name = f"{display}!{safe_member_name(shown_name)}"
        yield _member_input(name, member.compress_size, path, member.filename, budget)


def open_zip(path: Path) -> zipfile.ZipFile:
    """The archive. Names flagged as UTF-8 (bit 11) that are not make zipfile refuse the whole
    archive: those entries' flags are then cleared as it is read (`_FalseUtf8Names`), so each such
    name reads as bytes and every other member as before."""
    try:
        return zipfile.ZipFile(open_seekable(path))
    except UnicodeDecodeError:
        return zipfile.ZipFile(_FalseUtf8Names(open_seekable(path)))


def zip_members(archive: zipfile.ZipFile) -> Iterator[tuple[str, zipfile.ZipInfo]]:
    """(the name to show, the entry) for each file in the archive; a name read under a cleared
    flag is its bytes decoded as a file name is (UTF-8, other bytes kept as surrogates)."""
    cleared: set[bytes] = getattr(archive.fp, "cleared", set())
    for member in archive.infolist():
        if member.is_dir():
            continue
        raw = member.orig_filename.encode("cp437") if cleared and not member.flag_bits & _UTF8_FLAG else None
        shown = raw.decode("utf-8", "surrogateescape") if raw is not None and raw in cleared else member.filename
        yield shown, member


_UTF8_FLAG = 0x800
_CENTRAL, _LOCAL = b"PK\x01\x02", b"PK\x03\x04"


class _FalseUtf8Names(io.RawIOBase):
    """A zip file read through a lens that clears the UTF-8 flag of every entry whose name is not
    UTF-8, in the central directory and in the entry's local header alike (zipfile compares them)."""

    def __init__(self, inner: IO[bytes]) -> None:
        self.inner = inner
        self.cleared: set[bytes] = set()  # the names read under a cleared flag

    def readable(self) -> bool:
        return True

    def seekable(self) -> bool:
        return True

    def seek(self, offset: int, whence: int = io.SEEK_SET) -> int:
        return self.inner.seek(offset, whence)

    def tell(self) -> int:
        return self.inner.tell()

    def close(self) -> None:
        self.inner.close()
        super().close()

    def read(self, size: int | None = -1, /) -> bytes:
        data = self.inner.read(-1 if size is None else size)
        if data.startswith(_CENTRAL):
            return self._central(bytearray(data))
        if data.startswith(_LOCAL) and len(data) >= 30:
            return self._local(bytearray(data))
        return data

    def readinto(self, buffer: Any) -> int:
        data = self.read(len(buffer))
        buffer[: len(data)] = data
        return len(data)

    def _central(self, data: bytearray) -> bytes:
        """The central directory (zipfile reads it whole): each entry 46 bytes and its name, extra and comment."""
        at = 0
        while data[at : at + 4] == _CENTRAL and at + 46 <= len(data):
            name_length, extra, comment = struct.unpack_from("<HHH", data, at + 28)
            self._clear_if_false(data, at + 8, bytes(data[at + 46 : at + 46 + name_length]))
            at += 46 + name_length + extra + comment
        return bytes(data)

    def _local(self, data: bytearray) -> bytes:
        """A local header (30 bytes, read before its name): the name is looked at ahead."""
        (name_length,) = struct.unpack_from("<H", data, 26)
        name = data[30 : 30 + name_length]
        if len(name) < name_length:
            back = self.inner.tell()
            name = bytearray(self.inner.read(name_length))
            self.inner.seek(back)
        self._clear_if_false(data, 6, bytes(name))
        return bytes(data)

    def _clear_if_false(self, data: bytearray, flag_at: int, name: bytes) -> None:
        (flags,) = struct.unpack_from("<H", data, flag_at)
        if not flags & _UTF8_FLAG:
            return
        try:
            name.decode("utf-8")
        except UnicodeDecodeError:
            struct.pack_into("<H", data, flag_at, flags & ~_UTF8_FLAG)
            self.cleared.add(name)


def _member_input(name: str, size: int, path: Path, member: str, budget: Budget) -> LogInput:
    try:
        head = sniff(zip_opener(path, member, None, text=False))
    except (OSError, zipfile.BadZipFile, RuntimeError, ValueError, NotImplementedError, EOFError) as exc:
        return unread(name, "unreadable", f"cannot read archive member: {exc}")
    if head.startswith(ZIP_MAGIC):
        return unread(name, "nested-archive", "a zip inside an archive is not opened; extract it and pass it")
    if is_tar(head):
        decoded = zip_opener(path, member, budget, text=False)
        return LogInput(name, size, None, (), lambda: _tar_stream_members(decoded(), name, budget))
    if looks_binary(head) or head.startswith(ELF_MAGIC):
        core = core_dump(_base_name(name), head, None, None)
        if core is not None:
            return LogInput(name, size, None, (core_problem(core),), core=core)
        return unread(name, BINARY, "binary content (not a log); skipped")
    return LogInput(name, size, zip_opener(path, member, budget))


def zip_opener(path: Path, member: str, budget: Budget | None, text: bool = True) -> Callable[[], Reader]:
    """A member, decompressed (also a .gz/.zst member) and capped; `text` adds the line-break rule."""

    def opener() -> Reader:
        archive = open_zip(path)
        try:
            cap = (budget.limits if budget is not None else DEFAULT_LIMITS).member_output
            raw = Guarded(_ZipMember(archive, archive.open(member)), cap, budget)
        except BaseException:
            archive.close()
            raise
        wrap = text_stream if text else decoded_stream
        return wrap(raw, budget, sniffing=budget is None)

    return opener


class _ZipMember(Reader):
    """A member stream that closes its archive too."""

    def __init__(self, archive: zipfile.ZipFile, inner: IO[bytes]) -> None:
        super().__init__(inner)
        self.archive = archive

    def close(self) -> None:
        if not self.closed:
            self.archive.close()
        super().close()


def tar_members(path: Path, display: str, budget: Budget) -> Iterator[tuple[str, Reader]]:
    yield from _tar_stream_members(decoded_stream(open_regular(path), budget, sniffing=True), display, budget)


def _tar_stream_members(handle: Reader, display: str, budget: Budget) -> Iterator[tuple[str, Reader]]:
    """Members in one streamed pass; a member that is not a log yields a stream that says why."""
    # The tar as a whole is not budgeted (sniffing=True above): its members are.
    try:
        with tarfile.open(fileobj=handle, mode="r|") as archive:
            for member in archive:
                if not member.isfile() or member.size == 0:
                    continue
                extracted = archive.extractfile(member)
                if extracted is None:
                    continue
                name = f"{display}!{safe_member_name(member.name)}"
                yield name, _tar_member_stream(extracted, budget, name, float(member.mtime))
    finally:
        handle.close()


def _tar_member_stream(extracted: ByteSource, budget: Budget, name: str = "", modified: float | None = None) -> Reader:
    stream = text_stream(Guarded(_Unclosing(extracted), budget.limits.member_output, budget), budget)
    try:
        head = stream.read(SNIFF_BYTES)
    except StreamStopped as exc:
        return Refusal(exc.problem.code, exc.problem.message)
    if head.startswith(ZIP_MAGIC) or is_tar(head):
        return Refusal("nested-archive", "an archive inside an archive is not opened; extract it and pass it")
    if looks_binary(head) or head.startswith(ELF_MAGIC):
        core = core_dump(_base_name(name), head, None, modified)
        if core is not None:
            return _CoreDump(core)
        return Refusal(BINARY, "binary content (not a log); skipped")
    return Prepend(head, stream)


class _Unclosing(Reader):
    """A tar member: the tar stream itself is closed by its owner."""

    def close(self) -> None:
        io.RawIOBase.close(self)


class _CoreDump(Refusal):
    """A core dump among a tar's members: never read as a log; its header was (coredump.py)."""

    def __init__(self, core: CoreDump) -> None:
        problem = core_problem(core)
        super().__init__(problem.code, problem.message)
        self.core = core


def _base_name(name: str) -> str:
    """A member's own file name: `logs.zip!nightly/core.123` -> `core.123`."""
    return name.rsplit("!", 1)[-1].rsplit("/", 1)[-1]


def safe_member_name(name: str) -> str:
    """Members are only ever read, never written; still, show no absolute or `..` path."""
    parts = [part for part in name.replace("\\", "/").split("/") if part not in ("", ".", "..")]
    return "/".join(parts) or "(unnamed)"
