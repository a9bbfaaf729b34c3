"""A server told to stop, whose children then end by SIGTERM: its shutdown, not a crash.

sglang's server logs `SIGTERM received ... Draining requests and shutting down...` when something
outside it (a launcher, Kubernetes deleting or rescheduling its pod, a job's teardown) sends it
SIGTERM (lines marked `told-to-stop`); when it has drained, its scheduler processes end by that
signal and its watchdog reports each as `Subprocess scheduler_0 (pid=N) crashed with exit code -15`.
That line is the shutdown the server announced: it is not failing, so it roots no crash and explains
no peer's loss. The peers' lines that follow (a decode losing its prefill) are then the failure the
report leads with, and the told-to-stop line says where to look (who stopped the server). A death by
any other signal, or by SIGTERM with no such line of the same server before it, stays a crash.

A test harness stops the servers it started when a test fails (pytest's fixtures tear them down
with SIGTERM): in a run whose harness failed a test, a death by SIGTERM is that teardown, whenever
the failure's line is printed (pytest's summary comes after the teardown). The failed test leads the
report, not the server it stopped (ai-dynamo/dynamo's sglang tests: a request that timed out, then
`Subprocess scheduler_0 ... crashed with exit code -15`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from ..library.patterns import Library
from ..model import Event, Mark, Role

SIGTERM = -15
DRAIN_S = 30 * 60.0  # a server drains what it holds this long at most before its children end


def shutdowns_apart(events: Sequence[Event], library: Library) -> list[Event]:
    """`events`, each death by SIGTERM of a server that said it was told to stop, or of one in a run
    whose harness failed a test (its teardown), made not failing."""
    told = library.marked(Mark.TOLD_TO_STOP)
    stops = [e for e in events if e.pattern in told]
    torn_down = _a_test_failed(events, library)
    if not stops and not torn_down:
        return list(events)
    return [
        replace(e, failing=False) if e.failing and (_announced(e, stops) or _torn_down(e, torn_down)) else e
        for e in events
    ]


def _a_test_failed(events: Sequence[Event], library: Library) -> bool:
    """The run's harness failed a test or a check (a failing line marked `gate-failed` of a harness
    file): it then tears down the servers it started."""
    gates = library.marked(Mark.GATE_FAILED)
    return any(e.failing and e.pattern in gates and e.role is Role.HARNESS for e in events)


def _torn_down(death: Event, torn_down: bool) -> bool:
    """A death by SIGTERM in a run whose harness failed a test: the teardown that followed."""
    return torn_down and death.get("exit_code") == SIGTERM


def _announced(death: Event, stops: Sequence[Event]) -> bool:
    """A death by SIGTERM with a told-to-stop line of the same server (file and role) before it."""
    if death.get("exit_code") != SIGTERM:
        return False
    return any(
        stop.source == death.source and stop.role is death.role and _shortly_before(stop, death) for stop in stops
    )


def _shortly_before(stop: Event, death: Event) -> bool:
    if stop.time is not None and death.time is not None:
        return 0.0 <= death.time - stop.time <= DRAIN_S
    return stop.line < death.line
