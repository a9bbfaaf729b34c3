"""The generic error layer: error lines no pattern names are seen, templated, ranked and quoted."""

from __future__ import annotations

import io
import json
import re
import tempfile
from collections.abc import Mapping
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pdlogdoctor.library.errorlines import check_layer
from pdlogdoctor.library.lazyregex import LazyRegex
from pdlogdoctor.library.patterns import SKELETON_TITLE, Library, parse_pattern
from pdlogdoctor.library.templates import message_of, mine, template_of
from pdlogdoctor.model import Report
from pdlogdoctor.model.errors import PatternError
from pdlogdoctor.pipeline import run
from pdlogdoctor.render.json_format import render as render_json
from pdlogdoctor.scan import accel
from pdlogdoctor.scan.index import AnchorIndex
from pdlogdoctor.scan.search import scan_stream

from .conftest import FIXTURES
from .corpus import case_report


def _report_of(tmp_path: Path, library: Library, files: dict[str, str]) -> dict[str, object]:
    for name, text in files.items():
        (tmp_path / name).write_text(text)
    out = io.StringIO()
    render_json(run([str(tmp_path)], library), out)
    document: dict[str, object] = json.loads(out.getvalue())
    return document


def test_the_shipped_markers_and_benign_entries_pass_their_own_examples(library: Library) -> None:
    assert library.errors is not None
    assert check_layer(library.errors) == []


def test_a_searched_regex_that_opens_with_any_text_is_reported(library: Library) -> None:
    """Searched from every position of a line it does not match, `(?P<message>.*\\bX\\b.*)` costs
    the square of the line's length (two shipped markers took 1-2 ms per 2 KiB line)."""
    assert library.errors is not None
    layer = library.errors
    disk = next(m for m in layer.markers if m.id == "errno-exhausted")
    assert disk.regex is not None
    unanchored = LazyRegex(disk.regex.pattern.removeprefix("^"))
    broken = replace(layer, markers=tuple(replace(m, regex=unanchored) if m is disk else m for m in layer.markers))
    assert any("unanchored" in problem for problem in check_layer(broken))
    assert not any("unanchored" in problem for problem in check_layer(layer))
    assert disk.regex.search("tee: gsm8k.log: No space left on device") is not None  # anchored, it still finds


def test_a_marker_whose_example_an_earlier_marker_decides_is_reported(library: Library) -> None:
    assert library.errors is not None
    markers = library.errors.markers
    python = next(m for m in markers if m.id == "python-exception")
    broken = type(library.errors)(
        library.errors.anchors,
        tuple(replace(m, match=python.match) if m.id == "glog-error" else m for m in markers),
        library.errors.benign,
    )
    assert any("glog-error" in problem and "decided by python-exception" in problem for problem in check_layer(broken))


def test_the_same_error_on_eight_ranks_is_one_template_with_its_count(library: Library) -> None:
    lines = [
        f"E0729 05:04:3{rank}.52772{rank} 1409{rank} rdma_endpoint.cpp:70] "
        "Failed to create QP: Cannot allocate memory [12]"
        for rank in range(8)
    ]
    assert library.errors is not None
    masks = library.errors.masks
    groups = mine(lines, lambda line: template_of(line, masks))
    assert len(groups) == 1 and len(groups[0][1]) == 8


def test_masking_keeps_the_words_and_hides_what_varies(library: Library) -> None:
    assert library.errors is not None
    line = "Request 0x7f2a80000000 from 10.0.0.7:30001 took 12.5 s at 05:04:30 in /opt/x/y.py"
    masked = template_of(line, library.errors.masks)
    assert masked == "Request <hex> from <ip> took <duration> at <time> in <path>"


def test_an_unrecognised_glog_error_is_quoted_where_nothing_else_fails(tmp_path: Path, library: Library) -> None:
    etcd = (
        "E20260521 08:44:16.320911   412 transfer_metadata.cpp:74] Error from etcd client, "
        "etcd uri: 192.168.30.5:2379 error: 14 message: connections to all backends failing"
    )
    document = _report_of(tmp_path, library, {"prefill_n1.log": "\n".join([etcd] * 14) + "\n"})
    verdict = document["verdict"]
    assert isinstance(verdict, dict)
    assert verdict["id"] == "inconclusive"
    assert "Error from etcd client, etcd uri: 192.168.30.5:2379 error: 14" in verdict["summary"]
    assert "No failure evidence" not in verdict["summary"]
    unrecognised = document["unrecognised"]
    assert isinstance(unrecognised, list) and len(unrecognised) == 1
    assert unrecognised[0]["count"] == 14 and unrecognised[0]["first"]["line"] == 1
    assert unrecognised[0]["earliest"] is True and unrecognised[0]["roles"] == ["prefill"]


