"""Move a log's clock: every timestamp that starts a line, in every shape the reference lists."""

from __future__ import annotations

import calendar
import time

import regex

# sglang/uvicorn/MORI `[2026-07-02 10:16:03`, router `2026-07-02 10:16:03` or ISO `2026-07-02T10:16:03`,
# GitHub Actions `2026-07-02T10:16:03.4120000Z `; glog `E0702 10:16:03`; vLLM `ERROR 07-02 10:16:03`.
DATED = regex.compile(r"^(?P<lead>\ufeff?\[?)(?P<date>\d{4}-\d\d-\d\d)(?P<sep>[ T])(?P<clock>\d\d:\d\d:\d\d)", regex.M)
GLOG = regex.compile(r"^(?P<lead>[IWEF])(?P<month>\d\d)(?P<day>\d\d) (?P<clock>\d\d:\d\d:\d\d)", regex.M)
VLLM = regex.compile(
    r"^(?P<lead>(?:\([\w ]+pid=\d+\)\s+)?(?:DEBUG|INFO|WARNING|ERROR|CRITICAL)\s+)"
    r"(?P<month>\d\d)-(?P<day>\d\d) (?P<clock>\d\d:\d\d:\d\d)",
    regex.M,
)
YEARLESS_BASE = 2026  # month-day shapes are moved as if in this year


def shift_text(text: str, seconds: int) -> str:
    text = DATED.sub(lambda m: _dated(m, seconds), text)
    text = GLOG.sub(lambda m: _yearless(m, seconds, ""), text)
    return VLLM.sub(lambda m: _yearless(m, seconds, "-"), text)


def _dated(found: regex.Match[str], seconds: int) -> str:
    moved = _epoch(found["date"], found["clock"]) + seconds
    date, clock = time.strftime("%Y-%m-%d %H:%M:%S", time.gmtime(moved)).split()
    return f"{found['lead']}{date}{found['sep']}{clock}"


def _yearless(found: regex.Match[str], seconds: int, joiner: str) -> str:
    moved = _epoch(f"{YEARLESS_BASE}-{found['month']}-{found['day']}", found["clock"]) + seconds
    month, day, clock = time.strftime("%m %d %H:%M:%S", time.gmtime(moved)).split()
    return f"{found['lead']}{month}{joiner}{day} {clock}"


def _epoch(date: str, clock: str) -> int:
    year, month, day = (int(part) for part in date.split("-"))
    hour, minute, second = (int(part) for part in clock.split(":"))
    return calendar.timegm((year, month, day, hour, minute, second, 0, 0, 0))
