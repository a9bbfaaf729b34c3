"""Whether a stream is a terminal a person watches: one answer for every live display (the
progress bar of a long scan, `--follow`'s status line) and for colour and width."""

from __future__ import annotations

import os
from typing import TextIO


def is_terminal(stream: TextIO | None) -> bool:
    """A terminal that can redraw a line: a tty, and not TERM=dumb (Emacs' shell, some CI consoles)."""
    if stream is None or os.environ.get("TERM") == "dumb":
        return False
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError):  # a closed or unusual stream
        return False
