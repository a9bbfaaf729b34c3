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


def _engine_lines(name: str, running: list[int], prompt: float, generated: float) -> str:
    """A vLLM V1 server's engine stats lines, one every 10 s (vllm/v1/metrics/loggers.py's format)."""
    lines = [
        f"(APIServer pid=4821) INFO 08-27 14:{index // 6:02d}:{index % 6 * 10:02d} [loggers.py:259] Engine 000: "
        f"Avg prompt throughput: {prompt:.1f} tokens/s, Avg generation throughput: {generated:.1f} tokens/s, "
        f"Running: {held} reqs, Waiting: 0 reqs, GPU KV cache usage: {held * 0.8:.1f}%, Prefix cache hit rate: 0.0%"
        for index, held in enumerate(running)
    ]
    return "\n".join(lines) + "\n"


def test_a_node_holding_many_more_requests_for_the_same_output_is_a_straggler(tmp_path: Path, library: Library) -> None:
    (tmp_path / "decode-0.log").write_text(_engine_lines("decode-0", [12] * 12, 0.0, 310.0))
    for peer in ("decode-1", "decode-2"):
        (tmp_path / f"{peer}.log").write_text(_engine_lines(peer, [3] * 12, 0.0, 305.0))
    report = run([str(tmp_path)], library)
    assert report.verdict.id == "straggler-node", report.verdict.summary
    assert "it holds 12 running requests against 3 for no more output" in report.verdict.summary
    assert dict(report.verdict.facts)["shown_by"] == "running requests"


def test_prefills_that_each_hold_a_request_for_a_step_are_no_stragglers(tmp_path: Path, library: Library) -> None:
    """Round 171's 3P1D run that served (vllm-project/vllm#50913's shape): each prefill holds its one
    request for a step, so their mean running requests (0.5 against 0.2) differ by when each printed."""
    (tmp_path / "prefill-0.log").write_text(_engine_lines("prefill-0", [1, 0] * 6, 2150.0, 1.6))
    for peer in ("prefill-1", "prefill-2"):
        (tmp_path / f"{peer}.log").write_text(_engine_lines(peer, [1, 0, 0, 0, 0] * 2 + [0, 0], 2150.0, 1.6))
    report = run([str(tmp_path)], library)
    assert report.verdict.id != "straggler-node", report.verdict.summary
