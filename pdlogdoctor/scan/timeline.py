"""Line clean-up, and the time of a line as the catalogue of line formats reads it.

Each component's time format is data (patterns/formats/, library/formats.py). All naive
timestamps are read as UTC: sglang, MORI and glog print local time without a zone, the router
prints UTC, and CI containers run in UTC. Year-less shapes (glog, torch, vLLM) get their year
later from the rest of the bundle.
"""

from __future__ import annotations

import calendar
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import replace

from ..library.formats import Formats, LineStamps, Stamp, epoch_of, shipped
from ..model import Event
from ..model.lazyre import lazy_re
from .collectors import unwrap

ANSI = lazy_re(r"\x1b\[[0-9;?]*[ -/]*[@-~]")
# rsyslog writes a control character it receives as `#` and its octal code: a colour code
# arrives as `#033[33m` in /var/log/syslog and journal exports (vllm#1160's raylet lines).
ESCAPED_ANSI = lazy_re(r"#033\[[0-9;?]*[ -/]*[@-~]")

# The kernel's own stamp without -T: seconds since boot ([ 1234.567890] msg). No wall time can be
# read from it, and none may be lent to it from the lines around it.
_SINCE_BOOT = lazy_re(r"^\[ *\d+\.\d{6}\] ")


def lines_below(buf: bytes | bytearray, line_stop: int, buf_end: int, count: int) -> Iterator[str]:
    """Up to `count` lines after the line that ends at `line_stop` (its newline), each cleaned as
    `clean_line` cleans a line; fewer where `buf_end` comes first."""
    start = line_stop + 1
    for _ in range(count):
        if start >= buf_end:
            return
        stop = buf.find(b"\n", start, buf_end)
        stop = buf_end if stop < 0 else stop
        yield clean_line(buf[start:stop].decode("utf-8", errors="replace"))[0]
        start = stop + 1


def clean_line(raw: str) -> tuple[str, str | None]:
    """Remove the Actions prefix, a collector's record (JSON lines, containerd, Cloud Logging),
    colour codes and a log collector's prefix; return (line, the time it was received: the
    runner's or the collector's, as an RFC 3339 UTC time)."""
    actions_time = None
    catalogue = shipped()  # the collectors' prefixes (patterns/formats/collectors.toml)
    wrapped = unwrap(raw)
    if wrapped is None and catalogue.any_received.match(raw) is not None:  # (most lines: one match, no)
        found = catalogue.received(raw)
        if found:
            actions_time = found.group("received")
            raw = raw[found.end() :]
            wrapped = unwrap(raw)  # a job that printed a pod's log: the collector's time is closer
    if wrapped is not None:
        raw, actions_time = wrapped[0], wrapped[1] or actions_time
    raw = without_colours(raw)
    collector = catalogue.line_source(raw) if catalogue.any_source.match(raw) is not None else None
    if collector is not None:
        raw = raw[collector.end() :]
        # `kubectl logs --prefix --timestamps` puts the runtime's RFC 3339 stamp after the pod
        # prefix: the same shape and meaning as the runner's stamp (when the line was received).
        received = catalogue.received(raw) if actions_time is None else None
        if received is not None:
            actions_time = received.group("received")
            raw = raw[received.end() :]
        # A service that logs JSON records, behind compose's or kubectl's prefix (`litellm-1 | {"message": ...}`).
        inner = unwrap(raw) if raw[:1] == "{" else None
        if inner is not None:
            raw, actions_time = without_colours(inner[0]), inner[1] or actions_time
    line = raw.rstrip("\r\n")
    if line.endswith(CARET_RETURN):
        line = line[: -len(CARET_RETURN)]  # a carriage return as `cat -v`, vim and less show it, pasted as text
    return (_last_redraws(line) if "\r" in line else line), actions_time


CARET_RETURN = "^M"


def bare_line(raw: str) -> str:
    """The line as a block reader sees it: without a collector's prefix (clean_line) nor the timed
    tags journald or a launcher put before it (Formats.inside_tags, timed_only), so the rows of a table or
    the measures under a heading read the same in a terminal, a CI log or `journalctl`'s output. An
    untimed tag stays: `Buildkite | ...` is a dashboard row's first cell, not a compose service."""
    return shipped().inside_tags(clean_line(raw)[0], timed_only=True)


def without_colours(text: str) -> str:
    """`text` without terminal colour codes, sent (ESC) or escaped by syslog (`#033`)."""
    if "\x1b" in text:
        text = ANSI.sub("", text)
    if "#033[" in text:
        text = ESCAPED_ANSI.sub("", text)
    return text


