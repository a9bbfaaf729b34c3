"""The generic error layer: error lines that no pattern of the library names.

Driven by data, like the library: `patterns/open-world/severity.toml` says how a line
states its severity (tracebacks, crashes, exit codes, level words, and, through the catalogue
of line formats, each component's own level: glog's letter, torch's, spdlog's word, NCCL's)
and `patterns/open-world/benign/*.toml` name noise known to be harmless. The scanner hands this
layer only the lines that hold one of its anchors, found in the same search pass as the library's
anchors, and only when no pattern of the library matched the line: the layer adds no pass of its
own over the input. Its
`[[warning]]` markers are read only when nothing failed (quiet.py re-reads the inputs then).
`patterns/open-world/causes.toml` names the lines that state their own cause (an errno's words, a
limit) and the generic wrappers that only report one: the decision ranks the first above the second.
`patterns/open-world/families.toml` maps what such a line says (its cause words, errno, device,
source) onto a catalogue verdict, for the error no pattern names that leads a report.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

from ..model import Severity
from ..model.errors import PatternError
from ..model.lazyre import lazy_re
from ..model.values import record
from . import schema
from .formats import Formats, Reading
from .formats import shipped as shipped_formats
from .lazyregex import LazyRegex
from .literals import required_words
from .templates import TEMPLATES_FILE, Mask, check_masks, load_masks, template_of

if TYPE_CHECKING:
    import regex  # types only: the module is imported on the first compile (lazyregex.py)

OPEN_WORLD_DIR = "open-world"
LEVELS = ("critical", "error", "warning", "quiet")
FORMAT_LEVELS = ("critical", "error", "warning", "info", "debug")  # what a line format can state
MATCH_TIMEOUT_S = 0.5
SWALLOW_LINES = 60  # how far below an 'Exception ignored in' line its traceback may end
EXPLAINED_LINES = 400  # how far below a traceback a library pattern read its exception line may be
BENIGN_PREFIX = "benign/"  # marker of a benign line kept only to account for the traceback under it
_MARKER_KEYS = {
    "id", "level", "effect", "answer", "regex", "format", "levels", "statement", "inside", "message_below", "examples",
    "named_by_family", "message_indented",
}  # fmt: skip
ANY_FORMAT = "*"  # a marker's `format` that any catalogue format with a level satisfies
_BENIGN_KEYS = {"id", "reason", "regex", "swallow_traceback", "recovered", "overcome_by", "examples"}
_CAUSE_KEYS = {"id", "limit", "fix", "regex", "examples"}
_WRAPPER_KEYS = {"id", "regex", "examples"}
CAUSES_FILE = "causes.toml"
FAMILIES_FILE = "families.toml"  # cause words -> a catalogue verdict
_FAMILY_KEYS = {"id", "verdict", "regex", "fix", "lead_only", "examples"}
SOURCES_FILE = "sources.toml"  # lines that are errors by where they come from and what they say
_SOURCE_KEYS = {
    "id",
    "component",
    "level",
    "anchors",
    "regex",
    "why",
    "effect",
    "stops",
    "slow",
    "standing",
    "references",
    "examples",
}

PYTHON_EXCEPTION = "python-exception"  # the marker of a traceback's last line (severity.toml)
EXIT_STATUS = "exit-code"  # the marker of a line that reports only a process's exit status (severity.toml)


@record
class Marker:
    id: str
    level: str
    regex: LazyRegex | None  # searched on the line; with `formats`, on the message the format reads
    match: tuple[str, ...]
    no_match: tuple[str, ...]
    path: str
    effect: bool = False  # the line says that something ended (a 5xx, an exit code), not why
    keys: tuple[str, ...] = ()  # a warning's: every line its regex matches holds one of them
    # The line's own format states its level (patterns/formats/): these formats (ANY_FORMAT: any),
    # at these levels. The level words of each component live in its format, not here.
    formats: tuple[str, ...] = ()
    levels: tuple[str, ...] = ()
    component: str = ""  # sources.toml's: what writes the line (the kernel, a driver, the orchestrator ...)
    # An ending that is an error answer to a request (a 5xx as a client or proxy received it): a
    # chain that shows requests answered with errors explains it (unexplained.py).
    answer: bool = False
    # sources.toml's: the line says a process was stopped from outside (killed by the OOM killer or a
    # signal, evicted, cancelled, its container ended): a server's peers lose it then (unexplained.py).
    stops: bool = False
    # sources.toml's: the line says an answer came too late, not that anything failed (a health probe
    # that timed out), or that the hardware runs slower (a GPU's clocks held down): what slowness looks
    # like or comes from, no failure besides it (performance.failed_besides_gates).
    slow: bool = False
    # sources.toml's: the line reports a state that holds until someone acts (a GPU that needs a reset,
    # its clocks held down), not an event a run can come through: requests served beside it do not
    # show it harmless, only an end-to-end check that passed does (unexplained._healthy).
    standing: bool = False
    # A quiet marker that reads the line as program source: a statement that holds no message (the
    # catalogue's source formats that quote nothing: `except Exception as e:`), which no program
    # prints, whatever words it holds (a test runner's traceback shows its frames' source lines).
    statement: bool = False
    # Reads only the line behind its launchers' and relays' tags (`inside`): what such a tag says (a
    # relay's own INFO before the line it relays) is the tag's, not the line's.
    inside: bool = False
    # The line's message is on the next line when the line ends like this (Rust's panic header since
    # 1.73: `thread 'main' panicked at src/main.rs:2:5:`, the panic's text below it): the scan reads
    # the next line with it, unless that line starts like a line of its own (scan/events.py).
    message_below: LazyRegex | None = None
    # ... and only an indented next line goes on with it (a Python exception's multi-line message, its
    # later lines indented by the program: FlashInfer's): an unindented line below is a line of its
    # own, which a library pattern may read (`KVTransferError: Transfer submission failed:` above
    # MORI's `group_concurrent_contiguous requires equal-length ...`).
    message_indented: bool = False
    # Decides only a line that a failure family's words also name (families.toml): a warning is no
    # error by its level, but one that words a failure a family knows is never "nothing failed".
    named_by_family: bool = False

    def ends_before_message(self, text: str) -> bool:
        return self.message_below is not None and _search(self.message_below, text) is not None

    def decides(self, text: str, reading: Callable[[], Reading], inside: Callable[[], str]) -> str | None:
        """The message this marker reads on the line ("" when it names none), or None. A marker
        without formats reads the line as it is, then behind the tags a launcher or collector put
        before it (`inside`): a marker anchored at a line's start reads it behind any tag the
        catalogue knows, a new tag being one data file."""
        if not self.formats:
            if self.regex is None:
                return None
            if self.inside:
                found = _search(self.regex, inside())
            else:
                found = _search(self.regex, text)
                if found is None:
                    inner = inside()
                    found = _search(self.regex, inner) if inner != text else None
            return None if found is None else found.groupdict().get("message") or ""
        said = reading()
        if said.format is None or said.level not in self.levels:
            return None
        if ANY_FORMAT not in self.formats and said.format.id not in self.formats:
            return None
        if self.regex is not None:
            found = _search(self.regex, said.message)
            return None if found is None else found.groupdict().get("message") or said.message
        return said.message


@record
class Benign:
    id: str
    reason: str
    regex: LazyRegex
    swallow_traceback: bool
    match: tuple[str, ...]
    no_match: tuple[str, ...]
    path: str
    recovered: bool = False  # benign only when the same file shows serving after it
    # Benign only when a later line of the same file is one of these library patterns': the retry
    # that then connected, the fallback that then worked (judged after the scan, unexplained.py).
    overcome_by: tuple[str, ...] = ()

    @property
    def judged_later(self) -> bool:
        """Whether the entry needs what comes after the line (serving, a success line) to decide."""
        return self.recovered or bool(self.overcome_by)


@record
class CauseLine:
    """A phrase by which a line states its own cause, and the limit it names (causes.toml)."""

    id: str
    limit: str  # what ran out or is wrong, in words
    fix: str  # what to change, in any engine's deployment ("" when only engines' own fixes are given)
    regex: LazyRegex
    match: tuple[str, ...]
    no_match: tuple[str, ...]
    path: str
    fixes: tuple[tuple[str, str], ...] = ()  # (engine, the fix in its knobs), when the knobs differ by engine

    def fix_for(self, engine: str | None) -> str:
        """The fix in the knobs of the engine that wrote the log; the general one otherwise."""
        return dict(self.fixes).get(engine or "", self.fix)


@record
class Family:
    """Words by which a line names a catalogue verdict's cause, whoever wrote it (families.toml)."""

    id: str
    verdict: str  # the catalogue verdict the words name
    regex: LazyRegex
    fixes: tuple[tuple[str, str], ...]  # (engine or "default", the family's fix)
    match: tuple[str, ...]
    no_match: tuple[str, ...]
    path: str
    # The words name the cause only on the first error itself, never on a line beside another
    # first error: a bare `Killed` below a traceback is the children reaped after the crash.
    lead_only: bool = False

    def words(self, text: str) -> str:
        """The words of the line that name the family: the regex's `words` group, else its match."""
        found = _search(self.regex, text)
        if found is None:
            return ""
        words = found.group("words") if "words" in found.re.groupindex else None
        return str(words or found.group(0))

    def fix_for(self, engine: str | None) -> str:
        """The fix in the knobs of the engine that wrote the log; the default one otherwise ("" if none)."""
        fixes = dict(self.fixes)
        return fixes.get(engine or "", fixes.get("default", ""))


