"""`pdlogdoctor triage RUN...`: many runs analysed in parallel, grouped by the failure they had.

A RUN is a run directory, an archive, or a JSON report written by `analyze --format json`. Each
becomes one RunRecord (from its report document, so a directory and its JSON report give the same
record); runs are put in order (by the earliest time their logs show when every run shows one,
else by name, numbers compared as numbers) and the failing ones grouped by fingerprint. A group
says how often it failed, its first and last run, an example, the known issue it is, and:
- flaky: it comes and goes: a green run lies between two of its runs;
- new: it first appeared after the last green run;
- gone: it has not been seen since the last green run.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ProcessPoolExecutor
from datetime import datetime
from functools import partial
from pathlib import Path
from typing import Any

from ..library.patterns import Library
from ..model import Report
from ..model.errors import PdlogdoctorError
from ..model.known import TeamIssue
from ..model.lazyre import lazy_re
from ..model.triage import Group, KnownRef, RunRecord, Triage
from ..model.verdicts import HEALTHY

NOT_SERVING_LOG = "not-a-serving-log"  # logshape.NOT_SERVING_LOG: an input whose lines are no evidence
_DIGITS = lazy_re(r"(\d+)")
JSON_REPORT_HEAD = b'"schema_version"'  # what the first bytes of analyze's JSON report hold


# ---------------------------------------------------------------- one run


def is_json_report(path: Path) -> bool:
    """A file `analyze --format json` wrote (not a JSON-lines log: the document's keys come first)."""
    if not path.is_file() or path.suffix.lower() != ".json":
        return False
    with path.open("rb") as handle:
        return JSON_REPORT_HEAD in handle.read(200)


def record_of(document: dict[str, Any], name: str, path: str) -> RunRecord:
    """The run as triage keeps it, from its report document (render/document.py's dictionary)."""
    verdict = document["verdict"]
    inputs = document.get("inputs", [])
    time = _earliest_time(document)
    known = tuple(KnownRef(item["source"], item["title"], item["fix"]) for item in document.get("known", []))
    team = tuple(
        KnownRef(item["link"], item.get("title", ""), f"team tracker (by {item['matched_by']})")
        for item in document.get("team", [])
    )
    return RunRecord(
        key=run_key(name, time, inputs),
        name=name,
        path=path,
        time=time,
        verdict=verdict["id"],
        title=verdict["title"],
        confidence=float(verdict["confidence"]),
        fingerprint=document["fingerprint"],
        summary=verdict["summary"],
        green=verdict["id"] == HEALTHY,
        readable=any(_readable(item) for item in inputs),
        known=team + known,
    )


def _readable(item: dict[str, Any]) -> bool:
    return bool(item.get("bytes")) and not any(p.get("code") == NOT_SERVING_LOG for p in item.get("problems", []))


def run_key(name: str, time: float | None, inputs: Iterable[dict[str, Any]]) -> str:
    """What makes a run the same run when it is added again: its name, its logs' first time and
    its files (base name, bytes, lines). Not where it was read from: a nightly job downloads each
    night's logs to the same directory."""
    files = sorted((os.path.basename(str(i.get("file", ""))), i.get("bytes"), i.get("lines")) for i in inputs)
    text = json.dumps([name, time, files], sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def _earliest_time(document: dict[str, Any]) -> float | None:
    """The earliest time the report shows: its chain, excerpt and unrecognised lines."""
    stamps = [event.get("time") for event in document.get("chain", [])]
    stamps += [window.get("time") for window in document.get("excerpt", [])]
    stamps += [item.get("first", {}).get("time") for item in document.get("unrecognised", [])]
    times = [_epoch(stamp) for stamp in stamps if stamp]
    return min(times) if times else None


def _epoch(stamp: str) -> float:
    return datetime.fromisoformat(stamp.replace("Z", "+00:00")).timestamp()


def run_name(path: str) -> str:
    """A run's name: its directory or archive name (a trailing slash does not count), or a report's stem."""
    target = Path(path.rstrip("/\\") or path)
    if target.suffix.lower() == ".json" and target.is_file():
        return target.stem
    return target.name or str(target)


# ---------------------------------------------------------------- many runs, in parallel


# What a report becomes to be kept and compared: the JSON report's document (render/document.py), which
# the command hands in, as a JSON report read from a file is one already.
Document = Callable[[Report], dict[str, Any]]


def analyse_run(
    path: str, library: Library, report_document: Document, name: str | None = None, team: Sequence[TeamIssue] = ()
) -> RunRecord:
    """One RUN: read a JSON report, or analyse the logs (on one core: the runs share the machine)."""
    from ..model.options import RunOptions
    from ..pipeline import run

    shown = name or run_name(path)
    options = RunOptions(workers=1, excerpt=False, known_issues=tuple(team))
    try:
        if is_json_report(Path(path)):
            document = json.loads(Path(path).read_text(encoding="utf-8"))
        else:
            document = report_document(run([path], library, options=options))
        return record_of(document, shown, path)
    except (PdlogdoctorError, OSError, ValueError, KeyError) as exc:
        return _unreadable(shown, path, f"{type(exc).__name__}: {exc}")


def _unreadable(name: str, path: str, why: str) -> RunRecord:
    return RunRecord(
        key=run_key(name, None, [{"file": path, "bytes": None, "lines": None}]),
        name=name,
        path=path,
        time=None,
        verdict="",
        title="",
        confidence=0.0,
        fingerprint="",
        summary="",
        green=False,
        readable=False,
        error=why,
    )


def analyse_runs(
    paths: Sequence[str],
    library: Library,
    report_document: Document,
    workers: int,
    on_done: Callable[[int], None] | None = None,
    team: Sequence[TeamIssue] = (),
) -> list[RunRecord]:
    """Every RUN analysed, `workers` at a time (each on one core); results in the order given."""
    if workers <= 1 or len(paths) <= 1:
        records = []
        for path in paths:
            records.append(analyse_run(path, library, report_document, team=team))
            if on_done:
                on_done(len(records))
        return records
    # The library goes with each chunk of runs (~0.3 MB, ~50 ms to unpickle): chunks are few.
    chunk = max(1, len(paths) // (workers * 8))
    with ProcessPoolExecutor(max_workers=min(workers, len(paths))) as pool:
        records = []
        for record in pool.map(
            partial(analyse_run, library=library, report_document=report_document, team=tuple(team)),
            paths,
            chunksize=chunk,
        ):
            records.append(record)
            if on_done:
                on_done(len(records))
        return records


# ---------------------------------------------------------------- grouping


def in_run_order(runs: Iterable[RunRecord]) -> tuple[list[RunRecord], str]:
    """By the logs' earliest time when every run shows one, else by name (numbers as numbers);
    and which order it is ("log time" or "run name")."""
    listed = list(runs)
    if listed and all(run.time is not None for run in listed):
        return sorted(listed, key=lambda run: (run.time, _natural(run.name))), "log time"
    return sorted(listed, key=lambda run: (_natural(run.name), run.time or 0.0)), "run name"


def _natural(name: str) -> tuple[tuple[int, str], ...]:
    return tuple((int(part), "") if part.isdigit() else (0, part) for part in _DIGITS.split(name) if part)


def triage(runs: Iterable[RunRecord]) -> tuple[Triage, str]:
    """The runs in order and the failing ones grouped by fingerprint; and the order used."""
    ordered, order = in_run_order(runs)
    greens = [index for index, run in enumerate(ordered) if run.green]
    last_green = greens[-1] if greens else None
    members: dict[str, list[int]] = {}
    for index, run in enumerate(ordered):
        if run.readable and not run.green and run.fingerprint:
            members.setdefault(run.fingerprint, []).append(index)
    # Most runs first; among equals, the one seen most recently.
    ranked = sorted(members.items(), key=lambda item: (-len(item[1]), -item[1][-1], item[0]))
    groups = tuple(_group(fingerprint, indices, ordered, greens, last_green) for fingerprint, indices in ranked)
    name = ordered[last_green].name if last_green is not None else None
    return Triage(tuple(ordered), groups, name), order


def _group(
    fingerprint: str, indices: list[int], ordered: list[RunRecord], greens: list[int], last_green: int | None
) -> Group:
    runs = [ordered[index] for index in indices]
    latest = runs[-1]
    known = {ref.link: ref for run in runs for ref in run.known}  # the latest run's words win
    return Group(
        fingerprint=fingerprint,
        verdict=latest.verdict,
        title=latest.title,
        runs=tuple(run.key for run in runs),
        first=runs[0].name,
        last=latest.name,
        example=latest.name,
        example_path=latest.path,
        known=tuple(known.values()),
        flaky=any(indices[0] < green < indices[-1] for green in greens),
        new=last_green is not None and indices[0] > last_green,
        gone=last_green is not None and indices[-1] < last_green,
    )
