"""A server's ready line tells the phase of what fails after it, for vLLM as for SGLang, and only
for that server: in a file several pods share (a Loki export), each record's labels say whose line
it is, so a prefill's ready line says nothing of a decode's crash."""

from __future__ import annotations

import json
from pathlib import Path

from pdlogdoctor.library.patterns import Library
from pdlogdoctor.model import Role
from pdlogdoctor.pipeline import run
from pdlogdoctor.scan.roles import role_from_record

# Real lines: vLLM's ready line (api_server.py, 'Starting vLLM API server %d on %s') and a decode
# worker's CUDA OOM as vLLM's multiproc executor logs it (blind round 5 bundle 11's Loki export).
READY = "(APIServer pid=1) INFO 03-15 10:11:35 [api_server.py:1971] Starting vLLM API server 0 on http://0.0.0.0:{port}"
OOM = (
    "(Worker_TP2 pid=203) ERROR 03-15 10:11:49 [multiproc_executor.py:671] torch.OutOfMemoryError: CUDA out of "
    "memory. Tried to allocate 1.16 GiB. GPU 2 has a total capacity of 79.19 GiB of which 812.06 MiB is free."
)


def _phase(library: Library, logs: Path) -> str:
    report = run([str(logs)], library)
    assert report.verdict.id == "gpu-oom"
    return str(dict(report.verdict.facts)["phase"])


def test_a_vllm_oom_after_its_ready_line_happened_while_serving(library: Library, tmp_path: Path) -> None:
    (tmp_path / "decode.log").write_text(READY.format(port=8200) + "\n" + OOM + "\n")
    assert _phase(library, tmp_path) == "while serving"


def test_a_vllm_oom_with_no_ready_line_has_no_phase(library: Library, tmp_path: Path) -> None:
    (tmp_path / "decode.log").write_text(OOM + "\n")
    assert _phase(library, tmp_path) == "phase unknown"


def test_a_vllm_oom_after_a_request_it_answered_happened_while_serving(library: Library, tmp_path: Path) -> None:
    """A paste that starts after the ready line (wtdcode/vllm-backport#18): a request answered 200 before
    the OOM shows the server serving, as its ready line would."""
    answered = '(APIServer pid=1) INFO:     172.17.0.1:51708 - "POST /v1/chat/completions HTTP/1.1" 200 OK'
    (tmp_path / "decode.log").write_text(answered + "\n" + OOM + "\n")
    assert _phase(library, tmp_path) == "while serving"


def test_a_request_refused_before_the_oom_tells_no_phase(library: Library, tmp_path: Path) -> None:
    refused = (
        '(APIServer pid=1) INFO:     172.17.0.1:51708 - "POST /v1/chat/completions HTTP/1.1" 503 Service Unavailable'
    )
    (tmp_path / "decode.log").write_text(refused + "\n" + OOM + "\n")
    assert _phase(library, tmp_path) == "phase unknown"


def _loki(pod_app: str, line: str, at: str) -> str:
    labels = {"app": pod_app, "container": "vllm", "namespace": "inference", "pod": f"{pod_app}-7c9f6d8b5-kx2mz"}
    return json.dumps({"labels": labels, "line": line, "timestamp": at})


def test_in_a_shared_export_another_pods_ready_line_tells_no_phase(library: Library, tmp_path: Path) -> None:
    export = [
        _loki("vllm-prefill", READY.format(port=8100), "2026-03-15T10:11:35.719Z"),
        _loki("vllm-decode", OOM, "2026-03-15T10:11:49.101Z"),
    ]
    (tmp_path / "logcli-export.jsonl").write_text("\n".join(export) + "\n")
    report = run([str(tmp_path)], library)
    assert report.verdict.id == "gpu-oom"
    assert dict(report.verdict.facts)["phase"] == "phase unknown"
    assert dict(report.verdict.facts)["server"] == "decode server"


def test_in_a_shared_export_the_same_pods_ready_line_tells_the_phase(library: Library, tmp_path: Path) -> None:
    export = [
        _loki("vllm-prefill", READY.format(port=8100), "2026-03-15T10:11:35.719Z"),
        _loki("vllm-decode", READY.format(port=8200), "2026-03-15T10:11:36.002Z"),
        _loki("vllm-decode", OOM, "2026-03-15T10:11:49.101Z"),
    ]
    (tmp_path / "logcli-export.jsonl").write_text("\n".join(export) + "\n")
    assert _phase(library, tmp_path) == "while serving"


def test_a_records_labels_name_its_writer_only_when_they_agree() -> None:
    fluent_bit = {"log": "x\n", "time": "2026-03-15T10:11:35Z", "kubernetes": {"pod_name": "sglang-decode-0"}}
    cloud = {"textPayload": "x", "resource": {"labels": {"pod_name": "router-5d9", "container_name": "router"}}}
    both = {"log": "x\n", "kubernetes": {"pod_name": "pd-prefill-0", "container_name": "decode"}}
    assert role_from_record(json.dumps(fluent_bit)) is Role.DECODE
    assert role_from_record(json.dumps(cloud)) is Role.ROUTER
    assert role_from_record(json.dumps(both)) is None
    assert role_from_record('{"log": "x", "note": "the decode pod"}') is None  # a word in no name key
    assert role_from_record("[pod/sglang-decode-0/sglang] x") is None  # not a record (the prefix is role_from_prefix's)
