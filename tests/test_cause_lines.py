"""Cause lines outrank wrappers (issue 22.4): the mechanism is data (open-world/causes.toml).

A line that states its cause (an errno's words, a limit) leads over a generic wrapper of the same
process within the crash's window, before or after it; when the cause is a known limit the fix
names that limit. A wrapper alone is no cause line, and a cause-stating line of another process
does not outrank a wrapper.
"""

from __future__ import annotations

import shutil
from dataclasses import replace
from pathlib import Path

from pdlogdoctor.library.errorlines import check_layer
from pdlogdoctor.library.patterns import Library
from pdlogdoctor.pipeline import run

from .conftest import FIXTURES


def _lead(library: Library, path: Path) -> tuple[str, str, str]:
    report = run([str(path)], library)
    lead = next((t for t in report.unrecognised if t.earliest), None)
    return report.verdict.summary, report.advice, lead.first.text if lead else ""


def test_a_cause_line_above_the_wrapper_leads_and_the_fix_names_the_limit(library: Library) -> None:
    _summary, advice, lead = _lead(library, FIXTURES / "cause-nccl-shm-full-before-wrapper-vllm")
    assert "No space left on device (28)" in lead and "NCCL WARN" in lead
    assert "shared memory" in advice and "--shm-size" in advice
    assert "add the missing logs" not in advice.lower()


def test_a_cause_line_below_the_wrapper_leads_and_is_not_called_earliest_error(library: Library) -> None:
    summary, advice, _lead_line = _lead(library, FIXTURES / "cause-nccl-last-error-after-wrapper-vllm")
    # The worker's `WorkerProc hit an exception.` is an engine crash the library names (issue 22, the
    # vLLM harvest), so no unexplained line is "the earliest": the crash's summary names the cause
    # line, as the inconclusive one did, never only the wrapper.
    assert "Error while creating shared memory segment" in summary
    assert not summary.startswith("The earliest error no pattern explains:")
    assert "--shm-size" in advice


def test_a_wrapper_alone_is_no_cause_line(library: Library) -> None:
    summary, advice, lead = _lead(library, FIXTURES / "cause-wrapper-alone-nccl")
    assert "unhandled system error" in lead
    assert "states its cause" not in summary and "names the limit" not in advice


def test_a_cause_line_of_another_process_does_not_outrank_the_wrapper(library: Library, tmp_path: Path) -> None:
    bundle = tmp_path / "two"
    shutil.copytree(FIXTURES / "cause-wrapper-alone-nccl", bundle)
    other = FIXTURES / "cause-nccl-shm-full-before-wrapper-vllm" / "worker.log"
    warn = [line for line in other.read_text().splitlines() if "NCCL WARN" in line]
    (bundle / "exporter.log").write_text("\n".join(warn) + "\n")
    _summary, advice, lead = _lead(library, bundle)
    assert "unhandled system error" in lead and "names the limit" not in advice


def test_a_crash_whose_exception_is_a_wrapper_died_of_the_cause_line(library: Library) -> None:
    report = run([str(FIXTURES / "cause-sglang-crash-nccl-shm-permission")], library)
    assert report.verdict.id == "scheduler-init-crash"
    assert "Call to shm_open failed : Permission denied" in report.verdict.summary
    assert "permissions" in report.advice


def test_the_data_checks_itself(library: Library) -> None:
    """Every cause and wrapper decides its own examples; a planted wrong example is reported."""
    layer = library.errors
    assert layer is not None and not check_layer(layer)
    cause = layer.causes[0]
    planted = replace(layer, causes=(replace(cause, match=(*cause.match, "NCCL INFO Connected all trees")),))
    assert any("NCCL INFO Connected all trees" in problem for problem in check_layer(planted))
    wrapper = layer.wrappers[0]
    planted = replace(
        layer, wrappers=(replace(wrapper, match=("error: No space left on device (28) unhandled system error",)),)
    )
    assert any("is no wrapper" in problem for problem in check_layer(planted))


# ---------------------------------------------------------------- a memory monitor's kill under a job's wrapper
# Ray's memory monitor tells a kill in a report that ends with its advice ('... how to address the out
# of memory issue ...'), with no level or error word; a job wrapper (`Job '...' failed`) above it only
# says the job ended. The advice is an error line (by its source's words) that states its cause.
RAY_JOB = Path(__file__).parent / "data" / "blind-round8-excerpts-b" / "09-ray-job-llmrayactor-cpu-oom-ansi"
# slime's training driver (a public run log, code index id 55587745088): Ray's task error wraps the
# memory monitor's kill of an SGLang engine's lease.
SLIME_TRACEBACK = [
    "Traceback (most recent call last):",
    '  File ".../slime/train_async.py", line 156, in train',
    "    actor_model.update_weights()",
    '  File ".../slime/slime/ray/actor_group.py", line 125, in update_weights',
    "    return ray.get([actor.update_weights.remote() for actor in self._actor_handlers])",
    "ray.exceptions.RayTaskError(OutOfMemoryError): ray::MegatronTrainRayActor.update_weights()",
    '  File ".../update_weight_from_distributed.py", line 81, in update_weights',
    "    ray.get([engine.pause_generation.remote() for engine in self.rollout_engines])",
    "ray.exceptions.OutOfMemoryError: Task was killed due to the node running low on memory.",
]


