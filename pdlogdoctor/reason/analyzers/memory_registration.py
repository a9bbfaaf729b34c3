"""Memory-registration failures: a single-region size ceiling, or a refusal of another kind.

The question is whether size is what fails. A ceiling shows as only the largest
regions failing with EINVAL; a missing peer-memory module, an unsupported dmabuf
path or rejected access flags fail small regions too, or with other errnos.
When it is a ceiling, the advice is computed from the failing sizes and the
KV sizing lines, and the arithmetic is shown.
"""

from __future__ import annotations

import re
from dataclasses import replace

from ...model import Event, FactValue, Kind, Mark, Role, Severity, Suggestion
from ...model.lazyre import lazy_re
from ...model.verdicts import MR_REJECTED, MR_SIZE_LIMIT, RDMA_EXHAUSTED
from ..hypothesis import Evidence, Hypothesis, count_matches

GIB = 1 << 30
DEFAULT_CEILING = 2 * GIB  # the largest region known to register on MI355X + Ionic (seed thread)
SMALL_REGION = 1 * GIB  # no NIC ceiling seen is this low: a failure here is not about size
# One failing line: a ceiling and an access-flag refusal look the same; the refusal reading is
# listed this much lower, a distance the diagnosis keeps (its near tie no longer takes 0.15 off).
SINGLE_FAILURE = 0.45
SINGLE_FAILURE_DISTANCE = 0.15
# Only a wrapper's "registration failed" (sglang's for Mooncake): the NIC's own refusal, its errno and
# the buffer are not in the lines, so which refusal it was is a guess.
WRAPPER_ONLY = 0.4
# The completion status of an RDMA operation outside the registered region (ibv_wc_status_str of
# IBV_WC_REM_ACCESS_ERR and IBV_WC_LOC_PROT_ERR, or their names).
REGION_STATUS = lazy_re(r"remote access error|local protection error|REM_ACCESS_ERR|LOC_PROT_ERR", re.IGNORECASE)
# A region cut short with nothing past the cut failing (or only a link's errors): a lead, not a cause.
CUT_REGION_UNTESTED = 0.35
SIZE_ERRNOS = {22}  # EINVAL is what ibv_reg_mr returns for an over-large region
SIZE_LIMIT, REJECTED, EXHAUSTED = MR_SIZE_LIMIT, MR_REJECTED, RDMA_EXHAUSTED
ENOMEM = 12
# A registering pattern whose advice says how to raise the limit has this in it (else the verdict's advice).
LOCKED_MEMORY = "ulimit -l unlimited"
TOKEN_FIELDS = ("tokens", "full", "full_token")  # how KV pool sizing lines name the pool's token count
VALUE_WORDS = {"what": "for", "agent": "agent", "status": "status"}
SAME_REFUSAL_LINES = 10  # NIXL's registerMem and the binding's error follow UCX's refusal within a few lines
# Both sides register their KV pools with MORI, sized by the same auto-sizing: both need the cap.
BOTH_SERVERS = (Role.PREFILL, Role.DECODE)
STRERROR_ERRNO = {
    "Operation not permitted": 1,
    "Input/output error": 5,
    "Cannot allocate memory": 12,
    "Permission denied": 13,
    "Bad address": 14,
    "No such device": 19,
    "Invalid argument": 22,
    "Function not implemented": 38,
    "Operation not supported": 95,
}
ERRNO_HINTS = {
    14: "EFAULT (Bad address): the NIC cannot pin this memory, typically GPU memory without the peer-memory module",
    12: "ENOMEM: the locked-memory limit (ulimit -l) or the NIC's translation tables are exhausted",
    1: "EPERM: the process may not register memory (container capabilities, memlock limit)",
    13: "EACCES: the requested access flags are not allowed for this memory",
    95: "EOPNOTSUPP: this registration path (dmabuf, ODP, a libfabric provider's GPU-memory interface) is not "
    "supported by the driver stack",
    38: "ENOSYS (Function not implemented): the provider or verbs driver does not implement the registration "
    "asked for (libfabric's fi_mr_regattr with extended attributes)",
    5: "EIO: the device failed the registration",
    19: "ENODEV (No such device): the port cannot run the queue pair the registration goes through "
    "(a LAG-bonded or unsupported port)",
}


