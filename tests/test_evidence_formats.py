"""Evidence in the shapes people have it (issue 22 item 6): a Grafana or Loki export saved as one
JSON document, `kubectl` event tables, a JSON log record printed over several lines. Real samples
from public threads (each cited), two per shape, and a look-alike that must not be read so.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pdlogdoctor.ingest import Budget, open_regular, text_stream
from pdlogdoctor.library.patterns import Library
from pdlogdoctor.model import Event, Report
from pdlogdoctor.pipeline import run
from pdlogdoctor.scan.collectors import unwrap
from pdlogdoctor.scan.records import record_around, starts_with_a_record

# ---------------------------------------------------------------- Grafana / Loki exports

# A Grafana "Download logs -> JSON" posted in a team's debugging note (code index id 25092548768),
# two of its records verbatim: newest first, as the panel showed them.
GRAFANA = (
    r'[{"line":"2025-12-12T09:34:32: {\"level\":20,\"time\":1765532072872,\"pid\":3599387,\"hostname\":\"walletstg2\",'
    r"\"name\":\"wrk:http:wrk-data-shard-proc:3599387\",\"traceId\":\"7d671628-04be-4cd8-9578-92f690cb95d1\","
    r'\"msg\":\"sendUserNotification: sending notification of type SWAP_STARTED to user p1ynbYRHiIg\"}",'
    r'"timestamp":"1765532073036107683","fields":{"app":"shard-proc-w-1-1","detected_level":"20","env":"staging",'
    r'"filename":"/srv/data/pm2/logs/shard-proc-w-1-1-out.log","host":"walletstg2","job":"pm2","level":"20",'
    r'"pm2_app":"shard-proc-w-1-1","service_name":"shard-proc-w-1-1","stream":"out"}},'
    r'{"line":"2025-12-12T09:34:31: {\"level\":30,\"time\":1765532071500,\"pid\":3512431,\"hostname\":\"walletstg1\",'
    r"\"name\":\"wrk:http:wrk-ork-api:3512431\",\"traceId\":\"7d671628-04be-4cd8-9578-92f690cb95d1\","
    r'\"msg\":\"Notification payload info: type - SWAP_STARTED \"}","timestamp":"1765532071627102373",'
    r'"fields":{"app":"ork-w-0-2","detected_level":"30","env":"staging","filename":"/srv/data/pm2/logs/ork-w-0-2-out.log",'
    r'"host":"walletstg1","job":"pm2","level":"30","pm2_app":"ork-w-0-2","service_name":"ork-w-0-2","stream":"out"}}]'
)
# Loki's query_range answer as curl printed it in a setup guide (code index id 55160466464; its
# `stats` cut here, as there).
LOKI = (
    '{"status":"success","data":{"resultType":"streams","result":[{"stream":{"detected_level":"unknown",'
    '"job":"ubuntu-test","service_name":"ubuntu-test"},"values":[["1781076573586704353",'
    '"Loki testing on Ubuntu looks good"]]}]}}'
)
# A real line to find in an export: srt-slurm#172's decode worker (tests/data/excerpts/srt-slurm-172-...).
OOM = (
    "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 4.00 GiB. GPU 3 has a total capacity of "
    "184.00 GiB of which 2.21 GiB is free. Including non-PyTorch memory, this process has 181.77 GiB memory in use."
)


def _read(tmp_path: Path, text: str, name: str = "export.json") -> list[str]:
    path = tmp_path / name
    path.write_text(text)
    with text_stream(open_regular(path), Budget()) as stream:
        return stream.readall().decode().splitlines()


def test_a_grafana_download_is_read_as_its_lines_oldest_first(tmp_path: Path) -> None:
    """Seen failing before: the download was one line of JSON text, its lines neither apart nor timed."""
    lines = [unwrap(line) for line in _read(tmp_path, GRAFANA)]
    assert [(line[0][:40], line[1]) for line in lines if line is not None] == [
        ('2025-12-12T09:34:31: {"level":30,"time":', "2025-12-12T09:34:31.627102Z"),
        ('2025-12-12T09:34:32: {"level":20,"time":', "2025-12-12T09:34:33.036108Z"),
    ]
    assert json.loads(_read(tmp_path, GRAFANA)[0])["labels"]["app"] == "ork-w-0-2"


def test_a_loki_answer_is_read_as_its_lines(tmp_path: Path) -> None:
    assert [unwrap(line) for line in _read(tmp_path, LOKI)] == [
        ("Loki testing on Ubuntu looks good", "2026-06-10T07:29:33.586704Z")
    ]


def test_an_export_holding_an_error_quotes_it_with_its_time(tmp_path: Path, library: Library) -> None:
    """The OOM line in a stream of its own in Loki's answer, newest first as Loki sends them."""
    answer = json.loads(LOKI)
    stream = {"stream": {"app": "sglang-decode"}, "values": [["1781076580000000000", OOM]]}
    answer["data"]["result"].insert(0, stream)
    (tmp_path / "export.json").write_text(json.dumps(answer))
    report = run([str(tmp_path / "export.json")], library)
    assert report.verdict.id == "gpu-oom"
    cause = _first(report, "cuda-oom")
    assert (cause.line, cause.time_text) == (2, "2026-06-10 07:29:40") and cause.text.startswith("torch.OutOf")


