"""GitHub Actions: at most 10 escaped annotations, most causal first; the step files the CLI writes."""

from __future__ import annotations

import io
from dataclasses import replace
from pathlib import Path

import pytest

from pdlogdoctor.cli.step_files import (
    STEP_SUMMARY_LIMIT,
    append_step_outputs,
    append_step_summary,
    workspace_files,
)
from pdlogdoctor.library.patterns import Library
from pdlogdoctor.model import OutputFormat, Report
from pdlogdoctor.pipeline import run
from pdlogdoctor.reason.fingerprint import fingerprint
from pdlogdoctor.render import render
from pdlogdoctor.render.github import command, escape_data, escape_property
from pdlogdoctor.render.options import RenderOptions

from .bundle_copy import SEED, copy_bundle
from .conftest import ROOT
from .test_quiet import NO_RDMA, STARTING
from .test_render_markdown import SENSITIVE, _plant_secrets


def annotate(report: Report, options: RenderOptions) -> list[str]:
    out = io.StringIO()
    render(report, OutputFormat.GITHUB, out, options)
    return out.getvalue().splitlines()


def parse(line: str) -> tuple[str, dict[str, str], str]:
    """A workflow command back into (level, properties, message), undoing the escapes."""
    assert line.startswith("::")
    head, message = line[2:].split("::", 1)
    level, _, props = head.partition(" ")
    properties = {}
    for item in props.split(","):
        key, value = item.split("=", 1)
        properties[key] = _unescape(value)
    return level, properties, _unescape(message)


def _unescape(text: str) -> str:
    return text.replace("%0A", "\n").replace("%0D", "\r").replace("%3A", ":").replace("%2C", ",").replace("%25", "%")


@pytest.fixture(scope="module")
def seed(library: Library) -> Report:
    return run([str(SEED)], library)


def test_escaping_follows_the_workflow_command_rules() -> None:
    assert escape_data("50% done\r\nnext") == "50%25 done%0D%0Anext"
    assert escape_property("a:b,c%\n") == "a%3Ab%2Cc%25%0A"
    line = command("error", "x::y\nz", {"title": "t: 1, 2", "file": "a,b.log"})
    assert line == "::error title=t%3A 1%2C 2,file=a%2Cb.log::x::y%0Az"
    assert "\n" not in line


def test_verdict_first_then_chain_in_causal_order_with_workspace_files(seed: Report) -> None:
    lines = annotate(seed, RenderOptions(workspace_files=workspace_files(seed, str(ROOT))))
    parsed = [parse(line) for line in lines]
    assert len(parsed) <= 10
    level, props, message = parsed[0]
    assert level == "error" and props["title"] == f"pdlogdoctor: {seed.verdict.title}"
    assert seed.verdict.id in message  # the id stays findable, in the message, not the title
    assert "--max-total-tokens 8388352" in message
    root = seed.chain[0]
    relative = Path(root.source).resolve().relative_to(ROOT).as_posix()
    # the node name in the file name is masked as everywhere else; the rest of the path stays
    assert (props["file"], props["line"]) == (relative.replace("mia1-p06-g13", "<host-1>"), str(root.line))
    plain = parse(annotate(seed, RenderOptions(redact=False, workspace_files=workspace_files(seed, str(ROOT))))[0])
    assert plain[1]["file"] == relative  # unredacted, it names the workspace file and links
    # One error for the one cause; the symptoms follow as notices, in chain order, the root not repeated.
    assert [level for level, _, _ in parsed] == ["error"] + ["notice"] * (len(parsed) - 1)
    titles = dict(seed.glossary)
    symptoms = [event for event in seed.chain if event not in seed.roots]
    # The upstream problems the failure is known as close the list, in one notice (patterns/known/).
    assert parsed[-1][1]["title"] == "pdlogdoctor: known upstream" and "sglang/pull/30336" in parsed[-1][2]
    for (_, event_props, _), event in zip(parsed[1:-1], symptoms, strict=False):
        assert titles[event.pattern] in event_props["title"] and event.pattern not in event_props["title"]
        assert event_props["line"] == str(event.line)