def test_a_prefixed_traceback_is_one_error_its_exception_line(tmp_path: Path, library: Library) -> None:
    prefix = "ERROR 499 [ TP4 scheduler.py:2982]"
    text = "\n".join(
        [
            f"{prefix} Traceback (most recent call last):",
            f'{prefix}   File "/sgl/python/sglang/srt/managers/scheduler.py", line 2976, in run_scheduler_process',
            f"{prefix}     scheduler.event_loop_normal()",
            f"{prefix} RuntimeError: Decode out of memory. Try to lower your batch size.^M",
        ]
    )
    document = _report_of(tmp_path, library, {"decode_n2.log": text + "\n"})
    unrecognised = document["unrecognised"]
    assert isinstance(unrecognised, list)
    # The frames are not errors of their own; the first error-level line of the block is.
    texts = [item["first"]["text"] for item in unrecognised]
    assert not any('File "' in t for t in texts)
    # The exception line is what is read: the library names sglang's token-pool error now
    # (sglang/token-pool-out-of-memory), so it roots the verdict instead of leading the unrecognised.
    verdict = document["verdict"]
    assert isinstance(verdict, dict) and verdict["id"] == "scheduler-runtime-crash"
    assert not texts


def test_a_traceback_a_pattern_read_is_not_unrecognised(tmp_path: Path, library: Library) -> None:
    text = "\n".join(
        [
            "[2026-07-08 03:12:09 TP3] Scheduler hit an exception: Traceback (most recent call last):",
            '  File "/sgl/python/sglang/srt/managers/scheduler.py", line 2711, in run_scheduler_process',
            "    scheduler.event_loop_normal()",
            "ZeroDivisionError: division by zero",
        ]
    )
    document = _report_of(tmp_path, library, {"prefill_n1.log": text + "\n"})
    assert document["unrecognised"] == []


def test_benign_noise_never_becomes_a_finding(tmp_path: Path, library: Library) -> None:
    text = "\n".join(
        [
            "Exception ignored in: <function ResourceTracker.__del__ at 0x00000180C086F380>",
            "Traceback (most recent call last):",
            '  File "/usr/lib/python3.10/multiprocessing/resource_tracker.py", line 77, in __del__',
            "ImportError: sys.meta_path is None, Python is likely shutting down",
            "[2026-07-02 11:00:30] Prefill register attempt 1/5 failed: status 503",
        ]
    )
    document = _report_of(tmp_path, library, {"prefill_n1.log": text + "\n"})
    assert document["unrecognised"] == []


BLIP = [
    "[2026-11-30 05:24:03] The server is fired up and ready to roll!",
    "[2026-11-30 05:26:28] Health check failed. Server couldn't get a response from detokenizer for last 20 seconds. "
    "tic start time: 05:26:08. last_heartbeat time: 05:26:05",
    '[2026-11-30 05:26:28] INFO:     10.9.0.5:40202 - "GET /health HTTP/1.1" 503 Service Unavailable',
]


