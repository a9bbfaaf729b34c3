"""JSON: the report document, keys in a fixed order, no time of the run."""

from __future__ import annotations

import json
from typing import TextIO

from ..model import Report
from .document import report_document
from .neutralise import json_safe
from .options import PLAIN, RenderOptions

# The encoder's pieces are written in runs of about this many characters: the document of a run
# over 100,000 files is hundreds of MB, and one string of it (with the millions of small pieces it
# is joined from) was most of the run's peak memory.
WRITE_CHARS = 1 << 16


def render(report: Report, out: TextIO, options: RenderOptions = PLAIN) -> None:
    """Never redacted (`options` is ignored): a machine-readable record of exactly what was read. No
    raw control or bidi character, and no byte of a name that is not UTF-8 (neutralise.json_safe,
    which replaces single characters, so it gives the same text piece by piece as whole)."""
    encoder = json.JSONEncoder(indent=2, ensure_ascii=False)
    pending: list[str] = []
    held = 0
    for piece in encoder.iterencode(report_document(report, streamed=True)):
        pending.append(piece)
        held += len(piece)
        if held >= WRITE_CHARS:
            out.write(json_safe("".join(pending)))
            pending.clear()
            held = 0
    out.write(json_safe("".join(pending)) + "\n")


def schema_text() -> str:
    """The JSON Schema of the document, shipped inside the package."""
    from importlib import resources  # here: importing it costs every run ~2 ms

    return resources.files("pdlogdoctor.render").joinpath("schema/report.schema.json").read_text(encoding="utf-8")