@record
class Wrapper:
    """A generic report of a failure that never says why (causes.toml)."""

    id: str
    regex: LazyRegex
    match: tuple[str, ...]
    no_match: tuple[str, ...]
    path: str


@record
class ErrorHit:
    """One line the layer calls an error (or a warning worth showing)."""

    marker: str
    severity: Severity
    template: str


@record
class ErrorLayer:
    anchors: tuple[str, ...]
    markers: tuple[Marker, ...]
    benign: tuple[Benign, ...]
    warnings: tuple[Marker, ...] = ()  # how a line says it is a warning (read when nothing failed)
    masks: tuple[Mask, ...] = ()  # what varies between occurrences of one message (templates.toml)
    causes: tuple[CauseLine, ...] = ()  # phrases that state a cause (causes.toml)
    wrappers: tuple[Wrapper, ...] = ()  # generic reports of a failure (causes.toml)
    families: tuple[Family, ...] = ()  # cause words that name a verdict (families.toml)
    formats: Formats = field(default_factory=shipped_formats)  # the catalogue the format markers read
    # Per list of markers `decide` reads (by its id, the list kept beside it: `_needs`), the words
    # each marker's every match holds.
    _needs: dict[int, tuple[Sequence[Marker], _Needs]] = field(default_factory=dict, compare=False, repr=False)

    def ending_before_message(self) -> dict[str, Marker]:
        """The markers whose line may end before its message (`Marker.message_below`), by id."""
        return {marker.id: marker for marker in self.markers if marker.message_below is not None}

    def cause_of(self, text: str) -> CauseLine | None:
        """The cause this line states in its own words, if any."""
        return next((cause for cause in self.causes if _search(cause.regex, text)), None)

    def cause(self, cause_id: str) -> CauseLine | None:
        return next((cause for cause in self.causes if cause.id == cause_id), None)

    def family_of(self, text: str) -> Family | None:
        """The verdict family this line's words name, if any (the first that matches)."""
        return next((family for family in self.families if _search(family.regex, text)), None)

    def wraps(self, text: str) -> bool:
        """The line is a generic wrapper (and states no cause of its own)."""
        return self.cause_of(text) is None and any(_search(w.regex, text) for w in self.wrappers)

    def benign_entry(self, text: str) -> Benign | None:
        """The benign entry naming this line, if any."""
        return next((entry for entry in self.benign if _search(entry.regex, text)), None)

    def by_source(self) -> frozenset[str]:
        """Markers that call a line an error by where it comes from (sources.toml): the kernel, a
        driver, the orchestrator, the job scheduler, a lost lease."""
        return frozenset(marker.id for marker in self.markers if marker.component)

    def stopping_processes(self) -> frozenset[str]:
        """Source markers whose lines say a process was stopped from outside (`stops`)."""
        return frozenset(marker.id for marker in self.markers if marker.stops)

    def slow_answers(self) -> frozenset[str]:
        """Source markers whose lines say an answer came too late (`slow`), not that it failed."""
        return frozenset(marker.id for marker in self.markers if marker.slow)

    def standing(self) -> frozenset[str]:
        """Source markers whose lines report a state that holds until someone acts (`standing`)."""
        return frozenset(marker.id for marker in self.markers if marker.standing)

    def effects(self) -> frozenset[str]:
        """Markers whose lines report an ending, not its cause: ranked after the others."""
        return frozenset(marker.id for marker in self.markers if marker.effect)

    def answers(self) -> frozenset[str]:
        """Markers whose lines report a request answered with an error (a subset of `effects`)."""
        return frozenset(marker.id for marker in self.markers if marker.answer)

    def classify(self, text: str) -> ErrorHit | None:
        """The error this line states, or None (not an error, or benign).

        A benign line whose traceback follows it is kept as an INFO hit: the exception line
        under it is then dropped after the scan (`unexplained.py`), whichever byte range of a
        file each was scanned in.
        """
        marker, message = self.decide(self.markers, text)
        if marker is not None and (marker.level == "quiet" or self._blank_record(text)):
            marker = None
        for entry in self.benign:
            # Recovered ones are judged after the scan; a line no marker calls an error needs only the
            # entries that swallow a traceback (the many quiet lines, glog's I lines, skip the rest).
            if entry.judged_later or (marker is None and not entry.swallow_traceback):
                continue
            if _search(entry.regex, text):
                return ErrorHit(BENIGN_PREFIX + entry.id, Severity.INFO, "") if entry.swallow_traceback else None
        if marker is None:
            return None
        severity = Severity(marker.level)
        return ErrorHit(marker.id, severity, template_of(self._message(text, message), self.masks))

    def _blank_record(self, text: str) -> bool:
        """A known format's prefix and nothing after it (vLLM repeats its prefix on every line of a
        multi-line message, the blank ones too: `ERROR 01-06 17:54:58 [model_runner_v1.py:3016] `):
        no statement of its own, whatever level the prefix names."""
        said = self.formats.read(text)
        return said.format is not None and not said.message.strip()

    def warning_keys(self) -> tuple[str, ...]:
        """What every line a warning marker matches holds: lines without one are not read."""
        return tuple(dict.fromkeys(key for marker in self.warnings for key in marker.keys))

    def warning_of(self, text: str) -> ErrorHit | None:
        """The warning this line states, or None (not a warning, or benign noise)."""
        marker, message = self.decide(self.warnings, text)
        entry = None if marker is None else self.benign_entry(text)
        if marker is None or (entry is not None and not entry.overcome_by):
            return None  # a warning an entry sets aside only if overcome is judged after the scan
        return ErrorHit(marker.id, Severity.WARNING, template_of(self._message(text, message), self.masks))

    def _message(self, text: str, marked: str) -> str:
        """What the template is made of: the line after the prefixes the catalogue of line formats
        reads (patterns/formats/), or the marker's `message` where it cuts closer (`curl: (7) ...`,
        `what(): ...`). A marker's cut that starts before the catalogue's end of prefix guessed at a
        prefix it does not know (`[ERROR] 2025-04-08-18:07:20 (PID:1, Device:1, RankID:1) ...`)."""
        body = self.formats.body(text)
        return marked if marked and marked.strip() in body else body

    def decide(self, markers: Sequence[Marker], text: str) -> tuple[Marker | None, str]:
        """The first of `markers` that decides the line, with the message it reads ("": the
        line's own, without its prefixes); (None, "") when none does."""
        read: list[Reading] = []
        inner: list[str] = []

        def reading() -> Reading:  # the catalogue reads a line once, for the markers that ask
            if not read:
                read.append(self.formats.read(text))
            return read[0]

        def inside() -> str:
            if not inner:
                inner.append(self.formats.inside_tags(text))
            return inner[0]

        every, needs = self._needs_of(markers)
        present = {word for word in every if word in text}
        for marker, words in zip(markers, needs, strict=True):
            if words is not None and words.isdisjoint(present):
                continue  # what it searches is part of the line: without one of them, no match (literals.py)
            if marker.statement:
                if self.formats.statement(text):
                    return marker, ""
                continue
            message = marker.decides(text, reading, inside)
            if message is not None and marker.named_by_family and self.family_of(text) is None:
                continue
            if message is not None:
                return marker, message
        return None, ""

    def _needs_of(self, markers: Sequence[Marker]) -> _Needs:
        """The words of `markers` (`_needed`), found once per list: a line passes dozens of markers,
        and most hold none of their words (the search says no before it runs, after three calls)."""
        kept = self._needs.get(id(markers))
        if kept is None or kept[0] is not markers:
            each = tuple(_needed(marker) for marker in markers)
            every = tuple(dict.fromkeys(word for words in each if words is not None for word in words))
            kept = self._needs[id(markers)] = (markers, (every, each))
        return kept[1]


