"""The catalogue of line formats: what each component's line looks like, said once, as data.

After lnav's `formats/*.json`: `patterns/formats/<component>.toml` holds, per format, a regex with
named groups for the pieces of its prefix, what its level words mean, the characters a line of it
can start with, and sample lines whose time, level and message are tested. From that one entry come:

- the time of a line (`Formats.stamp`: `date`, `clock`, `frac`, `month`, `day`, `monthname`,
  `year`, `epoch` and the `ranks` a prefix holds), tried only for the formats a line's first
  character allows, in the catalogue's `order`;
- the level a line states (`level` and the format's level map, or the one level every line of a
  format has: NVSHMEM prints its `file:line: ` prefix only on errors), which the generic error
  layer's markers read (`format = ...` in `open-world/severity.toml`);
- its message without the prefix (`Formats.message`): for error templates, the report's quotes
  and its message column; a launcher's or collector's tag (`kind = "wrapper"`: Ray's
  `(Worker pid=N)`, torchrun's `[default0]:`) and the component's prefix inside it are both
  removed, then the generic prefixes (`kind = "prefix"`) that any line may carry;
- whether a line is one a component prints at run time (`Formats.run_time`): a file none of whose
  lines is, and which reads as source code, is no evidence (scan/document.py);
- what a collector put before a line and is removed before anything reads it (`kind =
  "collector"`: the Actions runner's time, `docker compose logs`' service, `kubectl logs --prefix`,
  `grep -H`'s file name, a job script's `[prefill] ` tag): `Formats.received` (the time the line was
  received, its `received` group), `Formats.line_source` (the others: the `file` and `role` groups
  name the line's file and component).

A new time format is one data file with its samples, checked by `pdlogdoctor patterns check`.
Only the standard library's `re` is used: a line's time is read on the scan's per-hit path.
"""

from __future__ import annotations

import calendar
import re
import time
from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from dataclasses import field
from functools import cache, lru_cache
from pathlib import Path
from typing import Any, TypeVar

from ..model import Role
from ..model.errors import PatternError
from ..model.lazyre import lazy_re
from ..model.values import record
from . import schema

FORMATS_DIR = "formats"
# line: a component's own line; wrapper: a launcher's tag before one; prefix: removed from every
# message after the formats (Rust tracing's span); fallback: removed only from a line no format reads;
# source: program source, never read as a log line (source.toml); collector: removed from a line
# before anything reads it (scan/timeline.clean_line).
KINDS = ("line", "wrapper", "prefix", "fallback", "source", "collector", "record")
# Not tried when a line's own prefix is read. A `record` is a container runtime's or log export's
# record around a line (scan/collectors.unwrap): taken off before anything else reads the line.
GENERIC_KINDS = ("prefix", "fallback", "source", "collector", "record")
LEVELS = ("critical", "error", "warning", "info", "debug")
TIME_GROUPS = ("date", "clock", "frac", "month", "day", "monthname", "year", "epoch")
# `utc`: the `Z` a time may end in (RFC 3339): when it matched, the stamp is UTC whatever the format says.
# `tag`: where the component's own tag starts inside a prefix that says when (TensorRT-LLM's
# `[TRT-LLM] [E] `, a relay's `VLLM: `): a quote of the line keeps it (`Formats.quoted`).
KNOWN_GROUPS = frozenset((*TIME_GROUPS, "ranks", "level", "received", "file", "source", "role", "utc", "tag"))
ENGINE_LINES = 50  # lines of a file read for the engine whose format they have (Formats.engine_of_lines)
MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")
MAX_NESTED = 4  # prefixes read inside one another: a collector's, a launcher's, the component's
# Lines whose stamps and readings are kept (`Formats.stamps`, `Formats.read`), then they start
# over: a line is read again soon after (the wrapped-line check reads the line below a hit, then
# the hit itself; the error layer reads a line's level, then its body), about one stamp read in
# four and one reading in two on a dense log.
STAMPS_KEPT = 256
_FORMAT_KEYS = {
    "id", "component", "kind", "order", "starts_with", "regex", "levels", "level", "utc", "in_text",
    "says_when", "engine", "role", "role_when", "quotes", "host", "sample", "no_match", "references",
}  # fmt: skip
_SAMPLE_KEYS = {"line", "time", "level", "message", "quote"}
_RANK = lazy_re(r"([A-Z_]+?)(\d+)")
_ASCII = "".join(chr(code) for code in range(32, 127))


@record
class Stamp:
    """A parsed timestamp; `year_known` is False for month-day shapes (glog, vLLM)."""

    seconds: float  # since the epoch; for year-less shapes, computed with year 1970
    text: str
    year_known: bool
    ranks: tuple[tuple[str, int], ...] = ()
    utc: bool = False  # the shape is UTC whatever the host's zone (UCX's seconds since the epoch)


# What a line's prefixes say of its time (`Formats.stamps`): the time the line states (its
# collector's, when it states none), and its collector's, when the line states its own inside the
# tag. A plain tuple: it is made for every stamped line a hit reads.
LineStamps = tuple[Stamp | None, Stamp | None]


@record
class Sample:
    """A real line of a format, with what reading it must give."""

    line: str
    time: str | None = None  # Stamp.text; None: the line has no time of its own
    level: str | None = None
    message: str | None = None
    quote: str | None = None  # what a quote of the line shows (`Formats.quoted`)


