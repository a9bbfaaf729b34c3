"""Untimed lines of one file: an effect logged above its cause (reason/link.SKEW_LINES).

vLLM's engine core logs `EngineCore failed to start.` and then the traceback that ends in the error
that stopped it; a paste without clocks (vllm-project/vllm-omni#1084, a CI job's excerpt whose stage
tag hides the time) keeps only the order. A rule that states a skew of its own lets the effect stand
up to a traceback's length above its cause; past it, or under a rule without one, the order stands.
"""

from __future__ import annotations

from pathlib import Path

from pdlogdoctor.library.patterns import Library
from pdlogdoctor.pipeline import run
from pdlogdoctor.reason.link import SKEW_LINES

FAILED_START = "(EngineCore_DP0 pid=12809) [Stage-0] ERROR 01-29 01:46:12 [core.py:936] EngineCore failed to start."
FRAMES = [
    '(EngineCore_DP0 pid=12809)   File "/usr/local/lib/python3.12/dist-packages/vllm/v1/core/kv_cache_utils.py", '
    "line 616, in _check_enough_kv_cache_memory",
    "(EngineCore_DP0 pid=12809)     raise ValueError(",
]
NO_ROOM = (
    "(EngineCore_DP0 pid=12809) ValueError: No available memory for the cache blocks. Try increasing "
    "`gpu_memory_utilization` when initializing the engine."
)


def _report(tmp_path: Path, library: Library, filler: int) -> tuple[str, list[str], list[tuple[str, str]]]:
    path = tmp_path / "buildkite-qwen3-omni.log"
    middle = [f"(EngineCore_DP0 pid=12809)     frame {n}" for n in range(filler)]
    path.write_text("\n".join([FAILED_START, *middle, *FRAMES, NO_ROOM]) + "\n")
    report = run([str(path)], library)
    links = [(link.cause.pattern, link.effect.pattern) for link in report.links]
    return report.verdict.id, [event.pattern for event in report.roots], links


def test_an_untimed_cause_below_its_announced_effect_is_its_root(tmp_path: Path, library: Library) -> None:
    """Seen failing before: scheduler-init-crash rooted on `EngineCore failed to start.`, the KV
    cache's error only an alternative (the untimed cause was below its effect)."""
    verdict, roots, links = _report(tmp_path, library, 0)
    assert verdict == "gpu-oom"
    assert roots == ["vllm-kv-cache-no-room"]
    assert ("vllm-kv-cache-no-room", "vllm-engine-core-failed-start") in links


def test_a_cause_further_below_than_a_traceback_is_not_linked(tmp_path: Path, library: Library) -> None:
    _, _, links = _report(tmp_path, library, SKEW_LINES + 5)
    assert ("vllm-kv-cache-no-room", "vllm-engine-core-failed-start") not in links
