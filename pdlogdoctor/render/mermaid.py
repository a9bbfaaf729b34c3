"""A Mermaid flowchart of the chain for the issue body: root -> consequences across roles, with Δt.

GitHub renders a ```mermaid block as a diagram. It stays small enough to read:
one node per pattern and role (repeats folded into a count), at most MAX_NODES
nodes, one subgraph per role. Node text is the library's own wording (pattern
titles and ids), a role and a Δt: no log text reaches the diagram, so nothing
from a log can be redacted wrongly or break out of the Mermaid syntax.
"""

from __future__ import annotations

from itertools import pairwise

import regex

from ..model import Event, Report
from ..model.counts import count_of
from ..model.values import record
from .document import chain_start, time_since

MAX_NODES = 12
TITLE_CHARS = 48
# Mermaid's own syntax characters are left out of labels: quotes, brackets, pipes, semicolons, #, <, >.
_UNSAFE = regex.compile(r"[^\w .,:+/=%×Δ'…·\-]")


@record
class Node:
    name: str
    role: str
    pattern: str
    events: tuple[Event, ...]


def mermaid_chain(report: Report) -> str | None:
    """The diagram's source (without the fence), or None when the chain has fewer than two steps."""
    nodes = _nodes(report)
    if len(nodes) < 2:
        return None
    titles = dict(report.glossary)
    start = chain_start(report)
    roots = {(e.source, e.line, e.pattern) for e in report.roots}
    lines = ["flowchart LR"]
    for role in dict.fromkeys(node.role for node in nodes):
        lines.append(f'  subgraph {_safe_id(role)}["{role}"]')
        lines += [f'    {node.name}["{_label(node, titles, start)}"]' for node in nodes if node.role == role]
        lines.append("  end")
    lines += _edges(report, nodes)
    root_names = [node.name for node in nodes if any((e.source, e.line, e.pattern) in roots for e in node.events)]
    lines.append("  classDef root stroke:#c62828,stroke-width:3px")
    if root_names:
        lines.append(f"  class {','.join(root_names)} root")
    return "\n".join(lines)


def _nodes(report: Report) -> list[Node]:
    grouped: dict[tuple[str, str], list[Event]] = {}
    for event in (*report.roots, *report.chain):
        members = grouped.setdefault((event.role.value, event.pattern), [])
        if event not in members:
            members.append(event)
    kept = list(grouped.items())[:MAX_NODES]
    return [Node(f"n{number}", role, pattern, tuple(events)) for number, ((role, pattern), events) in enumerate(kept)]


def _label(node: Node, titles: dict[str, str], start: float | None) -> str:
    title = titles.get(node.pattern, node.pattern)
    title = title if len(title) <= TITLE_CHARS else title[: TITLE_CHARS - 1] + "…"
    count = count_of(node.events)
    times = f"{time_since(node.events[0], start)}" if node.events[0].time is not None else "no timestamp"
    folded = f" ×{count}" if count.folded else ""
    return f"{_plain(title)}<br/>{_plain(f'{node.pattern}{folded} · {times}')}"


def _plain(text: str) -> str:
    return str(_UNSAFE.sub(" ", text))


def _edges(report: Report, nodes: list[Node]) -> list[str]:
    owner = {(e.source, e.line, e.pattern): node.name for node in nodes for e in node.events}
    edges: dict[tuple[str, str], None] = {}
    for link in report.links:
        cause = owner.get((link.cause.source, link.cause.line, link.cause.pattern))
        effect = owner.get((link.effect.source, link.effect.line, link.effect.pattern))
        if cause and effect and cause != effect:
            edges[(cause, effect)] = None
    if edges:
        return [f"  {cause} --> {effect}" for cause, effect in edges]
    # No causal link was drawn: show the order in time, dotted, so it is not read as causation.
    return [f"  {a.name} -.-> {b.name}" for a, b in pairwise(nodes)]


def _safe_id(text: str) -> str:
    return "lane_" + str(regex.sub(r"\W", "_", text))
