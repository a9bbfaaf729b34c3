"""Compiled anchor matchers: every anchor in one pass over a chunk.

The pure-Python scanner runs one `bytes.find` pass per anchor, so its speed falls
as the library grows. A compiled matcher finds all of them in one pass. It only
answers "where does each anchor occur in [lo, hi)": the scanner feeds those
positions to the same line logic as `bytes.find`, so events are identical
whichever matcher ran (tests/test_accel.py checks every fixture and random
chunkings with each installed one).

Chosen at run time, fastest first, from what is installed (RunOptions.matcher,
the CLI's PDLOGDOCTOR_MATCHER, names one instead):

- `hyperscan` (the `[fast]` extra; wheels for x86_64 Linux/macOS/Windows and
  aarch64 Linux with glibc >= 2.28);
- `ahocorasick` (ahocorasick-rs, in the default install wherever it has a wheel:
  Linux x86_64/aarch64 from glibc 2.17, macOS, Windows AMD64);
- `pure`: the per-anchor `bytes.find` loop, always there.
"""

from __future__ import annotations

import importlib.util
import re
from collections import defaultdict
from collections.abc import Sequence
from typing import Any, Protocol

AUTO = "auto"
PURE = "pure"
MATCHERS = ("hyperscan", "ahocorasick", PURE)  # fastest first
_MODULES = {"hyperscan": "hyperscan", "ahocorasick": "ahocorasick_rs"}
# Keys per automaton. ahocorasick-rs prefilters with Teddy (SIMD) up to 64 keys, but above 32 it
# switches to a wider, slower variant: on the benchmark's noise one automaton of 32 keys scans at
# ~0.07 CPU s/GB, one of 64 at ~0.39, so three automata of 32 beat two of 64 by 4x.
AHO_GROUP = 32
# Teddy fingerprints the first 3 bytes of an automaton's keys, or fewer when a key is shorter: one
# 2-byte key in a group makes every key of that group a candidate far more often (six 2-byte keys
# mixed in: 1.38 CPU s/GB; in an automaton of their own: 0.56). Shorter keys are grouped apart.
AHO_SHORT_KEY = 3
# A run's matcher is built on the first region of at least this many bytes (Deferred): smaller
# inputs are searched faster by one bytes.find pass per anchor than a matcher is imported and built.
BUILD_AT = 16 << 10


class Matcher(Protocol):
    name: str

    def positions(self, buf: bytes | bytearray, lo: int, hi: int) -> list[list[int]]:
        """Per anchor, ascending starts s with lo <= s and s + len(anchor) <= hi (as bytes.find).
        After them, per `once` anchor (`load`) when the matcher finds those in the same pass: a
        list that is empty when it is not in [lo, hi) and starts with its first start when it is."""
        ...


# What a compiled matcher reports for an anchor a region does not hold: one list shared by all of
# them, never appended to (a matcher gives each anchor found a list of its own). A small file holds
# few of the hundreds of anchors; an empty list made for each of them was ~12 % of the scan of
# 100,000 small files. Callers only read what `positions` returns.
NONE_FOUND: list[int] = []


def load(anchors: Sequence[bytes], wanted: str = AUTO, once: Sequence[bytes] = ()) -> Matcher | None:
    """The fastest installed matcher (or the one `wanted` names); None: the pure loop. `once`:
    anchors whose first occurrence alone is wanted (whether a region holds them), reported by a
    matcher that finds them in the same pass at no cost per occurrence (hyperscan); the others
    leave them out (`Matcher.positions`)."""
    if not anchors:
        return None
    for name in MATCHERS if wanted == AUTO else (wanted,):
        matcher = _build(name, anchors, once)
        if matcher is not None:
            return matcher
    return None


def deferred(
    anchors: Sequence[bytes], wanted: str = AUTO, build_at: int = BUILD_AT, once: Sequence[bytes] = ()
) -> Matcher | None:
    """`load`, put off until a region of `build_at` bytes or more is searched (Deferred); None when
    the pure loop is what `load` would give."""
    if not anchors or installed(wanted) == PURE:
        return None
    return Deferred(anchors, wanted, build_at, once)


def build_now(matcher: Matcher | None) -> None:
    """Build a Deferred matcher now (before forking workers that would each build their own)."""
    if isinstance(matcher, Deferred):
        matcher.build()


