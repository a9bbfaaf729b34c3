"""Markdown: verdict first, copyable fix, chain table, excerpt with context, bounded length."""

from __future__ import annotations

import io
import shutil
import tomllib
from collections.abc import Mapping
from dataclasses import replace
from pathlib import Path

import pytest

from pdlogdoctor.describe.excerpt import build_excerpt
from pdlogdoctor.library.patterns import Library
from pdlogdoctor.model import OutputFormat, Report
from pdlogdoctor.pipeline import run
from pdlogdoctor.reason.fingerprint import fingerprint
from pdlogdoctor.render import render
from pdlogdoctor.render.markdown import GITHUB_BODY_LIMIT, markdown_report
from pdlogdoctor.render.options import RenderOptions

from .bundle_copy import SEED, copy_bundle
from .conftest import BUNDLES, FIXTURES

PLAIN = RenderOptions(redact=False)


def as_markdown(report: Report, options: RenderOptions = PLAIN) -> str:
    out = io.StringIO()
    render(report, OutputFormat.MARKDOWN, out, options)
    return out.getvalue()


@pytest.fixture(scope="module")
def seed(library: Library) -> Report:
    return run([str(SEED)], library)


@pytest.mark.parametrize("bundle", BUNDLES, ids=[b.name for b in BUNDLES])
def test_verdict_and_fingerprint_on_every_bundle(bundle: Path, bundle_reports: Mapping[Path, Report]) -> None:
    report = bundle_reports[bundle]
    body = as_markdown(report, RenderOptions())
    head = "\n".join(body.splitlines()[:3])
    assert f"`{report.verdict.id}`" in head
    if report.verdict.id == "inconclusive":
        assert "no cause identified" in head and "confidence" not in head  # no number for no cause
    else:
        assert f"confidence {report.verdict.confidence:.2f}" in head
    assert fingerprint(report) in head
    assert len(body) < GITHUB_BODY_LIMIT


def test_the_fix_is_a_labelled_block_safe_to_paste(seed: Report) -> None:
    body = as_markdown(seed)
    expected = tomllib.loads((SEED / "expected.toml").read_text())["expected"]["suggestions"]
    section = body.split("### Suggested fix", 1)[1].split("\n### ", 1)[0]
    blocks = [part.split("\n```", 1)[0] for part in section.split("```sh\n")[1:]]
    assert len(blocks) == len(seed.suggestions) == 1  # the token cap: no released build has another knob
    flag = blocks[0].splitlines()
    assert all(line.startswith("#") for line in flag)  # a paste runs nothing
    want = expected["--max-total-tokens"]["value"]
    assert f"--max-total-tokens {want}" in flag[-1]
    labels = [line for line in section.splitlines() if line.startswith("**")]
    assert labels[0].startswith("**Launch flag --max-total-tokens**")
    assert all("on the prefill and decode servers" in label for label in labels)
    assert body.index("### Suggested fix") < body.index("```mermaid")  # the fix before any picture


def test_chain_is_a_table_in_chain_order(seed: Report) -> None:
    body = as_markdown(seed)
    table = body.split("### Causal chain", 1)[1].split("\n\n", 3)[2]
    rows = [row for row in table.splitlines() if row.startswith("| ") and row[2].isdigit()]
    assert len(rows) == len(seed.chain)
    for row, event in zip(rows, seed.chain, strict=True):
        assert f"`{event.where}`" in row and event.pattern in row


def test_excerpt_has_real_context_lines_interleaved_in_time_order(seed: Report) -> None:
    body = as_markdown(seed)
    excerpt = body.split("<details>\n<summary>Evidence excerpt", 1)[1].split("</details>", 1)[0]
    root = seed.chain[0]
    lines = Path(root.source).read_text().splitlines()
    # the line before the root event is context read back from the file, unmarked
    assert f"  {root.line - 1:>7} | {lines[root.line - 2]}" in excerpt
    assert f"> {root.line:>7} | {lines[root.line - 1]}" in excerpt
    headers = [line[4:] for line in excerpt.splitlines() if line.startswith("--- ")]
    firsts = [min((e.time or float("inf")) for e in seed.chain if e.source == h) for h in headers]
    assert firsts == sorted(firsts)  # windows follow the chain's time order across files
    assert len({h for h in headers}) >= 3


def _long_report(report: Report, tmp_path: Path, events: int) -> Report:
    """A real file with long lines and a chain of `events` events on it."""
    log = tmp_path / "long.log"
    width = 380
    lines = [f"[2026-07-02 10:{n // 60 % 60:02d}:{n % 60:02d}] line {n} " + "x" * width for n in range(1, 4001)]
    log.write_text("\n".join(lines) + "\n")
    base = report.chain[0]
    chain = tuple(
        replace(base, source=str(log), line=n, text=lines[n - 1], time=(base.time or 0) + n)
        for n in range(10, 10 * events + 1, 10)
    )
    long = replace(report, chain=chain)
    return replace(long, excerpt=build_excerpt(long))  # what the pipeline reads for such a chain


