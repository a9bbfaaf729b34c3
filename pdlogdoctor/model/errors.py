"""The one exception family that library code raises; the CLI catches its base."""

from __future__ import annotations


class PdlogdoctorError(Exception):
    """Base class: carries a message meant for the user and an optional hint."""

    def __init__(self, message: str, hint: str | None = None) -> None:
        super().__init__(message)
        self.hint = hint


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
