"""A process stopped from outside, as its exit says it: the signals another process sends, and how
far from the stop's own record the death may be logged."""

from __future__ import annotations

# A death by a signal another process sends (SIGTERM: told to stop; SIGKILL: killed), as an exit
# code (-15, -9) or as a shell's status (143, 137): the process did not fail by itself.
SENT_SIGNALS = frozenset({-15, -9, 143, 137})
# How long after the death the stop's record may come: an orchestrator sends SIGTERM, waits its
# grace period (30 s by default), then SIGKILL, and records the container's end after that.
KILL_GRACE_S = 120.0
# How long before the death the stop's record may come (a job scheduler's banner, then its signals).
STOP_LEAD_S = 60.0
