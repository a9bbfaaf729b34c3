"""Linking reads, for each cause, only the events its rule's window can reach (link._Targets):
the links are those of trying every cause against every effect, in the same order."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pdlogdoctor.library.patterns import Library
from pdlogdoctor.model import Event, Kind, Severity
from pdlogdoctor.reason import link as linking


def _ruled(library: Library) -> list[tuple[str, str]]:
    """(cause, effect) pattern ids of the library's rules whose window is under a day."""
    return [(p.id, r.target) for p in library.patterns for r in p.causes if r.window_s < 86_400][:12]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_links_within_windows_equal_every_pair_tried(
    library: Library, monkeypatch: pytest.MonkeyPatch, data: st.DataObject
) -> None:
    pairs = _ruled(library)
    ids = sorted({pattern for pair in pairs for pattern in pair})
    sources = ["prefill_a.log", "decode_b.log", "router.log"]
    base = 1_782_990_000.0
    events = []
    for number in range(data.draw(st.integers(min_value=2, max_value=40))):
        time = data.draw(st.one_of(st.none(), st.floats(min_value=0, max_value=7200, allow_nan=False)))
        later = data.draw(st.one_of(st.none(), st.floats(min_value=0, max_value=900, allow_nan=False)))
        events.append(
            Event(
                pattern=data.draw(st.sampled_from(ids)),
                source=data.draw(st.sampled_from(sources)),
                line=number + 1,
                time=None if time is None else base + time,
                time_text=None,
                text="x",
                fields=(),
                severity=Severity.ERROR,
                kind=Kind.SYMPTOM,
                failing=True,
                time_inferred=later is not None and time is not None,
                time_latest=None if later is None or time is None else base + time + later,
            )
        )
    slack = {name: data.draw(st.sampled_from([0.0, 30.0, 3600.0])) for name in sources}
    nodes = {name: None for name in sources}
    windowed = linking.link(events, library, nodes, slack)
    with monkeypatch.context() as patched:
        patched.setattr(linking._Targets, "near", lambda self, cause, rule, reach: self.effects)
        every = linking.link(events, library, nodes, slack)
    assert windowed == every


def test_a_cause_far_from_every_effect_reads_none_of_them(library: Library) -> None:
    cause, target = _ruled(library)[0]
    rule = next(r for p in library.patterns if p.id == cause for r in p.causes if r.target == target)

    def event(pattern: str, time: float) -> Event:
        return Event(pattern, "x.log", 1, time, None, "x", (), Severity.ERROR, Kind.SYMPTOM, True)

    near = linking._Targets([event(target, 1000.0 + 100_000 * k) for k in range(50)])
    found = near.near(event(cause, 1000.0 + 100_000 * 7), rule, 0.0)
    assert [e.time for e in found] == [1000.0 + 100_000 * 7]
