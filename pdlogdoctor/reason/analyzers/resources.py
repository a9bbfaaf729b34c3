"""Resource exhaustion: GPU memory (torch OOM, a KV pool that does not fit) and host memory
(the kernel OOM killer). Says which server ran out, when (startup or while serving), and
what the allocator or the kernel reported, so the advice can be acted on."""

from __future__ import annotations

import math
from dataclasses import replace

from ...library.fields import convert_field
from ...library.formats import ENGINE_LINES
from ...library.patterns import match_line
from ...model import SERVING_BEFORE_CRASH, Event, FactValue, Mark, Role, Suggestion
from ...model.lazyre import lazy_re
from ..hypothesis import Evidence, Hypothesis

SIGKILL = -9
# A shell, a launcher or a job runner reports a process a signal ended as 128 + the signal (`rc=137`);
# Python's multiprocessing reports it as minus the signal (`exit code -9`).
SHELL_SIGNAL_BASE = 128
SHARED_STREAMS = (Role.MIXED, Role.CI)  # streams that carry several servers' lines


def gpu_oom(hypothesis: Hypothesis, evidence: Evidence) -> list[Hypothesis]:
    root = hypothesis.first_root
    served = _ready_before(root, evidence)
    starting = _starting_before(root, evidence) if served is None else None
    when = "while serving" if served is not None else "during startup" if starting is not None else PHASE_UNKNOWN
    facts: list[tuple[str, FactValue]] = [("server", _server_name(root)), ("phase", when)]
    if root.pattern in evidence.library.marked(Mark.POOL_DOES_NOT_FIT):
        fraction = root.get("mem_fraction_static")
        facts.append(("mem_fraction_static", fraction))
        detail = "its KV pool does not fit in the memory the weights left"
        if fraction is not None:
            detail += f" (mem_fraction_static={fraction})"
    elif root.get("free_gib") is not None and root.get("requested_gib") is not None:
        facts.extend((name, root.get(name)) for name in ("device", "free_gib", "total_gib", "requested_gib"))
        detail = (
            f"only {root.get('free_gib')} of {root.get('total_gib')} GiB was free on {_device(root)} at start-up, "
            f"less than the {root.get('requested_gib')} GiB its memory share "
            f"({root.get('gpu_memory_utilization')}) asks for"
        )
    else:
        for name in ("device", "requested", "free", "gpu"):
            if root.get(name) is not None:
                facts.append((name, root.get(name)))
        detail = f"{root.get('device', 'GPU')} out of memory. Tried to allocate {root.get('requested', '?')}"
        if root.get("requested") is None:  # the engine's own words, when it gives no size
            detail = evidence.library.pattern(root.pattern).title
        if root.get("free") is not None:
            detail += f" with {root.get('free')} free on GPU {root.get('gpu')}"
    downstream = _downstream_summary(hypothesis)
    phase = when if when != PHASE_UNKNOWN else "(phase unknown: no line shows it starting or serving before)"
    if starting is not None:  # the phase stated with the line that shows it
        phase = f"{when} (started at {evidence.said(starting)})"
    summary = f"The {_server_name(root)} ran out of GPU memory {phase}: {detail}.{downstream}"
    used = (served,) if served is not None else ()
    engine = _engine(root, evidence)
    if engine == "vllm":
        return [replace(hypothesis, facts=tuple(facts), summary=summary, confidence=0.85, lines_used=used,
                        advice=_vllm_memory_advice(root, evidence))]  # fmt: skip
    if engine not in (None, "sglang"):  # another engine's knobs: its pattern's own advice names them
        advice = own_engine_advice(root, evidence)
        return [
            replace(hypothesis, facts=tuple(facts), summary=summary, confidence=0.85, lines_used=used, advice=advice)
        ]
    fix, advice = _memory_fraction_fix(root, evidence)
    return [
        replace(
            hypothesis,
            facts=tuple(facts),
            summary=summary,
            confidence=0.85,
            lines_used=used,
            suggestions=(fix,) if fix is not None and fix.value is not None else (),
            advice=advice,
        )
    ]


