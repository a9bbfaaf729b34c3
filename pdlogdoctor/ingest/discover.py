"""Discover: turn the user's paths into inputs to scan, and say why the others are not read.

Directories are walked (iteratively, at most Limits.depth levels deep and Limits.files
files; symlink loops cut; a link that leads out of the input is reported, not followed,
unless asked); only regular files are opened; notes, docs and scripts found beside the logs are
reported as not-a-log; binary files and nested archives are reported and skipped.
"""

from __future__ import annotations

import errno
import os
import stat
import sys
from collections.abc import Iterator
from dataclasses import replace
from enum import Enum
from pathlib import Path
from typing import BinaryIO

from ..model import ROLE_NAME_HINTS, InputProblem
from ..model.options import Limits
from ..model.values import record
from .content import BINARY, SNIFF_BYTES, ZIP_MAGIC, LogInput, is_tar, looks_binary, sniff, unread
from .coredump import ELF_MAGIC, core_dump, core_problem, named_core
from .streams import (
    DEFAULT_LIMITS,
    Budget,
    Prepend,
    Reader,
    Refusal,
    StreamStopped,
    decoded_stream,
    file_kind,
    open_regular,
    text_stream,
)

FIXTURE_EXPECTATION = "expected.toml"
NOT_A_LOG = "not-a-log"
PASTED = "read-as-paste"
NOT_LOG_SUFFIXES = frozenset({".md", ".rst", ".toml", ".yaml", ".yml", ".ini", ".cfg", ".py", ".sh", ".rs", ".patch"})
NOT_LOG_STEMS = frozenset({"readme", "expected", "notes", "license", "changelog"})
# Binary by their name: listed as not read, never opened (a model directory holds thousands).
SKIP_SUFFIXES = (".png", ".jpg", ".jpeg", ".so", ".pt", ".safetensors", ".bin", ".whl")
CORE_HEAD_BYTES = 256 << 10  # of a core dump: its ELF header, program headers and first notes


def discover(
    paths: list[str], stdin: BinaryIO | None = None, limits: Limits = DEFAULT_LIMITS, follow_symlinks: bool = False
) -> list[LogInput]:
    """The inputs under `paths`. A symbolic link inside a directory is followed only while it stays
    inside that directory, unless `follow_symlinks`: an artefact unpacked with its links kept must
    not pull the machine's own files (`etc -> /etc`) into a report meant to be shared."""
    budget = Budget(limits)
    found: list[LogInput] = []
    for raw in paths:
        if raw == "-":
            found.append(_stdin_input(stdin, budget))
            continue
        found.extend(_walk(Path(raw), budget, follow_symlinks))
    return found


def _stdin_input(stdin: BinaryIO | None, budget: Budget) -> LogInput:
    stream = stdin if stdin is not None else sys.stdin.buffer
    return LogInput("<stdin>", 0, lambda: _sniffed(text_stream(stream, budget)))


def _sniffed(stream: Reader) -> Reader:
    """Standard input read like a file: skipped when its head is binary (it cannot be read twice,
    so the head read to tell is put back in front)."""
    try:
        head = stream.read(SNIFF_BYTES)
    except StreamStopped as exc:
        return Refusal(exc.problem.code, exc.problem.message)
    if looks_binary(head):
        stream.close()
        return Refusal("binary", "binary content (not a log); skipped")
    return Prepend(head, stream)


def _walk(root: Path, budget: Budget, follow_symlinks: bool) -> Iterator[LogInput]:
    try:
        info = root.stat()
    except OSError as exc:
        yield unread(str(root), *_os_problem(exc))
        return
    if stat.S_ISDIR(info.st_mode):
        yield from _walk_directory(root, budget, follow_symlinks)
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


# A directory holding nothing but a pasted issue body (`issue.md`), notes, or a status or config dump
# (`kubectl get rayservice -o yaml`: a Ray Serve deployment's failure messages) has no log to protect
# from them: they are the evidence, read as a paste. Scripts stay unread even then: the lines they
# echo never happened.
SCRIPT_SUFFIXES = frozenset({".py", ".sh", ".rs", ".patch"})


def _walk_directory(root: Path, budget: Budget, follow_symlinks: bool) -> Iterator[LogInput]:
    """The directory's inputs; its notes are read after all when nothing else in it is a log."""
    found = list(_walk_directory_entries(root, budget, follow_symlinks))
    if any(item.open is not None or item.members is not None for item in found):
        yield from found
        return
    for item in found:
        path = Path(item.name)
        if any(p.code == NOT_A_LOG for p in item.problems) and path.suffix.lower() not in SCRIPT_SUFFIXES:
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


OUTSIDE_INPUT = "outside-input"
TOO_DEEP = "too-deep"


@record
class _Walk:
    """One directory walk's state: where it may go and what it met."""

    root: str  # the resolved root: a link whose target is not below it leads out of the input
    follow_symlinks: bool
    budget: Budget
    seen_dirs: set[tuple[int, int]]
    files: list[int]  # [count]: files met so far, against Limits.files
    too_deep: list[str]  # directories not entered: past Limits.depth