# What `decide` tests a line for: every word of the markers, and each marker's (None: read it always).
_Needs = tuple[tuple[str, ...], tuple[frozenset[str] | None, ...]]


def _needed(marker: Marker) -> frozenset[str] | None:
    """The words one of which a line holds when the marker decides it: its regex's (literals.py),
    which searches the line, its message or the line behind its tags, each a part of the line.
    None: a marker that decides without its regex (a statement, a level alone) or one with no such words."""
    if marker.statement or marker.regex is None:
        return None
    words = required_words(marker.regex.pattern, marker.regex.flags)
    return frozenset(words) if words else None


def _search(pattern: LazyRegex, text: str) -> regex.Match[str] | None:
    try:
        return pattern.search(text, timeout=MATCH_TIMEOUT_S)
    except TimeoutError:
        return None


# ---------------------------------------------------------------- loading


def load_layer(dirs: Iterable[Path], formats: Formats | None = None) -> ErrorLayer | None:
    """Markers and benign noise from each library directory's `open-world/`; None if none.
    `formats`: the catalogue the format markers read (the shipped one when not given)."""
    anchors: list[str] = []
    markers: list[Marker] = []
    benign: list[Benign] = []
    warnings: list[Marker] = []
    masks: list[Mask] = []
    causes: list[CauseLine] = []
    wrappers: list[Wrapper] = []
    families: list[Family] = []
    for directory in dirs:
        root = directory / OPEN_WORLD_DIR
        severity = root / "severity.toml"
        if severity.is_file():
            data = schema.read_toml(severity)
            anchors.extend(_search_keys(data, "anchors", str(severity)))
            markers.extend(_marker(raw, str(severity), i) for i, raw in enumerate(data.get("marker", [])))
            warnings.extend(_warning(raw, str(severity), i) for i, raw in enumerate(data.get("warning", [])))
        if (root / SOURCES_FILE).is_file():  # tried first: an INFO lease loss is still an error line
            where, data = str(root / SOURCES_FILE), schema.read_toml(root / SOURCES_FILE)
            found = [_source(raw, where, i) for i, raw in enumerate(data.get("source", []))]
            markers[:0] = [marker for marker, _ in found]
            anchors.extend(anchor for _, keys in found for anchor in keys)
        for path in sorted((root / "benign").glob("*.toml")) if (root / "benign").is_dir() else []:
            benign.append(_benign(schema.read_toml(path), str(path), path.stem))
        if (root / TEMPLATES_FILE).is_file():
            masks.extend(load_masks(root / TEMPLATES_FILE))
        if (root / CAUSES_FILE).is_file():
            where, data = str(root / CAUSES_FILE), schema.read_toml(root / CAUSES_FILE)
            causes.extend(_cause(raw, where, i) for i, raw in enumerate(data.get("cause", [])))
            wrappers.extend(_wrapper(raw, where, i) for i, raw in enumerate(data.get("wrapper", [])))
        if (root / FAMILIES_FILE).is_file():
            where, data = str(root / FAMILIES_FILE), schema.read_toml(root / FAMILIES_FILE)
            families.extend(_family(raw, where, i) for i, raw in enumerate(data.get("family", [])))
    if not markers:
        return None
    catalogue = formats or shipped_formats()
    known = {fmt.id for fmt in catalogue.formats} | {ANY_FORMAT}
    for marker in (*markers, *warnings):
        for name in marker.formats:
            if name not in known:
                raise PatternError(marker.path, f"{marker.id}.format", f"'{name}' is no format of patterns/formats/")
    return ErrorLayer(
        tuple(dict.fromkeys(anchors)),
        tuple(markers),
        tuple(benign),
        tuple(warnings),
        tuple(masks),
        tuple(causes),
        tuple(wrappers),
        tuple(families),
        catalogue,
    )