def analyze(hypothesis: Hypothesis, evidence: Evidence) -> list[Hypothesis]:
    cut = evidence.library.marked(Mark.REGION_CUT)
    if all(root.pattern in cut for root in hypothesis.roots):
        return [cut_region(hypothesis, evidence)]
    failures = _registration_failures(evidence)
    if not failures:
        return [hypothesis]
    fell_back = _fell_back(failures, evidence)
    if fell_back is not None:
        return [replace(hypothesis, rejected=fell_back, benign=True, confidence=0.1)]
    harmless = _without_consequence(failures, evidence)
    if harmless is not None:  # an end-to-end check passed after it, and nothing else failed: it failed nothing
        return [replace(hypothesis, rejected=harmless, benign=True, confidence=0.1)]
    sizes = sorted({int(e.get("size")) for e in failures if e.get("size") is not None})
    errnos = sorted({code for code in map(_errno, failures) if code is not None})
    proven = _proven_registered(evidence)
    facts = _bracket_facts(sizes, errnos, proven, failures)
    if all(evidence.library.pattern(e.pattern).kind is Kind.SYMPTOM for e in failures):
        return _as_wrapper_only(replace(hypothesis, verdict=REJECTED, facts=facts), failures)
    if errnos == [ENOMEM]:
        return [_as_exhausted(hypothesis, facts, failures, evidence)]
    refusal = _refusal_reason(sizes, errnos, proven)
    if refusal is None and not any(e.pattern in _size_limit_patterns(evidence) for e in failures):
        # Only MORI's own registration line shows the ceiling a token cap on MORI's KV regions
        # addresses; UCX/Mooncake sized lines alone do not support MORI's advice.
        refusal = "none of the failing registrations is MORI's single-region registration"
    size_limit = replace(hypothesis, verdict=SIZE_LIMIT, facts=facts)
    rejected = replace(hypothesis, verdict=REJECTED, facts=facts)
    if refusal is not None:
        chosen = _as_rejected(rejected, refusal, errnos)
        # No size and no errno (NIXL, UCX): the lines' own words are all there is to say.
        said = None if sizes or errnos else _what_was_refused(failures, hypothesis, evidence)
        return [
            replace(chosen, summary=said) if said else chosen,
            replace(size_limit, rejected=refusal, confidence=0.1),
        ]
    if _one_line_said(failures, sizes, evidence) and not proven:
        # One EINVAL line on a big region reads the same for a size ceiling and for a NIC
        # that refuses the access flags (REMOTE_ATOMIC on Ionic, ROCm/mori#497): keep both.
        doubt = (
            "only one region size failed and no region is shown registering, so an access-flag "
            "or peer-memory refusal (same errno 22) cannot be ruled out"
        )
        limit = _as_size_limit(size_limit, sizes, errnos, failures, evidence)
        return [
            replace(limit, confidence=SINGLE_FAILURE, summary=f"{limit.summary} Uncertain: {doubt}."),
            replace(
                _as_rejected(rejected, doubt, errnos, confidence=SINGLE_FAILURE - SINGLE_FAILURE_DISTANCE),
                why_not=(
                    f"not ruled out: one EINVAL line cannot tell a refusal from a ceiling; ranked lower because the "
                    f"failing region ({_human(sizes[-1])}) is above 2 GiB, where single-region ceilings are known. "
                    "A failure of a small region would settle it"
                ),
            ),
        ]
    return [
        _as_size_limit(size_limit, sizes, errnos, failures, evidence),
        replace(rejected, rejected=_why_not_rejected(sizes), confidence=0.15),
    ]


