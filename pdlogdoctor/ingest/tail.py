"""Following inputs while they are written (`analyze --follow`): what each poll finds new.

A followed file is read from its first byte as one `Segment` (one inode), then from where the last
read stopped, never again from the start. The directories given are walked as `discover` walks
them (the same rules, order and names), again whenever one of their directories changes, so files
that appear late are read from their first byte; a walk looks at each file's first SNIFF_BYTES
(what it holds), so each byte is read once and each walk adds a few KiB. What a poll sees of each file:

- it grew: its new bytes are read (at most FOLLOW_READ per poll, so a large backlog is read over
  several polls and no file waits for another's);
- it was renamed (logrotate's `decode.log` -> `decode.log.1`, found by its inode in its directory):
  the segment goes on under the new name, its lines keep their numbers (they are that file's), and
  a new `decode.log` is a new segment;
- it was truncated in place (copytruncate, a restart that reopens its log with `>`), or deleted,
  or replaced by another file of the same name: what it held is kept as a segment that `--follow`
  read before it went, `NAME#1` (newest first, as rotated segments are numbered, and joined with
  NAME as one stream: rotation.py), and what the name holds now is read from its first byte.
  At most KEPT_SEGMENTS of them per name; older ones are dropped, and counted.
- a file that is not plain text (compressed, an archive, UTF-16) is scanned whole, as post-mortem
  `analyze` reads it, again when it has changed and then stayed the same for one poll.

What a poll cannot see: a file rewritten between two polls to more bytes than were read of it
reads as grown (`tail -F` reads it so too). Each followed file holds one descriptor while it is
followed (a renamed or deleted file is read to its end through it).

Polling, not inotify: the standard library has no inotify binding; a poll is one `os.stat` per
file and directory, a few times a second, which costs nothing measurable; and it sees writes that
inotify does not report (NFS, some overlay and bind mounts in containers). The cost of being
late is one poll interval, far below the seconds a diagnosis is wanted in.
Standard input is read on a thread (a pipe cannot be polled for growth), through a bounded queue.
"""

from __future__ import annotations

import io
import os
import queue
import stat
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import BinaryIO

from ..model import InputProblem
from ..model.options import Limits
from .content import SNIFF_BYTES, LogInput
from .discover import discover
from .duplicates import prefer_zstd
from .rotation import FOLLOWED_SEGMENT, followed_segment
from .streams import DEFAULT_LIMITS, open_regular, open_seekable, text_stream

FOLLOW_READ = 4 << 20  # bytes read from one file in one poll
KEPT_SEGMENTS = 8  # segments of one name kept after their file went (truncated, replaced, deleted)
STDIN_PIECE = 64 << 10
STDIN_QUEUE = 64  # pieces read ahead from standard input: bounded memory when the scan is slower
STDIN_NAME = "<stdin>"
EMPTY = "empty"  # discover's code for an empty file: followed as soon as it grows

Ident = tuple[int, int]  # (st_dev, st_ino): which file a path holds


