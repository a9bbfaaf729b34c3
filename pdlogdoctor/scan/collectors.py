"""What log collectors wrap a component's own line in, and the time they add to it.

A container runtime or log shipper stores each line a component printed inside a record of its
own, with the time it received the line:

- docker's json-file driver, fluentd and fluent-bit (and the Kubernetes collectors built on
  them): one JSON object per line, `{"log":"<line>\\n","stream":"stderr","time":"<RFC 3339>"}`;
  vector and others name the line `message`, `journalctl -o json` names it `MESSAGE`, a Cloud
  Logging export `textPayload` (or `jsonPayload.message`);
- containerd and CRI-O (`/var/log/pods/.../0.log`): `<RFC 3339> stdout|stderr F|P <line>`, where
  `P` marks a line the runtime split because it was too long and `F` its last (or only) part;
- a Cloud Logging export pasted as text: `ERROR <RFC 3339> <line>`, the entry's severity first.

`unwrap` returns the component's line and the collector's time as `YYYY-MM-DDTHH:MM:SS[.f]Z`
(UTC), the shape the GitHub Actions runner's own prefix has: the rest of the reading layer treats
both alike, as when the line was received, used only when the line has no time of its own.
A record holds exactly one line of the file, so line numbers stay those of the file.
"""

from __future__ import annotations

import calendar
from typing import Any

from ..library.formats import shipped
from ..model.lazyre import lazy_re

_PARTS = lazy_re(
    r"^(?P<date>\d{4}-\d\d-\d\d)[T ](?P<clock>\d\d:\d\d:\d\d)(?:\.(?P<frac>\d+))?(?P<zone>Z|[+-]\d\d:?\d\d)?$"
)
# The keys a collector keeps the line under, and its time, most specific first. `msg`: the
# structured loggers of Go and Node (zap, logr, logrus, pino: llm-d's scheduler, Kubernetes
# controllers); `line`: logcli's `--output jsonl` (formats-round5.md C1, C3).
MESSAGE_KEYS = ("log", "message", "MESSAGE", "textPayload", "msg", "line")
# A structured logger's level (zap, logrus, pino, python-json-logger): its words at error or above,
# and pino's and bunyan's numbers (50 error, 60 fatal; Python's 50 is critical), as the level word
# the line gets in front when its message states none of its own. Not `severity`: Cloud Logging
# gives everything a container wrote to stderr ERROR, whatever it says (formats-round5.md C3).
LEVEL_KEYS = ("level", "levelname")
_ERROR_LEVELS = {"error": "ERROR", "err": "ERROR", "fatal": "CRITICAL", "critical": "CRITICAL",
                 "crit": "CRITICAL", "panic": "CRITICAL", "dpanic": "CRITICAL", "alert": "CRITICAL",
                 "emerg": "CRITICAL", "emergency": "CRITICAL"}  # fmt: skip
TIME_KEYS = ("time", "timestamp", "@timestamp", "date", "ts", "__REALTIME_TIMESTAMP", "receiveTimestamp")
# Epoch numbers: seconds, or finer units a collector writes as integers.
_EPOCH_UNITS = ((1e17, 1e9), (1e14, 1e6), (1e11, 1e3))
MAX_RECORD_CHARS = 1 << 20  # a longer "record" is not parsed (a line cut by the scan's limit)


def unwrap(line: str) -> tuple[str, str | None] | None:
    """(the component's line, the collector's UTC time or None), or None when no collector
    wrapped this line."""
    if line[:1] == "{":
        return _json_record(line)
    found = shipped().record(line)  # the records that are text: patterns/formats/collectors.toml
    return None if found is None else (line[found.end() :], utc_text(found.group("received")))


def unwrap_head(head: str) -> str:
    """A file's head with each collector record replaced by the line it holds, for what reads
    the head as a whole (role markers); unchanged when its first line is no record."""
    first = head[: head.find("\n")] if "\n" in head else head
    if unwrap(first) is None:
        return head
    lines = []
    for line in head.split("\n"):
        wrapped = unwrap(line)
        lines.append(wrapped[0] if wrapped is not None else line)
    return "\n".join(lines)


