"""Cutting a line that is too long without leaving half a secret behind.

Lives apart from redact.py so the scan (extract) can use it without loading the
redaction rules, which only the shareable formats need.
"""

from __future__ import annotations

import re

TOKEN_CHARS = re.compile(r"[\w+/=.~%-]")  # what a token, key or signature is made of


def clip(text: str, limit: int, mark: str = "…", cut: bool = False) -> str:
    """`text` cut to `limit` characters (or marked as cut already, when `cut`). A token cut in two
    loses its visible half too: a secret across the cut never shows a prefix too short for the
    rules to recognise."""
    if len(text) <= limit and not cut:
        return text
    kept = text[:limit]
    if len(text) > limit and not TOKEN_CHARS.match(text[limit]):
        return kept + mark
    start = len(kept)
    while start > 0 and TOKEN_CHARS.match(kept[start - 1]):
        start -= 1
    return kept[:start] + mark


def clip_around(text: str, limit: int, words: str, mark: str = "…") -> str:
    """`text` cut to about `limit` characters so that `words` (a part of it) stay in view: from the
    start when they lie within the limit, else from a little before them, with `mark` at each cut
    (a JSON access-log record names its failure two hundred characters in). The window starts on
    a token's start: no secret's tail shows without its head."""
    at = text.find(words) if words else -1
    if at < 0 or at + len(words) <= limit - len(mark):
        return clip(text, limit, mark)
    start = max(0, at - limit // 4)
    while 0 < start < at and TOKEN_CHARS.match(text[start - 1]) and TOKEN_CHARS.match(text[start]):
        start += 1  # inside a token: start after it
    return mark + clip(text[start:], limit - len(mark), mark)
