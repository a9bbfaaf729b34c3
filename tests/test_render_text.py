"""The terminal report (issue 15): the first screen holds verdict, summary and fix; plain text when
piped; COLUMNS honoured; colour only for a terminal; words, not ids, in prose."""

from __future__ import annotations

import fcntl
import io
import os
import pty
import re
import select
import struct
import subprocess
import sys
import termios
from pathlib import Path

import pytest

from pdlogdoctor.library.patterns import Library
from pdlogdoctor.pipeline import run
from pdlogdoctor.render.options import RenderOptions
from pdlogdoctor.render.text import log_message, render

from .bundle_copy import SEED, copy_bundle
from .conftest import FIXTURES, ROOT

ANSI = re.compile(r"\x1b\[[0-9;]*m")
BOX_DRAWING = re.compile(r"[\u2500-\u257f]")
HEALTHY = FIXTURES / "blind-healthy-scary-noise"
INCONCLUSIVE = FIXTURES / "inconclusive-symptoms-only"
LOW_CONFIDENCE = FIXTURES / "pasted-mori-mr-sizing"


def text_report(library: Library, bundle: Path, **options: object) -> str:
    out = io.StringIO()
    render(run([str(bundle)], library), out, RenderOptions(**options))  # type: ignore[arg-type]
    return out.getvalue()


def in_a_terminal(args: list[str], columns: int, rows: int = 24, env: dict[str, str] | None = None) -> str:
    """Run the CLI with a pty as its stdout (and stdin) at the given size; return what it printed."""
    main, child = pty.openpty()
    fcntl.ioctl(child, termios.TIOCSWINSZ, struct.pack("HHHH", rows, columns, 0, 0))
    environment = {
        k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES", "NO_COLOR", "FORCE_COLOR", "TERM")
    }
    environment |= {"TERM": "xterm-256color", **(env or {})}
    process = subprocess.Popen(
        [sys.executable, "-m", "pdlogdoctor", *args],
        stdin=child,
        stdout=child,
        stderr=subprocess.DEVNULL,
        env=environment,
        cwd=ROOT,
    )
    os.close(child)
    chunks: list[bytes] = []
    while True:
        ready, _, _ = select.select([main], [], [], 120)
        if not ready:
            break
        try:
            data = os.read(main, 65536)
        except OSError:  # EIO: the child closed the terminal
            break
        if not data:
            break
        chunks.append(data)
    os.close(main)
    process.wait(timeout=120)
    return b"".join(chunks).decode().replace("\r\n", "\n")


def piped(args: list[str], env: dict[str, str] | None = None) -> str:
    environment = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "NO_COLOR", "FORCE_COLOR")} | (env or {})
    done = subprocess.run(
        [sys.executable, "-m", "pdlogdoctor", *args],
        capture_output=True,
        text=True,
        env=environment,
        cwd=ROOT,
        check=False,
    )
    return done.stdout


def first_screen_holds_verdict_summary_and_fix(lines: list[str]) -> None:
    screen = "\n".join(lines[:24])
    assert lines[0] == "A KV buffer is larger than the NIC's single RDMA memory-region ceiling"
    assert "mori-mr-size-limit" in lines[1] and "confidence 0.97" in lines[1]
    assert "MORI failed to register" in screen and "\nFix\n" in screen
    assert "#   --max-total-tokens 8388352" in screen


@pytest.mark.parametrize("columns", [80, 120])
def test_in_a_terminal_the_first_screen_holds_the_fix_and_lines_fit(columns: int) -> None:
    shown = in_a_terminal(["analyze", str(SEED)], columns)
    assert ANSI.search(shown)  # a terminal gets colour
    plain = ANSI.sub("", shown)
    assert not BOX_DRAWING.search(plain)
    lines = plain.splitlines()
    first_screen_holds_verdict_summary_and_fix(lines)
    too_wide = [line for line in lines if len(line) > columns and " " in line.strip()]
    assert not too_wide, too_wide  # only an unbreakable path may run past the edge
    # The same text as a pipe with COLUMNS set: the terminal adds colour and nothing else.
    assert plain == piped(["analyze", str(SEED)], env={"COLUMNS": str(columns)})


def test_no_color_in_a_terminal() -> None:
    shown = in_a_terminal(["analyze", str(SEED)], 80, env={"NO_COLOR": "1"})
    assert not ANSI.search(shown) and shown.startswith("A KV buffer")
    assert ANSI.search(in_a_terminal(["analyze", "--color", "always", str(SEED)], 80, env={"NO_COLOR": "1"}))


