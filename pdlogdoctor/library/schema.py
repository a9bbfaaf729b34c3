"""Reading the library's TOML files: one reader and one set of checks for every dialect.

The pattern files, `verdicts.toml`, `consequences.toml`, `frames.toml`, `profile.toml`, the line
formats (`formats/`) and the open-world layer's files (`open-world/`) are read with these, so a
malformed file is refused the same way whichever it is: a `PatternError` naming the file, the key
(`marker[3].regex`, `causes[0].window`) and what is wrong with it.
`where` is the file (and, for a table inside a list, the list and index: `verdicts.toml:
verdict[2]`); `key` is the place of a nested table, prefixed to the names checked in it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from enum import Enum
from pathlib import Path
from typing import Any, TypeVar

from ..model.errors import PatternError, did_you_mean
from .lazyregex import LazyRegex, RegexCompileError, compile_now

_E = TypeVar("_E", bound=Enum)
_DURATION_UNITS = {"s": 1.0, "m": 60.0, "h": 3600.0}


def read_toml(path: Path) -> dict[str, Any]:
    """The file's tables, or a PatternError naming it."""
    import tomllib  # here: a run whose library comes from the cache parses no TOML (cache.py)

    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise PatternError(str(path), None, f"cannot be read as TOML: {exc}") from exc


def placed(key: str | None, name: str) -> str:
    """`name` inside the table at `key`: `examples.match`, or `match` at the top."""
    return f"{key}.{name}" if key else name


def table(raw: Any, where: str, key: str | None) -> Mapping[str, Any]:
    if not isinstance(raw, dict):
        raise PatternError(where, key, "must be a table")
    return raw


def check_keys(
    raw: Mapping[str, Any], allowed: Iterable[str], required: Iterable[str], where: str, key: str | None = None
) -> None:
    """Refuse a key the dialect does not know (a typo would otherwise be ignored) and a missing one."""
    known = set(allowed)
    for name in raw:
        if name not in known:
            near = did_you_mean(name, known)
            raise PatternError(where, placed(key, name), f"unknown key ({near})" if near else "unknown key")
    for name in required:
        if name not in raw:
            raise PatternError(where, placed(key, name), "missing required key")


def string(raw: Mapping[str, Any], name: str, where: str, key: str | None = None) -> str:
    value = raw.get(name)
    if not isinstance(value, str) or not value.strip():
        raise PatternError(where, placed(key, name), "must be a non-empty string")
    return value


def string_list(raw: Mapping[str, Any], name: str, where: str, key: str | None = None) -> tuple[str, ...] | None:
    """A list of non-empty strings, or None when the key is absent."""
    value = raw.get(name)
    if value is None:
        return None
    if not isinstance(value, list) or not all(isinstance(item, str) and item for item in value):
        raise PatternError(where, placed(key, name), "must be a list of non-empty strings")
    return tuple(value)


def names(raw: Mapping[str, Any], name: str, where: str, key: str | None = None) -> tuple[str, ...]:
    """A key holding one name or a list of names (empty when absent)."""
    value = raw.get(name, [])
    listed = [value] if isinstance(value, str) else value
    if not isinstance(listed, list) or not all(isinstance(item, str) and item for item in listed):
        raise PatternError(where, placed(key, name), "must be a name or a list of names")
    return tuple(listed)


def flag(raw: Mapping[str, Any], name: str, where: str, key: str | None = None) -> bool:
    value = raw.get(name, False)
    if not isinstance(value, bool):
        raise PatternError(where, placed(key, name), "must be true or false")
    return value


def one_of(raw: Mapping[str, Any], name: str, allowed: Iterable[str], where: str, key: str | None = None) -> str:
    value, choices = raw.get(name), tuple(allowed)
    if value not in choices:
        raise PatternError(where, placed(key, name), f"'{value}' is not one of: {', '.join(choices)}")
    return str(value)


def member(cls: type[_E], value: Any, where: str, key: str) -> _E:
    """`value` as a member of the enumeration `cls` (Severity, Kind, Tier, Mark ...)."""
    try:
        return cls(str(value))
    except ValueError:
        allowed = ", ".join(str(item.value) for item in cls)
        raise PatternError(where, key, f"'{value}' is not one of: {allowed}") from None


def regex(raw: Mapping[str, Any], name: str, where: str, key: str | None = None, flags: int = 0) -> LazyRegex:
    """The key's regex (the `regex` module's syntax), compiled now so a bad one is refused at load."""
    source = string(raw, name, where, key)
    try:
        return compile_now(source, flags)
    except RegexCompileError as exc:
        raise PatternError(where, placed(key, name), f"does not compile: {exc}") from None


def duration(value: Any, where: str, key: str) -> float:
    """`90`, `"90s"`, `"30m"`, `"2h"` -> seconds."""
    if isinstance(value, int | float) and not isinstance(value, bool):
        return float(value)
    text = str(value).strip()
    try:
        if text and text[-1] in _DURATION_UNITS:
            return float(text[:-1]) * _DURATION_UNITS[text[-1]]
        return float(text)
    except ValueError:
        raise PatternError(where, key, f"'{value}' is not a duration like 30s, 10m, 2h") from None


def examples(
    raw: Mapping[str, Any], where: str, key: str | None = None, *, what: str = "line", extra: Iterable[str] = ()
) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The `[examples]` table every entry tests itself with: `match` lines (real ones) and
    `no_match` near misses, at least one of each; `extra` names further keys the dialect allows."""
    place = placed(key, "examples")
    found = raw.get("examples")
    if not isinstance(found, dict):
        raise PatternError(where, place, "must be a table with match and no_match lists")
    check_keys(found, {"match", "no_match", *extra}, ("match", "no_match"), where, place)
    match, no_match = found["match"], found["no_match"]
    if not isinstance(match, list) or not match:
        raise PatternError(where, f"{place}.match", f"needs at least one real {what}")
    if not isinstance(no_match, list) or not no_match:
        raise PatternError(where, f"{place}.no_match", f"needs at least one {what}")
    return tuple(map(str, match)), tuple(map(str, no_match))
