"""Streams: open a regular file safely and read it as the scanner sees it.

Every stream here is a `Reader` over a `ByteSource` (anything with `read(size)`
and `close()`): a file read up to its size at open time, gzip / zstd inflated by
magic bytes with bounded output per step, salvaged on damage and capped against
decompression bombs. Lines end at LF (a CRLF's CR is the line's last byte, taken
off with it): a lone CR is text, as grep, sed and an editor count lines. See the
package docstring for the rules on hostile input.
"""

from __future__ import annotations

import codecs
import errno
import io
import os
import stat
import sys
import time
import zlib
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, BinaryIO, Protocol

from ..model import InputProblem
from ..model.options import Limits
from .exports import EXPORT_SNIFF_BYTES, MAX_EXPORT_BYTES, export_lines, looks_like_export

DEFAULT_LIMITS = Limits()

GZIP_MAGIC = b"\x1f\x8b"
ZSTD_MAGIC = b"\x28\xb5\x2f\xfd"
READ_PIECE = 1 << 20  # an inner read never asks for more, so damage loses at most this
FIRST_READ = 64 << 10  # a source's first read from its start (read_sizes)
GZIP_INPUT_PIECE = 64 << 10
ZSTD_INPUT_PIECE = 1 << 10  # zstd has no output limit per call: ~32 MiB worst case from 1 KiB
HEADER_CHECK = 32  # bytes decoded to tell a real compressed header from text that starts with its magic


class ByteSource(Protocol):
    """What every stream reads from and what the scanner reads: bytes on demand, then close."""

    def read(self, size: int = -1, /) -> bytes: ...

    def close(self) -> None: ...


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


class Reader(io.RawIOBase):
    """Base of every stream here: `read(size)` from an inner source; closing closes it.

    `plain_path` names the file when the stream is an uncompressed regular file,
    so the scanner may read it in parallel byte ranges instead.

    `readinto` passes the caller's buffer down where a layer allows it, so the scanner
    reads a plain file into its own reused buffer with no copy but the kernel's.
    """

    plain_path: str | None = None

    def __init__(self, inner: ByteSource) -> None:
        self.inner = inner

    def readable(self) -> bool:
        return True

    def read(self, size: int = -1, /) -> bytes:
        return self.inner.read(size)

    def readinto(self, buffer: Any) -> int:
        data = self.read(len(buffer))
        buffer[: len(data)] = data
        return len(data)

    def read_into(self, buffer: bytearray, start: int, stop: int) -> int:
        """Up to stop - start bytes into buffer[start:stop]: how many (0 at the end)."""
        return self.readinto(memoryview(buffer)[start:stop])

    def readall(self) -> bytes:
        parts = []
        while data := self.read(READ_PIECE):
            parts.append(data)
        return b"".join(parts)

    def close(self) -> None:
        if not self.closed:
            self.inner.close()
        super().close()


def disk_position(stream: object) -> Callable[[], int] | None:
    """How far into its file on disk `stream` has read, for a progress bar whose total is the
    files' sizes: a .gz's compressed bytes, never the text they inflate to. Found by walking the
    layers (`inner`, a buffer's `raw`) down to the file; None when no file lies under it (a pipe)."""
    layer = stream
    for _ in range(MAX_LAYERS):
        if isinstance(layer, io.FileIO):  # a pipe (stdin from `cat`) cannot tell: ESPIPE
            return layer.tell if layer.seekable() else None
        layer = getattr(layer, "inner", None) or getattr(layer, "raw", None)
        if layer is None:
            return None
    return None


MAX_LAYERS = 16  # readers wrapped around one file: decoding, caps, the deadline, a buffer


# ---------------------------------------------------------------- opening


def open_regular(path: Path) -> Reader:
    """Open a regular file without ever blocking; read up to the size it has now."""
    handle = open_seekable(path, buffering=0)
    limited = SizeLimited(handle, os.fstat(handle.fileno()).st_size)
    limited.plain_path = str(path)
    return limited


