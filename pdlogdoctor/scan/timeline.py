"""Line clean-up and the timestamp shapes of every component in the reference.

All naive timestamps are read as UTC: sglang, MORI and glog print local time
without a zone, the router prints UTC, and CI containers run in UTC. Year-less
shapes (glog, torch, vLLM) get their year later from the rest of the bundle.
"""

from __future__ import annotations

import calendar
import functools
import re
import time
from collections import Counter
from dataclasses import replace

from ..model import Event
from ..model.values import record
from .collectors import unwrap

# GitHub Actions prepends `2026-07-02T10:16:03.4120000Z ` to every line it stores.
ACTIONS_PREFIX = re.compile(r"^\ufeff?(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z) ")
ANSI = re.compile(r"\x1b\[[0-9;?]*[ -/]*[@-~]")

_SHAPES: tuple[tuple[str, re.Pattern[str]], ...] = (
    # sglang: [2026-07-02 10:16:03.412 DP0 TP0 EP0] ; uvicorn: [2026-07-02 10:15:30] INFO: ...
    ("sglang", re.compile(
        r"^\[(?P<date>\d{4}-\d\d-\d\d) (?P<clock>\d\d:\d\d:\d\d)(?:[.,](?P<frac>\d+))?"
        r"(?P<ranks>(?: [A-Z_]+\d+)*)\]"
    )),
    # MORI spdlog: [2026-07-02 10:16:03.412] [48211] [application] [error]
    # (the sglang shape above already covers the bracketed date; kept for the frac width)
    # Rust router (tracing, UTC): 2026-02-26 13:00:12 ERROR ... or ISO 2026-02-26T13:00:12.123Z
    ("router", re.compile(
        r"^(?P<date>\d{4}-\d\d-\d\d)[ T](?P<clock>\d\d:\d\d:\d\d)(?:[.,](?P<frac>\d+))?Z?"
        r"(?=\s+(?:TRACE|DEBUG|INFO|WARN|WARNING|ERROR|CRITICAL)\b|\s*[-|])"
    )),
    # torch c10 (ProcessGroupNCCL, the NCCL watchdog): [rank3]:[E702 10:16:03.412345678 File.cpp:616] msg;
    # glog's letter and month-day with the month not zero-padded (E626 is June 26, E1206 December 6)
    ("torch", re.compile(
        r"^\[rank\d+\]:\[[IWEF](?P<month>1[0-2]|0?[1-9])(?P<day>[0-3]\d) "
        r"(?P<clock>\d\d:\d\d:\d\d)(?:\.(?P<frac>\d+))?\s"
    )),
    # glog: E0702 10:16:03.412345 48211 file.cc:12] msg
    ("glog", re.compile(r"^[IWEF](?P<month>\d\d)(?P<day>\d\d) (?P<clock>\d\d:\d\d:\d\d)(?:\.(?P<frac>\d+))?\s")),
    # vLLM: (EngineCore_DP0 pid=123) ERROR 07-02 10:16:03 [file.py:12] msg
    ("vllm", re.compile(
        r"^(?:\([\w ]+pid=\d+\)\s+)?(?:DEBUG|INFO|WARNING|ERROR|CRITICAL)\s+"
        r"(?P<month>\d\d)-(?P<day>\d\d) (?P<clock>\d\d:\d\d:\d\d)(?:\.(?P<frac>\d+))?"
    )),
    # dmesg -T (the kernel's log in the host's local time): [Sat Nov 28 11:20:05 2026] msg
    ("dmesg", re.compile(
        r"^\[(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun) (?P<monthname>Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) "
        r"{1,2}(?P<day>\d{1,2}) (?P<clock>\d\d:\d\d:\d\d) (?P<year>\d{4})\]"
    )),
    # UCX's own log (ucs_log): [1732791234.123456] [host:pid:thread] file.c:NNN UCX  ERROR msg, in
    # seconds since the epoch; the `[host:pid:thread]` after it tells it from the kernel's uptime.
    ("ucx", re.compile(r"^\[(?P<epoch>[1-9]\d{9})(?:\.(?P<frac>\d+))?\] \[[^\]\s]*:\d+ *:\d+\]")),
    # Any other line that starts with a full date and time.
    ("generic", re.compile(
        r"^\[?(?P<date>\d{4}-\d\d-\d\d)[ T](?P<clock>\d\d:\d\d:\d\d)(?:[.,](?P<frac>\d+))?"
    )),
)  # fmt: skip

