"""Two runs through the pipeline, compared: `pdlogdoctor diff GOOD BAD` and `analyze BAD --baseline GOOD`."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import BinaryIO

from ..library.patterns import Library
from ..model import Report, SeriesRow, verdicts
from ..model.options import RunOptions
from ..pipeline import DEFAULT_OPTIONS, Analysis, analyse
from ..reason.decide import reconsidered_with_baseline
from .compare import compare, explains_verdict, first_change, series_rows, strengthen_verdict
from .profile import ProfileSpec, RunProfile, build_profile, load_profile_spec


def run_with_baseline(
    paths: Sequence[str],
    baseline: Sequence[str],
    library: Library,
    stdin: BinaryIO | None = None,
    on_progress: Callable[[int], None] | None = None,
    options: RunOptions = DEFAULT_OPTIONS,
) -> Report:
    """BAD's report (`paths`), compared with the last green run (`baseline`) and read in its light."""
    return analyse_both(paths, baseline, library, stdin, on_progress, options)[0]


def analyse_both(
    paths: Sequence[str],
    baseline: Sequence[str],
    library: Library,
    stdin: BinaryIO | None = None,
    on_progress: Callable[[int], None] | None = None,
    options: RunOptions = DEFAULT_OPTIONS,
) -> tuple[Report, Report]:
    """BAD's compared report, and GOOD's own (the CLI says when nothing in GOOD was readable)."""
    spec = load_profile_spec()
    bad = analyse(paths, library, stdin, on_progress, options)
    good = analyse(baseline, library, None, on_progress, replace(options, excerpt=False))
    comparison = compare(profile_of(good, spec, library), profile_of(bad, spec, library), spec, library)
    rows = series_rows(good.report.performance, bad.report.performance)
    comparison = replace(comparison, series=rows, bearing=(*comparison.bearing, *_slowed(bad.report, rows)))
    report = strengthen_verdict(reconsidered_with_baseline(bad.report, explains_verdict(comparison)), comparison)
    return report, good.report


def _slowed(report: Report, rows: tuple[SeriesRow, ...]) -> tuple[str, ...]:
    """For a slow run (or one no line explains), the series that left the green run's range first."""
    sentence = first_change(rows)
    return (sentence,) if sentence and report.verdict.id in (*verdicts.PERFORMANCE, *verdicts.META) else ()


def profile_of(analysis: Analysis, spec: ProfileSpec, library: Library) -> RunProfile:
    titles = {pattern.id: pattern.title for pattern in library.patterns}
    return build_profile(analysis.report, analysis.events, analysis.sources, spec, titles)
