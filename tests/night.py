"""Another night of the same incident: a bundle's logs with everything that changes from run to run changed.

What changes between two nights of one failure, in the real formats (log-formats.md): the date and
clock, process ids, addresses, request ids and bootstrap rooms, IPs and host names, counters such as
a collective's sequence number, and measured durations. What does not: the error, its errno and
status, sizes and settings. The fingerprint must see the second night as the same incident.
"""

from __future__ import annotations

import datetime
import gzip
import hashlib
import re
import shutil
from pathlib import Path

from .conftest import binary_input

WEEK = datetime.timedelta(days=7, hours=3, minutes=17)

_ISO = re.compile(r"\b(\d{4})-(\d\d)-(\d\d)([ T])(\d\d):(\d\d):(\d\d)")
_GLOG = re.compile(r"(?<![\w])([IWEF])(\d\d)(\d\d) (\d\d):(\d\d):(\d\d)")
_VLLM = re.compile(r"\b(INFO|WARNING|ERROR|DEBUG|CRITICAL) (\d\d)-(\d\d) (\d\d):(\d\d):(\d\d)")
# "word N" / "word=N" / "word: N" where N is a per-run number.
_PER_RUN_NUMBERS = re.compile(
    r"(?i)\b(pid|process|room|bootstrap_room|rid|request_id|seq|seqnum|ran for|elapsed|wr_id|qp_num|qpn)"
    r"([=: \[\"']+)(?:req-)?(\d+)"
)
_MORI_PID = re.compile(r"\] \[(\d{3,7})\] \[")
# dmesg -T `[Sat Nov 28 11:20:05 2026]` and UCX's `[1732791234.123456] [host:pid:tid]`.
_DMESG = re.compile(r"\[(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun) ([A-Z][a-z]{2}) +(\d{1,2}) (\d\d):(\d\d):(\d\d) (\d{4})\]")
_UCX = re.compile(r"\[([1-9]\d{9})(?=(?:\.\d+)?\] \[)")
# syslog / journalctl's short format `Jul 08 03:05:08 host unit[pid]: ` (year-less, the month by name).
_SYSLOG = re.compile(
    r"^(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) +(\d{1,2}) (\d\d):(\d\d):(\d\d)(?= \S+ \S+: )", re.M
)


def _shift(year: int, month: int, day: int, hour: int, minute: int, second: int) -> datetime.datetime:
    return datetime.datetime(year, month, day, hour, minute, second) + WEEK


def _moved(found: re.Match[str], fields: tuple[int, ...], shape: str, year: bool = True) -> str:
    parts = [int(found.group(k)) for k in fields]
    try:
        moved = _shift(*(parts if year else [2026, *parts]))
    except ValueError:  # not a real time (a fixture's garbage): leave it
        return found.group(0)
    return moved.strftime(shape)


def _iso(found: re.Match[str]) -> str:
    return _moved(found, (1, 2, 3, 5, 6, 7), f"%Y-%m-%d{found.group(4)}%H:%M:%S")


def _glog(found: re.Match[str]) -> str:
    return found.group(1) + _moved(found, (2, 3, 4, 5, 6), "%m%d %H:%M:%S", year=False)


def _vllm(found: re.Match[str]) -> str:
    return found.group(1) + _moved(found, (2, 3, 4, 5, 6), " %m-%d %H:%M:%S", year=False)


def _dmesg(found: re.Match[str]) -> str:
    month = datetime.datetime.strptime(found.group(1), "%b").month
    day, hour, minute, second, year = (int(found.group(k)) for k in (2, 3, 4, 5, 6))
    return _shift(year, month, day, hour, minute, second).strftime("[%a %b %e %H:%M:%S %Y]")


def _syslog(found: re.Match[str]) -> str:
    month = datetime.datetime.strptime(found.group(1), "%b").month
    day, hour, minute, second = (int(found.group(k)) for k in (2, 3, 4, 5))
    return _shift(2026, month, day, hour, minute, second).strftime("%b %d %H:%M:%S")


def another_night(text: str) -> str:
    text = _DMESG.sub(_dmesg, text)
    text = _SYSLOG.sub(_syslog, text)
    text = _UCX.sub(lambda m: f"[{int(m.group(1)) + int(WEEK.total_seconds())}", text)
    text = _ISO.sub(_iso, text)
    text = _GLOG.sub(_glog, text)
    text = _VLLM.sub(_vllm, text)
    text = _PER_RUN_NUMBERS.sub(lambda m: f"{m.group(1)}{m.group(2)}{int(m.group(3)) + 7919}", text)
    text = _MORI_PID.sub(lambda m: f"] [{int(m.group(1)) + 7919}] [", text)
    text = re.sub(r"0x7[0-9a-f]{11}", lambda m: hex(int(m.group(0), 16) - 0x123450000), text)
    text = re.sub(r"\b[0-9a-f]{32}\b", lambda m: hashlib.md5(m.group(0).encode()).hexdigest(), text)
    return re.sub(r"\b10\.(\d+)\.(\d+)\.(\d+)\b", r"10.\1.\3.\2", text)


def copy_night(bundle: Path, target: Path) -> Path:
    """`bundle` (with its subdirectories) as another night's logs; compressed files are rewritten inside."""
    for path in sorted(bundle.rglob("*")):
        out = target / path.relative_to(bundle)
        if path.is_dir() or path.name == "expected.toml":
            continue
        out.parent.mkdir(parents=True, exist_ok=True)
        if path.suffix == ".gz":
            out.write_bytes(gzip.compress(another_night(gzip.decompress(path.read_bytes()).decode()).encode()))
        elif path.suffix in (".zst", ".zip", ".tar") or binary_input(path):
            shutil.copyfile(path, out)  # a core dump or a stray binary is no log to rewrite
        else:
            out.write_text(another_night(path.read_text(encoding="utf-8")), encoding="utf-8")
    return target
