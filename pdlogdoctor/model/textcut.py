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