def cut_region(hypothesis: Hypothesis, evidence: Evidence) -> Hypothesis:
    """A region registered short (Mooncake's `shrink it to N`) fails nothing itself: the operations
    past its end do, later, with a region's completion status (`remote access error`), which reads like
    a link's failure. Its consequences say whether that happened: completion errors of a region make it
    the cause; a link's errors (retries exceeded) or none at all leave it a lead."""
    first = hypothesis.first_root
    ceiling = int(first.get("max_mr_size"))
    errors = [e for e in hypothesis.chain if e.pattern in evidence.library.marked(Mark.COMPLETION_ERROR)]
    past_the_cut = [e for e in errors if REGION_STATUS.search(str(e.get("status") or ""))]
    facts: tuple[tuple[str, FactValue], ...] = (
        ("region_ceiling_bytes", ceiling),
        ("regions_cut", count_matches(list(hypothesis.roots))),
        ("region_errors_past_the_cut", count_matches(past_the_cut)),
    )
    said = f"{evidence.says(first)} ({first.where}): only the first {_human(ceiling)} of a larger buffer are registered"
    advice = " ".join(evidence.library.pattern(first.pattern).advice.split())
    cut = replace(hypothesis, facts=facts, advice=advice)
    if past_the_cut:
        status = str(past_the_cut[0].get("status")).strip()
        summary = (
            f"{said}. RDMA operations past the cut then completed with '{status}' "
            f"({count_matches(past_the_cut)} completion error(s), the first at {past_the_cut[0].where}): a KV buffer "
            "is larger than the NIC's single memory-region ceiling, and the link is not at fault."
        )
        return replace(cut, summary=summary)
    if errors:
        status = str(errors[0].get("status") or "an error").strip()
        summary = (
            f"{said}. The completion errors that followed ('{status}', {errors[0].where}) are a link's, not those "
            "of an operation past a cut region ('remote access error'): the cut is a lead, not the shown cause."
        )
        return replace(cut, summary=summary, confidence=min(hypothesis.confidence, CUT_REGION_UNTESTED))
    summary = (
        f"{said}. No RDMA operation past the cut is shown failing (it fails with 'remote access error' once the "
        "KV pool fills past the ceiling): a size ceiling waiting to fail, not the shown cause of what failed."
    )
    return replace(cut, summary=summary, confidence=min(hypothesis.confidence, CUT_REGION_UNTESTED))


def _registration_failures(evidence: Evidence) -> list[Event]:
    """Every failing registration line, with or without a logged size (Mooncake and
    sglang's NIXL wrapper print none): all of them count, and their errnos too."""
    verdicts = {SIZE_LIMIT, REJECTED}
    ids = {p.id for p in evidence.library.patterns if p.verdict in verdicts}
    return [e for e in evidence.events if e.pattern in ids and e.failing]


def _fell_back(failures: list[Event], evidence: Evidence) -> str | None:
    """A registration the component only warned of, and then worked on: MORI's RegisterRdmaMemoryRegionAuto
    tries ibv_reg_mr, then dmabuf, and warns of each method that failed (at MORI_APP_LOG_LEVEL=warning);
    only its `both failed` error means the region was not registered. Warnings alone, with no such
    error in their file and the server's periodic batch lines after them, are a fallback that worked:
    whatever else failed, not through them."""
    if any(_severity(e, evidence) is not Severity.WARNING for e in failures):
        return None
    sources = {e.source for e in failures}
    last = {source: max(e.line for e in failures if e.source == source) for source in sources}
    worked = {e.source for e in evidence.marked(Mark.METRICS) if e.source in last and e.line > last[e.source]}
    if worked != sources:
        return None
    return (
        f"the registration was only warned of ({evidence.said(failures[0])}) and the server went on: no error "
        "says it failed, and its batch lines go on after it (a fallback method registered the region)"
    )


