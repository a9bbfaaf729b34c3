"""What one input is (`LogInput`) and what its first bytes say it holds: text, archive or binary."""

from __future__ import annotations

from collections.abc import Callable, Iterator

from ..model import InputProblem
from ..model.values import record
from .streams import ByteSource, Reader

ZIP_MAGIC = b"PK\x03\x04"
SNIFF_BYTES = 8192
BINARY_CONTROL_FRACTION = 0.10  # of the sniffed bytes (after a leading NUL hole)
_TEXT_CONTROLS = frozenset(b"\t\n\r\x0c\x1b\x08")


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


def looks_binary(head: bytes) -> bool:
    # A leading run of NULs is a sparse hole (copytruncate, a crash before a flush),
    # not binary content; what follows it decides.
    body = head.lstrip(b"\0")
    if not body:
        return False
    controls = sum(1 for byte in body if byte < 32 and byte not in _TEXT_CONTROLS)
    return controls > len(body) * BINARY_CONTROL_FRACTION
