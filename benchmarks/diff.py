"""Time `pdlogdoctor diff GOOD BAD` against `pdlogdoctor analyze BAD` on generated bundles.

    .venv/bin/python -m benchmarks.diff --size 500M [--dir /tmp/pdlogdoctor-bench-diff] [--runs 3]

GOOD is the seed week's 07-01 green run (fixtures/pair-seed-0701-green) and BAD the 07-02 seed
incident, each grown to SIZE with the same noise as benchmarks/generate.py writes. Both are read
once first (a warm page cache), then the two commands run in turn `--runs` times; the best time
of each is compared. The target: `diff` on two runs within 2x the time of `analyze` on one.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time
from pathlib import Path

from .generate import SEED_FIXTURE, generate, parse_size
from .run import tool_command, warm

GREEN_FIXTURE = SEED_FIXTURE.parent / "pair-seed-0701-green"
DEFAULT_DIR = Path("/tmp/pdlogdoctor-bench-diff")


def timed(command: list[str], expected_code: int) -> float:
    start = time.perf_counter()
    done = subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    if done.returncode != expected_code:
        raise SystemExit(f"{' '.join(command)} exited {done.returncode}")
    return time.perf_counter() - start


def best_times(analyze: list[str], diff: list[str], runs: int) -> tuple[float, float]:
    """Alternating runs (a shared machine's load then weighs on both alike); the best of each."""
    analyze_times, diff_times = [], []
    for _ in range(runs):
        analyze_times.append(timed(analyze, 1))  # a root cause
        diff_times.append(timed(diff, 1))  # changes found
    return min(analyze_times), min(diff_times)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--size", default="500M", help="bytes per run (decimal units: 500M, 1G)")
    parser.add_argument("--dir", type=Path, default=DEFAULT_DIR)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args(argv)
    size = parse_size(args.size)
    good = generate(args.dir / f"good-{size}", size, fixture=GREEN_FIXTURE)
    bad = generate(args.dir / f"bad-{size}", size)
    warm([*good.iterdir(), *bad.iterdir()])
    analyze, diff = best_times(
        [*tool_command(), "analyze", "--format", "json", str(bad)],
        [*tool_command(), "diff", "--format", "json", str(good), str(bad)],
        args.runs,
    )
    total = sum(p.stat().st_size for p in [*good.iterdir(), *bad.iterdir()])
    print(f"runs: 2 x {size / 1e6:.0f} MB ({total / 1e6:.0f} MB in all), best of {args.runs}")
    print(f"pdlogdoctor analyze BAD:      {analyze:.2f} s")
    print(f"pdlogdoctor diff GOOD BAD:    {diff:.2f} s")
    print(f"ratio diff / analyze: {diff / analyze:.2f}x (target: at most 2x)")
    return 0 if diff <= 2 * analyze else 1


if __name__ == "__main__":
    sys.exit(main())
