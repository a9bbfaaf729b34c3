"""`pdlogdoctor explain ID`: what a verdict or pattern means, how it is recognised, what to do.

Everything printed comes from the library (verdicts.toml and the pattern files), so the
explanation cannot drift from what the diagnosis actually uses.
"""

from __future__ import annotations

import difflib
import textwrap

from ..library.known import KnownEntry
from ..library.patterns import Library, Pattern, VerdictSpec
from ..model.verdicts import HEALTHY, INCONCLUSIVE, NO_FAILURE_SEEN

WIDTH = 100


def explain(library: Library, item_id: str) -> str | None:
    """The explanation of a verdict or pattern id, or None when the library has neither. The id as
    written first, then in any case and with `_` for `-` when that names one id only."""
    item_id = _known_id(library, item_id.strip())
    if library.has_verdict(item_id):
        return _verdict_text(library, library.verdict(item_id))
    pattern = _pattern_or_none(library, item_id)
    if pattern is not None:
        return _pattern_text(library, pattern)
    entry = library.known.entry(item_id)
    if entry is not None:
        return "\n".join(_entry_lines(entry, full=True))
    return None


def _known_id(library: Library, item_id: str) -> str:
    """`item_id`, or the one known id it spells in another case or with `_` for `-`."""
    known = _ids(library)
    if item_id in known:
        return item_id
    alike = [k for k in known if _folded(k) == _folded(item_id)]
    return alike[0] if len(alike) == 1 else item_id


def _folded(item_id: str) -> str:
    return item_id.lower().replace("_", "-")


def _ids(library: Library) -> list[str]:
    """Every id explain takes: verdicts, patterns, known upstream issues."""
    ids = [spec.id for spec in library.verdicts] + [pattern.id for pattern in library.patterns]
    return ids + [entry.id for entry in library.known.entries]


def nearest_ids(library: Library, item_id: str, limit: int = 5) -> list[str]:
    """Known ids that look like `item_id` (in any case): close spellings first, then ids containing it."""
    known = _ids(library)
    by_folded = {_folded(k): k for k in known}
    wanted = _folded(item_id.strip())
    close = [by_folded[k] for k in difflib.get_close_matches(wanted, list(by_folded), n=limit, cutoff=0.5)]
    containing = [k for k in known if wanted and wanted in _folded(k) and k not in close]
    return (close + containing)[:limit]


def _pattern_or_none(library: Library, pattern_id: str) -> Pattern | None:
    try:
        return library.pattern(pattern_id)
    except KeyError:
        return None


def _verdict_text(library: Library, spec: VerdictSpec) -> str:
    supporting = [p for p in library.patterns if p.verdict == spec.id]
    lines = [f"verdict {spec.id}: {spec.title}", f"tier: {spec.tier.value}"]
    if spec.analyzer:
        lines.append(f"checked by analyzer: {spec.analyzer}")
    lines += ["", "What it means:", _block(spec.explain), "", "How it is recognised:"]
    if supporting:
        lines += [_pattern_summary(p) for p in supporting]
    else:
        lines.append(_block(_unrooted_note(spec)))
    lines += ["", "What to do:", _block(spec.advice)]
    lines += _known_upstream(library, spec)
    return "\n".join(lines)


def _known_upstream(library: Library, spec: VerdictSpec) -> list[str]:
    """The upstream problems this verdict is known as (patterns/known/), or why none is listed."""
    entries = library.known.for_verdict(spec.id)
    if entries:
        lines = ["", "Known upstream (pdlogdoctor explain <id> for one in full):"]
        for entry in entries:
            lines += _entry_lines(entry, full=False)
        return lines
    why = next((item.why for item in library.known.without_fix if item.verdict == spec.id), None)
    return ["", "Known upstream:", _block(f"none listed: {why}")] if why else []


