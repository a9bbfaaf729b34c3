"""A summary quotes the lines it cites: the one place that does it, so every format shows the same text.

A verdict's summary (a cause's, an inconclusive run's "first failure", a performance finding's)
cites the lines it stands on by `file:line`. A reader judges the verdict by that line: here each
cited line the report holds (its chain and roots, the first and last line of an error no pattern
names, the failed gate, the metrics lines a value was read from) is quoted once, where it is first
cited: its message clipped to QUOTE_CHARS (a token at the cut goes whole: textcut.clip, so
redaction later still sees whole secrets). A line the summary quotes already is not quoted twice.
A long line is cut so that what its pattern matched stays in view: sglang's `Decode transfer failed
for request rank=0 decode_req.req.rid='...' ... with exception KVTransferError(...): Request N timed
out after 300.0s in KVPoll.WaitingForInput` says what failed two hundred characters in.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace

from ..library.patterns import Library
from ..library.templates import message_of
from ..library.templates import quote_of as quoted_text
from ..model import Event, Report, Series, Verdict
from ..model.lazyre import lazy_re
from ..model.textcut import clip, clip_around
from ..model.verdicts import META

QUOTE_CHARS = 240  # characters of a quoted message: a failure's message, or a metrics line up to its values
# A summary that holds this much of the line's message (or all of a shorter one) quotes it already.
QUOTED_ALREADY = 40
MATCH_IN_VIEW = 100  # characters of a pattern's match kept in view, from where it starts
_PATH_CHAR = lazy_re(r"[\w./~-]")


def quoted(report: Report, library: Library | None = None) -> Report:
    """The report with its verdict's summary, and each separate incident's, quoting the lines they
    cite; a cause's summary that neither cites nor quotes its root line ends with it. With the
    library, a long line's quote keeps what its pattern matched in view (`quote_words`)."""
    if library is not None:
        report = replace(report, quote_words=tuple(_matched_words(report, library).items()))
    lines = cited_lines(report)
    words = dict(report.quote_words)
    verdict = _quoting(report.verdict, lines, words)
    if report.verdict.id not in META and report.roots:
        verdict = _resting_on(verdict, report.roots, words)
    incidents = tuple(
        replace(f, verdict=_quoting(f.verdict, {**lines, **_texts(f.chain)}, words)) for f in report.other_incidents
    )
    if verdict is report.verdict and all(a is b for a, b in zip(incidents, report.other_incidents, strict=True)):
        return report
    return replace(report, verdict=verdict, other_incidents=incidents)


def _matched_words(report: Report, library: Library) -> dict[str, str]:
    """Each cited pattern line's place -> what its pattern matched in it (from the match's start, at
    most MATCH_IN_VIEW characters), for the lines whose message is longer than a quote."""
    words: dict[str, str] = {}
    events = [*report.roots, *report.chain, *(e for f in report.other_incidents for e in f.chain)]
    for event in events:
        if event.unrecognised or event.where in words or len(_flat_message(event.text)) <= QUOTE_CHARS:
            continue
        found = library.pattern(event.pattern).regex.search(event.text)
        matched = " ".join(found.group(0).split()) if found is not None else ""
        if matched:
            words[event.where] = matched[:MATCH_IN_VIEW].rstrip()
    return words


def cited_lines(report: Report) -> dict[str, str]:
    """`file:line` -> the line's text, for every line the report holds that a summary may cite."""
    events: list[Event] = [*report.roots, *report.chain]
    events += [e for item in report.unrecognised for e in (item.first, item.last)]
    performance = report.performance
    if performance is not None and performance.gate is not None:
        events.append(performance.gate)
    lines = _series_lines(performance.series) if performance is not None else {}
    return {**lines, **_texts(events)}


def quoted_lines(report: Report) -> list[str]:
    """Each cited line as a summary quotes it (a renderer shows each as one piece of code)."""
    words = dict(report.quote_words)
    return [quote_of(text, words.get(place, "")) for place, text in cited_lines(report).items()]


