"""Ingest: turn the user's paths into readable byte streams, never writing anything.

Files, directories (recursively, symlink loops cut), `-` for stdin, `.gz` and
`.zst` (by their magic bytes, whatever the name), and zip / tar archives read
member by member. Anything that cannot be read becomes an `InputProblem` and
the rest is still analysed. The rules for hostile input (see docs and
tests/test_hostile_inputs.py):

- Only regular files are opened, with O_NONBLOCK, and re-checked with fstat
  after opening: a FIFO, socket or device is never read (opening a FIFO would block).
- A plain file is read up to the size it had when it was opened; if it grew
  meanwhile, the scan stops there with a `still-growing` problem (no endless tail).
- Decompression is incremental with a bounded output per step. A truncated or
  corrupt stream keeps everything decoded before the damage (`truncated` /
  `corrupt`). Output is capped per member (Limits.member_output) and per run
  (Limits.total_output): past a cap the member stops with `output-cap`.
- Archives are only read, never extracted: member names are shown without
  absolute or `..` parts and nothing is written anywhere. A gz/zst member is
  decompressed and a tar inside a zip is streamed; a zip inside an archive is not
  opened (`nested-archive`): it needs random access, i.e. holding it in memory
  or writing it to disk, and a tool running on untrusted artifacts does neither.
- Files that look binary (NUL bytes or control characters after any leading NUL
  hole) are skipped with `binary`: a core dump holds copies of log strings that
  would otherwise read as evidence.
- A lone CR (not part of CRLF) is a line break: progress bars redraw with it,
  and each redraw is its own line (line numbers count them).
"""

from __future__ import annotations

import errno
import io
import os
import re
import stat
import sys
import tarfile
import time
import zipfile
import zlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, BinaryIO

import zstandard

from .model import InputProblem
from .options import Limits

DEFAULT_LIMITS = Limits()

GZIP_MAGIC = b"\x1f\x8b"
ZSTD_MAGIC = b"\x28\xb5\x2f\xfd"
ZIP_MAGIC = b"PK\x03\x04"
SNIFF_BYTES = 8192
BINARY_CONTROL_FRACTION = 0.10  # of the sniffed bytes (after a leading NUL hole)
READ_PIECE = 1 << 20  # an inner read never asks for more, so damage loses at most this
GZIP_INPUT_PIECE = 64 << 10
ZSTD_INPUT_PIECE = 1 << 10  # zstd has no output limit per call: ~32 MiB worst case from 1 KiB
HEADER_CHECK = 32  # bytes decoded to tell a real compressed header from text that starts with its magic
FIXTURE_EXPECTATION = "expected.toml"
NOT_A_LOG = "not-a-log"
NOT_LOG_SUFFIXES = frozenset({".md", ".rst", ".toml", ".yaml", ".yml", ".ini", ".cfg", ".py", ".sh", ".rs", ".patch"})
NOT_LOG_STEMS = frozenset({"readme", "expected", "notes", "license", "changelog"})
SKIP_SUFFIXES = (".png", ".jpg", ".jpeg", ".so", ".pt", ".safetensors", ".bin", ".core", ".whl")
_TEXT_CONTROLS = frozenset(b"\t\n\r\x0c\x1b\x08")


class StreamStopped(EOFError):
    """A stream ended early for a known reason; the scanner records `problem` and keeps what it read."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.problem = InputProblem(code, message)


class Budget:
    """The run's caps (options.Limits), and the decompressed bytes left of its total."""

    def __init__(self, limits: Limits = DEFAULT_LIMITS) -> None:
        self.limits = limits
        self.left = limits.total_output


@dataclass(frozen=True, slots=True)
class LogInput:
    """One stream to scan, or (with `open` None) a path that could not be read."""

    name: str
    size: int
    open: Callable[[], BinaryIO] | None
    problems: tuple[InputProblem, ...] = ()
    members: Callable[[], Iterator[tuple[str, BinaryIO]]] | None = None  # a streamed archive


