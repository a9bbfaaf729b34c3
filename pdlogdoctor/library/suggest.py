"""`pdlogdoctor patterns suggest`: a pattern-file skeleton for each top unrecognised error.

The skeleton comes from the template the generic layer made (templates.py): its longest
literal run is the anchor, each masked value becomes a named group of the regex, the real
line is the match example and another real line of the logs (an unrecognised one first, else one
of the chain's) the no_match one. With a title, a kind and (for a cause) a verdict filled in, it
passes `pdlogdoctor patterns check`.
"""

from __future__ import annotations

from collections.abc import Sequence

import regex

from ..model import Report, UnexplainedError
from .patterns import SKELETON_TITLE
from .templates import Mask

MAX_SUGGESTIONS = 5
MIN_ANCHOR = 6
# A mask's placeholder (templates.toml) or a `<*>` the grouping left.
_MASK = regex.compile(r"<([a-z]+|\*)>")


def suggestions(report: Report, masks: Sequence[Mask] = ()) -> list[tuple[str, str]]:
    """(pattern id, TOML text) for the top unrecognised templates whose line a regex can anchor;
    each masked value becomes a group matching what its mask matches."""
    groups = _groups(masks)
    found: list[tuple[str, str]] = []
    items = list(report.unrecognised[:MAX_SUGGESTIONS])
    for item in items:
        anchor = _anchor(item.template)
        if anchor is None:
            continue
        others = [other.first.text for other in items if other is not item]
        others += [event.text for event in report.chain]  # real lines too, when only one went unrecognised
        found.append(_skeleton(item, anchor, others, groups))
    return found


def _groups(masks: Sequence[Mask]) -> dict[str, str]:
    """Each placeholder's group body: the regexes of the masks of that name, as alternatives."""
    bodies: dict[str, list[str]] = {}
    for mask in masks:
        bodies.setdefault(mask.name, []).append(mask.regex.pattern)
    return {name: "|".join(f"(?:{body})" for body in found) for name, found in bodies.items()}


def _anchor(template: str) -> str | None:
    """The longest ASCII run of the template without a mask in it."""
    runs = [part.strip() for part in _MASK.split(template)[::2]]
    runs = [run for run in runs if run.isascii() and len(run) >= MIN_ANCHOR]
    return max(runs, key=len) if runs else None


def _regex(template: str, groups: dict[str, str]) -> str:
    counts: dict[str, int] = {}
    parts: list[str] = []
    pieces = _MASK.split(template)
    for index, piece in enumerate(pieces):
        if index % 2 == 0:
            parts.append(regex.escape(piece, literal_spaces=True))
            continue
        if piece == "*" or piece not in groups:
            parts.append(r"\S+" if piece == "*" else regex.escape(f"<{piece}>"))
            continue
        counts[piece] = counts.get(piece, 0) + 1
        parts.append(f"(?P<{piece}{counts[piece]}>{groups[piece]})")
    return "".join(parts)


def _identifier(anchor: str) -> str:
    words = regex.findall(r"[a-z0-9]+", anchor.lower())[:5]
    return "-".join(["unrecognised", *words]) if words else "unrecognised-error"


def _skeleton(item: UnexplainedError, anchor: str, others: list[str], groups: dict[str, str]) -> tuple[str, str]:
    pattern_id = _identifier(anchor)
    near = next((text for text in others if anchor not in text), None)
    lines = [
        f'id = "{pattern_id}"',
        "# Fill in what the line means: a title, kind (cause, symptom or context) and, for a cause,",
        "# the verdict (`pdlogdoctor verdicts` lists them); then run `pdlogdoctor patterns check`.",
        f"title = {_literal(SKELETON_TITLE)}",
        f'severity = "{item.severity.value}"',
        'kind = "cause"',
        '# verdict = "inconclusive"',
        f"anchors = [{_literal(anchor)}]",
        f"regex = {_literal(_regex(item.template, groups))}",
        f"explain = {_literal(_seen(item))}",
        "",
        "[examples]",
        f"match = [{_literal(item.first.text)}]",
        *_no_match(near),
        "",
    ]
    return pattern_id, "\n".join(lines)


def _no_match(near: str | None) -> list[str]:
    """Another real line of the logs as the near miss; with none, an empty list and a note: a line
    made up here would test nothing a log holds (and check refuses the empty list until filled)."""
    if near is not None:
        return [f"no_match = [{_literal(near)}]"]
    return ["# no_match: a real line that looks alike but means something else", "no_match = []"]


def _seen(item: UnexplainedError) -> str:
    return f"Seen {item.count} time(s) in {len(item.files)} file(s), first at {item.first.where}."


def _literal(text: str) -> str:
    """A TOML string holding `text` as it is: a literal string when it can be one."""
    if "'''" not in text and "\n" not in text:
        return f"'''{text}'''" if ("'" in text or "\\" in text or '"' in text) else f'"{text}"'
    escaped = text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")
    return f'"{escaped}"'
