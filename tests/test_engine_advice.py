"""Advice belongs to the engine that wrote the log, and a phase is claimed only with a line that
shows it (issue 22.8). The engine is read from the lines' shapes (log-shapes.toml `engine`)."""

from __future__ import annotations

from pathlib import Path

from pdlogdoctor.library.patterns import Library
from pdlogdoctor.pipeline import run

from .conftest import FIXTURES


def test_a_vllm_gpu_oom_gets_vllm_flags_and_the_phase_its_engine_start_shows(library: Library) -> None:
    """vLLM 0.11's weight-load CUDA OOM: no ready server, and its engine's configuration line (the
    engine starting) above it: start-up, stated with that line."""
    report = run([str(FIXTURES / "blind-fam-vllm-weight-load-gpu-oom-stale-process")], library)
    assert report.verdict.id == "gpu-oom"
    assert "--gpu-memory-utilization" in report.advice and "--max-num-seqs" in report.advice
    assert "--mem-fraction-static" not in report.advice and "--cuda-graph-max-bs" not in report.advice
    assert not any(s.name == "--mem-fraction-static" for s in report.suggestions)
    assert dict(report.verdict.facts)["phase"] == "during startup"
    assert "during startup (started at" in report.verdict.summary and "vllm_p0.log:3" in report.verdict.summary


def test_an_sglang_pool_that_does_not_fit_gets_sglang_flags_raised_at_start_up(library: Library) -> None:
    """SGLang's 'Not enough memory ... increase --mem-fraction-static': its own line shows start-up
    (the KV pool is sized then) and which way the fraction must move."""
    report = run([str(FIXTURES / "gpu-oom-not-enough-memory")], library)
    assert report.verdict.id == "gpu-oom"
    assert report.advice.startswith("Raise --mem-fraction-static")
    assert "--gpu-memory-utilization" not in report.advice
    assert dict(report.verdict.facts)["phase"] == "during startup"


def test_an_sglang_oom_in_a_job_log_is_at_start_up_by_its_launch_line(library: Library) -> None:
    report = run([str(FIXTURES / "gpu-oom-hip-ci-job-log")], library)
    assert dict(report.verdict.facts)["phase"] == "during startup"
    assert "--gpu-memory-utilization" not in report.advice


def test_distinct_quiet_excerpts_get_distinct_fingerprints(library: Library) -> None:
    """Two excerpts in which nothing failed (NIXL's UCX API-version warning at a start-up that went on;
    an SGLang decode starting with NIXL) are different 'incidents' for an issue search: their
    fingerprints differ (they were equal); the same excerpt keeps its own."""
    from pdlogdoctor.reason.fingerprint import fingerprint

    from .conftest import ROOT

    excerpts = ROOT / "tests" / "data" / "excerpts"
    one = run([str(excerpts / "nixl-503-sglang-decode-starting")], library)
    other = run([str(excerpts / "nixl-386-ucp-api-version-warning")], library)
    assert one.verdict.id == other.verdict.id == "no-failure-seen"
    assert fingerprint(one) != fingerprint(other)
    again = run([str(excerpts / "nixl-503-sglang-decode-starting")], library)
    assert fingerprint(again) == fingerprint(one)


def test_quiet_excerpts_no_pattern_knows_get_distinct_fingerprints(library: Library, tmp_path: Path) -> None:
    """Two pastes in which nothing failed and no line is a known one (a UCX transport debug line; a
    pasted table) were one 'incident' for an issue search: both fingerprints
    were the empty quiet excerpt's. Where each input ends now tells them apart, and a night whose
    times and numbers differ keeps its fingerprint."""
    from pdlogdoctor.reason.fingerprint import fingerprint

    def quiet(name: str, text: str) -> str:
        folder = tmp_path / name
        folder.mkdir()
        (folder / "paste.txt").write_text(text)
        report = run([str(folder)], library)
        assert report.verdict.id == "no-failure-seen", report.verdict.summary
        return fingerprint(report)

    ucx_message = "cuda_ipc_iface.c:121 UCX  DEBUG cuda-ipc get zcopy disabled as no nvlinks detected\n"
    ucx = quiet("ucx", f"[1764547200.123456] [node-1:4242 :0]   {ucx_message}")
    ucx_again = quiet("ucx-again", f"[1764633600.654321] [node-7:977 :0]   {ucx_message}")
    table = quiet("table", "| model | batch | input len | output len |\n| llama-70b | 64 | 2048 | 256 |\n")
    assert ucx != table
    assert ucx == ucx_again


def test_a_vllm_config_mismatch_gets_the_vllm_check_s_own_fix(library: Library) -> None:
    """config-mismatch's general advice is SGLang's flags; a vLLM block-size refusal roots it, and its
    pattern's fix (vLLM's --block-size) is the advice (verdicts.toml `advice_from_root`)."""
    report = run([str(FIXTURES / "vllm-nixl-block-size-64-vs-128")], library)
    assert report.verdict.id == "config-mismatch"
    assert "--block-size" in report.advice
    assert "--page-size" not in report.advice and "--disaggregation-transfer-backend" not in report.advice


def test_an_sglang_page_size_mismatch_keeps_sglang_flags(library: Library) -> None:
    report = run([str(FIXTURES / "config-mismatch-page-size")], library)
    assert report.verdict.id == "config-mismatch"
    assert "--page-size" in report.advice and "--block-size" not in report.advice
