"""Known issues: upstream knowledge as data, versions read from the logs, a team's own tracker.

What is checked: every entry names a public source thread and verdicts that exist, and every
verdict of the catalogue is accounted for (an entry, or a reason it has none); a malformed
entry is refused naming its file and key; the seed incident's report names the clamp
(sglang#30336, closed unmerged) and the CI cap (#30313), with the version its logs show; a
version is compared with the fixing release as PEP 440 orders it, and said not comparable when
it cannot be; the lookup changes no verdict, confidence or fingerprint; a team's file maps a
fingerprint (before a verdict) to its tracker link, and the shareable formats keep the links.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from pathlib import Path

import pytest

from pdlogdoctor.library.known import PUBLIC_THREAD, KnownBook, load_team_issues, normalise_package
from pdlogdoctor.library.load import load_library
from pdlogdoctor.library.patterns import Library
from pdlogdoctor.model import Report
from pdlogdoctor.model.errors import PatternError
from pdlogdoctor.model.options import RunOptions
from pdlogdoctor.model.verdicts import META, MR_SIZE_LIMIT
from pdlogdoctor.model.versions import Standing, against_fix, parse_version
from pdlogdoctor.pipeline import run
from pdlogdoctor.reason.fingerprint import fingerprint
from pdlogdoctor.render.markdown import markdown_report
from pdlogdoctor.render.options import RenderOptions

from .bundle_copy import SEED, copy_bundle
from .conftest import FIXTURES
from .test_cli import invoke

CLAMP = "https://github.com/sgl-project/sglang/pull/30336"
CI_CAP = "https://github.com/sgl-project/sglang/pull/30313"
PAGE_SIZE = FIXTURES / "config-mismatch-page-size"


# ---------------------------------------------------------------- the entries


def test_every_entry_names_a_public_source_and_verdicts_that_exist(library: Library) -> None:
    entries = library.known.entries
    assert len(entries) >= 17
    for entry in entries:
        assert PUBLIC_THREAD.match(entry.source), entry.id
        assert entry.verdicts and all(library.has_verdict(verdict) for verdict in entry.verdicts), entry.id
        assert all(PUBLIC_THREAD.match(link) for link in entry.references), entry.id
        assert Path(entry.path).stem == entry.id
        if entry.fixed_in is not None:
            assert parse_version(entry.fixed_in) is not None, entry.id  # a release the comparison can read


def test_every_failure_verdict_has_an_entry_or_a_reason_for_none(library: Library) -> None:
    covered = {verdict for entry in library.known.entries for verdict in entry.verdicts}
    without = {item.verdict for item in library.known.without_fix}
    unaccounted = [s.id for s in library.verdicts if s.id not in META and s.id not in covered | without]
    assert unaccounted == []
    # families whose upstream fixes the research found each have an entry
    for family in ("mori-mr-size-limit", "mr-registration-rejected", "config-mismatch", "kv-expired"):
        assert family in covered


def _library_with_entry(tmp_path: Path, text: str) -> Library:
    known = tmp_path / "mine" / "known"
    known.mkdir(parents=True)
    (known / "my-entry.toml").write_text(text)
    return load_library([tmp_path / "mine"])


GOOD_ENTRY = """
id = "my-entry"
verdict = "gpu-oom"
title = "t"
project = "o/r"
source = "https://github.com/o/r/issues/1"
status = "open"
"""


@pytest.mark.parametrize(
    ("change", "key"),
    [
        (('source = "https://github.com/o/r/issues/1"\n', ""), "source"),  # no source
        (("https://github.com/o/r/issues/1", "a forum post"), "source"),  # not a public thread
        (('verdict = "gpu-oom"', 'verdict = "gpu-om"'), "verdict"),  # a verdict that does not exist
        (('status = "open"', 'status = "solved"'), "status"),
        (('status = "open"', 'status = "fixed"\nfixed_in = "1.0"'), "fixed_in"),  # whose release?
        (('status = "open"', 'status = "open"\n[when]\nbackend = "morii"'), "when.backend"),
        (('status = "open"', 'status = "open"\n[when]\nerrnos = 22'), "when.errnos"),  # not a fact of gpu-oom
        (('status = "open"', 'status = "open"\n[when]\npattern = "nope"'), "when.pattern"),
    ],
)
def test_a_malformed_entry_is_refused_naming_its_key(tmp_path: Path, change: tuple[str, str], key: str) -> None:
    _library_with_entry(tmp_path / "good", GOOD_ENTRY)  # the unchanged entry loads
    with pytest.raises(PatternError) as refused:
        _library_with_entry(tmp_path / "bad", GOOD_ENTRY.replace(*change))
    assert refused.value.key is not None and refused.value.key.startswith(key)
    assert refused.value.path.endswith("my-entry.toml")


def test_explain_shows_a_verdicts_known_issues_and_an_entry_in_full() -> None:
    code, out, _ = invoke("explain", MR_SIZE_LIMIT)
    assert code == 0
    known = out.split("Known upstream", 1)[1]
    assert "sglang-mori-mr-clamp-unmerged" in known and "status: unmerged" in known and CLAMP in known
    assert "sglang-dsv4-flash-ci-token-cap" in known and CI_CAP in known
    code, out, _ = invoke("explain", "host-oom")
    assert "none listed: The kernel OOM killer" in out.split("Known upstream", 1)[1]
    code, out, _ = invoke("explain", "vllm-nixl-hetero-block-size")
    assert code == 0 and "status: fixed, first in vllm 0.11.1" in out and "Notes:" in out


def test_patterns_check_counts_the_known_issues() -> None:
    code, out, _ = invoke("patterns", "check")
    assert code == 0 and "known upstream issues" in out and "version sources" in out


# ---------------------------------------------------------------- the seed incident


def test_the_seed_report_names_the_clamp_its_status_and_the_version_seen(
    bundle_reports: Mapping[Path, Report],
) -> None:
    seed = bundle_reports[SEED]
    by_source = {issue.source: issue for issue in seed.known}
    clamp = by_source[CLAMP]
    assert clamp.status == "unmerged" and clamp.fixed_in is None
    assert "closed unmerged" in clamp.sentence
    assert by_source[CI_CAP].status == "workaround-only"
    # The launcher's recipe line in bench.log carries the image tag: sglang 0.5.14.
    (version,) = seed.versions
    assert (version.component, version.version) == ("sglang", "0.5.14")
    assert version.where.endswith("bench.log:1")
    assert "these logs show sglang 0.5.14" in clamp.sentence


def test_without_a_version_line_the_report_says_so(bundle_reports: Mapping[Path, Report]) -> None:
    report = bundle_reports[PAGE_SIZE]
    (issue,) = report.known
    assert issue.source == "https://github.com/sgl-project/sglang/pull/14474" and issue.fixed_in == "0.5.8"
    assert issue.standing == "not-in-logs" and "sglang's version is not in these logs" in issue.sentence


# ---------------------------------------------------------------- versions from the logs


@pytest.mark.parametrize(
    ("line", "standing"),
    [
        ("sglang==0.5.15.post1", Standing.HAS_FIX),  # pip freeze
        ("sglang: 0.4.6.post2", Standing.BEFORE_FIX),  # sglang.check_env (Mooncake#351)
        ("sglang                            0.5.10rc0+das.opt2.alpha.dtk2604", Standing.HAS_FIX),  # pip list
        ("sglang: 0.5.8.dev20260101+g339e36e", Standing.CANNOT_COMPARE),  # a dev build of the fixed release
    ],
)
def test_a_version_line_is_read_against_the_fixing_release(
    tmp_path: Path, library: Library, line: str, standing: Standing
) -> None:
    bundle = copy_bundle(PAGE_SIZE, tmp_path / "run")
    (bundle / "env.txt").write_text(f"{line}\n")
    report = run([str(bundle)], library)
    (issue,) = report.known
    assert issue.standing == standing, issue.sentence
    assert issue.seen[0].where.endswith("env.txt:1")


def test_pip_show_names_its_package_on_the_line_above(tmp_path: Path, library: Library) -> None:
    bundle = copy_bundle(PAGE_SIZE, tmp_path / "run")
    (bundle / "env.txt").write_text("Name: nixl\nVersion: 0.6.0\nName: sglang\nVersion: 0.5.7\n")
    report = run([str(bundle)], library)
    assert {(v.component, v.version) for v in report.versions} == {("nixl", "0.6.0"), ("sglang", "0.5.7")}
    assert report.known[0].standing == Standing.BEFORE_FIX


def test_package_names_are_compared_as_pep_503_says(library: Library) -> None:
    assert normalise_package("Nixl_CU13") == "nixl-cu13" == normalise_package("nixl.-cu13")
    assert library.known.component_of("NIXL_cu13") == "nixl"
    assert library.known.component_of("sglang-kernel") != "sglang"


@pytest.mark.parametrize(
    ("seen", "fixed", "standing"),
    [
        ("0.3.13", "0.3.13", Standing.HAS_FIX),
        ("0.3.12.post1", "0.3.13", Standing.BEFORE_FIX),
        ("0.11.1", "0.11.0", Standing.HAS_FIX),
        ("0.9.2", "0.11.1", Standing.BEFORE_FIX),  # numbers, not text: 9 < 11
        ("1.0", "1.0.0", Standing.HAS_FIX),  # trailing zeros do not count
        ("v1.3.1", "1.3.1", Standing.HAS_FIX),
        ("0.22.0rc1", "0.22.0", Standing.CANNOT_COMPARE),  # a release candidate of the fixed release
        ("0.21.0rc1", "0.22.0", Standing.BEFORE_FIX),
        ("0.13.0+faa43dbf.nv26.01", "0.11.1", Standing.HAS_FIX),  # a local build of a later release
        ("2.27.7-HEAD:0d2c4fd", "2.27.0", Standing.CANNOT_COMPARE),
        ("0.5.11.dev20260512+g339e36e", "0.5.8", Standing.HAS_FIX),
    ],
)
def test_versions_compare_as_pep_440_orders_them(seen: str, fixed: str, standing: Standing) -> None:
    assert against_fix(seen, fixed)[0] == standing


def test_pep_440_order_of_pre_post_and_dev_releases() -> None:
    ordered = ["1.0.dev1", "1.0a1", "1.0b2", "1.0rc1", "1.0", "1.0.post1", "1.0.1"]
    keys = [parse_version(text).key() for text in ordered]  # type: ignore[union-attr]
    assert keys == sorted(keys) and len(set(keys)) == len(keys)


# ---------------------------------------------------------------- never a change of the decision


def test_the_lookup_changes_no_verdict_confidence_or_fingerprint(library: Library) -> None:
    bare = replace(library, known=KnownBook())
    for bundle in (SEED, PAGE_SIZE, FIXTURES / "kv-expired-nixl-stale-read-bench-passed"):
        known, plain = run([str(bundle)], library), run([str(bundle)], bare)
        assert known.known and not plain.known
        assert (known.verdict, fingerprint(known), known.suggestions) == (
            plain.verdict,
            fingerprint(plain),
            plain.suggestions,
        )


# ---------------------------------------------------------------- a team's own known issues


def _team_file(tmp_path: Path, body: str) -> Path:
    path = tmp_path / "known-issues.toml"
    path.write_text(body)
    return path


def test_a_teams_issue_is_matched_by_fingerprint_before_verdict(
    tmp_path: Path, library: Library, bundle_reports: Mapping[Path, Report]
) -> None:
    seed_print = fingerprint(bundle_reports[SEED])
    team = load_team_issues(
        _team_file(
            tmp_path,
            f"""
