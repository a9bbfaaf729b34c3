"""Size of the HTML report and the time headless Chromium takes to open it.

    .venv/bin/python -m benchmarks.html_report [--runs 5]

Two reports: the seed fixture, and a hand-built report of 10,001 events in six lanes (the one
tests/test_html_report.py uses). Each is written to a temporary file and opened RUNS times by
tests/browser/check_report.mjs (Debian's chromium driven by playwright-core; `npm ci --prefix
tests/browser` first); `openMs` is from navigation start until the first lane is drawn. Prints
the size in bytes and the median, minimum and maximum opening time in milliseconds.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from pdlogdoctor.library.load import load_library
from pdlogdoctor.model import Report
from pdlogdoctor.pipeline import run
from pdlogdoctor.render.html import html_report
from pdlogdoctor.render.options import RenderOptions

ROOT = Path(__file__).resolve().parent.parent
CHECK = ROOT / "tests" / "browser" / "check_report.mjs"


def open_times(page: Path, runs: int) -> list[float]:
    times = []
    for _ in range(runs):
        done = subprocess.run(
            ["node", str(CHECK), str(page), str(page.with_suffix(".png"))],
            capture_output=True,
            text=True,
            check=True,
            timeout=120,
        )
        times.append(float(json.loads(done.stdout.strip().splitlines()[-1])["openMs"]))
    return times


def measure(name: str, report: Report, runs: int, directory: Path) -> None:
    page = directory / f"{name}.html"
    page.write_text(html_report(report, RenderOptions()), encoding="utf-8")
    times = open_times(page, runs)
    print(
        f"{name:<12} {page.stat().st_size:>10,} bytes  open {statistics.median(times):6.0f} ms median "
        f"(min {min(times):.0f}, max {max(times):.0f}, {runs} runs)"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args(argv)
    sys.path.insert(0, str(ROOT))
    from tests.test_html_report import ten_thousand_events

    seed = run([str(ROOT / "fixtures" / "mori-mr-size-limit-seed")], load_library())
    with tempfile.TemporaryDirectory() as directory:
        measure("seed", seed, args.runs, Path(directory))
        measure("10k-events", ten_thousand_events(), args.runs, Path(directory))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
