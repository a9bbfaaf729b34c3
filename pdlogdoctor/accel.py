"""Optional accelerator (`pip install pdlogdoctor[fast]`): every anchor in one pass.

The pure-Python scanner runs one `bytes.find` pass per anchor, so its speed falls
as the library grows. Hyperscan finds all of them in one pass. It only answers
"where does each anchor occur in [lo, hi)": the scanner feeds those positions to
the same line logic as `bytes.find`, so events are identical with or without it
(tests/test_accel.py checks every fixture). RunOptions.accelerate=False (the CLI:
PDLOGDOCTOR_ACCEL=0) turns it off.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any


class Matcher:
    """Start positions of every occurrence of each literal anchor."""

    def __init__(self, database: Any, anchors: Sequence[bytes]) -> None:
        self.database = database
        self.lengths = [len(anchor) for anchor in anchors]

    def positions(self, buf: bytes, lo: int, hi: int) -> list[list[int]]:
        """Per anchor, ascending starts s with lo <= s and s + len(anchor) <= hi (as bytes.find)."""
        found: list[list[int]] = [[] for _ in self.lengths]
        lengths = self.lengths

        def on_match(anchor: int, _from: int, to: int, _flags: int, _context: object) -> None:
            start = to - lengths[anchor]
            if start >= lo and to <= hi:
                found[anchor].append(start)

        # The whole buffer is scanned (no copy of a slice); hits outside [lo, hi) are dropped.
        self.database.scan(buf, match_event_handler=on_match)
        for starts in found:
            starts.sort()
        return found


def load(anchors: Sequence[bytes]) -> Matcher | None:
    if not anchors:
        return None
    try:
        import hyperscan  # type: ignore[import-not-found, unused-ignore]
    except ImportError:
        return None
    try:
        database = hyperscan.Database()
        database.compile(
            expressions=[re.escape(anchor) for anchor in anchors],
            ids=list(range(len(anchors))),
            elements=len(anchors),
            flags=[0] * len(anchors),
        )
    except Exception:  # a library hyperscan cannot compile is scanned the pure-Python way
        return None
    return Matcher(database, anchors)
