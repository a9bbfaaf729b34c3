"""A client's report of a 5xx (curl -f's `returned error: 502`, urllib's `HTTP Error 502: Bad Gateway`)
is the chain's failed requests as the client received them: when the verdict names a cause whose
chain shows requests failing or answered with errors, it is not listed as an unrecognised error (a
note quotes it). Issue 23, newcomer review defect 12: the seed listed its curl 502 as unrecognised."""

from __future__ import annotations

from pathlib import Path

from pdlogdoctor.library.patterns import Library
from pdlogdoctor.model import Report
from pdlogdoctor.pipeline import run

from .bundle_copy import SEED, copy_bundle
from .conftest import FIXTURES

CURL_502 = "curl: (22) The requested URL returned error: 502"  # the seed's bench.log:6, curl's lib/http.c
URLLIB_502 = "urllib.error.HTTPError: HTTP Error 502: Bad Gateway"  # CPython Lib/urllib/error.py
CURL_REFUSED = "curl: (7) Failed to connect to 127.0.0.1 port 30000: Connection refused"  # no answer at all


def _unrecognised(report: Report) -> list[str]:
    return [item.first.text for item in report.unrecognised]


def _seed_with(tmp_path: Path, line: str) -> Path:
    return copy_bundle(SEED, tmp_path / "bundle", lambda text: text.replace(CURL_502, line))


def test_the_seeds_curl_502_is_the_chains_failed_requests(library: Library) -> None:
    report = run([str(SEED)], library)
    assert report.verdict.id == "mori-mr-size-limit"
    assert CURL_502 not in _unrecognised(report)
    assert any(CURL_502 in note and "bench.log:6" in note for note in report.notes), report.notes


def test_urllibs_502_is_one_too(tmp_path: Path, library: Library) -> None:
    report = run([str(_seed_with(tmp_path, URLLIB_502))], library)
    assert report.verdict.id == "mori-mr-size-limit"
    assert URLLIB_502 not in _unrecognised(report)
    assert any(URLLIB_502 in note for note in report.notes)


def test_a_curl_error_that_is_no_answer_stays_unrecognised(tmp_path: Path, library: Library) -> None:
    """curl could not connect: no server answered, so the chain's error answers do not explain it."""
    report = run([str(_seed_with(tmp_path, CURL_REFUSED))], library)
    assert CURL_REFUSED in _unrecognised(report)


def test_a_502_beside_a_chain_without_failed_requests_stays_unrecognised(tmp_path: Path, library: Library) -> None:
    """A config-mismatch verdict whose chain holds no failed request: a 502 is not its doing."""
    bundle = copy_bundle(FIXTURES / "config-mismatch-kv-dtype-implicit", tmp_path / "bundle")
    with (bundle / "bench.log").open("a") as bench:
        bench.write(CURL_502 + "\n")
    report = run([str(bundle)], library)
    assert report.verdict.id == "config-mismatch"
    assert CURL_502 in _unrecognised(report)


def test_a_502_with_no_named_cause_stays_unrecognised(tmp_path: Path, library: Library) -> None:
    """Nothing explains it: the inconclusive report leads with it, as before."""
    (tmp_path / "bench.log").write_text(CURL_502 + "\n")
    report = run([str(tmp_path / "bench.log")], library)
    assert report.verdict.id == "inconclusive"
    assert CURL_502 in _unrecognised(report)
