"""What one input is (`LogInput`) and what its first bytes say it holds: text, archive or binary."""

from __future__ import annotations

from collections.abc import Callable, Iterator

from ..model import CoreDump, InputProblem
from ..model.values import record
from .streams import ByteSource, Reader

ZIP_MAGIC = b"PK\x03\x04"
BINARY = "binary"  # the problem code of a binary input that is no core dump: listed, not read
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


def looks_binary(head: bytes) -> bool:
    # A leading run of NULs is a sparse hole (copytruncate, a crash before a flush),
    # not binary content; what follows it decides.
    body = head.lstrip(b"\0")
    if not body:
        return False
    controls = sum(1 for byte in body if byte < 32 and byte not in _TEXT_CONTROLS)
    return controls > len(body) * BINARY_CONTROL_FRACTION
