"""Where the shipped library lies: read by the loader, and by the catalogue of line formats when
lines are read without a library at hand."""

from __future__ import annotations

from pathlib import Path


def builtin_library_dir() -> Path:
    """The shipped library: inside the wheel, or `patterns/` beside the package."""
    packaged = Path(__file__).resolve().parent.parent / "_library"  # a plain path: importlib.resources costs start-up
    if packaged.is_dir():
        return packaged
    return Path(__file__).resolve().parent.parent.parent / "patterns"
