"""A JSON log record printed over several lines, read as the one record it is.

A structured logger set to indent, `jq .` over a collector's JSON lines, or a record copied from a
log viewer prints one record over several lines (grafana/grafana#18522 shows docker's record so):

    {
      "log": "...",
      "stream": "stdout",
      "time": "2019-08-12T20:06:43.183719829Z"
    }

Read line by line, its message line has no time and its level sits on another line. When the sink
is handed a member line of such a record (indented, a quoted key first), the record runs from the
nearest line above that opens an object alone (`{`, at most MAX_PARTS rows up: the rows the
searcher keeps above a buffer, so the reading does not depend on where reads end) to the line that
closes it at the opener's indent (at most MAX_RECORD_LINES down). It is read as one JSON line (the
collectors' reading: its message, time and level), once, at its message line, quoted at its first
line, only when it parses as an object that is a log record (a line under a message key, and a
time: collectors.is_log_record). A JSON document that is no log record (a config, a dashboard) is
read line by line as before.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from .collectors import is_log_record
from .reader import Buffer
from .wrapped import MAX_PARTS

MAX_RECORD_LINES = 60  # lines below a member line the searcher keeps in reach (stamps.STAMP_LOOKBACK_LINES)
MAX_RECORD_BYTES = 64 << 10
_OPENERS = (b"{", b"[{", b"[ {")


@dataclass(frozen=True, slots=True)
class Record:
    """A record printed over several lines: as one compact JSON line, where its first line starts
    and its last ends in the buffer, and how many lines lie before and after the member line."""

    text: str
    start: int
    stop: int
    before: int
    after: int


def is_member_line(text: str) -> bool:
    """An indented line that starts with a quoted key: a line of a record printed over several."""
    return text[:1] in (" ", "\t") and text.lstrip()[:1] == '"'


def record_around(buf: Buffer, start: int, stop: int, end: int) -> Record | None:
    """The log record the member line buf[start:stop] belongs to, or None (buf[:end] is what the
    searcher has)."""
    opener = _opener_above(buf, start)
    if opener is None:
        return None
    first, indent, before = opener
    closer = _closer_below(buf, stop, end, indent)
    if closer is None or closer[0] - first > MAX_RECORD_BYTES:
        return None
    parsed = _parsed(bytes(buf[first : closer[0]]))
    if parsed is None or not is_log_record(parsed):
        return None
    return Record(json.dumps(parsed, ensure_ascii=False), first, closer[0], before, closer[1])


def starts_with_a_record(lines: list[str]) -> bool:
    """Whether the first record printed over several lines among `lines` (a file's head) is a log
    record: a file of them is a log, though no line of it has a format's prefix."""
    for at, line in enumerate(lines):
        if line.strip().encode() in _OPENERS:
            indent = len(line) - len(line.lstrip())
            for below in range(at + 1, min(len(lines), at + 1 + MAX_RECORD_LINES)):
                row = lines[below]
                if row.lstrip().startswith("}") and len(row) - len(row.lstrip()) == indent:
                    text = "\n".join([line.strip().lstrip("["), *lines[at + 1 : below + 1]])
                    parsed = _parsed(text.encode())
                    return parsed is not None and is_log_record(parsed)
            return False
    return False


def _parsed(document: bytes) -> dict[str, Any] | None:
    try:
        parsed = json.loads(document.rstrip().rstrip(b",]"))
    except ValueError:
        return None
    return parsed if isinstance(parsed, dict) else None


def _opener_above(buf: Buffer, start: int) -> tuple[int, int, int] | None:
    """Where the opening line's `{` is, the line's indent, and how many lines it lies above."""
    pos = start
    for above in range(1, MAX_PARTS + 1):
        if pos <= 0:
            return None
        row_start = buf.rfind(b"\n", 0, pos - 1) + 1
        row = bytes(buf[row_start : pos - 1]).rstrip(b"\r")
        stripped = row.strip()
        if stripped in _OPENERS:
            return row_start + row.index(b"{"), len(row) - len(row.lstrip()), above
        if not stripped.startswith((b'"', b"}", b"]")) and not stripped.endswith((b"{", b"[", b",")):
            return None  # not a line of a record printed over several lines
        pos = row_start
    return None


def _closer_below(buf: Buffer, stop: int, end: int, indent: int) -> tuple[int, int] | None:
    """Where the closing line ends and how many lines it lies below the member line."""
    pos = stop
    for below in range(1, MAX_RECORD_LINES + 1):
        if pos + 1 >= end:
            return None
        newline = buf.find(b"\n", pos + 1, end)
        row_stop = newline if newline >= 0 else end
        row = bytes(buf[pos + 1 : row_stop]).rstrip(b"\r")
        if row.lstrip().startswith(b"}") and len(row) - len(row.lstrip()) == indent:
            return row_stop, below
        if newline < 0:
            return None
        pos = row_stop
    return None
