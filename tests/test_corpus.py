"""Every corpus case yields what its expected.toml states (one format: tests/corpus.py), and the
corpus covers the library: every cause pattern that roots a verdict roots a case, every verdict
has two.

The cases: fixture bundles (fixtures/), real excerpts from public threads (tests/data/excerpts/)
and the blind sets, written from the real formats by testers who never read the code
(tests/data/blind-*; each expected.toml keeps the tester's reasoning, INDEX.md describes a set).
Known misses stay visible as strict xfails with what is missed: the fix that makes one pass must
remove its entry.
"""

from __future__ import annotations

import tomllib
from collections import Counter
from collections.abc import Mapping
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from pdlogdoctor.library.patterns import Library
from pdlogdoctor.model import Kind, Report, Tier

from .conftest import FIXTURES
from .corpus import (
    CASES,
    DATA,
    case_id,
    case_lines,
    chain_meaning,
    chain_problems,
    expectation_problems,
    load_expected,
    must_not_be_problems,
    quoted_key_lines,
    time_problems,
    value_problems,
    verdict_problems,
)

# Known misses, by case and by what is checked ("verdict": verdict, exit code, must-not-be;
# "key_line": a key line quoted; "values": facts and times; "other_incidents": the separate incidents).
KNOWN: dict[str, dict[str, str]] = {
    "tests/data/blind-round54-excerpts-c/03-sglang-dsa-mxfp4-index-parity": {
        "key_line": "since session 43: healthy (the tester's verdict; no-failure-seen before) on sgl-eval's "
        "`pass@1[avg-of-8]` lines, which the report quotes instead of the GSM8K row's `mean 0.958` and pytest's "
        "`6 passed` the tester keys",
    },
    "tests/data/blind-round4/03-crlf-ansi-truncated-gpu-oom": {
        "key_line": "the 480-character key line is cut at the excerpt limit",
    },
    "tests/data/blind-round4/05-vllm-nixl-not-installed": {
        "key_line": "both engines print the same lines; one template stands for both and quotes the decode's "
        "copy (pid 298), the key lines are the prefill's (pid 311)",
        "verdict": "since vLLM's engine-core lines are patterns (issue 22, vllm harvest) the start-up crash is "
        "named: scheduler-init-crash 0.90, of RuntimeError: NIXL is not available; the tester expects "
        "inconclusive (a missing package is outside the catalogue)",
    },
    # The round 5 and 6 blind sets, kept as cases after their first-sight score (2026-12-01, at
    # d57ddc4): what the tool said then. Each fix that makes one pass removes its entry.
    "tests/data/blind-round5-bundles/04-decode-devshm-full-nccl-init": {
        "key_line": "first sight: no key line quoted (scheduler-init-crash 0.50)",
    },
    # The round 8 blind sets, kept as cases after their first-sight score (2026-12-02, at ac9748c):
    # what the tool said then. Each fix that makes one pass removes its entry.
    "tests/data/blind-round8-bundles/16-mooncake-1p1d-c10d-errno99-at-start": {
        "key_line": "first sight: no key line quoted (healthy 0.90)",
    },
    "tests/data/blind-round8-excerpts-a/15-lmcache-pd-full-hit-garbage-output": {
        "verdict": "first sight: no-failure-seen 0.50; the tester expects output-corruption (or inconclusive)",
    },
    "tests/data/blind-round8-excerpts-a/20-lmcache-decode-zero-hit-32k": {
        "verdict": "first sight: no-failure-seen 0.50; the tester expects inconclusive (or healthy)",
    },
    "tests/data/blind-round8-excerpts-b/15-aks-lws-leader-nccl-gdrdma-grep": {
        "key_line": "first sight: no key line quoted (no-failure-seen 0.50)",
    },
    # The round 10 blind sets (52 cases: 36 real excerpts from threads no test used, 16 bundles), kept
    # as cases after their first-sight score at 8299bb1 (34/52 acceptable, 45/52 key line quoted):
    # what the tool (de076d6) still misses. Each fix that makes one pass removes its entry.
    "tests/data/blind-round10-excerpts-b/03-vllm-nixl-handshake-recovered": {
        "verdict": "first sight: inconclusive 0.00; the tester expects healthy",
    },
    # The round 11 blind sets (52 cases: 36 real excerpts from threads no test used, 16 bundles), kept
    # as cases after their first-sight score at a649e5f (42/52 acceptable, 45/52 key line quoted):
    # what the tool missed at first sight. Each fix that makes one pass removes its entry.
    "tests/data/blind-round11-excerpts-a/07-hicache-mooncake-bench-rounds": {
        "key_line": "first sight: no key line quoted (no-failure-seen 0.50); now healthy 0.40 on the rounds' "
        "summary lines, whose report quotes the first round, not the tester's last",
    },
    "tests/data/blind-round11-bundles/12-sglang-nixl-transfer-backlog-journald": {
        "key_line": "first sight: no key line quoted (kv-transfer-backlog 0.75)",
    },
    # The round 12 blind sets (52 cases: 36 real excerpts from threads no test used, 16 bundles), kept
    # as cases after their first-sight score at bedfd0a (37/52 acceptable, 45/52 key line quoted, 1
    # failed run called healthy, 3 confidently wrong): what the tool still misses. Each fix that makes
    # one pass removes its entry.
    "tests/data/blind-round12-excerpts-a/06-kthena-missing-bootstrap-room": {
        "key_line": "first sight: no key line quoted (inconclusive 0.00)",
    },
    "tests/data/blind-round12-excerpts-a/11-vllm-router-apikey-health-wait": {
        "verdict": "first sight: no-failure-seen 0.50; the tester expects router-no-workers",
    },
    # The round 13 blind sets (58 cases: 42 real excerpts from threads no test used, 16 bundles), kept
    # as cases after their first-sight score at 2d650ad (47/58 acceptable, 51/58 key line quoted, no
    # failed run called healthy, none confidently wrong): what the tool missed. Each fix that makes
    # one pass removes its entry.
    "tests/data/blind-round13-excerpts-a/12-pd-prefill-deepep-dispatch-timeout": {
        "verdict": "first sight: inconclusive 0.00; since TpModelWorkerClient's crash is scheduler-exception's: "
        "scheduler-crash 0.35 (acceptable), its summary quotes the line's message, not the key line as written "
        "with its '[... DP0 TP0 EP0] ' prefix; the tester expects scheduler-runtime-crash",
    },
    # The round 14 blind sets (55 cases: 38 real excerpts from threads no test used, 17 bundles), kept
    # as cases after their first-sight score at a2128d7 (40/55 acceptable, 51/55 key line quoted, 1
    # failed run called healthy, none confidently wrong): what the tool still misses. Each fix that
    # makes one pass removes its entry.
    "tests/data/blind-round14-excerpts-a/06-pd-dp-attn-different-tp-gsm8k-drop": {
        "verdict": "first sight: healthy 0.40; the tester expects accuracy-regression",
    },
    # The round 15 blind sets (52 cases: 36 real excerpts from threads no test used, 16 bundles), kept
    # as cases after their first-sight score at 6a4e53e (36/52 acceptable, 46/52 key line quoted, no
    # failed run called healthy, none confidently wrong): what the tool still misses. Each fix that
    # makes one pass removes its entry.
    "tests/data/blind-round15-excerpts-a/03-hicache-spec-ima-nccl-watchdog": {
        "verdict": "first sight: inconclusive 0.00; the tester expects scheduler-crash",
    },
    "tests/data/blind-round15-excerpts-b/12-lmcache-tp4-cpu-buffer-leaked-shm": {
        "verdict": "first sight: no-failure-seen 0.50; the tester expects inconclusive",
    },
    "tests/data/blind-round15-excerpts-c/02-kserve-hfserver-openshift-cache-unwritable": {
        "verdict": "first sight: inconclusive 0.00; the tester expects model-load-failure",
    },
    "tests/data/blind-round15-excerpts-c/10-skyrl-vllm-harmless-layerwise-warning": {
        "verdict": "first sight: inconclusive 0.00; the tester expects no-failure-seen",
    },
    "tests/data/excerpts/vllm-22430-pp-nixl-ray-register-memory": {
        "key_line": "since vllm-engine-traceback-unannounced names the engine core's death from the first piece "
        "of the log, NIXL's NIXL_ERR_BACKEND in the second piece (another file, the same process) is no "
        "line of the crash's chain and is not quoted",
    },
    # The round 16 blind sets (46 cases: 30 real excerpts from threads no test used, 16 bundles), kept
    # as cases after their first-sight score at 22a29fc, the session's final code (37/46 acceptable,
    # 45/46 key line quoted, 1 failed run called healthy, 2 confidently wrong): what the tool misses.
    # Each fix that makes one pass removes its entry.
    # The round 17 blind sets (46 cases: 30 real excerpts from threads no test used, 16 bundles), kept
    # as cases after their first-sight score at f8ba00e, the session's final code (32/46 acceptable,
    # 44/46 key line quoted, 1 failed run called healthy, 1 confidently wrong; main at the session's
    # start: the same). Each fix that makes one pass removes its entry.
    "tests/data/blind-round17-excerpts-a/05-dynamo-nixl-ucx-erdma-ud-qp-segfault": {
        "verdict": "first sight: scheduler-crash 0.30; the tester expects rdma-link-failure",
    },
    "tests/data/blind-round17-excerpts-c/06-vllm-shm-broadcast-enginecore-timeout": {
        "verdict": "first sight: inconclusive 0.00 (acceptable), its summary names no key line",
    },
    # The round 18 blind sets (45 cases: 29 real excerpts from threads no test used, 16 bundles), written
    # after round 17 was scored and kept as cases after their first-sight score on the same code
    # (38e68a7 = f8ba00e's code: 33/45 acceptable, 40/45 key line quoted, 2 failed runs called healthy,
    # 2 confidently wrong; main at the session's start: 34/45). Each fix that makes one pass removes its entry.
    "tests/data/blind-round18-excerpts-b/07-vllm-sleep-mode-ima": {
        "verdict": "first sight: inconclusive 0.00 (acceptable), its summary names no key line",
    },
    "tests/data/blind-round18-excerpts-b/10-lmcache-mooncake-block-not-retrievable": {
        "verdict": "first sight: no-failure-seen 0.50; the tester expects inconclusive",
    },
    "tests/data/blind-round18-excerpts-c/03-sglang-ci-llama31-fp4-gsm8k-ok": {
        "key_line": "first sight: no key line quoted (healthy 0.40)",
    },
    "tests/data/blind-round18-excerpts-c/04-kserve-knative-image-denied": {
        "key_line": "first sight: no key line quoted (inconclusive 0.00)",
    },
    # The round 19 blind sets (46 cases: 30 real excerpts from threads no test used, 16 bundles), written
    # at this session's start and scored at 9aa8537, the session's first commit (36/46 acceptable, 44/46 key
    # line quoted, 0 failed runs called healthy, 1 confidently wrong; main 9d17d7d: 35/46). Each fix that
    # makes one pass removes its entry.
    "tests/data/blind-round19-excerpts-b/06-ascend-mooncake-waiting-remote-kvs": {
        "verdict": "first sight: no-failure-seen 0.50; the tester expects kv-transfer-timeout",
    },
    # The round 20 blind sets (43 cases: 27 real excerpts from threads no test used, 16 bundles), written
    # during this session and scored once at 1aa1acd, the session's final code (34/43 acceptable, 39/43 key
    # line quoted, 0 failed runs called healthy, 2 confidently wrong; main 9d17d7d: 33/43). Each fix that
    # makes one pass removes its entry.
    "tests/data/blind-round20-bundles-a/04-mi300x-mooncake-transient-cqe-recovered": {
        "verdict": "first sight: rdma-link-failure 0.85; the tester expects healthy. Kept: one request failed "
        "(500 through the router) with no restart after it, and a failed request is no blip the run survived "
        "(fixtures/mooncake-slice-retry-then-request-failed, tests/test_survived_blips.py)",
    },
    "tests/data/blind-round20-excerpts-a/06-deepep-barrier-timeout": {
        "key_line": "first sight: no key line quoted (collective-timeout 0.50)",
    },
    # The round 21 blind sets (46 cases: tests/data/blind-round21-*), written by testers who never read the
    # code during this session and scored once at 6aa4817, before anything was changed for them (39/46
    # acceptable, 41/46 key line quoted, 1 refused: excerpts-c/06, a RayService status dump alone in its
    # folder, read since; 0 failed runs called healthy, 1 confidently wrong). Each fix that makes one pass
    # removes its entry.
    "tests/data/blind-round21-excerpts-a/03-mori-ionic-reg-mr-einval": {
        "verdict": "first sight: mori-mr-size-limit 0.45; the tester expects mr-registration-rejected",
    },
    "tests/data/blind-round21-excerpts-b/06-llmd-prefill-expired-kv": {
        "verdict": "first sight: kv-transfer-timeout 0.40; the tester expects kv-expired",
    },
    # The round 22 blind sets (48 cases: 32 real excerpts from threads no test used, 16 bundles; one thread,
    # AIBrix's Envoy 503, was chosen by two testers: excerpts-b/04 and excerpts-c/09), written by testers
    # who never read the code during this session and scored as each set arrived, before anything was
    # changed for it: the excerpts at fe12e63 (a 10/11, b 8/11, c 7/10), bundles-a at 14e59e4 (6/8, 2
    # confidently wrong: a decode killed by systemd read as the prefill's RDMA link failing; a decode-
    # saturated run read as a transfer backlog from a grep -H paste of both sides), bundles-b at 16da3ac
    # (8/8). In all 39/48 acceptable, 46/48 key line quoted, 0 refused, 0 failed runs called healthy, 2
    # confidently wrong. Each fix that makes one pass removes its entry.
    "tests/data/blind-round22-excerpts-a/03-sglang-generate-200-ok": {
        "key_line": "first sight: no key line quoted (healthy 0.30): the evidence shows the first 200 of the burst, "
        "the tester's key line is the last",
    },
    "tests/data/blind-round22-excerpts-a/10-vllm-ray-actor-died-aborted": {
        "verdict": "first sight: host-oom 0.35; the tester expects scheduler-runtime-crash. The same Ray lines "
        "are host-oom in blind-round5-excerpts/32 (the thread found the OOM killer): a lead, not a finding",
    },
    "tests/data/blind-round22-excerpts-b/02-deepep-intranode-ll-ibgda-warnings": {
        "verdict": "first sight: inconclusive 0.00; the tester expects no-failure-seen (NVSHMEM's IBGDA init "
        "failures on an intranode run that completed)",
    },
    "tests/data/blind-round22-excerpts-b/07-llmd-routing-sidecar-context-canceled-json": {
        "key_line": "first sight: no key line quoted (inconclusive 0.00)",
    },
    # Round 23 (session 13), scored at first sight as each set arrived: excerpts-a 7/11, excerpts-b 8/11,
    # excerpts-c 6/11 (two failed runs called healthy: a vLLM engine full in every stats line, at 0.30; two
    # GSM8K scores 5 points apart, at 0.40), bundles-a 8/8, bundles-b 7/8. In all 36/49 acceptable, 47/49 key
    # line quoted, 0 refused, 2 failed runs called healthy, 0 confidently wrong on a named cause.
    # Round 24 (session 13), at first sight: excerpts-a 11/11, excerpts-b 8/11, excerpts-c 7/11, bundles-a 7/8
    # (confidently wrong: gpu-oom 0.85 on a decode whose first start found the GPU held and whose restart,
    # in a stern stream, served a passing benchmark), bundles-b 8/8. In all 41/49 acceptable, 47/49 key
    # line quoted, 0 refused, 0 failed runs called healthy, 1 confidently wrong. None is left here.
    "tests/data/blind-round23-excerpts-a/05-ucx-create-cq-fallback-noise": {
        "verdict": "first sight: inconclusive 0.00; the tester expects no-failure-seen: two UCX ERROR lines "
        "(ibv_create_cq: Operation not supported) that the thread calls a probe the caller moves past; "
        "nothing in the two lines says so",
    },
    "tests/data/blind-round23-excerpts-a/08-llmd-sidecar-nixlv2-engine-mismatch": {
        "verdict": "first sight: no-failure-seen 0.50; the tester expects config-mismatch (kv-transfer-timeout "
        "acceptable). Now inconclusive: the decode's log ends while a request waits for its KV (two DEBUG "
        "lines in one second, then the paste's '...'); the sidecar's protocol is in the thread, not the lines",
    },
    "tests/data/blind-round23-excerpts-c/08-sglang-pd-ttft-bench-64x4k-prompts": {
        "verdict": "first sight: inconclusive 0.00 (acceptable), its summary names no key line: it said fewer "
        "requests completed than were sent, from the max-concurrency floor (64 prompts under a cap of 640). "
        "With the command line's --num-prompts read, 64 of 64 completed: healthy, which the tester rules out "
        "(the thread calls a 22 s TTFT for 4k prompts a bug; no gate or baseline in the lines says so)",
    },
    # Round 25 (session 14), at first sight (excerpts on d73f2e7, bundles on 8dbde1f: nothing changed for
    # them): excerpts-a 9/11, excerpts-b 11/11, excerpts-c 6/11, bundles-a 7/8, bundles-b 7/8 (confidently
    # wrong: performance-regression 0.60 on a decode whose pool stayed full while it retracted). In all
    # 40/49 acceptable, 47/49 key line quoted, 0 refused, 0 failed runs called healthy, 1 confidently wrong.
    "tests/data/blind-round25-excerpts-c/01-pd-gpqa-outputs-degenerate": {
        "verdict": "first sight: no-failure-seen 0.50; the tester expects output-corruption: a file of model "
        "outputs (replacement characters, 'WERWER...', digit runs, repeated </think>) with no answer container "
        "('\"text\": ...', 'Generated text: ...') the degenerate-text patterns read",
    },
    "tests/data/blind-round25-excerpts-c/05-dsv32-pd-decode-0.88-tok-s": {
        "verdict": "first sight: no-failure-seen 0.50; the tester expects inconclusive: one decode line at "
        "0.88 token/s with 12 running; one line cannot tell a stall from an interval that spans idle time",
    },
    "tests/data/blind-round25-excerpts-c/08-dsv32-pd-long-input-decode-kv-bound": {
        "verdict": "first sight: inconclusive 0.00; the tester expects decode-saturated: a bench result "
        "alone (127 successful, mean TTFT 177 s); the thread, not the lines, names the decode's KV pool. "
        "Since session 34 healthy at 0.40: its 127 were short of no plan (sglang's cap of 256 is no floor for a "
        "run paced at 5 requests/s whose peak in flight was 127), and a long TTFT alone is also round 39's "
        "healthy 64K-input recipe run",
    },
    "tests/data/blind-round25-excerpts-c/10-nixl-ep-dbo-gsm8k-parity": {
        "verdict": "first sight: no-failure-seen 0.50 (acceptable), its summary names no key line: two "
        "'flexible exact match: 0.67x' lines the poster wrote by hand, no harness's result format",
    },
    # Round 26 (session 14), at first sight (excerpts on a106ad9, bundles-b on 3c34933, bundles-a on 0ae5a2b:
    # nothing changed for them): excerpts-a 11/11, excerpts-b 5/11, excerpts-c 7/11, bundles-a 8/8,
    # bundles-b 6/8. In all 37/49 acceptable, 45/49 key line quoted, 0 refused, 0 failed runs called
    # healthy, 0 confidently wrong.
    "tests/data/blind-round26-excerpts-b/10-vllm-ascend-benign-shutdown-error": {
        "verdict": "first sight: inconclusive 0.00; the tester expects healthy: an offline run that answered "
        "its 4 prompts, then vLLM's 'Engine core proc EngineCore_DP0 died unexpectedly' at exit, which an "
        "upstream PR calls shutdown noise; the same line follows a real engine death",
    },
    "tests/data/blind-round26-excerpts-c/07-triton-trtllm-concurrency-no-scaling": {
        "verdict": "first sight: no-failure-seen 0.50; the tester expects inconclusive: two load-test results "
        "(concurrency 1 and 5) with flat throughput and 5x latency, every request answered, no gate",
    },
    "tests/data/blind-round26-excerpts-c/08-sglang-ttft-asymmetric-concurrent-prefill": {
        "verdict": "first sight: no-failure-seen 0.50; the tester expects performance-regression: a "
        "reproducer's own lines (a 50 ms baseline, p99 TTFT 22 s), no harness's result format",
    },
    "tests/data/blind-round26-excerpts-c/10-vllm-ascend-v1-ceval-accuracy-drop": {
        "verdict": "first sight: no-failure-seen 0.50; the tester expects accuracy-regression: a hand-edited "
        "markdown summary (bold scores, an arrow) of two lm-eval rows, 0.2303 against 0.8001",
    },
    # Round 27 (session 15), at first sight (all five sets on dbb13e9: nothing changed for them):
    # excerpts-a 10/11, excerpts-b 10/11, excerpts-c 9/11, bundles-a 8/8, bundles-b 6/8 (confidently
    # wrong: performance-regression 0.60 on a 1P3D run whose one decode ran without CUDA graphs, its
    # lines in a `grep -H` file beside its peers'). In all 43/49 acceptable, 47/49 key line quoted, 0
    # refused, 0 failed runs called healthy, 1 confidently wrong.
    "tests/data/blind-round27-excerpts-c/11-throughput-drop-after-upgrade": {
        "verdict": "first sight: inconclusive 0.00 (the statistic 'Standard error: 0.21' read as an error); "
        "now no-failure-seen 0.50; the tester expects performance-regression: two hand-made summaries of seven "
        "benchmark runs each, one file per vLLM version (62.79 against 57.80 req/s), no gate or baseline the "
        "lines name as one",
    },
    # Round 28 (session 15), at first sight (excerpts on faac552, bundles-b on cee7a60,
    # bundles-a on 685cc07: nothing changed for them): excerpts-a 7/11, excerpts-b 8/11, excerpts-c 8/11,
    # bundles-a 8/8, bundles-b 8/8. In all 39/49 acceptable, 46/49 key line quoted, 0 refused, 1 failed
    # run called healthy (0.40: an lm-eval table alone, no gate), counted as confidently wrong.
    "tests/data/blind-round28-excerpts-a/05-vllm-ascend-mtp-fullgraph-hang": {
        "verdict": "first sight: no-failure-seen 0.50; the tester expects inconclusive: vLLM's shm_broadcast "
        "'No available shared memory broadcast block found in 60 seconds' at INFO, repeated by two engine cores, "
        "then the API server answering a /metrics scrape: a hang no line calls an error",
    },
    "tests/data/blind-round28-excerpts-c/01-lmcache-pd-diverges-at-token0": {
        "verdict": "first sight: inconclusive 0.00 leading with '6/6 LMCache P/D comparisons failed.'; the "
        "tester expects output-corruption: a reproducer's own comparison of P/D against a monolithic server "
        "(tokens_equal: false, top-5 overlap 0.0), no answer text the degenerate-output patterns read",
    },
    "tests/data/blind-round28-excerpts-c/02-mi355-qwen35-mxfp4-gsm8k-collapse": {
        "verdict": "first sight: healthy 0.40; the tester expects accuracy-regression: lm-eval's GSM8K table "
        "alone (exact_match 0.138 / 0.156), no gate, no baseline; a score that low is a collapse for the "
        "model the thread names, not for every model (Llama-2-7B scores 0.14 there)",
    },
    # Round 29 (session 16), at first sight (all five sets on 0f25f01: nothing
    # changed for them): excerpts-a 9/11, excerpts-b 9/11, excerpts-c 8/11, bundles-a 7/8, bundles-b 6/8.
    # In all 39/49 acceptable, 45/49 key line quoted, 0 refused, 0 failed runs called healthy, 0
    # confidently wrong. Ten verdicts missed at first sight; three still do, and one more quotes no key line.
    "tests/data/blind-round29-excerpts-a/10-trtllm-serve-tp4-stuck-no-error": {
        "verdict": "first sight: no-failure-seen 0.50 (acceptable), its summary names no key line: it quotes the "
        "paste's last line without its indent ('warnings.warn('), not the command the paste starts with",
        "key_line": "first sight: no key line quoted (no-failure-seen 0.50)",
    },
    "tests/data/blind-round29-excerpts-b/07-ray-status-two-nodes-idle": {
        "key_line": "first sight: no key line quoted (inconclusive 0.00: the heading 'Recent failures:' read as "
        "an error); now no-failure-seen 0.50, the verdict expected, quoting the paste's last line, not the "
        "status lines the tester names",
    },
    "tests/data/blind-round29-excerpts-c/08-kimi-k2-gibberish-concurrent-bench": {
        "verdict": "first sight: no-failure-seen 0.50; the tester expects output-corruption: a benchmark's own "
        "debug print of an answer ('Choice 1: Response: ' then ten characters, most of them U+FFFD), too short "
        "and in no form the degenerate-output patterns read",
    },
    "tests/data/blind-round29-excerpts-c/10-dsv32-lm-eval-gsm8k-low-rocm": {
        "verdict": "first sight: no-failure-seen 0.50; the tester expects accuracy-regression: lm-eval's GSM8K "
        "table alone at 0.706 for a model that scores about 0.95, no gate (its direction column printed as '_', "
        "which lm-eval-results-row does not read; read, the row would be an answered eval: healthy 0.40)",
    },
    # Round 30 (session 16), at first sight (excerpts-a and excerpts-c on a7fb224, excerpts-b on b547447,
    # bundles on b716c20: nothing changed for them): excerpts-a 9/11, excerpts-b 10/11, excerpts-c
    # 10/11, bundles-a 8/8, bundles-b 7/8 (confidently wrong: rdma-link-failure 0.80 on a 3 s link flap
    # the run served through, its 'mark it inactive' lines read as what the slices' failure caused).
    # In all 44/49 acceptable, 48/49 key line quoted, 0 refused, 0 failed runs called healthy, 1
    # confidently wrong. Every case passes now.
    # Round 31 (session 16), at first sight (excerpts on e3d342d, bundles on 1c6985a: nothing changed for
    # them): excerpts-a 10/11, excerpts-b 9/11, excerpts-c 10/11, bundles-a 6/8, bundles-b 7/8. In all
    # 42/49 acceptable, 46/49 key line quoted, 0 refused, 0 failed runs called healthy, 3 confidently
    # wrong (scheduler-runtime-crash 0.57 on vLLM's worker dying of NIXL's failed transfer under UCX's
    # retry-exceeded; output-corruption 0.90 below; straggler-node 0.80 against the last green run's
    # lines pasted beside the failed run's).
    "tests/data/blind-round31-excerpts-a/06-sglang-warmup-through-proxy-403": {
        "verdict": "first sight: inconclusive 0.00 (acceptable) leading with 'Ignoring mcp import error'; now "
        "no-failure-seen 0.50 (that line is a handled warning): the server's own warmup request through an HTTP "
        "proxy got 403 (urllib3's access line), a 4xx no line calls an error",
    },
    "tests/data/blind-round31-excerpts-b/04-kuberay-head-waits-for-missing-worker": {
        "verdict": "first sight: no-failure-seen 0.50 (acceptable), its summary names no key line: the paste "
        "ends on a wait script's 'Cluster is NOT ready.', a wait no pattern reads",
    },
    # Round 32 (session 17), at first sight (every set on bb3c4b0: nothing changed for them): excerpts-a
    # 11/11, excerpts-b 9/11, excerpts-c 5/11, bundles-a 8/8, bundles-b 7/8. In all 40/49 acceptable,
    # 44/49 key line quoted, 0 refused (one pretty-printed JSON answer was set aside as program source),
    # 0 failed runs called healthy, 1 confidently wrong (collective-timeout 0.50 below).
    "tests/data/blind-round32-excerpts-b/09-deepep-4x8-h20-dispatch-forwarder-timeout": {
        "verdict": "first sight: collective-timeout 0.50; the tester expects inconclusive: the catalogue the testers "
        "read called collective-timeout NCCL/RCCL's only, while the verdict (patterns/verdicts.toml) is DeepEP's "
        "all-to-all timing out on a peer rank too (docs/failure-families.md now says so); kept as the tool reads it",
    },
    "tests/data/blind-round32-excerpts-c/08-vllm-sm75-fork-fast-mode-wrong-answers": {
        "verdict": "first sight: no-failure-seen 0.50; the tester expects accuracy-regression: two profiles' scores "
        "on a question set ('Fast profile: 45/123' against 'Normal FP16-KV profile: 87/123'), labelled in prose, "
        "not as Before/After",
    },
    # Round 34 (session 18) at first sight: excerpts-a 7/11 and excerpts-c 6/11 (on 63355b5), excerpts-b 10/11
    # (on fa6e46f). Passing since: excerpts-a 06-09 (start-up crash lines of sglang and vLLM V0), excerpts-b 05
    # (the placement-group wait), excerpts-c 01, 03 and 05 (headings over measures, the CI bot, an arrow).
    # bundles-a 7/8 (on e033926); its one miss, 04, passes since the kernel's RDMA link-down line is read.
    # Round 34 bundles-b: 5/8 at first sight (on f484a58); 01 (a restarted pod's -current log) and 02 (a
    # proxy's 500 for a request vLLM refused as too long) pass since.
    "tests/data/blind-round34-bundles-b/06-gate-passes-amid-ci-noise": {
        "verdict": "first sight: inconclusive 0.00; the tester expects healthy: the accuracy gate and the sweep "
        "passed, and the job's dashboard push failed after them ('curl: (28) ...', '##[error]Process completed with "
        "exit code 28.'). Kept: a job that exited non-zero is never healthy (issue 22), though the summary should "
        "lead with the failed step, not slurm's teardown 'CANCELLED' line",
        "key_line": "first sight: no key line quoted (inconclusive 0.00)",
    },
    # Round 35 (session 18) at first sight: excerpts-a 8/11, excerpts-b 10/11, excerpts-c 8/11 (on fb75a4d),
    # bundles-b 5/8 (on 0566176). Passing since: excerpts-a 01 and 11 (TensorRT-LLM's executor lines),
    # excerpts-c 02 (a dashboard without outer bars), 07 (/health_generate) and 10's verdict (an After
    # over its Before), bundles-b 07 (the router's 503s before activation) and 08 (sglang's ignored imports).
    # bundles-a 7/8 (on 7b810e1); its one miss, 03, passes since vLLM's KV layout assertion is read.
    "tests/data/blind-round35-excerpts-a/09-vllm-inductor-gcc-compile-fails-tp2": {
        "verdict": "first sight: inconclusive 0.00; the tester expects scheduler-init-crash: a V0 worker's "
        "traceback tail (inductor's gcc CalledProcessError) logged under 'multiproc_worker_utils.py:240]' with "
        "its header cut, after start-up lines only",
    },
    "tests/data/blind-round35-excerpts-b/09-llm-d-epp-routes-to-refusing-pods": {
        "verdict": "first sight: inconclusive 0.00; the tester expects router-no-workers: Envoy's 'upstream "
        "connect error ... Connection refused' pasted as three lines (at its sentence and comma breaks), which "
        "envoy-upstream-connect-refused reads only as one line",
    },
    "tests/data/blind-round35-excerpts-c/10-gpt-oss-h200-throughput-after-before": {
        "key_line": "first sight: no key line quoted (no-failure-seen 0.50); now performance-regression quotes "
        "the first pair (-13.4 %), not the tester's worse one (-32.1 %)",
    },
    "tests/data/blind-round35-bundles-b/06-fault-injection-gate-passes": {
        "verdict": "first sight: inconclusive 0.00; the tester expects healthy: sglang's fault-injection test "
        "(SGLANG_TEST_DISAGG_FAILURE_PROB) makes KV transfers fail on purpose, the retried requests are "
        "served and the GSM8K gate passes; the tool does not know the injection mode",
        "key_line": "first sight: no key line quoted (inconclusive 0.00)",
    },
    # Round 36 (session 19) at first sight: excerpts-a 8/11, excerpts-c 9/11 (on 354518a), excerpts-b
    # 8/11 (on 5982571), bundles-a 7/8 and bundles-b 6/8 (on 1c85563): 38/49, key line quoted in 40/49,
    # none refused, one failed run called healthy (bundles-a 08), one confidently wrong (bundles-b 06).
    # Passing since: the glibc and Open MPI crash lines and a native-abort family (excerpts-a 02), a
    # family's verdict for an error after its file's last serving line (a 07), an exception quoted
    # with the frame that raised it (b 02), a warning that a node was marked dead (b 05), lm-eval's
    # rows on any accuracy metric (c 05), chronic decode saturation without a gate (bundles-a 08), a
    # decode's warmup cleared by the prefill's (bundles-b 06), readiness polls before a clean benchmark
    # (bundles-b 02), Buildkite's cancel (c 01; a cancel under a stuck test's faulthandler dump is not one).
    "tests/data/blind-round36-excerpts-a/10-ascend-qwen3vl-two-node-hccl": {
        "verdict": "first sight: scheduler-crash 0.35; the tester expects scheduler-init-crash: vLLM's "
        "collective_rpc traceback (HCCL communicator init failed) with its header cut, no start-up or "
        "ready line in the paste: the phase the thread gives is not in the lines",
    },
    "tests/data/blind-round36-excerpts-b/07-nvshmem-erdma-not-mlx5": {
        "verdict": "first sight: no-failure-seen 0.50; the tester expects inconclusive: NVSHMEM's one "
        "line 'Unable to dlopen libmlx5dv. Disabling directNIC features.' reads as a fallback; the thread "
        "found it fatal on eRDMA NICs (IBGDA is mlx5-only)",
    },
    "tests/data/blind-round36-excerpts-c/08-ascend-ttft-change-column": {
        "key_line": "first sight: the report quotes the first regressed row of the comparison table, the "
        "thread pointed at the PR's own row (the table's last)",
    },
    # Round 37 (session 19) at first sight: excerpts-a 9/11 and excerpts-c 7/11 (on d78c2bd9),
    # excerpts-b 10/11 and bundles-a 7/8 (on cb45e29d), bundles-b 7/8 (on 119f53a5): 40/49, key line
    # quoted in 47/49, none refused, no failed run called healthy, two confidently wrong (excerpts-c
    # 10 and 11). Passing since: the
    # dynamic loader's words (a 08), a test path's `e2e` folder no latency metric (c 11), the last kind
    # of failure named in an inconclusive summary (c 01), a comparison table's rows as answers (c 02),
    # a symptom's own aftermath no likelier cause (bundles-a 02), vLLM's KV-cache and device set-up
    # frames as start-up (a 04: session 20), the first timed-out request quoted with its phase in view
    # (b 10: session 20).
    "tests/data/blind-round37-excerpts-c/10-vllm-ascend-longseq-ci-force-freed": {
        "verdict": "first sight: kv-expired 0.70; the tester expects kv-transfer-timeout (kv-expired must not "
        "be): vllm-ascend's 'Force freed request' reads as stale KV here (vllm-ascend#15420 showed a decode "
        "reading the freed blocks), as no decode fetching in time by the catalogue's words; since session 20 "
        "kv-expired 0.35 (no line shows the stale read) and the catalogue says which reading is ours",
    },
    "tests/data/blind-round37-bundles-b/08-vllm-nixl-expired-kv-from-cancelled-probes": {
        "verdict": "first sight: inconclusive 0.00; the tester expects healthy: NIXL's 'Releasing expired KV "
        "blocks ... retrieved by 0 decode worker(s)' for three readiness probes whose clients gave up, then a "
        "clean benchmark; the report reads the prefill's last stats line as an engine that stopped progressing",
    },
    # Round 38 (session 20) at first sight: excerpts-c 7/11 and excerpts-a 10/11 (on bc3049e3),
    # excerpts-b 6/11 (on 62878cf0). Passing since: a benchmark's result printed twice for one workload
    # (c 01), vLLM's GSM8K invalid share (c 03), huggingface_hub's GatedRepoError line (c 05), 'Cannot
    # find any model weights' (a 10), Mooncake's truncated registration (b 03), Dynamo's discovery
    # listing no instance (b 06), a gateway resource not accepted (b 08), UCX's missing network device
    # (b 11).
    "tests/data/blind-round38-excerpts-b/05-gpustack-zmq-port-collision": {
        "verdict": "first sight: inconclusive 0.00; the tester expects bind-failed (a crash acceptable): a vLLM "
        "worker's traceback under multiproc_executor.py's records, cut before its ZMQError and its announcing "
        "line; read as a crash it changed six earlier cases labelled otherwise, so it waits for its own change",
    },
    "tests/data/blind-round38-excerpts-c/11-dsv32-spec-v2-nsa-slowdown": {
        "verdict": "first sight: no-failure-seen 0.50; the tester expects performance-regression: sglang's "
        "send_one table printed twice (129.26 then 113.59 token/s for the same 1024 tokens), with no change "
        "column and no label: two tables' rows are not compared",
    },
    # Round 39 (session 21) at first sight: excerpts-a 11/11 (on 76c92a50), excerpts-b 10/11 and
    # excerpts-c 8/11 (on 76c92a50), bundles-b 5/8 (on 81c3f597). Passing since: a level-less
    # `Couldn't allocate MR` (b 06), a stated throughput regression (c 02), OpenCompass's summary row
    # (c 05), an evaluation's task name as an accuracy (c 10), a VLM's warmup 400 cleared by the
    # benchmark that followed (bundles-b 01), the resolved KV cache dtypes compared (bundles-b 07), a
    # pod evicted for the disk its downloading weights filled (bundles-b 04, session 22).
    # Round 40 (session 21) at first sight: excerpts-a 11/11, excerpts-b 11/11, excerpts-c 8/11 and
    # bundles-a 7/8 (on 3b47cc9c), bundles-b 7/8 (on 8c2b9ad0): 44/49, none refused, no failed run
    # called healthy, none confidently wrong. Passing since: a harness's `ACCURACY CHECK FAILED:` (c 01),
    # a blank line between a before/after heading and its measure (c 03), a benchmark's all-zero error
    # tally and AI-on-GKE's `Successful/total requests` (c 05), vLLM 0.11.0's NIXL block-size assertion
    # (bundles-a 02).
    "tests/data/blind-round40-bundles-b/01-sglang-mooncake-healthy-noisy": {
        "verdict": "first sight: rdma-link-failure 0.40; the tester expects healthy: the kernel's `Link down` "
        "on an unplugged management port at boot, before a run that served 320 of 320 requests (since "
        "then cleared by that run's clean benchmark); still inconclusive on the boot's unsigned-module "
        "notice, an earlier job's nvidia-peermem teardown errors and the router's start-up health checks",
    },
    # Round 41 (session 21) at first sight: excerpts-a 8/11, excerpts-b 8/11, excerpts-c 6/11 (on
    # 26131a50), bundles-a 8/8 (on 3741da33), bundles-b 8/8 (on d508b117): 38/49, key line quoted in
    # 44/49, none refused, one failed run called healthy (c 11), one confidently wrong (b 01). Passing
    # since: start-up frames of the worker wrapper and the KV connector factory (a 03), a traceback
    # behind journald and a process tag (a 09), NIXL's remote disconnect (b 06, b 10), a gate past its
    # --max- flag (c 02), a Seed-TTS mean WER as answers scored (c 05), a bot's regression report
    # (c 10), a result labelled a regression (c 11); in session 22: a cut traceback named by its
    # innermost frame (a 08), every request refused 4xx and none answered (c 06).
    "tests/data/blind-round41-excerpts-b/09-mooncake-mixed-mtu": {
        "key_line": "first sight: rdma-link-failure 0.65 (the verdict expected), its summary quoting another "
        "line of the failure than the thread's",
    },
    "tests/data/blind-round41-excerpts-c/10-tt-nightly-llama-perf-drop": {
        "key_line": "first sight: no-failure-seen 0.50; since then performance-regression quoting the bot's "
        "`Performance regression detected` line, not the `Diff vs previous nightly: -34.64%` line below it",
    },
    "tests/data/blind-round41-excerpts-b/01-mori-ionic-remote-atomic-mr": {
        "verdict": "first sight: mori-mr-size-limit 0.82 (confidently wrong); the tester expects "
        "mr-registration-rejected: Pensando ionic refuses IBV_ACCESS_REMOTE_ATOMIC (accessFlag 15) with the "
        "errno 22 a >2 GiB region's ceiling gives; since then 0.40 with the refusal kept as not ruled out "
        "(one size on two ranks, nothing sizing the pool): the lines cannot tell the two apart",
    },
    # Round 42 (session 22) at first sight, on e198ea68: excerpts-a 10/11, excerpts-b 8/11, excerpts-c
    # 8/11, bundles-a 7/8, bundles-b 7/8: 40/49, key line quoted in 43/49, none refused, no failed run
    # called healthy, one confidently wrong (bundles-b 07: RDMA errors of a prefill whose decode had
    # just died of a collective timeout). Passing since: TensorRT-LLM's engine that does not
    # deserialize (a 08), a line that states what is not supported (a 10), Envoy's older upstream
    # reset, MORI's assertion that no RDMA device is active and llm-d's sidecar refused by its decoder
    # (b 03, b 10, b 11), vLLM's offline CompletionOutput repeated (c 01), a bisection's good and bad
    # commits compared (c 07), an answer in six writing systems (c 10), MORI's registration failure
    # linked to the launcher's word of the dead ranks (bundles-a 07), the RDMA errors of a peer that
    # died first (bundles-b 07), a cut traceback's header announced by what failed (c 05).
    # Round 43 (session 22) at first sight: excerpts-c 6/7 (on 5d2e0513), excerpts-b 10/11, excerpts-a
    # 7/10, bundles-a 8/8, bundles-b 5/8 (on cfe57d60): 36/44, key line quoted in 39/44, none refused,
    # one failed run called healthy (c 07), two confidently wrong (bundles-b 04, bundles-b 06).
    # Passing since: NCCL's queue pair that would not connect (b 07), Ascend HCCL's RDMA init (a 08), the
    # decode's saturation behind re-posted RDMA slices that failed nothing (bundles-b 06, session 23), an
    # earlier launch's bind error appended to the log of a relaunch that served (bundles-b 04), sglang's
    # warning that the decode gave fewer KV pages than the prefill sends (bundles-b 08, session 23).
    "tests/data/blind-round43-excerpts-a/06-sglang-pp-warmup-watchdog": {
        "verdict": "first sight: no-failure-seen 0.50; the tester expects warmup-failure: sglang's `Scheduler debug "
        "info:` dump, which its watchdog prints for a stuck pipeline stage, pasted alone; since session 23 "
        "inconclusive quoting the dump's line, whose summary quotes the message without the time and rank tag "
        "the key line holds",
    },
    "tests/data/blind-round43-excerpts-a/07-sglang-pd-pp-prefill-warmup-hang": {
        "verdict": "first sight: no-failure-seen 0.50; the tester expects warmup-failure: a py-spy dump of a prefill "
        "scheduler's MainThread, idle in torch.distributed's send under the PP disaggregated loop; an idle "
        "thread in a dump is read as quiet (tests/test_hang_dumps.py)",
        "key_line": "first sight: no line quoted (no-failure-seen)",
    },
    "tests/data/blind-round43-excerpts-c/07-vllm-092-perf-decrease": {
        "verdict": "first sight: healthy 0.40 (a failed run called healthy); the tester expects "
        "performance-regression: one complete benchmark result (10000 of 10000 requests) with no baseline, "
        "gate or label in the lines; the regression is in the reporter's words only",
        "key_line": "first sight: no line quoted (healthy)",
    },
    # Round 44 (session 23) at first sight: excerpts-b 8/8, excerpts-c 5/11, excerpts-a 9/10 (on 6b984f03),
    # bundles-a 8/8 (on dd7eae4e), bundles-b 7/8 (on 515a007b): 37/45, key line quoted in 39/45, none
    # refused, one failed run called healthy (c 05), none confidently wrong. Passing since: a release
    # named over each side of an upgrade's measures (c 01), a chat answer that collapses into `*   `
    # (c 05), lm-eval's results dict (c 06), a score below the model's published one (c 07), pytest's
    # passing summary (c 08), Ascend's `port have been bound already` (a 03), KV released for requests
    # sent before the decode was up (bundles-b 02).
    "tests/data/blind-round44-excerpts-c/09-tt-xla-nightly-mlir-perf-regression": {
        "verdict": "first sight: no-failure-seen 0.50; the tester expects performance-regression: a Markdown table "
        "whose columns are two commits and their difference, no unit or direction in it; the regression is "
        "in the reporter's words only",
    },
    "tests/data/blind-round44-bundles-a/06-decode-gated-model-no-token": {
        "key_line": "first sight: model-load-failure (the verdict expected) quoting huggingface_hub's `Cannot access "
        "gated repo for url ...`, not the OSError the traceback ends in",
    },
    # Round 45 (session 23) at first sight: excerpts-b 7/10, excerpts-a 10/11, excerpts-c 4/11, bundles-a 6/8
    # (on ff232de9), bundles-b 8/8 (on 5b58745b): 35/48, key line quoted in 44/48, none refused, one
    # failed run called healthy (bundles-a 07), none confidently wrong. Passing since: LMCache's warning
    # of a get that timed out (b 03), CANN's error name pasted alone (b 06), HCCL's task timeout under
    # CANN's list of possible causes (b 08), a worker `terminated unexpectedly with signal 11` (a 01),
    # a special token repeated (c 04), a line of `!` (c 05), vLLM's throughput line (c 09), a bot's
    # `Regression: -13.6% vs` (c 10), `Post-regression:` against `Baseline:` (c 11), the router's
    # start-up timeout (bundles-a 06), a prefill queue that stood while the client waited minutes
    # (bundles-a 07).
    "tests/data/blind-round45-excerpts-c/08-ttxla-mistral-nemo-throughput-halved": {
        "verdict": "first sight: no-failure-seen 0.50; the tester expects performance-regression: a bisection's "
        "`Commit: <sha>` blocks over `| Sample per second:`, newest first by the thread, nothing in the lines "
        "says which commit came first",
    },
    # Round 46 (session 23) at first sight: excerpts-a 8/9, excerpts-b 3/6 (on 60b14454), excerpts-c 7/11
    # (on b20a83b7), bundles-a 8/8, bundles-b 7/8 (on 0e885e45): 33/42, key line quoted in 35/42, none
    # refused, no failed run called healthy, none confidently wrong. Passing since: Ray's GCS it could
    # not reach or reconnect to (b 03, b 04), an evaluation's JSON score as serving proof (c 05), a
    # proxy's error answers it answered past while the decode restarted (bundles-b 02).
    "tests/data/blind-round46-excerpts-a/06-vllm-ascend-second-model-npu-capture-memory": {
        "verdict": "first sight: inconclusive (acceptable) whose summary leads with vLLM's blank ERROR line "
        "(`[model_runner_v1.py:3016] ` and nothing after it), not the NPU's `Failed to apply for memory.`",
    },
    "tests/data/blind-round46-excerpts-b/01-gloo-loopback-fallback-eks": {
        "verdict": "first sight: scheduler-init-crash 0.50 (acceptable) whose summary quotes `Gloo connectFullMesh "
        "failed ...` as its exception line but not the line with `SO_ERROR: Connection refused,` the tester keys",
    },
    "tests/data/blind-round46-excerpts-c/02-mistralrs-phi3-garbage-output": {
        "verdict": "first sight: no-failure-seen 0.50; the tester expects output-corruption: mistral.rs's answer "
        "`to argintintargargegegeg...hehehe`, syllables run together with no unit repeated most of its length",
    },
    "tests/data/blind-round46-excerpts-c/08-tt-xla-nightly-perf-regression": {
        "key_line": "first sight: performance-regression (the verdict expected) quoting the report's regression "
        "sentence, not its `Diff vs previous nightly` bullet",
    },
    "tests/data/blind-round46-excerpts-c/10-trtllm-autodeploy-aiperf-before-after-healthy": {
        "verdict": "first sight: no-failure-seen 0.50 (acceptable) whose summary names no key line: a before/after "
        "comparison that did not get worse is not taken as serving proof (tests/test_compared_measures.py: `Before: "
        "128 GPUs`, `After: 96 GPUs` would be too)",
    },
    "tests/data/blind-round46-excerpts-c/11-vllm-omni-duplex-wer-gate-nightly": {
        "verdict": "first sight: inconclusive (acceptable) led by the nightly report's `**Failure kind:** pytest "
        "FAILED`, not the word-error-rate gate the tester keys",
    },
    "tests/data/blind-round46-bundles-a/06-mooncake-kv-transfer-backlog": {
        "key_line": "first sight: kv-transfer-backlog 0.45 (the verdict expected) quoting the series' peak "
        "lines, not the tester's `#inflight-req: 13` and Mooncake throughput lines",
    },
    "tests/data/blind-round46-bundles-b/03-prefill-rank-oom-killed-host-memory": {
        "other_incidents": "first sight: host-oom (the verdict expected) with the NCCL watchdog's timeout ten "
        "minutes after the kill listed as an incident of its own; the tester reads it as the kill's consequence",
    },
    # Round 47 (session 23) at first sight: excerpts-a 8/9, excerpts-c 7/10 (on 0b3e542a), excerpts-b 7/10,
    # bundles-a 8/8, bundles-b 7/8 (on 63282972): 37/45, key line quoted in 38/45, none refused, no
    # failed run called healthy, one confidently wrong (bundles-b 01: RDMA slices retried in a run that
    # passed, read as the link's failure). Passing since: torch's c10d warning that it could not bind
    # (a 09), NIXL's error status, a client's 404, a pod restarting while not ready (b 02, b 05, b 08),
    # release headings past a build's hash (c 08), a peer's loss that affected no request at teardown
    # (bundles-b 01); in session 24, a table cell marked with a red cross (c 02).
    "tests/data/blind-round47-excerpts-a/09-lmdeploy-tp8-c10d-bind-rank0-failed": {
        "key_line": "first sight: inconclusive led by lmdeploy's `Rank[0] failed.`; since then bind-failed from "
        "torch's first bind warning (`[::]:29500`), not the `0.0.0.0:29500` one the tester keys",
    },
    "tests/data/blind-round47-excerpts-c/05-sglang-llama31-fp4-ci-pass": {
        "key_line": "first sight: healthy (the verdict expected) quoting another proof line than unittest's "
        "`Ran 1 test in 33.638s`",
    },
    "tests/data/blind-round47-excerpts-c/09-levanter-decode-garbage": {
        "verdict": "first sight: no-failure-seen 0.50; the tester expects output-corruption: a box-drawn "
        "generation that repeats phrases (`is approximately equals approximately 17 is approximately 17`), no "
        "unit repeated back to back",
    },
    # Blind round 48 (session 24), first sight on 0ac78c4a: excerpts-a 7/8, excerpts-b 4/4, excerpts-c
    # 5/11, bundles-a 8/8, bundles-b 8/8: 32/39, key line quoted in 31/39, none refused, no failed run
    # called healthy, none confidently wrong. Passing since: torch's allocator sentence in a paste cut
    # before the device (a 06), a generation quoted in a report that collapses into `!` (c 03),
    # output called garbage in words (c 02, c 03, c 11), a measure's two values in one sentence (c 10).
    "tests/data/blind-round48-excerpts-c/01-xinfer-fp8kv-long-context-garbage": {
        "verdict": "first sight: no-failure-seen 0.50; the tester expects output-corruption: a summary of a "
        "long prompt that comes back as `##1. llmllmcpuselessa`, words run together, no unit repeated",
        "key_line": "first sight: no line quoted (no-failure-seen)",
    },
    "tests/data/blind-round48-excerpts-c/08-aprender-cancelled-is-timeout": {
        "key_line": "first sight: inconclusive (the verdict expected) led by the thread's prose about GitHub "
        "reporting a timeout as cancelled, not the `gh run list` row `cancelled    30m27s`",
    },
    "tests/data/blind-round48-excerpts-c/09-ailang-nightly-regression-noise": {
        "verdict": "first sight: inconclusive led by the bot's `Nightly eval REGRESSION` line; the tester "
        "expects healthy: the thread's table shows the benchmark passing and failing night to night (noise)",
        "key_line": "first sight: the table row `0/2 ← same alarm, self-recovered` not quoted",
    },
    "tests/data/blind-round48-excerpts-c/10-vllm-ascend-ttft-regression": {
        "key_line": "first sight: no-failure-seen; since then performance-regression quoting the same sentence "
        "in the issue's `<summary>` line, not its copy under `Describe the bug` the tester keys",
    },
    "tests/data/blind-round48-excerpts-c/11-vllm-nvfp4kv-sm120-corrupted": {
        "key_line": "first sight: no-failure-seen; since then output-corruption from the sentence "
        "`NVFP4 KV produces corrupted output`, not the table row `**5/5**` corrupted the tester keys",
    },
    # Blind round 49 (session 24), first sight on 35028c2a: excerpts-a 5/6, excerpts-b 9/9, excerpts-c
    # 5/11, bundles-a 8/8, bundles-b 7/8: 34/42, key line quoted in 38/42, none refused, no failed run
    # called healthy, none confidently wrong. Passing since: TensorRT's `Error Code 2: OutOfMemory`
    # below an engine that could not be deserialized (a 03), MORI's warning of one registration method
    # with the server working after it (bundles-b 03), a drop in throughput stated with its two values
    # (c 10), `Zero request errors` no error (c 05, now no-failure-seen).
    "tests/data/blind-round49-excerpts-c/02-sglang-jax-gsm8k-gate-brittle": {
        "verdict": "first sight: inconclusive led by the PR's `Failure rate by threshold` heading; the tester "
        "expects healthy (a gate set too close to the mean) or inconclusive naming the table's minimum",
    },
    "tests/data/blind-round49-excerpts-c/05-dsv4-flash-gsm8k-health-check": {
        "verdict": "first sight: inconclusive led by `Zero request errors` read as an error; since then "
        "no-failure-seen (acceptable) whose summary names the reference measure, not the 95.8% result",
    },
    "tests/data/blind-round49-excerpts-c/06-sglang-nightly-mistral-gsm8k-scorer": {
        "verdict": "first sight: no-failure-seen; the tester expects healthy: `0.414 vs 0.47 threshold` "
        "in a PR's prose, the thread's scorer at fault, not the server",
    },
    "tests/data/blind-round49-excerpts-c/08-vllm-h100-mxfp4-humming-gsm8k-invalid": {
        "verdict": "first sight: inconclusive led by the PR's `GSM8K 0.0000, invalid rate 0.994` line; the "
        "tester expects output-corruption (nearly every answer unparsable)",
    },
    # Blind round 50 (session 24), first sight on fbdcfc82: excerpts-a 4/5, excerpts-b 2/2, excerpts-c
    # 0/10, bundles-a 3/4, bundles-b 8/8: 17/29, key line quoted in 21/29, none refused, no failed run
    # called healthy, two confidently wrong (c 06: a unittest accuracy threshold missed by 0.004, read
    # as accuracy-regression 0.5, the thread's flaky test; c 08: lm-eval's strict-match at 0.0 beside
    # flexible-extract at 0.55, read as a collapse, the task's answer template at fault). Passing since:
    # torch's `Allocation on device 0 would exceed allowed memory` (a 02), a bisection's `→ garbage`
    # (c 01), the other filter that scored (c 08), `0.910 (FAIL)` in a table (c 03), a watchdog's
    # SIGABRT and the engine's death in its process (bundles-a 03), trtllm-bench's overview (c 04).
    # Below, c 06 is accuracy-regression at 0.4 since: a near miss (0.6 % of its threshold) is no
    # confident regression.
    "tests/data/blind-round50-excerpts-c/01-vllm-dsv4-revert-the-the-the": {
        "key_line": "first sight: no-failure-seen; since then output-corruption from the bisection's `→ garbage`, "
        "not the table row `the the the the …` / code spam ❌ the tester keys",
    },
    "tests/data/blind-round50-excerpts-c/02-aiter-r1-mxfp4-gsm8k-0.03": {
        "verdict": "first sight: no-failure-seen; the tester expects accuracy-regression: a table of conditions "
        "(`Before the commit | 0.94 – 0.96`, `At the commit | **0.03**`) under a `Threshold: 0.93` line",
    },
    "tests/data/blind-round50-excerpts-c/05-sglang-glm52-gsm8k-gate-noise": {
        "verdict": "first sight: inconclusive led by the prose `fails gsm8k about twice a week`; the tester "
        "expects healthy (a gate inherited from another model, noise)",
        "key_line": "first sight: the thread's `Nothing is regressing` line not quoted",
    },
    "tests/data/blind-round50-excerpts-c/06-optimum-graphcore-swag-threshold": {
        "verdict": "first sight: accuracy-regression 0.50 (confidently wrong); since then 0.40, the near miss "
        "said; the tester expects healthy or inconclusive: the thread's unrelated flaky threshold",
    },
    "tests/data/blind-round50-excerpts-c/07-sglang-jax-ds-v2-lite-gsm8k-noise": {
        "verdict": "first sight: inconclusive led by the prose `failed on 6/20 with score=0.859 (threshold=0.86)`; "
        "the tester expects healthy: a 50-run stress test shows noise",
        "key_line": "first sight: the stress test's summary not quoted",
    },
    "tests/data/blind-round50-excerpts-c/09-1cat-vllm-turboquant-garbled": {
        "verdict": "first sight: inconclusive; the tester expects output-corruption from the reporter's "
        "`garbled-but-HTTP-200 symptom`, words the stated-garbage pattern does not read",
        "key_line": "first sight: that line not quoted",
    },
    "tests/data/blind-round50-excerpts-c/10-sglang-gsm8k-eval-unification": {
        "verdict": "first sight: no-failure-seen; the tester expects inconclusive (the nightly's eval path "
        "changed, a cause no verdict names)",
        "key_line": "first sight: no line quoted (no-failure-seen); a PR's prose line that names GSM8K and a "
        "PR number is no result either",
    },
    # Blind round 51 (session 24), first sight on 591724c8: excerpts-a 4/8, excerpts-c 4/7, bundles-a
    # 6/6, bundles-b 6/7 (no excerpts-b set: its themes' threads are used up): 20/28, key line quoted in
    # 26/28, none refused, one failed run called healthy (c 07), none confidently wrong. Passing since:
    # ggml's `cudaMalloc failed: out of memory` (a 01, a 02, a 07), vLLM V0's negative KV budget (a 06),
    # a probe that timed out on a busy prefill read as its queue's consequence (bundles-b 07), lm-eval's
    # perplexity in the thousands a collapse unless measured again after a fix (c 07, c 01's verdict).
    "tests/data/blind-round51-excerpts-c/01-lmeval-gemma7b-bos-before-after": {
        "key_line": "first sight: no line quoted (no-failure-seen)",
    },
    "tests/data/blind-round51-excerpts-c/04-inference-perf-null-ttft-nonstreaming": {
        "verdict": "first sight: no-failure-seen; the tester expects healthy: inference-perf's report with "
        "its keys and values run together (`time_to_first_tokennull`), every request served",
        "key_line": "first sight: no line quoted (no-failure-seen)",
    },
    # Blind round 52 (session 24), first sight: excerpts-a 5/6, excerpts-c 9/10, bundles-a 8/8 (on
    # bf24c1d3), bundles-b 7/8 (on c70908d2): 29/32, key line quoted in 31/32, none refused, no failed
    # run called healthy, one confidently wrong (bundles-b 04: the decode's WaitingForInput timeouts
    # named kv-transfer-timeout 0.59 over a prefill whose queue stood at hundreds under a failed TTFT
    # gate). Passing since: a Markdown heading is no error line (a 04), the saturated peer named under
    # the symptom it caused (bundles-b 04).
    # Blind round 53 (session 24), first sight on db47e431: excerpts-a 2/3, excerpts-c 6/10, bundles-a
    # 8/8, bundles-b 7/7: 23/28, key line quoted in 25/28, none refused, no failed run called healthy,
    # none confidently wrong. Passing since: Ray's GCS reporting a worker's exit as NODE_OUT_OF_MEMORY
    # (a 02), a result line `accuracy=0.947  PASS` as an end-to-end check (c 06), a table whose rows are
    # releases (c 08).
    # Blind round 54 (session 24), first sight: excerpts-a 6/6, excerpts-c 5/8, bundles-b 7/7 (on
    # a3a48df1), bundles-a 8/8 (on 80a8554e): 26/29, key line quoted in 27/29, none refused, no failed
    # run called healthy, none confidently wrong. Since then c 07's bare `E       AssertionError` is a
    # failed test (inconclusive, not no-failure-seen).
    "tests/data/blind-round54-excerpts-c/07-vllm-ascend-gte-mteb-upstream-fail": {
        "verdict": "first sight: no-failure-seen; since then inconclusive led by the bare `E       "
        "AssertionError`, its summary not naming the `Difference:` line or the assert statement keyed",
    },
    "tests/data/blind-round54-excerpts-c/08-rocm-bf16-mla-fmha-opus-crash": {
        "verdict": "first sight: inconclusive; the tester expects scheduler-crash: traceback frames into aiter's "
        "FMHA kernel with no exception line, no pattern naming a crash",
        "key_line": "first sight: the kernel's frame line not quoted",
    },
    # Blind round 55 (session 24), first sight: excerpts-a 9/9, excerpts-c 6/11 (on 093e0877), bundles
    # 8/8 (on 8db1323b): 23/28, key line quoted in 25/28, none refused, one failed run called healthy
    # (c 08: a nightly's table of samples per second, `Change%` down 63 %, read as answers served: `sps`
    # named no direction), none confidently wrong. Passing since: rates by their short unit (c 08).
    "tests/data/blind-round55-excerpts-c/10-textgen-3090-8bit-gibberish": {
        "verdict": "first sight: no-failure-seen; the tester expects output-corruption: an answer unrelated "
        "to its prompt, in plain sentences",
    },
    # Blind round 56 (session 24), first sight on bb5af96e: excerpts-a 7/8, excerpts-c 3/6, bundles 2/3:
    # 12/17, key line quoted in 15/17, none refused, no failed run called healthy, none confidently
    # wrong. Kept as they were scored: nothing changed for them.
    "tests/data/blind-round56-excerpts-c/04-gaudi-contiguous-pa-longctx-garbled": {
        "verdict": "first sight: no-failure-seen; the tester expects output-corruption: a table's `garbled` "
        "column (`3/20`) beside qa_f1 0.05 against a reference of ~0.34",
    },
    "tests/data/blind-round56-excerpts-c/06-ascend-prefix-ttft-gate-jitter": {
        "verdict": "first sight: no-failure-seen; the tester expects inconclusive: a table of nightly TTFT "
        "gate misses under a red-cross heading, no cell marked",
        "key_line": "first sight: no line quoted (no-failure-seen)",
    },
    # Blind round 57 (session 25), first sight on 49714094: excerpts-a 8/8, excerpts-c 6/10, bundles-a
    # 8/8, bundles-b 7/7: 29/33, key line quoted in 31/33, none refused, one failed run called healthy
    # (c 03: lm-eval's mmlu_pro row at 0.5071 under the reporter's `It should be 0.75 .`), none
    # confidently wrong. Passing since: a score below the one a sentence expects (c 03), results a
    # before/after label names judged by their labels (c 09: a fix that raised 0.510 to 0.948), a
    # line of four writing systems and undecodable bytes (c 02).
    "tests/data/blind-round57-excerpts-c/04-vllm-chatglm2-tp4-garbled-output": {
        "verdict": "first sight: no-failure-seen; the tester expects output-corruption: a bare repr of a "
        "generation of digits and escaped newlines (`'L 1. 000000000000000\\n\\n\\n1150...`), no unit a pattern reads",
    },
    # Blind round 58 (session 25), first sight on a3046245: excerpts-a 4/8, excerpts-c 6/9, excerpts-d
    # (CI and test runs) 11/12, bundles 8/8: 29/37, key line quoted in 34/37, none refused, no failed
    # run called healthy, one confidently wrong (d 02: a CI runner's disk full under poetry's install
    # and an image pull, called model-load-failure 0.85). Passing since: a write that found no space
    # in a CI job's or a client's own process is no server's model load (d 02), TVM's `CUDA: out of
    # memory` (a 02), c10d's bind error wrapped by hand (a 08), byte-level BPE symbols never decoded
    # (c 04), a bisection's commits named passing and failing over their measures (c 07).
    "tests/data/blind-round58-excerpts-c/08-dllm-plugin-gsm8k-strict-zero": {
        "verdict": "first sight: no-failure-seen; the tester expects healthy: a reposted lm-eval table without "
        "its task column, the value in bold (`| flexible-extract | exact_match | **0.6308** | ±0.0133 |`)",
    },
    # Blind round 59 (session 25), first sight on 8d756ab8: excerpts-a 8/9, excerpts-c 3/9, excerpts-d
    # 8/9, bundles 7/8: 26/35, key line quoted in 29/35, none refused, two failed runs called healthy
    # (c 05: a table whose sides are `Before #26496 | After #26496`, values `~126.9 tok/s`, read as
    # answers served; c 06: lm-eval's gsm8k at 0.2407 under `has erroneous gsm8k lm_eval`), none
    # confidently wrong. Passing since: sides named by their change and values by their unit (c 05),
    # results stated wrong in words (c 06), a results table's GARBAGE cells (c 01), perplexity runs
    # named `(before)` and `(after)` at their line's end (c 08), Ollama's listening line (a 07), vLLM's
    # `Error in preprocessing prompt inputs` for a prompt over the context (bundles 04).
    # Blind round 60 (session 25), first sight on 5ea7e68c: excerpts-a 3/7, excerpts-c 4/10, excerpts-d
    # 6/9, bundles 6/7: 19/33, key line quoted in 25/33, none refused, no failed run called healthy,
    # four confidently wrong (a 03 below; a 06: llama.cpp's out-of-memory it retried past without
    # pipeline parallelism, gpu-oom 0.75; d 03: an accuracy check that failed on a score above the
    # expected one, accuracy-regression 0.55; bundles 01: one client-aborted request's bootstrap
    # timeout in a run whose gates passed, kv-transfer-timeout 0.55). Passing since: bundles 01 (a
    # warning is no consequence that failed), d 03 (a score above the expected is no regression),
    # ggml's older `CUDA error 2 at ...: out of memory` (a 01), a regression stated with its verb
    # (`perf has regressed by 30%`, c 02), `... is nonsense` (c 05), a crash whose what() ends in an
    # InfiniBand completion error (a 04's verdict), a weights download short of disk space under the
    # engine's cut traceback (d 06).
    "tests/data/blind-round60-excerpts-a/03-aibrix-ucx-umr-qp-rtr-no-device": {
        "verdict": "first sight: mr-registration-rejected 0.70 (counted confidently wrong); the tester saw the "
        "thread open with no cause named, but the library's known issue ucx-umr-qp-lag-bond links this very "
        "thread (aibrix#1770) to UCX's UMR QP on LAG-bonded ports (openucx/ucx#11709, #11780): kept",
    },
    "tests/data/blind-round60-excerpts-a/04-nccl-ib-completion-error12-oneline": {
        "key_line": "first sight: scheduler-crash 0.30; since then rdma-link-failure, but the key words end a "
        "run-together line of 700 characters, past the quote's cut",
    },
    "tests/data/blind-round60-excerpts-c/03-vllm-dsv4-fused-shared-expert-gsm8k-ab": {
        "verdict": "first sight: no-failure-seen; the tester expects accuracy-regression: an A/B table whose rows "
        "name the configuration (`FSE enabled, original conversion`), 0.9492 against 0.8620",
    },
    "tests/data/blind-round60-excerpts-c/04-mistralrs-no-kv-cache-garbage": {
        "verdict": "first sight: no-failure-seen; the tester expects output-corruption: a chat answer of word "
        "salad (`Hello Bakanı titten echangezpeuronsotionEvent`), no unit repeated, no words that say so",
        "key_line": "first sight: no line quoted (no-failure-seen)",
    },
    "tests/data/blind-round60-excerpts-c/08-sglang-dsv4-shared-expert-fusion-mmlu-healthy": {
        "verdict": "first sight: no-failure-seen, its summary naming no result; the tester expects healthy: a "
        "table of MMLU scores per configuration (`| DeepEP fused | 14042 | 0.861 |`), no pattern reads",
    },
    "tests/data/blind-round60-excerpts-d/08-guidellm-ci-hf-429": {
        "verdict": "first sight: no-failure-seen, its summary naming the last line; the tester expects "
        "inconclusive: Hugging Face's 429 to a CI runner, in a pytest capture",
    },
    # Blind round 61 (session 25), first sight on 29686bc5: excerpts-a 3/6, excerpts-c 3/10, excerpts-d
    # 7/10, bundles 5/7: 18/33, key line quoted in 22/33, none refused, no failed run called healthy,
    # one confidently wrong (bundles 02: the router's `No available prefill workers` before the prefill
    # was up, in a run whose benchmark served 800 of 800, router-no-workers 0.55). Passing since: a
    # router without workers only before the side was up (bundles 02), a prefill's bind error not
    # taken as survived by the decode's warmup in one compose log (bundles 04), Ollama's `cudaMalloc
    # failed: out of memory` (a 02), vLLM's world size above the node's GPUs (d 04), a score's two
    # values stated (c 05), TensorRT-LLM's run output in a loop (c 09), a chat answer of one mark (c 08).
    "tests/data/blind-round61-excerpts-a/04-vllm-omni-shm-broadcast-idle-healthy": {
        "verdict": "first sight: no-failure-seen, its summary naming the last line, not vllm-omni's `Generation "
        "completed successfully.` (healthy expected)",
    },
    "tests/data/blind-round61-excerpts-c/02-sfllm-fp8-gsm8k-throughput-table": {
        "verdict": "first sight: no-failure-seen, naming no result; the tester expects healthy: a validation "
        "table with GSM8K as `1093/1319 (82.87%)` cells",
    },
    "tests/data/blind-round61-excerpts-c/06-vllm-ttft-3x-after-upgrade": {
        "key_line": "first sight: no line quoted (no-failure-seen); since session 44 performance-regression on the "
        "sentence `TTFT became 3x slower`, not the tester's `- TTFT (v0.7.0): 0.39s` below it",
    },
    "tests/data/blind-round61-excerpts-c/07-llamacpp-command-a-sm-row-gibberish": {
        "key_line": "first sight: no line quoted (no-failure-seen)",
    },
    "tests/data/blind-round61-excerpts-c/10-vllm-gemma3-12b-repetitive-loop": {
        "key_line": "first sight: the salad not quoted; since session 47 output-corruption (expected) quoting "
        "the report's `gets stuck in infinite repetitive loops during text generation`, not the salad",
    },
    "tests/data/blind-round61-excerpts-d/03-trtllm-jenkins-agent-offline": {
        "verdict": "first sight: no-failure-seen; the tester expects inconclusive: Jenkins' `Cannot contact "
        "<agent>` and an interrupted stage, words no pattern or marker reads as failing",
    },
    # Blind round 62 (session 25), first sight on 2977d16c: excerpts-a 5/6, excerpts-c 4/7, excerpts-d
    # 4/7, bundles 6/6: 19/26, key line quoted in 21/26, none refused, two failed runs called healthy
    # (c 01: an evaluation table's `FAIL ⛔` status cell before its numbers; c 03: a GSM8K client's
    # `Accuracy: 0.016`), none confidently wrong. Passing since: a status cell that says FAIL wherever it
    # stands in its row (c 01), a GSM8K client's score under the collapse floor (c 03).
    "tests/data/blind-round62-excerpts-a/04-vllm-nccl-sanity-check-passes": {
        "verdict": "first sight: no-failure-seen, naming no result; the tester expects healthy: vLLM's NCCL "
        "check script (`vLLM NCCL with cuda graph is successful!`), a line no pattern reads",
    },
    "tests/data/blind-round62-excerpts-c/05-vllm-qwen25-math-garbled-output": {
        "verdict": "first sight: no-failure-seen; the tester expects output-corruption: word salad with emoji "
        "(`SEEKisorafi🌈 swuellenafiponsored SEEK SEEK ...`), no measure reads it",
        "key_line": "first sight: no line quoted (no-failure-seen)",
    },
    "tests/data/blind-round62-excerpts-d/04-gie-e2e-missing-hf-token": {
        "verdict": "first sight: inconclusive led by the test's `panic: test timed out after 10m0s`, not "
        "`[FAILED] HF_TOKEN is not set` the tester keys (model-load-failure expected)",
    },
    # Blind round 63 (session 25), first sight on a6c39ad1: excerpts-a 6/6, excerpts-c 1/7, excerpts-d
    # 6/7, bundles 5/5: 18/25, key line quoted in 21/25, none refused, three failed runs called healthy
    # (c 04, c 05 below; c 07: `~50% | much lower than expected` in a table), none confidently wrong.
    # Passing since: a result said to be lower than expected (c 07, inconclusive: no accuracy named).
    "tests/data/blind-round63-excerpts-c/01-sglang-pp-accuracy-consistency": {
        "verdict": "first sight: no-failure-seen; the tester expects healthy: a test's printed dicts "
        "(`[Qwen PP Comparison] Baseline: {'accuracy': np.float64(0.95)`), a shape no pattern reads",
    },
    "tests/data/blind-round63-excerpts-c/03-mlxvlm-eagle3-speedup": {
        "verdict": "first sight: no-failure-seen naming no result; the tester expects healthy: speed-ups stated "
        "as `12.269 / 8.152 = 1.50x`",
    },
    "tests/data/blind-round63-excerpts-c/04-vllmascend-tp2dp2-gsm8k-low": {
        "verdict": "first sight: healthy 0.40 (a failed run called healthy): lm-eval's gsm8k at 0.1653 and 0.1547, "
        "above the 0.1 collapse floor, read as answers served; the thread's known TP2+DP2 precision bug",
    },
    "tests/data/blind-round63-excerpts-c/05-sglang-eagle-prefix-reuse-throughput": {
        "verdict": "first sight: healthy 0.40 (a failed run called healthy): a table whose rows are configurations "
        "(`TP8` against `TP8 + EAGLE steps=3/draft=4`, 43,981 against 12,881 tok/s), no side a header names",
    },
    "tests/data/blind-round63-excerpts-d/07-gaie-conformance-kgateway-passed": {
        "verdict": "first sight: no-failure-seen naming no result; the tester expects healthy: a conformance "
        "report's `result: success`",
        "key_line": "first sight: that line not quoted",
    },
    # Round 64 (session 26), first sight on b73d3067: 21/25 acceptable, 23/25 quoted, 1 failed run called
    # healthy (excerpts-c 01), none confidently wrong. Fixed since: llama.cpp's `main: couldn't bind ...`
    # (read as a comparison's `main:` side), the ArcticInference variants table, a table's `Decode
    # regression` cell, a sentence that says a result fails its gate.
    "tests/data/blind-round64-excerpts-d/03-opea-helm-tgi-gated-401": {
        "key_line": "first sight: the JSON record's message (a traceback with escaped line breaks) quoted cut "
        "around its cause words, the words themselves marked as code",
    },
    # Round 65 (session 26), first sight on 759bfed4: 19/25 acceptable, 22/25 quoted, none refused, no
    # failed run called healthy, none confidently wrong. Fixed since: KServe's `/openai/v1/...` 200,
    # oMLX's finish_reason line, docker inspect's OOMKilled, word salad glued across alphabets,
    # punctuation printed as an output tensor's bytes.
    "tests/data/blind-round65-excerpts-c/04-ollama-04-gen-rate-decay": {
        "verdict": "first sight: no-failure-seen; the tester expects performance-regression: a shell loop's "
        "`prompt_tokens rate` pairs, the second pass at 79 tok/s where the first began at 128, no header "
        "or words naming the measure",
    },
    # Round 66 (session 26), first sight on 5dece5a7: 13/21 acceptable, 19/21 quoted, none refused, no
    # failed run called healthy, 2 confidently wrong (excerpts-d 02, bundles 05). Fixed since: BuildKit's
    # step lines as a CI build, SkyServe's `No ready replicas`, TGI's warmup budget, a report headed
    # `Perf Regression`, a `fail` result cell with its run's link, `failing the ... threshold`, a
    # decode's QP ENOMEM as the cause of its peer's `mark it inactive`.
    "tests/data/blind-round66-excerpts-c/04-xinfer-vllm-rs-perf-metrics-ok": {
        "verdict": "first sight: no-failure-seen (acceptable) whose summary names no line the tester keys",
    },
    # Round 67 (session 26), first sight on c74720cf: 16/24 acceptable, 19/24 quoted, none refused, no
    # failed run called healthy, none confidently wrong. Fixed since: a score's grid of few questions as
    # its noise (AIME's reruns), `34% slower`, a `| Runtime |` table of releases, `'text': '...'` in a
    # Python dict, bench_sglang's MMLU subjects, EvalScope's report row, genai-perf's nanoseconds,
    # sglang's `Not enough memory` cut at its end.
    "tests/data/blind-round67-bundles/01-healthy-mooncake-rdma-inactive-nic": {
        "verdict": "first sight: inconclusive; the tester expects healthy: one client-aborted request and the "
        "benchmark's `Successful requests: 639` of 640, which issue 22 makes a failed gate (a benchmark short "
        "of its plan is never healthy), the abort not read as accounting for the missing request",
    },
    # Round 68 (session 26), first sight on 8f8c8e22: 13/19 acceptable, 15/19 quoted, none refused, no
    # failed run called healthy, none confidently wrong. Fixed since: a table of configurations judged on
    # accuracy (bf16 against MXFP4), a table of one product's releases with a middle one regressed,
    # sglang's `Losing connection with prefill instance`.
    "tests/data/blind-round68-excerpts-c/01-scalellm-gptq-commas": {
        "verdict": "first sight: no-failure-seen; the tester expects output-corruption: a chat CLI's answer of "
        "`, , , ,,` under `word count: 0, token count: 15`, no field a pattern reads as generated text",
    },
    "tests/data/blind-round68-excerpts-c/06-sparkinfer-qwen36-top1-zero": {
        "verdict": "first sight: no-failure-seen; the tester expects output-corruption: a bot's key-value table "
        "with `| Qwen3.6 correctness | top-1 0.0% · KL 99.0 |` and `eval:REJECT` cells under a heading marked ❌",
    },
    "tests/data/blind-round68-excerpts-d/02-inference-perf-run-completed": {
        "verdict": "first sight: no-failure-seen (acceptable) whose summary names no line the tester keys "
        "(inference-perf's `Run completed` and its report dict, read by no pattern)",
        "key_line": "first sight: no line quoted (no-failure-seen)",
    },
    # Round 69 (session 26), first sight on 45de15db: 9/17 acceptable, 11/17 quoted, none refused, no
    # failed run called healthy, one confidently wrong (excerpts-c 02: an improvement read as a drop of
    # requests/s, the measure named by the unit before it). Fixed since: that naming, llama.cpp's and
    # LocalAI's model-file words, TGI's total-token warmup budget, EvalScope's perf summary.
    "tests/data/blind-round69-excerpts-c/01-ollama-gptoss120b-garbage": {
        "verdict": "first sight: no-failure-seen; the tester expects output-corruption: an answer about an "
        "unrelated coding task (`def solve(): pass`) to `Hi, introduce yourself`, fluent text no measure reads",
    },
    "tests/data/blind-round69-excerpts-c/02-xinference-sglang-srt-before-after": {
        "verdict": "first sight: performance-regression 0.60 (confidently wrong); since then no-failure-seen "
        "(acceptable), naming no result: Before and After blocks read, no served request among them",
    },
    "tests/data/blind-round69-excerpts-c/04-evalscope-aiperf-crosscheck-healthy": {
        "key_line": "first sight: the verdict expected, its summary not quoting AIPerf's `NVIDIA AIPerf | LLM "
        "Metrics` title the tester keys",
    },
    "tests/data/blind-round69-excerpts-c/05-exllamav2-012-tps-drop": {
        "verdict": "first sight: no-failure-seen; the tester expects performance-regression: `Exllama 0.0.11:` "
        "and `Exllama 0.0.12:` over fenced speed tests (54.1 against 24.9 t/s), a version heading's shape no "
        "search key finds",
    },
    "tests/data/blind-round69-excerpts-c/06-ollama-v017-parallel-throughput-drop": {
        "verdict": "first sight: no-failure-seen; the tester expects performance-regression: a table whose "
        "columns are releases (`Ollama (v0.17.7)`) and whose values name no measure (tok/s said elsewhere)",
        "key_line": "first sight: no line quoted (no-failure-seen)",
    },
    # Round 70 (session 26), first sight on 2efd7ecc: 17/22 acceptable, 20/22 quoted, none refused, no
    # failed run called healthy, none confidently wrong. Kept as scored (the session's last round).
    "tests/data/blind-round70-excerpts-c/01-ollama-mmlu-pro-healthy": {
        "verdict": "first sight: no-failure-seen; the tester expects healthy: Ollama-MMLU-Pro's `Total, 294/410, "
        "71.71%` summary, a shape no pattern reads",
    },
    "tests/data/blind-round70-excerpts-c/05-mlx-lm-qwen3-coder-next-garbage": {
        "verdict": "first sight: no-failure-seen; the tester expects output-corruption: an answer of code-like "
        "fragments (`(pasted-2023-compiler-12140 (input-packet-39 has a class](new-employee}-admin`), one "
        "alphabet, no unit repeated",
        "key_line": "first sight: no line quoted (no-failure-seen)",
    },
    "tests/data/blind-round70-excerpts-c/07-realizar-decode-regression": {
        "verdict": "first sight: no-failure-seen; the tester expects performance-regression: a table of builds "
        "(`v3 (2026-04-02)`, `current (2026-04-04)`) whose rows name no release number, and `**Delta: -14.5%** "
        "(39.6 tok/s)` below it",
    },
    # Round 71 (session 26), first sight on 5bb09191: 9/11 acceptable, 9/11 quoted, none refused, no
    # failed run called healthy, none confidently wrong; its excerpts come from PR descriptions (the
    # search budget was spent), its CI set is empty. Fixed since (session 27): lm-eval's rows behind `# `.
    "tests/data/blind-round71-excerpts-c/04-awq-ddp-gsm8k-delta-within-noise": {
        "key_line": "first sight: the verdict expected, its summary not quoting the table row the tester keys "
        "(`| awq_qwen25_asym_all_vllm | 0.791 | 0.759 | -4.05% | ...`)",
    },
    "tests/data/blind-round71-excerpts-c/03-vllm-mfp-fp8-dynamic-gibberish": {
        "verdict": "first sight: no-failure-seen; the tester expects output-corruption: vLLM greedy generations "
        "of mixed-script word salad printed as plain lines, outside any field a pattern reads",
    },
    # Round 72 (session 27), first sight on eb38d3e8: 19/29 acceptable, 23/29 quoted, none refused, no
    # failed run called healthy, none confidently wrong. Fixed since: an exception behind pytest's `E   `
    # flag, sglang's `Loaded weights leave no GPU memory for the KV cache`, Dynamo's `no endpoints
    # available to route work`, Triton's status name read as an errno and its `unable to find backend
    # library`, a pasted generation that loops (read on pastes only), LMDeploy's benchmark summary.
    "tests/data/blind-round72-excerpts-c/08-exllamav2-rocm-031-named-named-repetition": {
        "verdict": "first sight: no-failure-seen; the tester expects output-corruption: `a rabbit named named named "
        "named` (four times, below the loop's ten) and the reporter's prose `(continues to write the same word "
        "until the length limit is hit)`",
    },
    "tests/data/blind-round72-excerpts-d/08-dynamo-mocker-disagg-discovery-race": {
        "verdict": "first sight: no-failure-seen (acceptable) whose summary names no line the tester keys: a "
        "test's `actual:` and `expected:` lines that differ, two lines no marker reads as a failed check",
    },
    # Round 73 (session 27), first sight on 513bd3a2: 24/28 acceptable, 25/28 quoted, none refused, no
    # failed run called healthy, none confidently wrong. Fixed since: Mooncake's `Failed to start HTTP
    # metadata server on 0.0.0.0:8080` (a bind), `Before image update: ~300 tps` (words between the side
    # and its colon, an approximation's mark), a healthy run's proof quoted whole.
    "tests/data/blind-round73-excerpts-c/05-bitnet-gpu-garbage-generation": {
        "verdict": "first sight: no-failure-seen; the tester expects output-corruption: an answer of glued word "
        "pieces in one alphabet (`zuônimersimerszuimersuggyimershands`), no piece repeated ten times in a row",
    },
    # Round 74 (session 27), first sight on ad8248ee: 19/30 acceptable, 25/30 quoted, none refused, no
    # failed run called healthy, none confidently wrong. Fixed since: the regular router's `No available
    # workers (all circuits open ...)` in a client's retry, Rust's StorageFull errno, a supervisor's
    # `exceeded timeout (3600s); killing.`, vLLM's KV-cache error below its `EngineCore failed to start.`
    # (untimed, within a traceback's length), sglang's bench_one_batch, a bold release heading, the rate
    # over a duration, a side named at a sentence's end over its command, decimal commas, a pod evicted
    # for its emptyDir's limit while its weights loaded; in session 28, llama-bench's tables each closed by
    # its build line.
    "tests/data/blind-round74-excerpts-c/04-trtllm-qwen14b-int4-2080ti-garbage": {
        "verdict": "first sight: inconclusive; the tester expects output-corruption: an answer of PHP code to "
        "`what is your name` (`@throws Exception`, `throw new Exception(...)`), read as an error in the "
        "lines, not as an answer unrelated to its question",
    },
    # Round 75 (session 27), first sight on dd175cb8: 21/31 acceptable, 27/31 quoted, none refused, no
    # failed run called healthy, none confidently wrong. Fixed since: an Xid as pasted, a table of
    # commits, newlines-only generations, the gated-repo sentence alone, CUDA/HIP out-of-memory error
    # names, `nvidia-smi -q`'s section headings and `Failure ...: No` fields, a prefill whose queue
    # piles up beside an idle peer (a straggler, not the role saturated), compare-llama-bench's speedups.
    "tests/data/blind-round75-excerpts-c/01-ollama-arm64-cpu-eval-rate-drop": {
        "verdict": "first sight: no-failure-seen; the tester expects performance-regression: two `ollama run "
        "--verbose` stat blocks whose releases are named only in the docker command above each "
        "(`ollama/ollama:0.14.3`), no heading a pattern reads",
    },
    "tests/data/blind-round75-excerpts-c/02-llamacpp-rocm-gfx1012-gibberish": {
        "verdict": "first sight: no-failure-seen; the tester expects output-corruption: llama.cpp's verbose "
        "token trace (`!eval: [ '!':0 ]`, `Heval: [ 'H':39 ]`), each generated token a random single byte",
        "key_line": "first sight: no line quoted (no-failure-seen)",
    },
    "tests/data/blind-round75-excerpts-c/05-lmdeploy-tp-pr-gsm8k-wrong": {
        "verdict": "first sight: no-failure-seen; the tester expects accuracy-regression: a reviewer's prose "
        "(`gsm8k is not right`, qwen1.5-7b at 5.31) beside throughput gains",
    },
    # Round 76 (session 27), first sight on 557a386e: 17/23 acceptable, 21/23 quoted, none refused, one
    # failed run called healthy (excerpts-c 04: a table's `exceeds our −5% loud threshold` verdict cell,
    # its −6.43 % within the tool's 10 % allowance), none confidently wrong. Fixed since: a threshold
    # written as a fall and exceeded, table cells set as code or bold, a gate's `Measured` column,
    # HCCL's `Failed to bind the IP port`, an answer's undecodable characters; in session 28, a perplexity
    # stated alone (`ppl=1056944.250`).
    "tests/data/blind-round76-excerpts-a/05-gpustack-ready-but-unreachable": {
        "verdict": "first sight: no-failure-seen (acceptable) whose summary names no line the tester keys: "
        "llama-box's `server is ready` and uvicorn's `Application startup complete.`, ready lines no pattern reads",
    },
    "tests/data/blind-round76-excerpts-c/06-kubeai-gh200-llama70b-serving-bench-healthy": {
        "key_line": "first sight: healthy (the verdict expected), its summary quoting the benchmark's last "
        "line of proof, not its `Output token throughput (tok/s):` line the tester keys",
    },
    # Round 77 (session 28), first sight on 06d74a89: 39/49 acceptable, 41/49 quoted, none refused,
    # three failed runs called healthy (excerpts-c 06, bundles-2 06 and 09), none confidently wrong.
    # Fixed since: a Gloo collective's timeout, a Slurm job stopped at its time limit (a cancel, never
    # survived; a stall when nothing was served in its last 15 minutes), a straggler with no gate (a
    # verdict, vLLM's engine configuration read for what differs on it, earlier lives no peers), an
    # outage no pattern names the cause of that a restarted server came back from, `main branch:` and
    # `This PR:` headings, vLLM's latency benchmark, a pasted answer of garbage tokens in several scripts.
    "tests/data/blind-round77-excerpts-b/08-sglang-pd-decode-cumoduleload-hang": {
        "verdict": "first sight: no-failure-seen (acceptable) whose summary names no line the tester keys: a "
        "py-spy dump's active thread, its top frame `cuModuleLoadData (libcuda.so.590.48.01)` where every "
        "scheduler hangs, a stack no pattern reads as a hang",
        "key_line": "first sight: no line quoted (no-failure-seen)",
    },
    "tests/data/blind-round77-excerpts-c/05-vllm-starcoder-bin-weights-gibberish": {
        "verdict": "first sight: no-failure-seen; the tester expects output-corruption: four lines of code-like "
        'noise (`"$GETEventArgs images (as`, `(col-% http=`) for the prompt `def main():`, one script, no '
        "word repeated, no character undecodable",
    },
    "tests/data/blind-round77-excerpts-c/06-vllm-gptoss-eagle3-b200-perf-drop": {
        "verdict": "first sight: healthy (a failed run called healthy); the tester expects "
        "performance-regression or inconclusive: one `vllm bench serve` result, every request successful, "
        "no baseline, no gate: the drop is stated only in the thread's prose",
        "key_line": "first sight: healthy, its summary quoting `Successful requests:`, not the throughput the "
        "tester keys",
    },
    "tests/data/blind-round77-excerpts-c/07-vllm-int2-kv-gsm8k-wrong-answers": {
        "verdict": "first sight: no-failure-seen; the tester expects accuracy-regression: a reviewer's prose "
        "(`the 6 % aggregate accuracy`) over GSM8K answers marked wrong (`(GT = 18, got **0.75** ❌)`)",
    },
    # Round 78 (session 28), first sight on ae456d42: 29/48 acceptable, 41/48 quoted, none refused,
    # four failed runs called healthy (excerpts-b 05, excerpts-c 04 and 05; bundles-1 02 where healthy is
    # acceptable), one confidently wrong (excerpts-d 02: a runner's full disk called model-load-failure
    # at 0.65). Fixed since: a full disk whose file is no model's, a cause no family fits said as such with
    # its own remedy, a perplexity from 300, a release named by a Markdown heading over lm-eval's tables,
    # `acc` as an accuracy, a gate's threshold inside `regression > 5% detected`, `dropped by`, k6's
    # threshold marks, box-drawn status cells, a phrase that loops.
    "tests/data/blind-round78-bundles-1/02-k8s-decode-oomkilled-then-recovered": {
        "verdict": "first sight: healthy (acceptable) whose summary names the survived outage's first 502, not "
        "`kubectl describe`'s `Reason:       OOMKilled` the tester keys",
    },
    "tests/data/blind-round78-bundles-2/03-vllm-ascend-mooncake-force-freed-late-pull": {
        "key_line": "first sight: kv-expired (the verdict expected), its summary naming the freed and late "
        "requests by their kind, not the `Force freed request:` line the tester keys",
    },
    "tests/data/blind-round78-bundles-2/08-vllm-nixl-1p2d-slow-decode-node": {
        "key_line": "first sight: straggler-node (the verdict expected), its summary naming the node's metrics, "
        "not its dmesg's `limited by 8.0 GT/s PCIe x8 link` the tester keys (a node file's kernel lines are "
        "not read for what differs on it)",
    },
    "tests/data/blind-round78-excerpts-a/01-mindie-multimodal-warmup-oom": {
        "verdict": "first sight: inconclusive quoting it; the tester expects gpu-oom: MindIE's `Warmup failed, "
        "because of multimodal model inference out of memory`, an out-of-memory no device names",
    },
    "tests/data/blind-round78-excerpts-b/01-dynamo-keda-scale-to-zero-frontend": {
        "verdict": "first sight: no-failure-seen; the tester expects router-no-workers: Dynamo's discovery "
        "`Generate endpoint instance removed, removing worker` (WARN) as its workers scaled to zero",
    },
    "tests/data/blind-round78-excerpts-b/02-smg-grpc-worker-never-registered": {
        "verdict": "first sight: inconclusive (acceptable) quoting the JSON's first line, not the gateway's "
        "`No worker available for model` message below it the tester keys",
    },
    "tests/data/blind-round78-excerpts-b/05-sglang-healthcheck-deepgemm-jit": {
        "verdict": "first sight: healthy (a failed run called healthy); the tester expects inconclusive: a "
        "health check that failed (`Health check failed. Server couldn't get a response from detokenizer`), "
        "then a request answered 200, read as a blip the server answered past",
    },
    "tests/data/blind-round78-excerpts-b/06-vllm-omni-orchestrator-mooncake-params": {
        "verdict": "first sight: no-failure-seen; the tester expects inconclusive: `[Orchestrator][PD] Missing "
        "prefill kv_transfer_params.remote_request_id`, no error word",
    },
    "tests/data/blind-round78-excerpts-b/07-smg-mooncake-prefill-restart-stale-engine-id": {
        "verdict": "first sight: no-failure-seen; the tester expects inconclusive: fragments quoted inline "
        "(`503 no_available_workers`, `... engine_id_known=true`), no log record among them",
    },
    "tests/data/blind-round78-excerpts-c/06-lmdeploy-v100-awq-garbled-json": {
        "verdict": "first sight: no-failure-seen; the tester expects output-corruption: a JSON answer of word "
        "pieces from four scripts (`周恩 prostitu prostitu言えば`), every byte decoded, no word ten times in a row",
    },
    # Round 79 (session 28), first sight on 64a7155c: 38/49 acceptable, 42/49 quoted, none refused,
    # three failed runs called healthy (excerpts-b 03 and 06, excerpts-c 08), none confidently wrong.
    # Fixed since: Windows's wording of EADDRINUSE (`Only one usage of each socket address`), a
    # microsecond as a latency's unit.
    "tests/data/blind-round79-excerpts-a/04-ollama-runner-killed-host-ram": {
        "verdict": "first sight: inconclusive (acceptable) quoting the client's `EOF`, not ollama's offload line "
        "that needs 68.3 GiB of a host with 59.1 GiB free",
        "key_line": "first sight: the client's EOF quoted, not the memory figures the tester keys",
    },
    "tests/data/blind-round79-excerpts-b/03-vllm-ascend-prefill-hang-no-preemption": {
        "verdict": "first sight: healthy (a failed run called healthy); the tester expects inconclusive: a prefill "
        "whose engine stats show KV at 84.6 % and nothing running or waiting beside `Delaying free of 181 "
        "blocks`, a stall no series reads",
    },
    "tests/data/blind-round79-excerpts-c/01-tinychat-p100-garbled-output": {
        "key_line": "first sight: no line quoted (no-failure-seen)",
    },
    "tests/data/blind-round79-excerpts-c/02-autoround-qwen3-mxfp4-accuracy-drop": {
        "verdict": "first sight: no-failure-seen; the tester expects accuracy-regression: an accuracy table whose "
        "`Ratio` column (0.9165) is the quantised model's share of its baseline's, a column no reader knows",
    },
    "tests/data/blind-round79-excerpts-c/04-llamacpp-backend-integration-p40-compare": {
        "verdict": "first sight: no-failure-seen (acceptable) whose summary names no line the tester keys: "
        "compare-llama-bench's rows without their header (cut by the paste), speedups 0.99 to 1.03",
    },
    "tests/data/blind-round79-excerpts-c/06-lmeval-wikitext-perplexity-jump": {
        "verdict": "first sight: no-failure-seen; the tester expects inconclusive: wikitext's `word_perplexity` "
        "8.79 in lm-eval's JSON, then 13.0065 in its table, two shapes no pair reads",
    },
    "tests/data/blind-round79-excerpts-c/08-rocm-triton-mxfp4-decode-gemm-regression": {
        "verdict": "first sight: healthy (a failed run called healthy); the tester expects performance-regression: "
        "a table of releases whose `vs 3.6` column writes a slower kernel as `-63%` (its `us/call` rose from "
        "82.28 to 134.55): the change column read by its measure's way says faster",
    },
    "tests/data/blind-round79-excerpts-d/08-llm-d-pd-nightly-cks-passed": {
        "verdict": "first sight: no-failure-seen (acceptable) whose summary names no line the tester keys: a bot's "
        "`| Result | :white_check_mark: **Passed** |` row, an emoji's shortcode no pattern reads",
    },
    # Round 80 (session 28), first sight on 99574ac8: 36/44 acceptable, 39/44 quoted, none refused, one
    # failed run called healthy (bundles-2 07), none confidently wrong; its testers' search ran out after
    # a dozen look-ups, and its results set ended after two cases. Fixed since: an exception behind its
    # report's label (`reason: AssertionError: ...`), a native backtrace's frames, a table cell that
    # points at its value's regression (`**16.80** ← regression`).
    "tests/data/blind-round80-bundles-2/07-vllm-nixl-kv-transfer-backlog": {
        "key_line": "first sight: healthy, quoting its last serving line, not the `KV Transfer metrics` line",
    },
    "tests/data/blind-round80-excerpts-b/01-ray-cgraph-semaphore-crash-first-request": {
        "verdict": "first sight: inconclusive (acceptable) quoting Ray's `An unexpected system state has "
        "occurred`, not the `Check failed` line the tester keys",
    },
    "tests/data/blind-round80-excerpts-b/08-vllm-ray-driver-node-no-gpu": {
        "verdict": "first sight: no-failure-seen; the tester expects inconclusive: vLLM's `Ray does not allocate "
        "any GPUs on the driver node.`, its exception's type left out of the paste, no error word",
    },
    "tests/data/blind-round80-excerpts-d/08-omni-hunyuan3-dit-passed": {
        "key_line": "first sight: no line quoted (no-failure-seen)",
    },
    # Round 81 (session 29), first sight on de2db59f: 40/50 acceptable, 44/50 quoted, none refused, two
    # failed runs called healthy (excerpts-c 06, excerpts-d 02), none confidently wrong. Fixed since: a GPU
    # state `nvidia-smi -q` reports (`Reset Required : Yes`; clocks held down), a runner's failed
    # container hook, a measure named by its unit of time (`median_audio_ttfp_ms`), warnings that a
    # check or a load failed (`not healthy!`, `Error loading config file`), a vLLM decode waiting on its
    # KV with room, transfers standing in every line of a short excerpt, untimed answers before a cancel.
    "tests/data/blind-round81-bundles-2/01-vllm-nixl-1p1d-sweep-green": {
        "key_line": "first sight: healthy (the verdict expected), quoting its benchmark's result, not uvicorn's "
        "`Application startup complete.` the tester keys",
    },
    "tests/data/blind-round81-bundles-2/07-vllm-nixl-decode-pool-pinned-preempting": {
        "key_line": "first sight: decode-saturated (the verdict expected), quoting its waiting queue's peak, not "
        "an engine line with `Preemptions: 12` the tester keys",
    },
    "tests/data/blind-round81-excerpts-c/04-sglang-fused-shared-expert-weights-dropped": {
        "verdict": "first sight: no-failure-seen; the tester expects output-corruption: a lone loader line, "
        "`Parameter ...shared_expert.down_proj.weight not found while loading`, with no level word (loaders "
        "print it for weights they skip on purpose too)",
    },
    # Round 82 (session 29), first sight on 1b6498a2 (bundles-2 on 245fa775): 39/45 acceptable, 39/45
    # quoted, none refused, no failed run called healthy, none confidently wrong. Fixed since: a release
    # with a build's suffix in a table of legs (its way from its values' unit), a value glued to its unit
    # of time, an emphasised value beside its cross, Jenkins's interrupt of a step, the OOM killer's line
    # cut or typed again, a printed answer drawn from a handful of tokens.
    "tests/data/blind-round82-bundles-2/09-nixl-decode-kv-pool-pinned-preempting": {
        "key_line": "first sight: decode-saturated (the verdict expected), quoting its waiting queue's peak, not "
        "the engine line with `Preemptions: 17` the tester keys (now the line of the most preemptions)",
    },
    "tests/data/blind-round82-excerpts-c/05-ik-llama-tg-drop-after-pr518": {
        "verdict": "first sight: no-failure-seen; the tester expects performance-regression: a branch's table "
        "(`S_TG t/s` 5.43) over `vs previous test on main:` (4.32), main the slower one, the drop only in the "
        "thread's prose: main reads as the baseline, the branch as better",
    },
    "tests/data/blind-round82-excerpts-d/08-llmd-router-e2e-epp-metrics-flake": {
        "key_line": "first sight: inconclusive (the verdict expected) quoting Ginkgo's `[FAILED] Timed out after "
        "180.003s.`, not the error's own `expected metric ... not found` the tester keys",
    },
    # Round 83 (session 29), first sight on 8e28a98a (bundles on a9615c41): 33/43 acceptable, 38/43
    # quoted, none refused, one failed run called healthy (bundles-2 07), none confidently wrong. Fixed
    # since: a start-up's time and a column in seconds as latencies, the Actions runner's low-disk
    # warning, a release in a table's second column after its date, a queue up from its ramp to the
    # run's end as what the client waited on.
    "tests/data/blind-round83-excerpts-a/06-nvshmem-uid-bootstrap-ifname": {
        "verdict": "first sight: no-failure-seen (acceptable) whose summary names no line the tester keys: "
        "NVSHMEM's bootstrap told to use an `eth0` the host lacks, its lines no error word",
    },
    "tests/data/blind-round83-excerpts-c/02-brevitas-rotation-ppl-regression": {
        "verdict": "first sight: no-failure-seen; the tester expects accuracy-regression: `commit: <sha>, float: "
        "18.625, quant: **222208.000**` lines, newest to oldest, against 278.000 before the refactor",
    },
    "tests/data/blind-round83-excerpts-c/03-llamacpp-rocm-ppl-explosion": {
        "verdict": "first sight: no-failure-seen; the tester expects output-corruption: a table of builds "
        "(`build-vulkan` 18.33, `build-rocm` 3921.18) whose values are perplexities only the command below "
        "it names",
    },
    "tests/data/blind-round83-excerpts-c/05-lightllm-slow-tokenizer-throughput": {
        "verdict": "first sight: no-failure-seen; the tester expects inconclusive: `Throughput: 3.60 requests/s` "
        "against a published 10.59 the thread states in prose",
    },
    # Round 84 (session 29), first sight on 8ed44075 (bundles-1 on e05da80e, bundles-2 on cf1b7584):
    # 33/47 acceptable, 41/47 quoted, none refused, no failed run called healthy, two confidently wrong
    # (bundles-1 03 and 09). Fixed since: XLA's and MLC's words for device memory, FastChat's
    # controller with no worker, a value beside its allowance, wikitext's perplexity by name, a killed
    # life whose peers failed while it was down, a peer that came back after one burst.
    "tests/data/blind-round84-bundles-2/05-nixl-decode-roce-link-flap": {
        "verdict": "first sight: peer-lost at 0.41; the tester expects rdma-link-failure: NIXL's "
        "`NIXL_ERR_REMOTE_DISCONNECT` on the decode with `dmesg -T`'s `Link down` on another clock (CST)",
    },
    "tests/data/blind-round84-excerpts-c/01-exllamav3-offload-speed-no-slowdown": {
        "verdict": "first sight: no-failure-seen (acceptable) whose summary names no line the tester keys: "
        "exllamav3's context table (`Context 0: S=1 12.39 tokens/s`)",
        "key_line": "first sight: no line quoted (no-failure-seen)",
    },
    "tests/data/blind-round84-excerpts-c/02-llamacpp-bad-q8-quant-perplexity": {
        "verdict": "first sight: no-failure-seen; the tester expects accuracy-regression: a table of uploads "
        "by date whose perplexities (`15.3851 +/- 0.13562` against 6.96) only the thread names",
    },
    "tests/data/blind-round84-excerpts-c/06-autoawq-qwen-int4-perplexity-fix": {
        "verdict": "first sight: no-failure-seen; the tester expects accuracy-regression: bullets of "
        "perplexities (`- FP16: 8.672`, `- Main INT4 (...): 10.224`) under a sentence that names them",
    },
    "tests/data/blind-round84-excerpts-c/08-tt-xla-nightly-llama-tp-perf-drop": {
        "verdict": "first sight: no-failure-seen; the tester expects performance-regression: a quoted "
        "`| Sample per second: 22.35...` against 23.24 stated in prose, a drop of 3.8 %",
    },
    # Round 85 (session 29), bundles only (the testers' search budget was spent), first sight on
    # b0f3d1ce: 14/16 acceptable, 14/16 quoted, none refused, no failed run called healthy, none
    # confidently wrong. Fixed since: a port that flapped is no blip when transfers failed while it
    # was down, vLLM's NIXL read that raised (`NIXL_ERR_REMOTE_DISCONNECT`) a transfer failure.
    "tests/data/blind-round85-bundles-1/08-decode-oom-skewed-clock": {
        "verdict": "first sight: scheduler-runtime-crash at 0.73 (acceptable) quoting the prefill's `KVSender "
        "transfer encountered an error`, not the decode's CUDA OOM the tester keys: the decode's clock runs "
        "7 min 41 s ahead and no line pairs the two files' clocks",
        "key_line": "first sight: the prefill's crash quoted, not the decode's `torch.OutOfMemoryError`",
    },
    "tests/data/blind-round85-bundles-2/06-nixl-decode-preempting": {
        "key_line": "first sight: decode-saturated (the verdict expected), quoting its queue's peak and its most "
        "preemptions, not the lines the tester keys (`Preemptions: 6, GPU KV cache usage: 97.2%`)",
    },
    # Round 86 (session 29), bundles only, first sight on 6731caa9: 10/11 acceptable, 11/11 quoted, none
    # refused, no failed run called healthy, none confidently wrong.
    # Round 87 (session 30), at first sight: excerpts-a 8/9, excerpts-b 6/7, excerpts-c 4/8, excerpts-d 6/6,
    # bundles-1 9/9 (on f703d157), bundles-2 6/9 (on 214055ac): 39/48 acceptable, 43/48 quoted, none
    # refused, no failed run called healthy, none confidently wrong. Fixed since: a socket in use in
    # tritonserver's words, llama.cpp's timings pasted twice compared in order, the results a paste
    # states named when nothing judged them, vllm-ascend's aisbench verification, a bootstrap name
    # that does not resolve, a pytest failure's lines between its gates in a server's log.
    "tests/data/blind-round87-excerpts-b/06-sglang-cp-hicache-retract-livelock": {
        "verdict": "first sight: no-failure-seen; the tester expects decode-saturated: one sglang retraction "
        "line cut by the poster's `...` (`KV cache pool is full. Retract requests. #retracted_reqs: 1`), "
        "which alone says the pool filled once, not that the decode stayed saturated",
    },
    "tests/data/blind-round87-bundles-2/01-llmd-decode-imagepull-epp-no-decode": {
        "verdict": "first sight: kv-transfer-timeout at 0.35 (low); the tester expects router-no-workers: "
        "the EPP's 1,334 `failed to find available decode workers` beside kubelet's `ImagePullBackOff`, "
        "read as a router's view of the prefill's three expired-lease lines; now router-no-workers at 0.34 "
        "(the EPP's line read), kv-transfer-timeout a close runner-up (0.29): the events' ages place "
        "neither the failed pulls nor the rollout that stopped the old decodes on the prefill's clock",
    },
    # Round 88 (session 30), at first sight: excerpts-a 8/8, excerpts-b 6/7, excerpts-c 3/10, excerpts-d
    # 6/10, bundles-1 9/9 (on 46920544), bundles-2 7/9 (on 20b17bc0): 39/53 acceptable, 48/53 quoted,
    # none refused, no failed run called healthy, none confidently wrong. Fixed since: a measure too low
    # against its expected bound, release columns with their builds, HTTP 429 and the hub's rate limit,
    # Jenkins losing its agent and a person aborting a build, a table whose every row says PASS,
    # vLLM's model neither a repository nor a directory, TensorRT-LLM's iteration log as work done
    # before a time limit.
    "tests/data/blind-round88-excerpts-b/01-ollama-infinite-context-shift": {
        "verdict": "first sight: no-failure-seen (acceptable) whose summary quotes the line unwrapped from its "
        'JSON record (`slot context shift`), not the record\'s `"msg":"slot context shift"` the tester keys',
        "key_line": "first sight: the JSON record's message quoted, not its raw field",
    },
    "tests/data/blind-round88-excerpts-b/03-lmdeploy-benchmark-hang": {
        "key_line": "first sight: inconclusive (expected) quoting the interrupt, not lmdeploy's session line "
        "(`session 4, pre seq_len 0, cur seq_len 996, diff 996`) the tester keys as the last progress",
    },
    "tests/data/blind-round88-excerpts-c/03-ttxla-gemma-nightly-drop": {
        "key_line": "first sight: performance-regression (expected) quoting the report's heading, not its "
        "`**Diff vs previous nightly**: **-15.44%**` bullet (a change whose measure is named two lines above)",
    },
    "tests/data/blind-round88-excerpts-c/05-tinygrad-llama-metal-bisect": {
        "verdict": "first sight: inconclusive on the reporter's sentence; the tester expects "
        "performance-regression: two commits' times in prose (`before the change gets me ~123ms`, `add the "
        "change gets me ~140ms`)",
    },
    "tests/data/blind-round88-excerpts-c/06-llamafactory-mmlu-wrong-template": {
        "verdict": "first sight: no-failure-seen; the tester expects inconclusive: an MMLU average of 23.68 "
        "(chance for four choices) that only the thread calls wrong, the cause a `--template default` flag",
        "key_line": "first sight: no line quoted (no-failure-seen)",
    },
    "tests/data/blind-round88-excerpts-c/07-lmdeploy-version-throughput-noise": {
        "verdict": "first sight: no-failure-seen (acceptable) naming the first result (260 token/sec), not the "
        "230 the tester keys, both stated in Chinese prose",
    },
    "tests/data/blind-round88-excerpts-d/08-vllm-omni-minicpmo-accuracy-gate": {
        "verdict": "first sight: no-failure-seen; the tester expects accuracy-regression: a failing test's "
        "header and the command it ran, cut before its assertion (the tester notes the paste shows no score)",
    },
    # Round 89 (session 30), at first sight on e8e2d350: excerpts-a 7/10, excerpts-b 3/7, excerpts-c 6/9,
    # excerpts-d 6/6, bundles-1 8/9, bundles-2 9/9: 39/50 acceptable, 45/50 quoted, none refused, one
    # failed run called healthy (excerpts-c 03), none confidently wrong. Fixed since: a change column no
    # measure directs is no evidence a check passed, older kernels' memory-cgroup OOM report, two
    # packages' versions that must match, rows judged against the row named the baseline, llama-bench's
    # pp/tg tests as rates, slurmstepd's own time of a cancel on the servers' clock.
    "tests/data/blind-round89-excerpts-b/01-vllm-mm-cache-eviction-hang": {
        "key_line": "first sight: no line quoted (no-failure-seen); since session 37 inconclusive on the dump's "
        "`MainThread` line, its frames (the tester keys `_process_input_queue`) not quoted",
    },
    "tests/data/blind-round89-excerpts-b/03-sglang-retraction-decode-collapse": {
        "verdict": "first sight: no-failure-seen; the tester expects decode-saturated: ten decode lines, the "
        "pool at 1.00 with 3 queued, then generation throughput falling from 429 to about 30 tokens/s",
    },
    "tests/data/blind-round89-excerpts-b/06-sglang-dp-attention-watchdog-timeout": {
        "verdict": "first sight: scheduler-crash at 0.30 (low); the tester expects inconclusive: a watchdog "
        "timeout whose cause (a Gloo recv after 30 idle minutes) the thread did not settle",
    },
    "tests/data/blind-round89-excerpts-b/07-vllm-worker-died-while-serving": {
        "verdict": "first sight: scheduler-crash at 0.35; the tester expects scheduler-runtime-crash: a worker "
        "died with no line that tells whether the engine was serving",
    },
    "tests/data/blind-round89-excerpts-c/04-ttxla-nightly-diff-vs-previous": {
        "key_line": "first sight: performance-regression (expected) quoting the report's heading, not its "
        "`**Diff vs previous nightly**` bullet (round 88's excerpts-c 03 again)",
    },
    "tests/data/blind-round89-excerpts-c/08-llamacpp-gptoss-ppl-expected": {
        "verdict": "first sight: no-failure-seen (acceptable) naming the command, not the `Final estimate: "
        "PPL = 196.2824` the tester keys (the results read begin at the command line, which states numbers)",
    },
    "tests/data/blind-round89-bundles-1/09-ep16-decode-deepep-dispatch-timeout": {
        "key_line": "first sight: collective-timeout (expected) quoting DeepEP's timeout of another rank, not "
        "the `rank 3` line the tester keys",
    },
    # Round 90 (session 30), at first sight: excerpts-a 9/11, excerpts-b 5/6, excerpts-c 4/10, excerpts-d 12/12
    # (on 03568e6e), bundles-1 8/9, bundles-2 7/8 (on 35e0f420): 45/56 acceptable, 49/56 quoted, none
    # refused, one failed run called healthy (excerpts-c 02), one confidently wrong (bundles-1 03). Fixed
    # since: Gloo's connect refused as a bootstrap unreachable, the hub's gated message wrapped, tt-metal's
    # fatal and its DRAM buffer, criterion's regression; an NFS server not responding is read as an error.
    "tests/data/blind-round90-excerpts-c/01-ollama-gemma4-flash-attn-benchstat": {
        "verdict": "first sight: no-failure-seen; the tester expects performance-regression: benchstat's table "
        "(`token/sec` over `vs base`, `-59.57% (p=0.002 n=6)`), its unit and its change column on two header "
        "lines no reader joins",
    },
    "tests/data/blind-round90-excerpts-c/02-trtllm-int8kv-mmlu-low": {
        "verdict": "first sight: healthy at 0.40 (a failed run called healthy): MMLU's per-subject accuracies "
        "(`Average accuracy 0.274 - chemistry`) near chance for four choices, with no threshold or baseline "
        "printed; a subject's low score alone is no failure, so the run reads as served",
    },
    "tests/data/blind-round90-excerpts-c/03-trtllm-yi6b-sq-per-tensor-zero": {
        "key_line": "first sight: accuracy-regression (expected) quoting another row than the tester's "
        "`| int8_sq_per_tensor | 0.0 |`",
    },
    "tests/data/blind-round90-excerpts-c/04-tgi-gaudi-pr176-prefill-regression": {
        "verdict": "first sight: no-failure-seen; the tester expects performance-regression: only the `with "
        "this PR` table was posted whole, its baseline table cut from the paste",
    },
    "tests/data/blind-round90-excerpts-c/07-r1-distill-lmeval-short-maxlen": {
        "verdict": "first sight: no-failure-seen; the tester expects inconclusive: scores low because the "
        "evaluation's generation length was too short, which only the thread says",
    },
    "tests/data/blind-round90-excerpts-c/09-vllm-dsv4-fhmoe-gsm8k-gate-pass": {
        "key_line": "first sight: healthy (expected) naming another line than the `strict exact match: "
        "**1265/1319 = 0.95906**` bullet the tester keys",
    },
    "tests/data/blind-round90-excerpts-c/10-ik-llama-mtp-aiperf-noise": {
        "verdict": "first sight: no-failure-seen (acceptable) naming the first row, not the `+1.5%` change "
        "the tester keys",
        "key_line": "first sight: the first result row quoted, not the change row the tester keys",
    },
    "tests/data/blind-round90-bundles-2/08-vllm-nixl-maxlen-mismatch-journal": {
        "verdict": "first sight: kv-transfer-timeout at 0.45 (low); the tester expects config-mismatch: the "
        "decode refusing prompts the prefill served (`This model's maximum context length is 8192`), its "
        "--max-model-len below the prefill's 32768",
        "key_line": "since session 50: no key line quoted; the decode's `maximum context length` refusals were "
        "shown only beside the `raise ValueError(` statement above each, which is the traceback's source, no "
        "longer an error line of its own, and the refusals are the client's 400s",
    },
    # Round 91 (session 31), at first sight on 9a2c8558: excerpts-a 6/8, excerpts-b 7/8, excerpts-c 8/9,
    # excerpts-d 9/9, bundles-1 8/8 (bundles-2 below). Fixed since: a paste of a traceback's frames cut
    # at both ends (no header, no exception line) read as the error it is (excerpts-a 04, and round
    # 83's excerpts-d 07), a unified diff's `+` before a results table's rows (excerpts-c 02).
    "tests/data/blind-round91-excerpts-a/02-vllm-lmcache-mp-mamba-align-assert": {
        "verdict": "first sight: inconclusive; the tester expects scheduler-runtime-crash: a bare "
        "`AssertionError: External KV connector is not verified yet` with the path of vLLM's scheduler "
        "(`vllm/v1/core/sched/scheduler.py`) and its source below it, no frame line, no sign of a death",
    },
    "tests/data/blind-round91-excerpts-b/01-sglang-pd-decode-single-request-exhausts-kv": {
        "verdict": "first sight: inconclusive; the tester expects scheduler-runtime-crash: sglang's "
        "`AssertionError: No space left for only one request` with the frame of `retract_decode` pasted "
        "below it, no line that says the scheduler died",
    },
    # Round 92 (session 31), at first sight on 4768a3d0: excerpts-a 9/9, excerpts-b 6/9, excerpts-c 4/9,
    # excerpts-d 8/9, bundles-1 7/8, bundles-2 7/8: 41/52 acceptable, 48/52 quoted, none refused, two
    # failed runs called healthy (excerpts-c 03, bundles-1 02), none confidently wrong. Fixed since: an
    # exception placed by its traceback's frames in an engine's loop or start-up (excerpts-b 04, 08),
    # NCCL's `Cuda failure 2 'out of memory'` (excerpts-b 01), a pasted word salad (excerpts-c 08), a
    # launcher's `exited with code -9` (excerpts-d 09), sglang's bench_serving summary read past its
    # settings' lines (bundles-1 02), a bind failure not survived by serving on (bundles-2 07).
    "tests/data/blind-round92-excerpts-b/02-kaito-lmcache-abort-assert-crashloop": {
        "key_line": "first sight: scheduler-runtime-crash (expected) quoting the engine's fatal error, not the "
        "`assert self.lmcache_engine is not None` of the poster's condensed trace",
    },
    "tests/data/blind-round92-excerpts-c/03-vllm-llama4-pplx-cutlass-fp8-gsm8k": {
        "verdict": "first sight: healthy at 0.40 (a failed run called healthy): lm-eval's gsm8k table alone "
        "(exact_match 0.307 for Llama-4-Scout), no gate and no baseline; low only for the model it names",
    },
    "tests/data/blind-round92-excerpts-c/04-vllm-qwen35-deepgemm-e8m0-blackwell": {
        "verdict": "first sight: no-failure-seen; the tester expects accuracy-regression: two bullets, DeepGEMM "
        "on (`mean accuracy 0.7397`) and off (0.7824), a 5.5 % drop between two settings no label orders",
    },
    "tests/data/blind-round92-excerpts-c/05-vllm-nemotron-nvfp4-trtllm-vs-cutlass-healthy": {
        "verdict": "first sight: no-failure-seen; the tester expects healthy: `TRTLLM: flexible: 0.8597 ; "
        "strict: 0.8446` under a `GSM8K (reasoning off):` heading no results reader takes for a score",
        "key_line": "first sight: no-failure-seen quoting the Delta table's duration, not the GSM8K line",
    },
    "tests/data/blind-round92-bundles-1/05-prefill-oomkilled-orphan-rooms": {
        "other_incidents": "first sight: host-oom (expected), with the orphan requests' WaitingForInput "
        "timeouts 36 minutes before the kill reported as an incident of their own (kv-transfer-timeout); "
        "the tester reads them as the orphans themselves, no transfer problem",
    },
    "tests/data/blind-round92-bundles-2/07-lmcache-pd-second-decoder-port-clash": {
        "key_line": "first sight: inconclusive quoting the thread's `Exception in thread` line; now "
        "bind-failed (expected) quoting the :7300 bind, not the :7400 one the tester keys",
    },
    # Round 93 (session 31), at first sight on be73fb37: excerpts-a 6/10, excerpts-b 6/9, excerpts-c 6/9,
    # excerpts-d 6/6, bundles-1 8/8, bundles-2 7/8: 39/50 acceptable, 43/50 quoted, none refused, two
    # failed runs called healthy (excerpts-b 04, 09), one confidently wrong (bundles-2 05). Fixed since:
    # vLLM 0.2's stats line (excerpts-b 04), faulthandler's dump without the thread's id (excerpts-a 01's
    # verdict), a pasted gdb backtrace (excerpts-a 04), NIXL's engine id mismatch before the engine's
    # death (bundles-2 05).
    "tests/data/blind-round93-excerpts-a/01-sglang-gloo-probe-segfault-startup": {
        "verdict": "first sight: no-failure-seen; the tester expects scheduler-init-crash: faulthandler's dump "
        "pasted with its thread's id and most frames left out; now inconclusive (acceptable) quoting the dump's "
        "header, not the `in_the_same_node_as` frame the tester keys",
    },
    "tests/data/blind-round93-excerpts-a/09-vllm-ascend-pd-fftsplus-timeout-507048": {
        "verdict": "first sight: inconclusive (acceptable) led by torch_npu's `Find exception when "
        "finishedNPUExecutionInternal`, not the `fftsplus timeout` line the tester keys",
        "key_line": "first sight: torch_npu's wrapper quoted, not `rtEventQueryStatus execution failed, "
        "reason=fftsplus timeout`",
    },
    "tests/data/blind-round93-excerpts-b/06-envoy-ai-gateway-60s-sse-eof": {
        "verdict": "first sight: no-failure-seen (acceptable) naming no key line: a client's `read SSE stream: "
        'unexpected EOF` and the route\'s `{"request":"60s"}` timeout from kubectl',
    },
    "tests/data/blind-round93-excerpts-c/07-vllm-dsv4-trtllm-moe-garbage-token": {
        "verdict": "first sight: no-failure-seen; the tester expects output-corruption: a one-token completion "
        "(` böjnings`) in an OpenAI JSON answer, garbage only beside the prompt it answers",
        "key_line": "first sight: no line quoted (no-failure-seen)",
    },
    "tests/data/blind-round93-excerpts-c/08-vllm-ascend-gemma-lmeval-rerun-partial": {
        "key_line": "first sight: no-failure-seen (expected) naming the lines' end, not the `Replaying "
        "aclgraph` line the tester keys",
    },
    "tests/data/blind-round93-excerpts-c/09-vllm-qwen72b-tpot-version-regression": {
        "verdict": "first sight: no-failure-seen; the tester expects performance-regression: a client's "
        "per-request lines under `vLLM 0.4.0.post1:` and `vLLM 0.4.2 latest:` (`other(ms): 40.0` against "
        "47.2), two versions' runs no reader pairs",
    },
    # Round 94 (session 31), at first sight on 33fdfdfa: excerpts-a 5/7, excerpts-b 5/6, excerpts-c 4/7,
    # excerpts-d 5/7, bundles-1 6/6, bundles-2 5/6: 30/39 acceptable, 38/39 quoted, none refused, one
    # failed run called healthy (excerpts-c 03), one confidently wrong (bundles-2 05). Fixed since: sglang's
    # unbalanced-memory check at start-up (excerpts-d 01), a gate's FAIL row with its baseline and what it
    # observed (excerpts-c 02), a check's arithmetic against a share of its baseline (excerpts-c 01, now
    # inconclusive), a prefix cache's eviction placed while serving (excerpts-a 01), a side channel's bind
    # failure before its engine's start-up failed (bundles-2 05).
    "tests/data/blind-round94-excerpts-b/01-sglang-hicache-prefetch-tp-deadlock": {
        "key_line": "first sight: inconclusive (expected) quoting the queue's 503, not the py-spy frames "
        "(`can_terminate_prefetch`, `_broadcast_reqs_across_ranks`) where the ranks wait on each other",
    },
    "tests/data/blind-round94-excerpts-b/06-dynamo-frontend-stream-migration": {
        "verdict": "first sight: no-failure-seen; the tester expects inconclusive: Dynamo's frontend warning "
        "`Stream disconnected... recreating stream` (a request moved off a worker that died)",
    },
    "tests/data/blind-round94-excerpts-c/01-vllm-ascend-minimax-nightly-gate": {
        "verdict": "first sight: no-failure-seen; the tester expects performance-regression: vllm-ascend's "
        "`3609.53 < 0.97 * 4435.82 = 4302.74` checks; now inconclusive (acceptable) quoting the first failed "
        "check, another case's (`669.56 < 0.97 * 720.1`), with no measure named",
        "key_line": "first sight: no line quoted; now the other case's check, not the W8A8 one the tester keys",
    },
    "tests/data/blind-round94-excerpts-c/03-trtllm-disagg-lost-requests": {
        "verdict": "first sight: healthy at 0.40 (a failed run called healthy): a benchmark summary with "
        "11959 successful requests; that some were lost is only in the thread (the tester says the lines "
        "alone could be read as healthy)",
    },
    # Round 95 (session 32), at first sight on 404da424: excerpts-a 6/7, excerpts-b 3/5, excerpts-c 3/8,
    # excerpts-d 6/8, bundles-1 5/5, bundles-2 6/6: 29/39 acceptable, 39/39 quoted, none refused, no failed
    # run called healthy, none confidently wrong. Fixed since: torch's `HIP error: an illegal memory
    # access` (excerpts-c 02), a measure's change stated as a signed share (excerpts-c 03), a named
    # evaluation's score stated as zero (excerpts-c 04), a result stated against its limit with a sign
    # (excerpts-c 06), pytest's `E   ` flag behind a paste's indentation (excerpts-d 02), a paste's
    # traceback cut in the serving loop (excerpts-b 04).
    # Earlier rounds' misses fixed with them: an exception at the end of a call chain condensed by hand
    # (round 94's excerpts-a 07), a script's outcome line led by a cross (round 94's excerpts-d 07), a
    # waiting queue that stood beside a cache with room (round 93's excerpts-b 09), a share stated in
    # prose (round 91's excerpts-c 03's key line).
    "tests/data/blind-round95-excerpts-a/03-deepep-nv-peer-mem-ibrc-segfault": {
        "verdict": "first sight: scheduler-crash at 0.30; the tester expects inconclusive: UCX's `Caught signal 11` "
        "and backtrace in NVSHMEM's IBRC proxy thread (`nvshmemt_ibrc_progress`) of a DeepEP test rank, no "
        "engine's process",
    },
    "tests/data/blind-round95-excerpts-b/03-llmd-epp-mtp-parent-key": {
        "verdict": "first sight: inconclusive (acceptable) quoting `Failed to get request key for parent block`, "
        "not the `engine key not found` line under it (the same error, split in two by the paste)",
    },
    "tests/data/blind-round95-excerpts-c/07-inferencex-glm52-mi325x-eval-within-se": {
        "verdict": "first sight: no-failure-seen; the tester expects healthy: a GSM8K table of a baseline and a "
        "candidate within one standard error (`-0.0038 (within`), the eval job's `infrastructure_success: true`",
    },
    # Round 96 (session 32), at first sight on 570fa648: excerpts-a 2/6, excerpts-b 2/5, excerpts-c 7/8,
    # excerpts-d 5/5, bundles-1 5/5, bundles-2 6/6: 27/35 acceptable, 35/35 quoted, none refused, one failed
    # run called healthy (excerpts-b 05), none confidently wrong. Fixed since: a start-of-sequence token in a
    # served answer (excerpts-b 05), an exception line pasted without its process's tag under that process's
    # frames (excerpts-a 02), a bare exception's line quoted with its logger's prefix (excerpts-a 06), a
    # client's `HTTP 500 ValueError: ...` (excerpts-b 03), an access line's path in a reporter's bold
    # (excerpts-c 06).
    "tests/data/blind-round96-excerpts-a/03-mooncake-rdma-hip-multiprotocol": {
        "verdict": "first sight: peer-lost at 0.40; the tester expects inconclusive: sglang's `it might be dead` "
        "under Mooncake's `hip_transport.cpp:660] Unsupported memory type` (its glog level cut by the paste)",
    },
    "tests/data/blind-round96-excerpts-b/01-vllm-tt-client-timeout-aborts": {
        "verdict": "first sight: no-failure-seen (acceptable) naming no key line: vLLM V0's stats lines generating "
        "at 73 tokens/s, then `Aborted request` ten minutes after each was added (the client's timeout)",
    },
    # Round 97 (session 32), at first sight on 76adc2b9: excerpts-a 6/7, excerpts-b 3/6, excerpts-c 5/8,
    # excerpts-d 5/6, bundles-1 5/5, bundles-2 5/6: 29/38 acceptable, 35/38 quoted, none refused, no failed
    # run called healthy, one confidently wrong (excerpts-c 02: round 95's zero-score pattern read lighteval's
    # `gpqa:0` task name as a score of zero; fixed). Fixed since: a traceback's header behind a container's
    # name (excerpts-a 07), an outcome stated as `Corrupted/degraded output` (excerpts-b 01), an Ascend task
    # that says its `timeout occurred` (excerpts-b 06), a table cell of a value, its limit and a cross
    # (excerpts-c 07), socket's lower-case `gaierror` (bundles-2 03, still inconclusive).
    "tests/data/blind-round97-excerpts-b/02-vllm-bench-client-bottleneck-healthy": {
        "verdict": "first sight: no-failure-seen (acceptable) naming no key line: a table of two clients' tok/s and "
        "TTFT against one server, the row the tester keys (`**50K** | **486** | **44**`) not the first result quoted",
    },
    "tests/data/blind-round97-excerpts-c/04-tt-vllm-bench-sweeps": {
        "verdict": "first sight: no-failure-seen (acceptable) naming no key line: a table of vLLM benchmark sweeps "
        "with no gate, its first row quoted, not the concurrency-32 row the tester keys",
    },
    "tests/data/blind-round97-excerpts-d/05-lmcache-mq-test-port-race": {
        "verdict": "first sight: inconclusive (acceptable) quoting pytest's FAILED line, not the `E  Failed: Some "
        "clients failed: Client 0: timeout` below it (pytest's flag with two blanks, as the paste kept it)",
    },
    "tests/data/blind-round97-bundles-1/02-kv-transfer-backlog-fragmented-decode": {
        "key_line": "first sight: kv-transfer-backlog (expected) quoting the decode's `#transfer-req: 197` batch "
        "line and the transfer throughput's fall as figures, not Mooncake's stats line or the prefill's "
        "`#inflight-req: 195` the tester keys",
    },
    "tests/data/blind-round97-bundles-2/03-dynamo-nixl-sidechannel-pod-hostname": {
        "verdict": "first sight: inconclusive; the tester expects bootstrap-unreachable: the decode's handshake "
        "path names the prefill pod's host name, and the user's `socket.gaierror` for that name is in a "
        "separate debug session (net-debug.txt): no line joins the two",
    },
    # Round 98 (session 32), at first sight on 9eb44744: excerpts-a 4/5, excerpts-b 5/6, excerpts-c 6/8,
    # excerpts-d 5/5, bundles-1 5/5, bundles-2 4/6: 29/35 acceptable, 32/35 quoted, none refused, one failed
    # run called healthy (excerpts-c 07), one confidently wrong (bundles-2 06). Fixed since: a median time to
    # first token of zero (excerpts-c 07), vLLM's dump of the batch a step raised on (excerpts-b 03, also no
    # longer benign), multi-step decoding's frames placed while serving (excerpts-a 03), a NIXL handshake's
    # receive that timed out (bundles-2 06, and round 19's bundles-b 02), CUDA's `Error 802: system not yet
    # initialized` behind vLLM's WorkerProc wrapper (bundles-2 02).
    "tests/data/blind-round98-excerpts-b/05-tgi-sagemaker-incomplete-generation": {
        "key_line": "first sight: inconclusive (expected) quoting TGI's later lines, not the `Incomplete generation` "
        "line with its syslog-escaped colour codes (`#033[0m`) the tester keys",
    },
    "tests/data/blind-round98-excerpts-c/05-dgx-spark-dsv4-slower-after-rebuild": {
        "verdict": "first sight: no-failure-seen; the tester expects performance-regression: a script's per-prompt "
        "rates under `latest version:` and `previous version:` headings (`[LongCode] ... = 69.1 tok/s` against "
        "80.0), headings no side reader takes for a baseline and a candidate",
    },
    # Round 99 (session 32), at first sight on a30c30ac: excerpts-a 5/5, excerpts-b 2/3, excerpts-c 6/8,
    # excerpts-d 5/5, bundles-1 5/6, bundles-2 5/6: 28/33 acceptable, 33/33 quoted, none refused, one failed
    # run called healthy (bundles-1 01), none confidently wrong. Fixed since: an access line pasted from its
    # method on (excerpts-c 05); a kubelet eviction whose message measures a sidecar beside the server is
    # read (bundles-2 03: the eviction is now the rival it names, the verdict still the symptom's).
    "tests/data/blind-round99-excerpts-b/02-tgi-input-validation-client-side": {
        "verdict": "first sight: inconclusive; the tester expects healthy: TGI's `Input validation error: `inputs` "
        "must have less than 1024 tokens` as the client printed it, a request the server refused as it should",
    },
    "tests/data/blind-round99-excerpts-c/01-opencompass-sft-all-zero-scores": {
        "verdict": "first sight: no-failure-seen; the tester expects inconclusive: an OpenCompass summary whose every "
        "dataset scores 0.00 (the answers were not mapped to options), rows no floor judges one by one",
    },
    "tests/data/blind-round99-bundles-2/03-llmd-decode-evicted-ephemeral-storage": {
        "verdict": "first sight: kv-transfer-timeout at 0.45; the tester expects inconclusive: the kubelet's eviction "
        "for ephemeral storage (`Container vllm was using 151604320Ki`) and the prefill's expired KV blocks after it; "
        "the eviction is now read but its verdict (model-load-failure) is rejected, and the symptom's verdict leads",
    },
    # Round 100 (session 32), at first sight on 4d3c6b45: excerpts-a 4/8, excerpts-b 2/7, excerpts-c 7/8,
    # excerpts-d 2/2, bundles-1 5/5, bundles-2 5/6: 25/36 acceptable, 32/36 quoted, none refused, one failed
    # run called healthy (excerpts-b 02), none confidently wrong. Fixed since: a Rust router's `error binding
    # to 0.0.0.0:80` (excerpts-a 01), NCCL's WARN behind a prefix no format reads (excerpts-a 03, and round
    # 96's excerpts-a 04),
    # huggingface_hub's `Repository Not Found for url` without its class (excerpts-a 07), Mooncake's
    # handshake that could not resolve its peer's name (bundles-2 05).
    "tests/data/blind-round100-excerpts-a/02-nccl-bootstrap-picks-loopback": {
        "verdict": "first sight: inconclusive (acceptable) quoting NCCL's `init.cc:370 -> 3` return trail, not its "
        "`Bootstrap: Using lo:127.0.0.1<0>` INFO line or the refused connect to 127.0.0.1 the tester keys",
        "key_line": "first sight: the return trail quoted, not the loopback bootstrap interface",
    },
    "tests/data/blind-round100-excerpts-b/02-lmdeploy-aborted-stream-leak": {
        "verdict": "first sight: healthy at 0.30 (a failed run called healthy): an lmdeploy API server's 200 and "
        "TurboMind's `[Interrupt]` lines, the engine's stall after aborted streams only in the thread",
        "key_line": "first sight: healthy, the 200 quoted, not TurboMind's `[Interrupt] slot = 0, id = 244`",
    },
    "tests/data/blind-round100-excerpts-b/03-lmcache-packed-kv-corruption": {
        "verdict": "first sight: no-failure-seen; the tester expects output-corruption: a repro script's summary "
        "`### lmcache exit=1 ... MATCH: False` beside three `MATCH: True` controls, read as Markdown headings",
    },
    "tests/data/blind-round100-excerpts-b/04-nginx-sse-buffering-in-front": {
        "verdict": "first sight: no-failure-seen; the tester expects inconclusive: a table of TTFT through an nginx "
        "proxy (287 ms) against direct (22 ms) and the proxy's config, no side a header names the baseline",
    },
    "tests/data/blind-round100-excerpts-c/08-omni-nightly-perf-success-rate": {
        "verdict": "first sight: no-failure-seen; the tester expects inconclusive: pytest's failure section header "
        "`____ test_performance_benchmark[...] ____` and the test's source, cut before its assertion (a header "
        "pytest also prints for passed tests' output under -rP: read as context)",
    },
    # Round 101 (session 32), at first sight on 60ba3a0a (five sets; the search tools' budget was spent, so
    # the testers read PR descriptions in the local mirrors): excerpts-a 2/5, excerpts-b 5/6, excerpts-c
    # 4/6, bundles-1 3/4, bundles-2 4/5: 18/26 acceptable, 25/26 quoted, none refused, no failed run called
    # healthy, one confidently wrong (bundles-1 01). Fixed since: a failure to bind a `metadata listener
    # socket` (excerpts-a 02), vllm-ascend's lm-eval gate lines marked `success=✅` (excerpts-c 05).
    "tests/data/blind-round101-excerpts-a/03-mooncake-no-rkey-offload-read": {
        "verdict": "first sight: no-failure-seen; the tester expects inconclusive: Mooncake's `[RDMA] No rkey for MR "
        "access` pasted alone, a line with no error word",
    },
    "tests/data/blind-round101-excerpts-a/04-mooncake-efa-chunk-seam": {
        "verdict": "first sight: no-failure-seen; the tester expects inconclusive: Mooncake's EFA transport's `Cannot "
        "select device for dest_addr` pasted alone, a line with no error word",
    },
    "tests/data/blind-round101-excerpts-b/03-lmdeploy-smem-error-spam": {
        "verdict": "first sight: inconclusive; the tester expects no-failure-seen: TurboMind's `[TM][ERROR] smem_size "
        "= 1024` on every call, a size logged at ERROR by mistake (the thread demoted it)",
    },
    "tests/data/blind-round101-bundles-2/04-compose-prefill-devshm-nccl": {
        "verdict": "first sight: scheduler-init-crash (acceptable) quoting NCCL's `failed to extend /dev/shm/...` WARN "
        "as the likeliest cause, not the `Error while creating shared memory segment` line the tester keys",
    },
    # Round 102 (session 33), first sight on 86858e73: 27/39 acceptable, 34/39 quoted, none refused, two
    # failed runs called healthy (excerpts-b 02, bundles-3 01), none confidently wrong. Fixed since: a
    # region Mooncake cut short (round 101's too), NCCL 2.2x's ibv_modify_qp line, an engine waiting with
    # none running and nothing done, a full engine named in an inconclusive report, a test said passed,
    # a short KV cache warned before an error, clients that gave up at once, a UCX endpoint failure and
    # a reserved token in an answer, a wrapping exception's worker failure.
    "tests/data/blind-round102-excerpts-b/03-kserve-queueproxy-504-long-prediction": {
        "key_line": "first sight: inconclusive (acceptable) quoting the queue-proxy's JSON record as its message "
        "(`ERROR error reverse proxying request; ...: context canceled`), not the raw record the tester keys",
    },
    "tests/data/blind-round102-excerpts-c/02-gsm8k-glm52-mxfp4-fix-healthy": {
        "verdict": "first sight: no-failure-seen; the tester expects healthy: a GSM8K table (96.59% greedy, "
        "96.74% sampling on 1319 questions) stated with no threshold or baseline to judge it against",
    },
    "tests/data/blind-round102-excerpts-d/02-sglang-nvfp4-gsm8k-gate": {
        "verdict": "first sight: inconclusive; the tester expects accuracy-regression: unittest's `AssertionError: "
        "np.float64(0.6377473363774734) not greater than 0.64` names no measure (the thread says GSM8K)",
    },
    # Round 103 (session 33), first sight on 1824b8ea: 31/36 acceptable, 35/36 quoted, none refused, no
    # failed run called healthy, none confidently wrong. Fixed since: Ollama's Gin access lines, a result
    # judged within its limit (a table's candidate, a configuration within 10 %) as a check that passed,
    # UCX's queue pair that could not be connected to its peer (a family's lead).
    "tests/data/blind-round103-excerpts-a/02-nixl-ucx-qp-leak-devx-create-qp": {
        "verdict": "first sight: inconclusive (quoting the line); the tester expects rdma-resource-exhausted: UCX's "
        "`mlx5dv_devx_obj_create(QP) failed on mlx5_8, syndrome 0x19c6d6: Remote I/O error`, QPs leaked by NIXL's "
        "re-handshakes (ai-dynamo/nixl#2025); the firmware's syndrome alone does not say exhaustion",
    },
    "tests/data/blind-round103-excerpts-b/06-tt-concurrent-user-garbage-output": {
        "key_line": "first sight: output-corruption quoting the second user's generation as its reader cut it, not the "
        "printed result dict's `'response': ...` text the tester keys",
    },
    "tests/data/blind-round103-excerpts-c/06-sglang-fp8-vl-mmmu-parity": {
        "key_line": "first sight: no-failure-seen, no line quoted; since this session healthy, quoting the row the "
        "configurations table judged worst (w8a8_fp8, -1.9 %), not the fp8 row the tester keys",
    },
    "tests/data/blind-round61-excerpts-c/03-mtplx-ttft-regression-refuted": {
        "key_line": "since session 33 healthy (the releases table judged within its limit: a check that passed), "
        "quoting the table's judged row, not the maintainer's `No regression on this probe.` the tester keys "
        "(no-failure-seen quoted the paste's last line before)",
    },
    # Round 104 (session 33), first sight on b979b67e: 27/39 acceptable, 35/39 quoted, none refused, two
    # failed runs called healthy (excerpts-b 04: Ollama's 500s in Gin's access lines; bundles-1 03: a
    # benchmark stuck at 1993/2000 after requests were answered), one confidently wrong (excerpts-b 01:
    # decode-saturated for an engine frozen at 0 tokens/s). Fixed since: Gin's 5xx lines, a benchmark
    # that never finished keeps a run from healthy, a frozen engine is a hang before a saturated one,
    # errors after a ^C are the teardown, TensorRT-LLM's rank-crash hard kill, a native `Check failed:`,
    # UCX's `completion[N] with error`, a check's actual value beside its threshold, `0% errors`.
    "tests/data/blind-round104-bundles-1/03-decode-oom-retract-prealloc-hang": {
        "verdict": "first sight: healthy at 0.60 (a failed run called healthy); since then inconclusive (acceptable) "
        "on the benchmark stuck at 1993/2000, not naming the decode's `Decode out of memory happened` the tester keys",
        "key_line": "first sight: no key line quoted (healthy)",
    },
    "tests/data/blind-round104-bundles-2/01-vllm-lmcache-nixl-ucx-tcp-endpoint-timeout": {
        "verdict": "first sight: inconclusive (acceptable) quoting UCX's `send(110) failed` line of the first file "
        "(the decoder's, another endpoint's address), not the copy the tester keys",
    },
    "tests/data/blind-round104-excerpts-c/06-sglang-gemma4-mi300x-bench-accuracy-healthy": {
        "verdict": "first sight: inconclusive on `0% errors` read as an error word; since then no-failure-seen: a "
        "concurrency sweep table and a GSM8K score stated with nothing to judge them against",
    },
    "tests/data/blind-round104-excerpts-e/01-ollama-cpu-only-startup-normal": {
        "verdict": "first sight: healthy at 0.30 on Ollama's `Listening on` (a ready server is serving proof); the "
        "tester expects no-failure-seen: nothing was served",
        "key_line": "first sight: healthy, quoting the `Listening on` line, not the GPU fallback the tester keys",
    },
    "tests/data/blind-round104-excerpts-e/04-lmdeploy-turbomind-bitmask-fatal": {
        "verdict": "first sight: inconclusive; since then scheduler-crash (acceptable) quoting the check without "
        "TurboMind's `[TM][FATAL] ` prefix the tester keys",
    },
    "tests/data/blind-round104-excerpts-c/02-tt-xla-mistral-nemo-samples-per-sec-drop": {
        "key_line": "first sight: performance-regression (right) whose report quotes the stated before and after "
        "as the comparison reads them, not the `Sample per second: 4.8702533196346005` line the tester keys",
    },
    # Round 105 (session 33), first sight on c712ae38: 27/40 acceptable, 37/40 quoted, none refused, no
    # failed run called healthy, one confidently wrong (excerpts-b 04: decode-saturated for an engine whose
    # queue piled up beside a cache at 20 %). Fixed since: an engine crawling beside a piling queue and a
    # cache with room, a queue at its peak beside a pool with room is no saturation, a heading that names
    # a gate's measure, an accuracy check's actual beside its reference, a measure that fell from one value
    # to another in prose, a stated After within its Before's allowance as a check that passed, llama.cpp's
    # slot release, vLLM's Mooncake transfer failure and Mooncake's Ascend connect failure (answers garbled
    # after it are its consequence).
    "tests/data/blind-round105-bundles-2/03-trtllm-ray-disagg-ucx-ib-loopback-hang": {
        "verdict": "first sight: inconclusive; the tester expects rdma-link-failure: UCX's retry-exceeded lines read "
        "as harmless beside a failed pytest outcome (the slices were posted again), a proxy that never answered",
    },
    "tests/data/blind-round105-excerpts-b/03-sglang-decode-pool-pinned": {
        "verdict": "first sight: no-failure-seen; the tester expects decode-saturated: a hybrid model's `full token "
        "usage: 1.00` pinned with 2-3 requests queued, a queue too short to read as one that stood",
    },
    "tests/data/blind-round105-excerpts-b/06-prodstack-router-oomkilled": {
        "verdict": "first sight: inconclusive on `Exit Code: 137`, the OOMKilled last state cleared by the container "
        "ready again; the tester expects host-oom: the restart count (4) says the kill recurs",
    },
    "tests/data/blind-round105-excerpts-c/03-sglang-gemma4-nvfp4-mmlu-before-after": {
        "verdict": "first sight: no-failure-seen; the tester expects healthy: `Before BF16: 0.628` and `After NVFP4: "
        "0.616`, sides whose labels name two precisions, which the comparison does not pair",
    },
    "tests/data/blind-round105-excerpts-d/03-vllm-pp-2node-engine-iteration-timeout": {
        "verdict": (
            "since session 56: scheduler-runtime-crash 0.50 on vLLM V0's `Engine background task failed` (the "
            "engine's loop died while serving); this tester wants inconclusive, as nobody named a cause, while the "
            "testers of rounds 63, 100, 150, 169, 171 and 183 want that line read as a crash while serving"
        ),
    },
    "tests/data/blind-round105-excerpts-d/01-inferencex-slurm-scancel-midload": {
        "verdict": "first sight: inconclusive; the tester expects ci-cancelled: Slurm's `CANCELLED AT` with no "
        "`DUE TO` (a user's scancel), which a run's teardown prints the same way (round 18's healthy bundle)",
    },
    "tests/data/blind-round105-excerpts-e/03-trtllm-triton-unfilled-config": {
        "verdict": "first sight: inconclusive (acceptable) quoting protobuf's parse error as cut at its start, not the "
        "model repository's `Poll failed for model directory` line the tester keys",
    },
    "tests/data/blind-round105-bundles-2/04-vllm-ascend-hccl-link-mooncake-fail-then-garbage": {
        "verdict": "first sight: output-corruption at 0.85 saying no KV-transfer error was logged beside Mooncake's "
        "Ascend connect failures; since then output-corruption at 0.45 (acceptable) naming the connect failure, not "
        "the `Mooncake transfer failed` line the tester keys",
    },
    # Round 106 (session 33), first sight on 635f3f54: 34/43 acceptable, 39/43 quoted, none refused, one
    # failed run called healthy (excerpts-b 02), none confidently wrong. Fixed since: a word of a script
    # written without spaces glued to itself (a looping generation), llama.cpp's listening line, a failed
    # check's own pytest traceback is no other failure.
    "tests/data/blind-round106-excerpts-a/07-ucx-reg-mr-mkey-enomem-dmesg": {
        "verdict": "first sight: inconclusive (acceptable) led by the mlx5 driver's `async reg mr failed. status -12`, "
        "not the `ibv_reg_mr` Cannot allocate memory line the tester keys",
    },
    "tests/data/blind-round106-excerpts-b/01-tgi-overloaded-backpressure": {
        "verdict": "first sight: inconclusive on TGI's `Model is overloaded` refusals; the tester expects healthy: "
        "back-pressure above --max-concurrent-requests, working as intended (the others answered)",
        "key_line": "first sight: no key line quoted",
    },
    "tests/data/blind-round106-excerpts-b/02-vllm-v1-kv-exhausted-preempt-loop": {
        "verdict": "first sight: healthy at 0.30 (a failed run called healthy); the tester expects decode-saturated: "
        "the KV cache pinned at 99.9-100 %, prompt tokens re-prefilled every interval and generation fallen from "
        "240 to about 20 tokens/s with 2-3 waiting, a preemption loop vLLM V1's stats line names no count of",
        "key_line": "first sight: no key line quoted (healthy)",
    },
    "tests/data/blind-round106-excerpts-c/05-npu-vs-gpu-mmmu-evalscope": {
        "verdict": "first sight: no-failure-seen; the tester expects accuracy-regression: evalscope's MMMU `gpu mean "
        "acc 0.64285` against the NPU's 0.54145, two platforms no comparison pairs",
    },
    "tests/data/blind-round106-excerpts-c/08-sglang-gsm8k-nvfp4-healthy": {
        "verdict": "first sight: no-failure-seen; the tester expects healthy: GSM8K `No MTP: 0.960` and `MTP3: "
        "0.969` stated with no threshold, scores no check judged",
    },
    "tests/data/blind-round106-excerpts-d/05-inferencex-kimik3-fp4-gsm8k-zero": {
        "verdict": "first sight: accuracy-regression (acceptable) naming lm-eval's zero row, not the validator's "
        "strict-match line the tester keys",
        "key_line": "first sight: no key line quoted",
    },
    "tests/data/blind-round106-excerpts-e/08-tgi-nccl-watchdog-timeout-driver-545": {
        "key_line": "collective-timeout (right) quoting the JSON record whose message holds the watchdog's line among "
        "the shard's stderr, cut before it (in the blind set's folder the quote reached it: a place-dependent cut)",
    },
    # Round 107 (session 34), first sight on 162ad80f: 32/40 acceptable, 38/40 quoted, none refused, none
    # called healthy on a failed run, one confidently wrong (excerpts-d 04). Fixed since: a check that
    # raised before it compared anything measured nothing, a time limit over a job none of whose lines
    # are given is a cancel, a paced benchmark's cap is no floor of what it sent, lm-eval's filter names
    # after a task's zero score, a list's item is a row of its own (no wrapped part).
    "tests/data/blind-round107-excerpts-b/02-dynamo-disagg-remote-prefill-hang": {
        "verdict": "first sight: no-failure-seen (acceptable) whose summary names none of the lines the tester keys",
    },
    "tests/data/blind-round107-excerpts-c/02-inferencex-dsv4-dynamo-mtp-eval-summary": {
        "verdict": "first sight: no-failure-seen; the tester expects accuracy-regression: GSM8K at 42.91 % in an "
        "eval summary table with no threshold, which only the model's known score (~95 %) judges",
    },
    "tests/data/blind-round107-excerpts-c/04-vllm-ascend-fia-prefill-cache-bench": {
        "key_line": "first sight: inconclusive (30 successful under a cap of 256 read as short); since then healthy "
        "quoting `Successful requests: 30`, not the after run's output throughput the tester keys",
    },
    "tests/data/blind-round107-excerpts-c/08-inferencex-glm5-mori-disagg-gsm8k": {
        "verdict": "first sight: no-failure-seen; the tester expects healthy: GSM8K strict-match 0.9712 stated with "
        "no threshold, a score no check judged",
    },
    # Round 108 (session 34), first sight on 12f42fd7 (the search tools' budget spent: the testers read
    # commits, PR descriptions and docs in repository snapshots): 37/45 acceptable, 45/45 quoted, none
    # refused, three failed runs called healthy (bundles-2 01, excerpts-b 01 and 03), one confidently
    # wrong (excerpts-c 06). Fixed since: a fallback taken again and again is the way a component runs,
    # vLLM's no-KV-connector warning with its last words cut, a UMR queue pair's failure roots the
    # segfault after it, civetweb's failed server ports, an exception restating the line above it,
    # an evaluation's fall in prose with the settings beside its values.
    "tests/data/blind-round108-bundles-2/01-llmd-sidecar-prefill-port-refused": {
        "verdict": "first sight: healthy at 0.60 (a failed run called healthy); the tester expects router-no-workers: "
        "llm-d's sidecar refused by the prefill's port on every request, each answered by the decode alone. Since "
        "then inconclusive on the sidecar's `request failed` lines (a fallback taken every time is no handled blip)",
    },
    "tests/data/blind-round108-excerpts-c/06-flashcomm-small-throughput-cost": {
        "verdict": "first sight: performance-regression at 0.60 (confidently wrong) on rows their author marks "
        "`Regression`; the tester expects healthy: the rows' own changes are -1.6 to -2.2 %, within 10 %. Since "
        "then at 0.40, the summary saying so: the author's word and the row's number disagree",
    },
    # Round 109 (session 34), first sight on 39676437 (the testers read commits and docs in repository
    # snapshots): 33/40 acceptable, 38/40 quoted, none refused, none called healthy on a failed run, one
    # confidently wrong (excerpts-c 04). Fixed since: a crash the words name after its process served is a
    # crash while serving, Triton's ready lines, an offline script's generated text is an answer, AISBench's
    # table as Markdown (round 107's excerpts-c 07 too).
    "tests/data/blind-round109-excerpts-b/07-llmd-sidecar-decode-not-ready-502": {
        "verdict": "first sight: inconclusive on the sidecar's `waiting for vLLM to be ready` connection refusals; "
        "the tester expects router-no-workers (its decode vLLM not yet listening). The message could not be "
        "checked against the sidecar's source here: no pattern was written for it",
    },
    "tests/data/blind-round109-excerpts-c/04-bench-serve-batch-invariant-pass": {
        "verdict": "first sight: performance-regression at 0.60 (confidently wrong): two `vllm bench serve` blocks "
        "compared in order, the torch.compile run printed first and eager second; the tester expects healthy "
        "(the new path is the faster one, 429 against 121 tok/s). A block's caption (`Eager`) names a "
        "configuration, not a before or an after: not yet read as one",
        "key_line": "first sight: no key line quoted (performance-regression)",
    },
    # Round 110 (session 35), first sight on 5947217d (the testers could search again): 30/38 acceptable,
    # 35/38 quoted, none refused, none called healthy on a failed run, one confidently wrong (bundles-2 02).
    # Fixed since: a decode that threw work away all run under the prefill's bootstrap timeouts, vLLM's
    # engine-core traceback without its process prefix, NaN in sglang's sampler, a model download's
    # traceback named by its exception, a container's exit code 137 as a lead, Slurm's refused
    # allocations and a lost Actions runner as cancels, NVSHMEM's and UCX's connect steps as link words,
    # Triton's model that failed to load, a comparison row closest to its limit quoted.
    "tests/data/blind-round110-excerpts-d/04-sglang-gha-runner-lost-communication": {
        "verdict": "first sight and since: inconclusive, the runner's `lost communication with the server` quoted "
        "first; this tester expects ci-cancelled, while rounds 31 and 61's testers put ci-cancelled in "
        "must_not_be for the same line (a lost runner is no cancel: nothing says why it went away). A "
        "pattern naming it ci-cancelled was tried and dropped for them; the labels disagree",
    },
    "tests/data/blind-round110-bundles-2/02-aibrix-stormservice-ucx-gga-rtr-no-device": {
        "verdict": "first sight and since: mr-registration-rejected at 0.80 (confidently wrong to this tester, who "
        "expects rdma-link-failure: the UMR queue pair could not reach RTR on the pod's device). The same thread "
        "(aibrix#1770) is round 110's excerpts-a 02, whose tester labels it mr-registration-rejected; UCX's fix "
        "(openucx/ucx#11780) says register_memory() is what failed: the registration reading is kept",
    },
    # Round 111 (session 35), first sight on c4623126: 30/39 acceptable, 35/39 quoted, none refused, four
    # failed runs called healthy (excerpts-b 03, 04 and 06, excerpts-c 01), none confidently wrong. Fixed
    # since: a finished bar outweighs the arguments echoed (bundles-1 01, a healthy run called
    # inconclusive), sglang's output for a dropped request (excerpts-b 04), a setting's sides without and
    # with it (excerpts-c 07), TGI's launcher's shard crash and failure to start (excerpts-e 05).
    "tests/data/blind-round111-excerpts-b/03-lmdeploy-aborted-streams-stall": {
        "verdict": "first sight and since: healthy at 0.30 (a failed run called healthy): the lines are prompts, "
        "session ids and 200 OKs; the engine's stall after aborted streams is in the thread, not in the lines "
        "(the tester says a tool reading the lines would call it healthy)",
    },
    "tests/data/blind-round111-excerpts-b/05-lmdeploy-awq-v100-garbled": {
        "verdict": "first sight and since: no-failure-seen; the tester expects output-corruption: a chat answer "
        "after ChatML's `<|im_start|>assistant` mixing Chinese with Latin words of several languages and one "
        "Cyrillic word (three writing systems, under the five an answer's soup is read at)",
    },
    "tests/data/blind-round111-excerpts-b/06-production-stack-router-not-forwarding": {
        "verdict": "first sight and since: healthy at 0.30 (a failed run called healthy): the router logs its "
        "routing and a 200; that the backend never received the request is in the thread, not in the lines",
    },
    "tests/data/blind-round111-excerpts-b/07-vllm-worker-rss-growth-cudagraph": {
        "verdict": "first sight and since: no-failure-seen; the tester expects inconclusive (host-oom acceptable): "
        "`ps` rows of a Ray worker's resident memory growing from 5.2 to 6.9 GB over three hours: memory "
        "growth from `ps` output is not read",
    },
    "tests/data/blind-round111-excerpts-c/01-vllm-ascend-lmeval-qwen3moe-tp2dp2-low": {
        "verdict": "first sight and since: healthy at 0.40 (a failed run called healthy): lm-eval's GSM8K at "
        "0.1653 with no threshold, baseline or earlier run beside it; the tester knows the model scores near "
        "0.9. A score judged against nothing is not yet a failure",
    },
    "tests/data/blind-round111-excerpts-c/05-tt-xla-nightly-perf-gate-llama32": {
        "key_line": "first sight and since: performance-regression on the issue's heading; its `Diff vs previous "
        "nightly: -34.64%` and severity lines are not quoted",
    },
    "tests/data/blind-round111-excerpts-c/08-vllm-gptoss-h200-throughput-drop": {
        "key_line": "first sight and since: performance-regression quoting the first pair that fell (concurrency 8, "
        "-13.4 %), not the worst (concurrency 128, -32 %, the key line)",
    },
    # Round 112 (session 35), first sight on d09a8a5d: 30/35 acceptable, 32/35 quoted, none refused, none
    # called healthy on a failed run, one confidently wrong (bundles-2 03). Fixed since: the kernel's
    # CREATE_MKEY `no resources` names why a Mooncake registration failed (bundles-2 03), sglang's nightly
    # score beside its threshold (excerpts-c 04).
    "tests/data/blind-round112-excerpts-a/04-sglang-pd-dsv32-c10d-store-timeout-cri": {
        "verdict": "first sight and since: scheduler-crash at 0.30 (acceptable, but its summary names no key line): "
        "the c10d store's `waitForInput ... timed out after 600000ms` is a warning-level line before a "
        "scheduler exception whose traceback the paste cuts; the families now read its words (a lead when it "
        "leads), but a crash with no exception of its own does not yield to a warning before it",
    },
    "tests/data/blind-round112-excerpts-c/01-aisbench-gpqa-pass": {
        "key_line": "first sight and since: healthy (the verdict), quoting the AISBench row, not the log line the "
        "tester named",
    },
    "tests/data/blind-round112-excerpts-c/05-vllm-bench-serve-comparison-improved": {
        "verdict": "first sight and since: performance-regression at 0.60 on the P99 ITL row 10.76 % worse "
        "(acceptable to the tester, who expects healthy: the PR calls that row noise), its summary naming "
        "no key line",
        "key_line": "first sight: no key line quoted (the comparison table's P99 ITL row leads)",
    },
    "tests/data/blind-round113-excerpts-d/01-sglang-jax-e2e-gsm8k-gate": {
        "key_line": "first sight: accuracy-regression 0.40 (acceptable) quoting the first failed assertion (`0.845 "
        "not greater than 0.85`), not the retry's (`0.85 not greater than 0.85`) the tester keys",
    },
    "tests/data/blind-round113-excerpts-d/04-sglang-jax-e2e-gsm8k-pass": {
        "key_line": "first sight: healthy 0.60 (acceptable) quoting the last answered line, not the job's "
        "`Success. Time elapsed` the tester keys",
    },
    "tests/data/blind-round114-excerpts-c/06-tt-xla-nightly-perf-drop": {
        "key_line": "first sight: performance-regression 0.60 (acceptable), its summary quoting another line of the "
        "bot's report than the one the tester keys",
    },
    "tests/data/blind-round114-excerpts-d/04-nixlbench-asio-shutdown-race-abort": {
        "verdict": "first sight: scheduler-crash 0.45; the tester expects inconclusive: nixlbench's worker aborted "
        "(exit 134) on `ASIO Read head failed: End of file` after printing its result row, a shutdown race",
    },
    "tests/data/blind-round115-bundles-2/01-dynamo-efa-cross-az-nixl": {
        "verdict": "first sight: scheduler-runtime-crash 0.43, the engine dead of NIXL_ERR_BACKEND raised in "
        "add_remote_agent; the tester expects the failed handshake named (rdma-link-failure, "
        "bootstrap-unreachable) or inconclusive",
    },
    "tests/data/blind-round115-excerpts-b/03-lmdeploy-qwen2-garbled-stream": {
        "verdict": "first sight: healthy 0.50 (a failed run called healthy): the garbage is spread over streamed "
        'chunks (`"content":"统领"`, `"郑州"`, `"出して"`), one or two words each, and no reader joins a stream\'s '
        "deltas",
    },
    "tests/data/blind-round115-excerpts-b/04-sglang-pd-gradual-kv-corruption-accuracy": {
        "verdict": "first sight: no-failure-seen; the tester expects output-corruption: GPQA falling from 94-96 % to "
        "46-55 % as more requests were served",
    },
    "tests/data/blind-round115-excerpts-b/05-lmdeploy-qwen3-fp8-garbled-sse": {
        "verdict": 'first sight: healthy 0.40 (a failed run called healthy): one streamed chunk (`" nostalg"` in '
        "answer to 你好), no reader joins a stream's deltas",
    },
    "tests/data/blind-round115-excerpts-c/03-xinference-sglang-srt-throughput-up": {
        "verdict": "first sight: no-failure-seen (acceptable) quoting no key line: the Before/After throughput lines "
        "are read as results, not compared",
        "key_line": "first sight: no-failure-seen (acceptable) quoting no key line: the Before/After throughput lines "
        "are read as results, not compared",
    },
    "tests/data/blind-round115-excerpts-c/04-vllm-mixtral-fp8-gsm8k-degraded": {
        "verdict": "first sight: healthy 0.40 (a failed run called healthy): one lm-eval table, GSM8K 0.2843, with no "
        "threshold or earlier run to judge it against",
    },
    "tests/data/blind-round115-bundles-1/03-mooncake-overlong-prompt-decode-garbage": {
        "key_line": "first sight: healthy 0.60 (a failed run called healthy); since then output-corruption, quoting "
        "the client's garbage answer, not the prefill's `Input length ... exceeds` line the tester keys",
    },
    "tests/data/blind-round115-excerpts-b/02-sglang-pd-decode-transferring-slot-leak": {
        "key_line": "first sight: kv-transfer-backlog 0.55 (acceptable), quoting another decode batch line than the "
        "one the tester keys",
    },
    "tests/data/blind-round116-excerpts-b/01-sglang-multitokenizer-abort-dropped-hang": {
        "verdict": "first sight: healthy 0.40 (a failed run called healthy): requests rejected on queue overflow never"
        " answered, the abort dropped, while /health and new requests kept answering 200; the tester "
        "expects inconclusive",
    },
    "tests/data/blind-round116-excerpts-b/03-sglang-dsv3-silent-stall": {
        "verdict": "first sight: healthy 0.40 (a failed run called healthy): the log stops after a 200 and a prefill "
        "batch of 99 running requests, no error; the tester expects inconclusive",
    },
    "tests/data/blind-round116-excerpts-b/05-sglang-dsv3-runaway-output-kv-full-retract": {
        "verdict": "first sight: no-failure-seen; the tester expects decode-saturated: two runaway requests fill the "
        "KV cache (usage 1.00), every rank retracts, 11 tokens/s",
    },
    "tests/data/blind-round116-excerpts-c/03-lmdeploy-turbomind-refactor-opencompass-pass": {
        "verdict": "first sight: no-failure-seen; the tester expects healthy: an OpenCompass score table with normal "
        "scores, read as results judged against nothing",
    },
    "tests/data/blind-round116-excerpts-c/04-llamacpp-perplexity-bad-q8-quant": {
        "verdict": "first sight: no-failure-seen; the tester expects accuracy-regression: one Q8_0 file's perplexity "
        "15.39 beside two others' 6.96, rows of a table the tool does not pair",
    },
    "tests/data/blind-round116-excerpts-c/06-ttxla-nightly-llama8b-perf-p0": {
        "key_line": "first sight: performance-regression 0.60 (acceptable), its summary quoting another line of the "
        "bot's report than the one the tester keys",
    },
    "tests/data/blind-round117-excerpts-c/06-sglang-gsm8k-eval-unification-gate": {
        "verdict": "first sight: no-failure-seen; the tester expects accuracy-regression: a PR's prose listing nightly"
        " GSM8K gates missed (0.905-0.925 against 0.93), no harness line",
    },
    # Round 118 (session 37), at first sight on b11ee1e9: excerpts-a 4/5, excerpts-b 5/6, excerpts-c 4/8,
    # excerpts-d 5/6, excerpts-e 5/6, bundles-1 3/3, bundles-2 1/2: 27/36 acceptable, 33/36 quoted, none
    # refused, no failed run called healthy, none confidently wrong. Fixed since: a harness's failed test
    # tears its servers down (a SIGTERM death after it is no crash: excerpts-b 06, round 95's excerpts-d
    # 08), Ray's release comparison's THROUGHPUT names its measure (excerpts-c 03), a results table without
    # its outer pipes (excerpts-c 02) and its PASS rows (excerpts-c 06), an untimed line above the timed
    # lines of the same error is the earlier (excerpts-a 02), a py-spy dump's innermost frame in the
    # summary (excerpts-d 04), TGI's router warmup error and transformers' `can yield errors` (excerpts-e
    # 01), a probe's timeout, a container's `Reason: Error` and the kubelet's probe kill are no cause of a
    # gateway with no ready backend (bundles-2 02).
    "tests/data/blind-round118-excerpts-c/04-sglang-jax-evalscope-mmlu-pro-pass": {
        "key_line": "first sight: healthy 0.40 (acceptable), quoting another row of evalscope's table than the "
        "one the tester keys",
    },
    "tests/data/blind-round118-excerpts-c/07-vllm-kimi-k3-gsm8k-pass": {
        "verdict": "first sight: no-failure-seen; the tester expects healthy: a GSM8K table of 0.96 in a PR and "
        "`No requests failed or retried`, read as results judged against nothing",
    },
    # Round 119 (session 37), at first sight on 8402fa98: excerpts-a 5/8, excerpts-b 3/5, excerpts-c 5/7,
    # excerpts-d 6/6, excerpts-e 6/6, bundles-1 3/4, bundles-2 2/2: 30/38 acceptable, 35/38 quoted, none
    # refused, one failed run called healthy (excerpts-b 02), one confidently wrong (bundles-1 04).
    # Fixed since: a custom all-reduce's CUDACHECK exit and sglang's `Init nccl begin.` as start-up
    # (excerpts-a 01), an op a CUDA graph capture cannot hold (excerpts-a 05), Triton's `Signal (11)
    # received.` and vLLM V0's stats line as serving (excerpts-a 07), a prefill that answered on after
    # the decode called it down is no lost peer (bundles-1 04).
    "tests/data/blind-round119-bundles-1/04-first-request-dp-rank-false-prefill-down": {
        "key_line": "first sight: peer-lost 0.55 (confidently wrong); since then inconclusive, its summary "
        "cutting the decode's line before the words the tester keys",
    },
    "tests/data/blind-round119-excerpts-b/02-glm51-queue-piling-200s": {
        "verdict": "first sight: healthy 0.30 (a failed run called healthy): two prefill batch lines with 238 "
        "requests queued and 595,000 tokens pending while every request answers 200; the tester expects "
        "inconclusive (the thread names no cause)",
    },
    "tests/data/blind-round119-excerpts-b/03-dspark-gibberish-one-stream": {
        "verdict": "first sight: no-failure-seen; the tester expects output-corruption, which only the thread "
        "says (the decode batch lines pasted look normal)",
    },
    "tests/data/blind-round119-excerpts-c/03-llamacpp-rocm-ppl-explosion": {
        "verdict": "first sight: no-failure-seen; the tester expects output-corruption: a table of perplexities "
        "(3921 and 14468 on ROCm beside 18 and 37 on Vulkan) under a header that does not name perplexity",
    },
    "tests/data/blind-round119-excerpts-c/04-vllm-bench-serve-moe-swapab-pass": {
        "key_line": "first sight: healthy 0.50 (acceptable), quoting another line of the bench summaries than "
        "the one the tester keys",
    },
    "tests/data/blind-round119-excerpts-c/06-sglang-cookbook-dsv4-conc16-slower": {
        "verdict": "first sight: no-failure-seen; the tester expects performance-regression: a diff's `-` and `+`"
        " lines of benchmark numbers (tokens/s per GPU 3665 to 2385), a before/after shape not read",
        "key_line": "first sight: no line quoted (no-failure-seen)",
    },
    # Round 120 (session 37), at first sight on 982ab9a7: excerpts-a 6/6, excerpts-b 3/5, excerpts-c 4/6,
    # excerpts-d 6/6, excerpts-e 4/5, bundles-1 4/5, bundles-2 0/3: 27/36 acceptable, 33/36 quoted, none
    # refused, two failed runs called healthy (excerpts-b 03, excerpts-c 02), two confidently wrong
    # (bundles-2 01, excerpts-e 01). Fixed since: three in ten GSM8K answers unreadable is garbage, a Before
    # side's failure being the baseline's (excerpts-c 02), a Triton model whose backend raised a TypeError is
    # no model-load failure (excerpts-e 01), HCCL's links not established (bundles-2 01), a FailedScheduling
    # the cluster autoscaler answers (bundles-2 03), every request cancelled one after another (excerpts-b 05).
    "tests/data/blind-round120-bundles-1/02-prefill-oom-decode-stuck-dp-attention": {
        "other_incidents": "first sight: gpu-oom (the verdict expected) with the decode's gloo all-gather timing "
        "out two hours later as an incident of its own; the tester reads it as the OOM's consequence",
    },
    "tests/data/blind-round120-bundles-1/03-prefill-unreachable-decode-abort-crash": {
        "verdict": "first sight: bootstrap-unreachable 0.60 (acceptable), its summary quoting the decode's first "
        "`Error fetching prefill parallel info` line, not the gave-up line or the schedulers' AttributeError",
    },
    "tests/data/blind-round120-bundles-2/02-ascend-1node-pd-hccl-linktype-unsupported": {
        "verdict": "first sight: inconclusive (acceptable) quoting vLLM's `Mooncake transfer failed` (its second) "
        "before the decode's plog, whose HCCL `linkType 1 is not supported` is the same second with milliseconds",
    },
    "tests/data/blind-round120-excerpts-e/04-triton-vllm-two-containers-no-cache-blocks": {
        "verdict": "first sight: gpu-oom 0.55 (the verdict expected), model-load-failure close behind at 0.50 (a "
        "verdict it must not be): Triton's `failed to load` beside vLLM's `No available memory for the cache blocks`",
    },
    "tests/data/blind-round120-excerpts-b/03-vllm-qwen2vl-premature-eos-200": {
        "verdict": "first sight: healthy 0.50 (a failed run called healthy): streams ending after a few words with "
        "`finish_reason: stop`, every request 200; only the thread says the answers were cut short",
        "key_line": "first sight: healthy, no key line quoted",
    },
    "tests/data/blind-round120-excerpts-c/06-vllm-ascend-rope-curl-and-bench": {
        "key_line": "first sight: healthy 0.60 (acceptable), quoting another line of the bench summaries than "
        "the one the tester keys",
    },
    "tests/data/blind-round120-excerpts-c/03-ik-llama-sweep-bench-tg-drop": {
        "verdict": "first sight: no-failure-seen; the tester expects performance-regression: two llama-sweep-bench "
        "tables, the second (`vs previous test on main:`) the baseline, 4.32 t/s against 5.43",
    },
    # Round 121 (session 37), at first sight on 1b86d635: excerpts-a 7/7, excerpts-b 5/6, excerpts-c 5/6,
    # excerpts-d 4/6, excerpts-e 7/8, bundles-1 3/3, bundles-2 3/3: 34/39 acceptable, 36/39 quoted, none
    # refused, no failed run called healthy, none confidently wrong. Fixed since: a step GitHub Actions
    # stopped at its timeout-minutes (excerpts-d 02), a V1-protocol prediction answer (excerpts-e 07).
    "tests/data/blind-round121-excerpts-b/04-tgi-sagemaker-incomplete-generation": {
        "key_line": "first sight: inconclusive (the verdict expected) quoting another line than the ones the "
        "tester keys",
    },
    "tests/data/blind-round121-excerpts-b/05-sglang-token-usage-200ok-deadlock": {
        "verdict": "first sight: no-failure-seen; the tester expects inconclusive: 200s while KV token usage sits "
        "at 0.96, a deadlock only the reporter's words describe",
    },
    "tests/data/blind-round121-excerpts-c/05-ascend-bench-tpot-compare-pass": {
        "verdict": "first sight: no-failure-seen; the tester expects healthy: a benchmark under `**In 0.9.2rc1**` "
        "and again under `**Apply this PR**`, every measure better, headings no comparison reads",
    },
    "tests/data/blind-round121-excerpts-d/06-sglang-nightly-mistral-large3-nvfp4-gsm8k-gate": {
        "verdict": "first sight: inconclusive (acceptable), its summary quoting `OVERALL: SOME TESTS FAILED`, not the "
        "NVFP4 model's `Score: 0.875` under its `Accuracy: FAIL`",
    },
    "tests/data/blind-round121-excerpts-e/07-kserve-hf-runtime-healthy": {
        "key_line": 'first sight: no-failure-seen; since then healthy on the curl\'s `{"predictions":["paris"]}`, '
        "not the uvicorn line the tester keys",
    },
    # Round 122 (session 37), at first sight on e8659d3c: excerpts-a 7/7, excerpts-b 3/6, excerpts-c 6/6,
    # excerpts-d 4/6, excerpts-e 3/6, bundles-1 4/4, bundles-2 3/3: 30/38 acceptable, 37/38 quoted, none
    # refused, two failed runs called healthy (excerpts-b 03, 04), none confidently wrong. Fixed since:
    # vLLM V0's `Background loop has errored already` (excerpts-b 05), a server stopped while uvicorn
    # waited for open requests (excerpts-b 04; round 79's excerpts-b 06 with it).
    "tests/data/blind-round122-excerpts-a/07-deepep-timeout-check-megatron": {
        "key_line": "first sight: collective-timeout 0.50 (the verdict expected), quoting another of DeepEP's "
        "timeout lines than the ones the tester keys",
    },
    "tests/data/blind-round122-excerpts-b/03-vllm-longrope-concurrent-random-tokens": {
        "verdict": "first sight: healthy 0.50 (a failed run called healthy): every request 200 with normal stats; "
        "the random tokens past LongRoPE's 4K switch are only in the thread",
    },
    "tests/data/blind-round122-excerpts-d/01-nixl-cpp-ucx-worker-no-such-device": {
        "verdict": "first sight: scheduler-crash 0.45; the tester expects inconclusive: a NIXL C++ test aborted "
        "(exit 134) on UCX's `Failed to create UCX worker: No such device`, no engine's scheduler",
    },
    "tests/data/blind-round122-excerpts-d/06-lmcache-amd-buildkite-repro-pass": {
        "verdict": "first sight: inconclusive; the tester expects healthy: two 200s and LMCache's stored and "
        "retrieved tokens, the failure words only inside the repro's grep commands",
    },
    "tests/data/blind-round122-excerpts-e/03-production-stack-gke-lmcache-healthy": {
        "verdict": "first sight: no-failure-seen; the tester expects healthy: pods Ready and a request processed "
        "through the router, lines no pattern reads as an answer",
    },
    "tests/data/blind-round122-excerpts-e/05-vllm-ascend-multinode-c10d-store-timeout": {
        "verdict": "first sight: no-failure-seen; the tester expects collective-timeout: every rank's c10d "
        "`waitForInput ... timed out after 1800000ms` at warning level",
    },
    # Round 123 (session 38), at first sight on 3d797c0f: excerpts-a 4/5, excerpts-b 3/5, excerpts-c 5/5,
    # excerpts-d 2/3, excerpts-e 5/6, bundles-1 2/4, bundles-2 3/3: 24/31 acceptable, 28/31 quoted, none
    # refused, one failed run called healthy (excerpts-b 01), none confidently wrong. Fixed since: a KV pool
    # full on average with a queue in every line (excerpts-b 01), a bootstrap fetch failing after the
    # decode had lost that prefill (bundles-1 02), a request's own wait in clock pairing and a long line's
    # quote keeping what its pattern matched (bundles-1 04), errno 99 on a bind (excerpts-e 02), a C++
    # what() text continued on the next line (excerpts-a 03), TGI's request timings (excerpts-b 02).
    "tests/data/blind-round123-excerpts-d/02-nixl-ci-non-gpu-branch-passing": {
        "verdict": "first sight: inconclusive; the tester expects no-failure-seen: NIXL's createXferReq errors "
        "from an example's retry loop, then `test result: ok. 96 passed; 0 failed`",
    },
    # Round 124 (session 38), at first sight on ba3ef3f9: excerpts-a 6/6, excerpts-b 2/6, excerpts-c 3/6,
    # excerpts-d 6/6, excerpts-e 5/5, bundles-1 5/5, bundles-2 2/3: 28/37 acceptable, 33/37 quoted, none
    # refused, two failed runs called healthy (excerpts-b 01, excerpts-c 04), none confidently wrong. Fixed
    # since: a side named alone on its line or a Markdown heading naming itself the baseline, beside a
    # heading over the same measures, and a command's digits no measure (excerpts-c 04); Mooncake's RDMA
    # device events and vLLM V0's decode recomputing a KV it did not receive (bundles-2 03).
    "tests/data/blind-round124-excerpts-a/04-triton-trtllm-ipc-peer-access": {
        "key_line": "first sight: inconclusive (the verdict expected) quoting TensorRT-LLM's `peer access is not "
        "supported` cut one character before the tester's key line ends",
    },
    "tests/data/blind-round124-excerpts-a/05-aiter-jit-pybind11-abi": {
        "key_line": "first sight: inconclusive (the verdict expected) quoting aiter's `failed jit build` banner, not "
        "the AttributeError inside the build's output",
    },
    "tests/data/blind-round124-excerpts-b/01-sglang-health-generate-200-scheduler-dead": {
        "verdict": "first sight: healthy 0.50 (a failed run called healthy): three /health_generate 200s, proof of a "
        "served token by sglang's handler; only the thread says they were false positives after a crash",
    },
    "tests/data/blind-round124-excerpts-b/02-sglang-health-generate-probe-crash": {
        "verdict": "first sight: inconclusive (acceptable) quoting the traceback's first line, not the `Abort "
        "request` the tester keys",
    },
    "tests/data/blind-round124-excerpts-b/04-vllm-enginecore-exit-server-shutdown": {
        "verdict": "first sight: no-failure-seen; the tester expects inconclusive: vLLM's `EngineCore exiting.` at "
        "DEBUG, a request added after it, then the launcher's `Shutting down FastAPI HTTP server.`",
    },
    "tests/data/blind-round124-excerpts-b/05-vllm-v0-auto-restart-shutdown": {
        "verdict": "first sight: no-failure-seen; the tester expects inconclusive: vLLM V0's launcher shutting the "
        "server down, lines a user's stop prints too",
    },
    "tests/data/blind-round124-excerpts-c/01-ascend-pd-kv-recv-change-column": {
        "verdict": "first sight: inconclusive; the tester expects healthy: a wrapped sentence's second line "
        "(`done signal, request loss, or address conflict errors.`) read as an error, its `found no` above",
    },
    "tests/data/blind-round124-excerpts-c/03-lmcache-s3-long-doc-qa": {
        "verdict": "first sight: no-failure-seen; the tester expects healthy: LMCache's long_doc_qa rounds with and "
        "without it, a TTFT 2.372 s to 1.579 s, shapes no comparison reads",
    },
    "tests/data/blind-round124-excerpts-c/06-trtllm-smoothquant-humaneval": {
        "verdict": "first sight: no-failure-seen; the tester expects accuracy-regression: a sentence saying a "
        "HumanEval score of 4.87 `is not within expectations`, beside 30.48 for FP16",
    },
    # Round 125 (session 38), at first sight on ba262087: excerpts-a 5/5, excerpts-b 3/6, excerpts-c 2/6,
    # excerpts-d 5/6, excerpts-e 7/7, bundles-1 3/3, bundles-2 1/2: 26/35 acceptable, 32/35 quoted, none
    # refused, four failed runs called healthy (bundles-2 02, excerpts-b 01, 03, 05), one confidently
    # wrong (excerpts-c 06). Excerpts-c 02 repeats round 80's excerpts-c 01 thread (its URL was missing
    # from the used list). Fixed since: an `Improvement` column holding plain changes (excerpts-c 06), a
    # cell marked regressed read by its column's header (excerpts-c 02, round 80's excerpts-c 01),
    # Mooncake's batch registration warning (bundles-2 02), LMCache's failed KV store (excerpts-b 01).
    "tests/data/blind-round125-excerpts-b/03-lmdeploy-turbomind-long-prompt-garbage": {
        "verdict": "first sight: healthy 0.30 (a failed run called healthy): a response of escaped newline runs "
        "pasted as text, read as no answer at all; the 200s show serving",
        "key_line": "first sight: healthy, no key line quoted",
    },
    "tests/data/blind-round125-excerpts-b/05-vllm-mtp-two-clients-decode-stall": {
        "verdict": "first sight: healthy 0.30 (a failed run called healthy): one stats line of 0.9 tokens/s with two "
        "requests running and none waiting, the next line 20.4: too short a series to call a stall",
    },
    "tests/data/blind-round125-excerpts-c/01-lmdeploy-pytorch-tp-gsm8k-opencompass": {
        "verdict": "first sight: no-failure-seen; the tester expects accuracy-regression: one OpenCompass row of "
        "5.31 on gsm8k, no threshold or baseline beside it, only the maintainer's words",
    },
    "tests/data/blind-round125-excerpts-c/05-tpu-inference-inferencex-sweep-before-after": {
        "verdict": "first sight: no-failure-seen (acceptable) quoting no key line: a sweep table whose Delta column "
        "is read as results judged against nothing",
    },
    "tests/data/blind-round125-excerpts-d/02-vllm-buildkite-async-sched-ray-valueerror": {
        "key_line": "first sight: inconclusive (the verdict expected) quoting another line of the ValueError's "
        "traceback than the one the tester keys",
    },
    "tests/data/blind-round125-excerpts-d/03-vllm-amd-ci-ray-dp-no-hip-gpus": {
        "verdict": "first sight: inconclusive (acceptable) quoting Ray's `Exception raised in creation task` "
        "wrapper, not the `RuntimeError: No HIP GPUs are available` below it",
    },
    # Round 126 (session 38), at first sight on 071837aa: excerpts-a 5/6, excerpts-b 4/5, excerpts-c 3/6,
    # excerpts-d 3/6, excerpts-e 7/7, bundles-1 3/3, bundles-2 1/1: 26/34 acceptable, 33/34 quoted, none
    # refused, no failed run called healthy, one confidently wrong (excerpts-c 01). Fixed since: a share
    # followed by its own measure is that measure's, an After with a note of its own beside its Before
    # (excerpts-c 01), vLLM's dumped scheduler output (excerpts-a 01), an error between answers named by
    # its words (excerpts-b 02), Jenkins' build timeout (excerpts-d 01), a correctness test's share
    # (excerpts-d 02). The runner that lost communication (excerpts-d 05) stays inconclusive: rounds 31
    # and 61's testers forbid ci-cancelled for the same line, which says the workflow may have caused it.
    "tests/data/blind-round126-excerpts-c/01-sglang-jax-mtp-before-after": {
        "verdict": "first sight: performance-regression 0.60 (confidently wrong): the TPOT before `(+5.5% "
        "throughput)` read as its share; since then no-failure-seen, the pair compared within its limit; the "
        "tester expects healthy",
    },
    "tests/data/blind-round126-excerpts-c/03-vllm-internvl3-accuracy-vs-lmdeploy": {
        "verdict": "first sight: no-failure-seen; the tester expects accuracy-regression: one engine's 95 % beside "
        "another's 75 % in prose, no pair the comparison reads",
    },
    "tests/data/blind-round126-excerpts-c/04-sglang-jax-ttft-not-reproduced": {
        "verdict": "first sight: no-failure-seen; the tester expects performance-regression: a re-run's median TTFT "
        "256.72 ms against a PR's claimed 106.42 ms, in prose",
    },
    "tests/data/blind-round126-excerpts-d/04-gha-sglang-epd-disagg-test-passing": {
        "key_line": "first sight: healthy (the verdict expected) quoting another line of the passing run than the "
        "ones the tester keys",
    },
    "tests/data/blind-round126-excerpts-d/05-gha-self-hosted-runner-lost-communication": {
        "verdict": "first sight: inconclusive, the runner's `lost communication with the server` quoted first; "
        "this tester expects ci-cancelled, rounds 31 and 61's forbid it for the same line",
    },
    # Round 127 (session 38), at first sight on 9abc4353: excerpts-a 5/7, excerpts-b 4/5, excerpts-c 5/6,
    # excerpts-d 4/4, excerpts-e 6/7, bundles-1 3/4, bundles-2 1/1: 28/34 acceptable, 34/34 quoted, none
    # refused, two failed runs called healthy (bundles-1 04, excerpts-c 05), none confidently wrong.
    # Fixed since: a JIT kernel that did not build, by its words (excerpts-a 04).
    "tests/data/blind-round127-bundles-1/04-dsv4-mooncake-state-pool-not-sent": {
        "verdict": "first sight: healthy 0.60 (a failed run called healthy): every request 200 and no error; the "
        "probe's `#### 84` against the `#### 18` a non-disaggregated server gives is in the thread, not judged",
    },
    "tests/data/blind-round127-excerpts-a/05-vllm-ascend-hccl-transport-init": {
        "verdict": "first sight: scheduler-crash 0.35; the tester expects inconclusive: HCCL's `EI0009 Transport "
        "init error` under a failed collective_rpc, read as a crash of unknown phase",
    },
    "tests/data/blind-round127-excerpts-b/03-sglang-pd-decode-recursive-grammar-crash": {
        "verdict": "first sight: scheduler-crash 0.35 (acceptable), its summary quoting the exception line without "
        "its `[time DP7 TP7]` prefix the tester's key line holds; the paste is newest line first",
    },
    "tests/data/blind-round127-excerpts-c/05-lmdeploy-pytorch-engine-vs-turbomind-throughput": {
        "verdict": "first sight: healthy 0.40 (a failed run called healthy): two engines' throughput summaries "
        "under `# Turbomind` and `# PyTorch Engine`, headings no side word names",
    },
    "tests/data/blind-round127-excerpts-e/05-kserve-pvc-storage-initializer": {
        "verdict": "first sight: inconclusive (acceptable) quoting another line of the storage initializer's "
        "traceback than the one the tester keys",
    },
    # Round 128 (session 38), at first sight on 34fbc2da: excerpts-a 6/7, excerpts-b 3/6, excerpts-c 5/6,
    # excerpts-d 5/5, excerpts-e 3/5, bundles-1 2/2, bundles-2 2/3: 26/34 acceptable, 33/34 quoted, none
    # refused, two failed runs called healthy (excerpts-b 01, 02), one confidently wrong (bundles-2 02).
    # Fixed since: a start-up line after a life that served begins a new life (bundles-2 02).
    "tests/data/blind-round128-excerpts-a/05-triton-disagg-bls-orchestrator-mode": {
        "verdict": "first sight: inconclusive (acceptable) quoting another line than the engines' rejection of "
        "context-only requests the tester keys",
    },
    "tests/data/blind-round128-excerpts-b/01-lmdeploy-empty-answers-200": {
        "verdict": "first sight: healthy 0.50 (a failed run called healthy): 200s with empty answers and "
        '`finish_reason: "length"`, a session filled by one client\'s history',
    },
    "tests/data/blind-round128-excerpts-b/02-vllm-int8kv-prefix-corrupt-at-full-pool": {
        "verdict": "first sight: healthy 0.60 (a failed run called healthy): every request 200 with the pool at "
        "100 %; the corruption is in the reporter's A/B table",
    },
    "tests/data/blind-round128-excerpts-c/05-llama-perplexity-falcon-tq1-garbage": {
        "verdict": "first sight: no-failure-seen; the tester expects output-corruption: a perplexity near 1e13 "
        "from llama-perplexity's chunk lines, no final estimate",
    },
    "tests/data/blind-round128-excerpts-e/01-lmdeploy-windows-tp2-nccl-backend": {
        "verdict": "first sight: scheduler-crash 0.40; the tester expects inconclusive: TurboMind's `[TM][FATAL] "
        "Unknown communication backend: nccl` on Windows",
    },
    "tests/data/blind-round128-excerpts-e/04-triton-vllm-backend-zombie-health-ok": {
        "verdict": "first sight: no-failure-seen; the tester expects inconclusive: a `<defunct>` backend process "
        "beside /v2/health answering 200",
        "key_line": "first sight: no-failure-seen, no key line quoted",
    },
    # Round 129 (session 39), at first sight on 430a194b: excerpts-a 6/6, excerpts-b 3/5, excerpts-c 5/7,
    # excerpts-d 3/5, excerpts-e 5/6, bundles-1 2/4, bundles-2 3/3: 26/36 acceptable, 32/36 quoted, none
    # refused, two failed runs called healthy (excerpts-b 05, excerpts-c 06), none confidently wrong.
    # Fixed since: a speculative algorithm on one side only is a config mismatch (bundles-1 01); a test
    # script's `TEST FAIL` and `check pass: False` are failed gates (excerpts-c 05); UCX's backtrace is read
    # and TensorRT-LLM's batch manager loop says serving (excerpts-e 01); pytest's PASSED lines and Ray
    # Serve's `status: HEALTHY` show serving (excerpts-d 05, excerpts-e 06).
    "tests/data/blind-round129-bundles-1/03-mooncake-legacy-rpc-port-tp8": {
        "verdict": "first sight: inconclusive; the tester expects bind-failed: the handshake port's bind refused "
        "at start-up reads as survived (the server came up), and the client's timeout has no time",
    },
    "tests/data/blind-round129-excerpts-b/04-vllm-ascend-pd-1m-decode-never-got-request": {
        "verdict": "first sight: kv-expired 0.35; the tester expects kv-transfer-timeout: KV force-freed that no "
        "decode ever asked for (the catalogue's kv-expired line, read against it)",
    },
    "tests/data/blind-round129-excerpts-b/05-ollama-empty-200-husk-responses": {
        "verdict": "first sight: healthy 0.50 (a failed run called healthy): Ollama's answers fall from ~40 s to "
        "~1 ms, empty, all 200",
        "key_line": "since the Anthropic route is read: healthy, quoting the last answer, not the first instant one",
    },
    "tests/data/blind-round129-excerpts-c/04-vllm-ascend-mix-placement-small-drop": {
        "key_line": "first sight: healthy, quoting the compared bench lines, not the AIME row or the throughput "
        "the tester keys",
    },
    "tests/data/blind-round129-excerpts-c/06-sglang-llama4-fp4-gsm8k-too-low": {
        "verdict": "first sight: healthy 0.40 (a failed run called healthy): GSM8K 0.884 judged `too low` only "
        "in the author's sentence below it",
    },
    "tests/data/blind-round129-excerpts-d/04-trl-gha-pytest-segfault": {
        "verdict": "first sight: scheduler-crash 0.30; the tester expects inconclusive: pytest's own process "
        "segfaulted in accelerate's get_max_memory, no server in the lines",
    },
    "tests/data/blind-round129-excerpts-d/05-trl-vllm-client-server-tests-pass": {
        "key_line": "first sight: no-failure-seen, no key line quoted; since pytest's PASSED lines are read: "
        "healthy, quoting the last passed test, not test_generate",
    },
    # Round 130 (session 39), at first sight on 0f5a4793: excerpts-a 5/5, excerpts-b 3/5, excerpts-c 2/6,
    # excerpts-d 5/6, excerpts-e 5/6, bundles-1 4/4, bundles-2 3/3: 27/35 acceptable, 28/35 quoted, none
    # refused, three failed runs called healthy (excerpts-b 01, 02, excerpts-c 06), none confidently wrong.
    # Fixed since: AISBench's `Success Requests` row is an end-to-end result (excerpts-c 01); a failed test
    # whose own lines state why (a resolver's `Name or service not known`) names that line, and the
    # runner's echo of a step's script is no error line (excerpts-d 01); Triton's `Triton Error [CUDA]:
    # out of memory` is a GPU OOM and a traceback read past a paste's `...` (excerpts-e 04).
    "tests/data/blind-round130-excerpts-b/01-sglang-dp-running-pinned-below-max": {
        "verdict": "first sight: healthy 0.40 (a failed run called healthy): every DP rank at 15 running with "
        "one waiting and the pool at 11 %; the cap (16) is in the thread, not the lines",
    },
    "tests/data/blind-round130-excerpts-b/02-sglang-batch-full-latched-chunked-prefill": {
        "verdict": "first sight: healthy 0.40 (a failed run called healthy): 3 running, 1 waiting, the pool "
        "at 6 %; the cap (4) is in the thread, not the lines",
        "key_line": "first sight: healthy, quoting the last answered request, not the decode line",
    },
    "tests/data/blind-round130-excerpts-b/03-vllm-v0-stuck-pending-under-kv-pressure": {
        "key_line": "first sight: inconclusive (acceptable) quoting the engine's stall, not the stats line keyed",
    },
    "tests/data/blind-round130-excerpts-b/05-sglang-pd-decode-prealloc-starved": {
        "key_line": "first sight: decode-saturated (acceptable) quoting another decode line than the one keyed",
    },
    "tests/data/blind-round130-excerpts-c/01-aisbench-perf-drafter-dp-sp-ok": {
        "key_line": "first sight: no-failure-seen; since AISBench's result row is read: healthy, quoting the "
        "`Success Requests` row, not the `Post | Received | Failed` line keyed",
    },
    "tests/data/blind-round130-excerpts-c/02-dflash-acceptance-parity-ok": {
        "verdict": "first sight: no-failure-seen (acceptable) quoting the first result line, not the acceptance "
        "length keyed",
        "key_line": "first sight: no-failure-seen, quoting the first result line, not the acceptance length",
    },
    "tests/data/blind-round130-excerpts-c/04-b200-gsm8k-gate-flaky-fail": {
        "verdict": "first sight: inconclusive (acceptable) led by the PR's sentence on flaky failures, not the "
        "table's failing row",
        "key_line": "first sight: inconclusive, led by the PR's sentence on flaky failures, not the table's row",
    },
    "tests/data/blind-round130-excerpts-c/06-omni-daily-accuracy-gate-headroom": {
        "verdict": "first sight: healthy 0.40 (a failed run called healthy): 77.86 % judged against the gate "
        "the PR lowers it to (0.77), not the 0.78 its nightly failed",
    },
    # Round 131 (session 39), at first sight on 6f96aedc: excerpts-a 5/6, excerpts-b 3/4, excerpts-c 3/6,
    # excerpts-d 6/6, excerpts-e 6/6, bundles-1 2/3, bundles-2 2/2: 27/33 acceptable, 31/33 quoted, none
    # refused, one failed run called healthy (excerpts-b 03), none confidently wrong.
    # Fixed since: a crash in the serving loop after the server began its own warmup request, with no result
    # or ready line between, was before ready (bundles-1 03); a C program's `bind(...) failed: Cannot assign
    # requested address` names bind-failed (excerpts-a 02); a report that says it sees a performance drop is
    # a failed check (excerpts-c 05, 06).
    "tests/data/blind-round131-excerpts-b/03-vllm-stream-request-hang-200": {
        "verdict": "first sight: healthy 0.30 (a failed run called healthy): a streamed request's 200 (logged as "
        "its stream starts) and no `Finished request` after it, health checks answering",
    },
    "tests/data/blind-round131-excerpts-c/05-ttxla-nightly-perf-drop": {
        "key_line": "first sight: no-failure-seen, no key line quoted; since a drop said in words is read: "
        "performance-regression, quoting that sentence, not the daily values keyed",
    },
    "tests/data/blind-round131-excerpts-c/06-ttmetal-ttft-prefill-regression": {
        "key_line": "first sight: no-failure-seen, no key line quoted; since a drop said in words is read: "
        "performance-regression, quoting that sentence, not the two TTFT lines keyed",
    },
    "tests/data/blind-round131-excerpts-c/04-ascend-mteb-gte-gate-fail": {
        "verdict": "first sight: inconclusive (acceptable) led by another line than the embedding scores the "
        "tester keys",
    },
    # Round 132 (session 39), at first sight on 7825d601: excerpts-a 5/6, excerpts-b 1/6, excerpts-c 2/6,
    # excerpts-d 4/7, excerpts-e 5/7, bundles-1 3/3, bundles-2 3/3: 23/38 acceptable, 33/38 quoted, none
    # refused, three failed runs called healthy (excerpts-b 01, 02, excerpts-c 02), two confidently wrong
    # (excerpts-c 03, excerpts-d 01). Fixed since: a loop crash in a log that shows the server's start and no
    # ready line, served request or batch before it was before ready (excerpts-d 01). Fixed in session 40: a
    # stated regression measured after and met (excerpts-c 03), a FAIL cell's column header (excerpts-c 01),
    # exit status 124 under `timeout` (excerpts-d 02), torch_npu's `dispatch timeout` warning (excerpts-b 05).
    "tests/data/blind-round132-excerpts-a/02-uccl-nic-down-rdma-ctx-check": {
        "verdict": "first sight: inconclusive 0.00: the tester expects rdma-link-failure: UCCL's fatal `Check "
        "failed: rdma_ctx_map_.find(...)` for a NIC that was down, the NIC's state in the thread",
    },
    "tests/data/blind-round132-excerpts-b/01-glm45-npu-repeated-phrases": {
        "verdict": "first sight: healthy 0.40 (a failed run called healthy): the repeated phrases are in the "
        "thread, the lines show 200s and normal stats",
    },
    "tests/data/blind-round132-excerpts-b/02-medgemma-newline-loop": {
        "verdict": "first sight: healthy 0.30 (a failed run called healthy): a request decoding newlines to "
        "max_tokens at a steady rate: the lines show one long request, not its text",
    },
    "tests/data/blind-round132-excerpts-b/03-sglang-stops-valid-response": {
        "verdict": "first sight: no-failure-seen 0.50: the tester expects inconclusive: output stops being valid "
        "after hours, the decode lines normal",
    },
    "tests/data/blind-round132-excerpts-b/06-trtllm-dsv3-int4-garbage-words": {
        "verdict": "first sight: no-failure-seen 0.50: the garbage is in the thread; the lines are a clean start-up",
        "key_line": "first sight: no-failure-seen, no key line quoted",
    },
    "tests/data/blind-round132-excerpts-c/02-rmlx-bf16-longctx-decode-regressed": {
        "verdict": "first sight: healthy 0.40 (a failed run called healthy): a bench table's change column (-22.2 "
        "%, -14.3 %) under `now vs 0.2.5`",
        "key_line": "first sight: healthy, no key line quoted",
    },
    "tests/data/blind-round132-excerpts-c/06-vllm-ascend-mlapo-before-after-improved": {
        "verdict": "first sight: no-failure-seen 0.50: the tester expects healthy: a before/after table, labelled "
        "in Chinese, everything improved",
    },
    "tests/data/blind-round132-excerpts-d/07-amd-runner-lost-communication": {
        "verdict": "first sight: inconclusive 0.00: the tester expects ci-cancelled: a runner that `lost "
        "communication with the server` (testers disagree on it across rounds)",
    },
    "tests/data/blind-round132-excerpts-e/05-gpustack-ray-enginecore-actor-died": {
        "verdict": "first sight: host-oom 0.35: the tester expects scheduler-init-crash: Ray's actor-died message "
        "names the OOM killer among possible causes",
    },
    "tests/data/blind-round132-excerpts-e/06-gpustack-windows-rpc-server-restart-loop": {
        "verdict": "first sight: no-failure-seen 0.50: the tester expects inconclusive: a worker's RPC server exits "
        "every 20 s with no reason printed",
    },
    # Round 133 (session 40), at first sight on 0a402d6b: bundles-1 4/4, bundles-2 2/3, excerpts-a 6/6,
    # excerpts-b 4/6, excerpts-c 6/6, excerpts-d 5/7, excerpts-e 5/6: 32/38 acceptable, 38/38 quoted, none
    # refused, one failed run called healthy (excerpts-b 06), two confidently wrong (excerpts-d 01, 02).
    # Fixed since: a test file's folders (`tests/e2e/...`) and a check that gave up looking (`Failed to
    # find ... after 100 iterations (500ms)`) name no measure (excerpts-d 01, 02); hccn_tool's `link status:
    # DOWN` (bundles-2 01); torch_npu's inner error (excerpts-b 04); ggml's assert (excerpts-e 05's key line).
    "tests/data/blind-round133-excerpts-b/06-vllm-glm-fp8-weird-output-all-200": {
        "verdict": "first sight: healthy 0.30 (a failed run called healthy): three 200 OK lines; the weird output "
        "is only in the thread",
    },
    # Round 134 (session 40), at first sight on fcd251b6: bundles-1 3/4, bundles-2 2/2, excerpts-a 4/6,
    # excerpts-b 4/6, excerpts-c 4/6, excerpts-d 6/6, excerpts-e 6/6: 29/36 acceptable, 32/36 quoted, none
    # refused, three failed runs called healthy (bundles-1 04, excerpts-b 01, 02), one confidently wrong
    # (excerpts-c 03). Fixed since: a comparison's subject is what it measured (excerpts-c 03: an acceptance
    # length beside an accuracy); a registration that ran out of memory (excerpts-a 01).
    "tests/data/blind-round134-bundles-1/04-pp8-prefill-bootstrap-queue-ttft-floor": {
        "verdict": "first sight: healthy 0.95 (a failed run called healthy): the bootstrap queue stands at the "
        "concurrency with no gate; the tool notes the backlog but no gate failed on it",
        "key_line": "first sight: healthy, quoting the ready line, not the queue or the TTFT",
    },
    "tests/data/blind-round134-excerpts-a/04-nixl-example-segv-use-cuda": {
        "verdict": "first sight: scheduler-crash 0.30: the tester expects inconclusive: a NIXL example script's "
        "SIGSEGV inside UCX, no server",
    },
    "tests/data/blind-round134-excerpts-b/01-vllm-ascend-dsv4pro-reasoning-truncated-200": {
        "verdict": "first sight: healthy 0.40 (a failed run called healthy): a 200 whose answer is null and whose "
        "reasoning breaks off mid-word",
        "key_line": "first sight: healthy, no key line quoted",
    },
    "tests/data/blind-round134-excerpts-b/02-vllm-dsv4flash-think-until-cap-concurrency": {
        "verdict": "first sight: healthy 0.40 (a failed run called healthy): the requests run to max_tokens are "
        "counted in the reporter's prose",
        "key_line": "first sight: healthy, no key line quoted",
    },
    "tests/data/blind-round134-excerpts-c/05-tt-aiperf-sweep-table-pass": {
        "verdict": "first sight: no-failure-seen 0.50 (acceptable), its summary quoting no line of the sweep table",
    },
    # Round 135 (session 40), at first sight on d4b318c6: bundles-1 4/4, bundles-2 1/1, excerpts-a 4/6,
    # excerpts-b 1/3, excerpts-c 4/5, excerpts-d 6/6, excerpts-e 5/5: 25/30 acceptable, 28/30 quoted, none
    # refused, one failed run called healthy (excerpts-b 03), none confidently wrong. Fixed since: a warning
    # whose words a failure family names (excerpts-a 06: UCCL's CQE error at WARN); c10d's `has failed to
    # bind to [::]:98` (excerpts-a 05); an accuracy gate that failed beside a latency gate is named (excerpts-c 04).
    "tests/data/blind-round135-excerpts-b/01-sglang-no-token-admission-deadlock": {
        "verdict": "first sight: no-failure-seen 0.50 (acceptable), its summary quoting no line of the request "
        "retried as NO_TOKEN",
    },
    "tests/data/blind-round135-excerpts-b/03-vllm-ascend-dp-imbalance-200ok": {
        "verdict": "first sight: healthy 0.40 (a failed run called healthy): one DP engine's stats line shows "
        "three times its peers' running requests; the hang is in the thread",
    },
    "tests/data/blind-round135-excerpts-d/04-lmcache-ci-sm120-probe-pass": {
        "key_line": "first sight: healthy (expected), quoting a served request, not the step's PASS line",
    },
    # Round 136 (session 40), at first sight on bb27999e: bundles-1 4/4, bundles-2 0/1, excerpts-a 4/4,
    # excerpts-b 6/6, excerpts-c 1/5, excerpts-d 6/6, excerpts-e 6/6: 27/32 acceptable, 30/32 quoted, none
    # refused, one failed run called healthy (excerpts-c 05), none confidently wrong. Fixed since: GenAI-Perf's
    # and AIPerf's CSV summary rows are an end-to-end result (excerpts-c 01).
    "tests/data/blind-round136-excerpts-c/03-aiter-allreduce-rmsnorm-gsm8k-zero": {
        "verdict": "first sight: inconclusive 0.00: the tester expects output-corruption: a PR's pre-fix runs "
        "scoring 0.000 beside its post-fix column",
    },
    "tests/data/blind-round136-excerpts-c/04-atom-dsv4-fp4-indexer-no-regression": {
        "verdict": "first sight: no-failure-seen 0.50 (acceptable), quoting no line of the comparison",
        "key_line": "first sight: no-failure-seen, no key line quoted",
    },
    "tests/data/blind-round136-excerpts-c/05-dsv4-nvfp4-mtp-acceptance-collapse": {
        "verdict": "first sight: healthy 0.40 (a failed run called healthy): speculative acceptance at 1.82 % "
        "against 80 % in a table with no gate",
    },
    "tests/data/blind-round136-excerpts-d/05-nixl-sglang-pd-sanity-pass": {
        "key_line": "first sight: healthy (expected), quoting the servers' lines, not the script's PASS",
    },
    # Round 137 (session 40), at first sight on d46df2f5: bundles-1 4/4, bundles-2 3/3, excerpts-a 6/6,
    # excerpts-b 1/7, excerpts-c 4/6, excerpts-d 5/6, excerpts-e 4/4: 27/36 acceptable, 29/36 quoted, none
    # refused, four failed runs called healthy (excerpts-b 01, 04, 05, excerpts-d 04), none confidently wrong.
    # Excerpts-b's six misses are garbage answers, loops and stalls the lines hold only as answers or prose.
    # Fixed since: the CI runner's own error line after the checks passed keeps the job from healthy
    # (excerpts-d 04: an artifact upload refused with 403 after `702 passed`).
    "tests/data/blind-round137-bundles-1/02-qwen35-hetero-attn-tp-garbled": {
        "key_line": "first sight: output-corruption (expected), quoting the client's answers, not its gibberish line",
    },
    "tests/data/blind-round137-excerpts-b/01-vllm-ascend-910b-garbled-output": {
        "verdict": "first sight: healthy 0.30 (a failed run called healthy): four answers in three scripts each; "
        "no answer alone is soup by the library's measure",
    },
    "tests/data/blind-round137-excerpts-b/02-llamacpp-mla-context-shift-gibberish": {
        "verdict": "first sight: no-failure-seen 0.50: the tester expects output-corruption: garbage after "
        "llama.cpp's `slot context shift`",
    },
    "tests/data/blind-round137-excerpts-b/04-ollama-glm47-gibberish-while-200": {
        "verdict": "first sight: healthy 0.50 (a failed run called healthy): punctuation soup in an answer file "
        "beside 200 lines",
        "key_line": "first sight: healthy, no key line quoted",
    },
    "tests/data/blind-round137-excerpts-b/06-vllm-metal-admission-livelock": {
        "verdict": "first sight: no-failure-seen 0.50: the tester expects inconclusive: a /metrics scrape with "
        "6 waiting, 0 running and the KV cache empty",
    },
    "tests/data/blind-round137-excerpts-c/05-tt-sdxl-n150-spec-targets": {
        "verdict": "first sight: no-failure-seen 0.50: the tester expects performance-regression: `11.1s vs 10s "
        "target` in a PR's list of failed spec tests",
    },
    "tests/data/blind-round137-excerpts-c/06-vllm-ascend-qwen3next-mtp-similarity": {
        "verdict": "first sight: no-failure-seen 0.50: the tester expects accuracy-regression: the paste stops "
        "at the test's source, before its assertion",
        "key_line": "first sight: no-failure-seen, no key line quoted",
    },
    # Blind round 138 (session 41), scored at first sight on d694cf65: 29/36 acceptable, quoted 34/36,
    # healthy-on-failed 1, confidently wrong 1. What still misses after the round's fixes:
    "tests/data/blind-round138-excerpts-a/06-mscclpp-work-item-status-12": {
        "verdict": "first sight: scheduler-crash 0.30: the tester expects rdma-resource-exhausted from "
        "mscclpp's `a work item failed: status 12 (Ib failure: Cannot allocate memory)`",
    },
    "tests/data/blind-round138-excerpts-b/06-sglang-responses-held-until-batch-drains": {
        "verdict": "first sight: healthy 0.40 (a failed run called healthy): the client's progress at 0/2048 "
        "while the server's batch drains; only the timing of the 200s shows the answers held back",
    },
    "tests/data/blind-round138-excerpts-c/04-sglang-eval-before-after-pass": {
        "key_line": "first sight: no-failure-seen; now healthy, quoting the row with its padding collapsed",
    },
    # Blind round 139 (session 41), scored at first sight on d694cf65: 25/32 acceptable, quoted 28/32,
    # healthy-on-failed 0, confidently wrong 0. What still misses after the round's fixes:
    "tests/data/blind-round139-excerpts-a/01-ucx-nic-fault-conn-reset": {
        "verdict": "first sight: inconclusive (acceptable) led by a libc backtrace frame, not UCX's `Process "
        "frozen` or the reset the tester keys",
    },
    "tests/data/blind-round139-excerpts-b/01-spyre-logitsprocs-lost-under-load": {
        "verdict": "first sight: no-failure-seen 0.50: the tester expects output-corruption: k6's lines of "
        "token ids that ignore the request's logit_bias",
    },
    "tests/data/blind-round139-excerpts-b/03-rayserve-llama32-nonsense-tail": {
        "verdict": "first sight: no-failure-seen 0.50: the tester expects output-corruption: an answer that "
        "turns to word salad after a coherent start",
    },
    "tests/data/blind-round139-excerpts-c/02-ascend-evalscope-main-vs-pr": {
        "key_line": "first sight: healthy (acceptable) quoting the last report row, not the TPOT line or the "
        "PR's gsm8k row the tester keys",
    },
    "tests/data/blind-round139-excerpts-c/05-ipex-llm-lighteval-mmlu-low": {
        "verdict": "first sight: no-failure-seen 0.50: the tester expects accuracy-regression from a Chinese "
        "sentence comparing MMLU 27.67% with 78.82% on an A100",
        "key_line": "first sight: no-failure-seen, no key line quoted",
    },
    # Blind round 140 (session 41), scored at first sight on d694cf65: 24/30 acceptable, quoted 28/30,
    # healthy-on-failed 2, confidently wrong 1. What still misses after the round's fixes:
    "tests/data/blind-round140-excerpts-c/04-vllm-stablelm-low-baseline-gsm8k": {
        "verdict": "first sight: accuracy-regression 0.55 (confidently wrong): a small base model's GSM8K 0.0864 "
        "read under the collapse floor (0.1) that instruct models' collapses (0.06, 0.0629) need",
    },
    "tests/data/blind-round140-excerpts-a/03-torchrun-tcpstore-port-29500-in-use": {
        "key_line": "first sight: bind-failed 0.40 (the tester's verdict) quoting another line of the bind "
        "failure than the one the tester keys",
    },
    # Blind round 141 (session 41), scored at first sight on 6bff5ad9: 24/30 acceptable, quoted 29/30,
    # healthy-on-failed 1, confidently wrong 1:
    "tests/data/blind-round141-bundles-1/04-glm45air-spec-only-on-decode-wrong-answers": {
        "verdict": "first sight: healthy 0.60 (a failed run called healthy): GSM8K 0.612 with no gate beside "
        "it, and the prefill run without the speculative decoding its decode runs, not compared",
    },
    "tests/data/blind-round141-excerpts-b/04-vllm-gguf-mla-gibberish-long-gen": {
        "verdict": "first sight: no-failure-seen 0.50: the tester expects output-corruption, which only the "
        "thread shows (the engine lines pasted look normal)",
    },
    "tests/data/blind-round141-excerpts-c/03-tt-wan-acceptance-pass-informational-target": {
        "verdict": "first sight: performance-regression 0.60 (confidently wrong): a target latency check "
        "read as failed inside the report's `informational_blockers`, the report's `enforcement_result` PASS",
        "key_line": "first sight: performance-regression, the PASS lines not quoted",
    },
    "tests/data/blind-round141-excerpts-c/04-dynamo-dsv4-gpqa-agg-vs-disagg": {
        "verdict": "first sight: no-failure-seen 0.50: the tester expects healthy: an aggregated and a "
        "disaggregated column of GPQA within 4 %, named by topology, not read as sides",
    },
    "tests/data/blind-round141-excerpts-c/06-inferencex-dsv4-atom-mtp-tbo-lowconc-tput-drop": {
        "verdict": "first sight: no-failure-seen 0.50: the tester expects performance-regression from a "
        "commit message's `c64  -14.1% / c128  -9.8% output tput (TBO hurts)`",
    },
    "tests/data/blind-round141-excerpts-c/07-inferencex-minimax-m3-swebench-below-threshold": {
        "verdict": "first sight: no-failure-seen 0.50: the tester expects accuracy-regression from prose "
        "(`scored 36.8% (below the 50% threshold)`)",
    },
    # Blind round 142 (session 41), scored at first sight on 6bff5ad9: 21/31 acceptable, quoted 28/31,
    # healthy-on-failed 1, confidently wrong 0:
    "tests/data/blind-round142-excerpts-a/01-deepep-buffer-invalid-resource-handle": {
        "verdict": "first sight: inconclusive: the tester expects scheduler-init-crash: DeepEP's Buffer "
        "construction failing (`invalid resource handle`) then `Fatal Python error: Aborted`, read as no "
        "crash",
    },
    "tests/data/blind-round142-excerpts-a/04-nccl-ibv-create-qp-memlock": {
        "verdict": "first sight: inconclusive (acceptable) led by NCCL's `unhandled system error`, not its `Call to "
        "ibv_create_qp failed` warning the tester keys",
    },
    "tests/data/blind-round142-excerpts-b/02-ikllama-graph-reuse-repeated-tokens": {
        "verdict": "first sight: no-failure-seen 0.50: the tester expects output-corruption: an answer with every "
        "word written twice (`The capital capital of of France France`), bare in a response file",
    },
    "tests/data/blind-round142-excerpts-b/03-triton-trtllm-stress-hang-no-error": {
        "verdict": "first sight: healthy 0.30 (a failed run called healthy): a clean start-up; the hang under "
        "stress is only in the thread",
    },
    "tests/data/blind-round142-excerpts-b/04-sglang-repeat-content-high-concurrency": {
        "verdict": "first sight: no-failure-seen 0.50: the tester expects output-corruption: a chat transcript "
        "whose answers loop on the same words",
        "key_line": "first sight: no-failure-seen, no key line quoted",
    },
    "tests/data/blind-round142-excerpts-b/05-metaseq-gibberish-was-prompt-healthy": {
        "verdict": "first sight: no-failure-seen 0.50: the tester expects healthy: wget's `200 OK` and a sensible "
        "completion, not read as an answer",
    },
    "tests/data/blind-round142-excerpts-c/02-gptoss-gpqa-fp8-kv-trtllm-mha-drop": {
        "verdict": "first sight: no-failure-seen 0.50: the tester expects accuracy-regression: gpt_oss.evals' "
        "result dicts, GPQA 0.711 under a `Baseline:` heading and 0.399 under the FP8 heading, not "
        "paired",
    },
    "tests/data/blind-round142-excerpts-c/03-sglang-triton-fp8-e5m2-lmeval-table-pass": {
        "key_line": "first sight: healthy (the tester's verdict) quoting another row of the table",
    },
    "tests/data/blind-round142-excerpts-c/04-tt-inference-qwen25-7b-n300-sweep-pass": {
        "verdict": "first sight: no-failure-seen 0.50: the tester expects healthy: a benchmark sweep's rows with no "
        "target, not read as served requests",
    },
    "tests/data/blind-round142-excerpts-c/06-sglang-tiny-gemm-decode-regression": {
        "verdict": "first sight: no-failure-seen 0.50: the tester expects performance-regression from a 4 % drop "
        "(relative throughput 0.961), under the 10 % a comparison needs (the tester notes the "
        "disagreement)",
    },
    "tests/data/blind-round142-excerpts-e/06-xinference-model-actor-oom-serving": {
        "verdict": "first sight: inconclusive: the tester expects gpu-oom from Xinference's `Model actor is out of "
        "memory.`, words no family reads as the GPU's",
    },
    "tests/data/blind-round105-excerpts-c/06-vllm-ascend-2p1d-throughput-drop": {
        "key_line": "first sight: no line quoted (no-failure-seen); since session 42 performance-regression from "
        "the first statement of the drop (`性能劣化15%` in the summary line), not the line with the two throughputs",
    },
    # Blind round 143 (session 42), scored at first sight on 557ef37a: 20/30 acceptable, quoted 25/30,
    # healthy-on-failed 0, confidently wrong 0:
    "tests/data/blind-round143-bundles-2/01-llmd-gke-nixl-side-channel-host-unset": {
        "verdict": "first sight: inconclusive quoting the decode's bare `KeyError` (the tester expects "
        "bootstrap-unreachable: the NIXL side channel left on localhost; `AsyncLLM output_handler failed.` "
        "after it is read as no crash)",
    },
    "tests/data/blind-round143-bundles-2/03-ascend-mooncake-direct-connect-target-failed": {
        "verdict": "first sight: inconclusive quoting Mooncake's Ascend `Failed to connect to target: ..., status: "
        "103900` without its glog location, which the tester's key line holds (the maintainer's diagnosis is "
        "the environment: CANN and use_ascend_direct; no pattern names the status)",
    },
    "tests/data/blind-round143-excerpts-a/01-mooncake-ep-mnnvl-cudamalloc-hang": {
        "verdict": "first sight: no-failure-seen 0.50: the tester expects mr-registration-rejected from warnings "
        "alone (`Memory region ... is not allocated by cuMemCreate`: a hang the thread explains, no error line)",
    },
    "tests/data/blind-round143-excerpts-b/01-ollama-gemma3-qat-gibberish": {
        "verdict": "first sight: no-failure-seen 0.50: the tester expects output-corruption: an `ollama run` "
        "transcript whose answer is fragments of the chat template's turn tokens (`end_of_turn_of_of_turn>`)",
        "key_line": "first sight: no-failure-seen, no key line quoted",
    },
    "tests/data/blind-round143-excerpts-b/02-ollama-long-context-cuda-oom": {
        "key_line": "first sight: gpu-oom (the tester's verdict) quoting ggml's `CUDA error: out of memory`, not "
        "the location line under it nor the prompt's size the tester keys",
    },
    "tests/data/blind-round143-excerpts-b/03-vllm-v1-priority-preempt-assert": {
        "verdict": "first sight: inconclusive 0.00: the tester expects scheduler-crash: a pytest assertion raised "
        "in vLLM's scheduler.py, read as a failed test, not an engine crash",
    },
    # Blind round 144 (session 42), scored at first sight on 557ef37a: 22/28 acceptable, quoted 27/28,
    # healthy-on-failed 2, confidently wrong 0:
    "tests/data/blind-round144-excerpts-a/01-sglang-nccl-socket-abort-init": {
        "verdict": "first sight: scheduler-crash 0.35 (acceptable only naming a key line): the summary names the "
        "scheduler's traceback cut at run_scheduler_process, not NCCL's `socketStartConnect ... Software caused "
        "connection abort` above it",
    },
    "tests/data/blind-round144-excerpts-b/02-llamacpp-np10-context-shift-repetition": {
        "verdict": "first sight: healthy 0.50 (a failed run called healthy): repetition from context shifts "
        "with 102 tokens a slot, which only the thread shows (the log has 200s and idle slots)",
    },
    "tests/data/blind-round144-excerpts-c/02-vllm-omni-tts-sr-concat-throughput": {
        "verdict": "first sight: no-failure-seen 0.50: the tester expects performance-regression: `a measured "
        "~28-36% throughput regression` on a line that also says a later PR `silently fixed` it (read as a fix)",
    },
    "tests/data/blind-round144-excerpts-c/03-vllm-gemma2-flashattn-softcap-gsm8k": {
        "verdict": "first sight: healthy 0.40 (a failed run called healthy): gemma-2-27b-it's GSM8K at 0.196, "
        "above the collapse floor and with no gate; its expected score only in the thread",
    },
    "tests/data/blind-round144-excerpts-e/05-ovms-phi2-gpu-alloc-compile-fail": {
        "verdict": "first sight: inconclusive: the tester expects model-load-failure: OpenVINO Model Server's "
        "`Error occurred while loading model ... Cannot compile model into target device`, led by the "
        "plugin's exception above it",
    },
    # Blind round 145 (session 42), scored at first sight on d997cdad: 24/35 acceptable, quoted 31/35,
    # healthy-on-failed 1, confidently wrong 0:
    "tests/data/blind-round145-bundles-2/03-lmcache-nixl-pd-decoder-ttft-35s": {
        "verdict": "first sight: healthy 0.50 (a failed run called healthy): requests answered after a 35 s "
        "time to first token, which only the thread states; the decoder's repeated lookups are no failure line",
    },
    "tests/data/blind-round145-excerpts-b/03-llamacpp-sampler-abort-fa-regression": {
        "verdict": "first sight: inconclusive: the tester expects scheduler-runtime-crash: gdb's backtrace "
        "through llama-server's update_slots() and `Aborted (core dumped)`, read as no crash",
        "key_line": "first sight: inconclusive, the backtrace's frames not quoted",
    },
    "tests/data/blind-round145-excerpts-c/01-trtllm-dsr1-fp4-b200-ttft-slowdown": {
        "verdict": "first sight: no-failure-seen 0.50: the tester expects performance-regression: a `Speed-up` "
        "row at 0.72 in a table, and `slow-down in TTFT` in a sentence that also says `as expected`",
        "key_line": "first sight: no-failure-seen, no key line quoted",
    },
    "tests/data/blind-round145-excerpts-c/04-ik-llama-glm5-mtp-slower-than-baseline": {
        "verdict": "first sight: no-failure-seen 0.50: the tester expects performance-regression: `Baseline (ts)` "
        "against `MTP (ts)` columns, a unit (tokens a second) no measure reads",
    },
    "tests/data/blind-round145-excerpts-d/02-vllm-omni-daily-omni-accuracy-after-fix": {
        "verdict": "first sight: inconclusive led by `HTTP failed (excl. from GitHub acc.):    0`; since session "
        "42 no-failure-seen (acceptable only naming a key line), the tester expects healthy from an accuracy "
        "judged against nothing",
    },
    "tests/data/blind-round145-excerpts-e/03-mistralrs-second-request-panic": {
        "verdict": "first sight: inconclusive quoting the engine's panic (`thread '<unnamed>' panicked at "
        "mistralrs-core/src/pipeline/mod.rs`); the tester expects scheduler-runtime-crash (a panic alone names "
        "no engine's crash: routers and frontends panic too)",
    },
    "tests/data/blind-round145-excerpts-e/05-mistralrs-gguf-garbage-output": {
        "key_line": "first sight: output-corruption (the tester's verdict) quoting other lines of the garbage",
    },
    # Round 146 (session 43), scored at first sight on 61b7f60f.
    "tests/data/blind-round146-excerpts-c/04-vllm-ascend-dsv4-flash-decode-slower-image": {
        "verdict": "first sight: no-failure-seen 0.50; the tester expects performance-regression: a Chinese "
        "comparison (`decode性能22t/s；不如deepseekv4镜像，decode性能38t/s`: 不如, `not as good as`) and an image "
        "said `is worse than` another, no verb of change",
    },
    "tests/data/blind-round146-excerpts-e/05-kserve-invalid-storage-uri-model-missing": {
        "verdict": "first sight: inconclusive on the bare `Traceback` line (the paste cut before its exception); the "
        "tester expects model-load-failure: KServe's sklearn server failing in `model.load()` after its storage "
        "initializer copied nothing",
    },
    # Round 147 (session 43), scored at first sight on 40d80fc9: 20/31 acceptable, quoted 27/31, healthy on a
    # failed run 2 (bundles-2 03, excerpts-e 01: both fixed since), confidently wrong 0.
    "tests/data/blind-round147-excerpts-a/05-vllm-v025-multinode-startup-ok": {
        "key_line": "first sight: no-failure-seen (the tester's verdict) quoting the last start-up line, not the "
        "tester's key lines",
    },
    "tests/data/blind-round147-excerpts-b/02-sglang-detokenizer-keyerror": {
        "verdict": "first sight: inconclusive naming the detokenizer's exception without the line's time prefix, "
        "which the tester's key line holds; the tester expects scheduler-runtime-crash",
    },
    "tests/data/blind-round147-excerpts-b/04-vllm-ascend-crash-after-first-request": {
        "verdict": "first sight: inconclusive on `[async_llm.py:480] AsyncLLM output_handler failed.` without its "
        "process prefix, which the tester's key line holds; the tester expects scheduler-crash",
    },
    "tests/data/blind-round147-excerpts-c/01-llamacpp-vulkan-q8-push-constant-tg-drop": {
        "verdict": "first sight: no-failure-seen 0.50; the tester expects performance-regression: two llama-cli "
        "speed lines (`Generation: 2.5 t/s`, `9.7 t/s`) under bare commit hashes, nothing saying which is earlier",
    },
    "tests/data/blind-round147-excerpts-c/03-sglang-l40-fp8-tuning-writer-throughput": {
        "verdict": "first sight: no-failure-seen 0.50; the tester expects performance-regression: a throughput "
        "table whose buggy column reads `164.77 (-32.9%)` against its baseline column, its fix's column beside it",
    },
    "tests/data/blind-round147-excerpts-d/01-vllm-ci-torch-nightly-unknown-c10d-nccl": {
        "verdict": "first sight: inconclusive on `AssertionError: Unknown c10d backend type NCCL` without its "
        "prefix (`ERROR [core.py:1349]`), which the tester's key line holds; the tester expects scheduler-init-crash",
    },
    "tests/data/blind-round147-excerpts-d/05-gha-nightly-cancelled-by-dispatch": {
        "verdict": "first sight: inconclusive; the tester expects ci-cancelled: a listing of workflow runs "
        "(`schedule cancelled`, `workflow_dispatch cancelled`), no runner line",
    },
    # Round 148 (session 43), scored at first sight on 883d8d9d: 22/33 acceptable, quoted 30/33, none refused,
    # none called healthy on a failed run, none confidently wrong.
    "tests/data/blind-round148-bundles-2/02-llmd-gateway-pd-header-never-set": {
        "key_line": "first sight: inconclusive (the tester's verdict) led by another line than Envoy's access line "
        'with `"prefill_header":null`',
    },
    "tests/data/blind-round148-excerpts-b/05-llamacpp-self-extend-served-healthy": {
        "key_line": "first sight: no-failure-seen; since then healthy on `slot 0 released`, not the request "
        'log\'s JSON record with `"status":200` (read since session 44 as `request status=200 method=POST ...`, '
        "never in the raw JSON the key line holds)",
    },
    "tests/data/blind-round148-excerpts-b/06-tt-vllm-long-context-keyerror-crash": {
        "verdict": "first sight: inconclusive on `KeyError: 32768` without its prefix, which the tester's key "
        "line holds; the tester expects scheduler-runtime-crash",
    },
    "tests/data/blind-round148-excerpts-c/02-ik-llama-bad-build-not-slower": {
        "verdict": "first sight: no-failure-seen 0.50; the tester expects inconclusive (or healthy): llama-bench "
        "rows of a `bad` and a `good` build, the bad one faster after the cache was dropped (`now both are bad`)",
    },
    "tests/data/blind-round148-excerpts-c/03-sglang-r1-distill-aime-below-paper": {
        "verdict": "first sight: no-failure-seen 0.50; the tester expects accuracy-regression: AIME24 0.6 "
        "against a paper's 72.6 pass@1, said `is lower than deepseek-R1 paper` (a comparative no pattern reads)",
    },
    "tests/data/blind-round148-excerpts-d/05-inferencex-mi325-disagg-mtp-results": {
        "verdict": "first sight: no-failure-seen 0.50; the tester expects healthy: a concurrency sweep's table "
        "(`Out tok/s/gpu`, TTFT, TPOT) of the one job that succeeded, no gate",
        "key_line": "first sight: no-failure-seen quoting a row, not the sentence above the table",
    },
    # Round 149 (session 44), scored at first sight on 94f0262f: 20/29 acceptable, quoted 27/29, none refused,
    # one called healthy on a failed run (excerpts-c/02), one counted confidently wrong (bundles-1/02: a verdict
    # the tester accepts, quoting another line of the same crash dump).
    "tests/data/blind-round149-bundles-1/02-1p1d-docker-segfault-phase-unknown": {
        "verdict": "first sight: scheduler-init-crash 0.70, acceptable but its summary quotes another line of the dump",
        "key_line": "first sight: scheduler-init-crash (one the tester accepts) on faulthandler's `Fatal Python "
        "error: Segmentation fault`, not the thread header below it the tester chose",
    },
    "tests/data/blind-round149-excerpts-c/02-kimi-linear-gsm8k-kda-layout": {
        "verdict": "first sight: healthy 0.40 on an evalscope row scoring 0.1736; since then inconclusive on the "
        "stated root cause; the tester expects accuracy-regression (17 % on GSM8K: low only against the model's ~90 %, "
        "which the lines do not state)",
    },
    "tests/data/blind-round149-excerpts-d/02-atom-nightly-gsm8k-below-gate": {
        "verdict": "first sight: no-failure-seen 0.50; the tester expects accuracy-regression: a table whose column "
        "`vs threshold 0.81` says `below` (one thread shows that shape: no mechanism read from it alone)",
    },
    # Round 150 (session 44), scored at first sight on 857a11e4: 24/36 acceptable, quoted 31/36, none refused,
    # one called healthy on a failed run (bundles-2/01), none confidently wrong.
    "tests/data/blind-round150-excerpts-c/02-mlc-llm-vulkan-prefill-halved": {
        "verdict": (
            "first sight: no-failure-seen 0.50; the tester expects performance-regression: `prefill ~80 "
            "tok/s` (latest) beside `prefill ~160 tok/s` (old version) on two lines, labelled by version "
            "only"
        ),
    },
    "tests/data/blind-round150-excerpts-c/05-vllm-bf16-moe-routed-scaling-gsm8k": {
        "key_line": "first sight: no line quoted (no-failure-seen)",
        "verdict": (
            "first sight: no-failure-seen 0.50; the tester expects accuracy-regression: GSM8K 0.378 and "
            "0.151 on one backend beside 0.897 and 0.813 on another, in a table whose failing rows are too "
            "short to be key lines"
        ),
    },
    "tests/data/blind-round150-excerpts-d/03-vecinf-jq-stale-handle-vllm-ready": {
        "key_line": "first sight: inconclusive on jq's line, not vLLM's `Application startup complete.`",
        "verdict": (
            "first sight: inconclusive on jq's `Stale file handle`; the tester expects healthy: vLLM reached "
            "`Application startup complete.` and the job's FAILED state was the launcher script's"
        ),
    },
    "tests/data/blind-round150-excerpts-e/01-gpustack-worker-ports-unavailable": {
        "verdict": (
            "first sight: inconclusive on `Port 10150 required for service 'gpustack' is not available.`; "
            "the tester expects bind-failed (a wording of a taken port one thread shows)"
        ),
    },
    "tests/data/blind-round150-excerpts-e/03-ovms-gemma4-unsupported-model-type": {
        "verdict": (
            "first sight: inconclusive (acceptable) led by another line than the tester's `Unsupported "
            "'gemma4' VLM model type`"
        ),
    },
    # Round 151 (session 44), scored at first sight on 8b8add87: 25/39 acceptable, quoted 35/39, none refused,
    # none called healthy on a failed run, none confidently wrong.
    "tests/data/blind-round151-bundles-1/01-pd-prefill-crash-overlap-dump": {
        "verdict": (
            "first sight: inconclusive on a faulthandler dump's thread header with no signal line (read as a "
            "hang's dump, not a crash); the tester expects scheduler-runtime-crash"
        ),
        "key_line": ("first sight: the thread header quoted, not the main thread's frames the tester chose"),
    },
    "tests/data/blind-round151-bundles-1/02-pd-decode-warmup-never-completes": {
        "verdict": (
            "first sight: inconclusive on the decode's first `GET /health` 503; the tester expects "
            "warmup-failure: `Start of pd disaggregation warmup ...` with no end and 503s for 14 minutes "
            "after it (a log viewer's newest-first order)"
        ),
    },
    "tests/data/blind-round151-bundles-2/01-dynamo-decode-worker-registered-aggregated": {
        "verdict": (
            "first sight: inconclusive; the tester expects config-mismatch: a decode worker started without "
            "its disaggregation mode registers as aggregated, and the readiness probe says no namespace has "
            "all worker types"
        ),
    },
    "tests/data/blind-round151-excerpts-a/07-vllm-ray-gloo-connectfullmesh": {
        "verdict": (
            "first sight: inconclusive quoting `RuntimeError: Gloo connectFullMesh failed ...` without the "
            "`[rank0]: ` the tester's key line holds"
        ),
    },
    "tests/data/blind-round151-excerpts-b/03-ollama-cuda-v13-runner-dies-on-load": {
        "verdict": (
            "first sight: inconclusive on the scheduler's `Load failed`, not the runner's `do load request "
            "... EOF` or Gin's 500 the tester chose"
        ),
    },
    "tests/data/blind-round151-excerpts-c/04-tt-inference-server-flux-undefined-ttft-check": {
        "key_line": (
            "first sight: no-failure-seen (the tester's verdict) quoting another line than the checker's JSON"
        ),
    },
    "tests/data/blind-round151-excerpts-c/05-evalscope-qwq-ifeval-think-not-stripped": {
        "verdict": (
            "first sight: no-failure-seen 0.50; the tester expects accuracy-regression: IFEval 51 against "
            "the model's own 82"
        ),
    },
    "tests/data/blind-round151-excerpts-d/01-sglang-amd-ci-vlm-perf-pass-after-timeout-bump": {
        "key_line": ("first sight: healthy (the tester's verdict) quoting another passing line than the tester's"),
    },
    # Round 152 (session 45), scored at first sight on 912ae489: 22/33 acceptable, quoted 31/33, none refused,
    # two called healthy on a failed run (excerpts-b/04, excerpts-c/01), none confidently wrong.
    "tests/data/blind-round152-bundles-2/03-vllm-ascend-lmcache-store-crash-first-request": {
        "key_line": (
            "first sight: inconclusive quoting rank 1's innermost call of four ranks' interleaved frames; now "
            "scheduler-runtime-crash (the tester's verdict) from that rank's stack, quoting the same call, not the "
            "frames of other ranks the tester chose"
        ),
    },
    "tests/data/blind-round152-bundles-3/02-atom-mooncake-tcp-4p4d-slow-passing": {
        "verdict": (
            "first sight: healthy (acceptable) quoting the benchmark's `Failed requests: 0`; the tester's key lines "
            "are in summary.md, which a directory's reading skips as notes, and expects kv-transfer-backlog: "
            "request throughput that falls as concurrency rises (2.66 req/s at 1, 0.82 at 16) over Mooncake's TCP"
        ),
        "key_line": ("first sight: no key line quoted (they are in summary.md)"),
    },
    "tests/data/blind-round152-excerpts-b/04-vllm-v1-enginecore-silent-hang": {
        "verdict": (
            "first sight: healthy 0.30 on a `200 OK` the poster annotated `# but actually hangs`; the stats line "
            "(Running: 0 reqs, Waiting: 3 reqs, 0.0 tokens/s) is wrapped over two rows without its comma and "
            "carries no time, so no series shows the stall; the tester expects inconclusive"
        ),
    },
    "tests/data/blind-round152-excerpts-b/05-dstack-gateway-stream-asgi-exception-served": {
        "verdict": (
            "first sight: inconclusive quoting `Exception in ASGI application` (acceptable only with the 200's "
            "line); the tester expects healthy: starlette's listen_for_disconnect after a streamed answer"
        ),
    },  # Round 153 (session 45), scored at first sight on 0a2db2f6: 24/35 acceptable, quoted 33/35, none refused,
    # one called healthy on a failed run (excerpts-c/05), none confidently wrong.
    "tests/data/blind-round153-excerpts-b/04-mlx-lm-server-broken-pipe-crash": {
        "verdict": (
            "first sight: inconclusive quoting `BrokenPipeError: [Errno 32] Broken pipe` (shorter than a key "
            "line), raised under mlx_lm's handle_completion; no rule places mlx_lm's frames, and the tester "
            "expects scheduler-runtime-crash"
        ),
    },
    "tests/data/blind-round153-excerpts-c/01-flashinfer-gdn-prefill-0614-regression": {
        "verdict": (
            "first sight: no-failure-seen; the tester expects performance-regression: a kernel's median time "
            "per version and their ratio (`0.6.14 / 0.6.12: 10.462x (+946.2%)`), which no reader takes as a "
            "later build against an earlier one"
        ),
    },
    "tests/data/blind-round153-excerpts-c/02-sglang-amd-humaneval-pass-aiter-ar-off": {
        "verdict": (
            "first sight: no-failure-seen (results judged against nothing); the tester expects healthy: "
            "`Before - 0.268` and `After - **0.422**`, a dash where the before/after readers want a colon"
        ),
    },
    "tests/data/blind-round153-excerpts-d/03-tt-inference-v2-server-crash-health-wait": {
        "verdict": (
            "first sight: no-failure-seen; a traceback's header behind `[tt-inference-server-1bb42c34] "
            "(APIServer pid=1) `, a container's name in brackets no format reads as a tag, is no error line; "
            "the tester expects scheduler-init-crash"
        ),
    },
    "tests/data/blind-round153-excerpts-e/02-xllm-hccl-root-info-startup-fatal": {
        "verdict": (
            "first sight: inconclusive (acceptable) quoting glog's `Check failed: ...` without the "
            "`collective_service.cpp:37] ` its prefix holds and the tester's key line keeps; the tester "
            "expects scheduler-init-crash (the check's stack runs through the engine's constructors)"
        ),
    },
    "tests/data/blind-round153-excerpts-e/03-gpustack-vllm-ascend-ray-bundle-index": {
        "verdict": (
            "first sight: scheduler-crash 0.35 from the logged traceback's frames (Ray's placement group); the "
            "engine process's own traceback below it, cut at `engine_core = EngineCoreProc(...)` (start-up), "
            "is not read with the crash; the tester expects scheduler-init-crash"
        ),
    },
    # Round 154 (session 45), scored at first sight on 3cb77d36: 29/39 acceptable, quoted 36/39, none refused,
    # two called healthy on a failed run (bundles-1/01, bundles-2/02), none confidently wrong.
    "tests/data/blind-round154-bundles-1/01-efa-dp8-reestablish-backlog": {
        "verdict": (
            "first sight: healthy 0.60 on the decode's metrics lines; the tester expects kv-transfer-backlog: "
            "Mooncake's EFA endpoints re-established over and over between DP workers, the prefill's "
            "in-flight requests standing at 128 (the metrics lines are the tester's)"
        ),
        "key_line": ("first sight: healthy quoting a served request, not Mooncake's re-establish lines"),
    },
    "tests/data/blind-round154-excerpts-b/02-llamacpp-np16-ctx128-garbled": {
        "verdict": (
            "first sight: no-failure-seen; the tester expects output-corruption: `-c 128 -np 16` leaves each "
            "slot eight tokens, and a context shift after every token (`n_left = 7`) garbles the answer"
        ),
    },
    "tests/data/blind-round154-excerpts-c/01-ttmetal-falcon7b-t3k-perf-gate": {
        "verdict": (
            "first sight: inconclusive on the perf check's `AssertionError: Some model(s) Inference Time "
            "(sec) are too slow`; the tester expects performance-regression"
        ),
    },
    "tests/data/blind-round154-excerpts-c/03-glm53-exl3-sparks-quality-drop-tree": {
        "verdict": (
            "first sight: inconclusive; the tester expects accuracy-regression: a quality score from 88.5 to "
            "77.8 in a tree of results"
        ),
        "key_line": ("first sight: no key line quoted"),
    },
    "tests/data/blind-round154-excerpts-c/06-tpu-inference-llama8b-req-throughput-small-drop": {
        "verdict": (
            "first sight: inconclusive; the tester expects performance-regression for a 4 % drop (9.7 to 9.3 "
            "req/s), under the catalogue's 10 % (the tester's own boundary case)"
        ),
    },
    "tests/data/blind-round154-excerpts-e/06-vllm-openai-wrong-endpoint-404": {
        "verdict": (
            "first sight: inconclusive led by the poster's sentence about the 404s; the tester expects "
            "healthy: requests to paths the OpenAI server does not serve (`/`, `/generate`)"
        ),
    },
    "tests/data/blind-round155-bundles-1/04-healthy-xpu-nixl-pd-bringup": {
        "key_line": (
            "first sight and since: healthy quoting sglang's `The server is fired up and ready to roll!`, not the"
            " launcher's `[SUCCESS] ... Server started successfully` lines the tester named"
        ),
    },
    "tests/data/blind-round155-bundles-2/02-dynamo-frontend-completions-model-not-found": {
        "key_line": (
            'first sight and since: inconclusive quoting the answer `{"error":"Model not found"}`, not the curl '
            "command line the tester named"
        ),
    },
    "tests/data/blind-round155-excerpts-a/05-rccl-visible-devices-comm-init": {
        "verdict": (
            "first sight and since: scheduler-init-crash at 0.40 (frames.toml places pynccl's ncclCommInitRank in"
            " start-up); the tester expects inconclusive: the process is vLLM's RLHF example script, not a "
            "server, and the RCCL init failure's cause is a runtime bug"
        ),
    },
    "tests/data/blind-round155-excerpts-c/02-vllm-qwen36-fp8-throughput-drop-v024": {
        "key_line": (
            "since round 155's fixes: performance-regression quoting the poster's `I'm seeing a major "
            "output-token throughput regression`, not the per-version throughput lines the tester named"
        ),
    },
    "tests/data/blind-round155-excerpts-c/05-trtllm-dsr1-fp4-mmlu-below-reference": {
        "verdict": (
            "first sight and since: no-failure-seen; the tester expects accuracy-regression: MMLU 86.63 against "
            "an official ~90.7 (4.5 % below), said on two lines, within the tenth the published-score reading "
            "allows"
        ),
    },
    "tests/data/blind-round155-excerpts-e/04-xinference-model-actor-closed-mid-chat": {
        "verdict": (
            "first sight and since: inconclusive quoting `xoscar.errors.ServerClosed: Remote server 0.0.0.0:44339"
            " closed`; the tester accepts inconclusive only beside the logger's `ERROR    Remote server ... "
            "closed` line or the frame it named, which say the same"
        ),
    },
    "tests/data/blind-round21-excerpts-b/05-dynamo-multinode-nixl-init-traceback": {
        "verdict": (
            "first sight: inconclusive; since session 46 (the launcher's `(EngineCore_0 pid=572)` tag read off a "
            "traceback's rows with no level) scheduler-init-crash at 0.40 (acceptable), its summary naming the "
            "innermost call `self.model_executor.initialize_from_config(kv_cache_configs)` under the header, not "
            "the tester's key lines (the `Process EngineCore_0:` header, the frame above)"
        ),
    },
    "tests/data/blind-round157-bundles-1/03-ascend-llmdatadist-link-fails-with-aclgraph": {
        "verdict": (
            "first sight and since: scheduler-runtime-crash at 0.70 (acceptable), its summary naming the "
            "innermost frame `self._read_blocks(meta.local_block_ids,` in llmdatadist_c_mgr_connector.py, not the"
            " tester's key lines (the link attempt, the `start_load_kv` frame one level up)"
        ),
    },
    "tests/data/blind-round157-excerpts-b/03-atom-sgl-dsr1-tp4-near-zero-gsm8k": {
        "verdict": (
            "first sight: no-failure-seen; since session 47 accuracy-regression (acceptable), its summary quoting "
            "the stated score `Flexible extract: `0.00986`` under GSM8K's floor, not the tester's key lines"
        ),
        "key_line": (
            "first sight: no key line quoted (no-failure-seen); since session 47 accuracy-regression (acceptable) "
            "quoting the stated score `Flexible extract: `0.00986``, not the tester's key lines (the fix PR's "
            "`Fix the near-zero GSM8K accuracy ...`, the cause in prose)"
        ),
    },
    "tests/data/blind-round157-excerpts-b/04-vllm-nvfp4-triton-attn-gibberish": {
        "verdict": (
            "first sight and since: no-failure-seen; the tester expects output-corruption: a pretty-printed chat "
            "completion whose content is word salad with the role token leaking (`\\nassistant\\n`), its line cut, "
            "no unit or phrase repeated"
        ),
    },
    "tests/data/blind-round89-excerpts-c/03-ttmetal-glm-chunked-prefill-gate": {
        "key_line": (
            "first sight: healthy at 0.40 (a failed run called healthy); since session 47 performance-regression "
            "(expected) quoting the prose's `got **~13% slower** on 2026-08-17` (its row read a sentence at a "
            "time: the next sentence's `until this is resolved` hid it), not the table's `+12.3%` row the tester "
            "keys"
        ),
    },
    "tests/data/blind-round108-excerpts-c/05-qwen35-pcp-mtp-gpqa-drop": {
        "verdict": (
            "first sight: accuracy-regression (expected); since session 47 output-corruption (acceptable) naming "
            "the row `collapse into repetition loops and never emit Answer:` (a loop stated in words is garbage),"
            " not the `GPQA-diamond drops from 88% (pcp=1) to 72%` line the tester keys"
        ),
    },
    "tests/data/blind-round158-bundles-3/01-mi355x-bench-hang-slurm-timelimit": {
        "verdict": (
            "first sight and since: inconclusive; the tester expects ci-cancelled: the tool reads the Slurm time "
            "limit as what ended a job stuck for its last 15 minutes (the benchmark at 1023/1024, both servers "
            "idle), the hang being the failure it cannot name, not the cancel"
        ),
    },
    "tests/data/blind-round158-excerpts-a/04-vllm-ascend-dp-gloo-allreduce-serving": {
        "verdict": (
            "first sight: inconclusive naming torch's `return func(*args, **kwargs)`; since session 47 "
            "inconclusive naming the key line `dist.all_reduce(tensor, group=get_dp_group().cpu_group)` (a cut "
            "stack's own innermost call); the tester expects scheduler-runtime-crash: the paste is cut before its"
            " exception and any line of the process's end"
        ),
    },
    "tests/data/blind-round158-excerpts-a/05-vllm-pynccl-invalid-usage-cuda-mismatch": {
        "verdict": (
            "first sight and since: inconclusive (acceptable) quoting `RuntimeError: NCCL error: invalid usage "
            "(run with NCCL_DEBUG=WARN for details)` without the `[rank0]: ` prefix the tester's key line holds"
        ),
    },
    "tests/data/blind-round158-excerpts-e/01-triton-trtllm-fpe-model-init": {
        "verdict": (
            "first sight and since: inconclusive naming `Floating point exception (core dumped)`; the tester "
            "expects scheduler-init-crash: the shell's report of a signal alone names no process (any program "
            "prints it), and the lines above it are the TensorRT-LLM backend's model initialisation"
        ),
    },
    "tests/data/blind-round159-bundles-2/02-nixl-telemetry-off-every-transfer-failed": {
        "key_line": (
            "first sight: healthy at 0.60 (a failed run called healthy); since session 47 inconclusive (expected)"
            " quoting the gateway's `backend emitted finish_reason=error without a message`, not the NIXL "
            "telemetry warning, `Skipping KV post-processing` or `Num successful transfers=0` the tester keys"
        ),
    },
    "tests/data/blind-round159-bundles-3/02-vllm-pd-eagle3-acceptance-pass": {
        "key_line": (
            "first sight and since: healthy (expected) quoting the decode's ready line, not the harness's `=== "
            "PASS: ... acceptance length ... within 5% of ... ===` lines"
        ),
    },
    "tests/data/blind-round159-excerpts-a/01-vllm-v100-device-assert-500s": {
        "verdict": (
            "first sight: inconclusive; since session 47 scheduler-crash (acceptable) from the words `CUDA error:"
            " device-side assert triggered`, its summary quoting the line without the `(EngineCore pid=128) ERROR"
            " ...` prefix the tester's key line holds"
        ),
    },
    "tests/data/blind-round159-excerpts-b/03-vllm-gemma4-fp16-fallback-nan-output": {
        "verdict": (
            "first sight and since: no-failure-seen; the tester expects output-corruption: the only line is "
            "vLLM's fallback from bfloat16 to float16 on an RTX 2080 Ti, and the NaN logits it caused are said "
            "nowhere in the lines"
        ),
    },
    "tests/data/blind-round159-excerpts-c/01-sglang-dsv3-mha-refactor-main-vs-pr": {
        "key_line": (
            "first sight and since: healthy (expected) quoting `Accuracy: 0.950`, not the GPQA `Scores: [...]` "
            "line the tester keys"
        ),
    },
    "tests/data/blind-round159-excerpts-c/04-vllm-rocm-aiter-mla-baseline-vs-pr-no-overhead": {
        "verdict": (
            "first sight and since: no-failure-seen (acceptable) naming its last line, not the table's `| Output "
            "tok/s | 676.58 → 690.60 (+2.1%) | ...` row: cells of two values and an arrow no table reader splits"
        ),
        "key_line": "first sight and since: the table's row not quoted",
    },
    "tests/data/blind-round159-excerpts-e/01-ray-serve-streaming-generator-segv": {
        "verdict": (
            "first sight and since: scheduler-crash at 0.30 (acceptable) quoting `*** SIGSEGV received at "
            "time=1707229696 on cpu 41 ***` without the `logging.cc:361: ` the tester's key line holds"
        ),
    },
    "tests/data/blind-round159-excerpts-e/04-localai-p2p-worker-offline": {
        "key_line": (
            "first sight and since: inconclusive (expected) led by the gallery's `failed to install model` error,"
            " not the INFO lines `Node ... is offline, deleting` the tester keys"
        ),
    },
    "tests/data/blind-round160-bundles-1/02-dynamo-prefill-stuck-after-nixl-metadata": {
        "key_line": (
            "first sight and since: no-failure-seen (expected) quoting the last line, not the prefill's `Loaded "
            "nixl metadata from engine xxx into engine xxx` the reporter says it hung after"
        ),
    },
    "tests/data/blind-round160-excerpts-a/03-vllm-gaudi-warmup-decode-blocks-noncontig-pa": {
        "verdict": (
            "first sight: scheduler-init-crash at 0.70 naming worker_base.py:320 `initialize_from_config`; since "
            "session 48 (a plugin's frame is the engine's: scan/traceback.py PROJECT_MARKERS) the cut stack's last "
            "frame, `hpu_worker.py:298 compile_or_warm_up_model()`, not the tester's key line as printed, nor as "
            "warmup"
        ),
    },
    "tests/data/blind-round160-excerpts-a/04-tpu-inference-mesh-device-coords-missing": {
        "verdict": (
            "first sight and since: inconclusive naming the bare `AttributeError` under `make_optimized_mesh`; "
            "the tester expects scheduler-init-crash: three rows, no process, no start-up line"
        ),
    },
    "tests/data/blind-round160-excerpts-b/03-vllm-jamba-repetition-under-load": {
        "verdict": (
            "first sight and since: no-failure-seen; the tester expects output-corruption: `the model gets stuck "
            "on a token or short token sequence` (no loop word) above a quoted `for for for for for for for...` "
            "(seven repeats, the paste's loop reader takes eight)"
        ),
        "key_line": "first sight and since: no key line quoted (no-failure-seen)",
    },
    "tests/data/blind-round161-bundles-3/01-dynamo-vllm-efa-1p1d-prefill-queue-bound": {
        "verdict": (
            "first sight and since: healthy at 0.60 with a note naming prefill-saturated (the prefill's queue up "
            "in 74 % of its run, peak 5435); the tester expects prefill-saturated: the queue rose and drained "
            "(not rising at its end, not standing 80 % of the run) and the client's `Mean TTFT 1,703 s` is in "
            "results.md, a document the tool does not read beside logs"
        ),
        "key_line": (
            "first sight and since: healthy quoting the decode's last engine line, not the prefill's `Waiting: "
            "5435 reqs` line"
        ),
    },
    "tests/data/blind-round161-bundles-3/02-dynamo-sglang-3p1d-nixl-decode-radix-healthy": {
        "verdict": (
            "first sight and since: no-failure-seen at 0.50; the tester expects healthy: the servers' logs hold "
            "only batch lines (no ready line, no answered request) and the run's `completed successfully` is in "
            "results.md, a document the tool does not read beside logs"
        ),
        "key_line": (
            "first sight and since: no-failure-seen quoting the decode's last batch line, not the tester's "
            "`#running-req: 72` line"
        ),
    },
    "tests/data/blind-round161-excerpts-a/03-nccl-netib-completion-error-gdr": {
        "verdict": (
            "first sight and since: inconclusive naming `NET/IB : Got completion from peer ... with error 5, ... "
            "vendor err 249` (a flushed work request, which the completion-error family reads as a consequence, "
            "not the link's error); the tester expects rdma-link-failure (the maintainer points at ACS and the "
            "IOMMU for GPUDirect RDMA)"
        ),
    },
    "tests/data/blind-round161-excerpts-b/04-vllm-router-cache-aware-threshold-throughput": {
        "verdict": (
            "first sight and since: healthy at 0.40 from the table's rows read as results within their limits; "
            "the tester expects performance-regression: the `(current)` row (65 % hits, ~1000 tok/s, `TIMEOUT at "
            "4h`) is the worse one, the table's second row its proposed fix, and no cell states a change"
        ),
    },
    "tests/data/blind-round161-excerpts-c/01-vllm-ttft-regression-v026-v028": {
        "verdict": (
            "first sight and since: no-failure-seen; the tester expects performance-regression: the reference "
            "(`0.26 reference on the same harness: **57 ms**`) is in a sentence and the 0.28 values (981-1254 ms)"
            " in a table below it, which no reader compares"
        ),
    },
    "tests/data/blind-round161-excerpts-d/04-marian-unit-tests-local-all-passed": {
        "verdict": (
            "first sight and since: healthy at 0.40 (acceptable) from six `All tests passed` lines, its summary "
            "quoting the last one (`23 assertions in 2 test cases`), not the tester's `353 assertions in 4 test "
            "cases`"
        ),
        "key_line": ("first sight and since: the summary quotes the last `All tests passed` line, not the tester's"),
    },
    "tests/data/blind-round162-bundles-3/02-qwen35-2p1d-gsm8k-poor": {
        "verdict": (
            "first sight and since: inconclusive led by the harness's `curl: (7) Failed to connect` lines (its "
            "wait for the proxy, `proxy up after 14 tries`); the tester expects accuracy-regression: a GSM8K of "
            "0.5732 with no threshold beside it, which no floor of the library reads as poor"
        ),
    },
    "tests/data/blind-round162-excerpts-a/03-deepgemm-jit-not-permitted-runtime": {
        "verdict": (
            "first sight and since: inconclusive naming `RuntimeError: CUDA driver error`; the tester expects "
            "scheduler-runtime-crash: the paste breaks DeepGEMM's one-line message over three rows, and its `800 "
            "(CUDA_ERROR_NOT_PERMITTED, ...)` row (the kernel-load-refused family's words) is read as no part of "
            "it"
        ),
    },
    "tests/data/blind-round162-excerpts-c/05-atlas-bfcl-tool-parser-accuracy-collapse": {
        "verdict": (
            "first sight and since: no-failure-seen; the tester expects accuracy-regression: a table of BFCL "
            "subsets with one column per run (`jun 15 (89.04 overall)`, `jul 1 main, hermes`, ...) whose header "
            "names no measure, so no reader compares its columns"
        ),
    },
    "tests/data/blind-round162-excerpts-a/02-vllm-sm75-inductor-stale-cache": {
        "verdict": (
            "first sight and since: inconclusive quoting the innermost call of a worker's traceback cut before "
            "its exception (torch.compile's inductor, `raise e.remove_dynamo_frames() from None`); the tester "
            "expects scheduler-init-crash: the frames are torch's alone, under the worker's "
            "`[multiproc_executor.py:962]` records, and no frame names a start-up step"
        ),
    },
    "tests/data/blind-round162-excerpts-b/01-vllm-dp-mtp-drafter-hang": {
        "verdict": (
            "first sight and since: no-failure-seen; the tester expects inconclusive: vLLM's `No available shared"
            " memory broadcast block found in 60 seconds` repeated after the server started, which vLLM also "
            "prints while idle or compiling (round 25 excerpts-a/08, round 61 excerpts-a/04, round 90 "
            "excerpts-b/03 are such), so the lines alone do not tell a hang"
        ),
    },
    "tests/data/blind-round163-excerpts-a/03-vllm-pr20873-multi-lora-tp-lru-wrong-output": {
        "verdict": (
            "first sight and since: inconclusive quoting pytest's `E       AssertionError: assert 'GitHub is "
            "an...rack changes.' == 'GitHub is an...tomate tasks.'`; the tester expects output-corruption: the "
            "strings a multi-LoRA test compared are generated answers (a LoRA's LRU slot reused across TP ranks),"
            " but an equality assertion between two strings says nothing of which is the output nor that it is "
            "wrong rather than different"
        ),
    },
    "tests/data/blind-round163-excerpts-d/02-sglang-12751-pd-router-model-info": {
        "verdict": (
            "first sight and since: no-failure-seen (since session 49 showing `Model info endpoint not yet "
            "implemented in RouterManager` among the lines that look wrong); the tester expects inconclusive: a "
            "client that needs the endpoint cannot start, which the router's answer alone does not say"
        ),
    },
    "tests/data/blind-round163-excerpts-d/03-gaie-3035-lwepp-full-duplex": {
        "verdict": (
            "first sight and since: no-failure-seen quoting Envoy's debug line `Sending immediate response: "
            "spurious message: Normal body mutation response is received while body_mode_ is "
            "FULL_DUPLEX_STREAMED`; the tester expects inconclusive: the endpoint picker answered out of order, "
            "which a debug-level line with no failure word does not say to any reader of levels"
        ),
    },
    "tests/data/blind-round163-excerpts-e/04-sgl-project-sglang-4259-nccl-dev-shm-too-small": {
        "verdict": (
            "first sight and since: inconclusive naming `Error while creating shared memory segment "
            "/dev/shm/nccl-vzIpS6 (size 9637888)` and giving /dev/shm's fix; the tester expects scheduler-init-"
            "crash: the paste holds torch's `DistBackendError` alone, no scheduler's line, and earlier testers' "
            "same four-line pastes expect inconclusive (round 103 excerpts-a/06, round 111 excerpts-e/02)"
        ),
    },
    "tests/data/blind-round164-bundles-2/02-dynamo-2296-startup-404-500-then-serving": {
        "verdict": (
            "first sight and since: router-no-workers at 0.40 from the words of `no instances found for endpoint`"
            " in smoke.log; the tester expects healthy: the frontend answered 404, then 500 for about a minute "
            "while its worker registered, then served (poll.log's 200s, a chat completion answered), but "
            "smoke.log's answers carry no time of their own (the `date -u +%T` printed above each curl is no "
            "stamp the tool reads), so the error is not placed before the serving"
        ),
    },
    "tests/data/blind-round164-bundles-3/01-sglang-39464-router-breaker-sheds-backpressure": {
        "verdict": (
            "first sight and since: inconclusive over the engine's 503 answers and the router's `request failed "
            "with server error` lines; the tester expects router-no-workers: the router's circuit breaker opened "
            "on the engine's own queue-full 503s and refused every request for 60 s, which its `Circuit breaker "
            "state transition: closed -> open` line alone states and no pattern reads"
        ),
    },
    "tests/data/blind-round164-excerpts-a/03-vllm-35994-qwen-omni-audio-encoder-cache-zero": {
        "verdict": (
            "first sight and since: inconclusive on vLLM's `Engine core proc EngineCore_DP0 died unexpectedly` "
            "(which alone roots nothing); the tester expects scheduler-runtime-crash: the line above it is the "
            "ValueError's message with its type cut off by the paste (`The decoder prompt contains a(n) audio "
            "item with length 399, which exceeds the pre-allocated encoder cache size 0`), which no marker reads "
            "as an error"
        ),
    },
    "tests/data/blind-round164-excerpts-a/04-trtllm-15613-gemma4-vision-tp2-qkv-assert": {
        "verdict": (
            "first sight and since: inconclusive quoting `AssertionError: Unexpected qkv shape (1152, 1152) ... "
            "(expected first dim = 8*72)`; the tester expects scheduler-init-crash: a bare AssertionError with no"
            " frame and no engine's words says nothing of the process that raised it"
        ),
    },
    "tests/data/blind-round164-excerpts-b/05-inferencex-1360-aiter-baton-ep-hang": {
        "verdict": (
            "first sight and since: no-failure-seen; the tester expects inconclusive: AITER's `waiting for baton "
            "release at /tmp/aiter_configs/tuned_fmoe.csv.lock` beside vLLM's `No available shared memory "
            "broadcast block found in 60 seconds`, which vLLM also prints while idle or compiling, so the lines "
            "alone do not tell a hang"
        ),
    },
    "tests/data/blind-round36-excerpts-a/09-vllm-rocm-mla-gluon-gfx942": {
        "verdict": (
            "since session 49: scheduler-crash at 0.40 (inconclusive before, acceptable): the worker's stack runs"
            " through the model's forward (kimi_k25.py), which ends the process whatever the phase; the tester "
            "expects scheduler-init-crash (the kernel's `requires gfx950` check fails in the first forward, "
            "start-up's profile run), which the lines do not show: `worker_busy_loop` runs the profile run and "
            "serving alike"
        ),
    },
    "tests/data/blind-round165-bundles-2/02-rocm-mad-181-mori-ep-dp32-niah-corruption": {
        "verdict": (
            "first sight and since: inconclusive led by the harness's `=== NIAH VERDICT: FAIL (retrieval below "
            "NIAH_MIN_SCORE=8.0) ===`; the tester expects output-corruption: a needle-in-a-haystack retrieval "
            "score below its floor at every length, which no accuracy reader of the library knows as a measure"
        ),
    },
    "tests/data/blind-round165-excerpts-a/03-trtllm-17559-disagg-cachestate-mismatch": {
        "verdict": (
            "first sight and since: no-failure-seen; the tester expects config-mismatch: TensorRT-LLM's `Disagg "
            "server does not currently support these cacheState, please check the cacheState of the context and "
            "gen executors`, pasted without its exception's type and broken over two lines, has no error word a "
            "marker reads"
        ),
    },
    "tests/data/blind-round165-excerpts-d/01-prime-rl-pr2841-nixl-decode-assert": {
        "verdict": (
            "first sight and since: inconclusive on a bare `AssertionError` under "
            "`vllm/v1/core/sched/scheduler.py, in _update_from_kv_xfer_finished` (a frame as a paste shortened "
            'it, no `File "...", line N` shape the traceback reader reads); the tester expects scheduler-runtime-'
            "crash"
        ),
    },
    # Round 166 (session 50), at first sight on 504557af: 35/44 acceptable; round 167 on 6d9b1069: 30/36.
    "tests/data/blind-round166-bundles-1/02-hicache-l3-prefill-queue-slow-4p2d": {
        "verdict": (
            "first sight and since: healthy at 0.85 with a note naming prefill-saturated (the prefill's queue"
            " up in 95 % of its run, its batches at 16384 tokens); the tester expects prefill-saturated: no "
            "gate judged the run, and the bench's mean TTFT of 14.2 s is stated without a limit, so the queue"
            " drained at the load's end reads as load, not as a slow run"
        ),
        "key_line": (
            "first sight and since: healthy quoting the last answered request, not the prefill's `#queue-req:"
            " 63` batch line"
        ),
    },
    "tests/data/blind-round166-bundles-1/04-mi355x-vllm-nixl-2node-pd-healthy": {
        "key_line": (
            "first sight and since: healthy (the tester's verdict) quoting the last answered request, not the"
            " NIXL `Registering KV_Caches` line or the client's `16/16 requests returned 200 OK`"
        ),
    },
    "tests/data/blind-round166-bundles-2/01-pd-sidecar-wrong-model-404": {
        "key_line": (
            "first sight and since: inconclusive (the tester's verdict) quoting the sidecar's JSON record as "
            'its message, `request failed status=404`, not the record\'s raw `"msg":"request '
            'failed","code":404` the tester keys'
        ),
    },
    "tests/data/blind-round166-excerpts-c/03-eks-ray-pp-nccl-init-no-error": {
        "key_line": (
            "first sight and since: no-failure-seen (the tester's verdict) naming where the paste ends, not "
            "the last `ncclCommInitRank` line the tester keys"
        ),
    },
    "tests/data/blind-round166-excerpts-f/02-vllm-ascend-dsv2lite-tp4-dots-output": {
        "verdict": (
            "first sight and since: healthy at 0.40; the tester expects output-corruption: a completion whose"
            " text is 101 dots, which the degenerate-output readers count as layout (dots are leaders in "
            "tables) and no second thread shows as a failure shape"
        ),
    },
    "tests/data/blind-round167-excerpts-b/01-dynamo-trtllm-disagg-startup-only": {
        "key_line": (
            "first sight and since: no-failure-seen (the tester's verdict) naming the last step shown, not "
            "the cache transceiver line the tester keys"
        ),
    },
    "tests/data/blind-round167-bundles-2/01-vllm-mooncake-bootstrap-port-clash": {
        "key_line": (
            "first sight and since: bind-failed (the tester's verdict) quoting the first rank's `[Errno 98] "
            "... ('0.0.0.0', 8998)` (DP3 on node 0), not DP12's identical line the tester keys"
        ),
    },
    "tests/data/blind-round167-excerpts-c/01-epp-lora-metric-extract-noise": {
        "key_line": (
            "first sight: inconclusive on the endpoint picker's `extract failed` for vLLM's LoRA metric; "
            "since (a benign entry): no-failure-seen, naming where the lines end rather than the line the "
            "tester keys"
        ),
    },
    "tests/data/blind-round167-excerpts-c/04-llmd-sidecar-messages-no-bootstrap-room": {
        "verdict": (
            "first sight and since: inconclusive (acceptable) leading with the first row of a JSON error body"
            ' printed over two lines (`{"type":"error","error":{"type":"BadRequestError",`), not its '
            "`message` row below (`Disaggregated request received without bootstrap room id.`): a client's "
            "error body is no log record the multi-line reader joins"
        ),
    },
    "tests/data/blind-round167-excerpts-e/04-akash-vllm-nccl-init-system-error": {
        "verdict": (
            "first sight and since: scheduler-crash at 0.35 (acceptable) from the worker's death at exit code"
            " -15, its summary not naming the other worker's `RuntimeError: NCCL error: unhandled system "
            "error`; the phase (ncclCommInitRank, start-up) shows only in a call line pasted above the first "
            "frame"
        ),
    },
    "tests/data/blind-round167-excerpts-f/04-vllm-minimax-awq-garbage": {
        "verdict": (
            "first sight and since: healthy at 0.40; the tester expects output-corruption: a chat answer of "
            "words and fragments repeated out of order (`What isIs 'the's capital the capital of France? "
            "France's capital?`), no run of one unit and too few words for the vocabulary measure"
        ),
    },
    # Round 168 (session 50), at first sight on 880a6f28: 14/16 acceptable.
    "tests/data/blind-round168-excerpts-d/01-sglang-tp16-gloo-broadcast-read-timeout": {
        "verdict": (
            "first sight and since: scheduler-crash at 0.35 (phase unknown: the paste cut the frames above "
            "broadcast_pyobj); the tester expects collective-timeout: Gloo's `pair.cc:538] Read error "
            "[node0-private-ip]:<port>: Connection timed out` under the scheduler's broadcast, a TCP read "
            "that timed out, which no pattern reads as a collective's timeout (one thread)"
        ),
    },
    # Round 170 (session 51), at first sight on 5702c030: 26/32 acceptable (29/32 after its fixes).
    "tests/data/blind-round170-excerpts-a/05-vllm-under-llama-swap-serving": {
        "verdict": (
            "first sight and since: no-failure-seen: uvicorn's start, a /health 200 and a chat request begun "
            "are not read as serving (no request answered); the tester counts the probe as serving"
        ),
    },
    "tests/data/blind-round170-excerpts-b/03-k8s-pod-nvml-library-not-found": {
        "key_line": (
            "since round 170's fixes: inconclusive (the tester's verdict) quoting vLLM's `No platform detected` "
            "line, not the DEBUG line above it that says why (NVML not found); at first sight no-failure-seen"
        ),
    },
    "tests/data/blind-round170-excerpts-b/06-ome-sglang-pod-architectures-traceback": {
        "verdict": (
            "first sight and since: inconclusive (acceptable) whose summary quotes the traceback's header: the "
            "paste stops at the __post_init__ frame the tester keys, before any exception line"
        ),
        "key_line": "as the verdict's: the frame the tester keys is not quoted",
    },
    "tests/data/blind-round170-excerpts-c/05-llamabox-embeddings-behind-proxy-served": {
        "verdict": (
            "first sight and since: no-failure-seen (acceptable) naming where the lines end: llama-box's "
            "`log_server_response: ... | status 200 | cost 0.04s` lines are no format the catalogue reads, so "
            "the answered requests are not read as serving"
        ),
        "key_line": "as the verdict's: the answered request the tester keys is quoted only as where the lines end",
    },
    # Round 171 (session 52), at first sight on d3bdb811: 47/50 acceptable (49/50 after its fixes).
    "tests/data/blind-round171-excerpts-e/01-guidellm-empty-prompt-400": {
        "key_line": (
            "first sight and since: inconclusive (the tester's verdict) quoting guidellm's record cut at its start: "
            "the client's failure comes after the request's payload, past the cut (keeping a long line's failure "
            "words in view was tried and withdrawn: it moved other lines' keyed parts out of view)"
        ),
    },
    # Round 172 (session 52), at first sight on f37abe5d: 36/45 acceptable (41/45 after its fixes).
    "tests/data/blind-round172-bundles-3/05-b300-model-not-staged-tokenizer": {
        "verdict": (
            "since round 172's fixes: inconclusive (acceptable) leading with the tokenizer's ValueError, quoted "
            "without the trailing space the tester's key line keeps; at first sight ci-cancelled 0.87 (confidently "
            "wrong: the fail-fast cancel of a sibling job)"
        ),
    },
    "tests/data/blind-round172-excerpts-b/02-dynamo-vllm-trust-remote-code": {
        "verdict": (
            "first sight and since: inconclusive leading with pydantic's `ValidationError ... for ModelConfig`: the "
            "words that name the cause (`contains custom code ...`, model-code-not-trusted) are on a line the paste "
            "wrapped below it, which no error-level template holds"
        ),
    },
    "tests/data/blind-round172-excerpts-d/04-context-length-400-while-serving": {
        "verdict": (
            "first sight and since: inconclusive (acceptable) naming uvicorn's `Exception in ASGI application` after "
            "the last request answered; the summary quotes that answer, not the 400 or the health check the tester keys"
        ),
    },
    # Round 173 (session 52), at first sight on ab20938b: 20/22 acceptable (21/22 after its fix).
    "tests/data/blind-round173-bundles-1/04-dynamo-serve-served": {
        "key_line": (
            "first sight and since: healthy (the tester's verdict) quoting the client's answered request as the "
            "last line that shows serving, not the frontend's start or the worker's `Added request` the tester keys"
        ),
    },
    "tests/data/blind-round173-excerpts-a/06-lmstudio-invalid-json": {
        "verdict": (
            "first sight and since: inconclusive on LM Studio's `[ERROR]` header lines, whose messages (the "
            "client's invalid JSON, an unknown endpoint answered 200 anyway) are on the next lines: a record "
            "split over two lines is read as an error with no message; the tester expects healthy"
        ),
    },
    # Round 174 (session 53), at first sight on 4e8601d8: 42/50 acceptable (47/50 after its fixes).
    "tests/data/blind-round174-bundles-2/05-sglang-deepep-decode-kv-pool-full": {
        "key_line": (
            "since its fix: decode-saturated (the tester's verdict) quoting the decode's pool at its peak (0.96) and "
            "the prefill's bootstrap queue at its peak (310), not the 0.95 and 308 lines the tester keys"
        ),
    },
    "tests/data/blind-round174-bundles-3/03-vllm-mooncake-cross-rail-rnic": {
        "key_line": (
            "first sight and since: rdma-link-failure (the tester's verdict) quoting the first failed slice "
            "(mlx5_17) and the failing paths in its facts, not the mlx5_7 -> mlx5_6 slice line the tester keys"
        ),
    },
    "tests/data/blind-round174-excerpts-a/03-vllm-gptoss-ampere-no-kernel-image": {
        "verdict": (
            "first sight and since: inconclusive naming `no kernel image is available` as the earliest error that "
            "states its cause (the unsupported-feature family's fix); the paste starts at the exception line of "
            "the engine core's `[core.py:720]` record, its header and traceback cut, so no line shows the engine "
            "died; the tester expects a crash while serving (the thread's first request)"
        ),
    },
    "tests/data/blind-round174-excerpts-a/04-trtllm-nvfp4-fp4-dtype-size": {
        "verdict": (
            "first sight and since: scheduler-crash (acceptable) at 0.30 whose summary states the exception as "
            "`TllmException: Cannot determine size of FP4 data type (...)`, joined from the terminate line and "
            "its `what():` line, not the `what():  ...` line the tester keys"
        ),
    },
    "tests/data/blind-round174-excerpts-a/06-vllm-ascend-w4a8-groupsize-256": {
        "verdict": (
            "first sight and since: inconclusive naming the engine core's AclNN_Parameter_Error as the earliest "
            "error; the API server's traceback below its `Waiting for 1 local, 0 remote core engine proc(s) to "
            "start.` is cut before its exception (`Engine core initialization failed`), so no line shows the "
            "start-up failing; the tester expects a start-up crash"
        ),
    },
    # Round 175 (session 53), at first sight on 89c784f6: 40/50 acceptable (45/50 after its fixes).
    "tests/data/blind-round175-bundles-2/05-t3k-host-fabric-straggler": {
        "verdict": (
            "first sight and since: healthy at 0.40 on three Tenstorrent T3K hosts' pytest demo logs: their "
            "per-user decode rate lines (51.66 against ~65.5 tokens/s) are a format no metrics pattern reads, so "
            "no series shows the straggler; the tester expects straggler-node"
        ),
    },
    "tests/data/blind-round175-excerpts-a/03-infinity-cpu-warmed-up-ready": {
        "verdict": (
            "first sight and since: no-failure-seen (acceptable) whose summary names the results it read (the "
            "warm-up timings), not Infinity's `ready to batch requests` line the tester keys: no pattern reads "
            "Infinity's ready line as a server up"
        ),
    },
    "tests/data/blind-round175-excerpts-a/04-infinity-onnx-warmup-position-overflow": {
        "verdict": (
            "since its fix (no-failure-seen at first sight): inconclusive naming ONNX Runtime's E-level Gather "
            "error and the lifespan's `ERROR:    Traceback` below it; no line names Infinity's warm-up (the "
            "traceback is cut at `select_model(`), so the tester's warmup-failure is not reached"
        ),
    },
    "tests/data/blind-round175-excerpts-a/06-infinity-batch-cuda-oom-shared-gpu": {
        "verdict": (
            "first sight and since: inconclusive; Rich's log handler wrapped the message into padded, indented "
            "rows (`ERROR: CUDA   batch_handler.py:574`, then `out of memory. Tried to allocate ...` below), "
            "which are not read back into one line, so the out-of-memory words are on a row of their own"
        ),
    },
    "tests/data/blind-round175-excerpts-e/04-vllm-omni-14h-stall-status-polls": {
        "verdict": (
            "first sight and since: no-failure-seen; vLLM's `No available shared memory broadcast block found "
            "in 60 seconds` is printed by idle workers and slow loads as well as by hangs (rounds 61, 90 and 169 "
            "label it benign, round 162 a hang), so no pattern reads it, and status polls answered 200 follow "
            "it; the tester expects inconclusive (the pipeline stalled)"
        ),
    },
    "tests/data/blind-round35-bundles-a/05-llmd-pd-llama31-8b-gke": {
        "key_line": (
            "since session 54 (quoted before): the traceback's lines take the time of the stamped line above them "
            "however far it is, so the first of the pod's ten gated-repo lines is huggingface_hub's `Cannot access "
            "gated repo for url ...` (line 44), not transformers' `OSError: You are trying to access a gated repo.` "
            "59 lines below it that the tester keys: the same failure, the other line of it quoted"
        ),
    },
    # Round 176 (session 54), at first sight on b10971b8: 38/50 acceptable (47/50 after its fixes).
    "tests/data/blind-round176-bundles-1/05-vllm-nixl-model-revision-skew": {
        "verdict": (
            "first sight and since: healthy at 0.60; a rolling update restarted only the decode on another "
            "`--revision` of the model, its NIXL check passed and every request answered 200: the launch lines' "
            "revisions are not compared (a difference with no failure after it is no config mismatch), and the "
            "tester expects config-mismatch"
        ),
    },
    "tests/data/blind-round176-excerpts-a/06-vllm-seedoss-tool-parser-serving": {
        "verdict": (
            "first sight and since: no-failure-seen at 0.50; the paste holds uvicorn's `Application startup "
            "complete.`, a request's chat template and tool parser loading and `EngineCore loop active.`, but no "
            "request answered, and the tester expects healthy"
        ),
    },
    "tests/data/blind-round176-excerpts-c/05-dynamo-vllm-compile-cache-miss-startup": {
        "key_line": (
            "first sight and since: no-failure-seen (right), whose summary quotes no line: no pattern reads vLLM's "
            "`Using cache directory: .../torch_compile_cache/<hash>/...` lines the tester keys (two runs, two "
            "hashes: a compile cache not reused)"
        ),
    },
    "tests/data/blind-round176-excerpts-d/04-vllm-modelscope-tp-download": {
        "verdict": (
            "first sight and since: inconclusive (acceptable) whose summary names the source lines under the "
            "frames, not the tester's key frame (`modelscope/hub/snapshot_download.py ... in _snapshot_download`): "
            "the paste is cut before its exception line, and no rule reads a download's frames as the failure"
        ),
        "key_line": "the same: the frame line the tester keys is not quoted",
    },
    # Round 177 (session 54), at first sight on 390d437d: 40/50 acceptable (46/50 after its fixes).
    "tests/data/blind-round177-bundles-1/05-vllm-nixl-proxy-no-kv-params-decode-reprefill": {
        "verdict": (
            "first sight and since: healthy at 0.60; a proxy that never forwards kv_transfer_params leaves the "
            "decode recomputing every prompt while every answer is right: no line says a transfer was skipped, "
            "and the tester (who calls the case debatable) expects config-mismatch"
        ),
        "key_line": "the same: the proxy's and decode's lines the tester keys are not quoted",
    },
    "tests/data/blind-round177-bundles-2/03-mooncake-pd-prefill-host-reboot-mid-bench": {
        "verdict": (
            "first sight and since: inconclusive (acceptable) whose summary names the benchmark's and the load "
            "balancer's lines, not the prefill's log stopping nor its journal's new boot the tester keys: no "
            "pattern reads a journal's boot without a shutdown as a host that went away"
        ),
    },
    "tests/data/blind-round177-bundles-2/04-vllm-dsv4-pp-prefill-mooncake-validation-passed": {
        "key_line": (
            "first sight and since: healthy (right), whose report quotes the servers' and the run's last lines, "
            "not the `RESULT: PASS` and GSM8K lines the tester keys"
        ),
    },
    "tests/data/blind-round177-bundles-2/05-sglang-pd-decode-retraction-health-503-router-ejects": {
        "verdict": (
            "first sight and since: inconclusive; the decode's `Health check failed. Server couldn't get a "
            "response from detokenizer` (benign only when serving follows it) is the unexplained error beside the "
            "router's `No available decode workers`, so router-no-workers yields to it; the KV pool's retractions "
            "before it are not read as the decode saturating, which the tester accepts"
        ),
    },
    "tests/data/blind-round177-excerpts-c/07-dsv4-p2p-jit-warnings-only": {
        "key_line": (
            "first sight and since: no-failure-seen (right), whose summary quotes the last line, not the PyTorch "
            "warning about an unbatched P2P op the tester keys (a warning no layer reads)"
        ),
    },
    "tests/data/blind-round177-excerpts-d/02-vllm-hf-hub-name-resolution-offline": {
        "key_line": (
            "since its fix (no-failure-seen at first sight): model-load-failure quoting the one pasted line cut "
            "around the family's first words (`Max retries exceeded`), which leaves out `[Errno -3] Temporary "
            "failure in name resolution` at its end"
        ),
    },
    "tests/data/blind-round177-excerpts-d/05-sglang-worker-import-proxy-env-keys": {
        "key_line": (
            "first sight and since: inconclusive naming the traceback's header; the traceback is cut before its "
            "exception and the innermost frame's call the tester keys is not quoted"
        ),
    },
    "tests/data/blind-round177-excerpts-d/06-vllm-api-key-routes-startup-no-failure": {
        "key_line": (
            "first sight and since: no-failure-seen (right), whose summary quotes the last route line, not "
            "`Available routes are:` the tester keys"
        ),
    },
    "tests/data/blind-round177-excerpts-e/07-lmcache-yarn-long-context-served": {
        "verdict": (
            "first sight and since: no-failure-seen (acceptable) whose summary names LMCache's stored-chunk "
            "results, not the lines the tester keys; nothing shows a request answered, and the tester expects healthy"
        ),
    },
    # Round 178 (session 54), at first sight on d58c128b: 40/50 acceptable (42/50 after its fixes).
    "tests/data/blind-round178-bundles-1/02-vllm-mooncake-rdma-config-served-by-tcp": {
        "key_line": (
            "first sight and since: output-corruption (right), quoting the garbled answers, not Mooncake's "
            "`Found 0 HCAs.` the tester keys: no pattern reads a transport that fell back to TCP"
        ),
    },
    "tests/data/blind-round178-bundles-1/04-sglang-mooncake-tcp-lane-queue-full": {
        "verdict": (
            "first sight and since: inconclusive (acceptable) naming Mooncake's failed sessions; its TCP lane's "
            "queue-full count and throughput metrics, which the tester keys, are lines no pattern reads"
        ),
    },
    "tests/data/blind-round178-bundles-2/01-glm52-eagle-decode-prefill-without-spec": {
        "verdict": (
            "first sight and since: inconclusive; the decode with EAGLE beside a prefill without it hangs in its "
            "warm-up until the scheduler's watchdog fires, which config-mismatch does not explain (its effects are "
            "failed transfers and answers), and the tester expects config-mismatch"
        ),
        "key_line": "the same: the two servers' speculative_algorithm settings are not quoted",
    },
    "tests/data/blind-round178-bundles-2/02-dsv3-pd-mtp-accept-len-drop": {
        "verdict": (
            "first sight and since: healthy at 0.75; the run serves and passes, and its MTP accept length (1.98 "
            "against 3.19 without PD, a figure from another run the logs do not hold) is judged against nothing; "
            "the tester expects inconclusive"
        ),
    },
    "tests/data/blind-round178-excerpts-a/07-sglang-diffusion-scheduler-dies-health-ok": {
        "verdict": (
            "first sight and since: scheduler-init-crash at 0.40; SGLang's diffusion scheduler quits after three "
            "errors while /health answers 200, which shows no request served, so the crash is placed at start-up; "
            "the tester expects a crash while serving"
        ),
    },
    "tests/data/blind-round178-excerpts-d/06-sglang-dp-attn-gptoss-garbage": {
        "verdict": (
            "first sight and since: no-failure-seen; the paste is the issue's prose and a markdown table of "
            "GSM8K/MMLU with DP attention off and on (124/128 against 0/128), which no pattern reads as two sides "
            "of a comparison; the tester expects output-corruption"
        ),
    },
    "tests/data/blind-round178-excerpts-e/01-xinference-vllm-health-restart": {
        "verdict": (
            "first sight and since: no-failure-seen; Xinference's `Detecting vLLM is not health, prepare to quit "
            "the process` is an INFO line no pattern reads, and the workers' exits after it are a stop; the tester "
            "expects inconclusive"
        ),
    },
    "tests/data/blind-round178-excerpts-e/02-vllm-sigterm-drain": {
        "verdict": (
            "first sight and since: inconclusive; uvicorn waiting for open connections as the server shuts down "
            "is read as a server stopped with requests open, and the tester expects no-failure-seen (a graceful "
            "drain on SIGTERM)"
        ),
    },
    "tests/data/blind-round178-excerpts-e/03-spyre-sigterm-backtrace": {
        "key_line": (
            "first sight and since: no-failure-seen (right), whose summary does not quote the runtime's `Signal "
            "Received: 15 (Terminated)` lines the tester keys"
        ),
    },
    "tests/data/blind-round178-excerpts-e/05-sglang-detok-hf429-half-dead": {
        "verdict": (
            "first sight and since: inconclusive (acceptable) naming the health check's 5xx; the Hub's 429 and "
            "the tokenizer's `Unable to load vocabulary` the tester keys are not its summary's lines"
        ),
    },
    # Round 179 (session 54), at first sight on bc021a50: 43/50 acceptable (kept as it was scored).
    "tests/data/blind-round179-bundles-3/04-gpustack-aiohttp-connector-limit": {
        "key_line": (
            "first sight: healthy (right), whose report quotes the served requests, not vLLM's `Running: 100 "
            "reqs, Waiting: 0 reqs` or the benchmark's success rate and concurrency the tester keys"
        ),
    },
    "tests/data/blind-round179-excerpts-a/01-vllm-fa-headdim-not-multiple-of-32": {
        "verdict": (
            "first sight: scheduler-crash at 0.35 (acceptable) resting on the worker's multiproc_executor line, "
            "not the `Worker failed with error 'This flash attention build does not support headdim ...'` "
            "line the tester keys; its phase (the profile run at start-up) is not read"
        ),
    },
    "tests/data/blind-round179-excerpts-a/05-vllm-flashinfer-trtllm-page-size-544": {
        "verdict": (
            "first sight: inconclusive naming FlashInfer's `Expect (32 <= headDim <= 2048) && (numTokensPerPage "
            "<= 128)` check; no frame or line places it in an engine, and the tester expects scheduler-crash"
        ),
    },
    "tests/data/blind-round179-excerpts-b/04-llmd-vllm-cuda-driver-803-set-device": {
        "verdict": (
            "first sight: inconclusive (acceptable) naming the source lines under the frames; the paste is cut "
            "before CUDA's error 803 and the init_device frame the tester keys is not quoted"
        ),
    },
    "tests/data/blind-round179-excerpts-c/04-sglang-legacy-router-init-traceback": {
        "verdict": (
            "first sight: no-failure-seen; SGLang 0.1's `router init state: Traceback (most recent call last):` "
            "holds the traceback's header after a message, which no layer reads as an error line, and the "
            "traceback is cut before its exception; the tester expects scheduler-init-crash"
        ),
        "key_line": "the same: the header line the tester keys is not quoted",
    },
    "tests/data/blind-round179-excerpts-d/02-sglang-gemma3-lora-hidden-dim-init": {
        "verdict": (
            "first sight: scheduler-crash at 0.35 (acceptable) whose summary names run_scheduler_process and "
            "an unexplained line, not the `get_hidden_dim` frame or the `Scheduler hit an exception` line the "
            "tester keys; Scheduler.__init__ in its stack is not read as start-up"
        ),
    },
    "tests/data/blind-round179-excerpts-d/03-vllm-lora-modules-to-save-lm-head": {
        "verdict": (
            "first sight: scheduler-crash at 0.35; the LoRA weight refused while loading an adapter for a "
            "request is not placed while serving, and the tester expects scheduler-runtime-crash"
        ),
    },
    "tests/data/blind-round179-excerpts-d/07-vllm-gpustack-lora-rank-over-max": {
        "verdict": (
            "first sight: scheduler-crash at 0.35 at `peft_helper.validate_legal(...)` (the paste ends before the "
            "exception); an adapter refused is one request's error, not the engine's death, and the tester "
            "expects inconclusive"
        ),
    },
    "tests/data/blind-round180-bundles-2/03-lmcache-mooncake-master-moved": {
        "verdict": (
            "first sight: inconclusive, led by the store client's `Client not available` (the earliest of five "
            "kinds of error after the master moved); the summary quotes the next two kinds, not the tester's "
            "`Failed to ping master for 3 times (non-HA); reconnecting to` line, the fourth"
        ),
    },
    "tests/data/blind-round180-excerpts-d/05-vllm-chunked-prefill-ttft": {
        "verdict": (
            "first sight: no-failure-seen; two runs pasted one under the other (chunked prefill off, then on) "
            "are not compared, and a per-request `finished E2E: ..., TTFT: ...` line is read as no served request"
        ),
    },
    "tests/data/blind-round181-bundles-1/01-dynamo-grove-rollout-checksum-reject": {
        "verdict": (
            "first sight: inconclusive, led by the client's 503s; since, the summary also quotes the frontend's "
            "earlier checksum error, but no pattern reads a router refusing a new worker set, and the tester "
            "expects router-no-workers"
        ),
    },
    "tests/data/blind-round181-bundles-1/02-llmd-router-toplevel-kv-params-old-vllm": {
        "key_line": (
            "the decode's first stats line at 0 % the tester keys is not quoted: the series keeps its last line"
        ),
        "verdict": (
            "first sight: performance-regression at 0.45; since, inconclusive on the decode's external prefix "
            "cache hit rate at 0 %, quoting the decode's last stats line, not the first zero line the tester keys"
        ),
    },
    "tests/data/blind-round181-bundles-3/04-trtllm-disagg-decode-unbound-cpu-contention": {
        "key_line": ("the same: the step times the tester keys are read by no pattern"),
        "verdict": (
            "first sight: healthy at 0.60; a decode whose host step time dwarfs its device step time (ranks "
            "unbound from their CPUs) with no threshold or baseline in the logs is not read as slow"
        ),
    },
    "tests/data/blind-round181-bundles-1/04-sglang-anthropic-messages-drops-bootstrap": {
        "key_line": (
            "first sight: the servers' `Invalid request: Disaggregated request received without bootstrap room id.` "
            "lines are no error lines (no level, no error word); the client's 400 with the same words leads"
        ),
    },
    "tests/data/blind-round181-bundles-1/05-dynamo-mixed-version-rollout-healthy": {
        "key_line": (
            "first sight: the load generator's `summary ... sent=58 ok=58 failed=0` and the frontend's `added model` "
            "lines are read by no pattern"
        ),
    },
    "tests/data/blind-round181-excerpts-c/07-vllm-hermes-tool-parser-debug": {
        "key_line": (
            "first sight: a paste of DEBUG lines with nothing failed quotes where it ends, not the parser's first line"
        ),
    },
    "tests/data/blind-round83-excerpts-d/03-vllm-omni-buildkite-hf-hub-502": {
        "verdict": (
            "since session 55: scheduler-init-crash (acceptable) on vLLM's `WorkerProc failed to start.`, whose "
            "summary does not quote the traceback below it: its rows carry a CI web view's `  | ` gutter the "
            "first line lacks, so the crash reads no frame (first sight: inconclusive quoting the innermost call)"
        ),
    },
    "tests/data/blind-round182-bundles-1/01-3p2d-decode-rank-kv-full-freeze": {
        "verdict": (
            "first sight: inconclusive led by sglang's `Health check failed` on the frozen decode; one DP rank's KV "
            "pool full with retractions while its peers sit below half is not read as the decode's saturation"
        ),
    },
    "tests/data/blind-round182-bundles-1/03-2p1d-chunked-prefill-mooncake-half-written-kv": {
        "verdict": (
            "first sight: healthy at 0.55; a needle test passing 1 of 9 under P/D against 9 of 9 aggregated is two "
            "results side by side, not compared, and the servers log nothing wrong"
        ),
    },
    "tests/data/blind-round182-bundles-2/01-ascend-pd-181k-prompt-served": {
        "key_line": ("first sight: healthy, quoting a later serving line, not the decode's KV pull the tester keys"),
    },
    "tests/data/blind-round182-bundles-2/02-llmd-sidecar-prefill-reset-fallback": {
        "verdict": (
            "first sight: healthy at 0.80; the prefill's queue standing at 120-290 with no failed gate is load, and "
            "the sidecar's resets that fell back to the decode are read as handled"
        ),
    },
    "tests/data/blind-round182-bundles-2/05-trtllm-disagg-no-retry-dropped-requests": {
        "key_line": ("first sight: inconclusive on the client's failed responses, not the line the tester keys"),
    },
    "tests/data/blind-round182-excerpts-a/07-vllm-rocm-triton-specdec-no-output": {
        "verdict": (
            "first sight: inconclusive (acceptable) led by the drafter's zero acceptance, whose summary does not "
            "quote the pytest line the tester keys"
        ),
    },
    "tests/data/blind-round182-excerpts-c/01-vllm-dsv32-pp-indexer-keyerror": {
        "verdict": (
            "first sight: inconclusive on the KeyError; the frames (get_attn_backends_for_group, a KV cache group's "
            "attention backends) are not placed at start-up, and the tester expects scheduler-init-crash"
        ),
    },
    "tests/data/blind-round182-excerpts-e/06-vllm-engine-ready-timeout-long-load": {
        "verdict": (
            "first sight: inconclusive (acceptable) naming the traceback's header, not multiprocessing's `Process "
            "ApiServer_5:` line the tester keys; the engine-ready timeout itself is past the paste's cut"
        ),
    },
    "tests/data/blind-round182-excerpts-e/07-sgl-router-inline-drain-timeout": {
        "verdict": (
            "first sight: no-failure-seen; the router's `Inline drain timeout for` pasted without its level holds no "
            "failure word a reader of levels sees, and the tester expects inconclusive"
        ),
    },
}
# Excerpts name the lines their thread pointed at: a few, the ones that matter.
MAX_EXCERPT_KEY_LINES = 3


