"""Confidence: every number the decision adds to or takes off a verdict's confidence, each named.

A verdict's confidence is a `Score`: a starting value and named steps ("0.75 base + 0.07 coverage
- 0.05 missing-role"), each with the sentence that says why. The steps travel with the verdict
(`Verdict.reasons`), so `-v` and the JSON report show how the number was reached. Only the
decision (diagnose, unexplained.weigh, fleets, the baseline's reconsideration) calls these rules;
the passes after it never change a verdict or its confidence (pipeline.only_adding).

An analyzer weighs its own lines (how sure an exception, a size or an errno makes it); that
weighing enters here as one named step, `analyzer`, against the tier's base.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from ..model import ConfidenceStep, Tier, Verdict
from ..model.values import record

# ---------------------------------------------------------------- the table

# Where a verdict starts: a cause is surer than the mechanism or symptom it explains.
BASE = {Tier.CAUSE: 0.75, Tier.MECHANISM: 0.6, Tier.SYMPTOM: 0.5, Tier.META: 0.5}
CEILING = 0.97  # no verdict read from logs is certain
FLOOR = 0.3  # penalties stop here: a named verdict below it would read as a guess it is not
COVERAGE = 0.1  # times the share of the failing kinds of lines the verdict's chain explains
NEAR_TIE = 0.15  # a rival of the same tier nothing links, order unknown (scaled by 1 - time margin)
MISSING_ROLE = 0.05  # per server, router or harness log not given
HEALTHY_BASE = 0.6  # healthy: serving shown ...
PROOF_KIND = 0.1  # ... plus this per kind of serving proof (ready line, warmup, answered, end-to-end)
HEALTHY_CEILING = 0.95
HEALTHY_MISSING_ROLE = 0.1  # per log not given: health is a claim about every component
TOLERATED = 0.1  # failing-looking lines the run served through
NO_END_TO_END = 0.6  # healthy without a probe or gate: at most this
NO_FAILURE = 0.5  # nothing failed in what was given; says nothing of what was not
NO_CAUSE = 0.0  # inconclusive: no cause to be sure of
TWIN_WORKED = 0.15  # a configuration fix when the same configuration worked on a twin node
SERVED_DESPITE = 0.05  # healthy with error lines no pattern explains (CRITICAL: twice this)
UNEXPLAINED_BEFORE_ROOT = 0.1  # an error no pattern explains comes before the root (CRITICAL: twice)
TRANSFER_SAID_FAILED = 0.45  # garbage output beside a transfer error no pattern names: a lead
OUTSIDE_CATALOGUE = 0.5  # a crash whose cause is a line no verdict names: at most this
# A verdict read from a line's cause words alone (open-world/families.toml): a lead, never a
# confident verdict (the worst output is a confident wrong one), so below 0.5.
WORDS_ONLY = 0.4
# A crash proven by its parent's line, of an exception no pattern names: the crash is known, its
# cause is the exception's own words, so a lead too.
UNNAMED_EXCEPTION = 0.45
# ... its death not seen, only inferred from where its traceback runs (an engine's loop or start-up).
ENGINE_EXCEPTION = 0.4
BASELINE_EXPLAINS = 0.05  # a change since the last green run that the verdict's mechanism names
RULED_OUT = 0.1  # a verdict its own evidence rules out, listed as an alternative
# A symptom that yields to an error beside it (its wording only guesses a cause): listed, at most
# this, so it reads as a consequence and not as a rival of the error that leads.
YIELDED = 0.2
# A rival of a shallower tier (a symptom beside a mechanism or a cause) lost on the tier order, a
# decision, not a near tie: it is listed at least this far below the verdict.
SHALLOWER = 0.15
# A slow run's verdict (reason/performance.py): from what its bottleneck rests on.
SLOW_GATE = 0.75  # a latency or throughput gate failed and the metrics series show where the time went
SECOND_SIGNAL = 0.05  # ... by two independent kinds of evidence (a standing queue and a full pool)
SLOW_OTHER_GATE = 0.45  # a test or job failed (its measure unknown) and a queue stayed up: a lead, not sure
SLOW_TREND = 0.55  # no gate: a queue that still climbs at the log's end, alone
SCORES_DISAGREE = 0.4  # no gate: one evaluation's two results far apart in the same input
# No gate: a queue that stood for most of the run and the client's own latency says its requests
# waited (a mean TTFT of minutes): a slow run, named as a lead.
SLOW_CLIENT_WAITED = 0.45
SLOW_FEW_LINES = 0.4  # no gate, and the series too short for a trend: a full server in every line read
GATE_UNEXPLAINED = 0.6  # a latency or throughput gate failed and no series shows a bottleneck
SMALL_STATED_CHANGE = 0.4  # ... its row marked regressed by its author, its own change within the allowance
SIDES_BY_ORDER = 0.45  # ... the later of two result blocks, read by their order: which is the change is a guess
# An accuracy gate that failed with nothing else failing (reason/accuracy.py): the answers were worse,
# which is what accuracy-regression says; nothing shows why, so no more than a symptom's base.
ACCURACY_GATE = 0.5
# ... a gate whose measure is only inferred (a score between 0 and 1 held above a threshold): a lead.
SCORE_GATE = 0.35
# An evaluation of a few hundred questions moves by a point or more from one run to the next: a score
# under its threshold by less than this share of it may be that noise, not a regression.
NEAR_MISS_SHARE = 0.01
NEAR_MISS = 0.4  # ... and its verdict is at most this
GATE_SERVED = 0.1  # ... and the servers' logs show them serving: "while serving works" is shown, not assumed
# A named cause at or above this is acted on: its fix is shown without what to check first
# (render/fixes.py), and `analyze --follow --exit-on cause` stops on it.
SURE = 0.7


@record
class Rule:
    """One row of the table, for the README and `--explain`: a name, its amount, what it means."""

    name: str
    amount: float
    meaning: str


RULES = (
    Rule("base", BASE[Tier.CAUSE], "a cause-tier verdict starts here (mechanism 0.6, symptom/meta 0.5)"),
    Rule("analyzer", 0.0, "the verdict's analyzer weighed its lines (an exception named, sizes read): the difference"),
    Rule("coverage", COVERAGE, "times the share of failing kinds of lines the chain explains (ceiling 0.97)"),
    Rule("near-tie", -NEAR_TIE, "a same-tier rival nothing links, times 1 - how clearly the verdict came first"),
    Rule("missing-role", -MISSING_ROLE, "per prefill, decode, router or harness log not given (floor 0.3)"),
    Rule("healthy-base", HEALTHY_BASE, "healthy starts here, plus 0.1 per kind of serving proof (ceiling 0.95)"),
    Rule("proof-kinds", PROOF_KIND, "healthy, per kind of serving proof (ready line, warmup, answered, end-to-end)"),
    Rule("healthy-missing-role", -HEALTHY_MISSING_ROLE, "healthy, per log not given"),
    Rule("tolerated", -TOLERATED, "healthy, with failing-looking lines the run served through"),
    Rule("no-end-to-end", NO_END_TO_END, "healthy without a probe or accuracy gate: at most this"),
    Rule("served-despite", -SERVED_DESPITE, "healthy, with error lines no pattern explains (0.1 if critical)"),
    Rule("unexplained-before-root", -UNEXPLAINED_BEFORE_ROOT, "an unexplained error before the root (0.2 if critical)"),
    Rule("outside-catalogue", OUTSIDE_CATALOGUE, "a crash whose cause no verdict names: at most this"),
    Rule(
        "transfer-said-failed",
        TRANSFER_SAID_FAILED,
        "garbage output beside a transfer error no pattern names: at most this",
    ),
    Rule("words-only", WORDS_ONLY, "a verdict named by a line's cause words alone, no pattern knowing the line"),
    Rule("unnamed-exception", UNNAMED_EXCEPTION, "a crash its parent's line proves, of an exception no pattern names"),
    Rule(
        "exception-in-engine-code",
        ENGINE_EXCEPTION,
        "an exception no pattern names, its frames in an engine's loop or start",
    ),
    Rule("yielded", YIELDED, "a symptom that yields to an unexplained error beside it, listed: at most this"),
    Rule("shallower", -SHALLOWER, "a rival of a shallower tier than the verdict: at least this far below it"),
    Rule("twin-worked", -TWIN_WORKED, "a configuration fix, when the same configuration served on a twin node"),
    Rule("baseline-explains", BASELINE_EXPLAINS, "a change since the last green run that the verdict names"),
    Rule("nothing-failed", NO_FAILURE, "nothing failed, nothing showed serving"),
    Rule("no-cause", NO_CAUSE, "inconclusive: no line shows a cause"),
    Rule("floor", FLOOR, "penalties stop here"),
    Rule("slow-gate", SLOW_GATE, "a performance gate failed and the metrics series show the bottleneck"),
    Rule("second-signal", SECOND_SIGNAL, "the bottleneck shows in two independent kinds of evidence"),
    Rule(
        "slow-other-gate", SLOW_OTHER_GATE, "a test or job failed (its measure unknown) and a queue stayed up: a lead"
    ),
    Rule("slow-trend", SLOW_TREND, "no gate: a queue that still climbs at the log's end"),
    Rule("few-lines", SLOW_FEW_LINES, "no gate, and too few metrics lines for a trend: at most this"),
    Rule("slow-client-waited", SLOW_CLIENT_WAITED, "no gate: a queue stood and the client's latency says it waited"),
    Rule("scores-disagree", SCORES_DISAGREE, "no gate: one evaluation's two scores far apart in one input"),
    Rule("gate-unexplained", GATE_UNEXPLAINED, "a performance gate failed and no metrics series shows why"),
    Rule("sides-by-order", SIDES_BY_ORDER, "a gate that is the later of two result blocks, by order: at most this"),
    Rule(
        "small-stated-change",
        SMALL_STATED_CHANGE,
        "a row its author marks regressed states a change within 10 %: at most this",
    ),
    Rule("accuracy-gate", ACCURACY_GATE, "an accuracy gate failed and nothing else in the logs failed"),
    Rule("score-gate", SCORE_GATE, "a gate held a score between 0 and 1 above its threshold and failed, nothing else"),
    Rule("gate-served", GATE_SERVED, "an accuracy gate failed, and the servers' logs show them serving"),
    Rule("near-miss", NEAR_MISS, "an accuracy gate missed by under 1 % of its threshold (noise?): at most this"),
)
NAMES = frozenset(rule.name for rule in RULES)


# ---------------------------------------------------------------- a score and its steps


@record
class Score:
    value: float
    steps: tuple[ConfidenceStep, ...]

    def step(self, name: str, value: float, why: str) -> Score:
        """The score moved to `value`, the move recorded under `name` (no step when nothing moved)."""
        change = round(value - self.value, 4)
        if change == 0:
            return self
        return Score(value, (*self.steps, ConfidenceStep(name, change, why)))

    def rounded(self) -> Score:
        return Score(round(self.value, 2), self.steps)


def start(value: float, name: str, why: str) -> Score:
    return Score(value, (ConfidenceStep(name, value, why),))


def of(verdict: Verdict) -> Score:
    return Score(verdict.confidence, verdict.reasons)


def applied(verdict: Verdict, score: Score) -> Verdict:
    return replace(verdict, confidence=score.value, reasons=score.steps)


def words(steps: Sequence[ConfidenceStep]) -> str:
    """'0.75 base + 0.07 coverage - 0.05 missing-role' (each change to two places)."""
    if not steps:
        return ""
    first, *rest = steps
    parts = [f"{first.change:.2f} {first.name}"]
    parts += [f"{'+' if s.change > 0 else '-'} {abs(s.change):.2f} {s.name}" for s in rest]
    return " ".join(parts)


# ---------------------------------------------------------------- a named verdict


def named(tier: Tier, weighed: float, coverage: float, analyzer: str | None) -> Score:
    """A hypothesis's score as it enters the report: the tier's base, the analyzer's weighing of
    its lines, and the coverage the diagnosis added (`weighed` includes `coverage`)."""
    score = start(BASE[tier], "base", f"a {tier.value}-level verdict")
    why = f"the {analyzer} analyzer's reading of its lines" if analyzer else "its lines' reading"
    score = score.step("analyzer", weighed - coverage, why)
    return score.step("coverage", weighed, "the share of the failing lines its chain explains")


def coverage(confidence: float, explained: int, failing: int) -> float:
    """The hypothesis's confidence raised by the share of the failure it explains."""
    return round(min(CEILING, confidence + COVERAGE * explained / failing), 2)