@pytest.mark.parametrize(
    ("ready_first", "gate_at", "healthy", "noted"),
    [(True, "05:28:46", True, True), (True, "05:25:46", False, False), (False, "05:28:46", True, False)],
    ids=["blip-then-gate", "gate-then-blip", "start-up-503"],
)
def test_a_health_blip_is_benign_only_when_serving_is_shown_after_it(
    tmp_path: Path, library: Library, ready_first: bool, gate_at: str, healthy: bool, noted: bool
) -> None:
    """A /health 503 is tolerated when a passing end-to-end check comes after it (in another
    file: the decode log shows nothing after the blip); a check that passed before it says nothing.
    A healthy report notes a blip while serving, not a 503 answered during start-up."""
    decode = BLIP if ready_first else [*BLIP[1:], BLIP[0].replace("05:24:03", "05:27:03")]
    job = [
        "2026-11-30T05:24:16.0479060Z [probe] ok:  Paris.",
        f"2026-11-30T{gate_at}.3129318Z [gsm8k] accuracy=0.956 threshold=0.91",
    ]
    files = {"decode-0.log": "\n".join(decode) + "\n", "job.log": "\n".join(job) + "\n"}
    document = _report_of(tmp_path, library, files)
    verdict = document["verdict"]
    assert isinstance(verdict, dict) and (verdict["id"] == "healthy") is healthy, verdict
    notes = document["notes"]
    assert isinstance(notes, list) and any("recovered from" in note for note in notes) is noted, notes


@pytest.mark.parametrize("chunk", [64, 4096])
def test_a_glog_error_is_one_template_whatever_the_chunking(library: Library, chunk: int) -> None:
    data = b"E0729 05:04:30.527725 14093 transfer_metadata.cpp:74] Error from etcd client, error: 14\n" * 3
    result = scan_stream(io.BytesIO(data), "x.log", AnchorIndex.build(library), chunk_bytes=chunk)
    found = [e for e in result.events if e.unrecognised]
    assert [e.line for e in found] == [1, 2, 3]
    assert found[0].repeats == 3 and found[0].template == "Error from etcd client, error: <num>"


GLOG_WITHOUT_ERROR_WORDS = [
    "E0729 05:04:30.527725 14093 transfer_metadata.cpp:512] 192.168.0.3:12001 returns 404",
    "[prefill] E0729 05:04:31.527725 14093 rdma_transport.cpp:389] Device 0 is not active",
    "prefill_n1.log:7:E0729 05:04:32.527725 14093 worker_pool.cpp:245] Cannot allocate endpoint: 10.0.0.7:16324@mlx5_2",
    "(EngineCore_DP0 pid=48211) E0729 05:04:33.527725 14093 rdma_context.cpp:319] Context is not active: mlx5_9",
    "E20260729 05:04:34.527725 14093 transfer_metadata.cpp:512] segment 192.168.0.3:12001 not found",
    "F1222 05:04:35.527725 14093 rdma_context.cpp:212] Unable to register memory region 0x7f2a80000000",
]


@pytest.mark.parametrize("matcher", accel.MATCHERS)
def test_a_glog_error_line_is_an_error_by_its_level_letter_alone(library: Library, matcher: str) -> None:
    """No error word in these lines: the glog `E`/`F` letter, behind any prefix, makes each one an
    error line of the layer (found by the same search pass; every matcher finds the same lines)."""
    if matcher != accel.PURE and accel.installed(matcher) != matcher:
        pytest.skip(f"{matcher} is not installed")
    quiet = "I0729 05:04:36.527725 14093 transfer_metadata.cpp:512] 192.168.0.3:12001 returns 200"
    data = ("\n".join([*GLOG_WITHOUT_ERROR_WORDS, quiet, "hash=AE0729 05:04:37.1 1 x.cpp:1] no"]) + "\n").encode()
    result = scan_stream(io.BytesIO(data), "x.log", AnchorIndex.build(library, matcher))
    found = sorted((e.line, e.pattern, e.severity.value) for e in result.events if e.unrecognised)
    assert found == [(line, "glog-error", "error") for line in range(1, 6)] + [(6, "glog-fatal", "critical")]


GLOG_PREFIX = re.compile(rb"^(?:\S*?[\]:)\s-])?[IW]\d{4}(?:\d{4})? \d\d:\d\d:\d\d\.\d+\s+\d+\s+[\w.-]+:\d+\] ")


def test_a_glog_info_prefix_holds_no_search_key(library: Library) -> None:
    """Mooncake logs are mostly glog I lines: a search key in the glog prefix itself (`.cpp:` was
    one) makes every line a hit that the error layer reads, ~200x the scan's cost. Only a word of
    the message may make such a line a hit."""
    keys = [anchor for anchor, _ in AnchorIndex.build(library, accel.PURE).by_anchor]
    fixtures = Path(__file__).resolve().parent.parent / "fixtures"
    prefixes = [
        found.group(0)
        for path in fixtures.rglob("*.log")
        for line in path.read_bytes().splitlines()
        if (found := GLOG_PREFIX.match(line))
    ]
    assert len(prefixes) > 50
    assert [prefix for prefix in prefixes if any(key in prefix for key in keys)] == []