class Segment:
    """One file's content from its first byte (one inode), or standard input, read as it grows.

    A ByteSource: `read` gives what the file holds past what was read, up to this poll's budget,
    and b"" when there is nothing more for now."""

    def __init__(self, key: int, name: str, path: Path | None, handle: BinaryIO | None, ident: Ident | None) -> None:
        self.key = key
        self.name = name  # the name its lines are reported under (it changes when the file is renamed)
        self.path = path  # None for standard input
        self.handle = handle
        self.ident = ident
        self.offset = 0  # bytes read so far
        self.budget = 0  # bytes this poll may still read
        self.pieces: queue.Queue[bytes | None] | None = None  # standard input's, from its reader thread
        self.pending = b""
        self.ended = False  # standard input reached its end
        self.problems: tuple[InputProblem, ...] = ()  # what discover says of it (a paste, a duplicate's twin)

    def read(self, size: int = -1, /) -> bytes:
        want = self.budget if size < 0 else min(size, self.budget)
        if want <= 0:
            return b""
        data = self._from_pipe(want) if self.pieces is not None else self._from_file(want)
        self._took(len(data))
        return data

    def read_into(self, buffer: bytearray, start: int, stop: int) -> int:
        """Up to stop - start bytes into buffer[start:stop] (the scan's window), within the budget:
        a file's bytes go from the kernel straight into the window. (Through `read`, each read made
        a bytes object of up to a MiB and freed it: glibc's malloc then serves blocks of that size
        from its heap, which fragments, and the follower's RSS crept up over the hours.)"""
        want = min(stop - start, self.budget)
        if want <= 0:
            return 0
        if self.pieces is not None:
            data = self._from_pipe(want)
            buffer[start : start + len(data)] = data
            got = len(data)
        else:
            got = self._into_from_file(memoryview(buffer)[start : start + want])
        self._took(got)
        return got

    def close(self) -> None:
        """A read ends, not the segment: its file stays open until `release`."""

    def release(self) -> None:
        if self.handle is not None:
            self.handle.close()
            self.handle = None

    def _from_file(self, want: int) -> bytes:
        if self.handle is None:
            return b""
        try:
            return self.handle.read(want) or b""
        except OSError:
            return b""

    def _into_from_file(self, view: memoryview) -> int:
        if not isinstance(self.handle, io.RawIOBase):  # released (or not a file opened unbuffered)
            data = self._from_file(len(view))
            view[: len(data)] = data
            return len(data)
        try:
            return self.handle.readinto(view) or 0
        except OSError:
            return 0

    def _took(self, got: int) -> None:
        self.offset += got
        self.budget -= got

    def _from_pipe(self, want: int) -> bytes:
        assert self.pieces is not None
        while not self.pending:
            try:
                piece = self.pieces.get_nowait()
            except queue.Empty:
                return b""
            if piece is None:
                self.ended = True
                return b""
            self.pending = piece
        data, self.pending = self.pending[:want], self.pending[want:]
        return data

    @property
    def waiting(self) -> bool:
        """Standard input has bytes (or its end) queued that were not read yet."""
        return bool(self.pending) or (self.pieces is not None and not self.pieces.empty())


@dataclass
class Poll:
    """What one poll found. `readable`: read each until it gives b"". `ended`: no more will come (read
    them first: a file that went is read to its end), then end their scans. `dropped`: forget them
    (past KEPT_SEGMENTS). `whole`: scan each whole, in place of an earlier scan of the same name."""

    readable: list[Segment] = field(default_factory=list)
    ended: list[Segment] = field(default_factory=list)
    dropped: list[Segment] = field(default_factory=list)
    whole: list[LogInput] = field(default_factory=list)
    unlisted: list[str] = field(default_factory=list)  # no longer read whole: gone, or followed now


@dataclass
class _Whole:
    """An input scanned whole: the file's signature when it was scanned, and at the last poll."""

    log_input: LogInput
    scanned: tuple[int, ...] | None
    seen: tuple[int, ...] | None = None

    @property
    def empty(self) -> bool:
        return any(problem.code == EMPTY for problem in self.log_input.problems)

    @property
    def a_file(self) -> bool:
        """A file whose content was read or will be (not a directory's problem, a skipped file)."""
        return self.log_input.open is not None or self.log_input.members is not None or self.empty

    def changed(self) -> bool:
        return self.scanned != _signature(self.log_input.name)


