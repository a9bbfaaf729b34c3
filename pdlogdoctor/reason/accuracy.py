"""A failed accuracy gate with nothing else failing: the servers answered, and the answers were worse.

decide: when the diagnosis names no cause and the only failing lines are failed gates, a gate that
measured an accuracy makes the run an accuracy regression. What a gate measured is read from its
own words, or from the line above it in its block that names its test or its assertion
(performance.failed_gates): GSM8K, MMLU, an accuracy, a score. A gate whose measure has no name but
that held a value between 0 and 1 above a threshold between 0 and 1 (unittest's `AssertionError:
0.865 not greater than 0.87`, the shape of sglang's accuracy tests) is read as a score too, at a
lead's confidence. A performance gate beside it, or any other failure, leaves the decision to them.

With no gate at all, the same evaluation scored twice in one input (a result with a change and one
without it, posted side by side: sglang#14382's GSM8K at 0.901 with DeepEP, 0.951 without) is a
comparison the lines make themselves: scores SPREAD apart or more are no healthy run but an
accuracy regression of the lower, at a lead's confidence (which change is to blame, and whether
the two ran the same model, is the reader's to check).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import replace

from ..library.patterns import Library
from ..model import SERVER_ROLES, Event, FactValue, Mark, Report, Suggestion, Verdict
from ..model.lazyre import lazy_re
from ..model.measures import BETTER_LOWER
from ..model.textcut import clip
from ..model.verdicts import ACCURACY_REGRESSION, META
from . import confidence, performance

SPREAD = 0.03  # two scores of one evaluation this far apart differ by more than its sampling noise
SMALL_SET = 500  # question counts looked for on the scores' grid; above it the noise is near SPREAD
GRID_SLACK = 0.01  # how far from a whole count a score may sit, its print's rounding included
SCORE = "accuracy"  # the capture an evaluation's result names its score by
COLLAPSE = 0.05  # a score at or below this is no worse model but answers that are no answers at all
MISSING = "the servers' logs over the test's window (an error there would say why the answers were worse)"


def regressed(report: Report, gates: Sequence[Event], events: Sequence[Event], library: Library) -> Report | None:
    """The report as an accuracy regression, when its failures are the failed `gates`
    (performance.failed_gates) that measured an accuracy, and nothing else; None otherwise."""
    if report.verdict.id not in META:
        return None
    if not gates or performance.failed_besides_gates(report, events, library):
        return None
    if any(performance.gate_metric(gate) for gate in gates):
        return None  # a latency or throughput gate failed too: performance.weigh reads it
    measured = performance.measured_gates(gates)
    # A band around a baseline fails on a score above it too (vllm-ascend's aisbench: 100.0 `not within
    # 2 relative to baseline 95`): the answers were no worse, the band is the gate's to widen.
    named = [gate for gate in measured if performance.measures_accuracy(gate)]
    above = [gate for gate in named if _above_its_baseline(gate)]
    if above and not any(gate.get("value") is not None for gate in named if gate not in above):
        return None  # the gates that state no value (a harness's `some cases failed`) are its echo
    scores = [gate for gate in measured if _score_held_above(gate)]
    if named:
        return _accuracy_report(report, named[0], events, library, inferred=False)
    if scores:
        return _accuracy_report(report, scores[0], events, library, inferred=True)
    return None


def disagreeing(report: Report, events: Sequence[Event], library: Library) -> Report | None:
    """The report as an accuracy regression, when nothing failed or was named and one evaluation's
    passing results (end-to-end or answered lines that capture an `accuracy`) differ by SPREAD or
    more; None otherwise."""
    if report.verdict.id not in META or performance.failed_gates(events, library, report.unrecognised):
        return None
    results = library.marked(Mark.END_TO_END, Mark.ANSWERED)
    labelled = _labelled_by_a_side(events, library)
    scores: dict[tuple[str, tuple[tuple[str, str], ...]], list[Event]] = {}
    for event in events:
        if event.pattern not in results or event.failing or (event.source, event.line) in labelled:
            continue
        if isinstance(event.get(SCORE), (int, float)):
            scores.setdefault((event.pattern, _evaluation(event)), []).append(event)
    for found in scores.values():
        low = min(found, key=lambda e: _score(e))
        high = max(found, key=lambda e: _score(e))
        if _score(high) - _score(low) >= _noise(found) * _scale(high):
            return _lower_report(report, low, high, library)
    return None


def _noise(results: Sequence[Event]) -> float:
    """How far apart two scores of one evaluation may be by sampling alone (a share): SPREAD, or twice
    the standard error of a difference of two runs when the scores show how few questions were asked.
    A score is a count of right answers over the questions, so scores printed from a small set sit on
    its grid: 83.33, 76.67 and 90.00 are 25, 23 and 27 of AIME's 30 (vllm-project/vllm-ascend#4964's
    reruns), where one question is 3.3 points and 13.3 points apart is within the noise."""
    shares = [(_score(e) / _scale(e), _decimals(e)) for e in results]
    asked = questions_on_grid(shares)
    if asked is None:
        return SPREAD
    mean = sum(share for share, _ in shares) / len(shares)
    return max(SPREAD, 2 * math.sqrt(2 * mean * (1 - mean) / asked))


def questions_on_grid(shares: Sequence[tuple[float, int]]) -> int | None:
    """The fewest questions (SMALL_SET at most) on whose grid every score sits, to its printed
    precision; None when no such count is small (a large set, or scores that are no counts). A count
    is looked for only while the print's rounding keeps each score within GRID_SLACK of a whole number
    of answers: past that, any count fits some score by chance (0.901 and 0.951 fit hundreds)."""
    for asked in range(2, SMALL_SET + 1):
        slack = [asked * 0.5 * 10.0**-places for _, places in shares]
        if max(slack) > GRID_SLACK:
            return None
        if all(
            abs(share * asked - round(share * asked)) <= room for (share, _), room in zip(shares, slack, strict=True)
        ):
            return asked
    return None


def _decimals(event: Event) -> int:
    """The decimals the score was printed with, as a share (83.33 % is 0.8333: four); four when its
    text is not found on the line."""
    value = _score(event)
    for token in _NUMBER.findall(event.text):
        if float(token) == value:
            return len(token.partition(".")[2]) + (2 if _scale(event) > 1 else 0)
    return 4


_NUMBER = lazy_re(r"\d+(?:\.\d+)?")


def _labelled_by_a_side(events: Sequence[Event], library: Library) -> set[tuple[str, int]]:
    """The results a `before:` or `after:` heading above them labels (the lines its block read,
    compared.py): which run is which is stated, so compared.py judged the After against its Before
    (sglang#10180: 0.510 before a fix, 0.948 after it is the fix working, not a regression of 0.510)."""
    sides = [e for e in events if e.pattern in library.marked(Mark.COMPARED) and isinstance(e.get("measured"), str)]
    labelled: set[tuple[str, int]] = set()
    for side in sides:
        measured = str(side.get("measured"))
        for event in events:
            if event.source == side.source and event.line > side.line and event.text.strip() in measured:
                labelled.add((event.source, event.line))
    return labelled


def _evaluation(event: Event) -> tuple[tuple[str, str], ...]:
    """What a result scored, besides its pattern: its named captures (MMLU's `subject`, a task): the
    scores of two subjects differ by what they ask, not by a regression."""
    return tuple((name, value) for name, value in event.fields if isinstance(value, str))


def _scale(event: Event) -> float:
    """1 for a share, 100 for a percentage (TensorRT-LLM's evaluator prints 71.3)."""
    return 100.0 if _score(event) > 1.0 else 1.0


def _score(event: Event) -> float:
    value = event.get(SCORE)
    return float(value) if isinstance(value, (int, float)) else 0.0


def _lower_report(report: Report, low: Event, high: Event, library: Library) -> Report:
    spec = library.verdict(ACCURACY_REGRESSION)
    gap = (_score(high) - _score(low)) / _scale(high)
    summary = (
        f"One evaluation scored {_score(low):g} at {low.where} ({clip(low.text.strip(), 120)}) and {_score(high):g} "
        f"at {high.where} ({clip(high.text.strip(), 120)}): {gap * 100:.1f} points apart, more than its sampling "
        "noise. No gate is given, but the lines compare two runs themselves: the lower is an accuracy regression "
        "against the higher, if both ran the same model and questions. No line here says why."
    )
    why = f"two results of one evaluation differ by {gap:.3f} ({low.where}, {high.where})"
    facts: tuple[tuple[str, FactValue], ...] = (
        ("accuracy", _score(low)),
        ("compared_with", _score(high)),
        ("margin", round(_score(low) - _score(high), 4)),
    )
    verdict = Verdict(ACCURACY_REGRESSION, spec.title, 0.0, summary, facts, spec.identity)
    verdict = confidence.applied(verdict, confidence.scores_disagree(why))
    return replace(
        report,
        verdict=verdict,
        chain=(low, high, *(e for e in report.chain if e not in (low, high))),
        roots=(low,),
        advice=spec.advice.strip(),
        explain=spec.explain.strip(),
        missing=tuple(dict.fromkeys((MISSING, *report.missing))),
    )


def _served(events: Sequence[Event], library: Library) -> str:
    """Where a server's own log shows it serving (ready, answering), "" when none does: the gate
    then scored answers a server gave, not answers that never came."""
    proof = library.marked(Mark.SERVER_UP, Mark.ANSWERED)
    shown = [e for e in events if e.pattern in proof and not e.failing and e.role in SERVER_ROLES]
    if not shown:
        return ""
    return f"the servers' logs show them serving ({min(shown, key=_place).where})"


def _place(event: Event) -> tuple[float, str, int]:
    return (event.time if event.time is not None else float("inf"), event.source, event.line)


def _above_its_baseline(gate: Event) -> bool:
    """A gate that states its baseline and measured more than it, on a measure better higher (a
    perplexity above its baseline is worse)."""
    value, baseline = gate.get("value"), gate.get("baseline")
    words = " ".join(str(gate.get(name) or "") for name in ("metric", "test")) + " " + gate.text
    if BETTER_LOWER.search(words.replace("_", " ")):
        return False
    return isinstance(value, int | float) and isinstance(baseline, int | float) and value > baseline


def _score_held_above(gate: Event) -> bool:
    """A gate that required a value between 0 and 1 to exceed a threshold between 0 and 1."""
    value, limit = _numbers(gate)
    if value is None or limit is None:
        return False
    return _held_above(gate) and 0.0 <= value <= 1.0 and 0.0 < limit <= 1.0


def _missed_by_a_hair(gate: Event, value: float | None, limit: float | None) -> tuple[float, float] | None:
    """(value, limit) of a score gate missed by less than an evaluation's run-to-run noise, else None."""
    if value is None or limit is None or not _held_above(gate):
        return None
    return (value, limit) if confidence.missed_by_a_hair(value, limit) else None


def _held_above(gate: Event) -> bool:
    """The gate required its value to reach its threshold from below (a score, not a latency)."""
    return str(gate.get("relation") or "") in ("greater", ">", ">=")


def _accuracy_report(report: Report, gate: Event, events: Sequence[Event], library: Library, inferred: bool) -> Report:
    spec = library.verdict(ACCURACY_REGRESSION)
    value, limit = _numbers(gate)
    read = (
        f"It held {value:g} above {limit:g}, both between 0 and 1: a score, read as an accuracy. "
        if inferred and value is not None and limit is not None
        else ""
    )
    collapse = (
        "A score this close to zero is no model answering a little worse but answers that hold nothing: "
        "garbage output, as a decode reading the wrong KV or a broken kernel produces. "
        if value is not None and value <= COLLAPSE
        else ""
    )
    measured = read or "It measured an accuracy. "
    hair = _missed_by_a_hair(gate, value, limit)
    noise = f"{confidence.near_miss_sentence(*hair)} " if hair else ""
    summary = (
        f"{performance.gate_sentence(gate)} {measured}Nothing else in these logs failed: the servers "
        f"answered, and the answers scored below the gate. {collapse}{noise}No line here shows why."
    )
    why = f"the accuracy gate at {gate.where} failed and no other line failed"
    verdict = Verdict(ACCURACY_REGRESSION, spec.title, 0.0, summary, _facts(value, limit), spec.identity)
    score = confidence.accuracy_gate(why, inferred, _served(events, library))
    if hair:
        score = confidence.near_miss(score, *hair)
    verdict = confidence.applied(verdict, score)
    action = Suggestion(
        "action",
        "compare with the last passing run",
        None,
        "pdlogdoctor diff LAST_GREEN THIS_RUN: a change in the model, the engine or the KV path since then shows there",
        (),
        (gate.where,),
    )
    kept = tuple(m for m in report.missing if not m.startswith(performance.GATE_MISSING))
    return replace(
        report,
        verdict=verdict,
        chain=performance.gate_first(gate, report.chain),
        roots=(gate,),
        suggestions=(action,),
        advice=spec.advice.strip(),
        explain=spec.explain.strip(),
        missing=tuple(dict.fromkeys((MISSING, *kept))),
    )


def _numbers(gate: Event) -> tuple[float | None, float | None]:
    """The measured value and the gate's threshold, when the gate's line states them."""
    value = gate.get("value")
    limit = gate.get("threshold") if gate.get("threshold") is not None else gate.get("limit")
    number = (int, float)
    return (
        float(value) if isinstance(value, number) else None,
        float(limit) if isinstance(limit, number) else None,
    )


def _facts(value: float | None, limit: float | None) -> tuple[tuple[str, FactValue], ...]:
    if value is None or limit is None:
        return ()
    return (("accuracy", value), ("threshold", limit), ("margin", round(value - limit, 4)))