def discover(paths: list[str], stdin: BinaryIO | None = None, limits: Limits = DEFAULT_LIMITS) -> list[LogInput]:
    budget = Budget(limits)
    found: list[LogInput] = []
    for raw in paths:
        if raw == "-":
            found.append(_stdin_input(stdin, budget))
            continue
        found.extend(_walk(Path(raw), budget))
    return found


def _stdin_input(stdin: BinaryIO | None, budget: Budget) -> LogInput:
    stream = stdin if stdin is not None else sys.stdin.buffer
    return LogInput("<stdin>", 0, lambda: text_stream(stream, budget))


# ---------------------------------------------------------------- walking


def _walk(root: Path, budget: Budget) -> Iterator[LogInput]:
    try:
        info = root.stat()
    except OSError as exc:
        yield _problem(str(root), *_os_problem(exc))
        return
    if stat.S_ISDIR(info.st_mode):
        yield from _walk_directory(root, budget)
    else:
        yield from _file_inputs(root, str(root), info, budget)


def _os_problem(exc: OSError) -> tuple[str, str]:
    if isinstance(exc, FileNotFoundError):
        return "not-found", "no such file or directory"
    if isinstance(exc, PermissionError):
        return "permission-denied", "permission denied"
    if exc.errno == errno.ELOOP:
        return "symlink-loop", "too many levels of symbolic links; skipped"
    return "unreadable", exc.strerror or str(exc)


def _walk_directory(root: Path, budget: Budget) -> Iterator[LogInput]:
    seen_dirs: set[tuple[int, int]] = set()
    errors: list[OSError] = []
    count = 0
    yielded_any = False
    for directory, subdirs, files in os.walk(root, followlinks=True, onerror=errors.append):
        while errors:  # a directory os.walk could not list
            exc = errors.pop(0)
            yielded_any = True
            yield _problem(str(exc.filename or directory), *_os_problem(exc))
        here = Path(directory)
        try:
            info = here.stat()
        except OSError:
            continue
        key = (info.st_dev, info.st_ino)
        if key in seen_dirs:
            subdirs[:] = []
            yielded_any = True
            yield _problem(str(here), "symlink-loop", "directory seen before (symlink loop); skipped")
            continue
        seen_dirs.add(key)
        subdirs.sort()
        for name in sorted(files):
            count += 1
            if count > budget.limits.files:
                yield _problem(str(here), "too-many-files", f"stopped after {budget.limits.files} files")
                return
            for item in _directory_entry(here / name, budget):
                yielded_any = True
                yield item
    for exc in errors:
        yielded_any = True
        yield _problem(str(exc.filename or root), *_os_problem(exc))
    if not yielded_any:
        yield _problem(str(root), "empty-directory", "no files in directory")


def _directory_entry(path: Path, budget: Budget) -> Iterator[LogInput]:
    try:
        info = path.stat()
    except OSError as exc:
        yield _problem(str(path), *_os_problem(exc))
        return
    if path.name == FIXTURE_EXPECTATION:
        return  # a fixture bundle's own statement of its meaning
    if _not_a_log(path):
        yield _problem(str(path), NOT_A_LOG, "documentation, notes or source, not a log; skipped (name it to read it)")
        return
    yield from _file_inputs(path, str(path), info, budget)


def _not_a_log(path: Path) -> bool:
    """Files found in a directory walk that are not logs: a notes file or a launcher script
    beside the logs quotes log lines (`echo "[probe] request failed ..."`) without them having happened."""
    name = path.name.lower()
    return path.suffix.lower() in NOT_LOG_SUFFIXES or name.split(".", 1)[0] in NOT_LOG_STEMS


