"""Several servers' metrics lines in one file are several servers (issue 22; round 27's blind bundle).

A `grep -H "Decode batch" decode_*.log` (each line behind the name of the log it came from) or a
`docker compose logs` (each line behind its service's name) holds several servers' lines. Each
stream its collector's prefix names is its own series and its own node, with the role its name
says; the server whose own log is given beside the extract is one node, read from the fuller file;
and an extract's interval between lines says nothing of a node's speed (the grep may keep every
third line), so no straggler is named from it.

Round 27's bundle (bundles-b/05): a 1P3D run failed its throughput gate; gpu-n08 ran without CUDA
graphs and held three times its peers' requests for the same output. Its lines and its peers' sat
in one `grep -H` file (sampled with awk) beside two of the three decodes' own logs: read as one
series, the three decodes looked like one unremarkable server (performance-regression 0.60).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from pdlogdoctor.library.patterns import Library
from pdlogdoctor.model import Role, Series
from pdlogdoctor.pipeline import analyse
from pdlogdoctor.reason.performance import nodes_of

BUNDLE = Path(__file__).parent / "data" / "blind-round27-bundles-b" / "05-1p3d-one-decode-node-without-cuda-graph"
BATCH = (
    "[2026-05-06 14:{minute:02d}:{second:02d} TP0] Decode batch, #running-req: {running}, #token: 31531, token "
    "usage: 0.03, pre-allocated usage: 0.00, #prealloc-req: 0, #transfer-req: 0, #retracted-req: 0, cuda graph: "
    "{graph}, gen throughput (token/s): {throughput}, #queue-req: 0"
)
GATE = "AssertionError: 4593.31 not greater than 6000"


def _batches(count: int, every_s: int, running: int, graph: bool = True, throughput: float = 1500.0) -> list[str]:
    return [
        BATCH.format(
            minute=5 + (i * every_s) // 60,
            second=(i * every_s) % 60,
            running=running,
            graph=graph,
            throughput=throughput,
        )
        for i in range(count)
    ]


def _series(folder: Path, library: Library) -> tuple[Series, ...]:
    performance = analyse([str(folder)], library).report.performance
    assert performance is not None
    return performance.series


def _nodes(series: tuple[Series, ...], metric: str = "running") -> dict[str | None, tuple[Role, float]]:
    return {s.node: (s.role, s.mean) for s in series if s.metric == metric}


def test_a_grep_over_three_decodes_logs_is_three_decodes(tmp_path: Path, library: Library) -> None:
    lines = [f"decode_gpu-n0{n}.log:{line}" for n in (7, 8, 9) for line in _batches(10, 4, running=30 + n)]
    (tmp_path / "decode-batches-grep.txt").write_text("\n".join(lines) + "\n")
    nodes = _nodes(_series(tmp_path, library))
    assert nodes == {
        "gpu-n07": (Role.DECODE, 37.0),
        "gpu-n08": (Role.DECODE, 38.0),
        "gpu-n09": (Role.DECODE, 39.0),
    }


# (collector, the prefix it puts before each line of a stream, the streams' names, their nodes):
# docker compose's service name; `kubectl logs --prefix`'s pod and container, the pod the node.
COLLECTORS = [
    ("compose", "{name}  | ", ("decode-1", "decode-2"), ("decode-1", "decode-2")),
    ("kubectl", "[pod/{name}/decode] ", ("sglang-decode-0", "sglang-decode-1"), ("sglang-decode-0", "sglang-decode-1")),
]


@pytest.mark.parametrize(("prefix", "names", "nodes"), [c[1:] for c in COLLECTORS], ids=[c[0] for c in COLLECTORS])
def test_a_collectors_log_of_two_decodes_is_two_decodes(
    tmp_path: Path, library: Library, prefix: str, names: tuple[str, str], nodes: tuple[str, str]
) -> None:
    lines = [
        prefix.format(name=name) + line
        for name, running in zip(names, (20, 40), strict=True)
        for line in _batches(8, 4, running)
    ]
    (tmp_path / "collected.log").write_text("\n".join(lines) + "\n")
    assert _nodes(_series(tmp_path, library)) == {nodes[0]: (Role.DECODE, 20.0), nodes[1]: (Role.DECODE, 40.0)}


def test_one_file_per_server_keeps_one_series_per_file(tmp_path: Path, library: Library) -> None:
    """The look-alike: no collector's prefix, no streams; each log is its file's node."""
    for n, running in ((7, 30), (8, 31)):
        (tmp_path / f"decode_gpu-n0{n}.log").write_text("\n".join(_batches(8, 4, running)) + "\n")
    assert _nodes(_series(tmp_path, library)) == {
        "gpu-n07": (Role.DECODE, 30.0),
        "gpu-n08": (Role.DECODE, 31.0),
    }


def test_the_bundle_names_the_decode_that_ran_without_cuda_graphs(library: Library) -> None:
    report = analyse([str(BUNDLE)], library).report
    assert report.verdict.id == "straggler-node" and report.verdict.confidence >= 0.5
    facts = dict(report.verdict.facts)
    assert facts["node"] == "gpu-n08" and facts["shown_by"] == "running requests"
    assert "without CUDA graphs" in str(facts["differs"])
    assert GATE in report.verdict.summary


def test_a_sampled_extract_is_no_straggler_for_printing_less_often(tmp_path: Path, library: Library) -> None:
    """gpu-n09's lines only in the grep, every third one kept (its interval three times its peers'),
    the same load as its peers: no node lags."""
    for n in (7, 8):
        (tmp_path / f"decode_gpu-n0{n}.log").write_text("\n".join(_batches(30, 4, 36)) + "\n")
    grep = [f"decode_gpu-n0{n}.log:{line}" for n in (7, 8) for line in _batches(30, 4, 36)[::3]]
    grep += [f"decode_gpu-n09.log:{line}" for line in _batches(30, 4, 36)[::3]]
    (tmp_path / "decode-batches-grep.txt").write_text("\n".join(grep) + "\n")
    (tmp_path / "bench.log").write_text(GATE + "\n")
    report = analyse([str(tmp_path)], library).report
    assert report.verdict.id != "straggler-node", report.verdict.summary


def test_a_server_in_its_own_log_and_in_an_extract_is_one_node(library: Library) -> None:
    """The bundle's gpu-n07 and gpu-n08 are in their own logs and in the grep; gpu-n09 only in the
    grep. Three decodes, each read from its fullest file."""
    nodes = nodes_of(_series(BUNDLE, library), library)
    decodes = sorted((n.name, Path(n.source).name) for n in nodes if n.role is Role.DECODE)
    assert decodes == [
        ("gpu-n07", "decode_gpu-n07.log"),
        ("gpu-n08", "decode_gpu-n08.log"),
        ("gpu-n09", "decode-batches-grep.txt"),
    ]


@pytest.mark.parametrize(("day", "straggler"), [("2026-05-06", True), ("2026-05-05", False), ("2026-05-03", False)])
def test_a_peer_is_a_node_that_ran_beside_it(tmp_path: Path, library: Library, day: str, straggler: bool) -> None:
    """A slow decode beside two decodes of the same run lags its peers; the same two decodes'
    lines from an earlier run (the last green one's, pasted beside the failed run's: round 31's
    blind bundle) are no peers of it, and no straggler is named from them: three days earlier, and
    exactly one day earlier (a whole number of hours apart, which start times alone must not read as
    two time zones: clocks.MAX_START_HOURS)."""
    (tmp_path / "decode_gpu-n07.log").write_text("\n".join(_batches(30, 4, 36, throughput=250.0)) + "\n")
    peers = [line.replace("2026-05-06", day) for line in _batches(30, 4, 36, throughput=2100.0)]
    grep = [f"logs/decode_gpu-n0{n}.log:{line}" for n in (8, 9) for line in peers]
    (tmp_path / "peer-batches.txt").write_text("\n".join(grep) + "\n")
    (tmp_path / "bench.log").write_text("output token throughput 812.30 tok/s below threshold 1500.00\n")
    report = analyse([str(tmp_path)], library).report
    assert (report.verdict.id == "straggler-node") is straggler, report.verdict.summary