# A progress bar redraws itself after a lone CR, every redraw starting with the bar's own words
# ("Capturing batches (bs=8 avail_mem=...):  10%|█  | ..."). Of consecutive redraws of one bar
# only the last says anything; the others would push the line's own text (an error written
# behind the bar, on the same line of the file) out of what a report shows.
_BAR_WORDS = lazy_re(r"[A-Za-z][A-Za-z ]{3,}")
_BAR_PERCENT = lazy_re(r"\d%(?:\||\s*$| Completed)")  # tqdm's `NN%|bar|`, vLLM's `NN% Completed`, a bare `NN%`
_BAR_END = lazy_re(r"[\]%]\s*$")  # tqdm's `[elapsed<left, rate]`, or a bare percentage


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


def grep_file(raw: str) -> str | None:
    """The file a `grep -H` prefix names (`vllm_p3.log:...`): the line's own source, inside a paste
    (the collectors' `file` group, patterns/formats/collectors.toml)."""
    found = shipped().line_source(raw)
    return found.groupdict().get("file") if found else None


def parse_stamp(line: str, formats: Formats | None = None) -> Stamp | None:
    """The time the line's own prefix states (patterns/formats/: every component's time format,
    behind a launcher's or collector's tag), or None."""
    return parse_stamps(line, formats)[0]


def parse_stamps(line: str, formats: Formats | None = None) -> LineStamps:
    """The line's own time and the time its collector received it (`Formats.stamps`), read once."""
    catalogue = formats or shipped()
    found = catalogue.stamps(line)  # (an excerpt indented as a whole is read without its indent)
    if found[0] is None and "\r" in line:
        # A progress bar's redraws (lone CRs) before a logged line, all one line of the file:
        # the line's time is the one after the last CR.
        found = parse_stamps(line[line.rindex("\r") + 1 :], catalogue)
    return found


def parse_actions_time(text: str) -> Stamp:
    date, clock = text.rstrip("Z").split("T")
    clock, _, frac = clock.partition(".")
    return Stamp(epoch_of(date, clock, frac), f"{date} {clock}", True)


def since_boot(line: str) -> bool:
    """A kernel log line stamped in seconds since boot (plain `dmesg`): it has no wall time."""
    return line[:1] == "[" and _SINCE_BOOT.match(line) is not None


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
    year can be told, but the files still share their month, day and clock: the times stay in
    the year-less first year of the epoch (model/moments.py), ordered and apart as logged, and are
    shown without a year (a vLLM-only bundle's restart is still after its crash)."""
    dated = [e.time for e in events if e.time is not None and _dated(e)]
    if dated:
        year = Counter(year_of(t) for t in dated).most_common(1)[0][0]
        low, high = min(dated), max(dated)
        events = [_with_nearest_year(e, year, low, high) for e in events]
    events = _within_their_second(events)
    return sorted(events, key=lambda e: (e.time if e.time is not None else float("inf"), e.source, e.line))


def _within_their_second(events: list[Event]) -> list[Event]:
    """A time printed to the whole second says only the second: within it, the line's place in
    its file says the rest. A vLLM line stamped 06:43:02 below a glog line of 06:43:02.966 in
    the same file was written after it, so it takes that time (not 06:43:02.000, before it)."""
    last: dict[str, float] = {}
    placed = []
    for event in sorted(events, key=lambda e: (e.source, e.line)):
        before = last.get(event.source)
        if _whole_second(event) and before is not None and event.time is not None and 0 < before - event.time < 1:
            event = replace(event, time=before)
        if event.time is not None and not event.time_inferred:
            last[event.source] = event.time
        placed.append(event)
    return placed


def _whole_second(event: Event) -> bool:
    return event.time_text is not None and not event.time_inferred and "." not in event.time_text


def _dated(event: Event) -> bool:
    return bool(event.time_text and event.time_text[:4].isdigit())


def _with_nearest_year(event: Event, year: int, low: float, high: float) -> Event:
    if event.time is None or event.time_text is None or _dated(event):
        return event
    candidates = [with_year(event.time, y) for y in (year, year - 1, year + 1)]
    best = min(candidates, key=lambda t: max(low - t, t - high, 0.0))
    return _moved(event, best - event.time)


def _moved(event: Event, seconds: float) -> Event:
    if not seconds or event.time is None:
        return event
    latest = event.time_latest + seconds if event.time_latest is not None else None
    return replace(event, time=event.time + seconds, time_latest=latest)
