"""Lines as collectors and other writers store them: JSON-lines records (docker json-file,
fluent-bit, vector, journald, Cloud Logging), containerd's CRI prefix, Cloud Logging's severity
prefix; and the time shapes of the kernel's log (dmesg -T, seconds since boot) and of UCX."""

from __future__ import annotations

import calendar
import json
from collections.abc import Mapping
from pathlib import Path

import pytest

from pdlogdoctor.library.patterns import Library
from pdlogdoctor.model import Report
from pdlogdoctor.model.moments import second_text, year_unknown
from pdlogdoctor.pipeline import run
from pdlogdoctor.render.markdown import markdown_report
from pdlogdoctor.render.options import RenderOptions
from pdlogdoctor.scan.collectors import unwrap, utc_text
from pdlogdoctor.scan.timeline import clean_line, parse_actions_time, parse_stamp

from .conftest import FIXTURES

SCHEDULER_LINE = "[2026-10-03 07:47:30 TP3] Scheduler hit an exception: Traceback (most recent call last):"


def epoch(*parts: int) -> float:
    return float(calendar.timegm((*parts, 0, 0, 0)))


@pytest.mark.parametrize(
    ("raw", "line", "received"),
    [
        # docker json-file / fluent-bit: the line keeps its newline inside `log`
        (
            json.dumps({"log": SCHEDULER_LINE + "\n", "stream": "stderr", "time": "2026-10-03T07:47:30.131000120Z"}),
            SCHEDULER_LINE,
            "2026-10-03T07:47:30.131000120Z",
        ),
        # vector's kubernetes_logs: `message` and `timestamp`, other keys around them
        (
            json.dumps(
                {
                    "kubernetes": {"pod_name": "d-0"},
                    "message": '  File "/x/conn.py", line 5',
                    "timestamp": "2026-10-03T07:47:30Z",
                }
            ),
            '  File "/x/conn.py", line 5',
            "2026-10-03T07:47:30Z",
        ),
        # a numeric offset becomes UTC; fluent-bit's `date` is seconds since the epoch
        (json.dumps({"log": "x\n", "time": "2026-10-03T09:47:30.5+02:00"}), "x", "2026-10-03T07:47:30.5Z"),
        (json.dumps({"log": "x", "date": 1791013650.25}), "x", "2026-10-03T07:47:30.250000Z"),
        # journalctl -o json: microseconds since the epoch, as a string
        (json.dumps({"MESSAGE": "x", "__REALTIME_TIMESTAMP": "1791013650000000"}), "x", "2026-10-03T07:47:30.000000Z"),
        # a Cloud Logging export: textPayload, or jsonPayload.message with a protobuf timestamp
        (
            json.dumps({"textPayload": "x", "timestamp": "2026-10-03T07:47:30.000001Z"}),
            "x",
            "2026-10-03T07:47:30.000001Z",
        ),
        (
            json.dumps({"jsonPayload": {"message": "x"}, "timestamp": {"seconds": 1791013650, "nanos": 5}}),
            "x",
            "2026-10-03T07:47:30.000000005Z",
        ),
        # escaped quotes and a unicode escape come back as written
        (json.dumps({"log": 'POST /generate "x" \u00e9\n'}), 'POST /generate "x" \u00e9', None),
        # containerd: time, stream and the full/partial tag all go
        ("2026-10-03T07:47:30.131000120Z stderr F " + SCHEDULER_LINE, SCHEDULER_LINE, "2026-10-03T07:47:30.131000120Z"),
        (
            "2026-10-03T08:47:30.1+01:00 stdout P [2026-10-03 07:47:30] server_args=",
            "[2026-10-03 07:47:30] server_args=",
            "2026-10-03T07:47:30.1Z",
        ),
        ("2026-10-03T07:47:30.131000120Z stderr F ", "", "2026-10-03T07:47:30.131000120Z"),
        # a Cloud Logging export pasted as text: severity, then the entry's time
        ("ERROR 2026-06-15T14:10:59.392125190Z " + SCHEDULER_LINE, SCHEDULER_LINE, "2026-06-15T14:10:59.392125190Z"),
    ],
)
def test_a_collector_record_gives_the_components_line_and_the_collectors_time(
    raw: str, line: str, received: str | None
) -> None:
    assert clean_line(raw) == (line, received)