def near_tie(score: Score, margin: float, rival: str) -> Score:
    why = f"{rival}, of the same tier, is not linked to it" + (
        "" if margin <= 0 else f"; the verdict comes first by a margin of {margin:.2f}"
    )
    return score.step("near-tie", max(FLOOR, score.value - NEAR_TIE * (1 - margin)), why)


def missing_roles(score: Score, missing: Sequence[str]) -> Score:
    if not missing:
        return score
    return score.step("missing-role", max(FLOOR, score.value - MISSING_ROLE * len(missing)), "; ".join(missing))


def twin_worked(score: Score) -> Score:
    why = "the same configuration served on another node of the role"
    return score.step("twin-worked", round(max(FLOOR, score.value - TWIN_WORKED), 2), why)


def unexplained_before_root(score: Score, critical: bool, where: str) -> Score:
    drop = 2 * UNEXPLAINED_BEFORE_ROOT if critical else UNEXPLAINED_BEFORE_ROOT
    why = f"an error no pattern explains comes before the root ({where})"
    return score.step("unexplained-before-root", round(max(FLOOR, score.value - drop), 2), why)


def transfer_said_failed(score: Score, where: str) -> Score:
    """Garbage output whose reading rests on no transfer having failed, while a line no pattern names
    says one did: the transport is not ruled out, so the model-path reading stays a lead."""
    why = (
        f"a line no pattern names says a KV transfer failed ({where}): garbage from KV that never arrived "
        "looks the same"
    )
    return score.step("transfer-said-failed", round(min(TRANSFER_SAID_FAILED, score.value), 2), why)


