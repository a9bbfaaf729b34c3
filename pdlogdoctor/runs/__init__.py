"""Across runs: one run compared with the last green one (`diff`, `--baseline`).

In: two runs' reports and events. Out: their profiles side by side and what changed first.
"""
