"""Which way a measure is better, by the words that name it: read by the before/after comparison
(reason/compared.py) and the comparison tables (scan/tables.py) alike.

A throughput, a rate or an accuracy is better higher; a latency or a duration lower. The unit counts
(`17.67 requests/s`, `51.9 ms`), then the name (`Mean TTFT`, `gsm8k`).
"""

from __future__ import annotations

from .lazyre import lazy_re

BETTER_HIGHER = lazy_re(
    r"(?i)/s\b|/sec\b|per second|/min\b|per minute|throughput|\bqps\b|\brps\b|\bsps\b|\btps\b|"
    r"accuracy|\bacc\b|\bscore\b|pass@|\bem\b|\bexact[ _]match\b|\bf1\b|gsm8k|mmlu|gpqa|humaneval|"
    # lm-eval's GSM8K filters, a column each when a table lays out both (`| strict-match | flexible-extract |`)
    r"\bstrict[-_ ]match\b|\bflexible[-_ ]extract\b|"
    # the evaluation suites whose scores are reported by name (an accuracy each: more is better)
    r"\bmgsm|\bmath[-_ ]?500\b|\baime\b|ifeval|\bbbh\b|\barc[-_](?:c|e|challenge|easy)\b|hellaswag|truthfulqa|"
    r"winogrande|\bmmmu|livecodebench|\bmbpp\b|longbench|\bc-?eval\b|"
    # llama-bench's tests (`pp512`, `tg128`: prompt processing and generation, in tokens per second)
    r"\b(?:pp|tg)\d+\b|"
    # a speculative decoder's acceptance: its rate, its mean accepted length (better higher; not named a
    # speed by it alone: a test's acceptance floor checks the drafter, reason/performance.py's words)
    r"\bacceptance\b|\baccept[ _-](?:rate|len(?:gth)?)\b"
)
BETTER_LOWER = lazy_re(
    r"(?i)\bms\b|\b[nuµμ]s\b|\bsec(?:onds?)?\b|\bs\b|latency|\bttft\b|\btpot\b|\bitl\b|\be2e\b|\bttfp\b|\brtf\b|duration|\btime\b|"
    r"\bppl\b|perplexity"
)

# A heading's block read with a blank line between them (scan/headings.py): compared only with a
# side laid out alike (reason/compared.py).
SPACED = "spaced"


def directed(words: str) -> bool:
    """The words name a measure whose better way is known (a throughput up, a latency down)."""
    return bool(BETTER_HIGHER.search(words) or BETTER_LOWER.search(words))
