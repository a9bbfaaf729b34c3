"""Implicit config mismatch: the two `server_args` lines disagree on what both must share.

sglang raises an explicit error for page size and KV dtype only in builds that check
them at bootstrap; older builds transfer anyway and decode reads the bytes wrongly (garbage
output, failed transfers). So the detector compares the prefill and decode `server_args`
lines itself, and, where a server states a setting it resolved on a line of its own (sglang's
`Using KV cache dtype: torch.float8_e4m3fn`: Mark.SETTING), the two servers' lines of that kind.
Only keys that must be equal are compared: a different tp_size is legitimate for MLA models (sglang
refuses it explicitly where it is not), so it is never flagged here.
"""

from __future__ import annotations

from ...model import SERVER_ROLES, Event, FieldValue, Mark, Role
from ...model.textcut import clip
from ...model.verdicts import CONFIG_MISMATCH
from ..hypothesis import Evidence, Hypothesis
from ..link import downstream

VERDICT = CONFIG_MISMATCH
# `kv_dtype_used`: the dtype a server resolved its KV cache to (a setting line), compared only with
# the other server's resolved dtype, not with a launch line's flag (`auto`).
# `speculative_algorithm`: each side sizes the metadata buffers that carry the draft model's hidden
# states by its own speculative setting, so a prefill without MTP/EAGLE and a decode with it
# register buffers of different shapes, and the transfers of them fail (sglang#33877, whose fix
# #23958 had not reached main; #23918 gave the PD test's prefill the decode's EAGLE settings).
# `context_len`: the context length each server resolved (sglang's pool line, vLLM's max_seq_len). Both
# servers take every request: a decode with the shorter one refuses the prompts between the two that
# its prefill accepted, and the prefill waits for their decode until its bootstrap times out
# (sglang#23380: a prefill at 131072 beside a decode at 40960).
SHARED_KEYS = ("page_size", "kv_cache_dtype", "backend", "kv_dtype_used", "speculative_algorithm", "context_len")
# Keys whose difference fails the servers' own work (the transfers of buffers sized differently),
# never the answers alone: a harness's accuracy gate that failed while the servers served and
# transferred is no effect of them (a blind round's MI355X run: prefill without MTP, decode with it,
# drafts accepted at 3.4 per step, GSM8K at 0 from a MoRI dispatch buffer sized too small).
FAILS_THE_SERVERS = ("speculative_algorithm",)
# Where the servers' own failures are logged: theirs, and the router's that carries their transfers.
SERVING_ROLES = (*SERVER_ROLES, Role.ROUTER)
CONFIDENCE = 0.7


def detect(evidence: Evidence) -> list[Hypothesis]:
    """Propose config-mismatch from the lines that state each server's settings (its server_args
    line, else a line stating one setting it resolved), when something failed and no explicit
    mismatch error already carries the verdict."""
    # sglang's explicit mismatch errors root the verdict themselves (verdicts.toml: their patterns).
    # A failed accuracy gate alone is failure enough (its `explains`): garbage answered 200 fails
    # nothing else.
    if evidence.failing(*evidence.library.rooting(VERDICT)):
        return []
    for prefill, decode in _stated_pairs(evidence):
        differences = _differences(prefill, decode)
        if differences:
            return _mismatch(evidence, prefill, decode, differences)
    return []


def _stated_pairs(evidence: Evidence) -> list[tuple[Event, Event]]:
    """The prefill's and the decode's first server_args lines, then, per pattern, their first lines
    stating one setting (sglang's `Using KV cache dtype: ...`): the pairs that can disagree."""
    launches = evidence.marked(Mark.SERVER_LAUNCH)
    pairs = [(_first_of(launches, Role.PREFILL), _first_of(launches, Role.DECODE))]
    by_pattern: dict[str, list[Event]] = {}
    for setting in evidence.marked(Mark.SETTING):
        by_pattern.setdefault(setting.pattern, []).append(setting)
    pairs += [(_first_of(lines, Role.PREFILL), _first_of(lines, Role.DECODE)) for lines in by_pattern.values()]
    return [(prefill, decode) for prefill, decode in pairs if prefill is not None and decode is not None]


