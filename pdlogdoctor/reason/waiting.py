"""A log that ends while something waits: a start-up that never finished, or an excerpt cut mid-wait.

decide: a report that would say no failure was seen, while a file's last lines are a component
waiting (lines marked `waiting`: vLLM's API server polling for its engine cores, the router for
its workers' health, a harness for a server) that went on (REPEATED lines or more) to the file's
end, is inconclusive: something was not coming up when the lines stop. Nothing in them says
why; the lines of what it waited for would. A wait with anything else after it in its file (a
ready line, a served request) is start-up going on as it should, and is left alone; one waiting line
that states it has waited a minute or more (`waited_s`) is a wait that went on by itself; a paste's
elision mark (`...`) as the last line is no such line. Waits read so far: vLLM's API server polling
for its engine cores, the router for its workers' health, a harness for a server, a vLLM decode's
request still waiting for its KV from the prefill.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from ..library.patterns import Library
from ..model import Event, Mark, Report, Source
from ..model.counts import count_of
from ..model.lazyre import lazy_re
from ..model.textcut import clip
from ..model.verdicts import HEALTHY, NO_FAILURE_SEEN
from .unexplained import as_inconclusive

TAIL_LINES = 0  # the last waiting line is its file's last: any line after it may be the wait ending
REPEATED = 2  # waiting lines in the file: one is a step of start-up, more is a wait that went on


def ended_waiting(events: Sequence[Event], sources: Sequence[Source], library: Library) -> list[Event] | None:
    """The waiting lines of the first file (in the order its lines were met, by time) whose log ends
    on a wait that went on: its first and last such line (the one, when its repeats are folded into
    one event). None when no file ends so."""
    waiting = library.marked(Mark.WAITING)
    lines = {source.name: source.lines - _elided_end(source) for source in sources}
    last_line: dict[str, int] = {}
    waits: dict[str, list[Event]] = {}
    for event in events:
        last_line[event.source] = max(last_line.get(event.source, 0), event.line)
        if event.pattern in waiting and not event.failing:
            waits.setdefault(event.source, []).append(event)
    for source, found in waits.items():
        found.sort(key=lambda e: e.line)
        last = found[-1]
        if last.line != last_line[source] or lines.get(source, last.line) - last.line > TAIL_LINES:
            continue  # something came after the wait, or the file goes on past it
        if count_of(found).lines < REPEATED and not _says_it_waited_long(last):
            continue
        return [found[0], last] if found[0] is not last else [last]
    return None


LONG_WAIT_S = 60.0  # a waiting line that says it has waited this long is a wait that went on by itself


def _says_it_waited_long(event: Event) -> bool:
    """A waiting line that states how long it has waited (`waited_s`: vLLM's `Waiting for creating a
    placement group of specs for 150 seconds`), long enough that one line is a wait that went on."""
    waited = event.get("waited_s")
    return isinstance(waited, int | float) and waited >= LONG_WAIT_S


# A paste's mark for the lines it left out (`...`, `…`, `[...]`): a line of nothing more says "more of
# the same", not that something came after the wait.
ELISION = lazy_re(r"^\s*(?:\.{3,}|…|\[(?:\.{3}|…)\])\s*$")


def _elided_end(source: Source) -> int:
    """1 when the file's last line is a paste's elision mark, else 0."""
    return 1 if source.last_line is not None and ELISION.match(source.last_line[1]) else 0


def weigh(report: Report, events: Sequence[Event], sources: Sequence[Source], library: Library) -> Report:
    """The report, inconclusive when it would show no failure while a log ends mid-wait, or call a run
    healthy whose benchmark's log ends with requests still outstanding (its bar short of its total:
    the run never finished, whatever was answered before)."""
    if report.verdict.id not in (NO_FAILURE_SEEN, HEALTHY):
        return report
    wait = ended_waiting(events, sources, library)
    if wait is None or (report.verdict.id == HEALTHY and not _outstanding(wait[-1])):
        return report
    first, last = wait[0], wait[-1]
    title = library.pattern(last.pattern).title
    count = count_of(wait if len(wait) > 1 else [last])
    span = _span(first, last)
    place = last.where if first is last else f"{first.where} to {last.where}"
    lines = "" if count.lines == 1 else f", {count} such lines"
    summary = (
        f"The log ends while waiting: {title} ({place}{lines}{span}), "
        "and no line after them shows the wait ending. These lines do not say what held it up; the lines of what "
        f"it waited for would. The last: {last.where}: {clip(last.text.strip(), 240)}"
    )
    needed = f"what it waited for, from {first.where} on: that component's own log says why it never came up"
    waited = replace(report, chain=(*wait, *report.chain), missing=tuple(dict.fromkeys((needed, *report.missing))))
    return as_inconclusive(waited, summary, library, f"the log ends on a wait that went on ({last.where})")


def _outstanding(wait: Event) -> bool:
    """The waiting line counts what it waits for and says some of it never came (`done` below `total`:
    a benchmark's requests still unanswered)."""
    done, total = wait.get("done"), wait.get("total")
    return isinstance(done, int) and isinstance(total, int) and done < total


def _span(first: Event, last: Event) -> str:
    if first.time is None or last.time is None or last.time <= first.time:
        return ""
    seconds = last.time - first.time
    return f" over {seconds:.0f} s" if seconds < 120 else f" over {seconds / 60:.1f} min"
