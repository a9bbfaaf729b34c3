"""One input scanned: a file, a stream, or each member of an archive, into a `Source` and its events.

A large plain file is scanned in byte ranges on several cores (parallel.py); the result is the same.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import replace

from ..ingest import ByteSource, Deadline, LogInput
from ..ingest.coredump import core_problem
from ..ingest.streams import disk_position
from ..library.formats import Formats
from ..model import Event, InputProblem, Role, Series, Source
from ..model.lazyre import lazy_re
from ..model.values import record
from .collectors import unwrap_head
from .events import HEAD_BYTES, ScanResult
from .index import AnchorIndex
from .logshape import document_kind, not_serving_problem
from .parallel import plain_file_path, scan_file_parallel, worth_splitting
from .pastes import cut_stack, paste_events, under_its_header
from .prose import prose_events
from .results import result_lines
from .roles import detect_role, node_from_name, role_from_name, with_source_role
from .search import scan_stream
from .timeline import clean_line
from .wrapped import rejoined

# Under a time budget, a router's or a harness's log is read as if it were this many times its
# size: their lines are the symptoms (a 502, an aborted probe); the servers' lines hold the causes.
SYMPTOM_ROLE_COST = 4
_SYMPTOM_ROLES = frozenset({Role.ROUTER, Role.HARNESS})


@record
class Scanned:
    source: Source
    events: tuple[Event, ...]
    series: tuple[Series, ...] = ()  # the metrics lines' time series (series.py)


def reading_order(inputs: Sequence[LogInput]) -> list[int]:
    """The order to read `inputs` in under a time budget (their positions): the cheapest evidence
    first, so that a 1 GB decode log cannot starve the 55 KB prefill log that holds the cause.
    Cheapness is the size on disk, a router's or harness's log weighed SYMPTOM_ROLE_COST times
    (from the name: the content is not read yet); ties keep the given order."""

    def cost(position: int) -> int:
        item = inputs[position]
        found = role_from_name(item.name)
        return item.size * (SYMPTOM_ROLE_COST if found is not None and found[0] in _SYMPTOM_ROLES else 1)

    return sorted(range(len(inputs)), key=lambda position: (cost(position), position))


def scan_input(
    log_input: LogInput,
    index: AnchorIndex,
    on_progress: Callable[[int], None] | None = None,
    deadline: Deadline | None = None,
    workers: int = 1,
) -> Iterator[Scanned]:
    deadline = deadline or Deadline(None)
    if deadline.passed:
        yield Scanned(_unread_source(replace(log_input, problems=(*log_input.problems, _NOT_STARTED))), ())
        return
    if log_input.members is not None:
        yield from _scan_members(log_input, index, on_progress, deadline)  # members are never split
        return
    if log_input.open is None:
        yield Scanned(_unread_source(log_input), ())
        return
    try:
        stream = log_input.open()
    except Exception as exc:  # zipfile and the decompressors raise more than OSError
        message = (exc.strerror if isinstance(exc, OSError) else None) or str(exc) or type(exc).__name__
        problem = InputProblem("unreadable", message)
        yield Scanned(_unread_source(replace(log_input, problems=(problem,))), ())
        return
    with stream:
        yield scan_one(log_input.name, deadline.wrap(stream), index, log_input.problems, on_progress, workers)


_NOT_STARTED = InputProblem("timeout", "--timeout reached before this input was read")


def _scan_members(
    log_input: LogInput, index: AnchorIndex, on_progress: Callable[[int], None] | None, deadline: Deadline
) -> Iterator[Scanned]:
    assert log_input.members is not None
    try:
        for name, stream in log_input.members():
            if deadline.passed:
                stream.close()
                problem = InputProblem("timeout", "--timeout reached; the rest of the archive was not read")
                yield Scanned(_unread_source(replace(log_input, name=name, problems=(problem,))), ())
                return
            core = getattr(stream, "core", None)  # a core dump in the archive: its header was read
            if core is not None:
                stream.close()
                yield Scanned(_unread_source(LogInput(name, 0, None, (core_problem(core),), core=core)), ())
                continue
            with stream:
                yield scan_one(name, deadline.wrap(stream), index, (), on_progress)
    except Exception as exc:  # tarfile, gzip and zstandard raise many types on corrupt data
        problem = InputProblem("corrupt-archive", f"stopped reading the archive: {exc}")
        yield Scanned(_unread_source(replace(log_input, problems=(problem,))), ())


def scan_one(
    name: str,
    stream: ByteSource,
    index: AnchorIndex,
    problems: tuple[InputProblem, ...] = (),
    on_progress: Callable[[int], None] | None = None,
    workers: int = 1,
) -> Scanned:
    return scanned(name, _scan(stream, name, index, on_progress, workers), index, problems)


_CLOSER = lazy_re(r"[}\]]")


def _last_line(head: str, formats: Formats) -> tuple[int, str] | None:
    """The last line with text of a whole file's head, and its number (from 1): the whole line, at
    its first row, when it is the last row of a record a terminal wrapped (`_whole_line`): that row
    alone is the tail of a message (`blocks":1}`), which tells a reader nothing."""
    rows = head.splitlines()
    for at in range(len(rows) - 1, -1, -1):
        text = clean_line(unwrap_head(rows[at]).strip())[0].strip()  # a collector's record: the line it holds
        if text:
            return _whole_line(rows, at, formats) or (at + 1, text)
    return None


def _whole_line(rows: Sequence[str], at: int, formats: Formats) -> tuple[int, str] | None:
    """The line rows[at] ends, read whole from the rows above it, when it is a wrapped line's last row
    that closes what they opened: a JSON record or a list a terminal cut into rows (Triton's iteration
    statistics, `... blocks":1}`). Rows that only look like parts of one line (a tool's result lines
    one under another, a command and the word below it) close nothing above them: each is its own."""
    if not _CLOSER.search(rows[at]):
        return None
    buf = "\n".join(rows[: at + 1]).encode()
    start = buf.rfind(b"\n") + 1
    whole = rejoined(buf, start, len(buf), len(buf), rows[at], formats)
    if whole is None or not whole.before or not _closes_what_was_opened(whole.parts[-1], whole.text):
        return None
    return at + 1 - whole.before, clean_line(whole.text.strip())[0].strip()


def _depths(text: str) -> tuple[int, int]:
    """Braces, and brackets, opened in `text` less those closed (strings are not told apart: a rough
    count is enough to see a row close what the rows above opened). Apart: a log prefix's `file:N]`
    closes no record's brace."""
    return text.count("{") - text.count("}"), text.count("[") - text.count("]")


