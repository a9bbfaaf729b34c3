"""Loading the library: the shipped directory and a user's, each TOML dialect read by its reader,
then the whole checked (and kept in the user's cache between runs: cache.py)."""

from __future__ import annotations

import functools
import hashlib
import os
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path

from ..model.errors import PatternError
from .consequences import CONSEQUENCES_FILE, expand, load_groups
from .errorlines import OPEN_WORLD_DIR, load_layer
from .formats import FORMATS_DIR, load_formats
from .frames import FRAMES_FILE, load_frames
from .known import (
    KNOWN_DIR,
    NO_FIX_FILE,
    VERSIONS_FILE,
    WHEN_BACKEND,
    WHEN_PATTERN,
    KnownBook,
    KnownEntry,
    VersionSource,
    is_known_file,
    load_known,
)
from .paths import builtin_library_dir
from .patterns import (
    PROFILE_FILE,
    ConsequenceGroup,
    Library,
    Pattern,
    VerdictSpec,
    load_pattern,
    load_verdicts,
    validate_library,
)

__all__ = ["builtin_library_dir", "load_library", "toml_files"]


Derivers = Mapping[str, Callable[[Library], object]]


def load_library(extra_dirs: Iterable[Path] = (), cache: Path | None = None, derive: Derivers | None = None) -> Library:
    """The shipped library and the patterns of `extra_dirs`, checked. With `cache` (a directory),
    a library read before from the same files is taken from there (library_cache.py). `derive`:
    what later stages make from the library alone, by name, made as it is read and kept in
    `Library.derived`, so the cache keeps it too (the scan's anchor plan)."""
    dirs = [builtin_library_dir(), *extra_dirs]
    for directory in dirs:
        if not directory.is_dir():
            raise PatternError(str(directory), None, "is not a directory of patterns")
    listing = [(directory, toml_files(directory)) for directory in dirs]
    if cache is None:
        return _read_library(listing, derive or {})
    from .cache import cached

    files = [path for _, files in listing for path in files]
    return cached(cache, files, lambda: _read_library(listing, derive or {}), Library)


def toml_files(directory: Path) -> list[Path]:
    """`sorted(directory.rglob("*.toml"))`, listed with os.walk: pathlib's glob machinery cost every
    run ~1 ms of its start-up for ~140 files. The same entries: any kind whose name matches (on
    Windows in any case), in directories reached without following a symbolic link, unreadable
    directories skipped."""
    found = []
    for parent, dirs, files in os.walk(directory):
        found += [Path(parent, name) for name in (*dirs, *files) if os.path.normcase(name).endswith(".toml")]
    return sorted(found)


def _read_library(listing: list[tuple[Path, list[Path]]], derive: Derivers) -> Library:
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
                patterns.append(_pattern_file(path, path.parent.name))
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
    _check_families(library)
    for name, make in derive.items():
        library.derived[name] = make(library)
    return library


def _pattern_file(path: Path, group: str) -> Pattern:
    """`load_pattern`, once per content of the file in a process: a pattern is immutable, and a
    process that loads the library again (a user directory beside the shipped one, a changed file)
    parses only what changed; parsing the ~350 shipped files (their regexes) is most of a load. By
    content, not modification time: two writes in one clock tick keep one time."""
    digest = hashlib.blake2b(path.read_bytes(), digest_size=16).digest()
    return _parsed_pattern(str(path), group, digest)


@functools.lru_cache(maxsize=4096)  # a memo of a pure function of the file's content, not state
def _parsed_pattern(path: str, group: str, _digest: bytes) -> Pattern:
    return load_pattern(Path(path), group=group)


def _check_families(library: Library) -> None:
    """A cause family names a verdict of the catalogue."""
    for family in library.errors.families if library.errors is not None else ():
        if not library.has_verdict(family.verdict):
            raise PatternError(family.path, f"{family.id}.verdict", f"'{family.verdict}' is not a known verdict id")


# ---------------------------------------------------------------- checking against the library


def check_known(book: KnownBook, library: Library) -> None:
    """Every name an entry or a version source uses exists: verdicts, patterns, captures, components."""
    seen: dict[str, str] = {}
    components = {component.name for component in book.components}
    for entry in book.entries:
        if entry.id in seen:
            raise PatternError(entry.path, "id", f"duplicate known entry '{entry.id}' (also in {seen[entry.id]})")
        seen[entry.id] = entry.path
        for verdict in entry.verdicts:
            if not library.has_verdict(verdict):
                raise PatternError(entry.path, "verdict", f"'{verdict}' is not a known verdict id")
        if entry.component is not None and entry.component not in components:
            raise PatternError(entry.path, "component", f"'{entry.component}' is not a component of versions.toml")
        _check_when(entry, library)
    for source in book.sources:
        _check_source(source, library, components)
    for item in book.without_fix:
        if not library.has_verdict(item.verdict):
            raise PatternError(NO_FIX_FILE, item.verdict, "is not a known verdict id")


def _check_when(entry: KnownEntry, library: Library) -> None:
    groups = {pattern.group for pattern in library.patterns}
    for condition in entry.when:
        key = f"when.{condition.name}"
        if condition.name == WHEN_BACKEND:
            if condition.low not in groups:
                raise PatternError(
                    entry.path, key, f"'{condition.low}' is not a pattern group ({', '.join(sorted(groups))})"
                )
        elif condition.name == WHEN_PATTERN:
            if not any(p.id == condition.low for p in library.patterns):
                raise PatternError(entry.path, key, f"unknown pattern '{condition.low}'")
        else:
            facts = {name for verdict in entry.verdicts for name in library.verdict(verdict).identity or ()}
            if condition.name not in facts:
                raise PatternError(
                    entry.path,
                    key,
                    f"'{condition.name}' is not a fact the verdict identifies ({', '.join(sorted(facts))})",
                )


def _check_source(source: VersionSource, library: Library, components: set[str]) -> None:
    where = f"{KNOWN_DIR}/{VERSIONS_FILE}"
    try:
        pattern = library.pattern(source.pattern)
    except KeyError:
        raise PatternError(where, source.pattern, "is not a pattern of the library") from None
    captures = {name for name, _ in pattern.fields}
    for field_name in (source.field, source.component_field):
        if field_name is not None and field_name not in captures:
            raise PatternError(where, source.pattern, f"'{field_name}' is not a capture of the pattern")
    if source.component is not None and source.component not in components:
        raise PatternError(where, source.pattern, f"'{source.component}' is not a component")
    if source.name_pattern is not None and not any(p.id == source.name_pattern for p in library.patterns):
        raise PatternError(where, source.pattern, f"unknown pattern '{source.name_pattern}'")
    if source.extract is not None and "version" not in source.extract.groupindex:
        raise PatternError(where, source.pattern, "extract has no named group `version`")
