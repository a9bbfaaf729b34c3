"""Lines a terminal wrapped at its width, read whole again.

A log copied from a terminal (or from a tool that wraps at a fixed width) has its long lines cut
into parts: the first part starts like a line (its format's prefix), the rest start anywhere in the
middle of the message, often in the middle of a word, and every part but the last is as long as
the terminal is wide. A MORI line's `errno:22` falls onto the next line that way, a raylet line's
`killed due to memory pressure` onto the second part (vllm#1160).

The sink asks for the whole line only when the line alone says nothing (no pattern, no error
marker recognises it) and keeps the joined reading only when it then does: a joined line that
still says nothing is no evidence that the lines belonged together. The first part must be long
(a terminal's width) and each later part must not start like a line of its own (a format reads
it, it is indented like a traceback's frame, a collector's prefix leads it, it is a comment's or a
table's row).
"""

from __future__ import annotations

from dataclasses import dataclass

from ..library.formats import Formats
from ..model.lazyre import lazy_re
from .reader import Buffer
from .timeline import clean_line, without_colours

WRAP_MIN_CHARS = 60  # a terminal is at least this wide: a shorter line was not wrapped
MAX_PARTS = 8  # parts of one wrapped line (a 1,000-character line on a 120-column terminal)
MAX_PART_BYTES = 4096  # a part is one terminal row: longer is not a wrapped part
# What a comment's, a table's row or a list's item starts with, then a space: a row of its own.
ROW_LEADS = ("#", "|", "-", "*", "+")
# A markdown label in bold (`**Failure count:** 1`, `**Build:** https://...`): a paste's field, a line of its own.
BOLD_LEAD = lazy_re(r"\*\*[^*\s][^*\n]{0,80}?\*\*")
# A field's label and its value (`Commit: 65ced44... "subject"`, `Branch: refs/pull/1/head`, `Exit
# status: 1`): a summary's or a report's line of its own. A terminal cuts a line at a column, and
# a cut that leaves a capitalised word or two, a colon and a value at the row's start is rare; a
# build summary's rows one under another are common, and a long one above must not take the next.
LABEL_LEAD = lazy_re(r"[A-Z][A-Za-z]{1,20}(?: [A-Za-z]{1,20}){0,2}:[ \t]+\S")
# A time of day leading a line, bracketed or bare, with no date (`[18:48:56.295] INFO:...`: a Python
# logger's `%(asctime)s` set to the clock alone, vMLX's engine): a line of its own, though no format
# dates it. A terminal's cut leaves a clock and a space at a row's start only by chance.
CLOCK_LEAD = lazy_re(r"\[?\d{1,2}:\d\d:\d\d(?:[.,]\d{1,9})?\]?[ \t]")


@dataclass(frozen=True, slots=True)
class Wrapped:
    """A line read whole: its parts joined, where its first part starts and its last part ends in
    the buffer, and how many parts lie before and after the line the searcher handed over."""

    text: str
    start: int
    stop: int
    before: int
    after: int
    parts: tuple[str, ...]  # the rows as read, the handed-over one at `before`


def rejoined(buf: Buffer, start: int, stop: int, end: int, text: str, formats: Formats) -> Wrapped | None:
    """The whole line the line buf[start:stop] (read as `text`) is a part of, or None when it is
    not part of a wrapped line (buf[:end] is what the searcher has)."""
    first_start, head, before = _parts_above(buf, start, text, formats)
    parts = [*head, text]
    last_stop, tail = _parts_below(buf, stop, end, parts, formats)
    if not before and not tail:
        return None
    rows = (*parts, *tail)
    return Wrapped("".join(rows), first_start, last_stop, before, len(tail), rows)


def message_below(
    buf: Buffer, start: int, stop: int, end: int, text: str, formats: Formats, indented: bool = False
) -> Wrapped | None:
    """The line buf[start:stop] (read as `text`) and the next one as one line, when the next one
    can be a part of it (it does not start like a line): a header whose message a program prints
    below it (a Rust panic's); with `indented`, only an indented line that goes on with the message
    (`_indented_message`). None when there is no next line in buf[:end] or it is a line of its own."""
    if stop + 1 >= end:
        return None
    newline = buf.find(b"\n", stop + 1, min(end, stop + 2 + MAX_PART_BYTES))
    if newline < 0 and end - stop - 1 > MAX_PART_BYTES:
        return None
    part_stop = newline if newline >= 0 else end
    part = without_colours(_decoded(buf, stop + 1, part_stop))
    if not (_indented_message(part, formats) if indented else is_part(part, formats)):
        return None
    return Wrapped(f"{text.rstrip()} {part.strip()}", start, part_stop, 0, 1, (text, part))


