"""Fleets: with several nodes of one role, which failed and which did not.

Two prefill nodes started from one recipe share their configuration. When only one of them
fails, and the other logged the same KV pool sizing and served, the cause is specific to the
failing node (its NIC, driver, firmware or load), not the configuration they share; when all of
them fail the same way, it is the shared configuration or image. The report says which, as a
fact of the verdict, so every format shows it. The nodes of one multi-node server (one
`dist_init_addr`: a TP group spread over several hosts) are one server, not twins: one node's
failure stops them all.
"""

from __future__ import annotations

from dataclasses import replace

from ..ingest.rotation import streams
from ..model import Event, Mark, Report, Role, Source
from . import confidence
from .clocks import multi_node_servers
from .hypothesis import Evidence

FLEET_ROLES = (Role.PREFILL, Role.DECODE)
GIB = 1 << 30
NODE_SPECIFIC = "the cause is specific to"


# A suggested configuration change is less sure when the same configuration worked on a twin.
CONFIGURATION_FIXES = ("env", "server-arg")
TWIN_WORKED = (
    " The same configuration worked on another node of this role, so the suggested configuration change"
    " may not be the whole fix: compare the failing node's NIC, driver and firmware."
)


def with_fleet(report: Report, evidence: Evidence) -> Report:
    """The verdict with a `failing_nodes` fact when its root's role has several nodes; when the
    failing node's twin served with the same sizing, a configuration fix is weighed down."""
    sentence = fleet_sentence(report, evidence)
    if sentence is None:
        return report
    verdict = replace(report.verdict, facts=(*report.verdict.facts, ("failing_nodes", sentence)))
    if NODE_SPECIFIC in sentence and any(s.kind in CONFIGURATION_FIXES for s in report.suggestions):
        verdict = confidence.applied(
            replace(verdict, summary=verdict.summary + TWIN_WORKED), confidence.twin_worked(confidence.of(verdict))
        )
    return replace(report, verdict=verdict)


def fleet_sentence(report: Report, evidence: Evidence) -> str | None:
    if not report.roots:
        return None
    root = report.roots[0]
    role = next((s.role for s in evidence.sources if s.name == root.source), None)
    nodes = [s for s in evidence.sources if s.role is role and s.lines > 0]
    servers = _servers(nodes, evidence)
    if role not in FLEET_ROLES or len(servers) < 2:
        return None
    root_patterns = {r.pattern for r in report.roots}
    failed = [server for server in servers if any(_fails(s, root_patterns, evidence) for s in server)]
    healthy = [server for server in servers if server not in failed]
    hosts = len({streams_of(nodes).get(node.name, node.name) for node in nodes})  # a rotated log is one node's
    what = f"{role.value} {'servers' if len(servers) < hosts else 'nodes'}"
    if not healthy:
        return (
            f"all {len(servers)} {what} failed the same way ({root.pattern}): a cause they share (configuration, image)"
        )
    region = _region(root)
    head = f"{len(failed)} of {len(servers)} {what} failed ({root.pattern}{region})"
    return head + "; " + _the_others(failed, healthy, evidence)


def _servers(nodes: list[Source], evidence: Evidence) -> list[list[Source]]:
    """The files grouped by server: the nodes of one multi-node server are one, not twins."""
    server_of = multi_node_servers(evidence.marked(Mark.SERVER_LAUNCH))
    stream_of = streams_of(nodes)
    servers: dict[str, list[Source]] = {}
    for node in nodes:
        stream = stream_of.get(node.name, node.name)
        servers.setdefault(server_of.get(node.name, server_of.get(stream, stream)), []).append(node)
    return list(servers.values())


def streams_of(nodes: list[Source]) -> dict[str, str]:
    """The stream each rotated segment belongs to (rotation.py): one node's log, not a twin."""
    return streams(node.name for node in nodes)


def _fails(source: Source, patterns: set[str], evidence: Evidence) -> bool:
    return any(e.source == source.name and e.failing and e.pattern in patterns for e in evidence.events)


def _region(root: Event) -> str:
    size = root.get("size")
    return f" for a {size / GIB:.2f} GiB region" if isinstance(size, int) and size >= GIB else ""


def _the_others(failed: list[list[Source]], healthy: list[list[Source]], evidence: Evidence) -> str:
    """What the servers that did not fail show: the same sizing, serving; and what that implies."""
    the = "the other" if len(healthy) == 1 else "the others"
    served = all(any(_served(s, evidence) for s in server) for server in healthy)
    same = _same_sizing([s for server in failed + healthy for s in server], evidence)
    text = f"{the} ({_names(healthy)}) did not"
    if same is not None:
        text += f", with the same KV pool sizing ({same})"
    if served:
        text += ", and served"
    if served and same is not None:
        text += f": {NODE_SPECIFIC} {_names(failed)} (its NIC, driver, firmware or load), not the shared configuration"
    return text


def _names(servers: list[list[Source]]) -> str:
    """File names, a multi-node server's joined with '+'."""
    return ", ".join(" + ".join(s.name.rsplit("/", 1)[-1] for s in server) for server in servers)


def _served(source: Source, evidence: Evidence) -> bool:
    return any(e.source == source.name and not e.failing for e in evidence.marked(Mark.SERVER_UP, Mark.WARMUP))


def _same_sizing(nodes: list[Source], evidence: Evidence) -> str | None:
    """The sizing line's values when every node logged the same ones, as `name=value`."""
    sizing = evidence.marked(Mark.KV_POOL_SIZED)
    for pattern in sorted({e.pattern for e in sizing}):
        seen = [next((e for e in sizing if e.source == s.name and e.pattern == pattern), None) for s in nodes]
        if all(e is not None for e in seen):
            values = {tuple(sorted(_sizes(e))) for e in seen if e is not None}
            if len(values) == 1:
                shown = sorted(next(iter(values)), key=lambda kv: ("token" not in kv[0] and "size" not in kv[0], kv[0]))
                return ", ".join(f"{k}={v:,}" if isinstance(v, int) else f"{k}={v}" for k, v in shown[:2])
    return None


def _sizes(event: Event) -> list[tuple[str, int | float | str]]:
    return [(k, v) for k, v in event.fields if isinstance(v, (int, float, str)) and k not in ("dp", "tp", "ep", "pp")]
