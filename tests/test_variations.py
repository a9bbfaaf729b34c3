"""The same incident, reshaped the way real logs arrive, gets the same verdict.

Each fixture bundle is rewritten in tmp_path: files renamed to names that say
nothing, every log concatenated into one stream, turned into a GitHub Actions
job log, gzip'd, or given CRLF line endings. The failure mechanism does not
change, so the verdict must not either: the tool must not depend on its own
fixtures' file names or layout.
"""

from __future__ import annotations

import gzip
import tomllib
from collections.abc import Callable
from pathlib import Path

import pytest

from pdlogdoctor.patterns import Library
from pdlogdoctor.pipeline import run

from .conftest import FIXTURES

BUNDLES = sorted(p.parent for p in FIXTURES.glob("*/expected.toml"))


def _logs(bundle: Path) -> list[tuple[str, bytes]]:
    """(name, text bytes) of every log in the bundle, compressed ones decompressed."""
    logs = []
    for path in sorted(bundle.iterdir()):
        if path.name == "expected.toml":
            continue
        data = path.read_bytes()
        if path.suffix == ".gz":
            data = gzip.decompress(data)
        logs.append((path.name.removesuffix(".gz"), data))
    return logs


def anonymous_names(bundle: Path, target: Path) -> None:
    for index, (_, data) in enumerate(_logs(bundle)):
        (target / f"part{index}.txt").write_bytes(data)


def one_stream(bundle: Path, target: Path) -> None:
    (target / "everything.log").write_bytes(b"".join(_with_newline(data) for _, data in _logs(bundle)))


def actions_job_log(bundle: Path, target: Path) -> None:
    lines = [b"2026-07-02T09:00:00.0000000Z Current runner version: '2.327.1'"]
    for name, data in _logs(bundle):
        lines.append(b"2026-07-02T09:00:01.0000000Z ##[group]" + name.encode())
        lines.extend(b"2026-07-02T09:00:01.0000000Z " + line for line in data.splitlines())
        lines.append(b"2026-07-02T09:00:01.0000000Z ##[endgroup]")
    (target / "1_run-disagg.txt").write_bytes(b"\n".join(lines) + b"\n")


def gzipped(bundle: Path, target: Path) -> None:
    for name, data in _logs(bundle):
        (target / f"{name}.gz").write_bytes(gzip.compress(data, mtime=0))


def crlf(bundle: Path, target: Path) -> None:
    for name, data in _logs(bundle):
        (target / name).write_bytes(data.replace(b"\r\n", b"\n").replace(b"\n", b"\r\n"))


def _with_newline(data: bytes) -> bytes:
    return data if data.endswith(b"\n") else data + b"\n"


RESHAPES: dict[str, Callable[[Path, Path], None]] = {
    "anonymous-names": anonymous_names,
    "one-stream": one_stream,
    "actions-job-log": actions_job_log,
    "gzipped": gzipped,
    "crlf": crlf,
}


@pytest.mark.parametrize("reshape", sorted(RESHAPES))
@pytest.mark.parametrize("bundle", BUNDLES, ids=[b.name for b in BUNDLES])
def test_reshaped_bundle_keeps_its_verdict(bundle: Path, reshape: str, tmp_path: Path, library: Library) -> None:
    expected = tomllib.loads((bundle / "expected.toml").read_text())["expected"]
    RESHAPES[reshape](bundle, tmp_path)
    report = run([str(tmp_path)], library)
    assert report.verdict.id == expected["verdict"], report.verdict.summary


# Above this, a verdict reads as a diagnosis; a guess must stay below it.
GUESS_CEILING = 0.6


@pytest.mark.parametrize("bundle", BUNDLES, ids=[b.name for b in BUNDLES])
def test_without_the_cause_file_there_is_no_confident_wrong_verdict(
    bundle: Path, tmp_path: Path, library: Library
) -> None:
    expected = tomllib.loads((bundle / "expected.toml").read_text())["expected"]
    full = run([str(bundle)], library)
    roots = [e for e in full.chain if library.pattern(e.pattern).verdict is not None]
    if not roots:
        pytest.skip("no single cause line to take away (healthy or inconclusive)")
    cause_file = Path(roots[0].source.split("!", 1)[0])
    kept = [p for p in bundle.iterdir() if p.name != "expected.toml" and p != cause_file]
    for path in kept:
        (tmp_path / path.name).write_bytes(path.read_bytes())
    report = run([str(tmp_path)], library)
    same_cause_elsewhere = report.verdict.id == expected["verdict"] and any(
        e.pattern == roots[0].pattern or library.pattern(e.pattern).verdict == expected["verdict"] for e in report.chain
    )
    assert same_cause_elsewhere or report.verdict.id == "inconclusive" or report.verdict.confidence <= GUESS_CEILING, (
        f"{report.verdict.id} at {report.verdict.confidence} without {cause_file.name}"
    )


def test_thousands_of_symptom_lines_do_not_outrank_one_cause_line(tmp_path: Path, library: Library) -> None:
    """Rule 4: rank by causal position and severity, never by how often a line repeats."""
    seed = FIXTURES / "mori-mr-size-limit-seed"
    for path in seed.iterdir():
        if path.name != "expected.toml":
            (tmp_path / path.name).write_bytes(path.read_bytes())
    noise = "".join(
        f"[2026-07-02 11:{k // 60 % 60:02d}:{k % 60:02d} TP0] Prefill bootstrap failed for request rank=0 "
        f"req.rid='{k:032x}' req.bootstrap_room={k} with exception KVTransferError(bootstrap_room={k}): "
        f"Request {k} timed out after 300.0s in KVPoll.Bootstrapping\n"
        for k in range(3000)
    )
    (tmp_path / "prefill_extra.log").write_text(noise)
    report = run([str(tmp_path)], library)
    assert report.verdict.id == "mori-mr-size-limit"
    timeouts = next(a for a in report.alternatives if a.id == "kv-transfer-timeout")
    assert timeouts.confidence < report.verdict.confidence
