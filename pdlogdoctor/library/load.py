"""Loading the library: the shipped directory and a user's, each TOML dialect read by its reader,
then the whole checked (and kept in the user's cache between runs: cache.py)."""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path

from ..model.errors import PatternError
from .consequences import CONSEQUENCES_FILE, ConsequenceGroup, expand, load_groups
from .errorlines import OPEN_WORLD_DIR, load_layer
from .formats import FORMATS_DIR, load_formats
from .frames import FRAMES_FILE, load_frames
from .known import check_known, is_known_file, load_known
from .patterns import (
    PROFILE_FILE,
    Library,
    Pattern,
    VerdictSpec,
    load_pattern,
    load_verdicts,
    validate_library,
)


def builtin_library_dir() -> Path:
    """The shipped library: inside the wheel, or `patterns/` beside the package."""
    packaged = Path(__file__).resolve().parent.parent / "_library"  # a plain path: importlib.resources costs start-up
    if packaged.is_dir():
        return packaged
    return Path(__file__).resolve().parent.parent.parent / "patterns"


def load_library(extra_dirs: Iterable[Path] = (), cache: Path | None = None) -> Library:
    """The shipped library and the patterns of `extra_dirs`, checked. With `cache` (a directory),
    a library read before from the same files is taken from there (library_cache.py)."""
    dirs = [builtin_library_dir(), *extra_dirs]
    for directory in dirs:
        if not directory.is_dir():
            raise PatternError(str(directory), None, "is not a directory of patterns")
    listing = [(directory, toml_files(directory)) for directory in dirs]
    if cache is None:
        return _read_library(listing)
    from .cache import cached_library

    return cached_library(cache, [path for _, files in listing for path in files], lambda: _read_library(listing))


def toml_files(directory: Path) -> list[Path]:
    """`sorted(directory.rglob("*.toml"))`, listed with os.walk: pathlib's glob machinery cost every
    run ~1 ms of its start-up for ~140 files. The same entries: any kind whose name matches (on
    Windows in any case), in directories reached without following a symbolic link, unreadable
    directories skipped."""
    found = []
    for parent, dirs, files in os.walk(directory):
        found += [Path(parent, name) for name in (*dirs, *files) if os.path.normcase(name).endswith(".toml")]
    return sorted(found)


def _read_library(listing: list[tuple[Path, list[Path]]]) -> Library:
    patterns: list[Pattern] = []
    verdicts: list[VerdictSpec] = []
    groups: list[ConsequenceGroup] = []
    for directory, files in listing:
        for path in files:
            if path.name in (PROFILE_FILE, FRAMES_FILE):
                continue  # not patterns: what run profiles take from events (profile.py), what stacks say (frames.py)
            if OPEN_WORLD_DIR in path.relative_to(directory).parts:
                continue  # the generic error layer's data, read by load_layer
            if path.relative_to(directory).parts[0] == FORMATS_DIR:
                continue  # the catalogue of line formats, read by load_formats
            if is_known_file(path, directory):
                continue  # upstream knowledge and version sources, read by load_known
            if path.name == "verdicts.toml":
                verdicts.extend(load_verdicts(path))
            elif path.name == CONSEQUENCES_FILE:
                groups.extend(load_groups(path))
            else:
                patterns.append(load_pattern(path, group=path.parent.name))
    dirs = [directory for directory, _ in listing]
    formats = load_formats(dirs)
    library = Library(
        expand(patterns, groups),
        tuple(verdicts),
        load_layer(dirs, formats),
        load_frames(dirs),
        groups=tuple(groups),
        formats=formats,
        known=load_known(listing),
    )
    validate_library(library)
    check_known(library.known, library)
    return library
