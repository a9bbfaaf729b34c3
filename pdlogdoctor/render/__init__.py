"""Renderers: one module per output format, each with `render(report, out[, options])`.

text and json take no options (never redacted); markdown and github take
RenderOptions (redaction, the Actions workspace and step summary).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TextIO

from ..model import OutputFormat, Report
from . import github, json_format, markdown, text
from .options import RenderOptions

Renderer = Callable[[Report, TextIO, RenderOptions], None]


def _plain(function: Callable[[Report, TextIO], None]) -> Renderer:
    def renderer(report: Report, out: TextIO, options: RenderOptions) -> None:
        function(report, out)

    return renderer


RENDERERS: dict[OutputFormat, Renderer] = {
    OutputFormat.TEXT: _plain(text.render),
    OutputFormat.JSON: _plain(json_format.render),
    OutputFormat.MARKDOWN: markdown.render,
    OutputFormat.GITHUB: github.render,
}


def render(report: Report, output_format: OutputFormat, out: TextIO, options: RenderOptions | None = None) -> None:
    RENDERERS[output_format](report, out, options or RenderOptions())