def _file_inputs(path: Path, display: str, info: os.stat_result, budget: Budget) -> Iterator[LogInput]:
    if not stat.S_ISREG(info.st_mode):
        yield _problem(display, "not-a-file", f"{_file_kind(info.st_mode)}, not a regular file; skipped, never read")
        return
    if path.suffix.lower() in SKIP_SUFFIXES:
        return
    if info.st_size == 0:
        yield _problem(display, "empty", "empty file")
        return
    try:
        head = _sniff(lambda: decoded_stream(open_regular(path), budget, sniffing=True))
    except OSError as exc:
        yield _problem(display, *_os_problem(exc))
        return
    if head.startswith(ZIP_MAGIC):
        yield from _zip_inputs(path, display, budget)
    elif _is_tar(head):
        yield LogInput(display, info.st_size, None, (), lambda: _tar_members(path, display, budget))
    elif _looks_binary(head):
        yield _problem(display, "binary", "binary content (not a log); skipped")
    else:
        yield LogInput(display, info.st_size, lambda: text_stream(open_regular(path), budget))


def _file_kind(mode: int) -> str:
    if stat.S_ISFIFO(mode):
        return "a FIFO"
    if stat.S_ISSOCK(mode):
        return "a socket"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    return "not a file"


def _sniff(opener: Callable[[], BinaryIO]) -> bytes:
    """The first decompressed bytes of a stream; damage after them is the scan's business."""
    stream = opener()
    try:
        return stream.read(SNIFF_BYTES)
    except EOFError as exc:
        problem = getattr(exc, "problem", None)
        if problem is not None and problem.code == "output-cap":
            raise
        return b""
    finally:
        stream.close()


def _is_tar(head: bytes) -> bool:
    return len(head) >= 262 and head[257:262] == b"ustar"


def _looks_binary(head: bytes) -> bool:
    # A leading run of NULs is a sparse hole (copytruncate, a crash before a flush),
    # not binary content; what follows it decides.
    body = head.lstrip(b"\0")
    if not body:
        return False
    controls = sum(1 for byte in body if byte < 32 and byte not in _TEXT_CONTROLS)
    return controls > len(body) * BINARY_CONTROL_FRACTION


def _problem(name: str, code: str, message: str) -> LogInput:
    return LogInput(name, 0, None, (InputProblem(code, message),))


# ---------------------------------------------------------------- opening


def open_regular(path: Path) -> BinaryIO:
    """Open a regular file without ever blocking; read up to the size it has now."""
    handle = open_seekable(path, buffering=0)
    limited = _SizeLimited(handle, os.fstat(handle.fileno()).st_size)
    limited.path = str(path)
    return limited  # type: ignore[return-value]


def open_seekable(path: Path, buffering: int = -1) -> BinaryIO:
    """A regular file opened for reading, never blocking (zip needs to seek).

    O_NONBLOCK makes a FIFO swapped in after the stat return at once; fstat
    then refuses anything but a regular file.
    """
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise OSError(errno.EINVAL, f"{_file_kind(info.st_mode)}, not a regular file")
        return os.fdopen(fd, "rb", buffering=buffering)
    except BaseException:
        os.close(fd)
        raise