def utc_text(text: str) -> str | None:
    """An RFC 3339 (or ISO) time as `YYYY-MM-DDTHH:MM:SS[.f]Z` in UTC; None when it is not one."""
    found = _PARTS.match(text.strip())
    if found is None:
        return None
    zone = found.group("zone") or "Z"
    frac = found.group("frac")
    if zone == "Z":
        return f"{found.group('date')}T{found.group('clock')}" + (f".{frac}" if frac else "") + "Z"
    year, month, day = (int(part) for part in found.group("date").split("-"))
    hour, minute, second = (int(part) for part in found.group("clock").split(":"))
    try:
        whole = calendar.timegm((year, month, day, hour, minute, second, 0, 0, 0))
    except (ValueError, OverflowError):
        return None
    sign = -1 if zone[0] == "-" else 1
    digits = zone[1:].replace(":", "")
    whole -= sign * (int(digits[:2]) * 3600 + int(digits[2:]) * 60)  # local time minus its offset is UTC
    return _epoch_text(whole, frac)


# Where collectors keep the name of what wrote a record: logcli's `labels`, fluent-bit's and vector's
# `kubernetes` (pod_name, container_name, labels.app), Cloud Logging's `resource.labels`, the
# OpenTelemetry resource's `k8s.pod.name` (formats-round5.md C1-C3).
SOURCE_KEYS = frozenset(
    ("pod", "pod_name", "podName", "k8s.pod.name", "app", "app.kubernetes.io/name", "app.kubernetes.io/component",
     "container", "container_name", "k8s.container.name", "service", "service_name", "service.name")
)  # fmt: skip
_SOURCE_DEPTH = 3  # labels sit at most this deep (resource.labels.pod_name)


def record_sources(line: str) -> tuple[str, ...]:
    """The names a collector's JSON record gives the workload that wrote its line (pod, app,
    container, service), outermost first; () for a line that is no such record."""
    if line[:1] != "{":
        return ()
    record = _parsed(line)
    if record is None or _message(record) is None:
        return ()
    return tuple(_source_values(record, _SOURCE_DEPTH))


def _source_values(record: dict[str, Any], depth: int) -> list[str]:
    found = [value for key, value in record.items() if key in SOURCE_KEYS and isinstance(value, str)]
    if depth > 1:
        for value in record.values():
            if isinstance(value, dict):
                found.extend(_source_values(value, depth - 1))
    return found


def is_log_record(record: dict[str, Any]) -> bool:
    """A JSON object that is a log record: a line under a message key, and a time."""
    return _message(record) is not None and _record_time(record) is not None


def _json_record(line: str) -> tuple[str, str | None] | None:
    record = _parsed(line)
    if record is None:
        return None
    message = _message(record)
    if message is None:
        return None
    return _with_level(_with_outcome(_one_line(message), record), record), _record_time(record)


def _parsed(line: str) -> dict[str, Any] | None:
    text = line.rstrip()
    if not text.endswith("}") or len(text) > MAX_RECORD_CHARS:
        return None
    import json  # only a JSON-lines log pays for it

    try:
        record = json.loads(text)
    except ValueError:
        return None
    return record if isinstance(record, dict) else None


def _message(record: dict[str, Any]) -> str | None:
    for key in MESSAGE_KEYS:
        value = record.get(key)
        if isinstance(value, str):
            return value
    payload = record.get("jsonPayload")
    if isinstance(payload, dict) and isinstance(payload.get("message"), str):
        return str(payload["message"])
    return None


# The fields a structured logger states an outcome in beside a short message. A request logger's
# message is often one word: llama.cpp's JSON log says `"msg":"request"` and puts the answer in
# `status`, `method` and `path`; zap's and logr's errors sit in `error` (kubernetes-sigs/kueue#2226's
# "Unable to apply VisibilityServerOptions" is about "bind: address already in use"),
# python-json-logger's traceback in `exc_info`, a supervisor's exit in `exit_code`.
STATUS_KEYS = ("status", "status_code", "statusCode", "http_status", "code")
REQUEST_KEYS = ("method", "path", "uri")
ERROR_KEYS = ("error", "err", "exception", "exc_info", "stack_trace")
EXIT_KEYS = ("exit_code", "exitCode", "returncode")


