"""A cause the run served through once is a blip; one it served through again and again is how the
run served (reason/diagnose._survived_blip, RECURRING): vLLM recomputing every prompt whose KV
transfer failed answers 200 each time, and is no healthy P/D run."""

from __future__ import annotations

import re
from pathlib import Path

from pdlogdoctor.library.patterns import Library
from pdlogdoctor.pipeline import run

from .bundle_copy import copy_bundle
from .conftest import FIXTURES

# One Mooncake slice failed and was retried on the prefill; nothing downstream failed; the gate passed.
ONE_SLICE = FIXTURES / "recovered-mooncake-slice-retry-prefill"
SLICE = "worker_pool.cpp:294] Worker: Process failed for slice"
ANSWERED = re.compile(r"^\[2026-10-05 (\d\d:\d\d:\d\d)\] INFO: .* 200 OK")


def _with_the_slice_failing_on(text: str) -> str:
    """The prefill's failed-slice line again after each later request it answered, at that
    request's time: a failure on every transfer over twenty minutes, not one retried slice."""
    lines = text.splitlines(keepends=True)
    slice_line = next(line for line in lines if SLICE in line)
    out = []
    for line in lines:
        out.append(line)
        answered = ANSWERED.search(line)
        if answered and answered.group(1) > "03:26:52":
            out.append(slice_line.replace("03:26:52", answered.group(1), 1))
    return "".join(out)


def test_one_retried_failure_is_a_blip(library: Library) -> None:
    report = run([str(ONE_SLICE)], library)
    assert report.verdict.id == "healthy"


def test_the_same_failure_again_and_again_is_not(tmp_path: Path, library: Library) -> None:
    bundle = copy_bundle(
        ONE_SLICE, tmp_path / "run", rewrite=lambda t: _with_the_slice_failing_on(t) if SLICE in t else t
    )
    report = run([str(bundle)], library)
    assert report.verdict.id == "rdma-link-failure"
    assert SLICE.split("] ", 1)[1] in report.verdict.summary
