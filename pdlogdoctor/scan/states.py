"""When a status dump says a container's state began and ended: the times below its reason line.

`kubectl describe pod` prints a container's state as a block, its reason first and its times below:

    Last State:     Terminated
      Reason:       OOMKilled
      Exit Code:    137
      Started:      Fri, 05 Dec 2025 07:58:20 +0000
      Finished:     Fri, 05 Dec 2025 08:31:06 +0000

The reason's line has no time of its own, and a dump is no log: the lines around it are in no order
of time (the current state's `Started:` comes above, the pod's events below, as ages). The block's
`Finished:` is when the container ended, which is when its reason happened; without one (a
`Waiting` state) its `Started:`. `stated_time` carries that time as the catalogue of line formats
reads it (the wall clock as written, like every line's), and scan/events.py takes it as the line's
time when the line states none of its own.
"""

from __future__ import annotations

from ..library.formats import MONTHS
from ..model import FieldValue
from ..model.lazyre import lazy_re
from .timeline import bare_line

STATE_LINES_BELOW = 6  # a state block's lines below its reason: exit code, signal, message, started, finished
# kubectl's describe prints times with time.RFC1123Z (`Mon, 02 Jan 2006 15:04:05 -0700`).
_STATE_TIME = lazy_re(
    r"^\s*(?P<which>Started|Finished):\s+(?:[A-Z][a-z]{2}, )?(?P<day>\d{1,2}) (?P<month>[A-Z][a-z]{2}) "
    r"(?P<year>\d{4}) (?P<clock>\d{2}:\d{2}:\d{2})(?: [-+]\d{4})?\s*$"
)
# A line that starts the next block: the state's own lines are indented deeper than its heading.
_NEXT_BLOCK = lazy_re(r"^\s*(?:Ready|Restart Count|State|Last State|Limits|Requests|Environment|Mounts):")


def read_state_times_below(buf: bytes | bytearray, line_start: int, line_end: int, limit: int) -> dict[str, FieldValue]:
    """`stated_time` (`2025-12-05 08:31:06`): the `Finished:` time of the state block whose reason
    is on the line at `line_start`..`line_end`, else its `Started:` time; nothing when the block
    states neither."""
    times: dict[str, str] = {}
    start = line_end + 1  # the matched line ends at `line_end`; `limit`: where the buffer's text ends
    for _ in range(STATE_LINES_BELOW):
        if start >= limit:
            break
        end = buf.find(b"\n", start, limit)
        end = limit if end < 0 else end
        line = bare_line(bytes(buf[start:end]).decode("utf-8", "replace"))
        if _NEXT_BLOCK.match(line):
            break
        found = _STATE_TIME.match(line)
        if found is not None and found.group("month") in MONTHS:
            month = MONTHS.index(found.group("month")) + 1
            times[found.group("which")] = (
                f"{found.group('year')}-{month:02d}-{int(found.group('day')):02d} {found.group('clock')}"
            )
        start = end + 1
    stated = times.get("Finished") or times.get("Started")
    return {"stated_time": stated} if stated else {}