def test_a_memory_monitors_advice_outranks_the_job_wrapper_above_it(library: Library) -> None:
    """TideDra/lmm-r1#71: `ray job submit`'s driver log, the kill line itself cut by the truncation:
    the advice Ray writes under every kill roots the verdict, not the job's wrapper above it."""
    report = run([str(RAY_JOB)], library)
    assert report.verdict.id == "host-oom"
    assert [e.pattern for e in report.roots] == ["ray-memory-monitor-advice"]
    assert "failed" not in " ".join(e.text for e in report.roots)
    assert "host RAM is the limit" in report.advice


def test_a_kill_under_a_task_error_is_the_cause_it_states(library: Library, tmp_path: Path) -> None:
    (tmp_path / "train.log").write_text("\n".join(SLIME_TRACEBACK) + "\n")
    report = run([str(tmp_path)], library)
    lead = next(t for t in report.unrecognised if t.earliest)
    assert "Task was killed due to the node running low on memory" in lead.first.text
    assert report.verdict.summary.startswith("The earliest error no pattern explains that states its cause")
    assert report.verdict.id == "host-oom"


def test_the_job_wrapper_alone_states_no_cause(library: Library, tmp_path: Path) -> None:
    """The look-alike: the job's wrapper lines without the report under them."""
    lines = RAY_JOB.joinpath("ray-job.log").read_text().splitlines()[:4]
    (tmp_path / "ray-job.log").write_text("\n".join(lines) + "\n")
    summary, advice, lead = _lead(library, tmp_path)
    assert "Job 'raysubmit_LKFSP4hfiq2xPuz6' failed" in lead
    assert "states its cause" not in summary and "host memory" not in advice


# UCX on a VM's NIC with no RoCE GID (a blind round's excerpt, as posted): UCX's and NIXL's own errors,
# then the engine's `RuntimeError: Worker ... died during startup`, none of them a pattern's.
UCX_ON_A_VM_NIC = [
    "UCX  ERROR ibv_query_gid(dev=mlx5_11 port=1 index=0) failed: Invalid argument",
    "UCX  ERROR uct_iface_open(rc_gda/cuda0-mlx5_11:1) failed: Invalid parameter",
    "E backend_plugin.h:102] Failed to create engine: Failed to create UCX worker: Invalid parameter",
    "E nixl_agent.cpp:404] createBackend: backend creation failed for 'UCX'",
    "RuntimeError: Worker meta-llama/Llama-3.1-8B-Instruct (PID ...) died during startup",
]


def test_an_errno_stated_by_the_first_failing_call_leads_over_the_exception_below(
    library: Library, tmp_path: Path
) -> None:
    (tmp_path / "ci.log").write_text("\n".join(UCX_ON_A_VM_NIC) + "\n")
    summary, advice, lead = _lead(library, tmp_path)
    assert lead == UCX_ON_A_VM_NIC[0]
    assert summary.startswith("The earliest error no pattern explains that states its cause")
    assert "ibv_query_gid" in summary and "GID index" in advice


def test_the_first_error_leads_even_when_it_states_no_errno(library: Library, tmp_path: Path) -> None:
    # The same lines with the errno's words taken off: the first error still failed first, and the
    # engine's exception at the end, with errors between, ended no traceback the first line headed.
    lines = [UCX_ON_A_VM_NIC[0].replace(": Invalid argument", ""), *UCX_ON_A_VM_NIC[1:]]
    (tmp_path / "ci.log").write_text("\n".join(lines) + "\n")
    _summary, advice, lead = _lead(library, tmp_path)
    assert lead == lines[0] and "GID index" not in advice


def test_a_reset_connection_states_no_cause(library: Library, tmp_path: Path) -> None:
    # A peer that went away is what happened to this process, not why: no errno cause leads on it.
    lines = ["ConnectionResetError: [Errno 104] Connection reset by peer"]
    (tmp_path / "client.log").write_text("\n".join(lines) + "\n")
    summary, advice, _lead_line = _lead(library, tmp_path)
    assert "states its cause" not in summary and "names the limit" not in advice


