"""Markdown that log text cannot take over.

The rule: text from a log (lines, exception messages, file names) is shown only
inside code spans or fenced blocks, whose delimiters are longer than any run of
backticks inside, so GitHub renders it as typed. Everything else is prose, and
prose is escaped as if it were hostile too, because the tool's own sentences
quote log values: no HTML, no emphasis, links, images or headings, no @mentions,
no #123 / owner/repo#123 / GH-123 references, no bare-URL autolinks.
"""

from __future__ import annotations

from collections.abc import Iterable

import regex

CELL_CHARS = 300
ZWSP = "\u200b"  # zero-width space: invisible, but breaks a mention, a reference or an autolink

# With [ ] escaped, ( ) and ! make no link; `_` inside a word is no emphasis in GFM (snake_case stays).
_MARKDOWN_ACTIVE = regex.compile(r"([\\`*\[\]#~|]|(?<![A-Za-z0-9])_|_(?![A-Za-z0-9]))")
_REFERENCE = regex.compile(r"(?i)(#|\bGH-)(?=\d)")
_AUTOLINK = regex.compile(r"(?i)\b(https?|ftp|www)(?=://|\.)")
_PLAIN_WORDS = regex.compile(r"[A-Za-z ,.;:'()-]*")
_WORD = regex.compile(r"\S+")
_BACKTICKS = regex.compile(r"`+")
_WORD_BREAK = regex.compile(r"(?<=.)[:(,]")
_BLOCK_START = regex.compile(r"(?m)^(\s*)([-+=>]|\d+[.)])")
# What would end a line, a code span or a table row. Runs of spaces stay: glog pads its thread ids
# and UCX its levels (`UCX  ERROR`), and a line copied from the report must grep back to the log.
_LINE_BREAKS = regex.compile(r"[\n\r\v\f\x1c-\x1e\x85\u2028\u2029]+")


def prose(text: str) -> str:
    """Plain text that renders as itself: nothing in it is markup."""
    text = text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    text = _MARKDOWN_ACTIVE.sub(r"\\\1", text)
    text = _REFERENCE.sub(lambda m: m.group(1) + ZWSP, text)
    text = _AUTOLINK.sub(lambda m: m.group(1) + ZWSP, text)
    text = _BLOCK_START.sub(lambda m: m.group(1) + "\\" + m.group(2), text)
    return text.replace("@", "@" + ZWSP)


def one_line(text: str) -> str:
    """Log text on one line, as logged otherwise: its line breaks become spaces, its spacing stays."""
    return str(_LINE_BREAKS.sub(" ", text)).strip()


def code_span(text: str) -> str:
    """Inline code on one line: the delimiter is one backtick longer than any run inside."""
    text = one_line(text)
    ticks = "`" * (longest_backtick_run(text) + 1)
    pad = " " if text.startswith("`") or text.endswith("`") or not text.strip() else ""
    return f"{ticks}{pad}{text}{pad}{ticks}"


def cell(text: str, limit: int = CELL_CHARS) -> str:
    """Prose in a table cell."""
    return prose(_shorten(" ".join(text.split()), limit))


def code_cell(text: str, limit: int = CELL_CHARS) -> str:
    """A log line as inline code in a table cell (pipes escaped: GFM splits cells before code spans)."""
    return code_span(_shorten(one_line(text), limit)).replace("|", "\\|")


def quoted_cell(text: str, quotes: Iterable[str], limit: int = CELL_CHARS) -> str:
    """A sentence quoting the logs, in a table cell."""
    return quoted_prose(_shorten(one_line(text), limit), quotes, in_table=True)


def fence(body: str, info: str) -> str:
    ticks = "`" * max(3, longest_backtick_run(body) + 1)
    return f"{ticks}{info}\n{body}\n{ticks}"


def quoted_prose(text: str, quotes: Iterable[str], in_table: bool = False, whole: Iterable[str] = ()) -> str:
    """A sentence of the tool's that quotes the logs: each quoted run (shared with one of
    `quotes`, the log lines and values behind it) becomes a code span, the rest prose; a line it
    quotes whole (one of `whole`, as the summary quotes it: reason/quotes.py) is one code span."""
    quotes = list(quotes)
    spans: list[tuple[int, int]] = []
    at = 0
    for start, end in _whole_spans(text, whole):
        spans += [(at + a, at + b) for a, b in _quoted_spans(text[at:start], quotes)] + [(start, end)]
        at = end
    spans += [(at + a, at + b) for a, b in _quoted_spans(text[at:], quotes)]
    out: list[str] = []
    at = 0
    for start, end in spans:
        out.append(prose(text[at:start]))
        span = code_span(text[start:end])
        out.append(span.replace("|", "\\|") if in_table else span)
        at = end
    out.append(prose(text[at:]))
    return "".join(out)


def _whole_spans(text: str, whole: Iterable[str]) -> list[tuple[int, int]]:
    """Where each of `whole` stands in `text` (its first place), in order, none inside another."""
    found = sorted((at, at + len(line)) for line in set(whole) if line and (at := text.find(line)) >= 0)
    kept: list[tuple[int, int]] = []
    for start, end in found:
        if not kept or start >= kept[-1][1]:
            kept.append((start, end))
    return kept


def longest_backtick_run(text: str) -> int:
    return max((len(run) for run in _BACKTICKS.findall(text)), default=0)


def _shorten(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _quoted_spans(text: str, quotes: Iterable[str]) -> list[tuple[int, int]]:
    """Runs of words found in the quotes. A run starts at a word that could be markup (it holds
    more than letters and plain punctuation) and takes in the following words, plain or not,
    while the whole run still occurs in a quote; plain words alone stay prose."""
    corpus = "\n".join(quotes)
    spans: list[tuple[int, int]] = []
    current: tuple[int, int] | None = None
    for word in _WORD.finditer(text):
        if current is not None and text[current[0] : word.end()] in corpus:
            current = (current[0], word.end())
            continue
        if current is not None:
            # A quote ending the sentence (`...not available").`): the stop is the sentence's.
            end = word.start() + len(word.group().rstrip(".,;:"))
            ends_quote = end > word.start() and text[current[0] : end] in corpus
            spans.append((current[0], end) if ends_quote else current)
            current = None
            if ends_quote:
                continue
        core = word.group().lstrip("([{\"'")
        start = word.end() - len(core)  # a quote in brackets or quotes: the brackets are the sentence's
        if _PLAIN_WORDS.fullmatch(core) is None:
            quoted = _longest_quoted_prefix(core.rstrip(")]}\"',.;"), corpus)
            if quoted:
                current = (start, start + quoted)
    if current is not None:
        spans.append(current)
    return [_trimmed(text, start, end) for start, end in spans]


def _longest_quoted_prefix(word: str, corpus: str) -> int:
    """How much of `word` a quote holds: all of it, or its part before `:`/`(`/`,` (a frame
    `file.py:468` quotes the file name, `f()` the function)."""
    for cut in (len(word), *(m.start() for m in _WORD_BREAK.finditer(word))):
        part = word[:cut].rstrip(".;")
        if len(part) >= 3 and part in corpus:
            return len(part)
    return 0


def _trimmed(text: str, start: int, end: int) -> tuple[int, int]:
    """Without the spaces at either end: `` `a` `` reads better than `` ` a ` ``."""
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    return start, end