class Prefix:
    """A format's regex (the standard library's `re`), compiled on its first match: a run reads the
    formats its lines' first characters allow, not the whole catalogue (start-up)."""

    __slots__ = ("_compiled", "pattern")

    def __init__(self, pattern: str, compiled: re.Pattern[str] | None = None) -> None:
        self.pattern = pattern
        self._compiled = compiled

    def match(self, text: str) -> re.Match[str] | None:
        return self._regex().match(text)

    def search(self, text: str) -> re.Match[str] | None:
        return self._regex().search(text)

    def _regex(self) -> re.Pattern[str]:
        compiled = self._compiled
        if compiled is None:
            compiled = self._compiled = re.compile(self.pattern)
        return compiled

    def sub(self, replacement: str, text: str) -> str:
        compiled = self._compiled
        if compiled is None:
            compiled = self._compiled = re.compile(self.pattern)
        return compiled.sub(replacement, text)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Prefix) and other.pattern == self.pattern

    def __hash__(self) -> int:
        return hash(self.pattern)

    def __repr__(self) -> str:
        return f"Prefix({self.pattern!r})"

    def __reduce__(self) -> tuple[type[Prefix], tuple[str]]:
        return Prefix, (self.pattern,)


@record
class Format:
    id: str
    component: str
    kind: str  # one of KINDS
    order: int
    regex: Prefix
    starts_with: str  # a character class: what the first character of a line of this format can be
    levels: tuple[tuple[str, str], ...]  # the `level` group's text -> one of LEVELS
    level: str | None  # the level of every line of this format, when it prints no level word
    utc: bool
    in_text: str | None  # how its time looks inside other text (masked in fingerprints)
    samples: tuple[Sample, ...]
    no_match: tuple[str, ...]
    path: str
    timed: bool = False  # its regex reads a time (a `clock` or an `epoch` group)
    says_when: bool = False  # its prefix says when and who: a message starts after it (timed, a tag)
    engine: str = ""  # the serving engine whose lines these are (sglang, vllm, trtllm), when the format tells
    role: str = ""  # the part of the deployment whose lines these are (a Role's value: harness), when it tells
    # What the rest of a line must hold for the format to tell its role (the router's format is also
    # Dynamo's: only its own modules' lines are the router's); None: every line of the format.
    role_when: Prefix | None = None
    quotes: bool = False  # a source line that quotes a message: no event of that message
    # The host's own log (its kernel and drivers): what it says of a server's processes (a task hung on
    # a file system, a GPU gone) is as much a cause of that server's trouble as the server's own lines.
    host: bool = False

    def level_of(self, found: re.Match[str]) -> str | None:
        if self.level is not None:
            return self.level
        said = found.groupdict().get("level")
        return None if said is None else dict(self.levels).get(said)


@record
class Reading:
    """What the catalogue reads of one line: the format that states its level (or the last one
    read), that level, the line's message, and whether it is run-time output (a component's own
    format, or a launcher's tag, was read)."""

    format: Format | None
    level: str | None
    message: str
    run_time: bool