def installed(wanted: str = AUTO) -> str:
    """The matcher `load` picks, told from what is installed without importing it (start-up stays short)."""
    for name in MATCHERS if wanted == AUTO else (wanted,):
        if name == PURE or importlib.util.find_spec(_MODULES[name]) is not None:
            return name
    return PURE


def check(wanted: str) -> str:
    """`wanted` if it names a matcher, else ValueError."""
    if wanted != AUTO and wanted not in MATCHERS:
        raise ValueError(f"unknown matcher {wanted!r}; one of: {AUTO}, {', '.join(MATCHERS)}")
    return wanted


def name_of(matcher: Matcher | None) -> str:
    return matcher.name if matcher is not None else PURE


def _build(name: str, anchors: Sequence[bytes], once: Sequence[bytes] = ()) -> Matcher | None:
    if check(name) == PURE:
        return None
    if name == "hyperscan":
        return _hyperscan(anchors, once)
    return _ahocorasick(anchors)


# ---------------------------------------------------------------- deferred


class Deferred:
    """A compiled matcher built once the regions it was asked about reach `build_at` bytes in all.

    Importing and building one costs ~2-4 ms (hyperscan's import and compile: ~3.5 ms), more than
    one `bytes.find` pass per anchor over a small file (~0.5 ms over 16 KiB): a one-line log's run
    spent that on a matcher it had no use for. Regions below `build_at` until then are searched with
    those passes, which find exactly what the matcher finds (the same contract, tests/test_accel.py).
    `name` is the matcher that searches every larger region: the one `load` builds.
    """

    def __init__(self, anchors: Sequence[bytes], wanted: str, build_at: int, once: Sequence[bytes] = ()) -> None:
        self.anchors = list(anchors)
        self.once = list(once)
        self.wanted = wanted
        self.build_at = build_at
        self.name = installed(wanted)
        self.built: Matcher | None = None
        self.tried = False  # built, or found that nothing builds (then every region is searched by passes)
        self.searched = 0  # bytes searched by passes so far: many small files add up to a large input

    def build(self) -> None:
        if not self.tried:
            self.tried = True
            self.built = load(self.anchors, self.wanted, self.once)
            self.name = name_of(self.built)

    def positions(self, buf: bytes | bytearray, lo: int, hi: int) -> list[list[int]]:
        # Built on a large region, or once the small ones searched add up to one: 100,000 small
        # files cost a pass per anchor each (~0.3 ms a file) when none of them alone was large.
        self.searched += hi - lo
        if self.searched >= self.build_at:
            self.build()
        if self.built is not None:
            return self.built.positions(buf, lo, hi)
        return [occurrences(buf, anchor, lo, hi) for anchor in self.anchors]  # the `once` ones left out


def occurrences(buf: bytes | bytearray, anchor: bytes, lo: int, hi: int) -> list[int]:
    """Where `anchor` starts in buf[lo:hi], overlapping ones included: what every matcher reports."""
    found, pos = [], buf.find(anchor, lo, hi)
    while pos != -1:
        found.append(pos)
        pos = buf.find(anchor, pos + 1, hi)
    return found


# ---------------------------------------------------------------- hyperscan


class HyperscanMatcher:
    """`once` anchors (`load`) are compiled with HS_FLAG_SINGLEMATCH: hyperscan reports the first
    match of each and no more, in the pass that finds the others."""

    name = "hyperscan"

    def __init__(self, database: Any, anchors: Sequence[bytes], once: Sequence[bytes] = ()) -> None:
        self.database = database
        self.lengths = [len(anchor) for anchor in (*anchors, *once)]

    def positions(self, buf: bytes | bytearray, lo: int, hi: int) -> list[list[int]]:
        found: list[list[int]] = [NONE_FOUND] * len(self.lengths)
        lengths = self.lengths

        def on_match(anchor: int, _from: int, to: int, _flags: int, _context: object) -> None:
            starts = found[anchor]
            if starts is NONE_FOUND:
                found[anchor] = [lo + to - lengths[anchor]]
            else:
                starts.append(lo + to - lengths[anchor])

        # A view of [lo, hi) (no copy): a match ends inside it, so it also starts inside it.
        self.database.scan(memoryview(buf)[lo:hi], match_event_handler=on_match)
        for starts in found:
            if starts is not NONE_FOUND:
                starts.sort()
        return found