class Tail:
    """The followed inputs and what is known of each: call `poll` a few times a second."""

    def __init__(
        self,
        paths: list[str],
        stdin: BinaryIO | None = None,
        limits: Limits = DEFAULT_LIMITS,
        follow_symlinks: bool = False,
    ) -> None:
        self.paths = paths
        self.limits = limits
        self.follow_symlinks = follow_symlinks
        self.live: dict[int, Segment] = {}  # by key
        self.gone: dict[str, list[Segment]] = {}  # by the name they went from, newest first
        self.dropped = 0  # segments dropped past KEPT_SEGMENTS
        self.wholes: dict[str, _Whole] = {}
        self.order: dict[str, tuple[int, int]] = {}  # a name's place in discover's order
        self.walked: dict[str, dict[str, int]] = {}  # per path given: its directories' mtimes ({}: a file)
        self.listed: dict[str, list[str]] = {}  # per path given: the names its last walk found
        self._keys = iter(range(1, 1 << 62))
        self._stdin = stdin
        self._started = False

    def poll(self) -> Poll:
        found = Poll()
        if not self._started:
            self._started = True
            self._open_stdin(found)
        for number, path in enumerate(self.paths):
            if path != "-" and self._changed(path):
                self._discover(number, path, found)
        for segment in list(self.live.values()):
            self._check(segment, found)
        self._check_wholes(found)
        return found

    def place(self, name: str) -> tuple[int, int, int]:
        """Where a source sorts: discover's order (post-mortem `analyze` lists them so); a segment
        that went sorts just before its name, oldest first, as rotated segments do."""
        unknown = (len(self.paths), len(self.order))
        if name in self.order:
            return (*self.order[name], 0)
        live, mark, age = name.rpartition(FOLLOWED_SEGMENT)
        if mark and age.isdigit():
            return (*self.order.get(live, unknown), -int(age))
        return (*unknown, 0)

    def close(self) -> None:
        for segment in self.live.values():
            segment.release()

    # ------------------------------------------------------------ discovery

    def _changed(self, path: str) -> bool:
        """Whether `path` must be walked again: the first time; a directory: one of its directories
        changed; a file: it exists and is neither followed nor read whole under that name."""
        walked = self.walked.get(path)
        if walked is None:
            return True
        if walked:
            return any(_mtime(directory) != mtime for directory, mtime in walked.items())
        followed = any(segment.path is not None and str(segment.path) == path for segment in self.live.values())
        return not followed and path not in self.wholes and _stat(path) is not None

    def _discover(self, number: int, path: str, found: Poll) -> None:
        """Walk `path` as post-mortem `analyze` does: a file followed under another name goes by its
        new one (a rotation renamed it); a name that holds no followed file is read from its start."""
        self.walked[path] = _directories(Path(path), self.limits) if os.path.isdir(path) else {}
        inputs = prefer_zstd(discover([path], None, self.limits, self.follow_symlinks))
        names = [log_input.name for log_input in inputs]
        for name in set(self.listed.get(path, ())) - set(names):
            if self.wholes.pop(name, None) is not None:  # an empty directory's problem, a file gone
                found.unlisted.append(name)
        self.listed[path] = names
        idents = {name: _ident(name) for name in names}
        for position, name in enumerate(names):
            self.order[name] = (number, position)
            moved = self._by_ident(idents[name])
            if moved is not None:
                moved.name, moved.path = name, Path(name)
        live = {segment.name: segment for segment in self.live.values()}
        for log_input in inputs:
            whole = self.wholes.get(log_input.name)
            if log_input.name in live:
                live[log_input.name].problems = log_input.problems
            elif whole is None or whole.changed():
                self._begin(log_input, idents[log_input.name], found)

    def _discover_again(self, path: str, found: Poll) -> None:
        """The name holds a new file (or again a file): read it from its first byte."""
        live = {segment.name for segment in self.live.values()}
        for log_input in prefer_zstd(discover([path], None, self.limits, self.follow_symlinks)):
            if log_input.name not in live:
                self._begin(log_input, _ident(log_input.name), found)

    def _begin(self, log_input: LogInput, ident: Ident | None, found: Poll) -> None:
        """Follow the input when it is plain text (what post-mortem reads as the bytes are); else read it whole."""
        handle = _plain_handle(log_input, ident)
        if handle is None:
            self._whole(log_input, found)
            return
        if self.wholes.pop(log_input.name, None) is not None:  # an empty file that grew
            found.unlisted.append(log_input.name)
        info = os.fstat(handle.fileno())
        segment = Segment(next(self._keys), log_input.name, Path(log_input.name), handle, (info.st_dev, info.st_ino))
        segment.problems = log_input.problems
        self.live[segment.key] = segment
        segment.budget = FOLLOW_READ
        found.readable.append(segment)

    def _whole(self, log_input: LogInput, found: Poll) -> None:
        self.wholes[log_input.name] = _Whole(log_input, _signature(log_input.name))
        found.whole.append(log_input)

    def _by_ident(self, ident: Ident | None) -> Segment | None:
        if ident is None:
            return None
        return next((segment for segment in self.live.values() if segment.ident == ident), None)

    # ------------------------------------------------------------ each file

    def _check(self, segment: Segment, found: Poll) -> None:
        segment.budget = FOLLOW_READ
        if segment.path is None:
            self._check_stdin(segment, found)
            return
        path = segment.path
        info = _stat(path)
        if info is not None and (info.st_dev, info.st_ino) == segment.ident:
            if info.st_size < segment.offset:  # truncated in place: what it held is no longer in the file
                self._went(segment, found)
                self._discover_again(str(path), found)
            elif info.st_size > segment.offset:
                found.readable.append(segment)
            return
        # The name holds another file now, or none: the old one is read to its end, then followed
        # under its new name (a rotation), or kept as a segment that went; the name's new file is
        # read from its start.
        segment.budget = 1 << 62
        found.readable.append(segment)
        renamed = _renamed(segment)
        if renamed is not None:
            segment.name, segment.path = renamed, Path(renamed)
        else:
            self._went(segment, found)
        if info is not None:
            self._discover_again(str(path), found)

    def _check_stdin(self, segment: Segment, found: Poll) -> None:
        if segment.ended:  # its end was read last time
            self.live.pop(segment.key)
            found.ended.append(segment)
        elif segment.waiting:
            found.readable.append(segment)

    def _went(self, segment: Segment, found: Poll) -> None:
        """The segment's file was truncated, replaced or deleted: what was read of it is kept, as
        NAME#1 (the ones kept before it move up a number), at most KEPT_SEGMENTS per name."""
        self.live.pop(segment.key, None)
        found.ended.append(segment)
        name = str(segment.path)
        kept = self.gone.setdefault(name, [])
        kept.insert(0, segment)
        for age, each in enumerate(kept, start=1):
            each.name = followed_segment(name, age)
        while len(kept) > KEPT_SEGMENTS:
            found.dropped.append(kept.pop())
            self.dropped += 1

    def _check_wholes(self, found: Poll) -> None:
        """An input read whole is read again once it has changed and then stayed the same for a
        poll (a file being compressed is not read half-written); an empty file as soon as it grows."""
        for name, whole in list(self.wholes.items()):
            if not whole.a_file:
                continue
            now = _signature(name)
            if now is None or now == whole.scanned:
                whole.seen = now
            elif whole.empty or now == whole.seen:
                self._discover_again(name.partition("!")[0], found)  # an archive's members: the archive
            else:
                whole.seen = now

    # ------------------------------------------------------------ standard input

    def _open_stdin(self, found: Poll) -> None:
        if "-" not in self.paths:
            return
        self.order[STDIN_NAME] = (self.paths.index("-"), 0)
        segment = Segment(next(self._keys), STDIN_NAME, None, None, None)
        segment.pieces = queue.Queue(maxsize=STDIN_QUEUE)
        stream = self._stdin if self._stdin is not None else _stdin_buffer()
        threading.Thread(target=_pump, args=(stream, segment.pieces), name="pdlogdoctor-stdin", daemon=True).start()
        self.live[segment.key] = segment