@record
class Formats:
    formats: tuple[Format, ...]  # in the order they are tried
    # Per first character (ASCII), the formats a line starting with it may be, in order.
    _by_char: dict[str, tuple[Format, ...]] = field(default_factory=dict, compare=False, repr=False)
    _timed_by_char: dict[str, tuple[Format, ...]] = field(default_factory=dict, compare=False, repr=False)
    _wrappers_by_char: dict[str, tuple[Format, ...]] = field(default_factory=dict, compare=False, repr=False)
    # Any format's time as it appears inside other text (facts masked for fingerprints).
    time_in_text: Prefix = field(default=Prefix(r"(?!)"), compare=False, repr=False)
    _source: tuple[Format, ...] = field(default=(), compare=False, repr=False)  # kind = "source"
    _quoting: tuple[Format, ...] = field(default=(), compare=False, repr=False)  # and quotes = true
    # kind = "collector", per first character: those with a `received` group, and the others.
    _received_by_char: _Collectors = field(default_factory=dict, compare=False, repr=False)
    _sources_by_char: _Collectors = field(default_factory=dict, compare=False, repr=False)
    # One regex each of all of them, for the scan's quick test of a line (most lines have none).
    any_received: re.Pattern[str] = field(default=re.compile(r"(?!)"), compare=False, repr=False)
    any_source: re.Pattern[str] = field(default=re.compile(r"(?!)"), compare=False, repr=False)
    records: tuple[Format, ...] = field(default=(), compare=False, repr=False)  # kind = "record", in order
    any_record: re.Pattern[str] = field(default=re.compile(r"(?!)"), compare=False, repr=False)
    _read_stamps: dict[str, LineStamps] = field(default_factory=dict, compare=False, repr=False)  # `stamps`
    _readings: dict[str, Reading] = field(default_factory=dict, compare=False, repr=False)  # `read`
    _firsts: dict[str, _Alternatives | None] = field(default_factory=dict, compare=False, repr=False)  # `_first`

    @classmethod
    def of(cls, formats: Iterable[Format]) -> Formats:
        ordered = tuple(sorted(formats, key=lambda f: (f.order, f.id)))
        # The characters each format's `starts_with` class allows, found in one pass per format.
        starting = {f.id: set(re.findall(f.starts_with, _ASCII)) for f in ordered if f.kind not in GENERIC_KINDS}
        by_char = {char: tuple(f for f in ordered if char in starting.get(f.id, ())) for char in _ASCII}
        timed = {char: tuple(f for f in group if f.timed) for char, group in by_char.items()}
        wrappers = {char: tuple(f for f in group if f.kind == "wrapper") for char, group in by_char.items()}
        shapes = [f"(?:{f.in_text})" for f in ordered if f.in_text is not None]
        in_text = Prefix("|".join(shapes) if shapes else r"(?!)")
        source = tuple(f for f in ordered if f.kind == "source")
        receiving = tuple(f for f in ordered if f.kind == "collector" and _has_group(f, "received"))
        naming = tuple(f for f in ordered if f.kind == "collector" and not _has_group(f, "received"))
        received, sources = _collectors_by_char(receiving), _collectors_by_char(naming)
        quoting = tuple(f for f in source if f.quotes)
        any_received, any_source = _any_of(receiving) or re.compile(r"(?!)"), _any_of(naming) or re.compile(r"(?!)")
        records = tuple(f for f in ordered if f.kind == "record")
        any_record = _any_of(records) or re.compile(r"(?!)")
        return cls(
            ordered,
            by_char,
            timed,
            wrappers,
            in_text,
            source,
            quoting,
            received,
            sources,
            any_received,
            any_source,
            records,
            any_record,
        )

    def record(self, line: str) -> re.Match[str] | None:
        """The record a container runtime or log export keeps `line` in (`kind = "record"`: its
        `received` group the time it received the line), or None."""
        if self.any_record.match(line) is None:  # most lines: one match, no
            return None
        return next((found for fmt in self.records if (found := fmt.regex.match(line)) is not None), None)

    def __reduce__(self) -> tuple[Any, ...]:  # the indexes are rebuilt, not pickled
        return (Formats.of, (self.formats,))

    def stamp(self, line: str) -> Stamp | None:
        """The time a line's own prefix states (`stamps`), or None."""
        return self.stamps(line)[0]

    def received_stamp(self, line: str) -> Stamp | None:
        """The time a collector's tag before the line says it received it, when a component's own
        stamp follows inside it (`stamps`); None otherwise."""
        return self.stamps(line)[1]

    def stamps(self, line: str) -> LineStamps:
        """The times a line's prefixes state, read in one walk: by the first timed format its first
        character allows that matches at its start, behind a launcher's or collector's tag. A tag
        with a time of its own (journald's `Dec 03 01:29:45 host prog[pid]: `) says when the line
        was received: that time is the line's own only when it states none, and otherwise the
        same moment on the host's clock (the component's is often UTC). A line indented as a whole
        is read without its indent. Read once per line among the last STAMPS_KEPT read."""
        return _kept(self._read_stamps, line, self._line_stamps)

    def _line_stamps(self, line: str) -> LineStamps:
        own, received = self._stamps(line)
        if own is None and received is None and line[:1] in (" ", "\t"):
            own, received = self._stamps(line.lstrip())
        return (own, received) if own is not None else (received, None)

    def _stamps(self, line: str) -> tuple[Stamp | None, Stamp | None]:
        """(the component's own stamp, the first tag's): the formats read at the line's start, each
        inside the one before; a wrapper's time is when its collector received the line."""
        text, received = line, None
        for _ in range(MAX_NESTED):
            if not text:
                break
            fmt, found = self._timed_match(text)
            if fmt is not None and found is not None:
                if fmt.kind != "wrapper":
                    return stamp_of(fmt, found), received
                received = received or stamp_of(fmt, found)
                text = text[found.end() :]
                continue
            tag = self._wrapper(text)
            if tag is None:
                break
            text = text[tag.end() :]
        return None, received

    def _timed_match(self, text: str) -> tuple[Format | None, re.Match[str] | None]:
        for fmt in self._timed(text[0]):
            found = fmt.regex.match(text)
            if found is not None:
                return fmt, found
        return None, None

    def read(self, line: str) -> Reading:
        """The formats read at the start of `line`, each inside the one before (a launcher's
        tag, then the component's prefix), up to the first that states a level. A line indented
        as a whole (a pasted block) is read without its indent when nothing reads it as it is.
        Read once per line among the last STAMPS_KEPT read."""
        return _kept(self._readings, line, self._line_reading)

    def _line_reading(self, line: str) -> Reading:
        reading = self._read(line)
        if reading.format is None and line[:1] in (" ", "\t"):
            # Only a prefix read counts: a line known by its words alone (an exception's last line)
            # is one at its line's start, not indented in a docstring.
            unindented = self._read(line.lstrip())
            return unindented if unindented.message != line.lstrip() else reading
        return reading

    def _read(self, line: str) -> Reading:
        text, last, run_time = line, None, False
        for _ in range(MAX_NESTED):
            fmt, found = self._first(text)
            if fmt is None or found is None:
                break
            text, last = text[found.end() :], fmt
            run_time = True  # a component's own prefix, or a launcher's tag: run-time output either way
            level = fmt.level_of(found)
            if level is not None:
                return Reading(fmt, level, text, run_time)
            if not found.end():  # a line known by its words alone: no prefix to read inside
                break
        return Reading(last, None, text, run_time)

    def message(self, line: str) -> str:
        """The line without the prefix that says when and who wrote it: up to the end of the last
        format read that holds a time (glog's header, vLLM's, the router's date and level) or is a
        launcher's tag; a level and source place after it stay (UCX's `ib_md.c:349  UCX  ERROR `,
        `NCCL WARN `, uvicorn's `INFO:     `), as the line's own words. Then the generic prefixes
        (the fallback ones only on a line no format reads)."""
        return self._after_prefixes(line, keep_tag=False)

    def quoted(self, line: str) -> str:
        """What a summary quotes of the line: its message, with the component's own tag that a
        prefix holds (`[TRT-LLM] [E] `, a relay's `VLLM: `) kept before it: the words a reader
        searches the log for begin there. A line with no message (a logger's empty line inside a
        dump) is quoted as message() gives it, never as its tag alone; one whose message is a single
        word (`[multiproc_executor.py:596] AssertionError`) is quoted whole: the word alone is on many
        lines, and its prefix is what a reader finds it by."""
        bare = self.message(line)
        if bare == line.strip():
            return bare
        if bare and not any(char.isspace() for char in bare):
            return line.strip()
        return self._after_prefixes(line, keep_tag=True)

    def _after_prefixes(self, line: str, keep_tag: bool) -> str:
        text, message, run_time = line, line, False
        for _ in range(MAX_NESTED):
            fmt, found = self._first(text)
            if fmt is None or found is None:
                break
            tag = found.start("tag") if keep_tag and "tag" in found.re.groupindex else -1
            text, run_time = text[found.end() :], True
            if fmt.says_when:
                message = text if tag < 0 else found.string[tag:]
            if fmt.level_of(found) is not None or not found.end():
                break
        return self._generic(message, run_time).strip() or line.strip()

    def body(self, line: str) -> str:
        """What an error template is made of: the line after every prefix read, its level too
        (`ERROR:    `, `NCCL WARN `), then whatever looks like a prefix (the generic ones)."""
        reading = self.read(line)
        return self._generic(reading.message, False).strip() or line.strip()

    def _generic(self, message: str, run_time: bool) -> str:
        for fmt in self.formats:
            if fmt.kind == "prefix" or (fmt.kind == "fallback" and not run_time):
                found = fmt.regex.match(message)
                if found is not None:
                    message = message[found.end() :]
        return message

    def engine_of(self, line: str) -> str | None:
        """The serving engine whose format a line has (a format's `engine`: sglang, vllm, trtllm),
        read through a launcher's tag; None when no format read tells."""
        told = self._told_by(line, "engine")
        return told.engine if told is not None else None

    def engine_of_lines(self, lines: Iterable[str]) -> str | None:
        """The serving engine most of `lines` tell by their format (the first to be told, of those told
        as often): a file's own engine, though a line of another component in it may wear a prefix an
        engine's format also reads (NCCL's WARN behind a bare `[date time] `)."""
        told = Counter(engine for line in lines if (engine := self.engine_of(line)) is not None)
        return told.most_common(1)[0][0] if told else None

    def role_format(self, line: str) -> Format | None:
        """The format of a line that tells which part of the deployment wrote it (a format's `role`:
        the nightly harness's `[probe]` lines; the router's, when the line holds its `role_when`),
        read through a launcher's tag; None when none tells."""
        told = self._told_by(line, "role")
        if told is None or told.role_when is None:
            return told
        return told if told.role_when.search(line) else None

    def host_line(self, line: str) -> bool:
        """Whether the host's own log wrote the line (a format's `host`: the kernel's, read through a
        collector's tag)."""
        return self._told_by(line, "host") is not None

    def _told_by(self, line: str, what: str) -> Format | None:
        """The first format read on the line, through the tags before its own prefix, that tells
        `what` (a Format attribute); None when the line's own prefix, read, tells nothing."""
        text = line
        for _ in range(MAX_NESTED):
            fmt, found = self._first(text)
            if fmt is None or found is None:
                return None
            if getattr(fmt, what):
                return fmt
            if fmt.level_of(found) is not None or not found.end():
                return None
            text = text[found.end() :]
        return None

    def received(self, line: str) -> re.Match[str] | None:
        """The collector's prefix at the start of `line` that says when it received the line
        (the Actions runner's `2026-07-02T10:16:03.4120000Z `: its `received` group), or None."""
        quick, group = self._received_by_char.get(line[:1]) or self._received_by_char.get("", _NO_COLLECTORS)
        return None if quick is None or quick.match(line) is None else _first_match(group, line)

    def line_source(self, line: str) -> re.Match[str] | None:
        """The collector's prefix at the start of `line` that says where it comes from (`docker
        compose logs`' `decode-1  | `, `kubectl logs --prefix`' `[pod/NAME/CONTAINER] `, `grep
        -H`'s `vllm_p3.log:`, a job script's `[prefill] `), or None; its `file` and `role` groups
        name the line's file and component where the prefix does."""
        quick, group = self._sources_by_char.get(line[:1]) or self._sources_by_char.get("", _NO_COLLECTORS)
        return None if quick is None or quick.match(line) is None else _first_match(group, line)

    def source(self, line: str) -> bool:
        """Whether the line is program source (a `kind = "source"` format matches it)."""
        return any(fmt.regex.match(line) is not None for fmt in self._source)

    def statement(self, line: str) -> bool:
        """Whether the line is a program statement that holds no message (a block's head, a
        definition, an assignment: a source format that quotes nothing): no program prints it."""
        return any(fmt.regex.match(line) is not None for fmt in self._source if not fmt.quotes)

    def quotes_code(self, line: str) -> bool:
        """Whether the line is source that quotes a message (a raise, a logger call, a print): the
        message it holds did not happen there."""
        return any(fmt.regex.match(line) is not None for fmt in self._quoting)

    def run_time(self, line: str) -> bool:
        """Whether the line is one a component prints at run time (not source, not prose)."""
        return self.read(line).run_time

    def inside_tags(self, line: str, timed_only: bool = False) -> str:
        """`line` without the launchers' and collectors' tags before it (`kind = "wrapper"`: Ray's
        `(pid=N, ip=A)`, journald's `Mon DD HH:MM:SS host prog[pid]: `, a CI viewer's row tag), so
        what is read at a line's start is read behind them too; `line` itself when none leads it.
        `timed_only`: stop at the first tag that states no time: a process's own tag (vLLM's
        `(EngineCore_DP0 pid=N)`, Ray's) is the component's, and what reads a line's start behind it
        is its own business (journald's and a launcher's timed tags are still taken off)."""
        text = line
        for _ in range(MAX_NESTED):
            tag = self._wrapper(text) if text else None
            if tag is None or (timed_only and not _states_time(tag)):
                break
            text = text[tag.end() :]
        return text

    def tags(self, line: str) -> tuple[str, str]:
        """(who, inside): the launchers' and collectors' tags `line` starts with (`kind = "wrapper"`)
        with the times they state blanked, and the line inside them. Two lines of one process behind
        one launcher have the same `who` (a tag's time moves from line to line, its process does not);
        ("", line) when no tag leads it."""
        who: list[str] = []
        text = line
        for _ in range(MAX_NESTED):
            tag = self._wrapper(text) if text else None
            if tag is None:
                break
            # A tag is followed by one space (`(EngineCore_DP0 pid=742) `): the indent after it is the line's.
            extra = max(0, len(tag.group(0)) - len(tag.group(0).rstrip()) - 1)
            blank = _blank_times(tag)
            who.append(blank[: len(blank) - extra])
            text = text[tag.end() - extra :]
        return "".join(who), text

    def _wrapper(self, text: str) -> re.Match[str] | None:
        group = self._wrappers_by_char.get(text[0])
        for fmt in group if group is not None else (f for f in self._others(text[0]) if f.kind == "wrapper"):
            found = fmt.regex.match(text)
            if found is not None and found.end():
                return found
        return None

    def _timed(self, char: str) -> tuple[Format, ...]:
        found = self._timed_by_char.get(char)
        return found if found is not None else tuple(f for f in self._others(char) if f.timed)

    def _first(self, text: str) -> tuple[Format | None, re.Match[str] | None]:
        """The first format, in order, that the line's start matches, and its match."""
        if not text:
            return None, None
        char = text[0]
        group = self._by_char.get(char)
        formats = group if group is not None else self._others(char)
        if char not in self._firsts:
            self._firsts[char] = _Alternatives.of(formats)
        alternatives = self._firsts[char]
        if alternatives is None:
            return _first_in_order(formats, text)
        fmt = alternatives.first(formats, text)
        return (fmt, fmt.regex.match(text)) if fmt is not None else (None, None)

    def _others(self, char: str) -> tuple[Format, ...]:
        """The formats a non-ASCII first character allows (rare: computed when met)."""
        return tuple(f for f in self.formats if f.kind not in GENERIC_KINDS and _starts(f, char))


