"""Issue 11's deployment shapes: vLLM roles from kv_transfer_config, sides from `grep -H` file
prefixes, a starting server that shows no failure, error lines no family names, and `explain`
for every verdict the new families give."""

from __future__ import annotations

from pathlib import Path

import pytest

from pdlogdoctor.cli.behaviour import exit_code_for
from pdlogdoctor.cli.explain import explain
from pdlogdoctor.library.patterns import Library
from pdlogdoctor.model import Role
from pdlogdoctor.pipeline import run

NEW_VERDICTS = (
    "collective-timeout",
    "bootstrap-unreachable",
    "bind-failed",
    "rdma-resource-exhausted",
    "model-load-failure",
    "kv-expired",
    "tcp-transport-device-memory",
    "no-failure-seen",
)
STARTING = (
    "[2026-07-02 10:00:0{n}] Load weight end. type=Qwen3ForCausalLM, dtype=torch.bfloat16, "
    "avail mem=13.91 GB, mem usage=1.25 GB.\n"
)


def _write(path: Path, text: str) -> Path:
    path.write_text(text)
    return path


def test_kv_role_in_vllm_args_names_the_side(tmp_path: Path, library: Library) -> None:
    args = (
        "(APIServer pid=1) INFO 07-02 12:00:04 [utils.py:233] non-default args: {{'port': {port}, "
        "'kv_transfer_config': {{'kv_connector': 'NixlConnector', 'kv_role': '{role}'}}}}\n"
    )
    _write(tmp_path / "worker-a.log", args.format(port=8100, role="kv_producer"))
    _write(tmp_path / "worker-b.log", args.format(port=8200, role="kv_consumer"))
    roles = {Path(s.name).name: s.role for s in run([str(tmp_path)], library).inputs}
    assert roles == {"worker-a.log": Role.PREFILL, "worker-b.log": Role.DECODE}


def test_a_grep_paste_gives_each_line_the_side_of_its_file(tmp_path: Path, library: Library) -> None:
    paste = (
        "d_node0.log:(APIServer pid=9) INFO 11-05 20:41:17 [loggers.py:127] Engine 000: Avg prompt throughput: "
        "0.0 tokens/s, Avg generation throughput: 3211.8 tokens/s, Running: 192 reqs\n"
        "p_prefill0.log:(EngineCore_DP0 pid=8) ERROR 11-05 20:41:30 [mooncake_connector.py:233] Force freed "
        "expired request: chatcmpl-8f3b. Reason: Request exceeded timeout threshold (30 seconds).\n"
    )
    report = run([str(_write(tmp_path / "grep_output.txt", paste))], library)
    assert report.verdict.id == "kv-expired"
    assert {(e.pattern, e.role) for e in report.chain} == {("vllm-mooncake-force-freed", Role.PREFILL)}


def test_a_starting_server_is_no_failure_seen_not_a_failure(tmp_path: Path, library: Library) -> None:
    log = _write(tmp_path / "server.log", "".join(STARTING.format(n=n) for n in range(3)))
    report = run([str(log)], library)
    assert report.verdict.id == "no-failure-seen"
    assert "failure" not in report.verdict.title.lower().replace("no failure", "")
    assert int(exit_code_for(report)) == 3


@pytest.mark.parametrize(
    "line",
    [
        "[1749803291.555759] [host:7053 :0]  tcp_ep.c:1260 UCX  ERROR tcp_ep 0x3c50: send(110) failed: I/O error",
        "E20260106 06:43:02.966156  5793 ascend_direct_transport.cpp:820] Failed to connect to target: 10.0.0.1:25482",
        "(EngineCore_DP0 pid=5704) ERROR 01-06 06:43:02 [some_connector.py:419] Something nobody named failed",
        "KeyError: 'cmpl-37c560d3-0'",
        "corrupted size vs. prev_size",
    ],
)
def test_an_error_line_no_family_names_is_quoted_not_called_absent(tmp_path: Path, library: Library, line: str) -> None:
    log = _write(tmp_path / "server.log", STARTING.format(n=0) + line + "\n")
    report = run([str(log)], library)
    assert report.verdict.id == "inconclusive"
    assert "no pattern explains" in report.verdict.summary and ":2: " in report.verdict.summary
    assert [t.first.line for t in report.unrecognised] == [2]


@pytest.mark.parametrize("verdict", NEW_VERDICTS)
def test_explain_covers_every_new_verdict(library: Library, verdict: str) -> None:
    text = explain(library, verdict)
    assert verdict in text and "What to do" in text