def _hyperscan(anchors: Sequence[bytes], once: Sequence[bytes] = ()) -> Matcher | None:
    try:
        import hyperscan  # type: ignore[import-not-found, unused-ignore]
    except ImportError:
        return None
    every = [*anchors, *once]
    try:
        database = hyperscan.Database()
        database.compile(
            expressions=[re.escape(anchor) for anchor in every],
            ids=list(range(len(every))),
            elements=len(every),
            flags=[0] * len(anchors) + [hyperscan.HS_FLAG_SINGLEMATCH] * len(once),
        )
    except Exception:  # a library hyperscan cannot compile is scanned another way
        return None
    return HyperscanMatcher(database, anchors, once)


# ---------------------------------------------------------------- ahocorasick-rs


class AhoCorasickMatcher:
    """Leftmost-first automata of at most AHO_GROUP keys each (the SIMD path), made exact.

    A leftmost-first search reports no match that starts inside a reported one: an
    occurrence of key j starting d bytes into a reported key i is missed. That can
    only happen when i[d:] is a prefix of j or holds j, so those (j, d) are listed per
    key at build time and checked with `startswith` at each
    reported hit of i: every occurrence is found, as hyperscan and `bytes.find` find it.
    """

    name = "ahocorasick"

    def __init__(self, automata: list[tuple[Any, list[int]]], anchors: Sequence[bytes]) -> None:
        self.automata = automata  # each automaton with the anchor numbers of its keys
        self.anchors = list(anchors)
        self.hidden = _hidden_partners(self.anchors, automata)

    def positions(self, buf: bytes | bytearray, lo: int, hi: int) -> list[list[int]]:
        found: list[list[int]] = [NONE_FOUND] * len(self.anchors)
        view = memoryview(buf)[lo:hi]  # no copy
        unsorted: set[int] = set()
        hidden = self.hidden
        for automaton, numbers in self.automata:
            for key, start, _end in automaton.find_matches_as_indexes(view):
                anchor = numbers[key]
                starts = found[anchor]  # _found_at, inlined: a dense log's every hit passes here
                if starts is NONE_FOUND:
                    found[anchor] = [start + lo]
                else:
                    starts.append(start + lo)
                partners = hidden.get(anchor)
                if partners is None:
                    continue
                for other, offset in partners:
                    at = start + lo + offset
                    if at + len(self.anchors[other]) <= hi and buf.startswith(self.anchors[other], at):
                        _found_at(found, other, at)
                        unsorted.add(other)
        for anchor in unsorted:
            found[anchor] = sorted(set(found[anchor]))
        return found


def _found_at(found: list[list[int]], anchor: int, start: int) -> None:
    if found[anchor] is NONE_FOUND:
        found[anchor] = [start]
    else:
        found[anchor].append(start)


def _hidden_partners(anchors: list[bytes], automata: list[tuple[Any, list[int]]]) -> dict[int, list[tuple[int, int]]]:
    """Per key i of one automaton: keys j (same automaton, i itself too) that may start d bytes
    into i (at d = 0, a key that loses to i on priority)."""
    hidden: dict[int, list[tuple[int, int]]] = defaultdict(list)
    for _, numbers in automata:
        by_first_byte: dict[int, list[int]] = defaultdict(list)  # a key can only start where its first byte is
        for j in numbers:
            by_first_byte[anchors[j][0]].append(j)
        for i in numbers:
            for d, byte in enumerate(anchors[i]):
                tail = anchors[i][d:]
                for j in by_first_byte.get(byte, ()):
                    if (i != j or d > 0) and (anchors[j].startswith(tail) or tail.startswith(anchors[j])):
                        hidden[i].append((j, d))
    return dict(hidden)


def _ahocorasick(anchors: Sequence[bytes]) -> Matcher | None:
    try:
        import ahocorasick_rs  # type: ignore[import-not-found, unused-ignore]
    except ImportError:
        return None
    short = [n for n, anchor in enumerate(anchors) if len(anchor) < AHO_SHORT_KEY]
    rest = [n for n, anchor in enumerate(anchors) if len(anchor) >= AHO_SHORT_KEY]
    groups = [part[k : k + AHO_GROUP] for part in (short, rest) for k in range(0, len(part), AHO_GROUP)]
    automata = [
        (
            ahocorasick_rs.BytesAhoCorasick(
                [anchors[n] for n in group], matchkind=ahocorasick_rs.MATCHKIND_LEFTMOST_FIRST
            ),
            group,
        )
        for group in groups
    ]
    return AhoCorasickMatcher(automata, anchors)
