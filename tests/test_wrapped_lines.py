"""Lines a terminal wrapped at its width are read whole (issue 22.6, scan/wrapped.py).

Two threads' real lines: the seed incident's logs (MORI's RegisterRdmaMemoryRegion line, whose
size and errno fall onto the next rows) cut at a terminal's width the way `fold` and a terminal
cut them, and vllm#1160's raylet lines exactly as posted (tests/data/excerpts/vllm-1160-...). The
look-alikes: a line that starts like one of its own after a long line (the next MORI line, a
traceback's header, an indented frame, a rank's tag) is never taken in, and a short line is never
the first part of a wrapped one.
"""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from pdlogdoctor.library.formats import shipped
from pdlogdoctor.library.patterns import Library
from pdlogdoctor.model import Event, Report
from pdlogdoctor.pipeline import run
from pdlogdoctor.scan import parallel
from pdlogdoctor.scan.index import AnchorIndex
from pdlogdoctor.scan.search import scan_stream
from pdlogdoctor.scan.wrapped import rejoined

from .conftest import FIXTURES

SEED = FIXTURES / "mori-mr-size-limit-seed"
RAYLET = Path(__file__).parent / "data" / "excerpts" / "vllm-1160-raylet-oom-wrapped" / "raylet.log"
MORI_LINE = (
    "[2026-07-02 10:16:03.412] [48211] [application] [error] RegisterRdmaMemoryRegion failed! "
    "addr:0x7f2a80000000, size:6002442240, accessFlag:15, errno:22 (Invalid argument)"
)


def folded(text: str, width: int) -> str:
    """`text` as a terminal `width` columns wide shows it: every line cut into rows of `width`."""
    rows: list[str] = []
    for line in text.splitlines():
        rows.extend(line[i : i + width] for i in range(0, len(line), width))
        if not line:
            rows.append("")
    return "\n".join(rows) + "\n"


def seed_on_a_terminal(tmp_path: Path, width: int) -> Path:
    for log in SEED.glob("*.log"):
        (tmp_path / log.name).write_text(folded(log.read_text(), width))
    return tmp_path


def events_of(path: Path, library: Library, chunk: int = 8 << 20) -> list[Event]:
    with path.open("rb") as stream:
        return scan_stream(stream, path.name, AnchorIndex.build(library), chunk_bytes=chunk).events


def first_row_of(path: Path, text: str) -> int:
    return next(number for number, row in enumerate(path.read_text().splitlines(), 1) if row.startswith(text))


@pytest.mark.parametrize("width", [120, 148])
def test_the_seed_incident_copied_from_a_terminal_keeps_its_verdict_and_sizes(
    tmp_path: Path, library: Library, width: int
) -> None:
    """Seen failing before scan/wrapped.py: `inconclusive`, the MORI lines unread (at 148 columns
    the errno is on the next row; at 120 the region's size is cut in two as well)."""
    report = run([str(seed_on_a_terminal(tmp_path, width))], library)
    assert report.verdict.id == "mori-mr-size-limit"
    assert dict(report.verdict.facts)["smallest_failing_region_bytes"] == 6002442240
    prefill = tmp_path / "prefill_mia1-p06-g13.log"
    registrations = [event for event in events_of(prefill, library) if event.pattern == "mori-mr-register-failed"]
    assert registrations[0].text == MORI_LINE
    assert registrations[0].line == first_row_of(prefill, MORI_LINE[:width])
    # the next MORI line starts like a line of its own: read as its own line, not taken in
    assert registrations[1].line == first_row_of(prefill, "[2026-07-02 10:16:03.950]")