def _severity(event: Event, evidence: Evidence) -> Severity:
    return evidence.library.pattern(event.pattern).severity


def _without_consequence(failures: list[Event], evidence: Evidence) -> str | None:
    """Some stacks log a refused registration and go on (Mooncake retries host buffers, an
    AMD guide calls its errno-12 line normal): with nothing else failing and the deployment
    shown serving, the refusal is not why anything failed."""
    registration = {(e.pattern, e.source) for e in failures}
    if evidence.failing_groups - registration:
        return None
    serving = [e for e in evidence.marked(Mark.END_TO_END) if not e.failing]  # end to end, not just "ready"
    if not serving:
        return None
    return (
        f"the registration failures had no visible consequence: nothing else failed, and "
        f"{evidence.said(serving[0])} shows the deployment serving"
    )


def _size_limit_patterns(evidence: Evidence) -> set[str]:
    """Patterns that can show a single-region ceiling: they log the size and claim it."""
    return {p.id for p in evidence.library.patterns if p.verdict == SIZE_LIMIT and "size" in dict(p.fields)}


def _errno(event: Event) -> int | None:
    """The errno a line gives, as a number or (UCX prints only the text) as its strerror."""
    code = event.get("errno")
    if code is not None:
        return int(code)
    text = event.get("strerror")
    return STRERROR_ERRNO.get(str(text).strip()) if text is not None else None


def _one_line_said(failures: list[Event], sizes: list[int], evidence: Evidence) -> bool:
    """The failures say one thing once: a single line, or the same region size failing on every
    rank with no line sizing the KV pool that made it (a grep of the ranks' logs for the error: the
    same registration again, nothing that shows the size growing)."""
    if count_matches(failures) == 1:
        return True
    return len(sizes) == 1 and all(_sizing_for(failure, evidence) is None for failure in failures)


def _proven_registered(evidence: Evidence) -> list[int]:
    """Region sizes some line shows registering successfully (field `registered_size`)."""
    return [int(e.get("registered_size")) for e in evidence.events if e.get("registered_size") is not None]


def _refusal_reason(sizes: list[int], errnos: list[int], proven: list[int]) -> str | None:
    if sizes and sizes[0] < SMALL_REGION:
        return f"a region of only {_human(sizes[0])} failed too: no NIC's size ceiling is that low"
    other = [code for code in errnos if code not in SIZE_ERRNOS]
    if other:
        hint = ERRNO_HINTS.get(other[0], f"errno {other[0]}")
        return f"the registration failed with {hint}, not EINVAL"
    if sizes and proven and max(proven) >= sizes[0]:
        return f"a region of {_human(max(proven))} registered, larger than the {_human(sizes[0])} that failed"
    if not sizes:
        return "no failing region size is logged, so the size cannot be what fails"
    return None


def _what_was_refused(failures: list[Event], hypothesis: Hypothesis, evidence: Evidence) -> str | None:
    """A refusal that logs no size (NIXL, UCX, sglang's NIXL wrapper) in the words of its lines:
    what refused what (the pattern's title, the agent it names), what the same process logged
    after it (registerMem giving up, the status raised) and before it (UCX's missing CUDA support,
    the UCX_TLS it ran with), then what to check (the refusing pattern's advice)."""
    # The refusal the others follow from (UCX's, before NIXL's and sglang's): a root of the chain.
    roots = [e for e in failures if e in hypothesis.roots] or failures
    first = min(roots, key=lambda e: (e.time if e.time is not None else float("inf"), e.source, e.line))
    pattern = evidence.library.pattern(first.pattern)
    if not pattern.advice.strip():
        return None
    parts = [_said(event, evidence) for event in [first, *_after_in_same_process(first, hypothesis.chain, failures)]]
    context = [_context_said(event, evidence) for event in _context_before(first, evidence)]
    summary = "; then ".join(parts) + "."
    if context:
        summary += f" The same log shows before it: {'; '.join(context)}."
    sized = [e for e in failures if e.get("region_bytes") is not None]
    if sized:
        largest = max(sized, key=lambda e: int(e.get("region_bytes")))
        summary += f" The refused region is {_human(int(largest.get('region_bytes')))} ({largest.where})."
    else:
        summary += " No region size is logged: size is not what was refused."
    return f"{summary} Check: {' '.join(pattern.advice.split())}"


