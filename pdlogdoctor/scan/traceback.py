"""Read a Python traceback that follows a matched line.

sglang logs `Scheduler hit an exception: Traceback (most recent call last):`
with the rest of the traceback on the following, unprefixed lines. What a
diagnosis needs from it: the exception type and message, and the innermost
frame that belongs to the project (not to torch or the standard library).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from ..library.formats import Formats, shipped
from ..library.frames import Frame, parse_frame
from ..library.lazyregex import LazyRegex
from ..model import FieldValue
from ..model.textcut import clip
from . import headings, states, tables, time_limits
from .timeline import clean_line, lines_below, parse_stamp

# Characters of an exception's message kept; cut whole tokens only (textcut.clip): the message reaches
# the summary and the facts, and a token cut short would escape redaction.
MESSAGE_CHARS = 500
CALL_CHARS = 200  # characters of a frame's source line kept: its call, for frames.toml's `call` rules

MAX_TRACEBACK_LINES = 400
TRACEBACK_HEADER = "Traceback (most recent call last):"
MAX_TRACEBACK_BYTES = 256 << 10
_EXCEPTION = LazyRegex(r"^(?P<type>[A-Za-z_][\w.]*)(?::\s?(?P<message>.*))?$")
# An exception line as a source line never reads: `Type: message` or a bare `Type`, the type's last
# part capitalised (`torch.OutOfMemoryError: ...`, `KeyboardInterrupt`).
_NAMES_EXCEPTION = LazyRegex(r"^(?:[A-Za-z_]\w*\.)*[A-Z]\w*(?::(?:\s|$)|\s*$)")
# Python 3.11+ marks the failing expression under a frame's source line (`^^^^`, `~~~~^^^^~~`).
_CARETS = LazyRegex(r"^\s*[~^]+\s*$")
# libstdc++'s verbose terminate handler: after `terminate called after throwing an instance of 'T'`
# it prints `  what():  ` and the exception's what() text (some programs' text starts on the next
# line); launchers' prefixes may stand before it (`(Worker_TP2 pid=733)   what():  ...`, Ray's
# `(EngineCore_DP0 pid=742) (RayWorkerWrapper pid=233, ip=10.20.1.125) `).
_WHAT = LazyRegex(r"^\s*what\(\):\s*(?P<message>.*?)\s*$")  # behind the launchers' tags (Formats.inside_tags)
WHAT_LOOKAHEAD = 3  # lines: other ranks' output may come between the two lines
_CONNECTORS = (
    "During handling of the above exception",
    "The above exception was the direct cause",
    TRACEBACK_HEADER,
    "Thread 0x",  # faulthandler: one stack per thread
    "Current thread 0x",
    "Stack (most recent call first):",  # faulthandler: the one stack (cpython Python/traceback.c)
    "==== backtrace (tid:",  # UCX's native backtrace (ucs/debug/debug.c), innermost first
)
UCX_BACKTRACE_END = "=" * 33  # the line UCX closes its backtrace with (a pytest separator is longer, worded)
_FAULTHANDLER = ("Thread 0x", "Current thread 0x", "Stack (most recent call first):")
# How Python joins a chain of exceptions: `raise ... from` (the first is the cause), or an exception
# raised in an `except` block (the first is what was being handled). A wrapper that re-raises a
# failure in its own words ("Please install mooncake ...") leaves the real cause at the chain's start.
_CHAIN_LINKS = ("The above exception was the direct cause", "During handling of the above exception")
CHAIN_CAUSE, CHAIN_HANDLING = "raised from", "raised while handling"
_GDB_CHATTER = ("(gdb)", "[Current thread is", "[New Thread", "[Thread debugging", "[Inferior")  # between gdb's frames
# Where a paste left frames out (`...`, `…`, `[... 12 frames omitted ...]`): the traceback goes on below it.
_ELIDED = ("...", "\u2026", "[...")
# torch's NCCL errors (getNcclErrorDetailStr) go on below the exception line: the error's
# interpretation, then this line, then NCCL's own last error.
LAST_ERROR = "Last error:"
CONTINUATION_LINES = 3
# The serving engines' own code, and their hardware plugins' (vllm_gaudi, vllm_ascend, vllm_omni are
# packages of their own that the engine calls into): the innermost frame among them is where the
# engine was when it failed, below it is a library's (torch, a kernel).
PROJECT_MARKERS = (
    "/sglang/",
    "/vllm/",
    "/vllm_",
    "/mori/",
    "/mooncake/",
    "/nixl/",
    "sglang/srt",
    "sgl_kernel",
    "/tensorrt_llm/",
    "/lmdeploy/",
)
EXCEPTION_READ = "exception_read"  # a python-frames block's: "yes" when its frames reach their exception
STACK_KEEP = 32  # frames kept of each end of a longer stack (the outer ones tell the phase, the inner the culprit)


def read_traceback(
    buf: bytes | bytearray, first_line_end: int, limit: int, formats: Formats | None = None, from_line: bool = False
) -> dict[str, FieldValue]:
    """Fields of the traceback after `first_line_end` in `buf` (`from_line`: the one starting at
    `first_line_end`, a line's start): empty if there is none."""
    frames: list[Frame] = []
    crashed: list[Frame] = []  # faulthandler's "Current thread" stack: the one that faulted
    in_crashed = False
    exception: tuple[str, str] | None = None
    chained: list[tuple[str, str]] = []  # every exception of a chain, the first (its cause) first
    link = ""  # how the chain's second exception says it follows the first
    newest_first = False
    following = _following_lines(buf, first_line_end, limit, formats or shipped(), from_line)
    lines, sources = _until_exception_ends(following)
    for offset, line in enumerate(lines, start=1):
        if line.startswith(_GDB_CHATTER) or _elided(line) or line.strip() == UCX_BACKTRACE_END:
            continue
        if chained and not link and line.startswith(_CHAIN_LINKS):
            link = _CHAIN_LINKS[line.startswith(_CHAIN_LINKS[1])]
        if not line.strip() or line.startswith(_CONNECTORS):
            newest_first = newest_first or line.startswith(_FAULTHANDLER)
            in_crashed = line.startswith("Current thread 0x") or (in_crashed and not line.startswith(_FAULTHANDLER))
            continue
        frame = parse_frame(line, offset)
        if frame:
            frames.append(frame)
            # every native backtrace, and py-spy's dump, lists the innermost call first
            newest_first = newest_first or frame.native or frame.innermost_first
            if in_crashed:
                crashed.append(frame)
            continue
        if line.startswith((" ", "\t")) or offset - 1 in sources or _CARETS.match(line):
            # the source line under a frame (indented, or flush left in an export), or a caret line
            if frames and frames[-1].offset == offset - 1 and not frames[-1].call and not _CARETS.match(line):
                frames[-1] = replace(frames[-1], call=line.strip()[:CALL_CHARS])
            continue
        found = _EXCEPTION.match(line)
        if found is None or parse_stamp(line, formats) is not None:
            break  # the next log record: the traceback is over
        exception = (found.group("type"), (found.group("message") or "").strip())
        chained.append(exception)
    # faulthandler lists the newest call first (and the faulting thread as "Current thread");
    # a traceback lists the newest call last
    fields = _fields(crashed[::-1] if crashed else frames[::-1] if newest_first else frames, exception)
    if link and len(chained) > 1 and chained[0] != exception:
        fields |= _chain_cause(chained[0], link)
    last_error = (
        _last_error(following.between(len(lines), len(lines) + CONTINUATION_LINES + 1), formats)
        if exception is not None
        else None
    )
    return {**fields, "exc_last_error": last_error} if last_error else fields


def read_block(
    kind: str,
    buf: bytes | bytearray,
    first_line_end: int,
    limit: int,
    formats: Formats | None = None,
    first_line_start: int | None = None,
) -> dict[str, FieldValue]:
    """The fields of the block of lines a pattern's `block` names, after its matched line (`formats`:
    the catalogue that tells the next log record by its time). A line that announces a traceback
    (its text ends with `:`) with none below it reads the one that ends right above it
    (`first_line_start`: where the matched line starts)."""
    if kind == "cxx-what":
        return read_what(buf, first_line_end, limit, formats)
    if kind == "measures-below":
        return headings.read_measures_below(buf, first_line_end, limit)
    if kind == "table-row":
        return tables.read_row(buf, first_line_start, first_line_end) if first_line_start is not None else {}
    table = TABLE_READERS.get(kind)
    if table is not None:
        return table(buf, first_line_start, first_line_end, limit) if first_line_start is not None else {}
    if kind == "python-frames" and first_line_start is not None:
        return _read_from_frame(buf, first_line_start, limit, formats)
    fields = read_traceback(buf, first_line_end, limit, formats)
    if fields or first_line_start is None:
        return fields
    return read_traceback_above(buf, first_line_start, first_line_end, formats or shipped())


# The blocks that read from the matched line's start (a table from its header down, the measure above a
# bound): (buf, the line's start, its end, limit).
TABLE_READERS: dict[str, Callable[[bytes | bytearray, int, int, int], dict[str, FieldValue]]] = {
    "table-sides-below": tables.read_sides_below,
    "table-releases-below": tables.read_releases_below,
    "table-variants-below": tables.read_variants_below,
    "table-configurations-below": tables.read_configurations_below,
    "table-runs-below": tables.read_runs_below,
    "table-model-rows-below": tables.read_model_rows_below,
    "table-speedup-below": tables.read_speedup_below,
    "table-builds-above": tables.read_builds_above,
    "table-earlier-row-above": tables.read_earlier_row_above,
    "measure-above": headings.read_measure_above,
    "state-times-below": states.read_state_times_below,
    "table-column-above": tables.read_column_above,
    "time-limit-above": time_limits.read_time_limit_above,
}


def _read_from_frame(
    buf: bytes | bytearray, line_start: int, limit: int, formats: Formats | None
) -> dict[str, FieldValue]:
    """The traceback whose first line is the matched frame itself; its frames' offsets counted from
    that line (0: the frame's own line), as for a traceback read below its announcing line."""
    fields = read_traceback(buf, line_start, limit, formats, from_line=True)
    at = fields.get("stack_at")
    if isinstance(at, tuple):
        fields["stack_at"] = tuple(offset - 1 for offset in at)
    # Whether the frames reach their exception: a copy cut before it is all a frame pattern has to
    # go on, one that reaches it leaves the exception to the line that states it.
    fields[EXCEPTION_READ] = "yes" if "exc_type" in fields else "no"
    return fields


ABOVE_LINES = 80  # lines read above an announcing line for the traceback that ends there


def read_traceback_above(
    buf: bytes | bytearray, line_start: int, line_end: int, formats: Formats
) -> dict[str, FieldValue]:
    """The traceback that ends right above the line at `line_start`..`line_end`, when that line
    announces one (`Scheduler hit an exception:`) and none follows it: several processes wrote
    into one stream (a compose service's ranks), and the frames of the failure were printed before
    the line that names it. Only lines no log record comes between (no line with a time of its own,
    behind the announcing line's launcher tags) are read; their offsets are negative."""
    who, text = formats.tags(_line_ending(buf, line_end))
    if not text.rstrip().endswith(":"):
        return {}
    above = _lines_above(buf, line_start, formats, who)
    top = _traceback_top(above, formats)
    if top is None:
        return {}
    fields = read_traceback(buf, above[top][0], line_start, formats, from_line=True)
    shift = len(above) - top  # lines from the block's first line down to the announcing line
    at = fields.get("stack_at")
    if isinstance(at, tuple):
        fields["stack_at"] = tuple(offset - 1 - shift for offset in at)
    return fields


def raising_frame(buf: bytes | bytearray, line_start: int, line: str, formats: Formats) -> str | None:
    """The frame that raised the exception `line` (at `line_start`) names: the traceback's innermost
    frame, right above it (its source line and Python 3.11's carets between), as printed; None when
    no Python frame is there (a cut paste, a native stack). A message that says little (`KeyError:
    '3f0c...'`) says where it came from with it."""
    who, _ = formats.tags(line)
    message = formats.message(line)
    # A traceback a logger printed line by line (`ERROR 06-01 09:25:52 async_llm_engine.py:45] AssertionError`):
    # the lines above it behind the same prefix are read behind it, their indentation kept.
    prefix = line[: line.rfind(message)] if message and line.rstrip().endswith(message) else ""
    statement = ""  # the source line the frame ran, as the traceback prints it under the frame
    for _, text in reversed(_lines_above(buf, line_start, formats, who, RAISING_FRAME_LINES)):
        text = text[len(prefix) :] if prefix and text.startswith(prefix) else text
        frame = parse_frame(text)
        if frame is not None:
            if frame.native:
                return None
            where = clip(text.strip(), CALL_CHARS)
            # A bare exception (`AssertionError`, nothing after it) says what failed only in the
            # statement that raised it: `assert len(next_token_ids) == len(query_indices)`.
            bare = statement and _BARE_EXCEPTION.match(message.strip())
            return f"{where}: `{clip(statement, CALL_CHARS)}`" if bare else where
        if not (text.startswith((" ", "\t")) or _CARETS.match(text)):
            return None  # not the traceback's source or carets: the exception stands alone
        if not _CARETS.match(text):
            statement = text.strip()
    return None


_BARE_EXCEPTION = LazyRegex(r"^(?:[A-Za-z_]\w*\.)*[A-Za-z_]\w*(?:Error|Exception):?$")


RAISING_FRAME_LINES = 4  # the frame, its source line, and up to two caret lines


# An exception's own line, as a logger's record may hold it (`ERROR ... [core.py:521] AssertionError`):
# a type ending in Error or Exception, then its message or nothing; or its repr, which a logger writes
# above the traceback it then prints (`IndexError('Dimension out of range ...')`: vLLM V0's engine).
_RAISES = LazyRegex(r"^(?:[A-Za-z_]\w*\.)*(?:[A-Za-z_]\w*(?:Error|Exception)|Exception)(?::\s|:?\s*$|\(['\"])")


def states_exception(message: str) -> bool:
    """Whether a line's message (its prefixes read off) is an exception's line."""
    return _RAISES.match(message) is not None


# A `raise` statement, as a traceback prints it under the frame that ran it (behind a logger's
# prefix or not): `    raise RuntimeError("KV transfer failed")`, or its first line alone.
_RAISE_STATEMENT = LazyRegex(r"^\s*raise\s+[A-Za-z_][\w.]*(?:\(|\s*$)")
RAISE_BELOW_LINES = 4  # a multi-line call's arguments and Python 3.11's carets before the exception


def raise_above_its_exception(
    buf: bytes | bytearray, line_start: int, line_stop: int, buf_end: int, line: str, formats: Formats
) -> bool:
    """Whether `line` is the `raise` statement a traceback prints under its innermost frame, with the
    exception it raised printed below: the source of the failure, not an event of its own (its words,
    `raise RuntimeError("... failed")`, are the code's; the exception's line states what happened).
    A paste cut before the exception keeps the statement as the only word of the failure."""
    who, inside = formats.tags(line)
    if _RAISE_STATEMENT.match(formats.message(inside)) is None:
        return False
    above = _lines_above(buf, line_start, formats, who, 1)
    if not above or parse_frame(formats.message(above[0][1])) is None:
        return False
    below = lines_below(buf, line_stop, buf_end, RAISE_BELOW_LINES)
    return any(states_exception(formats.message(formats.tags(text)[1]).strip()) for text in below)


def stack_above(buf: bytes | bytearray, line_start: int, line: str, formats: Formats) -> dict[str, FieldValue]:
    """The stack of the traceback an exception line (at `line_start`) ends, read above it: its frames
    and the calls printed under them, outermost first (`stack`, `stack_calls`, as a block's fields),
    for frames.toml to tell in which process and phase an exception no pattern names was raised.
    Empty when no traceback ends right above it (the exception pasted alone). No offsets: the lines
    are the exception's own traceback, not a record a pattern read."""
    who, inside = formats.tags(line)
    who = who or _tags_above(buf, line_start, formats)
    above = _record_lines_above(buf, line_start, formats, who, _record_prefix(inside, formats))
    top = _traceback_top(above, formats)
    if top is None:
        return {}
    fields = read_traceback(buf, above[top][0], line_start, formats, from_line=True)
    return {key: fields[key] for key in ("stack", "stack_calls") if key in fields}


def _tags_above(buf: bytes | bytearray, line_start: int, formats: Formats) -> str:
    """The launcher's tags of the line just above `line_start` ("" at the buffer's start): an
    exception line pasted without its process's tag (`UnboundLocalError: ...` under frames each behind
    vLLM's `(EngineCore_0 pid=2353) `) ends the traceback of the process whose lines it follows."""
    if line_start <= 0:
        return ""
    start = buf.rfind(b"\n", 0, line_start - 1) + 1
    line, _ = clean_line(buf[start : line_start - 1].decode("utf-8", errors="replace"))
    return formats.tags(line)[0]


def _record_lines_above(
    buf: bytes | bytearray, line_start: int, formats: Formats, who: str, record: str
) -> list[tuple[int, str]]:
    """The lines above `line_start` as `_lines_above` reads them, and, when the line is one of a
    record a logger writes line by line (vLLM's `ERROR 06-25 04:34:01 [core.py:521] ` before every
    line of a traceback), only those that repeat its record prefix, read behind it."""
    above = _lines_above(buf, line_start, formats, who)
    if not record:
        return above
    kept: list[tuple[int, str]] = []
    for start, text in reversed(above):
        if not text.startswith(record):
            break
        kept.append((start, text[len(record) :]))
    return kept[::-1]


def _lines_above(
    buf: bytes | bytearray, line_start: int, formats: Formats, who: str, limit: int = ABOVE_LINES
) -> list[tuple[int, str]]:
    """(start, text) of up to `limit` lines above `line_start`, top first; a line behind other
    launcher tags than `who` ends them (another process's line)."""
    found: list[tuple[int, str]] = []
    end = line_start - 1
    while end >= 0 and len(found) < limit:
        start = buf.rfind(b"\n", 0, end) + 1
        line, _ = clean_line(buf[start:end].decode("utf-8", errors="replace"))
        tags, inside = formats.tags(line)
        if tags != who:
            break
        found.append((start, inside))
        end = start - 1
    return found[::-1]


def _traceback_top(above: list[tuple[int, str]], formats: Formats) -> int | None:
    """The index in `above` of the first line of the traceback that ends at its bottom (its
    exception's message may run on over several lines and blank ones), or None: a log record (a
    line with a time) comes first, or no frame does."""
    index = len(above) - 1
    while index >= 0 and parse_frame(above[index][1]) is None:
        if parse_stamp(above[index][1], formats) is not None:
            return None
        index -= 1
    if index < 0:
        return None
    while index > 0:
        line = above[index - 1][1]
        if parse_stamp(line, formats) is not None or not (
            parse_frame(line) or line.startswith((" ", "\t", *_CONNECTORS)) or _CARETS.match(line)
        ):
            break
        index -= 1
    return index


def read_what(
    buf: bytes | bytearray, first_line_end: int, limit: int, formats: Formats | None = None
) -> dict[str, FieldValue]:
    """The `what():` text printed under a `terminate called after throwing ...` line, as the
    exception's message (`exc_message`); `formats`: the catalogue whose wrappers are launchers' tags."""
    formats = formats or shipped()
    following = _following_lines(buf, first_line_end, limit, None).upto(WHAT_LOOKAHEAD + 1)
    thrower = _launcher_tags(_line_ending(buf, first_line_end), formats)
    for offset, line in enumerate(following[:WHAT_LOOKAHEAD], start=1):
        found = _WHAT.match(formats.inside_tags(line))
        if found is None or (thrower and _launcher_tags(line, formats) != thrower):
            continue  # not a what() line, or another worker's (ranks' lines interleave)
        message = found.group("message")
        if not message and offset < len(following):  # the text starts on the next line
            message = following[offset].strip()
        elif message and message.rstrip().endswith(":") and offset < len(following):
            # ... or goes on there: torch_npu's `HCCL watchdog thread terminated with exception:`
            # over the CANN error it caught (`[ERROR] ... ERR02005 DIST internal error`).
            message = f"{message.rstrip()} {formats.message(following[offset]).strip()}".rstrip()
        return {"exc_message": clip(message, MESSAGE_CHARS, mark="")} if message else {}
    return {}


def _line_ending(buf: bytes | bytearray, line_end: int) -> str:
    start = buf.rfind(b"\n", 0, line_end) + 1
    return clean_line(buf[start:line_end].decode("utf-8", errors="replace"))[0]


def _launcher_tags(line: str, formats: Formats) -> str:
    """The launchers' tags (`(Worker_TP2 pid=733) `: the catalogue's wrappers) `line` starts with."""
    return line[: len(line) - len(formats.inside_tags(line))].strip()


def stack_of(fields: Callable[[str], Any]) -> list[Frame]:
    """The stack an event's fields keep (see `_fields`), outermost frame first."""
    text, offsets = fields("stack"), fields("stack_at")
    if not isinstance(text, str) or not text:
        return []
    lines = text.split("\n")
    at = list(offsets) if isinstance(offsets, tuple) and len(offsets) == len(lines) else [0] * len(lines)
    kept = fields("stack_calls")
    calls = kept.split("\n") if isinstance(kept, str) else []
    calls = calls if len(calls) == len(lines) else [""] * len(lines)
    return [
        replace(frame, call=call) if call else frame
        for line, offset, call in zip(lines, at, calls, strict=True)
        if (frame := parse_frame(line, offset))
    ]


class _Following:
    """The lines below a block's first line (up to MAX_TRACEBACK_LINES, within MAX_TRACEBACK_BYTES),
    each decoded and cleaned when first read: a traceback ends after a few dozen of them, and
    reading all the rest cost a hit ~1 ms. With `formats`, a line behind the same launcher's tags as
    the first line (`[rank0]: `, `(EngineCore_DP0 pid=742) `, journald's `host prog[pid]: `; their
    times aside) is read inside them, as the process wrote it; another process's line is left whole,
    and its index kept in `foreign` (an untagged line naming an exception is the process's own).
    A line that repeats the first line's own record prefix (vLLM's logger writes every line of a
    multi-line message behind `ERROR 03-18 14:03:39 [core.py:708] `: the same level, time and call
    site) is read behind it too, its indentation kept: it is that record's next line."""

    __slots__ = ("_buf", "_end", "_formats", "_indent", "_lines", "_pos", "_record", "_who", "foreign")

    def __init__(
        self, buf: bytes | bytearray, start: int, limit: int, formats: Formats | None = None, from_line: bool = False
    ) -> None:
        self._buf = buf
        self._end = min(limit, start + MAX_TRACEBACK_BYTES)
        if from_line:  # reading starts at `start`, the first line's own start (read above an announcing line)
            self._start_at_line(start, formats)
            return
        first_start = buf.rfind(b"\n", 0, start) + 1
        first, _ = clean_line(buf[first_start:start].decode("utf-8", errors="replace"))
        self._formats = formats
        self._who, first = formats.tags(first) if formats is not None else ("", first)
        self._record = _record_prefix(first, formats)
        # A pasted excerpt may be indented as a whole: read the traceback relative to its first line.
        self._indent = first[: len(first) - len(first.lstrip())]
        self._lines: list[str] = []
        self.foreign: set[int] = set()
        # The bytes from `start` are split at newlines and the piece before the first one is not a
        # line below (it is the first line's end): reading starts after that newline.
        newline = buf.find(b"\n", start, self._end)
        self._pos = newline + 1 if newline != -1 else -1  # -1: no line below

    def _read_to(self, count: int) -> None:
        lines, buf, end, indent = self._lines, self._buf, self._end, self._indent
        while len(lines) < min(count, MAX_TRACEBACK_LINES) and self._pos != -1:
            newline = buf.find(b"\n", self._pos, end)
            stop = newline if newline != -1 else end
            line, _ = clean_line(buf[self._pos : stop].decode("utf-8", errors="replace"))
            line, ours = self._inside_tags(line)
            if not ours and not self._untagged_exception(line):
                self.foreign.add(len(lines))
            lines.append(line[len(indent) :] if indent and line.startswith(indent) else line)
            self._pos = newline + 1 if newline != -1 else -1

    def _start_at_line(self, start: int, formats: Formats | None) -> None:
        self._formats = formats
        first_end = self._buf.find(b"\n", start, self._end)
        stop = first_end if first_end != -1 else self._end
        first, _ = clean_line(self._buf[start:stop].decode("utf-8", errors="replace"))
        self._who, inside = formats.tags(first) if formats is not None else ("", first)
        # A frame logged as a record of its own (vLLM's `ERROR ... [core.py:845]   File ...`): the
        # lines that repeat its record prefix are the traceback's next lines.
        self._record = _record_prefix(inside, formats)
        self._indent = ""
        self._lines = []
        self.foreign = set()
        self._pos = start if start < self._end else -1

    def _inside_tags(self, line: str) -> tuple[str, bool]:
        """The line as its process wrote it, and whether it is the first line's process's: behind the
        same launcher's tags (a line is anyone's when the first line had none)."""
        if self._formats is None or not (self._who or self._record):
            return line, True
        who, inside = self._formats.tags(line) if self._who else ("", line)
        if who != self._who:
            return line, False
        return (inside[len(self._record) :] if self._record and inside.startswith(self._record) else inside), True

    def _untagged_exception(self, line: str) -> bool:
        """A line without any launcher's tag that names an exception: the process's own exception
        line written without its tag (`UnboundLocalError: ...` under frames behind vLLM's
        `(EngineCore_0 pid=2353) `), not another stream's."""
        return self._formats is not None and not self._formats.tags(line)[0] and bool(_NAMES_EXCEPTION.match(line))

    def get(self, index: int) -> str | None:
        """The line `index` below (0: the first), or None past the last."""
        self._read_to(index + 1)
        return self._lines[index] if index < len(self._lines) else None

    def upto(self, count: int) -> list[str]:
        self._read_to(count)
        return self._lines[:count]

    def between(self, start: int, stop: int) -> list[str]:
        self._read_to(stop)
        return self._lines[start:stop]


def _record_prefix(first: str, formats: Formats | None) -> str:
    """The prefix a logger repeats before every line of one record, as the first line (inside its
    launchers' tags) shows it: the text a time-stating format reads before the message, up to the
    one space after it (`ERROR 03-18 14:03:39 [core.py:708] `); "" when no such format reads it."""
    if formats is None or not first:
        return ""
    reading = formats.read(first)
    if reading.format is None or not reading.format.says_when or reading.level is None:
        return ""
    core = first[: len(first) - len(reading.message)].rstrip()
    return core + " " if core and first[len(core) : len(core) + 1] == " " else ""


def _following_lines(
    buf: bytes | bytearray, start: int, limit: int, formats: Formats | None, from_line: bool = False
) -> _Following:
    return _Following(buf, start, limit, formats, from_line)


def _until_exception_ends(lines: _Following) -> tuple[list[str], set[int]]:
    """Cut after the last exception line of the (possibly chained) traceback; with the indices of
    the flush-left source lines among the kept ones (`_is_flush_left_source`)."""
    kept: list[str] = []
    sources: set[int] = set()
    index = 0
    while (line := lines.get(index)) is not None:
        kept.append(line)
        if index and _is_flush_left_source(line, kept[index - 1]):
            sources.add(index)
        # A traceback read behind its process's tags goes on past the lines another stream wrote
        # between its lines (an extension's message on the bare stderr, another rank's record): its
        # exception line is behind the same tags, or names an exception with no tag at all
        # (vllm-project/vllm#30346: nanobind's `leaked 1 instances!` between an engine core's frames).
        is_exception = (
            line
            and index not in lines.foreign
            and not line.startswith((" ", "\t", *_CONNECTORS, *_GDB_CHATTER))
            and not _elided(line)
            and line.strip() != UCX_BACKTRACE_END
            and parse_frame(line) is None  # native backtraces and stripped exports print frames flush left
            and index not in sources
            and not _CARETS.match(line)
        )
        if is_exception and not _chain_continues(lines, index + 1):
            break
        index += 1
    return kept, sources


def _elided(line: str) -> bool:
    """A line that stands for frames a paste left out, and nothing else (`...`, `[... 12 frames ...]`)."""
    text = line.strip()
    return text in _ELIDED[:2] or (text.startswith(_ELIDED[2]) and text.endswith("]"))


def _is_flush_left_source(line: str, above: str) -> bool:
    """Whether `line` is the source line printed flush left under the frame `above`. An export that
    strips leading whitespace (Cloud Logging, some collectors, a paste) leaves a frame's source
    line where an exception line would stand: the line right under a flush-left `File "x.py", line
    N, in f` is its source, unless it names an exception (the frame's source could not be read).
    Lines that keep their indentation are read by it, as before."""
    if not line or line[0].isspace() or not above or above[0].isspace() or _NAMES_EXCEPTION.match(line):
        return False
    frame = parse_frame(above)
    return frame is not None and frame.source_below and parse_frame(line) is None


def _last_error(after: list[str], formats: Formats | None) -> str | None:
    """NCCL's own last error, where torch continues the final exception's message with it
    (`NCCL error in: ...` / `ncclSystemError: ...` / `Last error:` / the error): the cause that
    message's first line only calls "unhandled system error"."""
    for index, line in enumerate(after[:CONTINUATION_LINES]):
        if not line.strip() or parse_stamp(line, formats) is not None:
            return None  # the message ended: a blank line or the next log record
        if line.strip() == LAST_ERROR and index + 1 < len(after):
            return clip(after[index + 1].strip(), MESSAGE_CHARS, mark="") or None
    return None


def _chain_continues(lines: _Following, index: int) -> bool:
    for line in lines.between(index, index + 3):
        if line.strip():
            return line.startswith(_CONNECTORS)
    return False


def _chain_cause(first: tuple[str, str], link: str) -> dict[str, FieldValue]:
    """The first exception of a chain (`exc_cause`, `Type: message`) and how the last follows it
    (`exc_cause_link`: raised from it, or raised while handling it)."""
    cause = f"{first[0]}: {first[1]}" if first[1] else first[0]
    return {
        "exc_cause": clip(cause, MESSAGE_CHARS, mark=""),
        "exc_cause_link": CHAIN_CAUSE if link == _CHAIN_LINKS[0] else CHAIN_HANDLING,
    }


def _fields(frames: list[Frame], exception: tuple[str, str] | None) -> dict[str, FieldValue]:
    """`frames` outermost first. The stack is kept as its printed lines (and their distance below
    the announcing line), for the crash analysis to read with frames.toml and to quote."""
    if exception is None and not frames:
        return {}
    fields: dict[str, FieldValue] = {"traceback_frames": len(frames)}
    if exception is not None:
        fields["exc_type"] = exception[0]
        fields["exc_message"] = clip(exception[1], MESSAGE_CHARS, mark="")
    kept = frames if len(frames) <= 2 * STACK_KEEP else frames[:STACK_KEEP] + frames[-STACK_KEEP:]
    if kept:
        fields["stack"] = "\n".join(frame.text for frame in kept)
        fields["stack_at"] = tuple(frame.offset for frame in kept)
        if any(frame.call for frame in kept):
            fields["stack_calls"] = "\n".join(frame.call for frame in kept)  # one per frame line
    project = [frame for frame in frames if any(marker in frame.file for marker in PROJECT_MARKERS)]
    innermost = (project or frames)[-1] if frames else None
    if innermost is not None:
        fields["frame_file"] = innermost.file
        fields["frame_line"] = innermost.line
        fields["frame_func"] = innermost.func
    return fields
