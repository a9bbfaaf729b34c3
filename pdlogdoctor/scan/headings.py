"""The measures stated under a heading line: `before <commit>` over a benchmark's result lines.

People compare two runs by pasting the same benchmark lines twice, each under a line of its own
that says which run it was (`before https://github.com/.../pull/26766, stay in commit 27a374ea`,
then `Output token throughput (tok/s): 513.61`; `after ...`, then `... 441.14`: sglang's
DeepSeek-V4 regression on B300). The heading holds no number to compare; the lines below it do.
`read_measures_below` returns them as one `measured` text, the shape compared.py pairs and reads
as it reads a `Before: <measure>` line: the lines right below the heading that hold a digit (one
blank line after the heading skipped, as a Markdown paste has it), up to the next blank line or heading.
"""

from __future__ import annotations

from ..model import FieldValue
from ..model.lazyre import lazy_re
from ..model.measures import SPACED
from ..model.textcut import clip
from .timeline import bare_line

MEASURE_LINES = 6  # lines read below a heading: a benchmark's summary block
MEASURED_CHARS = 600
BLANKS_AFTER_HEADING = 1  # blank lines skipped between the heading and its first measure
# ... and lines that only open the block: a Markdown code fence (```` ``` ````, ```` ```text ````), a
# commit's hash, a short label of the block (` > BH`, the device a demo ran on: tenstorrent/tt-metal#25107),
# the command that ran it at a shell prompt and a paste's `...` for the output left out (`$ bin/main -m
# ... -n 64`, `...`, then llama.cpp's timings: ggml-org/llama.cpp#7254).
OPENERS_AFTER_HEADING = 2
LABEL_CHARS = 24
# ... and the summary's own lines that state a setting in words, not a number (sglang's bench_serving:
# `Backend:                                 sglang`, `Max request concurrency:                 not set`),
# before its measures or between them: passed over, the block goes on.
SETTINGS_IN_BLOCK = 4
_SETTING = lazy_re(r"^[A-Za-z][\w ()./-]{0,48}:\s+[^\d\s][^\d]{0,40}$")
_HEADING = lazy_re(r"(?i)^[\s>*#-]*(?:\*\*)?(?:before|after|(?:last |first )?(?:good|bad) commit)\b")
_FENCE = lazy_re(r"^(?:```|~~~)[\w-]*$")
# A line that is only a commit's hash (`cba8b9d296cf042e0b3832f497dcc978fc61c5a3-->`): it names the
# build the block measured, as a label does, and its digits are no measure.
_HASH_LINE = lazy_re(r"^[\W_]*[0-9a-f]{7,40}[\W_]*$")
# A command typed at a shell prompt (`root@host:/app# pip3 list|grep torch`, `$ cat ...`): the block
# of measures ended above it.
# oh-my-zsh's arrow prompt (`➜  sglang git:(main) python3 ...`) is one too.
_PROMPT = lazy_re(
    r"^(?:\([\w.-]+\)\s*)?(?:[\w.-]+@[\w.-]+(?::[^\s$#%]*)?\s*[$#%]|[$%]|➜\s+\S+(?:\s+git:\([^)\s]*\))?(?:\s+✗)?)\s"
)
# A command pasted without its prompt, over the output it printed (`vllm bench throughput --model ...
# --output-len 50` under a heading, then its `Throughput: ...` line: vllm-project/vllm#25752): its
# digits are settings, not measures. Known launchers only, after any `VAR=value` assignments.
_COMMAND = lazy_re(
    r"^(?:[A-Z_][A-Z0-9_]*=\S*\s+)*(?:python3?|vllm|sglang|trtllm-[\w-]+|llama-[\w-]+|lm_eval|lm-eval|torchrun"
    r"|accelerate|genai-perf|guidellm|evalscope|docker|bash|sh|\./[\w./-]+)(?:\s+[\w.:/-]+){0,3}\s+--?\w"
    r"|^(?:[A-Z_][A-Z0-9_]*=\S*\s+)*python3?\s+(?:-m\s+)?[\w./-]+"
)
_DIGIT = lazy_re(r"\d")
_ELISION = lazy_re(r"^(?:\.{3,}|…)$")
_TABLE_LINE = lazy_re(r"^\|.*\|$")


