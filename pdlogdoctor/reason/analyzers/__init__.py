"""Analyzers: the code behind verdicts whose discriminators need reasoning over numbers.

A verdict in `patterns/verdicts.toml` names its analyzer (`analyzer = "crash-phase"`: named for
the check, never a verdict's id, so no verdict id is written here); each analyzer takes a
candidate hypothesis and the whole evidence and returns the hypotheses it
supports (possibly relabelled, with facts, suggestions, or a `rejected` reason).
"""

from __future__ import annotations

from ..hypothesis import Analyzer, Detector
from . import (
    ci,
    config_mismatch,
    memory_registration,
    resources,
    scheduler_crash,
    serving_quality,
    stale_kv,
    transport,
    warmup,
)

ANALYZERS: dict[str, Analyzer] = {
    "memory-registration": memory_registration.analyze,
    "crash-phase": scheduler_crash.analyze,
    "serving-quality": serving_quality.analyze,
    "gpu-memory": resources.gpu_oom,
    "host-memory": resources.host_oom,
    "rdma-resources": resources.rdma_exhausted,
    "model-load": resources.model_load,
    "warmup": warmup.analyze,
    "ci-cancel": ci.analyze,
    "rdma-link": transport.rdma_link,
    "transfer-timeout": transport.transfer_timeout,
    "lost-peer": transport.peer_lost,
    "reachability": transport.reachability,
    "worker-availability": transport.router_no_workers,
    "stale-kv": stale_kv.analyze,
}

# Detectors run once over the whole evidence and may propose hypotheses of their own.
DETECTORS: tuple[Detector, ...] = (config_mismatch.detect,)
