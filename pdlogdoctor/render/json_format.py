"""JSON: the report document, keys in a fixed order, no time of the run."""

from __future__ import annotations

import itertools
import json
import uuid
from collections.abc import Iterable, Iterator
from typing import Any, TextIO

from ..model import Report
from .document import SeriesDocuments, report_document
from .neutralise import json_safe
from .options import PLAIN, RenderOptions

# The encoder's pieces are written this many at a time: the document of a run over 100,000 files
# is hundreds of MB, and one string of it (with the ~90 million small pieces it is joined from) was
# most of the run's peak memory. Joined in C (islice), not counted piece by piece in Python.
WRITE_PIECES = 8192
INDENT = 2


def render(report: Report, out: TextIO, options: RenderOptions = PLAIN) -> None:
    """Never redacted (`options` is ignored): a machine-readable record of exactly what was read. No
    raw control or bidi character, and no byte of a name that is not UTF-8 (neutralise.json_safe,
    which replaces single characters, so it gives the same text piece by piece as whole)."""
    document = report_document(report, streamed=True)
    pieces: Iterable[str] = json.JSONEncoder(indent=INDENT, ensure_ascii=False).iterencode(document)
    performance = document.get("performance")
    series = performance.get("series") if isinstance(performance, dict) else None
    if isinstance(performance, dict) and isinstance(series, SeriesDocuments) and series:
        # The series are most of a large run's report (about ten per file that prints metrics
        # lines): each is written by `indented`, which makes json's indented text in a few string
        # operations, not the encoder's dozens of generator steps per value. The encoder writes
        # the rest around a mark no log can hold (a fresh nonce) that stands for the list's items.
        mark = f"pdlogdoctor-series-{uuid.uuid4().hex}"
        performance["series"] = [mark]
        pieces = _spliced(json.JSONEncoder(indent=INDENT, ensure_ascii=False).iterencode(document), mark, series)
    for text in iter(lambda: "".join(itertools.islice(pieces, WRITE_PIECES)), ""):
        out.write(json_safe(text))
    out.write("\n")


def _spliced(pieces: Iterator[str], mark: str, series: Iterable[dict[str, Any]]) -> Iterator[str]:
    """The encoder's pieces, the one holding the quoted `mark` (the list's only item, after its
    `[` and indent) replaced by every document of `series` at that indent, comma-separated."""
    quoted = json.dumps(mark)
    for piece in pieces:
        at = piece.find(quoted)
        if at < 0:
            yield piece
            continue
        yield piece[:at]
        level = (at - piece.rfind("\n", 0, at) - 1) // INDENT
        separator = ",\n" + " " * (INDENT * level)
        for number, item in enumerate(series):
            yield indented(item, level) if number == 0 else separator + indented(item, level)
        yield piece[at + len(quoted) :]
        yield from pieces
        return


_encode_string = json.encoder.encode_basestring  # the C one when built


def indented(value: Any, level: int) -> str:
    """`value` as `json.dumps(value, indent=2, ensure_ascii=False)` writes it nested `level` deep
    (its first line not indented: it follows a key or a list's indent)."""
    if isinstance(value, str):
        return _encode_string(value)
    if value is None:
        return "null"
    if value is True:
        return "true"
    if value is False:
        return "false"
    if isinstance(value, int):
        return int.__repr__(value)
    if isinstance(value, float):
        return _float_text(value)
    inner = "\n" + " " * (INDENT * (level + 1))
    if isinstance(value, dict):
        if not value:
            return "{}"
        items = (f"{_key_text(key)}: {indented(item, level + 1)}" for key, item in value.items())
        return "{" + inner + ("," + inner).join(items) + "\n" + " " * (INDENT * level) + "}"
    if isinstance(value, list | tuple):
        if not value:
            return "[]"
        return (
            "["
            + inner
            + ("," + inner).join(indented(item, level + 1) for item in value)
            + "\n"
            + " " * (INDENT * level)
            + "]"
        )
    raise TypeError(f"Object of type {type(value).__name__} is not JSON serializable")


def _key_text(key: Any) -> str:
    if isinstance(key, str):
        return _encode_string(key)
    raise TypeError(f"keys must be str here, not {type(key).__name__}")  # the documents' keys are all str


def _float_text(value: float) -> str:
    """json's `floatstr` with its defaults (allow_nan)."""
    if value != value:
        return "NaN"
    if value == float("inf"):
        return "Infinity"
    if value == float("-inf"):
        return "-Infinity"
    return float.__repr__(value)


def schema_text() -> str:
    """The JSON Schema of the document, shipped inside the package."""
    from importlib import resources  # here: importing it costs every run ~2 ms

    return resources.files("pdlogdoctor.render").joinpath("schema/report.schema.json").read_text(encoding="utf-8")
