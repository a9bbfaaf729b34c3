"""`analyze --follow` while logs are written: how soon the verdict comes, what it costs idle, and
whether its memory stays flat.

    python -m benchmarks.follow                   # all three, the figures benchmarks/README.md quotes
    python -m benchmarks.follow --only latency    # or idle, or memory

- latency: the seed incident's four logs (prefill, decode, router, the harness's) written at
  --rate MB/s in all (steady-state lines of each file, stamped as they are written) by this
  process, `pdlogdoctor analyze --follow DIR --exit-on cause -q` reading them in another; after
  --warmup seconds MORI's two `RegisterRdmaMemoryRegion failed!` lines are written as the seed
  has them, 0.54 s apart. The latency is from the first root line's write to the verdict line on
  the follower's stdout (median of --runs).
- idle: the same follower on the four logs once nothing more is written: its CPU time over
  --idle seconds, from /proc (a share of one core).
- memory: an hour of logs (--hours) written as fast as --rate allows, the files rotated every
  --rotate MiB as logrotate does (rename to .1, the old .1 deleted): the follower's RSS every
  second, from /proc. The deleted files are kept as segments (ingest/tail.py, KEPT_SEGMENTS per
  name), so it rises until that many rotations; flat when its last quarter is within a few MiB
  of its third.

Run it when the machine is quiet (`uptime`): it measures a second process sharing the cores.
"""

from __future__ import annotations

import argparse
import calendar
import contextlib
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import IO

from pdlogdoctor.ingest.tail import KEPT_SEGMENTS

ROOT = Path(__file__).resolve().parent.parent
SEED = ROOT / "fixtures" / "mori-mr-size-limit-seed"
PREFILL, DECODE, ROUTER, HARNESS = (
    "prefill_mia1-p06-g13.log",
    "decode_mia1-p06-g14.log",
    "router.log",
    "bench.log",
)
ROOT_MARK = b"RegisterRdmaMemoryRegion failed!"
ROOT_TIME = calendar.timegm((2026, 7, 2, 10, 16, 3, 0, 0, 0)) + 0.412  # MORI's first failure in the seed
START = ROOT_TIME + 0.5  # the steady lines' clock starts after the seed's last line before it
# Each file's steady-state line, as the seed's own logs print it (the stamp written in its place).
STEADY = {
    PREFILL: "[{t} DP0 TP0 EP0] Prefill batch. #new-seq: 4, #new-token: 713, #cached-token: 272, "
    "token usage: 0.04, #running-req: 1, #queue-req: 0\n",
    DECODE: "[{t} DP0 TP0 EP0] Decode batch. #running-req: 6, #token: 11224, token usage: 0.03, cuda graph: True, "
    "gen throughput (token/s): 447.35, #queue-req: 0\n",
    ROUTER: '{t} INFO http_request{{method=GET uri=/health version=HTTP/1.1 module="smg" '
    'request_id="0273765714a2f4d023dc99c5c7ea377d" status_code=200 latency=481}}: smg::response: '
    "src/middleware.rs:340: finished processing request\n",
    HARNESS: '[{t}] INFO:     127.0.0.1:52110 - "GET /health HTTP/1.1" 200 OK\n',
}


def stamp(seconds: float) -> str:
    return time.strftime("%Y-%m-%d %H:%M:%S", time.gmtime(seconds))