def _closes_what_was_opened(last: str, whole: str) -> bool:
    """The last row closes more braces (or brackets) than it opens, and the rows above opened them."""
    closed = [kind for kind, depth in enumerate(_depths(last)) if depth < 0]
    return bool(closed) and all(_depths(whole)[kind] >= 0 for kind in closed)


# Where a person pastes what a model answered: an excerpt of no component's (a terminal, a script's
# print), or a harness's output. A server's own log prints generations in fields anchored patterns read.
PASTED_ROLES = frozenset((Role.UNKNOWN, Role.HARNESS))


def scanned(name: str, result: ScanResult, index: AnchorIndex, problems: tuple[InputProblem, ...] = ()) -> Scanned:
    """A source's scan as the source it is: its role (from its name, head and events) and node."""
    head = unwrap_head(result.head)  # a JSON-lines or containerd log: the lines its records hold
    role, reason = detect_role(name, head, result.events, index.launches)
    kind = document_kind(head, index.formats) if result.bytes else None
    if kind is not None:
        # Its words matched patterns, but it is not a log: no role from them either.
        role, reason, problems = Role.UNKNOWN, f"{kind}, not a log", (*problems, not_serving_problem(kind))
    elif role is Role.UNKNOWN:
        reason = "an excerpt: no role marker in its content or name (its lines are read and ranked)"
    source = Source(
        name=name,
        role=role,
        role_reason=reason,
        lines=result.lines,
        bytes=result.bytes,
        problems=problems + tuple(result.problems),
        node=node_from_name(name),
        last_line=_last_line(result.head, index.formats) if result.bytes <= HEAD_BYTES and kind is None else None,
        # What a person pasted or a harness printed, not a server's own log (its lines are its patterns').
        results=result_lines(result.head)
        if result.bytes <= HEAD_BYTES and kind is None and role in PASTED_ROLES
        else (),
    )
    series = result.series.series(name, role, source.node)
    events: Sequence[Event] = result.events
    if result.bytes <= HEAD_BYTES and kind is None:  # read whole
        # A log that ends inside a traceback's frames (a paste cut there, or a process that died while
        # printing it: a server's log ends where its process did) keeps them on the line it stands for.
        cut = cut_stack(name, head, index.errors, index.formats)
        pasted = paste_events(name, head, index.pasted) if role in PASTED_ROLES else ()
        # A report's sentence wrapped by hand over rows that alone say nothing (prose.py).
        written = prose_events(name, head, index.prose, index.formats, events) if role in PASTED_ROLES else ()
        events = _with_cut_stack((*events, *pasted, *written), cut)
    return Scanned(source, tuple(with_source_role(e, role) for e in events), series)


def _with_cut_stack(events: Sequence[Event], cut: Event | None) -> tuple[Event, ...]:
    """The scan's events and the line a paste's cut stack stands for (pastes.py). When the scan
    already made an event of that line (a logger printed the frames at ERROR, so the error layer read
    the source line), that event keeps its time and gains the stack: one line, one event."""
    if cut is None:
        return tuple(events)
    same = next((e for e in events if e.line == cut.line and e.pattern == cut.pattern), None)
    if same is None:
        # A header's frames join the header's own event; a header no event holds adds none.
        return tuple(events) if under_its_header(cut) else (*events, cut)
    merged = replace(same, fields=(*same.fields, *(f for f in cut.fields if same.get(f[0]) is None)))
    return tuple(merged if e is same else e for e in events)


def _scan(
    stream: ByteSource, name: str, index: AnchorIndex, on_progress: Callable[[int], None] | None, workers: int
) -> ScanResult:
    """A large plain file is scanned in byte ranges on `workers` cores; the result is the same."""
    path = plain_file_path(stream)
    if path is not None and worth_splitting(path, workers):
        return scan_file_parallel(path, name, index, workers, on_progress)
    if on_progress is None:
        return scan_stream(stream, name, index)
    progress = _OnDisk(stream, on_progress)
    result = scan_stream(stream, name, index, on_progress=progress.read)
    progress.read(0)  # the file's last bytes (a .gz's trailer) are read after its last text
    return result


class _OnDisk:
    """Progress in bytes on disk, where the bar's total counts them: a compressed file reports how
    far into the file its inflater has read; a stream with no file under it (stdin), what was read."""

    def __init__(self, stream: ByteSource, report: Callable[[int], None]) -> None:
        self.position = disk_position(stream)
        self.report = report
        self.done = 0

    def read(self, got: int) -> None:
        if self.position is None:
            if got:
                self.report(got)
            return
        now = self.position()
        if now > self.done:
            self.report(now - self.done)
            self.done = now


def _unread_source(log_input: LogInput) -> Source:
    reason = "a core dump, read by its header" if log_input.core is not None else "not read"
    return Source(log_input.name, Role.UNKNOWN, reason, 0, 0, log_input.problems, core=log_input.core)
