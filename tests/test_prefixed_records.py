"""A record behind a launcher's or collector's prefix is read as it is without it (issue 22).

A Python traceback under sglang's 'Scheduler hit an exception:' is several lines; a launcher or a
collector puts its tag before each of them: torchrun's `[rank0]: `, vLLM's and Ray's process tags
(`(EngineCore_DP0 pid=742) `, `(pid=4321, ip=10.0.0.5) `), journald's `Mon DD HH:MM:SS host
unit[pid]: `, the launcher of sglang#13912 (`[local time] [/bin/sh@<0,0>]: `). The frames and the
exception are read behind the announcing line's tag (its time aside); another process's line is no
line of this record. Where ranks share one stream, a traceback may stand above the announcing line
that names it (a compose service's ranks, blind-round5-excerpts/39): a line announcing a
traceback (`...:`) with none below reads the one that ends right above it, unless a log record
comes between.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from pdlogdoctor.library.formats import shipped
from pdlogdoctor.model import FieldValue
from pdlogdoctor.scan.traceback import read_block

ROOT = Path(__file__).resolve().parent.parent
CRASH = ROOT / "fixtures/scheduler-init-crash-zerodiv/decode_mia1-p02-g02.log"
HEADER = "Scheduler hit an exception: Traceback (most recent call last):"

PREFIXES = {
    "torchrun-rank": "[rank0]: ",
    "torchrun-tee": "[default0]:",
    "vllm-engine-core": "(EngineCore_DP0 pid=742) ",
    "vllm-worker": "(VllmWorker rank=0 pid=248) ",
    "ray-task": "(pid=4321, ip=10.0.0.5) ",
    "ray-actor": "(SGLangWorker pid=4321) ",
    "journald": "Jul 08 03:05:08 mia1-p02-g02 sglang-decode[50833]: ",
    "launcher-program-tag": "[2026-07-08 03:05:08] [/bin/sh@<0,0>]: ",
}


def _crash_lines() -> list[str]:
    return CRASH.read_text().splitlines()


def _read(lines: list[str], header: str = HEADER) -> dict[str, FieldValue]:
    data = ("\n".join(lines) + "\n").encode()
    at = data.index(header.encode())
    start = data.rfind(b"\n", 0, at) + 1
    return read_block("traceback", data, data.index(b"\n", at), len(data), shipped(), start)


@pytest.mark.parametrize("prefix", PREFIXES.values(), ids=PREFIXES.keys())
def test_a_traceback_behind_a_prefix_is_read_as_without_it(prefix: str) -> None:
    plain = _read(_crash_lines())
    prefixed = _read([prefix + line for line in _crash_lines()])
    assert prefixed["exc_type"] == plain["exc_type"] == "ZeroDivisionError"
    assert prefixed["frame_func"] == plain["frame_func"]
    assert prefixed["stack"] == plain["stack"]
    assert prefixed["stack_at"] == plain["stack_at"]


def test_a_tags_time_moves_its_process_does_not() -> None:
    formats = shipped()
    first = formats.tags("[2025-11-25 16:01:47] [/bin/sh@<0,0>]: [2025-11-25 08:01:47] Scheduler hit an exception:")
    later = formats.tags('[2025-11-25 16:01:48] [/bin/sh@<0,0>]:   File "x.py", line 1, in f')
    assert first[0] == later[0]
    assert later[1] == '  File "x.py", line 1, in f'  # the indent after the tag's one space is the line's
    assert formats.tags("(Worker_TP0 pid=733)   File")[0] != formats.tags("(Worker_TP1 pid=734)   File")[0]
    assert formats.tags("no tag here") == ("", "no tag here")


def test_another_process_line_is_no_line_of_the_record() -> None:
    lines = ["(Worker_TP0 pid=733) " + line for line in _crash_lines()]
    cut = next(i for i, line in enumerate(lines) if "ZeroDivisionError" in line)
    # another worker's exception line where this worker's stands: the record ends before it
    lines[cut] = "(Worker_TP1 pid=734) ZeroDivisionError: division by zero"
    fields = _read(lines)
    assert "exc_type" not in fields
    assert fields["traceback_frames"] == 5  # its own frames only


def _above(tail: list[str]) -> list[str]:
    lines = _crash_lines()
    top = next(i for i, line in enumerate(lines) if HEADER in line) + 1
    end = next(i for i, line in enumerate(lines) if line.startswith("ZeroDivisionError"))
    return ["deepseek-v32-exp  | " + line for line in [*lines[top : end + 1], "", *tail]]


def test_a_traceback_above_an_announcing_line_with_none_below_is_its_own() -> None:
    fields = _read(_above(["[2026-07-08 03:05:08 TP7] Scheduler hit an exception:"]), "Scheduler hit an exception:")
    assert fields["exc_type"] == "ZeroDivisionError"
    assert fields["frame_func"] == "largest_registered_kv_region_bytes_per_token"
    at = fields["stack_at"]
    assert isinstance(at, tuple) and at[0] == -13 and all(offset < 0 for offset in at)  # lines above the announcing one


@pytest.mark.parametrize(
    "tail",
    [
        # a log record between the traceback and the announcing line: that traceback is another's
        [
            "[2026-07-08 03:05:08 TP0] Load weight end. elapsed=151.00 s",
            "[2026-07-08 03:05:08 TP7] Scheduler hit an exception:",
        ],
        # a line that announces nothing (no `:` at its end) reads nothing above it
        ["[2026-07-08 03:05:08 TP7] Scheduler hit an exception"],
    ],
    ids=["a-record-between", "announces-nothing"],
)
def test_no_traceback_is_read_above_a_line_it_is_not_joined_to(tail: list[str]) -> None:
    assert _read(_above(tail), "Scheduler hit an exception") == {}
