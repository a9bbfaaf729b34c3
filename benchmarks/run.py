"""Time `pdlogdoctor analyze` with each anchor matcher against cat, grep and ripgrep, in one run.

    .venv/bin/python -m benchmarks.run [--bundle sparse|dense|fleet] [--size 100M,500M,1G,4G] [--repeat 3]
                                       [--dir DIR] [--delete]
    .venv/bin/python -m benchmarks.run --bundle files [--files 100000]
    .venv/bin/python -m benchmarks.run --startup-only [--startup-runs 20]

Bundles: `sparse` (generate.py: the seed incident in noise that holds no anchor), `dense` (dense.py:
the corpus's real lines in their real proportions, one node), `fleet` (the same over 64 nodes),
`files` (the seed's files beside --files small files of real lines). For each size: generates (or
reuses) a bundle of about SIZE bytes (decimal units) under DIR/, reads it once so every tool
starts from a warm page cache, then times
- the read floor: `cat FILES > /dev/null`;
- `LC_ALL=C grep -c -E -f anchors FILES` and `rg -c -f anchors FILES` (ripgrep from the
  `bench` extra), where `anchors` is `pdlogdoctor patterns anchors`: the tool's own anchors;
- `pdlogdoctor analyze --format json BUNDLE` once per installed matcher
  (PDLOGDOCTOR_MATCHER=hyperscan / ahocorasick / pure), with its peak RSS (the largest
  single process) and the PSS summed over the tool and its workers (sampled every 50 ms);
and checks that each verdict equals the verdict on the seed fixture (a sparse bundle), or that every
matcher gives the same one (the others). Each command runs
--repeat times, the commands of one size interleaved (cat, grep, rg, each matcher, then
again), so a burst of load on a shared machine hits them alike; each figure is the best of
its runs, for wall time and for CPU time (user + sys of the command and every process it
waited for: the tool's workers). Then the start-up: `analyze --format json` on a 1-line file
(the installed `pdlogdoctor` command, in an empty folder) with each installed matcher,
--startup-runs times interleaved after one run that fills the library cache, minimum and
median of wall and CPU time.
Prints markdown tables, wall and CPU, with the anchor hits per GB (the lines grep counts) beside
each size (exit 1 on a verdict mismatch).
"""

from __future__ import annotations

import argparse
import importlib.util
import itertools
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

from .dense import FILES_COUNT, FLEET_NODES, generate_dense, generate_files
from .generate import SEED_FIXTURE, generate, parse_size

DEFAULT_DIR = Path("/tmp/pdlogdoctor-bench")
MATCHERS = (("hyperscan", "hyperscan"), ("ahocorasick", "ahocorasick_rs"), ("pure", None))
BUNDLES = ("sparse", "dense", "fleet", "files")
DEFAULT_MATCHER = "ahocorasick"  # what `pip install pdlogdoctor` gives on the common platforms


@dataclass(frozen=True)
class Measured:
    """One run of a command."""

    seconds: float  # wall
    cpu: float  # user + sys of the command and the processes it waited for
    peak_rss: int  # bytes, largest single process
    out: bytes  # its stdout (empty when discarded)
    tree_pss: int  # bytes, largest PSS summed over the process tree


@dataclass(frozen=True)
class ToolRun:
    seconds: float  # best wall time of the runs
    peak_rss: int  # bytes, largest single process
    tree_pss: int  # bytes, largest PSS summed over the process tree
    verdict: str
    cpu: float = 0.0  # best CPU time of the runs