def test_an_uncaught_cpp_exception_is_the_crash_though_it_names_no_error(tmp_path: Path, library: Library) -> None:
    """The C++ runtime's `terminate called after throwing ...` and its `what():` line hold no error
    word: the first is the crash (its type and what() text are the exception the summary names),
    and the what() line is still quoted, not 'no failure seen'."""
    lines = [
        "terminate called after throwing an instance of 'std::runtime_error'",
        "  what():  Failed to register memory",
        "Fatal Python error: Aborted",
    ]
    document = _report_of(tmp_path, library, {"decode_n1.log": "\n".join(lines) + "\n"})
    unrecognised = document["unrecognised"]
    assert isinstance(unrecognised, list)
    assert [item["first"]["line"] for item in unrecognised] == [2]
    verdict = document["verdict"]
    assert isinstance(verdict, dict) and verdict["id"] == "scheduler-crash"
    assert "std::runtime_error: Failed to register memory" in verdict["summary"]


NOISE = [
    "[2026-07-02 10:15:30 DP0 TP0 EP0] Decode batch. #running-req: 3, #token: 3342, token usage: 0.01",
    '[2026-07-02 10:15:31] INFO:     127.0.0.1:51234 - "GET /health HTTP/1.1" 200 OK',
    "[2026-07-02 10:15:32 TP1] Load weight end. type=Qwen3ForCausalLM, dtype=torch.bfloat16, avail mem=13.91 GB",
]


def _error_lines(library: Library) -> list[str]:
    """Every example the error layer's own markers call an error (not warnings or quiet lines)."""
    assert library.errors is not None
    return [line for m in library.errors.markers if m.level in ("error", "critical") for line in m.match]


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_no_report_says_no_failure_when_an_error_line_exists(library: Library, data: st.DataObject) -> None:
    """Whatever the noise around it, an error-level line is never called absent: the report is not
    'no failure seen', and an inconclusive one quotes an error line in its summary."""
    error = data.draw(st.sampled_from(_error_lines(library)))
    noise = data.draw(st.lists(st.sampled_from(NOISE), max_size=6))
    position = data.draw(st.integers(min_value=0, max_value=len(noise)))
    lines = [*noise[:position], error, *noise[position:]]
    with tempfile.TemporaryDirectory() as tmp:
        # Named for the server that wrote it: a lone error line whatever its shape (a marker's
        # example) is then read as that server's log, never set aside as not a log (logshape.py).
        path = Path(tmp) / "decode.log"
        path.write_text("\n".join(lines) + "\n")
        report = run([str(path)], library)
    summary = report.verdict.summary
    assert report.verdict.id != "no-failure-seen", summary
    assert not summary.startswith(("No failure", "No known failure")) or report.unrecognised, summary
    if report.verdict.id == "inconclusive":
        shown = [summary, *(e.text for e in report.chain)]
        # The start of the message as the catalogue reads it: a quote leaves out stamps and prefixes,
        # and clips a long line (QUOTE characters), so its end may not be shown.
        head = message_of(error).strip()[:20]
        assert any(head in text for text in shown), summary


def test_suggested_skeletons_pass_patterns_check(tmp_path: Path, library: Library) -> None:
    """Each top unrecognised error gets a pattern file that loads and passes its own examples."""
    from typer.testing import CliRunner

    from pdlogdoctor.cli.commands import app
    from pdlogdoctor.library.load import load_library
    from pdlogdoctor.library.patterns import check_examples

    log = tmp_path / "prefill_n1.log"
    log.write_text(
        "E20260521 08:44:16.320911   412 transfer_metadata.cpp:74] Error from etcd client, "
        "etcd uri: 192.168.30.5:2379 error: 14 message: connections to all backends failing\n"
        "E20260521 08:44:16.320977   412 transfer_metadata.cpp:426] Failed to insert rpc meta of 192.168.30.11:16702\n"
    )
    out = tmp_path / "suggested"
    result = CliRunner().invoke(app, ["patterns", "suggest", "--output-dir", str(out), str(log)])
    assert result.exit_code == 0, result.output
    written = sorted(out.glob("*.toml"))
    assert len(written) == 2
    for path in written:  # what a person does with a skeleton: say what the line means
        path.write_text(path.read_text().replace(SKELETON_TITLE, "Mooncake lost its metadata service"))
    extended = load_library([out])
    for path in written:
        pattern = extended.pattern(path.stem)
        assert check_examples(pattern) == []
        assert pattern.examples.match[0] in log.read_text()
    again = CliRunner().invoke(app, ["patterns", "suggest", "--output-dir", str(out), str(log)])
    assert "not overwritten" in again.output


