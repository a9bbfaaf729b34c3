"""A failure the run came back from (issue 22.3): a server killed once (OOMKilled in `kubectl describe`,
a supervisor's unexpected exit) and restarted, that then served and passed its end-to-end check, is a
survived incident: `healthy`, exit 0, the incident named in a note. The look-alike: the same failure
after which the server never serves again stays the lead of a report that is not healthy.

The bundle is the round 7 blind tester's (tests/data/blind-round7-bundles/15-...): kubectl describe's
`Last State: Terminated / Reason: OOMKilled / Restart Count: 1`, the killed container's log stopping
mid-load, the restarted one serving, lm-eval's gate passing. The supervisor's lines are supervisord's
own formats (supervisor/process.py; the threads in sources.toml's supervisor-unexpected-exit).
"""

from __future__ import annotations

import shutil
from pathlib import Path

from pdlogdoctor.cli.behaviour import exit_code_for
from pdlogdoctor.library.patterns import Library
from pdlogdoctor.model import Report
from pdlogdoctor.pipeline import run

BUNDLE = Path(__file__).parent / "data" / "blind-round7-bundles" / "15-decode-oomkilled-once-then-served"
SERVED_AGAIN = ("prefill.log", "decode.log", "router.log", "lm_eval.log")
# supervisord running the decode server: killed once, restarted, running again.
SUPERVISOR_RESTART = """\
2026-11-29 10:14:01,905 INFO spawned: 'sglang-decode' with pid 4121
2026-11-29 10:20:31,512 WARN exited: sglang-decode (terminated by SIGKILL; not expected)
2026-11-29 10:20:32,519 INFO spawned: 'sglang-decode' with pid 5207
2026-11-29 10:20:43,530 INFO success: sglang-decode entered RUNNING state, process has stayed up for > than 10 \
seconds (startsecs)
"""
# ... and the look-alike: each restart dies again, and supervisord gives up.
SUPERVISOR_GAVE_UP = """\
2026-11-29 10:14:01,905 INFO spawned: 'sglang-decode' with pid 4121
2026-11-29 10:20:31,512 WARN exited: sglang-decode (terminated by SIGKILL; not expected)
2026-11-29 10:20:32,519 INFO spawned: 'sglang-decode' with pid 5207
2026-11-29 10:26:58,004 WARN exited: sglang-decode (terminated by SIGKILL; not expected)
2026-11-29 10:26:59,010 INFO gave up: sglang-decode entered FATAL state, too many start retries too quickly
"""
KILLED_BY_SUPERVISOR = "exited: sglang-decode (terminated by SIGKILL; not expected)"


def _bundle(tmp_path: Path, names: tuple[str, ...], supervisor: str = "") -> Path:
    for name in names:
        shutil.copy(BUNDLE / name, tmp_path / name)
    if supervisor:
        (tmp_path / "supervisord.log").write_text(supervisor)
    return tmp_path


def _said(report: Report, words: str) -> bool:
    return words in report.verdict.summary or any(words in note for note in report.notes)


def test_a_pod_oomkilled_once_that_served_again_is_a_survived_incident(tmp_path: Path, library: Library) -> None:
    report = run([str(_bundle(tmp_path, ("describe-decode.txt", "decode-previous.log", *SERVED_AGAIN)))], library)
    assert report.verdict.id == "healthy", report.verdict.summary
    assert exit_code_for(report) == 0
    assert _said(report, "OOMKilled"), report.notes


def test_a_pod_oomkilled_that_never_served_again_is_not_healthy(tmp_path: Path, library: Library) -> None:
    report = run([str(_bundle(tmp_path, ("describe-decode.txt", "decode-previous.log")))], library)
    assert report.verdict.id not in ("healthy", "no-failure-seen"), report.verdict.summary
    assert exit_code_for(report) != 0
    # The describe's `Ready: True` after the kill sets the OOMKilled aside as a failure (the container
    # came back, k8s-container-ready); with no line showing it served again, the run stays
    # inconclusive, and the report still names the kill and what set it aside.
    assert _said(report, "OOMKilled"), (report.verdict.summary, report.notes)


def test_a_server_its_supervisor_restarted_that_served_again_is_a_survived_incident(
    tmp_path: Path, library: Library
) -> None:
    report = run([str(_bundle(tmp_path, ("decode-previous.log", *SERVED_AGAIN), SUPERVISOR_RESTART))], library)
    assert report.verdict.id == "healthy", report.verdict.summary
    assert exit_code_for(report) == 0
    assert _said(report, KILLED_BY_SUPERVISOR), report.notes


def test_a_server_its_supervisor_gave_up_on_is_not_healthy(tmp_path: Path, library: Library) -> None:
    report = run([str(_bundle(tmp_path, ("decode-previous.log",), SUPERVISOR_GAVE_UP))], library)
    assert report.verdict.id not in ("healthy", "no-failure-seen"), report.verdict.summary
    assert exit_code_for(report) != 0
    assert KILLED_BY_SUPERVISOR in report.verdict.summary, report.verdict.summary


