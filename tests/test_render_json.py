"""JSON: validates against the shipped schema; the fingerprint is stable per incident."""

from __future__ import annotations

import functools
import hashlib
import io
import itertools
import json
import re
import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from pdlogdoctor.library.patterns import Library
from pdlogdoctor.model import OutputFormat, Report
from pdlogdoctor.pipeline import run
from pdlogdoctor.reason.fingerprint import fingerprint, key_facts
from pdlogdoctor.render import RENDERERS, render
from pdlogdoctor.render.json_format import schema_text
from pdlogdoctor.render.outbound import outbound_report as redact_report
from pdlogdoctor.render.redact import redactor_for

from .bundle_copy import SEED, copy_bundle
from .conftest import BUNDLES, FIXTURES, ROOT, CaseAnalyses, Reports


def as_json(report: Report) -> dict[str, Any]:
    out = io.StringIO()
    render(report, OutputFormat.JSON, out)
    parsed: dict[str, Any] = json.loads(out.getvalue())
    return parsed


@pytest.fixture(scope="module")
def reports(case_analyses: CaseAnalyses) -> Reports[str]:
    """The bundles' reports by name."""
    return Reports({bundle.name: bundle for bundle in BUNDLES}, case_analyses)


@functools.cache
def _validator() -> jsonschema.Draft202012Validator:
    """The schema's validator, built once: `jsonschema.validate` checks the schema itself on every
    call (test_schema_file_is_the_one_shipped_in_the_package checks it once)."""
    return jsonschema.Draft202012Validator(json.loads(schema_text()))


def test_every_output_format_has_a_renderer() -> None:
    assert set(RENDERERS) == set(OutputFormat)


def test_schema_file_is_the_one_shipped_in_the_package() -> None:
    shipped = ROOT / "pdlogdoctor" / "render" / "schema" / "report.schema.json"
    assert json.loads(schema_text()) == json.loads(shipped.read_text())
    jsonschema.Draft202012Validator.check_schema(json.loads(schema_text()))


@pytest.mark.parametrize("bundle", BUNDLES, ids=[b.name for b in BUNDLES])
def test_real_output_validates_against_the_schema(bundle: Path, reports: Mapping[str, Report]) -> None:
    document = as_json(reports[bundle.name])
    _validator().validate(document)
    assert document["fingerprint"] == fingerprint(reports[bundle.name])


def test_schema_rejects_a_document_missing_the_fingerprint(reports: Mapping[str, Report]) -> None:
    document = as_json(reports[SEED.name])
    del document["fingerprint"]
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(document, json.loads(schema_text()))


def test_json_is_stable_between_runs(library: Library) -> None:
    first = as_json(run([str(SEED)], library))
    second = as_json(run([str(SEED)], library))
    assert json.dumps(first) == json.dumps(second)  # same keys, same order, no run time
    assert list(first)[:3] == ["schema_version", "tool", "fingerprint"]


def _another_night(text: str) -> str:
    """The same incident a week later on other nodes: new times, pids, addresses, ids, IPs."""
    text = text.replace("2026-07-02", "2026-07-09").replace("07-02 ", "07-09 ")
    text = re.sub(r"\b10:1(\d):", r"22:4\1:", text)  # other clock times
    text = re.sub(r"\] \[(\d{4,6})\] \[", lambda m: f"] [{int(m.group(1)) + 7919}] [", text)  # MORI pids
    text = re.sub(r"process \[(\d+)\]", lambda m: f"process [{int(m.group(1)) + 31}]", text)
    text = re.sub(r"0x7[0-9a-f]{11}", lambda m: hex(int(m.group(0), 16) - 0x123450000), text)
    text = re.sub(r"\b[0-9a-f]{32}\b", lambda m: hashlib.md5(m.group(0).encode()).hexdigest(), text)
    text = text.replace("10.24.3.", "10.31.7.").replace("mia1-p06-g1", "chi4-p02-g0")
    return re.sub(r"request_id=\"req-(\d+)\"", lambda m: f'request_id="req-{int(m.group(1)) + 40}"', text)


