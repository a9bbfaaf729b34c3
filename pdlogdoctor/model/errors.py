"""The one exception family that library code raises; the CLI catches its base."""

from __future__ import annotations

from collections.abc import Iterable


class PdlogdoctorError(Exception):
    """Base class: carries a message meant for the user and an optional hint."""

    def __init__(self, message: str, hint: str | None = None) -> None:
        super().__init__(message)
        self.hint = hint


def did_you_mean(word: str, choices: Iterable[str]) -> str | None:
    """`did you mean 'X'?` for the one choice `word` is a misspelling of (as Click says it of a
    command or an option), or None when it is near none: a guess far off would mislead."""
    import difflib  # here: only a misspelt word pays for its import

    near = difflib.get_close_matches(word.strip().lower(), list(choices), n=1, cutoff=SPELLING_CUTOFF)
    return f"did you mean {near[0]!r}?" if near else None


SPELLING_CUTOFF = 0.75  # difflib's ratio: 'jsn'/'json' 0.86, 'alwys'/'always' 0.91; 'yaml'/'html' 0.5


class PatternError(PdlogdoctorError):
    """A pattern or verdict file is invalid; names the file and the key."""

    def __init__(self, path: str, key: str | None, problem: str) -> None:
        where = f"{path}: {key}" if key else path
        super().__init__(f"{where}: {problem}")
        self.path = path
        self.key = key
        self.problem = problem


class NothingReadable(PdlogdoctorError):
    """No input could be read at all."""
