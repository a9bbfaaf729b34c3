"""Every fixture bundle yields the verdict, chain and values its expected.toml states."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

import pytest

from pdlogdoctor.cli import exit_code_for
from pdlogdoctor.model import Report
from pdlogdoctor.patterns import Library
from pdlogdoctor.pipeline import run
from pdlogdoctor.render.document import format_time

from .conftest import FIXTURES

BUNDLES = sorted(path.parent for path in FIXTURES.glob("*/expected.toml"))


def load_expected(bundle: Path) -> dict[str, Any]:
    return tomllib.loads((bundle / "expected.toml").read_text())["expected"]


@pytest.fixture(scope="module")
def reports(library: Library) -> dict[Path, Report]:
    return {bundle: run([str(bundle)], library) for bundle in BUNDLES}


def test_there_are_bundles() -> None:
    assert len(BUNDLES) >= 4


def test_every_fixture_directory_states_its_meaning() -> None:
    directories = {path for path in FIXTURES.iterdir() if path.is_dir()}
    assert directories == set(BUNDLES), sorted(p.name for p in directories - set(BUNDLES))


@pytest.mark.parametrize("bundle", BUNDLES, ids=[b.name for b in BUNDLES])
def test_bundle_verdict(bundle: Path, reports: dict[Path, Report]) -> None:
    expected = load_expected(bundle)
    report = reports[bundle]
    assert report.verdict.id == expected["verdict"], report.verdict.summary
    assert report.verdict.id not in expected.get("must_not_be", [])
    assert int(exit_code_for(report)) == expected["exit_code"]
    assert report.verdict.confidence >= expected.get("min_confidence", 0.0)
    if "max_confidence" in expected:
        assert report.verdict.confidence <= expected["max_confidence"]


@pytest.mark.parametrize("bundle", BUNDLES, ids=[b.name for b in BUNDLES])
def test_bundle_chain(bundle: Path, reports: dict[Path, Report]) -> None:
    expected = load_expected(bundle)
    report = reports[bundle]
    chain_patterns = {event.pattern for event in report.chain}
    missing = set(expected.get("chain", [])) - chain_patterns
    assert not missing, f"chain lacks {missing}; has {sorted(chain_patterns)}"
    roles = {event.role.value for event in report.chain}
    assert set(expected.get("chain_roles", [])) <= roles
    for forbidden in expected.get("chain_must_not_have", []):
        assert forbidden not in chain_patterns


@pytest.mark.parametrize("bundle", BUNDLES, ids=[b.name for b in BUNDLES])
def test_bundle_suggestions_and_facts(bundle: Path, reports: dict[Path, Report]) -> None:
    expected = load_expected(bundle)
    report = reports[bundle]
    suggested = {s.name: s.value for s in report.suggestions}
    for name, want in expected.get("suggestions", {}).items():
        assert name in suggested, f"no suggestion {name}; got {suggested}"
        if isinstance(want, dict):
            assert abs(int(suggested[name]) - want["value"]) <= want["tolerance"] * want["value"]
        else:
            assert suggested[name] == want
    for name in expected.get("no_suggestions", []):
        assert name not in suggested
    facts = dict(report.verdict.facts)
    for name, want in expected.get("facts", {}).items():
        assert name in facts, f"no fact {name}; got {facts}"
        if isinstance(want, str) and not isinstance(facts[name], str):
            assert want in str(facts[name])
        elif isinstance(want, str):
            assert want in facts[name], f"{name}: {facts[name]!r} lacks {want!r}"
        else:
            assert facts[name] == want
    for phrase in expected.get("summary_contains", []):
        assert phrase in report.verdict.summary
    for phrase in expected.get("missing_contains", []):
        assert any(phrase in item for item in report.missing), report.missing
    for phrase in expected.get("time_notes_contain", []):
        assert any(phrase in note for note in report.time_notes), report.time_notes


@pytest.mark.parametrize("bundle", BUNDLES, ids=[b.name for b in BUNDLES])
def test_bundle_chain_times(bundle: Path, reports: dict[Path, Report]) -> None:
    """Times the chain must show (UTC, reference clock), and untimed lines bounded by their neighbours."""
    expected = load_expected(bundle)
    firsts = {e.pattern: e for e in reversed(reports[bundle].chain)}
    for pattern, want in expected.get("chain_times", {}).items():
        assert (format_time(firsts[pattern].time) or "").startswith(want), pattern
    for pattern, (earliest, latest) in expected.get("inferred_times", {}).items():
        event = firsts[pattern]
        assert event.time_inferred, pattern
        assert (format_time(event.time) or "").startswith(earliest)
        assert (format_time(event.time_latest) or "").startswith(latest)


DISTORTED = [bundle for bundle in BUNDLES if "same_as" in load_expected(bundle)]


def chain_meaning(report: Report) -> set[tuple[str, str, str]]:
    """What a chain says, whatever the clocks: which patterns, on which role, in which file."""
    return {(e.pattern, e.role.value, Path(e.source).name) for e in report.chain}


@pytest.mark.parametrize("bundle", DISTORTED, ids=[b.name for b in DISTORTED])
def test_distorted_bundle_reads_as_its_original(bundle: Path, reports: dict[Path, Report]) -> None:
    """A copy of a bundle with its clocks (or layout) distorted gets the original's verdict and chain."""
    original = reports[FIXTURES / load_expected(bundle)["same_as"]]
    report = reports[bundle]
    assert report.verdict.id == original.verdict.id
    assert chain_meaning(report) == chain_meaning(original)


@pytest.mark.parametrize("bundle", BUNDLES, ids=[b.name for b in BUNDLES])
def test_no_effect_is_listed_before_its_cause(bundle: Path, reports: dict[Path, Report]) -> None:
    """Clocks of different resolution (whole seconds vs microseconds) must not reverse a link."""
    report = reports[bundle]
    position = {(e.pattern, e.source, e.line): index for index, e in enumerate(report.chain)}
    for link in report.links:
        cause = position.get((link.cause.pattern, link.cause.source, link.cause.line))
        effect = position.get((link.effect.pattern, link.effect.source, link.effect.line))
        if cause is None or effect is None or link.cause.time is None or link.effect.time is None:
            continue
        if int(link.cause.time) == int(link.effect.time):  # same second: only the link can order them
            assert cause < effect, f"{link.effect.where} listed before its cause {link.cause.where}"
