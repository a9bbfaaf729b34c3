"""Renderers: one module per output format, each with `render(report, out)`."""

from __future__ import annotations

from collections.abc import Callable
from typing import TextIO

from ..model import OutputFormat, Report
from . import json_format, text

Renderer = Callable[[Report, TextIO], None]

RENDERERS: dict[OutputFormat, Renderer] = {
    OutputFormat.TEXT: text.render,
    OutputFormat.JSON: json_format.render,
}


def render(report: Report, output_format: OutputFormat, out: TextIO) -> None:
    RENDERERS[output_format](report, out)
