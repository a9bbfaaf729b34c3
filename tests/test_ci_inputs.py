"""CI inputs: an Actions log archive and a .tar.gz artefact read directly, same verdict as the folder."""

from __future__ import annotations

import io
import re
import tarfile
import zipfile
from collections.abc import Mapping
from pathlib import Path

import pytest

from pdlogdoctor.library.patterns import Library
from pdlogdoctor.model import Report
from pdlogdoctor.pipeline import run
from pdlogdoctor.scan.index import AnchorIndex
from pdlogdoctor.scan.search import scan_stream
from pdlogdoctor.scan.timeline import parse_stamp

from .conftest import BUNDLES, FIXTURES

STAMP = re.compile(r"^\[?(\d{4}-\d\d-\d\d)[ T](\d\d:\d\d:\d\d)")


def actions_lines(text: str, start: str = "2026-07-02T09:00:00") -> str:
    """Lines as the Actions runner stores them: an ISO prefix on each line it received,
    none on the continuation lines of multi-line output (here every third line)."""
    out = []
    last = start
    for number, line in enumerate(text.splitlines()):
        found = STAMP.match(line)
        if found:
            last = f"{found.group(1)}T{found.group(2)}"
        out.append(line if number % 3 == 2 else f"{last}.0000000Z {line}")
    return "\n".join(out) + "\n"


def plain_logs(bundle: Path) -> list[Path]:
    return [p for p in sorted(bundle.iterdir()) if p.name != "expected.toml" and p.suffix not in (".gz", ".zst")]


def summary(report: Report) -> tuple[str, set[str], dict[str, object]]:
    return report.verdict.id, {e.pattern for e in report.chain}, {s.name: s.value for s in report.suggestions}


# Each fixture goes through one kind of archive, the two kinds alternating over the sorted fixtures:
# reading an archive does not depend on what its logs say, so each kind meets half the fixtures'
# variety (nested folders, compressed members, core dumps) at half the suite's time.
TAR_BUNDLES, ZIP_BUNDLES = BUNDLES[0::2], BUNDLES[1::2]


@pytest.mark.parametrize("bundle", TAR_BUNDLES, ids=[b.name for b in TAR_BUNDLES])
def test_tar_gz_artefact_gives_the_folder_verdict(
    bundle: Path, library: Library, bundle_reports: Mapping[Path, Report], tmp_path: Path
) -> None:
    archive = tmp_path / "artifacts.tar.gz"
    with tarfile.open(archive, "w:gz") as tar:
        for path in sorted(bundle.iterdir()):
            if path.name != "expected.toml":
                tar.add(path, arcname=f"nightly/{bundle.name}/{path.name}")
    folder, packed = bundle_reports[bundle], run([str(archive)], library)
    assert summary(packed) == summary(folder)
    assert all(event.source.startswith(f"{archive}!nightly/") for event in packed.chain)


@pytest.mark.parametrize("bundle", ZIP_BUNDLES, ids=[b.name for b in ZIP_BUNDLES])
def test_plain_zip_gives_the_folder_verdict(
    bundle: Path, library: Library, bundle_reports: Mapping[Path, Report], tmp_path: Path
) -> None:
    archive = tmp_path / "artifacts.zip"
    with zipfile.ZipFile(archive, "w", zipfile.ZIP_DEFLATED) as zipped:
        for path in sorted(p for p in bundle.rglob("*") if p.is_file()):
            if path.name != "expected.toml":
                zipped.write(path, arcname=path.relative_to(bundle).as_posix())
    assert summary(run([str(archive)], library)) == summary(bundle_reports[bundle])


def test_actions_log_archive_gives_the_folder_verdict(library: Library, tmp_path: Path) -> None:
    bundle = FIXTURES / "mori-mr-size-limit-seed"
    archive = tmp_path / "logs_27184930211.zip"
    with zipfile.ZipFile(archive, "w", zipfile.ZIP_DEFLATED) as zipped:
        zipped.writestr(
            "nightly-disagg (mi355x)/1_Set up job.txt", actions_lines("Current runner version: '2.328.0'\n")
        )
        for number, path in enumerate(plain_logs(bundle), start=2):
            member = f"nightly-disagg (mi355x)/{number}_{path.stem}.txt"
            # a step without its own timestamps (the harness) ran after the servers came up
            start = "2026-07-02T10:17:05" if path.name == "bench.log" else "2026-07-02T10:00:00"
            zipped.writestr(member, actions_lines(path.read_text(), start))
    folder, packed = run([str(bundle)], library), run([str(archive)], library)
    assert packed.verdict.id == folder.verdict.id
    assert {s.name: s.value for s in packed.suggestions} == {s.name: s.value for s in folder.suggestions}
    assert {e.pattern for e in folder.chain} <= {e.pattern for e in packed.chain}


def test_unprefixed_continuation_lines_take_the_time_of_the_line_above(library: Library) -> None:
    # A harness line with only the Actions prefix, then output the runner stored without one.
    text = (
        "2026-07-02T10:17:05.1000000Z [probe] PD end-to-end check via LB\n"
        "curl: (22) The requested URL returned error: 502\n"
        "[probe] request failed -- PD path not serving; aborting before sweep\n"
    )
    result = scan_stream(io.BytesIO(text.encode()), "job.txt", AnchorIndex.build(library))
    event = next(e for e in result.events if e.pattern == "probe-not-serving")
    assert event.line == 3
    assert event.time_text == "2026-07-02 10:17:05"
    assert parse_stamp("curl: (22) x") is None  # the line itself has no time of its own


def test_excerpt_context_is_read_back_from_archive_members(library: Library, tmp_path: Path) -> None:
    from pdlogdoctor.render.markdown import markdown_report
    from pdlogdoctor.render.options import RenderOptions

    bundle = FIXTURES / "mori-mr-size-limit-seed"
    archive = tmp_path / "artifacts.tar.gz"
    with tarfile.open(archive, "w:gz") as tar:
        for path in plain_logs(bundle):
            tar.add(path, arcname=path.name)
    report = run([str(archive)], library)
    root = report.chain[0]
    before = (bundle / root.source.rsplit("!", 1)[1]).read_text().splitlines()[root.line - 2]
    body = markdown_report(report, RenderOptions(redact=False))
    assert f"  {root.line - 1:>7} | {before}" in body  # a context line, not in any event


def test_stdin_excerpt_falls_back_to_the_chain_lines(library: Library) -> None:
    text = (FIXTURES / "mori-mr-size-limit-seed" / "prefill_mia1-p06-g13.log").read_bytes()
    report = run(["-"], library, stdin=io.BytesIO(text))
    windows = report.excerpt  # built by the run: stdin cannot be read twice
    assert windows and all(line.distance == 0 for window in windows for line in window.lines)