def _search_keys(raw: Mapping[str, Any], name: str, where: str, key: str | None = None) -> tuple[str, ...]:
    """Search keys: a non-empty list of non-empty strings (searched as their UTF-8 bytes: every input
    is read as UTF-8, a UTF-16 log converted first)."""
    keys = schema.string_list(raw, name, where, key)
    if not keys:
        raise PatternError(where, schema.placed(key, name), "must be a non-empty list of non-empty strings")
    return keys


def _marker(raw: Any, where: str, index: int) -> Marker:
    key = f"marker[{index}]"
    if not isinstance(raw, dict):
        raise PatternError(where, key, "must be a table")
    schema.check_keys(raw, _MARKER_KEYS, ("id", "level", "examples"), where, key)
    level = raw["level"]
    if level not in LEVELS:
        raise PatternError(where, f"{key}.level", f"'{level}' is not one of {LEVELS}")
    match, no_match = schema.examples(raw, where, key)
    effect, answer = raw.get("effect", False), raw.get("answer", False)
    for name, flag in (("effect", effect), ("answer", answer)):
        if not isinstance(flag, bool):
            raise PatternError(where, f"{key}.{name}", "must be true or false")
    if answer and not effect:
        raise PatternError(where, f"{key}.answer", "an error answer is an ending: needs effect = true")
    statement = raw.get("statement", False)
    if statement is not True and "statement" in raw:
        raise PatternError(where, f"{key}.statement", "is true or left out")
    if statement and (level != "quiet" or {"regex", "format", "levels"} & raw.keys()):
        raise PatternError(where, key, "a statement marker is quiet and reads the source formats: no regex or format")
    formats, levels = ((), ()) if statement else _format_reference(raw, where, key)
    compiled = schema.regex(raw, "regex", where, key) if "regex" in raw else None
    inside = raw.get("inside", False)
    if not isinstance(inside, bool) or (inside and (statement or formats)):
        raise PatternError(where, f"{key}.inside", "is true or false, for a marker that reads a regex alone")
    below = schema.regex(raw, "message_below", where, key) if "message_below" in raw else None
    if below is not None and level in ("quiet", "warning"):
        raise PatternError(where, f"{key}.message_below", "reads the message of an error line: not of a quiet one")
    named_by_family = raw.get("named_by_family", False)
    if not isinstance(named_by_family, bool):
        raise PatternError(where, f"{key}.named_by_family", "must be true or false")
    indented = raw.get("message_indented", False)
    if not isinstance(indented, bool) or (indented and below is None):
        raise PatternError(where, f"{key}.message_indented", "is true or false, beside a message_below")
    marker = Marker(str(raw["id"]), level, compiled, match, no_match, where, effect, (), formats, levels)
    return replace(
        marker,
        answer=answer,
        statement=statement,
        inside=inside,
        message_below=below,
        message_indented=indented,
        named_by_family=named_by_family,
    )


