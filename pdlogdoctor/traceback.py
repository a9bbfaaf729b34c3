"""Read a Python traceback that follows a matched line.

sglang logs `Scheduler hit an exception: Traceback (most recent call last):`
with the rest of the traceback on the following, unprefixed lines. What a
diagnosis needs from it: the exception type and message, and the innermost
frame that belongs to the project (not to torch or the standard library).
"""

from __future__ import annotations

import regex

from .model import FieldValue
from .timeline import clean_line, parse_stamp

MAX_TRACEBACK_LINES = 400
MAX_TRACEBACK_BYTES = 256 << 10
# The comma is optional: faulthandler's dumps (after 'Fatal Python error: ...') write `line N in f`.
# Python frames are indented; native crash banners ('Segfault encountered') print theirs flush left.
_FRAME = regex.compile(r'^\s*File "(?P<file>[^"]+)", line (?P<line>\d+),? in (?P<func>\S+)')
_EXCEPTION = regex.compile(r"^(?P<type>[A-Za-z_][\w.]*)(?::\s?(?P<message>.*))?$")
_CONNECTORS = (
    "During handling of the above exception",
    "The above exception was the direct cause",
    "Traceback (most recent call last):",
    "Thread 0x",  # faulthandler: one stack per thread
    "Current thread 0x",
)
_FAULTHANDLER = ("Thread 0x", "Current thread 0x")
PROJECT_MARKERS = ("/sglang/", "/vllm/", "/mori/", "/mooncake/", "/nixl/", "sglang/srt", "sgl_kernel")
# Functions only the scheduler's serving loop runs: a crash under one of them happened after
# initialization (while serving, or in the warmup request, which the loop serves too).
NATIVE_FILE = "<unknown>"  # how native crash banners name the file of every frame
# KV-transfer engine frames run only while KV moves: serving, or the warmup request.
SERVING_FRAMES = ("event_loop", "process_batch_result", "run_batch", "mooncake::", "nixl", "ucp_", "uct_")


def read_traceback(buf: bytes | bytearray, first_line_end: int, limit: int) -> dict[str, FieldValue]:
    """Fields of the traceback after `first_line_end` in `buf`: empty if there is none."""
    frames: list[tuple[str, int, str]] = []
    crashed: list[tuple[str, int, str]] = []  # faulthandler's "Current thread" stack: the one that faulted
    in_crashed = False
    exception: tuple[str, str] | None = None
    newest_first = False
    for line in _following_lines(buf, first_line_end, limit):
        if not line.strip() or line.startswith(_CONNECTORS):
            newest_first = newest_first or line.startswith(_FAULTHANDLER)
            in_crashed = line.startswith("Current thread 0x") or (in_crashed and not line.startswith(_FAULTHANDLER))
            continue
        frame = _FRAME.match(line)
        if frame:
            frames.append((frame.group("file"), int(frame.group("line")), frame.group("func")))
            if in_crashed:
                crashed.append(frames[-1])
            continue
        if line.startswith((" ", "\t")):
            continue  # the source line under a frame, or a caret line
        found = _EXCEPTION.match(line)
        if found is None or parse_stamp(line) is not None:
            break  # the next log record: the traceback is over
        exception = (found.group("type"), (found.group("message") or "").strip())
    # faulthandler lists the newest call first (and the faulting thread as "Current thread");
    # a traceback lists the newest call last
    if crashed:
        return _fields(crashed[::-1], exception)
    return _fields(frames[::-1] if newest_first else frames, exception)


def _following_lines(buf: bytes | bytearray, start: int, limit: int) -> list[str]:
    end = min(limit, start + MAX_TRACEBACK_BYTES)
    text = buf[start:end].decode("utf-8", errors="replace")
    first_start = buf.rfind(b"\n", 0, start) + 1
    first, _ = clean_line(buf[first_start:start].decode("utf-8", errors="replace"))
    # A pasted excerpt may be indented as a whole: read the traceback relative to its first line.
    indent = first[: len(first) - len(first.lstrip())]
    lines = []
    for raw in text.split("\n")[1 : MAX_TRACEBACK_LINES + 1]:
        line, _ = clean_line(raw)
        lines.append(line[len(indent) :] if indent and line.startswith(indent) else line)
    return _until_exception_ends(lines)


def _until_exception_ends(lines: list[str]) -> list[str]:
    """Cut after the last exception line of the (possibly chained) traceback."""
    kept: list[str] = []
    for index, line in enumerate(lines):
        kept.append(line)
        is_exception = line and not line.startswith((" ", "\t")) and not line.startswith(_CONNECTORS)
        if is_exception and not _chain_continues(lines, index + 1):
            break
    return kept


def _chain_continues(lines: list[str], index: int) -> bool:
    for line in lines[index : index + 3]:
        if line.strip():
            return line.startswith(_CONNECTORS)
    return False


def _fields(frames: list[tuple[str, int, str]], exception: tuple[str, str] | None) -> dict[str, FieldValue]:
    if exception is None and not frames:
        return {}
    fields: dict[str, FieldValue] = {"traceback_frames": len(frames)}
    if exception is not None:
        fields["exc_type"] = exception[0]
        fields["exc_message"] = exception[1][:500]
    serving = [frame for frame in frames if frame[2].startswith(SERVING_FRAMES)]
    if serving:
        fields["serving_frame"] = serving[0][2]
    project = [frame for frame in frames if any(marker in frame[0] for marker in PROJECT_MARKERS)]
    innermost = (project or frames)[-1] if frames else None
    if frames and all(frame[0] == NATIVE_FILE for frame in frames):
        innermost = frames[0]  # a native backtrace lists the crashing frame first, Python's last
    if innermost is not None:
        fields["frame_file"] = innermost[0]
        fields["frame_line"] = innermost[1]
        fields["frame_func"] = innermost[2]
    return fields