def _with_outcome(line: str, record: dict[str, Any]) -> str:
    """The line with the outcome its record states beside it: an HTTP status with the request it
    answered, a non-zero exit code, and the statement of an error (a traceback's last line)."""
    status = _first_number(record, STATUS_KEYS)
    if status is not None and 100 <= status <= 599 and f"{status}" not in line:
        request = " ".join(f"{key}={record[key]}" for key in REQUEST_KEYS if isinstance(record.get(key), str))
        line = f"{line} status={status}" + (f" {request}" if request else "")
    exit_code = _first_number(record, EXIT_KEYS)
    if exit_code:
        line = f"{line} exit_code={exit_code}"
    error = _error_statement(record)
    if error and error not in line:
        line = f"{line}: {error}"
    return line


def _first_number(record: dict[str, Any], keys: tuple[str, ...]) -> int | None:
    for key in keys:
        value = record.get(key)
        if isinstance(value, bool):
            continue
        if isinstance(value, int):
            return value
        if isinstance(value, str) and value.isdigit() and len(value) < 6:
            return int(value)
    return None


def _error_statement(record: dict[str, Any]) -> str | None:
    """The error a record carries beside its message: the last line of a traceback, which states
    the exception; a one-line error as it is."""
    for key in ERROR_KEYS:
        value = record.get(key)
        if isinstance(value, str) and value.strip():
            lines = [text for text in value.strip().splitlines() if text.strip()]
            return lines[-1].strip()
    return None


def _with_level(line: str, record: dict[str, Any]) -> str:
    """The line with the record's level in front when that level is error or above and the line
    states no level of its own."""
    level = _error_level(record)
    if level is None:
        return line
    return line if shipped().read(line).level is not None else f"{level} {line}"


def _error_level(record: dict[str, Any]) -> str | None:
    for key in LEVEL_KEYS:
        value = record.get(key)
        if isinstance(value, str):
            return _ERROR_LEVELS.get(value.strip().lower())
        if isinstance(value, int) and not isinstance(value, bool):
            return "ERROR" if value >= 50 else None
    return None


def _one_line(message: str) -> str:
    """The record's line without its newline. A record that holds several lines (a shipper's
    multiline join) stays one line of the file: its inner breaks are shown as `\\n`, as stored."""
    text = message.rstrip("\r\n")
    return text.replace("\r\n", "\\n").replace("\n", "\\n") if "\n" in text else text


def _record_time(record: dict[str, Any]) -> str | None:
    for key in TIME_KEYS:
        value = record.get(key)
        if value is None or isinstance(value, bool):
            continue
        found = _time_value(value)
        if found is not None:
            return found
    return None


def _time_value(value: object) -> str | None:
    if isinstance(value, str):
        if value.isdigit():  # journald's __REALTIME_TIMESTAMP: microseconds, as a string
            return _epoch_number(int(value))
        return utc_text(value)
    if isinstance(value, (int, float)):
        return _epoch_number(value)
    if isinstance(value, dict) and isinstance(value.get("seconds"), (int, str)):  # protobuf Timestamp
        nanos = value.get("nanos", 0)
        return _epoch_text(int(value["seconds"]), f"{int(nanos):09d}" if isinstance(nanos, int) and nanos else None)
    return None


def _epoch_number(value: float) -> str | None:
    for threshold, per_second in _EPOCH_UNITS:
        if value >= threshold:
            value = value / per_second
            break
    if not 1e8 < value < 1e10:  # 1973 to 2286: anything else is not a wall time
        return None
    whole = int(value)
    frac = f"{value - whole:.6f}"[2:]
    return _epoch_text(whole, frac)


def _epoch_text(whole: int, frac: str | None) -> str:
    import time

    clock = time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(whole))
    return clock + (f".{frac}" if frac else "") + "Z"