@pytest.mark.parametrize(
    "document",
    [
        # A transit app's settings (code index id 56473137593): objects with a `line`, no time.
        '[{"line":"480","operator":"Egged"},{"line":"5"}]',
        # Loki's answer to a metric query: numbers, no log lines (formats-round5.md C1).
        '{"status":"success","data":{"resultType":"matrix","result":[]}}',
    ],
)
def test_a_json_document_that_is_no_export_is_read_as_it_is(tmp_path: Path, document: str) -> None:
    assert _read(tmp_path, document) == [document]


# ---------------------------------------------------------------- kubectl's event tables

# `kubectl describe pod`'s Events: llm-d/llm-d-inference-sim#45 (a vLLM simulator killed for a failed
# liveness probe), kubernetes/kubernetes#91600 (an eviction).
DESCRIBE = [
    "  Warning  Unhealthy               25m (x3 over 25m)     kubelet                  Liveness probe failed: HTTP probe failed with statuscode: 404",  # noqa: E501 (a real row, verbatim)
    "  Normal   Killing                 25m                   kubelet                  Container vllm-standalone-3b-vllm-llama-3-3b-instruct failed liveness probe, will be restarted",  # noqa: E501 (a real row, verbatim)
    "  Normal   Killing         18m (x2 over 18m)  kubelet, mgt04     Stopping container calico-node",
    "  Warning  Evicted         18m                kubelet, mgt04     The node was low on resource: ephemeral-storage. Container calico-node was using 92Ki, which exceeds its request of 0.",  # noqa: E501 (a real row, verbatim)
]
# `kubectl get events`: a CKA study note (code index id 44220292592), oomichi/try-kubernetes#129, an
# operations article's listing (code index id 56881159507), a course write-up whose Grafana pod was
# killed for its liveness probe (code index id 71580750987, its LAST SEEN column left out).
GET_EVENTS = [
    "LAST SEEN   TYPE      REASON      OBJECT                              MESSAGE",
    "21s         Warning   Unhealthy   pod/red-probe-cka12-trb   Liveness probe failed: cat: can't open '/healthcheck': No such file or directory",  # noqa: E501 (a real row, verbatim)
    '4m37s       Normal   Pulling                   pod/nginx-deployment-7759cfdc55-2xczh    Pulling image "nginx:1.7.9"',  # noqa: E501 (a real row, verbatim)
    "2m          Warning   BackOff   pod/devpolaris-orders-api-78b6f596dc-mk9z4          Back-off restarting failed container api",  # noqa: E501 (a real row, verbatim)
    'Warning   Unhealthy   pod/kube-prometheus-stack-grafana-579c9bccc5-dl4ld   Liveness probe failed: Get "http://10.244.0.163:3000/api/health": dial tcp 10.244.0.163:3000: connect: connection refused',  # noqa: E501 (a real row, verbatim)
    "Normal    Killing     pod/kube-prometheus-stack-grafana-579c9bccc5-dl4ld   Container grafana failed liveness probe, will be restarted",  # noqa: E501 (a real row, verbatim)
]


def _errors(tmp_path: Path, library: Library, lines: list[str]) -> list[str]:
    (tmp_path / "events.txt").write_text("\n".join(lines) + "\n")
    return [error.first.text for error in run([str(tmp_path / "events.txt")], library).unrecognised]


def test_kubectl_events_warning_rows_and_rows_that_say_a_failure_are_errors(tmp_path: Path, library: Library) -> None:
    """The Warning rows are errors by their reason, the Normal `Killing ... failed liveness probe` rows by
    their source (sources.toml: the kubelet's kill, ranked after the probe failures it follows from); a
    Normal row of routine is none. In the file's order: the ranking is another test's. The probe's 404
    is the library's own (k8s-probe-path-not-found: a path the server does not serve), not the layer's."""
    (tmp_path / "describe.txt").write_text("\n".join(DESCRIBE) + "\n")
    report = run([str(tmp_path / "describe.txt")], library)
    assert _in_file_order([e.first.text for e in report.unrecognised], DESCRIBE) == [DESCRIBE[1], DESCRIBE[3]]
    assert [e.line for e in (*report.roots, *report.chain) if e.pattern == "k8s-probe-path-not-found"] == [1]
    found = _in_file_order(_errors(tmp_path, library, GET_EVENTS), GET_EVENTS)
    assert found == [GET_EVENTS[1], GET_EVENTS[3], GET_EVENTS[4], GET_EVENTS[5]]


def _in_file_order(errors: list[str], lines: list[str]) -> list[str]:
    return sorted(errors, key=lines.index)


def test_an_event_row_is_read_by_the_kubectl_formats(library: Library) -> None:
    formats = library.formats
    read = [formats.read(line) for line in (*DESCRIBE, *GET_EVENTS[1:])]
    assert [(r.format.id if r.format else None, r.level) for r in read] == [
        *[("kubectl-describe-event", None)] * 4,
        *[("kubectl-get-event", None)] * 5,
    ]


