"""GitHub Actions: workflow-command annotations, one per thing a reader must act on.

- A diagnosed cause: one `::error`, on the root line, with the fix; the chain's other
  events are its symptoms, shown as `::notice` (most causal first).
- Inconclusive (or no failure seen): one `::warning` verdict, and each failure the logs
  hold but nothing explains as a `::warning`: errors nobody recognised as a cause. When
  nothing failed, the warning lines no pattern names, then where each log ends (`::notice`).
- Healthy: one `::notice`, so a green diagnosis step still says what it checked.
- A failure the team's tracker knows (config `known`) says "This is <link>" in its `::error`;
  upstream problems it is known as (patterns/known/) come as one `::notice`, the last.

At most MAX_ANNOTATIONS lines (with many of both, the unnamed lines and where the logs end
share what is left half and half). `file=`/`line=` are given only for plain files inside
GITHUB_WORKSPACE (options.workspace_files), as paths relative to it: the only paths the
annotation UI can open. Those paths are redacted like every other file name, as the
issue-ready outputs are: a node name in `prefill_<node>.log` would otherwise give away
what the step summary masks. A masked path links nowhere in the UI, but names the file
the summary's chain, excerpt and legend name. The step summary and step outputs are
files: the CLI writes them (step_files.py).
"""

from __future__ import annotations

from typing import TextIO

from ..model import Comparison, Event, ExcerptLine, Report, UnexplainedError
from ..model.counts import count_of
from ..model.verdicts import HEALTHY, INCONCLUSIVE, NO_FAILURE_SEEN
from ..scan.logshape import set_aside_note
from . import changes
from .document import incomplete_reason
from .fixes import LETTERS, NO_CAUSE, confidence_words, fixes, verify_first
from .neutralise import show_lone_crs
from .options import RenderOptions
from .outbound import Outbound

MAX_ANNOTATIONS = 10
MESSAGE_CHARS = 2000


def escape_data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_property(text: str) -> str:
    return escape_data(text).replace(":", "%3A").replace(",", "%2C")


def command(level: str, message: str, properties: dict[str, str]) -> str:
    props = ",".join(f"{key}={escape_property(value)}" for key, value in properties.items())
    return f"::{level} {props}::{escape_data(show_lone_crs(message[:MESSAGE_CHARS]))}"


def render(report: Report, out: TextIO, options: RenderOptions) -> None:
    for line in annotation_lines(report, options):
        out.write(line + "\n")


def annotation_lines(report: Report, options: RenderOptions) -> list[str]:
    redactor = None
    if options.redact:
        from .redact import redactor_for  # the rules load only when they are used

        redactor = redactor_for(report)
    outbound = Outbound(redactor)
    shown = outbound.report(report)
    places = {id(event): _place(options.workspace_file(event.source), outbound) for event in report.chain}
    titles = dict(report.glossary)
    lines = [_verdict_annotation(shown, places.get(id(report.chain[0])) if report.chain else None, report)]
    aside = set_aside_note(shown.inputs)
    if aside:  # files whose lines were no evidence: said even on a healthy run
        lines.append(command("notice", aside, {"title": "pdlogdoctor: not serving logs"}))
    if report.verdict.id == HEALTHY:
        return lines
    lines += [command("notice", note, {"title": "pdlogdoctor: clocks"}) for note in shown.time_notes]
    if shown.comparison is not None:
        lines.append(_changes_annotation(shown.comparison))
    lines += [
        command(
            "warning",
            f"{f.verdict.summary}\n({f.why_separate})",
            {"title": f"pdlogdoctor: other incident: {f.verdict.id}"},
        )
        for f in shown.other_incidents
    ]
    level = "notice" if report.verdict.id not in NO_CAUSE else "warning"
    roots = {id(event) for event in report.roots}
    room = MAX_ANNOTATIONS - (1 if shown.known else 0)  # the known-upstream notice closes the list
    for original, event in zip(report.chain, shown.chain, strict=True):
        if len(lines) >= room:
            break
        if id(original) in roots or (level == "warning" and not original.failing):
            continue  # the verdict annotation stands for the root; context lines explain nothing unexplained
        lines.append(_event_annotation(level, event, titles, places[id(original)]))
    if report.verdict.id in NO_CAUSE:  # no cause named: the lines no pattern names are the lead
        lines += _open_world(report, shown, options, outbound, room - len(lines))
    if shown.known:  # one notice for all: the upstream problems, read against the logs' versions
        known = "\n".join(f"{issue.title}\n  {issue.sentence}" for issue in shown.known)
        lines.append(command("notice", known, {"title": "pdlogdoctor: known upstream"}))
    return lines


