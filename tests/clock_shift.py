"""Move a log's clock: every timestamp that starts a line, in every shape the catalogue reads,
also behind a GitHub Actions stamp, a collector's or grep's prefix, or a paste's indent, and
inside a collector's record (a JSON line's message and time, containerd's and Cloud Logging's
time)."""

from __future__ import annotations

import calendar
import functools
import json
import time
from collections.abc import Callable

import regex

from pdlogdoctor.scan.collectors import MESSAGE_KEYS

# GitHub Actions `2026-07-02T10:16:03.4120000Z ` before the component's own line (moved too); the
# same RFC 3339 time before containerd's `stderr F ` and after Cloud Logging's severity.
ACTIONS = regex.compile(
    r"^(?P<lead>\ufeff?(?:(?:DEFAULT|DEBUG|INFO|NOTICE|WARNING|ERROR|CRITICAL|ALERT|EMERGENCY) )?)"
    r"(?P<date>\d{4}-\d\d-\d\d)(?P<sep>T)(?P<clock>\d\d:\d\d:\d\d)"
    r"(?P<tail>[.\d]*(?:Z|[+-]\d\d:\d\d) (?:(?:stdout|stderr) [FP] ?)?)"
)
# What wraps a component's line: docker compose `prefill-1  | `, kubectl `[pod/x/y] `, a job
# script's `[prefill] `, grep -H/-n `decode.log:120:`, the Python launcher's `[Router (Rust)] `,
# Ray's and vLLM's process tag `(Worker_TP2 pid=733) `, torchrun's `[default0]:`, an indent.
WRAPPER = regex.compile(
    r"(?:[\w.:/-]{1,63} *\| |\[pod/[^\]\s]+\] |\[(?:prefill|decode|router)\] |\[Router \(Rust\)\] "
    r"|\([\w.,-]+(?: [\w.=,-]+)*? pid=\d+(?:, ip=[\d.]+)?\)\s+|\[default\d+\]:"
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
# glog with its year (Mooncake): `E20260521 08:44:16`; TensorRT-LLM's `[05/27/2025-21:12:36]`.
GLOG_YEAR = regex.compile(r"(?P<lead>[IWEF])(?P<year>\d{4})(?P<month>\d\d)(?P<day>\d\d) (?P<clock>\d\d:\d\d:\d\d)")
TRTLLM = regex.compile(r"\[(?P<month>\d\d)/(?P<day>\d\d)/(?P<year>\d{4})-(?P<clock>\d\d:\d\d:\d\d)\]")
VLLM = regex.compile(
    r"(?P<lead>(?:\([\w ]+pid=\d+\)\s+)?(?:DEBUG|INFO|WARNING|ERROR|CRITICAL)\s+)"
    r"(?P<month>\d\d)-(?P<day>\d\d) (?P<clock>\d\d:\d\d:\d\d)"
)
# A JSON record's `time`: `2026-11-28T02:12:40.131000120Z`.
ISO = regex.compile(r"^(?P<lead>)(?P<date>\d{4}-\d\d-\d\d)(?P<sep>T)(?P<clock>\d\d:\d\d:\d\d)")
# UCX `[1732791234.123456] [host:pid:thread]`: seconds since the epoch.
UCX = regex.compile(r"(?P<lead>\[)(?P<epoch>[1-9]\d{9})(?=(?:\.\d+)?\] \[)")
# dmesg -T `[Sat Nov 28 11:20:05 2026]`: the weekday follows the date.
DMESG = regex.compile(
    r"\[(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun) (?P<month>[A-Z][a-z]{2}) +(?P<day>\d{1,2}) (?P<clock>\d\d:\d\d:\d\d) "
    r"(?P<year>\d{4})\]"
)
# syslog / journalctl short format `Jul 16 06:16:02 host prog[pid]: `: year-less, the month by name.
SYSLOG = regex.compile(
    r"(?P<month>Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)(?P<pad> +)(?P<day>\d{1,2}) (?P<clock>\d\d:\d\d:\d\d)"
    r"(?P<tag> [\w.-]+ [\w.@/-]+(?:\[\d+\])?: )"
)
# A launcher's own time and program tag `[2025-11-25 16:01:47] [/bin/sh@<0,0>]: ` (sglang#13912):
# its time, then the program's own line with its own time.
LAUNCHER = regex.compile(
    r"(?P<lead>\[)(?P<date>\d{4}-\d\d-\d\d)(?P<sep> )(?P<clock>\d\d:\d\d:\d\d)"
    r"(?P<tag>\] \[[^\]\s@]+@<\d+,\d+>\]: )"
)
YEARLESS_BASE = 2026  # month-day shapes are moved as if in this year


def shift_text(text: str, seconds: int) -> str:
    return "".join(_shift_line(line, seconds) for line in text.splitlines(keepends=True))


def _shift_line(line: str, seconds: int) -> str:
    if line.startswith("{"):
        return _shift_record(line, seconds)
    head = ""
    actions = ACTIONS.match(line)
    if actions is not None:
        head, line = _dated(actions, seconds) + actions["tail"], line[actions.end() :]
    journal = SYSLOG.match(line)
    if journal is not None:  # journald's time, then the program's own line with its own time
        return head + _syslog(journal, seconds) + _shift_line(line[journal.end() :], seconds)
    launcher = LAUNCHER.match(line)
    if launcher is not None:
        return head + _dated(launcher, seconds) + launcher["tag"] + _shift_line(line[launcher.end() :], seconds)
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


def _shift_record(line: str, seconds: int) -> str:
    """A collector's JSON record: its time and the line it holds, each moved."""
    body = line.rstrip("\n")
    try:
        record = json.loads(body)
    except ValueError:
        return line
    for key in MESSAGE_KEYS:  # every key a collector keeps the line under (a Cloud Logging export's textPayload)
        if isinstance(record.get(key), str):
            record[key] = _shift_line(record[key], seconds)
    for key in ("time", "timestamp"):
        if isinstance(record.get(key), str):
            record[key] = ISO.sub(lambda found: _dated(found, seconds), record[key], count=1)
    return json.dumps(record, separators=(",", ":")) + line[len(body) :]


def _epoch(found: regex.Match[str], seconds: int) -> str:
    return f"{found['lead']}{int(found['epoch']) + seconds}"


def _dmesg(found: regex.Match[str], seconds: int) -> str:
    month = MONTHS.index(found["month"]) + 1
    date, clock = _moved(f"{found['year']}-{month:02d}-{int(found['day']):02d}", found["clock"], seconds)
    return time.strftime("[%a %b %e %H:%M:%S %Y]", time.strptime(f"{date} {clock}", "%Y-%m-%d %H:%M:%S"))


MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")


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


def _glog_year(found: regex.Match[str], seconds: int) -> str:
    date, clock = _moved(f"{found['year']}-{found['month']}-{found['day']}", found["clock"], seconds)
    return f"{found['lead']}{date.replace('-', '')} {clock}"


def _syslog(found: regex.Match[str], seconds: int) -> str:
    """journald's stamp (the day zero-padded or space-padded, as found) and its host and program tag;
    the program's own line after it is moved as any line is."""
    month = MONTHS.index(found["month"]) + 1
    date, clock = _moved(f"{YEARLESS_BASE}-{month:02d}-{int(found['day']):02d}", found["clock"], seconds)
    day = date[8:10] if len(found["day"]) == 2 else f"{int(date[8:10]):>2}"
    return f"{MONTHS[int(date[5:7]) - 1]} {day} {clock}{found['tag']}"


def _trtllm(found: regex.Match[str], seconds: int) -> str:
    date, clock = _moved(f"{found['year']}-{found['month']}-{found['day']}", found["clock"], seconds)
    return f"[{date[5:7]}/{date[8:10]}/{date[:4]}-{clock}]"


SHAPES: tuple[tuple[regex.Pattern[str], Callable[[regex.Match[str], int], str]], ...] = (
    (DATED, _dated),
    (TORCH, lambda m, s: _yearless(m, s, "", padded=False)),
    (GLOG_YEAR, _glog_year),
    (GLOG, lambda m, s: _yearless(m, s, "")),
    (TRTLLM, _trtllm),
    (VLLM, lambda m, s: _yearless(m, s, "-")),
    (UCX, _epoch),
    (DMESG, _dmesg),
)