class _Reader(io.RawIOBase):
    """Base for the stream wrappers: `read(size)` only, closes what it wraps."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        data = self.read(len(buffer))
        buffer[: len(data)] = data
        return len(data)

    def readall(self) -> bytes:
        parts = []
        while data := self.read(READ_PIECE):
            parts.append(data)
        return b"".join(parts)

    def close(self) -> None:
        if not self.closed:
            self.inner.close()
        super().close()


class _SizeLimited(_Reader):
    """A file read up to its size at open time; growth is reported, not followed."""

    def __init__(self, inner: Any, limit: int) -> None:
        super().__init__(inner)
        self.left = limit
        self.limit = limit
        self.path: str | None = None

    def read(self, size: int = -1) -> bytes:
        if self.left <= 0:
            grown = os.fstat(self.inner.fileno()).st_size
            if grown > self.limit:
                self.left = -1  # report once
                raise StreamStopped(
                    "still-growing",
                    f"the file grew from {self.limit} to {grown} bytes while being read; "
                    f"read the first {self.limit} bytes",
                )
            return b""
        want = self.left if size < 0 else min(size, self.left)
        data: bytes = self.inner.read(want)
        self.left -= len(data)
        return data


def text_stream(raw: BinaryIO, budget: Budget | None = None, *, sniffing: bool = False) -> BinaryIO:
    """What the scanner reads: `decoded_stream` with lone CRs made line breaks.

    `plain_path` names the file when the stream is an uncompressed regular file,
    so the scanner may read it in parallel byte ranges instead.
    """
    decoded = decoded_stream(raw, budget, sniffing=sniffing)
    stream = _LoneCr(decoded)
    if isinstance(decoded, _Guarded) and decoded.cap is None:
        stream.plain_path = getattr(raw, "path", None)
    return stream  # type: ignore[return-value]


def decoded_stream(raw: BinaryIO, budget: Budget | None = None, *, sniffing: bool = False) -> BinaryIO:
    """`raw` decompressed by its magic bytes, bomb-capped, and salvaged on damage.

    `sniffing` streams (a peek at the head, a tar read as a container) are not
    charged to the run's budget: the members read from them are.
    """
    buffered = io.BufferedReader(raw if isinstance(raw, io.RawIOBase) else _Passthrough(raw), READ_PIECE)
    magic = buffered.peek(4)[:4]
    if (magic.startswith(GZIP_MAGIC) or magic == ZSTD_MAGIC) and _valid_header(buffered.peek(HEADER_CHECK)):
        inflater = _Inflater(buffered, "gzip" if magic.startswith(GZIP_MAGIC) else "zstd")
        cap = (budget.limits if budget is not None else DEFAULT_LIMITS).member_output
        return _Guarded(inflater, cap, None if sniffing else budget)  # type: ignore[return-value]
    return _Guarded(buffered, None, None)  # type: ignore[return-value]


class _Passthrough(io.RawIOBase):
    def __init__(self, inner: BinaryIO) -> None:
        self.inner = inner

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: bytearray | memoryview) -> int:  # type: ignore[override]
        data = self.inner.read(len(buffer))
        buffer[: len(data)] = data
        return len(data)

    def close(self) -> None:
        self.inner.close()
        super().close()


class _Inflater(_Reader):
    """Incremental gzip / zstd: bounded output per step, multi-member, truncation detected."""

    def __init__(self, inner: Any, kind: str) -> None:
        super().__init__(inner)
        self.kind = kind
        self.obj: Any = self._new()
        self.fed = False
        self.ended = False
        self.out = b""  # decoded but not yet returned (zstd has no per-call output limit)

    def _new(self) -> Any:
        if self.kind == "gzip":
            return zlib.decompressobj(wbits=31)
        return zstandard.ZstdDecompressor().decompressobj()

    def read(self, size: int = -1) -> bytes:
        size = READ_PIECE if size < 0 else size
        while not self.out and not self.ended:
            self.out = self._step(size)
        data, self.out = self.out[:size], self.out[size:]
        return data

    def _step(self, size: int) -> bytes:
        tail = self.obj.unconsumed_tail if self.kind == "gzip" else b""
        if tail:
            return self._decompress(tail, size)
        piece = _read_some(self.inner, GZIP_INPUT_PIECE if self.kind == "gzip" else ZSTD_INPUT_PIECE)
        if not piece:
            self.ended = True
            if self.fed and not self.obj.eof:
                raise StreamStopped("truncated", f"{self.kind} stream ends mid-frame (truncated); read what was there")
            return b""
        if not self.fed:
            piece = piece.lstrip(b"\0")  # NUL padding between or after members
            if not piece:
                return b""
        return self._decompress(piece, size)

    def _decompress(self, data: bytes, size: int) -> bytes:
        self.fed = True
        try:
            out: bytes = self.obj.decompress(data, size) if self.kind == "gzip" else self.obj.decompress(data)
        except (zlib.error, zstandard.ZstdError) as exc:
            self.ended = True
            raise StreamStopped("corrupt", f"corrupt {self.kind} data: {exc}") from None
        if self.obj.eof:  # concatenated members/frames continue with what is left over
            rest = self.obj.unused_data
            self.obj, self.fed = self._new(), False
            if rest:
                self.inner = _Prepend(rest, self.inner)
        return out


class _Prepend(_Reader):
    """Put bytes back in front of a stream."""

    def __init__(self, head: bytes, inner: Any) -> None:
        super().__init__(inner)
        self.head = head

    def read(self, size: int = -1) -> bytes:
        if self.head:
            size = len(self.head) if size < 0 else size
            data, self.head = self.head[:size], self.head[size:]
            return data
        return bytes(self.inner.read(size))


class _Guarded(_Reader):
    """Reads in pieces so damage loses nothing decoded before it; enforces the output caps.

    An error in the middle of a read returns the data so far; the error is
    raised by the next read, as a StreamStopped the scanner records.
    """

    def __init__(self, inner: Any, cap: int | None, budget: Budget | None) -> None:
        super().__init__(inner)
        self.left = cap
        self.cap = cap
        self.budget = budget
        self.error: StreamStopped | None = None

    def read(self, size: int = -1) -> bytes:
        if self.error is not None:
            error, self.error = self.error, None
            raise error
        size = READ_PIECE if size < 0 else size
        parts: list[bytes] = []
        got = 0
        while got < size:
            try:
                data = self._piece(size - got)
            except StreamStopped as exc:
                self.error = exc
                break
            except Exception as exc:  # zipfile, tarfile, lzma, bz2 raise their own types on damage
                self.error = StreamStopped(_damage_code(exc), f"stopped reading early: {exc or type(exc).__name__}")
                break
            if not data:
                break
            parts.append(data)
            got += len(data)
        if not parts and self.error is not None:
            error, self.error = self.error, None
            raise error
        return b"".join(parts)

    def _piece(self, want: int) -> bytes:
        want = min(want, READ_PIECE)
        if self.left is not None:
            if self.left <= 0:
                message = f"decompressed output cap of {self.cap} bytes per member reached; rest not read"
                raise StreamStopped("output-cap", message)
            want = min(want, self.left)
        if self.budget is not None:
            if self.budget.left <= 0:
                raise StreamStopped("output-cap", "decompressed output cap for the whole run reached; rest not read")
            want = min(want, self.budget.left)
        data: bytes = _read_some(self.inner, want)
        if self.left is not None:
            self.left -= len(data)
        if self.budget is not None:
            self.budget.left -= len(data)
        return data


def _valid_header(head: bytes) -> bool:
    """The magic bytes start a real gzip/zstd header (a text line may begin with them by chance)."""
    head = head[:HEADER_CHECK]
    try:
        if head.startswith(GZIP_MAGIC):
            zlib.decompressobj(wbits=31).decompress(head, 1)
        else:
            zstandard.ZstdDecompressor().decompressobj().decompress(head)
    except (zlib.error, zstandard.ZstdError):
        return False
    return True


def _read_some(stream: Any, size: int) -> bytes:
    """One underlying read at most: a buffered `read(n)` that hits an error drops what it had."""
    read1 = getattr(stream, "read1", None)
    data: bytes = read1(size) if read1 is not None else stream.read(size)
    return data


def _damage_code(exc: Exception) -> str:
    return "truncated" if isinstance(exc, EOFError) else "corrupt"


class _LoneCr(_Reader):
    """Turns a CR not followed by LF into LF (same length, so offsets hold)."""

    def __init__(self, inner: Any) -> None:
        super().__init__(inner)
        self.held = b""
        self.error: EOFError | None = None
        self.plain_path: str | None = None

    def read(self, size: int = -1) -> bytes:
        if self.error is not None:
            error, self.error = self.error, None
            raise error
        data: bytes = self.held + self.inner.read(size)
        self.held = b""
        if data.endswith(b"\r"):
            try:
                more = self.inner.read(1)  # one byte decides whether this CR is half a CRLF
            except EOFError as exc:  # raised on the next call, after this data
                self.error, more = exc, b""
            data += more
            if more == b"\r":
                data, self.held = data[:-1], more
        if b"\r" in data and data.count(b"\r") != data.count(b"\r\n"):
            data = _LONE_CR.sub(b"\n", data)
        return data


_LONE_CR = re.compile(rb"\r(?!\n)")


# ---------------------------------------------------------------- archives


def _zip_inputs(path: Path, display: str, budget: Budget) -> Iterator[LogInput]:
    try:
        archive = zipfile.ZipFile(open_seekable(path))
    except (zipfile.BadZipFile, OSError, ValueError, EOFError) as exc:
        yield _problem(display, "corrupt-archive", f"cannot read zip: {exc}")
        return
    with archive:
        members = sorted((m for m in archive.infolist() if not m.is_dir()), key=lambda m: m.filename)
    for member in members:
        if member.file_size == 0:
            continue
        name = f"{display}!{_safe_member_name(member.filename)}"
        yield _member_input(name, member.compress_size, path, member.filename, budget)


def _member_input(name: str, size: int, path: Path, member: str, budget: Budget) -> LogInput:
    try:
        head = _sniff(_zip_opener(path, member, None, text=False))
    except (OSError, zipfile.BadZipFile, RuntimeError, ValueError, NotImplementedError, EOFError) as exc:
        return _problem(name, "unreadable", f"cannot read archive member: {exc}")
    if head.startswith(ZIP_MAGIC):
        return _problem(name, "nested-archive", "a zip inside an archive is not opened; extract it and pass it")
    if _is_tar(head):
        decoded = _zip_opener(path, member, budget, text=False)
        return LogInput(name, size, None, (), lambda: _tar_stream_members(decoded(), name, budget))
    if _looks_binary(head):
        return _problem(name, "binary", "binary content (not a log); skipped")
    return LogInput(name, size, _zip_opener(path, member, budget))


def _zip_opener(path: Path, member: str, budget: Budget | None, text: bool = True) -> Callable[[], BinaryIO]:
    """A member, decompressed (also a .gz/.zst member) and capped; `text` adds the line-break rule."""

    def opener() -> BinaryIO:
        archive = zipfile.ZipFile(open_seekable(path))
        try:
            cap = (budget.limits if budget is not None else DEFAULT_LIMITS).member_output
            raw = _Guarded(_ZipMember(archive, archive.open(member)), cap, budget)
        except BaseException:
            archive.close()
            raise
        wrap = text_stream if text else decoded_stream
        return wrap(raw, budget, sniffing=budget is None)  # type: ignore[arg-type]

    return opener


class _ZipMember(_Reader):
    """A member stream that closes its archive too."""

    def __init__(self, archive: zipfile.ZipFile, inner: Any) -> None:
        super().__init__(inner)
        self.archive = archive

    def read(self, size: int = -1) -> bytes:
        data: bytes = self.inner.read(size)
        return data

    def close(self) -> None:
        if not self.closed:
            self.archive.close()
        super().close()


def _tar_members(path: Path, display: str, budget: Budget) -> Iterator[tuple[str, BinaryIO]]:
    yield from _tar_stream_members(decoded_stream(open_regular(path), budget, sniffing=True), display, budget)


def _tar_stream_members(handle: BinaryIO, display: str, budget: Budget) -> Iterator[tuple[str, BinaryIO]]:
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
                name = f"{display}!{_safe_member_name(member.name)}"
                yield name, _tar_member_stream(extracted, budget)
    finally:
        handle.close()


def _tar_member_stream(extracted: Any, budget: Budget) -> BinaryIO:
    stream = text_stream(_Guarded(_Unclosing(extracted), budget.limits.member_output, budget), budget)  # type: ignore[arg-type]
    try:
        head = stream.read(SNIFF_BYTES)
    except StreamStopped as exc:
        return _Refusal(exc.problem.code, exc.problem.message)  # type: ignore[return-value]
    if head.startswith(ZIP_MAGIC) or _is_tar(head):
        return _Refusal("nested-archive", "an archive inside an archive is not opened; extract it and pass it")  # type: ignore[return-value]
    if _looks_binary(head):
        return _Refusal("binary", "binary content (not a log); skipped")  # type: ignore[return-value]
    return _Prepend(head, stream)  # type: ignore[return-value]


class _Unclosing(_Reader):
    """A tar member: the tar stream itself is closed by its owner."""

    def read(self, size: int = -1) -> bytes:
        data: bytes = self.inner.read(size)
        return data

    def close(self) -> None:
        io.RawIOBase.close(self)


class _Refusal(_Reader):
    """A member we decided not to read: the first read raises the reason."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(io.BytesIO())
        self.reason: StreamStopped | None = StreamStopped(code, message)

    def read(self, size: int = -1) -> bytes:
        reason, self.reason = self.reason, None
        if reason is not None:
            raise reason
        return b""


