"""Dense bundles: real log lines from the fixtures, in their real proportions, at any size.

The sparse bundle (generate.py) fills the gaps of one incident with noise that holds no anchor: it
measures the anchor search. On real logs many lines are hits, and the time goes after the match.
These bundles are made of the corpus's own lines (every fixture bundle and real excerpt, not the
blind sets), each file's lines in order, so every line kind the library matches (the open-world
error layer's too) comes at the rate the corpus has it:

- `dense`: one node: `prefill_node0.log`, `decode_node1.log`, `router.log`, `job.log`, each cycling
  through the corpus files of its role (from the file's name), sized by the role's share of the
  corpus's bytes;
- `fleet`: the same at 64 nodes: `prefill_nodeNN.log` and `decode_nodeNN.log` for 32 nodes each (each
  node starting at another file of its role), `router.log` and `job.log`;
- `files`: the seed incident's files and FILES_COUNT small files beside them (`rank00000.log`, ...:
  a few consecutive lines of a corpus file each; the names sort before `router.log`).

Each pass through a role's files moves every date in them (ISO dates, vLLM's and glog's month-day)
one day on, so no line repeats byte for byte and each file's time still runs forward. Files are
generated at run time under a scratch directory (never committed) and reused while complete.
"""

from __future__ import annotations

import bisect
import datetime
import functools
import itertools
import random
import re
import shutil
from collections.abc import Iterator
from pathlib import Path

from .generate import SEED_FIXTURE

DENSE_VERSION = "2"
ROOT = Path(__file__).resolve().parent.parent
CORPUS_DIRS = (ROOT / "fixtures", ROOT / "tests" / "data" / "excerpts")
LOG_SUFFIXES = frozenset({".log", ".txt", ".out"})
ROLES = ("prefill", "decode", "router", "job")
FLEET_NODES = 64
FILES_COUNT = 100_000
FILE_LINES = (1, 8)  # lines per small file, inclusive range
# The three date shapes a day is added to; others (syslog, epoch seconds) stay as they are.
_DATES = re.compile(
    rb"(?P<iso>\b\d{4}-\d\d-\d\d(?=[ T]\d\d:))"
    rb"|(?P<md>(?<=[A-Z] )\d\d-\d\d(?= \d\d:\d\d:\d\d))"
    rb"|(?P<glog>(?<![\w])[IWEF]\d{4}(?= \d\d:\d\d:\d\d\.))"
)


def corpus_files() -> list[Path]:
    """Every log file of the fixture bundles and real excerpts, not the blind sets, in name order."""
    found = []
    for root in CORPUS_DIRS:
        for path in sorted(root.rglob("*")):
            if not path.is_file() or path.suffix not in LOG_SUFFIXES:
                continue
            if any(part.startswith("blind") for part in path.relative_to(root).parts):
                continue
            found.append(path)
    return found


def role_of(path: Path) -> str:
    name = path.name.lower()
    return next((role for role in ROLES[:3] if role in name), "job")


class Dated:
    """A file's bytes split around its dates, so pass k (dates k days on) is one join."""

    def __init__(self, data: bytes) -> None:
        self.pieces = _DATES.split(data)  # text, iso, md, glog, text, ...: one date per four pieces

    def shifted(self, days: int) -> bytes:
        if not days:
            return b"".join(piece for piece in self.pieces if piece is not None)
        out: list[bytes] = []
        pieces = self.pieces
        for i in range(0, len(pieces) - 1, 4):
            out.append(pieces[i])
            iso, md, glog = pieces[i + 1], pieces[i + 2], pieces[i + 3]
            out.append(_shift_iso(iso, days) if iso else _shift_md(md, days) if md else _shift_glog(glog, days))
        out.append(pieces[-1])
        return b"".join(out)


_SHIFTED: dict[tuple[bytes, int], bytes] = {}


def _shift_iso(date: bytes, days: int) -> bytes:
    key = (date, days)
    if key not in _SHIFTED:
        try:
            moved = datetime.date.fromisoformat(date.decode()) + datetime.timedelta(days=days)
            _SHIFTED[key] = moved.isoformat().encode()
        except ValueError:
            _SHIFTED[key] = date
    return _SHIFTED[key]


def _shift_month_day(month: int, day: int, days: int) -> tuple[int, int]:
    try:
        moved = datetime.date(2026, month, day) + datetime.timedelta(days=days)
    except ValueError:
        return month, day
    return moved.month, moved.day