[[issue]]
link = "https://tracker.example/PD-7"
verdicts = ["mori-mr-size-limit"]

[[issue]]
link = "https://tracker.example/PD-42"
title = "nightly: MORI region ceiling"
fingerprints = ["{seed_print}"]
""",
        ),
        library.has_verdict,
    )
    seed = run([str(SEED)], library, options=RunOptions(known_issues=team))
    assert [(m.link, m.by) for m in seed.team] == [("https://tracker.example/PD-42", "fingerprint")]
    clamp_run = run([str(FIXTURES / "mori-mr-4gib-clamp")], library, options=RunOptions(known_issues=team))
    assert fingerprint(clamp_run) != seed_print  # another incident of the same verdict
    assert [(m.link, m.by) for m in clamp_run.team] == [("https://tracker.example/PD-7", "verdict")]
    other = run([str(PAGE_SIZE)], library, options=RunOptions(known_issues=team))
    assert other.team == ()


@pytest.mark.parametrize(
    ("body", "key"),
    [
        ('[[issue]]\nlink = "https://t/1"\n', "issue[0]"),  # stands for nothing
        ('[[issue]]\nlink = "https://t/1"\nverdicts = ["mori-mr-size"]\n', "issue[0].verdicts"),
        ('[[issue]]\nlink = "https://t/1"\nfingerprints = ["ae6c49b7ed67"]\n', "issue[0].fingerprints"),
        ('[[issue]]\nlink = "https://t/1"\nverdict = "gpu-oom"\n', "issue[0].verdict"),  # a typo'd key
    ],
)
def test_a_bad_team_file_is_refused_naming_its_key(tmp_path: Path, library: Library, body: str, key: str) -> None:
    with pytest.raises(PatternError) as refused:
        load_team_issues(_team_file(tmp_path, body), library.has_verdict)
    assert refused.value.key == key


def test_the_config_names_the_teams_file_and_every_format_says_this_is(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "ci").mkdir()
    (tmp_path / "ci" / "known-issues.toml").write_text(
        '[[issue]]\nlink = "https://github.com/example/nightly/issues/42"\nverdicts = ["mori-mr-size-limit"]\n'
    )
    (tmp_path / "pdlogdoctor.toml").write_text('known = ["ci/known-issues.toml"]\n')
    monkeypatch.chdir(tmp_path)  # the config is found from the working directory up
    for form in ("text", "markdown", "github", "html"):
        code, out, err = invoke("analyze", "-f", form, str(SEED))
        assert code == 1, err
        assert "This is " in out and "https://github.com/example/nightly/issues/42" in out, form


def test_shareable_formats_keep_the_links_and_mask_the_logs(bundle_reports: Mapping[Path, Report]) -> None:
    seed = replace(bundle_reports[SEED], team=())
    body = markdown_report(seed, RenderOptions())
    assert f"`{CLAMP}`" in body and f"`{CI_CAP}`" in body  # links to copy (as code: nothing renders), not masked
    assert "mia1-p06-g13" not in body  # the logs' host names still are
    assert "github.com" in body.split("### Causal chain", 1)[0]


def test_the_json_report_lists_versions_and_known_issues(bundle_reports: Mapping[Path, Report]) -> None:
    from pdlogdoctor.render.document import report_document

    document = report_document(bundle_reports[SEED])
    (version,) = document["versions"]
    assert (version["component"], version["version"], version["line"]) == ("sglang", "0.5.14", 1)
    assert version["file"].endswith("bench.log") and version["how"].startswith("image tag")
    statuses = {item["source"]: (item["status"], item["standing"]) for item in document["known"]}
    assert statuses[CLAMP] == ("unmerged", "no-release")
    assert document["team"] == []