def _safe_member_name(name: str) -> str:
    """Members are only ever read, never written; still, show no absolute or `..` path."""
    parts = [part for part in name.replace("\\", "/").split("/") if part not in ("", ".", "..")]
    return "/".join(parts) or "(unnamed)"


# ---------------------------------------------------------------- deadline


class Deadline:
    """The global --timeout: streams stop at it, inputs not started are reported."""

    def __init__(self, seconds: float | None) -> None:
        self.at = None if seconds is None else time.monotonic() + seconds

    @property
    def passed(self) -> bool:
        return self.at is not None and time.monotonic() >= self.at

    def wrap(self, stream: BinaryIO) -> BinaryIO:
        return stream if self.at is None else _UntilDeadline(stream, self)  # type: ignore[return-value]


class _UntilDeadline(_Reader):
    def __init__(self, inner: Any, deadline: Deadline) -> None:
        super().__init__(inner)
        self.deadline = deadline
        self.read_bytes = 0

    def read(self, size: int = -1) -> bytes:
        if self.deadline.passed:
            raise StreamStopped("timeout", f"--timeout reached after {self.read_bytes} bytes; the rest was not read")
        data: bytes = self.inner.read(size)
        self.read_bytes += len(data)
        return data


# ---------------------------------------------------------------- re-reading after the scan


