"""Which lines of a paste state results: what a report where nothing failed says it read.

People post results (a benchmark's table, `llama_print_timings`, a score per model) and ask whether
something is wrong. When no line of them failed (no gate, no baseline to judge against) the report
says no failure was seen, and its reader's next question is which numbers it looked at: the report
names them. A result line is a table's data row stating a number, or a line stating a number with
a measure's unit or name beside it (a throughput, a latency, a score), never a progress bar's redraw
nor a table's header or separator. The scan looks for them in what a person pasted or a harness
printed, read whole (`result_lines`), at no cost to a large log.
"""

from __future__ import annotations

from itertools import islice

from ..model.lazyre import lazy_re
from .collectors import unwrap_head
from .tables import cells_of, separator_row
from .timeline import clean_line

RESULTS_KEPT = 5  # result lines kept per input: the first ones, where a table starts
RESULT_CHARS = 2000  # a longer line is no result a person reads (a JSON record, a minified blob)
RESULTS_LINES = 400  # lines read for them: a paste's results come near its top

# A number as results state one: `76.7`, `**76.7**`, `1,234`, `6.95 +/- 0.04`, `12.3%`.
_NUMBER = lazy_re(r"(?<![\w.])[-+]?\d[\d,]*(?:\.\d+)?(?![\w.])")
_NUMBER_CELL = lazy_re(r"^[-+]?\d[\d,]*(?:\.\d+)?\s*(?:%|x|±.*|\+/-.*|[a-zA-Z/]{1,8})?$")
# tqdm's redraw (`45%|████      | 9/20 [00:03<00:04, 2.71it/s]`, vLLM's `45% Completed | 9/20`): a
# progress report, not a result.
_PROGRESS = lazy_re(r"\d+%\s*(?:Completed\s*)?\||\d\s*(?:it/s|s/it)\b")
# A number with a measure's unit after it (`51.9 ms`, `40.95 tokens per second`, `12.3%`, 毫秒), or a
# measure's name before it (`throughput: 1234`, `Accuracy 0.953`): the words model/measures.py reads
# a measure's way by, cheap enough for every line of a paste (its regexes, tried whole on every line
# of 10,000 small files, cost seconds).
_MEASURED_BY_UNIT = lazy_re(
    r"\d\s*(?:%|ms|[uµμ]s|s|secs?|seconds?|min|minutes?|tok(?:en)?s?/s(?:ec)?|t/s(?:/u)?|req(?:uest)?s?/s"
    r"|samples?/s(?:ec)?|it/s|tokens? per second|requests? per second|毫秒|秒)(?![\w/])"
)
_MEASURED_BY_NAME = lazy_re(
    r"\b(?:throughput|latency|accuracy|acc|score|ttft|tpot|itl|e2el?|ppl|perplexity|speed|duration|time"
    r"|gsm8k|mmlu|gpqa|qps|rps|tps|em|f1|pp\d+|tg\d+)\b[^\d\n]{0,40}\d"
)


def result_lines(head: str) -> tuple[tuple[int, str], ...]:
    """The first RESULTS_KEPT lines of a whole input (`head`) that state results, with their numbers,
    read one line ahead (a table's header is told by the separator below it), never past the first
    RESULTS_LINES: a scan of 100,000 small files reads a few lines of each."""
    rows = (clean_line(unwrap_head(row))[0] for row in islice(head.splitlines(), RESULTS_LINES))
    found: list[tuple[int, str]] = []
    text = next(rows, None)
    number = 1
    while text is not None and len(found) < RESULTS_KEPT:
        below = next(rows, None)
        if len(text) <= RESULT_CHARS and states_a_result(text, below):
            found.append((number, text.strip()))  # numbered as the scan numbers them
        text, number = below, number + 1
    return tuple(found)


def states_a_result(line: str, next_line: str | None) -> bool:
    """The line states a result: a table's data row with a number in a cell, or a number beside a
    measure's words (`next_line`: the line below, which says whether a table line is a header)."""
    cells = cells_of(line)
    if cells is not None:
        return _data_row(cells, next_line)
    if _NUMBER.search(line) is None:
        return False
    low = line.lower()  # searched case-sensitively: a lowered line is several times faster to search
    if _MEASURED_BY_UNIT.search(low) is None and _MEASURED_BY_NAME.search(low) is None:
        return False
    return _PROGRESS.search(line) is None


def _data_row(cells: list[str], next_line: str | None) -> bool:
    if separator_row(cells):
        return False
    below = cells_of(next_line) if next_line is not None else None
    if below and separator_row(below):
        return False  # a header: the separator row is below it
    return any(_NUMBER_CELL.match(cell) for cell in cells if cell)
