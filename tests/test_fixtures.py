"""The fixture bundles (fixtures/*) as a set: every directory states its meaning, and the links of
every bundle's chain are in causal order. What each bundle yields is checked with every other
corpus case against its expected.toml (tests/corpus.py, tests/test_corpus.py)."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

import pytest

from pdlogdoctor.model import Report

from .conftest import BUNDLES, FIXTURES


def test_there_are_bundles() -> None:
    assert len(BUNDLES) >= 70


def test_every_fixture_directory_states_its_meaning() -> None:
    directories = {path for path in FIXTURES.iterdir() if path.is_dir()}
    assert directories == set(BUNDLES), sorted(p.name for p in directories - set(BUNDLES))


@pytest.mark.parametrize("bundle", BUNDLES, ids=[b.name for b in BUNDLES])
def test_no_effect_is_listed_before_its_cause(bundle: Path, bundle_reports: Mapping[Path, Report]) -> None:
    """Clocks of different resolution (whole seconds vs microseconds) must not reverse a link."""
    report = bundle_reports[bundle]
    position = {(e.pattern, e.source, e.line): index for index, e in enumerate(report.chain)}
    for link in report.links:
        cause = position.get((link.cause.pattern, link.cause.source, link.cause.line))
        effect = position.get((link.effect.pattern, link.effect.source, link.effect.line))
        if cause is None or effect is None or link.cause.time is None or link.effect.time is None:
            continue
        if int(link.cause.time) == int(link.effect.time):  # same second: only the link can order them
            assert cause < effect, f"{link.effect.where} listed before its cause {link.cause.where}"
