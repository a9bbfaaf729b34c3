"""One log offered twice, as x.log.zst and x.log.gz: read only the .zst.

Harnesses sometimes upload both; reading both doubles the work and every event.
zstd decompresses several times faster than gzip, so the .zst is the one kept,
and the skipped .gz is noted on it (a note, not missing evidence).
"""

from __future__ import annotations

from dataclasses import replace

from ..model import InputProblem
from . import LogInput

DUPLICATE_CODE = "duplicate-skipped"


def prefer_zstd(inputs: list[LogInput]) -> list[LogInput]:
    by_name = {log_input.name: log_input for log_input in inputs}
    skipped = {
        log_input.name
        for log_input in inputs
        if log_input.name.endswith(".gz") and _readable(by_name.get(log_input.name[:-3] + ".zst"))
    }
    kept = []
    for log_input in inputs:
        if log_input.name in skipped:
            continue
        twin = log_input.name[:-4] + ".gz" if log_input.name.endswith(".zst") else None
        if twin in skipped:
            note = InputProblem(DUPLICATE_CODE, f"{twin} not read: the same log as this .zst, which is faster to read")
            log_input = replace(log_input, problems=(*log_input.problems, note))
        kept.append(log_input)
    return kept


def _readable(log_input: LogInput | None) -> bool:
    return log_input is not None and log_input.open is not None and log_input.members is None
