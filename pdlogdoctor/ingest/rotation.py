"""Rotated segments of one log: `decode.log.2`, `decode.log.1` (or `.1.gz`) and `decode.log`.

logrotate (and Python's RotatingFileHandler) renames a full log to `NAME.1`, the previous `.1` to
`.2`, and so on, and the process goes on writing NAME: the segments are one stream written by one
process on one host, oldest at the highest number. Every file keeps its own name and line numbers
(the report quotes the real file and line); where the analysis asks which stream or which clock a
line belongs to (a fleet's nodes, clock alignment), the segments are one.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace

from ..model import ClockOffset, Event, Role, Source
from ..model.lazyre import lazy_re

# `NAME.log.3`, `NAME.log.1.gz`: the rotation number after a log suffix, before any compression.
_SEGMENT = lazy_re(r"^(?P<live>.+\.(?:log|txt|out|err))\.(?P<number>\d{1,3})(?:\.(?:gz|zst))?$")
# `NAME#2`: what `analyze --follow` read of NAME before the file was truncated, replaced or deleted
# (tail.py), newest at #1. No file has this name: nothing reopens it, and no other file's lines are
# shown as its excerpt.
FOLLOWED_SEGMENT = "#"
_FOLLOWED = lazy_re(r"^(?P<live>.+)#(?P<number>\d{1,3})$")


def segment_of(name: str) -> tuple[str, int]:
    """(the live file's name, the segment's age: 0 for the live file, N for `.N` and for `#N`)."""
    followed = _FOLLOWED.match(name)
    if followed:
        live, age = segment_of(followed.group("live"))
        return live, age + int(followed.group("number"))
    found = _SEGMENT.match(name)
    return (found.group("live"), int(found.group("number"))) if found else (name, 0)


def followed_segment(name: str, age: int) -> str:
    """The name of a segment of NAME that `--follow` read before it went (`segment_of` reads it back)."""
    return f"{name}{FOLLOWED_SEGMENT}{age}"


def streams(names: Iterable[str]) -> dict[str, str]:
    """For each file that is one of several segments of one rotated log, the name the stream goes
    by: its newest segment's (the live file's when it was given). Other files are not listed."""
    families: dict[str, list[tuple[int, str]]] = defaultdict(list)
    for name in names:
        live, age = segment_of(name)
        families[live].append((age, name))
    named: dict[str, str] = {}
    for segments in families.values():
        if len(segments) > 1 and any(age for age, _ in segments):
            newest = min(segments)[1]
            named.update({name: newest for _, name in segments})
    return named


def rotation_order(name: str) -> tuple[str, int]:
    """A sort key that puts a rotated log's segments oldest first, next to each other."""
    live, age = segment_of(name)
    return live, -age


def as_streams(events: Sequence[Event], named: Mapping[str, str]) -> list[Event]:
    """The events with each rotated segment's name replaced by its stream's."""
    return [replace(e, source=named[e.source]) if e.source in named else e for e in events]


def joined_sources(sources: Sequence[Source], named: Mapping[str, str]) -> list[Source]:
    """One source per stream: a rotated log's segments as one (lines and bytes summed, the role the
    segments agree on, or the first one they name)."""
    joined: dict[str, Source] = {}
    for source in sorted(sources, key=lambda s: rotation_order(s.name)):
        stream = named.get(source.name, source.name)
        seen = joined.get(stream)
        if seen is None:
            joined[stream] = replace(source, name=stream)
            continue
        role = seen.role if seen.role is not Role.UNKNOWN else source.role
        joined[stream] = replace(seen, role=role, lines=seen.lines + source.lines, bytes=seen.bytes + source.bytes)
    return list(joined.values())


def per_file(offsets: Iterable[ClockOffset], named: Mapping[str, str]) -> tuple[ClockOffset, ...]:
    """A stream's clock offset given to each of its segments (they share one clock)."""
    segments: dict[str, list[str]] = defaultdict(list)
    for name, stream in named.items():
        segments[stream].append(name)
    expanded: list[ClockOffset] = []
    for offset in offsets:
        names = sorted(segments.get(offset.source, [offset.source]), key=rotation_order)
        expanded.extend(replace(offset, source=name) for name in names)
    return tuple(expanded)
