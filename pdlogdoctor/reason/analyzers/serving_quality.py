"""Quality verdicts (garbage output, accuracy below the gate) hold only while serving works.

Zero output ids next to 5xx answers or transfer errors are a transport symptom,
not a numerics regression; an accuracy gate is meaningless if nothing served.
"""

from __future__ import annotations

from dataclasses import replace

from ...model import Event, Mark, Role
from ...model.textcut import clip
from ...model.verdicts import ACCURACY_REGRESSION
from ..confidence import NEAR_MISS, missed_by_a_hair, near_miss_sentence
from ..expected import score_of
from ..hypothesis import Evidence, Hypothesis

ACCURACY = ACCURACY_REGRESSION
SERVING_PROOF = (Mark.SERVER_UP, Mark.END_TO_END)  # shown next to the verdict as the lines it rests on


def analyze(hypothesis: Hypothesis, evidence: Evidence) -> list[Hypothesis]:
    failures = [e for e in evidence.marked(Mark.REQUEST_FAILED) if e.failing]
    if failures:
        first = min(failures, key=lambda e: (e.time or 0.0, e.line))
        why = f"requests fail ({evidence.said(first)}): the PD path is not serving, so this is a symptom"
        return [replace(hypothesis, rejected=why, confidence=0.1)]
    if hypothesis.verdict == ACCURACY:
        return [_accuracy(hypothesis, evidence)]
    return [_output(hypothesis, evidence)]


def _accuracy(hypothesis: Hypothesis, evidence: Evidence) -> Hypothesis:
    gate = hypothesis.first_root
    if gate.get("score") is not None:
        return _collapse(hypothesis, evidence)
    if gate.get("perplexity") is not None:
        return _perplexity_collapse(hypothesis, evidence)
    if gate.get("accuracy") is None and gate.get("measured") is None:
        return _stated_wrong(hypothesis, evidence)
    if gate.get("accuracy") is None:  # an accuracy test's assertion: a measured and an expected score
        accuracy, threshold = float(gate.get("measured")), float(gate.get("expected"))
        margin = round(accuracy - threshold, 4)
        if margin > 0:
            # A check of closeness (|measured - expected| within a tolerance) fails on a score above
            # the expected one too: the answers were no worse (vllm#35806: 0.913 against 0.89).
            why = (
                f"the test measured {accuracy:.4g}, above the expected {threshold}: a check that fails on a "
                "higher score is the test's tolerance, not worse answers"
            )
            return replace(hypothesis, rejected=why, confidence=0.1)
        summary = (
            f"The servers answered, but the accuracy test measured {accuracy:.4g} against an expected "
            f"{threshold} (margin {margin:+.4g}): {gate.text.strip()}"
        )
    else:
        accuracy, threshold = float(gate.get("accuracy")), float(gate.get("threshold"))
        margin = round(accuracy - threshold, 4)
        summary = (
            f"The PD path serves, but GSM8K accuracy {accuracy:.3f} is not above the threshold "
            f"{threshold} (margin {margin:+.3f}); the gate passes only when accuracy > threshold."
        )
    facts = (("accuracy", accuracy), ("threshold", threshold), ("margin", margin))
    proof = _proof(evidence)
    confidence = 0.85 if proof else 0.7
    if missed_by_a_hair(accuracy, threshold):  # the run may have regressed, or the evaluation's noise
        summary = f"{summary} {near_miss_sentence(accuracy, threshold)}"
        confidence = min(confidence, NEAR_MISS)
    unreadable = _answers_unreadable(evidence)
    if unreadable is not None:
        # Most answers hold no number: the low accuracy follows from garbage output, which is the
        # mechanism to name (output-corruption), not a model that answers worse.
        why = (
            f"most answers hold no number at all ({evidence.said(unreadable)}): the output is garbage, "
            "and the low accuracy only follows from it"
        )
        return replace(hypothesis, summary=summary, facts=facts, confidence=GARBAGE_ACCURACY, why_not=why)
    return replace(hypothesis, summary=summary, facts=facts, confidence=confidence, lines_used=tuple(proof[:2]))


GARBAGE_ACCURACY = 0.5  # an accuracy gate beside answers that mostly hold no number: below the garbage's reading
STATED_WRONG = 0.45  # results called wrong in words, no score against a gate: a lead


def _stated_wrong(hypothesis: Hypothesis, evidence: Evidence) -> Hypothesis:
    """A line that says in words the results are wrong (result-stated-wrong): no number says by how
    much, so the verdict is a lead, the line quoted."""
    line = hypothesis.first_root
    said = clip(line.text.strip(), QUOTE)
    summary = f"The servers answered, but a line states their results are wrong: {line.where}: {said}."
    scored = [e for e in evidence.marked(Mark.ANSWERED) if e.source == line.source and score_of(e) is not None]
    if scored:  # the result it speaks of, when its file states one: the number a reader checks
        result = min(scored, key=lambda e: abs(e.line - line.line))
        summary += f" The result beside it: {result.where}: {clip(result.text.strip(), QUOTE)}."
    summary += " No line here measures it against a gate, nor says why."
    proof = _proof(evidence)
    return replace(hypothesis, summary=summary, confidence=STATED_WRONG, lines_used=tuple(proof[:2]))