def params(aspect: str, cases: list[Path] = CASES) -> list[Any]:
    """The cases as test parameters, a known miss of `aspect` as a strict xfail."""
    return [
        pytest.param(case, id=case_id(case), marks=pytest.mark.xfail(strict=True, reason=KNOWN[case_id(case)][aspect]))
        if aspect in KNOWN.get(case_id(case), {})
        else pytest.param(case, id=case_id(case))
        for case in cases
    ]


def problems_shown(problems: list[str]) -> str:
    return "; ".join(problems)


# ---------------------------------------------------------------- each case


def test_every_known_miss_is_a_case() -> None:
    assert set(KNOWN) <= {case_id(case) for case in CASES}


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_the_expectation_has_the_corpus_shape(case: Path) -> None:
    problems = expectation_problems(tomllib.loads((case / "expected.toml").read_text()))
    assert not problems, problems


KNOWING = [case for case in CASES if case.parent in (FIXTURES, DATA / "excerpts")]


@pytest.mark.parametrize("case", KNOWING, ids=case_id)
def test_a_case_written_knowing_the_library_states_its_chain(case: Path) -> None:
    assert "chain" in load_expected(case)


@pytest.mark.parametrize("case", params("verdict"))
def test_verdict_and_exit_code(case: Path, case_reports: Mapping[Path, Report]) -> None:
    problems = verdict_problems(load_expected(case), case_reports[case])
    assert not problems, problems_shown(problems)


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_chain(case: Path, case_reports: Mapping[Path, Report]) -> None:
    report = case_reports[case]
    problems = chain_problems(load_expected(case), report)
    assert not problems, f"{problems_shown(problems)}; the chain has {sorted({e.pattern for e in report.chain})}"


