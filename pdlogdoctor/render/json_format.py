"""JSON: the report document, keys in a fixed order, no time of the run."""

from __future__ import annotations

import json
from typing import TextIO

from ..model import Report
from .document import report_document
from .neutralise import json_safe
from .options import PLAIN, RenderOptions


def render(report: Report, out: TextIO, options: RenderOptions = PLAIN) -> None:
    """Never redacted (`options` is ignored): a machine-readable record of exactly what was read. No
    raw control or bidi character, and no byte of a name that is not UTF-8 (neutralise.json_safe)."""
    out.write(json_safe(json.dumps(report_document(report), indent=2, ensure_ascii=False)) + "\n")


def schema_text() -> str:
    """The JSON Schema of the document, shipped inside the package."""
    from importlib import resources  # here: importing it costs every run ~2 ms

    return resources.files("pdlogdoctor.render").joinpath("schema/report.schema.json").read_text(encoding="utf-8")