def read_measures_below(buf: bytes | bytearray, line_end: int, limit: int) -> dict[str, FieldValue]:
    """`measured`: the lines below the heading ending at `line_end` that state a number, joined by
    `; `; nothing when the first line below (past one blank line, a code fence or a short label)
    states none."""
    measures: list[str] = []
    start = line_end + 1 if buf[line_end : line_end + 1] == b"\n" else line_end
    blanks = openers = settings = 0
    for _ in range(MEASURE_LINES + BLANKS_AFTER_HEADING + OPENERS_AFTER_HEADING + SETTINGS_IN_BLOCK):
        if start >= limit:
            break
        end = buf.find(b"\n", start, limit)
        end = limit if end < 0 else end
        # As the heading was read: without a collector's prefix or a launcher's tag before it.
        line = bare_line(bytes(buf[start:end]).decode("utf-8", "replace")).strip()
        if not measures and not line and blanks < BLANKS_AFTER_HEADING:
            blanks += 1  # a Markdown paste puts a blank line between a heading and its block
            start = end + 1
            continue
        if not measures and line and openers < OPENERS_AFTER_HEADING and _opens_block(line):
            openers += 1
            start = end + 1
            continue
        if measures and _TABLE_LINE.match(line) and not _DIGIT.search(line):
            start = end + 1  # a results table's header or rule between the block's lines (lm-eval's)
            continue
        if settings < SETTINGS_IN_BLOCK and _SETTING.match(line) and not _HEADING.match(line):
            settings += 1
            start = end + 1
            continue
        if not line or _HEADING.match(line) or _PROMPT.match(line) or not _DIGIT.search(line):
            break
        measures.append(line)
        start = end + 1
    if not measures:
        return {}
    measured: dict[str, FieldValue] = {"measured": clip("; ".join(measures), MEASURED_CHARS, mark="")}
    # `spaced`: a blank line came between the heading and its block. compared.py pairs a spaced
    # heading only with a spaced one: a paste laid out alike on both sides (`before X`, a blank line,
    # the measure; the same after), not a measure that happens to follow another heading's gap.
    return {**measured, SPACED: 1} if blanks else measured


def _opens_block(line: str) -> bool:
    """A code fence, a commit's hash alone, or a short label with no number (no measure, no heading
    of its own)."""
    if _FENCE.match(line) or _HASH_LINE.match(line) or _PROMPT.match(line) or _ELISION.match(line):
        return True
    if _COMMAND.match(line):
        return True
    return len(line) <= LABEL_CHARS and not _DIGIT.search(line) and not _HEADING.match(line)


# A bound stated on its own line reads its measure from the lines just above it: a result in prose
# bullets (`- Qwen3.5-397B-A17B-NVFP4-DEP2-MTP: 0.8469 accuracy, 5.8% invalid rate` over `- Required
# lower bound: 0.8500`: vllm-project/vllm#49881, a blind round's excerpt).
BOUND_LINES_ABOVE = 3
_ACCURACY_STATED = lazy_re(
    r"(?i)(?<![\w.])(?P<value>\d+(?:\.\d+)?)\s*(?:%\s*)?(?:accuracy|acc|score)\b"
    r"|\b(?:accuracy|acc|score)\b[^\d\n]{0,20}?(?<![\w.])(?P<after>\d+(?:\.\d+)?)"
)


def read_measure_above(buf: bytes | bytearray, line_start: int, line_end: int, limit: int) -> dict[str, FieldValue]:
    """`value` and `measured`: the accuracy stated on the nearest of the BOUND_LINES_ABOVE lines above
    the bound's line (`line_start`); nothing when none of them states one."""
    end = line_start - 1
    for _ in range(BOUND_LINES_ABOVE):
        if end <= 0:
            break
        start = buf.rfind(b"\n", 0, end) + 1
        line = bare_line(bytes(buf[start:end]).decode("utf-8", "replace")).strip()
        found = _ACCURACY_STATED.search(line)
        if found is not None:
            value = float(found.group("value") or found.group("after"))
            return {"value": value, "measured": clip(line, 200)}
        end = start - 1
    return {}
