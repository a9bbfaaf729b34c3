"""`pdlogdoctor triage`: runs grouped by fingerprint, in log-time order, with flaky/new/gone flags.

34 run directories are built from five fixtures, each night's logs moved to its own date
(2026-08-01 + night), under names that sort in another order than the nights: the groups, their
counts, first and last runs and flags below are worked out by hand from the plan, never from the
code's output. --history keeps runs across invocations in SQLite, idempotently.
"""

from __future__ import annotations

import json
import random
import re
import sqlite3
from pathlib import Path

import pytest

from pdlogdoctor.model.triage import RunRecord
from pdlogdoctor.runs.triage import in_run_order, triage

from .bundle_copy import copy_bundle
from .conftest import FIXTURES
from .test_cli import invoke

SOURCES = {
    "G": "pair-seed-0701-green",  # healthy
    "M": "mori-mr-size-limit-seed",  # mori-mr-size-limit
    "C": "config-mismatch-page-size",  # config-mismatch
    "O": "gpu-oom-not-enough-memory",  # gpu-oom
    "Z": "scheduler-init-crash-zerodiv",  # scheduler-init-crash
    "K": "ci-cancelled-preempted",  # ci-cancelled
}
# night -> what failed (G: green). The last green night is 28.
PLAN = list("GMMGCMGOCGZGGMGGCGGZGGGOGGGGKMKZKM")
DATE = re.compile(r"20\d\d-\d\d-\d\d")


def night_name(night: int) -> str:
    """Names that sort in another order than the nights: night 1 is r037, night 2 r074, night 3 r010."""
    return f"r{night * 37 % 101:03d}"


