"""The parsed pattern library (and the shipped catalogue of line formats), kept between runs in the
user's cache directory.

Reading the library from its ~120 TOML files and checking it costs a run ~50 ms, more
than everything else a small `analyze` does. The checked library is stored once, under
a key made from every pattern file (the shipped ones, the config file's,
PDLOGDOCTOR_PATTERNS's and --patterns') and from the code that reads them: any edit to a
pattern file or to that code makes a new key, so a stale library is never used.
Regexes are stored as their sources (lazyregex.py).

A file's part of the key is what `stat` says of it, as Python's own .pyc check does, but
more of it: path, size, modification and change times, inode. Reading all ~140 files to
hash their content cost every run ~2 ms. The change time (ctime) is set by the system on
every write and on every change of the modification time, and nobody can set it back, so
an edit that keeps the size and restores the modification time (`cp -p`, `touch -r`,
`rsync -t`) still makes a new key. `stat` can still miss an edit in two cases, and there
the file's content is in the key too: a file changed in the last RACY_SECONDS (a second
edit within one tick of a coarse file system clock, FAT's 2 s, would keep both times),
and any file on Windows, where st_ctime is the creation time.

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
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TypeVar

from .. import __version__

T = TypeVar("T")

FORMAT = b"pdlogdoctor library cache 2"
# The modules whose code decides what a library read from its files holds: their source is
# part of the key (tests/test_library_cache.py checks the list against what patterns.py imports;
# scan.index makes the anchor plan kept with it: load.py's `derive`).
CODE = (
    "library", "library.patterns", "library.schema", "library.conditions", "library.fields",
    "library.consequences", "library.errorlines", "library.formats", "library.frames", "library.known",
    "model.known",
    "library.templates", "library.lazyregex", "library.literals", "library.cache", "library.load", "library.paths",
    "scan", "scan.traceback", "scan.index",
    "scan.timeline", "scan.collectors", "model", "model.errors", "model.values", "model.lazyre",
)  # fmt: skip
# A file changed this recently may be changed again without a new modification or change time
# (one tick of a coarse file system clock: FAT's is 2 s): its content goes in the key.
RACY_SECONDS = 3
CHANGE_TIME_KNOWN = sys.platform != "win32"  # st_ctime: the last change on POSIX, the creation on Windows
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


def cached(directory: Path, files: Sequence[Path], read: Callable[[], T], kind: type[T]) -> T:
    """What the files make (a `kind`: the Library, the shipped Formats): from the cache when it holds
    it, else `read()`, then stored."""
    key = _key(files)
    if key is None:
        return read()
    path = directory / f"{PREFIX}{key}{SUFFIX}"
    value = _load(path, key, kind)
    if value is None:
        value = read()
        _store(directory, path, key, value)
    return value


def _key(files: Sequence[Path]) -> str | None:
    """A digest of the code and of every file: what stat says of it, and its content where stat may
    miss an edit (see above); None when one cannot be read."""
    digest = hashlib.sha256(FORMAT)
    digest.update(f"{__version__} {sys.version}".encode())
    package = Path(__file__).parent.parent  # pdlogdoctor/
    settled = time.time_ns() - RACY_SECONDS * 10**9  # a file changed since may change again unseen
    try:
        for name in CODE:
            _add(digest, f"code:{name}", _module_file(package, name), settled)
        for path in files:
            _add(digest, str(path), path, settled)
    except OSError:
        return None  # the reading of the files will report it (or a frozen build without sources: no cache)
    return digest.hexdigest()


def _module_file(package: Path, name: str) -> Path:
    """The source of module `name` (dotted, below the package): a package's is its __init__.py."""
    path = package.joinpath(*name.split("."))
    return path / "__init__.py" if path.is_dir() else path.with_suffix(".py")


def _add(digest: hashlib._Hash, name: str, path: Path, settled: int) -> None:
    info = path.stat()
    seen = f"{info.st_size} {info.st_mtime_ns} {info.st_ctime_ns} {info.st_ino} {info.st_dev}".encode()
    content = b""
    if not CHANGE_TIME_KNOWN or max(info.st_mtime_ns, info.st_ctime_ns) >= settled:
        content = path.read_bytes()
    for part in (name.encode("utf-8", "surrogateescape"), seen, content):
        digest.update(len(part).to_bytes(8, "little") + part)


def _load(path: Path, key: str, kind: type[T]) -> T | None:
    try:
        with path.open("rb") as handle:
            if not _trusted(os.fstat(handle.fileno())):
                return None
            stored_key, value = pickle.load(handle)
    except Exception:  # missing, unreadable, truncated, from an older layout: read the files instead
        return None
    return value if stored_key == key and isinstance(value, kind) else None


def _trusted(info: os.stat_result) -> bool:
    """Unpickling runs code: only a file this user wrote and no one else may change (where that can be told)."""
    if not hasattr(os, "getuid"):
        return True
    return info.st_uid == os.getuid() and not info.st_mode & 0o022


def _store(directory: Path, path: Path, key: str, value: object) -> None:
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
            pickle.dump((key, value), out, protocol=pickle.HIGHEST_PROTOCOL)
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
