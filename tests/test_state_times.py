"""A status dump's state block states when it ended: an OOM kill in `kubectl describe` is timed by
its `Finished:` line (scan/states.py), and a container ready again does not clear the kill when its
peers logged errors while it was down (reason/unexplained.py).

Round 84's bundles-2 01 and round 86's bundles-2 01 (blind testers, llm-d with vLLM's NixlConnector):
the describe's `Reason: OOMKilled` with `Ready: True` below it read as a kill the run got over,
though the routing sidecar had answered 502 for every request while the container was down. Its
lines hold no time of their own; the block's `Finished:` does. Look-alikes: the same kill with the
sidecar's errors an hour before it, and a kill after which the run's checks all passed.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from pdlogdoctor.pipeline import run
from pdlogdoctor.scan.states import read_state_times_below

from .conftest import shipped_library

LIBRARY = shipped_library()
# kubernetes/kubectl pkg/describe/describe.go (describeContainerState), the shape kubectl prints
DESCRIBE = """Name:             qwen3-32b-prefill-6c9d8f7b5-x2kqp
Namespace:        llm-d
Status:           Running
IP:               10.244.3.17
Containers:
  vllm:
    Image:         ghcr.io/llm-d/llm-d-cuda:v0.4.0
    State:          Running
      Started:      Fri, 05 Dec 2025 08:31:09 +0000
    Last State:     Terminated
      Reason:       OOMKilled
      Exit Code:    137
      Started:      Fri, 05 Dec 2025 07:58:20 +0000
      Finished:     Fri, 05 Dec 2025 08:31:06 +0000
    Ready:          True
    Restart Count:  1
Conditions:
  Type                        Status
  Ready                       True
"""
# Go's net/http/httputil ReverseProxy default error log, and llm-d's routing sidecar's klog line
PROXY_ERRORS = [
    "{date} {clock} http: proxy error: dial tcp 10.244.3.17:8000: connect: connection refused",
    'E1205 {clock}.223843       1 connector_nixlv2.go:110] "request failed" logger="proxy server" code=502',
]

# sglang's bench_serving result after the restart, every request answered
BENCH_PASSED = """============ Serving Benchmark Result ============
Backend:                                 sglang
Successful requests:                     2048
Benchmark duration (s):                  412.37
Output token throughput (tok/s):         2143.90
"""

# the prefill's earlier life (`kubectl logs --previous`) and its next one, up again (sglang's ready line)
RESTARTED = {
    "prefill-previous.log": '[2025-12-05 08:30:58] INFO:     10.244.5.22:45750 - "POST /generate HTTP/1.1" 200 OK\n',
    "prefill.log": "[2025-12-05 08:32:40] The server is fired up and ready to roll!\n",
}


def _bundle(tmp_path: Path, clock: str, extra: dict[str, str] | None = None) -> Path:
    (tmp_path / "kubectl-describe-prefill.txt").write_text(DESCRIBE)
    lines = [line.format(date="2025/12/05", clock=clock) for line in PROXY_ERRORS] * 20
    (tmp_path / "routing-sidecar.log").write_text("\n".join(lines) + "\n")
    for name, text in (extra or {}).items():
        (tmp_path / name).write_text(text)
    return tmp_path


def test_the_kill_is_timed_by_its_blocks_finished_line() -> None:
    text = DESCRIBE.encode()
    start = text.index(b"      Reason:       OOMKilled")
    end = text.index(b"\n", start)
    assert read_state_times_below(text, start, end, len(text)) == {"stated_time": "2025-12-05 08:31:06"}


def test_a_waiting_state_without_times_states_none() -> None:
    text = b"    State:          Waiting\n      Reason:       CrashLoopBackOff\n    Ready:          False\n"
    start = text.index(b"      Reason:")
    assert read_state_times_below(text, start, text.index(b"\n", start), len(text)) == {}


def test_peers_failing_while_it_was_down_keep_the_kill_the_cause(tmp_path: Path) -> None:
    report = run([str(_bundle(tmp_path, "08:31:07"))], LIBRARY)
    assert report.verdict.id == "host-oom"
    assert any("OOMKilled" in event.text for event in report.chain)


@pytest.mark.parametrize(
    ("clock", "extra"),
    [
        # the sidecar's errors an hour before the kill: another moment, not the kill seen from outside
        ("07:31:07", None),
        # the killed life's next one came up, and the run's checks ran and passed: the run got over it
        ("08:31:07", {"bench.log": BENCH_PASSED, **RESTARTED}),
    ],
)
def test_a_kill_the_run_got_over_is_cleared(tmp_path: Path, clock: str, extra: dict[str, str] | None) -> None:
    report = run([str(_bundle(tmp_path, clock, extra))], LIBRARY)
    assert report.verdict.id != "host-oom"
    assert any("OOMKilled" in cleared for cleared in report.notes)