def _first_in_order(formats: tuple[Format, ...], text: str) -> tuple[Format | None, re.Match[str] | None]:
    for fmt in formats:
        found = fmt.regex.match(text)
        if found is not None:
            return fmt, found
    return None, None


_NAMED_GROUP = lazy_re(r"\(\?P<\w+>")


@record
class _Alternatives:
    """The formats a line's first character allows, as one regex of alternatives in their order:
    which format a line has is one match, not one per format (most lines' first characters allow a
    dozen or more, and a line that is none of them tried each). Alternatives are tried left to right,
    so the one that matches is the first format in order that does; its own regex then gives the
    match its callers read (its named groups)."""

    regex: re.Pattern[str]
    groups: tuple[int, ...]  # the group that wraps each format's alternative

    @classmethod
    def of(cls, formats: tuple[Format, ...]) -> _Alternatives | None:
        """None for fewer than two formats (nothing to gain) or a catalogue regex that cannot be an
        alternative (the formats are then tried one by one)."""
        if len(formats) < 2:
            return None
        # Each format's own groups unnamed (names repeat across formats), the format's alternative
        # named by its place: the combined regex numbers the groups, no format is compiled alone.
        parts = [f"(?P<_{at}>{_NAMED_GROUP.sub('(', fmt.regex.pattern)})" for at, fmt in enumerate(formats)]
        try:
            regex = re.compile("|".join(parts))
        except re.error:
            return None
        return cls(regex, tuple(regex.groupindex[f"_{at}"] for at in range(len(formats))))

    def first(self, formats: tuple[Format, ...], text: str) -> Format | None:
        found = self.regex.match(text)
        if found is None:
            return None
        return next(fmt for fmt, group in zip(formats, self.groups, strict=True) if found.start(group) != -1)