@pytest.fixture(scope="module")
def nights(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    root = tmp_path_factory.mktemp("nights")
    made = []
    for night, label in enumerate(PLAN, 1):
        date = f"2026-08-{night:02d}" if night <= 31 else f"2026-09-{night - 31:02d}"
        made.append(copy_bundle(FIXTURES / SOURCES[label], root / night_name(night), lambda t, d=date: DATE.sub(d, t)))
    return made


def _triage_json(*args: str) -> dict:  # type: ignore[type-arg]
    code, out, err = invoke("triage", "-f", "json", *args)
    assert code == 0, err
    document: dict = json.loads(out)  # type: ignore[type-arg]
    return document


def test_groups_counts_first_last_and_flags_over_34_runs(nights: list[Path]) -> None:
    shuffled = [str(path) for path in nights]
    random.Random(7).shuffle(shuffled)  # the order given does not matter: the logs' times do
    document = _triage_json("-j", "2", *shuffled)
    assert document["order"] == "log time"
    assert [run["name"] for run in document["runs"]] == [night_name(n) for n in range(1, 35)]
    assert document["last_green"] == night_name(28)
    groups = {group["verdict"]: group for group in document["groups"]}
    expected = {
        # verdict: (nights, flaky, new, gone)
        "mori-mr-size-limit": ([2, 3, 6, 14, 30, 34], True, False, False),
        "ci-cancelled": ([29, 31, 33], False, True, False),
        "scheduler-init-crash": ([11, 20, 32], True, False, False),
        "config-mismatch": ([5, 9, 17], True, False, True),
        "gpu-oom": ([8, 24], True, False, True),
    }
    assert set(groups) == set(expected)
    # most runs first; among equals, the one seen last first
    assert [group["verdict"] for group in document["groups"]] == list(expected)
    for verdict, (runs, flaky, new, gone) in expected.items():
        group = groups[verdict]
        assert group["count"] == len(runs), verdict
        assert group["runs"] == [night_name(n) for n in runs], verdict
        assert (group["first"], group["last"]) == (night_name(runs[0]), night_name(runs[-1])), verdict
        assert group["example"] == night_name(runs[-1]) and group["example_path"].endswith(night_name(runs[-1]))
        assert (group["flaky"], group["new"], group["gone"]) == (flaky, new, gone), verdict
    # one fingerprint per failure: every night of a failure has the same one, whatever its date
    assert len({group["fingerprint"] for group in document["groups"]}) == 5
    mori = groups["mori-mr-size-limit"]
    assert {k["link"] for k in mori["known"]} >= {"https://github.com/sgl-project/sglang/pull/30336"}


def test_text_markdown_and_html_show_the_same_groups(nights: list[Path], tmp_path: Path) -> None:
    runs = [str(path) for path in nights[:8]]  # G M M G C M G O
    code, text, _ = invoke("triage", "-j", "1", *runs)
    assert code == 0
    assert "8 runs (3 green), 3 failures, in log time order; last green run: " + night_name(7) in text
    assert "mori-mr-size-limit x3" in text and "[flaky, gone]" in text  # nights 2 3 6, green 4 and 7
    strips = [line.split(". ", 1)[1] for line in text.splitlines() if re.match(r"\s+\d+\. [xo.-]+$", line)]
    assert strips[0] == "oxxo-xo-"  # the mori failure against every run, oldest first: G M M G C M G O
    code, markdown, _ = invoke("triage", "-f", "markdown", *runs)
    assert "| mori" not in markdown and "`mori-mr-size-limit`" in markdown
    assert "`https://github.com/sgl-project/sglang/pull/30336` (closed unmerged: in no release)" in markdown
    page = tmp_path / "triage.html"
    code, _, _ = invoke("triage", "-o", str(page), *runs)
    html = page.read_text()
    assert code == 0 and html.startswith("<!doctype html>")
    assert "Content-Security-Policy" in html and "<script" not in html and "src=" not in html and "href=" not in html
    assert html.count('<i class="x"') == 3 + 1 + 1  # mori x3, config x1, gpu-oom x1 in the timeline


def test_history_accumulates_runs_added_one_at_a_time(nights: list[Path], tmp_path: Path) -> None:
    history = tmp_path / "triage.sqlite"
    for night in nights[:10]:  # a nightly job: one run per invocation
        code, _, err = invoke("triage", "--history", str(history), "--name", night.name, str(night))
        assert code == 0, err
    document = _triage_json("--history", str(history))
    assert len(document["runs"]) == 10
    assert {g["verdict"]: g["count"] for g in document["groups"]} == {
        "mori-mr-size-limit": 3,
        "config-mismatch": 2,
        "gpu-oom": 1,
    }
    # the same run again (a re-run job) is not counted twice; a new one adds up
    invoke("triage", "--history", str(history), "--name", nights[2].name, str(nights[2]))
    invoke("triage", "--history", str(history), str(nights[10]))
    document = _triage_json("--history", str(history))
    assert len(document["runs"]) == 11
    assert {g["verdict"]: g["count"] for g in document["groups"]}["mori-mr-size-limit"] == 3
    assert "scheduler-init-crash" in {g["verdict"] for g in document["groups"]}


def test_a_history_of_a_newer_schema_is_refused(tmp_path: Path) -> None:
    history = tmp_path / "triage.sqlite"
    with sqlite3.connect(history) as connection:
        connection.execute("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
        connection.execute("INSERT INTO meta VALUES ('schema_version', '99')")
    code, _, err = invoke("triage", "--history", str(history))
    assert code == 2 and "schema version 99 is newer" in err


def test_a_json_report_is_the_same_run_as_its_directory(nights: list[Path], tmp_path: Path) -> None:
    night = nights[1]
    _, out, _ = invoke("analyze", "-f", "json", str(night))
    report = tmp_path / f"{night.name}.json"
    report.write_text(out)
    from_dir, from_json = _triage_json(str(night))["runs"][0], _triage_json(str(report))["runs"][0]
    assert from_json == {**from_dir, "path": str(report)}


def test_shareable_formats_mask_what_the_logs_name(nights: list[Path], tmp_path: Path) -> None:
    named = copy_bundle(nights[1], tmp_path / "decode-10.24.3.18")  # an IP in the run's name
    code, markdown, _ = invoke("triage", "-f", "markdown", str(named))
    assert code == 0 and "10.24.3.18" not in markdown
    code, plain, _ = invoke("triage", "-f", "markdown", "--no-redact", str(named))
    assert "10.24.3.18" in plain


def _run(name: str, time: float | None, verdict: str, fingerprint: str = "") -> RunRecord:
    return RunRecord(
        key=name,
        name=name,
        path=name,
        time=time,
        verdict=verdict,
        title=verdict,
        confidence=0.9,
        fingerprint=fingerprint or f"pdld-{verdict}",
        summary="",
        green=verdict == "healthy",
    )


def test_without_a_time_for_every_run_the_order_is_by_name_numbers_as_numbers() -> None:
    runs = [_run("night-10", None, "gpu-oom"), _run("night-9", 5.0, "healthy"), _run("night-2", 9.0, "gpu-oom")]
    ordered, order = in_run_order(runs)
    assert order == "run name" and [r.name for r in ordered] == ["night-2", "night-9", "night-10"]
    found, _ = triage(runs)
    (group,) = found.groups
    assert (group.first, group.last, group.flaky, group.new) == ("night-2", "night-10", True, False)


def test_no_green_run_means_nothing_is_new_or_gone() -> None:
    found, order = triage([_run("a", 1.0, "gpu-oom"), _run("b", 2.0, "gpu-oom")])
    assert order == "log time" and found.last_green is None
    (group,) = found.groups
    assert (group.count, group.flaky, group.new, group.gone) == (2, False, False, False)


def test_an_unreadable_run_is_listed_not_grouped(tmp_path: Path) -> None:
    empty = tmp_path / "empty-run"
    empty.mkdir()
    (empty / "notes.log").write_text("")
    document = _triage_json(str(empty))
    (run,) = document["runs"]
    assert run["readable"] is False and document["groups"] == []
