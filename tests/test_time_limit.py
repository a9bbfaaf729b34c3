"""A command run under `timeout DURATION` that exits with 124 ran out of its own time (issue 22).

coreutils' `timeout` exits with 124 when the duration it was given runs out; the CI runner reports
that status (Buildkite, Actions, GitLab, Slurm). With the `timeout` command above it in the same log
the step was stopped by its time limit: ci-cancelled (vllm-omni#4886: every test that ran had
passed). Look-alikes: a status 124 with no `timeout` command above, a pytest plugin named
`timeout-2.4.0` and a `--timeout 300` flag set no limit; a failure logged before the exit is its cause.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from pdlogdoctor.cli.behaviour import exit_code_for
from pdlogdoctor.pipeline import run
from pdlogdoctor.scan.time_limits import read_time_limit_above

from .conftest import shipped_library

LIBRARY = shipped_library()
BUILDKITE_START = [
    "[2026-07-05T13:33:52Z] --- Running container",
    "[2026-07-05T13:33:52Z] Commands:timeout 40m pytest -s tests/diffusion tests/model_executor",
    "[2026-07-05T13:34:21Z] ============================= test session starts ==============================",
    "[2026-07-05T13:34:21Z] plugins: anyio-4.9.0, asyncio-1.1.0, timeout-2.4.0, forked-1.6.0",
    "[2026-07-05T13:34:58Z] collected 2100 items",
    "[2026-07-05T13:35:03Z] tests/diffusion/attention/test_ulysses_sequence_parallel.py ........    [  0%]",
    "[2026-07-05T14:13:38Z] tests/model_executor/models/audex/test_audex_tta.py .....              [ 66%]",
]
BUILDKITE_END = [
    "[2026-07-05T14:14:22Z] 🚨 Error: The command exited with status 124",
    "[2026-07-05T14:14:22Z] user command error: exit status 124",
]


def _log(tmp_path: Path, lines: list[str], name: str = "job.log") -> Path:
    path = tmp_path / name
    path.write_text("".join(f"{line}\n" for line in lines))
    return path


def test_a_buildkite_step_cut_by_its_timeout_is_cancelled(tmp_path: Path) -> None:
    report = run([str(_log(tmp_path, [*BUILDKITE_START, *BUILDKITE_END]))], LIBRARY)
    assert report.verdict.id == "ci-cancelled", report.verdict.summary
    assert "timeout 40m" in report.verdict.summary
    assert "The command exited with status 124" in report.verdict.summary
    assert int(exit_code_for(report)) != 0


def test_an_actions_step_cut_by_its_timeout_is_cancelled(tmp_path: Path) -> None:
    lines = [
        "2025-11-25T02:14:13.2149819Z ##[group]Run timeout 30m python3 -m pytest -v tests/pd/test_disagg.py",
        "2025-11-25T02:14:20.0000000Z tests/pd/test_disagg.py::test_pd_generate PASSED",
        "2025-11-25T02:44:13.2358904Z ##[error]Process completed with exit code 124.",
    ]
    report = run([str(_log(tmp_path, lines))], LIBRARY)
    assert report.verdict.id == "ci-cancelled", report.verdict.summary
    assert "timeout 30m" in report.verdict.summary


def test_status_124_with_no_timeout_command_above_is_no_time_limit(tmp_path: Path) -> None:
    lines = [line for line in BUILDKITE_START if "Commands:" not in line] + BUILDKITE_END
    report = run([str(_log(tmp_path, lines))], LIBRARY)
    assert report.verdict.id != "ci-cancelled", report.verdict.summary


@pytest.mark.parametrize(
    ("line", "limit"),
    [
        ("Commands:timeout 40m pytest -s tests/diffusion", "40m"),
        ("+ timeout --signal=KILL 1500 python3 -m sglang.bench_serving --backend sglang", "1500"),
        ("$ timeout -k 10 2h bash run.sh", "2h"),
        ("plugins: anyio-4.9.0, asyncio-1.1.0, timeout-2.4.0, forked-1.6.0", None),
        ("python3 -m sglang.launch_server --timeout 300 --port 30000", None),
        ("the request hit a timeout of 600s", None),
    ],
)
def test_the_time_limit_is_read_from_a_timeout_command_only(line: str, limit: str | None) -> None:
    buf = f"{line}\nuser command error: exit status 124\n".encode()
    start = len(line) + 1
    fields = read_time_limit_above(buf, start, len(buf) - 1, len(buf))
    assert fields.get("limit") == limit


def test_a_failure_before_the_timeout_is_the_cause(tmp_path: Path) -> None:
    crash = [
        "[2026-07-05T13:40:01Z] torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a"
        " total capacity of 191.98 GiB of which 1.12 GiB is free.",
    ]
    report = run([str(_log(tmp_path, [*BUILDKITE_START[:5], *crash, *BUILDKITE_END]))], LIBRARY)
    assert report.verdict.id != "ci-cancelled", report.verdict.summary
