"""Which inputs a human-facing report lists: all of them for a bundle, the telling ones for thousands."""

from __future__ import annotations

from ..model import Report, Role, Source

SHOWN_INPUTS = 20


def inputs_to_show(report: Report, limit: int = SHOWN_INPUTS) -> tuple[list[Source], int]:
    """(inputs to list, how many more were left out).

    The chain's files come first, then inputs with problems, then the rest in order:
    a directory of 3,000 per-rank logs must not bury the report under its inputs table.
    """
    if len(report.inputs) <= limit:
        return list(report.inputs), 0
    in_chain = {event.source for event in report.chain}
    telling = [s for s in report.inputs if s.name in in_chain or s.problems or s.role is not Role.UNKNOWN]
    ranked = sorted(telling, key=lambda s: (s.name not in in_chain, not s.problems, s.role is Role.UNKNOWN))
    shown = ranked[:limit]
    order = {source.name: index for index, source in enumerate(report.inputs)}
    shown.sort(key=lambda s: order[s.name])
    return shown, len(report.inputs) - len(shown)
