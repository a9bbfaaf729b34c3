"""A directory holding only a pasted issue body is read: the paste is the only evidence there is."""

from __future__ import annotations

from pathlib import Path

from pdlogdoctor.ingest import PASTED, discover
from pdlogdoctor.library.patterns import Library
from pdlogdoctor.pipeline import run

from .conftest import FIXTURES

SEED_PREFILL = next((FIXTURES / "mori-mr-size-limit-seed").glob("prefill_*.log"))


def _paste(directory: Path, name: str = "issue.md") -> Path:
    directory.mkdir()
    lines = SEED_PREFILL.read_text().splitlines()
    body = "\n".join(["### What happened", "", "```", *lines, "```", "", "Any idea?"])
    (directory / name).write_text(body + "\n")
    return directory


def test_a_directory_of_one_pasted_issue_is_diagnosed(tmp_path: Path, library: Library) -> None:
    report = run([str(_paste(tmp_path / "paste"))], library)
    assert report.verdict.id == "mori-mr-size-limit"
    (source,) = report.inputs
    assert source.lines > 10 and [p.code for p in source.problems] == [PASTED]
    assert not report.incomplete, "reading a paste leaves nothing unread"


def test_notes_beside_real_logs_stay_unread(tmp_path: Path) -> None:
    directory = _paste(tmp_path / "bundle", "notes.md")
    (directory / "decode.log").write_text("[2026-07-02 10:15:58] INFO: serving\n")
    found = {Path(item.name).name: item for item in discover([str(directory)])}
    assert found["decode.log"].open is not None
    assert found["notes.md"].open is None and found["notes.md"].problems[0].code == "not-a-log"


def test_scripts_alone_are_still_not_read(tmp_path: Path) -> None:
    directory = tmp_path / "scripts"
    directory.mkdir()
    (directory / "launch.sh").write_text('echo "[probe] request failed"\n')
    (item,) = discover([str(directory)])
    assert item.open is None and item.problems[0].code == "not-a-log"


# A KubeRay RayService's status as `kubectl get rayservice -o yaml` prints it (ray-project/ray#59265, a
# blind round's excerpt): the Ray Serve application's failure is in its `message:` fields.
RAYSERVICE_STATUS = """status:
  pendingServiceStatus:
    applicationStatuses:
      llm_app:
        message: Failed to update the deployments ['LLMServer:Qwen3-30B-A3B-Instruct-2507'].
        status: DEPLOY_FAILED
"""


def test_a_status_dump_alone_is_read_as_a_paste(tmp_path: Path, library: Library) -> None:
    directory = tmp_path / "status"
    directory.mkdir()
    (directory / "rayservice-status.yaml").write_text(RAYSERVICE_STATUS)
    report = run([str(directory)], library)
    (source,) = report.inputs
    assert [p.code for p in source.problems] == [PASTED]
    assert report.verdict.id == "inconclusive"
    assert "Failed to update the deployments" in report.verdict.summary


def test_a_status_dump_beside_real_logs_stays_unread(tmp_path: Path) -> None:
    directory = tmp_path / "bundle"
    directory.mkdir()
    (directory / "values.yaml").write_text(RAYSERVICE_STATUS)
    (directory / "decode.log").write_text("[2026-07-02 10:15:58] INFO: serving\n")
    found = {Path(item.name).name: item for item in discover([str(directory)])}
    assert found["values.yaml"].open is None and found["values.yaml"].problems[0].code == "not-a-log"