_VLLM = dict(_SHAPES)["vllm"]
# The kernel's own stamp without -T: seconds since boot ([ 1234.567890] msg). No wall time can be
# read from it, and none may be lent to it from the lines around it.
_SINCE_BOOT = re.compile(r"^\[ *\d+\.\d{6}\] ")
MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")
_RANK = re.compile(r"([A-Z_]+?)(\d+)")


@record
class Stamp:
    """A parsed timestamp; `year_known` is False for glog/vLLM month-day shapes."""

    seconds: float  # since the epoch; for year-less shapes, computed with year 1970
    text: str
    year_known: bool
    ranks: tuple[tuple[str, int], ...] = ()
    utc: bool = False  # the shape is UTC whatever the host's zone (UCX's seconds since the epoch)


def clean_line(raw: str) -> tuple[str, str | None]:
    """Remove the Actions prefix, a collector's record (JSON lines, containerd, Cloud Logging),
    colour codes and a log collector's prefix; return (line, the time it was received: the
    runner's or the collector's, as an RFC 3339 UTC time)."""
    actions_time = None
    wrapped = unwrap(raw)
    if wrapped is None:
        found = ACTIONS_PREFIX.match(raw)
        if found:
            actions_time = found.group(1)
            raw = raw[found.end() :]
            wrapped = unwrap(raw)  # a job that printed a pod's log: the collector's time is closer
    if wrapped is not None:
        raw, actions_time = wrapped[0], wrapped[1] or actions_time
    if "\x1b" in raw:
        raw = ANSI.sub("", raw)
    collector = _STRIPPED_PREFIX.match(raw)
    if collector is not None:
        raw = raw[collector.end() :]
        # `kubectl logs --prefix --timestamps` puts the runtime's RFC 3339 stamp after the pod
        # prefix: the same shape and meaning as the runner's stamp (when the line was received).
        received = ACTIONS_PREFIX.match(raw) if actions_time is None else None
        if received is not None:
            actions_time = received.group(1)
            raw = raw[received.end() :]
    line = raw.rstrip("\r\n")
    return (_last_redraws(line) if "\r" in line else line), actions_time


# A progress bar redraws itself after a lone CR, every redraw starting with the bar's own words
# ("Capturing batches (bs=8 avail_mem=...):  10%|█  | ..."). Of consecutive redraws of one bar
# only the last says anything; the others would push the line's own text (an error written
# behind the bar, on the same line of the file) out of what a report shows.
_BAR_WORDS = re.compile(r"[A-Za-z][A-Za-z ]{3,}")
_BAR_PERCENT = re.compile(r"\d%(?:\||\s*$| Completed)")  # tqdm's `NN%|bar|`, vLLM's `NN% Completed`, a bare `NN%`
_BAR_END = re.compile(r"[\]%]\s*$")  # tqdm's `[elapsed<left, rate]`, or a bare percentage


def _last_redraws(line: str) -> str:
    """`line` with each run of redraws of one progress bar cut to its last (the CRs kept)."""
    kept: list[str] = []
    for segment in line.split("\r"):
        if kept and _redraws(kept[-1], segment):
            kept[-1] = segment
        else:
            kept.append(segment)
    return "\r".join(kept)


def _redraws(earlier: str, later: str) -> bool:
    """Whether `later` redraws the progress bar `earlier` is (and nothing else: it ends as a bar
    does, so no text written behind it is dropped): the same leading words, a percentage in both."""
    words = _BAR_WORDS.match(earlier)
    return (
        words is not None
        and later.startswith(words.group(0))
        and _BAR_PERCENT.search(earlier) is not None
        and _BAR_PERCENT.search(later) is not None
        and _BAR_END.search(earlier) is not None
    )


# What log collectors put before a component's own line: `docker compose` service names
# (`prefill-1  | `), and the older Python router launcher's `[Router (Rust)] `.
_COLLECTOR_PREFIX = re.compile(r"^(?:\[Router \(Rust\)\] |[\w.:/-]{1,63}\s*\| )")
# Removed from every line before matching: `docker compose logs` (`prefill-1  | `, padded) and
# `kubectl logs --prefix` (`[pod/NAME/CONTAINER] `), `grep -H`/`-n` over several files
# (`vllm_p3.log:`, `vllm_p3.log-` for context lines, `decode.log:120:`) and a job script's
# `[prefill] ` tags. All only ever wrap a
# component's own line.
# With -n the line number ends the prefix, so what follows may be indented (a traceback frame).
_GREP_FILE = r"[\w./-]{1,200}?\.(?:log|txt|out|err)(?:\.\d+)?[:-](?:\d+[:-]|(?=\S))"
GREP_PREFIX = re.compile(r"^(?P<file>[\w./-]{1,200}?\.(?:log|txt|out|err))(?:\.\d+)?[:-](?:\d+[:-]|(?=\S))")
_STRIPPED_PREFIX = re.compile(
    r"^(?:[\w.-]{1,63} +\| |\[pod/[^\]\s]{1,253}\] |\[(?:prefill|decode|router)\] |" + _GREP_FILE + ")"
)


