"""`analyze --follow`: a stream's scan kept from read to read finds, at every moment, what a
post-mortem scan of the bytes written so far finds; and the follower's report on the final
files is the post-mortem report."""

from __future__ import annotations

import io

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pdlogdoctor.library.patterns import Library
from pdlogdoctor.scan.growing import GrowingScan
from pdlogdoctor.scan.index import AnchorIndex
from pdlogdoctor.scan.search import scan_stream

from .conftest import FIXTURES

# A decode log with Mooncake's registration failures; a prefill log's traceback and the untimed
# lines under it (their time comes from the stamped lines above and below them); and a recursion's
# traceback, deeper than the lines a scan looks up for a time (the time then is the one remembered
# from the lines already scanned: stamps.py).
DEEP = "\n".join(
    [
        "[2026-07-02 10:15:02 TP1] Scheduler hit an exception: Traceback (most recent call last):",
        *[
            '  File "/usr/lib/python3.10/copy.py", line 146, in deepcopy\n    y = copier(x, memo)',
            '  File "/usr/lib/python3.10/copy.py", line 231, in _deepcopy_dict\n'
            "    y[deepcopy(key, memo)] = deepcopy(value, memo)",
        ]
        * 40,
        "RecursionError: maximum recursion depth exceeded while calling a Python object",
        "",
    ]
)
WRITTEN = (
    (FIXTURES / "mori-mr-size-limit-seed" / "decode_mia1-p06-g14.log").read_bytes()
    + (FIXTURES / "blind-mc-mr-badaddr" / "prefill_node01.log").read_bytes()
    + DEEP.encode()
)


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.integers(min_value=1, max_value=len(WRITTEN)), min_size=1, max_size=6))
def test_a_growing_scan_finds_what_a_scan_of_the_bytes_so_far_finds(library: Library, cuts: list[int]) -> None:
    """Read in pieces that end anywhere (inside a line, inside a traceback), the growing scan's
    result at each piece's end is the post-mortem scan of that prefix, and reading on after a
    result changes nothing of the end."""
    index = AnchorIndex.build(library)
    growing = GrowingScan("decode.log", index)
    written = 0
    for cut in [*sorted(set(cuts)), len(WRITTEN)]:
        growing.read(io.BytesIO(WRITTEN[written:cut]))
        written = cut
        assert growing.result() == scan_stream(io.BytesIO(WRITTEN[:cut]), "decode.log", index)
    assert {"mooncake-register-memory-failed", "scheduler-exception"} <= {e.pattern for e in growing.result().events}
