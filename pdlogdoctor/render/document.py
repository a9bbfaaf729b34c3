"""The report as plain data: what JSON prints and what other renderers can share."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

from .. import __version__
from ..model import (
    ClockOffset,
    Comparison,
    Delta,
    ErrorDelta,
    Event,
    ExcerptLine,
    ExcerptWindow,
    FactValue,
    Performance,
    Report,
    Series,
    SeriesRow,
    Severity,
    UnexplainedError,
    Verdict,
)
from ..model.counts import count_of
from ..model.known import KnownIssue, VersionSeen
from ..model.moments import second_text
from ..reason.fingerprint import fingerprint
from . import charts

SCHEMA_VERSION = "2.8"  # docs/json.md has the changelog


def format_time(seconds: float | None) -> str | None:
    if seconds is None:
        return None
    whole = int(seconds)
    millis = round((seconds - whole) * 1000)
    if millis == 1000:
        whole, millis = whole + 1, 0
    return second_text(whole) + f".{millis:03d}Z"


def folded_pattern(event: Event) -> str:
    """`mori-mr-register-failed (x2)`: the pattern, and the lines of its kind in the file when more than one."""
    count = count_of([event])
    return f"{event.pattern} (x{count})" if count.folded else event.pattern


def incomplete_reason(report: Report) -> str:
    """Why an answer rests on partial evidence, in a few words every format can show."""
    if any(problem.code == "timeout" for source in report.inputs for problem in source.problems):
        return "--timeout reached before every input was read"
    unread = [source.name for source in report.inputs if source.problems]
    return f"{len(unread)} input(s) not fully read" if unread else "not every input was read"


def chain_start(report: Report) -> float | None:
    """Δt is counted from the root cause; context lines read before it show as negative."""
    rooted = next((e.time for e in report.roots if e.time is not None), None)
    return rooted if rooted is not None else next((e.time for e in report.chain if e.time is not None), None)


def time_since(event: Event, start: float | None) -> str:
    """Signed time from the chain's first event: a root stamped in milliseconds may follow an
    effect stamped in whole seconds by a fraction of a second."""
    if event.time is None or start is None:
        return "?"
    seconds = event.time - start
    if abs(seconds) < 60:
        return f"{seconds:+.1f}s"
    return f"{seconds / 60:+.1f}m" if abs(seconds) < 3600 else f"{seconds / 3600:+.1f}h"


def chain_time(event: Event, start: float | None, absolute: bool) -> str:
    """When the event happened: Δt from the root, or (absolute) UTC on the reference clock;
    `~` marks a time inferred from the lines around an untimed line."""
    mark = "~" if event.time_inferred else ""
    if not absolute:
        shown = time_since(event, start)
        return shown if shown == "?" else mark + shown
    if event.time is None:
        return "?"
    return mark + second_text(int(event.time), " ")


def location(where: str) -> dict[str, Any]:
    """`file:line` as {"file", "line"}: a path may hold colons, the line number never does."""
    source, _, line = where.rpartition(":")
    return {"file": source, "line": int(line)} if line.isdigit() and source else {"file": where, "line": None}


def fact_text(value: FactValue) -> str:
    """A fact for people: thousands separators, lists joined, 'not in these logs' for unknown."""
    if value is None:
        return "not in these logs"
    if isinstance(value, int):
        return f"{value:,}"
    if isinstance(value, tuple):
        return ", ".join(fact_text(item) for item in value) or "none"
    return str(value)


def _value(value: FactValue) -> Any:
    return list(value) if isinstance(value, tuple) else value


def event_document(event: Event) -> dict[str, Any]:
    return {
        "pattern": event.pattern,
        "role": event.role.value,
        "file": event.source,
        "line": event.line,
        "time": format_time(event.time),
        "time_as_logged": event.time_text,
        "time_inferred": event.time_inferred,
        "time_latest": format_time(event.time_latest) if event.time_inferred else None,
        "text": event.text,
        "severity": event.severity.value,
        "repeats": max(1, count_of([event]).lines),  # a quoted stack frame (model/counts.py) is its own one line
        "repeats_at_least": event.at_least,
        "fields": {key: _value(value) for key, value in event.fields},
    }


def clock_document(clock: ClockOffset) -> dict[str, Any]:
    return {
        "file": clock.source,
        "reference": clock.reference,
        "method": clock.method,
        "measured_s": round(clock.measured, 3),
        "correction_s": round(clock.correction, 3),
        "pairs": clock.pairs,
        "pair_kinds": list(clock.reasons),
        "window_widened_s": clock.uncertainty,
    }


def _occurrence(event: Event) -> dict[str, Any]:
    return {"file": event.source, "line": event.line, "time": format_time(event.time), "text": event.text}


POSITION_LABELS = {"before-root": "before the root cause", "before-first-symptom": "before the first symptom"}


def position_label(item: UnexplainedError) -> str:
    """How a renderer names where an unexplained error sits."""
    label = POSITION_LABELS.get(item.position, "")
    return (
        f"earliest unexplained, {label}"
        if item.earliest and label
        else ("earliest unexplained" if item.earliest else label)
    )


def unrecognised_kind(report: Report) -> str:
    """What the unrecognised list holds, for its heading: warnings only when nothing failed."""
    warnings_only = report.unrecognised and all(item.severity is Severity.WARNING for item in report.unrecognised)
    return "warnings" if warnings_only else "errors"


def excerpt_document(window: ExcerptWindow) -> dict[str, Any]:
    lines = [{"line": line.line, "text": line.text, "distance": line.distance} for line in window.lines]
    return {"file": window.source, "time": format_time(window.time), "lines": lines}


# What a report where nothing failed says of the result lines it shows (scan/results.py).
RESULTS_READ_NOTE = (
    "Lines that state results. None was judged failed: no threshold was found to judge them by, and "
    "none was worse than a baseline or earlier run the lines give beside it."
)


def log_end_document(end: ExcerptLine) -> dict[str, Any]:
    return {"file": end.source, "line": end.line, "text": end.text}


def end_lines(report: Report) -> list[ExcerptLine]:
    """Where each log ends, as shown: the few lines above its last line (`log_ends_above`), then it."""
    return [
        line
        for end in report.log_ends
        for line in (*(above for above in report.log_ends_above if above.source == end.source), end)
    ]


def unrecognised_document(item: UnexplainedError) -> dict[str, Any]:
    return {
        "template": item.template,
        "marker": item.marker,
        "severity": item.severity.value,
        "count": item.count,
        "position": item.position,
        "earliest": item.earliest,
        "first": _occurrence(item.first),
        "last": _occurrence(item.last),
        "roles": [role.value for role in item.roles],
        "files": list(item.files),
    }


def thread_name(url: str) -> str:
    """`sgl-project/sglang#30313` for https://github.com/sgl-project/sglang/pull/30313; other links as they are."""
    parts = url.removeprefix("https://github.com/").split("/")
    if url.startswith("https://github.com/") and len(parts) == 4 and parts[3].isdigit():
        return f"{parts[0]}/{parts[1]}#{parts[3]}"
    return url


