"""The patterns read on pastes only: shapes with no literal a scan could search for.

A generation that loops (`you, you, you, ...`, `OOOOOOOO...`), or strings words together with no
sentence in them, says it is broken by its shape, not by a word: no anchor finds it, and testing a
shape on every line of a multi-gigabyte log is what the anchored scan exists to avoid. A paste is
small: an input read whole in its head (HEAD_BYTES) is read again line by line for the library's
`pastes_only` patterns, at a cost bounded by its size. A large log's generations are printed in
fields that anchored patterns read (`"text": ...`).

A paste may also end in a stack: a Python traceback's frames, its header and its exception line both
cut, or gdb's backtrace of a thread with no signal's line above it. The frames carry no error word
for the error layer's anchors, and only a paste read whole shows where its lines stop (`cut_stack`).
"""

from __future__ import annotations

import functools
import operator
import re
from collections import Counter
from collections.abc import Iterator
from dataclasses import replace
from itertools import islice

from ..library.errorlines import ErrorLayer
from ..library.formats import Formats
from ..library.frames import Frame, parse_frame
from ..library.lazyregex import MULTILINE, LazyRegex
from ..library.patterns import MATCH_TIMEOUT_S, Pattern, match_line
from ..library.templates import template_of
from ..model import Event, Kind, Severity
from ..model.lazyre import lazy_re
from ..model.textcut import clip
from .events import MAX_TEXT, make_event
from .timeline import clean_line
from .traceback import STACK_KEEP, TRACEBACK_HEADER

MAX_PASTE_EVENTS = 20  # per pattern and input: a looping answer may fill many lines; a few show it


def paste_events(name: str, head: str, patterns: tuple[Pattern, ...]) -> tuple[Event, ...]:
    """The events of the `pastes_only` patterns on the lines of an input read whole (`head`)."""
    if not patterns:
        return ()
    if not could_match(head):
        return ()  # most pastes and small logs: told in a few microseconds
    found: list[Event] = []
    for pattern in patterns:
        if _anywhere(pattern, head):
            found += _pattern_events(name, head, pattern)
    return tuple(found)


def _pattern_events(name: str, head: str, pattern: Pattern) -> list[Event]:
    """The pattern's events in the paste: the first MAX_PASTE_EVENTS of its lines, each telling how
    many lines of its kind (failing or not) the paste holds, as the scan's events do."""
    events: list[Event] = []
    for number, text in _lines(head):
        try:
            captured = match_line(pattern, text)
        except TimeoutError:
            continue  # a line this slow to read is no loop the pattern can tell
        if captured is not None:
            events.append(make_event(pattern, name, number, None, text, captured))
    kinds = Counter(event.failing for event in events)
    return [replace(event, repeats=kinds[event.failing]) for event in events[:MAX_PASTE_EVENTS]]


# What every shape the library's pastes_only patterns read leaves in a text, told at C speed: a word
# that follows itself (`you, you, you`: its words split at blanks, eight equal neighbours at least),
# a phrase that does (each word equal to the word a phrase's length on, for phrases of up to
# PHRASE_WORDS words), a word that runs on (`OOOOOOOO...`, sixty characters at least), or the
# replacement character a decoder writes for bytes that are no text (an answer cut inside a
# character). The patterns' own search of a text (a backreference tried at every word) costs several
# times this test (~50 µs for a 2 KB log of 260 words, its passes over the words in C), and a paste
# that fails it holds nothing they match.
LOOP_NEIGHBOURS = 8
LOOP_RUN = 60
PHRASE_WORDS = 4
REPLACEMENT = "\ufffd"


def could_match(text: str) -> bool:
    """Whether `text` may hold a generation the pastes_only patterns read (a loop, undecodable, or a
    long line of words with no sentence in them)."""
    if REPLACEMENT in text or _CJK_LOOP.search(text):
        return True
    words = text.split()
    if not words:
        return False
    if max(map(len, words)) >= LOOP_RUN or _a_long_line(text):
        return True
    # a word that follows itself, or a phrase of up to PHRASE_WORDS words (each word then equals the
    # one that many places on)
    return len(words) > LOOP_NEIGHBOURS and any(
        sum(map(operator.eq, words, islice(words, step, None))) >= LOOP_NEIGHBOURS
        for step in range(1, PHRASE_WORDS + 1)
    )


