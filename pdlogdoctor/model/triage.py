"""`pdlogdoctor triage`: many runs, grouped by the failure they had (values only)."""

from __future__ import annotations

from .values import record


@record
class KnownRef:
    """A known issue a run's failure is: an upstream thread (patterns/known/) or the team's tracker."""

    link: str
    title: str
    words: str  # "closed unmerged: in no release", "team tracker (fingerprint)"


@record
class RunRecord:
    """One run as triage keeps it (and the history stores it)."""

    key: str  # the run's identity: the same run added twice is one run (history.py)
    name: str  # what the run is called: its directory, archive or report file name, or --name
    path: str
    time: float | None  # the earliest time its logs show, seconds since the epoch; None: untimed
    verdict: str
    title: str
    confidence: float
    fingerprint: str
    summary: str
    green: bool  # healthy: the deployment served and nothing failed
    readable: bool = True  # some input held a serving log; False: nothing to judge the run by
    known: tuple[KnownRef, ...] = ()
    error: str = ""  # why the run could not be analysed (a missing path, an unreadable report)


@record
class Group:
    """The runs that failed the same way (one fingerprint)."""

    fingerprint: str
    verdict: str
    title: str
    runs: tuple[str, ...]  # run keys, in run order
    first: str  # run names
    last: str
    example: str  # the most recent run's name: where to look
    example_path: str
    known: tuple[KnownRef, ...]
    flaky: bool  # it comes and goes: a green run lies between two of its runs
    new: bool  # it first appeared after the last green run (and there is one)
    gone: bool  # not seen since the last green run

    @property
    def count(self) -> int:
        return len(self.runs)


@record
class Triage:
    runs: tuple[RunRecord, ...]  # in run order: log time, else name
    groups: tuple[Group, ...]  # most runs first
    last_green: str | None  # the name of the last green run, if any

    @property
    def green_runs(self) -> int:
        return sum(1 for run in self.runs if run.green)