def _after_in_same_process(first: Event, chain: tuple[Event, ...], failures: list[Event]) -> list[Event]:
    """The first line of each other pattern the refusal led to in its own file: the other
    refusals (sglang's own, after its traceback) and what failed right after it."""
    seen = {first.pattern}
    shown = []
    for event in sorted(chain, key=lambda e: e.line):
        near = event in failures or event.line <= first.line + SAME_REFUSAL_LINES
        if (
            event.source == first.source
            and event.failing
            and event.line > first.line
            and near
            and event.pattern not in seen
        ):
            seen.add(event.pattern)
            shown.append(event)
    return shown


def _context_before(first: Event, evidence: Evidence) -> list[Event]:
    """What the same file said about UCX before the refusal: its missing CUDA support, its UCX_TLS."""
    earliest: dict[str, Event] = {}
    for event in sorted(evidence.marked(Mark.TRANSPORT_SETUP), key=lambda e: e.line):
        if event.source == first.source and event.line <= first.line:
            earliest.setdefault(event.pattern, event)
    return sorted(earliest.values(), key=lambda e: e.line)


def _context_said(event: Event, evidence: Evidence) -> str:
    """A transport-setup line as its pattern says it (`says`), with what a UCX_TLS list leaves out."""
    said = evidence.says(event) or evidence.library.pattern(event.pattern).title
    tls = str(event.get("tls") or "")
    if tls and not tls.startswith("^") and "cuda" not in tls and tls != "all":
        said += " (no cuda transport in it)"  # `^x` excludes x, `all` includes the cuda ones
    return f"{said} ({event.where})"


def _said(event: Event, evidence: Evidence) -> str:
    """A line as its pattern's title with the values it carries, and where it is."""
    values = [f"{words} {event.get(name)}" for name, words in VALUE_WORDS.items() if event.get(name) is not None]
    return f"{evidence.library.pattern(event.pattern).title} ({', '.join([*values, event.where])})"


def _why_not_rejected(sizes: list[int]) -> str:
    return (
        f"only regions of {_human(sizes[0])} or more fail, all with EINVAL; a missing peer-memory "
        "module, dmabuf or access-flag refusal would fail the smaller buffers too"
    )


def _bracket_facts(
    sizes: list[int], errnos: list[int], proven: list[int], failures: list[Event]
) -> tuple[tuple[str, FactValue], ...]:
    facts: list[tuple[str, FactValue]] = [
        ("registration_failures", count_matches(failures)),
        ("smallest_failing_region_bytes", sizes[0] if sizes else None),
        ("largest_failing_region_bytes", sizes[-1] if sizes else None),
        ("errnos", tuple(errnos) or None),
        ("largest_region_known_to_register_bytes", max(proven) if proven else None),
    ]
    return tuple(facts)


def _as_wrapper_only(hypothesis: Hypothesis, failures: list[Event]) -> list[Hypothesis]:
    """A wrapper says a registration failed; the transfer engine's own line with the errno is
    not given. A refusal it is (nothing says size: no region size is logged), but of which kind
    is unknown, and a size ceiling cannot be weighed without the sizes."""
    first = failures[0]
    summary = (
        f"A memory registration with the RDMA NIC failed ({first.where}), but the transfer engine's own "
        "error line, with the errno that says why, is not in these logs: a refusal of the buffer (no "
        "GPUDirect/peer-memory path, missing privileges) is likeliest, but its kind is a guess."
    )
    missing = (
        *hypothesis.missing,
        "the transfer engine's own registration error with its errno (Mooncake's 'Failed to register "
        "memory' from rdma_context.cpp, UCX's ibv_reg_mr line), logged just before",
    )
    return [
        replace(hypothesis, confidence=WRAPPER_ONLY, summary=summary, missing=missing),
        replace(
            hypothesis,
            verdict=SIZE_LIMIT,
            rejected="no failing region size is logged, so the size cannot be what fails",
            confidence=0.1,
        ),
    ]