@pytest.mark.parametrize(
    "raw",
    [
        '{"errors": 0, "error_rate": 0.0, "status": "pass"}',  # a harness summary: no line inside
        '{"log": 3, "time": "2026-10-03T07:47:30Z"}',  # a `log` that is not a line
        '{"log": "x"',  # cut
        "[2026-10-03 07:47:30] {'message': 'x'}",
        "2026-10-03T07:47:30Z stdout Fx",  # not containerd's tag
        "ERRORS 2026-06-15T14:10:59Z x",
    ],
)
def test_lines_no_collector_wrapped_are_left_as_they_are(raw: str) -> None:
    assert unwrap(raw) is None


def test_a_multiline_record_stays_one_line_of_the_file() -> None:
    record = json.dumps({"message": 'Traceback (most recent call last):\n  File "x.py", line 1\nValueError: y\n'})
    assert clean_line(record)[0] == 'Traceback (most recent call last):\\n  File "x.py", line 1\\nValueError: y'


def test_times_that_are_not_wall_times_are_not_taken() -> None:
    assert unwrap(json.dumps({"log": "x", "ts": 12.5})) == ("x", None)  # seconds since start
    assert utc_text("yesterday") is None
    assert utc_text("2026-10-03 07:47:30") == "2026-10-03T07:47:30Z"  # no zone: UTC, as everywhere


def test_dmesg_T_and_ucx_times_are_read() -> None:
    dmesg = parse_stamp("[Thu Oct  1 23:05:09 2026] Out of memory: Killed process 4711 (python3) total-vm:1kB")
    ucx = parse_stamp("[1791013650.719079] [node-3:994396:0]           gdaki.c:397  UCX  ERROR   x")
    padded = parse_stamp("[1791013650.5] [llm206:611  :0]     ucp_context.c:1268 UCX  WARN  x")
    assert dmesg is not None and dmesg.year_known and dmesg.seconds == epoch(2026, 10, 1, 23, 5, 9)
    assert ucx is not None and ucx.year_known and ucx.seconds == pytest.approx(epoch(2026, 10, 3, 7, 47, 30) + 0.719079)
    assert ucx.text == "2026-10-03 07:47:30.719"
    assert padded is not None and padded.seconds == pytest.approx(epoch(2026, 10, 3, 7, 47, 30) + 0.5)


def test_seconds_since_boot_are_no_wall_time() -> None:
    assert parse_stamp("[ 8012.345678] Out of memory: Killed process 4711 (python3) total-vm:1kB") is None
    assert parse_stamp("[1791013650.719079] Out of memory: Killed process 4711") is None  # no UCX [host:pid:tid]


def test_a_kernel_line_in_seconds_since_boot_takes_no_time_from_its_neighbours(
    library: Library, tmp_path: Path
) -> None:
    (tmp_path / "node-a.log").write_text(
        "[2026-10-03 07:40:00 TP0] Load weight end. type=X, dtype=torch.bfloat16, avail mem=40.00 GB, "
        "mem usage=20.00 GB.\n"
        "[ 8012.345678] Out of memory: Killed process 4711 (sglang::schedul) total-vm:412331220kB, "
        "anon-rss:298112344kB, file-rss:102400kB, shmem-rss:2097152kB, UID:0 pgtables:601232kB oom_score_adj:0\n"
    )
    report = run([str(tmp_path)], library)
    killed = [e for e in report.chain if e.line == 2]
    assert killed, report.verdict.summary
    assert all(e.time is None for e in killed)


def test_a_yearless_glog_line_takes_its_year_from_the_collectors_time(library: Library, tmp_path: Path) -> None:
    (tmp_path / "0.log").write_text(
        "2027-01-01T00:00:01.5Z stderr F E1231 23:59:59.104455  4712 rdma_context.cpp:212] Failed to register memory "
        "0x7f2a80000000: Invalid argument [22]\n"
    )
    report = run([str(tmp_path)], library)
    timed = [e for e in (*report.chain, *(u.first for u in report.unrecognised)) if e.line == 1]
    assert timed and all(e.time == epoch(2026, 12, 31, 23, 59, 59) + 0.104455 for e in timed)


def test_yearless_times_with_no_year_anywhere_keep_their_order_without_a_year(library: Library, tmp_path: Path) -> None:
    """No year is told anywhere: the lines keep their month, day, clock and order (10 ms apart), and
    their year stays unknown (model/moments.py), never shown."""
    (tmp_path / "mooncake.log").write_text(
        "E0521 16:22:21.694042   162 transfer_metadata.cpp:877] Local segment descriptor not found\n"
        "E0521 16:22:21.704042   162 rdma_context.cpp:212] Failed to register memory 0x7f2a80000000: "
        "Invalid argument [22]\n"
    )
    report = run([str(tmp_path)], library)
    events = sorted([*report.chain, *(u.first for u in report.unrecognised)], key=lambda e: e.line)
    assert events
    assert all(e.time is not None and year_unknown(e.time) for e in events)
    assert all(e.time_text and e.time_text.startswith("05-21") for e in events)
    times = [e.time for e in events if e.time is not None]
    assert second_text(int(times[0])) == "--05-21T16:22:21"
    assert times == sorted(times)