# An engine warning that requests do not fit its KV cache, repeated before an error no pattern names
# (ai-dynamo/dynamo#4327, TensorRT-LLM's disaggregated workers that hang; round 102's tester).
NO_FITTING_KV = (
    "[11/14/2025-08:52:{second:02d}] [TRT-LLM] [W] num_fitting_reqs=0 and fitting_disagg_gen_init_requests is "
    "empty, may not have enough kvCache"
)
INVALID_STATE = "asyncio.exceptions.InvalidStateError: invalid state"


def test_a_short_kv_cache_warned_before_an_error_leads_with_the_engines_fix(library: Library, tmp_path: Path) -> None:
    lines = [NO_FITTING_KV.format(second=second) for second in (17, 18, 19)] + [INVALID_STATE]
    (tmp_path / "gen.log").write_text("\n".join(lines) + "\n")
    summary, advice, lead = _lead(library, tmp_path)
    assert "may not have enough kvCache" in lead
    assert summary.startswith("The earliest error no pattern explains that states its cause")
    assert "max_tokens_in_buffer" in advice  # TensorRT-LLM's knob, for TensorRT-LLM's lines
    assert "--gpu-memory-utilization" not in advice and "--mem-fraction-static" not in advice


def test_vllms_preemption_warning_gets_vllms_knobs(library: Library, tmp_path: Path) -> None:
    """The same limit in vLLM's words: its fix in vLLM's flags, not TensorRT-LLM's. (The error below it
    is one no pattern names: V0's `Engine background task failed`, once used here, is now the engine's
    crash while serving.)"""
    lines = [
        "WARNING 05-09 00:49:33 scheduler.py:1057 Sequence group 0 is preempted by PreemptionMode.RECOMPUTE mode "
        "because there is not enough KV cache space. This can affect the end-to-end performance. Increase "
        "gpu_memory_utilization or tensor_parallel_size to provide more KV cache memory. total_cumulative_"
        "preemption_cnt=1",
        INVALID_STATE,
    ]
    (tmp_path / "server.log").write_text("\n".join(lines) + "\n")
    _summary, advice, lead = _lead(library, tmp_path)
    assert "not enough KV cache space" in lead
    assert "--gpu-memory-utilization" in advice and "max_tokens_in_buffer" not in advice


def test_a_short_kv_cache_warned_with_nothing_failing_is_no_error(library: Library, tmp_path: Path) -> None:
    (tmp_path / "gen.log").write_text(NO_FITTING_KV.format(second=17) + "\n")
    report = run([str(tmp_path)], library)
    assert report.verdict.id in ("no-failure-seen", "inconclusive")
    assert "states its cause" not in report.verdict.summary


# tenstorrent/tt-metal#36441 as the issue posted it: the job's name and `failed.`, the run's link, then
# the job's log where the runner's shell reported the test process killed, and the step's exit status.
TEST_REPORT_THEN_KILL = [
    "3000-unit-tests / t3k_qwen25_vl_tests failed.",
    "",
    "https://github.com/tenstorrent/tt-metal/actions/runs/21277312920/job/61308068773",
    "",
    "Loading checkpoint shards:  79%|███████▉  | 30/38 [03:07<00:49,  6.25s/it]tests/scripts/t3000/"
    "run_t3000_unit_tests.sh: line 518:   802 Killed                  MESH_DEVICE=T3K HF_MODEL=$qwen25_vl_72b "
    "TT_CACHE_PATH=$tt_cache_72b pytest models/demos/qwen25_vl/tests/",
    "Error: Process completed with exit code 137.",
]


def test_a_kill_below_a_report_that_a_test_failed_is_the_lead(library: Library, tmp_path: Path) -> None:
    """A line that only names the test that failed reports, it fails nothing itself: the shell's kill
    below it is still the first failure, and its words (Killed) lead to host memory, as a lead."""
    (tmp_path / "excerpt.log").write_text("\n".join(TEST_REPORT_THEN_KILL) + "\n")
    report = run([str(tmp_path)], library)
    assert report.verdict.id == "host-oom", report.verdict.summary
    assert report.verdict.confidence < 0.5
    assert "802 Killed" in report.verdict.summary and "('Killed')" in report.verdict.summary


def test_a_kill_below_an_error_of_its_own_is_no_lead(library: Library, tmp_path: Path) -> None:
    """The look-alike: above the kill an error that fails by itself (a crash's exception), not a report:
    the kill is what reaped its process, no lead."""
    lines = ["RuntimeError: CUDA error: an illegal memory access was encountered", *TEST_REPORT_THEN_KILL[1:]]
    (tmp_path / "excerpt.log").write_text("\n".join(lines) + "\n")
    report = run([str(tmp_path)], library)
    assert report.verdict.id != "host-oom", report.verdict.summary
