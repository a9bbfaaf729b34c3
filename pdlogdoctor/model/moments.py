"""A moment's text: the UTC date and clock of a time, without the year when no line told it.

A year-less stamp (vLLM's `11-04 02:17:17`, glog's `I1104 02:17:17`) is read in the epoch's
first year and given a year by the dated lines beside it (scan/timeline.py). In a bundle with no
dated line at all its times keep that first year: still ordered and apart as logged, so a restart
is seen after the crash it followed, but their year is unknown and is never printed (no 1970).
"""

from __future__ import annotations

import calendar
import time
from functools import lru_cache

YEAR_UNKNOWN_BEFORE = 366 * 86400.0  # the epoch's first year, plus a day a clock correction may move it


def year_unknown(seconds: float) -> bool:
    """A time whose year no line told."""
    return seconds < YEAR_UNKNOWN_BEFORE


@lru_cache(maxsize=1024)
def second_text(whole: int, separator: str = "T") -> str:
    """`2026-11-04T02:17:17`, or `--11-04T02:17:17` (ISO 8601's month and day without a year)
    when the year is unknown. Cached: the ten series of a metrics line share their first and last."""
    if year_unknown(whole):
        return time.strftime(f"--%m-%d{separator}%H:%M:%S", time.gmtime(whole))
    return time.strftime(f"%Y-%m-%d{separator}%H:%M:%S", time.gmtime(whole))


def without_year(seconds: float) -> float:
    """A time of a known year moved into the epoch's first year (its month, day and clock kept):
    comparable with the times whose year no line told (a `--since` bound against a vLLM-only bundle)."""
    if year_unknown(seconds):
        return seconds
    parts = time.gmtime(seconds)
    clock = (parts.tm_hour, parts.tm_min, parts.tm_sec, 0, 0, 0)
    return calendar.timegm((1970, parts.tm_mon, parts.tm_mday, *clock)) + seconds % 1  # as formats.py reads MM-DD
