"""The comparison with the last green run, as every format shows it (one place for the wording)."""

from __future__ import annotations

from ..model import Comparison, Delta, ErrorDelta, Series, SeriesRow

TITLE = "Changed since the last green run"
MAX_ROWS = 60  # text and markdown; JSON lists every change
CHANGE_MARKS = {"changed": "changed", "added": "added", "removed": "removed", "unlogged": "one run only"}


def baseline_warning(comparison: Comparison) -> str | None:
    """A baseline that failed itself is said first: its differences explain less."""
    if not comparison.baseline_failing:
        return None
    return (
        f"The baseline is not green: it failed too ({comparison.baseline_verdict}, confidence "
        f"{comparison.baseline_confidence:.2f}). What changed since then may not be what broke."
    )


def headline(comparison: Comparison) -> str:
    relevant = [d for d in comparison.deltas if d.relevant]
    if not relevant and not comparison.errors:
        return "No relevant change since the baseline (run-specific values such as times, ports and hosts are ignored)."
    kinds = f"{len(relevant)} changed value{'s' * (len(relevant) != 1)}"
    errors = f"{len(comparison.errors)} change{'s' * (len(comparison.errors) != 1)} in error lines"
    return f"{kinds}, {errors}."


def baseline_line(comparison: Comparison) -> str:
    """`fixtures/run-0701 (4 files): healthy`: the common folder of GOOD's inputs, not every name."""
    names = comparison.baseline
    common = names[0] if len(names) == 1 else _common_folder(names)
    files = f" ({len(names)} files)" if len(names) > 1 else ""
    return f"baseline: {common}{files}, verdict {comparison.baseline_verdict}"


def _common_folder(names: tuple[str, ...]) -> str:
    parts = [name.split("/") for name in names]
    shared = []
    for column in zip(*parts, strict=False):
        if len(set(column)) != 1:
            break
        shared.append(column[0])
    return "/".join(shared) or "."


def delta_cells(delta: Delta) -> tuple[str, str, str, str, str]:
    """(what, roles, before, after, change) for a table row."""
    from ..runs.compare import show_value  # with the run profiles: only a run with a baseline has deltas

    change = CHANGE_MARKS[delta.change]
    if delta.ratio is not None:
        change = f"×{delta.ratio:.2f}"
    if delta.note:
        change += f" — {delta.note}"
    if delta.bears and delta.relevant:
        change += " · bears on the verdict"
    return (
        delta.key,
        ", ".join(delta.roles),
        show_value(delta.before, delta.unit),
        show_value(delta.after, delta.unit),
        change,
    )


def error_cells(error: ErrorDelta) -> tuple[str, str, str, str, str]:
    """(what, before, after, change, first line)."""
    what = f"{error.template}: {error.title}" if error.title else error.template
    return what, str(error.before), str(error.after), error.change, error.first


SERIES_HEAD = ("metrics series", "role", "last green", "this run", "left the green range")


def series_cells(row: SeriesRow) -> tuple[str, str, str, str, str]:
    """(what, role, before, after, when it left GOOD's range) for a row of the metrics series."""
    left = f"{row.departed:+.0f} s, {row.direction}" if row.departed is not None else "stayed in range"
    return (row.metric, row.role, _summary(row.before), _summary(row.after), left)


def _summary(series: Series | None) -> str:
    from ..runs.compare import number  # with the run profiles: only a run with a baseline has series rows

    return "not printed" if series is None else f"mean {number(series.mean)}, peak {number(series.high)}"