def _entry_lines(entry: KnownEntry, full: bool) -> list[str]:
    """An entry: its id, what the change did, its status and release, its thread, the workaround."""
    release = f", first in {entry.component} {entry.fixed_in}" if entry.fixed_in else ""
    indent = "  " if full else "      "
    head = f"known issue {entry.id}: {entry.title}" if full else f"  - {entry.id}: {entry.title}"
    lines = [textwrap.fill(head, WIDTH, subsequent_indent=indent)]
    lines += [f"{indent}status: {entry.status}{release}", f"{indent}source: {entry.source}"]
    conditions = ", ".join(
        f"{c.name} {c.low}" if c.low == c.high else f"{c.name} {c.low}..{c.high}" for c in entry.when
    )
    if full:
        lines.insert(1, f"  verdict: {', '.join(entry.verdicts)}" + (f"   when: {conditions}" if conditions else ""))
        lines += [f"  also: {ref}" for ref in entry.references]
    if entry.workaround:
        lines.append(
            textwrap.fill(
                entry.workaround, WIDTH, initial_indent=f"{indent}workaround: ", subsequent_indent=indent + "  "
            )
        )
    if full and entry.note:
        lines += ["", "Notes:", _block(entry.note)]
    return lines


def _unrooted_note(spec: VerdictSpec) -> str:
    if spec.id == HEALTHY:
        return (
            "no failing line, and at least one line shows the deployment serving "
            "(ready server, probe ok, accuracy result)."
        )
    if spec.id == INCONCLUSIVE:
        return "failing lines exist but none supports a cause; the report lists the evidence that is missing."
    if spec.id == NO_FAILURE_SEEN:
        return "no failing line, and no line shows the deployment serving (a starting server, a short excerpt)."
    return "no single pattern roots this verdict: an analyzer or detector proposes it from several lines read together."


def _pattern_summary(pattern: Pattern) -> str:
    anchors = ", ".join(repr(a) for a in pattern.anchors)
    keys = f"\n      and one of: {', '.join(repr(a) for a in pattern.any_anchors)}" if pattern.any_anchors else ""
    head = f"  - {pattern.id} ({pattern.kind.value}, {pattern.severity.value}): {pattern.title}"
    explain = textwrap.fill(
        " ".join(pattern.explain.split()), WIDTH, initial_indent="      ", subsequent_indent="      "
    )
    return f"{head}\n      anchors: {anchors}{keys}\n{explain}"


def _pattern_text(library: Library, pattern: Pattern) -> str:
    lines = [
        f"pattern {pattern.id}: {pattern.title}",
        f"kind: {pattern.kind.value}   severity: {pattern.severity.value}   verdict: {pattern.verdict or '-'}",
        f"file: {pattern.group}/{pattern.id}.toml",
        "",
        "What it means:",
        _block(pattern.explain),
        "",
        "How it is recognised:",
        f"  anchors (all must be in the line): {', '.join(repr(a) for a in pattern.anchors)}",
    ]
    if pattern.any_anchors:
        lines.append(f"  and one of: {', '.join(repr(a) for a in pattern.any_anchors)}")
    lines += [
        f"  regex: {pattern.regex.pattern}",
    ]
    if pattern.failure_if is not None:
        lines.append(f"  failing only if: {pattern.failure_if.text}")
    if pattern.examples.match:
        lines.append(f"  example: {pattern.examples.match[0]}")
    lines += _links(library, pattern)
    if pattern.verdict is not None:
        lines += ["", f"Supports verdict {pattern.verdict}: {library.verdict(pattern.verdict).title}"]
    lines += ["", "What to do:", _block(pattern.advice or _verdict_advice(library, pattern))]
    if pattern.references:
        lines += ["", "References:"] + [f"  - {ref}" for ref in pattern.references]
    return "\n".join(lines)


def _links(library: Library, pattern: Pattern) -> list[str]:
    effects = sorted({rule.target for rule in pattern.causes})
    causes = sorted({p.id for p in library.patterns if any(rule.target == pattern.id for rule in p.causes)})
    lines = []
    if effects:
        lines.append(f"  explains (downstream): {', '.join(effects)}")
    if causes:
        lines.append(f"  explained by (upstream): {', '.join(causes)}")
    return lines


def _verdict_advice(library: Library, pattern: Pattern) -> str:
    if pattern.verdict is not None:
        return library.verdict(pattern.verdict).advice
    return "This line is context or a symptom: follow the chain upstream to the cause."


def _block(text: str) -> str:
    paragraphs = [" ".join(part.split()) for part in text.strip().split("\n\n") if part.strip()]
    return "\n".join(textwrap.fill(p, WIDTH, initial_indent="  ", subsequent_indent="  ") for p in paragraphs)