def test_long_chain_and_excerpt_stay_under_the_limit_and_say_so(seed: Report, tmp_path: Path) -> None:
    report = _long_report(seed, tmp_path, 300)
    full = markdown_report(report, PLAIN, limit=10**9)
    assert len(full) > 4 * GITHUB_BODY_LIMIT  # it really would exceed
    body = markdown_report(report, PLAIN)
    assert len(body) < GITHUB_BODY_LIMIT
    assert "Trimmed to fit GitHub's 65,536-character limit" in body
    assert "chain rows" in body and "alternatives" in body
    assert "### Alternatives considered" not in body


def test_context_goes_before_alternatives(seed: Report, tmp_path: Path) -> None:
    report = _long_report(seed, tmp_path, 20)
    assert len(markdown_report(report, PLAIN, limit=10**9)) > 40_000
    body = markdown_report(report, PLAIN, limit=40_000)
    assert len(body) < 40_000
    assert "left out diagram, evidence context." in body  # the diagram goes first, then context
    assert "### Alternatives considered" in body
    assert all(f"line {n} x" in body for n in range(10, 201, 10))  # every chain row kept


def _plant_secrets(text: str) -> str:
    secrets = (
        "[2026-07-02 10:15:59] INFO: loading token from /home/alice/.cache/huggingface hf_AbCdEfGhIjKlMnOpQrStUvWx12 "
        "Authorization: Bearer sk-live-7f7f7f7f7f7f7f7f password=hunter2secret ghp_ABCDEFGHIJKLMNOPQRSTUVWXYZ0123 "
        "AKIAIOSFODNN7EXAMPLE peer=10.77.66.55 gateway=gw01.prod.example.com\n"
    )
    # just before the MORI failure, so it is inside the excerpt's context window
    return text.replace("[2026-07-02 10:16:03.412]", secrets + "[2026-07-02 10:16:03.412]", 1)


SENSITIVE = (
    "hf_AbCdEfGhIjKlMnOpQrStUvWx12",
    "sk-live-7f7f7f7f7f7f7f7f",
    "hunter2secret",
    "ghp_ABCDEFGHIJKLMNOPQRSTUVWXYZ0123",
    "AKIAIOSFODNN7EXAMPLE",
    "10.77.66.55",
    "gw01.prod.example.com",
    "/home/alice",
    "10.24.3.18",  # the decode server in the fixture
    "10.24.3.9",
    "mia1-p06-g13",  # node names
    "mia1-p06-g14",
)


def test_nothing_sensitive_leaks_into_markdown(library: Library, tmp_path: Path) -> None:
    bundle = copy_bundle(SEED, tmp_path / "b", _plant_secrets)
    report = run([str(bundle)], library)
    assert report.verdict.id == "mori-mr-size-limit"
    plain = markdown_report(report, PLAIN)
    assert all(secret in plain for secret in SENSITIVE)  # the planted values reach the output...
    redacted = markdown_report(report, RenderOptions())
    leaked = [secret for secret in SENSITIVE if secret in redacted]
    assert not leaked  # ...and redaction masks every one
    assert "&lt;hf-token-1&gt;" in redacted or "<hf-token-1>" in redacted
    assert "<ip-1>" in redacted and "<host-1>" in redacted
    assert "127.0.0.1" in redacted  # loopback is not a secret
    assert fingerprint(report) in redacted


def test_placeholders_are_stable_per_value() -> None:
    from pdlogdoctor.render.redact import Redactor

    redact = Redactor(["node-a7"])
    first = redact("10.1.2.3 talks to 10.1.2.4 on node-a7")
    again = redact("10.1.2.4 again, 10.1.2.3, node-a7.log, prefill_node-a7.log")
    assert first == "<ip-1> talks to <ip-2> on <host-1>"
    assert again == "<ip-2> again, <ip-1>, <host-1>.log, prefill_<host-1>.log"


@pytest.mark.parametrize(
    "text",
    ["#new-token: 583, #cached-token: 261", "token usage: 0.01", "src/routers/http/pd_router.rs:590", "Event.where"],
)
def test_redaction_leaves_ordinary_log_text_alone(text: str) -> None:
    from pdlogdoctor.render.redact import Redactor

    assert Redactor()(text) == text