@pytest.mark.parametrize("case", params("values"))
def test_values_and_times(case: Path, case_reports: Mapping[Path, Report]) -> None:
    expected, report = load_expected(case), case_reports[case]
    problems = value_problems(expected, report) + time_problems(expected, report)
    assert not problems, problems_shown(problems)


# A case whose expected.toml says `key_lines = []` names no key line: none is demanded of its report.
KEYED = [case for case in CASES if load_expected(case).get("key_lines")]


@pytest.mark.parametrize("case", params("key_line", KEYED))
def test_a_key_line_is_quoted(case: Path, case_reports: Mapping[Path, Report]) -> None:
    report = case_reports[case]
    assert quoted_key_lines(load_expected(case), report), f"no key line quoted; verdict {report.verdict.id}"


@pytest.mark.parametrize("case", KEYED, ids=case_id)
def test_the_key_lines_are_lines_of_the_case(case: Path) -> None:
    keys = load_expected(case)["key_lines"]
    logs = case_lines(case)
    missing = [key for key in keys if not any(key in line for line in logs)]
    assert not missing, f"not in the case's logs: {missing}"
    if case.parent == DATA / "excerpts":
        assert 1 <= len(keys) <= MAX_EXCERPT_KEY_LINES, f"give 1-{MAX_EXCERPT_KEY_LINES} key lines"