def test_no_file_outside_the_workspace(seed: Report, tmp_path: Path) -> None:
    assert workspace_files(seed, str(tmp_path)) == ()
    parsed = [
        parse(line) for line in annotate(seed, RenderOptions(workspace_files=workspace_files(seed, str(tmp_path))))
    ]
    assert parsed and all("file" not in props and "title" in props for _, props, _ in parsed)


def test_never_more_than_ten_annotations(seed: Report) -> None:
    long = replace(seed, chain=seed.chain * 5)
    assert len(long.chain) > 10
    assert len(annotate(long, RenderOptions())) == 10


def test_step_summary_gets_the_markdown_report(seed: Report, tmp_path: Path) -> None:
    summary = tmp_path / "summary.md"
    summary.write_text("earlier step\n")
    append_step_summary(seed, RenderOptions(), summary)
    text = summary.read_text()
    assert text.startswith("earlier step\n")  # appended, not overwritten
    assert fingerprint(seed) in text and "### Causal chain" in text


def test_step_summary_stays_under_one_mebibyte(seed: Report, tmp_path: Path) -> None:
    summary = tmp_path / "summary.md"
    summary.write_text("x" * (STEP_SUMMARY_LIMIT - 20_000))
    append_step_summary(seed, RenderOptions(), summary)
    assert summary.stat().st_size < STEP_SUMMARY_LIMIT
    assert summary.stat().st_size > STEP_SUMMARY_LIMIT - 20_000  # something was still added


def test_nothing_sensitive_leaks_into_annotations_or_summary(library: Library, tmp_path: Path) -> None:
    bundle = copy_bundle(SEED, tmp_path / "b", _plant_secrets)
    report = run([str(bundle)], library)
    summary = tmp_path / "summary.md"
    options = RenderOptions(workspace_files=workspace_files(report, str(tmp_path)))
    parsed = [parse(line) for line in annotate(report, options)]
    append_step_summary(report, options, summary)
    shown = "\n".join(props["title"] + "\n" + message for _, props, message in parsed)
    assert "<ip-" in shown
    assert not [secret for secret in SENSITIVE if secret in shown]
    assert not [secret for secret in SENSITIVE if secret in summary.read_text()]
    # file= names the same masked file as the summary, never the node
    files = [props["file"] for _, props, _ in parsed if "file" in props]
    assert files and not [secret for secret in SENSITIVE if any(secret in f for f in files)]
    assert all(f"`{f}:" in summary.read_text() or f in summary.read_text() for f in files)
    unredacted = "\n".join(annotate(report, replace(options, redact=False)))
    assert "10.24.3.18" in unredacted  # the fixture IP is really in what is annotated


def test_healthy_run_has_one_notice(library: Library) -> None:
    report = run([str(ROOT / "fixtures" / "healthy-dsv4-flash")], library)
    assert report.verdict.id == "healthy"
    [(level, props, message)] = [parse(line) for line in annotate(report, RenderOptions())]
    assert level == "notice" and props["title"] == f"pdlogdoctor: {report.verdict.title}"
    # The summary, as written (the client's address in its last serving line masked, as every line)
    assert "<ip-" in message and "10.24.3.9" not in message
    [(_, _, raw)] = [parse(line) for line in annotate(report, RenderOptions(redact=False))]
    assert raw.startswith(report.verdict.summary)


def test_inconclusive_is_a_warning_with_its_unexplained_errors(library: Library) -> None:
    report = run([str(ROOT / "fixtures" / "inconclusive-symptoms-only")], library)
    parsed = [
        parse(line) for line in annotate(report, RenderOptions(workspace_files=workspace_files(report, str(ROOT))))
    ]
    assert {level for level, _, _ in parsed} == {"warning"}  # nothing is an error: no cause was found
    assert "confidence" not in parsed[0][2] and "no cause identified" in parsed[0][2]
    failing = [event for event in report.chain if event.failing]
    shown = min(len(failing), 9)
    assert [props["line"] for _, props, _ in parsed[1 : 1 + shown]] == [str(e.line) for e in failing[:shown]]
    # Then the errors no pattern names, which an inconclusive report leads with, as room allows.
    unexplained = report.unrecognised[: 9 - shown]
    assert len(parsed) == 1 + shown + len(unexplained)
    assert [props["line"] for _, props, _ in parsed[1 + shown :]] == [str(item.first.line) for item in unexplained]


