"""What a renderer is told besides the report: plain values, decided by the CLI."""

from __future__ import annotations

from ..model.values import record


@record
class RenderOptions:
    redact: bool = True  # mask secrets and infrastructure names (markdown and github; text and json never do)
    # Annotated sources that are plain files inside GITHUB_WORKSPACE, as (source name, path relative to it):
    # the only places a GitHub annotation can point at. The CLI finds them; renderers never touch files.
    workspace_files: tuple[tuple[str, str], ...] = ()
    abs_time: bool = False  # the chain shows UTC times on the reference clock instead of Δt from the root
    # The terminal report (text): the CLI decides these from the terminal, COLUMNS, --color and NO_COLOR.
    color: bool = False  # ANSI colour; never when the output is not a terminal unless asked for
    width: int = 80  # columns to wrap prose and clip log lines at
    verbose: bool = False  # list every input, and log lines unclipped
    changes_first: bool = False  # `pdlogdoctor diff`: the comparison with the baseline leads the text report

    def workspace_file(self, source: str) -> str | None:
        return dict(self.workspace_files).get(source)


PLAIN = RenderOptions(redact=False)
