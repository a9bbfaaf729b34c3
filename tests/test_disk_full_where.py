"""A write that found no space is a model load's failure only in a server's process.

`[Errno 28] No space left on device` in a vLLM engine's traceback under huggingface_hub's download is
a server that could not load its model (blind round 34's bundle 06). The same line in a CI job's own
output (kserve/kserve#3408: poetry installing packages on a runner whose disk filled, blind round 58's
excerpts-d 02) is the runner's disk: no server's verdict names it, so the report is inconclusive with
the line quoted, not model-load-failure at 0.85.
"""

from __future__ import annotations

from pathlib import Path

from pdlogdoctor.library.patterns import Library
from pdlogdoctor.pipeline import run

# kserve/kserve#3408 (a GitHub Actions job's poetry install)
POETRY = [
    "  • Installing virtualenv (20.21.0)",
    "  • Installing websocket-client (1.7.0)",
    "",
    "  OSError",
    "",
    "  [Errno 28] No space left on device",
    "",
    "  at /opt/hostedtoolcache/Python/3.8.18/x64/lib/python3.8/site-packages/poetry/utils/helpers.py:159 "
    "in download_with_progress",
    "Error: Process completed with exit code 1.",
]
# vLLM's engine core downloading its weights (blind round 34 bundles-a 06's shape)
ENGINE = [
    "(EngineCore_DP0 pid=171) ERROR 12-09 14:32:59 [core.py:708] EngineCore failed to start.",
    "(EngineCore_DP0 pid=171) ERROR 12-09 14:32:59 [core.py:708] Traceback (most recent call last):",
    "(EngineCore_DP0 pid=171) ERROR 12-09 14:32:59 [core.py:708]   File "
    '"/opt/vllm/lib64/python3.12/site-packages/huggingface_hub/file_download.py", line 494, in http_get',
    "(EngineCore_DP0 pid=171) ERROR 12-09 14:32:59 [core.py:708]     temp_file.write(chunk)",
    "(EngineCore_DP0 pid=171) ERROR 12-09 14:32:59 [core.py:708] OSError: [Errno 28] No space left on device",
]


def test_a_ci_jobs_own_write_on_a_full_disk_is_no_model_load(tmp_path: Path, library: Library) -> None:
    (tmp_path / "ci-job.log").write_text("\n".join(POETRY) + "\n")
    report = run([str(tmp_path)], library)
    assert report.verdict.id == "inconclusive", report.verdict.summary
    assert "No space left on device" in report.verdict.summary


def test_a_servers_write_on_a_full_disk_is_a_model_load_failure(tmp_path: Path, library: Library) -> None:
    (tmp_path / "decode.log").write_text("\n".join(ENGINE) + "\n")
    report = run([str(tmp_path)], library)
    assert report.verdict.id == "model-load-failure", report.verdict.summary


# ROCm/TheRock's MI325 runner (blind round 78's excerpts-d 02), the one line as posted: a write into a
# build directory, no model's file. Seen at first sight: model-load-failure at 0.65 (confidently wrong).
BUILD_DIR = "OSError: [Errno 28] No space left on device: 'build'"
HUB_BLOB = (
    "OSError: [Errno 28] No space left on device: '/root/.cache/huggingface/hub/models--Qwen--Qwen3-8B/blobs/tmp1'"
)


def test_a_write_that_names_no_model_file_is_a_full_disk_not_a_model_load(tmp_path: Path, library: Library) -> None:
    (tmp_path / "excerpt.log").write_text(BUILD_DIR + "\n")
    report = run([str(tmp_path)], library)
    assert report.verdict.id == "inconclusive", report.verdict.summary
    assert "states its own cause" in report.verdict.summary and "('build')" in report.verdict.summary
    assert "df -h" in report.advice  # the line's own remedy, not "add the missing logs"


def test_a_write_into_the_hubs_cache_is_a_model_load(tmp_path: Path, library: Library) -> None:
    (tmp_path / "excerpt.log").write_text(HUB_BLOB + "\n")
    report = run([str(tmp_path)], library)
    assert report.verdict.id == "model-load-failure", report.verdict.summary