# A word of a script written without spaces glued to itself ten times (generation-loop-in-paste's `cjk`).
_CJK_LOOP = lazy_re(r"([\u4e00-\u9fff\u3040-\u30ff\uac00-\ud7af]{1,4})\1{9,}")
SALAD_TOKENS = 30  # blank-separated tokens of a line that may be words with no sentence in them


def _a_long_line(text: str) -> bool:
    return any(line.count(" ") + line.count("\t") >= SALAD_TOKENS - 1 for line in text.splitlines())


def _anywhere(pattern: Pattern, head: str) -> bool:
    """Whether the pattern can match a line of `head`: its regex searched over the whole text, each
    line's start and end its own (MULTILINE). A line it matches is found so too; a match across lines
    is a candidate the line-by-line reading then refuses."""
    try:
        return _whole(pattern.regex.pattern, pattern.regex.flags).search(head, timeout=MATCH_TIMEOUT_S) is not None
    except TimeoutError:
        return True  # undecided: the lines tell


@functools.cache
def _whole(source: str, flags: int) -> LazyRegex:
    return LazyRegex(source, flags | MULTILINE)


def _lines(head: str) -> Iterator[tuple[int, str]]:
    """Each line of the paste as the scan reads it (a collector's or runner's prefix taken off), from 1."""
    for number, raw in enumerate(head.split("\n"), start=1):  # as the scan counts lines: by newline
        text = clean_line(raw)[0]
        if text.strip():
            yield number, text


# ---------------------------------------------------------------- a stack the paste ends in

# The error layer's marker of a traceback's source line (severity.toml): a traceback cut before its
# exception line is told by its innermost source line (reason/unexplained.py keeps it).
TRACEBACK_SOURCE = "traceback-source"
MIN_CUT_FRAMES = 2  # one frame line may be quoted in prose; two in a row are a traceback
_CARETS = lazy_re(r"^\s*[~^]+\s*$")  # the standard library's: a paste with no frame imports no `regex`
# A frame of an installed package (site-packages, dist-packages), of Python's own library, or of a
# compiled module (no path): the library a call went into, not the program that made it.
_LIBRARY_FRAME = LazyRegex(r"/(?:site|dist)-packages/|/lib/python\d[\d.]*/|^[^/]*$")


GDB_BACKTRACE = "gdb-backtrace"  # the error layer's line of gdb's backtrace (sources.toml): an effect
# gdb's frame line (`#1  0x00007f... in func (args) from lib`, `#0  func () at file:line`): told by its
# words first, so a paste with no such line compiles no frame regex.
_GDB_FRAME_START = lazy_re(r"^\s*#\d+\s+\S")
# The C library's and the thread machinery's own frames: where a crash shows, not what made it.
_SYSTEM_FUNCTION = lazy_re(
    r"^(?:_\w+|start_thread|clone3?|raise|abort|std::execute_native_thread_routine\w*|"
    r"(?:__)?pthread_\w+|memcpy|memmove|memset|strlen|free|malloc)\b"
)


def cut_stack(name: str, head: str, layer: ErrorLayer | None, formats: Formats | None = None) -> Event | None:
    """The error line a paste that ends in a stack stands for: a Python traceback cut at both ends
    (`cut_traceback`), or a native backtrace as gdb prints it (`#0  func () at file`, `#1  ...`), a
    crashed or hung thread's frames pasted with no signal's line above. None otherwise. With the
    line formats, rows a logger prefixed are read behind their prefix (`_one_process`)."""
    return cut_traceback(name, head, layer, formats) or native_backtrace(name, head, layer, formats)


def under_its_header(cut: Event) -> bool:
    """A cut stack `cut_traceback` placed on its header's row: the header is the error layer's line
    already (its own event, its own count), and the stack only adds frames to it."""
    return cut.pattern == TRACEBACK_SOURCE and cut.text.rstrip().endswith(TRACEBACK_HEADER)


