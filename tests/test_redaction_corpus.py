"""The acceptance gate of the shareable outputs: nothing planted leaks, nothing planted injects.

Fake secrets of every kind docs/redaction.md promises to mask (tests/secret_corpus.py, made at test
time) are planted in every kind of line a report quotes: chain lines, the excerpt's context
lines, a multi-line private key, a line longer than the excerpt shows, a `server_args` repr,
an exception message that reaches the summary and the facts, a home path in a traceback frame,
and node names in file names. Injection payloads sit in the same places and in file names.

Each bundle is analysed as markdown and as github (with the Actions files set), redacted, and as a
control with --no-redact, which must show every plant: a plant the report never quotes proves
nothing. Workflow commands are read the way the Actions runner reads them (both streams, lines
split on CR and LF, v2 `::cmd::` at the start after leading white space, v1 `##[cmd]` anywhere).
"""

from __future__ import annotations

import html
import random
import re
from dataclasses import dataclass, replace
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pdlogdoctor.cli.commands import app

from .bundle_copy import SEED, copy_bundle
from .conftest import FIXTURES
from .secret_corpus import Maker, Plant

ZERODIV = FIXTURES / "scheduler-init-crash-zerodiv"
MARKDOWN_PAYLOAD = (
    "@pdld-victim #4242 acme/infra#77 ![pdld](https://tracker.example/p.png) [pdld-link](https://evil.example/x) "
    "<img src=x data-pdld-inject> **pdld-bold** _pdld-em_ ~~pdld-strike~~ </details> ```"
)
COMMAND_PAYLOADS = (
    "::set-output name=verdict::healthy",
    "%0A::add-mask::pdld-encoded",
    "##[add-mask]pdld-v1-in-a-context-line",
    "pdld-cr-before\r::warning title=pdld-cr::forged after a carriage return",
)
RAW = "\0raw:"  # marks an inserted line that gets no timestamp
INJECTED_NAMES = ("##[error]pdld-injected-stderr-v1.log", "rank3\n::warning title=pdld-injected::newline.log")


# ---------------------------------------------------------------- building the bundles


@dataclass
class Bundle:
    path: Path
    plants: list[Plant]


def _pack(plants: list[Plant], width: int = 300) -> list[str]:
    """Plants joined into log lines no wider than the excerpt shows."""
    lines: list[str] = []
    current = ""
    for plant in plants:
        if current and len(current) + len(plant.text) > width:
            lines.append(current)
            current = ""
        current = f"{current} {plant.text}".strip()
    return lines + ([current] if current else [])


def _insert(text: str, anchor: str, before: list[str], after: list[str], append: str = "") -> str:
    lines = text.split("\n")
    at = next(i for i, line in enumerate(lines) if anchor in line)
    stamp = re.match(r"\[[^\]]*\]|\d{4}-\d\d-\d\d \d\d:\d\d:\d\d", lines[at])
    prefix = stamp.group(0) + " " if stamp else ""
    if append:
        lines[at] += " " + append

    def stamped(line: str) -> str:  # a multi-line dump's continuation lines carry no prefix
        return line.removeprefix(RAW) if line.startswith(RAW) else prefix + line

    return "\n".join(
        lines[:at] + [stamped(x) for x in before] + [lines[at]] + [stamped(x) for x in after] + lines[at + 1 :]
    )