def _pump(stream: BinaryIO, pieces: queue.Queue[bytes | None]) -> None:
    """Standard input into the queue piece by piece until it ends (the queue's bound holds it back)."""
    read: Callable[[int], bytes] = getattr(stream, "read1", stream.read)
    try:
        while piece := read(STDIN_PIECE):
            pieces.put(bytes(piece))
    except (OSError, ValueError):
        pass
    finally:
        pieces.put(None)


def _stdin_buffer() -> BinaryIO:
    """Standard input unbuffered, on its descriptor: the reading thread blocks in the `read` call,
    holding no lock. Through `sys.stdin.buffer` it would hold the BufferedReader's lock while a pipe
    stays open (`kubectl logs -f`), and the interpreter, flushing stdin as it exits after
    `--exit-on cause`, aborts ("could not acquire lock ... at interpreter shutdown", SIGABRT)."""
    import io
    import sys

    try:
        descriptor = sys.stdin.fileno()
    except (AttributeError, ValueError, io.UnsupportedOperation):  # replaced by a stream with no descriptor
        return sys.stdin.buffer
    return open(descriptor, "rb", buffering=0, closefd=False)


def _plain_handle(log_input: LogInput, ident: Ident | None) -> BinaryIO | None:
    """The file opened for following when it is plain text (what post-mortem reads as it is), else None."""
    if log_input.open is None or log_input.members is not None or not _plain_text(Path(log_input.name)):
        return None
    try:
        handle = open_seekable(Path(log_input.name), buffering=0)
    except OSError:
        return None
    info = os.fstat(handle.fileno())
    if ident is not None and (info.st_dev, info.st_ino) != ident:  # replaced meanwhile: next poll reads it
        handle.close()
        return None
    return handle


