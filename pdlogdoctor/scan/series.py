"""Every line of a periodic metrics pattern, read into bounded time series as the scan goes.

The sink keeps only the first KEEP_PER_PATTERN events of a pattern (events.py): a decode server
prints a `Decode batch` line every few seconds, and an hour of them would crowd out everything
else. A pattern marked `metrics` therefore feeds a `Track` too: one per source, pattern and rank,
holding every numeric capture of every line as time buckets (count, sum, lowest, highest) plus
each number's first, last and peak value with its line. Buckets are `width` seconds wide,
aligned on multiples of it; when a track holds more than MAX_BUCKETS the width doubles and
neighbours merge. Memory per track is therefore fixed, whatever the log's length.

The buckets depend only on the lines' times, never on where a scan's byte range starts: two
tracks of consecutive ranges merge (`Track.absorb`) into exactly the track one sequential scan
builds (the coarsest width either needed, doubled until the merged buckets fit), so a file
scanned on several cores reads as the same series.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field

from ..model import Role, Series
from ..model.lazyre import lazy_re
from .roles import ROLE_WORDS, node_from_name

MAX_BUCKETS = 240  # time buckets kept per track (a chart's width in points)
FIRST_WIDTH = 1.0  # seconds: the finest bucket, doubled as a track grows
# Sums are kept as integers of millionths: the logs print at most a few decimals, and an integer
# sum is the same whatever order the lines (or a parallel scan's ranges) are added in.
SCALE = 1_000_000

# A bucket: [first time, last time, first line, last line, then per number: count, sum (in
# millionths), low, high]
_HEAD = 4
_PER = 4


@dataclass(slots=True)
class Peak:
    """A number's highest value so far, with the line that printed it."""

    value: float
    line: int
    time: float
    text: str


