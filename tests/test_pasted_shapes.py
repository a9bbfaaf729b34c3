"""What people paste, read as any log is (issue 22, items 1, 2 and 6): a traceback cut after its
header, a Rust or Go panic, a structured logger's JSON record whose level says error, a line behind
a tag no component prints (Ray's unnamed `(pid=N, ip=A)`, a quoted paste's `> `). Real lines from
public threads, each mechanism with two components or threads and a look-alike that must not fire.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pdlogdoctor.cli.behaviour import exit_code_for
from pdlogdoctor.library.patterns import Library
from pdlogdoctor.model import Report
from pdlogdoctor.pipeline import run
from pdlogdoctor.scan.collectors import unwrap
from pdlogdoctor.scan.timeline import clean_line


def report_of(tmp_path: Path, library: Library, lines: list[str], name: str = "paste.txt") -> Report:
    path = tmp_path / name
    path.write_text("\n".join(lines) + "\n")
    return run([str(path)], library)


def unexplained(report: Report) -> list[str]:
    return [error.first.text for error in report.unrecognised]


# ray-project/ray#2572: a remote task's traceback as the driver printed it.
RAY_TRACEBACK = ["Traceback (most recent call last):", '  File "<stdin>", line 3, in foo', "Exception: foobar"]
# LMCache/LMCache#2306: vLLM's engine core dies; the paste ends after the first frames.
ENGINE_CORE_CUT = [
    "(EngineCore_DP0 pid=697344) Traceback (most recent call last):",
    '(EngineCore_DP0 pid=697344)   File "/usr/lib/python3.12/multiprocessing/process.py", line 314, in _bootstrap',
    "(EngineCore_DP0 pid=697344)     self.run()",
]


@pytest.mark.parametrize(
    ("lines", "header"),
    [(RAY_TRACEBACK[:2], "Traceback (most recent call last):"), (ENGINE_CORE_CUT, ENGINE_CORE_CUT[0])],
    ids=["ray-2572", "lmcache-2306"],
)
def test_a_traceback_cut_before_its_exception_quotes_its_header(
    tmp_path: Path, library: Library, lines: list[str], header: str
) -> None:
    """Seen failing before: `no-failure-seen`, exit 3, nothing quoted (the header was quiet)."""
    report = report_of(tmp_path, library, lines)
    assert report.verdict.id == "inconclusive"
    assert unexplained(report) == [header]


def test_a_whole_traceback_is_one_error_its_exception_line(tmp_path: Path, library: Library) -> None:
    """The look-alike: with its exception line below, the header is no error of its own."""
    report = report_of(tmp_path, library, RAY_TRACEBACK)
    assert unexplained(report) == ["Exception: foobar"]


@pytest.mark.parametrize(
    "line",
    [
        # ai-dynamo/dynamo#2294; saivert/pwvucontrol#5; ollama/ollama#7153
        "thread 'tokio-runtime-worker' panicked at /workspace/lib/llm/src/http/service/service_v2.rs:116:33:",
        "thread 'main' panicked at src/pwnodeobject.rs:331:67:",
        "panic: runtime error: slice bounds out of range [:340] with capacity 339",
    ],
)
def test_a_panic_is_an_error_line(tmp_path: Path, library: Library, line: str) -> None:
    """Seen failing before on the Rust lines: `no-failure-seen`, nothing quoted."""
    report = report_of(tmp_path, library, [line])
    assert report.verdict.id == "inconclusive" and int(exit_code_for(report)) == 3
    assert unexplained(report) == [line]


def test_rusts_backtrace_note_is_no_panic(tmp_path: Path, library: Library) -> None:
    report = report_of(
        tmp_path, library, ["note: run with `RUST_BACKTRACE=1` environment variable to display a backtrace"]
    )
    assert unexplained(report) == []


# Two Go controllers' zap records at level error whose message holds no error word.
KUEUE = (  # kubernetes-sigs/kueue#2226
    '{"level":"error","ts":"2024-05-17T20:12:46.493819819Z","logger":"visibility-server",'
    '"caller":"visibility/server.go:52","msg":"Unable to apply VisibilityServerOptions","error":"failed to create '
    'listener: failed to listen on 0.0.0.0:8082: listen tcp 0.0.0.0:8082: bind: address already in use",'
    '"stacktrace":"sigs.k8s.io/kueue/pkg/visibility.'
    'CreateAndStartVisibilityServer\\n\\t/workspace/pkg/visibility/server.go:52"}'
)
HYPERSHIFT = (  # an ARO HCP runbook quoting the HyperShift operator (code index id 68799545788)
    '{"level":"error","ts":"2026-07-23T04:40:23Z","msg":"Reconciler error","controller":"nodepool",'
    '"controllerGroup":"hypershift.openshift.io","controllerKind":"NodePool","name":"ykulkarn-np-1",'
    '"error":"failed to delete nodepool: there are still Machines in for NodePool \\"ykulkarn-np-1\\""}'
)
# Look-alikes: records at level info (llm-d/llm-d-router#255, ollama/ollama#4203), `msg` their message.
LLM_D_INFO = (
    '{"level":"info","ts":"2025-07-21T16:54:54Z","logger":"setup","caller":"runner/runner.go:267",'
    '"msg":"Enabling pprof handlers"}'
)
OLLAMA_INFO = (
    '{"function":"launch_slot_with_data","level":"INFO","line":833,"msg":"slot is processing task",'
    '"slot_id":0,"task_id":1054116,"tid":"0x1fbd37ac0","timestamp":1714759585}'
)


def test_a_structured_loggers_record_is_read_by_its_msg_and_level() -> None:
    """Seen failing before: `msg` was no message key (the record was read as its JSON text)."""
    assert unwrap(KUEUE) == (
        "ERROR Unable to apply VisibilityServerOptions: failed to create listener: failed to listen on "
        "0.0.0.0:8082: listen tcp 0.0.0.0:8082: bind: address already in use",
        "2024-05-17T20:12:46.493819819Z",
    )
    assert unwrap(LLM_D_INFO) == ("Enabling pprof handlers", "2025-07-21T16:54:54Z")
    assert unwrap(OLLAMA_INFO) == ("slot is processing task", "2024-05-03T18:06:25.000000Z")


@pytest.mark.parametrize("record", [KUEUE, HYPERSHIFT], ids=["kueue-2226", "hypershift"])
def test_a_record_at_level_error_is_an_error_line(tmp_path: Path, library: Library, record: str) -> None:
    report = report_of(tmp_path, library, [LLM_D_INFO, record, OLLAMA_INFO], "controller.log")
    message = json.loads(record)["msg"]
    # Quoted either as an error no pattern explains or, when a pattern names what it says (kueue's
    # `bind: address already in use`), as the named evidence.
    named = [event.text for event in (*report.roots, *report.chain)]
    assert [text for text in (*unexplained(report), *named) if message in text], (unexplained(report), named)
    assert report.verdict.id not in ("healthy", "no-failure-seen")


def test_records_at_level_info_are_no_error_lines(tmp_path: Path, library: Library) -> None:
    report = report_of(tmp_path, library, [LLM_D_INFO, OLLAMA_INFO], "controller.log")
    assert unexplained(report) == []


# lm-eval's results kept as a script's comments, `# ` before each row: vllm-project/llm-compressor#2844
# (a W4A16 model's gsm8k, merged as healthy) and a weight-compression script's notes (hellaswag on
# Llama-3-8B, original then reconstructed).
COMMENTED_GSM8K = [
    "# |Tasks|Version|     Filter     |n-shot|  Metric   |   |Value|   |Stderr|",
    "# |-----|------:|----------------|-----:|-----------|---|----:|---|-----:|",
    "# |gsm8k|      3|flexible-extract|     5|exact_match|↑  |0.956|±  |0.0065|",
    "# |     |       |strict-match    |     5|exact_match|↑  |0.957|±  |0.0064|",
]
COMMENTED_HELLASWAG = [
    "## hellaswag",
    "# |  Tasks  |Version|Filter|n-shot| Metric |   |Value |   |Stderr|",
    "# |---------|------:|------|-----:|--------|---|-----:|---|-----:|",
    "# |hellaswag|      1|none  |     0|acc     |↑  |0.6017|±  |0.0049|",
    "# |         |       |none  |     0|acc_norm|↑  |0.7907|±  |0.0041|",
]


def _uncommented(lines: list[str]) -> list[str]:
    return [line[2:] if line.startswith("# |") else line for line in lines]


def _seen(report: Report) -> list[tuple[str, int, str]]:
    events = (*report.roots, *report.chain)
    return sorted({(event.pattern, event.line, event.text) for event in events})


@pytest.mark.parametrize("lines", [COMMENTED_GSM8K, COMMENTED_HELLASWAG], ids=["llm-compressor-2844", "hellaswag"])
def test_a_table_behind_comment_markers_reads_as_the_table(tmp_path: Path, library: Library, lines: list[str]) -> None:
    """Seen failing before: the rows behind `# ` were read by no pattern (no-failure-seen, nothing quoted)."""
    commented = report_of(tmp_path, library, lines, "commented.txt")
    plain = report_of(tmp_path, library, _uncommented(lines), "plain.txt")
    assert commented.verdict.id == plain.verdict.id == "healthy"
    assert _seen(commented) == _seen(plain) != []


def test_a_comment_that_is_no_tables_row_keeps_its_start() -> None:
    """The look-alikes: a heading, a shell comment, sglang's `#running-req`, a bar with no row after it."""
    for line in ("## hellaswag", "# export SGLANG_DISAGGREGATION_WAITING_TIMEOUT=600", "#running-req: 3", "# | x"):
        assert clean_line(line) == (line, None)
    assert clean_line(COMMENTED_GSM8K[2]) == (COMMENTED_GSM8K[2][2:], None)


