"""Cutting a line that is too long without leaving half a secret behind.

Lives apart from redact.py so the scan (extract) can use it without loading the
redaction rules, which only the shareable formats need.
"""

from __future__ import annotations

from .lazyre import lazy_re

TOKEN_CHARS = lazy_re(r"[\w+/=.~%-]")  # what a token, key or signature is made of


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


def ended(quoted: str) -> str:
    """A quote closing a sentence: its own full stop ends it (`... api failed.`, not `failed..`)."""
    return quoted if quoted.endswith((".", "!", "?")) else quoted + "."


# What a cut around `words` keeps after them when the line goes on: their object (`could not bind to
# address: 0.0.0.0:8000`), not the words cut off where they end.
AFTER_WORDS = 24


def clip_around(text: str, limit: int, words: str, mark: str = "…") -> str:
    """`text` cut to about `limit` characters so that `words` (a part of it) stay in view: a plain
    cut when they lie within the limit, else the line's start, `mark`, and the part around them
    (a JSON access-log record names its failure two hundred characters in). Each piece starts and
    ends on a token's edge: no secret shows only its tail or its head."""
    at = text.find(words) if words else -1
    if at < 0 or min(at + len(words) + AFTER_WORDS, len(text)) <= limit - len(mark):
        return clip(text, limit, mark)
    head = clip(text, limit // 3, "").rstrip()
    room = limit - len(head) - len(mark) - 2  # the spaces around the mark
    if at + len(words) + AFTER_WORDS >= len(text):  # the words end the line: show it to its end
        start = max(len(head), len(text) - room)
        while start < at and _inside_token(text, start):
            start += 1
        return f"{head} {mark} {text[start:].lstrip()}"
    start = max(len(head), min(at - room // 4, len(text) - room))
    back = start
    while back > len(head) and _inside_token(text, back):
        back -= 1  # start at the token's start, so it shows whole ...
    if at + len(words) <= back + room - len(mark):
        start = back
    while start < at and _inside_token(text, start):
        start += 1  # ... unless the words would not fit then: start after it
    return f"{head} {mark} {clip(text[start:], room, mark).lstrip()}"


def _inside_token(text: str, at: int) -> bool:
    return 0 < at < len(text) and bool(TOKEN_CHARS.match(text[at - 1])) and bool(TOKEN_CHARS.match(text[at]))