PHASE_UNKNOWN = "phase unknown"  # no line shows the server started or serving before the failure


def _starting_before(root: Event, evidence: Evidence) -> Event | None:
    """The line that shows the root's server still starting: the root itself when it is the KV pool
    sizing that failed or says so (`in-start-up`), else its launch line above it in its file."""
    marks = evidence.library.pattern(root.pattern).marks
    if Mark.POOL_DOES_NOT_FIT in marks or Mark.IN_START_UP in marks:
        return root
    # In a job log that interleaves servers the launch line's role may be the stream's: the file and
    # the order are what tell.
    launches = [e for e in evidence.marked(Mark.SERVER_LAUNCH) if e.source == root.source and e.line < root.line]
    return launches[-1] if launches else None


ENGINE_GROUPS = ("vllm", "sglang", "trtllm")  # pattern groups (directories) that are one engine's own lines


def own_engine_advice(root: Event, evidence: Evidence) -> str:
    """The root pattern's own advice when another engine than SGLang wrote the root's file: a verdict's
    advice names SGLang's knobs, another engine's are its own pattern's to name ("" for SGLang's lines,
    or when no engine is known)."""
    if _engine(root, evidence) in (None, "sglang"):
        return ""
    return " ".join(evidence.library.pattern(root.pattern).advice.split())


def _engine(root: Event, evidence: Evidence) -> str | None:
    """The serving engine that wrote the root's file: the engine whose own pattern the root is, else
    from its lines' shapes (log-shapes.toml `engine`)."""
    group = evidence.library.pattern(root.pattern).group
    if group in ENGINE_GROUPS:
        return group
    own = [root, *(e for e in evidence.events if e.source == root.source and e is not root)]
    return evidence.library.formats.engine_of_lines(e.text for e in own[:ENGINE_LINES])


# vLLM's knobs for GPU memory: --gpu-memory-utilization is the share of each GPU vLLM takes for the
# weights, the activations' profile and the KV cache; --max-num-seqs and --max-model-len bound what a
# step needs. Its own messages say which way: 'Try increasing `gpu_memory_utilization`' when the KV
# cache got no blocks; 'Decrease GPU memory utilization' when less was free than the share asked for.
VLLM_OTHER_KNOBS = (
    "lower --max-num-seqs or --max-model-len, or spread the model over more GPUs (--tensor-parallel-size)"
)


def _vllm_memory_advice(root: Event, evidence: Evidence) -> str:
    text = root.text.lower()
    if "increas" in text and "memory_utilization" in text.replace("-", "_").replace(" ", "_"):
        said = f"the line at {root.where} says the KV cache got too little"
        return f"Raise --gpu-memory-utilization: {said}; or {VLLM_OTHER_KNOBS}."
    if root.pattern in evidence.library.marked(Mark.POOL_DOES_NOT_FIT):  # a KV budget that came out negative
        said = f"the line at {root.where} says no memory was left for the KV cache"
        return f"Raise --gpu-memory-utilization: {said}; or {VLLM_OTHER_KNOBS}."
    if "decrease gpu memory utilization" in text:
        return _held_by_another(root)
    return (
        f"Lower --gpu-memory-utilization (leaves room for activations and CUDA graphs) or {VLLM_OTHER_KNOBS}; "
        "if another process holds GPU memory (nvidia-smi; npu-smi info on an Ascend NPU), free it first."
    )


def _device(root: Event) -> str:
    """The device a memory line names; vLLM before 0.11 named none ("Free memory on device (...)")."""
    device = root.get("device")
    return str(device) if device is not None else "the device"


SHARED_ON_PURPOSE = 0.05  # a free share below this is no share to run a server in: the GPU is taken


