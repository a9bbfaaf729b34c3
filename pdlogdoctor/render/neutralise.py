"""Text from logs and file names that cannot act as a GitHub Actions workflow command.

The Actions runner reads commands from a step's stdout and stderr alike, line by
line (a line ends at LF, CRLF or a lone CR): `::cmd args::data` at the start of a
line after leading white space (v2), and `##[cmd args]data` anywhere in a line
(v1). Whatever the tool prints that came from a log or a file name goes through
here, so a log line or an archive member named `##[error]x.log` cannot forge an
annotation, set an output, add a mask or stop command processing. A zero-width
space inside the marker breaks it and stays invisible to a reader.
"""

from __future__ import annotations

import re

from ..model import OutputFormat

ZWSP = "\u200b"
_V1 = "##["
_V2_AT_LINE_START = re.compile(r"(?m)^(\s*):(?=:)")
_LONE_CR = re.compile(r"\r(?!\n)")
_CONTROL = re.compile(r"[\x00-\x08\x0a-\x1f\x7f\x85\u2028\u2029]")


def defuse_commands(text: str) -> str:
    """No v1 command anywhere, no v2 command at the start of any line; lone CRs shown as `\\r`."""
    text = show_lone_crs(text).replace(_V1, "#" + ZWSP + "#[")
    return str(_V2_AT_LINE_START.sub(r"\1:" + ZWSP, text))


def show_lone_crs(text: str) -> str:
    """A CR that is not half of a CRLF as the two characters `\\r`. A log line may hold one (a
    progress bar redraws with it), and it is one line of the file; shown raw, whatever reads
    lines at a lone CR (the Actions runner, a terminal, an HTML parser) would show a second,
    forged line."""
    return _LONE_CR.sub("\\\\r", text)


def one_line(text: str) -> str:
    """A file name or message for a one-line warning: control characters shown escaped
    (a newline in a file name must not start a line of its own), then defused."""
    return defuse_commands(_CONTROL.sub(_escaped, text))


def defuse_output(text: str, output_format: OutputFormat) -> str:
    """A whole rendered report. JSON keeps its meaning (`\\u0023` is `#` to a JSON reader);
    github's own `::` commands stay (their data is escaped by the renderer), others go."""
    if output_format is OutputFormat.JSON:
        return text.replace(_V1, "#\\u0023[")
    if output_format is OutputFormat.GITHUB:
        return text.replace(_V1, "#" + ZWSP + "#[")
    return defuse_commands(text)


def _escaped(match: re.Match[str]) -> str:
    char = match.group(0)
    named = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}
    return named.get(char, f"\\x{ord(char):02x}" if ord(char) < 256 else f"\\u{ord(char):04x}")
