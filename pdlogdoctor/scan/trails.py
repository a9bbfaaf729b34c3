"""A warning that starts an error's return trail is that error.

With NCCL_DEBUG=INFO, NCCL reports a failure as a WARN line (its highest level: it prints no ERROR),
then, one INFO line per function that passes the error code up, `<host>:<pid>:<tid> [<dev>] NCCL
INFO <file>.cc:<line> -> <code>` (patterns/open-world/sources.toml's nccl-return-trail, an effect:
it says a call failed, not why). The warning right above the trail, from the same thread, is the
failure the trail returns: an error line, and the one that says why (NVIDIA/nccl#975's
`socketStartConnect: Connect to fe80::...%ib1<17943> failed : Software caused connection abort`,
then `misc/socket.cc:564 -> 2`, `bootstrap.cc:270 -> 2`, ...). A warning with no trail under it
stays a warning.
"""

from __future__ import annotations

from ..model.lazyre import lazy_re
from .timeline import lines_below

# NCCL's thread tag at a line's start: `<host>:<pid>:<tid> [<device>] `.
_THREAD = lazy_re(r"^(\S+:\d+:\d+ \[\d+\] )")
_TRAIL = lazy_re(r"^NCCL INFO [\w./-]+\.(?:cc|cu|h):\d+ -> [1-9]\d*\b")


def starts_a_trail(buf: bytes | bytearray, line_stop: int, buf_end: int, text: str) -> bool:
    """Whether the line after `text` (which ends at `line_stop`) is the first step of an error's
    return trail from the same NCCL thread."""
    thread = _THREAD.match(text)
    if thread is None:
        return False
    tag = thread.group(1)
    return any(
        below.startswith(tag) and _TRAIL.match(below[len(tag) :]) is not None
        for below in lines_below(buf, line_stop, buf_end, 1)
    )