def _answers_unreadable(evidence: Evidence) -> Event | None:
    """A failing line that says most answers held nothing the client could read (the GSM8K
    client's `Invalid:` share above its floor)."""
    return next((e for e in evidence.events if e.failing and e.get("invalid") is not None), None)


def _collapse(hypothesis: Hypothesis, evidence: Evidence) -> Hypothesis:
    """A results table's score under the floor its pattern sets (no gate line): the answers came back
    but are garbage. No threshold was logged, so the margin is not known and the confidence stays
    below a gate's."""
    row = hypothesis.first_root
    score = float(row.get("score"))
    task = " ".join(str(row.get(name)) for name in ("task", "filter") if row.get(name)) or "the task"
    sibling = _other_filter_scored(row, evidence)
    if sibling is not None:
        why = (
            f"another filter of the same task scored {sibling.get('score')} ({evidence.said(sibling)}): the "
            f"answers are there, and {row.get('filter') or 'this filter'} found none in the form it extracts "
            "(the task's answer format or chat template), not a collapse of the model's output"
        )
        # The answers are there: the zero is the extraction's, no failure of the serving (benign), and
        # a failed gate beside it (the same row worse than in an earlier run) is judged on its own.
        return replace(hypothesis, rejected=why, benign=True, confidence=0.1)
    summary = (
        f"The servers answered, but the harness scored {task} at {score:.4g}, under the floor no working model "
        f"falls below on it (near zero, or what guessing gives): a collapse of the answers, whatever the gate: "
        f"{row.text.strip()}"
    )
    unreadable = _answers_unreadable(evidence)
    if unreadable is not None:  # most answers hold no number: the garbage is the mechanism, the score its echo
        why = (
            f"most answers hold no number at all ({evidence.said(unreadable)}): the output is garbage, "
            "and the low score only follows from it"
        )
        return replace(hypothesis, rejected=why, confidence=0.1)
    proof = _proof(evidence)
    confidence = 0.7 if proof else 0.6
    return replace(
        hypothesis, summary=summary, facts=(("accuracy", score),), confidence=confidence, lines_used=tuple(proof[:2])
    )


def _perplexity_collapse(hypothesis: Hypothesis, evidence: Evidence) -> Hypothesis:
    """A results table's perplexity of 300 or more: the model read garbage. A later table of the
    same file that measured the task again, below that, is the run after a fix (a before/after paste):
    the collapse is its past, not its state."""
    row = hypothesis.first_root
    perplexity = float(row.get("perplexity"))
    task = str(row.get("task") or "the task")
    again = _measured_again(row, evidence)
    if again is not None:
        why = (
            f"the same file measures it again below, at {again.get('perplexity')} ({evidence.said(again)}): "
            "the collapse is the run before a change, not the last one"
        )
        return replace(hypothesis, rejected=why, benign=True, confidence=0.1)
    proof = _proof(evidence)
    value = f"{perplexity:.6g}" if perplexity < 1e6 else f"{perplexity:,.0f}"  # a million in its digits
    # lm-eval's row has a task cell (blank under the task's accuracy row); a perplexity stated alone
    # (`ppl=1056944.250`) names no harness
    in_table = row.get("task") is not None
    measured = f"lm-eval measured {task}'s perplexity at {value}" if in_table else f"a perplexity of {value} is stated"
    opening = f"The servers answered, but {measured}" if proof else measured if in_table else measured.capitalize()
    summary = (
        f"{opening}: a model that reads its input scores in single or double digits "
        f"there; hundreds or more mean it reads garbage (its prompt built wrong, a missing BOS token, broken weights "
        f"or kernels): {row.text.strip()}"
    )
    confidence = 0.7 if proof else 0.6
    return replace(hypothesis, summary=summary, facts=(("perplexity", perplexity),), confidence=confidence)


def _measured_again(row: Event, evidence: Evidence) -> Event | None:
    """A later row of the same pattern in the same file, for the same task (a blank task cell is a
    continuation row: any), that is not failing."""
    later = [e for e in evidence.events if e.pattern == row.pattern and e.source == row.source and e.line > row.line]
    return next((e for e in later if _same_task(e, row) and not e.failing), None)


def _other_filter_scored(row: Event, evidence: Evidence) -> Event | None:
    """A row of the same results table, for the same task under another filter, that scored above the
    floor: lm-eval prints a task's filters on consecutive rows, the later ones with the task cell blank."""
    table = [e for e in evidence.events if e.pattern == row.pattern and e.source == row.source]
    near = [e for e in table if abs(e.line - row.line) <= TABLE_ROWS and e.line != row.line]
    same_task = [e for e in near if _same_task(e, row)]
    return next((e for e in same_task if e.get("filter") != row.get("filter") and _working(e)), None)


def _same_task(one: Event, other: Event) -> bool:
    """Two rows of one results table score the same task: a blank task cell continues the row above."""
    return not one.get("task") or not other.get("task") or one.get("task") == other.get("task")


