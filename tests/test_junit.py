"""JUnit XML output (`-f junit`, `-o report.xml`): the diagnosis as a test result that GitLab,
Jenkins and the like show; well-formed whatever the logs hold, redacted by default, and saying
the same verdict, fingerprint and evidence as the JSON report."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pdlogdoctor.cli.commands import app
from pdlogdoctor.library.patterns import Library
from pdlogdoctor.model import OutputFormat
from pdlogdoctor.pipeline import run
from pdlogdoctor.render import SHAREABLE
from pdlogdoctor.render.junit import junit_report
from pdlogdoctor.render.options import RenderOptions

from .conftest import FIXTURES

SEED = FIXTURES / "mori-mr-size-limit-seed"
HEALTHY = FIXTURES / "healthy-dsv4-flash"
TWO = FIXTURES / "two-incidents-hours-apart"
NOTHING_FAILED = Path(__file__).parent / "data" / "excerpts" / "nixl-503-sglang-decode-starting"


def _cli(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(app, ["analyze", "--no-config", *args])
    return result.exit_code, result.stdout


def _suite(xml_text: str) -> ET.Element:
    root = ET.fromstring(xml_text)  # raises on a file that is not well-formed
    suite = root.find("testsuite")
    assert suite is not None
    return suite


def _json(path: Path) -> dict[str, object]:
    out = _cli(str(path), "-f", "json")[1]
    return json.loads(out)  # type: ignore[no-any-return]


def test_the_seed_is_one_failed_case_typed_by_its_verdict_on_its_root_line() -> None:
    code, out = _cli(str(SEED), "-f", "junit")
    assert code == 1  # the format changes nothing of the exit code
    suite = _suite(out)
    assert (suite.get("tests"), suite.get("failures"), suite.get("skipped")) == ("1", "1", "0")
    failure = suite.find("testcase/failure")
    assert failure is not None and failure.get("type") == "mori-mr-size-limit"
    case = suite.find("testcase")
    assert case is not None and case.get("line") == "34"  # RegisterRdmaMemoryRegion failed! ... errno:22
    assert "prefill" in (case.get("file") or "")
    body = failure.text or ""
    assert "RegisterRdmaMemoryRegion failed!" in body and "errno:22" in body
    assert "--max-total-tokens 8388352" in body  # the fix, with the value computed from the logs


def test_verdict_and_fingerprint_are_the_json_reports() -> None:
    document = _json(SEED)
    suite = _suite(_cli(str(SEED), "-f", "junit")[1])
    properties = {p.get("name"): p.get("value") for p in suite.iter("property")}
    verdict = document["verdict"]
    assert isinstance(verdict, dict)
    assert properties["verdict"] == verdict["id"]
    assert properties["fingerprint"] == document["fingerprint"]
    assert properties["confidence"] == f"{verdict['confidence']:.2f}"


def test_a_healthy_run_passes_and_no_failure_seen_is_skipped() -> None:
    healthy = _suite(_cli(str(HEALTHY), "-f", "junit")[1])
    assert (healthy.get("failures"), healthy.get("skipped")) == ("0", "0")
    assert healthy.find("testcase/system-out") is not None
    quiet = _suite(_cli(str(NOTHING_FAILED), "-f", "junit")[1])
    assert (quiet.get("failures"), quiet.get("skipped")) == ("0", "1")


def test_each_other_incident_is_a_failed_case_of_its_own(library: Library) -> None:
    report = run([str(TWO)], library)
    assert report.other_incidents, "the fixture holds two incidents"
    suite = _suite(junit_report(report, RenderOptions(redact=False)))
    types = [f.get("type") for f in suite.iter("failure")]
    assert types == [report.verdict.id, *(f.verdict.id for f in report.other_incidents)]
    assert suite.get("failures") == str(len(types))


def test_any_log_line_gives_a_well_formed_file(tmp_path: Path) -> None:
    """Characters XML 1.0 cannot carry even escaped (controls, U+FFFE), markup, CDATA's end and an
    attribute's quote, in a failing line that the report quotes."""
    hostile = 'ERROR <b>&amp;</b> ]]> "quoted" \x1b]52;c;aGk=\x07 \x0c \ufffe bell\x07 end'
    log = tmp_path / "decode.log"
    log.write_text(f"[2026-07-02 10:16:03] {hostile}\n", encoding="utf-8")
    suite = _suite(_cli(str(log), "-f", "junit")[1])
    text = ET.tostring(suite, encoding="unicode")
    assert "]]>" in "".join(suite.itertext())  # the line is there, as text
    assert "\x1b" not in text and "\x07" not in text and "\ufffe" not in text


def test_redacted_by_default_as_every_shareable_format(tmp_path: Path) -> None:
    secret = "hf_" + "Q7x9LmZp2RtW4yKb8NcV3sJd6FgH1aE5uT"
    log = tmp_path / "prefill.log"
    log.write_text(f"[2026-07-02 10:16:03] ERROR could not load model, HF_TOKEN={secret} refused\n", encoding="utf-8")
    assert OutputFormat.JUNIT in SHAREABLE
    assert secret not in _cli(str(log), "-f", "junit")[1]
    assert secret in _cli(str(log), "-f", "junit", "--no-redact")[1]


@pytest.mark.parametrize("name", ["report.xml", "REPORT.XML"])
def test_an_xml_file_gets_junit(tmp_path: Path, name: str) -> None:
    target = tmp_path / name
    code, out = _cli(str(SEED), "-o", str(target))
    assert code == 1 and out == ""
    failure = _suite(target.read_text(encoding="utf-8")).find("testcase/failure")
    assert failure is not None and failure.get("type") == "mori-mr-size-limit"
