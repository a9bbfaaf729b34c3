"""Time `pdlogdoctor analyze` against `grep -c -E -f <anchors>` on one generated bundle.

    .venv/bin/python -m benchmarks.run --size 1G [--dir /tmp/pdlogdoctor-bench] [--keep]

Generates (or reuses) a bundle of about SIZE bytes (decimal units) under
DIR/<size>/, reads it once so both tools start from a warm page cache, runs
pdlogdoctor first (its peak RSS is the children's maximum) and then grep with
LC_ALL=C, prints MB/s (10**6 bytes per second) for both, the ratio, and checks
that the verdict equals the verdict on the small seed fixture.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import subprocess
import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path

from .generate import SEED_FIXTURE, generate, parse_size

DEFAULT_DIR = Path("/tmp/pdlogdoctor-bench")


@dataclass(frozen=True)
class Result:
    size: int
    files: int
    tool_seconds: float
    grep_seconds: float
    tool_peak_rss: int  # bytes, largest single process (getrusage of children)
    tool_tree_pss: int  # bytes, largest PSS summed over the process tree (sampled every 50 ms)
    grep_matches: int
    verdict: str
    fixture_verdict: str

    @property
    def ratio(self) -> float:
        return self.tool_seconds / self.grep_seconds if self.grep_seconds else float("inf")

    def lines(self) -> list[str]:
        mb = self.size / 1e6
        return [
            f"bundle: {mb:.0f} MB in {self.files} files",
            f"pdlogdoctor analyze --format json: {self.tool_seconds:.2f} s  {mb / self.tool_seconds:.0f} MB/s",
            f"LC_ALL=C grep -c -E -f anchors:     {self.grep_seconds:.2f} s  {mb / self.grep_seconds:.0f} MB/s"
            f"  ({self.grep_matches} matching lines)",
            f"ratio pdlogdoctor / grep: {self.ratio:.2f}x",
            f"pdlogdoctor peak RSS: {self.tool_peak_rss / 2**20:.0f} MiB per process, "
            f"{self.tool_tree_pss / 2**20:.0f} MiB PSS summed over its processes",
            f"verdict: {self.verdict} (seed fixture: {self.fixture_verdict})"
            + ("  OK" if self.verdict == self.fixture_verdict else "  MISMATCH"),
        ]


def tool_command() -> list[str]:
    return [sys.executable, "-m", "pdlogdoctor"]


def write_anchors(path: Path) -> None:
    out = subprocess.run([*tool_command(), "patterns", "anchors"], check=True, capture_output=True, text=True)
    path.write_text(out.stdout)


def warm(files: list[Path]) -> None:
    for file in files:
        with file.open("rb") as handle:
            while handle.read(16 << 20):
                pass


def _tree_pss(root: int) -> int:
    """Proportional set size of `root` and its descendants, in bytes.

    PSS splits the pages forked workers share with their parent, so the sum is the
    memory the run really holds; a sum of RSS would count those pages once per process.
    """
    total, todo = 0, [root]
    while todo:
        pid = todo.pop()
        try:
            for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
                if line.startswith("Pss:"):
                    total += int(line.split()[1]) * 1024
                    break
            for task in os.listdir(f"/proc/{pid}/task"):
                todo += [int(c) for c in Path(f"/proc/{pid}/task/{task}/children").read_text().split()]
        except (OSError, IndexError, ValueError):
            continue
    return total


def run_tool(bundle: Path) -> tuple[float, int, int, str]:
    """Seconds, largest process RSS, largest tree PSS, verdict id."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    start = time.perf_counter()
    proc = subprocess.Popen(
        [*tool_command(), "analyze", "--format", "json", str(bundle)],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
    )
    peak = [0]

    def sample() -> None:
        while proc.poll() is None:
            peak[0] = max(peak[0], _tree_pss(proc.pid))
            time.sleep(0.05)

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    out, _ = proc.communicate()
    seconds = time.perf_counter() - start
    sampler.join()
    after = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    verdict = json.loads(out)["verdict"]["id"]
    return seconds, max(before, after) * 1024, peak[0], verdict


def run_grep(anchors: Path, files: list[Path]) -> tuple[float, int]:
    env = {**os.environ, "LC_ALL": "C"}
    start = time.perf_counter()
    out = subprocess.run(
        ["grep", "-c", "-E", "-f", str(anchors), *map(str, files)], env=env, capture_output=True, text=True
    )
    seconds = time.perf_counter() - start
    matches = sum(int(line.rsplit(":", 1)[1]) for line in out.stdout.splitlines() if ":" in line)
    return seconds, matches


def fixture_verdict() -> str:
    out = subprocess.run(
        [*tool_command(), "analyze", "--format", "json", str(SEED_FIXTURE)], capture_output=True, text=True
    )
    return str(json.loads(out.stdout)["verdict"]["id"])


def bench(size: int, directory: Path, keep: bool = True) -> Result:
    work = directory / str(size)
    bundle = generate(work, size)
    files = sorted(bundle.iterdir())
    anchors = work / "anchors.ere"  # beside the bundle, not in it
    write_anchors(anchors)
    warm(files)
    seconds, peak, tree, verdict = run_tool(bundle)
    grep_seconds, matches = run_grep(anchors, files) if shutil.which("grep") else (0.0, 0)
    total = sum(f.stat().st_size for f in files)
    result = Result(total, len(files), seconds, grep_seconds, peak, tree, matches, verdict, fixture_verdict())
    if not keep:
        shutil.rmtree(work)
    return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.run", description=__doc__.split("\n\n")[0])
    parser.add_argument("--size", default="1G", help="bundle size, decimal units: 100M, 1G, 4G")
    parser.add_argument("--dir", type=Path, default=DEFAULT_DIR, help="where bundles are generated and reused")
    parser.add_argument("--delete", action="store_true", help="delete the generated bundle afterwards")
    args = parser.parse_args(argv)
    result = bench(parse_size(args.size), args.dir, keep=not args.delete)
    print("\n".join(result.lines()))
    return 0 if result.verdict == result.fixture_verdict else 1


if __name__ == "__main__":
    raise SystemExit(main())