def _held_by_another(root: Event) -> str:
    """Less was free at start-up than vLLM's share asks for: what holds it comes first, then the share
    that would fit in what is free (only when that is a share a server can run in)."""
    free, total = root.get("free_gib"), root.get("total_gib")
    if not isinstance(free, float) or not isinstance(total, float) or not total:
        return (
            f"Lower --gpu-memory-utilization: the line at {root.where} says less memory was free than the share "
            "asked for (another process holds GPU memory: check nvidia-smi); or free that memory."
        )
    held = f"{total - free:.2f} of {total:g} GiB on {_device(root)}"
    advice = (
        f"Another process holds GPU memory: {held} was in use before this server started ({root.where}). Find it "
        "(nvidia-smi) and stop it, or wait for the previous instance to exit"
    )
    share = math.floor(free / total * 100) / 100
    if share >= SHARED_ON_PURPOSE:
        lower = f"lower --gpu-memory-utilization to {share:.2f} or less (free / total)"
        return f"{advice}; if the GPU is shared on purpose, {lower}."
    return f"{advice}: {free:g} GiB free is too little to run a server in, whatever its --gpu-memory-utilization."


# What --mem-fraction-static does: the share of each GPU's memory sglang takes up front for the
# weights and the KV pool; the rest is for activations and CUDA graphs. A KV pool that does not fit
# needs it raised; an allocation outside the pool that fails needs it lowered.
OTHER_KNOBS = "lower --max-running-requests / --chunked-prefill-size / --cuda-graph-max-bs, or use more GPUs"


def _memory_fraction_fix(root: Event, evidence: Evidence) -> tuple[Suggestion | None, str]:
    """Which way --mem-fraction-static must move for this server, and to what, from its lines; with
    the advice that says it ("" when its value is not in the lines: the verdict's advice stands)."""
    launch = _launch_of(root, evidence)
    fraction = root.get("mem_fraction_static") or (launch.get("mem_fraction_static") if launch else None)
    raising = root.pattern in evidence.library.marked(Mark.POOL_DOES_NOT_FIT)
    if not isinstance(fraction, float):
        return None, _direction_only(root, raising)
    used = tuple(e.where for e in (root, launch) if e is not None)
    fix = _raise_fraction(root, fraction, launch, used, evidence) if raising else _lower_fraction(root, fraction, used)
    way, side = ("Raise", "above") if raising else ("Lower", "below")
    target = f"to {fix.value}" if fix.value is not None else f"{side} {fraction:g}"
    advice = f"{way} --mem-fraction-static on the {_server_name(root)} {target}: {fix.reason}; otherwise {OTHER_KNOBS}."
    return fix, advice


def _direction_only(root: Event, raising: bool) -> str:
    """The way --mem-fraction-static must move, which the error line tells even when the value it
    moves from is not in the logs (a CI job log without the launch line): no number is claimed."""
    if raising:
        why = f"the line at {root.where} says the KV pool did not fit in what the weights left"
        return f"Raise --mem-fraction-static on the {_server_name(root)} from the value it was launched with: {why}."
    why = f"the line at {root.where} is an allocation outside the static pool (activations, CUDA graphs) that failed"
    return (
        f"Lower --mem-fraction-static on the {_server_name(root)} from the value it was launched with: {why}; "
        f"otherwise {OTHER_KNOBS}."
    )


def _launch_of(event: Event, evidence: Evidence) -> Event | None:
    launches = [e for e in evidence.marked(Mark.SERVER_LAUNCH) if e.source == event.source and e.role == event.role]
    return launches[-1] if launches else None


def _raise_fraction(
    root: Event, fraction: float, launch: Event | None, used: tuple[str, ...], evidence: Evidence
) -> Suggestion:
    """The KV pool did not fit after the weights: raise it, to the value the other server of the
    same model started with when that one came up (else no number is claimed)."""
    peers = [
        e
        for e in evidence.marked(Mark.SERVER_LAUNCH)
        if e.source != root.source
        and isinstance(e.get("mem_fraction_static"), float)
        and float(e.get("mem_fraction_static")) > fraction
        and (launch is None or e.get("model") == launch.get("model"))
        and any(up.source == e.source and not up.failing for up in evidence.marked(Mark.SERVER_UP))
    ]
    steps = [f"the error line says to increase it; current value {fraction:g}"]
    minimum = root.get("minimum_mem_fraction_static")
    if isinstance(minimum, float) and minimum > fraction:
        return _above_the_minimum(root, fraction, minimum, used, steps)
    if not peers:
        reason = f"the KV pool did not fit in what the weights left at {fraction:g}"
        return Suggestion("server-arg", "--mem-fraction-static", None, reason, tuple(steps), used, (root.role,))
    peer = max(peers, key=lambda e: float(e.get("mem_fraction_static")))
    value = float(peer.get("mem_fraction_static"))
    steps.append(f"{peer.where} started the same model at {value:g} and came up: use {value:g}")
    reason = f"the KV pool did not fit in what the weights left at {fraction:g}"
    return Suggestion(
        "server-arg", "--mem-fraction-static", f"{value:g}", reason, tuple(steps), (*used, peer.where), (root.role,)
    )


