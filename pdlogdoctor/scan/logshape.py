"""Does a file look like a serving log at all?

A file given beside the logs, or instead of them, may be something else: Python sources pasted
into one text file, a word list, a CSV, a README. Their text holds the same words as the logs
(`logger.error("Failed to register memory ...")`, `raise RuntimeError("CUDA out of memory")`), so
the library's patterns match them; but nothing in them happened. A file looks like a serving log
when a line of its head has the shape of a line some component prints at run time
(`patterns/open-world/log-shapes.toml`), or when its name names the component that wrote it
(`prefill_<node>.log`, `router.log`, `bench.log`). The others are set aside: the pipeline does not
use their lines as evidence, and says so.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..library.errorlines import ErrorLayer, Shape
from ..model import InputProblem, Source
from .roles import role_from_name
from .timeline import clean_line

NOT_SERVING_LOG = "not-a-serving-log"
# The name counts only on a file named like a log: `decode_kernel.cu` or `router.go` in a
# source tree names a component too, but is not its output.
LOG_SUFFIXES = frozenset({"", ".log", ".txt", ".out", ".err"})
COMPRESSED_SUFFIXES = (".gz", ".zst")
FIRST_LOOK = 4 << 10  # bytes of the head tried first
NAMES_SHOWN = 5  # file names a note lists before it counts the rest


def serving_log_reason(name: str, head: str, layer: ErrorLayer | None) -> str | None:
    """Why this file looks like a serving log, or None when it does not. Without shapes in the
    library (a user's own library without open-world/), every file counts as a log."""
    if layer is None or not layer.shapes:
        return "no serving-log shapes in the pattern library"
    shape = _first_shape(head, layer.shapes)
    if shape is not None:
        return f"a line in the shape of {shape.id}"
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


def _first_shape(head: str, shapes: Sequence[Shape]) -> Shape | None:
    """A log shows its shape in its first lines: the whole head is searched only when they do not."""
    start = head[: head.rfind("\n", 0, FIRST_LOOK) + 1] if len(head) > FIRST_LOOK else ""
    for text in (start, head) if start else (head,):
        cleaned = _without_collector_prefixes(text)
        for shape in shapes:
            if shape.regex.search(text) or (cleaned and shape.regex.search(cleaned)):
                return shape
    return None


def _without_collector_prefixes(head: str) -> str:
    """The head's lines that a collector prefixed (compose, kubectl, grep, Actions), without it."""
    lines = []
    for raw in head.splitlines():
        line, _ = clean_line(raw)
        if line != raw:
            lines.append(line)
    return "\n".join(lines)


def _log_suffix(name: str) -> bool:
    base = name.rsplit("!", 1)[-1].rsplit("/", 1)[-1].lower()
    for compressed in COMPRESSED_SUFFIXES:
        base = base.removesuffix(compressed)
    stem, dot, suffix = base.rpartition(".")
    if dot and stem and suffix.isdigit():  # a rotated log: decode.log.1
        return True
    return (f".{suffix}" if dot and stem else "") in LOG_SUFFIXES
