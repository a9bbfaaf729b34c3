"""Discover: turn the user's paths into inputs to scan, and say why the others are not read.

Directories are walked recursively (symlink loops cut, at most Limits.files files);
only regular files are opened; notes, docs and scripts found beside the logs are
reported as not-a-log; binary files and nested archives are reported and skipped.
"""

from __future__ import annotations

import errno
import os
import stat
import sys
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import BinaryIO

from ..model import InputProblem
from ..model.options import Limits
from .content import BINARY, ZIP_MAGIC, LogInput, is_tar, looks_binary, sniff, unread
from .coredump import ELF_MAGIC, core_dump, core_problem, named_core
from .streams import DEFAULT_LIMITS, Budget, decoded_stream, file_kind, open_regular, text_stream

FIXTURE_EXPECTATION = "expected.toml"
NOT_A_LOG = "not-a-log"
PASTED = "read-as-paste"
NOT_LOG_SUFFIXES = frozenset({".md", ".rst", ".toml", ".yaml", ".yml", ".ini", ".cfg", ".py", ".sh", ".rs", ".patch"})
NOT_LOG_STEMS = frozenset({"readme", "expected", "notes", "license", "changelog"})
# Binary by their name: listed as not read, never opened (a model directory holds thousands).
SKIP_SUFFIXES = (".png", ".jpg", ".jpeg", ".so", ".pt", ".safetensors", ".bin", ".whl")
CORE_HEAD_BYTES = 256 << 10  # of a core dump: its ELF header, program headers and first notes


def discover(paths: list[str], stdin: BinaryIO | None = None, limits: Limits = DEFAULT_LIMITS) -> list[LogInput]:
    budget = Budget(limits)
    found: list[LogInput] = []
    for raw in paths:
        if raw == "-":
            found.append(_stdin_input(stdin, budget))
            continue
        found.extend(_walk(Path(raw), budget))
    return found


def _stdin_input(stdin: BinaryIO | None, budget: Budget) -> LogInput:
    stream = stdin if stdin is not None else sys.stdin.buffer
    return LogInput("<stdin>", 0, lambda: text_stream(stream, budget))


def _walk(root: Path, budget: Budget) -> Iterator[LogInput]:
    try:
        info = root.stat()
    except OSError as exc:
        yield unread(str(root), *_os_problem(exc))
        return
    if stat.S_ISDIR(info.st_mode):
        yield from _walk_directory(root, budget)
    else:
        yield from _file_inputs(root, str(root), info, budget)


def _os_problem(exc: OSError) -> tuple[str, str]:
    if isinstance(exc, FileNotFoundError):
        return "not-found", "no such file or directory"
    if isinstance(exc, PermissionError):
        return "permission-denied", "permission denied"
    if exc.errno == errno.ELOOP:
        return "symlink-loop", "too many levels of symbolic links; skipped"
    return "unreadable", exc.strerror or str(exc)


# A directory holding nothing but a pasted issue body (`issue.md`) has no log to protect from its
# notes: the paste is the evidence. Scripts and configs stay unread even then.
PASTE_SUFFIXES = frozenset({".md", ".rst"})


def _walk_directory(root: Path, budget: Budget) -> Iterator[LogInput]:
    """The directory's inputs; its notes are read after all when nothing else in it is a log."""
    found = list(_walk_directory_entries(root, budget))
    if any(item.open is not None or item.members is not None for item in found):
        yield from found
        return
    for item in found:
        path = Path(item.name)
        if any(p.code == NOT_A_LOG for p in item.problems) and path.suffix.lower() in PASTE_SUFFIXES:
            yield from _paste_inputs(path, budget)
        else:
            yield item


def _paste_inputs(path: Path, budget: Budget) -> Iterator[LogInput]:
    try:
        info = path.stat()
    except OSError as exc:
        yield unread(str(path), *_os_problem(exc))
        return
    note = InputProblem(PASTED, "a document read as a log: nothing else in its directory is one")
    for item in _file_inputs(path, str(path), info, budget):
        yield replace(item, problems=(*item.problems, note))


