"""Time budgets that keep the answer (issue 23): under --timeout, the inputs likeliest to hold the
cause for the least reading come first, and an answer cut short says so in every format, in the
quiet line and in the exit code.

The newcomer's run: a 1 GB `decode_*` log and the seed's 55 KB `prefill_*` log, `--timeout 2 -q`:
read in name order, the decode log took the whole budget, the prefill log (the cause) was never
read, and the answer was `inconclusive` with another fingerprint, the quiet line not saying it was
incomplete. Here the budget is counted in bytes read instead of seconds (the same cut, without
timing anything): what a slow disk or a big file does to a real deadline.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from pdlogdoctor import pipeline
from pdlogdoctor.cli.commands import app
from pdlogdoctor.ingest import Deadline, Reader
from pdlogdoctor.ingest.streams import read_into

from .bundle_copy import SEED, copy_bundle
from .conftest import FIXTURES

DECODE = "decode_mia1-p06-g14.log"
BUDGET = 2 << 20  # bytes read before the "deadline" passes


class _Counted(Reader):
    def __init__(self, inner: Reader, budget: ByteBudget) -> None:
        super().__init__(inner)
        self.budget = budget

    def read(self, size: int = -1, /) -> bytes:
        data = bytes(self.inner.read(size))
        self.budget.read += len(data)
        return data

    def read_into(self, buffer: bytearray, start: int, stop: int) -> int:
        got = read_into(self.inner, buffer, start, stop)
        self.budget.read += got
        return got


class ByteBudget(Deadline):
    """A --timeout that passes once `limit` bytes have been read."""

    def __init__(self, limit: int) -> None:
        super().__init__(3600.0)
        self.limit = limit
        self.read = 0

    @property
    def passed(self) -> bool:
        return self.read >= self.limit

    def wrap(self, stream: Reader) -> Reader:
        return super().wrap(_Counted(stream, self))


@pytest.fixture
def byte_budget(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    def deadline(seconds: float | None) -> Deadline:
        return Deadline(None) if seconds is None else ByteBudget(BUDGET)

    monkeypatch.setattr(pipeline, "Deadline", deadline)
    yield


@pytest.fixture
def big_decode(tmp_path: Path) -> Path:
    """The seed, plus a decode log four times the budget whose name sorts before the prefill's."""
    bundle = copy_bundle(SEED, tmp_path / "bundle")
    lines = (SEED / DECODE).read_bytes()
    with (bundle / "decode_big.log").open("wb") as out:
        for _ in range(4 * BUDGET // len(lines) + 1):
            out.write(lines)
    return bundle


def invoke(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(app, list(args), prog_name="pdlogdoctor")
    return result.exit_code, result.stdout, result.stderr


def test_the_small_log_that_holds_the_cause_is_read_before_the_big_one(big_decode: Path, byte_budget: Any) -> None:
    _, full, _ = invoke("analyze", "-f", "json", str(SEED))
    code, out, err = invoke("analyze", "-f", "json", "--timeout", "5", str(big_decode))
    document = json.loads(out)
    assert document["verdict"]["id"] == "mori-mr-size-limit" and code == 1
    assert document["fingerprint"] == json.loads(full)["fingerprint"]  # the same issue is found in CI
    cut = {
        s["file"].rsplit("/", 1)[-1] for s in document["inputs"] if any(p["code"] == "timeout" for p in s["problems"])
    }
    assert cut == {"decode_big.log"}  # only the big one was cut short
    assert document["incomplete"] is True and "[timeout]" in err


def test_an_incomplete_answer_says_so_in_every_format(big_decode: Path, byte_budget: Any, tmp_path: Path) -> None:
    outputs = {name: tmp_path / f"report.{name}" for name in ("md", "html", "json", "txt")}
    code, quiet, _ = invoke("analyze", "-q", "--timeout", "5", *(f"-o{p}" for p in outputs.values()), str(big_decode))
    assert code == 1
    assert quiet.rstrip("\n").endswith("# incomplete: --timeout reached before every input was read")
    verdict, confidence, fingerprint, fix = quiet.split(" # ")[0].split(" ", 3)  # the fields keep their meaning
    assert (verdict, fix) == ("mori-mr-size-limit", "--max-total-tokens 8388352")
    assert float(confidence) > 0.9 and fingerprint.startswith("pdld-")
    for name in ("md", "html", "txt"):
        assert "evidence incomplete" in outputs[name].read_text().lower(), name
    assert json.loads(outputs["json"].read_text())["incomplete"] is True
    _, github, _ = invoke("analyze", "-f", "github", "--timeout", "5", str(big_decode))
    assert "Evidence incomplete: --timeout reached" in github.splitlines()[0]  # in the verdict's own annotation


def test_an_incomplete_answer_never_exits_0(tmp_path: Path, byte_budget: Any) -> None:
    bundle = copy_bundle(FIXTURES / "blind-healthy-scary-noise", tmp_path / "healthy")
    code, _, _ = invoke("analyze", "-q", str(bundle))
    assert code == 0
    with (bundle / "zz_decode_big.log").open("wb") as out:
        out.write(b"[2026-07-02 10:16:40] INFO: nothing to see\n" * (BUDGET // 40 + 10))
    code, quiet, _ = invoke("analyze", "-q", "--timeout", "5", str(bundle))
    assert code == 3 and quiet.startswith("inconclusive ")  # healthy is a claim about every line
    _, out, _ = invoke("analyze", "--help")
    assert "never exits 0" in " ".join(out.split())
