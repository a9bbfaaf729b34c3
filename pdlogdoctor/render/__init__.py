"""Renderers: one module per output format, each a pure `render(report, out, options)`.

A renderer writes only to `out` and reads nothing but its arguments: the pipeline
has already read everything the report shows (the excerpt included), and the CLI
writes any other file (GitHub's step summary and outputs: step_files.py).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import TextIO, cast

from ..model import OutputFormat, Report
from .options import RenderOptions

Renderer = Callable[[Report, TextIO, RenderOptions], None]

# The module of each format's renderer, imported when it is used: a run loads only what it prints.
RENDERERS: dict[OutputFormat, str] = {
    OutputFormat.TEXT: "text",
    OutputFormat.JSON: "json_format",
    OutputFormat.MARKDOWN: "markdown",
    OutputFormat.GITHUB: "github",
    OutputFormat.HTML: "html",
    OutputFormat.JUNIT: "junit",
}
# Formats meant to be shared (pasted into an issue, uploaded by CI): redacted unless --no-redact.
SHAREABLE = (OutputFormat.MARKDOWN, OutputFormat.GITHUB, OutputFormat.HTML, OutputFormat.JUNIT)
# Formats whose output (or whose side files) show the evidence excerpt: the run reads it for them.
SHOWS_EXCERPT = frozenset({OutputFormat.MARKDOWN, OutputFormat.GITHUB, OutputFormat.HTML, OutputFormat.JSON})


def renderer(output_format: OutputFormat) -> Renderer:
    module = importlib.import_module(f"{__name__}.{RENDERERS[output_format]}")
    return cast(Renderer, module.render)


def render(report: Report, output_format: OutputFormat, out: TextIO, options: RenderOptions | None = None) -> None:
    renderer(output_format)(report, out, options or RenderOptions())