def test_thousands_of_inputs_do_not_bury_the_report(tmp_path: Path, library: Library) -> None:
    from pdlogdoctor.render.inputs import SHOWN_INPUTS, inputs_to_show

    shutil.copytree(FIXTURES / "mori-mr-size-limit-seed", tmp_path / "seed")
    (tmp_path / "seed" / "expected.toml").unlink()
    for k in range(300):
        (tmp_path / f"rank{k:03}.log").write_text(f"[2026-07-02 10:00:00] rank {k} ok\n")
    report = run([str(tmp_path)], library)
    shown, hidden = inputs_to_show(report)
    names = {source.name for source in shown}
    assert {event.source for event in report.chain} <= names  # every file of the chain is listed
    assert len(shown) <= SHOWN_INPUTS and hidden == len(report.inputs) - len(shown) >= 300
    body = markdown_report(report, RenderOptions(redact=False))
    assert f"{hidden} more inputs" in body and "rank150.log" not in body


def test_masked_file_names_and_set_aside_files_are_each_said_once(tmp_path: Path) -> None:
    """One legend for the masked parts of file names (at the end), one note for a file set aside."""
    from typer.testing import CliRunner

    from pdlogdoctor.cli.commands import app

    bundle = copy_bundle(SEED, tmp_path / "bundle")
    (bundle / "worker3.out").write_text("import os\nimport sys\n\n\ndef main():\n    return 0\n")
    body = CliRunner().invoke(app, ["analyze", "-f", "markdown", str(bundle)]).stdout
    legend = body.split("### Causal chain", 1)[1].split("\n\n", 2)[1]
    assert "(xN) = N such lines" in legend and "? = no timestamp" in legend and "mask" not in legend
    assert "prefill_<host-1>.log" in body and "decode_<host-2>.log" in body  # masked in the body...
    [said] = [line for line in body.splitlines() if "no-redact" in line]  # ...and said so once, at the end
    assert said.startswith("<sub>Masked in file names: `<host-1>`, `<host-2>` (host names).")
    assert body.rstrip().splitlines()[-3] == said
    aside = "4 of 5 files read are logs; this one reads as program source or a table"
    assert body.count(aside) == 1 and f"{tmp_path}/bundle/worker3.out" in body
    terminal = CliRunner().invoke(app, ["analyze", str(bundle)]).stdout
    assert terminal.count(aside) == 1


def test_alternatives_are_explained_in_words_not_pattern_ids(seed: Report) -> None:
    why = {alt.id: alt.why_not for alt in seed.alternatives}["output-corruption"]
    assert "'Disaggregation warmup returned near-all-zero output ids' at" in why
    assert "warmup-output-ids" not in why and "mori-mr-register-failed" not in why


def test_a_quote_that_ends_a_sentence_is_one_code_span() -> None:
    """The summary quotes a log line and ends its sentence after it: the quote is one span,
    the stop stays prose (it was `RuntimeError("NIXL is not` `available`")., blind excerpts3)."""
    from pdlogdoctor.render.markup import quoted_prose

    line = '(EngineCore_DP1 pid=754) ERROR 01-12 17:11:19 [core.py:936]     raise RuntimeError("NIXL is not available")'
    said = 'The earliest error: build.log:1: raise RuntimeError("NIXL is not available"). Nothing names it.'
    assert quoted_prose(said, [line, "build.log"]) == (
        'The earliest error: `build.log`:1: raise `RuntimeError("NIXL is not available")`. Nothing names it.'
    )
    listed = 'It says RuntimeError("NIXL is not available"), then stops; see core.py:936; done.'
    assert quoted_prose(listed, [line]) == (
        'It says `RuntimeError("NIXL is not available")`, then stops; see `core.py:936`; done.'
    )


def test_an_unexplained_error_is_shown_with_the_lines_around_it(library: Library, tmp_path: Path) -> None:
    # NIXL prints the status of a failed call on a line of its own, below the line that says what
    # failed: the earliest line no pattern names is the bare status, and its meaning is above it.
    log = tmp_path / "decode.log"
    log.write_text(
        "[2026-07-02 10:05:31] INFO: warming up\n"
        "makeXferReq: local index out of range at index 192 with value 26357617\n"
        "-> NIXL_ERR_INVALID_PARAM\n"
        "[2026-07-02 10:05:32] INFO: retrying the transfer\n"
    )
    report = run([str(log)], library)
    assert report.verdict.id == "inconclusive" and not report.chain
    assert report.unrecognised[0].first.line == 3
    body = as_markdown(report)
    excerpt = body.split("<details>\n<summary>Evidence excerpt", 1)[1].split("</details>", 1)[0]
    assert ">       3 | -> NIXL_ERR_INVALID_PARAM" in excerpt  # the line to read, marked
    assert "        2 | makeXferReq: local index out of range at index 192 with value 26357617" in excerpt
    assert "        4 | [2026-07-02 10:05:32] INFO: retrying the transfer" in excerpt
