"""The verdict ids the code itself names, in one place.

Every other verdict is data (`patterns/verdicts.toml`), rooted by a pattern's `verdict`. The meta
verdicts are the diagnosis's own answers when no cause is named, and every stage that words or
gates a report tells them apart; the others are the verdicts an analyzer or detector gives by its
own reasoning (relabelling a candidate, or proposing one no single line roots).
tests/test_library_references.py checks that each exists in the library and that no other module
writes a library id.
"""

from __future__ import annotations

HEALTHY = "healthy"  # no failure, and lines show the deployment serving
INCONCLUSIVE = "inconclusive"  # failures without a cause the logs support
NO_FAILURE_SEEN = "no-failure-seen"  # nothing failed, and nothing shows serving either
NO_CAUSE = (INCONCLUSIVE, NO_FAILURE_SEEN)  # the verdicts that name no cause: nothing to be sure of
META = (HEALTHY, *NO_CAUSE)

# Proposed or relabelled by an analyzer (reason/analyzers/), from what several lines say together.
CONFIG_MISMATCH = "config-mismatch"  # two launch lines that disagree (config_mismatch.detect)
MR_SIZE_LIMIT = "mori-mr-size-limit"  # only regions past a size fail to register (memory_registration)
MR_REJECTED = "mr-registration-rejected"  # registration refused for another reason
RDMA_EXHAUSTED = "rdma-resource-exhausted"  # registration or QP creation out of memory (ENOMEM)
RDMA_LINK = "rdma-link-failure"  # a peer's own link errors are the link's story, not its death (transport)
SCHEDULER_INIT_CRASH = "scheduler-init-crash"  # a crash's phase, from evidence (scheduler_crash)
SCHEDULER_RUNTIME_CRASH = "scheduler-runtime-crash"
SCHEDULER_CRASH = "scheduler-crash"  # the phase the lines cannot tell
HOST_OOM = "host-oom"  # whose lines (the kernel's OOM kills) explain a SIGKILL
PEER_LOST = "peer-lost"  # a side lost its peer before it could not reach it (transport.reachability)
CI_CANCELLED = "ci-cancelled"  # a job its runner or scheduler stopped: a server's death by SIGTERM then is that stop
ACCURACY_REGRESSION = "accuracy-regression"  # serving works, the accuracy gate fails (serving_quality)
OUTPUT_CORRUPTION = "output-corruption"  # garbage answers: the model path, unless a transfer failed (unexplained)

# Given by the performance reading (reason/performance.py) from the metrics lines' time series, on
# top of the decision, when no line names a cause and a performance gate failed (or a trend is plainly
# unhealthy): no single line roots them.
KV_TRANSFER_BACKLOG = "kv-transfer-backlog"  # transfers pile up on the prefill, the decode has room
DECODE_SATURATED = "decode-saturated"  # a standing decode queue with a full pool, retractions
PREFILL_SATURATED = "prefill-saturated"  # a standing prefill queue, transfers flowing, the decode starved
STRAGGLER_NODE = "straggler-node"  # one node of a role much slower than its peers
PERFORMANCE_REGRESSION = "performance-regression"  # a performance gate failed and no bottleneck shows
PERFORMANCE = (KV_TRANSFER_BACKLOG, DECODE_SATURATED, PREFILL_SATURATED, STRAGGLER_NODE, PERFORMANCE_REGRESSION)