def outside_catalogue(score: Score, where: str) -> Score:
    why = f"the likeliest cause, at {where}, is a line no pattern names"
    return score.step("outside-catalogue", round(min(OUTSIDE_CATALOGUE, score.value), 2), why)


def words_only(where: str) -> Score:
    why = f"the line at {where} names the cause in words no pattern of the library knows"
    return start(WORDS_ONLY, "words-only", why)


def unnamed_exception(where: str) -> Score:
    why = f"a child's death follows the exception at {where}, which no pattern of the library names"
    return start(UNNAMED_EXCEPTION, "unnamed-exception", why)


def engine_exception(where: str, placed: str) -> Score:
    why = (
        f"the exception at {where}, which no pattern names, was raised through {placed}: uncaught, it ends the process"
    )
    return start(ENGINE_EXCEPTION, "exception-in-engine-code", why)


def baseline_explains(score: Score) -> Score:
    why = "a change since the last green run is one the verdict's mechanism names"
    return score.step("baseline-explains", min(CEILING, round(score.value + BASELINE_EXPLAINS, 2)), why)


# ---------------------------------------------------------------- healthy and no cause


def healthy(proof_kinds: int, missing: int, tolerated: bool, end_to_end: bool) -> Score:
    score = start(HEALTHY_BASE, "healthy-base", "the logs show the deployment serving")
    score = score.step("proof-kinds", min(HEALTHY_CEILING, HEALTHY_BASE + PROOF_KIND * proof_kinds),
                       f"{proof_kinds} kind(s) of serving proof")  # fmt: skip
    score = score.step(
        "healthy-missing-role", score.value - HEALTHY_MISSING_ROLE * missing, f"{missing} log(s) not given"
    )
    if tolerated:
        score = score.step("tolerated", score.value - TOLERATED, "failing-looking lines it served through")
    if not end_to_end:
        score = score.step("no-end-to-end", min(score.value, NO_END_TO_END), "no probe or accuracy gate passed")
    return score.step("floor", max(FLOOR, score.value), "the floor").rounded()