def native_backtrace(name: str, head: str, layer: ErrorLayer | None, formats: Formats | None = None) -> Event | None:
    """A paste that ends in two or more of gdb's frames: its innermost frame outside the C library and
    the thread machinery (`#1  mooncake::MemcpyWorkerPool::workerThread ()` under `#0  __memcpy_...`),
    as the error layer's line of a gdb backtrace: an effect (a stack shows where a thread was, crashed
    or hung, not why), ranked after the lines that say what happened."""
    rows = _pasted_rows(head, formats)
    frames: list[tuple[int, str]] = []
    at = len(rows) - 1
    while at >= 0:
        if _GDB_FRAME_START.match(rows[at]):
            frames.append((at, _gdb_function(rows[at])))
        elif not (rows[at][:1].isspace() and at > 0 and _GDB_FRAME_START.match(rows[at - 1])):
            break  # neither a frame nor the `at file` / `from lib` line gdb wraps under one
        at -= 1
    # gdb numbers the innermost frame #0 and prints it first: a list of issue numbers (`#1234 Fix ...`)
    # has no #0.
    if len(frames) < MIN_CUT_FRAMES or not _INNERMOST.match(rows[min(frames)[0]]):
        return None
    innermost_first = sorted(frames)
    own = [(row, function) for row, function in innermost_first if not _SYSTEM_FUNCTION.match(function)]
    row, _ = (own or innermost_first)[0]
    return _error_line(name, row, rows[row].strip(), GDB_BACKTRACE, layer)


_INNERMOST = lazy_re(r"^\s*#0\s")
_GDB_PREFIX = lazy_re(r"^\s*#\d+\s+(?:0x[0-9a-fA-F]+ in )?")


def _gdb_function(row: str) -> str:
    """The function a gdb frame's row names (a paste may keep the name alone: `#3  start_thread`)."""
    rest = _GDB_PREFIX.sub("", row)
    return re.split(r" \(| at | from ", rest, maxsplit=1)[0].strip()


def cut_traceback(name: str, head: str, layer: ErrorLayer | None, formats: Formats | None = None) -> Event | None:
    """A paste that ends inside a Python traceback's frames, its header and exception line both cut
    (`File "...", line N, in f` and the source lines under them, then nothing): an exception was
    raised there, and the line that named it was not given. The event is the innermost source line of
    the program's own frames (where it called into the library that raised), as the error layer's
    line of a traceback cut before its exception, so it is ranked and quoted as one; it keeps the
    frames as an exception's line keeps its traceback's, so frames.toml can tell where it was raised.
    None when the paste does not end so. When a header above the frames is that error line already, the
    event is the header's line with the frames (scan/inputs.py joins it to the header's own event)."""
    rows = _pasted_rows(head, formats)
    top, frames = _trailing_frames(rows)
    if len(frames) < MIN_CUT_FRAMES:
        return None
    header = _header_above(rows, top)
    if header >= 0:
        # The header is the error layer's line already: it keeps the frames below it (a process's own
        # traceback that multiprocessing prints, `Process EngineCore_0:`, cut in its constructor).
        return replace(
            _error_line(name, header, rows[header], TRACEBACK_SOURCE, layer), fields=_stack_fields(frames, rows)
        )
    number, text = _innermost_call(frames, rows)
    return replace(_error_line(name, number, text, TRACEBACK_SOURCE, layer), fields=_stack_fields(frames, rows))


def _stack_fields(frames: list[tuple[int, Frame]], rows: list[str]) -> tuple[tuple[str, str], ...]:
    """The frames' rows and the source line under each, outermost first, as scan/traceback.py keeps
    an exception's stack (`stack`, `stack_calls`); the ends of a long one."""
    kept = frames if len(frames) <= 2 * STACK_KEEP else frames[:STACK_KEEP] + frames[-STACK_KEEP:]
    calls = [_call_under(rows, at) for at, _ in kept]
    fields = {"stack": "\n".join(rows[at] for at, _ in kept)}
    if any(calls):
        fields["stack_calls"] = "\n".join(calls)
    return tuple(sorted(fields.items()))


