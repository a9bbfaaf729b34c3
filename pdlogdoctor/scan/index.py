"""The anchor index: the library's patterns grouped by the primary anchor the searcher looks for."""

from __future__ import annotations

import bisect
import itertools
from collections import defaultdict
from dataclasses import field

from ..library.errorlines import ErrorLayer
from ..library.formats import Formats, shipped
from ..library.patterns import Library, Pattern
from ..model import Mark
from ..model.values import record
from . import accel
from .accel import Matcher


@record
class AnchorIndex:
    """Patterns grouped by the primary anchor the scanner searches for."""

    by_anchor: tuple[tuple[bytes, tuple[Pattern, ...]], ...]
    blocks: frozenset[str]
    fast: Matcher | None = field(default=None, compare=False)  # a compiled matcher (accel.py); None: bytes.find
    # The generic error layer rides on the same search: `generic` holds the positions in
    # `by_anchor` of the keys that find its lines (see errorlines.py).
    errors: ErrorLayer | None = field(default=None, compare=False)
    generic: frozenset[int] = frozenset()
    # The patterns of a server's launch line (Mark.SERVER_LAUNCH): its disaggregation mode names the file's role.
    launches: frozenset[str] = frozenset()
    formats: Formats = field(default_factory=shipped, compare=False)  # what reads each line's time
    # The anchors only metrics patterns (Mark.METRICS) hold, by their position in `by_anchor`, with
    # the one pattern each stands for: their lines are sampled past a stream's first bytes
    # (events.EventSink.take).
    sampled: tuple[tuple[int, str], ...] = ()
    # Per anchor of `by_anchor`, its place in what `fast` reports (-1: a sampled anchor, which the
    # searcher finds with bytes.find and counts with bytes.count: most of a busy log's hits are its
    # metrics lines, and the matcher would hand each one over to Python).
    slots: tuple[int, ...] = ()
    # Per sampled anchor (by its position in `by_anchor`), its place in what `fast` reports when the
    # matcher finds its first occurrence in the same pass (accel.load's `once`): whether a region
    # holds it at all, told without a `bytes.find` pass of its own (most regions hold few of them).
    firsts: tuple[tuple[int, int], ...] = ()
    # Each pattern's `stop_after`, and the block patterns' own anchors: asked for once per input
    # scanned, made once per index (100,000 small files paid a walk of every pattern for each).
    stop_afters: dict[str, int] = field(default_factory=dict, compare=False)
    block_anchors: tuple[bytes, ...] = ()
    # The inverse of `slots`: per place in what `fast` reports, the anchor's position in `by_anchor`.
    numbers: tuple[int, ...] = ()
    # The patterns no scan searches for, read on every line of a paste (scan/pastes.py).
    pasted: tuple[Pattern, ...] = ()
    # The patterns of sentences a person writes, read again on a paste's hand-wrapped sentences (scan/prose.py).
    prose: tuple[Pattern, ...] = ()
    # `by_anchor`'s anchors as text, for the lines read behind a collector's prefix (EventSink._anchors_in):
    # decoded once per index, not once per source (100,000 small files).
    anchor_texts: tuple[str, ...] = field(default=(), compare=False)

    def limits(self) -> dict[str, int]:
        """Each pattern's `stop_after`, for merging ranges scanned apart."""
        return self.stop_afters

    @property
    def matcher(self) -> str:
        """Which matcher finds the anchors: hyperscan, ahocorasick or pure."""
        return accel.name_of(self.fast)

    @classmethod
    def of(cls, library: Library, matcher: str = accel.AUTO, build_at: int = 0) -> AnchorIndex:
        """`build`'s index, built once per library and matcher and kept with the library
        (`Library.derived`): a process that analyses many times builds its matcher once."""
        key = f"anchor-index/{matcher}/{build_at}"
        found = library.derived.get(key)
        if not isinstance(found, AnchorIndex):
            found = library.derived[key] = cls.build(library, matcher, build_at)
        return found

    @classmethod
    def build(cls, library: Library, matcher: str = accel.AUTO, build_at: int = 0) -> AnchorIndex:
        """`build_at`: the matcher is built on the first region of that many bytes (accel.Deferred:
        a run's small input is searched without one); 0: built now."""
        plan = plan_of(library)
        anchors = [anchor for number, (anchor, _) in enumerate(plan.by_anchor) if plan.slots[number] != -1]
        once = [plan.by_anchor[number][0] for number, _ in plan.sampled]
        fast = accel.deferred(anchors, matcher, build_at, once) if build_at else accel.load(anchors, matcher, once)
        return cls(
            plan.by_anchor, plan.blocks, fast, library.errors, plan.generic, plan.launches, library.formats,
            plan.sampled, plan.slots, plan.firsts, plan.stop_afters, plan.block_anchors, plan.numbers, plan.pasted,
            plan.prose, tuple(anchor.decode("utf-8", errors="replace") for anchor, _ in plan.by_anchor),
        )  # fmt: skip


PLAN = "anchor-plan"  # its name in Library.derived


