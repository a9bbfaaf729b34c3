"""Analyzers: the code behind verdicts whose discriminators need reasoning over numbers.

A verdict in `patterns/verdicts.toml` names its analyzer; each analyzer takes a
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
    "scheduler-crash": scheduler_crash.analyze,
    "serving-quality": serving_quality.analyze,
    "gpu-oom": resources.gpu_oom,
    "host-oom": resources.host_oom,
    "model-load": resources.model_load,
    "warmup": warmup.analyze,
    "ci-cancelled": ci.analyze,
    "rdma-link": transport.rdma_link,
    "transfer-timeout": transport.transfer_timeout,
    "peer-lost": transport.peer_lost,
    "router-no-workers": transport.router_no_workers,
    "stale-kv": stale_kv.analyze,
}

# Detectors run once over the whole evidence and may propose hypotheses of their own.
DETECTORS: tuple[Detector, ...] = (config_mismatch.detect,)