@pytest.mark.parametrize(
    "line",
    [
        # The same article's incident timeline, a markdown table of those events.
        "| `09:39` | Pod event `Failed` | Secret `orders-prod-env` missing |",
        # `kubectl get pods` (hmcts/cnp-flux-config#28772): a pod's state, no event row.
        "tax-tribunals-application-base-74464f6b98-2kj6g      0/1     OOMKilled   4 (57s ago)   2m40s",
        # The events table's own header.
        "  Type     Reason     Age                   From               Message",
    ],
)
def test_a_table_that_is_no_event_row_is_not_read_as_one(library: Library, line: str) -> None:
    found = library.formats.read(line).format
    assert found is None or not found.id.startswith("kubectl")


# ---------------------------------------------------------------- records printed over several lines

# Two real zap records at level error (kubernetes-sigs/kueue#2226; the HyperShift operator quoted in
# an ARO HCP runbook, code index id 68799545788), printed over several lines as `jq .` prints them.
KUEUE = {
    "level": "error", "ts": "2024-05-17T20:12:46.493819819Z", "logger": "visibility-server",
    "caller": "visibility/server.go:52", "msg": "Unable to apply VisibilityServerOptions",
    "error": "failed to create listener: failed to listen on 0.0.0.0:8082: listen tcp 0.0.0.0:8082: "
    "bind: address already in use",
}  # fmt: skip
HYPERSHIFT = {
    "level": "error", "ts": "2026-07-23T04:40:23Z", "msg": "Reconciler error", "controller": "nodepool",
    "controllerGroup": "hypershift.openshift.io", "controllerKind": "NodePool", "name": "ykulkarn-np-1",
    "error": 'failed to delete nodepool: there are still Machines in for NodePool "ykulkarn-np-1"',
}  # fmt: skip
# docker's json-file record as grafana/grafana#18522 shows it printed over several lines, holding
# srt-slurm#172's line.
DOCKER = {"log": OOM + "\n", "stream": "stderr", "time": "2025-08-12T20:06:43.183719829Z"}


@pytest.mark.parametrize(
    ("record", "quoted", "time"),
    [
        (KUEUE, "ERROR Unable to apply VisibilityServerOptions: failed to create listener", "2024-05-17 20:12:46"),
        (HYPERSHIFT, "ERROR Reconciler error: failed to delete nodepool", "2026-07-23 04:40:23"),
    ],
    ids=["kueue-2226", "hypershift"],
)
def test_a_record_printed_over_several_lines_is_one_error_at_its_first_line(
    tmp_path: Path, library: Library, record: dict[str, str], quoted: str, time: str
) -> None:
    """Seen failing before: the lines were read one by one (`"level": "error",` an error of its own,
    the message line without its time)."""
    path = tmp_path / "controller.log"
    path.write_text(json.dumps({"level": "info", "ts": "2024-05-17T20:12:40Z", "msg": "starting"}, indent=2) + "\n"
                    + json.dumps(record, indent=2) + "\n")  # fmt: skip
    report = run([str(path)], library)
    events = [*report.roots, *report.chain, *(error.first for error in report.unrecognised)]
    assert {(e.line, e.time_text, e.text[: len(quoted)]) for e in events} == {(6, time, quoted)}


def test_a_record_printed_over_several_lines_keeps_its_verdict(tmp_path: Path, library: Library) -> None:
    path = tmp_path / "decode.log"
    loaded = {"log": "[2025-08-12 20:06:40] Load weight end.\n", "stream": "stderr", "time": "2025-08-12T20:06:40Z"}
    path.write_text(json.dumps(loaded, indent=2) + "\n" + json.dumps(DOCKER, indent=2) + "\n")
    report = run([str(path)], library)
    assert report.verdict.id == "gpu-oom"
    cause = _first(report, "cuda-oom")
    assert (cause.line, cause.time_text) == (6, "2025-08-12 20:06:43")


# A JSON config (a FluidMCP configuration that runs vLLM, code index id 25125057980): no log record.
CONFIG = """{
  "llmModels": {
    "vllm": {
      "command": "vllm",
      "args": ["serve", "facebook/opt-125m", "--port", "8001"],
      "endpoints": {
        "base_url": "http://localhost:8001/v1"
      },
      "restart_policy": "on-failure",
      "max_restarts": 3,
      "restart_delay": 5
    }
  }
}
"""


def test_a_json_config_is_no_record() -> None:
    data = CONFIG.encode()
    member = data.index(b'      "restart_policy"')
    assert record_around(data, member, data.index(b"\n", member), len(data)) is None
    assert not starts_with_a_record(CONFIG.splitlines())
    assert starts_with_a_record(json.dumps(KUEUE, indent=2).splitlines())


def _first(report: Report, pattern: str) -> Event:
    return next(event for event in (*report.roots, *report.chain) if event.pattern == pattern)
