"""A score below the one a sentence says the run should reach failed, though no harness said so.

People post an evaluation's result with the score they expected beside it, in their own words
(`It should be 0.75.` over lm-eval's `mmlu_pro ... 0.5071`: vllm#28107, Llama-4-Scout in FP4). The
table alone reads as answers served; the sentence is the gate. The lines that state an expectation
are marked `expected-score` (with `expected`, and `percent` when the number is one); each is paired
with the nearest result of its file that states a score, both read as shares (`75%`, `75` and `0.75`
alike; lm-eval's 0.5071 and a percentage's 50.71 alike). A result more than
compared.REGRESSED_SHARE below it makes the sentence a failed gate that names both values; a result
at or above it, or none, leaves the sentence a sentence.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from ..library.patterns import Library
from ..model import Event, Mark, Severity
from .compared import REGRESSED_SHARE
from .planned import recounted

SCORES = ("accuracy", "score")  # the captures a result names its score by
EXPECTED = "expected"


def short_of_expectation(events: Sequence[Event], library: Library) -> list[Event]:
    """The events, each expectation a result of its file falls short of made a failed gate
    (`metric`, `value`, `baseline`, `change`, `compared_with`)."""
    stated = library.marked(Mark.EXPECTED_SCORE)
    expectations = [e for e in events if e.pattern in stated and isinstance(e.get(EXPECTED), (int, float))]
    if not expectations:
        return list(events)
    scored = library.marked(Mark.END_TO_END, Mark.ANSWERED)
    results = [e for e in events if e.pattern in scored and not e.failing and score_of(e) is not None]
    stating = {id(e) for e in expectations}
    out = [_judged(e, results) if id(e) in stating else e for e in events]
    return recounted(out, events)


def _judged(expectation: Event, results: Sequence[Event]) -> Event:
    expected = _expected_share(expectation)
    near = [r for r in results if r.source == expectation.source and _share(r) is not None]
    if expected is None or not near:
        return expectation
    result = min(near, key=lambda r: (abs(r.line - expectation.line), r.line))
    value = _share(result)
    if value is None or value >= expected * (1 - REGRESSED_SHARE):
        return expectation
    fields = (
        *expectation.fields,
        ("metric", _metric(result)),
        ("value", score_of(result) or 0.0),
        ("baseline", float(expectation.get(EXPECTED) or 0.0)),
        ("change", f"{(value - expected) / expected:+.1%}"),
        ("compared_with", f"{result.where}: {result.text.strip()}"),
    )
    return replace(expectation, failing=True, severity=Severity.ERROR, fields=tuple(sorted(fields)))


def score_of(event: Event) -> float | None:
    """A result's score, by the captures results name it by (`accuracy`, `score`); None for no score."""
    for name in SCORES:
        value = event.get(name)
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            return float(value)
    return None


def _share(result: Event) -> float | None:
    """A result's score as a share: lm-eval's 0.5071 as it is; a score above 1 is a percentage."""
    value = score_of(result)
    if value is None or value < 0 or value > 100:
        return None
    return value / 100 if value > 1 else value


def _expected_share(expectation: Event) -> float | None:
    """The expected score as a share: `75%` and `75` are 0.75, `0.75` is itself; past 100, no score."""
    value = float(expectation.get(EXPECTED) or 0.0)
    # A small whole number without `%` (`it should be 2`) is a count; no score is expected that low.
    if value <= 0 or value > 100 or (value > 1 and not expectation.get("percent") and value < 5):
        return None
    return value / 100 if value > 1 else value


def _metric(result: Event) -> str:
    """What the result scored, in its own captures' words (`mmlu_pro exact_match`), else `accuracy`:
    the words say it is an accuracy, as the gate it makes must."""
    named = [str(result.get(name)) for name in ("task", "metric") if isinstance(result.get(name), str)]
    words = " ".join(n for n in named if n)
    return f"{words} accuracy" if words else "accuracy"
