"""What changed since the last green run: two run profiles side by side, and BAD's verdict
read in their light.

`compare` lines up the profile values of GOOD and BAD (profile.py) and keeps those that differ
by more than their tolerance; `strengthen_verdict` states the deltas that bear on the verdict in its
facts and summary. Whether a change the verdict's mechanism names (profile.toml `bears_on`) raises
its confidence is the decision's (`explains_verdict` -> reason/decide.reconsidered_with_baseline).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from ..library.patterns import Library
from ..model import Comparison, Delta, ErrorDelta, FieldValue, Performance, Report, Series, SeriesRow, Tier
from ..reason.analyzers.memory_registration import bytes_per_token
from .profile import ProfileSpec, ProfileValue, RunProfile

SECTION_ORDER = {"sizing": 0, "configuration": 1, "behaviour": 2}
COUNT_CHANGE = 2.0  # an error kind seen at least this many times more (or fewer) is a change
MAX_GENERIC_BEARING = 3
MAX_SUMMARY_CHANGES = 3  # the verdict's summary names this many changes; its fact names all
REGION_KEY = "largest_kv_region"
TOKENS_KEY = "max_total_num_tokens"
FAILING_REGION_KEY = "failing_region_size"
GIB = 1 << 30


def compare(good: RunProfile, bad: RunProfile, spec: ProfileSpec, library: Library) -> Comparison:
    verdict = bad.verdict if _is_cause(bad.verdict, library) else ""
    deltas = [_with_bearing(delta, verdict, spec) for delta in _value_deltas(good, bad, spec)]
    region = largest_region_delta(good, bad, verdict, spec)
    if region is not None:
        deltas.append(region)
    ordered = _ordered(_merge_roles(deltas), spec)
    return Comparison(
        baseline=good.inputs,
        baseline_verdict=good.verdict,
        baseline_confidence=good.confidence,
        baseline_summary=good.summary,
        baseline_failing=good.failing,
        deltas=tuple(ordered),
        errors=error_deltas(good, bad),
        bearing=tuple(describe(delta) for delta in _bearing(ordered)),
    )


def _bearing(deltas: list[Delta]) -> list[Delta]:
    """The changes BAD's verdict is annotated with: those its mechanism names, else the first
    few that could explain any failure (a new image, an environment variable)."""
    explaining = [d for d in deltas if d.explains and d.relevant]
    return explaining or [d for d in deltas if d.bears and d.relevant][:MAX_GENERIC_BEARING]


def _is_cause(verdict: str, library: Library) -> bool:
    return library.has_verdict(verdict) and library.verdict(verdict).tier is not Tier.META


# ---------------------------------------------------------------- values


def _value_deltas(good: RunProfile, bad: RunProfile, spec: ProfileSpec) -> list[Delta]:
    before, after = _by_slot(good.values), _by_slot(bad.values)
    deltas = []
    for slot in sorted(before.keys() | after.keys()):
        old, new = before.get(slot), after.get(slot)
        delta = _delta(old, new, spec, good, bad)
        if delta is not None:
            deltas.append(delta)
    return deltas


def _by_slot(values: Sequence[ProfileValue]) -> dict[tuple[str, str, str], ProfileValue]:
    return {(value.section, value.role, value.key): value for value in values}


def _delta(
    old: ProfileValue | None, new: ProfileValue | None, spec: ProfileSpec, good: RunProfile, bad: RunProfile
) -> Delta | None:
    known = old or new
    assert known is not None
    tolerance, _ = spec.rules_for(known.key)
    where = tuple(value.where for value in (old, new) if value is not None and value.where)
    base = Delta(known.section, (known.role,), known.key, None, None, "", known.unit, where=where)
    if old is not None and new is not None:
        if same_value(old.value, new.value, tolerance):
            return None
        return replace(base, before=old.value, after=new.value, change="changed", ratio=ratio(old.value, new.value))
    if old is not None:
        logged = (old.role, old.family) in bad.logged
        return replace(base, before=old.value, change="removed" if logged and _listed(old) else "unlogged")
    assert new is not None
    logged = (new.role, new.family) in good.logged
    return replace(base, after=new.value, change="added" if logged and _listed(new) else "unlogged")


def _listed(value: ProfileValue) -> bool:
    """Configuration lists (server_args, env listings) say what is absent; a sizing or
    behaviour value that is missing only means the run did not get that far."""
    return value.section == "configuration" and bool(value.family)


def same_value(before: FieldValue, after: FieldValue, tolerance: float) -> bool:
    if isinstance(before, int | float) and isinstance(after, int | float):
        if before == after:
            return True
        scale = max(abs(before), abs(after))
        return scale > 0 and abs(after - before) / scale <= tolerance
    return before == after


def ratio(before: FieldValue | None, after: FieldValue | None) -> float | None:
    if isinstance(before, int | float) and isinstance(after, int | float) and before and after:
        return after / before
    return None


def _merge_roles(deltas: list[Delta]) -> list[Delta]:
    """The same change seen by prefill and decode is one row naming both."""
    merged: dict[tuple[object, ...], Delta] = {}
    for delta in deltas:
        slot = (delta.section, delta.key, delta.before, delta.after, delta.change)
        if slot in merged:
            first = merged[slot]
            merged[slot] = replace(first, roles=(*first.roles, *delta.roles), where=(*first.where, *delta.where))
        else:
            merged[slot] = delta
    return list(merged.values())


def _ordered(deltas: list[Delta], spec: ProfileSpec) -> list[Delta]:
    """Changes that explain BAD's verdict first, then those bearing on it; then sizing,
    configuration, behaviour; then the file's order (the derived region right after the token
    count it comes from)."""

    def rank(delta: Delta) -> tuple[int, int, int, int, float, str]:
        key_rank = spec.rank(TOKENS_KEY) + 0.5 if delta.key == REGION_KEY else float(spec.rank(delta.key))
        # A configuration change the verdict names is upstream of the sizing it changed.
        section = -1 if delta.explains and delta.section == "configuration" else SECTION_ORDER[delta.section]
        return (not delta.relevant, not delta.bears, not delta.explains, section, key_rank, delta.key)

    return sorted(deltas, key=rank)


def _with_bearing(delta: Delta, verdict: str, spec: ProfileSpec) -> Delta:
    _, bears_on = spec.rules_for(delta.key)
    if not verdict:
        return delta
    return replace(delta, bears=verdict in bears_on or "*" in bears_on, explains=verdict in bears_on)


# ---------------------------------------------------------------- the registered region


def largest_region_delta(good: RunProfile, bad: RunProfile, verdict: str, spec: ProfileSpec) -> Delta | None:
    """GOOD's largest KV region, estimated from BAD's bytes per token, against BAD's failing one.

    Only a failed registration logs a region's size, so a green run shows none: its largest
    region is its token count times the bytes per token of BAD's failing buffer (the same
    model and layout; the analyzer's own rounding). The power-of-two ceilings between the two
    sizes are what the growth crossed.
    """
    region = _value(bad, FAILING_REGION_KEY)
    failing = region.value if region else None
    tokens_bad, tokens_good = _number(bad, TOKENS_KEY), _number(good, TOKENS_KEY)
    if region is None or not isinstance(failing, int) or tokens_bad is None or tokens_good is None:
        return None
    if tokens_bad == tokens_good:
        return None
    per_token = bytes_per_token(failing, tokens_bad)
    before = _number(good, FAILING_REGION_KEY)
    estimated = before is None
    before_bytes = tokens_good * per_token if before is None else before
    crossed = [power for power in range(28, 40) if before_bytes < (1 << power) <= failing]
    note = ", ".join(
        filter(
            None,
            [
                f"crossed {_gib(1 << crossed[0])} (2^{crossed[0]})" if crossed else "",
                f"GOOD's estimated as {tokens_good:,} tokens x {per_token} B/token" if estimated else "",
                "" if estimated else "GOOD's region failed to register too",
            ],
        )
    )
    # The region derived from the failing one bears on what that one bears on (profile.toml).
    explains = verdict in spec.rules_for(FAILING_REGION_KEY)[1]
    return Delta(
        "sizing",
        (region.role,),
        REGION_KEY,
        before_bytes,
        failing,
        "changed",
        "bytes",
        ratio(before_bytes, failing),
        note,
        bears=explains,
        explains=explains,
        where=(region.where,),
    )


def _value(profile: RunProfile, key: str) -> ProfileValue | None:
    """A value of any role (prefill first): sizing lines print the same on every server."""
    found = sorted((v for v in profile.values if v.key == key), key=lambda v: v.role != "prefill")
    return found[0] if found else None


def _number(profile: RunProfile, key: str) -> int | None:
    found = _value(profile, key)
    return found.value if found is not None and isinstance(found.value, int) else None


def _gib(size: int) -> str:
    return f"{size // GIB} GiB" if size >= GIB else f"{size >> 20} MiB"


# ---------------------------------------------------------------- errors


def error_deltas(good: RunProfile, bad: RunProfile) -> tuple[ErrorDelta, ...]:
    before = {error.template: error for error in good.errors}
    after = {error.template: error for error in bad.errors}
    found = []
    for template in before.keys() | after.keys():
        old, new = before.get(template), after.get(template)
        count_old, count_new = (old.count if old else 0), (new.count if new else 0)
        change = _count_change(count_old, count_new)
        if change is None:
            continue
        shown = new or old
        assert shown is not None
        found.append(ErrorDelta(template, shown.title, count_old, count_new, change, shown.first, shown.first_time))
    return tuple(sorted(found, key=lambda e: (e.change == "gone", e.first_time is None, e.first_time or 0.0)))


def _count_change(before: int, after: int) -> str | None:
    if before == 0:
        return "new" if after else None
    if after == 0:
        return "gone"
    if after >= before * COUNT_CHANGE:
        return "more"
    if before >= after * COUNT_CHANGE:
        return "fewer"
    return None


# ---------------------------------------------------------------- wording


def describe(delta: Delta) -> str:
    """`max_total_num_tokens 8,551,168 → 23,448,064 (×2.74)`, as every format says it."""
    head = f"{delta.key} {show_value(delta.before, delta.unit)} → {show_value(delta.after, delta.unit)}"
    if delta.ratio is not None:
        head += f" (×{delta.ratio:.2f})"
    if delta.change in ("added", "removed", "unlogged"):
        head += f" [{CHANGE_WORDS[delta.change]}]"
    return f"{head} — {delta.note}" if delta.note else head


CHANGE_WORDS = {"added": "added", "removed": "removed", "unlogged": "logged by one run only"}


def show_value(value: FieldValue | None, unit: str = "") -> str:
    if value is None:
        return "—"
    if unit == "bytes" and isinstance(value, int):
        return f"{value / 1e9:.2f} GB" if value >= 10**8 else f"{value:,} B"
    if isinstance(value, int):
        shown = f"{value:,}"
    elif isinstance(value, float):
        shown = f"{value:g}"
    else:
        shown = str(value) if not isinstance(value, tuple) else ", ".join(map(str, value))
    return f"{shown} {unit}" if unit and unit not in ("tokens",) else shown


# ---------------------------------------------------------------- the verdict


def strengthen_verdict(report: Report, comparison: Comparison) -> Report:
    """BAD's verdict with the changes since the last green run that bear on it.

    The changes are stated (a fact and a sentence of the summary); the confidence is not touched.
    """
    report = replace(report, comparison=comparison)
    if not comparison.bearing:
        return report
    verdict = report.verdict
    since = (
        f"Since the baseline (which failed too: {comparison.baseline_verdict})"
        if comparison.baseline_failing
        else "Since the last green run"
    )
    facts = (*verdict.facts, ("changed_since_baseline", f"{since}: {'; '.join(comparison.bearing)}"))
    shown = "; ".join(comparison.bearing[:MAX_SUMMARY_CHANGES])
    more = len(comparison.bearing) - MAX_SUMMARY_CHANGES
    shown += f"; and {more} more (see the changes)" if more > 0 else ""
    summary = f"{verdict.summary} {since}: {shown}."
    return replace(report, verdict=replace(verdict, facts=facts, summary=summary))


def explains_verdict(comparison: Comparison) -> bool:
    """A change since a green baseline is one the verdict's mechanism names: evidence for the
    decision (reason/decide.reconsidered_with_baseline); a failing baseline proves nothing."""
    return not comparison.baseline_failing and any(d.explains and d.relevant for d in comparison.deltas)


# ---------------------------------------------------------------- metrics series side by side

# Numbers that get worse as they rise (queues, usage, transfer time); throughputs get worse as they fall.
LOWER_IS_WORSE = ("gen_throughput", "input_throughput", "kv_throughput")
LEFT_ABOVE = 1.25  # BAD's bucket above GOOD's peak by this much has left GOOD's range
LEFT_BELOW = 0.67  # ... below GOOD's mean by this much, for a throughput
STAYED_OUT = 0.75  # a departure is the start of a stretch mostly out of range, not one noisy bucket
COMPARED = (
    "queue", "prealloc_queue", "transfer_queue", "bootstrap_queue", "running", "token_usage",
    "gen_throughput", "input_throughput", "kv_throughput", "xfer_ms", "retracted", "retracted_reqs", "preemptions",
)  # fmt: skip


def series_rows(good: Performance | None, bad: Performance | None) -> tuple[SeriesRow, ...]:
    """GOOD's and BAD's metrics series side by side, one row per role and metric (the nodes and
    ranks of one role merged: two runs seldom land on the same hosts), the one whose BAD values
    left GOOD's range first at the top: where the slow run started to differ."""
    before = _by_role_metric(good.series if good else ())
    after = _by_role_metric(bad.series if bad else ())
    start = min((s.first_time for s in (bad.series if bad else ()) if s.first_time is not None), default=None)
    rows = []
    for key in sorted(before.keys() | after.keys()):
        old, new = before.get(key), after.get(key)
        departed, direction = _departure(old, new, start)
        rows.append(SeriesRow(key[1], key[0], _nodes(new or old), old, new, departed, direction))
    return tuple(sorted(rows, key=lambda r: (r.departed is None, r.departed or 0.0, r.role, r.metric)))