def open_seekable(path: Path, buffering: int = -1) -> BinaryIO:
    """A regular file opened for reading, never blocking (zip needs to seek).

    O_NONBLOCK makes a FIFO swapped in after the stat return at once; fstat
    then refuses anything but a regular file.
    """
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise OSError(errno.EINVAL, f"{file_kind(info.st_mode)}, not a regular file")
        return os.fdopen(fd, "rb", buffering=buffering)
    except BaseException:
        os.close(fd)
        raise


def file_kind(mode: int) -> str:
    if stat.S_ISFIFO(mode):
        return "a FIFO"
    if stat.S_ISSOCK(mode):
        return "a socket"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    return "not a file"


class Limited(Reader):
    """The first `limit` bytes of a source (a file as it was when opened, a byte range of it)."""

    def __init__(self, inner: ByteSource, limit: int) -> None:
        super().__init__(inner)
        self.left = limit
        self.limit = limit

    def read(self, size: int = -1, /) -> bytes:
        if self.left <= 0:
            return b""
        want = self.left if size < 0 else min(size, self.left)
        data = self.inner.read(want)
        self.left -= len(data)
        return data

    def readinto(self, buffer: Any) -> int:
        if self.left <= 0:
            return 0
        got = readinto(self.inner, memoryview(buffer)[: self.left])
        self.left -= got
        return got


class SizeLimited(Limited):
    """A file read up to its size at open time; growth is reported, not followed."""

    def __init__(self, inner: BinaryIO, limit: int) -> None:
        super().__init__(inner, limit)
        self.file = inner

    def read(self, size: int = -1, /) -> bytes:
        self._check_growth()
        return super().read(size)

    def readinto(self, buffer: Any) -> int:
        self._check_growth()
        return super().readinto(buffer)

    def _check_growth(self) -> None:
        if self.left == 0:
            grown = os.fstat(self.file.fileno()).st_size
            if grown > self.limit:
                self.left = -1  # report once
                raise StreamStopped(
                    "still-growing",
                    f"the file grew from {self.limit} to {grown} bytes while being read; "
                    f"read the first {self.limit} bytes",
                )


# ---------------------------------------------------------------- decoding


def text_stream(
    raw: ByteSource, budget: Budget | None = None, *, sniffing: bool = False, buffer_size: int = READ_PIECE
) -> Reader:
    """What the scanner reads: `decoded_stream`, whose lines end at LF (or CRLF) as the file's do.
    A stream that is not a plain file stops when its head holds no text (`TextlessHead`)."""
    decoded = decoded_stream(raw, budget, sniffing=sniffing, buffer_size=buffer_size)
    if decoded.cap is None and not isinstance(
        decoded.inner, Utf16ToUtf8 | ExportLines
    ):  # the file's bytes are the text's
        decoded.plain_path = getattr(raw, "plain_path", None)
    if decoded.plain_path is not None or budget is None:
        return decoded  # a plain file's NUL hole (copytruncate) is as long as the file: read it all
    return TextlessHead(decoded, budget.limits.binary_head)


# ---------------------------------------------------------------- what is not text

BINARY_CONTROL_FRACTION = 0.10  # of the sniffed bytes (after a leading NUL hole)
_TEXT_CONTROLS = b"\t\n\r\x0c\x1b\x08"
_BINARY_CONTROLS = bytes(byte for byte in range(32) if byte not in _TEXT_CONTROLS)


def looks_binary(head: bytes) -> bool:
    """Control bytes (other than tab, line breaks, form feed, escape, backspace) in more than a tenth of
    `head`. A leading run of NULs is a sparse hole (copytruncate, a crash before a flush), not binary
    content; what follows it decides."""
    body = head.lstrip(b"\0")
    if not body:
        return False
    controls = len(body) - len(body.translate(None, _BINARY_CONTROLS))
    return controls > len(body) * BINARY_CONTROL_FRACTION


