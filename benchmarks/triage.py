"""Time `pdlogdoctor triage` over many small runs: `python -m benchmarks.triage --runs 1000 --jobs 2`.

The runs are copies of six fixture bundles (green, MORI region ceiling, page-size mismatch, GPU
OOM, a start-up crash, a cancelled job), each moved to its own date so the runs have an order,
in a fixed pseudo-random mix (about half green). They are written once under --dir and reused.
The command runs `--repeat` times (best kept), with a warm page cache; the figures are the wall
time of the whole command (start-up, library, the analyses, grouping, the JSON out), runs/s, and
the CPU seconds it and its workers used (user + system): on a shared machine the wall time
depends on the load, the CPU time much less.
`--history` also times adding the runs to a SQLite history and reporting over it.
"""

from __future__ import annotations

import argparse
import json
import random
import re
import resource
import shutil
import subprocess
import time
from datetime import date, timedelta
from pathlib import Path

from .run import tool_command, warm

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"
MIX = (
    ("pair-seed-0701-green", 10),
    ("mori-mr-size-limit-seed", 3),
    ("config-mismatch-page-size", 2),
    ("gpu-oom-not-enough-memory", 2),
    ("scheduler-init-crash-zerodiv", 2),
    ("ci-cancelled-preempted", 1),
)
DATE = re.compile(r"20\d\d-\d\d-\d\d")
DEFAULT_DIR = Path("/tmp/pdlogdoctor-bench-triage")


def build_runs(root: Path, count: int, seed: int = 1) -> list[Path]:
    """`count` run directories, each a fixture with its dates moved to its own day."""
    root.mkdir(parents=True, exist_ok=True)
    choices = [name for name, weight in MIX for _ in range(weight)]
    pick = random.Random(seed)
    runs = []
    for number in range(count):
        run = root / f"run-{number:05d}"
        runs.append(run)
        if run.is_dir():
            continue
        day = (date(2026, 1, 1) + timedelta(days=number)).isoformat()
        source = FIXTURES / pick.choice(choices)
        run.mkdir()
        for path in sorted(source.iterdir()):
            if path.name == "expected.toml":
                continue
            if path.suffix in (".gz", ".zst"):
                shutil.copyfile(path, run / path.name)
            else:
                (run / path.name).write_text(DATE.sub(day, path.read_text(encoding="utf-8")), encoding="utf-8")
    return runs


def timed(command: list[str]) -> tuple[float, float, str]:
    """Wall seconds, CPU seconds (the command and every process it waited for), stdout."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(command[:6])} ... exited {done.returncode}: {done.stderr[-500:]}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, done.stdout


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=1000)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--repeat", type=int, default=2)
    parser.add_argument("--dir", type=Path, default=DEFAULT_DIR)
    parser.add_argument("--history", action="store_true", help="also time --history (add, then report)")
    args = parser.parse_args(argv)
    runs = build_runs(args.dir / f"runs-{args.runs}", args.runs)
    warm([path for run in runs for path in run.iterdir()])
    size = sum(path.stat().st_size for run in runs for path in run.iterdir())
    command = [*tool_command(), "triage", "-f", "json", "-j", str(args.jobs), *map(str, runs)]
    best, cpu, out = min(timed(command) for _ in range(args.repeat))
    document = json.loads(out)
    groups = {group["verdict"]: group["count"] for group in document["groups"]}
    print(f"runs: {len(runs)} ({size / 1e6:.1f} MB), jobs: {args.jobs}, best of {args.repeat}")
    print(
        f"triage: {best:.2f} s, {len(runs) / best:.0f} runs/s, {cpu:.1f} CPU s ({cpu / len(runs) * 1000:.0f} ms a run)"
    )
    print(f"groups: {groups}")
    if args.history:
        history = args.dir / "history.sqlite"
        history.unlink(missing_ok=True)
        added, _, _ = timed(
            [*tool_command(), "triage", "--history", str(history), "-j", str(args.jobs), *map(str, runs)]
        )
        report, _, _ = timed([*tool_command(), "triage", "--history", str(history), "-f", "json"])
        print(f"triage --history: add {len(runs)} runs {added:.2f} s; report over them {report:.2f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