def _indented_message(text: str, formats: Formats) -> bool:
    """An indented line that goes on with a message ending in a colon above it, as a native library's
    multi-line exception message prints it under its first line (FlashInfer's `Error in function
    'aligned_alloc' at .../allocator.h:49:`, then `  Buffer overflow when allocating memory ...`): not
    a traceback's frame, its source line's caret marks, or a stamped line."""
    plain = text.strip()
    if not plain or not text[:1].isspace() or len(text) > MAX_PART_BYTES:
        return False
    return not plain.startswith(('File "', "^", "~", "Traceback")) and formats.stamp(plain) is None


def is_part(text: str, formats: Formats) -> bool:
    """`text` can be the second or a later part of a wrapped line: it does not start like a line."""
    if not text.strip() or text.startswith(("  ", "\t")) or len(text) > MAX_PART_BYTES:
        return False
    if text[:1] in ROW_LEADS and text[1:2] in ("", " ", "\t"):
        return False  # a comment's, a table's row or a list's item (`#  size  count ...`, `| GPU  Name ...`, `- run 2`)
    if text[:2] == "**" and BOLD_LEAD.match(text):
        return False
    if text[:1].isupper() and LABEL_LEAD.match(text):
        return False
    if (text[:1] == "[" or text[:1].isdigit()) and CLOCK_LEAD.match(text):
        return False
    plain = without_colours(text)
    # Each test alone says no; the cheapest first (a stamped line, most of a log, goes at the first).
    if formats.stamp(plain) is not None:
        return False
    if clean_line(plain)[0] != plain:
        return False  # a collector's prefix, the runner's time: a line of its own
    return not (formats.source(plain) or formats.run_time(plain))


def _parts_above(buf: Buffer, start: int, text: str, formats: Formats) -> tuple[int, list[str], int]:
    """Where the wrapped line holding `text` starts, its parts above `text`, how many. The first
    part is the nearest long line above that starts like a line, or the topmost of the long lines
    above when a short line (a row the terminal did not fill: the end of a line) is above it."""
    if not is_part(text, formats):
        return start, [], 0
    parts: list[str] = []
    pos = start
    while len(parts) < MAX_PARTS - 1:
        if pos <= 0:
            break  # the top of the buffer: the line below it starts a line
        above_start = buf.rfind(b"\n", max(0, pos - 2 - MAX_PART_BYTES), pos - 1) + 1
        if above_start == 0 and pos - 2 - MAX_PART_BYTES > 0:
            return start, [], 0  # the line above is longer than a terminal's row
        above = _decoded(buf, above_start, pos - 1)
        if len(above) < WRAP_MIN_CHARS:
            break  # a row the terminal did not fill ends a line: the one below it starts one
        if not is_part(above, formats):
            parts.insert(0, clean_line(above)[0])  # the first part: a line of its own, wrapped
            return above_start, parts, len(parts)
        parts.insert(0, without_colours(above))
        pos = above_start
    else:
        return start, [], 0  # more parts than a line has: not a wrapped line
    return pos, parts, len(parts)


def _parts_below(buf: Buffer, stop: int, end: int, parts: list[str], formats: Formats) -> tuple[int, list[str]]:
    """The parts below the line, up to the short last one, and where the last ends."""
    width = max(len(part) for part in parts)
    if len(parts[-1]) < (width if len(parts) > 1 else WRAP_MIN_CHARS):
        return stop, []  # the line is short: the last part (or not wrapped)
    tail: list[str] = []
    pos = stop
    while len(parts) + len(tail) < MAX_PARTS and pos + 1 < end:
        newline = buf.find(b"\n", pos + 1, min(end, pos + 2 + MAX_PART_BYTES))
        if newline < 0 and end - pos - 1 > MAX_PART_BYTES:
            break
        part_stop = newline if newline >= 0 else end
        part = _decoded(buf, pos + 1, part_stop)
        if not is_part(part, formats):
            break
        tail.append(without_colours(part))
        pos = part_stop
        if len(part) < width or newline < 0:
            break  # the last part of a wrapped line is shorter than the terminal's width
        width = len(part)
    return pos, tail


def _decoded(buf: Buffer, start: int, stop: int) -> str:
    return buf[start:stop].decode("utf-8", errors="replace").rstrip("\r")
