"""Zip and tar archives, streamed member by member: only ever read, never extracted.

Member names are shown without absolute or `..` parts and nothing is written
anywhere. A gz/zst member is decompressed and a tar inside a zip is streamed; a
zip inside an archive is not opened (`nested-archive`): it needs random access,
i.e. holding it in memory or writing it to disk, and a tool running on untrusted
artifacts does neither.
"""

from __future__ import annotations

import io
import tarfile
import zipfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import IO

from .content import SNIFF_BYTES, ZIP_MAGIC, LogInput, is_tar, looks_binary, sniff, unread
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
        archive = zipfile.ZipFile(open_seekable(path))
    except (zipfile.BadZipFile, OSError, ValueError, EOFError) as exc:
        yield unread(display, "corrupt-archive", f"cannot read zip: {exc}")
        return
    with archive:
        members = sorted((m for m in archive.infolist() if not m.is_dir()), key=lambda m: m.filename)
    for member in members:
        if member.file_size == 0:
            continue
        name = f"{display}!{safe_member_name(member.filename)}"
        yield _member_input(name, member.compress_size, path, member.filename, budget)


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
    if looks_binary(head):
        return unread(name, "binary", "binary content (not a log); skipped")
    return LogInput(name, size, zip_opener(path, member, budget))


def zip_opener(path: Path, member: str, budget: Budget | None, text: bool = True) -> Callable[[], Reader]:
    """A member, decompressed (also a .gz/.zst member) and capped; `text` adds the line-break rule."""

    def opener() -> Reader:
        archive = zipfile.ZipFile(open_seekable(path))
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
                yield name, _tar_member_stream(extracted, budget)
    finally:
        handle.close()


def _tar_member_stream(extracted: ByteSource, budget: Budget) -> Reader:
    stream = text_stream(Guarded(_Unclosing(extracted), budget.limits.member_output, budget), budget)
    try:
        head = stream.read(SNIFF_BYTES)
    except StreamStopped as exc:
        return Refusal(exc.problem.code, exc.problem.message)
    if head.startswith(ZIP_MAGIC) or is_tar(head):
        return Refusal("nested-archive", "an archive inside an archive is not opened; extract it and pass it")
    if looks_binary(head):
        return Refusal("binary", "binary content (not a log); skipped")
    return Prepend(head, stream)


class _Unclosing(Reader):
    """A tar member: the tar stream itself is closed by its owner."""

    def close(self) -> None:
        io.RawIOBase.close(self)


def safe_member_name(name: str) -> str:
    """Members are only ever read, never written; still, show no absolute or `..` path."""
    parts = [part for part in name.replace("\\", "/").split("/") if part not in ("", ".", "..")]
    return "/".join(parts) or "(unnamed)"
