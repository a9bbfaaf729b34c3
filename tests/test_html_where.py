"""The HTML page answers who, what, where and what to do (issue 23).

The newcomer's fleet page drew lanes only for the failing pair (the healthy twins g15 and g16
had none, so "1 of 2 nodes failed" could not be seen), masked the node names with no legend and
no word of --no-redact, buried a second incident (confidence 0.93) as a bullet under "Inputs",
left "on the prefill and decode servers" out of the fix cards, and its copy button copied two
commented-out lines.
"""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest

from pdlogdoctor.library.patterns import Library
from pdlogdoctor.model import Report
from pdlogdoctor.pipeline import run
from pdlogdoctor.render.html import html_report
from pdlogdoctor.render.options import RenderOptions

from .conftest import FIXTURES

FLEET = FIXTURES / "fleet-2p2d-one-prefill-fails"
TWO = FIXTURES / "two-incidents-hours-apart"
SEED = FIXTURES / "mori-mr-size-limit-seed"


@pytest.fixture(scope="module")
def reports(library: Library) -> dict[Path, Report]:
    return {bundle: run([str(bundle)], library) for bundle in (FLEET, TWO, SEED)}


def _data(page: str) -> dict[str, object]:
    return json.loads(page.split('id="pdld-data">', 1)[1].split("</script>", 1)[0])  # type: ignore[no-any-return]


def test_every_node_read_has_a_lane_the_healthy_ones_quiet(reports: dict[Path, Report]) -> None:
    data = _data(html_report(reports[FLEET], RenderOptions(redact=False)))
    lanes = data["lanes"]
    assert isinstance(lanes, list)
    labels = {lane["label"] for lane in lanes}
    for node in ("g13", "g14", "g15", "g16"):
        assert any(label.endswith(f"mia1-p06-{node}") for label in labels), (node, labels)
    quiet = {lane["label"] for lane in lanes if lane.get("quiet")}
    assert {"prefill · mia1-p06-g15", "decode · mia1-p06-g16"} <= quiet  # read, and nothing failed there
    assert not any(label.endswith("g13") for label in quiet)  # the failing node is no quiet lane


def test_masked_names_have_a_legend_and_the_flag_that_shows_them(reports: dict[Path, Report]) -> None:
    page = html_report(reports[FLEET], RenderOptions())
    assert "mia1-p06-g13" not in page
    legend = page.split('class="legend-masked"', 1)[1].split("</section>", 1)[0]
    assert "&lt;host-1&gt;" in legend and "host names" in legend and "--no-redact" in legend
    assert 'class="legend-masked"' not in html_report(reports[FLEET], RenderOptions(redact=False))


def test_every_incident_gets_its_own_card_with_its_chain(reports: dict[Path, Report]) -> None:
    report = reports[TWO]
    assert report.other_incidents
    page = html_report(report, RenderOptions(redact=False))
    inputs = page.split('<section class="inputs">', 1)[1]
    assert "other incident" not in inputs  # no longer a bullet under Inputs
    for finding in report.other_incidents:
        card = page.split(f'<section class="incident" data-verdict="{finding.verdict.id}">', 1)[1]
        card = card.split("</section>", 1)[0]
        assert finding.verdict.title in card and f"{finding.verdict.confidence:.2f}" in card
        for event in finding.chain:
            assert f"{event.source}:{event.line}" in card and event.pattern in card
        times = re.findall(r"\d\d:\d\d:\d\d", card)
        assert times == sorted(times) and times  # its own timeline: in time order, UTC


class _Options(HTMLParser):
    """The fix cards: each option's heading, where it applies, and what its copy button copies."""

    def __init__(self) -> None:
        super().__init__()
        self.cards: list[dict[str, str]] = []
        self._in: str | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        classes = dict(attrs).get("class") or ""
        if tag == "div" and "option" in classes.split():
            self.cards.append({"text": "", "copied": ""})
        if tag == "code" and self.cards and "copied" in classes.split():
            self._in = "copied"

    def handle_endtag(self, tag: str) -> None:
        if tag == "code":
            self._in = None

    def handle_data(self, data: str) -> None:
        if self.cards:
            self.cards[-1]["text"] += data
            if self._in:
                self.cards[-1][self._in] += data


def test_fix_cards_say_where_and_copy_only_commands(reports: dict[Path, Report]) -> None:
    parser = _Options()
    parser.feed(html_report(reports[SEED], RenderOptions(redact=False)))
    for card in parser.cards:
        assert "on the prefill and decode servers" in card["text"]
        copied = card["copied"].strip()
        assert copied and not any(line.lstrip().startswith("#") for line in copied.splitlines()), copied
    # One card: the token cap computed from the logs. SGLANG_MORI_MAX_MR_BYTES is only in the unmerged
    # sglang#30336, so no card may copy it (tests/test_mori_advice.py).
    assert [card["copied"].strip() for card in parser.cards] == ["--max-total-tokens 8388352"]
