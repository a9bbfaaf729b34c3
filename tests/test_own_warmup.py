"""A server's own warmup request is not an answer to a client (reason/own_warmup.py).

sglang answers its warmup on `POST /generate`, the route the router sends every client request to
in PD mode. The first such line after each start of a server is its warmup; later ones are
requests it answered: serving proof (a crash after them is a crash while serving, an excerpt of
them a deployment serving). A server that merely answered again after a failure was never down: the
requests that failed in between are that failure's consequences, not an outage it survived.
"""

from __future__ import annotations

from pathlib import Path

from pdlogdoctor.library.patterns import Library
from pdlogdoctor.model import Report

from .conftest import FIXTURES, analysed_lines

SERVER_ARGS = (
    "[2026-07-02 10:14:11] server_args=ServerArgs(model_path='/models/Qwen3-8B', port=30000, "
    "disaggregation_mode='prefill', disaggregation_transfer_backend='mooncake')"
)


def _generate(second: int, port: int) -> str:
    return f'[2026-07-02 10:16:{second:02d}] INFO:     10.0.0.9:{port} - "POST /generate HTTP/1.1" 200 OK'


SEGFAULT = [
    "Fatal Python error: Segmentation fault",
    "",
    "Current thread 0x00007f3a0bfff640 (most recent call first):",
    '  File "/usr/local/lib/python3.10/dist-packages/torch/cuda/streams.py", line 224 in synchronize',
]


def _report(tmp_path: Path, library: Library, lines: list[str]) -> Report:
    return analysed_lines(tmp_path, library, lines, "prefill.log")


def test_answered_generate_requests_show_serving(tmp_path: Path, library: Library) -> None:
    report = _report(tmp_path, library, [_generate(s, 40000 + s) for s in range(1, 6)])
    assert report.verdict.id == "healthy"
    assert "the requests answered" in report.verdict.summary
    # the line standing for them is an answer, not the first line (the warmup's)
    assert report.chain and all(e.pattern == "http-generate-ok" and e.line > 1 for e in report.chain)


def test_the_warmup_alone_shows_no_serving(tmp_path: Path, library: Library) -> None:
    report = _report(tmp_path, library, [SERVER_ARGS, _generate(3, 40000), *SEGFAULT])
    # the start is logged and no client was answered: a crash during start-up, as without the line
    assert report.verdict.id == "scheduler-init-crash"


def test_a_crash_after_answered_requests_is_a_crash_while_serving(tmp_path: Path, library: Library) -> None:
    report = _report(tmp_path, library, [SERVER_ARGS, _generate(3, 40000), _generate(9, 40001), *SEGFAULT])
    assert report.verdict.id == "scheduler-runtime-crash"


def test_each_start_has_its_own_warmup(tmp_path: Path, library: Library) -> None:
    """A restarted server warms up again: after the second start, its one /generate is its warmup."""
    first_life = [SERVER_ARGS, _generate(3, 40000), _generate(9, 40001)]
    second_life = [SERVER_ARGS.replace("10:14:11", "10:20:11"), _generate(30, 40002).replace("10:16", "10:21")]
    report = _report(tmp_path, library, [*first_life, *second_life, *SEGFAULT])
    assert report.verdict.id == "scheduler-init-crash"


def test_answers_after_a_failure_do_not_excuse_the_requests_it_failed(library: Library) -> None:
    """The look-alike of a retried slice error the run survived: the transfer failed a request (500,
    the router's error), then the server answered again: the failure stays the root."""
    from pdlogdoctor.pipeline import run

    for bundle in ("mooncake-slice-retry-then-request-failed", "blind-mc-rdma-retry"):
        report = run([str(FIXTURES / bundle)], library)
        assert report.verdict.id == "rdma-link-failure", bundle
