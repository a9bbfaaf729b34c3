"""Writing the report: stdout, a file (atomically), or a special file; every failure a WriteFailed.

A report is written only after a successful analysis, so a failure here is the
user's environment (a directory given as --output, no permission, a full disk, a
broken GITHUB_STEP_SUMMARY, an encoding that cannot hold a character): the CLI says
so in one line and exits 2, never 1, which means "root cause diagnosed".
"""

from __future__ import annotations

import contextlib
import io
import os
import stat
import sys
from pathlib import Path
from typing import Any, TextIO

from ..model.lazyre import lazy_re

# Paths that name one of this process's own descriptors: written through it, never replaced.
_OWN_DESCRIPTOR = lazy_re(r"/(?:proc/self|dev)/fd/(\d+)|/dev/std(out|err)")


class WriteFailed(Exception):
    """A report or an Actions file could not be written; the message is one line for the user."""


class _ReaderMayGo(io.FileIO):
    """stdout or stderr as a pipe whose reader may go away (`| head -1`): from then on, what is
    written goes to /dev/null, so the command runs to its end and exits with its own code."""

    def write(self, data: Any, /) -> int:
        try:
            return super().write(data)
        except BrokenPipeError:
            _silence_descriptor(self.fileno())
            return memoryview(data).nbytes  # nobody can read it any more: as good as written


def keep_running_when_readers_go() -> None:
    """Put stdout and stderr on `_ReaderMayGo` (the process's own streams, when not a terminal).
    Every command and format then keeps its exit code when its reader goes away, with no traceback
    and no 'Exception ignored' from the interpreter's last flush. A character the streams' encoding
    cannot hold (an ASCII locale) is written as its escape: the report is not lost for a `…`."""
    for name in ("stdout", "stderr"):
        stream = getattr(sys, name)
        if stream is not None and stream is getattr(sys, f"__{name}__"):
            with contextlib.suppress(AttributeError, ValueError, OSError):
                stream.reconfigure(errors="backslashreplace")
            setattr(sys, name, _on_reader_may_go(stream))


def _on_reader_may_go(stream: TextIO) -> TextIO:
    """`stream` (flushed) rebuilt on `_ReaderMayGo` with its encoding and buffering; a terminal,
    a closed or an unusual stream is left as it is."""
    try:
        if stream.isatty():
            return stream
        stream.flush()
        raw = _ReaderMayGo(stream.fileno(), "w", closefd=False)
        return io.TextIOWrapper(
            io.BufferedWriter(raw),
            encoding=stream.encoding,
            errors=stream.errors,
            line_buffering=bool(stream.line_buffering),
            write_through=getattr(stream, "write_through", False),
        )
    except (OSError, ValueError, AttributeError):
        return stream


def deliver(text: str, output: Path | None, stdout: TextIO | None = None) -> None:
    """`text` to `output`, or to stdout when it is None (or names stdout)."""
    stdout = stdout or sys.stdout
    descriptor = None if output is None else _own_descriptor(output)
    if output is None or descriptor == 1:
        _to_stream(text, stdout, "stdout")
    elif descriptor == 2:
        _to_stream(text, sys.stderr, "stderr")
    elif descriptor is not None:
        _to_descriptor(text, descriptor, output)
    else:
        _to_path(text, output)


def append(text: str, path: Path) -> None:
    """Append to a file the Actions runner reads (step summary, step outputs)."""
    try:
        with path.open("a", encoding="utf-8") as handle:
            handle.write(text)
    except (OSError, UnicodeError) as exc:
        raise WriteFailed(_why(path, exc)) from None


def _to_stream(text: str, stream: TextIO, name: str) -> None:
    try:
        stream.write(text)
        stream.flush()
    except (OSError, UnicodeError) as exc:  # a full disk behind a redirect (a reader that went away: _ReaderMayGo)
        _silence(stream)
        raise WriteFailed(f"cannot write the report to {name}: {_reason(exc)}") from None


def _silence(stream: TextIO) -> None:
    """After a failed write, the interpreter's own flush at exit must not fail again with a traceback."""
    with contextlib.suppress(OSError, ValueError, AttributeError):
        _silence_descriptor(stream.fileno())


def _silence_descriptor(descriptor: int) -> None:
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, descriptor)
    os.close(devnull)


def _to_descriptor(text: str, descriptor: int, output: Path) -> None:
    try:
        os.write(descriptor, text.encode("utf-8"))
    except (OSError, UnicodeError) as exc:
        raise WriteFailed(_why(output, exc)) from None


def _to_path(text: str, output: Path) -> None:
    if output.is_dir():
        raise WriteFailed(f"cannot write {output}: it is a directory")
    # A link is written through (its target replaced, the link kept); anything else is replaced by name.
    target = Path(os.path.realpath(output)) if output.is_symlink() else output
    try:
        mode = target.stat()
    except OSError:
        mode = None
    if mode is not None and not stat.S_ISREG(mode.st_mode):  # a FIFO, /dev/null, a terminal: written as is
        _write_in_place(text, target, output)
    else:
        _replace_atomically(text, target, output, None if mode is None else stat.S_IMODE(mode.st_mode))


def _write_in_place(text: str, target: Path, output: Path) -> None:
    try:
        with target.open("w", encoding="utf-8") as handle:
            handle.write(text)
    except (OSError, UnicodeError) as exc:
        raise WriteFailed(_why(output, exc)) from None


def _replace_atomically(text: str, target: Path, output: Path, mode: int | None) -> None:
    """A temp file beside the target, renamed over it: readers never see half a report. Beside the
    path as given, not its resolved parent, so the rename never crosses a filesystem."""
    import tempfile  # here: a run that writes no file does not pay for its import

    try:
        fd, temp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.absolute().parent)
    except OSError as exc:
        raise WriteFailed(_why(output, exc)) from None
    try:
        os.fchmod(fd, mode if mode is not None else 0o666 & ~_umask())  # as a plain `>` would create it
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
        os.replace(temp, target)
    except (OSError, UnicodeError) as exc:
        Path(temp).unlink(missing_ok=True)
        raise WriteFailed(_why(output, exc)) from None
    except BaseException:
        Path(temp).unlink(missing_ok=True)
        raise


def _own_descriptor(output: Path) -> int | None:
    """1 for /dev/stdout, /proc/self/fd/1 or a link to one of them; None for an ordinary path."""
    path = str(output.absolute())
    for _ in range(8):
        found = _OWN_DESCRIPTOR.fullmatch(path)
        if found:
            return int(found.group(1)) if found.group(1) else (1 if found.group(2) == "out" else 2)
        if not os.path.islink(path):
            return None
        path = os.path.join(os.path.dirname(path), os.readlink(path))
    return None


def _umask() -> int:
    current = os.umask(0)
    os.umask(current)
    return current


def _why(path: Path, exc: OSError | UnicodeError) -> str:
    return f"cannot write {path}: {_reason(exc)}"


def _reason(exc: OSError | UnicodeError) -> str:
    if isinstance(exc, UnicodeError):
        return "a character its encoding cannot hold"
    return exc.strerror or str(exc)