def _as_exhausted(
    hypothesis: Hypothesis, facts: tuple[tuple[str, FactValue], ...], failures: list[Event], evidence: Evidence
) -> Hypothesis:
    """Every refusal is ENOMEM: pinned memory ran out (the locked-memory limit), not a refusal of the buffer.
    The limit is named as the log prints it (UCX does), and the fix is the one of the component that
    registered (NCCL's own buffers, NCCL_BUFFSIZE, count against the same limit)."""
    first = failures[0]
    summary = (
        f"{count_matches(failures)} memory registration(s) failed with ENOMEM (Cannot allocate memory), first at "
        f"{first.where}: registered memory is pinned and counts against the locked-memory limit (ulimit -l)."
    )
    printed = next((e for e in failures if e.get("memlock_limit") is not None), None)
    if printed is not None:
        summary += f" The log prints the limit: {printed.get('memlock_limit')} ({printed.where})."
        facts = (*facts, ("memlock_limit", str(printed.get("memlock_limit"))))
    advice = " ".join(evidence.library.pattern(first.pattern).advice.split())
    own = advice if LOCKED_MEMORY in advice else ""
    return replace(hypothesis, verdict=EXHAUSTED, facts=facts, confidence=0.75, summary=summary, advice=own)


def _as_rejected(hypothesis: Hypothesis, reason: str, errnos: list[int], confidence: float | None = None) -> Hypothesis:
    if confidence is None:
        confidence = 0.8 if errnos and errnos != [22] else 0.7
    summary = f"Memory registration was refused, and not for size: {reason}."
    return replace(hypothesis, confidence=confidence, summary=summary)


def _as_size_limit(
    hypothesis: Hypothesis, sizes: list[int], errnos: list[int], failures: list[Event], evidence: Evidence
) -> Hypothesis:
    smallest = sizes[0]
    suggested, ceiling_steps = suggested_region_bytes(smallest, _proven_registered(evidence))
    suggestions = (_token_cap_suggestion(suggested, ceiling_steps, failures, evidence),)
    confidence = 0.9 if len(sizes) > 1 or len(failures) > 1 else 0.82
    summary = (
        f"MORI failed to register a {_human(sizes[-1])} KV buffer as one RDMA memory region "
        f"(errno {', '.join(map(str, errnos))}); the smallest failing region is {_human(smallest)}, "
        f"above the single-region ceiling. Keep every region at or below {_human(suggested)}."
    )
    return replace(hypothesis, confidence=confidence, summary=summary, suggestions=suggestions)


def suggested_region_bytes(smallest_failing: int, proven: list[int]) -> tuple[int, list[str]]:
    """Largest power of two strictly below the smallest failure, capped at 2 GiB
    unless a larger region is proven to register."""
    below = 1 << ((smallest_failing - 1).bit_length() - 1)
    cap = DEFAULT_CEILING
    steps = [f"largest power of two below {smallest_failing:,} = {below:,}"]
    if proven and max(proven) > DEFAULT_CEILING:
        cap = 1 << (max(proven).bit_length() - 1)
        steps.append(f"a {max(proven):,}-byte region registered, so the cap rises to {cap:,}")
    else:
        steps.append(f"capped at 2 GiB = {DEFAULT_CEILING:,} (no larger region proven to register)")
    value = min(below, cap)
    steps.append(f"largest region to keep = min({below:,}, {cap:,}) = {value:,}")
    return value, steps