# Round 11 (issue 22): a decode pod whose first container could not bind its port (uvicorn's Errno 98),
# restarted by Kubernetes, whose second start served; the GSM8K client's accuracy (no threshold: it
# shows requests answered, not a gate) is the only check. kubectl's sections: the previous container's
# log (lines 1-73), `get pods` (74-79), the restarted container's log (80-217), prefill (218-298), the job.
K8S_SESSION = (
    Path(__file__).parent
    / "data"
    / "blind-round11-bundles"
    / "14-sglang-k8s-decode-restart-then-served"
    / "kubectl-session.txt"
)
BIND_FAILED = "[Errno 98] error while attempting to bind on address ('0.0.0.0', 30001)"


def _session(tmp_path: Path, *spans: tuple[int, int]) -> Path:
    lines = K8S_SESSION.read_text().splitlines(keepends=True)
    (tmp_path / "kubectl-session.txt").write_text("".join(line for a, b in spans for line in lines[a - 1 : b]))
    return tmp_path


def test_a_restart_after_a_bind_failure_that_then_answered_is_a_survived_incident(
    tmp_path: Path, library: Library
) -> None:
    report = run([str(_session(tmp_path, (1, 304)))], library)
    assert report.verdict.id == "healthy", report.verdict.summary
    assert exit_code_for(report) == 0
    assert _said(report, BIND_FAILED), report.notes
    assert "requests were answered" in report.verdict.summary, report.verdict.summary


def test_a_restart_that_came_up_and_answered_nothing_after_is_not_healthy(tmp_path: Path, library: Library) -> None:
    # The restarted server's ready line and its own warmup, and nothing answered after: nothing shows the run went on.
    report = run([str(_session(tmp_path, (1, 154)))], library)
    assert report.verdict.id == "bind-failed", report.verdict.summary


def test_answers_with_no_restart_in_the_failed_servers_log_are_not_its_recovery(
    tmp_path: Path, library: Library
) -> None:
    # The accuracy job answered, but the decode's log ends with the bind failure: no line says it came back.
    report = run([str(_session(tmp_path, (1, 79), (299, 304)))], library)
    assert report.verdict.id == "bind-failed", report.verdict.summary


# Round 24's bundle: a vLLM decode's first start found the GPU held by the pod it replaced (its log,
# `decode-vllm-previous.log`); the restarted container's life is in a stern stream of several pods
# (`<pod> <container> ` before each line); a benchmark through the gateway passed after it.
STERN_BUNDLE = Path(__file__).parent / "data" / "blind-round24-bundles-a" / "04-llmd-decode-restart-then-green"
DECODE_POD = "ms-pd-llm-d-modelservice-decode-5d8c7f9b6-q7rwn vllm "


def test_a_side_whose_restart_serves_in_a_stream_of_its_own_came_back(library: Library) -> None:
    report = run([str(STERN_BUNDLE)], library)
    assert report.verdict.id == "healthy"
    assert "then a server started again" in report.verdict.summary and "stern.log:25" in report.verdict.summary
    assert any("a failure the run survived is not counted" in note for note in report.notes)


def test_a_side_whose_restart_never_comes_up_did_not_come_back(tmp_path: Path, library: Library) -> None:
    copy = tmp_path / "bundle"
    shutil.copytree(STERN_BUNDLE, copy)
    stern = copy / "stern.log"
    kept = [line for line in stern.read_text().splitlines() if not line.startswith(DECODE_POD)]
    assert len(kept) < len(stern.read_text().splitlines())  # the decode's new life is gone
    stern.write_text("\n".join(kept) + "\n")
    report = run([str(copy)], library)
    assert report.verdict.id != "healthy"


def test_another_instance_of_the_side_coming_up_is_no_restart(library: Library) -> None:
    """Two vLLM prefills on one host (round 20): the second's KV port is taken and it dies at start;
    the first one's ready line comes after, but it is another node's instance (`prefill_gpu0` against
    `prefill_gpu1`), not the failed one back."""
    bundle = Path(__file__).parent / "data" / "blind-round20-bundles-b" / "07-p2pnccl-second-prefill-kvport-taken"
    report = run([str(bundle)], library)
    assert report.verdict.id == "bind-failed"


# Round 84's bundles-1 09: an operator restarts one prefill with systemd mid-benchmark; the decode
# loses it once (`Lost connection with prefill instance ..., 6 requests affected`), the prefill's
# journal shows it ready again a minute later, and the benchmark ends short by those six. First sight:
# peer-lost at 0.58.
PEER_RESTARTED = Path(__file__).parent / "data" / "blind-round84-bundles-1" / "09-prefill-restart-mid-bench-gate-passed"
READY_AGAIN = ("The server is fired up and ready to roll!", "warmup")


def test_a_lost_peer_that_started_again_is_an_outage_the_run_survived(library: Library) -> None:
    report = run([str(PEER_RESTARTED)], library)
    assert report.verdict.id == "healthy", report.verdict.summary
    assert "then a server started again" in report.verdict.summary
    assert "journal-sglang-prefill-p1.txt:479" in report.verdict.summary


