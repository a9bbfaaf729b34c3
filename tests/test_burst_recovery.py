"""A burst of failures the servers went on past without a restart (issue 22.3): one transfer's
completion errors fail one request, the router and the decode go on answering, the checks pass
(reason/incidents.served_again). Beside the look-alikes that must stay failures: the failures come
back later, only the prefill goes on (it answers its half whether or not the decode got the KV), a
benchmark short of the requests its progress bar counted (reason/planned.py)."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

from pdlogdoctor.cli.behaviour import exit_code_for
from pdlogdoctor.library.patterns import Library
from pdlogdoctor.pipeline import run

DATA = Path(__file__).parent / "data"
# MI300X, Mooncake over ionic NICs: at 14:22:25 (prefill clock) three slices fail with `transport
# retry counter exceeded`, one request gets a 500 through the router; the router and the decode
# answer 200 for the next minute and a half; probe ok, GSM8K 0.957 above 0.91, the sweep completes.
TRANSIENT = DATA / "blind-round20-bundles-a" / "04-mi300x-mooncake-transient-cqe-recovered"
ROUTER_500 = (
    '2026-08-02 06:23:50 ERROR http_request{method=POST uri=/generate version=HTTP/1.1 module="smg" '
    'request_id="chatcmpl-Zq1"}: smg::routers::http::pd_router: src/routers/http/pd_router.rs:590: '
    "Decode server returned error status decode_url=http://10.194.30.27:30000 status=500 Internal Server Error"
)


def _copy(case: Path, target: Path) -> Path:
    shutil.copytree(case, target, ignore=shutil.ignore_patterns("expected.toml"))
    return target


def _cut_after(path: Path, stamp: re.Pattern[str]) -> None:
    """`path` without its lines whose time is past the burst (the lines before it stay)."""
    kept = [line for line in path.read_text().splitlines() if not stamp.search(line)]
    path.write_text("\n".join(kept) + "\n")


def test_a_burst_the_router_and_decode_answered_past_is_survived(library: Library) -> None:
    report = run([str(TRANSIENT)], library)
    assert report.verdict.id == "healthy"
    assert int(exit_code_for(report)) == 0
    note = next(note for note in report.notes if note.startswith("a failure the run survived"))
    assert "prefill_n26.log:95" in note and "transport retry counter exceeded" in note
    assert "one burst" in report.verdict.summary and "router_utc.log" in report.verdict.summary
    assert "rdma-link-failure" in {a.id for a in report.alternatives}


def test_a_failure_that_comes_back_after_the_answers_stays_the_cause(tmp_path: Path, library: Library) -> None:
    bundle = _copy(TRANSIENT, tmp_path / "run")
    router = bundle / "router_utc.log"
    router.write_text(router.read_text() + ROUTER_500 + "\n")
    report = run([str(bundle)], library)
    assert report.verdict.id == "rdma-link-failure"
    assert int(exit_code_for(report)) == 1


def test_only_the_prefill_going_on_is_no_proof_the_clients_were_answered(tmp_path: Path, library: Library) -> None:
    bundle = _copy(TRANSIENT, tmp_path / "run")
    # The router's and the decode's lines after the burst (06:22:27 on, router clock; 14:22:27 on,
    # decode clock) are taken away: only the prefill's own 200s follow the failure.
    _cut_after(bundle / "router_utc.log", re.compile(r"^2026-08-02 06:2(?:2:(?:2[7-9]|[3-5]\d)|[3-9]:)"))
    _cut_after(bundle / "decode_n27.log", re.compile(r"^\[2026-08-02 14:2(?:2:(?:2[7-9]|[3-5]\d)|[3-9]:)"))
    report = run([str(bundle)], library)
    assert report.verdict.id == "rdma-link-failure"


def test_failures_spread_over_minutes_are_no_burst(tmp_path: Path, library: Library) -> None:
    bundle = _copy(TRANSIENT, tmp_path / "run")
    prefill = bundle / "prefill_n26.log"
    # The third slice failure two minutes after the first: the failure kept coming back.
    text = prefill.read_text().replace("E0802 14:22:25.507618", "E0802 14:24:25.507618", 1)
    lines = text.splitlines()
    moved = next(i for i, line in enumerate(lines) if line.startswith("E0802 14:24:25"))
    lines.append(lines.pop(moved))
    prefill.write_text("\n".join(lines) + "\n")
    report = run([str(bundle)], library)
    assert report.verdict.id != "healthy"


def test_a_benchmark_short_of_its_progress_bar_failed(tmp_path: Path, library: Library) -> None:
    bundle = _copy(TRANSIENT, tmp_path / "run")
    bench = bundle / "bench.log"
    text = bench.read_text()
    # The concurrency-64 run drew its bar over 640 requests; 219 came back.
    text = text.replace(
        "=== concurrency=64 ===\n", "=== concurrency=64 ===\n100%|██████████| 640/640 [06:52<00:00, 1.55it/s]\n", 1
    )
    text = text.replace("Successful requests:                     512", "Successful requests:                     219")
    bench.write_text(text)
    report = run([str(bundle)], library)
    assert report.verdict.id == "rdma-link-failure"


def test_an_accuracy_evals_bar_is_not_the_next_benchmarks_plan(tmp_path: Path, library: Library) -> None:
    bundle = _copy(TRANSIENT, tmp_path / "run")
    bench = bundle / "bench.log"
    # The GSM8K client's own bar (1319 questions) above its accuracy, then a benchmark that sent 64:
    # the bar counted questions, not that benchmark's requests.
    bar = "100%|██████████| 1319/1319 [03:58<00:00,  5.53it/s]\nAccuracy: 0.957\n"
    text = bench.read_text().replace("[gsm8k] accuracy=0.957", bar + "[gsm8k] accuracy=0.957", 1)
    bench.write_text(text)
    assert run([str(bundle)], library).verdict.id == "healthy"
