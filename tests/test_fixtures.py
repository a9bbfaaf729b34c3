"""Every fixture bundle yields the verdict, chain and values its expected.toml states.

expected.toml has a closed set of keys (a misspelt key is an error, not a silent pass); the chain
is the exact set of patterns the report's chain shows (an unexpected pattern joining it fails),
unless the bundle says `chain_extra_ok = true`; a `must_not_be` verdict is neither the verdict nor
a close runner-up.
"""

from __future__ import annotations

import tomllib
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from pdlogdoctor.cli.behaviour import exit_code_for
from pdlogdoctor.model import Event, Report
from pdlogdoctor.render.document import format_time

from .conftest import BUNDLES, FIXTURES

FILE_KEYS = {"description", "expected"}
# Every key an [expected] table may hold, and what it states.
EXPECTED_KEYS = {
    "verdict": "the verdict id",
    "exit_code": "the CLI's exit code",
    "min_confidence": "the verdict's confidence is at least this",
    "max_confidence": "... and at most this (a guess must stay a guess)",
    "chain": "the exact set of patterns in the chain",
    "chain_extra_ok": "true: `chain` is a subset (for a chain that legitimately varies; say why in a comment)",
    "chain_roles": "roles the chain must show",
    "chain_must_not_have": "patterns that must not be in the chain",
    "must_not_be": "wrong verdicts: not the verdict, and any runner-up among them is a clear one",
    "alternatives": "verdicts that must be listed as alternatives (real excerpts)",
    "suggestions": "suggested values (exact, or {value, tolerance})",
    "no_suggestions": "suggestion names that must not be given",
    "facts": "verdict facts (numbers exact, strings as substrings)",
    "summary_contains": "phrases of the verdict's summary",
    "missing_contains": "phrases of the missing-evidence list",
    "time_notes_contain": "phrases of the clock notes",
    "chain_times": "pattern -> UTC time prefix of its first chain event",
    "inferred_times": "pattern -> [earliest, latest] of an untimed event",
    "same_as": "another bundle whose verdict and chain meaning this distorted copy must keep",
    "same_as_ignoring": "patterns left out of that comparison (say why in a comment)",
    "other_incidents": "verdict ids of the separate incidents reported besides the verdict, in order",
    "other_incident_same_as": "the bundle whose verdict and chain meaning the first other incident keeps",
    "alternative_why": "verdict -> phrase its alternative's why-not must hold",
    "key_lines": "parts of log lines the thread pointed at; the text and markdown reports quote one (real excerpts)",
    "sides_from_files": "true: the verdict rests on which side wrote a line, which one merged stream loses",
}
REQUIRED_KEYS = ("verdict", "exit_code", "must_not_be", "chain")
# A must-not-be verdict may be a runner-up, but a clear one: this far below the verdict. One the
# analysis rejected (confidence at most REJECTED, e.g. 0.1 with its reason) is no rival at all.
MUST_NOT_BE_MARGIN = 0.1
REJECTED = 0.2


def expectation_problems(data: dict[str, Any]) -> list[str]:
    """What is wrong with an expected.toml's shape: unknown or missing keys."""
    problems = [f"unknown top-level key '{key}'" for key in data if key not in FILE_KEYS]
    expected = data.get("expected", {})
    problems += [f"unknown key '{key}' in [expected]" for key in expected if key not in EXPECTED_KEYS]
    problems += [f"[expected] lacks '{key}'" for key in REQUIRED_KEYS if key not in expected]
    return problems


def load_expected(bundle: Path) -> dict[str, Any]:
    data = tomllib.loads((bundle / "expected.toml").read_text())
    problems = expectation_problems(data)
    assert not problems, f"{bundle.name}/expected.toml: {'; '.join(problems)} (keys: {sorted(EXPECTED_KEYS)})"
    expected: dict[str, Any] = data["expected"]
    return expected


def chain_problems(expected: dict[str, Any], report: Report) -> list[str]:
    stated, shown = set(expected["chain"]), {event.pattern for event in report.chain}
    problems = [f"chain lacks {sorted(stated - shown)}"] if stated - shown else []
    if shown - stated and not expected.get("chain_extra_ok", False):
        problems.append(f"unexpected in the chain: {sorted(shown - stated)}")
    return problems


def must_not_be_problems(expected: dict[str, Any], report: Report) -> list[str]:
    wrong = set(expected["must_not_be"])
    problems = [f"the verdict {report.verdict.id} is one it must not be"] if report.verdict.id in wrong else []
    ceiling = max(report.verdict.confidence - MUST_NOT_BE_MARGIN, REJECTED)
    for alternative in report.alternatives:
        if alternative.id in wrong and alternative.confidence > ceiling + 1e-9:
            problems.append(
                f"{alternative.id} is a close runner-up ({alternative.confidence:.2f} against "
                f"{report.verdict.confidence:.2f}) though it must not be the verdict"
            )
    return problems


