"""The verdict ids the code itself names, in one place.

Every other verdict is data (`patterns/verdicts.toml`): rooted by a pattern's `verdict`, proposed
by an analyzer or detector the verdict names. These three are the diagnosis's own answers when no
cause is named, and every stage that words or gates a report tells them apart.
tests/test_library_references.py checks that each exists in the library and that no other module
writes a library id.
"""

from __future__ import annotations

HEALTHY = "healthy"  # no failure, and lines show the deployment serving
INCONCLUSIVE = "inconclusive"  # failures without a cause the logs support
NO_FAILURE_SEEN = "no-failure-seen"  # nothing failed, and nothing shows serving either
NO_CAUSE = (INCONCLUSIVE, NO_FAILURE_SEEN)  # the verdicts that name no cause: nothing to be sure of
META = (HEALTHY, *NO_CAUSE)
