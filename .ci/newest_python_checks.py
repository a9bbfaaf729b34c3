"""The interpreter-sensitive checks .ci/newest-python runs on the newest CPython (see docs/ci.md).

Run from the repository root with the repository on PYTHONPATH: a handful of corpus cases judged
by the suite's own rules (tests/corpus.py, known misses from tests/test_corpus.py left out), then
`pdlogdoctor analyze` of the seed fixture in every output format, each in a fresh process, the
second run of each format reading the pattern library from the cache the first one wrote.
Exits 1 naming every problem.
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ElementTree

from pdlogdoctor.library.load import load_library
from pdlogdoctor.model import OutputFormat
from pdlogdoctor.pipeline import run
from tests.conftest import ROOT
from tests.corpus import case_id, chain_problems, load_expected, value_problems, verdict_problems
from tests.test_corpus import KNOWN

# Different families, engines and input shapes: MORI with computed values, a healthy run, an
# out-of-memory crash across P/D, vLLM over NIXL/UCX, a slow run (the statistics), symptoms
# without a cause, a real excerpt from a thread and a blind case.
CASES = [
    "fixtures/mori-mr-size-limit-seed",
    "fixtures/healthy-dsv4-flash",
    "fixtures/gpu-oom-prefill-kills-pd",
    "fixtures/nixl-ucx-endpoint-reset-decode",
    "fixtures/slow-decode-saturated-sglang",
    "fixtures/inconclusive-symptoms-only",
    "tests/data/excerpts/mooncake-1267-tcp-writebody-segfault",
    "fixtures/blind-mori-mr-small-all-fail",
]
ANALYSED = "fixtures/mori-mr-size-limit-seed"


def case_problems() -> list[str]:
    library = load_library()
    problems = []
    for name in CASES:
        case = ROOT / name
        expected, report = load_expected(case), run([str(case)], library)
        known = KNOWN.get(case_id(case), {})
        found = [] if "verdict" in known else verdict_problems(expected, report)
        found += chain_problems(expected, report)
        found += [] if "values" in known else value_problems(expected, report)
        problems += [f"{name}: {problem}" for problem in found]
        print(f"  {name}: {report.verdict.id} {report.verdict.confidence:.2f}", "FAIL" if found else "ok")
    return problems


def format_problems(output_format: OutputFormat, out: str, verdict: str) -> list[str]:
    """What is wrong with one format's output beyond naming the verdict: it must parse as itself."""
    if output_format is OutputFormat.JSON:
        shown = json.loads(out)["verdict"]["id"]
        return [] if shown == verdict else [f"json verdict {shown}"]
    if output_format is OutputFormat.JUNIT:
        ElementTree.fromstring(out)  # raises on a malformed document
    if output_format is OutputFormat.HTML and not out.lstrip().lower().startswith("<!doctype html"):
        return ["html output is not an HTML document"]
    return [] if verdict in out else [f"{output_format.value} output does not name {verdict}"]


def cli_problems() -> list[str]:
    expected = load_expected(ROOT / ANALYSED)
    problems = []
    with tempfile.TemporaryDirectory() as cache:
        for output_format in OutputFormat:
            for attempt in ("cache written", "cache read"):
                done = subprocess.run(
                    [sys.executable, "-m", "pdlogdoctor", "analyze", ANALYSED, "-f", output_format.value],
                    capture_output=True,
                    text=True,
                    cwd=ROOT,
                    env={"PATH": "/usr/bin:/bin", "HOME": cache, "XDG_CACHE_HOME": cache},
                    check=False,
                )
                found = [] if done.returncode == expected["exit_code"] else [f"exit {done.returncode}: {done.stderr}"]
                found += format_problems(output_format, done.stdout, expected["verdict"]) if not found else []
                problems += [f"analyze -f {output_format.value} ({attempt}): {problem}" for problem in found]
            print(f"  analyze -f {output_format.value}", "FAIL" if found else "ok")
    return problems


def main() -> None:
    print(f"pdlogdoctor on {sys.version.split()[0]} ({sys.executable})")
    problems = case_problems() + cli_problems()
    for problem in problems:
        print(f"PROBLEM {problem}", file=sys.stderr)
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