DISTORTED = [case for case in CASES if "same_as" in load_expected(case)]


@pytest.mark.parametrize("case", DISTORTED, ids=case_id)
def test_a_distorted_copy_reads_as_its_original(case: Path, case_reports: Mapping[Path, Report]) -> None:
    """A copy of a bundle with its clocks (or layout) distorted gets the original's verdict and chain."""
    expected = load_expected(case)
    original, report = case_reports[FIXTURES / expected["same_as"]], case_reports[case]
    ignored = expected.get("same_as_ignoring", [])
    assert report.verdict.id == original.verdict.id
    assert chain_meaning(report.chain, ignored) == chain_meaning(original.chain, ignored)


@pytest.mark.parametrize("case", params("other_incidents"))
def test_other_incidents_and_why_the_rivals_lost(case: Path, case_reports: Mapping[Path, Report]) -> None:
    """Separate incidents are findings of their own (with the chain of the bundle they came from);
    an alternative says why it lost."""
    expected, report = load_expected(case), case_reports[case]
    assert [f.verdict.id for f in report.other_incidents] == expected.get("other_incidents", [])
    if "other_incident_same_as" in expected:
        original = case_reports[FIXTURES / expected["other_incident_same_as"]]
        ignored = expected.get("same_as_ignoring", [])
        assert report.other_incidents[0].verdict.id == original.verdict.id
        assert chain_meaning(report.other_incidents[0].chain, ignored) == chain_meaning(original.chain, ignored)
    why = {a.id: a.why_not for a in report.alternatives}
    for verdict, phrase in expected.get("alternative_why", {}).items():
        assert phrase in why.get(verdict, ""), why