def _call_under(rows: list[str], at: int) -> str:
    """The source line printed under the frame at row `at` ("" when the paste shows none)."""
    below = _row_below(rows, at)
    if _under_a_frame(rows, below) and not _CARETS.match(rows[below]):
        return rows[below].strip()
    return ""


def _pasted_rows(head: str, formats: Formats | None = None) -> list[str]:
    """The paste's rows as the scan reads them (prefixes a collector added taken off), its blank end
    dropped: a stack's last frame is its last row. A tag every row starts with (what a logger's
    prefix left when the poster cut its level and time: `[multiproc_executor.py:944]`) is taken off
    too, so the frames' indentation shows; a row that is a time alone (a log viewer's column, copied
    onto a row of its own between the lines it stamps) is kept blank, so rows stay the file's lines.
    With the line formats, a logger's whole prefix is taken off too, and only the rows of the process
    that wrote the last row are kept (`_one_process`)."""
    rows = [clean_line(row)[0].rstrip() for row in head.splitlines()]
    rows = ["" if _TIME_ALONE.match(row) else row for row in rows]
    while rows and not rows[-1].strip():
        rows.pop()
    if formats is not None:
        rows = _one_process(rows, formats)
    tag = _shared_tag([row for row in rows if row])
    return [row[len(tag) :] if tag else row for row in rows]


def _one_process(rows: list[str], formats: Formats) -> list[str]:
    """The rows of the process that wrote the last row, each behind its logger's prefix, its
    indentation kept; the rows other processes wrote kept blank, so rows stay the file's lines. A
    logger that prints a traceback prefixes each of its lines (vLLM's workers: `(VllmWorker rank=1
    pid=1034) ERROR 09-08 21:48:38 [multiproc_executor.py:522]   File ...`), and the ranks of one
    engine print theirs in the same moment, their lines interleaved: each rank's frames are a stack of
    their own. A row no format prefixes (a continuation) stays as it is. The rows as they were when
    fewer than MIN_CUT_FRAMES rows are a logger's."""
    read = [_behind_prefix(row, formats) for row in rows]
    if sum(1 for who, _ in read if who) < MIN_CUT_FRAMES:
        return rows
    last = read[-1][0]  # rows: at least MIN_CUT_FRAMES of them are a logger's
    if not last:
        return rows
    return [text if who == last else ("" if who else row) for row, (who, text) in zip(rows, read, strict=True)]


def _behind_prefix(row: str, formats: Formats) -> tuple[str, str]:
    """Who wrote the row (its logger prefix without the time: the same for every line of one
    process) and its message with the indentation it was logged with; ("", row) for a row no format
    prefixes with a level, nor a launcher with its process's tag (vLLM's `(EngineCore pid=6685)`
    before what the process wrote to its stderr: a traceback's rows, no level)."""
    reading = formats.read(row)
    if reading.format is not None and reading.level is not None and reading.message and row.endswith(reading.message):
        # The time goes (its fraction may differ between a traceback's rows); the process tag, its pid
        # and rank, and the call site stay.
        return _TIME_IN_PREFIX.sub("", _prefix_of(row, reading.message).rstrip()), _indented(row, reading.message)
    who, inside = formats.tags(row)
    if who.strip() and inside.strip() and row.endswith(inside):
        return who.strip(), _indented(row, inside)
    return "", row


def _prefix_of(row: str, message: str) -> str:
    return row[: len(row) - len(message)]


def _indented(row: str, message: str) -> str:
    """The message with the indentation it was written with: the spaces its prefix ends in, less the
    one that separates a prefix from what follows it."""
    prefix = _prefix_of(row, message)
    return " " * max(len(prefix) - len(prefix.rstrip()) - 1, 0) + message


_TIME_IN_PREFIX = lazy_re(r"\d{2,4}[-/]\d\d(?:[-/]\d\d)?|\d\d:\d\d:\d\d(?:[.,]\d+)?")


_TIME_ALONE = lazy_re(r"^\s*\d{4}-\d\d-\d\d[ T]\d\d:\d\d:\d\d(?:[.,]\d+)?(?:Z|[+-]\d\d:?\d\d)?\s*$")
_TAG = lazy_re(r"^\[[^\]\s]{1,80}\]")