def version_document(version: VersionSeen) -> dict[str, Any]:
    return {"component": version.component, "version": version.version, **location(version.where), "how": version.how}


def known_document(issue: KnownIssue) -> dict[str, Any]:
    return {
        "id": issue.id,
        "title": issue.title,
        "source": issue.source,
        "status": issue.status,
        "component": issue.component,
        "fixed_in": issue.fixed_in,
        "standing": issue.standing,
        "seen": [version_document(version) for version in issue.seen],
        "workaround": issue.workaround,
        "fix": issue.fix,
        "sentence": issue.sentence,
    }


def _verdict_document(verdict: Verdict) -> dict[str, Any]:
    return {
        "id": verdict.id,
        "title": verdict.title,
        "confidence": verdict.confidence,
        "confidence_reasons": [{"name": s.name, "change": s.change, "why": s.why} for s in verdict.reasons],
        "summary": verdict.summary,
        "facts": {key: _value(value) for key, value in verdict.facts},
    }


def report_document(report: Report, streamed: bool = False) -> dict[str, Any]:
    """`streamed`: for json's encoder as it writes (json_format.py), the series' documents are made
    as it reaches each (`SeriesDocuments`), not all held at once."""
    document = _document(report)
    if report.performance is not None:
        document["performance"] = performance_document(report.performance, streamed)
    if report.comparison is not None:
        document.update(comparison_documents(report.comparison))
    return document


def _document(report: Report) -> dict[str, Any]:
    return {
        "schema_version": SCHEMA_VERSION,
        "tool": {"name": "pdlogdoctor", "version": __version__},
        "fingerprint": fingerprint(report),
        "verdict": _verdict_document(report.verdict),
        "chain": [event_document(event) for event in report.chain],
        "excerpt": [excerpt_document(window) for window in report.excerpt],
        "unrecognised": [unrecognised_document(item) for item in report.unrecognised],
        "log_ends": [log_end_document(end) for end in report.log_ends],
        "log_ends_above": [log_end_document(line) for line in report.log_ends_above],
        "results_read": [log_end_document(line) for line in report.results_read],
        "links": [
            {"cause": location(link.cause.where), "effect": location(link.effect.where), "reason": link.reason}
            for link in report.links
        ],
        "alternatives": [
            {"id": alt.id, "confidence": alt.confidence, "why_not": alt.why_not} for alt in report.alternatives
        ],
        "suggestions": [
            {
                "kind": s.kind,
                "name": s.name,
                "value": s.value,
                "reason": s.reason,
                "arithmetic": list(s.arithmetic),
                "lines_used": [location(where) for where in s.lines_used],
                "applies_to": [role.value for role in s.applies_to],
            }
            for s in report.suggestions
        ],
        "versions": [version_document(version) for version in report.versions],
        "known": [known_document(issue) for issue in report.known],
        "team": [{"link": m.link, "title": m.title, "matched_by": m.by} for m in report.team],
        "missing": list(report.missing),
        "advice": report.advice,
        "explain": report.explain,
        "incomplete": report.incomplete,
        "notes": list(report.notes),
        "time_notes": list(report.time_notes),
        "clocks": [clock_document(clock) for clock in report.clocks],
        "other_incidents": [
            {
                "verdict": _verdict_document(finding.verdict),
                "why_separate": finding.why_separate,
                "chain": [event_document(event) for event in finding.chain],
            }
            for finding in report.other_incidents
        ],
        "inputs": [
            {
                "file": source.name,
                "role": source.role.value,
                "role_reason": source.role_reason,
                "lines": source.lines,
                "bytes": source.bytes,
                "problems": [{"code": p.code, "message": p.message} for p in source.problems],
            }
            for source in report.inputs
        ],
    }