@dataclass(slots=True)
class Track:
    """The lines of one metrics pattern in one source, at one rank, as bounded time buckets."""

    pattern: str
    rank: str
    names: tuple[str, ...]  # the numeric captures, in a fixed order
    # The stream a collector's prefix names for these lines ("" when none): one file of `grep -H`
    # over several servers' logs, or of `docker compose logs`, holds each server's lines apart.
    stream: str = ""
    width: float = FIRST_WIDTH
    buckets: dict[int, list[float]] = field(default_factory=dict)
    count: int = 0
    untimed: int = 0  # lines without a time: counted, not charted
    first_line: int = 0
    first_text: str = ""
    last_line: int = 0
    last_text: str = ""
    first_time: float = 0.0
    last_time: float = 0.0
    longest_gap: float = 0.0
    firsts: list[float | None] = field(default_factory=list)
    lasts: list[float | None] = field(default_factory=list)
    peaks: list[Peak | None] = field(default_factory=list)

    def __post_init__(self) -> None:
        size = len(self.names)
        self.firsts, self.lasts, self.peaks = [None] * size, [None] * size, [None] * size

    def add(self, time: float | None, line: int, values: list[float | None], text: str, weight: int = 1) -> None:
        """One line's numbers (None where the line lacks one), standing for `weight` lines (a
        sampled metrics line stands for those its stride skipped: events.EventSink.take)."""
        if time is None:
            self.untimed += weight
            return
        if self.count:
            if time - self.last_time > self.longest_gap:
                self.longest_gap = time - self.last_time
        else:
            self.first_line, self.first_time, self.first_text = line, time, text
        self.count += weight
        self.last_line, self.last_time, self.last_text = line, time, text
        bucket = self._bucket(time, line)
        at = _HEAD
        firsts, lasts, peaks = self.firsts, self.lasts, self.peaks
        for index, value in enumerate(values):  # inlined: every metrics line passes here
            if value is not None:
                bucket[at] += weight
                bucket[at + 1] += weight * round(value * SCALE)  # an integer: exact in any order
                if value < bucket[at + 2]:
                    bucket[at + 2] = value
                if value > bucket[at + 3]:
                    bucket[at + 3] = value
                if firsts[index] is None:
                    firsts[index] = value
                lasts[index] = value
                peak = peaks[index]
                if peak is None or value > peak.value:
                    peaks[index] = Peak(value, line, time, text)
            at += _PER

    def _bucket(self, time: float, line: int) -> list[float]:
        key = int(time // self.width)
        bucket = self.buckets.get(key)
        if bucket is None:
            bucket = [time, time, float(line), float(line)] + [0, 0, float("inf"), float("-inf")] * len(self.names)
            self.buckets[key] = bucket
            if len(self.buckets) > MAX_BUCKETS:
                self._coarsen()
                return self.buckets[int(time // self.width)]
            return bucket
        bucket[1], bucket[3] = time, float(line)
        return bucket

    def coarsened(self, limit: int) -> Track:
        """A copy with at most `limit` buckets: the same lines, counts, sums, lows, highs, firsts,
        lasts and peaks, in wider buckets."""
        coarse = copy.copy(self)  # not `replace`: __post_init__ would clear the firsts, lasts and peaks
        coarse.buckets = dict(self.buckets)
        coarse._coarsen(limit)
        return coarse

    def _coarsen(self, limit: int = MAX_BUCKETS) -> None:
        """Double the width until the buckets fit, merging neighbours."""
        while len(self.buckets) > limit:
            self.width *= 2
            merged: dict[int, list[float]] = {}
            for bucket in sorted(self.buckets.values()):
                _merge_into(merged, int(bucket[0] // self.width), bucket)
            self.buckets = merged

    def absorb(self, later: Track) -> None:
        """Append the track of the next byte range of the same source (lines already shifted)."""
        if not later.count:
            self.untimed += later.untimed
            return
        if not self.count:
            _copy(later, self)
            return
        self.longest_gap = max(self.longest_gap, later.longest_gap, later.first_time - self.last_time)
        self.width = max(self.width, later.width)
        merged: dict[int, list[float]] = {}
        for bucket in sorted([*self.buckets.values(), *later.buckets.values()]):
            _merge_into(merged, int(bucket[0] // self.width), bucket)
        self.buckets = merged
        self._coarsen()
        self.count += later.count
        self.untimed += later.untimed
        self.last_line, self.last_time, self.last_text = later.last_line, later.last_time, later.last_text
        for index in range(len(self.names)):
            self.firsts[index] = self.firsts[index] if self.firsts[index] is not None else later.firsts[index]
            self.lasts[index] = later.lasts[index] if later.lasts[index] is not None else self.lasts[index]
            mine, theirs = self.peaks[index], later.peaks[index]
            if mine is None or (theirs is not None and theirs.value > mine.value):
                self.peaks[index] = theirs

    def shifted(self, lines: int) -> Track:
        """This track with its line numbers moved down by `lines` (a later byte range's)."""
        if not lines:
            return self
        for bucket in self.buckets.values():
            bucket[2] += lines
            bucket[3] += lines
        self.first_line += lines
        self.last_line += lines
        self.peaks = [Peak(p.value, p.line + lines, p.time, p.text) if p else None for p in self.peaks]
        return self

    def series(self, source: str, role: Role, node: str | None) -> list[Series]:
        """One frozen series per number this track saw; a stream's lines are its own node's."""
        if self.stream:
            role, node = stream_node(self.stream, role)
        found = []
        ordered = [self.buckets[key] for key in sorted(self.buckets)]
        for index, name in enumerate(self.names):
            peak, first, last = self.peaks[index], self.firsts[index], self.lasts[index]
            if peak is None or first is None or last is None:
                continue
            at = _HEAD + _PER * index
            points = tuple(
                (bucket[0], bucket[at + 1] / bucket[at] / SCALE, bucket[at + 2], bucket[at + 3])
                for bucket in ordered
                if bucket[at]
            )
            count = int(sum(bucket[at] for bucket in ordered))
            total = sum(bucket[at + 1] for bucket in ordered)
            found.append(
                Series(
                    source=source,
                    role=role,
                    node=node,
                    rank=self.rank,
                    pattern=self.pattern,
                    metric=name,
                    count=count,
                    first_line=self.first_line,
                    last_line=self.last_line,
                    first_time=self.first_time,
                    last_time=self.last_time,
                    first=first,
                    last=last,
                    low=min(point[2] for point in points),
                    high=max(point[3] for point in points),
                    mean=total / count / SCALE,
                    peak_line=peak.line,
                    peak_time=peak.time,
                    peak_text=peak.text,
                    points=points,
                    longest_gap=self.longest_gap,
                    first_text=self.first_text,
                    last_text=self.last_text,
                )
            )
        return found


def _merge_into(merged: dict[int, list[float]], key: int, bucket: list[float]) -> None:
    """Fold `bucket` into the bucket at `key` (buckets arrive oldest first)."""
    into = merged.get(key)
    if into is None:
        merged[key] = list(bucket)
        return
    into[1], into[3] = bucket[1], bucket[3]
    for at in range(_HEAD, len(bucket), _PER):
        into[at] += bucket[at]
        into[at + 1] += bucket[at + 1]
        into[at + 2] = min(into[at + 2], bucket[at + 2])
        into[at + 3] = max(into[at + 3], bucket[at + 3])


def _copy(source: Track, into: Track) -> None:
    into.width, into.buckets, into.count = source.width, source.buckets, source.count
    into.untimed += source.untimed
    into.first_line, into.last_line, into.first_text = source.first_line, source.last_line, source.first_text
    into.last_text = source.last_text
    into.first_time, into.last_time, into.longest_gap = source.first_time, source.last_time, source.longest_gap
    into.firsts, into.lasts, into.peaks = source.firsts, source.lasts, source.peaks


def stream_node(stream: str, role: Role) -> tuple[Role, str]:
    """The role and node of a stream a collector's prefix names: a file `grep -H` named
    (`logs/decode_gpu-n07.log`: a decode on gpu-n07), a compose service (`decode-1`), a pod and
    its container (`sglang-decode-0/decode`: the pod)."""
    named = node_from_name(stream)
    whole = stream.rsplit("/", 1)[-1] if _LOG_FILE.search(stream) else stream.split("/", 1)[0]
    node = named if named and not named.isdigit() else whole
    word = next((found for word, found in ROLE_WORDS if word in stream.lower()), None)
    return (word or role), node


_LOG_FILE = lazy_re(r"\.(?:log|txt|out|err)(?:\.\d+)?$")


@dataclass(slots=True)
class SeriesBook:
    """A sink's tracks, by (pattern, rank, stream)."""

    tracks: dict[tuple[str, str, str], Track] = field(default_factory=dict)

    def add_numbers(
        self,
        pattern: str,
        names: tuple[tuple[str, str], ...],
        rank: str,
        time: float | None,
        line: int,
        values: list[float | None],
        text: str,
        weight: int = 1,
        stream: str = "",
    ) -> None:
        """One line's numbers, in the order of `names` (name, type) (None where it lacks one)."""
        key = (pattern, rank, stream)
        track = self.tracks.get(key)
        if track is None:
            track = self.tracks[key] = Track(pattern, rank, tuple(name for name, _ in names), stream)
        track.add(time, line, values, text, weight)

    def absorb(self, later: SeriesBook, lines: int) -> None:
        """The next byte range's tracks, its lines shifted by `lines`."""
        for key, track in later.tracks.items():
            moved = track.shifted(lines)
            mine = self.tracks.get(key)
            if mine is None:
                self.tracks[key] = moved
            else:
                mine.absorb(moved)

    def coarsened(self, limit: int) -> SeriesBook:
        """A copy whose tracks hold at most `limit` buckets each (Track.coarsened)."""
        return SeriesBook({key: track.coarsened(limit) for key, track in self.tracks.items()})

    def series(self, source: str, role: Role, node: str | None) -> tuple[Series, ...]:
        return tuple(s for key in sorted(self.tracks) for s in self.tracks[key].series(source, role, node))