def _open_world(report: Report, shown: Report, options: RenderOptions, outbound: Outbound, room: int) -> list[str]:
    """The lines no pattern names, then (when nothing failed) where each log ends, in `room`
    annotations: when both are many, each gets half (the unnamed lines the odd one); what one
    leaves, the other takes."""
    unnamed = list(zip(report.unrecognised, shown.unrecognised, strict=True))
    ends = list(zip(report.log_ends, shown.log_ends, strict=True))
    room = max(0, room)
    kept = min(len(unnamed), max(room - len(ends), room - room // 2))
    lines = [
        _unrecognised_annotation(item, _place(options.workspace_file(raw.first.source), outbound))
        for raw, item in unnamed[:kept]
    ]
    return lines + [
        _log_end_annotation(end, _place(options.workspace_file(raw.source), outbound))
        for raw, end in ends[: room - kept]
    ]


def _place(path: str | None, outbound: Outbound) -> str | None:
    return outbound(path) if path is not None else path


def _unrecognised_annotation(item: UnexplainedError, place: str | None) -> str:
    title = f"unrecognised {item.severity.value} (x{item.count})"
    return command("warning", _located(item.first.text, place, item.first), _properties(title, place, item.first))


def _log_end_annotation(end: ExcerptLine, place: str | None) -> str:
    """A notice on a log's last line: what the server was doing when the lines stop."""
    title = "pdlogdoctor: where the log ends" + ("" if place else f" ({end.source}:{end.line})")
    return command("notice", end.text, _properties(title, place, end))


def _verdict_annotation(shown: Report, place: str | None, original: Report) -> str:
    verdict = shown.verdict
    level = {HEALTHY: "notice", INCONCLUSIVE: "warning", NO_FAILURE_SEEN: "warning"}.get(verdict.id, "error")
    message = [verdict.summary]
    message += [f"This is {m.link}" + (f" ({m.title})" if m.title else "") for m in shown.team]
    if shown.incomplete:
        message.append(f"Evidence incomplete: {incomplete_reason(shown)}.")
    doubt = verify_first(shown)
    if doubt:
        message.append(f"Verify first: {doubt}")
    options = fixes(shown)
    for letter, fix in zip(LETTERS, options, strict=False):
        where = f" (on the {fix.applies})" if fix.applies else ""
        lead = f"Fix {letter}" if len(options) > 1 else "Fix"
        message.append(f"{lead}: {fix.label}{where}" + "".join(f"\n    {line}" for line in fix.snippet))
    if not options and shown.advice and verdict.id != HEALTHY:
        message.append("What to do: " + " ".join(shown.advice.split()))
    message.append(f"{verdict.id} · {confidence_words(shown)}")
    title = f"pdlogdoctor: {verdict.title}"
    located = shown.chain[0] if shown.chain and verdict.id != HEALTHY else None  # a healthy run's has no 'where'
    text = _located("\n".join(message), place, located)
    return command(level, text, _properties(title, place, original.chain[0] if original.chain else None))


def _changes_annotation(comparison: Comparison) -> str:
    """One notice: what changed since the last green run that bears on the verdict (the step
    summary carries the whole table)."""
    parts = [changes.baseline_warning(comparison) or "", changes.headline(comparison), *comparison.bearing]
    level = "warning" if comparison.baseline_failing else "notice"
    return command(level, "\n".join(part for part in parts if part), {"title": f"pdlogdoctor: {changes.TITLE.lower()}"})


def _event_annotation(level: str, event: Event, titles: dict[str, str], place: str | None) -> str:
    count = count_of([event])
    repeats = f" ({count} such lines)" if count.folded else ""
    title = f"{_with_role(event.role.value, titles.get(event.pattern, event.pattern))}{repeats}"
    return command(level, _located(event.text, place, event), _properties(title, place, event))


def _with_role(role: str, title: str) -> str:
    """`decode: A server answered ...`; a title that starts with its role already says it once
    (`Router: the decode server answered with an error`, `Prefill could not send ...`)."""
    first = title.split(" ", 1)[0].rstrip(":").lower()
    return title if first == role.lower() else f"{role}: {title}"


def _located(message: str, place: str | None, event: Event | None) -> str:
    """Outside the workspace an annotation cannot point at its file (`file=`), so its message
    starts with the place, as a compiler's does (`logs/prefill.log:34: ...`): the log the docs
    download into runner.temp is still found. `event` is the shown one: its file name is masked."""
    if place is not None or event is None:
        return message
    return f"{event.where}: {message}"


def _properties(title: str, place: str | None, event: Event | ExcerptLine | None) -> dict[str, str]:
    props = {"title": title}
    if place is not None and event is not None:
        props["file"] = place
        props["line"] = str(event.line)
    return props
