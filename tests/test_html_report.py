"""The HTML report as a document: self-contained, escaped, redacted like markdown, small at scale.

These run without a browser; tests/test_browser.py opens the same files in headless Chromium.
"""

from __future__ import annotations

import json
import re
from dataclasses import replace
from html.parser import HTMLParser
from pathlib import Path

import pytest

from pdlogdoctor.library.patterns import Library
from pdlogdoctor.model import Event, Kind, Link, Report, Role, Severity, Source, Suggestion, Verdict
from pdlogdoctor.pipeline import run
from pdlogdoctor.render.html import html_report, timeline_data
from pdlogdoctor.render.mermaid import MAX_NODES, mermaid_chain
from pdlogdoctor.render.options import RenderOptions

from .conftest import FIXTURES

SEED = FIXTURES / "mori-mr-size-limit-seed"
PLAIN = RenderOptions(redact=False)
T0 = 1_782_987_363.0  # 2026-07-02 10:16:03 UTC


def event(
    pattern: str,
    source: str,
    line: int,
    seconds: float | None,
    role: Role,
    text: str = "",
    kind: Kind = Kind.SYMPTOM,
    repeats: int = 1,
) -> Event:
    return Event(
        pattern=pattern,
        source=source,
        line=line,
        time=None if seconds is None else T0 + seconds,
        time_text=None,
        text=text or f"{pattern} at {source}:{line}",
        fields=(),
        severity=Severity.ERROR,
        kind=kind,
        failing=True,
        role=role,
        repeats=repeats,
    )


def hand_built(chain: tuple[Event, ...], links: tuple[Link, ...] = (), **verdict: object) -> Report:
    sources = sorted({e.source for e in chain})
    return Report(
        verdict=Verdict(
            id=str(verdict.get("id", "mori-mr-size-limit")),
            title=str(verdict.get("title", "A KV buffer is larger than the NIC's ceiling")),
            confidence=float(verdict.get("confidence", 0.9)),  # type: ignore[arg-type]
            summary=str(verdict.get("summary", "summary")),
        ),
        chain=chain,
        links=links,
        alternatives=(),
        suggestions=(Suggestion("env", "SGLANG_MORI_MAX_MR_BYTES", 2147483648, "cap one region"),),
        missing=("the decode log",),
        inputs=tuple(Source(name, Role.UNKNOWN, "test", 10, 100, node=None) for name in sources),
        roots=chain[:1],
        glossary=(("mori-mr-register-failed", "MORI could not register a buffer"),),
    )


