"""A router's errors before its workers were activated are its start-up, not a lost worker (issue 22).

sgl-model-gateway serves from its first second (`Router ready | workers: []`) and registers its
workers in the background; a client that calls it early gets `Failed to select PD pair error=No
available prefill workers` until `Activated 1 worker(s) (marked as healthy)`. Those lines are not a
failure (pattern router-workers-activated clears them: router-no-workers' `cleared_by`), and the
report says it set them aside, in one note for the kind. Look-alikes that keep them: the same error
after the activation, and a log with no activation at all.
"""

from __future__ import annotations

from pathlib import Path

from pdlogdoctor.model import Report
from pdlogdoctor.pipeline import run

from .conftest import shipped_library

LIBRARY = shipped_library()
SRC = "/sgl-workspace/sglang/sgl-model-gateway/src"
READY = f"2026-03-11 05:01:58  INFO smg::server: {SRC}/server.rs:985: Router ready | workers: []"
NO_PREFILL = (
    '{t} ERROR http_request{{method=POST uri=/v1/chat/completions version=HTTP/1.1 module="smg" '
    'request_id="chatcmpl-{n}"}}: smg::routers::http::pd_router: '
    f"{SRC}/routers/http/pd_router.rs:172: Failed to select PD pair error=No available prefill workers "
    "(all circuits open or unhealthy)"
)
ACTIVATED = (
    "{t}  INFO smg::core::steps::worker::shared::activate: "
    f"{SRC}/core/steps/worker/shared/activate.rs:31: Activated 1 worker(s) (marked as healthy)"
)
DECODE = [
    "[2026-03-11 05:09:10] The server is fired up and ready to roll!",
    '[2026-03-11 05:12:00] INFO:     10.30.2.9:55349 - "POST /v1/chat/completions HTTP/1.1" 200 OK',
]


def _analysed(tmp_path: Path, router: list[str]) -> Report:
    (tmp_path / "router.log").write_text("".join(f"{line}\n" for line in router))
    (tmp_path / "decode.log").write_text("".join(f"{line}\n" for line in DECODE))
    return run([str(tmp_path)], LIBRARY)


def _no_prefill(*times: str) -> list[str]:
    return [NO_PREFILL.format(t=t, n=index) for index, t in enumerate(times)]


def test_errors_before_the_workers_were_activated_are_start_up(tmp_path: Path) -> None:
    router = [READY, *_no_prefill("2026-03-11 05:02:40", "2026-03-11 05:02:45", "2026-03-11 05:02:53")]
    report = _analysed(tmp_path, [*router, ACTIVATED.format(t="2026-03-11 05:09:12")])
    assert report.verdict.id == "healthy", report.verdict.summary
    assert all(incident.verdict.id != "router-no-workers" for incident in report.other_incidents)
    notes = [n for n in report.notes if "No available prefill workers" in n]
    assert len(notes) == 1, report.notes  # one note for the three lines
    assert "and 2 more such lines are not counted as failures" in notes[0]
    assert "Activated 1 worker(s) (marked as healthy)" in notes[0]


def test_the_same_error_after_the_activation_is_a_failure(tmp_path: Path) -> None:
    router = [
        READY,
        ACTIVATED.format(t="2026-03-11 05:09:12"),
        *_no_prefill("2026-03-11 05:41:07", "2026-03-11 05:41:09"),
    ]
    report = _analysed(tmp_path, router)
    assert report.verdict.id == "router-no-workers", report.verdict.summary
    assert not any("No available prefill workers" in n for n in report.notes)


def test_without_an_activation_the_errors_stand(tmp_path: Path) -> None:
    report = _analysed(tmp_path, [READY, *_no_prefill("2026-03-11 05:02:40", "2026-03-11 05:02:45")])
    assert report.verdict.id == "router-no-workers", report.verdict.summary


# The router's answer to the same request (middleware.rs), as round 35's bundles-b/07 holds it.
ANSWERED_503 = (
    '{t} ERROR http_request{{method=POST uri=/v1/chat/completions version=HTTP/1.1 module="smg" '
    'request_id="chatcmpl-{n}" status_code=503 latency=373}}: smg::response: '
    f"{SRC}/middleware.rs:349: request failed with server error"
)


def test_the_answer_to_a_request_placed_before_the_activation_is_start_up_too(tmp_path: Path) -> None:
    early = [NO_PREFILL.format(t="2026-03-11 05:02:40", n=0), ANSWERED_503.format(t="2026-03-11 05:02:40", n=0)]
    report = _analysed(tmp_path, [READY, *early, ACTIVATED.format(t="2026-03-11 05:09:12")])
    assert report.verdict.id == "healthy", report.verdict.summary
    assert any("request failed with server error" in note for note in report.notes), report.notes


def test_an_answer_to_another_request_stands(tmp_path: Path) -> None:
    # a 503 for a request whose own line was not cleared (another id) is a failure of its own
    early = [NO_PREFILL.format(t="2026-03-11 05:02:40", n=0), ANSWERED_503.format(t="2026-03-11 05:02:41", n=7)]
    report = _analysed(tmp_path, [READY, *early, ACTIVATED.format(t="2026-03-11 05:09:12")])
    assert report.verdict.id != "healthy", report.verdict.summary
