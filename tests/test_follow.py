"""`analyze --follow`: a stream's scan kept from read to read finds, at every moment, what a
post-mortem scan of the bytes written so far finds; and the follower's report on the final
files is the post-mortem report."""

from __future__ import annotations

import contextlib
import io
import itertools
import json
import os
import pty
import shutil
import signal
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pdlogdoctor.cli import follow as follow_module
from pdlogdoctor.cli.follow import (
    POLL_SECONDS,
    STATUS_SECONDS,
    ChangesOnly,
    Silent,
    Watch,
    follow_until_done,
    sure_cause,
    verdict_line,
)
from pdlogdoctor.ingest.content import SNIFF_BYTES
from pdlogdoctor.ingest.rotation import streams
from pdlogdoctor.ingest.tail import KEPT_SEGMENTS
from pdlogdoctor.library.patterns import Library
from pdlogdoctor.model import Report
from pdlogdoctor.pipeline import Follow, decided, run
from pdlogdoctor.reason.fingerprint import fingerprint
from pdlogdoctor.scan.events import SAMPLE_FULL
from pdlogdoctor.scan.growing import KEPT_BUCKETS, GrowingScan
from pdlogdoctor.scan.index import AnchorIndex
from pdlogdoctor.scan.search import scan_stream
from pdlogdoctor.scan.series import MAX_BUCKETS

from .bundle_copy import SEED
from .conftest import FIXTURES
from .replay import carries_times, in_time_order

# A decode log with Mooncake's registration failures; a prefill log's traceback and the untimed
# lines under it (their time comes from the stamped lines above and below them); a recursion's
# traceback; and an error line under the untimed progress lines of a model's loading, 56 lines
# below the last stamped line (when a read ends in those lines, the time of the line comes from
# the stamp remembered from before the read: stamps.py).
TRACEBACK = "\n".join(
    [
        "[2026-07-02 10:15:02 TP1] Scheduler hit an exception: Traceback (most recent call last):",
        *[
            '  File "/usr/lib/python3.10/copy.py", line 146, in deepcopy\n    y = copier(x, memo)',
            '  File "/usr/lib/python3.10/copy.py", line 231, in _deepcopy_dict\n'
            "    y[deepcopy(key, memo)] = deepcopy(value, memo)",
        ]
        * 10,
        "RecursionError: maximum recursion depth exceeded while calling a Python object",
        "",
    ]
)
SHARDS = [f"Loading safetensors checkpoint shards: {n * 100 // 61:3d}% Completed | {n}/61 [00:{n:02d}<00:30,  1.38s/it]"
          for n in range(62)]  # fmt: skip
LOADING = "\n".join(
    [
        "[2026-07-02 10:16:40 TP0] Load weight begin. avail mem=177.61 GB",
        *SHARDS[:55],
        "RecursionError: maximum recursion depth exceeded while calling a Python object",
        *SHARDS[55:],
        "",
    ]
)
WRITTEN = (
    (FIXTURES / "mori-mr-size-limit-seed" / "decode_mia1-p06-g14.log").read_bytes()
    + (FIXTURES / "blind-mc-mr-badaddr" / "prefill_node01.log").read_bytes()
    + TRACEBACK.encode()
    + LOADING.encode()
)


def test_a_line_read_in_the_lines_held_back_takes_the_time_remembered_from_before_them(library: Library) -> None:
    """The error under the loading lines, read with 5 lines after it: the lines held back for what
    may follow (the last 60) start below the stamped line, and the snapshot gives the error the
    time a scan of the prefix gives."""
    index = AnchorIndex.build(library)
    written = (FIXTURES / "mori-mr-size-limit-seed" / "decode_mia1-p06-g14.log").read_bytes() + LOADING.encode()
    prefix = written[: written.rindex(SHARDS[-1].encode())]  # no traceback above: nothing else held back
    growing = GrowingScan("decode.log", index)
    growing.read(io.BytesIO(prefix))
    error = next(e for e in growing.result().events if e.text.startswith("RecursionError"))
    assert error.time_text == "2026-07-02 10:16:40"
    assert growing.result() == scan_stream(io.BytesIO(prefix), "decode.log", index)


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


