"""Clock offsets: measured from near-simultaneous pairs, corrected, and said in plain words."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from pdlogdoctor.cli import app
from pdlogdoctor.clocks import correct, describe, estimate_offsets, parse_moment, slack
from pdlogdoctor.model import Event, Kind, Report, Role, Severity, Source
from pdlogdoctor.options import RunOptions
from pdlogdoctor.patterns import Library
from pdlogdoctor.pipeline import run

from .clock_shift import shift_text
from .conftest import FIXTURES

T0 = 1_782_986_400.0  # 2026-07-02 10:00:00 UTC


def _event(pattern: str, source: str, time: float, **fields: int | str) -> Event:
    return Event(pattern, source, 1, time, None, "", tuple(fields.items()), Severity.ERROR, Kind.SYMPTOM, True)


def _sources(*names_roles: tuple[str, Role]) -> list[Source]:
    return [Source(name, role, "", 10, 100) for name, role in names_roles]


SOURCES = _sources(("prefill.log", Role.PREFILL), ("decode.log", Role.DECODE), ("router.log", Role.ROUTER))


def test_same_room_on_both_sides_measures_a_time_zone_and_a_skew() -> None:
    ahead = 8 * 3600 + 3
    events = [
        _event("kv-transfer-failed-prefill", "prefill.log", T0 + ahead, bootstrap_room=11),
        _event("kv-transfer-failed-decode", "decode.log", T0, bootstrap_room=11),
        _event("http-5xx", "decode.log", T0 + 1),
        _event("router-server-error", "router.log", T0 + 1),
    ]
    offsets = {o.source: o for o in estimate_offsets(events, SOURCES)}
    assert offsets["router.log"].method == "reference"
    assert offsets["prefill.log"].method == "paired"
    assert offsets["prefill.log"].correction == ahead
    assert offsets["decode.log"].correction == 0.0  # same second as the router: nothing to correct
    corrected = {e.source: e.time for e in correct(events, offsets.values()) if e.pattern.startswith("kv")}
    assert corrected["prefill.log"] == corrected["decode.log"] == T0
    sentence = describe(offsets["prefill.log"], "prefill", "the router")
    assert sentence is not None and sentence.startswith("prefill clock is 8 h 00 m 03 s ahead of the router")


def test_warmups_alone_pin_whole_hours_only() -> None:
    events = [
        _event("warmup-status", "prefill.log", T0 - 5 * 3600 + 40),
        _event("warmup-status", "decode.log", T0),
        _event("http-5xx", "decode.log", T0 + 60),
        _event("router-server-error", "router.log", T0 + 60),
    ]
    offsets = {o.source: o for o in estimate_offsets(events, SOURCES)}
    assert offsets["prefill.log"].method == "whole-hours"
    assert offsets["prefill.log"].correction == -5 * 3600  # the 40 s are not trusted
    assert slack(offsets.values())["prefill.log"] > 0


def test_a_file_without_pairs_keeps_its_clock_and_gets_wider_windows() -> None:
    events = [
        _event("cuda-oom", "prefill.log", T0 + 45),
        _event("http-5xx", "decode.log", T0),
        _event("router-server-error", "router.log", T0),
    ]
    offsets = {o.source: o for o in estimate_offsets(events, SOURCES)}
    assert offsets["prefill.log"].method == "unaligned"
    assert offsets["prefill.log"].correction == 0.0
    assert slack(offsets.values()) == {"prefill.log": offsets["prefill.log"].uncertainty}
    sentence = describe(offsets["prefill.log"], "prefill", "the router")
    assert sentence is not None and "could not be aligned" in sentence


def test_precise_pairs_that_disagree_are_not_trusted_to_the_second() -> None:
    events = [
        _event("kv-transfer-failed-prefill", "prefill.log", T0 + 30, bootstrap_room=1),
        _event("kv-transfer-failed-decode", "decode.log", T0, bootstrap_room=1),
        _event("kv-transfer-failed-prefill", "prefill.log", T0 + 400, bootstrap_room=2),
        _event("kv-transfer-failed-decode", "decode.log", T0 + 100, bootstrap_room=2),
    ]
    offsets = {o.source: o for o in estimate_offsets(events, SOURCES)}
    assert offsets["prefill.log"].correction == 0.0
    assert offsets["prefill.log"].uncertainty > 0


# ---------------------------------------------------------------- property: time zones change nothing

# Known limit, not sampled: the router is the only reference, it starts 20 min after the servers,
# and no pair joins either prefill node to it, so a whole-hour shift of the OOM node cannot be read
# from start times (a scan of every file of every fixture shifted by -8 h and +3 h fails only here).
NOT_ALIGNABLE = {"blind-fam-watchdog-after-peer-node-gpu-oom"}
SAMPLED = sorted(
    p.parent
    for p in FIXTURES.glob("*/expected.toml")
    if not p.parent.name.startswith("clock-") and p.parent.name not in NOT_ALIGNABLE
)


def _logs(bundle: Path) -> list[Path]:
    return sorted(
        p for p in bundle.iterdir() if p.is_file() and p.name != "expected.toml" and p.suffix not in (".gz", ".zst")
    )


# derandomize: CI must not go red on a draw a developer never saw; the full scan above is the breadth.
@settings(max_examples=12, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_a_whole_hour_shift_of_one_file_changes_neither_verdict_nor_chain(
    data: st.DataObject, library: Library, tmp_path_factory: pytest.TempPathFactory
) -> None:
    bundle = data.draw(st.sampled_from(SAMPLED), label="bundle")
    logs = _logs(bundle)
    assume(logs)
    shifted = data.draw(st.sampled_from(logs), label="file").relative_to(bundle)
    hours = data.draw(st.integers(-12, 14).filter(bool), label="hours")
    target = tmp_path_factory.mktemp("shifted") / bundle.name
    shutil.copytree(bundle, target)
    (target / shifted).write_text(shift_text((bundle / shifted).read_text(encoding="utf-8"), hours * 3600))
    original, moved = run([str(bundle)], library), run([str(target)], library)
    assert moved.verdict.id == original.verdict.id, moved.time_notes
    assert _meaning(moved) == _meaning(original), moved.time_notes


def _meaning(report: Report) -> list[tuple[str, str, str, int]]:
    return sorted((e.pattern, e.role.value, Path(e.source).name, e.line) for e in report.chain)


def test_since_and_until_cut_a_long_log_to_one_incident(library: Library) -> None:
    """Cutting the prefill OOM out leaves decode's lost peer without its cause; cutting before it keeps it."""
    bundle = FIXTURES / "gpu-oom-prefill-kills-pd"
    whole = run([str(bundle)], library)
    assert whole.verdict.id == "gpu-oom"
    after = run([str(bundle)], library, options=RunOptions(since=parse_moment("2026-07-14 01:07")))
    assert after.verdict.id != "gpu-oom"
    assert all(e.time is None or e.time >= parse_moment("2026-07-14T01:07:00Z") for e in after.chain)
    assert any("only lines from 2026-07-14 01:07:00" in note for note in after.time_notes)
    before = run([str(bundle)], library, options=RunOptions(until=parse_moment("2026-07-14 01:06:00")))
    assert not any(e.pattern == "cuda-oom" for e in before.chain)


