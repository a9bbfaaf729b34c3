"""A process that died of an exception no pattern names (issue 22; round 27's blind excerpts).

Two mechanisms, each a crash the lines prove and a cause only the exception's words state:

- A Python exception no pattern knows, then, just below it in the same file, the parent's line that
  a child died with no error of its own (a pattern marked `child-death-noticed`: sglang's `Received sigquit
  from a child process`, vLLM's `Engine core proc ... died unexpectedly`): the child died of that
  exception. The verdict is the crash, its phase from the lines before it (batches that ran
  requests make it a crash while serving), as a lead below 0.5.
- A crash whose own exception states a cause in a family's words (mscclpp's `IbError` whose what()
  says `ibv_reg_mr failed ... Bad address`): the family's verdict, as a lead, the crash beside it.

Look-alikes do not fire: the child's death far below the exception, in another file, or above it;
a registration that ran out of memory (ENOMEM is no refusal).

With no line of its death, a traceback whose frames frames.toml places in an engine's serving loop or
start-up (where an exception not caught ends the process: sglang's scheduler, vLLM's engine core) is
that crash too, as a weaker lead; a traceback through other code stays an error no pattern names.
"""

from __future__ import annotations

from pathlib import Path

from pdlogdoctor.library.patterns import Library
from pdlogdoctor.reason.confidence import ENGINE_EXCEPTION, UNNAMED_EXCEPTION, WORDS_ONLY

from .conftest import analysed_files

# sgl-project/sglang#8513: GLM-4.5-Air on four PCIe GPUs; the fused-MoE Triton kernel asked for more
# shared memory than the GPU has, in the middle of serving.
DECODE_BATCHES = [
    "[2025-07-29 15:06:27 TP0] Decode batch. #running-req: 1, #token: 1293, token usage: 0.01, cuda graph: True, "
    "gen throughput (token/s): 67.43, #queue-req: 0,",
    "[2025-07-29 15:06:28 TP0] Decode batch. #running-req: 1, #token: 1333, token usage: 0.01, cuda graph: True, "
    "gen throughput (token/s): 74.53, #queue-req: 0,",
    "[2025-07-29 15:06:28 TP0] Decode batch. #running-req: 1, #token: 1373, token usage: 0.01, cuda graph: True, "
    "gen throughput (token/s): 63.44, #queue-req: 0,",
]
FRAMES = [
    '  File "/xrepo/sglang_env/lib/python3.12/site-packages/sglang/srt/model_executor/model_runner.py", line 1551, '
    "in forward_extend",
    "    return self.model.forward(",
]
TRITON = (
    "triton.runtime.errors.OutOfResources: out of resource: shared memory, Required: 147456, Hardware limit: "
    "101376. Reducing block sizes or `num_stages` may help."
)
SIGQUIT = "[2025-07-29 15:06:51] Received sigquit from a child process. It usually means the child failed."
# vllm-project/vllm#32468: the engine client's line as an offline run's engine core went away.
ENGINE_GONE = (
    "ERROR 01-16 17:16:49 [core_client.py:605] Engine core proc EngineCore_DP0 died unexpectedly, shutting down client."
)
FILLER = '[2025-07-29 15:06:40] INFO:     127.0.0.1:41234 - "GET /health HTTP/1.1" 200 OK'

# microsoft/mscclpp#657: VMM memory registered with the NIC, no dma-buf path.
MSCCLPP = [
    "ibv_reg_mr2 called. cuMemAlloc: 1, dmaBufSupported: 0, nv_peer_mem loaded: yes",
    "terminate called after throwing an instance of 'mscclpp::IbError'",
    "  what():  ibv_reg_mr failed (errno 14) (Ib failure: Bad address)",
    "Aborted (core dumped)",
]


def test_an_exception_then_sigquit_after_batches_is_a_crash_while_serving(tmp_path: Path, library: Library) -> None:
    report = analysed_files(tmp_path, library, {"terminal.txt": [*DECODE_BATCHES, *FRAMES, TRITON, "", SIGQUIT]})
    assert report.verdict.id == "scheduler-runtime-crash"
    assert report.verdict.confidence == UNNAMED_EXCEPTION < 0.5
    assert "OutOfResources: out of resource: shared memory" in report.verdict.summary
    assert "3 of its batch lines ran requests" in report.verdict.summary
    assert ("exception", TRITON) in report.verdict.facts


def test_without_serving_lines_the_phase_stays_open(tmp_path: Path, library: Library) -> None:
    report = analysed_files(tmp_path, library, {"terminal.txt": [*FRAMES, TRITON, SIGQUIT]})
    assert report.verdict.id == "scheduler-crash"
    assert "do not show whether it was starting up or serving" in report.verdict.summary


def test_vllms_engine_client_noticing_its_engine_gone_is_the_same_death(tmp_path: Path, library: Library) -> None:
    report = analysed_files(tmp_path, library, {"offline-run.txt": [*FRAMES, TRITON, ENGINE_GONE]})
    assert report.verdict.id == "scheduler-crash"
    assert report.verdict.confidence < 0.5
    assert "Engine core proc EngineCore_DP0 died unexpectedly" in report.verdict.summary