@dataclass
class Result:
    size: int
    files: int
    cat_seconds: float
    grep_seconds: float
    grep_matches: int
    rg_seconds: float | None  # None: rg not installed
    rg_matches: int | None
    tools: dict[str, ToolRun] = field(default_factory=dict)
    fixture_verdict: str = ""  # what every matcher must say: the seed fixture's, or (dense) the first matcher's
    grep_cpu: float = 0.0
    rg_cpu: float | None = None
    bundle: str = "sparse"
    load: tuple[float, float] = (0.0, 0.0)  # the 1-minute load average before and after the runs

    @property
    def verdict(self) -> str:
        """The verdict every matcher gave, or the first that differs from the fixture's."""
        wrong = [run.verdict for run in self.tools.values() if run.verdict != self.fixture_verdict]
        return wrong[0] if wrong else self.fixture_verdict

    @property
    def hits_per_gb(self) -> float:
        """Lines holding an anchor (grep's count) per GB: how dense in hits the bundle is."""
        return self.grep_matches / (self.size / 1e9) if self.size else 0.0

    @property
    def label(self) -> str:
        if self.bundle == "files":
            return f"{self.files:,} files ({self.size / 1e6:,.0f} MB)"
        return f"{self.size / 1e6:,.0f} MB" + (f", {self.files} files" if self.bundle == "fleet" else "")

    @property
    def tool_peak_rss(self) -> int:
        return max(run.peak_rss for run in self.tools.values())

    def current(self) -> dict[str, ToolRun]:
        """The tool's runs as it is (not a `--before` checkout's)."""
        return {name: run for name, run in self.tools.items() if not name.startswith("before")}

    def best(self) -> tuple[str, ToolRun]:
        return min(self.current().items(), key=lambda item: item[1].seconds)

    def best_cpu(self) -> tuple[str, ToolRun]:
        return min(self.current().items(), key=lambda item: item[1].cpu)


def installed_matchers() -> list[str]:
    return [name for name, module in MATCHERS if module is None or importlib.util.find_spec(module) is not None]


def tool_command() -> list[str]:
    return [sys.executable, "-m", "pdlogdoctor"]


def installed_command() -> list[str]:
    """`pdlogdoctor` as users run it: the console script pip installs beside the interpreter
    (`python -m pdlogdoctor` also imports runpy, ~4 ms), else `python -m pdlogdoctor`."""
    script = Path(sys.executable).parent / ("pdlogdoctor.exe" if os.name == "nt" else "pdlogdoctor")
    return [str(script)] if script.exists() else tool_command()


def rg_path() -> str | None:
    beside = Path(sys.executable).parent / "rg"  # the `bench` extra's wheel puts it in the venv
    return str(beside) if beside.exists() else shutil.which("rg")


def write_anchors(path: Path) -> None:
    out = subprocess.run([*tool_command(), "patterns", "anchors"], check=True, capture_output=True, text=True)
    path.write_text(out.stdout)


def warm(files: list[Path]) -> None:
    for file in files:
        with file.open("rb") as handle:
            while handle.read(16 << 20):
                pass


def _tree_pss(root: int) -> int:
    """Proportional set size of `root` and its descendants, in bytes (PSS splits pages forked
    workers share with their parent, so the sum is the memory the run really holds)."""
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


# A fresh child measures each run, so one run's peak RSS is not another's (RUSAGE_CHILDREN
# keeps the maximum over every child ever waited for).
_MEASURE = """
import json, resource, subprocess, sys, time
start = time.perf_counter()
done = subprocess.run(sys.argv[2:], stdout=open(sys.argv[1], "wb"), stderr=subprocess.DEVNULL)
seconds = time.perf_counter() - start
usage = resource.getrusage(resource.RUSAGE_CHILDREN)
print(json.dumps([seconds, usage.ru_utime + usage.ru_stime, usage.ru_maxrss * 1024, done.returncode]))
"""


def measure(
    command: list[str], env: dict[str, str] | None = None, discard: bool = False, cwd: Path | None = None
) -> Measured:
    """One run: wall and CPU seconds, peak RSS of the largest process, stdout (none if `discard`),
    and the largest tree PSS."""
    with tempfile.NamedTemporaryFile() as out:
        target = os.devnull if discard else out.name
        proc = subprocess.Popen(
            [sys.executable, "-c", _MEASURE, target, *command], stdout=subprocess.PIPE, env=env or os.environ, cwd=cwd
        )
        peak = [0]

        def sample() -> None:
            while proc.poll() is None:
                peak[0] = max(peak[0], _tree_pss(proc.pid))
                time.sleep(0.05)

        sampler = threading.Thread(target=sample, daemon=True)
        sampler.start()
        report, _ = proc.communicate()
        sampler.join()
        seconds, cpu, rss, _code = json.loads(report)
        return Measured(seconds, cpu, rss, Path(out.name).read_bytes(), peak[0])


def tool_run(runs: list[Measured]) -> ToolRun:
    """The best wall and the best CPU time of one matcher's runs; the memory of its fastest run."""
    fastest = min(runs, key=lambda run: run.seconds)
    verdict = str(json.loads(fastest.out)["verdict"]["id"])
    return ToolRun(fastest.seconds, fastest.peak_rss, fastest.tree_pss, verdict, min(run.cpu for run in runs))


