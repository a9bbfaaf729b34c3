"""A pattern's search keys pick out its own lines, not the busy lines of a serving log (issue 26).

Every line that holds a search key is handed from the anchor search to Python, one by one: a key
that sits on a line every engine prints many times a second (` gen ` is in each of sglang's
`Decode batch. ..., gen throughput (token/s): ...` lines) makes every such line pay the per-hit
path for a pattern that never reads it. Session 21 measured it: OpenCompass's summary row searched
by ` gen ` doubled the time of the dense benchmark (10.4 s to 20.9 s on 100 MB). On the dense
bundle (the corpus's lines in their real proportions), no pattern's key may hand over many lines
of which the pattern reads almost none.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from benchmarks.dense import generate_dense
from pdlogdoctor.library.patterns import Library, match_line

BUSY_LINES = 200  # lines a key hands over before its share read is looked at
READ_SHARE = 0.05  # of them, at least this share must be the pattern's own


@pytest.mark.slow
def test_no_search_key_hands_over_busy_lines_its_pattern_does_not_read(tmp_path: Path, library: Library) -> None:
    bundle = generate_dense(tmp_path, 3_000_000)
    lines = [line for log in sorted(bundle.glob("*.log")) for line in log.read_text(errors="replace").splitlines()]
    handed: Counter[str] = Counter()
    read: Counter[str] = Counter()
    for pattern in library.patterns:
        keys = pattern.search_keys
        for line in lines:
            if any(key in line for key in keys):
                handed[pattern.id] += 1
                if handed[pattern.id] <= BUSY_LINES * 5 and match_line(pattern, line) is not None:
                    read[pattern.id] += 1
    wasteful = {
        pattern: (count, read[pattern])
        for pattern, count in handed.items()
        if count >= BUSY_LINES and read[pattern] < READ_SHARE * min(count, BUSY_LINES * 5)
    }
    assert not wasteful, f"(lines handed over, of the first {BUSY_LINES * 5} those read): {wasteful}"