def grep_file(raw: str) -> str | None:
    """The file a `grep -H` prefix names (`vllm_p3.log:...`): the line's own source, inside a paste."""
    found = GREP_PREFIX.match(raw)
    return found.group("file") if found else None


def parse_stamp(line: str) -> Stamp | None:
    if line[:1] in (" ", "\t") and line.lstrip()[:1] == "[":
        line = line.lstrip()  # a pasted excerpt indented as a whole
    stamp = _parse_at_start(line)
    if stamp is None:
        prefix = _COLLECTOR_PREFIX.match(line)
        if prefix is not None:
            stamp = _parse_at_start(line[prefix.end() :])
    if stamp is None and "\r" in line:
        # A progress bar's redraws (lone CRs) before a logged line, all one line of the file:
        # the line's time is the one after the last CR.
        stamp = parse_stamp(line[line.rindex("\r") + 1 :])
    return stamp


def _parse_at_start(line: str) -> Stamp | None:
    if not line or not (line[0] == "[" or line[0].isdigit() or line[0] in "IWEF("):
        return _shape_anywhere(line)
    for name, shape in _SHAPES:
        found = shape.match(line)
        if found:
            return _to_stamp(name, found)
    return None


def _shape_anywhere(line: str) -> Stamp | None:
    # vLLM lines can start with "(EngineCore_DP0 pid=1)" or log level words.
    if line[:1] in ("D", "C") or line.startswith(("INFO", "WARNING", "ERROR")):
        found = _VLLM.match(line)
        if found:
            return _to_stamp("vllm", found)
    return None


def parse_actions_time(text: str) -> Stamp:
    date, clock = text.rstrip("Z").split("T")
    clock, _, frac = clock.partition(".")
    return Stamp(_epoch(date, clock, frac), f"{date} {clock}", True)


def since_boot(line: str) -> bool:
    """A kernel log line stamped in seconds since boot (plain `dmesg`): it has no wall time."""
    return line[:1] == "[" and _SINCE_BOOT.match(line) is not None


def _to_stamp(shape: str, found: re.Match[str]) -> Stamp:
    groups = found.groupdict()
    frac = groups.get("frac") or ""
    if groups.get("epoch"):
        return _epoch_stamp(int(groups["epoch"]), frac)
    clock = groups["clock"]
    if groups.get("monthname"):
        month_number = MONTHS.index(groups["monthname"]) + 1
        groups["date"] = f"{groups['year']}-{month_number:02d}-{int(groups['day']):02d}"
    if groups.get("date"):
        date = groups["date"]
        seconds = _epoch(date, clock, frac)
        text = f"{date} {clock}" + (f".{frac[:3]}" if frac else "")
        year_known = True
    else:
        month = f"{int(groups['month']):02d}"  # torch does not pad it
        date = f"1970-{month}-{groups['day']}"
        seconds = _epoch(date, clock, frac)
        text = f"{month}-{groups['day']} {clock}"
        year_known = False
    return Stamp(seconds, text, year_known, _ranks(groups.get("ranks") or ""))


@functools.lru_cache(maxsize=256)
def _ranks(text: str) -> tuple[tuple[str, int], ...]:
    """` DP0 TP3 EP3` as ((DP, 0), (TP, 3), (EP, 3)); a server's lines repeat a few such tags."""
    return tuple((m.group(1), int(m.group(2))) for m in _RANK.finditer(text))


def _epoch_stamp(whole: int, frac: str) -> Stamp:
    text = time.strftime("%Y-%m-%d %H:%M:%S", time.gmtime(whole)) + (f".{frac[:3]}" if frac else "")
    return Stamp(whole + (float(f"0.{frac}") if frac else 0.0), text, True, utc=True)


MAX_ZONE_S = 14 * 3600
ZONE_TOLERANCE_S = 30 * 60


