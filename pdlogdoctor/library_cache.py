"""The parsed pattern library, kept between runs in the user's cache directory.

Reading the library from its ~120 TOML files and checking it costs a run ~50 ms, more
than everything else a small `analyze` does. The checked library is stored once, under
a key made from the content and the path of every pattern file (the shipped ones, the
config file's, PDLOGDOCTOR_PATTERNS's and --patterns') and from the code that reads
them: any edit to a pattern file or to that code makes a new key, so a stale library is
never used. Regexes are stored as their sources (lazyregex.py).

The cache is an aid, never a requirement: a file that is missing, unreadable, not ours,
corrupt or from another key is ignored and the library is read from its files; a cache
directory that cannot be written is left alone. Files are written whole (a temporary
file, then a rename) and only ever in the cache directory, never beside the logs or the
patterns. Deleting the directory is always safe.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import pickle
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from . import __version__

if TYPE_CHECKING:
    from .patterns import Library

FORMAT = b"pdlogdoctor library cache 1"
# The modules whose code decides what a library read from its files holds: their source is
# part of the key (tests/test_library_cache.py checks the list against what patterns.py imports).
CODE = (
    "patterns", "errorlines", "frames", "traceback", "timeline", "templates", "lazyregex", "model", "errors",
    "library_cache", "values", "prefilter",
)  # fmt: skip
KEEP = 8  # cached libraries kept (one per set of pattern directories and their content)
PREFIX, SUFFIX = "library-", ".pickle"


def user_cache_dir() -> Path | None:
    """Where this user's caches go: XDG_CACHE_HOME or ~/.cache, ~/Library/Caches on macOS,
    %LOCALAPPDATA% on Windows; then our own directory in it. None when there is no home to
    put it in (a service account without one): the run goes on without the cache."""
    try:
        if sys.platform == "win32":
            base = os.environ.get("LOCALAPPDATA") or str(Path.home() / "AppData" / "Local")
        elif sys.platform == "darwin":
            base = str(Path.home() / "Library" / "Caches")
        else:
            xdg = os.environ.get("XDG_CACHE_HOME", "")
            base = xdg if os.path.isabs(xdg) else str(Path.home() / ".cache")  # the spec: ignore a relative value
    except (RuntimeError, KeyError):  # Path.home(): no HOME and no password-database entry
        return None
    return Path(base) / "pdlogdoctor"


def cached_library(directory: Path, files: Sequence[Path], read: Callable[[], Library]) -> Library:
    """The library the files make: from the cache when it holds it, else `read()`, then stored."""
    key = _key(files)
    if key is None:
        return read()
    path = directory / f"{PREFIX}{key}{SUFFIX}"
    library = _load(path, key)
    if library is None:
        library = read()
        _store(directory, path, key, library)
    return library


def _key(files: Sequence[Path]) -> str | None:
    """A digest of the code and of every file's path and content; None when one cannot be read."""
    digest = hashlib.sha256(FORMAT)
    digest.update(f"{__version__} {sys.version}".encode())
    package = Path(__file__).parent
    try:
        for name in CODE:
            _add(digest, f"code:{name}", (package / f"{name}.py").read_bytes())
        for path in files:
            _add(digest, str(path), path.read_bytes())
    except OSError:
        return None  # the reading of the files will report it (or a frozen build without sources: no cache)
    return digest.hexdigest()


def _add(digest: hashlib._Hash, name: str, content: bytes) -> None:
    encoded = name.encode("utf-8", "surrogateescape")
    digest.update(len(encoded).to_bytes(8, "little") + encoded + len(content).to_bytes(8, "little") + content)


def _load(path: Path, key: str) -> Library | None:
    from .patterns import Library

    try:
        with path.open("rb") as handle:
            if not _trusted(os.fstat(handle.fileno())):
                return None
            stored_key, library = pickle.load(handle)
    except Exception:  # missing, unreadable, truncated, from an older layout: read the files instead
        return None
    return library if stored_key == key and isinstance(library, Library) else None


def _trusted(info: os.stat_result) -> bool:
    """Unpickling runs code: only a file this user wrote and no one else may change (where that can be told)."""
    if not hasattr(os, "getuid"):
        return True
    return info.st_uid == os.getuid() and not info.st_mode & 0o022


def _store(directory: Path, path: Path, key: str, library: Library) -> None:
    import tempfile  # here: a run that finds its library cached does not pay for its import

    if not directory.parent.parent.is_dir():
        return  # no home (or XDG_CACHE_HOME's parent) to keep a cache in: none is made up
    try:
        directory.mkdir(mode=0o700, parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(prefix=PREFIX, suffix=".tmp", dir=directory)
    except OSError:
        return  # a read-only home, a full disk: run without the cache
    try:
        with os.fdopen(handle, "wb") as out:
            pickle.dump((key, library), out, protocol=pickle.HIGHEST_PROTOCOL)
        os.replace(temporary, path)
    except (OSError, pickle.PicklingError):
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        return
    _prune(directory)


def _prune(directory: Path) -> None:
    """Keep the KEEP newest libraries: an edited pattern file leaves its old library behind."""
    try:
        stored = sorted(directory.glob(f"{PREFIX}*{SUFFIX}"), key=lambda p: p.stat().st_mtime, reverse=True)
        for old in stored[KEEP:]:
            old.unlink()
    except OSError:
        return