def _source(raw: Any, where: str, index: int) -> tuple[Marker, tuple[str, ...]]:
    """A source entry as the marker it is (tried before severity.toml's) and its search keys."""
    key = f"source[{index}]"
    if not isinstance(raw, dict):
        raise PatternError(where, key, "must be a table")
    schema.check_keys(
        raw, _SOURCE_KEYS, ("id", "component", "level", "anchors", "regex", "why", "examples"), where, key
    )
    if raw["level"] not in ("critical", "error"):
        raise PatternError(where, f"{key}.level", "must be 'critical' or 'error' (a source entry names an error line)")
    anchors = _search_keys(raw, "anchors", where, key)
    match, no_match = schema.examples(raw, where, key)
    flags = {name: raw.get(name, False) for name in ("effect", "stops", "slow", "standing")}
    if not all(isinstance(flag, bool) for flag in flags.values()):
        raise PatternError(where, key, "`effect`, `stops`, `slow` and `standing` must be true or false")
    marker = Marker(str(raw["id"]), str(raw["level"]), schema.regex(raw, "regex", where, key), match, no_match, where)
    return replace(marker, component=str(raw["component"]), **flags), anchors


def _format_reference(raw: Mapping[str, Any], where: str, key: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """A marker reads either its own `regex`, or a catalogue format's `levels` (and then its
    regex, if any, on the message)."""
    if "format" not in raw:
        if "levels" in raw or "regex" not in raw:
            raise PatternError(where, key, "needs a `regex`, or a `format` and its `levels`")
        return (), ()
    formats = raw["format"] if isinstance(raw["format"], list) else [raw["format"]]
    levels = raw.get("levels")
    if not formats or not all(isinstance(name, str) and name for name in formats):
        raise PatternError(where, f"{key}.format", "must name a format of patterns/formats/ (or a list of them)")
    if not isinstance(levels, list) or not levels or not all(level in FORMAT_LEVELS for level in levels):
        raise PatternError(where, f"{key}.levels", f"must list the format levels it decides, of {FORMAT_LEVELS}")
    return tuple(formats), tuple(levels)


def _cause(raw: Any, where: str, index: int) -> CauseLine:
    key = f"cause[{index}]"
    if not isinstance(raw, dict):
        raise PatternError(where, key, "must be a table")
    schema.check_keys(raw, _CAUSE_KEYS, ("id", "limit", "fix", "regex", "examples"), where, key)
    match, no_match = schema.examples(raw, where, key)
    compiled = schema.regex(raw, "regex", where, key)
    fix, fixes = _cause_fixes(raw["fix"], where, key)
    return CauseLine(str(raw["id"]), str(raw["limit"]), fix, compiled, match, no_match, where, fixes)


def _cause_fixes(raw: Any, where: str, key: str) -> tuple[str, tuple[tuple[str, str], ...]]:
    """A cause's fix: one text for every deployment, or a table of engine (and `default`) = fix when
    the knobs are the engine's own (a KV cache's size is set by each engine's flags)."""
    if isinstance(raw, str) and raw.strip():
        return " ".join(raw.split()), ()
    if not isinstance(raw, dict) or not raw or not all(isinstance(v, str) and v.strip() for v in raw.values()):
        raise PatternError(where, f"{key}.fix", "must be a text, or a table of engine (or 'default') = fix")
    fixes = {str(engine): " ".join(fix.split()) for engine, fix in raw.items()}
    return fixes.pop("default", ""), tuple(fixes.items())


def _family(raw: Any, where: str, index: int) -> Family:
    key = f"family[{index}]"
    if not isinstance(raw, dict):
        raise PatternError(where, key, "must be a table")
    schema.check_keys(raw, _FAMILY_KEYS, ("id", "verdict", "regex", "examples"), where, key)
    fixes = raw.get("fix", {})
    if not isinstance(fixes, dict) or not all(isinstance(v, str) and v.strip() for v in fixes.values()):
        raise PatternError(where, f"{key}.fix", "must be a table of engine (or 'default') = fix")
    match, no_match = schema.examples(raw, where, key)
    compiled = schema.regex(raw, "regex", where, key)
    folded = tuple((str(engine), " ".join(fix.split())) for engine, fix in fixes.items())
    lead_only = raw.get("lead_only", False)
    if not isinstance(lead_only, bool):
        raise PatternError(where, f"{key}.lead_only", "must be true or false")
    return Family(str(raw["id"]), str(raw["verdict"]), compiled, folded, match, no_match, where, lead_only)


def _wrapper(raw: Any, where: str, index: int) -> Wrapper:
    key = f"wrapper[{index}]"
    if not isinstance(raw, dict):
        raise PatternError(where, key, "must be a table")
    schema.check_keys(raw, _WRAPPER_KEYS, ("id", "regex", "examples"), where, key)
    match, no_match = schema.examples(raw, where, key)
    return Wrapper(str(raw["id"]), schema.regex(raw, "regex", where, key), match, no_match, where)


def _warning(raw: Any, where: str, index: int) -> Marker:
    if not isinstance(raw, dict):
        raise PatternError(where, f"warning[{index}]", "must be a table")
    keys = _search_keys(raw, "keys", where, f"warning[{index}]")
    marker = _marker({name: value for name, value in raw.items() if name != "keys"}, where, index)
    if marker.level != "warning" or marker.effect:
        raise PatternError(where, f"warning[{index}].level", "must be 'warning' (and no effect)")
    return replace(marker, keys=tuple(keys))


def _benign(raw: dict[str, Any], where: str, stem: str) -> Benign:
    schema.check_keys(raw, _BENIGN_KEYS, ("id", "reason", "regex", "examples"), where, None)
    if raw["id"] != stem:
        raise PatternError(where, "id", f"'{raw['id']}' must equal the file name '{stem}'")
    match, no_match = schema.examples(raw, where, None)
    swallow, recovered = raw.get("swallow_traceback", False), raw.get("recovered", False)
    for key, value in (("swallow_traceback", swallow), ("recovered", recovered)):
        if not isinstance(value, bool):
            raise PatternError(where, key, "must be true or false")
    compiled = schema.regex(raw, "regex", where, None)
    overcome = raw.get("overcome_by", [])
    if not isinstance(overcome, list) or not all(isinstance(p, str) for p in overcome):
        raise PatternError(where, "overcome_by", "must be a list of pattern ids")
    benign = Benign(str(raw["id"]), str(raw["reason"]), compiled, swallow, match, no_match, where, recovered)
    return replace(benign, overcome_by=tuple(overcome))


# ---------------------------------------------------------------- self-test


def check_layer(layer: ErrorLayer) -> list[str]:
    """Every marker must decide its own match examples and not its no_match ones; every benign
    entry must match its examples. Markers are tried in order, so a match example must be
    decided by its own marker, not an earlier one."""
    problems: list[str] = []
    for marker in layer.markers:
        for line in marker.match:
            decided, _ = layer.decide(layer.markers, line)
            if decided is not marker:
                by = decided.id if decided else None
                problems.append(f"{marker.path}: marker {marker.id}: match example decided by {by}: {line!r}")
        for line in marker.no_match:
            if _decides(layer, marker, line):
                problems.append(f"{marker.path}: marker {marker.id}: no_match example matches: {line!r}")
    for entry in layer.benign:
        problems += [f"{entry.path}: example does not match: {x!r}" for x in entry.match if not _search(entry.regex, x)]
        problems += [
            f"{entry.path}: no_match example matches: {x!r}" for x in entry.no_match if _search(entry.regex, x)
        ]
    problems += _warning_problems(layer)
    problems += check_masks(layer.masks)
    problems += _cause_problems(layer)
    problems += _family_problems(layer)
    problems += [f"{path}: {problem}" for path, searched in _searched(layer) if (problem := quadratic(searched))]
    for marker in layer.markers:
        for line in marker.match:
            if not any(anchor in line for anchor in layer.anchors):
                problems.append(f"{marker.path}: marker {marker.id}: no anchor finds the example {line!r}")
    return problems


# A searched regex that opens with `.*` (bare or in a group) is tried again from every position of a
# line it does not match: its cost grows with the square of the line's length (a 2 KiB line that
# holds no error took milliseconds). Anchored at the start, the one attempt from 0 finds the same.
_OPENS_WITH_ANY = lazy_re(r"^(?:\((?:\?P<\w+>|\?:)?)*\.[*+]")


def quadratic(searched: LazyRegex) -> str:
    """Why a searched regex costs the square of a line's length, or "" (it does not)."""
    if _OPENS_WITH_ANY.match(searched.pattern):
        return f"regex {searched.pattern[:40]!r}... opens with an unanchored `.*`: anchor it with `^`"
    return ""


def _searched(layer: ErrorLayer) -> Iterator[tuple[str, LazyRegex]]:
    """Every regex the layer searches a line with, with the file it comes from."""
    for marker in (*layer.markers, *layer.warnings):
        if marker.regex is not None:
            yield marker.path, marker.regex
    for entry in layer.benign:
        yield entry.path, entry.regex
    for cause in layer.causes:
        yield cause.path, cause.regex
    for wrapper in layer.wrappers:
        yield wrapper.path, wrapper.regex
    for family in layer.families:
        yield family.path, family.regex


def _decides(layer: ErrorLayer, marker: Marker, line: str) -> bool:
    """Whether the marker, asked alone, reads the line."""
    return layer.decide((marker,), line)[0] is marker


def _cause_problems(layer: ErrorLayer) -> list[str]:
    """A cause decides its own examples (the first that matches is the one named) and not its
    no_match; a wrapper's examples are wrappers (no cause phrase in them) and its no_match are not."""
    problems = _named_examples_problems("cause", layer.causes, layer.cause_of)
    for wrapper in layer.wrappers:
        problems += [f"{wrapper.path}: wrapper {wrapper.id}: example is no wrapper: {x!r}" for x in wrapper.match
                     if not layer.wraps(x)]  # fmt: skip
        problems += [f"{wrapper.path}: wrapper {wrapper.id}: no_match example matches: {x!r}" for x in wrapper.no_match
                     if _search(wrapper.regex, x)]  # fmt: skip
    return problems


def _family_problems(layer: ErrorLayer) -> list[str]:
    """A family names its own examples (the first family that matches is the one named) and none of
    its look-alikes."""
    return _named_examples_problems("family", layer.families, layer.family_of)


class _Named(Protocol):
    """What a cause line and a family share: an id, a regex, examples, the file they come from."""

    @property
    def id(self) -> str: ...
    @property
    def regex(self) -> LazyRegex: ...
    @property
    def match(self) -> tuple[str, ...]: ...
    @property
    def no_match(self) -> tuple[str, ...]: ...
    @property
    def path(self) -> str: ...


_N = TypeVar("_N", bound=_Named)


def _named_examples_problems(kind: str, entries: Sequence[_N], named: Callable[[str], _N | None]) -> list[str]:
    """Each entry's match examples are named by it (`named`: the first entry that matches a line)
    and none of its no_match examples match its regex."""
    problems: list[str] = []
    for entry in entries:
        for line in entry.match:
            found = named(line)
            if found is None or found.id != entry.id:
                problems.append(
                    f"{entry.path}: {kind} {entry.id}: example named {found.id if found else None}: {line!r}"
                )
        problems += [f"{entry.path}: {kind} {entry.id}: no_match example matches: {x!r}" for x in entry.no_match
                     if _search(entry.regex, x)]  # fmt: skip
    return problems


def _warning_problems(layer: ErrorLayer) -> list[str]:
    """Warning markers, tried in their own order, decide their own examples and not their no_match."""
    problems: list[str] = []
    for marker in layer.warnings:
        for line in marker.match:
            decided = layer.warning_of(line)
            if decided is None or decided.marker != marker.id:
                by = decided.marker if decided else None
                problems.append(f"{marker.path}: warning {marker.id}: match example decided by {by}: {line!r}")
        for line in marker.no_match:
            if _decides(layer, marker, line):
                problems.append(f"{marker.path}: warning {marker.id}: no_match example matches: {line!r}")
        problems += [f"{marker.path}: warning {marker.id}: no key finds the example {line!r}"
                     for line in marker.match if not any(key in line for key in marker.keys)]  # fmt: skip
    return problems