def test_received_times_keep_their_meaning() -> None:
    _, received = clean_line("2026-10-03T09:47:30.5+02:00 stderr F x")
    assert received is not None and parse_actions_time(received).seconds == epoch(2026, 10, 3, 7, 47, 30) + 0.5


# ---------------------------------------------------------------- the fixtures, as a reader sees them

WRAPPED = ("k8s-json-lines-page-size-mismatch", "cri-containerd-prefill-not-enough-memory")


@pytest.mark.parametrize("name", WRAPPED)
def test_every_quoted_line_is_the_components_line_at_its_file_line(
    name: str, bundle_reports: Mapping[Path, Report]
) -> None:
    report = bundle_reports[FIXTURES / name]
    quoted = [(e.source, e.line, e.text) for e in report.chain] + [
        (line.source, line.line, line.text) for window in report.excerpt for line in window.lines
    ]
    assert report.chain and report.excerpt
    for source, number, text in quoted:
        raw = Path(source).read_text().splitlines()[number - 1]
        assert clean_line(raw)[0] == text, (source, number)
        assert unwrap(text) is None and "stderr F" not in text and "stdout F" not in text
    markdown = markdown_report(report, RenderOptions(redact=False))
    assert '{"log"' not in markdown and '"message":' not in markdown and "stderr F" not in markdown


@pytest.mark.parametrize("name", WRAPPED)
def test_lines_without_a_time_of_their_own_have_the_collectors(
    name: str, bundle_reports: Mapping[Path, Report]
) -> None:
    report = bundle_reports[FIXTURES / name]
    assert all(e.time is not None for e in report.chain)
    exception = next(e for e in report.chain if e.text.startswith("RuntimeError"))
    assert exception.time_text is not None and exception.time_text.startswith("2026-")


def test_a_ucx_line_is_read_on_the_clock_of_the_lines_around_it(library: Library, tmp_path: Path) -> None:
    """UCX prints UTC seconds; vLLM beside it the host's local time (here UTC-7): in one file the
    UCX line belongs with the lines it was printed among, not 7 h after them."""
    (tmp_path / "decode.log").write_text(
        "INFO 10-03 00:47:29 [nixl_connector.py:586] Registering KV_Caches: use_mla: False, num_blocks: 31025\n"
        "[1791013650.298391] [decode-0:270  :0]    ib_mlx5dv_md.c:1100 UCX  ERROR mlx5_7: ibv_modify_qp(UMR QP "
        "0x9b5e) failed to modify to RTR: No such device\n"
        "ERROR 10-03 00:47:31 [core.py:586] EngineCore failed to start.\n"
    )
    report = run([str(tmp_path)], library)
    ucx = next(e for e in (*report.chain, *(u.first for u in report.unrecognised)) if e.line == 2)
    assert ucx.time == epoch(2026, 10, 3, 0, 47, 30)  # 07:47:30 UTC, at the file's whole-second resolution
    assert ucx.time_text == "2026-10-03 07:47:30.298"  # as logged


def test_ucx_time_across_new_year_in_another_zone(bundle_reports: Mapping[Path, Report]) -> None:
    """UCX's 2026-12-31 22:42:02 UTC among vLLM's year-less Tokyo time (01-01 07:4x): on the file's
    clock it is 2027-01-01 07:42:02, a second before the handshake failure it causes; the vLLM lines
    are of 2027."""
    report = bundle_reports[FIXTURES / "ucx-epoch-vllm-tokyo-new-year-create-ah"]
    times = {e.pattern: e.time for e in report.chain}
    assert times["ucx-create-ah-failed"] == epoch(2027, 1, 1, 7, 42, 2)
    assert times["vllm-nixl-transfer-failure"] == epoch(2027, 1, 1, 7, 42, 3)


def test_dmesg_T_in_local_time_is_read_and_aligned(bundle_reports: Mapping[Path, Report]) -> None:
    report = bundle_reports[FIXTURES / "host-oom-dmesg-T-new-york-time"]
    kill = next(e for e in report.chain if e.pattern == "oom-killed-process")
    lost = next(e for e in report.chain if e.pattern == "decode-lost-prefill")
    assert kill.time_text == "2026-11-09 09:47:31"  # as logged, the host's New York time
    assert kill.time is not None and lost.time is not None and 0 < lost.time - kill.time <= 60


