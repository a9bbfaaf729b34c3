"""What a report says about known issues and versions: values only, added after the diagnosis.

None of these changes a verdict, its confidence or its fingerprint: they say which known
problem the diagnosed failure is (upstream, from patterns/known/; or the team's own tracker, from
the config's `known` files) and which versions the logs show.
"""

from __future__ import annotations

from .values import record


@record
class TeamIssue:
    """One entry of a team's known-issues file: a tracker link and what it stands for."""

    link: str
    title: str
    fingerprints: tuple[str, ...] = ()
    verdicts: tuple[str, ...] = ()


@record
class VersionSeen:
    """A component's version as one line of the logs tells it."""

    component: str  # sglang, vllm, nixl, ucx, nccl, ... (patterns/known/versions.toml)
    version: str  # as logged
    where: str  # file:line
    how: str  # what the line is: "vLLM's start-up line", "a pip freeze row", ...
    role: str = ""  # the file's role (prefill, decode, harness...)


@record
class KnownIssue:
    """An upstream problem (patterns/known/) that matches this report, read against the logs' versions."""

    id: str
    title: str
    source: str  # the public thread
    status: str  # fixed | mitigated | workaround-only | open | unmerged
    component: str | None
    fixed_in: str | None
    workaround: str
    seen: tuple[VersionSeen, ...]  # the component's versions in these logs
    # has-fix | before-fix | cannot-compare | not-in-logs | no-release (no release has a fix)
    standing: str
    fix: str  # "fixed in nixl 1.0.0", "closed unmerged: in no release": the library's words
    about: str  # "these logs show nixl 0.10.0 (pip list, ci.log:12): older than the fix": the logs'

    @property
    def lead(self) -> str:
        return f"known upstream: {self.source}, {self.fix}"

    @property
    def sentence(self) -> str:
        """What every format says: "known upstream: <link>, fixed in X; these logs show Y"."""
        return f"{self.lead}; {self.about}"


@record
class TeamMatch:
    """The team's own tracker entry this failure is."""

    link: str
    title: str
    by: str  # "fingerprint" or "verdict"