def test_same_incident_on_another_night_has_the_same_fingerprint(library: Library, tmp_path: Path) -> None:
    night2 = copy_bundle(SEED, tmp_path / "night2", _another_night, lambda n: n.replace("mia1-p06-g1", "chi4-p02-g0"))
    first, second = run([str(SEED)], library), run([str(night2)], library)
    # The rewrite really changed the run-specific parts the chain shows...
    assert first.chain[0].text != second.chain[0].text
    assert first.chain[0].get("addr") != second.chain[0].get("addr")
    assert first.chain[0].time != second.chain[0].time
    # ...and not the incident.
    assert second.verdict.id == first.verdict.id
    assert fingerprint(second) == fingerprint(first)


def test_a_different_size_is_a_different_incident(library: Library, tmp_path: Path) -> None:
    other = copy_bundle(SEED, tmp_path / "bigger", lambda t: t.replace("size:6002442240", "size:8589934592"))
    report = run([str(other)], library)
    assert report.verdict.id == "mori-mr-size-limit"
    assert fingerprint(report) != fingerprint(run([str(SEED)], library))


def incident(report: Report) -> tuple[object, ...]:
    """What the fingerprint is documented to identify: the verdict, where its chain starts (the
    root cause's pattern), the key facts, and for an unexplained failure the kinds of failure seen
    and the unexplained error the report leads with."""
    root = report.roots[0].pattern if report.roots else None
    no_cause = report.verdict.id in ("inconclusive", "no-failure-seen")
    kinds = sorted({e.pattern for e in report.chain if e.failing}) if report.verdict.id == "inconclusive" else []
    leads = [t.template for t in report.unrecognised if t.earliest] or [t.template for t in report.unrecognised]
    lead = leads[0] if no_cause and leads else None
    return (report.verdict.id, root, tuple(key_facts(report)), tuple(kinds), lead)


def test_different_incidents_have_different_fingerprints(reports: Mapping[str, Report]) -> None:
    prints = {name: fingerprint(report) for name, report in reports.items()}
    assert all(re.fullmatch(r"pdld-[0-9a-f]{12}", value) for value in prints.values())
    for first, second in itertools.combinations(sorted(reports), 2):
        a, b = reports[first], reports[second]
        if incident(a) != incident(b):
            assert prints[first] != prints[second], (first, second)
        else:  # two bundles of one incident (e.g. the same GPU OOM seen from two sides)
            assert prints[first] == prints[second]
    # Sharing is the exception: the blind bundles re-create a few incidents on purpose. Distorted
    # copies (`same_as`: the same incident with its clocks or nodes changed) share on purpose too.
    originals = {name: value for name, value in prints.items() if not _is_copy(name)}
    assert len(set(originals.values())) >= 0.6 * len(originals)


def _is_copy(name: str) -> bool:
    return "same_as" in tomllib.loads((FIXTURES / name / "expected.toml").read_text())["expected"]


def test_fingerprint_ignores_redaction_and_run_specific_facts(reports: Mapping[str, Report]) -> None:
    for report in reports.values():
        assert fingerprint(redact_report(report, redactor_for(report))) == fingerprint(report)
        names = [name for name, _ in key_facts(report)]
        tokens = {token for name in names for token in name.split("_")}
        assert not tokens & {"time", "pid", "addr", "host", "path", "gpu", "free", "count"}


def test_unexplained_failures_of_different_kinds_have_different_fingerprints(library: Library, tmp_path: Path) -> None:
    first, second = tmp_path / "a", tmp_path / "b"
    first.mkdir()
    second.mkdir()
    (first / "bench.log").write_text("[probe] request failed -- PD path not serving; aborting before sweep\n")
    (second / "bench.log").write_text(
        "[probe] request failed -- PD path not serving; aborting before sweep\n"
        "[gsm8k] could not parse accuracy from harness output\n"
    )
    reports = [run([str(path)], library) for path in (first, second)]
    assert [r.verdict.id for r in reports] == ["inconclusive", "inconclusive"]
    assert fingerprint(reports[0]) != fingerprint(reports[1])


def test_facts_are_typed_and_locations_are_objects(reports: Mapping[str, Report]) -> None:
    document = as_json(reports["mori-mr-size-limit-seed"])
    facts = document["verdict"]["facts"]
    assert facts["errnos"] == [22] and facts["smallest_failing_region_bytes"] == 6_002_442_240
    assert facts["largest_region_known_to_register_bytes"] is None  # unknown is null, not prose
    for link in document["links"]:
        for end in (link["cause"], link["effect"]):
            assert set(end) == {"file", "line"} and isinstance(end["line"], int)
            assert any(e["file"] == end["file"] and e["line"] == end["line"] for e in document["chain"])
    used = document["suggestions"][0]["lines_used"][0]
    assert used["file"].endswith("prefill_mia1-p06-g13.log") and used["line"] == 34
    assert document["suggestions"][0]["applies_to"] == ["prefill", "decode"]


