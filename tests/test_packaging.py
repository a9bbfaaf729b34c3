"""The pattern library ships inside the wheel, not only in a source checkout."""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

from .conftest import ROOT


def test_wheel_contains_every_pattern_file(tmp_path: Path) -> None:
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "--quiet",
            "--no-deps",
            "--no-build-isolation",
            "-w",
            str(tmp_path),
            str(ROOT),
        ],
        check=True,
        capture_output=True,
    )
    wheel = next(tmp_path.glob("pdlogdoctor-*.whl"))
    members = set(zipfile.ZipFile(wheel).namelist())
    shipped = {
        f"pdlogdoctor/_library/{p.relative_to(ROOT / 'patterns').as_posix()}"
        for p in (ROOT / "patterns").rglob("*.toml")
    }
    assert shipped <= members, sorted(shipped - members)[:5]
    assert "pdlogdoctor/cli/main.py" in members
    assert "pdlogdoctor/render/redaction.toml" in members  # the redaction rules (render/secrets.py)