@record
class AnchorPlan:
    """What the index holds but its matcher: made from the library alone, with it (load.py), so the
    library cache keeps it and a run does not pay ~15 ms to make it again."""

    by_anchor: tuple[tuple[bytes, tuple[Pattern, ...]], ...]
    blocks: frozenset[str]
    generic: frozenset[int]
    launches: frozenset[str]
    sampled: tuple[tuple[int, str], ...]
    slots: tuple[int, ...]
    firsts: tuple[tuple[int, int], ...]
    stop_afters: dict[str, int] = field(compare=False)
    block_anchors: tuple[bytes, ...]
    numbers: tuple[int, ...]
    pasted: tuple[Pattern, ...]
    prose: tuple[Pattern, ...]


def plan_of(library: Library) -> AnchorPlan:
    """The library's anchor plan: the one made with it, else made now and kept with it."""
    found = library.derived.get(PLAN)
    if not isinstance(found, AnchorPlan):
        found = library.derived[PLAN] = make_plan(library)
    return found


def make_plan(library: Library) -> AnchorPlan:
    """Each search key with the patterns it finds lines for, and what the searcher asks of them."""
    groups: dict[bytes, list[Pattern]] = defaultdict(list)
    generic_anchors = [a.encode() for a in library.errors.anchors] if library.errors else []
    # Each pattern's search keys (its primary anchor, or each of its any_anchors): properties, computed once.
    own = [tuple(key.encode() for key in pattern.search_keys) for pattern in library.patterns]
    primaries = {key for keys in own for key in keys} | set(generic_anchors)
    escaped = {anchor: _json_escaped(anchor) for anchor in primaries if _json_escaped(anchor) != anchor}
    search_key = _search_keys(primaries | set(escaped.values()))
    for pattern, keys in zip(library.patterns, own, strict=True):
        for key in {search_key[form] for anchor in keys for form in _forms(anchor, escaped)}:
            groups[key].append(pattern)
    generic_keys = {search_key[form] for anchor in generic_anchors for form in _forms(anchor, escaped)}
    for key in generic_keys:
        groups.setdefault(key, [])
    ordered = tuple((anchor, tuple(group)) for anchor, group in sorted(groups.items()))
    generic = frozenset(number for number, (anchor, _) in enumerate(ordered) if anchor in generic_keys)
    sampled = tuple(
        (number, group[0].id)
        for number, (_, group) in enumerate(ordered)
        if len(group) == 1 and Mark.METRICS in group[0].marks and number not in generic
    )
    apart = {number for number, _ in sampled}
    kept = len(ordered) - len(apart)  # the anchors the matcher reports, before the sampled ones' first sightings
    slots = tuple(-1 if n in apart else n - sum(k < n for k in apart) for n in range(len(ordered)))
    return AnchorPlan(
        by_anchor=ordered,
        blocks=frozenset(p.id for p in library.patterns if p.block),
        generic=generic,
        launches=library.marked(Mark.SERVER_LAUNCH),
        sampled=sampled,
        slots=slots,
        firsts=tuple((number, kept + place) for place, (number, _) in enumerate(sampled)),
        stop_afters={p.id: p.stop_after for _, group in ordered for p in group if p.stop_after is not None},
        # The block patterns' own anchors, not their search keys (search._defer_open_block).
        block_anchors=tuple(
            sorted({key.encode() for _, group in ordered for p in group if p.block for key in p.search_keys})
        ),
        numbers=tuple(number for number in range(len(ordered)) if number not in apart),
        pasted=tuple(p for p in library.patterns if p.pastes_only),
        prose=tuple(p for p in library.patterns if p.prose),
    )


def _json_escaped(anchor: bytes) -> bytes:
    """The anchor as a JSON-lines collector stores it (collectors.py): a line holding `"` or `\\`
    is matched unwrapped, but found in the file's bytes, where they are escaped."""
    return anchor.replace(b"\\", b"\\\\").replace(b'"', b'\\"')


def _forms(anchor: bytes, escaped: dict[bytes, bytes]) -> tuple[bytes, ...]:
    return (anchor, escaped[anchor]) if anchor in escaped else (anchor,)


def _search_keys(primaries: set[bytes]) -> dict[bytes, bytes]:
    """Each anchor's search key: the shortest (then smallest) other anchor inside it, else itself.

    A line holding an anchor holds every anchor inside it: one search pass serves both.
    match_line still checks every anchor of the pattern, so this only saves passes.
    The anchors are searched for in all of them at once, joined (a `bytes.find` per anchor):
    testing every pair with `in` cost ~3.5 ms more.
    """
    ordered = sorted(primaries, key=lambda anchor: (len(anchor), anchor))  # the preferred key first
    joined = b"\0".join(ordered)
    starts = list(itertools.accumulate((len(anchor) + 1 for anchor in ordered[:-1]), initial=0))
    keys: dict[bytes, bytes] = {}
    for other in ordered:
        pos = joined.find(other)
        while pos != -1:
            number = bisect.bisect_right(starts, pos) - 1
            holder = ordered[number]
            inside = pos + len(other) <= starts[number] + len(holder)  # not across a separator
            if inside and holder != other:
                keys.setdefault(holder, other)
            pos = joined.find(other, pos + 1)
    return {anchor: keys.get(anchor, anchor) for anchor in ordered}