# pytest's explanation of a failed test, the exception behind its `E   ` flag: vLLM's ROCm CI
# (vllm-project/vllm#31631, the exception's traceback indented behind the flag) and a Dynamo test
# (ai-dynamo/dynamo#13974).
PYTEST_FLAGGED = [
    "E                       RuntimeError: NIXL is not available",
    "E   Exception: no endpoints available to route work",
]


@pytest.mark.parametrize("line", PYTEST_FLAGGED, ids=["vllm-31631", "dynamo-13974"])
def test_an_exception_behind_pytests_flag_is_an_error_line(tmp_path: Path, library: Library, line: str) -> None:
    """Seen failing before: `E   RuntimeError: NIXL is not available` was no-failure-seen, exit 3,
    nothing quoted (the exception's class was read only at a line's start)."""
    report = report_of(tmp_path, library, [line], "pytest.log")
    assert report.verdict.id not in ("healthy", "no-failure-seen")
    quoted = [*unexplained(report), *(event.text for event in report.roots)]
    assert [text for text in quoted if line.split("   ")[-1].strip() in text], quoted


def test_a_glog_error_line_keeps_its_letter() -> None:
    """The look-alike: glog's `E0625 08:07:38...` starts with an E and is a line of its own."""
    line = "E0625 08:07:38.858565 1073 model_repository_manager.cc:579] Invalid argument: ensemble 'ensemble'"
    assert clean_line(line) == (line, None)