# ---------------------------------------------------------------- the corpus covers the library


def test_every_cause_pattern_that_roots_a_verdict_roots_a_case(
    library: Library, case_reports: Mapping[Path, Report]
) -> None:
    """Like a rule's fixture in a linter: a cause line the library can give a verdict for is the root
    of some case's report, so a change that breaks it fails a case."""
    rooted = {event.pattern for report in case_reports.values() for event in report.roots}
    causes = {p.id for p in library.patterns if p.kind is Kind.CAUSE and p.verdict is not None}
    assert not sorted(causes - rooted - UNROOTED), "cause patterns that root no case: add a real case"
    assert not UNROOTED & rooted, f"now rooting a case, remove from UNROOTED: {sorted(UNROOTED & rooted)}"


# Cause patterns no case roots yet. Each needs a real case (real lines from a public thread), not a
# written one; the gate fails for any new pattern, and for one listed here once a case roots it.
UNROOTED = {
    "nixl-registration-failed",
}


def test_every_verdict_has_two_cases(library: Library) -> None:
    verdicts = Counter(load_expected(case)["verdict"] for case in CASES)
    thin = {spec.id: verdicts[spec.id] for spec in library.verdicts if spec.tier is not Tier.META}
    thin = {verdict: count for verdict, count in thin.items() if count < 2 and verdict not in ONE_CASE}
    assert not thin, f"verdicts with fewer than two cases: {thin}"