def served_despite(score: Score, critical: bool) -> Score:
    drop = 2 * SERVED_DESPITE if critical else SERVED_DESPITE
    why = "error lines no pattern explains did not stop it serving"
    return score.step("served-despite", round(max(FLOOR, score.value - drop), 2), why)


def no_cause(why: str) -> Score:
    return start(NO_CAUSE, "no-cause", why)


def no_failure_seen() -> Score:
    return start(NO_FAILURE, "nothing-failed", "nothing failed in what was given, and nothing showed serving")


# ---------------------------------------------------------------- slow runs


def slow_run(gate: str, signals: int, why: str) -> Score:
    """A bottleneck's score: by the gate it explains (`performance`: a latency or throughput gate;
    `other`: a test or a job; `waited`: no gate, the client's own latency; `none`) and the
    independent kinds of evidence it rests on."""
    if gate == "performance":
        score = start(SLOW_GATE, "slow-gate", why)
        if signals >= 2:
            score = score.step("second-signal", score.value + SECOND_SIGNAL, "two kinds of evidence show it")
        return score.rounded()
    if gate == "other":
        return start(SLOW_OTHER_GATE, "slow-other-gate", why)
    if gate == "waited":
        return start(SLOW_CLIENT_WAITED, "slow-client-waited", why)
    return start(SLOW_TREND, "slow-trend", why)


