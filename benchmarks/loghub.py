"""Grouping accuracy of `pdlogdoctor templates` on Loghub's 2k samples, beside default Drain3.

    python -m benchmarks.loghub DIR [--system NAME ...]

DIR holds the 16 `<System>_2k.log_structured.csv` files of the logpai/loghub repository (how
to get them: benchmarks/README.md); nothing is fetched at run time. For each system the
`Content` column is written one message a line to a temporary file, `pdlogdoctor templates
--format json` runs on it as a user would run it, and each line's predicted group is the
template that lists it. Grouping accuracy (Zhu et al., "Tools and Benchmarks for Automated Log
Parsing", ICSE-SEIP 2019) is the share of lines whose predicted group holds exactly the lines of
their true group (`EventId`). When drain3 is installed (it is not a dependency of the tool), its
default TemplateMiner runs on the same messages for comparison.
"""

from __future__ import annotations

import argparse
import csv
import json
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Sequence
from pathlib import Path

SYSTEMS = (
    "HDFS", "Hadoop", "Spark", "Zookeeper", "BGL", "HPC", "Thunderbird", "Windows",
    "Linux", "Android", "HealthApp", "Apache", "Proxifier", "OpenSSH", "OpenStack", "Mac",
)  # fmt: skip


def grouping_accuracy(predicted: Sequence[object], truth: Sequence[object]) -> float:
    """The share of lines whose predicted group is exactly their true group."""
    by_predicted: dict[object, set[int]] = defaultdict(set)
    by_truth: dict[object, set[int]] = defaultdict(set)
    for index, (guess, real) in enumerate(zip(predicted, truth, strict=True)):
        by_predicted[guess].add(index)
        by_truth[real].add(index)
    right = sum(len(lines) for lines in by_predicted.values() if by_truth[truth[min(lines)]] == lines)
    return right / len(truth) if truth else 1.0


def read_system(directory: Path, system: str) -> tuple[list[str], list[str]]:
    """(messages, true group ids) of one system's structured 2k file."""
    path = directory / f"{system}_2k.log_structured.csv"
    with path.open(newline="", encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle))
    return [" ".join(row["Content"].splitlines()) for row in rows], [row["EventId"] for row in rows]


def templates_groups(messages: list[str]) -> list[int]:
    """Each message's group as `pdlogdoctor templates --format json` gives it."""
    with tempfile.TemporaryDirectory() as scratch:
        path = Path(scratch) / "content.log"
        path.write_text("".join(f"{message}\n" for message in messages), encoding="utf-8")
        command = [sys.executable, "-m", "pdlogdoctor", "templates", "--format", "json", str(path)]
        output = subprocess.run(command, check=True, capture_output=True, text=True).stdout
    group_of = [-1] * len(messages)
    for index, template in enumerate(json.loads(output)["templates"]):
        for line in template["lines"]:
            group_of[line["line"] - 1] = index
    # An empty message is no line of any template: each is its own group.
    return [group if group >= 0 else -2 - number for number, group in enumerate(group_of)]


def drain3_groups(messages: list[str]) -> list[int] | None:
    """Each message's cluster under default Drain3, or None when drain3 is not installed."""
    try:
        from drain3 import TemplateMiner
        from drain3.template_miner_config import TemplateMinerConfig
    except ImportError:
        return None
    miner = TemplateMiner(config=TemplateMinerConfig())  # its defaults, without looking for a drain3.ini
    return [miner.add_log_message(message)["cluster_id"] for message in messages]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.loghub", description=__doc__.split("\n\n")[0])
    parser.add_argument("directory", type=Path, help="the directory of the <System>_2k.log_structured.csv files")
    parser.add_argument("--system", action="append", choices=SYSTEMS, help="only this system (repeatable)")
    args = parser.parse_args(argv)
    systems = args.system or list(SYSTEMS)
    missing = [s for s in systems if not (args.directory / f"{s}_2k.log_structured.csv").is_file()]
    if missing:
        parser.error(f"not in {args.directory}: {', '.join(f'{s}_2k.log_structured.csv' for s in missing)}")
    print(f"{'system':12} {'templates':>9} {'drain3':>7}")
    ours: list[float] = []
    theirs: list[float] = []
    started = time.monotonic()
    for system in systems:
        messages, truth = read_system(args.directory, system)
        ours.append(grouping_accuracy(templates_groups(messages), truth))
        drained = drain3_groups(messages)
        theirs += [grouping_accuracy(drained, truth)] if drained is not None else []
        print(f"{system:12} {ours[-1]:9.3f} {_cell(theirs[-1] if drained is not None else None)}", flush=True)
    print(f"{'average':12} {sum(ours) / len(ours):9.3f} {_cell(sum(theirs) / len(theirs) if theirs else None)}")
    print(f"{'lowest':12} {min(ours):9.3f} {_cell(min(theirs) if theirs else None)}")
    print(f"({time.monotonic() - started:.1f} s for {len(systems)} systems)")
    return 0


def _cell(value: float | None) -> str:
    return f"{value:7.3f}" if value is not None else f"{'-':>7}"


if __name__ == "__main__":
    raise SystemExit(main())