def reopen(name: str) -> BinaryIO | None:
    """Open a source again by the name the scan gave it (for evidence context), or None.

    `<stdin>` cannot be read twice; a tar member is found by streaming the tar
    again up to it. Never used by the scan itself. The stream is the same text
    stream the scan read, so line numbers agree.
    """
    path_text, _, member = name.partition("!")
    path = Path(path_text)
    if name == "<stdin>" or not path.is_file():
        return None
    try:
        if not member:
            return text_stream(open_regular(path), Budget())
        if _sniff(lambda: decoded_stream(open_regular(path), Budget(), sniffing=True)).startswith(ZIP_MAGIC):
            return _zip_member(path, member)
        return _tar_member(path, path_text, name)
    except (OSError, zipfile.BadZipFile, tarfile.TarError, ValueError, EOFError, RuntimeError):
        return None


def _zip_member(path: Path, member: str) -> BinaryIO | None:
    with zipfile.ZipFile(open_seekable(path)) as archive:
        names = [info.filename for info in archive.infolist() if _safe_member_name(info.filename) == member]
    return _zip_opener(path, names[0], Budget())() if names else None


def _tar_member(path: Path, display: str, name: str) -> BinaryIO | None:
    members = _tar_members(path, display, Budget())
    for member_name, stream in members:
        if member_name == name:
            return _MemberOfOpenTar(stream, members)  # type: ignore[return-value]
        stream.close()
    return None


class _MemberOfOpenTar(_Reader):
    """A tar member read in place: the tar's generator (which owns the file handle) is
    kept alive until the member is closed, so nothing is copied into memory."""

    def __init__(self, stream: BinaryIO, members: Iterator[tuple[str, BinaryIO]]) -> None:
        super().__init__(stream)
        self.members = members

    def read(self, size: int = -1) -> bytes:
        return bytes(self.inner.read(size))

    def close(self) -> None:
        if not self.closed:
            close_generator = getattr(self.members, "close", None)
            if close_generator is not None:
                close_generator()
        super().close()
