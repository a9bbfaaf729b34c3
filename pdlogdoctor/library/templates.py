"""Templates of error lines: the same error on 8 ranks or 3,000 requests is one template.

`template_of` masks what varies between occurrences of one error (numbers, hex, ids,
addresses, paths, quoted values, times); `mine` then merges templates that still differ
in a few words, the way Drain does: same number of tokens, same first token, and most
tokens equal; the differing positions become `<*>`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TypeVar

from .formats import Formats, shipped
from .lazyregex import LazyRegex

MAX_TEMPLATE = 300
SIMILARITY = 0.7  # share of equal tokens for two templates to be one
MIN_TOKENS_TO_MERGE = 4  # short templates ("Killed") are merged only when equal

_MASKS: tuple[tuple[LazyRegex, str], ...] = (
    (LazyRegex(r"\^M|\r"), ""),
    (LazyRegex(r"""'[^']{0,200}'|"[^"]{0,200}\""""), "<str>"),
    (LazyRegex(r"\b[a-z][\w+.-]*://\S+"), "<url>"),
    (LazyRegex(r"(?:\b[\w.-]+)?(?:/[\w.@+-]+){2,}/?"), "<path>"),
    (LazyRegex(r"\b(?:\d{1,3}\.){3}\d{1,3}(?::\d+)?\b"), "<ip>"),
    (LazyRegex(r"\b[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}\b"), "<id>"),
    (LazyRegex(r"\b0x[0-9a-fA-F]+\b"), "<hex>"),
    (LazyRegex(r"\b(?=[0-9a-fA-F]*\d)(?=[0-9a-fA-F]*[a-fA-F])[0-9a-fA-F]{8,}\b"), "<hex>"),
    (LazyRegex(r"\b[\w-]*\d[\w-]*[a-zA-Z][\w-]*\d[\w-]*\b(?<=\w{12,})"), "<id>"),  # chatcmpl-…, long ids
    (LazyRegex(r"\b\d\d:\d\d:\d\d(?:[.,]\d+)?\b"), "<time>"),
    (LazyRegex(r"\b\d{4}-\d\d-\d\d\b"), "<date>"),
    (LazyRegex(r"(?<![\w<])[-+]?\d+(?:\.\d+)?(?:e[-+]?\d+)?(?![\w>])"), "<num>"),
    (LazyRegex(r"\s+"), " "),
)


def message_of(line: str, formats: Formats | None = None) -> str:
    """The line without its time stamp, rank, level and tracing prefix, as the catalogue of line
    formats reads them (patterns/formats/; the shipped one when no other is given)."""
    return (formats or shipped()).message(line)


def template_of(message: str) -> str:
    """`message` with its variable parts masked."""
    text = message.replace("^M", "")
    for pattern, replacement in _MASKS:
        text = pattern.sub(replacement, text)
    return text.strip()[:MAX_TEMPLATE]


T = TypeVar("T")


def mine(items: Sequence[T], template: Callable[[T], str]) -> list[tuple[str, list[T]]]:
    """Group items whose templates are one Drain cluster; each group with its merged template.

    Items keep their order within a group; groups come in the order of their first item.
    """
    clusters: dict[tuple[int, str], list[tuple[list[str], list[T]]]] = {}
    order: list[tuple[list[str], list[T]]] = []
    for item in items:
        tokens = template(item).split(" ")
        key = (len(tokens), tokens[0] if tokens else "")
        bucket = clusters.setdefault(key, [])
        for cluster in bucket:
            if _similar(cluster[0], tokens):
                cluster[0][:] = [a if a == b else "<*>" for a, b in zip(cluster[0], tokens, strict=True)]
                cluster[1].append(item)
                break
        else:
            cluster = (tokens, [item])
            bucket.append(cluster)
            order.append(cluster)
    return [(" ".join(tokens), members) for tokens, members in order]


def _similar(left: list[str], right: list[str]) -> bool:
    if left == right:
        return True
    if len(left) < MIN_TOKENS_TO_MERGE:
        return False
    same = sum(1 for a, b in zip(left, right, strict=True) if a == b or a == "<*>")
    return same / len(left) >= SIMILARITY
