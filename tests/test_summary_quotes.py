"""A summary quotes the line it stands on (issue 22, "Trust the report"): each line it cites, once,
where it cites it, clipped with the token at the cut kept whole; a cause's summary that cites
none ends with its root line; a metric it cites comes with the line the value was read from. One
place builds it (reason/quotes.py), so every format shows the same text, redacted as the rest."""

from __future__ import annotations

import html
import io
import json
from collections.abc import Mapping
from pathlib import Path

import pytest

from pdlogdoctor.library.patterns import Library
from pdlogdoctor.library.templates import message_of
from pdlogdoctor.model import OutputFormat, Report
from pdlogdoctor.model.verdicts import META
from pdlogdoctor.pipeline import run
from pdlogdoctor.reason.quotes import QUOTE_CHARS, cited_lines, quote_around, quote_citations, quote_of
from pdlogdoctor.render import render
from pdlogdoctor.render.options import RenderOptions

from .conftest import ROOT
from .corpus import case_id

DATA = ROOT / "tests" / "data"
# Real lines (blind round 12: a Mooncake registration refused with ENOMEM; NIXL's backend error).
ENOMEM_CASE = DATA / "blind-round12-excerpts-a" / "01-mooncake-erdma-gpu-reg-enomem"
ENOMEM_LINE = "Failed to register memory 0x742cf2000000: Cannot allocate memory [12]"
NIXL_CASE = DATA / "blind-round12-excerpts-b" / "02-nixl-vram-register-backend-error"
# A journald bundle whose transfers piled up; a decode node slower than its peer.
BACKLOG_CASE = DATA / "blind-round11-bundles" / "12-sglang-nixl-transfer-backlog-journald"
STRAGGLER_CASE = DATA / "blind-round11-bundles" / "13-sglang-1p2d-straggler-decode"


def _rendered(report: Report, form: OutputFormat, redact: bool = True) -> str:
    out = io.StringIO()
    render(report, form, out, RenderOptions(redact=redact))
    return out.getvalue()


def test_a_cited_line_is_quoted_where_it_is_cited(library: Library) -> None:
    report = run([str(ENOMEM_CASE)], library)
    place = f"{ENOMEM_CASE / 'paste.txt'}:1"
    summary = report.verdict.summary
    assert place in summary and ENOMEM_LINE in summary
    assert summary.index(ENOMEM_LINE) - summary.index(place) < len(place) + 60  # beside its citation


def test_an_inconclusive_runs_first_failure_is_quoted(library: Library) -> None:
    summary = run([str(NIXL_CASE)], library).verdict.summary
    assert f'{NIXL_CASE / "paste.txt"}:3 ("nixl._bindings.nixlBackendError: NIXL_ERR_BACKEND")' in summary


def test_a_metric_is_quoted_from_the_line_it_was_read_from(library: Library) -> None:
    backlog = run([str(BACKLOG_CASE)], library)
    assert backlog.verdict.id == "kv-transfer-backlog"
    assert f"peak 239 at {BACKLOG_CASE / 'journalctl-sglang.txt'}:251" in backlog.verdict.summary
    assert "#transferring-req: 239," in backlog.verdict.summary
    straggler = run([str(STRAGGLER_CASE)], library)
    assert straggler.verdict.id == "straggler-node"
    # a mean is read from all the node's lines: the first of them is quoted
    assert f"lines from {STRAGGLER_CASE / 'decode_gb-n03.log'}:75" in straggler.verdict.summary
    assert "gen throughput (token/s): 1627.65, #queue-req: 0" in straggler.verdict.summary


def test_one_quote_per_cited_line_and_none_when_already_quoted() -> None:
    lines = {"a.log:3": "[2026-12-02 01:00:00] ERROR boom: the disk is full", "a.log:30": "other line"}
    summary = quote_citations("It failed (a.log:3); see a.log:3 again, not a.log:30x or xa.log:3.", lines)
    assert summary.count("boom: the disk is full") == 1
    assert summary.startswith('It failed (a.log:3: "ERROR boom: the disk is full")')
    assert "other line" not in summary  # a.log:30x and xa.log:3 are no citations of these lines
    already = 'It failed at a.log:3: "ERROR boom: the disk is full".'
    assert quote_citations(already, lines) == already