def test_piped_output_is_plain_and_honours_columns() -> None:
    default = piped(["analyze", str(SEED)])
    assert not ANSI.search(default) and not BOX_DRAWING.search(default)
    assert max(len(line) for line in default.splitlines() if " " in line.strip()) <= 80  # a pipe without COLUMNS
    wide = piped(["analyze", str(SEED)], env={"COLUMNS": "200"})
    assert len(wide.splitlines()) < len(default.splitlines())  # prose re-wrapped to the wider page
    assert ANSI.search(piped(["analyze", "--color", "always", str(SEED)]))


def test_prose_has_no_hard_newlines(library: Library) -> None:
    # The verdict's advice is written across lines in verdicts.toml; the report re-wraps it.
    shown = text_report(library, SEED, width=400)
    assert any(
        line.strip().startswith("Cap --max-total-tokens on the prefill")
        and line.rstrip().endswith("reads the variable.")
        for line in shown.splitlines()
    )


def test_the_fix_is_labelled_with_where_it_applies(library: Library) -> None:
    lines = text_report(library, SEED).splitlines()
    flag = lines.index("  - Launch flag --max-total-tokens, on the prefill and decode servers")
    flag_lines = [line.strip() for line in lines[flag + 1 : flag + 3]]
    assert flag_lines == ["# add to each launch command:", "#   --max-total-tokens 8388352"]  # a paste runs nothing
    assert not any(line.strip().startswith("--max-total-tokens") for line in lines)


def test_low_confidence_says_what_to_verify_first(library: Library) -> None:
    shown = text_report(library, LOW_CONFIDENCE, width=200)
    assert "confidence 0.45 (low)" in shown
    verify = next(line for line in shown.splitlines() if "verify first:" in line)
    assert "mr-registration-rejected" in verify
    assert "verify first" not in text_report(library, SEED)


def test_inconclusive_shows_no_numeric_confidence(library: Library) -> None:
    shown = text_report(library, INCONCLUSIVE)
    assert "no cause identified" in shown.splitlines()[1]
    assert not re.search(r"confidence \d", shown.split("Alternatives considered")[0])
    assert "Failure evidence, in time order (no cause identified)" in shown


def test_healthy_report_titles_its_chain_for_what_it_is_and_speaks_english(library: Library) -> None:
    shown = text_report(library, HEALTHY, width=400)
    assert "Evidence that the deployment served, in time order" in shown and "Causal chain" not in shown
    summary = shown.splitlines()[3]
    assert "the end-to-end checks" in summary and "the servers' ready lines" in summary
    assert not re.search(r"\b(probe-ok|gsm8k-accuracy|server-ready|kv-transfer-aborted)\b", summary)
    assert "What to do" not in shown  # nothing to fix


def test_chain_legend_explains_the_markers(library: Library) -> None:
    lines = text_report(library, SEED).splitlines()
    legend = next(line for line in lines if "times from the root cause" in line)
    assert "(xN) = N such lines" in legend and "? = no timestamp" in legend
    assert any("(x2)" in line for line in lines) and any(line.strip().startswith("?  harness") for line in lines)


def test_inputs_are_listed_only_when_something_is_wrong_or_verbose(tmp_path: Path, library: Library) -> None:
    assert "Inputs" not in text_report(library, SEED)
    assert "Inputs" in text_report(library, SEED, verbose=True)
    bundle = copy_bundle(SEED, tmp_path / "bundle")
    (bundle / "decode_rank3.log").write_bytes(b"")
    shown = text_report(library, bundle)
    section = shown.split("Inputs with problems")[1]
    assert "decode_rank3.log" in section and "empty" in section
    assert "router.log" not in section  # the good inputs are counted, not listed
    assert "4 more inputs read without problems" in section


def test_a_long_input_path_does_not_squeeze_its_text_to_a_word_per_line(tmp_path: Path, library: Library) -> None:
    """--verbose lists each input as `path: role (why), N lines`; a path wider than half the page
    takes a line of its own instead of hanging the text after it one word per line."""
    deep = tmp_path / ("a-directory-with-a-long-name-" * 2) / "and-another-one-below-it"
    bundle = copy_bundle(SEED, deep / "bundle")
    shown = text_report(library, bundle, verbose=True, width=80)
    section = shown.split("Inputs")[1]
    lines = [line for line in section.splitlines() if line.strip()]
    assert all(len(line) <= 80 or "/" in line for line in lines)  # only a path itself may overflow
    assert not [line for line in lines if len(line.split()) == 1 and "/" not in line], section
    assert any("router.log:" in line for line in lines)


def test_same_file_names_in_different_directories_stay_apart(library: Library) -> None:
    shown = text_report(library, FIXTURES / "blind-gpu-oom-prefill-runtime", width=200)
    wheres = re.findall(r"^ +(?:[+-][\d.]+[smh]|\?) +\w+ +(\S+/server\.log):\d+", shown, flags=re.MULTILINE)
    assert wheres and all(w.split("/")[0] in ("prefill-0", "decode-0") for w in wheres)