@pytest.fixture(scope="module")
def reports(bundle_reports: dict[Path, Report]) -> dict[Path, Report]:
    return bundle_reports


def test_there_are_bundles() -> None:
    assert len(BUNDLES) >= 70


def test_every_fixture_directory_states_its_meaning() -> None:
    directories = {path for path in FIXTURES.iterdir() if path.is_dir()}
    assert directories == set(BUNDLES), sorted(p.name for p in directories - set(BUNDLES))


@pytest.mark.parametrize("bundle", BUNDLES, ids=[b.name for b in BUNDLES])
def test_bundle_verdict(bundle: Path, reports: dict[Path, Report]) -> None:
    expected = load_expected(bundle)
    report = reports[bundle]
    assert report.verdict.id == expected["verdict"], report.verdict.summary
    assert not must_not_be_problems(expected, report)
    assert int(exit_code_for(report)) == expected["exit_code"]
    assert report.verdict.confidence >= expected.get("min_confidence", 0.0)
    if "max_confidence" in expected:
        assert report.verdict.confidence <= expected["max_confidence"]


@pytest.mark.parametrize("bundle", BUNDLES, ids=[b.name for b in BUNDLES])
def test_bundle_chain(bundle: Path, reports: dict[Path, Report]) -> None:
    expected = load_expected(bundle)
    report = reports[bundle]
    chain_patterns = {event.pattern for event in report.chain}
    problems = chain_problems(expected, report)
    assert not problems, f"{'; '.join(problems)}; the chain has {sorted(chain_patterns)}"
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


def chain_meaning(chain: tuple[Event, ...], ignored: list[str]) -> set[tuple[str, str]]:
    """What a chain says, whatever the clocks, file names or line numbers: which patterns on which role."""
    return {(e.pattern, e.role.value) for e in chain if e.pattern not in ignored}


@pytest.mark.parametrize("bundle", DISTORTED, ids=[b.name for b in DISTORTED])
def test_distorted_bundle_reads_as_its_original(bundle: Path, reports: dict[Path, Report]) -> None:
    """A copy of a bundle with its clocks (or layout) distorted gets the original's verdict and chain."""
    expected = load_expected(bundle)
    original = reports[FIXTURES / expected["same_as"]]
    report = reports[bundle]
    ignored = expected.get("same_as_ignoring", [])
    assert report.verdict.id == original.verdict.id
    assert chain_meaning(report.chain, ignored) == chain_meaning(original.chain, ignored)


@pytest.mark.parametrize("bundle", BUNDLES, ids=[b.name for b in BUNDLES])
def test_other_incidents_and_recovered_rivals(bundle: Path, reports: dict[Path, Report]) -> None:
    """Separate incidents are findings of their own (with the chain of the bundle they came from);
    a failure the service recovered from is an alternative that says so."""
    expected = load_expected(bundle)
    report = reports[bundle]
    assert [f.verdict.id for f in report.other_incidents] == expected.get("other_incidents", [])
    if "other_incident_same_as" in expected:
        original = reports[FIXTURES / expected["other_incident_same_as"]]
        ignored = expected.get("same_as_ignoring", [])
        assert report.other_incidents[0].verdict.id == original.verdict.id
        assert chain_meaning(report.other_incidents[0].chain, ignored) == chain_meaning(original.chain, ignored)
    why = {a.id: a.why_not for a in report.alternatives}
    for verdict, phrase in expected.get("alternative_why", {}).items():
        assert phrase in why.get(verdict, ""), why


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


# ---------------------------------------------------------------- the checks themselves can fail


def test_a_misspelt_expectation_key_is_refused() -> None:
    data = {"expected": {"verdict": "x", "exit_code": 1, "must_not_be": [], "chian": ["a"]}}
    assert expectation_problems(data) == ["unknown key 'chian' in [expected]", "[expected] lacks 'chain'"]


def test_an_unexpected_pattern_in_the_chain_fails_unless_allowed(bundle_reports: dict[Path, Report]) -> None:
    report = bundle_reports[FIXTURES / "mori-mr-size-limit-seed"]
    shown = sorted({event.pattern for event in report.chain})
    assert chain_problems({"chain": shown}, report) == []
    assert chain_problems({"chain": shown[1:]}, report) == [f"unexpected in the chain: {shown[:1]}"]
    assert chain_problems({"chain": shown[1:], "chain_extra_ok": True}, report) == []


def test_a_close_must_not_be_runner_up_fails(bundle_reports: dict[Path, Report]) -> None:
    report = bundle_reports[FIXTURES / "mori-mr-size-limit-seed"]
    rival = report.alternatives[0]
    assert not must_not_be_problems({"must_not_be": [rival.id]}, report)  # a clear runner-up is allowed
    close = replace(report, alternatives=(replace(rival, confidence=report.verdict.confidence - 0.05),))
    assert must_not_be_problems({"must_not_be": [rival.id]}, close)
    assert must_not_be_problems({"must_not_be": [report.verdict.id]}, report)
