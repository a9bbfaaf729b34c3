"""Move a log's clock: every timestamp that starts a line, in every shape the reference lists,
also behind a GitHub Actions stamp, a collector's or grep's prefix, or a paste's indent."""

from __future__ import annotations

import calendar
import functools
import time
from collections.abc import Callable

import regex

# GitHub Actions `2026-07-02T10:16:03.4120000Z ` before the component's own line (moved too).
ACTIONS = regex.compile(
    r"^(?P<lead>\ufeff?)(?P<date>\d{4}-\d\d-\d\d)(?P<sep>T)(?P<clock>\d\d:\d\d:\d\d)(?P<tail>[.\d]*Z )"
)
# What wraps a component's line: docker compose `prefill-1  | `, kubectl `[pod/x/y] `, a job
# script's `[prefill] `, grep -H/-n `decode.log:120:`, the Python launcher's `[Router (Rust)] `,
# an indent.
WRAPPER = regex.compile(
    r"(?:[\w.:/-]{1,63} *\| |\[pod/[^\]\s]+\] |\[(?:prefill|decode|router)\] |\[Router \(Rust\)\] "
    r"|[\w./-]{1,200}?\.(?:log|txt|out|err)(?:\.\d+)?[:-](?:\d+[:-])?|[ \t]+)*"
)
# sglang/uvicorn/MORI `[2026-07-02 10:16:03`, router `2026-07-02 10:16:03` or ISO `2026-07-02T10:16:03`.
DATED = regex.compile(r"(?P<lead>\[?)(?P<date>\d{4}-\d\d-\d\d)(?P<sep>[ T])(?P<clock>\d\d:\d\d:\d\d)")
# torch c10 `[rank3]:[E702 10:16:03` (month not zero-padded); glog `E0702 10:16:03`;
# vLLM `(EngineCore_DP0 pid=1) ERROR 07-02 10:16:03`.
TORCH = regex.compile(
    r"(?P<lead>\[rank\d+\]:\[[IWEF])(?P<month>1[0-2]|0?[1-9])(?P<day>[0-3]\d) (?P<clock>\d\d:\d\d:\d\d)"
)
GLOG = regex.compile(r"(?P<lead>[IWEF])(?P<month>\d\d)(?P<day>\d\d) (?P<clock>\d\d:\d\d:\d\d)")
VLLM = regex.compile(
    r"(?P<lead>(?:\([\w ]+pid=\d+\)\s+)?(?:DEBUG|INFO|WARNING|ERROR|CRITICAL)\s+)"
    r"(?P<month>\d\d)-(?P<day>\d\d) (?P<clock>\d\d:\d\d:\d\d)"
)
YEARLESS_BASE = 2026  # month-day shapes are moved as if in this year


def shift_text(text: str, seconds: int) -> str:
    return "".join(_shift_line(line, seconds) for line in text.splitlines(keepends=True))


def _shift_line(line: str, seconds: int) -> str:
    head = ""
    actions = ACTIONS.match(line)
    if actions is not None:
        head, line = _dated(actions, seconds) + actions["tail"], line[actions.end() :]
    moved = _shift_stamp(line, seconds)
    if moved is not None:
        return head + moved
    wrapper = WRAPPER.match(line)
    assert wrapper is not None  # it matches the empty string
    moved = _shift_stamp(line[wrapper.end() :], seconds) if wrapper.group() else None
    return head + line if moved is None else head + wrapper.group() + moved


def _shift_stamp(line: str, seconds: int) -> str | None:
    """The line with the stamp it starts with moved; None when it starts with none."""
    for shape, move in SHAPES:
        found = shape.match(line)
        if found is not None:
            return move(found, seconds) + line[found.end() :]
    return None


def _dated(found: regex.Match[str], seconds: int) -> str:
    date, clock = _moved(found["date"], found["clock"], seconds)
    return f"{found['lead']}{date}{found['sep']}{clock}"


def _yearless(found: regex.Match[str], seconds: int, joiner: str, padded: bool = True) -> str:
    date, clock = _moved(f"{YEARLESS_BASE}-{int(found['month']):02d}-{found['day']}", found["clock"], seconds)
    month, day = date[5:7], date[8:10]
    return f"{found['lead']}{month if padded else int(month)}{joiner}{day} {clock}"


@functools.cache  # a log repeats its seconds many times over
def _moved(date: str, clock: str, seconds: int) -> tuple[str, str]:
    year, month, day = (int(part) for part in date.split("-"))
    hour, minute, second = (int(part) for part in clock.split(":"))
    moved = calendar.timegm((year, month, day, hour, minute, second, 0, 0, 0)) + seconds
    moved_date, moved_clock = time.strftime("%Y-%m-%d %H:%M:%S", time.gmtime(moved)).split()
    return moved_date, moved_clock


SHAPES: tuple[tuple[regex.Pattern[str], Callable[[regex.Match[str], int], str]], ...] = (
    (DATED, _dated),
    (TORCH, lambda m, s: _yearless(m, s, "", padded=False)),
    (GLOG, lambda m, s: _yearless(m, s, "")),
    (VLLM, lambda m, s: _yearless(m, s, "-")),
)