# Per first character: one regex of all the collectors' prefixes a line starting with it may have
# (None: none), and those formats in order. Most lines have none: one match tells (clean_line runs
# on every line the scan reads and on the lines above it that a time is looked up in).
_Collectors = dict[str, tuple[re.Pattern[str] | None, tuple[Format, ...]]]


def _collectors_by_char(formats: Iterable[Format]) -> _Collectors:
    """`_Collectors` of `formats`; "" holds them all (a first character outside ASCII: a
    byte-order mark; an empty line finds its entry, which its quick regex does not match)."""
    listed = tuple(formats)
    by_char = {char: tuple(f for f in listed if _starts(f, char)) for char in _ASCII}
    by_char[""] = listed
    return {char: (_any_of(group), group) for char, group in by_char.items()}


def _any_of(group: tuple[Format, ...]) -> re.Pattern[str] | None:
    """One regex that matches where any of the group's matches (their named groups unnamed)."""
    if not group:
        return None
    return re.compile("|".join(f"(?:{re.sub(r'[(][?]P<[a-z]+>', '(?:', f.regex.pattern)})" for f in group))


_NO_COLLECTORS: tuple[re.Pattern[str] | None, tuple[Format, ...]] = (None, ())


def _first_match(group: tuple[Format, ...], line: str) -> re.Match[str] | None:
    for fmt in group:
        found = fmt.regex.match(line)
        if found is not None:
            return found
    return None


