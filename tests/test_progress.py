"""Progress that tells the truth (issue 23): bytes on disk for compressed input, every worker
counted as it goes, a byte counter for stdin, and never on a pipe or in CI logs unless asked.

The newcomer saw `1,074.1/156.6 MB` with ETA 0:00:00 for a 157 MB .gz (inflated bytes counted
against the compressed size), a 1 GB file stop at half then jump (the workers' ranges were added
at the end, in one step), and nothing at all for 14 s of stdin.
"""

from __future__ import annotations

import gzip
import io
import subprocess
import sys
from pathlib import Path

import pytest

from pdlogdoctor.cli import behaviour as cli
from pdlogdoctor.library.patterns import Library
from pdlogdoctor.pipeline import run
from pdlogdoctor.scan import parallel
from pdlogdoctor.scan.index import AnchorIndex

from .bundle_copy import SEED

DECODE = SEED / "decode_mia1-p06-g14.log"


@pytest.fixture(scope="module")
def index(library: Library) -> AnchorIndex:
    return AnchorIndex.build(library)


def invoke(*args: str) -> tuple[int, str, str]:
    from typer.testing import CliRunner

    from pdlogdoctor.cli.commands import app

    result = CliRunner().invoke(app, list(args), prog_name="pdlogdoctor")
    return result.exit_code, result.stdout, result.stderr


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_compressed_input_counts_the_bytes_on_disk(library: Library, tmp_path: Path) -> None:
    packed = tmp_path / "decode_big.log.gz"
    packed.write_bytes(gzip.compress(DECODE.read_bytes() * 60))  # ~5 MB of text, a tenth of it on disk
    seen: list[int] = []
    run([str(packed)], library, on_progress=seen.append)
    size = packed.stat().st_size
    assert sum(seen) == size  # what the bar's total counts: the file as it is on disk
    assert all(step >= 0 for step in seen)


def test_every_worker_is_counted_as_it_goes(
    index: AnchorIndex, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "decode_big.log"
    path.write_bytes(DECODE.read_bytes() * 150)  # ~13 MB
    monkeypatch.setattr(parallel, "MIN_RANGE_BYTES", 1 << 20)
    ranges = parallel.plan_ranges(str(path), 3)
    assert len(ranges) == 3
    seen: list[int] = []
    parallel.scan_file_parallel(str(path), path.name, index, 3, seen.append)
    assert sum(seen) == path.stat().st_size
    # Each range is reported by the one who read it, never two workers' ranges in one step.
    assert max(seen) <= max(end - start for start, end in ranges)
    assert len(seen) >= len(ranges)


def test_stdin_gets_a_byte_counter_on_a_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("CI", raising=False)
    monkeypatch.setenv("TERM", "xterm")
    monkeypatch.setattr(sys, "stderr", Terminal())
    with cli._progress(["-"]) as callback:
        assert callback is not None  # the size is unknown: it counts what was read
        callback(64 << 20)


def test_no_bar_on_a_pipe_or_in_ci_unless_asked(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    big = tmp_path / "big.log"
    with big.open("wb") as handle:
        handle.truncate(60 << 20)
    monkeypatch.setattr(sys, "stderr", Terminal())
    monkeypatch.setenv("TERM", "xterm")
    monkeypatch.setenv("CI", "true")  # a CI runner that gives the job a terminal: its log keeps every redraw
    with cli._progress([str(big)]) as in_ci:
        assert in_ci is None
    with cli._progress([str(big)], asked=True) as asked:
        assert asked is not None
    monkeypatch.setattr(sys, "stderr", io.StringIO())
    monkeypatch.delenv("CI")
    with cli._progress([str(big)]) as piped:
        assert piped is None
    with cli._progress([str(big)], asked=True) as asked_on_a_pipe:
        assert asked_on_a_pipe is not None
    _, out, _ = invoke("analyze", "--help")
    assert "--progress" in out


def test_a_known_total_shows_the_bar_from_the_first_bytes_and_stdin_past_the_threshold(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A file of 50 MB or more is long to read: its bar is shown from the start (seen by hand: a
    92 MB .gz showed nothing until 53 MB were read). Standard input, whose size is unknown, gets its
    counter once 50 MB were read, so a short pipe shows none."""
    from rich.progress import Progress

    started: list[bool] = []
    monkeypatch.setattr(Progress, "start", lambda self: started.append(True))
    monkeypatch.delenv("CI", raising=False)
    monkeypatch.setenv("TERM", "xterm")
    monkeypatch.setattr(sys, "stderr", Terminal())
    big = tmp_path / "big.log"
    with big.open("wb") as handle:
        handle.truncate(60 << 20)
    with cli._progress([str(big)]) as callback:
        assert callback is not None
        callback(1 << 20)
        assert started == [True]
    started.clear()
    with cli._progress(["-"]) as counter:
        assert counter is not None
        counter(1 << 20)
        assert started == []
        counter(60 << 20)
        assert started == [True]


def test_a_pipe_on_stdin_is_counted_not_asked_where_it_is() -> None:
    """Standard input from a pipe is a file descriptor that cannot tell its position (ESPIPE): it is
    counted by what was read. Seen by hand: `cat logs | pdlogdoctor analyze -` on a terminal (and
    with --progress anywhere) died with `OSError: [Errno 29] Illegal seek`."""
    logs = b"".join(path.read_bytes() for path in sorted(SEED.glob("*.log")))
    done = subprocess.run(
        [sys.executable, "-m", "pdlogdoctor", "analyze", "--progress", "-q", "-"],
        input=logs,
        capture_output=True,
        check=False,
    )
    assert done.returncode == 1, done.stderr.decode()[-600:]
    assert done.stdout.decode().startswith("mori-mr-size-limit ")