def counted(runs: list[Measured]) -> tuple[float, float, int]:
    """A `-c` search (grep, rg): best wall, best CPU and the total count of matching lines."""
    lines = runs[0].out.decode().splitlines()
    matches = sum(int(line.rsplit(":", 1)[1]) for line in lines if ":" in line)
    return min(run.seconds for run in runs), min(run.cpu for run in runs), matches


def fixture_verdict() -> str:
    out = subprocess.run(
        [*tool_command(), "analyze", "--format", "json", str(SEED_FIXTURE)], capture_output=True, text=True
    )
    return str(json.loads(out.stdout)["verdict"]["id"])


def tool_environment() -> dict[str, str]:
    """The environment the tool runs in, as a user's: bytecode may be written. `pip install`
    compiles the package at install; a developer's PYTHONDONTWRITEBYTECODE=1 would instead make
    every measured run compile ~50 modules from source (~45 ms), measuring the setting, not the tool."""
    return {name: value for name, value in os.environ.items() if name != "PYTHONDONTWRITEBYTECODE"}


def startup(runs: int = 20, matchers: list[str] | None = None) -> list[str]:
    """`pdlogdoctor analyze --format json` on a 1-line file (interpreter, imports, library, one scan),
    per matcher: min and median of wall and CPU time over `runs` interleaved runs, run as a user
    runs it (the installed command) in a folder of its own (no config file). One run first fills
    the library cache (library_cache.py), as any earlier run of the installed tool would have."""
    chosen = matchers or installed_matchers()
    with tempfile.TemporaryDirectory() as folder:
        one = Path(folder) / "one.log"
        one.write_text("2026-07-01 12:00:00 INFO server started\n")
        command = [*installed_command(), "analyze", "--format", "json", one.name]
        envs = {matcher: {**tool_environment(), "PDLOGDOCTOR_MATCHER": matcher} for matcher in chosen}
        measure(command, envs[chosen[0]], cwd=one.parent)
        runs_of: dict[str, list[Measured]] = {matcher: [] for matcher in chosen}
        for _ in range(runs):
            for matcher in chosen:
                runs_of[matcher].append(measure(command, envs[matcher], cwd=one.parent))
    lines = [f"Start-up (`analyze --format json` on a 1-line file, {runs} runs, interleaved):", ""]
    lines += ["| matcher | wall min | wall median | CPU min | CPU median |", "| --- | --- | --- | --- | --- |"]
    for matcher, done in runs_of.items():
        walls, cpus = [run.seconds for run in done], [run.cpu for run in done]
        figures = (min(walls), statistics.median(walls), min(cpus), statistics.median(cpus))
        lines.append(f"| {matcher} | " + " | ".join(f"{value:.3f} s" for value in figures) + " |")
    return lines


def make_bundle(kind: str, size: int, directory: Path) -> Path:
    """The bundle of `kind` (BUNDLES) at `size` bytes (files: `size` small files), made or reused."""
    if kind == "sparse":
        return generate(directory / str(size), size)
    if kind == "files":
        return generate_files(directory / f"files-{size}", size)
    return generate_dense(directory / f"{kind}-{size}", size, FLEET_NODES if kind == "fleet" else 1)


