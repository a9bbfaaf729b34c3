"""The scanner finds the same events whatever the chunking, the line ends or the parallelism."""

from __future__ import annotations

import io
import itertools
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pdlogdoctor.ingest.streams import FIRST_READ, open_regular
from pdlogdoctor.library.formats import epoch_of
from pdlogdoctor.library.patterns import Library
from pdlogdoctor.model import Role
from pdlogdoctor.scan import accel, events, parallel
from pdlogdoctor.scan.events import KEEP_PER_PATTERN, ScanResult
from pdlogdoctor.scan.index import AnchorIndex, _search_keys
from pdlogdoctor.scan.reader import Window
from pdlogdoctor.scan.search import scan_stream

from .conftest import zstd_compress

MR_LINE = (
    "[2026-07-02 10:16:03.412] [48211] [application] [error] RegisterRdmaMemoryRegion failed! "
    "addr:0x7f2a80000000, size:6002442240, accessFlag:15, errno:22 (Invalid argument)"
)
NOISE = (
    "[2026-07-02 10:16:42 DP0 TP3 EP0] Decode batch. #running-req: 6, #token: 11224, token usage: 0.03, "
    "cuda graph: True, gen throughput (token/s): 447.35, #queue-req: 0"
)


# vllm#1160's raylet line as a 116-column terminal showed it: read whole from its second row
# (scan/wrapped.py), wherever a read ends.
WRAPPED_RAYLET_ROWS = [
    "#033[2m#033[33m(raylet)#033[0m [DATE] (raylet) node_manager.cc:3007: 2 Workers (tasks /\n actors) killed due "
    "to memory pressure (OOM), 0 Workers crashed due to other reasons at node (ID: abd406d415bd2b74a5\ne281968fd76a"
    "a200d56e4529fd1c1cd4373840, IP: 10.0.167.26) over the last time period. To see more information about th\ne Wo"
    "rkers killed on this node, use `ray logs raylet.out -ip 10.0.167.26`"
]


@pytest.fixture(scope="module", params=[name for name in accel.MATCHERS if accel.installed(name) == name])
def index(request: pytest.FixtureRequest, library: Library) -> AnchorIndex:
    """The library's index with each installed matcher in turn: every test here holds for all."""
    built = AnchorIndex.build(library, request.param)
    assert built.matcher == request.param
    return built


def scan(data: bytes, index: AnchorIndex, chunk: int = 8 << 20) -> ScanResult:
    return scan_stream(io.BytesIO(data), "prefill_x.log", index, chunk_bytes=chunk)


def found(result: ScanResult) -> list[tuple[str, int, tuple[object, ...]]]:
    return sorted((e.pattern, e.line, e.fields) for e in result.events)


def mr_lines(result: ScanResult) -> list[int]:
    return [e.line for e in result.events if e.pattern == "mori-mr-register-failed"]


def example_lines(library: Library) -> list[str]:
    return [p.examples.match[0] for p in library.patterns if p.examples.match]


@pytest.mark.parametrize("chunk", [5, 64, 333, 4096])
def test_event_across_chunk_boundaries_is_found(index: AnchorIndex, chunk: int) -> None:
    data = ("\n".join([NOISE] * 7 + [MR_LINE] + [NOISE] * 3) + "\n").encode()
    result = scan(data, index, chunk)
    assert mr_lines(result) == [8]
    assert result.lines == 11
    event = next(e for e in result.events if e.pattern == "mori-mr-register-failed")
    assert dict(event.fields)["size"] == 6002442240


def test_reads_start_small_and_grow_without_losing_a_line(index: AnchorIndex) -> None:
    """A one-line file gets a buffer for one small read, not for a whole chunk; a larger file's
    reads, small then full-size, find every line a scan in fixed small reads finds."""
    assert len(Window(8 << 20).data) < 2 * FIRST_READ
    assert len(Window(8 << 20, 40).data) < 2 * FIRST_READ  # a one-line plain file
    assert Window(8 << 20, 100 << 20).reading == 8 << 20  # a large one reads whole chunks from the start
    lines = [MR_LINE] + [NOISE] * 7999
    crossing = "\n".join(lines)[:FIRST_READ].count("\n") + 1  # the line the first read's end cuts
    wanted = [1, crossing, 1500, 4000, 7999]
    lines = [MR_LINE if number in wanted else NOISE for number in range(1, 8001)]  # the same bytes before it
    data = ("\n".join(lines) + "\n").encode()
    assert len(data) > 1 << 20
    growing = scan(data, index)
    assert mr_lines(growing) == wanted
    assert growing.lines == 8000
    assert found(growing) == found(scan(data, index, 4096))


