"""Clock offsets: measured from near-simultaneous pairs, corrected, and said in plain words."""

from __future__ import annotations

from pdlogdoctor.clocks import correct, describe, estimate_offsets, slack
from pdlogdoctor.model import Event, Kind, Role, Severity, Source

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
