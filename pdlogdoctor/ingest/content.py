"""What one input is (`LogInput`) and what its first bytes say it holds: text, archive or binary."""

from __future__ import annotations

from collections.abc import Callable, Iterator

from ..model import CoreDump, InputProblem
from ..model.values import record
from .streams import ByteSource, Reader, looks_binary

__all__ = ["SNIFF_BYTES", "ZIP_MAGIC", "LogInput", "is_tar", "looks_binary", "sniff", "unread"]

ZIP_MAGIC = b"PK\x03\x04"
BINARY = "binary"  # the problem code of a binary input that is no core dump: listed, not read
SNIFF_BYTES = 8192


@record
class LogInput:
    """One stream to scan, or (with `open` None) a path that could not be read."""

    name: str
    size: int
    open: Callable[[], Reader] | None
    problems: tuple[InputProblem, ...] = ()
    members: Callable[[], Iterator[tuple[str, Reader]]] | None = None  # a streamed archive
    core: CoreDump | None = None  # a core dump: never read as a log, its header read (coredump.py)


def unread(name: str, code: str, message: str) -> LogInput:
    """An input that is reported, never read."""
    return LogInput(name, 0, None, (InputProblem(code, message),))


def sniff(opener: Callable[[], ByteSource], size: int = SNIFF_BYTES) -> bytes:
    """The first decompressed bytes of a stream; damage after them is the scan's business."""
    stream = opener()
    try:
        # One read decides text or binary, as it always did; a core's header may need a few.
        return stream.read(size) if size <= SNIFF_BYTES else _read_up_to(stream, size)
    except EOFError as exc:
        problem = getattr(exc, "problem", None)
        if problem is not None and problem.code == "output-cap":
            raise
        return b""
    finally:
        stream.close()


def _read_up_to(stream: ByteSource, size: int) -> bytes:
    """`size` bytes, or all there are: a decompressing stream may return fewer per read."""
    data = stream.read(size)
    while data and len(data) < size:
        more = stream.read(size - len(data))
        if not more:
            break
        data += more
    return data


def is_tar(head: bytes) -> bool:
    return len(head) >= 262 and head[257:262] == b"ustar"