def on_local_clock(stamp: Stamp, local: Stamp | None) -> Stamp:
    """A UTC stamp (UCX's) read on the clock of the lines printed around it: sglang, vLLM and glog
    print the host's local time without a zone, so in one file UCX's lines would sit whole hours
    away from the lines they came with. The nearest local stamp above tells the hours (when it
    is within half an hour of a whole-hour shift); without one, the stamp stays UTC."""
    if not stamp.utc or local is None or local.utc:
        return stamp
    near = local.seconds
    if not local.year_known:
        year = year_of(stamp.seconds)
        near = min((with_year(near, y) for y in (year - 1, year, year + 1)), key=lambda t: abs(t - stamp.seconds))
    hours = round((near - stamp.seconds) / 3600)
    if abs(hours * 3600) > MAX_ZONE_S or abs(near - stamp.seconds - hours * 3600) > ZONE_TOLERANCE_S:
        return stamp
    seconds = stamp.seconds + hours * 3600
    if "." not in local.text:  # read at that clock's resolution: whole seconds sort as whole seconds
        seconds = float(int(seconds))
    return Stamp(seconds, stamp.text, True, stamp.ranks)


def dated_by(stamp: Stamp, received: str | None) -> Stamp:
    """A year-less stamp (glog, vLLM) given the year of the time its collector received the line:
    of that year, the one before or after, whichever lands nearest it (a line of Dec 31 received
    on Jan 1)."""
    if stamp.year_known or received is None:
        return stamp
    near = parse_actions_time(received).seconds
    year = year_of(near)
    best = min((with_year(stamp.seconds, y) for y in (year - 1, year, year + 1)), key=lambda t: abs(t - near))
    date = time.strftime("%Y-%m-%d", time.gmtime(best))
    return Stamp(best, f"{date} {stamp.text.split(' ', 1)[-1]}", True, stamp.ranks)


def _epoch(date: str, clock: str, frac: str) -> float:
    midnight = _midnight(date)
    if midnight is None:
        return 0.0
    hour, minute, second = (int(part) for part in clock.split(":"))
    whole = midnight + hour * 3600 + minute * 60 + second  # as calendar.timegm adds them
    return whole + (float(f"0.{frac}") if frac else 0.0)


@functools.lru_cache(maxsize=256)
def _midnight(date: str) -> int | None:
    """The epoch seconds of a date's midnight (UTC): a log's lines share few dates, so each is
    computed once (a metrics line every few seconds made this a tenth of the scan's time)."""
    year, month, day = (int(part) for part in date.split("-"))
    try:
        return calendar.timegm((year, month, day, 0, 0, 0, 0, 0, 0))
    except (ValueError, OverflowError):
        return None


def with_year(seconds: float, year: int) -> float:
    """Move a year-less (1970-based) time into `year`."""
    day_seconds = seconds % 86400
    month_day = int(seconds // 86400) * 86400
    parts = time.gmtime(month_day)
    try:
        return calendar.timegm((year, parts.tm_mon, parts.tm_mday, 0, 0, 0, 0, 0, 0)) + day_seconds
    except ValueError:
        return seconds


def year_of(seconds: float) -> int:
    return time.gmtime(seconds).tm_year


# ---------------------------------------------------------------- the bundle's timeline


def place_on_timeline(events: list[Event]) -> list[Event]:
    """Give year-less times (glog, vLLM) a year, then sort once: of the bundle's year (from its
    dated lines), the one before or after, whichever lands nearest them (a glog line of Jan 1
    next to sglang lines of Dec 31 belongs to the next year). Without a dated line anywhere, no
    year can be told: those times stay unknown (never 1970), each line kept in its file's order."""
    dated = [e.time for e in events if e.time is not None and _dated(e)]
    if dated:
        year = Counter(year_of(t) for t in dated).most_common(1)[0][0]
        low, high = min(dated), max(dated)
        events = [_with_nearest_year(e, year, low, high) for e in events]
    else:
        events = [_undated(e) for e in events]
    return sorted(events, key=lambda e: (e.time if e.time is not None else float("inf"), e.source, e.line))


def _dated(event: Event) -> bool:
    return bool(event.time_text and event.time_text[:4].isdigit())


def _with_nearest_year(event: Event, year: int, low: float, high: float) -> Event:
    if event.time is None or event.time_text is None or _dated(event):
        return event
    candidates = [with_year(event.time, y) for y in (year, year - 1, year + 1)]
    best = min(candidates, key=lambda t: max(low - t, t - high, 0.0))
    return _moved(event, best - event.time)


def _undated(event: Event) -> Event:
    """A year-less time with no year to give it: unknown (its time as logged is still shown)."""
    if event.time is None:
        return event
    return replace(event, time=None, time_latest=None, time_inferred=False)


def _moved(event: Event, seconds: float) -> Event:
    if not seconds or event.time is None:
        return event
    latest = event.time_latest + seconds if event.time_latest is not None else None
    return replace(event, time=event.time + seconds, time_latest=latest)