def _has_group(fmt: Format, name: str) -> bool:
    return re.search(rf"\(\?P<{name}>", fmt.regex.pattern) is not None


def _starts(fmt: Format, char: str) -> bool:
    return re.fullmatch(fmt.starts_with, char) is not None  # for a character outside ASCII, when met


_Kept = TypeVar("_Kept")


def _kept(memo: dict[str, _Kept], line: str, read: Callable[[str], _Kept]) -> _Kept:
    """`read(line)`, kept among the last STAMPS_KEPT lines read (then the memo starts over)."""
    found = memo.get(line)
    if found is None:
        if len(memo) >= STAMPS_KEPT:
            memo.clear()
        found = memo[line] = read(line)
    return found


def stamp_of(fmt: Format, found: re.Match[str]) -> Stamp:
    """The time the named groups of a format's match state (a Stamp is a value: shared). A format
    whose time may end in `Z` (a `utc` group: Rust's tracing, RFC 3339) is UTC when it does."""
    utc = fmt.utc or ("utc" in found.re.groupindex and found.group("utc") is not None)
    return _stamp_read(fmt.regex.pattern, utc, found.groups())


# A busy log states one second on many lines, and a line is read again when its neighbours look
# for their time: each such prefix is converted once (the per-hit path).
@lru_cache(maxsize=4096)
def _stamp_read(pattern: str, utc: bool, groups: tuple[str | Any, ...]) -> Stamp:
    """The stamp that a format's regex (`pattern`) matching with these groups states: all it
    depends on."""
    return _stamp_of_groups(utc, {name: groups[number - 1] for name, number in _group_numbers(pattern)})


@lru_cache(maxsize=256)
def _group_numbers(pattern: str) -> tuple[tuple[str, int], ...]:
    return tuple(re.compile(pattern).groupindex.items())


def _stamp_of_groups(utc: bool, groups: dict[str, str | Any]) -> Stamp:
    frac = groups.get("frac") or ""
    if groups.get("epoch"):
        return _epoch_stamp(int(groups["epoch"]), frac)
    clock = groups["clock"]
    date = groups.get("date")
    if date is None and groups.get("year"):
        month = MONTHS.index(groups["monthname"]) + 1 if groups.get("monthname") else int(groups["month"])
        date = f"{groups['year']}-{month:02d}-{int(groups['day']):02d}"
    ranks = _ranks(groups.get("ranks") or "")
    if date is not None:
        text = f"{date} {clock}" + (f".{frac[:3]}" if frac else "")
        return Stamp(epoch_of(date, clock, frac), text, True, ranks, utc)
    month_text = f"{MONTHS.index(groups['monthname']) + 1 if groups.get('monthname') else int(groups['month']):02d}"
    day = f"{int(groups['day']):02d}"
    seconds = epoch_of(f"1970-{month_text}-{day}", clock, frac)
    return Stamp(seconds, f"{month_text}-{day} {clock}", False, ranks, utc)


@lru_cache(maxsize=1024)
def _ranks(text: str) -> tuple[tuple[str, int], ...]:
    """A prefix's rank tags (` DP0 TP3`) as (tag, number) pairs: a server prints a few, on every line."""
    return tuple((m.group(1), int(m.group(2))) for m in _RANK.finditer(text))


def _epoch_stamp(whole: int, frac: str) -> Stamp:
    text = time.strftime("%Y-%m-%d %H:%M:%S", time.gmtime(whole)) + (f".{frac[:3]}" if frac else "")
    return Stamp(whole + (float(f"0.{frac}") if frac else 0.0), text, True, utc=True)