def few_lines(score: Score) -> Score:
    """A bottleneck read from fewer metrics lines than a trend needs: a lead, not a finding."""
    return score.step("few-lines", min(score.value, SLOW_FEW_LINES), "its metrics lines are too few for a trend")


def gate_unexplained(why: str) -> Score:
    return start(GATE_UNEXPLAINED, "gate-unexplained", why)


def sides_by_order(score: Score, why: str) -> Score:
    return score.step("sides-by-order", round(min(SIDES_BY_ORDER, score.value), 2), why)


def small_stated_change(score: Score, why: str) -> Score:
    return score.step("small-stated-change", round(min(SMALL_STATED_CHANGE, score.value), 2), why)


def scores_disagree(why: str) -> Score:
    """Two results of one evaluation far apart, no gate: the lower is a regression, read as a lead."""
    return start(SCORES_DISAGREE, "scores-disagree", why)


def accuracy_gate(why: str, inferred: bool, served: str) -> Score:
    """An accuracy gate's verdict: `served` says where the servers' logs show them serving ("" when they do not)."""
    score = start(SCORE_GATE, "score-gate", why) if inferred else start(ACCURACY_GATE, "accuracy-gate", why)
    return score.step("gate-served", score.value + GATE_SERVED, served) if served else score


def missed_by_a_hair(value: float, threshold: float) -> bool:
    """A score under its threshold by less than NEAR_MISS_SHARE of it."""
    return threshold > 0 and 0 <= threshold - value < NEAR_MISS_SHARE * threshold


def near_miss(score: Score, value: float, threshold: float) -> Score:
    share = (threshold - value) / threshold
    why = f"{value:g} is under {threshold:g} by {share:.1%} of it, within an evaluation's run-to-run noise"
    return score.step("near-miss", round(min(NEAR_MISS, score.value), 2), why)


def near_miss_sentence(value: float, threshold: float) -> str:
    share = (threshold - value) / threshold
    return (
        f"It missed by {threshold - value:.4g} ({share:.1%} of the threshold), within the spread of such an "
        "evaluation from one run to the next: rerun it before bisecting."
    )