def test_an_unedited_skeleton_is_refused_by_patterns_check_and_by_analyze(tmp_path: Path) -> None:
    """A skeleton written by `patterns suggest` still says TODO where its title goes: check refuses it
    (exit 2, naming the file and the key), and so does a run that loads it, so an unfinished pattern
    never names lines in a report (nor changes its fingerprint)."""
    from typer.testing import CliRunner

    from pdlogdoctor.cli.commands import app

    log = tmp_path / "bench.log"
    log.write_text("curl: (22) The requested URL returned error: 502\n")  # the seed's bench.log:6
    out = tmp_path / "suggested"
    assert CliRunner().invoke(app, ["patterns", "suggest", "--output-dir", str(out), str(log)]).exit_code == 0
    (skeleton,) = out.glob("*.toml")
    check = CliRunner().invoke(app, ["patterns", "check", "--patterns", str(out)])
    assert check.exit_code == 2, check.output
    assert f"{skeleton}: title" in check.output and "TODO" in check.output
    analysed = CliRunner().invoke(app, ["analyze", "-q", "--patterns", str(out), str(log)])
    assert analysed.exit_code == 2 and "title" in analysed.output
    text = skeleton.read_text()
    assert "no_match = []" in text  # the log holds no other line: none is made up (was `curl: (22) xxx 502`)
    near = "curl: (7) Failed to connect to 10.24.3.18 port 8000: Connection refused"  # curl's CURLE_COULDNT_CONNECT
    text = text.replace(SKELETON_TITLE, "curl saw an HTTP error status").replace(
        "no_match = []", f"no_match = [{near!r}]"
    )
    skeleton.write_text(text)
    assert CliRunner().invoke(app, ["patterns", "check", "--patterns", str(out)]).exit_code == 0


@pytest.mark.parametrize("title", ["TODO: what this line means", "TODO", "todo - fill in", "FIXME: later", "XXX"])
def test_a_placeholder_title_is_refused(title: str) -> None:
    data = {"id": "p", "title": title, "severity": "error", "kind": "symptom", "anchors": ["boom"],
            "regex": "boom", "explain": "x", "examples": {"match": ["boom"], "no_match": ["bam"]}}  # fmt: skip
    with pytest.raises(PatternError, match="title"):
        parse_pattern(data, "p.toml", "p", "")


@pytest.mark.parametrize("title", ["Todoist sync failed", "Mooncake lost its metadata service"])
def test_a_real_title_that_starts_like_a_placeholder_loads(title: str) -> None:
    data = {"id": "p", "title": title, "severity": "error", "kind": "symptom", "anchors": ["boom"],
            "regex": "boom", "explain": "x", "examples": {"match": ["boom"], "no_match": ["bam"]}}  # fmt: skip
    assert parse_pattern(data, "p.toml", "p", "").title == title


def test_a_glog_warning_that_says_something_failed_is_never_nothing_failed(tmp_path: Path, library: Library) -> None:
    """A W line whose words say an operation failed makes the report inconclusive and quotes it; a W
    line that fails nothing (Mooncake finding no RDMA device) leaves 'no failure seen'."""
    failed = "W0212 17:05:41.302871  9921 ucx_utils.cpp:62] Unexpected UCX error: Connection reset by remote peer"
    (tmp_path / "decode.log").write_text(f"{failed}\n{failed.replace('17:05:41.302871', '17:05:41.302990')}\n")
    report = run([str(tmp_path / "decode.log")], library)
    assert report.verdict.id == "inconclusive"
    assert "Unexpected UCX error: Connection reset by remote peer" in report.verdict.summary
    quiet = tmp_path / "other" / "prefill.log"
    quiet.parent.mkdir()
    quiet.write_text(
        "W20250516 09:00:52.240088 45697 topology.cpp:55] **No RDMA devices found, check your device installation**\n"
    )
    assert run([str(quiet)], library).verdict.id == "no-failure-seen"