def bench(
    size: int,
    directory: Path,
    keep: bool = True,
    matchers: list[str] | None = None,
    repeat: int = 1,
    kind: str = "sparse",
    before: Path | None = None,
) -> Result:
    """`before`: a checkout of the tool as it was (its `pdlogdoctor` package there), run beside
    this one with each matcher (`before [matcher]`)."""
    bundle = make_bundle(kind, size, directory)
    work = bundle.parent
    files = sorted(bundle.iterdir())
    anchors = work / "anchors.ere"  # beside the bundle, not in it
    write_anchors(anchors)
    warm(files)
    # Many small files are named by their directory (a command line holds about 2 MB of names).
    names = [str(bundle)] if kind == "files" else [str(f) for f in files]
    counter_env = {**os.environ, "LC_ALL": "C"}
    cat = ["find", str(bundle), "-type", "f", "-exec", "cat", "{}", "+"] if kind == "files" else ["cat", *names]
    commands = {
        "cat": (cat, None, True),
        "grep": (
            ["grep", *(["-r"] if kind == "files" else []), "-c", "-E", "-f", str(anchors), *names],
            counter_env,
            False,
        ),
    }
    rg = rg_path()
    if rg:
        commands["rg"] = ([rg, "--no-config", "-c", "-f", str(anchors), *names], counter_env, False)
    tools = []
    for matcher in matchers or installed_matchers():
        tool_env = {**tool_environment(), "PDLOGDOCTOR_MATCHER": matcher}
        commands[matcher] = ([*tool_command(), "analyze", "--format", "json", str(bundle)], tool_env, False)
        tools.append(matcher)
        if before is not None:  # the package found first on the path: the checkout's
            commands[f"before [{matcher}]"] = (commands[matcher][0], {**tool_env, "PYTHONPATH": str(before)}, False)
            tools.append(f"before [{matcher}]")
    load_before = os.getloadavg()[0]
    runs: dict[str, list[Measured]] = {name: [] for name in commands}
    # Every command runs in a folder of its own: `python -m pdlogdoctor` imports the package found
    # first on sys.path, and the working directory comes before PYTHONPATH there, so run from a
    # checkout it would import that checkout's package for `--before` too (both columns one tool).
    with tempfile.TemporaryDirectory() as folder:
        for _ in range(repeat):  # interleaved: load that comes and goes hits every command alike
            for name, (command, env, discard) in commands.items():
                runs[name].append(measure(command, env, discard, cwd=Path(folder)))
    grep_seconds, grep_cpu, matches = counted(runs["grep"])
    rg_seconds, rg_cpu, rg_matches = counted(runs["rg"]) if rg else (None, None, None)
    total = sum(f.stat().st_size for f in files)
    cat_seconds = min(run.seconds for run in runs["cat"])
    result = Result(total, len(files), cat_seconds, grep_seconds, matches, rg_seconds, rg_matches, {}, bundle=kind)
    result.grep_cpu, result.rg_cpu = grep_cpu, rg_cpu
    result.load = (load_before, os.getloadavg()[0])
    for name in tools:
        result.tools[name] = tool_run(runs[name])
    # The sparse bundle must say what the seed says; a dense one, the same whichever matcher reads it.
    result.fixture_verdict = fixture_verdict() if kind == "sparse" else next(iter(result.tools.values())).verdict
    if not keep:
        shutil.rmtree(work)
    return result


def _cell(seconds: float, size: int) -> str:
    return f"{seconds:.2f} s ({size / 1e6 / seconds:,.0f} MB/s)"


def table(results: list[Result], start: list[str], repeat: int = 1) -> list[str]:
    best = f"best of {repeat}, interleaved" if repeat > 1 else "one run each"
    loads = ", ".join(f"{r.label}: {r.load[0]:.1f} -> {r.load[1]:.1f}" for r in results)
    lines = [f"Load average (1 min) before -> after each size's runs: {loads}", ""]
    lines += [f"Wall time ({best}):", "", *wall_table(results), "", f"CPU time, user + sys ({best}):", ""]
    lines += cpu_table(results)
    lines.append("")
    lines += linearity(results)
    return lines + start


def wall_table(results: list[Result]) -> list[str]:
    matchers = list(results[0].tools)
    head = [
        "size",
        "anchor hits/GB",
        "cat",
        "grep -c -E -f",
        "rg -c -f",
        *(m if m.startswith("before") else f"tool [{m}]" for m in matchers),
    ]
    head += [f"[{DEFAULT_MATCHER}] / grep", "best / rg", "peak RSS per process", "PSS summed", "verdict"]
    lines = ["| " + " | ".join(head) + " |", "|" + " --- |" * len(head)]
    for result in results:
        mb = result.size
        best_name, best = result.best()
        default = result.tools.get(DEFAULT_MATCHER)
        row = [
            result.label,
            f"{result.hits_per_gb:,.0f}",
            _cell(result.cat_seconds, mb),
            _cell(result.grep_seconds, mb),
        ]
        row.append(_cell(result.rg_seconds, mb) if result.rg_seconds else "rg not installed")
        row += [_cell(result.tools[m].seconds, mb) for m in matchers]
        row.append(f"{default.seconds / result.grep_seconds:.2f}x" if default and result.grep_seconds else "-")
        row.append(f"{best.seconds / result.rg_seconds:.2f}x ({best_name})" if result.rg_seconds else "-")
        row.append(" / ".join(f"{run.peak_rss / 2**20:.0f}" for run in result.tools.values()) + " MiB")
        row.append(" / ".join(f"{run.tree_pss / 2**20:.0f}" for run in result.tools.values()) + " MiB")
        row.append(result.verdict + ("" if result.verdict == result.fixture_verdict else " MISMATCH"))
        lines.append("| " + " | ".join(row) + " |")
    return lines