ONE_CASE: set[str] = set()  # verdicts allowed one case while a second real one is sought


# ---------------------------------------------------------------- the checks themselves can fail


def test_a_misspelt_or_missing_expectation_key_is_refused() -> None:
    data = {"description": "x", "expected": {"verdict": "x", "must_not_be": [], "chian": ["a"]}}
    assert expectation_problems(data) == ["unknown key 'chian' in [expected]", "[expected] lacks 'exit_code'"]
    assert expectation_problems({"expected": {"verdict": "x", "exit_code": 1, "must_not_be": []}}) == [
        "lacks 'description'"
    ]


def test_the_format_a_blind_case_arrives_in_is_read() -> None:
    """New blind cases come as: description and source at the top; verdict, acceptable, exit_code,
    must_not_be and key_lines under [expected]."""
    data = {
        "description": "a blind case",
        "source": "blind round 6",
        "expected": {
            "verdict": "inconclusive",
            "acceptable": ["scheduler-init-crash"],
            "exit_code": 3,
            "must_not_be": ["healthy"],
            "key_lines": ["x"],
        },
    }
    assert expectation_problems(data) == []


def test_an_unexpected_pattern_in_the_chain_fails_unless_allowed(bundle_reports: Mapping[Path, Report]) -> None:
    report = bundle_reports[FIXTURES / "mori-mr-size-limit-seed"]
    shown = sorted({event.pattern for event in report.chain})
    assert chain_problems({"chain": shown}, report) == []
    assert chain_problems({"chain": shown[1:]}, report) == [f"unexpected in the chain: {shown[:1]}"]
    assert chain_problems({"chain": shown[1:], "chain_extra_ok": True}, report) == []


