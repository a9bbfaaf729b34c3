"""Is a text file a log at all, or a document that holds the logs' words without anything having
happened: program source, or a table?

Any text is read: a one-line paste, prose, an issue body, a log of a component no format knows
are all read and their error lines ranked (a file no role marker names is an excerpt). Only a file
recognised for what else it is stays out of the evidence, and only when none of its lines is one a
component prints at run time (the catalogue of line formats, `patterns/formats/`):

- program source: most of its lines are statements (`patterns/formats/source.toml`: definitions,
  imports, block heads, a `raise` or a logger call that quotes a message). Its
  `logger.error("Failed to register memory ...")` and `raise RuntimeError("CUDA out of memory")`
  are code, not events;
- a table: a header row of column names and rows of the same number of comma- or tab-separated
  cells (a CSV of past runs and their error messages is a record of other nights, not this one).
  Lines that only share their commas are no table: a driver's `NVRM: Xid (PCI:...): 45, pid=...,
  name=python3, ...` lines have four cells each, and their first holds no column names.

Such a file is read, its lines are not used as evidence, and every report says so; the run still
gives a report (it is not "nothing readable", which only an input with no text at all is).
"""

from __future__ import annotations

import csv
from collections.abc import Sequence

from ..library.formats import Formats
from ..model import InputProblem, Source
from ..model.lazyre import lazy_re
from .records import starts_with_a_record
from .timeline import clean_line

NOT_SERVING_LOG = "not-a-serving-log"  # the problem code: read, but a document, not a log
NAMES_SHOWN = 5  # file names a note lists before it counts the rest
LINES_LOOKED_AT = 200  # of a file's head: what it is shows in its first lines
SOURCE_SHARE = 0.3  # of the non-blank lines: statements enough for a file of source
TABLE_SHARE = 0.8  # of the rows: with the header's number of cells, for a table
# A column's name: a word or a few (`error_message`, `Time (s)`, `exit code`); no `key=value`, no
# `who: what` and no sentence, which are a log line's.
COLUMN_NAME = lazy_re(r"[\w %#/().\[\]-]{1,40}")
MIN_ROWS = 3
MIN_CELLS = 3


def document_kind(head: str, formats: Formats) -> str | None:
    """What else than a log the file is ("program source", "a table"), or None: a log, an excerpt,
    prose or any other text, read as evidence. A file with a line of run-time output is a log."""
    lines = [line for line in (clean_line(raw)[0] for raw in head.splitlines()[:LINES_LOOKED_AT]) if line.strip()]
    if not lines or any(_run_time(line, formats) for line in lines) or starts_with_a_record(lines):
        return None
    code = [line for line in lines if not _data(line)]
    if code and sum(1 for line in code if formats.source(line)) >= SOURCE_SHARE * len(code):
        return "program source"
    return "a table" if _table(lines) else None


def not_serving_problem(kind: str) -> InputProblem:
    return InputProblem(
        NOT_SERVING_LOG,
        f"reads as {kind}, not a log (no line of it is one a component prints at run time): its lines are "
        "not used as evidence",
    )


def set_aside(sources: Sequence[Source]) -> list[str]:
    """The names of the inputs that were read but are documents, not logs."""
    return [s.name for s in sources if any(p.code == NOT_SERVING_LOG for p in s.problems)]


def set_aside_note(sources: Sequence[Source]) -> str | None:
    """The sentence every report format shows when files were set aside."""
    words, names = set_aside_words(sources), set_aside(sources)
    if words is None:
        return None
    shown = ", ".join(names[:NAMES_SHOWN]) + (
        f" and {len(names) - NAMES_SHOWN:,} more" if len(names) > NAMES_SHOWN else ""
    )
    return f"{words}: {shown}"


def set_aside_words(sources: Sequence[Source]) -> str | None:
    """That sentence up to the file names (a renderer that marks names up adds them itself)."""
    aside = len(set_aside(sources))
    if not aside:
        return None
    read = sum(1 for s in sources if s.bytes > 0)
    one = aside == 1
    return (
        f"{read - aside:,} of {read:,} files read are logs; "
        f"{'this one reads' if one else f'these {aside:,} read'} as program source or a table, and "
        f"{'its' if one else 'their'} lines were not used as evidence"
    )


# A line of a JSON document printed over several lines: a bracket alone, or a member (`"key": ...`).
# Its braces are no block's (a pretty-printed API answer is data, whatever its `{` and `}` look like).
_JSON_LINE = lazy_re(r'\s*(?:[\[\]{}],?\s*$|"[^"\n]*"\s*:)')


def _data(line: str) -> bool:
    return _JSON_LINE.match(line) is not None


def _run_time(line: str, formats: Formats) -> bool:
    indented = line.lstrip() if line[:1] in (" ", "\t") and line.lstrip()[:1] == "[" else line
    return formats.run_time(line) or (indented is not line and formats.run_time(indented))


def _table(lines: list[str]) -> bool:
    """A header row and rows of as many comma- or tab-separated cells (quoted cells may hold either)."""
    rows = lines[: LINES_LOOKED_AT // 4]
    if len(rows) < MIN_ROWS:
        return False
    for delimiter in (",", "\t"):
        parsed = list(csv.reader(rows, delimiter=delimiter))
        cells = [len(row) for row in parsed]
        if cells[0] < MIN_CELLS or not _column_names(parsed[0]):
            continue
        if sum(1 for n in cells if n == cells[0]) >= TABLE_SHARE * len(cells):
            return True
    return False


def _column_names(header: list[str]) -> bool:
    """The row names columns: every cell a name (a word or a few), none a log line's `who: what`."""
    return all(COLUMN_NAME.fullmatch(cell.strip()) is not None for cell in header)
