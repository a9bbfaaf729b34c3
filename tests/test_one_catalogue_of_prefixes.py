"""A line's prefix is known in one place (issue 25 item 3): the catalogue of line formats.

What a collector or a launcher puts before a component's line (the Actions runner's time, docker
compose's service, kubectl's `[pod/...] `, `grep -H`'s file name, a job script's `[prefill] `,
Ray's and the workers' `(Name pid=N) `) is a format of `patterns/formats/` (`kind = "collector"`
or `"wrapper"`), and every place that reads it asks the catalogue: a new prefix is one data file.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

from pdlogdoctor.library.formats import Formats
from pdlogdoctor.library.patterns import Library
from pdlogdoctor.scan.roles import role_from_prefix
from pdlogdoctor.scan.timeline import clean_line, grep_file

PACKAGE = Path(__file__).resolve().parent.parent / "pdlogdoctor"
_COMPILERS = ("compile", "LazyRegex")


def _line_start_regexes() -> list[tuple[str, int, re.Pattern[str]]]:
    """Every regex literal of the package anchored at a line's start (`^`), where it is."""
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if not (isinstance(node, ast.Call) and ast.unparse(node.func).endswith(_COMPILERS) and node.args):
                continue
            source = node.args[0]
            if isinstance(source, ast.Constant) and isinstance(source.value, str) and source.value.startswith("^"):
                found.append((str(path.relative_to(PACKAGE)), node.lineno, re.compile(source.value)))
    return found


def _prefixes(formats: Formats) -> list[tuple[str, str, int]]:
    """The collectors' and launchers' samples with the length of the prefix their format reads."""
    prefixes = []
    for fmt in formats.formats:
        if fmt.kind in ("collector", "wrapper"):
            for sample in fmt.samples:
                found = fmt.regex.match(sample.line)
                if found is not None and found.end():
                    prefixes.append((fmt.id, sample.line, found.end()))
    return prefixes


def test_no_regex_in_python_reads_a_prefix_the_catalogue_holds(library: Library) -> None:
    """Seen failing on the code before (its regex literals against these samples): timeline's
    ACTIONS_PREFIX and GREP_PREFIX, roles' _ACTIONS_LINE and _ROLE_PREFIX, traceback's
    _LAUNCHER_PREFIX each read a sample's prefix exactly (timeline's _STRIPPED_PREFIX, built by
    concatenation, is out of this check's sight; it is gone too)."""
    readers = [
        f"{path}:{line} reads {fmt_id}'s prefix"
        for path, line, regex in _line_start_regexes()
        for fmt_id, sample, end in _prefixes(library.formats)
        if (found := regex.match(sample)) is not None and found.end() == end
    ]
    assert readers == []


def test_the_collectors_prefixes_are_read_from_the_catalogue() -> None:
    """What the Python regexes did, now from the data (patterns/formats/collectors.toml)."""
    assert clean_line("2026-04-25T05:18:16.2685185Z ##[error]Process completed with exit code 1.") == (
        "##[error]Process completed with exit code 1.",
        "2026-04-25T05:18:16.2685185Z",
    )
    assert clean_line("deep_ai     | 2024-06-04 08:31:57 [uvicorn.server] INFO:     Uvicorn running")[0] == (
        "2024-06-04 08:31:57 [uvicorn.server] INFO:     Uvicorn running"
    )
    grep = "vllm_p3.log:(EngineCore_DP3 pid=546) INFO 08-29 09:12:36 [mooncake_connector.py:1910] Delaying free"
    assert grep_file(grep) == "vllm_p3.log"
    assert role_from_prefix("[pod/sglang-decode-0/sglang] The server is fired up and ready to roll!") is not None
    assert role_from_prefix("[PREFILL] INFO 19:11:39", tags_only=True) is not None
    assert role_from_prefix("[pod/sglang-decode-0/sglang] ready", tags_only=True) is None