def test_the_quote_is_clipped_with_the_token_at_the_cut_whole() -> None:
    token = "sk-" + "Ab1" * 30  # a token that straddles the cut must not show a half
    message = "x" * (QUOTE_CHARS - 20) + " key=" + token + " tail"
    summary = quote_citations("Failed at b.log:7.", {"b.log:7": message})
    assert len(quote_of(message)) <= QUOTE_CHARS + 1
    assert "Ab1" not in summary and "…" in summary


def test_a_quote_keeps_what_the_line_says_at_its_end_in_view() -> None:
    """sglang's decode names the phase a request timed out in at the end of a 300-character line:
    the quote keeps the line's start, marks the cut, and shows the phase with the wait before it."""
    line = (
        "[2026-07-20 03:16:58 TP0] Decode transfer failed for request rank=0 "
        "decode_req.req.rid='7c41e09a2b5d4f0e9a6b1d83c2f5e417' decode_req.req.bootstrap_room=5207718362094471283 "
        "with exception KVTransferError(bootstrap_room=5207718362094471283): Request 5207718362094471283 "
        "timed out after 300.0s in KVPoll.WaitingForInput"
    )
    quoted = quote_around(line, "KVPoll.WaitingForInput")
    assert len(quoted) <= QUOTE_CHARS
    assert quoted.startswith("Decode transfer failed for request") and " … " in quoted
    assert quoted.endswith("timed out after 300.0s in KVPoll.WaitingForInput")
    assert "KVPoll" not in quote_of(line)  # the plain quote loses it: the reason for the other


def test_the_same_summary_in_every_format(library: Library) -> None:
    report = run([str(ENOMEM_CASE)], library)
    document = json.loads(_rendered(report, OutputFormat.JSON, redact=False))
    assert document["verdict"]["summary"] == report.verdict.summary
    assert ENOMEM_LINE in " ".join(_rendered(report, OutputFormat.TEXT, redact=False).split())
    markdown = _rendered(report, OutputFormat.MARKDOWN, redact=False)
    head = markdown.split("\n\n")[2]  # the summary's paragraph: the quote is one piece of code
    assert f"`` {quote_of(report.chain[0].text)} ``" in head or f"`{quote_of(report.chain[0].text)}`" in head
    assert ENOMEM_LINE.replace(":", "%3A") in _rendered(report, OutputFormat.GITHUB, redact=False).replace(":", "%3A")
    assert html.escape(ENOMEM_LINE) in _rendered(report, OutputFormat.HTML, redact=False)


def test_the_quoted_line_is_redacted_like_the_rest(library: Library) -> None:
    case = ROOT / "fixtures" / "pasted-peer-lost"
    report = run([str(case)], library)
    assert "Lost connection with prefill instance (bootstrap_addr: 10.99.91.48:8998)" in report.verdict.summary
    for form in (OutputFormat.MARKDOWN, OutputFormat.GITHUB, OutputFormat.HTML):  # the shareable formats
        assert "10.99.91.48" not in _rendered(report, form), form


@pytest.mark.parametrize("root", ["fixtures", "tests/data"])
def test_every_summary_quotes_what_it_cites_once_and_a_cause_its_root(
    root: str, case_reports: Mapping[Path, Report]
) -> None:
    """Over the corpus: each cited line the report holds is quoted at most once, at its first
    citation or elsewhere; a cause's summary shows one of its root lines."""
    problems = []
    for case, report in case_reports.items():
        if not case_id(case).startswith(root):
            continue
        summary = report.verdict.summary
        for place, text in cited_lines(report).items():
            quote = quote_of(text)
            cited = f'{place} ("{quote}")' in summary or f'{place}: "{quote}"' in summary
            # quoted twice: in quotation marks twice (a short line's words may be the summary's own too:
            # curl's `no healthy upstream` under "the gateway's proxy had no healthy upstream")
            if cited and summary.count(f'"{quote}"') > 1 and len(quote) > 12:
                problems.append(f"{case_id(case)}: {place} quoted twice")
        if report.verdict.id not in META and report.roots:
            flat = " ".join(summary.split())
            # the line as quoted (its tag kept), as written, or its bare message
            heads = [
                (quote_of(r.text)[:40], " ".join(r.text.split())[:40], " ".join(message_of(r.text).split())[:40])
                for r in report.roots
            ]
            shown = any(r.where in summary for r in report.roots) or any(h in flat for pair in heads for h in pair)
            if not shown and "It rests on" not in summary:
                problems.append(f"{case_id(case)}: no root line shown")
    assert not problems, problems[:10]