def _shift_md(text: bytes, days: int) -> bytes:
    month, day = _shift_month_day(int(text[:2]), int(text[3:5]), days)
    return b"%02d-%02d" % (month, day)


def _shift_glog(text: bytes, days: int) -> bytes:
    month, day = _shift_month_day(int(text[1:3]), int(text[3:5]), days)
    return text[:1] + b"%02d%02d" % (month, day)


def pools() -> dict[str, list[Path]]:
    by_role: dict[str, list[Path]] = {role: [] for role in ROLES}
    for path in corpus_files():
        by_role[role_of(path)].append(path)
    return by_role


def shares(by_role: dict[str, list[Path]]) -> dict[str, float]:
    """Each role's share of the corpus's bytes: the proportions the bundle keeps."""
    sizes = {role: sum(p.stat().st_size for p in files) for role, files in by_role.items()}
    total = sum(sizes.values())
    return {role: size / total for role, size in sizes.items()}


def _passes(files: list[Path], first: int) -> Iterator[bytes]:
    """The role's files in turn from `first`, each full pass one day later than the one before."""
    dated = [_dated(path) for path in files]
    turn = 0
    while True:
        number = (first + turn) % len(files)
        data = dated[number].shifted(turn // len(files))
        if data and not data.endswith(b"\n"):
            data += b"\n"
        yield data
        turn += 1


@functools.cache
def _dated(path: Path) -> Dated:
    """A corpus file split around its dates, once: a fleet's 64 nodes each start their role's turn."""
    return Dated(path.read_bytes())


def write_role_file(path: Path, files: list[Path], target: int, first: int = 0) -> int:
    """Whole corpus files of one role, in turn, until about `target` bytes (the last one cut at a line)."""
    written = 0
    with path.open("wb") as handle:
        for data in _passes(files, first):
            if written + len(data) > target:
                data = data[: data.rfind(b"\n", 0, max(1, target - written)) + 1]
                handle.write(data)
                return written + len(data)
            handle.write(data)
            written += len(data)
    return written


def _complete(directory: Path, label: str) -> Path | None:
    marker = directory / "complete"
    bundle = directory / "bundle"
    if marker.exists() and marker.read_text() == label:
        return bundle
    if bundle.exists():
        shutil.rmtree(bundle)
    marker.unlink(missing_ok=True)
    bundle.mkdir(parents=True)
    return None


def generate_dense(directory: Path, size: int, nodes: int = 1) -> Path:
    """A bundle of about `size` bytes in `directory/bundle`: one node (`nodes=1`) or a fleet."""
    label = f"dense {DENSE_VERSION} size={size} nodes={nodes}\n"
    bundle = _complete(directory, label)
    if bundle is not None:
        return bundle
    bundle = directory / "bundle"
    by_role = pools()
    share = shares(by_role)
    for role in ROLES:
        if role in ("prefill", "decode"):
            count = max(1, nodes // 2)
            for k in range(count):
                node = k if role == "prefill" else count + k
                name = f"{role}_node{node:0{len(str(nodes))}d}.log"
                write_role_file(bundle / name, by_role[role], int(size * share[role] / count), first=k)
        else:
            write_role_file(bundle / f"{role}.log", by_role[role], int(size * share[role]))
    (directory / "complete").write_text(label)
    return bundle


def generate_files(directory: Path, count: int = FILES_COUNT, seed: int = 0) -> Path:
    """The seed incident's files with `count` small files of real lines beside them."""
    label = f"files {DENSE_VERSION} count={count} seed={seed}\n"
    bundle = _complete(directory, label)
    if bundle is not None:
        return bundle
    bundle = directory / "bundle"
    for src in sorted(SEED_FIXTURE.glob("*.log")):
        shutil.copyfile(src, bundle / src.name)
    rng = random.Random(seed)
    # Each file starts at a line drawn from all the corpus's lines alike: the line kinds come at
    # the corpus's rates (a file drawn first would favour the short excerpts, nearly all hits).
    files = [path.read_bytes().splitlines(keepends=True) for path in corpus_files()]
    starts = list(itertools.accumulate(len(file) for file in files))
    width = len(str(count - 1))
    for number in range(count):
        drawn = rng.randrange(starts[-1])
        which = bisect.bisect_right(starts, drawn)
        file = files[which]
        start = drawn - (starts[which - 1] if which else 0)
        piece = b"".join(file[start : start + rng.randint(*FILE_LINES)])
        (bundle / f"rank{number:0{width}d}.log").write_bytes(piece if piece.endswith(b"\n") else piece + b"\n")
    (directory / "complete").write_text(label)
    return bundle