def quote_of(text: str, words: str = "") -> str:
    """A line as a summary quotes it: its message with the component's own tag (Formats.quoted),
    clipped to QUOTE_CHARS, keeping `words` (what its pattern matched) in view when given."""
    flat = _flat_message(text)
    return clip_around(flat, QUOTE_CHARS, words) if words else clip(flat, QUOTE_CHARS)


def quote_around(text: str, words: str) -> str:
    """A line as a summary quotes it, cut so that `words` (what it says, often at its end: the phase a
    request timed out in) stay in view."""
    return clip_around(_flat_message(text), QUOTE_CHARS, words)


def _flat_message(text: str) -> str:
    """The line's message with the component's own tag, on one line (the whole line if it has none)."""
    return " ".join(quoted_text(text).split()) or " ".join(text.split())


def series_place(series: Series, line: int | None = None) -> str:
    """Where a metrics value was read: the peak's line unless `line` is given (the series' first)."""
    return f"{series.source}:{series.peak_line if line is None else line}"


def quote_citations(summary: str, lines: Mapping[str, str], words: Mapping[str, str] | None = None) -> str:
    """`summary` with the first citation of each line in `lines` followed by its quoted message,
    unless the summary quotes that message already."""
    for place, at in _first_citations(summary, lines):
        message = _message(lines[place])
        if not message or _quotes(summary, message, lines[place]):
            continue
        quote = quote_of(lines[place], (words or {}).get(place, ""))
        end = at + len(place)
        inside = end < len(summary) and summary[end] == ")" and at > 0 and summary[at - 1] == "("
        insert = f': "{quote}"' if inside else f' ("{quote}")'
        summary = summary[:end] + insert + summary[end:]
    return summary


def _resting_on(verdict: Verdict, roots: Sequence[Event], words: Mapping[str, str]) -> Verdict:
    """A cause's summary that shows none of its root lines ends with the first, quoted."""
    summary = verdict.summary
    for root in roots:
        message = _message(root.text)
        if _first_citations(summary, {root.where: root.text}) or not message or _quotes(summary, message, root.text):
            return verdict
    root = roots[0]
    ending = "" if summary.rstrip().endswith((".", "!", "?")) else "."
    said = f'{summary.rstrip()}{ending} It rests on {root.where}: "{quote_of(root.text, words.get(root.where, ""))}".'
    return replace(verdict, summary=said)


def _quoting(verdict: Verdict, lines: Mapping[str, str], words: Mapping[str, str]) -> Verdict:
    summary = quote_citations(verdict.summary, lines, words)
    return verdict if summary == verdict.summary else replace(verdict, summary=summary)


def _texts(events: Iterable[Event]) -> dict[str, str]:
    return {e.where: e.text for e in events}


def _series_lines(series: Iterable[Series]) -> dict[str, str]:
    lines: dict[str, str] = {}
    for item in series:
        lines.setdefault(series_place(item), item.peak_text)
        if item.first_text:
            lines.setdefault(series_place(item, item.first_line), item.first_text)
    return lines


def _first_citations(summary: str, lines: Mapping[str, str]) -> list[tuple[str, int]]:
    """Each cited place's first citation, last in the summary first (so inserting keeps the
    earlier positions): a place is cited where it stands whole (no path before it, no word after)."""
    found: list[tuple[str, int]] = []
    for place in lines:
        at = summary.find(place)
        while at >= 0:
            end = at + len(place)
            before = summary[at - 1] if at > 0 else " "
            after = summary[end] if end < len(summary) else " "
            if not _PATH_CHAR.match(before) and not (after.isalnum() or after == "_"):
                found.append((place, at))
                break
            at = summary.find(place, at + 1)
    return sorted(found, key=lambda item: item[1], reverse=True)


def _message(text: str) -> str:
    return " ".join(message_of(text).split()) or " ".join(text.split())


def _quotes(summary: str, message: str, text: str) -> bool:
    """The summary holds the line already: the start of its message, or the line as written up to
    what a quote keeps (its start alone is a prefix other lines share: the time, the level, the
    logger). A summary that only words what the line says, or quotes a value of it, does not."""
    flat = " ".join(summary.split())
    written = " ".join(text.split())
    return bool(message and message[:QUOTED_ALREADY] in flat) or bool(written and written[:QUOTE_CHARS] in flat)