def _shared_tag(rows: list[str]) -> str:
    """The bracketed tag every row starts with, when there are rows and they all do; "" otherwise."""
    found = _TAG.match(rows[0]) if rows else None
    if found is None or not all(row.startswith(found.group(0)) for row in rows):
        return ""
    return found.group(0)


def _error_line(name: str, row: int, text: str, marker: str, layer: ErrorLayer | None) -> Event:
    """The error layer's line for a row of a paste (0-based), templated as the layer templates one."""
    template = template_of(text.strip(), layer.masks) if layer is not None else text.strip()
    return Event(
        pattern=marker,
        source=name,
        line=row + 1,
        time=None,
        time_text=None,
        text=clip(text, MAX_TEXT),
        fields=(),
        severity=Severity.ERROR,
        kind=Kind.SYMPTOM,
        failing=True,
        template=template,
    )


def _trailing_frames(rows: list[str]) -> tuple[int, list[tuple[int, Frame]]]:
    """The first row of the frames the rows end with (Python frames, the source line under each, caret
    lines), and those frames with their rows, outermost first."""
    frames: list[tuple[int, Frame]] = []
    at = len(rows) - 1
    while at >= 0:
        frame = _traceback_frame(rows[at])
        if frame is not None:
            frames.append((at, frame))
        elif not _under_a_frame(rows, at) and rows[at] != "":
            break  # a blank row inside the frames (a time that stood alone there: _pasted_rows) parts none
        at -= 1
    while at + 1 < len(rows) and rows[at + 1] == "":
        at += 1  # the frames start at a frame, not at a time above them
    return at + 1, frames[::-1]


def _header_above(rows: list[str], top: int) -> int:
    """The row of a traceback's header above the frames, across the frames Python prints with no source
    line (`File "<frozen runpy>", line 198, in _run_module_as_main`): the error layer's line already.
    -1 when there is none."""
    at = top - 1
    while at >= 0 and ('File "' in rows[at] or rows[at][:1].isspace()):
        at -= 1
    return at if at >= 0 and rows[at].strip().endswith(TRACEBACK_HEADER) else -1


def _under_a_frame(rows: list[str], at: int) -> bool:
    """An indented source line right under a frame, or a caret line under such a line."""
    if at >= len(rows) or not rows[at][:1].isspace() or at == 0:
        return False
    row_above = _row_above(rows, at)
    if row_above < 0:
        return False
    above = rows[row_above]
    if _CARETS.match(rows[at]):
        return _traceback_frame(above) is not None or _under_a_frame(rows, row_above)
    return _traceback_frame(above) is not None


def _row_below(rows: list[str], at: int) -> int:
    """The nearest row below `at` that is not blank (len(rows) when none), as _row_above."""
    below = at + 1
    while below < len(rows) and rows[below] == "":
        below += 1
    return below


def _row_above(rows: list[str], at: int) -> int:
    """The nearest row above `at` that is not blank (-1 when none): the rows a viewer's time left
    blank between a frame and its source line (_pasted_rows) do not part them."""
    above = at - 1
    while above >= 0 and rows[above] == "":
        above -= 1
    return above


def _traceback_frame(row: str) -> Frame | None:
    """The frame a traceback prints on the row (`File "x.py", line N, in f`, its source line below),
    or None: faulthandler's and py-spy's dumps print frames too, of a hang, not of an exception. Told
    first by its words, so a paste with no frame compiles no frame regex."""
    if 'File "' not in row:
        return None
    frame = parse_frame(row)
    return frame if frame is not None and frame.source_below else None


def _innermost_call(frames: list[tuple[int, Frame]], rows: list[str]) -> tuple[int, str]:
    """The row and text of the innermost own frame's source line (a frame that is no installed
    package's), else of the innermost frame's source line, else the last frame's own row."""
    called = [(below, frame) for at, frame in frames if _under_a_frame(rows, below := _row_below(rows, at))]
    own = [(at, frame) for at, frame in called if not _LIBRARY_FRAME.search(frame.file)]
    chosen = own or called
    if chosen:
        at, _ = chosen[-1]
        return at, rows[at]
    at, _ = frames[-1]
    return at, rows[at]