class _Trickle(io.RawIOBase):
    """A pipe that gives at most `piece` bytes a read, as a slow writer's would."""

    def __init__(self, data: bytes, piece: int) -> None:
        self.data, self.piece, self.at = data, piece, 0

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        part = self.data[self.at : self.at + min(self.piece, len(buffer))]
        buffer[: len(part)] = part
        self.at += len(part)
        return len(part)


def test_the_read_that_finds_the_end_needs_no_chunk_sized_buffer(index: AnchorIndex) -> None:
    """After a short read the window grows only once full: a one-line stream's last read asks for the
    room it has; a slow pipe's short reads still bring every byte."""
    window = Window(8 << 20)
    stream = io.BytesIO((MR_LINE + "\n").encode())
    assert window.read(stream, []) == len(MR_LINE) + 1 and window.read(stream, []) == 0
    assert len(window.data) < 2 * FIRST_READ
    data = ("\n".join([MR_LINE if n % 500 == 1 else NOISE for n in range(1, 3001)]) + "\n").encode()
    trickled = scan_stream(_Trickle(data, 1000), "prefill_x.log", index)
    assert found(trickled) == found(scan(data, index)) and trickled.lines == 3000


@settings(max_examples=200, deadline=None)
@given(st.sets(st.lists(st.sampled_from(b"ab\0"), min_size=1, max_size=6).map(bytes), min_size=1, max_size=12))
def test_each_anchor_is_searched_for_by_the_shortest_anchor_inside_it(anchors: set[bytes]) -> None:
    """The one-pass search over all anchors joined picks what testing every pair picks (a NUL, the
    joining byte, inside an anchor included)."""
    for anchor, key in _search_keys(anchors).items():
        inside = [other for other in anchors if other != anchor and other in anchor]
        assert key == (min(inside, key=lambda other: (len(other), other)) if inside else anchor)


def test_last_line_without_newline_is_found(index: AnchorIndex) -> None:
    data = (NOISE + "\n" + NOISE + "\n" + MR_LINE).encode()
    for chunk in (16, 8 << 20):
        result = scan(data, index, chunk)
        assert mr_lines(result) == [3]
        assert result.lines == 3


def test_crlf_lines_are_found_with_the_same_fields(index: AnchorIndex) -> None:
    lf = ("\n".join([NOISE, MR_LINE, NOISE, MR_LINE]) + "\n").encode()
    crlf = lf.replace(b"\n", b"\r\n")
    assert mr_lines(scan(crlf, index, 50)) == [2, 4]
    assert found(scan(crlf, index, 50)) == found(scan(lf, index))


def test_anchor_in_a_line_longer_than_8_mib_is_found(index: AnchorIndex) -> None:
    filler = b"x" * (9 << 20)
    data = NOISE.encode() + b"\n" + filler + b" " + MR_LINE.encode() + b" " + filler + b"\n" + MR_LINE.encode() + b"\n"
    result = scan(data, index, 1 << 20)
    # The long line's event keeps the line number; the line after it is line 3.
    assert mr_lines(result) == [2, 3]
    assert result.lines == 3


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_chunk_size_never_changes_the_events(library: Library, index: AnchorIndex, data: st.DataObject) -> None:
    pool = [*example_lines(library), NOISE, "", "    at frame", MR_LINE, *WRAPPED_RAYLET_ROWS]
    lines = data.draw(st.lists(st.sampled_from(pool), min_size=1, max_size=60))
    newline = data.draw(st.sampled_from(["\n", "\r\n"]))
    text = newline.join(lines) + data.draw(st.sampled_from([newline, ""]))
    chunk = data.draw(st.integers(min_value=1, max_value=2048))
    reference = scan(text.encode(), index)
    chunked = scan(text.encode(), index, chunk)
    assert found(chunked) == found(reference)
    assert chunked.lines == reference.lines