def _mismatch(
    evidence: Evidence, prefill: Event, decode: Event, differences: list[tuple[str, FieldValue, FieldValue]]
) -> list[Hypothesis]:
    # The failures a mismatch explains are the verdict's `explains` list in verdicts.toml.
    explains = evidence.library.verdict(VERDICT).explains
    effects = [e for e in evidence.failing(*explains) if _after(e, prefill, decode)]
    refused = _refused_between(evidence, explains, differences)
    if not refused:
        # Different context lengths fail only the prompts between them: with none refused, what failed
        # (a bootstrap that timed out for another reason) is no effect of them.
        differences = [d for d in differences if d[0] != "context_len"]
    effects += refused
    if not any(e.role in SERVING_ROLES for e in effects):
        differences = [d for d in differences if d[0] not in FAILS_THE_SERVERS]
    if not effects or not differences:
        return []  # a difference nothing went wrong with is not this failure's cause
    chain = tuple(sorted(downstream([prefill, decode, *effects], evidence.links), key=_time_key))
    facts: list[tuple[str, FieldValue]] = []
    for key, left, right in differences:
        facts += [(f"prefill_{key}", left), (f"decode_{key}", right)]
    said = "; ".join(f"{key}: prefill {left!s}, decode {right!s}" for key, left, right in differences)
    summary = (
        f"Prefill and decode were launched with different settings ({said}; from the lines that state "
        f"them, {prefill.where} and {decode.where}); no explicit mismatch error was logged, and "
        f"{_kinds(len({e.pattern for e in effects}))} followed."
    )
    if refused and any(key == "context_len" for key, _, _ in differences):
        first = min(refused, key=_time_key)
        summary += (
            f" The first prompt one server refused and the other took: {first.where}: {clip(first.text.strip(), 240)}"
        )
    return [
        Hypothesis(
            VERDICT,
            roots=(prefill, decode),
            chain=chain,
            confidence=CONFIDENCE,
            summary=summary,
            facts=tuple(facts),
        )
    ]


def _refused_between(
    evidence: Evidence, explains: tuple[str, ...], differences: list[tuple[str, FieldValue, FieldValue]]
) -> list[Event]:
    """Prompts refused as longer than the shorter of two different context lengths and no longer than
    the other: the server with the longer one took them (a refusal is the client's error alone, no
    failing line; one longer than both contexts is still the client's)."""
    lengths = [(left, right) for key, left, right in differences if key == "context_len"]
    if not lengths or not isinstance(lengths[0][0], int) or not isinstance(lengths[0][1], int):
        return []
    shorter, longer = sorted((lengths[0][0], lengths[0][1]))
    return [
        e
        for e in evidence.marked(Mark.CLIENT_REJECTED)
        if e.pattern in explains and e.get("context_len") == shorter and _asked(e) <= longer
    ]


def _asked(refused: Event) -> int:
    """The tokens a refused request asked for (0 when its line does not say)."""
    for key in ("requested", "requested_total"):
        value = refused.get(key)
        if isinstance(value, int):
            return value
    return 0


def _kinds(count: int) -> str:
    return "one kind of failure" if count == 1 else f"{count} kinds of failure"


def _first_of(lines: list[Event], role: Role) -> Event | None:
    """The first of `lines` of a role (by the mode it states, else by the log's role)."""
    found = [e for e in lines if _mode(e) is role]
    return min(found, key=_time_key) if found else None


def _mode(event: Event) -> Role | None:
    mode = event.get("mode")
    if mode == "prefill":
        return Role.PREFILL
    if mode == "decode":
        return Role.DECODE
    return event.role if mode is None and event.role in (Role.PREFILL, Role.DECODE) else None


def _differences(prefill: Event, decode: Event) -> list[tuple[str, FieldValue, FieldValue]]:
    found = []
    for key in SHARED_KEYS:
        left, right = prefill.get(key), decode.get(key)
        if left is not None and right is not None and left != right:
            found.append((key, left, right))
    return found


def _after(effect: Event, *starts: Event) -> bool:
    times = [s.time for s in starts if s.time is not None]
    return effect.time is None or not times or effect.time >= min(times)


def _time_key(event: Event) -> tuple[float, str, int]:
    return (event.time if event.time is not None else float("inf"), event.source, event.line)
