"""The MORI single-region ceiling's fix names only knobs a released sglang has.

sglang#30336 proposed SGLANG_MORI_MAX_MR_BYTES (a clamp of the token count to MORI's region
limit) and was closed unmerged; sglang#30313 (merged) capped max_total_tokens in the MI355X CI
recipes only. So `--max-total-tokens`, computed from the logs, is the fix that works on every
version; the variable may be named only as what the unmerged clamp would add, with its link.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from pdlogdoctor.library.patterns import Library
from pdlogdoctor.model import Report
from pdlogdoctor.model.verdicts import MR_SIZE_LIMIT

from .conftest import FIXTURES

UNMERGED_KNOB = "SGLANG_MORI_MAX_MR_BYTES"
CLAMP_PR = "sgl-project/sglang pull request 30336"  # the URL is in the known entry the report shows


def test_no_report_suggests_a_knob_no_released_build_has(bundle_reports: Mapping[Path, Report]) -> None:
    sized = [report for report in bundle_reports.values() if report.verdict.id == MR_SIZE_LIMIT]
    assert len(sized) >= 4  # seed, 4 GiB clamp run, fleet, pasted excerpts
    for report in bundle_reports.values():
        assert UNMERGED_KNOB not in {s.name for s in report.suggestions}


def test_the_seed_fix_is_the_computed_token_cap_first(bundle_reports: Mapping[Path, Report]) -> None:
    seed = bundle_reports[FIXTURES / "mori-mr-size-limit-seed"]
    first = seed.suggestions[0]
    assert (first.kind, first.name) == ("server-arg", "--max-total-tokens")
    # (2 GiB - one 256-token page of 256 B) / 256 B per token, from the failing region and the sizing line
    assert first.value == (2**31 - 256 * 256) // 256 == 8_388_352
    assert any("6,002,442,240 B / 23,448,064 tokens" in step for step in first.arithmetic)


def test_the_unmerged_variable_is_named_only_with_its_link_and_status(library: Library) -> None:
    advice = " ".join(library.verdict(MR_SIZE_LIMIT).advice.split())
    assert advice.startswith("Cap --max-total-tokens")  # the fix for every version comes first
    assert UNMERGED_KNOB in advice and CLAMP_PR in advice
    named = advice.index(UNMERGED_KNOB)
    assert "unmerged" in advice[max(0, named - 200) : named + 200]
    assert "where the build has it" not in advice


def test_without_a_sizing_line_the_token_cap_says_how_to_compute_it(bundle_reports: Mapping[Path, Report]) -> None:
    report = bundle_reports[FIXTURES / "pasted-mori-mr-nosizing"]
    assert report.verdict.id == MR_SIZE_LIMIT
    (only,) = report.suggestions
    assert only.name == "--max-total-tokens" and only.value is None  # nothing in the logs to compute it from
    steps = " ".join(only.arithmetic)
    assert "2,147,483,648" in steps and "bytes per token" in steps
    assert "max_total_num_tokens" in steps  # the line to look for