@pytest.mark.parametrize(
    ("line", "message"),
    [
        (
            "W20250516 09:00:52.240088 45697 topology.cpp:55] "
            "**No RDMA devices found, check your device installation**",
            "**No RDMA devices found, check your device installation**",
        ),
        (
            "(Worker_DP0_EP0 pid=2823482) ERROR 10-16 17:22:56 [nixl_connector.py:815] RuntimeError: Remote NIXL agent "
            "engine ID mismatch.",
            "RuntimeError: Remote NIXL agent engine ID mismatch.",
        ),
        (
            "(Worker_DP0_TP11_EP11 pid=390976) ERROR 2026-05-10 13:47:13.185 "
            "[vllm_ascend/.../mooncake_connector.py:246] "
            "Mooncake KVCacheSendingThread exception: Address already in use (addr='tcp://33.215.119.7:20013')",
            "Mooncake KVCacheSendingThread exception: Address already in use (addr='tcp://33.215.119.7:20013')",
        ),
        (  # torch's prefix (its time) goes; the rank the message names is the message's
            "[rank7]:[E223 11:14:34.011386790 ProcessGroupNCCL.cpp:636] [Rank 7] To avoid data inconsistency, we are "
            "taking the entire process down.",
            "[Rank 7] To avoid data inconsistency, we are taking the entire process down.",
        ),
        (
            "ERROR:    [Errno 98] error while attempting to bind on address ('::', 2242, 0, 0): address already in use",
            "ERROR:    [Errno 98] error while attempting to bind on address ('::', 2242, 0, 0): address already in use",
        ),
    ],
)
def test_a_quoted_line_shows_its_message_not_its_prefix(line: str, message: str) -> None:
    """At 80 columns a quoted line is clipped: the prefix the time column already says must not fill it."""
    assert log_message(line) == message


GREEN = SEED.parent / "pair-seed-0701-green"


@pytest.mark.parametrize("columns", [60, 80, 120])
def test_diff_tables_fit_columns_and_keep_every_row(columns: int) -> None:
    """`diff`'s tables honour COLUMNS as the prose does (the review: lines up to 203 characters at
    60): columns are clipped, and a long last cell is wrapped under its column, never cut."""
    shown = piped(["diff", str(GREEN), str(SEED)], env={"COLUMNS": str(columns)})
    lines = shown.splitlines()
    too_wide = [line for line in lines if len(line) > columns and " " in line.strip()]
    assert not too_wide, too_wide
    assert sum(line.startswith("!  max_total") for line in lines) == 1  # clipped at 60, but there
    words = " ".join(line.strip() for line in lines)
    assert "crossed 4 GiB (2^32)" in words  # the last cell is wrapped, not clipped


def test_diff_says_what_its_marks_mean() -> None:
    shown = piped(["diff", str(GREEN), str(SEED)], env={"COLUMNS": "100"})
    marks = {line[0] for line in shown.splitlines() if line[:1] in ("!", "*") and line[1:3] == "  "}
    assert marks == {"!", "*"}
    lines = shown.splitlines()
    starts = [n for n, line in enumerate(lines) if line.startswith("Marks:")]
    assert len(starts) == 1
    legend = " ".join(line.strip() for line in lines[starts[0] : lines.index("", starts[0])])
    assert "! a change that bears on the verdict" in legend and "* another change" in legend


@pytest.mark.parametrize("case", ["mori-mr-size-limit-seed", "inconclusive-symptoms-only", "two-incidents-hours-apart"])
def test_at_60_columns_only_an_unbreakable_path_runs_past_the_edge(case: str) -> None:
    """The review at COLUMNS=60: the `Unrecognised errors (...)` heading (75 characters) did not wrap."""
    shown = piped(["analyze", str(SEED.parent / case)], env={"COLUMNS": "60"})
    too_wide = [line for line in shown.splitlines() if len(line) > 60 and " " in line.strip()]
    assert not too_wide, too_wide


def test_force_color_colours_a_pipe_and_no_color_still_wins() -> None:
    """force-color.org: FORCE_COLOR (not 0) colours output that is not a terminal (a CI log viewer,
    `less -R`); NO_COLOR wins over it, and --color over both."""
    assert ANSI.search(piped(["analyze", str(SEED)], env={"FORCE_COLOR": "1"}))
    assert not ANSI.search(piped(["analyze", str(SEED)], env={"FORCE_COLOR": "0"}))
    assert not ANSI.search(piped(["analyze", str(SEED)], env={"FORCE_COLOR": "1", "NO_COLOR": "1"}))
    assert not ANSI.search(piped(["analyze", "--color", "never", str(SEED)], env={"FORCE_COLOR": "1"}))