@pytest.mark.parametrize("width", [100, 148])
@pytest.mark.parametrize("name", ["prefill_mia1-p06-g13.log", "decode_mia1-p06-g14.log"])
def test_every_event_is_at_the_first_row_of_its_line(tmp_path: Path, library: Library, width: int, name: str) -> None:
    """The rows a whole line took in are not read again as lines of their own. Seen failing
    before: the second row of sglang's wrapped "Prefill transfer failed ... with exception
    KVTransferError(...)" was an error line no pattern explains."""
    path = seed_on_a_terminal(tmp_path, width) / name
    first_rows, row = set(), 1
    for line in (SEED / name).read_text().splitlines():
        first_rows.add(row)
        row += max(1, -(-len(line) // width))
    events = events_of(path, library)
    assert events
    assert [(event.line, event.text) for event in events if event.line not in first_rows] == []


NOISE = (
    "[2026-07-02 10:16:42 DP0 TP3 EP0] Decode batch. #running-req: 6, #token: 11224, token usage: 0.03, "
    "cuda graph: True, gen throughput (token/s): 447.35, #queue-req: 0"
)


# Read sizes at which a read ended between the raylet line's rows (found by trying every size).
@pytest.mark.parametrize("chunk", [124, 244, 490, 958, 1846])
def test_where_reads_end_never_changes_what_is_read_whole(library: Library, chunk: int) -> None:
    """A read that ends between the rows of a wrapped line: the next scan keeps the rows above its
    start (search.py), so the line is read whole, at the same row, as in one read. Seen failing
    without the kept rows: the raylet line unread at these sizes."""
    data = f"{NOISE}\n" * 100 + RAYLET.read_text() + f"{NOISE}\n" * 100
    whole_read = scan_stream(io.BytesIO(data.encode()), "driver.log", AnchorIndex.build(library))
    assert [event.line for event in whole_read.events if event.pattern == "ray-memory-monitor-killed"] == [101]
    chunked = scan_stream(io.BytesIO(data.encode()), "driver.log", AnchorIndex.build(library), chunk_bytes=chunk)
    assert chunked.events == whole_read.events


def test_a_file_split_for_the_cores_is_never_split_inside_a_wrapped_line(
    library: Library, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The raylet's rows placed where the planned split falls: the ranges end after a short row
    instead, and the parallel scan equals the sequential one (and reads the line whole)."""
    monkeypatch.setattr(parallel, "MIN_RANGE_BYTES", 16 << 10)
    raylet, noise = RAYLET.read_text().splitlines(), len(NOISE) + 1
    # NOISE lines around the raylet's so that the planned split falls inside its first row
    above, below = next(
        (size // 2 // noise, after)
        for after in range(300, 500)
        for size in [(200 + after) * noise + len(RAYLET.read_bytes())]
        if 0 < size // 2 % noise < len(raylet[0])
    )
    rows = [NOISE] * above + raylet + [NOISE] * (200 + below - above)
    path = tmp_path / "driver.log"
    path.write_text("\n".join(rows) + "\n")
    first_row = above * noise
    assert first_row < len(path.read_bytes()) // 2 < first_row + len(raylet[0])
    middle = above + 1
    index = AnchorIndex.build(library)
    with path.open("rb") as stream:
        sequential = scan_stream(stream, "driver.log", index)
    assert [event.line for event in sequential.events if event.pattern == "ray-memory-monitor-killed"] == [middle]
    assert parallel.scan_file_parallel(str(path), "driver.log", index, 2) == sequential


def unexplained_lines(report: Report) -> list[tuple[int, str]]:
    return [(error.first.line, error.first.text) for error in report.unrecognised]


def test_a_raylet_line_wrapped_at_116_columns_is_quoted_whole_at_its_first_row(library: Library) -> None:
    """vllm#1160: "killed due to memory pressure" is on the second row; the first row has the
    line's start. Seen failing before: `no-failure-seen`, nothing quoted."""
    report = run([str(RAYLET)], library)
    assert report.verdict.id != "no-failure-seen"
    # patterns/ray/ray-memory-monitor-killed names the whole line: it roots the verdict (host-oom)
    (line, text), *_ = [(event.line, event.text) for event in report.roots]
    assert line == 1
    assert "node_manager.cc:3007: 2 Workers (tasks / actors) killed due to memory pressure (OOM)" in text
    assert "(ID: abd406d415bd2b74a5e281968fd76aa200d56e4529fd1c1cd4373840, IP: 10.0.167.26)" in text
    assert "#033[" not in text, "rsyslog's escaped colour codes are not part of the line"


def whole(rows: list[str], at: int) -> str | None:
    """The whole line `rejoined` reads for rows[at], or None."""
    buf = "\n".join(rows).encode()
    start = sum(len(row) + 1 for row in rows[:at])
    found = rejoined(buf, start, start + len(rows[at].encode()), len(buf), rows[at], shipped())
    return found.text if found is not None else None


def test_the_rows_of_a_wrapped_line_join_from_any_of_them() -> None:
    rows = [MORI_LINE[:100], MORI_LINE[100:]]
    assert whole(rows, 0) == MORI_LINE
    assert whole(rows, 1) == MORI_LINE


@pytest.mark.parametrize(
    "below",
    [
        "[2026-07-02 10:16:03.950] [48214] [application] [error] RegisterRdmaMemoryRegion failed!",  # MORI's own
        "Traceback (most recent call last):",
        '  File "/usr/lib/python3.10/runpy.py", line 196, in _run_module_as_main',
        "[rank0]: Traceback (most recent call last):",
        "During handling of the above exception, another exception occurred:",
        "RuntimeError: CUDA error: an illegal memory access was encountered",
        "2024-07-03 11:58:42,096 INFO worker.py:1724 -- Started a local Ray instance.",
        # a paste's markdown field in bold (vllm-project/vllm#42526: the CI analyzer's summary)
        "**Failure count:** 1 new failure linked to this PR",
        # a logger whose time is the clock alone (round 180: vMLX's engine), bracketed or bare
        "[18:48:56.295] INFO:vmlx_engine.scheduler:Request chatcmpl-1243a761: paged cache reconstruction failed",
        "09:15:02,118 WARNING  worker  Failed to fetch the adapter list",
    ],
)
def test_a_line_that_starts_like_its_own_is_never_taken_in(below: str) -> None:
    assert whole([MORI_LINE, below], 0) is None
    assert whole([MORI_LINE, below], 1) is None


def test_a_short_line_is_not_the_first_row_of_a_wrapped_one() -> None:
    """A terminal wraps only a full row: a line shorter than any terminal ended where it did."""
    rows = ["[2026-07-02 10:16:40] Prefill failed:", "KVTransferError(bootstrap_room=0): KV transfer failed"]
    assert whole(rows, 0) is None
    assert whole(rows, 1) is None


DP_RANKS = Path(__file__).parent / "data" / "excerpts" / "sglang-33088-query-dp-ranks-errno99"
HIP = FIXTURES / "hip-no-code-object-amd-log-level"


@pytest.mark.parametrize("case", [DP_RANKS, HIP], ids=["sglang-33088", "hip-amd-log-level"])
def test_a_row_that_is_an_error_line_alone_is_never_taken_into_another(library: Library, case: Path) -> None:
    """sglang#33088 as posted: the row `(Caused by NewConnectionError(...` is an error line alone
    (a pattern reads it); the short row below it is not glued to it and quoted again as one
    unexplained line. HIP's AMD_LOG_LEVEL rows (formats/rocm.toml) start lines of their own. Seen
    failing without the check in scan/events.py: the sglang rows 3 and 4 quoted as one line."""
    report = run([str(case)], library)
    rows = [row for log in sorted(case.glob("*.log")) for row in log.read_text().splitlines()]
    for error in report.unrecognised:
        assert error.first.text in rows, f"{error.first.text!r} is not one row of the file"


# A paste that ends in a line a terminal wrapped: Triton's TensorRT-LLM backend printing its iteration
# statistics as one JSON record (triton-inference-server/tensorrtllm_backend#217 as a blind round kept
# it, cut near 120 columns at word ends), and the same record cut at 80 columns in the middle of words.
TRITON_STATS_ROWS = (
    (Path(__file__).parent / "data" / "blind-round174-excerpts-d" / "03-triton-trtllm-iteration-stats" / "excerpt.log")
    .read_text()
    .splitlines()
)
TRITON_STATS = "".join(TRITON_STATS_ROWS)
TRITON_STATS_80 = [TRITON_STATS[at : at + 80] for at in range(0, len(TRITON_STATS), 80)]
# A vLLM line above the record: the paste is a vLLM log's, and the record its last line.
PLATFORM = "INFO 05-01 10:00:00 [__init__.py:239] Automatically detected platform cuda. Loading the model config now."


@pytest.mark.parametrize(
    ("rows", "first", "said"),
    [
        (TRITON_STATS_ROWS, 1, 'libtensorrtllm.cc:1205] {"Active Request Count":1,"Context Requests":1'),
        ([PLATFORM, *TRITON_STATS_80], 2, 'libtensorrtllm.cc:1205] {"Active Request Count":1,"Context Requests":1'),
    ],
    ids=["triton-stats-120-columns", "triton-stats-80-columns"],
)
def test_a_quiet_paste_ending_in_a_wrapped_line_names_the_whole_line_at_its_first_row(
    tmp_path: Path, library: Library, rows: list[str], first: int, said: str
) -> None:
    """The summary of a report where nothing failed says where the lines end: the last row alone
    (` blocks":1}`) is a message's tail. Seen failing before the fix: it quoted the last row."""
    (tmp_path / "excerpt.log").write_text("\n".join(rows) + "\n")
    report = run([str(tmp_path)], library)
    assert report.verdict.id == "no-failure-seen"
    assert f"excerpt.log:{first}: " in report.verdict.summary
    assert said in report.verdict.summary


def test_a_short_last_line_of_its_own_is_named_as_it_is(tmp_path: Path, library: Library) -> None:
    """Look-alike: a last line that starts like a line (its own time and level) below a long one is
    a line of its own, quoted at its own number."""
    rows = [PLATFORM + " " * 10, "INFO 05-01 10:00:02 [launcher.py:29] Available routes are:"]
    (tmp_path / "excerpt.log").write_text("\n".join(rows) + "\n")
    report = run([str(tmp_path)], library)
    assert "excerpt.log:2: INFO 05-01 10:00:02 [launcher.py:29] Available routes are:" in report.verdict.summary


def test_a_paste_s_elision_below_a_long_line_is_no_row_of_it(tmp_path: Path, library: Library) -> None:
    """Look-alike: `...` where a paste left lines out ends nothing above it (round 23's llm-d excerpt:
    read as a wrapped row, its wait below a long DEBUG line was no longer the log's end)."""
    rows = [PLATFORM + " The weights are being read from the local cache.", "..."]
    (tmp_path / "excerpt.log").write_text("\n".join(rows) + "\n")
    report = run([str(tmp_path)], library)
    assert "excerpt.log:2: ..." in report.verdict.summary