def _walk_directory_entries(root: Path, budget: Budget, follow_symlinks: bool) -> Iterator[LogInput]:
    """Depth first, in name order, with an explicit stack: a tree of any depth costs no recursion."""
    walk = _Walk(os.path.realpath(root), follow_symlinks, budget, set(), [0], [])
    stack: list[tuple[Path, int]] = [(root, 0)]
    yielded_any = False
    while stack:
        directory, depth = stack.pop()
        subdirs: list[Path] = []
        for item in _directory_inputs(directory, depth, walk, subdirs):
            yielded_any = True
            yield item
            if item.problems and item.problems[0].code == "too-many-files":
                return
        stack.extend((subdir, depth + 1) for subdir in reversed(subdirs))
    if walk.too_deep:
        yielded_any = True
        deep = f"{len(walk.too_deep):,} directories more than {budget.limits.depth} levels deep"
        yield unread(str(root), TOO_DEEP, f"{deep} not read (the first: {walk.too_deep[0]})")
    if not yielded_any:
        yield unread(str(root), "empty-directory", "no files in directory")


def _directory_inputs(directory: Path, depth: int, walk: _Walk, subdirs: list[Path]) -> Iterator[LogInput]:
    """The inputs of one directory's files, in name order; its subdirectories go to `subdirs`."""
    try:
        info = directory.stat()
        entries = sorted(os.scandir(directory), key=lambda entry: entry.name)
    except OSError as exc:
        yield unread(str(exc.filename or directory), *_os_problem(exc))
        return
    key = (info.st_dev, info.st_ino)
    if key in walk.seen_dirs:
        yield unread(str(directory), "symlink-loop", "directory seen before (symlink loop); skipped")
        return
    walk.seen_dirs.add(key)
    kinds = [(entry, _kind(entry, walk)) for entry in entries]
    past_cap = _past_file_cap([entry.name for entry, kind in kinds if kind is _Kind.FILE], walk)
    for entry, kind in kinds:
        path = directory / entry.name
        if kind is _Kind.OUT:
            yield unread(str(path), OUTSIDE_INPUT, "a link out of the input; not followed (--follow-symlinks reads it)")
        elif kind is _Kind.DIRECTORY:
            if depth + 1 > walk.budget.limits.depth:
                walk.too_deep.append(str(path))
            else:
                subdirs.append(path)
        elif entry.name not in past_cap:
            yield from _directory_entry(path, walk.budget)
    if past_cap:
        limit = walk.budget.limits.files
        why = f"{len(past_cap):,} files not read: a walk reads {limit:,} (the ones named for a server role first)"
        yield unread(str(directory), "too-many-files", why)


class _Kind(Enum):
    OUT = "a link out of the input"
    DIRECTORY = "a directory"
    FILE = "anything else: a file, or what its entry says it is"


def _kind(entry: os.DirEntry[str], walk: _Walk) -> _Kind:
    if entry.is_symlink() and not walk.follow_symlinks and _leaves(entry.path, walk.root):
        return _Kind.OUT
    return _Kind.DIRECTORY if _is_directory(entry) else _Kind.FILE


def _past_file_cap(names: list[str], walk: _Walk) -> set[str]:
    """The names of this directory's files the walk does not read: those past Limits.files. The
    ones named for a part of the deployment are read first: 100,000 files of noise beside the
    logs cut router.log, which sorted after them, and with it the router's evidence."""
    room = max(0, walk.budget.limits.files - walk.files[0])
    walk.files[0] += min(room, len(names))
    if len(names) <= room:
        return set()
    first = sorted(names, key=lambda name: not _names_a_role(name))  # stable: name order within each
    return set(first[room:])


def _names_a_role(name: str) -> bool:
    lowered = name.lower()
    return any(hint in lowered for _, hints in ROLE_NAME_HINTS for hint in hints)


def _is_directory(entry: os.DirEntry[str]) -> bool:
    try:
        return entry.is_dir()  # through a link: a link to a directory is walked as one (loops are cut)
    except OSError:
        return False  # a link that cannot be followed: its file entry says why


def _leaves(path: str, root: str) -> bool:
    """A link whose target (resolved) is not the root or below it."""
    target = os.path.realpath(path)
    return target != root and not target.startswith(root.rstrip(os.sep) + os.sep)


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
        head = sniff(lambda: _head_stream(path, budget))
    except OSError as exc:
        yield unread(display, *_os_problem(exc))
        return
    if head.startswith(ZIP_MAGIC) or is_tar(head):
        yield from _archive_inputs(head, path, display, info.st_size, budget)
    elif looks_binary(head) or head.startswith(ELF_MAGIC):
        yield _binary_input(path, display, head, info, budget)
    else:
        yield LogInput(display, info.st_size, lambda: text_stream(open_regular(path), budget))


def _head_stream(path: Path, budget: Budget) -> Reader:
    """A stream to look at a file's head through: its first raw read is SNIFF_BYTES, not a MiB."""
    return decoded_stream(open_regular(path), budget, sniffing=True, buffer_size=SNIFF_BYTES)


def _binary_input(path: Path, display: str, head: bytes, info: os.stat_result, budget: Budget) -> LogInput:
    """A binary file is not read, and is no missing evidence; a core dump's header says which
    process crashed (coredump.py)."""
    core = None
    if head.startswith(ELF_MAGIC) or named_core(path.name):
        try:
            start = sniff(lambda: _head_stream(path, budget), CORE_HEAD_BYTES)
        except OSError:
            start = head
        core = core_dump(path.name, start, None, info.st_mtime)
    if core is None:
        return unread(display, BINARY, "binary content (not a log); not read")
    return LogInput(display, info.st_size, None, (core_problem(core),), core=core)
