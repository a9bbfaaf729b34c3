"""Every string of a report as it leaves the process: one pass, before any renderer sees it.

Each string is redacted when the format is meant to be shared (redact.py), then shown
safely for every reader (neutralise.shown: no control character, escape sequence, bidi
control or undecodable byte acts on a terminal, a page or a parser). The pass runs on the
assembled report, so every cut a renderer makes afterwards (an excerpt line's 400
characters, an annotation's length) cuts text that is already masked and inert. The
fingerprint is computed from the report before it (redaction must not change it).

Consecutive excerpt lines are redacted together (a private-key block spans them); the
tool's own paragraphs and a captured traceback keep their line feeds; the tool's own
identifiers (pattern and verdict ids) are never redacted.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Hashable, Sequence
from enum import Enum
from typing import TYPE_CHECKING, Any, TypeVar, cast

from ..model import Report
from .kept import KEPT
from .neutralise import shown

if TYPE_CHECKING:
    from .redact import Redactor

T = TypeVar("T")

# Strings whose line feeds are structure: the library's paragraphs, a captured block's lines.
_MULTILINE = frozenset({("Report", "explain"), ("Report", "advice"), ("Event", "fields")})


class Outbound:
    """The pass: redaction (when a redactor is given), then safe display."""

    def __init__(self, redactor: Redactor | None = None) -> None:
        self.redactor = redactor
        self._done: dict[tuple[str, bool], str] = {}  # a report repeats its strings (chain, roots, links)

    def __call__(self, text: str, multiline: bool = False) -> str:
        key = (text, multiline)
        done = self._done.get(key)
        if done is None:
            redacted = self.redactor(text) if self.redactor is not None and text else text
            done = self._done[key] = shown(redacted, multiline)
        return done

    def lines(self, texts: Sequence[str]) -> list[str]:
        """Consecutive lines of one file (an excerpt window)."""
        redacted = self.redactor.redact_lines(texts) if self.redactor is not None else list(texts)
        return [shown(text) for text in redacted]

    def report(self, report: Report) -> Report:
        return _walk(report, self, False, False)


def outbound_report(report: Report, redactor: Redactor | None = None) -> Report:
    """Every string of `report` as it may leave the process (see the module's docstring)."""
    return Outbound(redactor).report(report)


def passed_out(report: Report, redacted: bool) -> Report:
    """`outbound_report` of `report`, redacted for sharing (its own redactor, redact.redactor_for) or
    not, walked once for the last few reports: a run that renders several formats of one report
    (CI's step summary, annotations and JUnit; text and markdown) walks it once per kind, not once
    per format. A report is immutable: the walk's result is the same each time."""
    return _passed_out(_Same(report), redacted)


class _Same:
    """A report as a memo's key: by identity (a report's own hash reads every field), and holding it,
    so no other report can take its identity while the memo keeps it."""

    __slots__ = ("report",)

    def __init__(self, report: Report) -> None:
        self.report = report

    def __hash__(self) -> int:
        return id(self.report)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Same) and other.report is self.report


@functools.lru_cache(maxsize=4)  # a memo of a pure function of its arguments, not state
def _passed_out(same: _Same, redacted: bool) -> Report:
    if not redacted:
        return outbound_report(same.report)
    from .redact import redactor_for  # the rules load only when they are used

    return outbound_report(same.report, redactor_for(same.report))


# Values that hold no string: returned as they are, without a look at their class's fields. A
# report holds many (a metrics series' points are tuples of numbers, 240 of them per series).
_NO_TEXT = frozenset({int, float, bool, type(None)})


def _walk(value: T, out: Outbound, keep: bool, multiline: bool) -> T:
    if type(value) in _NO_TEXT:
        return value
    if isinstance(value, str):  # StrEnum members are str too: keep them as they are
        if isinstance(value, Enum):
            return value
        return (shown(value) if keep else out(value, multiline)) if value else value  # type: ignore[return-value]
    if isinstance(value, tuple):
        if _are_consecutive_lines(value):
            texts = out.lines([item.text for item in value])
            return tuple(
                dataclasses.replace(_walk_fields(item, out, skip="text"), text=text)
                for item, text in zip(value, texts, strict=True)
            )  # type: ignore[return-value]
        if all(type(item) in _NO_TEXT for item in value):
            return value
        return tuple(_walk(item, out, keep, multiline) for item in value)  # type: ignore[return-value]
    if _field_names(type(value)):
        return _walk_fields(value, out)  # type: ignore[no-any-return]
    return value


def _walk_fields(value: Any, out: Outbound, skip: str = "") -> Any:
    kind = type(value).__name__
    changes: dict[str, Any] = {}
    for name in _field_names(type(value)):
        if name == skip:
            continue
        old = getattr(value, name)
        new = _walk(old, out, (kind, name) in KEPT, (kind, name) in _MULTILINE)
        if new is not old and new != old:
            changes[name] = new
    return dataclasses.replace(value, **changes) if changes else value  # unchanged: shared, not copied


def _field_names(kind: type) -> tuple[str, ...]:
    """A dataclass's field names (none for anything else), looked up once per class."""
    return _fields_of(cast(Hashable, kind))


@functools.cache  # a pure function of the class: a memo, not state
def _fields_of(kind: Any) -> tuple[str, ...]:
    return tuple(f.name for f in dataclasses.fields(kind)) if dataclasses.is_dataclass(kind) else ()


def _are_consecutive_lines(items: tuple[Any, ...]) -> bool:
    """An excerpt window's lines (text, line and distance fields): a key block may span them."""
    return bool(items) and all(
        "distance" in _field_names(type(item)) and "text" in _field_names(type(item)) for item in items
    )