def epoch_of(date: str, clock: str, frac: str) -> float:
    """Seconds since the epoch of a UTC date and clock; 0.0 for a date that does not exist."""
    day = _day_start(date)
    if day is None:
        return 0.0
    hour, minute, second = clock.split(":")
    whole = day + int(hour) * 3600 + int(minute) * 60 + int(second)
    return whole + (float(f"0.{frac}") if frac else 0.0)


@lru_cache(maxsize=256)
def _day_start(date: str) -> int | None:
    """The lines of a log share a few dates: each is converted once (the per-hit path)."""
    year, month, day = (int(part) for part in date.split("-"))
    try:
        return calendar.timegm((year, month, day, 0, 0, 0, 0, 0, 0))
    except (ValueError, OverflowError):
        return None


# ---------------------------------------------------------------- loading


def load_formats(dirs: Iterable[Path]) -> Formats:
    """Every `formats/*.toml` of the library directories, as one catalogue."""
    formats: list[Format] = []
    for directory in dirs:
        for path in format_files(directory):
            data = schema.read_toml(path)
            schema.check_keys(data, ("format",), (), str(path))
            listed = data.get("format", [])
            formats.extend(_format(raw, str(path), f"format[{i}]") for i, raw in enumerate(listed))
    ids = [f.id for f in formats]
    for duplicate in sorted({i for i in ids if ids.count(i) > 1}):
        raise PatternError(FORMATS_DIR, duplicate, "two formats have this id")
    return Formats.of(formats)


def format_files(directory: Path) -> list[Path]:
    """A library directory's `formats/*.toml`, in the order they are read."""
    root = directory / FORMATS_DIR
    return sorted(root.glob("*.toml")) if root.is_dir() else []


@cache
def shipped() -> Formats:
    """The shipped catalogue, for what reads lines without a library at hand (a report's renderers
    and fingerprint, a hand-built library): the shipped `formats/` files, kept in the user's cache
    as the library is (their TOML is parsed only when it is not there)."""
    import os

    from .cache import cached, user_cache_dir
    from .paths import builtin_library_dir

    library_dir = builtin_library_dir()
    files = format_files(library_dir)
    cache_dir = None if os.environ.get("PDLOGDOCTOR_NO_CACHE") else user_cache_dir()
    if cache_dir is None:
        return load_formats([library_dir])
    return cached(cache_dir, files, lambda: load_formats([library_dir]), Formats)


def _format(raw: Any, where: str, key: str) -> Format:
    entry = schema.table(raw, where, key)
    schema.check_keys(entry, _FORMAT_KEYS, ("id", "component", "regex", "starts_with", "sample"), where, key)
    kind = schema.one_of({"kind": "line", **entry}, "kind", KINDS, where, key)
    compiled = _compile(schema.string(entry, "regex", where, key), where, f"{key}.regex")
    _check_groups(compiled, where, key)
    levels = _levels(entry.get("levels", {}), where, key)
    level = schema.one_of(entry, "level", LEVELS, where, key) if "level" in entry else None
    if levels and "level" not in compiled.groupindex:
        raise PatternError(where, f"{key}.levels", "a level map needs a `level` group in the regex")
    starts_with = schema.string(entry, "starts_with", where, key)
    _compile(starts_with, where, f"{key}.starts_with")
    in_text = (
        _compile(schema.string(entry, "in_text", where, key), where, f"{key}.in_text") if "in_text" in entry else None
    )
    timed = bool({"clock", "epoch"} & set(compiled.groupindex))
    if kind == "record" and "received" not in compiled.groupindex:
        raise PatternError(where, f"{key}.regex", "a record needs a `received` group: when the collector took the line")
    return Format(
        id=schema.string(entry, "id", where, key),
        component=schema.string(entry, "component", where, key),
        kind=kind,
        order=_int(entry.get("order", 100), where, f"{key}.order"),
        regex=Prefix(compiled.pattern, compiled),
        starts_with=starts_with,
        levels=levels,
        level=level,
        utc=schema.flag(entry, "utc", where, key),
        in_text=in_text.pattern if in_text is not None else None,
        samples=_samples(entry["sample"], where, key),
        no_match=schema.string_list(entry, "no_match", where, key) or (),
        path=where,
        timed=timed,
        says_when=schema.flag(entry, "says_when", where, key) or kind == "wrapper" or timed,
        engine=schema.string(entry, "engine", where, key) if "engine" in entry else "",
        role=_role(entry, where, key),
        role_when=Prefix(_compile(schema.string(entry, "role_when", where, key), where, f"{key}.role_when").pattern)
        if "role_when" in entry
        else None,
        quotes=schema.flag(entry, "quotes", where, key),
        host=schema.flag(entry, "host", where, key),
    )


def _role(entry: Mapping[str, Any], where: str, key: str) -> str:
    """A format's `role`: one of the roles a source can have (model.Role), or ""."""
    if "role" not in entry:
        return ""
    role = schema.string(entry, "role", where, key)
    if role not in {known.value for known in Role}:
        raise PatternError(where, f"{key}.role", f"{role!r} is not a role ({', '.join(r.value for r in Role)})")
    return role


