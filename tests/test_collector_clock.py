"""One host's lines on one clock: a component's UTC stamp inside a collector's local one.

Round 26's blind bundle (bundles-a/03, a Dynamo deployment pulled with journalctl on hosts at UTC-8):
journald stamps every line with the host's local time; Dynamo's runtime stamps its own lines in UTC
(`2025-12-03T09:29:45.118052Z`); torch's lines inside journald carry local time. The `Z` was read as
no zone, so the prefill's expired-KV warnings sat 8 h after the decode's watchdog: a second incident.
Now a time ending in `Z` is UTC (Rust's tracing, RFC 3339), and a UTC stamp inside a collector's tag
is read on the tag's clock. Look-alike: the same UTC line with no collector's tag keeps its UTC time.
"""

from __future__ import annotations

from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from pdlogdoctor.library.formats import shipped
from pdlogdoctor.library.patterns import Library
from pdlogdoctor.pipeline import analyse
from pdlogdoctor.scan.stamps import StampMemory, _local_stamp_above

BUNDLE = Path(__file__).parent / "data" / "blind-round26-bundles-a" / "03-dynamo-vllm-decode-nccl-watchdog"
DYNAMO = (
    "2025-12-03T09:29:45.118052Z  WARN nixl_connector.get_finished: Releasing expired KV blocks for request "
    "5a609014-6e9e-498d-9fd9-571f20543cfd which were retrieved by 0 decode worker(s) within 480 seconds."
)
JOURNALD = "Dec 03 01:29:45 gpu-a09 python3[47830]: "


def test_a_z_time_is_utc_and_a_collectors_tag_gives_the_hosts_clock() -> None:
    formats = shipped()
    bare, tagged = formats.stamp(DYNAMO), formats.stamp(JOURNALD + DYNAMO)
    assert bare is not None and bare.utc and tagged is not None and tagged.utc
    received = formats.received_stamp(JOURNALD + DYNAMO)
    assert received is not None and not received.utc and received.text == "12-03 01:29:45"
    assert formats.received_stamp(DYNAMO) is None  # no tag: nothing to read it on


def test_the_bundles_lines_sit_on_one_clock(library: Library) -> None:
    analysis = analyse([str(BUNDLE)], library)
    report = analysis.report
    assert report.verdict.id == "collective-timeout" and not report.other_incidents
    expired = [e for e in analysis.events if e.pattern == "vllm-nixl-expired-blocks"]
    watchdog = [e for e in analysis.events if "Watchdog caught collective operation timeout" in e.text]
    assert expired and watchdog
    apart = abs((expired[0].time or 0.0) - (watchdog[0].time or 0.0))
    assert apart < 15 * 60, apart  # minutes apart, as on the hosts; not 8 hours


def test_a_utc_line_with_no_tag_keeps_its_utc_time(tmp_path: Path, library: Library) -> None:
    (tmp_path / "frontend.log").write_text(DYNAMO + "\n")
    events = analyse([str(tmp_path)], library).events
    assert events and events[0].time_text is not None and events[0].time_text.startswith("2025-12-03 09:29:45")


LOCAL_LINE = '[2025-12-03 01:29:{s:02d}] INFO:     127.0.0.1:5000 - "GET /health HTTP/1.1" 200 OK'
UTC_LINE = "2025-12-03T09:29:{s:02d}.118052Z  INFO dynamo_runtime: served"
PLAIN_LINE = "    at frame {s}"


def _nearest_local_above(lines: list[str], row: int, last_own: object) -> object:
    """The specification, walked naively: the nearest local stamp among the 60 lines above, or
    what the buffers before left when the buffer's start is within reach."""
    formats = shipped()
    for distance in range(1, 61):
        if row - distance < 0:
            return last_own
        stamp = formats.stamp(lines[row - distance])
        if stamp is not None and not stamp.utc:
            return stamp
    return None


@settings(max_examples=60, deadline=None)
# Local stamps rare (1 line in 25), so gaps longer than the reach are common.
@given(st.lists(st.sampled_from(["local"] + ["utc"] * 12 + ["plain"] * 12), min_size=100, max_size=300), st.data())
def test_the_local_stamp_above_each_line_is_the_nearest_within_reach(kinds: list[str], data: st.DataObject) -> None:
    """Each lookback stops where the one before it started (StampMemory.local_above): the answer
    is still the naive walk's, for every line, whatever the mix and however far apart the hits."""
    shapes = {"local": LOCAL_LINE, "utc": UTC_LINE, "plain": PLAIN_LINE}
    lines = [shapes[kind].format(s=row % 60) for row, kind in enumerate(kinds)]
    buf = ("\n".join(lines) + "\n").encode()
    starts = [0]
    for line in lines[:-1]:
        starts.append(starts[-1] + len(line.encode()) + 1)
    step = data.draw(st.integers(1, 90), label="lines between hits")
    rows = range(data.draw(st.integers(0, step - 1)), len(lines), step)
    memory = StampMemory(formats=shipped(), last_own=shipped().stamp(LOCAL_LINE.format(s=0)))
    for row in rows:
        assert _local_stamp_above(buf, starts[row], memory) == _nearest_local_above(lines, row, memory.last_own)