def _above_the_minimum(
    root: Event, fraction: float, minimum: float, used: tuple[str, ...], steps: list[str]
) -> Suggestion:
    """The engine computed the least fraction the weights leave room at (newer sglang says it): the
    hundredth above it, so the pool gets a little more than nothing."""
    value = (math.floor(round(minimum * 100, 6)) + 1) / 100  # round first: 0.29 * 100 is 28.999...
    said = (f"the line gives the least viable value: above {minimum:g}", f"to the hundredth above = {value:.2f}")
    steps = [*steps, *said]
    reason = (
        f"the KV pool did not fit in what the weights left at {fraction:g}; the engine puts the least at {minimum:g}"
    )
    return Suggestion("server-arg", "--mem-fraction-static", f"{value:.2f}", reason, tuple(steps), used, (root.role,))


def _lower_fraction(root: Event, fraction: float, used: tuple[str, ...]) -> Suggestion:
    """An allocation outside the static pool failed: give the rest of the GPU what it lacked, by
    lowering the fraction by the shortfall's share of the GPU (to the hundredth below)."""
    requested, free, total = (_bytes(root.get(name)) for name in ("requested", "free", "total"))
    reason = f"an allocation outside the static pool (activations, CUDA graphs) failed at {fraction:g}"
    if requested is None or free is None or not total:
        unsized = (f"current value {fraction:g}; the error line gives no free and total memory to size the cut",)
        return Suggestion("server-arg", "--mem-fraction-static", None, reason, unsized, used, (root.role,))
    shortfall = max(requested - free, 0) / total
    value = min(math.floor((fraction - shortfall) * 100) / 100, round(fraction - 0.01, 2))
    steps = (
        f"shortfall = tried {_gib(requested)} - free {_gib(free)} = {_gib(max(requested - free, 0))}",
        f"share of the GPU = {_gib(max(requested - free, 0))} / {_gib(total)} = {shortfall:.4f}",
        f"suggested = {fraction:g} - {shortfall:.4f}, to the hundredth below = {value:.2f}",
    )
    return Suggestion("server-arg", "--mem-fraction-static", f"{value:.2f}", reason, steps, used, (root.role,))


def _bytes(value: object) -> int | None:
    found = convert_field("bytes", str(value)) if value is not None else None
    return found if isinstance(found, int) else None


def _gib(size: int) -> str:
    return f"{size / (1 << 30):.2f} GiB"