def test_no_fact_is_prose_for_unknown(reports: Mapping[str, Report]) -> None:
    """Across every bundle, no fact value says 'unknown' or 'not in these logs' in words: that is null."""
    for name, report in reports.items():
        for key, value in as_json(report)["verdict"]["facts"].items():
            assert value not in ("unknown", "not in these logs", "not logged", "none logged", "?"), (name, key)


def test_schema_version_and_its_changelog_agree() -> None:
    from pdlogdoctor.render.document import SCHEMA_VERSION

    changelog = (ROOT / "docs" / "json.md").read_text()
    assert f"- **{SCHEMA_VERSION}**:" in changelog
    assert re.fullmatch(json.loads(schema_text())["properties"]["schema_version"]["pattern"], SCHEMA_VERSION)


def test_the_excerpt_shows_each_chain_line_in_context_as_the_file_holds_it() -> None:
    """2.2: the lines around each chain line (markdown's excerpt), numbered and worded as in the file
    (not redacted: no JSON value is), validated against the schema."""
    from typer.testing import CliRunner

    from pdlogdoctor.cli.commands import app
    from pdlogdoctor.describe.excerpt import MAX_CONTEXT

    document = json.loads(CliRunner().invoke(app, ["analyze", "-f", "json", str(SEED)]).stdout)
    jsonschema.validate(document, json.loads(schema_text()))
    chain = {(event["file"], event["line"]) for event in document["chain"]}
    shown = [(window["file"], line) for window in document["excerpt"] for line in window["lines"]]
    assert {(name, line["line"]) for name, line in shown if line["distance"] == 0} == chain
    for name, line in shown:
        in_file = Path(name).read_text().splitlines()[line["line"] - 1]
        assert line["text"] == in_file
        assert line["distance"] == min(abs(line["line"] - number) for source, number in chain if source == name)
    root = document["chain"][0]
    around = {line["line"] for name, line in shown if name == root["file"]}
    assert set(range(root["line"] - MAX_CONTEXT, root["line"] + MAX_CONTEXT + 1)) <= around
    for window in document["excerpt"]:
        numbers = [line["line"] for line in window["lines"]]
        assert numbers == list(range(numbers[0], numbers[0] + len(numbers)))  # a window is consecutive lines


def test_each_series_is_written_as_json_indents_it(reports: Mapping[str, Report]) -> None:
    """The series are written by `indented`, not json's encoder (most of a 100,000-file run's
    report): the report is the text `json.dumps(indent=2)` makes of the same document."""
    from pdlogdoctor.render.document import report_document
    from pdlogdoctor.render.neutralise import json_safe

    with_series = [r for r in reports.values() if r.performance is not None and len(r.performance.series) > 1]
    assert with_series  # the corpus has runs that print metrics lines
    for report in with_series:
        out = io.StringIO()
        render(report, OutputFormat.JSON, out)
        expected = json_safe(json.dumps(report_document(report), indent=2, ensure_ascii=False)) + "\n"
        assert out.getvalue() == expected


@pytest.mark.parametrize(
    "value",
    [
        {"file": 'a\u00e9\u2028"\\\n.log', "n": None, "b": [True, False], "i": -3, "f": 0.1, "e": {}, "l": []},
        {"low": float("inf"), "high": float("-inf"), "mean": float("nan"), "big": 10**30, "tiny": 1e-300},
        [{"peak": {"file": "x", "line": 7}}, [], [[1, 2.5], "s"], {"z": {"y": {"x": [None]}}}],
        "plain",
        2,
    ],
)
def test_indented_writes_what_json_writes(value: Any) -> None:
    from pdlogdoctor.render.json_format import indented

    assert indented(value, 0) == json.dumps(value, indent=2, ensure_ascii=False)
    nested = json.dumps({"a": [value]}, indent=2, ensure_ascii=False)  # two levels deep
    assert nested == '{\n  "a": [\n    ' + indented(value, 2) + "\n  ]\n}"