def test_a_moment_with_a_zone_is_converted_to_utc() -> None:
    assert parse_moment("2026-07-14T09:00:00+08:00") == parse_moment("2026-07-14 01:00:00")
    with pytest.raises(ValueError, match="not a date"):
        parse_moment("yesterday")


def test_abs_time_shows_the_chain_in_utc_and_marks_inferred_times() -> None:
    bundle = FIXTURES / "untimed-crash-after-quiet"
    result = CliRunner().invoke(app, ["analyze", str(bundle), "--abs-time"])
    assert "~2026-07-09 02:14:59" in result.stdout  # the segfault's time, inferred from the line above
    assert "2026-07-09 02:21:20" in result.stdout
    relative = CliRunner().invoke(app, ["analyze", str(bundle)])
    assert "2026-07-09 02:21:20" not in relative.stdout


def test_a_fleet_where_every_node_fails_points_at_what_they_share(library: Library, tmp_path: Path) -> None:
    """Both prefill nodes failing the same way is the shared configuration, not one node."""
    seed = FIXTURES / "mori-mr-size-limit-seed"
    shutil.copytree(seed, tmp_path / "fleet", ignore=shutil.ignore_patterns("expected.toml"))
    (tmp_path / "fleet" / "prefill_mia1-p06-g15.log").write_text((seed / "prefill_mia1-p06-g13.log").read_text())
    report = run([str(tmp_path / "fleet")], library)
    facts = dict(report.verdict.facts)
    assert str(facts["failing_nodes"]).startswith("all 2 prefill nodes failed the same way")
    assert report.verdict.confidence == run([str(seed)], library).verdict.confidence