def _token_cap_suggestion(value: int, region_steps: list[str], failures: list[Event], evidence: Evidence) -> Suggestion:
    """`--max-total-tokens`, the knob every sglang version has (sglang#30313 capped it in CI recipes):
    the pool's tokens that keep its largest per-token buffer at or below `value` bytes. Computed
    from the failing region and the KV sizing line; without a sizing line, how to compute it."""
    largest = max(failures, key=lambda e: int(e.get("size", 0)))
    sizing = _sizing_for(largest, evidence)
    reason = f"works on every sglang version: keeps the largest KV buffer at or below {_human(value)}"
    if sizing is None:
        steps = [
            *region_steps,
            f"cap = ({value:,} - one page of the largest buffer) / its bytes per token; bytes per token = the "
            f"failing region's size / the token count of the server's KV sizing line (max_total_num_tokens=...), "
            "which these logs do not hold",
        ]
        return Suggestion(
            kind="server-arg",
            name="--max-total-tokens",
            value=None,
            reason=reason,
            arithmetic=tuple(steps),
            lines_used=tuple(e.where for e in failures[:3]),
            applies_to=BOTH_SERVERS,
        )
    tokens = int(next(sizing.get(name) for name in TOKEN_FIELDS if sizing.get(name) is not None))
    region = int(largest.get("size"))
    per_token = bytes_per_token(region, tokens)
    page_size, page_line, page_note = _page_size(largest, evidence)
    cap = (value - page_size * per_token) // per_token
    steps = [
        *region_steps,
        f"bytes per token = {region:,} B / {tokens:,} tokens = {region / tokens:.3f} -> {per_token}",
        f"one page of the largest buffer = page_size {page_size} x {per_token} B = {page_size * per_token:,} B"
        + page_note,
        f"cap = ({value:,} - {page_size * per_token:,}) / {per_token} = {cap:,} tokens",
    ]
    used = [largest.where, sizing.where] + ([page_line.where] if page_line else [])
    return Suggestion(
        kind="server-arg",
        name="--max-total-tokens",
        value=cap,
        reason=reason,
        arithmetic=tuple(steps),
        lines_used=tuple(used),
        applies_to=BOTH_SERVERS,
    )


def bytes_per_token(region: int, tokens: int) -> int:
    """A buffer's bytes per token: the ratio, rounded when within 1% of a whole number
    (buffers carry a few padding pages, so the ratio is rarely exact)."""
    ratio = region / tokens
    nearest = round(ratio)
    if nearest > 0 and abs(ratio - nearest) / nearest < 0.01:
        return nearest
    return max(1, int(ratio))


def _sizing_for(failure: Event, evidence: Evidence) -> Event | None:
    candidates = [e for e in evidence.marked(Mark.KV_POOL_SIZED) if any(e.get(f) for f in TOKEN_FIELDS)]
    if not candidates:
        return None
    nearby = evidence.same_server(failure, candidates)
    before = [e for e in nearby if e.time is None or failure.time is None or e.time <= failure.time]
    ranked = before or nearby
    return max(ranked, key=lambda e: (e.time or 0.0, -_token_field_rank(e)))


def _token_field_rank(event: Event) -> int:
    """The pool's total in tokens is preferred over DSv4's per-kind counts when both are logged."""
    return next(rank for rank, name in enumerate(TOKEN_FIELDS) if event.get(name))


def _page_size(failure: Event, evidence: Evidence) -> tuple[int, Event | None, str]:
    args = [e for e in evidence.marked(Mark.SERVER_LAUNCH) if isinstance(e.get("page_size"), int)]
    if not args:
        return 1, None, " (no page_size in the logs: assumed 1)"
    chosen = evidence.same_server(failure, args)[0]
    return int(chosen.get("page_size")), chosen, ""


def _human(size: int) -> str:
    if size >= GIB:
        return f"{size / GIB:.2f} GiB ({size:,} B)"
    return f"{size / (1 << 20):.1f} MiB ({size:,} B)"