def _by_role_metric(series: Sequence[Series]) -> dict[tuple[str, str], Series]:
    """The series of each (role, metric) merged into one: counts added, extremes kept, the mean
    weighted by count, the time buckets of every node and rank in time order."""
    grouped: dict[tuple[str, str], list[Series]] = {}
    for item in series:
        if item.metric in COMPARED:
            grouped.setdefault((item.role.value, item.metric), []).append(item)
    return {key: _merged(items) for key, items in grouped.items()}


def _merged(items: list[Series]) -> Series:
    if len(items) == 1:
        return items[0]
    count = sum(s.count for s in items)
    peak = max(items, key=lambda s: s.high)
    times = [s.first_time for s in items if s.first_time is not None]
    ends = [s.last_time for s in items if s.last_time is not None]
    return replace(
        peak,
        count=count,
        first_time=min(times) if times else None,
        last_time=max(ends) if ends else None,
        low=min(s.low for s in items),
        mean=sum(s.mean * s.count for s in items) / count if count else 0.0,
        points=tuple(sorted(point for s in items for point in s.points)),
    )


def _nodes(series: Series | None) -> str:
    return series.node or series.source.rsplit("/", 1)[-1] if series is not None else ""


def _departure(good: Series | None, bad: Series | None, start: float | None) -> tuple[float | None, str]:
    """Seconds after BAD's first metrics line when BAD left GOOD's range and stayed out (three
    quarters of the buckets that follow, over a tenth of the run, are out too), and which way."""
    if good is None or bad is None or start is None:
        return None, ""
    lower = bad.metric in LOWER_IS_WORSE
    out = [
        mean < good.mean * LEFT_BELOW if lower else mean > max(good.high * LEFT_ABOVE, good.high + 1)
        for _, mean, _, _ in bad.points
    ]
    window = max(3, len(out) // 10)
    for index, (time, *_) in enumerate(bad.points):
        ahead = out[index : index + window]
        if out[index] and sum(ahead) >= STAYED_OUT * len(ahead):
            return round(time - start, 1), "lower" if lower else "higher"
    return None, ""


def first_change(rows: Sequence[SeriesRow]) -> str | None:
    """The sentence for the series that changed first, or None when every one stayed in range."""
    row = next((r for r in rows if r.departed is not None), None)
    if row is None or row.before is None or row.after is None:
        return None
    return (
        f"of the metrics series, {row.metric} on the {row.role} changed first: {row.departed:+.0f} s into the run "
        f"it went {row.direction} than the last green run's range (green mean {number(row.before.mean)}, peak "
        f"{number(row.before.high)}; now mean {number(row.after.mean)}, peak {number(row.after.high)})"
    )


def number(value: float) -> str:
    """A metric's value at the precision it is read at: 15,240 tokens/s, 12.7 requests, 0.935 of a pool."""
    if abs(value) >= 1000:
        return f"{value:,.0f}"
    return f"{value:.1f}" if abs(value) >= 10 else f"{value:.3g}"