class Writer:
    """The four logs, written at `rate` bytes a second in all, each line stamped with the log's
    clock (START + seconds since the writer started, times `speed`)."""

    def __init__(self, directory: Path, rate: float, speed: float = 1.0) -> None:
        self.directory = directory
        self.rate = rate
        self.speed = speed
        self.began = time.monotonic()
        self.written = 0
        self.handles = {name: (directory / name).open("ab", buffering=0) for name in STEADY}

    def clock(self) -> float:
        return START + (time.monotonic() - self.began) * self.speed

    def seed_before_root(self) -> None:
        """Each seed log up to MORI's failure (the lines stamped before it, and the untimed lines
        under them); of the harness's, what it printed before its probe."""
        for name in (PREFILL, DECODE, ROUTER):
            kept: list[bytes] = []
            for line in (SEED / name).read_bytes().splitlines(keepends=True):
                seconds = _time_of(line)
                if seconds is not None and seconds >= ROOT_TIME:
                    break
                kept.append(line)
            self.handles[name].write(b"".join(kept))
        harness = (SEED / HARNESS).read_bytes().splitlines(keepends=True)
        before_probe = (b"recipe", b"[drive]", b"[wait]")
        self.handles[HARNESS].write(b"".join(line for line in harness if line.startswith(before_probe)))

    def steady(self, seconds: float, stop: threading.Event | None = None) -> None:
        """Steady-state lines at the rate for `seconds` (or until `stop`), in 10 ms slices, a
        quarter of the bytes to each file, the lines of a slice stamped with its time."""
        until = time.monotonic() + seconds
        while time.monotonic() < until and not (stop is not None and stop.is_set()):
            due = int((time.monotonic() - self.began) * self.rate) - self.written
            if due <= 0:
                time.sleep(0.01)
                continue
            now = stamp(self.clock())
            for name, shape in STEADY.items():
                line = shape.format(t=now).encode()
                count = max(1, due // len(STEADY) // len(line))
                self.handles[name].write(line * count)
                self.written += len(line) * count

    def root(self) -> float:
        """MORI's two failures as the seed has them, 0.54 s apart (the filler goes on between):
        the moment the first was written."""
        lines = [line for line in (SEED / PREFILL).read_bytes().splitlines(keepends=True) if ROOT_MARK in line]
        first = self._restamped(lines[0])
        self.handles[PREFILL].write(first)
        written = time.monotonic()
        self.steady(0.54)
        self.handles[PREFILL].write(self._restamped(lines[1]))
        return written

    def _restamped(self, line: bytes) -> bytes:
        now = self.clock()
        millis = f"{now % 1:.3f}"[1:]
        return b"[" + (stamp(now) + millis).encode() + line[line.index(b"]") :]

    def close(self) -> None:
        for handle in self.handles.values():
            handle.close()


def _time_of(line: bytes) -> float | None:
    from pdlogdoctor.scan.timeline import clean_line, parse_stamp

    found = parse_stamp(clean_line(line.decode("utf-8", errors="replace"))[0])
    return found.seconds if found is not None else None


def follower(directory: Path, *args: str) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [sys.executable, "-m", "pdlogdoctor", "analyze", "--follow", str(directory), *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        cwd=ROOT,
    )


class Throttle:
    """A loaded machine, reproducibly: the follower runs `share` of each PERIOD and is stopped
    (SIGSTOP) the rest, so it gets at most that share of one core, as when it shares two cores
    with several busy processes (load average 13 on 2 cores leaves each about 0.15). It costs no
    CPU of its own, unlike busy processes would."""

    PERIOD = 0.1

    def __init__(self, process: subprocess.Popen[bytes], share: float) -> None:
        self.process = process
        self.share = share
        self.done = threading.Event()
        self.thread = threading.Thread(target=self._cycle, daemon=True)
        if share < 1.0:
            self.thread.start()

    def _cycle(self) -> None:
        while not self.done.is_set() and self.process.poll() is None:
            self._signal(signal.SIGCONT)
            self.done.wait(self.PERIOD * self.share)
            if self.done.is_set():
                break
            self._signal(signal.SIGSTOP)
            self.done.wait(self.PERIOD * (1 - self.share))
        self._signal(signal.SIGCONT)

    def _signal(self, number: signal.Signals) -> None:
        with contextlib.suppress(ProcessLookupError):
            os.kill(self.process.pid, number)

    def stop(self) -> None:
        self.done.set()
        if self.thread.is_alive():
            self.thread.join()


def latency_once(rate: float, warmup: float, share: float = 1.0) -> tuple[float, str]:
    """Seconds from the first root line's write to the verdict on the follower's stdout."""
    with tempfile.TemporaryDirectory() as temp:
        directory = Path(temp)
        writer = Writer(directory, rate)
        writer.seed_before_root()
        process = follower(directory, "--exit-on", "cause", "-q")
        throttle = Throttle(process, share)
        out = process.stdout
        assert out is not None
        writer.steady(warmup)
        printed: list[tuple[float, bytes]] = []
        # Reading before the root line is written: the verdict may come before the second one is.
        reader = threading.Thread(target=_first_line, args=(out, printed))
        reader.start()
        written = writer.root()
        stop = threading.Event()
        filler = threading.Thread(target=writer.steady, args=(60.0, stop))
        filler.start()
        reader.join(timeout=60)
        stop.set()
        filler.join()
        throttle.stop()
        process.wait(timeout=60)
        writer.close()
        if not printed:
            return float("inf"), "no verdict"
        at, line = printed[0]
        return at - written, line.decode().split(" ", 1)[0]


def _first_line(out: IO[bytes], printed: list[tuple[float, bytes]]) -> None:
    """The follower's first line on stdout and when it came (the time taken after the read returns)."""
    line = out.readline()
    printed.append((time.monotonic(), line))


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def rss_mib(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def idle_share(rate: float, seconds: float) -> float:
    """The follower's CPU over `seconds` of logs that do not grow, as a share of one core."""
    with tempfile.TemporaryDirectory() as temp:
        directory = Path(temp)
        writer = Writer(directory, rate)
        writer.seed_before_root()
        writer.steady(3.0)
        writer.close()
        process = follower(directory)
        time.sleep(5.0)  # read what is there, decide, settle
        before, began = cpu_seconds(process.pid), time.monotonic()
        time.sleep(seconds)
        used = cpu_seconds(process.pid) - before
        share = used / (time.monotonic() - began)
        process.terminate()
        process.wait(timeout=60)
        return share


def memory_over(rate: float, hours: float, rotate_mb: float) -> list[float]:
    """RSS (MiB) every second while an hour of logs is written as fast as `rate` allows."""
    with tempfile.TemporaryDirectory() as temp:
        directory = Path(temp)
        duration = 120.0
        writer = Writer(directory, rate, speed=hours * 3600 / duration)
        writer.seed_before_root()
        process = follower(directory)
        samples: list[float] = []
        stop = threading.Event()
        filler = threading.Thread(target=_rotating, args=(writer, duration, rotate_mb, stop))
        filler.start()
        while filler.is_alive():
            samples.append(rss_mib(process.pid))
            time.sleep(1.0)
        time.sleep(2.0)  # the last poll
        read, busy = read_bytes(process.pid), cpu_seconds(process.pid) / duration
        process.terminate()
        process.wait(timeout=60)
        writer.close()
        print(f"memory: {writer.written / 1e6:,.0f} MB written in {duration:g} s, the follower read "
              f"{read / 1e6:,.0f} MB, using {busy * 100:.0f}% of one core while they were written")  # fmt: skip
        return samples


def read_bytes(pid: int) -> int:
    """Bytes the process read (/proc/PID/io rchar: its files, the library, the interpreter's modules)."""
    for line in Path(f"/proc/{pid}/io").read_text().splitlines():
        if line.startswith("rchar:"):
            return int(line.split()[1])
    return 0


def _rotating(writer: Writer, duration: float, rotate_mb: float, stop: threading.Event) -> None:
    """Steady lines for `duration` seconds; each file renamed to .1 (the old .1 deleted) every `rotate_mb`."""
    until = time.monotonic() + duration
    while time.monotonic() < until:
        writer.steady(min(rotate_mb * (1 << 20) / writer.rate, until - time.monotonic()))
        for name, handle in list(writer.handles.items()):
            handle.close()
            live = writer.directory / name
            (writer.directory / f"{name}.1").unlink(missing_ok=True)
            live.rename(writer.directory / f"{name}.1")
            writer.handles[name] = live.open("ab", buffering=0)
    stop.set()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--only", choices=("latency", "idle", "memory"))
    parser.add_argument("--rate", type=float, default=10.0, help="MB/s written in all (default 10)")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--warmup", type=float, default=5.0, help="seconds of steady lines before the root line")
    parser.add_argument("--idle", type=float, default=30.0, help="seconds of idle logs measured")
    parser.add_argument("--hours", type=float, default=1.0, help="log time replayed for the memory run")
    parser.add_argument("--rotate", type=float, default=64.0, help="MiB written between rotations")
    held_back = "the follower's share of one core in the latency runs (0.25: stopped 75%% of the time)"
    parser.add_argument("--share", type=float, default=1.0, help=held_back)
    args = parser.parse_args(argv)
    rate = args.rate * 1e6
    print(f"load average: {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
    if args.only in (None, "latency"):
        runs = [latency_once(rate, args.warmup, args.share) for _ in range(args.runs)]
        held = f", the follower held to {args.share:.0%} of one core" if args.share < 1 else ""
        print("latency runs:", ", ".join(f"{seconds:.2f} s ({verdict})" for seconds, verdict in runs))
        print(f"latency: median {statistics.median(s for s, _ in runs):.2f} s from the first root line "
              f"to the verdict, at {args.rate:g} MB/s across 4 files{held}")  # fmt: skip
    if args.only in (None, "idle"):
        share = idle_share(rate, args.idle)
        print(f"idle: {share * 100:.2f}% of one core over {args.idle:g} s of logs that do not grow")
    if args.only in (None, "memory"):
        samples = memory_over(rate, args.hours, args.rotate)[5:]  # after start-up: the library, the first reads
        tenths = [statistics.median(samples[n * len(samples) // 10 : (n + 1) * len(samples) // 10]) for n in range(10)]
        quarter = max(1, len(samples) // 4)
        third, last = statistics.median(samples[-2 * quarter : -quarter]), statistics.median(samples[-quarter:])
        # The deleted .1 files are kept as segments, KEPT_SEGMENTS per name: full after that many rotations.
        full = (KEPT_SEGMENTS + 1) * args.rotate * (1 << 20) / rate
        print(f"memory: RSS {min(samples):.1f}-{max(samples):.1f} MiB over {len(samples)} s "
              f"({args.hours:g} h of logs, rotated every {args.rotate:g} MiB: the kept segments full after "
              f"{full:.0f} s); median per tenth of the run: {', '.join(f'{m:.1f}' for m in tenths)} MiB; "
              f"third quarter {third:.1f} MiB, last quarter {last:.1f} MiB")  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