# Lines no pattern names, in the blind testers' cases (tests/data/blind-*) and their look-alikes.


def test_a_summary_that_reports_zero_errors_is_not_an_error(case_reports: Mapping[Path, Report]) -> None:
    report = case_report(case_reports, "tests/data/blind-round4/12-")
    assert report.verdict.id == "healthy"
    assert not report.unrecognised, [u.template for u in report.unrecognised]
    assert "errors no pattern explains" not in report.verdict.summary


def test_an_argparse_rejection_is_quoted_by_its_error_line(case_reports: Mapping[Path, Report]) -> None:
    summary = case_report(case_reports, "tests/data/blind-round4/19-").verdict.summary
    assert "launch_router.py: error: unrecognized arguments: --disable-circuit-breaker" in summary
    assert "usage:" not in summary


def test_a_wrapped_usage_and_a_zero_error_summary_are_not_errors(bundle_reports: Mapping[Path, Report]) -> None:
    """argparse's usage wrapped over indented lines, and a health summary with `"errors": 0`, are no
    error lines; argparse's error line is the only unrecognised one."""
    report = bundle_reports[FIXTURES / "router-argparse-invalid-choice"]
    assert [t.first.text for t in report.unrecognised] == [
        "launch_router.py: error: argument --policy: invalid choice: 'least_load' "
        "(choose from 'random', 'round_robin', 'cache_aware', 'power_of_two')"
    ]


def test_a_vllm_benchmark_result_is_end_to_end_evidence(case_reports: Mapping[Path, Report]) -> None:
    report = case_report(case_reports, "tests/data/blind-round4/15-")
    assert report.verdict.id == "healthy" and report.verdict.confidence >= 0.8
    assert "No end-to-end result" not in report.verdict.summary


def test_an_inconclusive_report_leads_with_its_first_failure_not_the_runners_closing_error(
    case_reports: Mapping[Path, Report],
) -> None:
    """ow15: the disk filled after serving (no start-up failure, so no named verdict); the summary
    quotes that ENOSPC line first, and the runner's later '##[error]Process completed with exit code 1.'
    (a failed gate since issue 22.2) is named after it, not as the lead: earliest first."""
    report = case_report(case_reports, "tests/data/blind-openworld/ow15-dsv4pro-joblog")
    assert report.verdict.id == "inconclusive"
    summary = report.verdict.summary
    assert "No space left on device" in summary
    assert summary.index("No space left on device") < summary.index("Then a gate failed: ")
    assert summary.index("Then a gate failed: ") < summary.index("##[error]Process completed")


@pytest.mark.parametrize(
    ("case", "stopping", "consequence"),
    [
        # A pattern names the cancel since session 28 (ci-cancelled): the router's errors after it are its shutdown.
        (
            "tests/data/blind-round5-bundles/16-",
            "CANCELLED AT 2026-03-19T06:41:02 DUE TO TIME LIMIT",
            "are the shutdown",
        ),
        # The engine's death is a crash the library names (issue 22, vllm harvest): the Xid leads it.
        ("tests/data/blind-round8-bundles/21-", "GPU has fallen off the bus", "died while serving"),
    ],
)
def test_the_line_that_stopped_the_run_leads_though_its_consequence_came_in_the_same_moment(
    case_reports: Mapping[Path, Report], case: str, stopping: str, consequence: str
) -> None:
    """Slurm's time-limit cancel and the GPU driver's Xid are errors by their source: logged in the
    same second as the first symptom they cause (a router's 502, a server's 500), they are quoted
    first, before the failures the library knows (outcomes item 3)."""
    summary = case_report(case_reports, case).verdict.summary
    assert stopping in summary and consequence in summary
    assert summary.index(stopping) < summary.index(consequence)


