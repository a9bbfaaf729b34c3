"""Re-reading a source after the scan, by the name the scan gave it (for the evidence excerpt)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from .content import SNIFF_BYTES, ZIP_MAGIC, sniff
from .streams import Budget, Reader, decoded_stream, open_regular, text_stream

_STOPS = (OSError, ValueError, EOFError, RuntimeError)  # what opening a source again may raise


def reopen(name: str) -> Reader | None:
    """Open a source again by the name the scan gave it, or None; the stream ends where the scan's
    stopped (a read that fails part-way reads as the end, never an error).

    `<stdin>` cannot be read twice; a tar member is found by streaming the tar
    again up to it. Never used by the scan itself. The stream is the same text
    stream the scan read, so line numbers agree.
    """
    stream = _reopened(name)
    return None if stream is None else _EndsWhereItStops(stream)


def _reopened(name: str) -> Reader | None:
    path_text, _, member = name.partition("!")
    path = Path(path_text)
    if name == "<stdin>" or not path.is_file():
        return None
    if not member:
        try:
            return text_stream(open_regular(path), Budget())
        except _STOPS:
            return None
    import tarfile  # archives only when a member is asked for (start-up)
    import zipfile

    try:
        if sniff(
            lambda: decoded_stream(open_regular(path), Budget(), sniffing=True, buffer_size=SNIFF_BYTES)
        ).startswith(ZIP_MAGIC):
            return _zip_member(path, member)
        return _tar_member(path, path_text, name)
    except (zipfile.BadZipFile, tarfile.TarError, *_STOPS):
        return None


class _EndsWhereItStops(Reader):
    """A re-read stream whose failure part-way is its end. Whatever a read raises (StreamStopped:
    a text-less head, a truncated frame, a cap; zlib's or zstandard's own errors) stopped the scan's
    read too, which recorded it as the input's problem (scan/reader._read_problem), so the second
    read ends there as well: a bomb of NULs made describe/quiet raise it as a traceback."""

    def __init__(self, stream: Reader) -> None:
        super().__init__(stream)
        self.plain_path = stream.plain_path
        self.stopped = False

    def read(self, size: int = -1, /) -> bytes:
        if self.stopped:
            return b""
        try:
            return self.inner.read(size)
        except Exception:  # as scan/reader._read_chunks: any damage ends the stream
            self.stopped = True
            return b""


def _zip_member(path: Path, member: str) -> Reader | None:
    from .archives import open_zip, safe_member_name, zip_members, zip_opener

    with open_zip(path) as archive:
        names = [info.filename for shown, info in zip_members(archive) if safe_member_name(shown) == member]
    return zip_opener(path, names[0], Budget())() if names else None


def _tar_member(path: Path, display: str, name: str) -> Reader | None:
    from .archives import tar_members

    members = tar_members(path, display, Budget())
    for member_name, stream in members:
        if member_name == name:
            return _MemberOfOpenTar(stream, members)
        stream.close()
    return None


class _MemberOfOpenTar(Reader):
    """A tar member read in place: the tar's generator (which owns the file handle) is
    kept alive until the member is closed, so nothing is copied into memory."""

    def __init__(self, stream: Reader, members: Iterator[tuple[str, Reader]]) -> None:
        super().__init__(stream)
        self.members = members

    def close(self) -> None:
        if not self.closed:
            close_generator = getattr(self.members, "close", None)
            if close_generator is not None:
                close_generator()
        super().close()
