"""Does a file look like a serving log at all?

A file given beside the logs, or instead of them, may be something else: Python sources pasted
into one text file, a word list, a CSV, a README. Their text holds the same words as the logs
(`logger.error("Failed to register memory ...")`, `raise RuntimeError("CUDA out of memory")`), so
the library's patterns match them; but nothing in them happened. A file looks like a serving log
when a line of its head has the shape of a line some component prints at run time
(the catalogue of line formats, `patterns/formats/`), or when its name names the component that wrote it
(`prefill_<node>.log`, `router.log`, `bench.log`). The others are set aside: the pipeline does not
use their lines as evidence, and says so.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..library.errorlines import ErrorLayer
from ..library.formats import Formats
from ..model import InputProblem, Source
from .roles import role_from_name
from .timeline import clean_line

NOT_SERVING_LOG = "not-a-serving-log"
# The name counts only on a file named like a log: `decode_kernel.cu` or `router.go` in a
# source tree names a component too, but is not its output.
LOG_SUFFIXES = frozenset({"", ".log", ".txt", ".out", ".err"})
COMPRESSED_SUFFIXES = (".gz", ".zst")
NAMES_SHOWN = 5  # file names a note lists before it counts the rest


def serving_log_reason(name: str, head: str, layer: ErrorLayer | None) -> str | None:
    """Why this file looks like a serving log, or None when it does not. Without shapes in the
    library (a user's own library without open-world/), every file counts as a log."""
    if layer is None or not layer.formats.formats:
        return "no line formats in the pattern library"
    shape = _first_shape(head, layer.formats)
    if shape is not None:
        return f"a line in the shape of {shape}"
    named = role_from_name(name) if _log_suffix(name) else None
    return f"its name: {named[1]}" if named is not None else None


def not_serving_problem() -> InputProblem:
    return InputProblem(
        NOT_SERVING_LOG,
        "does not look like a serving log (no line in its first 64 KB has the shape of a line sglang, vLLM, "
        "glog, MORI, NCCL, UCX, torch, the router, the harness or a Python traceback prints, and its name "
        "names no component): its lines are not used as evidence",
    )


def set_aside(sources: Sequence[Source]) -> list[str]:
    """The names of the inputs that were read but do not look like serving logs."""
    return [s.name for s in sources if any(p.code == NOT_SERVING_LOG for p in s.problems)]


def set_aside_note(sources: Sequence[Source]) -> str | None:
    """The sentence every report format shows when files were set aside."""
    words, names = set_aside_words(sources), set_aside(sources)
    if words is None:
        return None
    shown = ", ".join(names[:NAMES_SHOWN]) + (
        f" and {len(names) - NAMES_SHOWN:,} more" if len(names) > NAMES_SHOWN else ""
    )
    return f"{words}: {shown}"


def set_aside_words(sources: Sequence[Source]) -> str | None:
    """That sentence up to the file names (a renderer that marks names up adds them itself)."""
    aside = len(set_aside(sources))
    if not aside:
        return None
    read = sum(1 for s in sources if s.bytes > 0)
    one = aside == 1
    return (
        f"{read - aside:,} of {read:,} files read look like serving logs; "
        f"{'this one does' if one else f'these {aside:,} do'} not, and {'its' if one else 'their'} lines "
        "were not used as evidence"
    )


def _first_shape(head: str, formats: Formats) -> str | None:
    """The format of the first line of the head that a component prints at run time (each line
    read as written and without a collector's prefix: compose, kubectl, grep, Actions)."""
    for raw in head.splitlines():
        line, _ = clean_line(raw)
        indented = line.lstrip() if line[:1] in (" ", "\t") and line.lstrip()[:1] == "[" else line
        for text in dict.fromkeys((raw, line, indented)):  # as written, unwrapped, a paste indented whole
            reading = formats.read(text)
            if reading.run_time and reading.format is not None:
                return reading.format.id
    return None


def _log_suffix(name: str) -> bool:
    base = name.rsplit("!", 1)[-1].rsplit("/", 1)[-1].lower()
    for compressed in COMPRESSED_SUFFIXES:
        base = base.removesuffix(compressed)
    stem, dot, suffix = base.rpartition(".")
    if dot and stem and suffix.isdigit():  # a rotated log: decode.log.1
        return True
    return (f".{suffix}" if dot and stem else "") in LOG_SUFFIXES