# No transfer error is no proof the transfer worked: a decode that reads KV before it landed (a
# receive on another CUDA stream, vllm-project/vllm#20263) answers garbage with no error anywhere.
MODEL_PATH_FIRST = (
    "With no transfer error, the model path (weights, kernels, numerics) is the first suspect; a transfer "
    "that hands decode unfinished or misplaced KV without an error writes the same garbage, and a single-node "
    "run of the same build tells the two apart."
)
TABLE_ROWS = 3  # a task's filters are printed on consecutive rows
# A score a model that answers reaches on these tasks (lm-eval-results-row): another filter this high
# says the answers are there; one just above the collapse floor (0.17 beside 0.06) says nothing.
WORKING_SCORE = 0.3


def _working(row: Event) -> bool:
    score = row.get("score")
    return isinstance(score, int | float) and score >= WORKING_SCORE


def _output(hypothesis: Hypothesis, evidence: Evidence) -> Hypothesis:
    root = hypothesis.first_root
    zero = root.get("output_ids_zero_fraction")
    detail = _garbage(root, evidence)
    # The warmup's, only when the line is one (the seed's all-zero output ids): any other line of
    # garbage is a generation whose request the lines do not say.
    where = "warmup output" if root.pattern in evidence.library.marked(Mark.WARMUP) else "generated text"
    summary = (
        f"Requests succeed and no KV-transfer error is logged, but the output is garbage: {detail}. {MODEL_PATH_FIRST}"
    )
    proof = _proof(evidence)
    facts = (("zero_fraction", float(zero)),) if zero is not None else ()
    transport_seen = _transport_evidence(evidence)
    if not transport_seen:
        # Zero output ids are also what decode produces from a KV cache that never arrived (the
        # seed incident): without the servers' logs or requests served end to end, the absence of
        # a transfer error is not evidence that transfers worked.
        summary = (
            f"The {where} is garbage ({detail}), and no KV-transfer error is in these lines; but neither "
            "the servers' full logs nor a request served end to end are either, so a failed KV transfer "
            "(which produces the same garbage) is not ruled out."
        )
        missing = (
            "the prefill and decode logs (a transfer-backend error there would explain zero output ids)",
            "an end-to-end result (probe or accuracy gate)",
        )
        return replace(hypothesis, summary=summary, facts=facts, confidence=0.45, missing=missing)
    confidence = 0.8 if proof else 0.65
    return replace(hypothesis, summary=summary, facts=facts, confidence=confidence, lines_used=tuple(proof[:2]))


def _garbage(root: Event, evidence: Evidence) -> str:
    """What the root line shows of the garbage: its zero output ids, or its text that is one unit
    repeated; else what the line says (its pattern's words, or title)."""
    ids, zero = root.get("output_ids"), root.get("output_ids_zero_fraction")
    if ids is not None and zero is not None:
        return f"output_ids {list(ids)[:8]} ({zero:.0%} zeros)"
    repeated, unit = root.get("output_repeat_fraction"), root.get("unit")
    if repeated is not None and unit is not None:
        quoted = clip(root.text.strip(), QUOTE)
        if float(repeated) >= ONE_UNIT:
            return f"{float(repeated):.0%} of it is {str(unit)!r} repeated, at {root.where}: {quoted}"
        # several runs in turn (`the the the ... 2 2 2 ...`): no one unit makes most of it
        output = root.get("output")
        shown = clip(str(output).strip(), QUOTE) if isinstance(output, str) else quoted
        return f"{float(repeated):.0%} of it is runs of one word or character repeated, at {root.where}: {shown}"
    invalid = root.get("invalid")
    if invalid is not None:
        return f"{_share(float(invalid))} of the GSM8K answers hold no number, at {root.where}: {root.text.strip()}"
    return evidence.says(root) or evidence.library.pattern(root.pattern).title


QUOTE = 160  # characters of the garbage line quoted in a summary
ONE_UNIT = 0.8  # a repeated share from this on is one unit's (the patterns' own bound for a single run)


def _transport_evidence(evidence: Evidence) -> bool:
    """Something that would show a transfer problem if there were one: both servers' logs, or
    requests served end to end."""
    # An answer, even a wrong one, crossed the PD path; a failed end-to-end check (an accuracy gate
    # below its threshold) is not counted as one.
    served = evidence.marked(Mark.ANSWERED) + [e for e in evidence.marked(Mark.END_TO_END) if not e.failing]
    roles = evidence.roles()
    both_servers = {Role.PREFILL, Role.DECODE} <= roles or any(role.interleaves for role in roles)
    return bool(served) or both_servers


def _proof(evidence: Evidence) -> list[Event]:
    """Lines that show requests being served."""
    return evidence.marked(*SERVING_PROOF)


def _share(value: float) -> str:
    """'90%', '99.9%': a whole percent, unless it would round to all or none when it is not (0.999 is
    no 100%)."""
    whole = f"{value:.0%}"
    return f"{value:.1%}" if (whole == "100%" and value < 1) or (whole == "0%" and value > 0) else whole