def cpu_table(results: list[Result]) -> list[str]:
    """The same runs by CPU seconds: on a shared machine the fairer comparison (grep and rg use
    one core here, the tool splits a large file over every core)."""
    matchers = list(results[0].tools)
    head = [
        "size",
        "anchor hits/GB",
        "grep -c -E -f",
        "rg -c -f",
        *(m if m.startswith("before") else f"tool [{m}]" for m in matchers),
    ]
    head += [f"[{DEFAULT_MATCHER}] / grep", "best / rg", f"[{DEFAULT_MATCHER}] CPU s/GB"]
    lines = ["| " + " | ".join(head) + " |", "|" + " --- |" * len(head)]
    for result in results:
        default = result.tools.get(DEFAULT_MATCHER)
        best_name, best = result.best_cpu()
        row = [result.label, f"{result.hits_per_gb:,.0f}", f"{result.grep_cpu:.2f} s"]
        row.append(f"{result.rg_cpu:.2f} s" if result.rg_cpu is not None else "rg not installed")
        row += [f"{result.tools[m].cpu:.2f} s" for m in matchers]
        row.append(f"{default.cpu / result.grep_cpu:.2f}x" if default and result.grep_cpu else "-")
        row.append(f"{best.cpu / result.rg_cpu:.2f}x ({best_name})" if result.rg_cpu else "-")
        row.append(f"{default.cpu / (result.size / 1e9):.2f}" if default else "-")
        lines.append("| " + " | ".join(row) + " |")
    return lines


def linearity(results: list[Result]) -> list[str]:
    """Time linear in size: the CPU seconds each further GB costs, from one size to the next
    (the slope; start-up and fixed costs drop out). Equal slopes: linear."""
    if len(results) < 2:
        return []
    lines = []
    for matcher in results[0].tools:
        slopes = []
        for small, large in itertools.pairwise(results):
            extra = (large.tools[matcher].cpu - small.tools[matcher].cpu) / ((large.size - small.size) / 1e9)
            slopes.append(f"{small.size / 1e9:.1f}-{large.size / 1e9:.1f} GB: {extra:.2f}")
        lines.append(f"CPU s per further GB, tool [{matcher}]: " + ", ".join(slopes))
    return [*lines, ""]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.run", description=__doc__.split("\n\n")[0])
    parser.add_argument("--bundle", choices=BUNDLES, default="sparse", help="what the bundles hold (see above)")
    parser.add_argument("--size", default="100M,500M,1G,4G", help="bundle sizes, comma-separated, decimal units")
    parser.add_argument("--files", type=int, default=FILES_COUNT, help="small files of the `files` bundle")
    parser.add_argument("--dir", type=Path, default=DEFAULT_DIR, help="where bundles are generated and reused")
    parser.add_argument("--delete", action="store_true", help="delete each generated bundle after its runs")
    parser.add_argument("--repeat", type=int, default=3, help="runs of each command, interleaved; the best is shown")
    parser.add_argument("--matcher", action="append", help="only these matchers (repeatable); default: every installed")
    parser.add_argument("--startup-runs", type=int, default=20, help="runs of the start-up measure, per matcher")
    parser.add_argument("--startup-only", action="store_true", help="measure the start-up alone (no bundles)")
    parser.add_argument("--no-startup", action="store_true", help="leave the start-up measure out")
    parser.add_argument("--before", type=Path, help="a checkout of the tool as it was, run beside it (`before [m]`)")
    args = parser.parse_args(argv)
    start = [] if args.no_startup else startup(args.startup_runs, args.matcher)
    if args.startup_only:
        print("\n".join(start))
        return 0
    results = []
    sizes = [args.files] if args.bundle == "files" else [parse_size(size) for size in args.size.split(",")]
    for size in sizes:
        results.append(bench(size, args.dir, not args.delete, args.matcher, args.repeat, args.bundle, args.before))
        print(f"done: {args.bundle} {size}", file=sys.stderr, flush=True)
    print("\n".join(table(results, start, args.repeat)))
    return 0 if all(r.verdict == r.fixture_verdict for r in results) else 1


if __name__ == "__main__":
    raise SystemExit(main())
