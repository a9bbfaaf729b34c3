"""The report's own words: the fields that hold the tool's vocabulary and the library's public
knowledge, never data from the logs: the outbound pass never redacts them, and redaction learns
no name from them."""

from __future__ import annotations

# Identifiers of the tool's own vocabulary: never data from the logs, never redacted. Also the
# library's upstream knowledge (its public links and words) and the team's tracker links from its
# config: not log data, and a masked link could not be followed. redact.py learns no host from them.
KEPT = frozenset(
    {
        ("Event", "pattern"),
        ("Verdict", "id"),
        ("Alternative", "id"),
        ("Suggestion", "kind"),
        ("Suggestion", "name"),
        ("Series", "pattern"),
        ("Series", "metric"),
        ("SeriesRow", "metric"),
        ("Performance", "finding"),
        ("Performance", "shown"),
    }
    | {("KnownIssue", name) for name in ("id", "title", "source", "status", "component", "fixed_in", "workaround")}
    | {("KnownIssue", name) for name in ("standing", "fix")}
    | {("VersionSeen", "component"), ("VersionSeen", "how")}
    | {("TeamMatch", "link"), ("TeamMatch", "title"), ("TeamMatch", "by")}
)
