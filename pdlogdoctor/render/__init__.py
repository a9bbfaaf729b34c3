"""Renderers: one module per output format, each a pure `render(report, out, options)`.

A renderer writes only to `out` and reads nothing but its arguments: the pipeline
has already read everything the report shows (the excerpt included), and the CLI
writes any other file (GitHub's step summary and outputs: step_files.py).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TextIO

from ..model import OutputFormat, Report
from . import github, html, json_format, markdown, text
from .options import RenderOptions

Renderer = Callable[[Report, TextIO, RenderOptions], None]

RENDERERS: dict[OutputFormat, Renderer] = {
    OutputFormat.TEXT: text.render,
    OutputFormat.JSON: json_format.render,
    OutputFormat.MARKDOWN: markdown.render,
    OutputFormat.GITHUB: github.render,
    OutputFormat.HTML: html.render,
}
# Formats whose output (or whose side files) show the evidence excerpt: the run reads it for them.
SHOWS_EXCERPT = frozenset({OutputFormat.MARKDOWN, OutputFormat.GITHUB, OutputFormat.HTML})


def render(report: Report, output_format: OutputFormat, out: TextIO, options: RenderOptions | None = None) -> None:
    RENDERERS[output_format](report, out, options or RenderOptions())
