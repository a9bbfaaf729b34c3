"""Sentences a person wrapped by hand, read whole again.

A report written in an editor (a pull request's description, an issue's Markdown) is wrapped at the
editor's width, between words: `... scores **74.00%** with **285 of 1319 answers` on one row,
`degenerate**; with this PR it scores **97.19%** ...` on the next. A terminal cuts a line at its
width, inside a word, and wrapped.py joins its parts as they were; a person's rows end at a word and
vary in length, and a sentence that states a failure may lie across two of them, where no row alone
says it. The library's `prose` patterns (the sentences people write: `N of M answers degenerate`,
`we observed an accuracy drop`) are read again on a paste's sentences, its rows joined with a space
within a paragraph. A sentence is read when it lies across rows, or shares its row with another: a
prose pattern's guard against a negation or a fix reads its whole line, and one sentence's `doesn't
fix this issue` would hide the next one's `Low accuracy is observed`. A row that is one sentence is
the scan's, unless Markdown's bold marks sit between its words (`a significant **accuracy drop**`):
a sentence is read without them.

A paragraph is a run of rows outside a code fence, each but the last as long as an editor wraps at
(PROSE_MIN_ROW), none starting like a line of its own (a log's time, a list's item, a heading, a
table's row, a quote, a block of code). A paste is small (read whole: scan/inputs.py), and its
sentences are read by a few dozen patterns, each told first by its anchors.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from ..library.formats import Formats
from ..library.patterns import Pattern, match_line
from ..model import Event
from ..model.lazyre import lazy_re
from .events import make_event
from .timeline import clean_line

PROSE_MIN_ROW = 40  # an editor wraps at 72 to 100 columns: a row shorter than this ended its paragraph
PROSE_MAX_ROW = 200  # a row longer than an editor's width was not wrapped by one: a paragraph of its own
MAX_ROW = 4096  # characters: a longer row is a record or a dump, no one's sentences
MAX_SENTENCE = 600  # characters: a longer "sentence" is a run of text no full stop divides
FENCES = ("```", "~~~")
# What starts a row of its own in Markdown: a list's item, a heading, a table's row, a quote.
_OWN_ROW = lazy_re(r"^(?:[-*+]\s|#{1,6}\s|\||>|\d{1,3}[.)]\s)")
# Markdown's bold and italics by underscores or asterisks, doubled (a single `*` or `_` is as often a
# wildcard or a name's part).
_EMPHASIS = lazy_re(r"\*\*|(?<![\w])__|__(?![\w])")
_ROW_BREAK = lazy_re(r"[ \t]*\r?\n[ \t]*")  # rows joined with a space, as a paragraph's are
# A sentence ends at its full stop (or ! ?), closing marks after it, then a blank and a capital,
# a digit or an opening mark: `... with **none**. The backend fails`; not inside `74.00%` or `e.g. a`.
_SENTENCE_END = lazy_re(r"""(?<=[.!?])([*_`"')\]]*)\s+(?=[A-Z0-9*_`"'(\[])""")


def prose_events(
    name: str, head: str, patterns: tuple[Pattern, ...], formats: Formats, found: Sequence[Event]
) -> tuple[Event, ...]:
    """The events of the `prose` patterns on the sentences of a paste (`head`, read whole) that lie
    across rows or share one; none for a pattern the scan already found on one of the sentence's
    rows, nor for one a row of the paste already says failed: the paste states that failure on a row
    of its own, which a quote of one row shows better than a sentence joined from several."""
    if not patterns:
        return ()
    seen = {(event.pattern, event.line) for event in found}
    stated = {event.pattern for event in found if event.failing}
    text = _without_emphasis(_ROW_BREAK.sub(" ", head))  # as its sentences are read: rows joined, bold off
    patterns = tuple(p for p in patterns if p.id not in stated and _may_hold(p, text))
    events: list[Event] = []
    for rows in _paragraphs(head, formats) if patterns else ():
        for sentence, numbers in _sentences_to_read(rows):
            for pattern in patterns:
                if any((pattern.id, number) in seen for number in numbers):
                    continue
                try:
                    captured = match_line(pattern, _without_emphasis(sentence))
                except TimeoutError:
                    continue
                if captured is not None:
                    events.append(make_event(pattern, name, numbers[0], None, sentence, captured))
                    seen.update((pattern.id, number) for number in numbers)
    return tuple(events)


def _may_hold(pattern: Pattern, text: str) -> bool:
    """Whether a sentence of `text` (the paste as its sentences are read) can hold what the pattern's
    lines hold (its anchors, one of its any_anchors): a paste holding none is not split into sentences
    for it (most pastes, for every pattern)."""
    if any(anchor not in text for anchor in pattern.anchors):
        return False
    return not pattern.any_anchors or any(anchor in text for anchor in pattern.any_anchors)


def _paragraphs(head: str, formats: Formats) -> Iterator[list[tuple[int, str]]]:
    """Each paragraph outside code fences (one row or more): its rows, numbered as the scan counts them."""
    fenced = False
    rows: list[tuple[int, str]] = []
    for number, raw in enumerate(head.split("\n"), start=1):
        text = clean_line(raw)[0].rstrip()
        fence = text.lstrip().startswith(FENCES)
        fenced = fenced != fence  # a fence's row opens or closes a block of code, and is no prose
        if not fence and not fenced and rows and _continues(rows[-1][1], text, formats):
            rows.append((number, text))
            continue
        if rows:
            yield rows
        rows = [(number, text)] if not fence and not fenced and _may_start(text, formats) else []
    if rows:
        yield rows


def _may_start(text: str, formats: Formats) -> bool:
    """A row that may open a paragraph: words, or a list's item, not a log's line, a heading, a table's row or code."""
    stripped = text.lstrip()
    if not stripped or len(text) - len(stripped) >= 4 or len(text) > MAX_ROW:
        return False
    if stripped[:1] in "#|>":
        return False
    return formats.stamp(stripped) is None


def _continues(above: str, text: str, formats: Formats) -> bool:
    """`text` goes on the sentence of the row above: that row is as long as an editor wraps at, and
    `text` starts like no row of its own (a list item's continuation is indented less than code)."""
    if len(above) < PROSE_MIN_ROW or len(above) > PROSE_MAX_ROW or len(text) > PROSE_MAX_ROW:
        return False
    stripped = text.lstrip()
    if not stripped or len(text) - len(stripped) >= 4 or _OWN_ROW.match(stripped):
        return False
    return formats.stamp(stripped) is None and not formats.source(stripped)


def _sentences_to_read(rows: list[tuple[int, str]]) -> Iterator[tuple[str, tuple[int, ...]]]:
    """The paragraph's sentences that lie across two rows or more, or share a row with another
    sentence, each with its rows' numbers."""
    starts: list[int] = []  # where each row starts in the joined text
    parts: list[str] = []
    at = 0
    for _, text in rows:
        starts.append(at)
        parts.append(text.strip())
        at += len(parts[-1]) + 1
    joined = " ".join(parts)
    bounds = [(found.end(1), found.end()) for found in _SENTENCE_END.finditer(joined)]
    begin = 0
    for end, after in [*bounds, (len(joined), len(joined))]:
        first, last = _row_at(starts, begin), _row_at(starts, max(begin, end - 1))
        whole_row = first == last and joined[begin:end] == parts[first]
        emphasised = _EMPHASIS.search(joined, begin, end) is not None
        if (emphasised or not whole_row) and end - begin <= MAX_SENTENCE:
            yield joined[begin:end], tuple(number for number, _ in rows[first : last + 1])
        begin = after


def _without_emphasis(sentence: str) -> str:
    """The sentence as read, Markdown's bold and italics taken off (`observed a significant **accuracy
    drop**`): the marks sit between the words a pattern reads together."""
    return _EMPHASIS.sub("", sentence)


def _row_at(starts: list[int], offset: int) -> int:
    """The index of the row the joined text's `offset` lies in."""
    row = 0
    while row + 1 < len(starts) and starts[row + 1] <= offset:
        row += 1
    return row
