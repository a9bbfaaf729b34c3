"""JSON: the report document, keys in a fixed order, no time of the run."""

from __future__ import annotations

import itertools
import json
from typing import TextIO

from ..model import Report
from .document import report_document
from .neutralise import json_safe
from .options import PLAIN, RenderOptions

# The encoder's pieces are written this many at a time: the document of a run over 100,000 files
# is hundreds of MB, and one string of it (with the ~90 million small pieces it is joined from) was
# most of the run's peak memory. Joined in C (islice), not counted piece by piece in Python.
WRITE_PIECES = 8192


def render(report: Report, out: TextIO, options: RenderOptions = PLAIN) -> None:
    """Never redacted (`options` is ignored): a machine-readable record of exactly what was read. No
    raw control or bidi character, and no byte of a name that is not UTF-8 (neutralise.json_safe,
    which replaces single characters, so it gives the same text piece by piece as whole)."""
    pieces = json.JSONEncoder(indent=2, ensure_ascii=False).iterencode(report_document(report, streamed=True))
    for text in iter(lambda: "".join(itertools.islice(pieces, WRITE_PIECES)), ""):
        out.write(json_safe(text))
    out.write("\n")


def schema_text() -> str:
    """The JSON Schema of the document, shipped inside the package."""
    from importlib import resources  # here: importing it costs every run ~2 ms

    return resources.files("pdlogdoctor.render").joinpath("schema/report.schema.json").read_text(encoding="utf-8")
