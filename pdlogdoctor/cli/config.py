"""A team's defaults: `pdlogdoctor.toml`, or `[tool.pdlogdoctor]` in `pyproject.toml`, and PDLOGDOCTOR_PATTERNS.

The nearest file from the working directory up wins (a `pdlogdoctor.toml` over a
`pyproject.toml` in the same directory); its `patterns` directories are relative to
it. Keys use the command-line spelling:

    patterns = ["ci/pdld-patterns"]   # or one string
    format = "markdown"
    fail-on = "cause"
    color = "never"
    known = ["ci/known-issues.toml"]   # the team's own known issues: tracker links by fingerprint or verdict

Command-line flags win over the file; `--patterns` adds to the file's and the
environment's directories.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from ..model.errors import PdlogdoctorError, did_you_mean
from ..model.values import record

CONFIG_NAME = "pdlogdoctor.toml"
PATTERNS_ENV = "PDLOGDOCTOR_PATTERNS"
KEYS = frozenset({"patterns", "format", "fail-on", "color", "known"})


class ConfigError(PdlogdoctorError):
    """The config file or PDLOGDOCTOR_PATTERNS is not usable."""


@record
class Config:
    source: Path | None = None  # the file the settings came from
    patterns: tuple[Path, ...] = ()
    format: str | None = None
    fail_on: str | None = None
    color: str | None = None
    known: tuple[Path, ...] = ()  # the team's known-issues files (library/known.py reads them)


def find_config(start: Path) -> Config:
    """The settings of the nearest config file at or above `start`; empty settings when there is none."""
    for directory in (start, *start.parents):
        own = directory / CONFIG_NAME
        if own.is_file():
            return _parse(own, _read(own))
        project = directory / "pyproject.toml"
        if project.is_file():
            try:
                table = _read(project).get("tool", {}).get("pdlogdoctor")
            except ConfigError:
                continue  # another project's broken pyproject.toml is not ours to judge
            if isinstance(table, dict):
                return _parse(project, table)
    return Config()


def _read(path: Path) -> dict[str, Any]:
    import tomllib  # here: no config file, no TOML parser to import

    try:
        with path.open("rb") as handle:
            return tomllib.load(handle)
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise ConfigError(f"{path}: {exc}") from None


def _parse(path: Path, table: Mapping[str, Any]) -> Config:
    unknown = sorted(set(table) - KEYS)
    if unknown:
        keys = f"the keys are {', '.join(sorted(KEYS))}"
        near = did_you_mean(unknown[0], KEYS)
        raise ConfigError(f"{path}: unknown key {unknown[0]!r}", f"{near} {keys}" if near else keys)
    patterns = _paths(path, table, "patterns", "a directory or a list of directories")
    known = _paths(path, table, "known", "a file or a list of files")
    strings = {key: table.get(key) for key in ("format", "fail-on", "color")}
    for key, value in strings.items():
        if value is not None and not isinstance(value, str):
            raise ConfigError(f"{path}: {key} must be a string")
    return Config(
        source=path,
        patterns=patterns,
        known=known,
        format=strings["format"],
        fail_on=strings["fail-on"],
        color=strings["color"],
    )


def _paths(path: Path, table: Mapping[str, Any], key: str, what: str) -> tuple[Path, ...]:
    """A key holding one path or a list of them, relative to the config file."""
    value = table.get(key, [])
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
        raise ConfigError(f"{path}: {key} must be {what}")
    return tuple(path.parent / item for item in value)


def environment_patterns() -> tuple[Path, ...]:
    """PDLOGDOCTOR_PATTERNS: directories separated by the platform's path separator (`:` on Unix)."""
    value = os.environ.get(PATTERNS_ENV, "")
    return tuple(Path(item) for item in value.split(os.pathsep) if item.strip())


def pattern_dirs(config: Config, flags: list[Path] | None) -> list[Path]:
    """The file's directories, then the environment's, then --patterns; each once."""
    seen: set[Path] = set()
    dirs: list[Path] = []
    for directory in (*config.patterns, *environment_patterns(), *(flags or [])):
        key = directory.resolve()
        if key not in seen:
            seen.add(key)
            dirs.append(directory)
    return dirs
