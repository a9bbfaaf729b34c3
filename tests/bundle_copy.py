"""Copies of fixture bundles rewritten in tmp_path (never the fixtures themselves)."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path

from .conftest import FIXTURES

SEED = FIXTURES / "mori-mr-size-limit-seed"


def copy_bundle(
    bundle: Path, target: Path, rewrite: Callable[[str], str] = lambda text: text, rename: Callable[[str], str] = str
) -> Path:
    """`bundle` copied to `target` with every log's text (and name) passed through the rewrites."""
    target.mkdir(parents=True, exist_ok=True)
    for path in sorted(bundle.iterdir()):
        if path.name == "expected.toml":
            continue
        out = target / rename(path.name)
        if path.suffix in (".gz", ".zst"):
            shutil.copyfile(path, out)
        else:
            out.write_text(rewrite(path.read_text(encoding="utf-8")), encoding="utf-8")
    return target
