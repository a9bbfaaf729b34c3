"""Real log excerpts from public issues (tests/data/excerpts/*): the tool's check against
lines it was not designed on. Each directory holds the verbatim lines and an expected.toml
naming its source; the same checks as the fixture bundles apply, plus `alternatives`
(verdicts that must stay listed as live alternatives) and `key_lines`: the lines the thread's
maintainers or reporter pointed at, one of which the report must quote where a reader looks for
evidence. "Quotes" means the whole key text appears both in the terminal report (with log lines
unclipped, `--verbose`: at 80 columns a long line is cut at the edge) and in the markdown report
(unredacted, `--no-redact`: redaction may mask an address inside the line)."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import pytest

from pdlogdoctor.model import Report
from pdlogdoctor.patterns import Library
from pdlogdoctor.pipeline import run
from pdlogdoctor.render import text
from pdlogdoctor.render.markdown import markdown_report
from pdlogdoctor.render.options import RenderOptions

from . import test_fixtures as checks
from .conftest import ROOT

EXCERPTS = sorted(path.parent for path in (ROOT / "tests" / "data" / "excerpts").glob("*/expected.toml"))

# Excerpts the tool still gets wrong, each with what it misses: a strict xfail, so the fix that makes
# one pass must also remove it from here. KNOWN is about the verdict checks (verdict, chain, facts,
# summary), UNQUOTED about quoting a key line.
KNOWN: dict[str, str] = {
    "aibrix-1433-ucx-umr-qp-rtr-no-such-device": "UMR QP failing RTR at KV registration: no verdict",
    "mooncake-281-register-memory-failed-glog-noise": "'Mooncake memory registration failed.' alone: no verdict",
    "nccl-426-ib-completion-error-12-gid-index": "NCCL's 'NET/IB : Got completion with error 12' unread",
    "nixl-1023-nixlbench-ucx-1.16-too-old": "a bare 'UCP API version is incompatible' reads as no failure",
    "sglang-15734-decode-committed-kv-freed": "serving-loop crash: scheduler-init-crash a close runner-up",
    "sglang-23499-nixl-ucx-progress-thread-segfault": "serving-loop crash: scheduler-init-crash a close runner-up",
    "sglang-27894-ucx-gdaki-cq-create-failed": "UCX [epoch.usec] times unread: line 5 taken for the earliest",
    "sglang-28702-gcp-prefixed-committed-kv-freed": "Cloud Logging's 'ERROR <RFC3339>' prefix hides the lines",
    "smg-2503-prefill-segfault-decode-restart": "the UCX error before the segfault is not named its trigger",
    "vllm-22430-pp-nixl-ray-register-memory": "a traceback source line leads, not the exception line",
    "vllm-29176-amd-ci-nixl-without-ucx": "the outermost traceback frame leads, not the deepest",
    "vllm-32222-nixl-not-available-rocm-ci": "the 'raise' source line leads, not the exception line",
    "vllm-49238-decode-ucx-endpoint-timeout-after-prefill-restart": "info-level UCX endpoint timeout: healthy",
}
UNQUOTED: dict[str, str] = {
    "lmcache-1343-nixl-ucx-1p1d-example-startup-benign": "vLLM's 'init engine ... took' line not shown",
    "lmcache-605-ucx-without-cuda-transports": "a warning before the first error is dropped",
    "mooncake-281-register-memory-failed-glog-noise": "the chain quotes the raise line, not the exception",
    "nixl-1983-ucx-srd-flush-new-decode": "markdown tables collapse runs of spaces",
    "sglang-27894-ucx-gdaki-cq-create-failed": "markdown tables collapse runs of spaces",
    "sglang-28702-gcp-prefixed-committed-kv-freed": "Cloud Logging's 'ERROR <RFC3339>' prefix hides the lines",
    "vllm-49238-decode-ucx-endpoint-timeout-after-prefill-restart": "info-level UCX endpoint timeout ignored",
}


def cases(known: dict[str, str]) -> list[Any]:
    """The excerpts as test parameters, the known misses as strict xfails."""
    return [
        pytest.param(b, marks=pytest.mark.xfail(strict=True, reason=known[b.name])) if b.name in known else b
        for b in EXCERPTS
    ]


@pytest.fixture(scope="module")
def reports(library: Library) -> dict[Path, Report]:
    return {bundle: run([str(bundle)], library) for bundle in EXCERPTS}


def test_there_are_excerpts() -> None:
    assert len(EXCERPTS) >= 5


def test_every_known_miss_is_an_excerpt() -> None:
    names = {bundle.name for bundle in EXCERPTS}
    assert set(KNOWN) | set(UNQUOTED) <= names


@pytest.mark.parametrize("bundle", cases(KNOWN), ids=[b.name for b in EXCERPTS])
def test_excerpt(bundle: Path, reports: dict[Path, Report]) -> None:
    checks.test_bundle_verdict(bundle, reports)
    checks.test_bundle_chain(bundle, reports)
    checks.test_bundle_suggestions_and_facts(bundle, reports)
    expected = checks.load_expected(bundle)
    listed = {alternative.id for alternative in reports[bundle].alternatives}
    for verdict in expected.get("alternatives", []):
        assert verdict in listed, f"{verdict} not among the alternatives {sorted(listed)}"


def quoted_key_lines(bundle: Path, report: Report) -> list[str]:
    """The key lines both the terminal report and the markdown report quote."""
    terminal = io.StringIO()
    text.render(report, terminal, RenderOptions(redact=False, verbose=True))
    markdown = markdown_report(report, RenderOptions(redact=False))
    return [
        line for line in checks.load_expected(bundle)["key_lines"] if line in terminal.getvalue() and line in markdown
    ]


def test_every_excerpt_names_its_key_lines() -> None:
    for bundle in EXCERPTS:
        keys = checks.load_expected(bundle).get("key_lines", [])
        logs = [
            line for path in bundle.iterdir() if path.name != "expected.toml" for line in path.read_text().splitlines()
        ]
        assert 1 <= len(keys) <= 3, f"{bundle.name}: give 1-3 key lines"
        assert all(any(key in line for line in logs) for key in keys), f"{bundle.name}: a key line is not in its logs"


@pytest.mark.parametrize("bundle", cases(UNQUOTED), ids=[b.name for b in EXCERPTS])
def test_excerpt_report_quotes_a_key_line(bundle: Path, reports: dict[Path, Report]) -> None:
    report = reports[bundle]
    assert quoted_key_lines(bundle, report), (
        f"no key line quoted; verdict {report.verdict.id}: {report.verdict.summary}"
    )