def _walk_directory_entries(root: Path, budget: Budget) -> Iterator[LogInput]:
    seen_dirs: set[tuple[int, int]] = set()
    errors: list[OSError] = []
    count = 0
    yielded_any = False
    for directory, subdirs, files in os.walk(root, followlinks=True, onerror=errors.append):
        while errors:  # a directory os.walk could not list
            exc = errors.pop(0)
            yielded_any = True
            yield unread(str(exc.filename or directory), *_os_problem(exc))
        here = Path(directory)
        try:
            info = here.stat()
        except OSError:
            continue
        key = (info.st_dev, info.st_ino)
        if key in seen_dirs:
            subdirs[:] = []
            yielded_any = True
            yield unread(str(here), "symlink-loop", "directory seen before (symlink loop); skipped")
            continue
        seen_dirs.add(key)
        subdirs.sort()
        for name in sorted(files):
            count += 1
            if count > budget.limits.files:
                yield unread(str(here), "too-many-files", f"stopped after {budget.limits.files} files")
                return
            for item in _directory_entry(here / name, budget):
                yielded_any = True
                yield item
    for exc in errors:
        yielded_any = True
        yield unread(str(exc.filename or root), *_os_problem(exc))
    if not yielded_any:
        yield unread(str(root), "empty-directory", "no files in directory")


def _directory_entry(path: Path, budget: Budget) -> Iterator[LogInput]:
    try:
        info = path.stat()
    except OSError as exc:
        yield unread(str(path), *_os_problem(exc))
        return
    if path.name == FIXTURE_EXPECTATION:
        return  # a fixture bundle's own statement of its meaning
    if _not_a_log(path):
        yield unread(str(path), NOT_A_LOG, "documentation, notes or source, not a log; skipped (name it to read it)")
        return
    yield from _file_inputs(path, str(path), info, budget)


def _not_a_log(path: Path) -> bool:
    """Files found in a directory walk that are not logs: a notes file or a launcher script
    beside the logs quotes log lines (`echo "[probe] request failed ..."`) without them having happened."""
    name = path.name.lower()
    return path.suffix.lower() in NOT_LOG_SUFFIXES or name.split(".", 1)[0] in NOT_LOG_STEMS


def _archive_inputs(head: bytes, path: Path, display: str, size: int, budget: Budget) -> Iterator[LogInput]:
    from .archives import tar_members, zip_inputs  # zipfile and tarfile only when an archive is given

    if head.startswith(ZIP_MAGIC):
        yield from zip_inputs(path, display, budget)
    else:
        yield LogInput(display, size, None, (), lambda: tar_members(path, display, budget))


def _file_inputs(path: Path, display: str, info: os.stat_result, budget: Budget) -> Iterator[LogInput]:
    if not stat.S_ISREG(info.st_mode):
        yield unread(display, "not-a-file", f"{file_kind(info.st_mode)}, not a regular file; skipped, never read")
        return
    if path.suffix.lower() in SKIP_SUFFIXES:
        yield unread(display, BINARY, f"a {path.suffix.lower()} file, binary by its name; not read")
        return
    if info.st_size == 0:
        yield unread(display, "empty", "empty file")
        return
    try:
        head = sniff(lambda: decoded_stream(open_regular(path), budget, sniffing=True))
    except OSError as exc:
        yield unread(display, *_os_problem(exc))
        return
    if head.startswith(ZIP_MAGIC) or is_tar(head):
        yield from _archive_inputs(head, path, display, info.st_size, budget)
    elif looks_binary(head) or head.startswith(ELF_MAGIC):
        yield _binary_input(path, display, head, info, budget)
    else:
        yield LogInput(display, info.st_size, lambda: text_stream(open_regular(path), budget))


def _binary_input(path: Path, display: str, head: bytes, info: os.stat_result, budget: Budget) -> LogInput:
    """A binary file is not read, and is no missing evidence; a core dump's header says which
    process crashed (coredump.py)."""
    core = None
    if head.startswith(ELF_MAGIC) or named_core(path.name):
        try:
            start = sniff(lambda: decoded_stream(open_regular(path), budget, sniffing=True), CORE_HEAD_BYTES)
        except OSError:
            start = head
        core = core_dump(path.name, start, None, info.st_mtime)
    if core is None:
        return unread(display, BINARY, "binary content (not a log); not read")
    return LogInput(display, info.st_size, None, (core_problem(core),), core=core)
