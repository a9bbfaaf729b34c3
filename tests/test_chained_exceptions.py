"""A chain of exceptions names its cause: the chain's first exception, not the wrapper that re-says it.

Python prints a chain when an exception is raised from another (`raise X from e`: "The above
exception was the direct cause of the following exception") or while another is handled ("During
handling of the above exception, another exception occurred"). A wrapper that re-raises a failure
in its own words leaves what really failed at the chain's start: sglang's "Please install mooncake"
above a libstdc++ version error (blind open-world ow16), torch's "Error building extension" above
ninja's failed build, transformers' OSError above huggingface_hub's 401.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from pdlogdoctor.library.patterns import Library
from pdlogdoctor.model import FieldValue
from pdlogdoctor.pipeline import run
from pdlogdoctor.scan.traceback import CHAIN_CAUSE, CHAIN_HANDLING, read_traceback

ROOT = Path(__file__).resolve().parent.parent
HEADER = b"Scheduler hit an exception: Traceback (most recent call last):"
HANDLING = b"During handling of the above exception, another exception occurred:"
DIRECT = b"The above exception was the direct cause of the following exception:"

# (file, the chain's first exception as read, the last exception's type)
CHAINS = [
    (
        "tests/data/blind-openworld/ow16-qwen3-mooncake-issue/issue_body.md",
        "ImportError: /lib/x86_64-linux-gnu/libstdc++.so.6: version `GLIBCXX_3.4.32' not found",
        "ImportError",
    ),
    (
        "fixtures/scheduler-init-crash-before-pool/prefill_mia1-p06-g13.log",
        "subprocess.CalledProcessError: Command '['ninja', '-v']' returned non-zero exit status 1.",
        "RuntimeError",
    ),
]


def _fields(data: bytes, header: bytes = HEADER) -> dict[str, FieldValue]:
    at = data.index(header)
    return read_traceback(data, data.index(b"\n", at), len(data))


@pytest.mark.parametrize(("path", "cause", "last"), CHAINS, ids=["sglang-mooncake-wrapper", "torch-extension-build"])
def test_the_first_exception_of_a_chain_is_its_cause(path: str, cause: str, last: str) -> None:
    fields = _fields((ROOT / path).read_bytes())
    assert str(fields["exc_cause"]).startswith(cause)
    assert fields["exc_cause_link"] == CHAIN_CAUSE
    assert fields["exc_type"] == last  # the exception the process died of is still the last one


def test_an_exception_raised_while_handling_another_is_told_so() -> None:
    data = (ROOT / CHAINS[1][0]).read_bytes().replace(DIRECT, HANDLING)
    fields = _fields(data)
    assert fields["exc_cause_link"] == CHAIN_HANDLING
    assert str(fields["exc_cause"]).startswith("subprocess.CalledProcessError")


def test_a_traceback_with_one_exception_names_no_cause() -> None:
    """The look-alike: a plain traceback (or one chain's tail read alone) has no chain to read."""
    data = (ROOT / CHAINS[1][0]).read_bytes()
    tail = data[data.index(DIRECT) + len(DIRECT) :]
    fields = _fields(b"[2026-07-06 21:34:35 TP3] " + HEADER + tail.split(b"Traceback (most recent call last):", 1)[1])
    assert fields["exc_type"] == "RuntimeError"
    assert "exc_cause" not in fields


def test_the_crash_summary_leads_with_the_cause_and_quotes_its_line(library: Library) -> None:
    report = run([str(ROOT / "tests/data/blind-openworld/ow16-qwen3-mooncake-issue")], library)
    summary = report.verdict.summary
    cause = "version `GLIBCXX_3.4.32' not found (required by /opt/venv/lib/python3.10/site-packages/mooncake/"
    assert cause in summary
    assert summary.index(cause) < summary.index("re-raised as ImportError: Please install mooncake")


def test_a_three_exception_chain_names_its_first() -> None:
    """transformers re-raises huggingface_hub's 401 twice (HTTPError -> GatedRepoError -> OSError):
    the first is what the server was refused."""
    data = (
        ROOT / "tests/data/blind-round5-bundles/03-prefill-gated-model-never-served/prefill_h100-b03.log"
    ).read_bytes()
    fields = _fields(data, b"Traceback (most recent call last):")
    assert str(fields["exc_cause"]).startswith("requests.exceptions.HTTPError: 401 Client Error: Unauthorized")