# A busy decode server's log past SAMPLE_FULL (events.py: beyond its first MB only some of its
# metrics lines are read, the others counted), then MORI's failure and the lines after it.
BUSY = (FIXTURES / "busy-passing-sglang" / "decode_b200-08.log").read_bytes()
BUSY_WRITTEN = BUSY * (SAMPLE_FULL * 5 // 2 // len(BUSY)) + (FIXTURES / "mori-mr-size-limit-seed" /
                                                             "prefill_mia1-p06-g13.log").read_bytes()  # fmt: skip


@pytest.mark.parametrize("cut", [SAMPLE_FULL * 3 // 2, SAMPLE_FULL * 2, len(BUSY_WRITTEN) - 4000])
def test_a_snapshot_of_a_busy_log_past_its_first_mb_is_its_post_mortem_scan(library: Library, cut: int) -> None:
    """Past SAMPLE_FULL the lines held back for what may follow hold sampled metrics lines, some read
    and some only counted: the snapshot counts and keeps them as the post-mortem scan of the prefix
    does (a snapshot that scanned them apart lost the last one's event: KeyError), and reading on
    after it changes nothing of the end."""
    index = AnchorIndex.build(library)
    growing = GrowingScan("decode.log", index)
    growing.read(io.BytesIO(BUSY_WRITTEN[:cut]))
    assert growing.result() == scan_stream(io.BytesIO(BUSY_WRITTEN[:cut]), "decode.log", index)
    growing.read(io.BytesIO(BUSY_WRITTEN[cut:]))
    assert growing.result() == scan_stream(io.BytesIO(BUSY_WRITTEN), "decode.log", index)
    assert growing.result().counts["sglang-decode-stats"] == BUSY_WRITTEN.count(b"] Decode batch, #running-req")


# ---------------------------------------------------------------- the follower on the fixture corpus


def replayed(bundle: Path, target: Path, library: Library, steps: int = 12) -> tuple[Follow, list[str]]:
    """`bundle`'s lines written into `target` in time order (tests/replay.py) while a follower
    reads them: it reads after every share of the lines (one line half-written each time), and
    decides at some of those points. Returns the follower and the verdicts it decided on the way."""
    order, whole = in_time_order(bundle, target)
    for path in whole:
        copy = target / path.relative_to(bundle)
        copy.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(path, copy)
    follow = Follow([str(target)], library)
    every = max(1, -(-len(order) // steps))
    said: list[str] = []
    for number, (path, data) in enumerate(order):
        path.parent.mkdir(parents=True, exist_ok=True)
        with path.open("ab") as handle:
            if number % every == every - 1:  # read while the line is half written
                handle.write(data[: len(data) // 2])
                handle.flush()
                follow.read()
                if number // every % 4 == 1:
                    said.append(follow.decided().report.verdict.id)
            handle.write(data[len(data) // 2 :] if number % every == every - 1 else data)
    while follow.read() or follow.backlog:
        pass
    return follow, said


CORPUS = sorted(path.parent for path in FIXTURES.rglob("expected.toml"))


# Every third fixture is replayed: the follower's reading is the same code whatever the logs say,
# and a third of the fixtures (some 60: timed and untimed, one file and many, gzip) give it their
# variety at a third of the suite's time; test_the_replays_cover_the_fixtures_whose_lines_carry_times
# checks all of them replay.
REPLAYED = CORPUS[::3]


@pytest.mark.slow
@pytest.mark.parametrize("bundle", REPLAYED, ids=lambda path: path.name)
def test_following_a_replay_gives_the_post_mortem_report(bundle: Path, library: Library, tmp_path: Path) -> None:
    """Each fixture's lines written in time order (untimed lines with the stamped line above them)
    while the follower reads: its report on the final files is the post-mortem one, whole (verdict,
    confidence, chain, fingerprint, inputs, excerpt)."""
    target = tmp_path / bundle.name
    target.mkdir()
    follow, _ = replayed(bundle, target, library)
    followed = follow.final(follow.decided()).report
    follow.close()
    post_mortem = run([str(target)], library)
    assert followed.verdict.id == post_mortem.verdict.id
    assert followed.verdict.confidence == post_mortem.verdict.confidence
    assert [e.where for e in followed.chain] == [e.where for e in post_mortem.chain]
    assert fingerprint(followed) == fingerprint(post_mortem)
    assert followed == post_mortem


def test_the_replays_cover_the_fixtures_whose_lines_carry_times(tmp_path: Path) -> None:
    """Every fixture bundle is replayed, each of its logs line by line (none copied whole: a gzipped
    log is replayed as its server wrote it), and all but a few carry times, so their replays
    interleave the files as they were written; the few without are pastes, replayed file by file.
    (2026-12-01: 177 bundles, 172 timed.)"""
    assert sorted(path for path in FIXTURES.iterdir() if path.is_dir()) == CORPUS
    assert all(not in_time_order(bundle, tmp_path)[1] for bundle in CORPUS)
    untimed = [bundle.name for bundle in CORPUS if not carries_times(bundle)]
    assert len(untimed) <= 5 and all("paste" in name or "error-only" in name for name in untimed)


# ---------------------------------------------------------------- growth the follower must follow

SEED_PREFILL = (SEED / "prefill_mia1-p06-g13.log").read_bytes().splitlines(keepends=True)
ROOT_LINE = 34  # MORI's first `RegisterRdmaMemoryRegion failed!` in the seed's prefill log
BEFORE, ROOT, AFTER = b"".join(SEED_PREFILL[: ROOT_LINE - 1]), SEED_PREFILL[ROOT_LINE - 1], SEED_PREFILL[ROOT_LINE:]


def copied_beside_prefill(target: Path) -> None:
    """The seed's logs but the prefill's, in `target`: the prefill log is written by the test."""
    target.mkdir(parents=True, exist_ok=True)
    for name in ("decode_mia1-p06-g14.log", "router.log", "bench.log"):
        shutil.copyfile(SEED / name, target / name)


def root_events(report: Report) -> list[str]:
    return [e.where for e in report.roots if e.pattern == "mori-mr-register-failed"]


def test_a_rotated_log_goes_on_under_its_new_name_and_the_new_file_is_read_from_its_start(
    library: Library, tmp_path: Path
) -> None:
    """logrotate's `create`: decode.log renamed to .1 (the server still writing into it until it
    reopens), a new empty file under the old name. The renamed file is the same stream, its lines
    keep their numbers; the report is the post-mortem one on the final files."""
    copied_beside_prefill(tmp_path)
    live = tmp_path / "prefill_mia1-p06-g13.log"
    live.write_bytes(BEFORE)
    follow = Follow([str(tmp_path)], library)
    follow.read()
    rotated = tmp_path / "prefill_mia1-p06-g13.log.1"
    live.rename(rotated)
    with rotated.open("ab") as handle:  # written after the rename, before the server reopened its log
        handle.write(ROOT)
    live.write_bytes(b"".join(AFTER))
    follow.read()
    report = follow.final().report
    assert root_events(report)[0] == f"{rotated}:{ROOT_LINE}"
    assert report.verdict.id == "mori-mr-size-limit"
    assert report == run([str(tmp_path)], library)


def test_a_file_given_by_name_is_followed_across_its_rotation(library: Library, tmp_path: Path) -> None:
    """The path given is a file: after the rename its old content is found by its inode in its
    directory, and the new file under the name is read from its first line."""
    live = tmp_path / "prefill_mia1-p06-g13.log"
    live.write_bytes(BEFORE + ROOT)
    follow = Follow([str(live)], library)
    follow.read()
    live.rename(tmp_path / "prefill_mia1-p06-g13.log.1")
    live.write_bytes(AFTER[0])  # MORI's next failure
    follow.read()
    found = {e.where for s in follow.scanned() for e in s.events if e.pattern == "mori-mr-register-failed"}
    assert found == {f"{live}.1:{ROOT_LINE}", f"{live}:1"}


def bytes_read_by_this_process() -> int:
    """What this process has read through read(2) and its kin (/proc/self/io rchar: files, pipes)."""
    for line in Path("/proc/self/io").read_text().splitlines():
        if line.startswith("rchar:"):
            return int(line.split()[1])
    raise AssertionError("no rchar in /proc/self/io")


@pytest.mark.skipif(not Path("/proc/self/io").exists(), reason="counts bytes read from /proc/self/io (Linux)")
def test_a_followed_directory_is_read_once_however_often_it_is_walked(library: Library, tmp_path: Path) -> None:
    """Each rotation (`.1` deleted, the log renamed to `.1`, a new log) changes the directory, which
    is walked again; the walk looks at each file's head (is it compressed, UTF-16, an archive?) and
    must not read the files again: the bytes read are the bytes written, plus one look of at most
    SNIFF_BYTES per file per walk, per file begun and per name whose file went (looked at again).
    (Each look read a MiB of the file: 1,328 MB read for 1,200 MB written in the benchmark.)"""
    logs = [tmp_path / "prefill_mia1-p06-g13.log", tmp_path / "decode_mia1-p06-g14.log"]
    router = (SEED / "router.log").read_bytes()
    content = router * ((3 << 19) // len(router))  # 1.5 MiB: more than a look at a head used to read

    def rotate() -> int:
        for log in logs:
            rotated = log.with_name(log.name + ".1")
            rotated.unlink(missing_ok=True)
            log.rename(rotated)
            log.write_bytes(content)
        while follow.read():
            pass
        return len(logs) * len(content)

    follow = Follow([str(tmp_path)], library)
    for log in logs:
        log.write_bytes(content)
    follow.read()
    rotate()  # the modules a scan, a rotation and a file that went import on first use are read
    rotate()  # here, not below (the second rotation is the first to delete a `.1` that was followed)
    before, rotations = bytes_read_by_this_process(), 4
    written = sum(rotate() for _ in range(rotations))
    read = bytes_read_by_this_process() - before
    walked, begun, went = 2 * len(logs), len(logs), len(logs)  # per rotation: the files, the new logs, the .1
    assert written <= read <= written + rotations * (walked + begun + went) * SNIFF_BYTES + 4096
    assert {s.source.name for s in follow.scanned()} >= {str(log) for log in logs}


@pytest.mark.parametrize("how", ["truncated", "deleted and recreated"])
def test_a_file_truncated_or_recreated_keeps_what_was_read_as_a_segment_of_its_stream(
    library: Library, tmp_path: Path, how: str
) -> None:
    """A server restarted with `> prefill.log` (truncated in place), or its log deleted and written
    again: the lines read before are kept (named NAME#1, one stream with NAME: rotation.py), the
    new content is read from its first line, and the root found before still leads the report."""
    copied_beside_prefill(tmp_path)
    live = tmp_path / "prefill_mia1-p06-g13.log"
    live.write_bytes(BEFORE + ROOT)
    follow = Follow([str(tmp_path)], library)
    follow.read()
    if how == "deleted and recreated":
        live.unlink()
    live.write_bytes(SEED_PREFILL[0])  # `>`: the file starts again
    follow.read()
    with live.open("ab") as handle:
        handle.write(b"".join(SEED_PREFILL[1:3]))
    follow.read()
    names = {s.source.name: s.source.lines for s in follow.scanned()}
    assert names[f"{live}#1"] == ROOT_LINE and names[str(live)] == 3
    report = follow.final().report
    assert report.verdict.id == "mori-mr-size-limit"
    assert root_events(report) == [f"{live}#1:{ROOT_LINE}"]
    assert streams(names) == {f"{live}#1": str(live), str(live): str(live)}


def test_at_most_a_few_segments_of_one_name_are_kept(library: Library, tmp_path: Path) -> None:
    """A log truncated again and again (a server in a restart loop) keeps KEPT_SEGMENTS old segments,
    newest first, and the report says how many it dropped: memory stays bounded."""
    live = tmp_path / "prefill_mia1-p06-g13.log"
    live.write_bytes(SEED_PREFILL[0])
    follow = Follow([str(tmp_path)], library)
    follow.read()
    for number in range(1, KEPT_SEGMENTS + 3):
        live.write_bytes(b"".join(SEED_PREFILL[: number + 1]))
        follow.read()
        live.write_bytes(b"")
        follow.read()
    kept = sorted(s.source.name for s in follow.scanned() if "#" in s.source.name)
    assert kept == sorted(f"{live}#{age}" for age in range(1, KEPT_SEGMENTS + 1))
    newest = next(s for s in follow.scanned() if s.source.name == f"{live}#1")
    assert newest.source.lines == KEPT_SEGMENTS + 3  # the last truncated one
    assert any("dropped 2 older segments" in note for note in follow.final().report.notes)


# The seed decode log's first `Decode batch.` line (a metrics pattern's: its numbers go to a track).
DECODE_BATCH = next(line for line in (SEED / "decode_mia1-p06-g14.log").read_bytes().splitlines(keepends=True)
                    if b"Decode batch." in line)  # fmt: skip
RUNNING = "running"  # its `#running-req` number (the sglang-decode-stats pattern's capture)


def decode_batches(start: int, seconds: int) -> bytes:
    """The line once a second for `seconds`, from 10:00:00 + `start` seconds (its stamp restamped)."""
    body = DECODE_BATCH[DECODE_BATCH.index(b" DP0") :]
    stamps = (
        b"[2026-07-02 %02d:%02d:%02d" % (10 + n // 3600, n // 60 % 60, n % 60) for n in range(start, start + seconds)
    )
    return b"".join(stamp + body for stamp in stamps)


def test_segments_kept_after_their_file_went_keep_their_metrics_tracks_in_few_buckets(
    library: Library, tmp_path: Path
) -> None:
    """A decode server restarted again and again (its log truncated), 200 s of `Decode batch.` lines
    each time: each kept segment's track holds every line, counted, in at most KEPT_BUCKETS time
    buckets, so a name's kept segments together hold no more than one live track (MAX_BUCKETS);
    the live log's track stays at its full resolution, as post-mortem reads it. (At full width each
    kept segment of a busy log held a track of up to MAX_BUCKETS buckets: RSS rose as they filled.)"""
    live = tmp_path / "decode_mia1-p06-g14.log"
    live.write_bytes(b"")
    follow = Follow([str(tmp_path)], library)
    follow.read()
    for restart in range(KEPT_SEGMENTS + 1):
        live.write_bytes(decode_batches(restart * 200, 200))
        follow.read()
        live.write_bytes(b"")
        follow.read()
    live.write_bytes(decode_batches(5000, 200))
    follow.read()
    tracks = {s.source.name: [x for x in s.series if x.metric == RUNNING] for s in follow.scanned()}
    kept = [track for name, found in tracks.items() if "#" in name for track in found]
    assert len(kept) == KEPT_SEGMENTS
    assert all(track.count == 200 and len(track.points) <= KEPT_BUCKETS for track in kept)
    assert sum(len(track.points) for track in kept) <= MAX_BUCKETS
    assert [len(track.points) for track in tracks[str(live)]] == [200]


def test_a_directory_whose_files_appear_late(library: Library, tmp_path: Path) -> None:
    """Nothing at first; then the router's log, then a subdirectory with the servers' logs, and a
    log that is empty when first seen: each is read from its first line, and the report is the
    post-mortem one."""
    follow = Follow([str(tmp_path)], library)
    follow.read()
    assert follow.decided().report.verdict.id == "no-failure-seen"
    shutil.copyfile(SEED / "router.log", tmp_path / "router.log")
    follow.read()
    servers = tmp_path / "servers"
    servers.mkdir()
    follow.read()
    (servers / "prefill_mia1-p06-g13.log").write_bytes(b"")
    shutil.copyfile(SEED / "decode_mia1-p06-g14.log", servers / "decode_mia1-p06-g14.log")
    follow.read()
    (servers / "prefill_mia1-p06-g13.log").write_bytes(BEFORE + ROOT + b"".join(AFTER))
    shutil.copyfile(SEED / "bench.log", tmp_path / "bench.log")
    follow.read()
    report = follow.final().report
    assert root_events(report)[0] == f"{servers / 'prefill_mia1-p06-g13.log'}:{ROOT_LINE}"
    assert report == run([str(tmp_path)], library)


def test_standard_input_is_followed_to_its_end(library: Library) -> None:
    """`kubectl logs -f --prefix ... | pdlogdoctor analyze --follow -`: read as it comes, finished
    at its end, with the report `analyze -` gives on the same bytes."""
    data = BEFORE + ROOT + b"".join(AFTER)
    follow = Follow(["-"], library, io.BytesIO(data))
    while not follow.finished:
        follow.read()
    assert follow.final().report == run(["-"], library, io.BytesIO(data))


# `kubectl logs -f --prefix -l app=sglang` (kubectl's logs.go, addPrefixIfNeeded: `[pod/%s/%s] `,
# pod then container) and `docker compose logs -f` (`SERVICE-N  | `, the names padded to one
# width): the servers' lines interleaved as they are written, each behind its pod's or service's tag.
COLLECTED = {
    "prefill_mia1-p06-g13.log": ("[pod/sglang-prefill-0/prefill] ", "prefill-1  | "),
    "decode_mia1-p06-g14.log": ("[pod/sglang-decode-0/decode] ", "decode-1   | "),
    "router.log": ("[pod/sglang-router-7d9f8-x2k4q/router] ", "router-1   | "),
}


def collected(shape: int, target: Path) -> bytes:
    """The seed's servers' lines in time order, as one collector prints them (COLLECTED[name][shape])."""
    order, _ = in_time_order(SEED, target)
    tagged = [
        b"".join(COLLECTED[path.name][shape].encode() + line for line in block.splitlines(keepends=True))
        for path, block in order
        if path.name in COLLECTED
    ]
    return b"".join(tagged)


@pytest.mark.parametrize("shape", [0, 1], ids=["kubectl --prefix", "docker compose"])
def test_a_collectors_stream_on_standard_input_gives_the_post_mortem_report(
    library: Library, tmp_path: Path, shape: int
) -> None:
    """Several servers' logs through one collector, read from standard input as they come: MORI's
    failure is found under the prefill's tag and leads, and the report is what `analyze -` gives."""
    data = collected(shape, tmp_path)
    follow = Follow(["-"], library, io.BytesIO(data))
    while not follow.finished:
        follow.read()
    report = follow.final().report
    root = data[: data.index(ROOT.rstrip())].count(b"\n") + 1
    assert report.verdict.id == "mori-mr-size-limit"
    assert root_events(report)[0] == f"<stdin>:{root}"
    assert report == run(["-"], library, io.BytesIO(data))


# ---------------------------------------------------------------- the live loop, on a clock the test turns


class Steps:
    """A clock whose every wait writes the next step of the logs: the loop runs as it would while
    servers write, without sleeping. `done` counts the steps written."""

    def __init__(self, steps: list[list[tuple[Path, bytes]]], stopping: threading.Event | None = None) -> None:
        self.time = 0.0
        self.steps = steps
        self.done = 0
        self.stopping = stopping

    def now(self) -> float:
        return self.time

    def wait(self, seconds: float) -> None:
        self.time += seconds
        if self.done < len(self.steps):
            for path, data in self.steps[self.done]:
                with path.open("ab") as handle:
                    handle.write(data)
            self.done += 1
        elif self.stopping is not None:
            self.stopping.set()  # SIGTERM once everything was written


def in_steps(bundle: Path, target: Path, count: int) -> list[list[tuple[Path, bytes]]]:
    order, _ = in_time_order(bundle, target)
    target.mkdir(parents=True, exist_ok=True)
    size = -(-len(order) // count)
    return [order[start : start + size] for start in range(0, len(order), size)]


def test_exit_on_cause_stops_within_a_poll_or_two_of_the_root_line(library: Library, tmp_path: Path) -> None:
    """The seed incident written in 40 steps: the loop stops on MORI's region ceiling, sure, a
    decision or two after the step that wrote the root line, while the rest is still to come."""
    steps = in_steps(SEED, tmp_path, 40)
    root_step = next(n for n, step in enumerate(steps) if any(ROOT in data for _, data in step))
    clock, said = Steps(steps), io.StringIO()
    decision = follow_until_done(Follow([str(tmp_path)], library), Watch(exit_on_cause=True), ChangesOnly(said),
                                 clock, threading.Event())  # fmt: skip
    assert decision.report.verdict.id == "mori-mr-size-limit" and sure_cause(decision.report)
    assert root_step < clock.done <= root_step + 3 < len(steps)
    assert said.getvalue().splitlines()[-1] == verdict_line(decision.report)
    assert f"at {tmp_path / 'prefill_mia1-p06-g13.log'}:{ROOT_LINE}: " in verdict_line(decision.report)


def test_until_idle_stops_after_the_logs_stop_growing_and_says_each_change_once(
    library: Library, tmp_path: Path
) -> None:
    """A healthy run written in 10 steps: the loop says each new verdict once (a pipe: no status
    lines), and stops when nothing grew for --until-idle seconds: healthy."""
    bundle = FIXTURES / "gate-passed-stays-healthy"
    steps = in_steps(bundle, tmp_path, 10)
    clock, said = Steps(steps), io.StringIO()
    decision = follow_until_done(Follow([str(tmp_path)], library), Watch(until_idle=5.0), ChangesOnly(said), clock,
                                 threading.Event())  # fmt: skip
    assert decision.report.verdict.id == "healthy"
    written = len(steps) * POLL_SECONDS  # one step a wait
    assert clock.done == len(steps) and 5.0 <= clock.time - written < 5.0 + 2 * POLL_SECONDS
    ids = [line.split()[1] for line in said.getvalue().splitlines()]
    assert ids[-1] == "healthy" and all(one != next_one for one, next_one in itertools.pairwise(ids))


class Recorded:
    """What a terminal would show, with the clock's time of each redraw and verdict."""

    def __init__(self, clock: Steps) -> None:
        self.clock = clock
        self.statuses: list[tuple[float, str]] = []
        self.verdicts: list[str] = []

    def status(self, line: str) -> None:
        self.statuses.append((self.clock.now(), line))

    def verdict(self, line: str) -> None:
        self.verdicts.append(line)


def test_the_status_line_is_redrawn_a_few_times_a_second_however_often_it_polls(
    library: Library, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The seed written in 300 steps, one every 10 ms poll: the status line (files, lines, events,
    the leading verdict) changes all the time, but is redrawn at most every STATUS_SECONDS (0.25 s:
    four times a second), each redraw saying something new, the last one the final count."""
    monkeypatch.setattr(follow_module, "POLL_SECONDS", 0.01)
    clock = Steps(in_steps(SEED, tmp_path, 300))
    shown = Recorded(clock)
    follow = Follow([str(tmp_path)], library)
    decision = follow_until_done(follow, Watch(until_idle=1.0), shown, clock, threading.Event())
    times = [at for at, _ in shown.statuses]
    assert len(times) >= 5
    assert min(later - earlier for earlier, later in itertools.pairwise(times)) >= STATUS_SECONDS
    assert len(times) <= clock.time / STATUS_SECONDS + 1
    lines = [line for _, line in shown.statuses]
    assert all(one != next_one for one, next_one in itertools.pairwise(lines))
    assert lines[-1].startswith("following 4 files · 1,404 lines · ")
    assert lines[-1].endswith(" · mori-mr-size-limit 0.97") and decision.report.verdict.id == "mori-mr-size-limit"
    assert shown.verdicts[-1].startswith("pdlogdoctor: mori-mr-size-limit ")  # said when the id changed


def test_a_signal_stops_the_watch_with_the_decision_on_everything_read(library: Library, tmp_path: Path) -> None:
    """SIGTERM (the event the handler sets) after the last step: the decision is made on all of it,
    the post-mortem verdict."""
    stopping = threading.Event()
    clock = Steps(in_steps(SEED, tmp_path, 5), stopping)
    follow = Follow([str(tmp_path)], library)
    decision = follow_until_done(follow, Watch(), Silent(), clock, stopping)
    assert clock.done == 5
    assert decision.report == decided(follow.scanned(), library).report
    assert follow.final(decision).report == run([str(tmp_path)], library)


# ---------------------------------------------------------------- the command


def pdlogdoctor(*args: str, **kwargs: Any) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "pdlogdoctor", *args], capture_output=True, text=True, timeout=120,
                          **kwargs)  # fmt: skip


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["--exit-on", "cause"], "--exit-on needs --follow"),
        (["--until-idle", "3"], "--until-idle needs --follow"),
        (["--follow", "--timeout", "5"], "--timeout is for a finished run"),
        (["--follow", "--exit-on", "verdict"], "--exit-on 'verdict' is not one of: cause"),
        (["--follow", "--until-idle", "0"], "--until-idle 0 is not a positive number of seconds"),
    ],
)
def test_options_that_do_not_go_with_follow_are_usage_errors(args: list[str], says: str) -> None:
    done = pdlogdoctor("analyze", str(SEED), *args)
    assert done.returncode == 2 and says in done.stderr and not done.stdout


def test_until_idle_reports_the_post_mortem_verdict_and_exit_code(tmp_path: Path) -> None:
    """Logs that stopped growing: read, decided, idle for --until-idle, then the report (here -q's
    line) and the exit code a post-mortem `analyze` gives; on a pipe, stderr has the verdict line."""
    logs = shutil.copytree(SEED, tmp_path / "logs")
    followed = pdlogdoctor("analyze", "--follow", str(logs), "--until-idle", "0.5", "-q")
    post_mortem = pdlogdoctor("analyze", str(logs), "-q")
    assert (followed.returncode, followed.stdout) == (post_mortem.returncode, post_mortem.stdout)
    assert followed.returncode == 1
    assert followed.stderr == ""  # -q: nothing while it runs
    said = pdlogdoctor("analyze", "--follow", str(logs), "--until-idle", "0.5", "-o", str(tmp_path / "r.json"))
    assert said.stderr.splitlines()[-1].startswith("pdlogdoctor: mori-mr-size-limit ")
    assert json.loads((tmp_path / "r.json").read_text())["verdict"]["id"] == "mori-mr-size-limit"


@pytest.mark.parametrize(
    ("bundle", "stop", "verdict", "code"),
    [
        (FIXTURES / "gate-passed-stays-healthy", signal.SIGTERM, "healthy", 0),
        (SEED, signal.SIGINT, "mori-mr-size-limit", 1),
    ],
    ids=["served, SIGTERM", "failed, SIGINT"],
)
def test_a_signal_ends_the_watch_with_the_report_and_the_verdicts_exit_code(
    tmp_path: Path, bundle: Path, stop: signal.Signals, verdict: str, code: int
) -> None:
    """A run that served, stopped with SIGTERM while followed (a CI step ending it): the JSON report
    on stdout, healthy, 0. A run that failed, stopped with Ctrl-C: its cause, 1 (not Python's 130)."""
    logs = shutil.copytree(bundle, tmp_path / "logs")
    process = subprocess.Popen([sys.executable, "-m", "pdlogdoctor", "analyze", "--follow", str(logs), "-f", "json"],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)  # fmt: skip
    assert process.stderr is not None
    first = process.stderr.readline()  # the first verdict: it is following
    process.send_signal(stop)
    out, _ = process.communicate(timeout=60)
    assert first.startswith(f"pdlogdoctor: {verdict} ")
    assert process.returncode == code
    assert json.loads(out)["verdict"]["id"] == verdict


def test_exit_on_cause_ends_a_watch_of_standard_input_that_is_still_open(tmp_path: Path) -> None:
    """`kubectl logs -f --prefix ... | pdlogdoctor analyze --follow - --exit-on cause`: the pipe never
    ends while the pods run; the doctor stops on the cause with its report and exit code 1 (the
    reading thread blocked on the open pipe must not hold the interpreter's exit)."""
    data = collected(0, tmp_path)
    command = [sys.executable, "-m", "pdlogdoctor", "analyze", "--follow", "-", "--exit-on", "cause", "-q"]
    process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert process.stdin is not None and process.stdout is not None and process.stderr is not None
    writer = threading.Thread(target=_write_and_keep_open, args=(process.stdin, data))
    writer.start()
    try:
        code = process.wait(timeout=60)
        out, err = process.stdout.read(), process.stderr.read()
    finally:
        process.kill()
        writer.join()
        with contextlib.suppress(BrokenPipeError):
            process.stdin.close()
    assert (code, err) == (1, b"")
    assert out.startswith(b"mori-mr-size-limit ")


def _write_and_keep_open(pipe: Any, data: bytes) -> None:
    """Write `data` into the pipe and leave it open (the doctor may stop before it read it all)."""
    with contextlib.suppress(BrokenPipeError):
        pipe.write(data)
        pipe.flush()


def test_standard_input_is_followed_until_it_ends(tmp_path: Path) -> None:
    data = (SEED / "prefill_mia1-p06-g13.log").read_bytes()
    followed = pdlogdoctor("analyze", "--follow", "-", "-q", input=data.decode())
    assert (followed.returncode, followed.stdout) == (1, pdlogdoctor("analyze", "-", "-q", input=data.decode()).stdout)


def test_on_a_terminal_one_status_line_is_redrawn(tmp_path: Path) -> None:
    """stderr a terminal: the status line (files, lines, events, the leading verdict) is drawn in
    place (carriage returns, no new line per redraw), and the verdict is printed above it."""
    logs = shutil.copytree(SEED, tmp_path / "logs")
    leader, follower = pty.openpty()
    env = {**os.environ, "TERM": "xterm", "COLUMNS": "200"}
    process = subprocess.Popen([sys.executable, "-m", "pdlogdoctor", "analyze", "--follow", str(logs), "--until-idle",
                                "1"], stdout=subprocess.PIPE, stderr=follower, env=env)  # fmt: skip
    os.close(follower)
    shown = b""
    with contextlib.suppress(OSError):  # the terminal closes with the process
        while chunk := os.read(leader, 1 << 16):
            shown += chunk
    process.wait(timeout=60)
    os.close(leader)
    text = shown.decode(errors="replace")
    assert "\r\x1b[2Kfollowing 4 files · 1,404 lines · " in text  # redrawn in place
    assert "\r\x1b[2Kpdlogdoctor: mori-mr-size-limit 0.97 at " in text  # the verdict, above it
    assert process.returncode == 1