def test_a_close_must_not_be_runner_up_fails(bundle_reports: Mapping[Path, Report]) -> None:
    report = bundle_reports[FIXTURES / "mori-mr-size-limit-seed"]
    rival = report.alternatives[0]
    assert not must_not_be_problems({"must_not_be": [rival.id]}, report)  # a clear runner-up is allowed
    close = replace(report, alternatives=(replace(rival, confidence=report.verdict.confidence - 0.05),))
    assert must_not_be_problems({"must_not_be": [rival.id]}, close)
    assert must_not_be_problems({"must_not_be": [report.verdict.id]}, report)


def test_an_acceptable_verdict_must_name_a_key_line(bundle_reports: Mapping[Path, Report]) -> None:
    report = bundle_reports[FIXTURES / "mori-mr-size-limit-seed"]
    wanted = {"verdict": "gpu-oom", "acceptable": [report.verdict.id], "exit_code": 1, "must_not_be": []}
    assert verdict_problems(wanted, report) == []
    unnamed = {**wanted, "key_lines": ["a line the summary does not quote"]}
    assert verdict_problems(unnamed, report) == [
        f"the acceptable {report.verdict.id}'s summary names no key line: {report.verdict.summary}"
    ]
    assert verdict_problems({**wanted, "acceptable": []}, report)
