"""What redaction costs a markdown report on the seed fixture.

```sh
.venv/bin/python -m benchmarks.redaction            # --runs N (default 15)
```

Three measurements, each the median of N alternating runs, in CPU seconds (user + system: on a
shared machine the wall clock mostly measures the neighbours) and, for the command, wall seconds:

1. the whole command, `pdlogdoctor analyze -f markdown SEED` against the same with `--no-redact`
   (a fresh process each time: start-up, scan, diagnosis, excerpt, rendering);
2. in one process, `markdown_report(report)` redacted against unredacted, the report analysed once;
3. in one process, learning and masking a fleet's names: the seed's report with 20,000 more inputs
   named for their nodes (`decode_node-00042-gpu17.log`), every name masked wherever it appears.

The first is what a user waits for; the second isolates the renderer, where redaction happens; the
third is the cost that grows with the number of names (one 20,000-way alternation took 9.8 s).
"""

from __future__ import annotations

import argparse
import resource
import statistics
import subprocess
import sys
import time
from dataclasses import replace
from pathlib import Path

from pdlogdoctor.library.load import load_library
from pdlogdoctor.model import Report, Role, Source
from pdlogdoctor.pipeline import run
from pdlogdoctor.render.markdown import markdown_report
from pdlogdoctor.render.options import RenderOptions
from pdlogdoctor.render.outbound import outbound_report
from pdlogdoctor.render.redact import redactor_for

SEED = Path(__file__).resolve().parent.parent / "fixtures" / "mori-mr-size-limit-seed"


def command_seconds(extra: list[str]) -> tuple[float, float]:
    """(CPU, wall) seconds of one whole command."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    subprocess.run(
        [sys.executable, "-m", "pdlogdoctor", "analyze", "-f", "markdown", *extra, str(SEED)],
        check=False,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime, wall


def render_seconds(redact: bool, report: object, repeat: int = 20) -> float:
    options = RenderOptions(redact=redact)
    started = time.process_time()
    for _ in range(repeat):
        markdown_report(report, options)  # type: ignore[arg-type]
    return (time.process_time() - started) / repeat


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=15)
    runs = parser.parse_args().runs

    command_seconds([])  # warm the page cache and the bytecode
    redacted, plain = [], []
    for _ in range(runs):  # alternating, so a busy moment on the machine hits both alike
        redacted.append(command_seconds([]))
        plain.append(command_seconds(["--no-redact"]))
    for name, index in (("command, CPU", 0), ("command, wall", 1)):
        _print(name, statistics.median(r[index] for r in redacted), statistics.median(p[index] for p in plain))

    report = run([str(SEED)], load_library())
    render_seconds(True, report, 2)
    in_process_redacted = [render_seconds(True, report) for _ in range(runs)]
    in_process_plain = [render_seconds(False, report) for _ in range(runs)]
    _print("markdown_report(), CPU", statistics.median(in_process_redacted), statistics.median(in_process_plain))

    fleet = with_node_named_inputs(report, FLEET)
    learned, masked = zip(*(names_seconds(fleet) for _ in range(3)), strict=True)
    print(
        f"{FLEET:,} node names, CPU  learn {statistics.median(learned):6.2f} s   "
        f"mask every string {statistics.median(masked):6.2f} s"
    )


FLEET = 20_000


def with_node_named_inputs(report: Report, count: int) -> Report:
    """The report with `count` more inputs, each a decode log named for its node."""
    names = [f"node-{k:05d}-gpu{k % 90 + 10}" for k in range(count)]
    more = tuple(Source(f"logs/decode_{name}.log", Role.DECODE, "name", 10, 100, (), node=name) for name in names)
    return replace(report, inputs=report.inputs + more)


def names_seconds(report: Report) -> tuple[float, float]:
    """(CPU seconds to learn the report's names, to redact every string of it)."""
    started = time.process_time()
    redactor = redactor_for(report)
    learned = time.process_time()
    outbound_report(report, redactor)
    return learned - started, time.process_time() - learned


def _print(what: str, redacted: float, plain: float) -> None:
    extra = redacted - plain
    print(
        f"{what:24} redacted {redacted * 1000:7.1f} ms   --no-redact {plain * 1000:7.1f} ms   "
        f"redaction adds {extra * 1000:6.1f} ms ({extra / plain:+.1%})"
    )


if __name__ == "__main__":
    main()