def performance_document(performance: Performance, streamed: bool = False) -> dict[str, Any]:
    """The JSON report's `performance` section: the gate, the finding, every series' summary."""
    gate = performance.gate
    return {
        "gate": None if gate is None else {**location(gate.where), "text": gate.text},
        "finding": performance.finding,
        "series": (
            SeriesDocuments(performance.series) if streamed else [series_document(s) for s in performance.series]
        ),
    }


class SeriesDocuments(list):  # type: ignore[type-arg]  # a list to json's encoder, which iterates it
    """Each series' document, made when json's encoder reaches it and dropped once written: a run
    over 100,000 small files has about a million series, and their documents held at once were
    most of its peak memory. Only for the pure-Python encoder that `indent` selects (the C one
    reads a list's items directly); nothing else sees it."""

    def __init__(self, series: Sequence[Series]) -> None:
        super().__init__()
        self.series = series

    def __len__(self) -> int:
        return len(self.series)

    def __bool__(self) -> bool:
        return bool(self.series)

    def __iter__(self) -> Iterator[dict[str, Any]]:
        return (series_document(series) for series in self.series)


def series_document(series: Series) -> dict[str, Any]:
    return {
        "file": series.source,
        "role": series.role.value,
        "node": series.node,
        "rank": series.rank,
        "pattern": series.pattern,
        "metric": series.metric,
        "count": series.count,
        "first_time": format_time(series.first_time),
        "last_time": format_time(series.last_time),
        "first": series.first,
        "last": series.last,
        "low": series.low,
        "high": series.high,
        "mean": charts.mean(series),
        "interval_s": round(series.interval, 3) if series.interval is not None else None,
        "peak": {"file": series.source, "line": series.peak_line},
    }


def comparison_documents(comparison: Comparison) -> dict[str, Any]:
    """The JSON report's `baseline` and `diff` sections."""
    return {
        "baseline": {
            "inputs": list(comparison.baseline),
            "verdict": comparison.baseline_verdict,
            "confidence": comparison.baseline_confidence,
            "summary": comparison.baseline_summary,
            "failing": comparison.baseline_failing,
        },
        "diff": {
            "changed": comparison.changed,
            "bearing_on_verdict": list(comparison.bearing),
            "values": [_delta_document(delta) for delta in comparison.deltas],
            "errors": [_error_document(error) for error in comparison.errors],
            "series": [_series_row_document(row) for row in comparison.series],
        },
    }


def _series_row_document(row: SeriesRow) -> dict[str, Any]:
    return {
        "metric": row.metric,
        "role": row.role,
        "before": series_document(row.before) if row.before is not None else None,
        "after": series_document(row.after) if row.after is not None else None,
        "left_range_s": row.departed,
        "direction": row.direction,
    }


def _delta_document(delta: Delta) -> dict[str, Any]:
    from ..runs.compare import describe  # with the run profiles: only a run with a baseline has deltas

    return {
        "section": delta.section,
        "key": delta.key,
        "roles": list(delta.roles),
        "before": _value(delta.before) if delta.before is not None else None,
        "after": _value(delta.after) if delta.after is not None else None,
        "change": delta.change,
        "unit": delta.unit,
        "ratio": round(delta.ratio, 4) if delta.ratio is not None else None,
        "note": delta.note,
        "bears_on_verdict": delta.bears,
        "explains_verdict": delta.explains,
        "where": list(delta.where),
        "text": describe(delta),
    }


def _error_document(error: ErrorDelta) -> dict[str, Any]:
    return {
        "template": error.template,
        "title": error.title,
        "before": error.before,
        "after": error.after,
        "change": error.change,
        "first": error.first,
        "first_time": format_time(error.first_time),
    }