class Resources(HTMLParser):
    """Every URL the page would load or link to, and its script elements."""

    def __init__(self) -> None:
        super().__init__()
        self.urls: list[str] = []
        self.scripts: list[dict[str, str | None]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        for name, value in attrs:
            if name in ("src", "href", "action", "data") and value:
                self.urls.append(value)
        if tag == "script":
            self.scripts.append(dict(attrs))


def embedded_data(page: str) -> dict[str, object]:
    match = re.search(r'<script type="application/json" id="pdld-data">(.*?)</script>', page, re.S)
    assert match, "no data blob"
    loaded: dict[str, object] = json.loads(match.group(1))
    return loaded


@pytest.fixture(scope="module")
def seed_report(library: Library) -> Report:
    return run([str(SEED)], library)


def test_seed_page_is_self_contained_and_small(seed_report: Report) -> None:
    page = html_report(seed_report, RenderOptions())
    parser = Resources()
    parser.feed(page)
    assert parser.urls == [], "the page must load nothing: no CDN, no external file"
    assert all(script.get("src") is None for script in parser.scripts)
    assert "default-src 'none'" in page  # the CSP forbids any network access as well
    assert len(page.encode()) < 300_000


def test_seed_timeline_has_a_lane_per_role_and_node_and_the_root_marked(seed_report: Report) -> None:
    data = timeline_data(seed_report)
    roles = [lane["role"] for lane in data["lanes"]]  # type: ignore[index]
    assert roles == ["prefill", "decode", "router", "harness"]  # in the order a request flows
    rows = data["events"]
    assert isinstance(rows, list)
    roots = [row for row in rows if row[8] == 1]
    patterns = data["patterns"]
    assert isinstance(patterns, list)
    assert {patterns[row[5]]["id"] for row in roots} == {"mori-mr-register-failed"}
    assert data["links"], "causal links must be drawn"
    assert sum(row[7] for row in rows) >= len(seed_report.chain)


def test_log_text_cannot_break_out_of_the_page() -> None:
    hostile = "</script><script>alert(1)</script><!-- <img src=x onerror=alert(2)> & \u2028"
    chain = (
        event("mori-mr-register-failed", "prefill.log", 3, 0.0, Role.PREFILL, hostile, Kind.CAUSE),
        event("http-5xx", "decode.log", 9, 30.0, Role.DECODE, "<b>bold</b>"),
    )
    page = html_report(hand_built(chain, title="<svg onload=alert(3)>"), PLAIN)
    assert "<script>alert(1)" not in page and "<img src=x" not in page and "<svg onload" not in page
    assert page.count("<script") == 2  # the data blob and the page's own script, nothing planted
    texts = [row[4] for row in embedded_data(page)["events"]]  # type: ignore[attr-defined]
    # the line itself is kept, as data; its line separator shown, as every format shows one (issue 24)
    assert hostile.replace("\u2028", "<U+2028>") in texts


def test_redaction_is_the_markdowns(library: Library, tmp_path: Path) -> None:
    bundle = tmp_path / "bundle"
    bundle.mkdir()
    for path in SEED.iterdir():
        text = path.read_text()
        if path.name.startswith("prefill"):
            text = text.replace("errno:22 (Invalid argument)", "errno:22 (Invalid argument) peer 10.23.45.67")
        (bundle / path.name).write_text(text)
    report = run([str(bundle)], library)
    shared = html_report(report, RenderOptions())
    assert "10.23.45.67" not in shared and "<ip-1>" in shared.replace("\\u003c", "<").replace("\\u003e", ">")
    assert "mia1-p06-g13" not in shared, "node names in file names are masked as in markdown"
    assert "10.23.45.67" in html_report(report, PLAIN)


def test_low_confidence_fix_says_verify_first() -> None:
    chain = (event("mori-mr-register-failed", "p.log", 1, 0.0, Role.PREFILL, kind=Kind.CAUSE),)
    assert "verify the cause" in html_report(hand_built(chain, confidence=0.45), PLAIN)
    assert "verify the cause" not in html_report(hand_built(chain, confidence=0.95), PLAIN)


def test_inconclusive_shows_no_confidence_number() -> None:
    chain = (event("http-5xx", "d.log", 1, 0.0, Role.DECODE),)
    page = html_report(hand_built(chain, id="inconclusive", title="No known cause", confidence=0.0), PLAIN)
    assert "confidence 0.00" not in page


def ten_thousand_events() -> Report:
    roles = (Role.PREFILL, Role.PREFILL, Role.DECODE, Role.DECODE, Role.ROUTER, Role.HARNESS)
    chain = tuple(
        event(
            "http-5xx" if n % 7 else "kv-transfer-failed-decode",
            f"{roles[n % 6].value}_{n % 6}.log",
            n + 1,
            n * 0.7,
            roles[n % 6],
            f"[2026-07-02 10:16:{n % 60:02d}] request {n:08x} failed with status 500 after {n % 97} ms",
        )
        for n in range(10_000)
    )
    root = event("mori-mr-register-failed", "prefill_0.log", 1, -5.0, Role.PREFILL, "root", Kind.CAUSE)
    links = tuple(Link(root, effect, "test") for effect in chain[:200])
    return hand_built((root, *chain), links)


def test_ten_thousand_events_stay_under_three_megabytes() -> None:
    page = html_report(ten_thousand_events(), PLAIN)
    assert len(page.encode()) < 3_000_000
    assert len(embedded_data(page)["events"]) == 10_001  # type: ignore[arg-type]


def test_mermaid_diagram_is_small_and_carries_no_log_text(seed_report: Report) -> None:
    diagram = mermaid_chain(seed_report)
    assert diagram is not None and diagram.startswith("flowchart LR")
    nodes = re.findall(r'^\s+(n\d+)\["', diagram, re.M)
    assert 2 <= len(nodes) <= MAX_NODES
    assert "-->" in diagram  # causal links, not just time order
    assert "RegisterRdmaMemoryRegion failed" not in diagram  # titles, not log lines
    assert re.search(r"class n\d+(,n\d+)* root", diagram)


def test_mermaid_labels_cannot_break_the_syntax() -> None:
    chain = (
        event("mori-mr-register-failed", "p.log", 1, 0.0, Role.PREFILL, kind=Kind.CAUSE),
        event("http-5xx", "d.log", 2, 1.0, Role.DECODE),
    )
    report = hand_built(chain, links=(Link(chain[0], chain[1], "t"),))
    hostile = replace(report, glossary=(("http-5xx", 'a"]; click n0 "x'),))
    diagram = mermaid_chain(hostile)
    assert diagram is not None
    assert 'click n0 "x' not in diagram and '"];' not in diagram.replace('"]\n', "")


def test_markdown_carries_the_diagram_and_drops_it_first(seed_report: Report) -> None:
    from pdlogdoctor.render.markdown import markdown_report

    body = markdown_report(seed_report, PLAIN)
    assert "```mermaid\nflowchart LR" in body
    assert body.index("```mermaid") < body.index("### Causal chain")
    tight = markdown_report(seed_report, PLAIN, limit=len(body) - 10)
    assert "```mermaid" not in tight and "left out diagram" in tight
    assert "Evidence excerpt" in tight, "the diagram goes before any evidence does"


def test_unrecognised_errors_are_marked_apart_with_their_count() -> None:
    from pdlogdoctor.model import UnexplainedError

    cause = event("mori-mr-register-failed", "prefill.log", 3, 0.0, Role.PREFILL, kind=Kind.CAUSE)
    unknown = replace(
        event("python-exception", "decode.log", 7, -20.0, Role.DECODE, "RuntimeError: odd thing 0x7f"),
        template="RuntimeError: odd thing <hex>",
    )
    error = UnexplainedError(
        template="RuntimeError: odd thing <hex>",
        marker="python-exception",
        severity=Severity.ERROR,
        count=8,
        first=unknown,
        last=unknown,
        roles=(Role.DECODE,),
        files=("decode.log",),
        position="before-root",
    )
    data = timeline_data(replace(hand_built((cause,)), unrecognised=(error,)))
    rows = data["events"]
    assert isinstance(rows, list)
    (row,) = [r for r in rows if r[6] == "unrecognised"]
    assert row[7] == 8 and row[4] == "RuntimeError: odd thing 0x7f"
    patterns = data["patterns"]
    assert isinstance(patterns, list)
    assert "no pattern" in patterns[row[5]]["meaning"]
