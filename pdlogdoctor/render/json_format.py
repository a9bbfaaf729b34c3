"""JSON: the report document, keys in a fixed order, no time of the run."""

from __future__ import annotations

import json
from typing import TextIO

from ..model import Report
from .document import report_document


def render(report: Report, out: TextIO) -> None:
    json.dump(report_document(report), out, indent=2, ensure_ascii=False)
    out.write("\n")
