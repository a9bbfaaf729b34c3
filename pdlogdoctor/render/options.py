"""What the shareable renderers need besides the report."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class RenderOptions:
    redact: bool = True  # only markdown and github mask secrets; text and json never do
    workspace: str | None = None  # GITHUB_WORKSPACE: annotations get file= only for files inside it
    step_summary: str | None = None  # GITHUB_STEP_SUMMARY: github also appends the markdown report here
    step_outputs: str | None = None  # GITHUB_OUTPUT: github also sets the step outputs verdict and fingerprint
