"""An error line whose component says, just below it, that it fell back was handled (issue 22).

`ERROR: Failed to initialize Traditional BERT token classifier: ...` then `Auto-detection failed,
falling back to ModernBERT PII initializer` (vLLM's semantic router starting): the error was met
and handled where it happened. It is not counted as a failure, and the report says it set it aside.
Look-alikes that keep the error: the fallback far below it, above it, in another file, or a
fallback that failed too.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from pdlogdoctor.model import Report
from pdlogdoctor.pipeline import run

from .conftest import shipped_library

LIBRARY = shipped_library()
ROUTER_ERROR = (
    "  ERROR: Failed to initialize Traditional BERT token classifier: missing field `hidden_act` at line 119 column 1"
)
ROUTER_FELL_BACK = (
    '{"level":"info","ts":"2025-12-08T06:25:59.769212505Z","caller":"classification/classifier.go:173",'
    '"msg":"Auto-detection failed, falling back to ModernBERT PII initializer"}'
)
ROUTER_INFO = (
    '{"level":"info","ts":"2025-12-08T06:25:59.764094714Z","caller":"classification/classifier.go:106",'
    '"msg":"Initialized ModernBERT jailbreak classifier (classes auto-detected from model)"}'
)
VLLM_ERROR = "[2026-07-02 10:16:03] Error loading fused_gdn_decode_post_conv_mtp: undefined symbol"
VLLM_FELL_BACK = (
    "[2026-07-02 10:16:03] Falling back to the Triton GDN decode path: `fused_gdn_decode_post_conv_mtp` is not built"
)


def _analysed(tmp_path: Path, files: dict[str, list[str]]) -> Report:
    for name, lines in files.items():
        (tmp_path / name).write_text("".join(f"{line}\n" for line in lines))
    return run([str(tmp_path)], LIBRARY)


@pytest.mark.parametrize(
    ("lines", "said"),
    [
        ([ROUTER_INFO, ROUTER_ERROR, ROUTER_FELL_BACK], "Failed to initialize Traditional BERT token classifier"),
        ([VLLM_ERROR, VLLM_FELL_BACK], "Error loading fused_gdn_decode_post_conv_mtp"),
        ([VLLM_ERROR, "  (detail of the error)", VLLM_FELL_BACK], "Error loading fused_gdn_decode_post_conv_mtp"),
    ],
)
def test_an_error_its_component_fell_back_from_is_no_failure(tmp_path: Path, lines: list[str], said: str) -> None:
    report = _analysed(tmp_path, {"paste.txt": lines})
    assert report.verdict.id == "no-failure-seen", report.verdict.summary
    assert "handled by a fallback" in report.verdict.summary
    assert any("fell back to another way" in note and said in note for note in report.notes), report.notes


@pytest.mark.parametrize(
    "files",
    [
        # three lines between them: no longer the error's own fallback
        {"paste.txt": [VLLM_ERROR, ROUTER_INFO, ROUTER_INFO, ROUTER_INFO, VLLM_FELL_BACK]},
        {"paste.txt": [VLLM_FELL_BACK, VLLM_ERROR]},  # the fallback came before the error
        {"a.log": [VLLM_ERROR], "b.log": [VLLM_FELL_BACK]},  # another file's fallback
        {"paste.txt": [VLLM_ERROR, "[2026-07-02 10:16:03] Falling back to TCP transport failed: Connection refused"]},
    ],
)
def test_an_error_without_its_own_fallback_stays_an_error(tmp_path: Path, files: dict[str, list[str]]) -> None:
    report = _analysed(tmp_path, files)
    assert report.verdict.id == "inconclusive", report.verdict.summary
    assert any("Error loading fused_gdn_decode_post_conv_mtp" in t.template for t in report.unrecognised)


# llm-d's routing sidecar in front of a decode whose prefill it cannot reach (ai-dynamo-style P/D
# with the prefill on another port): Go's proxy error, its JSON `request failed`, then `fallback to
# decode`, once per request. Handled each time, and each time the disaggregated path failed.
def _sidecar_request(second: int) -> list[str]:
    stamp = f"2026-03-31T19:52:{second:02d}Z"
    return [
        f"2026/03/31 19:52:{second:02d} http: proxy error: dial tcp 10.128.4.23:8000: connect: connection refused",
        f'{{"level":"error","ts":"{stamp}","logger":"proxy server on port 8000","msg":"request failed","code":502}}',
        f'{{"level":"info","ts":"{stamp}","logger":"proxy server on port 8000","msg":"fallback to decode"}}',
    ]


def test_a_fallback_taken_at_every_request_is_the_way_it_runs(tmp_path: Path) -> None:
    lines = [line for second in (10, 20, 30, 40) for line in _sidecar_request(second)]
    report = _analysed(tmp_path, {"decode-routing-proxy.log": lines})
    assert report.verdict.id not in ("healthy", "no-failure-seen"), report.verdict.summary
    assert any("request failed" in t.template for t in report.unrecognised)
    assert not any("fell back to another way" in note for note in report.notes)


def test_a_fallback_at_one_moment_on_every_rank_is_one_fallback(tmp_path: Path) -> None:
    # Look-alike: each of eight ranks logs the same fallback at start-up, in one moment: handled.
    lines = [line for _ in range(8) for line in (VLLM_ERROR, VLLM_FELL_BACK)]
    report = _analysed(tmp_path, {"paste.txt": lines})
    assert report.verdict.id == "no-failure-seen", report.verdict.summary
    assert "handled by a fallback" in report.verdict.summary


def test_a_fallback_taken_twice_is_still_handled(tmp_path: Path) -> None:
    lines = [line for second in (10, 20) for line in _sidecar_request(second)]
    report = _analysed(tmp_path, {"decode-routing-proxy.log": lines})
    assert report.verdict.id == "no-failure-seen", report.verdict.summary
