"""Text from logs and file names made harmless for every reader: terminals, the Actions runner, JSON.

Two defences, applied to whatever the tool prints that came from a log or a file name:

`shown` puts every character that acts instead of printing in visible form: C0 and C1
controls (so no escape sequence reaches a terminal: OSC 52 writing the clipboard, OSC 8
links, title changes, a screen reset, backspaces rewriting `status=500` as `200`), bidi
controls (Trojan Source: a line that reads differently from its bytes), invisible format
characters, line separators and a name's bytes that are not UTF-8. Each report passes
through it before any renderer sees it (outbound.py), stderr's names and messages too,
and every rendered output once more as a net (`defuse_output`).

The Actions runner reads commands from a step's stdout and stderr alike, line by line (a
line ends at LF, CRLF or a lone CR): `::cmd args::data` at the start of a line after
leading white space (v2), and `##[cmd args]data` anywhere in a line (v1), both with .NET's
culture-sensitive search, which ignores what ICU's collation ignores (a zero-width space
among them). A no-break space, which the collation does not ignore, goes between the
marker's characters: `##[error]` in a log line or an archive member's name cannot forge an
annotation, set an output, add a mask or stop command processing.
"""

from __future__ import annotations

import io
import re
from typing import TextIO

from ..model import OutputFormat
from ..model.lazyre import lazy_re

SEPARATOR = "\u00a0"  # no-break space: kept by ICU's collation (U+200B is ignored, so `#\u200b#[` is `##[`)
_V1 = "##["
_V2_AT_LINE_START = lazy_re(r"(?m)^(\s*):(?=:)")
_LONE_CR = lazy_re(r"\r(?!\n)")

# C0 but TAB (logs align with it), DEL, C1; the Arabic letter mark, zero-width and directional marks,
# line and paragraph separators, bidi embeddings, overrides and isolates, word joiner and invisible
# operators, the byte-order mark; lone surrogates (a file name's bytes that are not UTF-8).
_UNSAFE = "\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff\ud800-\udfff"
_UNSAFE_LINE = lazy_re(f"[\\n{_UNSAFE}]")
_UNSAFE_TEXT = lazy_re(f"[{_UNSAFE}]")
_NAMED = {"\n": "\\n", "\r": "\\r"}
_SURROGATE_BYTES = range(0xDC80, 0xDD00)  # how surrogateescape decodes bytes 0x80-0xFF


def shown(text: str, multiline: bool = False) -> str:
    """`text` with every character that acts instead of printing in visible form: controls as
    `\\x1b`, `\\n`, `\\r`, bidi and invisible characters as `<U+202E>`, a byte that is not UTF-8
    as `\\xff`. `multiline` keeps line feeds (the tool's own paragraphs, a captured traceback)."""
    unsafe = _UNSAFE_TEXT if multiline else _UNSAFE_LINE
    return unsafe.sub(_visible, text) if unsafe.search(text) else text


def _visible(match: re.Match[str]) -> str:
    char = match.group(0)
    code = ord(char)
    if char in _NAMED:
        return _NAMED[char]
    if code < 0xA0:
        return f"\\x{code:02x}"
    if code in _SURROGATE_BYTES:
        return f"\\x{code - 0xDC00:02x}"
    return f"<U+{code:04X}>"


def defuse_commands(text: str) -> str:
    """No v1 command anywhere, no v2 command at the start of any line; lone CRs shown as `\\r`."""
    text = show_lone_crs(text).replace(_V1, "#" + SEPARATOR + "#[")
    return str(_V2_AT_LINE_START.sub(r"\1:" + SEPARATOR, text))


def show_lone_crs(text: str) -> str:
    """A CR that is not half of a CRLF as the two characters `\\r`. A log line may hold one (a
    progress bar redraws with it), and it is one line of the file; shown raw, whatever reads
    lines at a lone CR (the Actions runner, a terminal, an HTML parser) would show a second,
    forged line."""
    return _LONE_CR.sub("\\\\r", text)


def one_line(text: str) -> str:
    """A file name or message for a one-line warning: shown (a newline in a file name must not
    start a line of its own, an escape sequence must not reach the terminal), then defused."""
    return defuse_commands(shown(text))


_OWN_COLOUR = lazy_re(r"\x1b\[[0-9;]*m")  # the terminal report's own styles (text.Page.style)
_JSON_UNSAFE = lazy_re(f"[{_UNSAFE}]")


def defuse_output(text: str, output_format: OutputFormat) -> str:
    """A whole rendered report. Every report string was shown safely already (outbound.py); this is
    the net behind it, so nothing a renderer took from elsewhere reaches a reader raw. JSON keeps its
    meaning (`\\u0023` is `#`, `\\u202e` the character, to a JSON reader); github's own `::`
    commands stay (their data is escaped by the renderer), others go; the text report keeps its
    own colour."""
    if output_format is OutputFormat.JSON:
        return json_safe(text).replace(_V1, "#\\u0023[")
    if output_format is OutputFormat.TEXT and "\x1b" in text:
        pieces, colours = _OWN_COLOUR.split(text), [*_OWN_COLOUR.findall(text), ""]
        text = "".join(shown(piece, multiline=True) + colour for piece, colour in zip(pieces, colours, strict=True))
    else:
        text = shown(text, multiline=True)
    if output_format is OutputFormat.GITHUB:
        return text.replace(_V1, "#" + SEPARATOR + "#[")
    return defuse_commands(text)


def json_safe(text: str) -> str:
    """A JSON document with no raw control, bidi or invisible character: each as its `\\u` escape
    (the same character to a JSON reader); a lone surrogate (a name's byte that is not UTF-8, which
    no JSON reader could take) as the text `\\xff`, as every other format shows it."""
    return _JSON_UNSAFE.sub(_json_escape, text) if _JSON_UNSAFE.search(text) else text


class DefusedJson(io.TextIOBase):
    """A JSON report written to `out` as `defuse_output` makes it, a piece at a time: json_safe
    replaces single characters, and the end of a piece that could begin a `##[` (`#`, `##`) waits
    for the next, so a `##[` the pieces split is still found."""

    def __init__(self, out: TextIO) -> None:
        self.out = out
        self.held = ""

    def write(self, text: str) -> int:
        joined = self.held + text
        self.held = next((start for start in (_V1[:2], _V1[:1]) if joined.endswith(start)), "")
        ready = joined[: len(joined) - len(self.held)]
        if ready:
            self.out.write(defuse_output(ready, OutputFormat.JSON))
        return len(text)

    def finish(self) -> None:
        """Write the characters still held: the report has ended."""
        if self.held:
            self.out.write(defuse_output(self.held, OutputFormat.JSON))
            self.held = ""


def _json_escape(match: re.Match[str]) -> str:
    code = ord(match.group(0))
    if code in _SURROGATE_BYTES:
        return f"\\\\x{code - 0xDC00:02x}"
    if 0xD800 <= code <= 0xDFFF:
        return f"<U+{code:04X}>"
    return f"\\u{code:04x}"
