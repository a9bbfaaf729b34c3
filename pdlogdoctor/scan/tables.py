"""A results table's row read with its header: which way each of its change columns points.

People post benchmark and accuracy comparisons as Markdown tables, one row per run or image, with a
column of percentages beside each measure (`| TTFT | Improvement | TPOT | Improvement |` over
`| 79.8 | -53.73% | 22.59 | -11.50% |`: vllm-ascend's regression between two releases). No harness
prints FAIL there, and a row alone cannot say whether `-53.73%` is worse or better: the header says
it. A column named for an improvement (a gain, a speed-up) is worse when negative; one named for a
regression (a slowdown, a degradation) is worse when positive; one named for a change (a diff, a
delta, `vs`) points the way its measure does: a throughput, a rate or an accuracy is better higher,
a latency or a duration lower (model/measures.py), the measure named in the column's own header,
else the nearest measure column to its left, else the row's first cell (a `| Metric | Before |
After | Change |` table). Any other percentage (an accuracy of 95 %, a cache hit rate) is a value,
not a change, and is not judged.

`read_row` returns the worst change of the row (`worse`, a share: 0.54 for 54 % worse), the column
(`metric`), the cell (`change`) and the header line (`header`); nothing when no column is judged.

The other readers start at a table's header and read the rows below it, each returning the worst
measure with its two values and the sides compared: `read_sides_below` (a baseline column and a
candidate column), `read_releases_below` (a row per release, each later one against the first),
`read_variants_below` (a whitespace-aligned table of one model's variants),
`read_configurations_below` (a row per configuration, the first the reference) and
`read_model_rows_below` (a table of models, each model's rows against its best); the last three judge
accuracy columns only.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from itertools import islice, takewhile
from typing import NamedTuple

from ..model import FieldValue
from ..model.lazyre import lazy_re
from ..model.measures import BETTER_HIGHER, BETTER_LOWER, directed
from ..model.values import record
from .timeline import bare_line

ROWS_ABOVE = 200  # table lines read above a row for its header
_SEPARATOR_CELL = lazy_re(r"^:?-{2,}:?$")
_PERCENT = lazy_re(r"^\(?([-+−]?\d+(?:\.\d+)?)\s*%\)?$")
# A row's status cell: its harness judged the row against its own allowance (gate-table-status-fail
# reads a failed one).
_JUDGED_BY_ITS_HARNESS = lazy_re(r"(?i)^(?:[✅✓✔❌✗✘]\s*)?(?:pass(?:ed)?|ok|success|fail(?:ed)?)$|^[✅✓✔❌✗✘]$")
IMPROVEMENT = lazy_re(r"(?i)improve|\bgain|speed-?up|\bbetter")
REGRESSION = lazy_re(r"(?i)regress|degrad|slow-?down|\bworse")
CHANGE = lazy_re(r"(?i)chang|\bdiff|delta|Δ|\bvs\.?(?:\s|$)|\bvariation|\bdeviation|\brel(?:ative)?\b")


def read_row(buf: bytes | bytearray, line_start: int, line_end: int) -> dict[str, FieldValue]:
    """The fields of the table row at `line_start`..`line_end`, read with the header above it."""
    row = cells_of(_text(buf, line_start, line_end))
    header = _header_above(buf, line_start)
    if row is None or header is None:
        return {}
    names = cells_of(header)
    if names is None or len(names) != len(row):
        return {}
    if any(_JUDGED_BY_ITS_HARNESS.match(cell) for cell in row):
        return {}  # a status cell says how the row fared: the harness's word, not ours
    judged = [j for j in (_judged(names, row, at) for at in range(len(row))) if j is not None]
    if not judged:
        return _undirected(names, row)
    worse, metric, change = max(judged)
    return {"worse": round(worse, 4), "metric": metric, "change": change, "header": header.strip()}


def _undirected(names: list[str], row: list[str]) -> dict[str, FieldValue]:
    """`undirected`: the header of a change column whose percentage no measure directs (`| vs healthy
    baseline |` over `+13.8%`: worse or better, the table does not say), when the row has one; such a
    row is no evidence that a check passed, nor that it failed (Library.unjudged)."""
    for at, name in enumerate(names):
        if CHANGE.search(name) and _PERCENT.match(row[at].replace(" ", "").strip("`*_")):
            return {"undirected": name}
    return {}


# A header cell that names the run before a change, and one that names the run after it
# (`| | main | this PR |`, `| Metric | Baseline | Optimized |`); or two releases (`| v0.8.5 | v0.9.0 |`).
# `Before` and `After` may name the change they stand either side of (`| Before #26496 | After #26496 |`:
# sgl-project/sglang#28224's bisection).
BASELINE_SIDE = lazy_re(
    r"(?i)^(?:before\b.*|baseline|base|main|master|old|ref(?:erence)?|original|previous|yesterday|w/o\b.*|without\b.*)"
    r"(?:\s*\(.*\))?$"
)
# A gate's report names the run it judged by what was measured (`| Measured | Baseline |`: Megatron-LM's
# CI performance table, its threshold beside them).
CANDIDATE_SIDE = lazy_re(
    r"(?i)^(?:after\b.*|(?:this |the )?pr(?: #?\d+)?|new|patched|candidate|optimi[sz]ed|fix(?:ed)?|w/\s.*|with\b.*"
    r"|measured|current|observed|actual|today)"
    r"(?:\s*\(.*\))?$"
)
# A release, its name before it (`vLLM 0.23`, `torch==2.9`) and a build's suffix after it (`1.4.0-patched`,
# `0.11.0rc1`, `2.9.0+cu128`).
RELEASE_CELL = lazy_re(r"^(?:[A-Za-z][\w-]{0,30}(?:==| ))?v?(\d+\.\d+(?:\.\d+)?)(?:[-+.]?[A-Za-z][\w.]{0,20})?$")
# A header's column named for a release and what was done to it (`0.10.1 stock`, `0.10.1 + this PR`:
# mozilla-ai/llamafile#974's three-way table).
RELEASE_SIDE = lazy_re(
    r"^(?:[A-Za-z][\w-]{0,30}(?:==| ))?v?(\d+\.\d+(?:\.\d+)?)(?:[-+.]?[A-Za-z][\w.]{0,20})?(?:\s+[^|]{1,40})?$"
)
COMMIT_CELL = lazy_re(r"^[0-9a-f]{7,40}$")  # a commit's hash, short or whole
# A header cell that names releases or the software they are of (table-releases-header's words).
RELEASE_HEADER = lazy_re(
    r"(?i)\b(?:version|release|build|runtime|commit|vllm|sglang|ollama|llama\.cpp|lmdeploy|tensorrt[-_]llm|trt[-_]?llm"
    r"|tgi|mlx|transformers|torch|pytorch|cuda|rocm|driver|image|tag)s?\b"
)
ROWS_BELOW = 40  # rows read below a header
_CELL_NUMBER = lazy_re(r"[-+−]?\d[\d,]*(?:\.\d+)?")


def read_sides_below(buf: bytes | bytearray, line_start: int, line_end: int, limit: int) -> dict[str, FieldValue]:
    """The worst row below a table header that names a baseline column and a candidate column (or
    two releases, the lower the baseline): for each row, the measure it names (its first cell, or
    the header's first cell), its two values, and how much worse the candidate's is, by which way
    the measure is better (model/measures.py); nothing when no row's measure says a way."""
    names = cells_of(_text(buf, line_start, line_end))
    sides = _sides(names) if names else None
    if names is None or sides is None or any(_names_a_change(name) for name in names):
        return {}  # a change column is table-change-worse's to read, row by row
    before, after = sides
    judged = [
        j for row in _rows_below(buf, line_end, limit, len(names)) if (j := _judged_sides(names, row, before, after))
    ]
    if not judged:
        return {}
    worse, metric, was, now, row = max(judged, key=lambda j: j[0])
    return _worst(worse, metric, was, now, row, f"{names[before]} -> {names[after]}")


def read_releases_below(buf: bytes | bytearray, line_start: int, line_end: int, limit: int) -> dict[str, FieldValue]:
    """The rows below a table header whose first column names releases (`| Version | output_tok/s |
    tpot_median (ms) |` over `| v0.16.0 | 16055.10 | 18.67 |` and `| v0.17.0 | 13305.99 | 22.40 |`):
    the lowest release's row is the baseline, each later release's a candidate (a release in the
    middle that regressed and one after it that recovered: ollama's 0.32.14 between 0.32.9 and
    0.32.15), and each column whose header names a measure with a known better way is judged; the
    worst is returned. Nothing when fewer than two releases differ, or no column is judged."""
    names = cells_of(_text(buf, line_start, line_end))
    if names is None or len(names) < 2 or any(_names_a_change(name) for name in names):
        return {}
    below = _rows_below(buf, line_end, limit, len(names), cut=True)
    key = _release_column(names, below)
    rows = [row for row in below if RELEASE_CELL.match(_release_text(row[key]).strip("`* "))]
    releases = {_release(_release_text(row[key]).strip("`* ")): row for row in rows}
    if len(releases) < 2:
        return _read_commits(names, below)
    low = releases[min(releases)]
    return _judged_against(names, low, list(releases.values()), key)


def _release_column(names: list[str], rows: list[list[str]]) -> int:
    """The column that names the rows' releases: the first, unless another one's header names a
    release or an engine and two rows or more hold a release there (`| Date | vLLM ROCm | Token
    Throughput / GPU |` over `| 2026-03-27 | **v0.18.0** | ~1,223 tok/s/gpu |`: vllm-project/vllm#43153,
    a blind round's excerpt)."""
    for at, name in enumerate(names):
        held = sum(1 for row in rows if RELEASE_CELL.match(_release_text(row[at]).strip("`* ")))
        if held >= 2 and (at == 0 or RELEASE_HEADER.search(name)):
            return at
    return 0


def _read_commits(names: list[str], below: list[list[str]]) -> dict[str, FieldValue]:
    """Rows named by commits (`| cc3d965 | Nov 19 | 119.96 |` then `| 635bc0a | Dec 10 | 157.55 |`:
    tenstorrent/tt-metal#34195), a note after the hash allowed (`8dd1b702f (parent commit)`, a
    bisection's table): a hash says no order of its own, so the table's is taken, the first commit the
    baseline, as a table of a metric over time or a bisection is written. Rows named otherwise are
    judged against the one row whose name says it is the baseline (`b10356 official (baseline)`)."""
    rows = [row for row in below if COMMIT_CELL.match(_release_text(row[0]).strip("`* "))]
    if len({row[0] for row in rows}) < 2:
        return _read_against_baseline_row(names, below)
    return _judged_against(names, rows[0], rows)


# A row's name that says it is the reference the others are measured against (`b10356 official
# (baseline)`: ggml-org/llama.cpp#26918's builds; `main (before)`).
BASELINE_ROW = lazy_re(r"(?i)(?:^|[\s(\[])(?:baseline|reference|before)(?:$|[\s)\]])")


def _read_against_baseline_row(names: list[str], below: list[list[str]]) -> dict[str, FieldValue]:
    """Each run's row against the one row named as the baseline; nothing when no row, or more than
    one, is. A row that states the change between runs (`| Change | +1.00% | ...`) is none of them."""
    runs = [row for row in below if not _names_a_change(row[0]) and not any("%" in cell for cell in row[1:])]
    named = [row for row in runs if BASELINE_ROW.search(row[0].strip("`* "))]
    if len(named) != 1:
        return {}
    return _judged_against(names, named[0], runs)


def _judged_against(names: list[str], low: list[str], rows: list[list[str]], key: int = 0) -> dict[str, FieldValue]:
    """The worst of each later row's judged columns against the baseline row `low`; `key` is the
    column that names the rows, never judged (nor a column left of it: a date)."""
    judged = [
        (*j, later)
        for later in rows
        if later is not low
        for at in range(key + 1, len(names))
        if (j := _judged_columns(names[at], low[at], later[at]))
    ]
    if not judged:
        return {}
    worse, metric, was, now, later = max(judged, key=lambda j: j[0])
    return _worst(worse, metric, was, now, "| " + " | ".join(later) + " |", f"{low[key]} -> {later[key]}")


def read_speedup_below(buf: bytes | bytearray, line_start: int, line_end: int, limit: int) -> dict[str, FieldValue]:
    """The rows below a header whose last column is a speedup, the candidate's measure over the
    baseline's (llama.cpp's compare-llama-bench: `| Model | Test | t/s <old> | t/s <new> | Speedup |`,
    ggml-org/llama.cpp#24216): a row below 1 is the candidate slower; the worst row is returned, its
    two measures the columns just before the speedup. Nothing when no row reads as a ratio."""
    names = cells_of(_text(buf, line_start, line_end))
    if names is None or len(names) < 3 or not SPEEDUP_COLUMN.match(names[-1]):
        return {}
    found = []
    for row in _rows_below(buf, line_end, limit, len(names)):
        ratio, was, now = (_cell_number(cell) for cell in (row[-1], row[-3], row[-2]))
        if ratio is not None and ratio > 0 and was is not None and now is not None:
            found.append((1 - ratio, was, now, row))
    if not found:
        return {}
    worse, was, now, row = max(found, key=lambda item: item[0])
    metric = " ".join(cell for cell in row[:-3] if cell) + f" ({names[-3]} -> {names[-2]})"
    return _worst(worse, metric, was, now, "| " + " | ".join(row) + " |", f"{names[-3]} -> {names[-2]}")


SPEEDUP_COLUMN = lazy_re(r"(?i)^speed-?up(?:\s*\(x\)|\s*x)?$")


BUILD_LINE = lazy_re(r"^build: (?P<commit>[0-9a-f]{7,40}) \((?P<number>\d+)\)$")


def read_builds_above(buf: bytes | bytearray, line_start: int, line_end: int, limit: int) -> dict[str, FieldValue]:
    """Two llama-bench tables, each closed by the build that measured it (`build: 9d5949f (1552)`,
    ggml-org/llama.cpp#5986): the table right above this build line and the one above the build
    line before it, their rows paired by every cell but the model's (a release renames a model's
    type: `Q4_0` was `mostly Q4_0`) and judged by each measure column, the lower build the baseline
    whatever the paste's order. The worst row is returned; nothing when no earlier build and table
    are above, their headers differ, or no row pairs."""
    this = BUILD_LINE.match(_text(buf, line_start, line_end).strip())
    if this is None:
        return {}
    lines = _lines_above(buf, line_start)
    table, rest = _table_block(lines)
    earlier = BUILD_LINE.match(rest[0].strip()) if rest else None
    if not table or earlier is None:
        return {}
    other, _ = _table_block(rest[1:])
    if not other or other[0] != table[0]:
        return {}
    builds = sorted([(int(earlier["number"]), earlier["commit"], other), (int(this["number"]), this["commit"], table)])
    (old, old_commit, was_rows), (new, new_commit, now_rows) = builds
    if old == new:
        return {}
    judged = _paired_rows(table[0], was_rows[1:], now_rows[1:])
    if not judged:
        return {}
    worse, metric, was, now, row = max(judged, key=lambda j: j[0])
    return _worst(worse, metric, was, now, row, f"build {old_commit} ({old}) -> build {new_commit} ({new})")


# Prose between two pasted tables (`while when using vllm, the performance is:`) is read past, up to
# this many lines, to the earlier table.
PROSE_BETWEEN = 12


def read_earlier_row_above(buf: bytes | bytearray, line_start: int, line_end: int, limit: int) -> dict[str, FieldValue]:
    """A results table's row (lm-eval's `|gsm8k_cot| 3|flexible-extract| 8|exact_match|↑ |0.6719|± |0.0417|`)
    and the same row of the table printed before it in the file: the nearest table above with the same
    header, a few lines of prose between them allowed, its row of the same task, filter, shots and
    metric (a row that leaves its task blank is its task above's). A paste that prints one evaluation
    twice compares two runs (`hf` then `vllm`, `main` then a PR): with no label to say which is which,
    the earlier is the baseline, as the lines were printed. The row's value is judged by which way
    its metric is better (an accuracy or a score higher, a perplexity lower). Nothing when no earlier
    table of the same header holds the row, or the metric says no way."""
    # the row's table (ROWS_ABOVE lines at most) and the lines above it the earlier table is looked for in
    here = _table_upward(list(islice(_upward(buf, line_start), 2 * ROWS_ABOVE + 2)))
    row = cells_of(_text(buf, line_start, line_end))
    if here is None or row is None or len(row) != len(here.header):
        return {}
    key = _row_key(here.header, [*here.rows_above, row])
    earlier = _earlier_table(here.lines_above, here.header)
    if key is None or earlier is None:
        return {}
    base = next((r for at, r in enumerate(earlier) if _row_key(here.header, earlier[: at + 1]) == key), None)
    value_at = _value_column(here.header)
    if base is None or value_at is None:
        return {}
    metric = " ".join(part for part in key if part and not part.isdigit())  # the shots are no measure's name
    judged = _judged_columns(metric, base[value_at], row[value_at]) if _directed(metric) else None
    if judged is None:
        return {}
    worse, name, was, now = judged
    return _worst(worse, name, was, now, "| " + " | ".join(row) + " |", "the earlier table -> the later")


class _TableAbove(NamedTuple):
    """A table row's header, the rows between the header and the row (top down) and the file's lines
    above the header (nearest first)."""

    header: list[str]
    rows_above: list[list[str]]
    lines_above: list[str]


def _table_upward(lines: list[str]) -> _TableAbove | None:
    """The table a row is in, read from the lines above it (nearest first): its header is the line
    above its separator row."""
    rows: list[list[str]] = []
    for at, line in enumerate(lines[:ROWS_ABOVE]):
        cells = cells_of(line)
        if cells is None:
            return None
        if separator_row(cells):
            header = cells_of(lines[at + 1]) if at + 1 < len(lines) else None
            return _TableAbove(header, list(reversed(rows)), lines[at + 2 :]) if header else None
        rows.append(cells)
    return None


def _earlier_table(lines: list[str], header: list[str]) -> list[list[str]] | None:
    """The rows (top down) of the nearest table above with this header, past at most PROSE_BETWEEN
    lines that are no table's and past tables of other headers (lm-eval prints its groups' table
    under its tasks')."""
    prose, at = 0, 0
    while at < min(len(lines), ROWS_ABOVE) and prose <= PROSE_BETWEEN:
        if cells_of(lines[at]) is None:
            prose += 1 if lines[at].strip() else 0
            at += 1
            continue
        block, rest = _table_block(lines[at:])  # up to the first line that is no table's (a blank one)
        if block and block[0] == header:
            return block[1:]
        at += max(len(lines) - at - len(rest), 1)
    return None


# The cells that say which result a row of an evaluation's table is: lm-eval's and lmms-eval's
# `|Tasks|Version|Filter|n-shot|Metric|`.
_KEY_COLUMNS = lazy_re(r"(?i)^(?:tasks?|groups?|filter|n-shot|metric)$")
_VALUE_COLUMN = lazy_re(r"(?i)^value$")


def _row_key(header: list[str], rows: list[list[str]]) -> tuple[str, ...] | None:
    """The last row's task, filter, shots and metric, a blank key cell taken from the rows above it."""
    keys = [at for at, name in enumerate(header) if _KEY_COLUMNS.match(name)]
    if len(keys) < 2 or any(len(row) != len(header) for row in rows):
        return None
    found: list[str] = []
    for at in keys:
        cell = next((row[at] for row in reversed(rows) if row[at]), "")
        found.append(cell.replace("_", " "))
    return tuple(found)


def _value_column(header: list[str]) -> int | None:
    values = [at for at, name in enumerate(header) if _VALUE_COLUMN.match(name)]
    return values[0] if len(values) == 1 else None


def _lines_above(buf: bytes | bytearray, line_start: int) -> list[str]:
    """Up to ROWS_ABOVE lines above a line, nearest first, blank ones left out."""
    return list(islice((text for text in _upward(buf, line_start) if text.strip()), ROWS_ABOVE))


def _table_block(lines: list[str]) -> tuple[list[list[str]], list[str]]:
    """The table at the head of `lines` (nearest first) as its header's cells then its rows', top
    down, without its separator row, and the lines above it; no table when it has no separator row."""
    taken = 0
    while taken < len(lines) and cells_of(lines[taken]) is not None:
        taken += 1
    rows = [cells_of(line) or [] for line in reversed(lines[:taken])]
    separators = [at for at, cells in enumerate(rows) if separator_row(cells)]
    if separators != [1]:
        return [], lines[taken:]
    return [rows[0], *rows[2:]], lines[taken:]


def _paired_rows(
    names: list[str], was_rows: list[list[str]], now_rows: list[list[str]]
) -> list[tuple[float, str, float, float, str]]:
    """(how much worse, the measure, the baseline's value, the candidate's, the row) of each measure
    of each candidate row whose other cells but the first match a baseline row's; a measure is named
    by the cell just before its column (llama-bench's test: `pp 32 (t/s)`)."""
    measures = [at for at, name in enumerate(names) if _directed(name)]
    keys = [at for at in range(1, len(names)) if at not in measures]
    baseline = {tuple(row[at] for at in keys): row for row in was_rows if len(row) == len(names)}
    judged = []
    for row in now_rows:
        base = baseline.get(tuple(row[at] for at in keys)) if len(row) == len(names) else None
        if base is None:
            continue
        for at in measures:
            if (j := _judged_columns(names[at], base[at], row[at])) is not None:
                worse, name, was, now = j
                test = row[max(k for k in keys if k < at)] if any(k < at for k in keys) else row[0]
                judged.append((worse, f"{test} ({name})", was, now, "| " + " | ".join(row) + " |"))
    return judged


def _release_text(cell: str) -> str:
    """A release cell without what a table adds after the release (`0.32.15 (pre-release)`)."""
    return re.sub(r"\s*\([^)]*\)\s*$", "", cell)


# A whitespace-aligned table (pandas' print, a script's summary): its columns are runs of text two or
# more blanks apart; a row is a name and numbers, a header line names the columns and holds no number.
_ALIGNED_CELL = lazy_re(r"\S+(?: \S+)*")
_NUMBER_CELL = lazy_re(r"^[-+−]?\d[\d,]*(?:\.\d+)?%?$")
# What an accuracy column is named by: a score, or the task it scores.
ACCURACY_COLUMN = lazy_re(
    r"(?i)(?<![a-z])(?:acc(?:uracy)?(?:_norm)?|score|exact_match|em|f1|pass@\d+|gsm8k|mmlu\w*|ifeval|gpqa\w*"
    r"|arc_\w+|hellaswag|humaneval|winogrande|truthfulqa\w*|math\w*)(?![a-z])"
)
VARIANT_JOIN = "_-.+/ ("  # what follows a baseline's name at the start of a variant's (`llama_8b_swiftkv`)
HEADER_LINES = 3  # header lines read under a table's first (pandas prints a column level per line)


@record
class _Aligned:
    """A line of a whitespace-aligned table: its cells, the column each ends at, and the line."""

    cells: tuple[str, ...]
    ends: tuple[int, ...]
    text: str

    @classmethod
    def of(cls, line: str) -> _Aligned:
        found = list(_ALIGNED_CELL.finditer(line))
        return cls(tuple(m.group() for m in found), tuple(m.end() for m in found), line.strip())

    @property
    def is_row(self) -> bool:
        """A name and two numbers or more, nothing else."""
        rest = self.cells[1:]
        return len(rest) >= 2 and not _NUMBER_CELL.match(self.cells[0]) and all(map(_NUMBER_CELL.match, rest))

    @property
    def is_header(self) -> bool:
        return len(self.cells) >= 3 and not any(_NUMBER_CELL.match(cell) for cell in self.cells)


def read_variants_below(buf: bytes | bytearray, line_start: int, line_end: int, limit: int) -> dict[str, FieldValue]:
    """A whitespace-aligned results table whose rows are variants of one model (`llama_8b`, then
    `llama_8b_swiftkv`, `llama_8b_spec`: ArcticInference's summary) judged on its accuracy columns:
    the first row whose name begins a later row's is the baseline, and a variant is worse by how
    much lower its score is; the worst is returned. A variant is meant to keep the model's answers
    (a speculative decoder, a cache, a parallelism), so only accuracies are judged: its latency and
    throughput are what it changes. Nothing when the header line is not the table's first (its
    first line reads it), or no row is a variant of another."""
    if _header_line_above(buf, line_start):
        return {}
    headers, rows = _aligned_below(buf, line_start, line_end, limit)
    names = _column_names(headers, rows[0]) if rows else []
    base = _baseline_row(rows)
    if base is None:
        return {}
    judged = [
        (_lower_by(was, now), names[at], was, now, row)
        for row in rows
        if row is not base and _is_variant(row.cells[0], base.cells[0])
        for at in range(1, min(len(names), len(row.cells), len(base.cells)))
        if ACCURACY_COLUMN.search(names[at])
        and (was := _cell_number(base.cells[at])) is not None
        and (now := _cell_number(row.cells[at])) is not None
        and was > 0
    ]
    if not judged:
        return {}
    worse, metric, was, now, row = max(judged, key=lambda j: j[0])
    return _worst(worse, metric, was, now, row.text, f"{base.cells[0]} -> {row.cells[0]}")


# What a table's first column names when its rows are configurations of one model: its precision or
# quantisation, a setting, a backend (`| Precision | hellaswag | ... | gsm8k |`).
CONFIGURATION_COLUMN = lazy_re(
    r"(?i)^(?:precision|quant\w*|dtype|data ?type|config(?:uration)?|variant|method|setting|mode|backend|scheme"
    r"|arm|setup)s?$"
)


def read_configurations_below(
    buf: bytes | bytearray, line_start: int, line_end: int, limit: int
) -> dict[str, FieldValue]:
    """A Markdown table whose rows are configurations of one model, judged on its accuracy columns:
    the first row is the one the others are measured against (the unquantised model, the default
    setting: intel/auto-round#2067's `| bf16 | ... | 0.7119 |` over `| mxfp4_mixed ultrachat_200k |
    ... | 0.6376 |`), and a later row is worse by how much lower its score is; the worst is returned.
    As for variants, only accuracies are judged: speed is what a configuration changes."""
    names = cells_of(_text(buf, line_start, line_end))
    if names is None or len(names) < 2 or not CONFIGURATION_COLUMN.match(names[0]):
        return {}
    if any(_names_a_change(name) for name in names):
        return {}  # a change column is table-change-worse's to read, row by row
    rows = _rows_below(buf, line_end, limit, len(names), cut=True)
    if len(rows) < 2:
        return {}
    base = rows[0]
    judged = [
        (_lower_by(was, now), names[at], was, now, row)
        for row in rows[1:]
        for at in range(1, len(names))
        if ACCURACY_COLUMN.search(names[at])
        and (was := _cell_number(base[at])) is not None
        and (now := _cell_number(row[at])) is not None
        and was > 0
    ]
    if not judged:
        return {}
    worse, metric, was, now, row = max(judged, key=lambda j: j[0])
    return _worst(worse, metric, was, now, "| " + " | ".join(row) + " |", f"{base[0]} -> {row[0]}")


# What a table's first column names when its rows are runs of the same workload: the baseline's row
# and the candidate's, named by their first cells (`| Run | Commit | Wall | ... |`).
RUNS_COLUMN = lazy_re(r"(?i)^(?:runs?|build|branch|side)$")


def read_runs_below(buf: bytes | bytearray, line_start: int, line_end: int, limit: int) -> dict[str, FieldValue]:
    """A Markdown table whose rows are runs, the baseline's and the candidate's named by their first
    cells (`| Base | f4d922d | 2 | 17.075s | ...` then `| PR head | 3387750 | 2 | 17.157s | ...`:
    vllm-project/vllm-omni#4627's timings of a change and its merge base): each column whose measure
    says which way is better (its header, or the unit its cells write) judged, the candidate's worst
    change returned. Nothing when no row names a baseline and another a candidate."""
    names = cells_of(_text(buf, line_start, line_end))
    if names is None or len(names) < 3 or not RUNS_COLUMN.match(names[0]):
        return {}
    rows = _rows_below(buf, line_end, limit, len(names))
    base = next((row for row in rows if BASELINE_SIDE.match(row[0]) or BASE_RUN.match(row[0])), None)
    head = next((row for row in rows if CANDIDATE_SIDE.match(row[0]) or HEAD_RUN.match(row[0])), None)
    if base is None or head is None:
        return {}
    judged = [j for at in range(1, len(names)) if (j := _judged_columns(names[at], base[at], head[at]))]
    if not judged:
        return {}
    worse, metric, was, now = max(judged, key=lambda j: j[0])
    return _worst(worse, metric, was, now, "| " + " | ".join(head) + " |", f"{base[0]} -> {head[0]}")


# A run named as a branch's state: a merge base against a pull request's head.
BASE_RUN = lazy_re(r"(?i)^(?:merge[- ]base|upstream|trunk)\b")
HEAD_RUN = lazy_re(r"(?i)^(?:(?:this |the )?pr\b.*|head|branch)$")


MODEL_COLUMN = lazy_re(r"(?i)^models?(?: ?(?:name|id|path))?$")


def read_model_rows_below(buf: bytes | bytearray, line_start: int, line_end: int, limit: int) -> dict[str, FieldValue]:
    """A Markdown table of models whose rows name one model more than once, each under another setting
    in the other columns (`| Model | Quant | Attention backend | MMLU avg |`: sgl-project/sglang#26518,
    `nvidia/Gemma-4-26B-A4B-NVFP4` at 0.037 on `trtllm_mha` and 0.622 on `triton`). A model's own rows
    are its configurations: the lowest accuracy against the best of the same model, in each accuracy
    column, the worst of them returned. Rows of different models are never compared: they differ by
    what they are. The best row is the reference only after the fact, so the pattern asks more of it
    than of a table whose first row is named the reference."""
    names = cells_of(_text(buf, line_start, line_end))
    if names is None or len(names) < 3 or not MODEL_COLUMN.match(names[0]):
        return {}
    by_model: dict[str, list[list[str]]] = {}
    for row in _rows_below(buf, line_end, limit, len(names), cut=True):
        by_model.setdefault(row[0].strip("` "), []).append(row)
    accuracies = [at for at in range(1, len(names)) if ACCURACY_COLUMN.search(names[at])]
    drops = [drop for group in by_model.values() for at in accuracies if (drop := _drop(group, at)) is not None]
    if not drops:
        return {}
    worse, at, was, now, worst, best = max(drops, key=lambda drop: drop[0])
    sides = f"{_setting(best, worst)} -> {_setting(worst, best)}"
    return _worst(worse, names[at], was, now, "| " + " | ".join(worst) + " |", sides)


def _drop(group: list[list[str]], at: int) -> tuple[float, int, float, float, list[str], list[str]] | None:
    """(how much lower, the column, the best value, the lowest, the lowest row, the best row) of one
    model's rows in column `at`; None for a model on one row, or a column without two numbers."""
    numbered = [(value, row) for row in group if (value := _cell_number(row[at])) is not None]
    if len(numbered) < 2:
        return None
    (was, best), (now, worst) = max(numbered, key=lambda item: item[0]), min(numbered, key=lambda item: item[0])
    return (_lower_by(was, now), at, was, now, worst, best) if was > 0 else None


def _setting(row: list[str], other: list[str]) -> str:
    """What a model's row sets that its other row does not: the cells (past the model's) that differ
    and hold no number, or the model's name when none does."""
    differing = [a for a, b in zip(row[1:], other[1:], strict=False) if a != b and _cell_number(a) is None]
    return ", ".join(differing) if differing else row[0]


def _lower_by(was: float, now: float) -> float:
    """How much lower an accuracy is than its baseline's (a share): an accuracy column is better higher
    whatever its task is named (`hellaswag`, `piqa`: words model/measures.py does not know)."""
    return (was - now) / abs(was)


def _header_line_above(buf: bytes | bytearray, line_start: int) -> bool:
    if line_start <= 0:
        return False
    start = buf.rfind(b"\n", 0, line_start - 1) + 1
    return _Aligned.of(_text(buf, start, line_start - 1)).is_header


def _aligned_below(
    buf: bytes | bytearray, line_start: int, line_end: int, limit: int
) -> tuple[list[_Aligned], list[_Aligned]]:
    """The table's header lines (its first, and up to HEADER_LINES more) and its rows, up to the
    first line that is neither."""
    headers: list[_Aligned] = [_Aligned.of(_text(buf, line_start, line_end))]
    rows: list[_Aligned] = []
    start = line_end + 1
    while start < limit and len(rows) < ROWS_BELOW:
        end = buf.find(b"\n", start, limit)
        end = limit if end < 0 else end
        line = _Aligned.of(_text(buf, start, end))
        if line.is_row:
            rows.append(line)
        elif rows or len(headers) > HEADER_LINES or not line.is_header:
            break
        else:
            headers.append(line)
        start = end + 1
    return headers, rows


def _column_names(headers: list[_Aligned], first_row: _Aligned) -> list[str]:
    """Each column's name: the header cells that end where the row's cell ends (numbers and their
    names are aligned right), every header line's joined (`gsm8k` over `acc`: `gsm8k acc`)."""
    names = []
    for end in first_row.ends:
        words = [h.cells[at] for h in headers for at, e in enumerate(h.ends) if abs(e - end) <= 1]
        names.append(" ".join(words))
    return names


def _baseline_row(rows: list[_Aligned]) -> _Aligned | None:
    """The first row whose name begins another row's (the model the others are variants of)."""
    for row in rows:
        if any(other is not row and _is_variant(other.cells[0], row.cells[0]) for other in rows):
            return row
    return None


def _is_variant(name: str, base: str) -> bool:
    return len(name) > len(base) and name.startswith(base) and name[len(base)] in VARIANT_JOIN


def _worst(worse: float, metric: str, was: float, now: float, row: str, sides: str) -> dict[str, FieldValue]:
    """A comparison's worst measure as the fields its pattern reads (`worse` a share: 0.2 for 20 %)."""
    return {
        "worse": round(worse, 4),
        "metric": metric,
        "value": now,
        "baseline": was,
        "change": f"{(now - was) / abs(was):+.1%}",
        "row": row,
        "sides": sides,
    }


def _judged_columns(name: str, before: str, after: str) -> tuple[float, str, float, float] | None:
    """(how much worse, the measure, the baseline's value, the candidate's) of one column: named by
    its header, or, when the header says no way (`decode step p50`), by its values' own unit
    (`114.7 ms`)."""
    was, now = _cell_number(before), _cell_number(after)
    if was is None or now is None or was == 0:
        return None
    metric = name if _directed(name) else _with_unit(name, after)
    if not metric:
        return None
    return _worse_by(metric, was, now), metric, was, now


def _with_unit(name: str, cell: str) -> str:
    """The column's name with the unit its cell writes after the number, when the unit says which way
    is better; "" otherwise."""
    unit = _CELL_NUMBER.sub("", cell).strip(" ~≈*")
    return f"{name} ({unit})" if unit and _directed(unit) else ""


def _worse_by(metric: str, was: float, now: float) -> float:
    """How much worse `now` is than `was` (a share), by which way the metric is better."""
    change = (now - was) / abs(was)
    return -change if BETTER_HIGHER.search(_spaced(metric)) else change


def _sides(names: list[str]) -> tuple[int, int] | None:
    """(the baseline's column, the candidate's) of a header, None when it names no such pair."""
    before = [at for at, name in enumerate(names) if BASELINE_SIDE.match(name)]
    after = [at for at, name in enumerate(names) if CANDIDATE_SIDE.match(name)]
    if len(before) == 1 and len(after) == 1:
        return before[0], after[0]
    expected = _expected_pair(names)
    if expected is not None:
        return expected
    releases = [(_side_release(name), at) for at, name in enumerate(names) if RELEASE_SIDE.match(name)]
    lowest = min(releases, default=None)
    if lowest is None or sum(1 for release, _ in releases if release == lowest[0]) > 1:
        return None
    # The lowest release is the baseline; the first column of a later one (its stock build, before
    # the columns of what was done to it) the candidate.
    later = [at for release, at in releases if release > lowest[0]]
    return (lowest[1], later[0]) if later else None


# A column of what a measure should be beside the measure's own (`| Platform | Accuracy | Expected
# Accuracy |`: iree-org/wave#192, SGLang's wave attention backend on MI355X at 0.30 against 0.74): the
# expected column is the baseline, the measured one the candidate.
EXPECTED_SIDE = lazy_re(r"^(?:expected|target|published|reported|official|reference)\s+(.+?)$")  # read lower-cased


def _expected_pair(names: list[str]) -> tuple[int, int] | None:
    """(the expected column, the measured one) of a header that names a measure and what it should
    be (`Accuracy`, `Expected Accuracy`), None when it names no such pair."""
    bare = [name.strip("*_` ").lower() for name in names]
    for at, name in enumerate(bare):
        found = EXPECTED_SIDE.match(name)
        measured = [other for other, plain in enumerate(bare) if found and other != at and plain == found.group(1)]
        if len(measured) == 1:
            return at, measured[0]
    return None


def _names_a_change(name: str) -> bool:
    return bool(IMPROVEMENT.search(name) or REGRESSION.search(name) or CHANGE.search(name))


def _side_release(name: str) -> tuple[int, ...]:
    found = RELEASE_SIDE.match(name)
    return tuple(int(part) for part in found.group(1).split(".")) if found else ()


def _release(name: str) -> tuple[int, ...]:
    found = RELEASE_CELL.match(name)
    return tuple(int(part) for part in found.group(1).split(".")) if found else ()


def _rows_below(buf: bytes | bytearray, line_end: int, limit: int, width: int, cut: bool = False) -> list[list[str]]:
    """The table's rows below its header: past its separator row, up to the first line that is no
    row of as many cells (`cut`: or of fewer, a paste cut inside its last row, padded)."""
    rows: list[list[str]] = []
    start = line_end + 1
    while start < limit and len(rows) < ROWS_BELOW:
        end = buf.find(b"\n", start, limit)
        end = limit if end < 0 else end
        cells = cells_of(_text(buf, start, end))
        if cells is not None and cut and 2 <= len(cells) < width:
            cells += [""] * (width - len(cells))
        if cells is None or len(cells) != width:
            break
        if not separator_row(cells):
            rows.append(cells)
        start = end + 1
    return rows


def _judged_sides(
    names: list[str], row: list[str], before: int, after: int
) -> tuple[float, str, float, float, str] | None:
    """(how much worse, the measure, the baseline's value, the candidate's, the row) of one row."""
    was, now = _cell_number(row[before]), _cell_number(row[after])
    if was is None or now is None or was == 0:
        return None
    metric = _row_measure(row, names, before)
    unit = _CELL_NUMBER.sub("", row[after]).strip(" ~≈")
    if not metric and unit and _directed(unit):
        metric = f"{row[0]} ({unit})"  # the values' own unit says the way (`~104.4 tok/s`)
    named = _UNIT_IN_NAME.search(names[after])
    if not metric and named and _directed(named.group(1)):
        metric = f"{row[0]} ({named.group(1)})"  # the side's column names the unit (`Today (sps)`)
    if not metric and _directed(names[after]):
        # The side's column is the measure itself (`Accuracy` beside `Expected Accuracy`).
        metric = f"{row[0]} ({names[after]})"
    if not metric:
        return None
    return _worse_by(metric, was, now), metric, was, now, "| " + " | ".join(row) + " |"


_UNIT_IN_NAME = lazy_re(r"\(([^()]+)\)\s*$")
_VALUE_CELL = lazy_re(r"^[-+−~≈]?\d[\d,]*(?:\.\d+)?\s*\S{0,8}$")  # a measured value, its unit at most


def _row_measure(row: list[str], names: list[str], before: int) -> str:
    """The measure a row states, by the cells left of its values: its first cell, or a later label
    cell when the first names the model (`| Yi-1.5-9B-Chat | auto | mmlu | 0.641 | 0.645 |`, a table
    whose rows are a model's evaluations, sgl-project/sglang#2496); else the header's first cell.
    Empty when none says which way is better."""
    labels = [cell for cell in row[: min(before, len(row))] if cell and not _VALUE_CELL.match(cell)]
    directed = [cell for cell in labels if _directed(cell)]
    if directed:
        return directed[0]
    return names[0] if _directed(names[0]) else ""


def _cell_number(cell: str) -> float | None:
    found = _CELL_NUMBER.search(cell)
    return float(found.group().replace(",", "").replace("−", "-")) if found else None


def separator_row(cells: list[str]) -> bool:
    """A table's separator row (`|---|:---:|`): every cell that is not empty a run of dashes."""
    return all(_SEPARATOR_CELL.match(cell.replace(" ", "")) for cell in cells if cell)


def cells_of(line: str) -> list[str] | None:
    """A table line's cells, None when it is no table line: `| a | b |` (leading spaces or a
    quote's `>` allowed), or, as a browser copies a rendered table, `a | b | c` without the outer
    bars (three cells at least: `decode-1  | text`, a compose prefix, is no table)."""
    text = line.strip().lstrip(">").strip()
    if text.startswith("|"):
        inner = text[1:-1] if text.endswith("|") and len(text) > 1 else text[1:]
    elif text.count(" | ") >= 2:
        inner = text
    else:
        return None
    return [cell.strip().strip("*").strip() for cell in inner.split("|")]


def _judged(names: list[str], row: list[str], at: int) -> tuple[float, str, str] | None:
    """(how much worse, the measure's name, the cell) of the row's cell `at`, when its column is a
    change whose direction the header tells; None otherwise."""
    found = _PERCENT.match(row[at].replace(" ", "").strip("`*_"))  # a cell set as code or in bold
    if found is None:
        return None
    value = float(found.group(1).replace("−", "-")) / 100
    name = names[at]
    if IMPROVEMENT.search(name) and not _plain_change(row, at, value):
        return -value, _measure_of(names, row, at), row[at]
    if REGRESSION.search(name):
        return value, _measure_of(names, row, at), row[at]
    if not (CHANGE.search(name) or IMPROVEMENT.search(name)):
        return None
    measure = _measure_of(names, row, at)
    if BETTER_HIGHER.search(_spaced(measure)):
        return -value, measure, row[at]
    if BETTER_LOWER.search(_spaced(measure)):
        return value, measure, row[at]
    return None


def _plain_change(row: list[str], at: int, value: float) -> bool:
    """The percentage is the plain change from the value two cells left of it to the one just left
    (`| Benchmark Duration | 330.71s | 166.22s | **-49.7%** |` under `Improvement`: vllm-project/recipes#112
    puts each measure's change there, a duration's fall as a negative improvement): the column is a
    change column whatever its name, and the measure says which way is better."""
    if at < 2 or not (_VALUE_CELL.match(row[at - 2]) and _VALUE_CELL.match(row[at - 1])):
        return False
    was, now = _cell_number(row[at - 2]), _cell_number(row[at - 1])
    if was is None or now is None or was == 0 or value == 0:
        return False
    plain = (now - was) / abs(was)
    return (plain < 0) == (value < 0) and abs(plain - value) <= PLAIN_CHANGE_SLACK * abs(value) + 0.005


PLAIN_CHANGE_SLACK = 0.05  # a stated percentage rounds the change it states
_VALUE_CELL = lazy_re(r"^[\s*`_]*[-+~≈]?\d[\d,]*(?:\.\d+)?\s*[A-Za-zµ/%]{0,8}[\s*`_]*$")  # `330.71s`, `**16.39 ms**`


def _measure_of(names: list[str], row: list[str], at: int) -> str:
    """What the change column at `at` measures: its own header when that names a measure, else the
    nearest column to its left whose header does, else the nearest cell of the row to its left that
    does (a `Metric` column's `audio_throughput`), else the row's first cell; with the column's name."""
    own = names[at]
    if _directed(own):
        return own
    for left in range(at - 1, -1, -1):
        if _directed(names[left]):
            return f"{names[left]} {own}"
    for left in range(at - 1, -1, -1):
        if _directed(row[left]):
            return f"{row[left]} {own}"
    return f"{row[0]} {own}" if row[0] else own


def _directed(words: str) -> bool:
    """The words, an identifier's too (`median_ttft_ms`), name a measure whose better way is known."""
    return directed(_spaced(words))


def _spaced(words: str) -> str:
    """A metric's identifier read as words: `median_ttft_ms` as `median ttft ms`."""
    return words.replace("_", " ")


# A row's outcome cell: a regression worded (`Decode regression`), or the check's own FAIL (`FAIL ⛔`).
OUTCOME_CELL = lazy_re(r"(?i)\bregress(?:ion|ed)\b|^\W*fail(?:ed)?\W*$")


def read_column_above(buf: bytes | bytearray, line_start: int, line_end: int, limit: int) -> dict[str, FieldValue]:
    """`column`: the header cell over the row's outcome cell (the first that words a regression), when
    the table's header is above the row with as many cells; nothing otherwise."""
    row = cells_of(_text(buf, line_start, line_end))
    header = _header_above(buf, line_start)
    names = cells_of(header) if header is not None else None
    if row is None or names is None or len(names) != len(row):
        return {}
    at = next((i for i, cell in enumerate(row) if OUTCOME_CELL.search(cell)), None)
    return {"column": names[at].strip()} if at is not None and names[at].strip() else {}


def _header_above(buf: bytes | bytearray, line_start: int) -> str | None:
    """The header of the table the row at `line_start` is in: the line above its separator row
    (`|---|:---:|`), or, in a table without one, its first line when that holds no number."""
    lines = _table_lines_above(buf, line_start)
    for place, line in enumerate(lines):
        cells = cells_of(line)
        if cells and separator_row(cells):
            return lines[place + 1] if place + 1 < len(lines) else None
    if lines and not re.search(r"\d", lines[-1]):
        return lines[-1]
    return None


def _table_lines_above(buf: bytes | bytearray, line_start: int) -> list[str]:
    """The table's lines above the row, nearest first, up to the first line that is none."""
    return list(islice(takewhile(lambda text: cells_of(text) is not None, _upward(buf, line_start)), ROWS_ABOVE))


def _upward(buf: bytes | bytearray, line_start: int) -> Iterator[str]:
    """The lines above a line, nearest first (without a collector's prefix: _text)."""
    end = line_start - 1
    while end > 0:
        start = buf.rfind(b"\n", 0, end) + 1
        yield _text(buf, start, end)
        end = start - 1


def _text(buf: bytes | bytearray, start: int, end: int) -> str:
    """A line of the table without a collector's prefix or a launcher's tag before it."""
    return bare_line(bytes(buf[start:end]).decode("utf-8", "replace"))