def build_seed_bundle(target: Path, maker: Maker) -> Bundle:
    plants = maker.plants()
    by_kind = {p.kind: p for p in plants}
    on_chain = {  # chain line anchor -> plant appended to it
        "RegisterRdmaMemoryRegion failed! addr:0x7f2a80000000": "ipv6-link-local",
        "Prefill transfer failed": "trace-token",
        "Decode transfer failed": "email",
        '"POST /generate HTTP/1.1" 500': "k8s-service",
        "Decode server returned error status": "url-credentials",
        "request failed with server error": "x-api-key-header",
        "[probe] request failed": "authorization-bearer",
        "[gsm8k] could not parse": "github-classic",
    }
    chain_plants = [replace(by_kind[k], where="chain line") for k in on_chain.values()]
    rest = [replace(p, where="context line") for p in plants if p.kind not in on_chain.values()]
    lines = _pack(rest)
    pem, pem_plant = maker.pem_block()
    hf = maker.draw(34, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")
    long_line = "0" * 365 + f"hf_{hf}" + " x" * 2300  # the token straddles column 400, where the excerpt cuts
    cut_plant = Plant("token-at-the-cut", long_line, (hf[:12],), "a 5,000-character context line")
    nodes = (maker.node_name(), maker.node_name())
    name_plant = Plant("node-name-in-file-name", "", nodes, "file names")
    slots = {  # (file, anchor) -> lines inserted before / after
        ("prefill", "RegisterRdmaMemoryRegion failed! addr:0x7f2a80000000"): (lines[0:3], []),
        ("prefill", "End of prefill disaggregation"): ([], lines[3:6]),
        ("decode", "End of prefill disaggregation"): (lines[6:9], [pem[0], *(RAW + x for x in pem[1:])]),
        ("decode", "Decode transfer failed"): (lines[9:12], []),
        ("decode", '"POST /generate HTTP/1.1" 500'): ([], [COMMAND_PAYLOADS[3], *COMMAND_PAYLOADS[:2]]),
        ("router", "Decode server returned error status"): (lines[12:15], []),
        ("router", "request failed with server error"): ([], [MARKDOWN_PAYLOAD, COMMAND_PAYLOADS[2], long_line]),
        ("bench", "[probe] request failed"): ([], lines[15:16]),
        ("bench", "[gsm8k] could not parse"): ([], lines[16:19]),
    }
    assert len(lines) <= 19, f"{len(lines)} packed lines: add slots"
    appended = {
        anchor: by_kind[kind].text + (" ##[set-output name=pdld;]v" if "Rdma" in anchor else "")
        for anchor, kind in on_chain.items()
    }

    def rewrite_file(name: str, text: str) -> str:
        text = text.replace("mia1-p06-g13", nodes[0]).replace("mia1-p06-g14", nodes[1])
        role = name.split("_")[0].split(".")[0]
        for (file, anchor), (before, after) in slots.items():
            if file == role:
                text = _insert(text, anchor, before, after)
        for anchor, extra in appended.items():
            if anchor in text:
                text = _insert(text, anchor, [], [], extra)
        return text

    names = {"prefill_mia1-p06-g13.log": f"prefill_{nodes[0]}.log", "decode_mia1-p06-g14.log": f"decode_{nodes[1]}.log"}
    target.mkdir(parents=True)
    for source in sorted(SEED.iterdir()):
        if source.name == "expected.toml":
            continue
        (target / names.get(source.name, source.name)).write_text(rewrite_file(source.name, source.read_text()))
    for name in INJECTED_NAMES:
        (target / name).write_text("")
    return Bundle(target, [*chain_plants, *rest, replace(pem_plant, where="context lines"), cut_plant, name_plant])


def build_exception_bundle(target: Path) -> Bundle:
    """The exception message reaches the summary and the facts; the innermost frame is in a home directory."""
    fresh = {p.kind: p for p in Maker(random.Random(2026)).plants()}
    chosen = [fresh[k] for k in ("aws-secret-ini", "url-credentials", "email", "ipv4", "jwt-bare")]
    message = "division by zero " + " ".join(p.text for p in chosen) + " " + MARKDOWN_PAYLOAD
    user = "pdld" + "".join(random.Random(7).choice("abcdefghijklmnop") for _ in range(6))
    home = Plant("home-in-frame", "", (f"/home/{user}",), "innermost traceback frame")

    def rewrite(text: str) -> str:
        text = text.replace("ZeroDivisionError: division by zero", f"ZeroDivisionError: {message}")
        return text.replace(
            '"/sgl-workspace/sglang/python/sglang/srt/model_executor/pool_configurator.py"',
            f'"/home/{user}/sglang/srt/model_executor/pool_configurator.py"',
        )

    copy_bundle(ZERODIV, target, rewrite)
    return Bundle(target, [replace(p, where="exception message") for p in chosen] + [home])


# ---------------------------------------------------------------- running and reading the outputs


@dataclass
class Outputs:
    surfaces: dict[str, str]  # name -> text, redacted
    control: str  # everything the --no-redact runs printed
    streams: dict[str, str]  # what the runner parses for workflow commands
    markdown: dict[str, str]  # what GitHub renders as markdown


def run_all(bundle: Bundle, tmp: Path) -> Outputs:
    tmp = tmp / f"outputs-{bundle.path.name}"
    tmp.mkdir()
    runner = CliRunner()
    surfaces: dict[str, str] = {}
    streams: dict[str, str] = {}
    markdown: dict[str, str] = {}
    control = ""
    for redact in (True, False):
        extra = [] if redact else ["--no-redact"]
        md = runner.invoke(app, ["analyze", "-f", "markdown", *extra, str(bundle.path)])
        summary, outputs = tmp / f"summary-{redact}.md", tmp / f"outputs-{redact}"
        env = {
            "GITHUB_WORKSPACE": str(bundle.path.parent),
            "GITHUB_STEP_SUMMARY": str(summary),
            "GITHUB_OUTPUT": str(outputs),
        }
        gh = runner.invoke(app, ["analyze", "-f", "github", *extra, str(bundle.path)], env=env)
        text = runner.invoke(app, ["analyze", "-f", "text", str(bundle.path)])
        page = runner.invoke(app, ["analyze", "-f", "html", *extra, str(bundle.path)])
        assert md.exit_code == gh.exit_code == 1, (md.stderr, gh.stderr)
        found = {
            "markdown": md.stdout,
            "github stdout": gh.stdout,
            "github stderr": gh.stderr,
            "step summary": summary.read_text(),
            "GITHUB_OUTPUT": outputs.read_text(),
            "html": readable_html(page.stdout),
        }
        tag = "" if redact else " (--no-redact)"
        streams |= {f"{k}{tag}": v for k, v in found.items() if k in ("github stdout", "github stderr")}
        streams |= {f"markdown stdout{tag}": md.stdout, f"markdown stderr{tag}": md.stderr, "text stdout": text.stdout}
        markdown |= {f"markdown{tag}": md.stdout, f"step summary{tag}": found["step summary"]}
        if redact:
            surfaces = found
        else:
            control = "\n".join(found.values())
    return Outputs(surfaces, control, streams, markdown)


def readable_html(page: str) -> str:
    """The HTML report as its reader sees it: entities and the data blob's JSON escapes undone, so a
    value cannot hide from the leak check behind `&amp;` or `\\u003c`."""
    unescaped = page.replace("\\u003c", "<").replace("\\u003e", ">").replace("\\u0026", "&")
    return html.unescape(unescaped.replace('\\"', '"').replace("\\\\", "\\"))


# What ICU's collation ignores in .NET's culture-sensitive IndexOf("##[") and StartsWith("::"), as
# actions/runner's ActionCommand.cs searches: default-ignorable code points, U+200B among them (D16).
ICU_IGNORABLE = re.compile(
    r"[\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180b-\u180f\u200b-\u200f\u202a-\u202e\u2060-\u206f\ufeff\ufe00-\ufe0f]"
)


def workflow_commands(stream: str) -> list[tuple[str, str]]:
    """(version, command) for each workflow command the runner would act on in `stream`, read as its
    ICU-aware search reads: ignorable characters do not count."""
    found: list[tuple[str, str]] = []
    for raw_line in re.split(r"\r\n|\r|\n", stream):
        line = ICU_IGNORABLE.sub("", raw_line)
        trimmed = line.lstrip()
        if trimmed.startswith("::"):
            end = trimmed.find("::", 2)
            if end > 2:
                found.append(("v2", trimmed[2:end]))
        start = line.find("##[")
        if start >= 0 and "]" in line[start:]:
            found.append(("v1", line[start + 3 : line.index("]", start)]))
    return found


OWN_ANNOTATION = re.compile(r"(?:error|warning|notice) title=[^,]*(?:,file=[^,]*,line=\d+)?")


def injected_commands(streams: dict[str, str]) -> list[str]:
    bad = []
    for name, stream in streams.items():
        for version, command in workflow_commands(stream):
            own = name.startswith("github stdout") and version == "v2" and OWN_ANNOTATION.fullmatch(command)
            if not own:
                bad.append(f"{name}: {version} {command[:60]!r}")
    return bad


def prose(markdown: str) -> str:
    """What GitHub renders as markdown text: fenced blocks and code spans removed (CommonMark rules)."""
    out, fence = [], None
    for line in markdown.split("\n"):
        opener = re.match(r" {0,3}(`{3,}|~{3,})", line)
        if fence is None and opener:
            fence = opener.group(1)
            continue
        if fence is not None:
            if re.fullmatch(r" {0,3}" + re.escape(fence[0]) + "{" + str(len(fence)) + r",}\s*", line):
                fence = None
            continue
        out.append(line)
    text = "\n".join(out)
    return re.sub(r"(?<!`)(`+)(?!`)(.+?)(?<!`)\1(?!`)", "", text, flags=re.S)


RENDERED = {
    "mention": re.compile(r"(?<![\w\u200b])@pdld-victim"),
    "issue reference": re.compile(r"(?<![\w&\u200b])#4242\b"),
    "cross-repo reference": re.compile(r"acme/infra#77"),
    "image": re.compile(r"!\["),
    "link": re.compile(r"\]\("),
    "autolink": re.compile(r"https?://|www\."),
    "raw html": re.compile(r"<img|<a |data-pdld-inject"),
    "emphasis": re.compile(r"\*\*pdld-bold\*\*|(?<!\\)_pdld-em(?<!\\)_|~~pdld-strike~~"),
}


def rendered_payloads(markdown: dict[str, str]) -> list[str]:
    return [
        f"{name}: {what}"
        for name, body in markdown.items()
        for what, rule in RENDERED.items()
        if rule.search(prose(body))
    ]


# ---------------------------------------------------------------- the gate


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> tuple[list[Plant], dict[str, Outputs]]:
    tmp = tmp_path_factory.mktemp("corpus")
    seed = build_seed_bundle(tmp / "nightly-run", Maker())
    crash = build_exception_bundle(tmp / "crash-run")
    return seed.plants + crash.plants, {"seed": run_all(seed, tmp), "crash": run_all(crash, tmp)}


def _leaks(needles: tuple[str, ...], text: str) -> bool:
    """A needle shows whole, or (for a long one) any 16 characters of it do: a cut token leaks too."""
    for needle in needles:
        windows = [needle] if len(needle) < 24 else [needle[i : i + 16] for i in range(len(needle) - 15)]
        if any(w in text for w in windows):
            return True
    return False


def test_the_control_run_quotes_every_plant(corpus: tuple[list[Plant], dict[str, Outputs]]) -> None:
    plants, outputs = corpus
    control = "\n".join(o.control for o in outputs.values())
    unquoted = [p.kind for p in plants if not all(n in control for n in p.needles)]
    assert not unquoted
    assert len(plants) >= 50 and len({p.kind for p in plants}) >= 25


def test_no_planted_value_leaks_into_any_shareable_surface(corpus: tuple[list[Plant], dict[str, Outputs]]) -> None:
    plants, outputs = corpus
    leaks = [
        f"{p.kind} ({p.where}) in {surface}"
        for p in plants
        for o in outputs.values()
        for surface, text in o.surfaces.items()
        if _leaks(p.needles, text)
    ]
    print(f"\nredaction: {len(plants)} plants of {len({p.kind for p in plants})} kinds, {len(leaks)} leaks")
    assert not leaks


def test_no_output_injects_workflow_commands(corpus: tuple[list[Plant], dict[str, Outputs]]) -> None:
    _, outputs = corpus
    injected = [bad for o in outputs.values() for bad in injected_commands(o.streams)]
    assert not injected
    # the tool's own annotations are there, so the parser does read them
    assert any(workflow_commands(o.streams["github stdout"]) for o in outputs.values())


def test_no_markdown_payload_renders(corpus: tuple[list[Plant], dict[str, Outputs]]) -> None:
    _, outputs = corpus
    rendered = [bad for o in outputs.values() for bad in rendered_payloads(o.markdown)]
    assert not rendered
    # the payload was quoted (inside code), so the check had something to find
    assert all("pdld-victim" in o.markdown["markdown (--no-redact)"] for o in outputs.values())


def test_step_outputs_hold_only_the_two_ids(corpus: tuple[list[Plant], dict[str, Outputs]]) -> None:
    _, outputs = corpus
    for o in outputs.values():
        lines = o.surfaces["GITHUB_OUTPUT"].splitlines()
        assert [line.split("=")[0] for line in lines] == ["verdict", "fingerprint"]
        assert all(re.fullmatch(r"[a-z]+=[a-z0-9-]+", line) for line in lines)


def test_the_runner_parser_finds_what_it_should() -> None:
    """The parser itself: a raw payload in a stream is an injection, an escaped one is not."""
    assert injected_commands({"github stderr": "warning: a/##[error]x.log: empty"}) != []
    assert injected_commands({"markdown stdout": "x\r  ::set-output name=a::b"}) != []
    assert injected_commands({"github stdout": "::error title=t,file=a.log,line=3::msg %0A::x"}) == []
    assert injected_commands({"markdown stdout": "#\u00a0#[error] and :\u00a0:x::"}) == []
    assert injected_commands({"markdown stdout": "#\u200b#[error]"}) != []  # ICU ignores a zero-width space


def test_the_prose_reader_finds_rendered_payloads() -> None:
    assert rendered_payloads({"m": "text ![a](b) @pdld-victim"}) == ["m: mention", "m: image", "m: link"]
    assert rendered_payloads({"m": "`![a](b) @pdld-victim`\n```\n#4242\n```"}) == []