def holds_text(data: bytes) -> bool:
    """Some bytes other than NUL, and not binary."""
    body = data.replace(b"\0", b"")
    return bool(body) and not looks_binary(body)


class TextlessHead(Reader):
    """A stream that is not a plain file (an archive member, a decompressed file, standard input)
    read until it shows text; when its first `limit` bytes hold none (only NULs, as in a zip of
    zeros or /dev/zero, or binary), it stops: the caps bound bytes, and such bytes cost time for
    nothing. Once text is seen, reads pass through untouched."""

    def __init__(self, inner: ByteSource, limit: int) -> None:
        super().__init__(inner)
        self.limit = limit
        self.seen: int | None = 0  # textless bytes so far; None once text was seen

    def read(self, size: int = -1, /) -> bytes:
        data = bytes(self.inner.read(size))
        if self.seen is not None and data:
            self._check(data)
        return data

    def readinto(self, buffer: Any) -> int:
        got = _readinto_some(self.inner, memoryview(buffer))
        if self.seen is not None and got:
            self._check(bytes(memoryview(buffer)[:got]))
        return got

    def _check(self, data: bytes) -> None:
        assert self.seen is not None
        if holds_text(data):
            self.seen = None
            return
        self.seen += len(data)
        if self.seen >= self.limit:
            mib = self.limit / (1 << 20)
            raise StreamStopped("binary", f"no text in the first {mib:g} MiB (only NUL or binary bytes); rest not read")


