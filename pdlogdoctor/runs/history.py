"""`triage --history FILE`: the runs triage has seen, kept in SQLite (the standard library's).

A nightly job adds its one run; `triage --history FILE` then groups every run kept. Adding a run
that is already there replaces it (the same key: history.run_key), so re-running a job never
counts a night twice. The file says its schema version; a file of a newer version is refused
rather than misread, and an older one is brought up to date in place.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable
from contextlib import closing
from pathlib import Path

from ..model.errors import PdlogdoctorError
from ..model.triage import KnownRef, RunRecord

SCHEMA_VERSION = 1
_CREATE = (
    "CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
    """CREATE TABLE IF NOT EXISTS runs (
        key TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        path TEXT NOT NULL,
        time REAL,
        verdict TEXT NOT NULL,
        title TEXT NOT NULL,
        confidence REAL NOT NULL,
        fingerprint TEXT NOT NULL,
        summary TEXT NOT NULL,
        green INTEGER NOT NULL,
        readable INTEGER NOT NULL,
        known TEXT NOT NULL,
        error TEXT NOT NULL
    )""",
    "CREATE INDEX IF NOT EXISTS runs_fingerprint ON runs (fingerprint)",
)
_COLUMNS = "key, name, path, time, verdict, title, confidence, fingerprint, summary, green, readable, known, error"


class HistoryError(PdlogdoctorError):
    """The history file cannot be used."""


def _open(path: Path) -> sqlite3.Connection:
    try:
        connection = sqlite3.connect(path)
        connection.execute("PRAGMA journal_mode=WAL")  # a reader never blocks the nightly job's write
    except sqlite3.Error as exc:
        raise HistoryError(f"{path}: cannot be opened as a triage history: {exc}") from None
    return connection


def _checked(connection: sqlite3.Connection, path: Path) -> None:
    """Create the tables of a new file; refuse a file of a newer schema or not a history at all."""
    try:
        for statement in _CREATE:
            connection.execute(statement)
        row = connection.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone()
    except sqlite3.Error as exc:
        raise HistoryError(f"{path}: not a triage history: {exc}") from None
    if row is None:
        connection.execute("INSERT INTO meta VALUES ('schema_version', ?)", (str(SCHEMA_VERSION),))
    elif not row[0].isdigit() or int(row[0]) > SCHEMA_VERSION:
        raise HistoryError(
            f"{path}: history schema version {row[0]} is newer than this pdlogdoctor's ({SCHEMA_VERSION})",
            "upgrade pdlogdoctor, or start a new history file",
        )


def add_runs(path: Path, runs: Iterable[RunRecord]) -> int:
    """Keep `runs` in the history at `path` (created if missing); a run already kept is replaced.
    Returns how many runs the history holds."""
    with closing(_open(path)) as connection, connection:
        _checked(connection, path)
        connection.executemany(
            f"INSERT OR REPLACE INTO runs ({_COLUMNS}) VALUES ({', '.join('?' * 13)})",
            [_row(run) for run in runs],
        )
        (count,) = connection.execute("SELECT COUNT(*) FROM runs").fetchone()
    return int(count)


def read_runs(path: Path) -> list[RunRecord]:
    if not path.is_file():
        raise HistoryError(f"{path}: no such history file", "add a run first: pdlogdoctor triage --history FILE RUN")
    with closing(_open(path)) as connection, connection:
        _checked(connection, path)
        rows = connection.execute(f"SELECT {_COLUMNS} FROM runs").fetchall()
    return [_record(row) for row in rows]


def _row(run: RunRecord) -> tuple[object, ...]:
    known = json.dumps([[ref.link, ref.title, ref.words] for ref in run.known])
    return (
        run.key, run.name, run.path, run.time, run.verdict, run.title, run.confidence, run.fingerprint,
        run.summary, int(run.green), int(run.readable), known, run.error,
    )  # fmt: skip


def _record(row: tuple[object, ...]) -> RunRecord:
    key, name, path, time, verdict, title, confidence, fingerprint, summary, green, readable, known, error = row
    return RunRecord(
        key=str(key),
        name=str(name),
        path=str(path),
        time=float(time) if isinstance(time, int | float) else None,
        verdict=str(verdict),
        title=str(title),
        confidence=float(confidence) if isinstance(confidence, int | float) else 0.0,
        fingerprint=str(fingerprint),
        summary=str(summary),
        green=bool(green),
        readable=bool(readable),
        known=tuple(KnownRef(*item) for item in json.loads(str(known))),
        error=str(error),
    )
