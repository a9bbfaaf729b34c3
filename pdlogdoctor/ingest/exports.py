"""A log export saved as one JSON document, read as its log lines: one record a line, oldest first.

Two documents hold log lines with their time and labels rather than lines of a log:

- Grafana's Explore and logs panel, "Download logs" -> JSON: an array of
  `{"line": <the log line>, "timestamp": <epoch nanoseconds, a string>, "fields": {<labels>}}`,
  newest first as the panel shows them (grafana public/app/features/logs/utils.ts,
  `logRowsToReadableJson`; newer versions add `date`);
- Loki's `query_range` / `query` answer saved from curl:
  `{"status": "success", "data": {"resultType": "streams", "result": [{"stream": {<labels>},
  "values": [[<epoch ns>, <line>] or [<epoch ns>, <line>, <metadata>], ...]}, ...]}}`, each
  label set a stream of its own, newest first within it (Loki docs, loki-http-api.md).

Either is read as JSON lines, one `{"line", "timestamp", "labels"}` record per log line sorted by
time: the collectors' reading (scan/collectors.py: `line` is a message key, an epoch in nanoseconds
a time) then gives each line its own text and time, whatever the export's order or nesting. The
"lines" of such an input are its records, numbered from its oldest (a Grafana download is one line
of the file). Any other JSON document (a config, a report) is read as the text it is.
"""

from __future__ import annotations

import json
import re
from typing import Any

EXPORT_SNIFF_BYTES = 512
MAX_EXPORT_BYTES = 64 << 20  # a bigger document is read as the text it is (it is held in memory whole)
# The start of the two documents (whitespace allowed: a pretty-printed copy).
_GRAFANA_START = re.compile(rb'^(?:\xef\xbb\xbf)?\s*\[\s*\{\s*"(?:line|timestamp|date|fields)"\s*:')
_LOKI_START = re.compile(
    rb'^(?:\xef\xbb\xbf)?\s*\{\s*"status"\s*:\s*"success"\s*,\s*"data"\s*:\s*\{\s*"resultType"\s*:\s*"streams"'
)


def looks_like_export(head: bytes) -> bool:
    """Whether a stream's first bytes start a Grafana download or a Loki answer of log lines."""
    return _GRAFANA_START.match(head) is not None or _LOKI_START.match(head) is not None


def export_lines(document: bytes) -> bytes | None:
    """The document's log lines as JSON lines, oldest first; None when it holds none (it is no
    export of log lines after all, or no JSON)."""
    try:
        parsed = json.loads(document.decode("utf-8-sig", errors="replace"))
    except ValueError:
        return None
    records = _grafana(parsed) if isinstance(parsed, list) else _loki(parsed)
    if not records:
        return None
    records.sort(key=lambda record: _nanoseconds(record["timestamp"]))
    return b"".join(json.dumps(record, ensure_ascii=False).encode() + b"\n" for record in records)


def _grafana(rows: list[Any]) -> list[dict[str, Any]] | None:
    records = []
    for row in rows:
        if not isinstance(row, dict) or not isinstance(row.get("line"), str) or not _epoch(row.get("timestamp")):
            return None  # an array of other objects (`[{"line": "480", ...}]`: bus lines)
        labels = row.get("fields")
        records.append(_record(row["line"], row["timestamp"], labels if isinstance(labels, dict) else {}))
    return records


def _loki(answer: Any) -> list[dict[str, Any]] | None:
    data = answer.get("data") if isinstance(answer, dict) else None
    streams = data.get("result") if isinstance(data, dict) else None
    if not isinstance(streams, list):
        return None
    records = []
    for stream in streams:
        labels = stream.get("stream") if isinstance(stream, dict) else None
        values = stream.get("values") if isinstance(stream, dict) else None
        if not isinstance(values, list):
            return None
        for value in values:
            if not isinstance(value, list) or len(value) < 2 or not isinstance(value[1], str) or not _epoch(value[0]):
                return None
            records.append(_record(value[1], value[0], labels if isinstance(labels, dict) else {}))
    return records


def _epoch(timestamp: object) -> bool:
    """Both write the time as nanoseconds since the epoch, a string of digits."""
    return isinstance(timestamp, str) and timestamp.isdigit()


def _record(line: str, timestamp: str, labels: dict[str, Any]) -> dict[str, Any]:
    return {"line": line, "timestamp": timestamp, "labels": labels}


def _nanoseconds(timestamp: str) -> int:
    return int(timestamp)