def test_file_names_in_annotations_are_masked_as_in_the_summary(library: Library, tmp_path: Path) -> None:
    """Issue 14: a node name in an annotation's file= gives away what the step summary masks."""
    bundle = copy_bundle(SEED, tmp_path / "b")
    report = run([str(bundle)], library)
    options = RenderOptions(workspace_files=workspace_files(report, str(tmp_path)))
    text = "\n".join(annotate(report, options))
    assert "mia1-p06-g13" not in text and "file=b/prefill_<host-1>.log" in text
    assert "10.24.3.18" not in text  # the rest is redacted too


def test_step_outputs_name_the_verdict_and_fingerprint(seed: Report, tmp_path: Path) -> None:
    outputs = tmp_path / "outputs"
    outputs.write_text("earlier=1\n")
    append_step_outputs(seed, outputs)
    assert outputs.read_text() == f"earlier=1\nverdict={seed.verdict.id}\nfingerprint={fingerprint(seed)}\n"


def test_the_renderer_itself_writes_no_file(seed: Report, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Even with the Actions variables set, rendering only writes to `out`: the CLI writes the step files."""
    summary, outputs = tmp_path / "summary.md", tmp_path / "outputs"
    monkeypatch.setenv("GITHUB_STEP_SUMMARY", str(summary))
    monkeypatch.setenv("GITHUB_OUTPUT", str(outputs))
    assert annotate(seed, RenderOptions())
    assert not summary.exists() and not outputs.exists()


def _starting_bundle(tmp_path: Path) -> Path:
    """Two servers still starting: nothing failed, the prefill warned (a real Mooncake line)."""
    bundle = tmp_path / "logs"
    bundle.mkdir()
    (bundle / "prefill.log").write_text("\n".join(STARTING) + "\n")
    (bundle / "decode.log").write_text("\n".join(STARTING[:1] + STARTING[3:5]) + "\n")
    return bundle


def test_nothing_failed_annotates_its_warnings_and_where_each_log_ends(library: Library, tmp_path: Path) -> None:
    report = run([str(_starting_bundle(tmp_path))], library)
    assert report.verdict.id == "no-failure-seen"
    options = RenderOptions(workspace_files=workspace_files(report, str(tmp_path)))
    parsed = [parse(line) for line in annotate(report, options)]
    assert parsed[0][0] == "warning" and parsed[0][1]["title"] == f"pdlogdoctor: {report.verdict.title}"
    placed = {(level, props.get("file"), props.get("line"), message) for level, props, message in parsed[1:]}
    assert placed == {
        ("warning", "logs/prefill.log", "2", NO_RDMA),  # the unnamed warning, at its file and line
        ("notice", "logs/prefill.log", "6", STARTING[5]),  # where each log ends
        ("notice", "logs/decode.log", "3", STARTING[4]),
    }
    ends = [props["title"] for level, props, _ in parsed if level == "notice"]
    assert ends == ["pdlogdoctor: where the log ends"] * 2
    # Outside the workspace no file= can be given: the title says where instead.
    outside = [parse(line) for line in annotate(report, RenderOptions())]
    titles = {props["title"] for level, props, _ in outside if level == "notice"}
    assert titles == {
        f"pdlogdoctor: where the log ends ({tmp_path}/logs/prefill.log:6)",
        f"pdlogdoctor: where the log ends ({tmp_path}/logs/decode.log:3)",
    }


def test_many_warnings_and_many_log_ends_share_the_ten_annotations(library: Library, tmp_path: Path) -> None:
    report = run([str(_starting_bundle(tmp_path))], library)
    many = replace(report, unrecognised=report.unrecognised * 12, log_ends=report.log_ends * 6)
    levels = [parse(line)[0] for line in annotate(many, RenderOptions())]
    assert levels == ["warning"] + ["warning"] * 5 + ["notice"] * 4  # the verdict, then 9 shared out
    few_ends = replace(report, unrecognised=report.unrecognised * 12)
    assert [parse(line)[0] for line in annotate(few_ends, RenderOptions())] == ["warning"] * 8 + ["notice"] * 2
