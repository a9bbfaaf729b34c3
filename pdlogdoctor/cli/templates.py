"""`pdlogdoctor templates`: the templates of every line of the inputs, most frequent first.

A user meeting an unknown log asks what kinds of line it holds; `patterns suggest` builds on
the same grouping. Inputs are read as `analyze` reads them (files, directories, .gz/.zst,
zip and tar archives in place, `-`), each line cleaned of a collector's prefix and stripped of
its time stamp, level and rank as the report strips them (`timeline.clean_line`,
`templates.body_of`), masked and grouped by the templater the report's "Unrecognised
errors" and the fingerprint use (`library/templates.py`). With `errors`, only the lines the
generic error layer calls errors (error or critical) and no pattern of the library names,
templated as the report templates them.

Memory is bounded on large inputs: the grouping keeps one entry per distinct masked message
(at most MAX_DISTINCT, past which a new one is counted in the group it fits best without
keeping its words), and line numbers up to MAX_LINES_KEPT over all templates (past that,
lines are counted but not listed: each template's `count` stays exact, its `lines` list is
then cut, and the output says so). The input itself is read in chunks, never whole.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from typing import BinaryIO, TextIO

from ..ingest import LogInput, Reader, discover
from ..library.errorlines import ErrorLayer
from ..library.patterns import Library, match_line
from ..library.templates import Group, Mask, Miner, body_of, template_of
from ..model import Severity
from ..scan.timeline import clean_line

CHUNK = 1 << 20
MAX_LINE = 64 << 10  # a longer line is cut: a template never needs more of it
MAX_LINES_KEPT = 2_000_000  # line numbers listed over all templates (about 60 MB as ints)
MAX_DISTINCT = 200_000  # distinct masked messages the grouping keeps
_FILE_SHIFT = 40  # a line reference is one int: input index above this bit, line number below


def templates_of_inputs(
    paths: list[str], library: Library, errors_only: bool, stdin: BinaryIO | None = None
) -> tuple[list[Group[int]], list[str], bool]:
    """The groups of the inputs' lines, most frequent first; the input names a reference's index
    points to; whether line lists were cut (MAX_LINES_KEPT)."""
    layer = library.errors
    masks: tuple[Mask, ...] = layer.masks if layer is not None else ()
    miner: Miner[int] = Miner(keep_total=MAX_LINES_KEPT, max_distinct=MAX_DISTINCT)
    names: list[str] = []
    for name, number, text in _lines(paths, stdin):
        masked = _masked(text, masks, layer if errors_only else None, library)
        if masked is None:
            continue
        if not names or names[-1] != name:
            names.append(name)
        miner.add(masked, ((len(names) - 1) << _FILE_SHIFT) | number)
    groups = sorted(miner.groups(), key=lambda group: (-group.count, group.first))
    return groups, names, miner.cut


def reference(ref: int, names: list[str]) -> dict[str, str | int]:
    return {"file": names[ref >> _FILE_SHIFT], "line": ref & ((1 << _FILE_SHIFT) - 1)}


def render_text(groups: list[Group[int]], names: list[str], out: TextIO) -> None:
    """One line per template: its count, where it first occurs, the template."""
    width = len(str(groups[0].count)) if groups else 1
    for group in groups:
        first = reference(group.members[0], names) if group.members else {"file": "?", "line": 0}
        out.write(f"{group.count:>{width}}  {first['file']}:{first['line']}  {group.template}\n")


def render_json(groups: list[Group[int]], names: list[str], cut: bool, out: TextIO) -> None:
    document: dict[str, object] = {
        "templates": [
            {
                "template": group.template,
                "count": group.count,
                "first": reference(group.members[0], names) if group.members else None,
                "lines": [reference(ref, names) for ref in group.members],
            }
            for group in groups
        ]
    }
    if cut:
        document["note"] = f"line lists hold the first {MAX_LINES_KEPT} lines over all templates; counts are exact"
    json.dump(document, out, separators=(",", ":"))
    out.write("\n")


def _masked(text: str, masks: tuple[Mask, ...], layer: ErrorLayer | None, library: Library) -> str | None:
    """The line's masked message; with `layer`, only for an error line no pattern names."""
    cleaned, _ = clean_line(text)
    if not cleaned.strip():
        return None
    if layer is None:
        return template_of(body_of(cleaned, library.formats), masks)
    hit = layer.classify(cleaned)
    if hit is None or hit.severity.rank < Severity.ERROR.rank or _named(cleaned, library):
        return None
    return hit.template


def _named(text: str, library: Library) -> bool:
    """Whether a pattern of the library recognises the line (the scanner's anchor is in it and it matches)."""
    return any(any(key in text for key in p.search_keys) and match_line(p, text) is not None for p in library.patterns)


def _lines(paths: list[str], stdin: BinaryIO | None) -> Iterator[tuple[str, int, str]]:
    """(input name, line number, line) of every input, members of archives in turn."""
    for log_input in discover(paths, stdin if stdin is not None else sys.stdin.buffer):
        for name, stream in _streams(log_input):
            with stream:
                for number, line in enumerate(_split(stream), start=1):
                    yield name, number, line


def _streams(log_input: LogInput) -> Iterator[tuple[str, Reader]]:
    if log_input.members is not None:
        yield from log_input.members()
    elif log_input.open is not None:
        yield log_input.name, log_input.open()
    else:
        for problem in log_input.problems:
            print(f"pdlogdoctor: {log_input.name}: not read: {problem.message}", file=sys.stderr)


def _split(stream: Reader) -> Iterator[str]:
    """The stream's lines, decoded, without their line break; a line longer than MAX_LINE is cut."""
    carry = b""
    while chunk := stream.read(CHUNK):
        block = carry + chunk
        lines = block.split(b"\n")
        carry = lines.pop()
        for line in lines:
            yield _decoded(line)
        if len(carry) > MAX_LINE:
            carry = carry[:MAX_LINE]  # the rest of this line joins it and is cut again: memory stays bounded
    if carry:
        yield _decoded(carry)


def _decoded(line: bytes) -> str:
    return line[:MAX_LINE].rstrip(b"\r").decode("utf-8", errors="replace")