def test_a_line_by_source_well_after_the_first_symptom_does_not_lead(tmp_path: Path, library: Library) -> None:
    """Look-alike: the same Slurm cancel five minutes after the router's 502s did not cause them."""
    router = (
        "2026-03-19 06:41:02 ERROR http_request{method=POST uri=/generate version=HTTP/1.1}: "
        "sglang_router_rs::routers::http::pd_router: src/routers/http/pd_router.rs:611: PD decode transport error: "
        "error sending request for url (http://10.235.10.4:30001/generate)\n"
    )
    cancel = (
        "2026-03-19T06:46:02.0000000Z slurmstepd: error: *** JOB 88517 ON mi355x-r03 CANCELLED AT "
        "2026-03-19T06:46:02 DUE TO TIME LIMIT ***\n"
    )
    document = _report_of(tmp_path, library, {"router.log": router, "gha-step-launch.log": cancel})
    verdict = document["verdict"]
    assert isinstance(verdict, dict) and verdict["id"] == "inconclusive"
    summary = str(verdict["summary"])
    assert "CANCELLED AT" not in summary.split("Router: PD")[0]


def test_a_thread_dump_is_failure_evidence_but_not_what_a_crash_died_of(case_reports: Mapping[Path, Report]) -> None:
    """Python's faulthandler dump (even interleaved past reading, in a CRI log) is failure evidence:
    never `no-failure-seen`; under a `Fatal Python error:` it is that crash's dump, not its cause."""
    garbled = case_report(case_reports, "tests/data/blind-round5-excerpts/19-").verdict
    assert garbled.id == "inconclusive"
    assert "Thread 0x/sgl-workspace/sglang/python/sglang/srt/disaggregation/mooncake/conn.py791" in garbled.summary
    crashed = case_report(case_reports, "fixtures/hip-error-in-other-server-only").verdict
    assert crashed.id == "scheduler-init-crash" and "Thread 0x" not in crashed.summary


def test_gdb_thread_lines_are_no_thread_dump(tmp_path: Path, library: Library) -> None:
    """Look-alike: gdb's `[New Thread 0x... (LWP n)]` lines hold `Thread 0x` but dump nothing."""
    lines = "[New Thread 0x7ffff5bff640 (LWP 4242)]\n[Thread 0x7ffff5bff640 (LWP 4242) exited]\n"
    document = _report_of(tmp_path, library, {"server.log": lines})
    verdict = document["verdict"]
    assert isinstance(verdict, dict) and verdict["id"] == "no-failure-seen"


C10D_FAILED = (
    "[W330 07:45:12.100097531 socket.cpp:764] [c10d] The client socket has failed to connect to [localhost]:45117 "
    "(errno: 99 - Cannot assign requested address)."
)
C10D_CONNECTED = "[I socket.cpp:787] [c10d] The client socket has connected to [localhost]:45117 on [localhost]:46672."


@pytest.mark.parametrize(
    ("lines", "verdict"),
    [
        ([C10D_FAILED, C10D_CONNECTED], "no-failure-seen"),  # the retry connected
        ([C10D_FAILED], "inconclusive"),  # strict: no later success line, the warning stays
        ([C10D_CONNECTED, C10D_FAILED], "inconclusive"),  # a success before the warning overcame nothing
    ],
)
def test_a_warning_a_later_line_of_its_file_shows_overcome_is_no_failure(
    tmp_path: Path, library: Library, lines: list[str], verdict: str
) -> None:
    """PyTorch's TCPStore retries until its server listens (outcomes item 2; the NCCL FastSocket
    case is tests/data/blind-round6-excerpts/23): a failed attempt followed, in the same file, by
    c10d's `The client socket has connected to` does not make a report inconclusive on its own."""
    document = _report_of(tmp_path, library, {"worker.log": "\n".join(lines) + "\n"})
    found = document["verdict"]
    assert isinstance(found, dict) and found["id"] == verdict


def test_a_success_line_in_another_file_overcomes_nothing(tmp_path: Path, library: Library) -> None:
    files = {"rank0.log": C10D_FAILED + "\n", "rank1.log": C10D_CONNECTED + "\n"}
    document = _report_of(tmp_path, library, files)
    found = document["verdict"]
    assert isinstance(found, dict) and found["id"] == "inconclusive"
