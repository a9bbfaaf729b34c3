"""A symptom that yields to an error beside it, or loses to a deeper verdict, is no close rival (issue 22).

A symptom's wording only guesses a cause (a lost peer, a router with no worker); when an error
no pattern names is logged beside it by a server, the report is inconclusive and leads with that
error. The symptom, and any other symptom of the same failure, is then listed at most at
`confidence.YIELDED`: a consequence, not a close runner-up a reader would take for the answer.
The look-alike: the same symptom with no error beside it stays the verdict.

Lines: sglang's decode `Lost connection with prefill instance` (disaggregation/decode.py) and the
PD router's `Failed to select PD pair` (sgl-model-gateway pd_router.rs), as in
fixtures/gpu-oom-prefill-kills-pd; the lines beside them are Python's EMFILE OSError (as in
tests/data/blind-round3/10) and sgl_kernel's import failure after a torch upgrade (`undefined
symbol`, as in tests/data/blind-openworld/ow11).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from pdlogdoctor.library.patterns import Library
from pdlogdoctor.model import Report
from pdlogdoctor.pipeline import run
from pdlogdoctor.reason import confidence

DECODE_LOST = (
    "[2026-11-29 21:46:39 DP0 TP0 EP0] Lost connection with prefill instance "
    "(bootstrap_addr: 10.0.1.5:8998), 37 requests affected\n"
)
PREFILL_EMFILE = "[2026-11-29 21:46:30 DP0 TP0 EP0] Scheduler is alive.\nOSError: [Errno 24] Too many open files\n"
ROUTER_NO_PREFILL = (
    '2026-01-19 09:14:27 ERROR http_request{method=POST uri=/generate version=HTTP/1.1 module="smg" '
    'request_id="gnt-7f2c19a04be1"}: smg::routers::http::pd_router: src/routers/http/pd_router.rs:172: '
    "Failed to select PD pair error=No available prefill workers (all circuits open or unhealthy)\n"
)
PREFILL_ABI = (
    "ImportError: /usr/local/lib/python3.10/dist-packages/sgl_kernel/sm90/common_ops.abi3.so: "
    "undefined symbol: _ZNK3c106SymInt6sym_neERKS0_\n"
)


def _bundle(tmp_path: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        (tmp_path / name).write_text(text)
    return tmp_path


def _alternative(report: Report, verdict: str) -> float | None:
    return next((a.confidence for a in report.alternatives if a.id == verdict), None)


@pytest.mark.parametrize(
    ("files", "cause_words", "symptom"),
    [
        ({"decode.log": DECODE_LOST, "prefill.log": PREFILL_EMFILE}, "Too many open files", "peer-lost"),
        ({"router.log": ROUTER_NO_PREFILL, "prefill.log": PREFILL_ABI}, "undefined symbol", "router-no-workers"),
    ],
    ids=["lost-peer-beside-emfile", "router-no-worker-beside-import-failure"],
)
def test_a_symptom_beside_the_error_that_caused_it_is_no_close_rival(
    library: Library, tmp_path: Path, files: dict[str, str], cause_words: str, symptom: str
) -> None:
    report = run([str(_bundle(tmp_path, files))], library)
    assert report.verdict.id == "inconclusive"
    assert cause_words in report.verdict.summary
    rival = _alternative(report, symptom)
    assert rival is not None and rival <= confidence.YIELDED


def test_the_symptom_alone_stays_the_verdict(library: Library, tmp_path: Path) -> None:
    """The look-alike: nothing beside the lost peer, so it is the verdict at a symptom's base."""
    report = run([str(_bundle(tmp_path, {"decode.log": DECODE_LOST}))], library)
    assert report.verdict.id == "peer-lost"
    assert report.verdict.confidence > confidence.YIELDED


# ---------------------------------------------------------------- a shallower tier is no near tie

# PyTorch's ProcessGroupNCCL watchdog, as vLLM's workers print it (vllm#3071 shape).
WATCHDOG = (
    "[rank0]:[E822 16:31:16.131931664 ProcessGroupNCCL.cpp:632] [Rank 0] Watchdog caught collective operation "
    "timeout: WorkNCCL(SeqNum=5730, OpType=BROADCAST, NumelIn=3612672, NumelOut=3612672, Timeout(ms)=600000) ran "
    "for 600009 milliseconds before timing out.\n"
)
KV_TIMEOUT = (
    "[2026-08-22 16:31:20 TP0] Decode transfer failed for request rank=0 "
    "decode_req.req.rid='7aa56ae763e05248411fb16e49895bf4' decode_req.req.bootstrap_room=8773042853148382709 with "
    "exception KVTransferError(bootstrap_room=8773042853148382709): Request 8773042853148382709 timed out after "
    "299.2s in KVPoll.WaitingForInput\n"
)


def test_a_symptom_beside_a_deeper_verdict_is_listed_a_clear_step_below(library: Library, tmp_path: Path) -> None:
    """A KV timeout (a symptom) nothing links to a collective timeout (a mechanism) lost on the tier
    order: a decision, so it is no close runner-up."""
    report = run([str(_bundle(tmp_path, {"worker.log": WATCHDOG, "decode.log": KV_TIMEOUT}))], library)
    assert report.verdict.id == "collective-timeout"
    kv = _alternative(report, "kv-transfer-timeout")
    assert kv is not None and kv <= report.verdict.confidence - confidence.SHALLOWER + 1e-9


def test_the_symptom_alone_keeps_its_confidence(library: Library, tmp_path: Path) -> None:
    """The look-alike: with no deeper verdict, the KV timeout is the verdict at a symptom's base."""
    report = run([str(_bundle(tmp_path, {"decode.log": KV_TIMEOUT}))], library)
    assert report.verdict.id == "kv-transfer-timeout" and report.verdict.confidence > confidence.YIELDED
