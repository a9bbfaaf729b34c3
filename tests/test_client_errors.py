"""A request the server refused for what it asked is the client's error: a proxy's 5xx for it is that
refusal passed on, not a failure of the deployment (issue 22: a run that served is not a failed run).

vLLM refuses a prompt longer than the model's context before it reaches the engine (`ValueError:
This model's maximum context length is N tokens. However, your request has M input tokens`, a 400);
the toy P/D proxy answers that 400 with a 500 of its own. Look-alikes: more error answers than
refused requests (something else failed too), an error answer with no refusal at all, and a refusal
in a run that shows no serving.
"""

from __future__ import annotations

from pathlib import Path

from pdlogdoctor.cli.behaviour import exit_code_for
from pdlogdoctor.model import Report
from pdlogdoctor.pipeline import run

from .conftest import shipped_library

LIBRARY = shipped_library()
REFUSED = (
    "prefill-1  | (APIServer pid=1) ERROR 10-21 14:06:02 [serving_completion.py:153] ValueError: This model's "
    "maximum context length is 32768 tokens. However, your request has 41877 input tokens. Please reduce the "
    "length of the input messages."
)
PROXY_500 = 'proxy-1    | INFO:     172.20.0.1:41562 - "POST /v1/completions HTTP/1.1" 500 Internal Server Error'
BENCH = [
    "============ Serving Benchmark Result ============",
    "Successful requests:                     1000      ",
    "Benchmark duration (s):                  304.77    ",
    "Output token throughput (tok/s):         839.98    ",
]


def _analysed(tmp_path: Path, server: list[str], proxy: list[str], bench: list[str]) -> Report:
    for name, lines in (("compose-logs.txt", server), ("proxy-errors.txt", proxy), ("bench.txt", bench)):
        if lines:
            (tmp_path / name).write_text("".join(f"{line}\n" for line in lines))
    return run([str(tmp_path)], LIBRARY)


def test_a_proxy_error_for_a_refused_request_is_the_clients(tmp_path: Path) -> None:
    report = _analysed(tmp_path, [REFUSED], [PROXY_500], BENCH)
    assert report.verdict.id == "healthy", report.verdict.summary
    assert int(exit_code_for(report)) == 0
    assert "maximum context length is 32768 tokens" in report.verdict.summary
    assert "a client's error, passed on" in report.verdict.summary


def test_more_error_answers_than_refusals_is_no_clients_error(tmp_path: Path) -> None:
    second = PROXY_500.replace("41562", "41598")
    report = _analysed(tmp_path, [REFUSED], [PROXY_500, second], BENCH)
    assert report.verdict.id != "healthy", report.verdict.summary
    assert int(exit_code_for(report)) != 0


def test_an_error_answer_without_a_refusal_is_a_failure(tmp_path: Path) -> None:
    report = _analysed(tmp_path, [], [PROXY_500], BENCH)
    assert report.verdict.id != "healthy", report.verdict.summary


def test_a_refusal_alone_shows_no_serving(tmp_path: Path) -> None:
    report = _analysed(tmp_path, [REFUSED], [], [])
    assert report.verdict.id != "healthy", report.verdict.summary
    assert "maximum context length" not in " ".join(e.text for e in report.chain if e.failing)


# ---------------------------------------------------------------- refusals and nothing served

ACCESS_400 = '(APIServer pid=873422) INFO:     127.0.0.1:{port} - "POST /v1/completions HTTP/1.1" 400 Bad Request'
ACCESS_404 = '[2026-07-02 10:17:02] INFO:     10.2.0.7:{port} - "POST /v1/chat/completions HTTP/1.1" 404 Not Found'
ACCESS_200 = '(APIServer pid=873422) INFO:     127.0.0.1:{port} - "POST /v1/completions HTTP/1.1" 200 OK'


def _server_only(tmp_path: Path, lines: list[str]) -> Report:
    (tmp_path / "vllm-serve.log").write_text("".join(f"{line}\n" for line in lines))
    return run([str(tmp_path)], LIBRARY)


def test_every_request_refused_is_no_run_that_served(tmp_path: Path) -> None:
    """vllm-project/vllm#26834: every benchmark request answered 400 (a prompt of zero tokens): the
    server failed nothing, but nothing was served either; 'no failure seen' would hide it."""
    refused = [ACCESS_400.format(port=60058 + i) for i in range(4)]
    report = _server_only(tmp_path, refused)
    assert report.verdict.id == "inconclusive", report.verdict.summary
    assert int(exit_code_for(report)) == 3
    assert '"POST /v1/completions HTTP/1.1" 400 Bad Request' in report.verdict.summary
    assert "all 4 requests" in report.verdict.summary
    assert report.chain and "400 Bad Request" in report.chain[0].text
    assert "client's" in report.advice


def test_a_wrong_model_name_refused_with_404_is_quoted(tmp_path: Path) -> None:
    report = _server_only(tmp_path, [ACCESS_404.format(port=41022)])
    assert report.verdict.id == "inconclusive", report.verdict.summary
    assert "404 Not Found" in report.verdict.summary


def test_a_few_refusals_among_answered_requests_are_noise(tmp_path: Path) -> None:
    answered = [ACCESS_200.format(port=50000 + i) for i in range(20)]
    report = _server_only(tmp_path, [*answered[:10], ACCESS_400.format(port=60058), *answered[10:]])
    assert report.verdict.id == "healthy", report.verdict.summary
    assert int(exit_code_for(report)) == 0


def test_a_refused_favicon_or_model_list_is_no_refused_request(tmp_path: Path) -> None:
    lines = [
        'INFO:     10.2.0.7:41022 - "GET /favicon.ico HTTP/1.1" 404 Not Found',
        'INFO:     127.0.0.1:40112 - "GET /v1/models HTTP/1.1" 404 Not Found',
    ]
    report = _server_only(tmp_path, lines)
    assert report.verdict.id == "no-failure-seen", report.verdict.summary