def test_parallel_ranges_equal_the_sequential_scan(
    library: Library, index: AnchorIndex, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Many events of one pattern spread over every range (the per-pattern cap and repeats
    # must merge exactly), lines without a stamp at range starts, a last line without a newline.
    lines: list[str] = []
    for block in range(400):
        lines += [NOISE] * 20 + [MR_LINE if block % 3 == 0 else NOISE, "  continuation without a stamp"]
        lines += [example_lines(library)[block % len(example_lines(library))]]
    data = "\n".join(lines).encode()
    path = tmp_path / "prefill_x.log"
    path.write_bytes(data)
    monkeypatch.setattr(parallel, "MIN_RANGE_BYTES", 16 << 10)
    ranges = parallel.plan_ranges(str(path), 4)
    assert len(ranges) == 4 and ranges[0][0] == 0 and ranges[-1][1] == len(data)
    assert all(data[end - 1 : end] == b"\n" for _, end in ranges[:-1])
    sequential = scan(data, index)
    split = parallel.scan_file_parallel(str(path), "prefill_x.log", index, 4)  # 3 workers and this process
    assert split == sequential
    assert len(mr_lines(sequential)) == KEEP_PER_PATTERN + 1  # first 20 and the last
    first = next(e for e in sequential.events if e.pattern == "mori-mr-register-failed")
    assert first.repeats == sum(1 for line in lines if "RegisterRdmaMemoryRegion failed!" in line)


def test_parallel_ranges_read_the_metrics_lines_one_scan_reads(
    library: Library, index: AnchorIndex, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Past a stream's first bytes its metrics lines are sampled by their offsets: ranges scanned
    apart sample, weigh and count them exactly as one scan does (here past 16 KiB, every range)."""
    lines = [
        f"[2026-07-02 10:{i // 60 % 60:02d}:{i % 60:02d} TP{i % 4}] Decode batch. #running-req: {i % 97}, "
        f"#token: {i}, token usage: 0.{i % 90:02d}, cuda graph: True, gen throughput (token/s): {i % 1000}.5, "
        f"#queue-req: {i % 13}"
        for i in range(3000)
    ]
    data = "\n".join(lines).encode()
    path = tmp_path / "prefill_x.log"  # the name `scan` gives its stream
    path.write_bytes(data)
    monkeypatch.setattr(parallel, "MIN_RANGE_BYTES", 64 << 10)
    monkeypatch.setattr(events, "SAMPLE_FULL", 16 << 10)
    monkeypatch.setattr(events, "SAMPLE_BLOCK", 1 << 10)
    sequential = scan(data, index)
    split = parallel.scan_file_parallel(str(path), "prefill_x.log", index, 4)
    assert split == sequential
    decode = next(e for e in sequential.events if e.pattern == "sglang-decode-stats")
    assert decode.repeats == 3000  # every line counted, read or not
    series = sequential.series.series("prefill_x.log", Role.DECODE, None)
    assert abs(sum(s.count for s in series if s.metric == "queue") - 3000) < 300  # the weights stand for all


def test_a_rare_metrics_kind_whose_later_lines_all_fall_in_skipped_blocks_is_counted(index: AnchorIndex) -> None:
    """A metrics kind seen once in a stream's first bytes and then only in blocks the sample skips
    (a dense log made it crash with a KeyError in merge_partials: its count grew past its kept
    events, and no line read was its last): its kept event tells every line, read or not."""
    retract = (
        "[2025-03-07 21:49:33 TP13] Decode out of memory happened. #retracted_reqs: 1, "
        "#new_token_ratio: 0.1474 -> 0.1845"
    )  # the pattern's example: sglang scheduler.py, update_running_batch
    filler = '[2026-07-02 10:16:42] INFO:     127.0.0.1:53312 - "GET /health HTTP/1.1" 200 OK'
    head = "\n".join([retract] + [filler] * ((events.SAMPLE_FULL + events.SAMPLE_BLOCK) // len(filler)))
    skipped = "\n".join([retract] * 10)  # within one block that the sample skips, past the first MiB
    data = (head + "\n" + skipped + "\n").encode()
    start = len(head) + 1
    sink = events.EventSink("x", sampled={0: "sglang-kv-retract"})
    assert sink.take(0, start) == 0 and sink.take(0, len(data) - 2) == 0  # every later line is skipped
    result = scan(data, index)
    kept = [e for e in result.events if e.pattern == "sglang-kv-retract"]
    assert [e.line for e in kept] == [1] and kept[0].repeats == 11


def test_zst_is_read_instead_of_the_same_log_as_gz(library: Library, tmp_path: Path) -> None:
    import gzip

    from pdlogdoctor.pipeline import run

    data = ("\n".join([NOISE, MR_LINE, NOISE]) + "\n").encode()
    (tmp_path / "prefill_x.log.gz").write_bytes(gzip.compress(data))
    (tmp_path / "prefill_x.log.zst").write_bytes(zstd_compress(data))
    (tmp_path / "decode_x.log.gz").write_bytes(gzip.compress(data))  # no .zst twin: read
    report = run([str(tmp_path)], library)
    names = sorted(Path(source.name).name for source in report.inputs)
    assert names == ["decode_x.log.gz", "prefill_x.log.zst"]
    zst = next(s for s in report.inputs if s.name.endswith(".zst"))
    assert [p.code for p in zst.problems] == ["duplicate-skipped"]
    assert "prefill_x.log.gz" in zst.problems[0].message
    assert not report.incomplete


@pytest.mark.parametrize(("newline", "noise"), [("\n", NOISE), ("\r\n", NOISE), ("\n", NOISE + "\r" + NOISE)])
def test_traceback_running_past_a_range_end_is_read_whole(
    index: AnchorIndex, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, newline: str, noise: str
) -> None:
    crash = "[2026-07-08 03:12:09 TP3] Scheduler hit an exception: Traceback (most recent call last):"
    frames = [
        '  File "/sgl/python/sglang/srt/managers/scheduler.py", line 2711, in run_scheduler_process',
        "    scheduler.event_loop_normal()",
        "ZeroDivisionError: division by zero",
    ]
    head = newline.join([noise] * 50 + [crash]) + newline  # a noise line may hold a progress bar's lone CR
    data = (head + newline.join([*frames, *[noise] * 50, "  continuation without a stamp"])).encode()
    path = tmp_path / "prefill_x.log"
    path.write_bytes(data)
    boundary = len(head.encode())  # the second range starts inside the traceback
    monkeypatch.setattr(parallel, "plan_ranges", lambda *_args: [(0, boundary), (boundary, len(data))])
    sequential = scan(data, index)
    split = parallel.scan_file_parallel(str(path), "prefill_x.log", index, 2)
    assert split == sequential
    event = next(e for e in split.events if e.pattern == "scheduler-exception")
    assert event.line == 51
    assert dict(event.fields)["exc_type"] == "ZeroDivisionError"
    assert split.lines == 51 + len(frames) + 51


def test_parallel_scan_of_a_growing_file_reads_what_was_there_and_says_so(
    index: AnchorIndex, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    data = ("\n".join([NOISE] * 300 + [MR_LINE]) + "\n").encode()
    path = tmp_path / "prefill_x.log"
    path.write_bytes(data)
    monkeypatch.setattr(parallel, "MIN_RANGE_BYTES", 8 << 10)
    scan_partial = parallel.scan_partial

    def appending(*args: Any, **kwargs: Any) -> Any:  # runs in the forked worker
        with path.open("ab") as handle:  # a writer still logging while we read
            handle.write((MR_LINE + "\n").encode())
        return scan_partial(*args, **kwargs)

    monkeypatch.setattr(parallel, "scan_partial", appending)
    result = parallel.scan_file_parallel(str(path), "prefill_x.log", index, 2)
    assert result.bytes == len(data)
    assert mr_lines(result) == [301]
    assert [p.code for p in result.problems] == ["still-growing"]


def test_stop_after_limits_context_matches_the_same_sequentially_and_in_ranges(
    tmp_path: Path, library: Library, index: AnchorIndex, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A context pattern with `stop_after` is matched that many times per source, whichever way it is read."""
    from pdlogdoctor.scan.parallel import scan_file_parallel

    line = '[2026-07-02 10:17:02] INFO:     10.0.0.1:1 - "POST /v1/chat/completions HTTP/1.1" 200 OK\n'
    filler = "[2026-07-02 10:17:02 TP0] Decode batch. #running-req: 1, #token: 1\n" * 3000
    path = tmp_path / "decode.log"
    path.write_text((line * 40 + filler) * 60)
    monkeypatch.setattr(parallel, "MIN_RANGE_BYTES", 1 << 20)  # the ~13 MB file in two ranges
    limit = library.pattern("http-request-ok").stop_after
    assert limit is not None
    with path.open("rb") as stream:
        sequential = scan_stream(stream, "decode.log", index, chunk_bytes=1 << 16)
    ranged = scan_file_parallel(path, "decode.log", index, 2, None)
    for result in (sequential, ranged):
        kept = [e for e in result.events if e.pattern == "http-request-ok"]
        assert len(kept) == limit
        assert [e.line for e in kept] == [1, 2, 3][:limit]


@pytest.mark.parametrize("chunk", [64, 200, 1000, 1 << 20])
def test_a_line_without_a_time_takes_the_time_of_the_line_above_it_in_every_buffer(
    index: AnchorIndex, chunk: int
) -> None:
    """The lines near a line without a time are read once per buffer (stamps.read_near): what a
    line at an offset said in an earlier buffer (or region) is never lent to the line at that
    offset now. Every error line here sits under a line one second later than the one before."""
    words = ["".join(letters) for letters in itertools.product("bcdfgk", repeat=3)][:150]
    lines = []
    for number, word in enumerate(words):
        lines.append(f"[2026-07-02 10:{number // 60:02d}:{number % 60:02d}] scheduler step")
        lines.append(f"RuntimeError: the {word} worker broke")  # no time of its own; its own template
    result = scan("\n".join(lines).encode() + b"\n", index, chunk)
    broke = [event for event in result.events if "worker broke" in event.text]
    assert len(broke) == len(words)
    for event in broke:
        above = (event.line - 2) // 2  # the step line above it, 0-based
        assert event.time == epoch_of("2026-07-02", f"10:{above // 60:02d}:{above % 60:02d}", "")


@pytest.mark.parametrize("chunk", [64, 1000, 1 << 20])
def test_a_traceback_longer_than_the_lookback_keeps_the_time_of_the_line_that_announced_it(
    tmp_path: Path, index: AnchorIndex, chunk: int
) -> None:
    """Its exception line is a hundred frames below the stamped line above it: it takes that line's
    time (inferred), read as one buffer (a small file, opened by its path: one pass to the end) or in
    chunks whose ends fall anywhere (the stamp remembered from the buffer before)."""
    frames = [f'  File "/usr/lib/python3.12/site-packages/pkg/mod{n}.py", line {n}, in call{n}' for n in range(100)]
    lines = [
        "[2026-07-02 10:00:00] server starting",
        "[2026-07-02 10:00:07] loading weights",
        "Traceback (most recent call last):",
        *frames,
        "OSError: [Errno 28] No space left on device",
    ]
    path = tmp_path / "decode.log"
    path.write_text("\n".join(lines) + "\n")
    with open_regular(path) as whole:
        read_whole = scan_stream(whole, "decode.log", index)
    chunked = scan(path.read_bytes(), index, chunk)
    for result in (read_whole, chunked):
        [full] = [e for e in result.events if e.pattern == "disk-full"]
        assert full.time == epoch_of("2026-07-02", "10:00:07", "")
        assert full.time_inferred


@pytest.mark.parametrize("prefix", ["decode-1  | ", "[pod/pd-decode-0/decode] "], ids=["compose", "kubectl"])
def test_a_collectors_prefix_changes_no_event(library: Library, index: AnchorIndex, prefix: str) -> None:
    """The library's example lines behind a collector's prefix find the events they find alone: a line
    is read behind its prefix, and an anchor found in the prefix only (compose's `|`) names no candidate."""
    # (A line of its own holding ` | ` is left as it is: compose's prefix is not told from a table's cell.)
    lines = [line for line in example_lines(library) if " | " not in line]
    plain = scan("\n".join(lines).encode() + b"\n", index)
    prefixed = scan("\n".join(prefix + line for line in lines).encode() + b"\n", index)
    # Which lines: a heading's measures read from the rows below it keep their prefixes, a field apart.
    assert [(pattern, line) for pattern, line, _ in found(prefixed)] == [
        (pattern, line) for pattern, line, _ in found(plain)
    ]