def host_oom(hypothesis: Hypothesis, evidence: Evidence) -> list[Hypothesis]:
    # A line that names the kill outweighs one that only makes it likely (a bare exit code 137 beside
    # the kubelet's `OOMKilled`).
    possible = evidence.library.marked(Mark.POSSIBLE_CAUSE)
    kill = next((root for root in hypothesis.roots if root.pattern not in possible), hypothesis.first_root)
    victim = next((root for root in hypothesis.roots if root.get("total_vm") is not None), None)
    if kill.get("gfp_mask") is not None:
        # The report's first line (`<task> invoked oom-killer: gfp_mask=...`) names the task that asked
        # for memory, not the one killed: its later lines are read as they were without it (the task
        # table's header, else the victim's line).
        kill = next((root for root in hypothesis.roots if root.get("header") is not None), victim) or kill
    if kill.get("constraint") is not None:
        # The OOM-kill summary (which task, which constraint) comes just before the kernel's `Killed
        # process` line, which says the most (pid, name, sizes): that one leads when the chain has it.
        kill = victim or kill
    if kill.get("total_vm") is None:  # not the kernel's OOM killer: a monitor's kill, or a hint
        return [_host_oom_said_by(hypothesis, kill, evidence, victim)]
    facts: list[tuple[str, FactValue]] = [
        ("killed_pid", kill.get("pid")),
        ("killed_process", kill.get("comm")),
        ("scope", "memory cgroup (container limit)" if "cgroup" in str(kill.get("scope", "")) else "whole host"),
    ]
    if kill.get("anon_rss") is not None:
        facts.append(("anon_rss", kill.get("anon_rss")))  # as the kernel logs it (KiB)
    died = _killed_by_sigkill(evidence)
    corroborated = bool(died)
    facts.append(("server_exit_code_minus_9", died[0].where if died else None))
    summary = f"The kernel OOM killer ended process {kill.get('pid')} ({kill.get('comm')}) [{dict(facts)['scope']}]" + (
        f"; {_sigkill_said(died[0])} at {died[0].where}." if died else "."
    )
    missing = () if corroborated else ("no line shows a process ending by SIGKILL (exit code -9, or status 137)",)
    return [
        replace(
            hypothesis,
            facts=tuple(facts),
            summary=summary,
            confidence=0.85 if corroborated else 0.6,
            lines_used=tuple(died[:1]),
            missing=hypothesis.missing + missing,
        )
    ]


MONITOR_KILL = 0.8  # a memory monitor says it killed for memory: as sure as the kernel's own line
POSSIBLE_OOM = 0.45  # a line that names the OOM killer as one of several possible causes: a lead only


def _killed_by_monitor(kill: Event) -> str | None:
    """What a kill line that is not the kernel's names as killed: Ray's count of workers, systemd's
    unit (patterns/kernel/systemd-oom-kill*.toml) or systemd-oomd's cgroup."""
    killed, unit, cgroup = kill.get("killed"), kill.get("unit"), kill.get("cgroup")
    if killed is not None:
        return f"{killed} worker(s)"
    if unit is not None:
        return f"a process of {unit}"
    return f"every process of {cgroup}" if cgroup is not None else None


def _monitor_scope(kill: Event) -> str:
    """systemd names the unit it killed in, not which limit ran out: the host's memory or the unit's
    own cgroup limit (MemoryMax, a container's limit); the kernel's Killed-process line tells."""
    if kill.get("unit") is not None or kill.get("cgroup") is not None:
        return "the host's memory or the unit's own memory limit (the kernel's OOM-kill line tells which)"
    return "the node's host memory"


def _host_oom_said_by(
    hypothesis: Hypothesis, kill: Event, evidence: Evidence, victim: Event | None = None
) -> Hypothesis:
    """Host memory ran out by a line that is not the kernel's kill: a memory monitor that killed
    workers for it (Ray's raylet), the kernel's OOM report ahead of its kill, or a message that names
    the OOM killer among possible causes (Ray's worker-died message), which is a lead until a kill
    line confirms it. The fix is the line's own pattern's (it names the limit for that component).
    `victim`: the kernel's `Killed process` line among the roots, whose process the facts name."""
    pattern = evidence.library.pattern(kill.pattern)
    possible = Mark.POSSIBLE_CAUSE in pattern.marks
    killed = _killed_by_monitor(kill) or (victim.get("comm") if victim is not None else None)
    facts: list[tuple[str, FactValue]] = [
        ("killed_process", killed),
        ("scope", "one of the possible causes the line names" if possible else _monitor_scope(kill)),
        ("server_exit_code_minus_9", None),
        ("said_by", pattern.title),
    ]
    if possible and pattern.says:
        # A line that states what ended the process, not why (a container's exit code 137): the
        # OOM killer is its likeliest sender.
        said = evidence.says(kill) or pattern.title
        summary = (
            f"{said[:1].upper()}{said[1:]} ({kill.where}): the OOM killer (host memory) is the likeliest reason, not a "
            "certain one. No line here confirms it: a kernel OOM-kill line (dmesg) or a reason that names it "
            "(OOMKilled) would."
        )
        missing: tuple[str, ...] = (
            "a line that confirms the kill: the kernel's 'Killed process' (dmesg) or the reason OOMKilled",
        )
    elif possible:
        summary = (
            f"{pattern.title} ({kill.where}): it names the OOM killer (host memory) first among the possible "
            "causes. No line here confirms it: a kernel OOM-kill line (dmesg) or the memory monitor's kill "
            "summary would."
        )
        missing = ("a line that confirms the kill: the kernel's 'Killed process' (dmesg) or Ray's memory monitor",)
    else:
        summary = f"{pattern.title} ({kill.where}): host (CPU) memory, not GPU memory, ran out."
        missing = ()
    return replace(
        hypothesis,
        facts=tuple(facts),
        summary=summary,
        confidence=POSSIBLE_OOM if possible else MONITOR_KILL,
        advice=" ".join(pattern.advice.split()),
        missing=hypothesis.missing + missing,
    )