def test_a_death_far_below_in_another_file_or_above_is_not_the_exceptions(tmp_path: Path, library: Library) -> None:
    far = analysed_files(tmp_path / "far", library, {"terminal.txt": [*FRAMES, TRITON, *[FILLER] * 25, SIGQUIT]})
    elsewhere = analysed_files(tmp_path / "two", library, {"worker.txt": [*FRAMES, TRITON], "server.txt": [SIGQUIT]})
    above = analysed_files(tmp_path / "above", library, {"terminal.txt": [SIGQUIT, *FRAMES, TRITON]})
    for report in (far, elsewhere, above):
        assert report.verdict.id == "inconclusive", report.verdict.summary


def test_a_crash_whose_exception_names_a_refused_registration_is_that_refusal(tmp_path: Path, library: Library) -> None:
    report = analysed_files(tmp_path, library, {"run.txt": MSCCLPP})
    assert report.verdict.id == "mr-registration-rejected"
    assert report.verdict.confidence == WORDS_ONLY
    assert "ibv_reg_mr failed" in report.verdict.summary
    assert [a.id for a in report.alternatives][:1] == ["scheduler-crash"]


def test_a_registration_that_ran_out_of_memory_is_no_refusal(tmp_path: Path, library: Library) -> None:
    short = [
        line.replace("(errno 14) (Ib failure: Bad address)", "(errno 12) (Ib failure: Cannot allocate memory)")
        for line in MSCCLPP
    ]
    report = analysed_files(tmp_path, library, {"run.txt": short})
    assert report.verdict.id != "mr-registration-rejected"


# sgl-project/sglang#14948: a PD decode's running request retracted with nothing left to free (the
# header and frames as Python prints them, their source lines left out as a paste may; the serving
# loop's step above the batch's own method).
RETRACT = [
    "Traceback (most recent call last):",
    '  File "/sgl-workspace/sglang/python/sglang/srt/managers/scheduler.py", line 2181, in update_running_batch',
    '  File "/sgl-workspace/sglang/python/sglang/srt/managers/schedule_batch.py", line 1627, in retract_decode',
    "AssertionError: No space left for only one request, self.token_to_kv_pool_allocator.available_size()=0",
]
# vLLM's engine core sizing its KV cache at start-up (frames.toml's start-up steps), and vllm-ascend's
# Mooncake connector refusing its layout (a blind round's bundle): an error no pattern names.
ENGINE_START = [
    "Traceback (most recent call last):",
    '  File "/usr/local/lib/python3.12/dist-packages/vllm/v1/engine/core.py", line 83, in __init__',
    '  File "/usr/local/lib/python3.12/dist-packages/vllm/v1/engine/core.py", line 190, in _initialize_kv_caches',
    "ValueError: prefill_tp_size: 2 must be greater than or equal to the decode_tp_size: 4",
]
# The same exception raised through a user's script: no engine's code, no process it ends.
SCRIPT = [
    "Traceback (most recent call last):",
    '  File "/home/me/bench/run_eval.py", line 41, in main',
    "    check(results)",
    '  File "/home/me/bench/run_eval.py", line 17, in check',
    "    assert len(self.reqs) > 1, (",
    "AssertionError: No space left for only one request, self.token_to_kv_pool_allocator.available_size()=0",
]


def test_a_traceback_through_the_serving_loop_is_a_crash_while_serving(tmp_path: Path, library: Library) -> None:
    report = analysed_files(tmp_path, library, {"decode.log": RETRACT})
    assert report.verdict.id == "scheduler-runtime-crash", report.verdict.summary
    assert report.verdict.confidence == ENGINE_EXCEPTION < UNNAMED_EXCEPTION
    assert "No space left for only one request" in report.verdict.summary
    assert "update_running_batch" in report.verdict.summary


def test_a_traceback_through_start_up_is_a_crash_while_starting(tmp_path: Path, library: Library) -> None:
    report = analysed_files(tmp_path, library, {"engine.log": ENGINE_START})
    assert report.verdict.id == "scheduler-init-crash", report.verdict.summary
    assert "must be greater than or equal to the decode_tp_size" in report.verdict.summary


def test_a_traceback_through_other_code_stays_unnamed(tmp_path: Path, library: Library) -> None:
    report = analysed_files(tmp_path, library, {"run.log": SCRIPT})
    assert report.verdict.id == "inconclusive", report.verdict.summary


# vllm-project/vllm-ascend#4972 (round 123's excerpts-a 03): torch_npu's watchdog's what() text ends in
# `exception:` and the CANN error it caught is on the next line.
HCCL_WATCHDOG = [
    "terminate called after throwing an instance of 'std::runtime_error'",
    "  what():  [Rank 7] HCCL watchdog thread terminated with exception:",
    "[ERROR] 2025-12-12-12:10:10 (PID:402, Device:7, RankID:-1) ERR02005 DIST internal error",
]


def test_a_what_text_that_goes_on_is_read_to_its_next_line(tmp_path: Path, library: Library) -> None:
    report = analysed_files(tmp_path, library, {"terminal.txt": HCCL_WATCHDOG})
    facts = dict(report.verdict.facts)
    assert facts["exception"] == (
        "std::runtime_error: [Rank 7] HCCL watchdog thread terminated with exception: ERR02005 DIST internal error"
    ), facts
    # Look-alike: a what() text that ends its sentence is read alone (the line below is the next record).
    report = analysed_files(tmp_path / "alone", library, {"terminal.txt": MSCCLPP})
    assert (
        dict(report.verdict.facts)["exception"]
        == "mscclpp::IbError: ibv_reg_mr failed (errno 14) (Ib failure: Bad address)"
    )
