"""A warning whose words say an operation failed is never "nothing failed" (issue 22).

Any logger's warning (the level as a word: Python logging, LMCache, LightLLM, vLLM), not only
glog's, that says something failed and does not say in the same line that it was handled (a
fallback taken, a thing ignored or skipped) is recorded as a warning
(open-world/severity.toml, level-warning-failure): lines where nothing else failed are then
inconclusive with it quoted, not no-failure-seen. The look-alike: a warning that took a fallback.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from pdlogdoctor.library.patterns import Library
from pdlogdoctor.model import Severity
from pdlogdoctor.pipeline import run
from pdlogdoctor.scan.timeline import clean_line

FAILED_WARNINGS = [
    # LMCache/LMCache#1990: the PD backend's transfer buffer has no free object.
    "(EngineCore_DP0 pid=18188) [2025-11-12 21:12:41,177] LMCache WARNING: Failed to allocate memory object, "
    "retrying... (pd_backend.py:489:lmcache.v1.storage_backend.pd_backend)",
    # ModelTC/LightLLM#1072: the prefill's KV transfer process did not start.
    "WARNING 09-29 01:32:18 [prefill_trans_obj.py:364] Failed start kv trans process for device 0:",
]
# A warning that says it handled the failure itself (the library's own level-quiet example).
HANDLED = "WARNING 07-29 05:04:30 [utils.py:12] Failed to import triton kernel; falling back"


@pytest.mark.parametrize("line", FAILED_WARNINGS, ids=["lmcache", "lightllm"])
def test_a_warning_that_says_something_failed_is_a_warning_line(library: Library, line: str) -> None:
    assert library.errors is not None
    hit = library.errors.classify(clean_line(line)[0])
    assert hit is not None and hit.severity is Severity.WARNING


@pytest.mark.parametrize("line", FAILED_WARNINGS, ids=["lmcache", "lightllm"])
def test_lines_where_only_a_warning_says_something_failed_are_inconclusive(
    library: Library, tmp_path: Path, line: str
) -> None:
    (tmp_path / "paste.log").write_text(line + "\n")
    report = run([str(tmp_path)], library)
    assert report.verdict.id == "inconclusive"
    assert clean_line(line)[0].split("] ", 1)[-1][:40] in report.verdict.summary


def test_a_warning_that_took_a_fallback_is_not_a_failure(library: Library, tmp_path: Path) -> None:
    assert library.errors is not None
    hit = library.errors.classify(HANDLED)
    assert hit is None or hit.severity.rank < Severity.WARNING.rank
    (tmp_path / "paste.log").write_text(HANDLED + "\n")
    assert run([str(tmp_path)], library).verdict.id == "no-failure-seen"


# A native component's LOG(ERROR) pasted without its level letter, ending by exclaiming the failure
# (round 181: Mooncake's NVLink transport, kvcache-ai/Mooncake#3031), and messages of the same shape.
# The look-alikes: the same line behind glog's INFO letter, and a question.
EXCLAIMED = [
    "... nvlink_transport.cpp:497] Requested address ... not found!",
    # the same message unelided with no prefix at all (round 28: kvcache-ai/Mooncake#1639, a process
    # group's warm-up over MNNVL)
    "Requested address 0x15ba2184 to 0x15ba2188 not found!",
]
NOT_EXCLAIMED = [
    "I0612 10:00:00.000000 4242 nvlink_transport.cpp:497] Requested address 0x7f2a80000000 to 0x7f2a80100000 "
    "not found!",
    "Config file not found? Using the defaults",
]


@pytest.mark.parametrize("line", EXCLAIMED)
def test_a_line_that_exclaims_its_failure_is_an_error_line_and_quoted(
    library: Library, tmp_path: Path, line: str
) -> None:
    assert library.errors is not None
    hit = library.errors.classify(clean_line(line)[0])
    assert hit is not None and hit.severity is Severity.ERROR
    (tmp_path / "paste.log").write_text(line + "\n")
    report = run([str(tmp_path)], library)
    assert report.verdict.id == "inconclusive", report.verdict.summary
    assert line.split("] ", 1)[-1] in report.verdict.summary


@pytest.mark.parametrize("line", NOT_EXCLAIMED)
def test_an_exclaimed_line_at_info_level_or_a_question_is_no_error(library: Library, line: str) -> None:
    assert library.errors is not None
    hit = library.errors.classify(clean_line(line)[0])
    assert hit is None or hit.severity.rank < Severity.WARNING.rank