def _killed_by_sigkill(evidence: Evidence) -> list[Event]:
    """Lines that report a process ended by SIGKILL: a server's exit code -9, or a harness's rc=137."""
    by_server = [e for e in evidence.carrying("exit_code") if e.get("exit_code") == SIGKILL]
    by_launcher = [e for e in evidence.carrying("rc") if e.get("rc") == SHELL_SIGNAL_BASE - SIGKILL]
    return by_server + by_launcher


def _sigkill_said(event: Event) -> str:
    if event.get("exit_code") == SIGKILL:
        return "the server reports a scheduler killed by SIGKILL (exit code -9)"
    return f"the launcher reports a server ended by SIGKILL (rc={event.get('rc')}: 128 + 9)"


def _ready_before(event: Event, evidence: Evidence) -> Event | None:
    """The line that shows the root's server serving before it: its ready line, else a request it
    answered (a paste that starts after the ready line: `POST /v1/chat/completions 200 OK`)."""
    ready = [e for e in evidence.marked(*SERVING_BEFORE_CRASH) if _one_server(e, event) and _before(e, event)]
    up = evidence.library.marked(Mark.SERVER_UP)
    return min(ready, key=lambda e: (e.pattern not in up, e.line)) if ready else None


def _before(event: Event, other: Event) -> bool:
    if event.time is not None and other.time is not None and event.time != other.time:
        return event.time < other.time
    return event.line < other.line


def _server_name(event: Event) -> str:
    role = event.role.value
    return f"{role} server" if role in ("prefill", "decode") else "server"


def _downstream_summary(hypothesis: Hypothesis) -> str:
    others = sorted({e.role.value for e in hypothesis.chain if e.source != hypothesis.first_root.source})
    if not others:
        return ""
    return f" Everything after it on {', '.join(others)} follows from it."


def rdma_exhausted(hypothesis: Hypothesis, evidence: Evidence) -> list[Hypothesis]:
    """An RDMA resource ran out: which one is the root line's to say (the locked-memory limit for a
    queue or registration that got ENOMEM, the send queue's depth for a post that found it full), so
    the fix is its pattern's; a relabelled registration (memory-registration) brings its own."""
    root = hypothesis.first_root
    if root.pattern in evidence.library.marked(Mark.REFUSED_OR_USED_UP):
        opened = _nic_opened_before(root, evidence)
        if opened is None:
            why = (
                f"{evidence.said(root)} says the NIC refused the resource, not why: a process without the "
                "permissions DevX needs (an unprivileged container) is refused the same way as one whose NIC "
                "another transport used up, and no line shows another transport on this NIC"
            )
            return [replace(hypothesis, rejected=why, confidence=0.1)]
        hypothesis = replace(hypothesis, lines_used=(*hypothesis.lines_used, opened))
    if hypothesis.advice:
        return [hypothesis]
    pattern = evidence.library.pattern(root.pattern)
    if pattern.verdict != hypothesis.verdict or not pattern.advice.strip():
        return [hypothesis]
    return [replace(hypothesis, advice=" ".join(pattern.advice.split()))]


