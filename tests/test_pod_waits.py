"""Kubernetes events of a deployment still coming up are no failure (round 38 bundles-b 02).

A pod the scheduler could not place until the autoscaler added a node has a FailedScheduling event,
then its own Scheduled event: a wait that ended. A readiness probe refused while the server is still
loading its weights keeps the pod out of its Service, kills nothing, and is refused only because
nothing listens yet; a startup probe refused is the same wait (the kubelet says so on its own line when
it gives up). Neither is the run's failure; the servers' own logs say whether one failed.

A pod evicted because the node's local disk ran low while its server's log ends in the download of its
weights (into the container's own filesystem, round 39 bundles-b 04) is a model that could not be
loaded; the eviction alone (an LMCache disk cache that grew, a pod that served for hours) and a node
agent evicted with a few KiB are not named so (the open-world layer still quotes them).

Look-alikes stay failures: another pod scheduled later (the FailedScheduling pod still waits), a
liveness probe refused (the kubelet restarts the container), a readiness probe answered with a 500.
"""

from __future__ import annotations

from pathlib import Path

from pdlogdoctor.library.patterns import Library
from pdlogdoctor.model import Report
from pdlogdoctor.pipeline import run

HEADER = "LAST SEEN              TYPE      REASON              OBJECT                                     MESSAGE"
UNSCHEDULABLE = (
    "6m58s                  Warning   FailedScheduling    pod/llama8b-decode-5b7c8d9f6d-7vtmn        0/4 nodes are "
    "available: 1 node(s) had untolerated taint {node-role.kubernetes.io/control-plane: }, "
    "3 Insufficient nvidia.com/gpu."
)
SCHEDULED = (
    "2m51s                  Normal    Scheduled           pod/{pod}        Successfully assigned inference/{pod} to "
    "gpu-node-04"
)
READINESS = (
    "3s (x27 over 4m29s)    Warning   Unhealthy           pod/llama8b-prefill-6d8f9c7b54-kq2xz       "
    '{kind} probe failed: Get "http://10.244.1.37:8000/health": dial tcp 10.244.1.37:8000: connect: connection refused'
)
ANSWERED = (
    "18m (x14 over 21m)   Warning   Unhealthy   pod/llama8b-prefill-6d8f9c7b54-kq2xz    Readiness probe failed: HTTP "
    "probe failed with statuscode: 500"
)
# vLLM 0.11's start-up, cut while it compiles: no error, no ready line.
PREFILL = [
    "(APIServer pid=1) INFO 10-28 14:03:10 [api_server.py:1839] vLLM API server version 0.11.0",
    "(EngineCore_DP0 pid=212) INFO 10-28 14:06:48 [backends.py:548] Dynamo bytecode transform time: 6.71 s",
]


def _report(tmp_path: Path, library: Library, events: list[str]) -> Report:
    tmp_path.mkdir(parents=True, exist_ok=True)
    (tmp_path / "kubectl-events.txt").write_text("\n".join([HEADER, *events]) + "\n")
    (tmp_path / "prefill.log").write_text("\n".join(PREFILL) + "\n")
    return run([str(tmp_path)], library)


def test_a_pod_scheduled_after_waiting_and_probes_refused_while_loading_are_no_failure(
    tmp_path: Path, library: Library
) -> None:
    pod = "llama8b-decode-5b7c8d9f6d-7vtmn"
    report = _report(tmp_path, library, [UNSCHEDULABLE, SCHEDULED.format(pod=pod), READINESS.format(kind="Readiness")])
    assert report.verdict.id == "no-failure-seen", report.verdict.summary
    assert "shows it harmless" in report.verdict.summary
    assert "FailedScheduling    pod/llama8b-decode-5b7c8d9f6d-7vtmn" in report.verdict.summary


def test_a_startup_probe_refused_while_loading_is_no_failure(tmp_path: Path, library: Library) -> None:
    report = _report(tmp_path, library, [READINESS.format(kind="Startup")])
    assert report.verdict.id == "no-failure-seen", report.verdict.summary


EVICTED = (
    "40m         Warning   Evicted               pod/qwen3-prefill-7c9d6f5b8-4vltm        The node was low on "
    "resource: ephemeral-storage. Threshold quantity: 89547776409, available: 86960120Ki. Container vllm was using "
    "{used}, request is 0, has larger consumption of ephemeral-storage. "
)


DOWNLOADING = [
    "(APIServer pid=1) INFO 10-28 14:03:10 [api_server.py:1839] vLLM API server version 0.11.0",
    "model-00099-of-00118.safetensors:  41%|████      | 1.64G/3.99G [00:09<00:13, 181MB/s]",
    "model-00100-of-00118.safetensors:  17%|█▋        | 682M/3.99G [00:03<00:18, 183MB/s]",
]


def test_a_server_evicted_while_its_weights_download_could_not_load_its_model(tmp_path: Path, library: Library) -> None:
    report = _report(tmp_path, library, [READINESS.format(kind="Startup"), EVICTED.format(used="401327416Ki")])
    assert report.verdict.id == "inconclusive", report.verdict.summary  # the prefill's log is not downloading
    (tmp_path / "prefill.log").write_text("\n".join(DOWNLOADING) + "\n")  # ... and now it ends in its download
    report = run([str(tmp_path)], library)
    assert report.verdict.id == "model-load-failure", report.verdict.summary
    assert "Container vllm was using 401327416Ki" in report.verdict.summary
    assert "HF_HOME" in report.advice, report.advice


def test_a_small_container_evicted_for_disk_is_an_error_no_verdict_names(tmp_path: Path, library: Library) -> None:
    report = _report(tmp_path, library, [EVICTED.format(used="92Ki")])
    assert report.verdict.id == "inconclusive", report.verdict.summary
    assert "Container vllm was using 92Ki" in report.verdict.summary


def test_another_pod_scheduled_leaves_the_wait_a_failure(tmp_path: Path, library: Library) -> None:
    report = _report(tmp_path, library, [UNSCHEDULABLE, SCHEDULED.format(pod="llama8b-prefill-6d8f9c7b54-kq2xz")])
    assert report.verdict.id == "inconclusive", report.verdict.summary
    assert "FailedScheduling" in report.verdict.summary


def test_a_liveness_probe_refused_or_a_readiness_probe_answered_badly_is_a_failure(
    tmp_path: Path, library: Library
) -> None:
    for name, event in (("liveness", READINESS.format(kind="Liveness")), ("answered", ANSWERED)):
        report = _report(tmp_path / name, library, [event])
        assert report.verdict.id == "inconclusive", report.verdict.summary
        assert "probe failed" in report.verdict.summary