def _compile(source: str, where: str, key: str) -> re.Pattern[str]:
    try:
        return re.compile(source)
    except re.error as exc:
        raise PatternError(where, key, f"does not compile (the standard re's syntax): {exc}") from None


def _check_groups(regex: re.Pattern[str], where: str, key: str) -> None:
    names = set(regex.groupindex)
    unknown = sorted(names - KNOWN_GROUPS)
    if unknown:
        raise PatternError(where, f"{key}.regex", f"unknown named groups {unknown} (known: {sorted(KNOWN_GROUPS)})")
    if ("clock" in names) and not ({"date"} <= names or {"day"} <= names):
        raise PatternError(where, f"{key}.regex", "a `clock` needs a `date`, or a `day` with a month")


def _levels(raw: Any, where: str, key: str) -> tuple[tuple[str, str], ...]:
    if not isinstance(raw, Mapping):
        raise PatternError(where, f"{key}.levels", "must be a table of level word -> level")
    for word in raw:
        schema.one_of(raw, word, LEVELS, where, f"{key}.levels")
    return tuple((str(word), str(level)) for word, level in raw.items())


def _samples(raw: Any, where: str, key: str) -> tuple[Sample, ...]:
    if not isinstance(raw, list) or not raw:
        raise PatternError(where, f"{key}.sample", "needs at least one real line")
    samples = []
    for i, item in enumerate(raw):
        place = f"{key}.sample[{i}]"
        entry = schema.table(item, where, place)
        schema.check_keys(entry, _SAMPLE_KEYS, ("line",), where, place)
        samples.append(
            Sample(str(entry["line"]), entry.get("time"), entry.get("level"), entry.get("message"), entry.get("quote"))
        )
    return tuple(samples)


def _int(raw: Any, where: str, key: str) -> int:
    if not isinstance(raw, int) or isinstance(raw, bool):
        raise PatternError(where, key, "must be an integer")
    return raw


# ---------------------------------------------------------------- self-test


def check_formats(formats: Formats) -> list[str]:
    """Every sample is read by its own format (the first its first character allows, at the
    line's start or inside a launcher's tag or another prefix), with the time, level and message
    it states; no `no_match` line is matched by it."""
    problems: list[str] = []
    for fmt in formats.formats:
        for sample in fmt.samples:
            problems += [
                f"{fmt.path}: format {fmt.id}: {p}: {sample.line!r}" for p in _sample_problems(formats, fmt, sample)
            ]
        for line in fmt.no_match:
            if fmt.regex.match(line):
                problems.append(f"{fmt.path}: format {fmt.id}: no_match line matches: {line!r}")
    return problems


def _sample_problems(formats: Formats, fmt: Format, sample: Sample) -> list[str]:
    if fmt.kind == "record":
        return _record_problems(formats, sample)
    if fmt.kind in GENERIC_KINDS:
        problems = [] if fmt.regex.match(sample.line) else ["not matched"]
        if fmt.kind == "source" and not fmt.quotes and formats.run_time(sample.line):
            problems.append("read as run-time output by a line format")
        return problems
    reading = formats.read(sample.line)
    chain = _chain(formats, sample.line)
    if fmt.id not in chain:
        return [f"read by {chain or 'no format'}, not by this one"]
    problems = []
    stamp = formats.stamp(sample.line)
    said = stamp.text if stamp else None
    if fmt.timed and said != sample.time:
        problems.append(f"time {said!r}, expected {sample.time!r}")
    if sample.level is not None and reading.level != sample.level:
        problems.append(f"level {reading.level!r}, expected {sample.level!r}")
    if sample.message is not None and formats.message(sample.line) != sample.message:
        problems.append(f"message {formats.message(sample.line)!r}, expected {sample.message!r}")
    if sample.quote is not None and formats.quoted(sample.line) != sample.quote:
        problems.append(f"quote {formats.quoted(sample.line)!r}, expected {sample.quote!r}")
    return problems


def _record_problems(formats: Formats, sample: Sample) -> list[str]:
    """A record's sample is read as a record, the quick test of every record too."""
    return [] if formats.record(sample.line) is not None else ["not read as a record"]


def _chain(formats: Formats, line: str) -> list[str]:
    """The ids of the formats read at the start of the line, each inside the one before."""
    ids, text = [], line
    for _ in range(MAX_NESTED):
        fmt, found = formats._first(text)
        if fmt is None or found is None:
            break
        ids.append(fmt.id)
        text = text[found.end() :]
        if fmt.level_of(found) is not None or not found.end():
            break
    return ids


def _blank_times(tag: re.Match[str]) -> str:
    """The text of a tag's match with the time groups it holds (TIME_GROUPS) left out."""
    text, start = tag.group(0), tag.start()
    spans = sorted(tag.span(name) for name in TIME_GROUPS if name in tag.re.groupindex and tag.span(name)[0] >= 0)
    for begin, end in reversed(spans):
        text = text[: begin - start] + text[end - start :]
    return text


def _states_time(tag: re.Match[str]) -> bool:
    """The tag's match read a time (a `clock` or an `epoch` group that took part)."""
    return any(name in tag.re.groupindex and tag.span(name)[0] >= 0 for name in ("clock", "epoch"))