def test_a_cloud_logging_export_is_read_as_a_serving_log(bundle_reports: Mapping[Path, Report]) -> None:
    report = bundle_reports[FIXTURES / "cloud-logging-export-decode-cuda-oom"]
    assert not any(p.code == "not-a-serving-log" for s in report.inputs for p in s.problems)
    oom = next(e for e in report.chain if e.pattern == "cuda-oom")
    assert oom.text.startswith("torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 1.75 GiB.")
    assert oom.line == 13 and oom.time == epoch(2026, 8, 19, 3, 25, 41)


# BerriAI/litellm#5316: a proxy under docker compose that logs JSON records (python-json-logger)
LITELLM_RECORD = json.dumps(
    {
        "message": "litellm.acompletion(model=openai//data/Llama-3-8B-Instruct)\x1b[31m Exception litellm.Timeout: "
        "APITimeoutError - Request timed out. \nerror_str: Request timed out.\x1b[0m",
        "level": "INFO",
        "timestamp": "2024-08-22T08:40:44.420116",
    }
)


def test_a_json_record_behind_a_compose_prefix_is_unwrapped_to_its_message() -> None:
    line, received = clean_line(f"litellm-1    | {LITELLM_RECORD}")
    assert line.startswith("litellm.acompletion(model=openai//data/Llama-3-8B-Instruct) Exception litellm.Timeout")
    assert "\x1b" not in line and "[31m" not in line  # the colour codes the record held, escaped, are gone
    assert received == "2024-08-22T08:40:44.420116Z"
    assert clean_line("litellm-1    | {not a record")[0] == "{not a record"  # a brace that opens no record stays


def test_the_error_a_compose_services_json_record_holds_is_pointed_at(library: Library, tmp_path: Path) -> None:
    """Unread, the record's error left a run that timed out called a run with no failure seen."""
    log = tmp_path / "compose.log"
    log.write_text(f"litellm-1    | {LITELLM_RECORD}\n")
    report = run([str(log)], library)
    assert report.verdict.id == "inconclusive", report.verdict.summary
    assert "Exception litellm.Timeout: APITimeoutError - Request timed out." in report.verdict.summary


# ggml-org/llama.cpp's server with `--log-format json` (examples/server/utils.hpp's log_server_request):
# the message is one word, the answer is in the record's other fields.
LLAMA_REQUEST = (
    '{"tid":"140231","timestamp":1712345611,"level":"INFO","function":"log_server_request","line":2766,'
    '"msg":"request","remote_addr":"127.0.0.1","remote_port":46520,"status":%d,"method":"POST",'
    '"path":"/completion","params":{}}'
)


@pytest.mark.parametrize(
    ("record", "line"),
    [
        (LLAMA_REQUEST % 500, "request status=500 method=POST path=/completion"),
        (LLAMA_REQUEST % 200, "request status=200 method=POST path=/completion"),
        # python-json-logger: the traceback sits in exc_info; its last line states the exception
        (
            json.dumps(
                {
                    "asctime": "2025-05-01 10:00:00,001",
                    "levelname": "ERROR",
                    "message": "Exception in ASGI application",
                    "exc_info": 'Traceback (most recent call last):\n  File "x.py", line 3\nValueError: bad shape',
                }
            ),
            "ERROR Exception in ASGI application: ValueError: bad shape",
        ),
        # a supervisor's record of a child that exited
        (
            json.dumps({"msg": "worker exited", "exit_code": 137, "time": "2025-05-01T10:00:00Z"}),
            "worker exited exit_code=137",
        ),
        # what the message already says is not said twice; a status that is no HTTP status is left out
        (json.dumps({"msg": "answered 500", "status": 500}), "answered 500"),
        (json.dumps({"msg": "ready", "status": "running", "exit_code": 0}), "ready"),
    ],
)
def test_a_records_outcome_fields_are_read_beside_its_message(record: str, line: str) -> None:
    assert clean_line(record)[0] == line


def test_a_request_a_json_record_answers_with_a_server_error_is_pointed_at(library: Library, tmp_path: Path) -> None:
    """Read as its message alone (`request`), the llama.cpp log below was a run with no failure seen."""
    log = tmp_path / "server.log"
    log.write_text("\n".join([LLAMA_REQUEST % 200, LLAMA_REQUEST % 500, LLAMA_REQUEST % 500]) + "\n")
    report = run([str(log)], library)
    assert report.verdict.id != "healthy" and report.verdict.id != "no-failure-seen", report.verdict.summary
    assert "server.log:2: request status=500 method=POST path=/completion" in report.verdict.summary
