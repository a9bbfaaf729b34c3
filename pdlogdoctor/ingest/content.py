"""What one input is (`LogInput`) and what its first bytes say it holds: text, archive or binary."""

from __future__ import annotations

from collections.abc import Callable, Iterator

from ..model import InputProblem
from ..model.values import record
from .streams import ByteSource, Reader, looks_binary

__all__ = ["SNIFF_BYTES", "ZIP_MAGIC", "LogInput", "is_tar", "looks_binary", "sniff", "unread"]

ZIP_MAGIC = b"PK\x03\x04"
SNIFF_BYTES = 8192


@record
class LogInput:
    """One stream to scan, or (with `open` None) a path that could not be read."""

    name: str
    size: int
    open: Callable[[], Reader] | None
    problems: tuple[InputProblem, ...] = ()
    members: Callable[[], Iterator[tuple[str, Reader]]] | None = None  # a streamed archive


def unread(name: str, code: str, message: str) -> LogInput:
    """An input that is reported, never read."""
    return LogInput(name, 0, None, (InputProblem(code, message),))


def sniff(opener: Callable[[], ByteSource]) -> bytes:
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


def is_tar(head: bytes) -> bool:
    return len(head) >= 262 and head[257:262] == b"ustar"