class Refusal(Reader):
    """A stream we decided not to read: the first read raises the reason."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(io.BytesIO())
        self.reason: StreamStopped | None = StreamStopped(code, message)

    def read(self, size: int = -1, /) -> bytes:
        reason, self.reason = self.reason, None
        if reason is not None:
            raise reason
        return b""


def decoded_stream(
    raw: ByteSource, budget: Budget | None = None, *, sniffing: bool = False, buffer_size: int = READ_PIECE
) -> Guarded:
    """`raw` decompressed by its magic bytes, bomb-capped, and salvaged on damage.

    `sniffing` streams (a peek at the head, a tar read as a container) are not
    charged to the run's budget: the members read from them are.

    `buffer_size`: the first raw read (the peek at the magic bytes reads a whole buffer). A look
    at a file's head passes a small one: with READ_PIECE each look read a MiB of every file, and
    `--follow` looks at every file of a directory each time the directory changes.
    """
    buffered = io.BufferedReader(raw if isinstance(raw, io.RawIOBase) else Reader(raw), buffer_size)
    magic = buffered.peek(4)[:4]
    if (magic.startswith(GZIP_MAGIC) or magic == ZSTD_MAGIC) and _valid_header(buffered.peek(HEADER_CHECK)):
        inflater = _Inflater(buffered, "gzip" if magic.startswith(GZIP_MAGIC) else "zstd")
        cap = (budget.limits if budget is not None else DEFAULT_LIMITS).member_output
        return Guarded(inflater, cap, None if sniffing else budget)
    encoding = utf16_encoding(buffered.peek(UTF16_SNIFF_BYTES)[:UTF16_SNIFF_BYTES])
    if encoding is not None:
        return Guarded(Utf16ToUtf8(buffered, encoding), None, None)
    if looks_like_export(buffered.peek(EXPORT_SNIFF_BYTES)[:EXPORT_SNIFF_BYTES]):
        return Guarded(ExportLines(buffered), None, None)
    return Guarded(buffered, None, None)


class ExportLines(Reader):
    """A log export saved as one JSON document, read as its log lines (exports.py); a document
    that holds none, or is bigger than MAX_EXPORT_BYTES, is read as it is."""

    def __init__(self, inner: ByteSource) -> None:
        super().__init__(inner)
        self.head: bytes | None = None

    def read(self, size: int = -1, /) -> bytes:
        if self.head is None:
            self.head = self._lines_or_document()
        if self.head:
            size = len(self.head) if size < 0 else size
            data, self.head = self.head[:size], self.head[size:]
            return data
        return bytes(self.inner.read(size))

    def _lines_or_document(self) -> bytes:
        parts, total = [], 0
        while total <= MAX_EXPORT_BYTES and (data := self.inner.read(READ_PIECE)):
            parts.append(data)
            total += len(data)
        document = b"".join(parts)
        lines = export_lines(document) if total <= MAX_EXPORT_BYTES else None
        return document if lines is None else lines


# ---------------------------------------------------------------- UTF-16 text

UTF16_SNIFF_BYTES = 512


def utf16_encoding(head: bytes) -> str | None:
    """The codec of a UTF-16 log, else None. Windows PowerShell's `>` and `Tee-Object` write
    UTF-16 with a byte-order mark (trusted when what follows reads as text); some collectors
    write it without one, when ASCII text shows as a NUL in every other byte (a leading run of
    NULs alone is a sparse hole, not UTF-16). Read as bytes, such a log looked binary and was
    skipped whole."""
    marked = head.startswith((b"\xff\xfe", b"\xfe\xff"))
    body = head[2:] if marked else head
    body = body[: len(body) // 2 * 2]
    order = _ascii_byte_order(body)
    if marked:
        return "utf-16" if order is not None or _spaced(body, "utf-16-le" if head[0] == 0xFF else "utf-16-be") else None
    return order


def _ascii_byte_order(sample: bytes) -> str | None:
    """UTF-16 of mostly-ASCII text: a NUL in every other byte, on the side that tells the order."""
    half = len(sample) // 2
    if half < 8:
        return None
    even_nuls, odd_nuls = sample[0::2].count(0), sample[1::2].count(0)
    if even_nuls == 0 and odd_nuls >= 0.9 * half:
        return "utf-16-le"
    if odd_nuls == 0 and even_nuls >= 0.9 * half:
        return "utf-16-be"
    return None


def _spaced(sample: bytes, codec: str) -> bool:
    """Whether a head behind a byte-order mark reads as log text: with blanks, and with a quarter
    or more of it ASCII (a log's stamps, digits and punctuation, whatever its language). 8-bit text
    read as UTF-16 gives neither: an ASCII character or a blank takes a NUL byte beside it."""
    text = sample.decode(codec, errors="replace")
    ascii_text = sum(1 for char in text if " " <= char <= "~" or char in "\t\n\r")
    return any(blank in text for blank in (" ", "\t", "\n")) and ascii_text * 4 >= len(text)


class Utf16ToUtf8(Reader):
    """A UTF-16 stream read as UTF-8: lines, line numbers and the scan stay as for any log;
    bytes that are no UTF-16 become U+FFFD, as invalid UTF-8 does elsewhere."""

    def __init__(self, inner: ByteSource, encoding: str) -> None:
        super().__init__(inner)
        self.decoder = codecs.getincrementaldecoder(encoding)(errors="replace")
        self.out = b""
        self.ended = False

    def read(self, size: int = -1, /) -> bytes:
        size = READ_PIECE if size < 0 else size
        while len(self.out) < size and not self.ended:
            piece = _read_some(self.inner, READ_PIECE)
            self.ended = not piece
            self.out += self.decoder.decode(piece, final=self.ended).encode("utf-8")
        data, self.out = self.out[:size], self.out[size:]
        return data


class _Inflater(Reader):
    """Incremental gzip / zstd: bounded output per step, multi-member, truncation detected."""

    def __init__(self, inner: ByteSource, kind: str) -> None:
        super().__init__(inner)
        self.kind = kind
        self.obj: Any = self._new()
        self.fed = False
        self.ended = False
        self.out = b""  # decoded but not yet returned (zstd has no per-call output limit)

    def _new(self) -> Any:
        if self.kind == "gzip":
            return zlib.decompressobj(wbits=31)
        return _zstd_decompressor()

    def read(self, size: int = -1, /) -> bytes:
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
        except (zlib.error, _zstd_error()) as exc:
            self.ended = True
            raise StreamStopped("corrupt", f"corrupt {self.kind} data: {exc}") from None
        if self.obj.eof:  # concatenated members/frames continue with what is left over
            rest = self.obj.unused_data
            self.obj, self.fed = self._new(), False
            if rest:
                self.inner = Prepend(rest, self.inner)
        return out


class Prepend(Reader):
    """Put bytes back in front of a stream."""

    def __init__(self, head: bytes, inner: ByteSource) -> None:
        super().__init__(inner)
        self.head = head

    def read(self, size: int = -1, /) -> bytes:
        if self.head:
            size = len(self.head) if size < 0 else size
            data, self.head = self.head[:size], self.head[size:]
            return data
        return bytes(self.inner.read(size))


class Guarded(Reader):
    """Reads in pieces so damage loses nothing decoded before it; enforces the output caps.

    An error in the middle of a read returns the data so far; the error is
    raised by the next read, as a StreamStopped the scanner records.
    """

    def __init__(self, inner: ByteSource, cap: int | None, budget: Budget | None) -> None:
        super().__init__(inner)
        self.left = cap
        self.cap = cap
        self.budget = budget
        self.error: StreamStopped | None = None

    def read(self, size: int = -1, /) -> bytes:
        buffer = bytearray(READ_PIECE if size < 0 else size)
        got = self.readinto(buffer)
        return bytes(buffer) if got == len(buffer) else memoryview(buffer)[:got].tobytes()

    def readinto(self, buffer: Any) -> int:
        if self.error is not None:
            error, self.error = self.error, None
            raise error
        view = memoryview(buffer)
        got = 0
        while got < len(view):
            try:
                piece = self._piece(view[got:])
            except StreamStopped as exc:
                self.error = exc
                break
            except Exception as exc:  # zipfile, tarfile, lzma, bz2 raise their own types on damage
                self.error = StreamStopped(_damage_code(exc), f"stopped reading early: {exc or type(exc).__name__}")
                break
            if not piece:
                break
            got += piece
        if not got and self.error is not None:
            error, self.error = self.error, None
            raise error
        return got

    def _piece(self, view: memoryview) -> int:
        """One inner read into the front of `view`, within the caps; how many bytes."""
        want = min(len(view), READ_PIECE)
        if self.left is not None:
            if self.left <= 0:
                message = f"decompressed output cap of {self.cap} bytes per member reached; rest not read"
                raise StreamStopped("output-cap", message)
            want = min(want, self.left)
        if self.budget is not None:
            if self.budget.left <= 0:
                raise StreamStopped("output-cap", "decompressed output cap for the whole run reached; rest not read")
            want = min(want, self.budget.left)
        got = _readinto_some(self.inner, view[:want])
        if self.left is not None:
            self.left -= got
        if self.budget is not None:
            self.budget.left -= got
        return got


# zstd comes from the standard library from Python 3.14 on (compression.zstd), else from the
# zstandard package (pyproject.toml installs it only there). Both are imported when a zstd stream is
# met, not at start: zstandard's import costs every run ~3 ms. Their decompression objects agree on
# what is used here: decompress(data) returns all it can, then `eof` and `unused_data` after a frame.


def _zstd_decompressor() -> Any:
    """A decompression object for one zstd frame."""
    if sys.version_info >= (3, 14):
        from compression import zstd

        return zstd.ZstdDecompressor()
    import zstandard

    return zstandard.ZstdDecompressor().decompressobj()


def _zstd_error() -> type[Exception]:
    """What the zstd module raises on corrupt data."""
    if sys.version_info >= (3, 14):
        from compression import zstd

        return zstd.ZstdError
    import zstandard

    error: type[Exception] = zstandard.ZstdError
    return error


def _valid_header(head: bytes) -> bool:
    """The magic bytes start a real gzip/zstd header (a text line may begin with them by chance)."""
    head = head[:HEADER_CHECK]
    try:
        if head.startswith(GZIP_MAGIC):
            zlib.decompressobj(wbits=31).decompress(head, 1)
        else:
            _zstd_decompressor().decompress(head)
    except (zlib.error, _zstd_error()):
        return False
    return True


def _read_some(stream: ByteSource, size: int) -> bytes:
    """One underlying read at most: a buffered `read(n)` that hits an error drops what it had."""
    read1 = getattr(stream, "read1", None)
    data: bytes = read1(size) if read1 is not None else stream.read(size)
    return data


def _readinto_some(stream: ByteSource, view: memoryview) -> int:
    """`_read_some` into the caller's buffer."""
    readinto1 = getattr(stream, "readinto1", None)
    if readinto1 is not None:
        return int(readinto1(view) or 0)
    return readinto(stream, view)


def readinto(stream: ByteSource, view: memoryview) -> int:
    """`stream.readinto(view)` where it has one (files, every Reader), else a read and a copy."""
    method = getattr(stream, "readinto", None)
    if method is not None:
        return int(method(view) or 0)  # None: a non-blocking source has nothing yet
    data = stream.read(len(view))
    view[: len(data)] = data
    return len(data)


def read_sizes(largest: int, size: int | None = None) -> Iterator[int]:
    """Sizes for reading a source from its start, at most `largest`. A read of n bytes sets up a
    buffer of n whatever the source holds (the scan's window; a reader's `read`): a 4-8 MiB read
    cost a one-line file ~2-5 ms, and the read that finds the end as much again. A plain file's
    `size` is known: reads of one byte more than it holds (the same `largest` from the start for a
    large one, as before). Else FIRST_READ bytes, then `largest` (not doubling through the sizes
    between: each freed buffer raised glibc's threshold for serving an allocation from fresh pages,
    and a 100 MB run peaked ~8 MiB higher)."""
    if size is not None:
        while True:
            yield min(largest, size + 1)
    yield min(FIRST_READ, largest)
    while True:
        yield largest


def plain_size(stream: ByteSource) -> int | None:
    """The size of the plain file `stream` reads, None when it reads no plain file (or it is gone)."""
    path = getattr(stream, "plain_path", None)
    try:
        return os.path.getsize(path) if path is not None else None
    except OSError:
        return None


def read_into(stream: ByteSource, buffer: bytearray, start: int, stop: int) -> int:
    """Up to stop - start bytes of `stream` into buffer[start:stop]; how many (0 at the end).

    The scanner's way in: a Reader or any source."""
    method = getattr(stream, "read_into", None)
    if method is not None:
        return int(method(buffer, start, stop))
    return readinto(stream, memoryview(buffer)[start:stop])


def _damage_code(exc: Exception) -> str:
    return "truncated" if isinstance(exc, EOFError) else "corrupt"


# ---------------------------------------------------------------- deadline


class Deadline:
    """The global --timeout: streams stop at it, inputs not started are reported."""

    def __init__(self, seconds: float | None) -> None:
        self.at = None if seconds is None else time.monotonic() + seconds

    @property
    def passed(self) -> bool:
        return self.at is not None and time.monotonic() >= self.at

    def wrap(self, stream: Reader) -> Reader:
        return stream if self.at is None else _UntilDeadline(stream, self)


class _UntilDeadline(Reader):
    def __init__(self, inner: Reader, deadline: Deadline) -> None:
        super().__init__(inner)
        self.deadline = deadline
        self.read_bytes = 0

    def read(self, size: int = -1, /) -> bytes:
        self._check()
        data = self.inner.read(size)
        self.read_bytes += len(data)
        return data

    def read_into(self, buffer: bytearray, start: int, stop: int) -> int:
        self._check()
        got = read_into(self.inner, buffer, start, stop)
        self.read_bytes += got
        return got

    def _check(self) -> None:
        if self.deadline.passed:
            raise StreamStopped("timeout", f"--timeout reached after {self.read_bytes} bytes; the rest was not read")