def _nic_opened_before(root: Event, evidence: Evidence) -> Event | None:
    """The last line of the root's file before it that shows another transport opening the NIC."""
    opened = [e for e in evidence.marked(Mark.NIC_OPENED) if e.source == root.source and e.line < root.line]
    return max(opened, key=lambda e: e.line) if opened else None


def model_load(hypothesis: Hypothesis, evidence: Evidence) -> list[Hypothesis]:
    """A model-load failure stops a server before it serves: the same server coming up after the
    line refutes it (a full disk under a compile cache, a hub disk-space warning on a filesystem
    that misreports its free space)."""
    root = hypothesis.first_root
    # A disk that filled is a model that could not be loaded only when a server's log shows its
    # weights still downloading where it ends: the line alone does not say what filled the disk (a
    # cache that grew across runs, logs, a pod that had served for hours).
    if root.pattern in evidence.library.marked(Mark.DISK_FILLED) and not _cut_off_downloading(evidence):
        why = (
            f"{evidence.said(root)} says the node's disk ran low, not what filled it: no server's log ends "
            "while its weights download"
        )
        return [replace(hypothesis, rejected=why, confidence=0.1)]
    if root.pattern in evidence.library.marked(Mark.WRITE_NO_SPACE) and root.role in (Role.CI, Role.HARNESS):
        why = (
            f"{evidence.said(root)} is a write of the {root.role.value} job's own process (its runner's disk), "
            "not a server loading its model"
        )
        return [replace(hypothesis, rejected=why, confidence=0.1)]
    path = root.get("path")
    if (
        root.pattern in evidence.library.marked(Mark.WRITE_NO_SPACE)
        and isinstance(path, str)
        and not MODEL_FILES.search(path)
        and not _cut_off_downloading(evidence)
    ):
        why = (
            f"{evidence.said(root)} names the file it could not write ({path!r}), no model's weights, cache or "
            "download, and no server's log ends while its weights download: a full disk, not a model that "
            "could not load"
        )
        return [replace(hypothesis, rejected=why, confidence=0.1)]
    if root.role in SHARED_STREAMS:
        return [hypothesis]  # a ready line in a stream of several servers may be another server's
    up = [e for e in evidence.marked(Mark.SERVER_UP) if _same_server(e, root) and not e.failing and _before(root, e)]
    if not up:
        return [hypothesis]
    why = f"{evidence.said(up[0])} shows the same server up after {evidence.said(root)}: the model loaded"
    return [replace(hypothesis, rejected=why, confidence=0.1)]


# A path a model's load writes to: the hub's cache, a model store or download directory, a weights
# file, a compile or kernel cache the server builds as it starts (`/root/.cache/...`).
MODEL_FILES = lazy_re(
    r"(?i)huggingface|/hub/|models?[-_/]|blobs|snapshots|download|\.cache|cache/|weights?|checkpoint|"
    r"\.(?:safetensors|bin|gguf|pt|pth|incomplete)\b|/tmp\w*$"
)


def _cut_off_downloading(evidence: Evidence) -> bool:
    """A file of the run ends on a weights file's download bar, or on the line its weights began to
    load (Mark.DOWNLOADING): its server was stopped while it fetched its model."""
    bars = [evidence.library.pattern(name) for name in sorted(evidence.library.marked(Mark.DOWNLOADING))]
    return any(
        source.last_line is not None and match_line(bar, source.last_line[1]) is not None
        for source in evidence.sources
        for bar in bars
    )


def _same_server(event: Event, other: Event) -> bool:
    return event.source == other.source and event.role == other.role


def _one_server(event: Event, other: Event) -> bool:
    """In one file, and not told apart as two servers: a stream several pods share (a Loki export)
    gives each line the role its record names, and a prefill's ready line says nothing of a decode."""
    if event.source != other.source:
        return False
    sides = {event.role, other.role} & {Role.PREFILL, Role.DECODE}
    return len(sides) < 2
