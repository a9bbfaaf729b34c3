"""JSON: the report document, keys in a fixed order, no time of the run."""

from __future__ import annotations

import itertools
import json
from collections.abc import Callable, Iterable, Iterator
from functools import lru_cache
from typing import Any, TextIO

from ..model import Report
from .document import SeriesDocuments, report_document
from .neutralise import json_safe
from .options import PLAIN, RenderOptions

# The encoder's pieces are written this many at a time: the document of a run over 100,000 files
# is hundreds of MB, and one string of it (with the ~90 million small pieces it is joined from) was
# most of the run's peak memory. Joined in C (islice), not counted piece by piece in Python.
WRITE_PIECES = 8192
SERIES_PER_WRITE = 256  # series documents (~500 characters each) written as one string
INDENT = 2


def render(report: Report, out: TextIO, options: RenderOptions = PLAIN) -> None:
    """Never redacted (`options` is ignored): a machine-readable record of exactly what was read. No
    raw control or bidi character, and no byte of a name that is not UTF-8 (neutralise.json_safe,
    which replaces single characters, so it gives the same text piece by piece as whole)."""
    document = report_document(report, streamed=True)
    performance = document.get("performance")
    series = performance.get("series") if isinstance(performance, dict) else None
    quoted = None
    if isinstance(performance, dict) and isinstance(series, SeriesDocuments) and series:
        # The series are most of a large run's report (about ten per file that prints metrics
        # lines): each is written by `indented`, which makes json's indented text in a few string
        # operations, not the encoder's dozens of generator steps per value. The encoder writes
        # the rest around a mark no log can hold (a fresh nonce) that stands for the list's items.
        import uuid  # here: its import (~2 ms, platform's with it) is paid only by a report with series

        mark = f"pdlogdoctor-series-{uuid.uuid4().hex}"
        performance["series"] = [mark]
        quoted = json.dumps(mark)
    pieces = json.JSONEncoder(indent=INDENT, ensure_ascii=False).iterencode(document)
    for text in iter(lambda: "".join(itertools.islice(pieces, WRITE_PIECES)), ""):
        at = text.find(quoted) if quoted is not None else -1
        if at < 0:
            out.write(json_safe(text))
            continue
        assert isinstance(series, SeriesDocuments) and quoted is not None
        out.write(json_safe(text[:at]))
        level = (at - text.rfind("\n", 0, at) - 1) // INDENT  # the list's items' indent, from the mark's
        for written in _series_texts(series, level):
            out.write(json_safe(written))
        out.write(json_safe(text[at + len(quoted) :]))
        quoted = None
    out.write("\n")


def _series_texts(series: Iterable[dict[str, Any]], level: int) -> Iterator[str]:
    """The series' documents at `level`, comma-separated, SERIES_PER_WRITE to a string."""
    separator = ",\n" + " " * (INDENT * level)
    first = True
    for batch in _batched(series):
        text = separator.join(indented(item, level) for item in batch)
        yield text if first else separator + text
        first = False


def _batched(items: Iterable[dict[str, Any]]) -> Iterator[list[dict[str, Any]]]:
    iterator = iter(items)
    while batch := list(itertools.islice(iterator, SERIES_PER_WRITE)):
        yield batch


_encode_string = json.encoder.encode_basestring  # the C one when built


def _float_text(value: float) -> str:
    """json's `floatstr` with its defaults (allow_nan)."""
    if value != value:
        return "NaN"
    if value == _INFINITY:
        return "Infinity"
    if value == -_INFINITY:
        return "-Infinity"
    return float.__repr__(value)


_INFINITY = float("inf")
# Each scalar's text by its exact type, as json's encoder writes it (a subclass, such as an IntEnum,
# takes the general path below).
_SCALARS: dict[type, Callable[[Any], str]] = {
    str: _encode_string,
    int: int.__repr__,
    float: _float_text,
    bool: lambda value: "true" if value else "false",
    type(None): lambda value: "null",
}


def indented(value: Any, level: int) -> str:
    """`value` as `json.dumps(value, indent=2, ensure_ascii=False)` writes it nested `level` deep
    (its first line not indented: it follows a key or a list's indent)."""
    scalar = _SCALARS.get(type(value))
    if scalar is not None:
        return scalar(value)
    inner = "\n" + " " * (INDENT * (level + 1))
    if isinstance(value, dict):
        if not value:
            return "{}"
        items = [f"{_key_text(key)}: {_item_text(item, level + 1)}" for key, item in value.items()]
        return "{" + inner + ("," + inner).join(items) + "\n" + " " * (INDENT * level) + "}"
    if isinstance(value, list | tuple):
        if not value:
            return "[]"
        texts = [_item_text(item, level + 1) for item in value]
        return "[" + inner + ("," + inner).join(texts) + "\n" + " " * (INDENT * level) + "]"
    return _general_scalar(value)


def _item_text(value: Any, level: int) -> str:
    scalar = _SCALARS.get(type(value))
    return scalar(value) if scalar is not None else indented(value, level)


def _general_scalar(value: Any) -> str:
    """A subclass of a scalar type, as the encoder's isinstance tests take it."""
    if isinstance(value, str):
        return _encode_string(value)
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return int.__repr__(value)
    if isinstance(value, float):
        return _float_text(value)
    raise TypeError(f"Object of type {type(value).__name__} is not JSON serializable")


@lru_cache(maxsize=256)
def _key_text(key: str) -> str:
    """A key's text: the documents' keys are all strings, from a few dozen."""
    if not isinstance(key, str):
        raise TypeError(f"keys must be str here, not {type(key).__name__}")
    return _encode_string(key)


def schema_text() -> str:
    """The JSON Schema of the document, shipped inside the package."""
    from importlib import resources  # here: importing it costs every run ~2 ms

    return resources.files("pdlogdoctor.render").joinpath("schema/report.schema.json").read_text(encoding="utf-8")
