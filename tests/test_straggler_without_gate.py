"""A node at a third of its peers' pace is a finding with no gate (issue 22: no failed run called healthy).

Round 77's bundle: vLLM 1P3D (NixlConnector), decode n07 launched with `enforce_eager=True`, its
generation at ~680 tokens/s against ~1,880 on its two peers and up to 118 running requests; the
benchmark answered every request and no gate measured the slowness. Seen failing at first sight:
`healthy` at 0.85 with the straggler in a note. Look-alikes: the slow log is a process's earlier life
(`kubectl logs --previous`: no peer of the nodes after it); a performance gate that passed says the
run was fast enough anyway.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from pdlogdoctor.cli.behaviour import exit_code_for
from pdlogdoctor.library.patterns import Library
from pdlogdoctor.model import Report
from pdlogdoctor.pipeline import run

BUNDLE = Path(__file__).parent / "data" / "blind-round77-bundles-2" / "06-vllm-1p3d-decode-straggler"


def _run(tmp_path: Path, library: Library, rename: str | None = None, extra: str = "") -> Report:
    shutil.copytree(BUNDLE, tmp_path / "run", ignore=shutil.ignore_patterns("expected.toml"))
    if rename is not None:
        (tmp_path / "run" / "decode-n07.log").rename(tmp_path / "run" / rename)
    if extra:
        bench = tmp_path / "run" / "bench_serve.log"
        bench.write_text(bench.read_text() + extra)
    return run([str(tmp_path / "run")], library)


def test_a_node_at_a_third_of_its_peers_pace_is_a_straggler_without_a_gate(tmp_path: Path, library: Library) -> None:
    report = _run(tmp_path, library)
    assert report.verdict.id == "straggler-node", report.verdict.summary
    assert "The decode n07 is much slower than its 2 peer(s)" in report.verdict.summary
    assert "it was launched with enforce_eager=True" in report.verdict.summary  # vLLM's engine configuration
    assert "up to 118" in report.verdict.summary and "Running: 118 reqs" in report.verdict.summary
    assert int(exit_code_for(report)) == 1


def test_an_earlier_life_is_no_peer(tmp_path: Path, library: Library) -> None:
    report = _run(tmp_path, library, rename="decode-n06.previous.log")
    assert report.verdict.id != "straggler-node", report.verdict.summary


def test_a_performance_gate_that_passed_says_the_run_was_fast_enough(tmp_path: Path, library: Library) -> None:
    report = _run(tmp_path, library, extra="output throughput 4250.7 tok/s >= gate 4000 tok/s -- PASS\n")
    assert report.verdict.id == "healthy", report.verdict.summary
    assert any("straggler-node" in note for note in report.notes), report.notes
