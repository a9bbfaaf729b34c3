"""What redaction costs a markdown report on the seed fixture.

```sh
.venv/bin/python -m benchmarks.redaction            # --runs N (default 15)
```

Two measurements, each the median of N alternating runs, in CPU seconds (user + system: on a
shared machine the wall clock mostly measures the neighbours) and, for the command, wall seconds:

1. the whole command, `pdlogdoctor analyze -f markdown SEED` against the same with `--no-redact`
   (a fresh process each time: start-up, scan, diagnosis, excerpt, rendering);
2. in one process, `markdown_report(report)` redacted against unredacted, the report analysed once.

The first is what a user waits for; the second isolates the renderer, where redaction happens.
"""

from __future__ import annotations

import argparse
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

from pdlogdoctor.library.load import load_library
from pdlogdoctor.pipeline import run
from pdlogdoctor.render.markdown import markdown_report
from pdlogdoctor.render.options import RenderOptions

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


def _print(what: str, redacted: float, plain: float) -> None:
    extra = redacted - plain
    print(
        f"{what:24} redacted {redacted * 1000:7.1f} ms   --no-redact {plain * 1000:7.1f} ms   "
        f"redaction adds {extra * 1000:6.1f} ms ({extra / plain:+.1%})"
    )


if __name__ == "__main__":
    main()
