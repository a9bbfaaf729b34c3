"""A line another process relays is read as its own (issue 22; round 28's blind excerpts).

- A level a relay states is the relay's: Dynamo's engine worker logs every line its vLLM child
  prints at its own INFO (`INFO dynamo_engine_vllm::worker: VLLM: Failed: ...`); the line inside is
  read behind the relay's tag (formats: dynamo-engine-relay; severity.toml's level-quiet reads the
  line behind the catalogue's tags). Look-alike: a Rust component's own INFO line with an error word.
- A client that printed an OpenAI-compatible server's answer (curl's output through a gateway)
  shows a request served. Look-alike: the server's error object, a model listing.
"""

from __future__ import annotations

from pathlib import Path

from pdlogdoctor.library.patterns import Library
from pdlogdoctor.model import Mark
from pdlogdoctor.pipeline import analyse

RELAYED = (
    "2025-04-23T03:35:43.390Z  INFO dynamo_engine_vllm::worker: VLLM: Failed: "
    "/workspace/csrc/custom_all_reduce.cuh:368 'invalid argument'"
)
# An error word in a line a Rust component writes itself at INFO (the sglang router's health checks,
# a corpus bundle): its level is its own.
OWN_INFO = (
    "2026-02-17 09:12:11  INFO sglang_router_rs::core::worker_manager: src/core/worker_manager.rs:980:   "
    "http://10.20.0.11:30000 - error sending request for url (http://10.20.0.11:30000/health)"
)
CURL = [
    "< HTTP/1.1 200 OK",
    "< server: envoy",
    '{"choices":[{"finish_reason":"length","index":0,"logprobs":null,"prompt_logprobs":null,"stop_reason":null,'
    '"text":" That is my dad. He was a wautdig with a shooting blade on"}],"created":1748547794,'
    '"id":"cmpl-2877e26e-f52","model":"facebook/opt-125m","object":"text_completion",'
    '"usage":{"completion_tokens":16,"prompt_tokens":4,"total_tokens":20}}',
]
ERROR_OBJECT = (
    '{"object":"error","message":"The model `opt` does not exist.","type":"NotFoundError","param":null,"code":404}'
)


def test_a_relayed_line_is_read_behind_the_relays_level(library: Library) -> None:
    assert library.errors is not None
    hit = library.errors.classify(RELAYED)
    assert hit is not None and hit.marker == "error-word"
    assert library.errors.classify(OWN_INFO) is None


def test_a_relayed_failure_leads_the_report(tmp_path: Path, library: Library) -> None:
    (tmp_path / "dynamo-run.log").write_text("\n".join([RELAYED] * 4) + "\n")
    report = analyse([str(tmp_path)], library).report
    assert report.verdict.id == "inconclusive"
    assert "custom_all_reduce.cuh:368 'invalid argument'" in report.verdict.summary
    assert report.unrecognised and report.unrecognised[0].count == 4


def test_a_printed_completion_shows_a_request_served(tmp_path: Path, library: Library) -> None:
    (tmp_path / "terminal.txt").write_text("\n".join(CURL) + "\n")
    analysis = analyse([str(tmp_path)], library)
    answered = library.marked(Mark.ANSWERED)
    assert [e.pattern for e in analysis.events if e.pattern in answered] == ["openai-response-body"]
    assert analysis.report.verdict.id == "healthy"


def test_an_error_object_shows_no_request_served(tmp_path: Path, library: Library) -> None:
    (tmp_path / "terminal.txt").write_text("< HTTP/1.1 404 Not Found\n" + ERROR_OBJECT + "\n")
    report = analyse([str(tmp_path)], library).report
    assert report.verdict.id != "healthy"