def _plain_text(path: Path) -> bool:
    """The file is read by post-mortem as its bytes are (not compressed, not UTF-16): the stream
    discover's opener makes of it, from a look at its first SNIFF_BYTES (an archive member's name
    is no file: read whole)."""
    try:
        stream = text_stream(open_regular(path), buffer_size=SNIFF_BYTES)
    except Exception:  # its whole scan says why it cannot be read
        return False
    plain = stream.plain_path is not None
    stream.close()
    return plain


def _renamed(segment: Segment) -> str | None:
    """The name the segment's file has now in its directory (where a rotation renames it), else None."""
    assert segment.path is not None and segment.ident is not None
    directory = segment.path.parent
    try:
        with os.scandir(directory) as entries:
            for entry in entries:
                if entry.inode() != segment.ident[1] or not entry.is_file(follow_symlinks=False):
                    continue
                if entry.stat(follow_symlinks=False).st_dev == segment.ident[0]:
                    return str(directory / entry.name)
    except OSError:
        return None
    return None


def _directories(root: Path, limits: Limits) -> dict[str, int]:
    """Every directory under `root` (itself included) with its mtime, which a file added, removed or
    renamed in it changes. Iterative, at most limits.depth levels and limits.files directories."""
    found: dict[str, int] = {}
    seen: set[Ident] = set()
    stack = [(root, 0)]
    while stack and len(found) < limits.files:
        directory, depth = stack.pop()
        info = _stat(directory)
        if info is None or (info.st_dev, info.st_ino) in seen:
            continue
        seen.add((info.st_dev, info.st_ino))
        found[str(directory)] = info.st_mtime_ns
        if depth >= limits.depth:
            continue
        try:
            with os.scandir(directory) as entries:
                stack.extend((directory / entry.name, depth + 1) for entry in entries if _is_directory(entry))
        except OSError:
            continue
    return found


def _is_directory(entry: os.DirEntry[str]) -> bool:
    try:
        return entry.is_dir()
    except OSError:
        return False


def _stat(path: Path | str) -> os.stat_result | None:
    try:
        return os.stat(path)
    except OSError:
        return None


def _mtime(directory: str) -> int | None:
    info = _stat(directory)
    return info.st_mtime_ns if info is not None else None


def _ident(name: str) -> Ident | None:
    info = _stat(name)
    return (info.st_dev, info.st_ino) if info is not None and stat.S_ISREG(info.st_mode) else None


def _signature(name: str) -> tuple[int, ...] | None:
    """What tells that a file read whole has changed: its inode, size and modification time."""
    info = _stat(name.partition("!")[0])
    return (info.st_ino, info.st_size, info.st_mtime_ns) if info is not None else None
