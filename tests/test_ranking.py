"""How rival hypotheses of one tier are ranked: by the kinds of failing line each explains (one per
pattern and file), never by lines that did not fail, nor by repeats.

The library is the small one of test_reasoning_units; a test detector stands for one (such as
config_mismatch's) whose chain starts from context lines: the two `server_args` lines that disagree.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

import pdlogdoctor.reason.diagnose as diagnose_module
from pdlogdoctor.model import Report
from pdlogdoctor.reason.hypothesis import Evidence, Hypothesis
from pdlogdoctor.reason.link import link

from .test_reasoning_units import LIBRARY, event, sources


def context_rooted(evidence: Evidence) -> list[Hypothesis]:
    """A power failure read from three ready lines that did not fail, explaining one transfer failure."""
    readies = tuple(e for e in evidence.events if e.pattern == "server-up")
    effects = tuple(evidence.failing("transfer-failed"))
    return [Hypothesis("power-failure", roots=readies, chain=readies + effects, confidence=0.7)]


def diagnosed_with(detector: Callable[[Evidence], list[Hypothesis]], monkeypatch: pytest.MonkeyPatch) -> Report:
    monkeypatch.setattr(diagnose_module, "DETECTORS", (detector,))
    events = [
        *(event("server-up", 0, source=f"prefill-{n}.log", line=1) for n in range(3)),
        event("nic-broke", 0, line=1),
        event("transfer-failed", 1, line=2),
        event("http-500", 2, line=3),
    ]
    files = sources("decode.log", "prefill-0.log", "prefill-1.log", "prefill-2.log")
    return diagnose_module.diagnose(events, link(events, LIBRARY, {}), files, LIBRARY)


def test_lines_that_did_not_fail_do_not_outrank_failures_explained(monkeypatch: pytest.MonkeyPatch) -> None:
    """The NIC failure explains three kinds of failing line (itself, the transfer failure, the 500);
    the context-rooted rival's chain is longer (three ready lines and the transfer failure) but
    explains one. Ranked by chain length, the rival won; by failures explained, the NIC does."""
    report = diagnosed_with(context_rooted, monkeypatch)
    assert report.verdict.id == "link-down"
    rival = {a.id: a for a in report.alternatives}["power-failure"]
    assert "its chain links 1 kinds of failing line against 3 for link-down" in rival.why_not


def test_a_hypothesis_counts_each_failing_kind_once() -> None:
    """Repeats of one pattern in one file are one kind; the same pattern in another file is another."""
    repeated = (event("nic-broke", 0), event("transfer-failed", 1, line=2), event("transfer-failed", 2, line=3))
    elsewhere = event("transfer-failed", 2, source="prefill-0.log")
    ready = event("server-up", 0, source="prefill-1.log")
    hypothesis = Hypothesis("link-down", roots=repeated[:1], chain=(*repeated, elsewhere, ready), confidence=0.7)
    assert hypothesis.failures_explained == 3
