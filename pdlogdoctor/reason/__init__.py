"""Stage 3, reason: events in, the verdict out.

In: the scan's events and sources, and the library's causal rules.
Out: a `Report` whose verdict, confidence, chain, rivals and missing evidence are decided here,
once: clocks are aligned, events linked into cause -> effect edges, hypotheses weighed (with the
analyzers' arithmetic), incidents told apart. Later stages add notes; they never change it.
"""
