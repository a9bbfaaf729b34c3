"""The HTML report and the markdown's Mermaid diagram, opened in a real headless Chromium.

Needs Debian's chromium and the npm packages in tests/browser (playwright-core drives the
browser; mermaid renders the diagram from node_modules, never from a CDN). `.ci/run` installs
both, so in CI (CI=true) a missing piece is a failure; on a developer machine without them the
tests skip and say what to install.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from pdlogdoctor.library.patterns import Library
from pdlogdoctor.pipeline import run
from pdlogdoctor.render.html import html_report, timeline_data
from pdlogdoctor.render.markdown import shareable_view
from pdlogdoctor.render.mermaid import mermaid_chain
from pdlogdoctor.render.options import RenderOptions

from .conftest import FIXTURES

BROWSER_DIR = Path(__file__).parent / "browser"
CHROMIUM = os.environ.get("PDLD_CHROMIUM", "/usr/bin/chromium")
SCREENSHOTS = Path(os.environ.get("PDLD_SCREENSHOTS", "")) if os.environ.get("PDLD_SCREENSHOTS") else None


def _missing() -> str | None:
    if shutil.which("node") is None:
        return "node is not installed"
    if not Path(CHROMIUM).exists():
        return f"{CHROMIUM} is missing (apt-get install chromium)"
    for package in ("playwright-core", "mermaid"):
        if not (BROWSER_DIR / "node_modules" / package).is_dir():
            return f"npm package {package} is missing (npm ci --prefix tests/browser)"
    return None


@pytest.fixture(scope="module", autouse=True)
def browser_available() -> None:
    missing = _missing()
    if missing is None:
        return
    if os.environ.get("CI"):
        pytest.fail(f"browser tests must run in CI: {missing}")
    pytest.skip(missing)


def _node(script: str, *args: str) -> Any:
    done = subprocess.run(
        ["node", str(BROWSER_DIR / script), *args], capture_output=True, text=True, timeout=120, check=False
    )
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


CASES = [
    "mori-mr-size-limit-seed",  # the seed: four lanes, a root, links across lanes, untimed harness lines
    "inconclusive-symptoms-only",  # no root cause: marks but no root mark
    "gpu-oom-prefill-kills-pd",
    "blind-mr-rejected-actions-joblog",  # one CI job log holding every component's lines
]


@pytest.mark.parametrize("name", CASES)
def test_report_opens_and_shows_the_incident(name: str, library: Library, tmp_path: Path) -> None:
    report = run([str(FIXTURES / name)], library)
    options = RenderOptions()
    page = tmp_path / "report.html"
    page.write_text(html_report(report, options), encoding="utf-8")
    shot = (SCREENSHOTS or tmp_path) / f"{name}.png"
    seen = _node("check_report.mjs", str(page), str(shot))

    expected = timeline_data(shareable_view(report, options).report)
    assert seen["errors"] == [] and seen["requests"] == []
    assert seen["lanes"] == len(expected["lanes"])
    rows = expected["events"]
    assert seen["markedEvents"] == sum(row[7] for row in rows)  # every event counted once, repeats folded
    assert 1 <= seen["marks"] <= len(rows)
    roots = [row for row in rows if row[8] == 1]
    assert seen["rootMarks"] == (1 if roots else 0) or seen["rootMarks"] <= len(roots)
    if roots:
        root_line = roots[0][4]
        assert root_line[:60] in seen["detail"], "clicking the root mark shows its line"
        assert f":{roots[0][3]}" in seen["detail"], "and its file:line"
    assert seen["marksAfterReset"] == seen["marks"]
    assert shot.stat().st_size > 10_000
    if name == "mori-mr-size-limit-seed":
        assert seen["timelineBottom"] <= 800, "verdict, fix and the whole timeline without scrolling at 1280x800"


def test_ten_thousand_events_are_aggregated(tmp_path: Path) -> None:
    from .test_html_report import PLAIN, ten_thousand_events

    page = tmp_path / "big.html"
    page.write_text(html_report(ten_thousand_events(), PLAIN), encoding="utf-8")
    seen = _node("check_report.mjs", str(page), str(tmp_path / "big.png"))
    assert seen["errors"] == []
    assert seen["markedEvents"] == 10_001
    assert seen["marks"] < 1_000, "marks are aggregated, not one DOM node per line"
    assert seen["domNodes"] < 5_000


MERMAID_CASES = ["mori-mr-size-limit-seed", "gpu-oom-prefill-kills-pd", "peer-lost-upstream-gpu-oom"]


def test_mermaid_blocks_render_without_a_parse_error(library: Library, tmp_path: Path) -> None:
    diagrams = [mermaid_chain(run([str(FIXTURES / name)], library)) for name in MERMAID_CASES]
    files = []
    for name, diagram in zip(MERMAID_CASES, diagrams, strict=True):
        assert diagram is not None, name
        files.append(tmp_path / f"{name}.mmd")
        files[-1].write_text(diagram, encoding="utf-8")
    results = _node("render_mermaid.mjs", *map(str, files))
    assert len(results) == len(MERMAID_CASES)
    for name, diagram, seen in zip(MERMAID_CASES, diagrams, results, strict=True):
        assert diagram is not None
        assert seen["ok"], (name, seen["error"])
        assert seen["pageErrors"] == [], name
        assert seen["nodes"] == diagram.count('["') - diagram.count("subgraph"), name


def test_a_quoted_line_copied_from_the_page_keeps_its_spaces(library: Library, tmp_path: Path) -> None:
    """uvicorn pads `INFO:` with spaces; the page showed (and copied) one space, so the line
    copied back from the report did not grep (blind excerpts3). The rendered text keeps them."""
    excerpt = Path(__file__).parent / "data" / "excerpts" / "mooncake-257-tcp-fallback-startup"
    report = run([str(excerpt)], library)
    [end] = [e for e in report.log_ends if "Waiting for application startup" in e.text]
    assert "INFO:     Waiting" in end.text  # the line as the file holds it
    page = tmp_path / "report.html"
    page.write_text(html_report(report, RenderOptions(redact=False)), encoding="utf-8")
    assert end.text in _node("code_text.mjs", str(page))
