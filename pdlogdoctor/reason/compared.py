"""A measure stated before and after a change: the After line worse than its Before line failed.

People compare two runs by stating a measure twice (`Before: Throughput: 20.13 requests/s, ...`,
`After: Throughput: 17.67 requests/s, ...`: a release blocker's benchmark before and after a commit).
No harness prints FAIL there, yet the run regressed, and a report that says "no failure seen" is
wrong. The lines are marked `compared` (patterns measure-before and measure-after, and their
`-heading` siblings whose measures are on the lines below); each After line is paired with the
nearest Before line in its file that states the same measure (the same words once the numbers are
masked; above it or below it: the labels say which run is which), and each number is read with the words around it: a
throughput, a rate or an accuracy is better higher, a latency or a duration lower. A number worse by
more than REGRESSED_SHARE makes the After line a failed gate that names the measure, both values and
the change; numbers whose words say neither are not judged. The numbers are compared, not words.
A block no label names (`compared-in-order`: a benchmark's result heading printed once per run) is
compared with the earlier block of its kind in its file, measure by measure by their words, and only
when both state the same workload (every count of requests and tokens both state is equal). A heading
that names a version (`compared-by-version`: `... on the 0.2.7 release`, then `... on 0.3.2`) is
compared with the heading of the version just below it that states the same measure.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import replace

from ..library.patterns import MEASURES_BELOW, Library
from ..model import Event, Mark, Severity
from ..model.lazyre import lazy_re
from ..model.measures import BETTER_HIGHER, BETTER_LOWER, SPACED, directed
from .planned import recounted

REGRESSED_SHARE = 0.10  # worse than this share of the Before value: a regression (gates allow 5-10 %)
ORDER = "order"  # `sides_by`: the sides told by the order they were printed in, the later as the After
NUMBER = lazy_re(r"[-+]?\d[\d,]*(?:\.\d+)?")


def regressed_against_before(events: Sequence[Event], library: Library) -> list[Event]:
    """The events, each After line whose measure regressed against its Before line made a failed
    gate (`metric`, `value`, `baseline`, `change`, `compared_with`)."""
    compared = library.marked(Mark.COMPARED)
    sides = [e for e in events if e.pattern in compared and isinstance(e.get("measured"), str)]
    if not sides:
        return list(events)
    afters = library.marked(Mark.GATE_FAILED) & compared
    in_order = library.marked(Mark.COMPARED_IN_ORDER)
    by_version = library.marked(Mark.COMPARED_BY_VERSION)
    by_commit = library.marked(Mark.COMPARED_BY_COMMIT)
    roles = _commit_roles(events, library)
    out = [
        _judged(e, sides, afters, in_order, by_version, (by_commit, roles))
        if e.pattern in afters and not e.failing
        else e
        for e in events
    ]
    return recounted(out, events)


CommitRoles = dict[str, list[tuple[str, str]]]  # source -> (commit, passing | failing) as its lines name them
PASSING, FAILING = "passing", "failing"


def _commit_roles(events: Sequence[Event], library: Library) -> CommitRoles:
    """Each file's commits named passing or failing (`Passing Commit: 026940fe...`; `Regressed Commit:`
    is a failing one: the first commit that failed)."""
    roles: CommitRoles = {}
    for event in events:
        commit, role = event.get("commit"), str(event.get("role", "")).lower()
        if event.pattern in library.marked(Mark.COMMIT_ROLE) and isinstance(commit, str):
            roles.setdefault(event.source, []).append((commit.lower(), PASSING if role == PASSING else FAILING))
    return roles


def _role_of(heading: Event, roles: CommitRoles) -> str | None:
    """passing or failing, as its file names the commit the heading names (either may be abbreviated)."""
    commit = str(heading.get("commit", "")).lower()
    for named, role in roles.get(heading.source, []):
        if commit and (named.startswith(commit) or commit.startswith(named)):
            return role
    return None


def _judged(
    after: Event,
    sides: Sequence[Event],
    afters: frozenset[str],
    in_order: frozenset[str],
    by_version: frozenset[str],
    commits: tuple[frozenset[str], CommitRoles],
) -> Event:
    by_commit, roles = commits
    worst = _worst
    if after.pattern in by_commit:
        before = _passing_of(after, sides, by_commit, roles) if _role_of(after, roles) == FAILING else None
    elif after.pattern in in_order:
        before, worst = _earlier_of(after, sides), _worst_of_same_workload
    elif after.pattern in by_version:
        before = _older_of(after, sides, by_version)
    else:
        before = _before_of(after, sides, afters)
    if before is None:
        return after
    was_text, now_text = str(before.get("measured")), str(after.get("measured"))
    worse = worst(was_text, now_text)
    # No measure worse beyond the allowance: the pair was still judged, and a healthy report names
    # what it compared (its worst measure, better or within the allowance) without failing the line.
    judged = worse or worst(was_text, now_text, beyond=-math.inf)
    if judged is None:
        return after
    name, was, now, change = judged
    fields = (
        *after.fields,
        ("metric", name),
        ("value", now),
        ("baseline", was),
        ("change", f"{change:+.1%}"),
        ("compared_with", f"{before.where}: {stated(before)}"),
        *((("sides_by", ORDER),) if after.pattern in in_order else ()),
    )
    if worse is None:  # where the baseline was, and its first measure: what a healthy report quotes
        quoted = (("compared_at", before.where), ("baseline_said", first_stated(before)))
        return replace(after, fields=tuple(sorted((*fields, *quoted))))
    return replace(after, failing=True, severity=Severity.ERROR, fields=tuple(sorted(fields)))


def stated(side: Event) -> str:
    """A side's line, with the measures read below it when the line is their heading
    (measure-before-heading: `before <commit>` over the benchmark's lines)."""
    text, measured = side.text.strip(), str(side.get("measured", ""))
    return text if measured in text else f"{text} (below it: {measured})"


def first_stated(side: Event) -> str:
    """A side's first measure: its line's, or the first line of those read below its heading."""
    text, measured = side.text.strip(), str(side.get("measured", ""))
    return text if measured in text else measured.split("; ")[0]


def regressed(before: str, after: str) -> bool:
    """Whether the measure `after` states is worse than `before`'s beyond the allowance (the two
    `measured` captures of a Before and an After line)."""
    return shape_of(before) == shape_of(after) and _worst(before, after) is not None


def regressed_in_order(before: str, after: str) -> bool:
    """Whether the later of two unlabelled blocks of one workload (their `measured` texts) is worse
    than the earlier beyond the allowance."""
    return _worst_of_same_workload(before, after) is not None


def _before_of(after: Event, sides: Sequence[Event], afters: frozenset[str]) -> Event | None:
    """The nearest line of its file that states the same measure as the After line and is no After
    line itself (`afters`): above it, or below it (`after <PR>` pasted over `before <PR>`,
    vllm-project/vllm#30326); the labels say which run is which, not the order. Of two at the same distance, the
    one above."""
    shape = shape_of(str(after.get("measured")))
    candidates = [
        e
        for e in sides
        if e.source == after.source
        and e.line != after.line
        and e.pattern not in afters
        and e.get(SPACED, 0) == after.get(SPACED, 0)  # laid out alike (scan/headings.py)
    ]
    befores = [e for e in candidates if shape_of(str(e.get("measured"))) == shape]
    if not befores and _names_a_measure(shape):
        # The After may restate only the first of the Before's measures (`W/o ...: MMLU 84.60 / Gsm8K
        # 93.17`, then `W/ ...: MMLU 75.12`): the numbers pair in order, the extra ones unread.
        befores = [e for e in candidates if shape_of(str(e.get("measured"))).startswith(shape + " ")]
    if not befores:
        # ... or add a note of its own after them (`After: 654 tok/s output, 48.4ms TPOT (+5.5%
        # throughput)`, sgl-project/sglang-jax's MTP commit): the Before's measures pair in order.
        befores = [
            e for e in candidates if _words_in(own := shape_of(str(e.get("measured")))) and shape.startswith(own + " ")
        ]
    return min(befores, key=lambda e: (abs(e.line - after.line), e.line > after.line)) if befores else None


def _words_in(shape: str) -> bool:
    """A shape that names what its numbers measure somewhere (a unit or a name), not bare numbers."""
    return any(ch.isalpha() for ch in shape)


def _names_a_measure(shape: str) -> bool:
    """A shape with words of its own before its first number (`mmlu #`), not a bare number or unit."""
    lead = shape.split("#", 1)[0]
    return "#" in shape and any(ch.isalpha() for ch in lead)


def _passing_of(after: Event, sides: Sequence[Event], by_commit: frozenset[str], roles: CommitRoles) -> Event | None:
    """The heading of its file whose commit is named passing and that states the same measure."""
    shape = shape_of(str(after.get("measured")))
    passing = [
        e
        for e in sides
        if e.source == after.source
        and e.pattern in by_commit
        and _role_of(e, roles) == PASSING
        and shape_of(str(e.get("measured"))) == shape
    ]
    return min(passing, key=lambda e: abs(e.line - after.line)) if passing else None


def _older_of(after: Event, sides: Sequence[Event], by_version: frozenset[str]) -> Event | None:
    """The heading of its file that names the version just below the one `after` names and states
    the same measure: the release a user upgraded from. None for the oldest version. Two releases
    named over one measure pair however the paste spaced them (a blank line under one heading only)."""
    version = version_key(after.get("version"))
    shape = shape_of(str(after.get("measured")))
    older = [
        e
        for e in sides
        if e.source == after.source
        and e.pattern in by_version
        and e.get("version") is not None
        and version_key(e.get("version")) < version
        and shape_of(str(e.get("measured"))) == shape
    ]
    return max(older, key=lambda e: (version_key(e.get("version")), -abs(e.line - after.line))) if older else None


def version_key(version: object) -> tuple[int, ...]:
    """`0.3.2` -> (0, 3, 2); `v0.10.1rc1` -> (0, 10, 1, 1): release numbers compare as numbers."""
    return tuple(int(part) for part in re.findall(r"\d+", str(version))) if version is not None else ()


def _earlier_of(after: Event, sides: Sequence[Event]) -> Event | None:
    """The block of the same kind printed last before `after` in its file: with no label to say
    which run is which, the earlier is the baseline."""
    earlier = [e for e in sides if e.source == after.source and e.pattern == after.pattern and e.line < after.line]
    return max(earlier, key=lambda e: e.line) if earlier else None


# The numbers that say what a benchmark sent, not how it went: two results are of one workload only
# when each of these both state is equal. A concurrency is a setting when it is a maximum (`Max
# request concurrency: 64`); sglang's bench_serving also prints the concurrency it measured
# (`Concurrency: 85.50`), a result like any other.
WORKLOAD = lazy_re(
    r"(?i)\brequests\b|\btokens\b|\bprompts\b|\bmax(?:imum)?\b[\w ]*concurren|rate configured|\blen(?:gth)?\b"
)


def _worst_of_same_workload(
    before: str, after: str, beyond: float = REGRESSED_SHARE
) -> tuple[str, float, float, float] | None:
    """`_worst` over the measures both blocks state, by their words (a paste may cut the later block
    short), when the blocks state one workload: at least one count both state, and every such count
    equal. None when the workloads differ (a sweep over concurrency) or nothing got worse."""
    was, now = _by_words(before), _by_words(after)
    shared = [words for words in now if words in was]
    counts = [words for words in shared if WORKLOAD.search(words) and not BETTER_HIGHER.search(words)]
    if not counts or any(was[words] != now[words] for words in counts):
        return None
    found = [
        (worse, words, was[words], now[words], (now[words] - was[words]) / abs(was[words]))
        for words in shared
        if was[words]
        and (worse := _worse_by(words, was[words], now[words])) > beyond
        and (beyond > -math.inf or (directed(words) and now[words] != was[words]))
    ]
    if not found:
        return None
    rates = [item for item in found if RATE.search(item[1])]  # as _worst: where a rate got worse, it is the measure
    _, words, old, new, change = max(rates or found)
    return words, old, new, change


def _by_words(measured: str) -> dict[str, float]:
    """'Benchmark duration (s): 36.40; ...' -> {'Benchmark duration (s)': 36.4, ...}: each line's
    first number by the words before it, and each later number of the line by its clause's words
    under the line's (`prompt eval time = 78151.46 ms / 3200 tokens (24.42 ms per token, 40.95 tokens
    per second)`: `prompt eval time · tokens` 3200, `prompt eval time · tokens per second` 40.95)."""
    values: dict[str, float] = {}
    for line in measured.split("; "):
        numbers = list(NUMBER.finditer(line))
        label = line[: numbers[0].start()].strip(" *:;=(|") if numbers else ""
        for at, number in enumerate(numbers):
            value = _number(number.group())
            words = label if at == 0 else _clause_words(line, number, label)
            if words and value is not None:
                values.setdefault(words, value)
    return values


# What parts a line's clauses: a comma, a bracket, a spaced slash (`78151.46 ms / 3200 tokens`; a
# unit's `tokens/s` is no boundary).
CLAUSE_BREAK = lazy_re(r"[,;()]|\s/\s")


def _clause_words(line: str, number: re.Match[str], label: str) -> str:
    """A number's words in its clause, under the line's label: the words before it, else after it."""
    starts = [m.end() for m in CLAUSE_BREAK.finditer(line, 0, number.start())]
    start = starts[-1] if starts else 0
    following = CLAUSE_BREAK.search(line, number.end())
    end = following.start() if following else len(line)
    words = line[start : number.start()].strip(" *:=|") or line[number.end() : end].strip(" *:=|")
    return f"{label} · {words}" if label and words and not NUMBER.search(words) else ""


def _worse_by(words: str, was: float, now: float) -> float:
    """How much worse `now` is than `was` for a measure these words name (0 when they name no direction)."""
    change = (now - was) / abs(was)
    if BETTER_HIGHER.search(words):
        return -change
    return change if BETTER_LOWER.search(words) else 0.0


def shape_of(measured: str) -> str:
    """A measured text with its numbers masked: two lines of one shape state the same measure. Its
    words and numbers only: a bracket or a stop a paste left at one side's end (`(15.9 tok/s
    throughput)]`) names no other measure."""
    masked = NUMBER.sub("#", measured).lower()
    return " ".join(_PUNCTUATION.sub(" ", masked).split())


_PUNCTUATION = lazy_re(r"[^\w#/%]+")


def _worst(before: str, after: str, beyond: float = REGRESSED_SHARE) -> tuple[str, float, float, float] | None:
    """(the measure's words, its Before value, its After value, the change) of the number that got
    worse the most beyond `beyond` (the allowance; minus infinity: the worst of the measures whose
    words say their better way, however much better); None when none did."""
    found: list[tuple[float, str, float, float, float]] = []
    spans = list(NUMBER.finditer(after))
    for at, (was_text, now) in enumerate(zip(NUMBER.findall(before), spans, strict=False)):
        was, value = _number(was_text), _number(now.group())
        if was is None or value is None or was == 0:
            continue
        words = _words_of(after, spans, at)
        worse = _worse_by(words, was, value)
        # Below the allowance (beyond=-inf), only a measure whose words say its way and that moved: a
        # label's number (`10% percentile`) is the same on both sides.
        moved = beyond > -math.inf or (directed(words) and value != was)
        if worse > beyond and moved:
            found.append((worse, words, was, value, (value - was) / abs(was)))
    if not found:
        return None
    # A rate is the work done over the time it took; a duration or a count grows with the work
    # (Ollama's `eval duration` over 74 tokens against 63): where a rate got worse, it is the measure.
    rates = [item for item in found if RATE.search(item[1])]
    _, words, was, value, change = max(rates or found)
    return words, was, value, change


RATE = lazy_re(r"(?i)/s\b|/sec\b|per second|throughput|\b[qrst]ps\b")


def _words_of(text: str, spans: Sequence[re.Match[str]], at: int) -> str:
    """What a number measures, in the line's words: the name before it (since the previous number's
    comma; the line's lead when it has none: `Throughput: 20.13 requests/s, 10308.29 tokens/s`),
    then its unit (up to the next comma or number)."""
    start = spans[at - 1].end() if at else 0
    end = spans[at + 1].start() if at + 1 < len(spans) else len(text)
    unit = re.split(r"[,;]", text[spans[at].end() : end])[0].strip(" *:;")  # a `; ` joins a block's lines
    while unit.endswith(")") and unit.count(")") > unit.count("("):
        unit = unit[:-1].rstrip()  # the bracket the measure was said in closes after it (`(..., 36,16 tok/s)`)
    # since the previous number's comma, or the `; ` that joins a block's lines: the unit before it
    # is the previous measure's (`0.78 requests/s; Average latency: 38.63 s`)
    # `~300 tps`: an approximation's mark before the number is no name (nor is `≈`)
    # `10% percentile latency: 1.11 seconds`: the previous number's `%` is its own, no part of the name
    name = _cells_as_words(re.split(r"[,;]", text[start : spans[at].start()])[-1]).strip(" *:;=(~≈").lstrip("% ")
    if not name:
        name = _cells_as_words(text[: spans[0].start()]).strip(" *:;=(~≈")
    unit = _cells_as_words(unit).strip(" ±")  # a results table's `|±  |` before its stderr is no unit
    return f"{name} ({unit})" if name and unit else name or unit


def _cells_as_words(text: str) -> str:
    """A table row's piece as words: its bars and its direction arrows (lm-eval's `|acc |↑ |`) gone."""
    return " ".join(_TABLE_MARKS.sub(" ", text).split())


_TABLE_MARKS = lazy_re(r"[|↑↓]+")


def _number(text: str) -> float | None:
    """A number as written: a comma groups thousands (`10,308.29`), except as the only separator
    with other than three digits after it, where a locale writes its decimal point (llama.cpp's
    timings under a German locale: `48,78 tokens per second`)."""
    if _DECIMAL_COMMA.fullmatch(text):
        text = text.replace(",", ".")
    try:
        return float(text.replace(",", ""))
    except ValueError:
        return None


_DECIMAL_COMMA = lazy_re(r"[-+]?\d+,(?:\d{1,2}|\d{4,})")


def before_sides_apart(events: Sequence[Event], library: Library) -> list[Event]:
    """The events, each failing line stated under a Before side's heading (`before:`, marked
    `before-side`) made not failing, when an After side's heading follows it in its file: the state a
    change fixed (sgl-project/sglang's fix posting `before:` with half its GSM8K answers unreadable,
    then `after:` with none), not the run the paste reports. A baseline named otherwise (`Main:` broken
    beside a `PR:` that fixes it, a blind round's aphrodite excerpt) is a state that still holds, and
    an After side's own lines are judged as they are."""
    compared = library.marked(Mark.COMPARED)
    before_sides = library.marked(Mark.BEFORE_SIDE)
    after_sides = library.marked(Mark.GATE_FAILED) & compared
    sides = before_sides | after_sides
    headings = [e for e in events if e.pattern in sides and library.pattern(e.pattern).block == MEASURES_BELOW]
    if not headings:
        return list(events)
    by_file: dict[str, list[Event]] = {}
    for heading in sorted(headings, key=lambda e: e.line):
        by_file.setdefault(heading.source, []).append(heading)
    return [
        replace(e, failing=False)
        if e.failing and e.pattern not in compared and _under_a_before_side(e, by_file.get(e.source, ()), before_sides)
        else e
        for e in events
    ]


def _under_a_before_side(event: Event, headings: Sequence[Event], before_sides: frozenset[str]) -> bool:
    """The nearest side heading above `event` in its file is a Before side, and an After side's heading
    comes below `event`: the line is the state the change fixed."""
    above = [h for h in headings if h.line < event.line]
    if not above or above[-1].pattern not in before_sides:
        return False
    return any(h.line > event.line and h.pattern not in before_sides for h in headings)
