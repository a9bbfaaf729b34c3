"""How one run behaves: built once (by the CLI, or a Python caller) and passed down.

No stage reads the environment or a module constant it could be handed instead;
tests shrink a cap by passing a smaller one.
"""

from __future__ import annotations

from .known import TeamIssue
from .values import record

GIB = 1 << 30


@record
class Limits:
    """Decompression-bomb and walk caps."""

    member_output: int = 8 * GIB  # decompressed bytes of one compressed file or archive member
    total_output: int = 64 * GIB  # decompressed bytes of everything in one run
    files: int = 100_000  # files walked under one directory
    depth: int = 64  # directory levels walked below an input directory
    # Bytes of a stream that is not a plain file (a member, a decompressed file, stdin) read before it is
    # given up when none of them is text: only NULs (a zip of zeros, /dev/zero) or binary.
    binary_head: int = 64 << 20


@record
class RunOptions:
    workers: int | None = None  # processes for one large plain file; None: every usable core, 1: no forking
    matcher: str = "auto"  # anchor matcher (accel.py): auto (fastest installed), hyperscan, ahocorasick or pure
    timeout: float | None = None  # seconds; then the best verdict so far, marked incomplete
    excerpt: bool = True  # re-read the chain's lines with context for the report (markdown shows it)
    limits: Limits = Limits()
    follow_symlinks: bool = False  # follow links that lead out of an input directory (discover.py)
    # Only events inside [since, until] (epoch seconds, on the reference clock): for logs spanning days.
    since: float | None = None
    until: float | None = None
    known_issues: tuple[TeamIssue, ...] = ()  # the team's tracker entries (config `known`): reason/known.py
