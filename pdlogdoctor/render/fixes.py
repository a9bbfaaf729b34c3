"""The fix as every renderer shows it: labelled alternatives, each a snippet that is safe to paste.

A report's suggestions are alternatives. Each becomes a `Fix`: a label in words,
where it applies (prefill, decode or both), and a snippet that a paste into a
shell either runs as intended (`export NAME=value`) or ignores (a launch flag is
shown as a comment, never as a bare `--flag value` line a shell would run).
A verdict below LOW_CONFIDENCE says what to verify before applying any of them.
"""

from __future__ import annotations

from ..model import Report, Role, Suggestion
from ..model.values import record
from ..model.verdicts import INCONCLUSIVE, META
from ..reason.confidence import SURE

LOW_CONFIDENCE = SURE  # below this a fix is shown with what to check first
NO_CAUSE = META  # verdicts that name no cause to be unsure of
RIVAL_CONFIDENCE = 0.25
LETTERS = (
    "ABCDEFGHIJKLMNOPQRSTUVWXYZ"  # alternatives are A, B, ...  # an alternative this likely is named among the checks
)


@record
class Fix:
    label: str  # "Set SGLANG_MORI_MAX_MR_BYTES"
    applies: str  # "prefill and decode servers", or "" when the logs do not tell
    snippet: tuple[str, ...]  # lines to copy; empty for advice that is not a command
    reason: str
    arithmetic: tuple[str, ...]
    lines_used: tuple[str, ...]


def fixes(report: Report) -> list[Fix]:
    return [fix_for(item) for item in report.suggestions]


def fix_for(item: Suggestion) -> Fix:
    applies = where_it_applies(item.applies_to)
    return Fix(
        label=_label(item),
        applies=applies,
        snippet=snippet(item),
        reason=" ".join(item.reason.split()),
        arithmetic=item.arithmetic,
        lines_used=item.lines_used,
    )


def where_it_applies(roles: tuple[Role, ...]) -> str:
    names = [role.value for role in roles]
    if not names:
        return ""
    return (" and ".join(names) if len(names) <= 2 else ", ".join(names)) + (
        " server" if len(names) == 1 else " servers"
    )


def _label(item: Suggestion) -> str:
    if item.kind == "env":
        return f"Environment variable {item.name}"
    if item.kind == "server-arg":
        return f"Launch flag {item.name}"
    return item.name


def snippet(item: Suggestion) -> tuple[str, ...]:
    """Shell lines that are safe to paste: they do what the fix says, or nothing (a comment)."""
    if item.value is None:
        return ()
    if item.kind == "env":
        return (f"export {item.name}={item.value}",)
    if item.kind == "server-arg":
        return ("# add to each launch command:", f"#   {item.name} {item.value}")
    return ()


def command_text(item: Suggestion) -> str | None:
    """The fix as one short phrase (`export X=1`, `--flag 2`), for one-line formats; None for advice."""
    if item.value is None or item.kind not in ("env", "server-arg"):
        return None
    return f"export {item.name}={item.value}" if item.kind == "env" else f"{item.name} {item.value}"


def verify_first(report: Report) -> str | None:
    """What to check before acting on a low-confidence verdict; None when the verdict is sure enough."""
    verdict = report.verdict
    if verdict.id in NO_CAUSE or verdict.confidence >= LOW_CONFIDENCE:
        return None
    checks = [f"{item}" for item in report.missing[:2]]
    rivals = [alt for alt in report.alternatives if alt.confidence >= RIVAL_CONFIDENCE]
    checks += [f"it may instead be {alt.id} (confidence {alt.confidence:.2f})" for alt in rivals[:1]]
    return "; ".join(checks) or "the evidence lines of the chain: the verdict rests on few of them"


def confidence_words(report: Report) -> str:
    """'confidence 0.97 (high)'; nothing numeric for inconclusive, which has no cause to be sure of."""
    verdict = report.verdict
    if verdict.id == INCONCLUSIVE:
        return "no cause identified"
    level = "high" if verdict.confidence >= 0.85 else "medium" if verdict.confidence >= LOW_CONFIDENCE else "low"
    return f"confidence {verdict.confidence:.2f} ({level})"
