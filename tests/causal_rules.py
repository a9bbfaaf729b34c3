"""The library's causal rules after loading, one per line: what `[[causes]]` tables and consequence
groups expand to (link.py joins events by exactly these).

    python -m tests.causal_rules            # rewrite tests/data/causal-rules.txt from the library

tests/test_consequences.py compares the shipped library with that file, so a change to a group or
an edge shows in review as the rules it adds or removes. Rewrite the file when the change is meant.
"""

from __future__ import annotations

import sys

from pdlogdoctor.library.load import load_library
from pdlogdoctor.library.patterns import Library

from .conftest import ROOT

RULES_FILE = ROOT / "tests" / "data" / "causal-rules.txt"
HEADER = "# cause target window_s skew_s join (- for none): tests/causal_rules.py writes this file\n"


def rule_lines(library: Library) -> list[str]:
    """Every CauseRule of every pattern, every field, sorted (the order of edges in a file means nothing)."""
    return sorted(
        f"{pattern.id} {rule.target} {rule.window_s:g} {rule.skew_s:g} {','.join(rule.join) or '-'}"
        for pattern in library.patterns
        for rule in pattern.causes
    )


def read_rules() -> list[str]:
    return [line for line in RULES_FILE.read_text(encoding="utf-8").splitlines() if not line.startswith("#")]


def main() -> int:
    RULES_FILE.write_text(HEADER + "\n".join(rule_lines(load_library())) + "\n", encoding="utf-8")
    print(f"{RULES_FILE.relative_to(ROOT)}: {len(read_rules())} rules")
    return 0


if __name__ == "__main__":
    sys.exit(main())