def test_a_lost_peer_that_never_started_again_stays_the_lead(tmp_path: Path, library: Library) -> None:
    """The look-alike: the same run with the prefill's journal ending at its stop (no ready line,
    no warmup after it)."""
    bundle = tmp_path / "run"
    shutil.copytree(PEER_RESTARTED, bundle, ignore=shutil.ignore_patterns("expected.toml"))
    journal = bundle / "journal-sglang-prefill-p1.txt"
    lines = journal.read_text().splitlines(keepends=True)
    journal.write_text("".join(line for line in lines if not any(word in line for word in READY_AGAIN)))
    report = run([str(bundle)], library)
    assert report.verdict.id == "peer-lost", report.verdict.summary
    assert int(exit_code_for(report)) != 0


def test_a_killed_life_whose_peers_failed_while_it_was_down_is_no_recovery(library: Library) -> None:
    """Round 84's bundles-1 03: the decode OOM-killed (an untimed `kubectl get events` line), the
    prefill's transfers to it failing from its last heartbeat to its restart, then its next life
    serving. Those failures are the kill's: it is the lead, not an incident the run got over (first
    sight: rdma-link-failure at 0.72)."""
    bundle = Path(__file__).parent / "data" / "blind-round84-bundles-1" / "03-k8s-decode-cgroup-oom-restart"
    report = run([str(bundle)], library)
    assert report.verdict.id == "host-oom", report.verdict.summary
    # either line of the one kill leads: the describe's, timed by its `Finished:`, or the kernel's
    assert any(
        kill in report.verdict.summary for kill in ("Killed process 4127 (sglang::schedul)", "Reason: OOMKilled")
    )


# Round 85's bundles-2 02: a RoCE port on the prefill's node flaps (`Link down`, `Link up` in `dmesg -T`)
# and the decode's NIXL reads raise seven seconds after it went down; the benchmark still ends with no
# request failed. First sight: inconclusive (the flap cleared by its `Link up` and the clean benchmark).
PORT_FLAP = Path(__file__).parent / "data" / "blind-round85-bundles-2" / "02-nixl-roce-port-flap"
# The failed reads' records, each an ERROR line and its traceback's lines under vLLM's prefix.
READ_FAILED = ("[nixl_connector.py:1855]", "NIXL_ERR_REMOTE_DISCONNECT", "Releasing expired KV blocks")


def test_a_port_that_flapped_while_transfers_failed_is_the_cause(library: Library) -> None:
    report = run([str(PORT_FLAP)], library)
    assert report.verdict.id == "rdma-link-failure", report.verdict.summary
    assert "Link down" in report.verdict.summary


def test_a_port_that_flapped_with_no_transfer_failing_is_a_blip(tmp_path: Path, library: Library) -> None:
    """The look-alike: the same run with the decode's failed reads (and the prefill's blocks released
    unread after them) taken out, their tracebacks with them: the port went down and came back, the
    benchmark served every request, and nothing failed in between."""
    bundle = tmp_path / "run"
    shutil.copytree(PORT_FLAP, bundle, ignore=shutil.ignore_patterns("expected.toml"))
    for log in bundle.glob("*.log"):
        lines = log.read_text().splitlines(keepends=True)
        log.write_text("".join(line for line in lines if not any(word in line for word in READ_FAILED)))
    report = run([str(bundle)], library)
    assert report.verdict.id == "healthy", report.verdict.summary


# kubectl describe of a two-container pod (kserve's model server and knative's queue-proxy, as in
# kserve/kserve#2361): the model server killed for memory, then each container's own `Ready:`.
TWO_CONTAINERS = """\
Containers:
  kserve-container:
    State:          Running
      Started:      Fri, 29 Jul 2022 14:24:51 +0800
    Last State:     Terminated
      Reason:       OOMKilled
      Exit Code:    137
      Started:      Fri, 29 Jul 2022 14:22:03 +0800
      Finished:     Fri, 29 Jul 2022 14:24:49 +0800
    Ready:          {killed}
    Restart Count:  3
  queue-proxy:
    State:          Running
      Started:      Fri, 29 Jul 2022 14:10:37 +0800
    Ready:          {sidecar}
    Restart Count:  0
"""


def test_a_killed_container_not_ready_is_not_cleared_by_its_sidecars_ready(tmp_path: Path, library: Library) -> None:
    describe = tmp_path / "describe-predictor.txt"
    describe.write_text(TWO_CONTAINERS.format(killed="False", sidecar="True"))
    report = run([str(describe)], library)
    assert report.verdict.id == "host-oom", report.verdict.summary
    assert "describe-predictor.txt:6" in report.verdict.summary  # the kill's own line
    assert exit_code_for(report) == 1


def test_a_killed_container_ready_again_is_cleared_whatever_its_sidecar_says(tmp_path: Path, library: Library) -> None:
    describe = tmp_path / "describe-predictor.txt"
    describe.write_text(TWO_CONTAINERS.format(killed="True", sidecar="False"))
    report = run([str(describe)], library)
    assert report.verdict.id != "host-oom", report.verdict.summary
    assert _said(report, "OOMKilled"), (report.verdict.summary, report.notes)
