"""Versions as logs print them, compared as PEP 440 orders them (the subset releases use).

`0.5.15.post1`, `0.11.0rc2`, `0.5.11.dev20260512+g339e36e`, `2.21.5+cuda12.4`, `v0.3.13`: a
release (numbers), an optional pre-release (a/b/rc), post-release and development release, and a
local part after `+` that is ignored (a build of the same release). What does not parse
(`2.27.7-HEAD:0d2c4fd`, a date) is said to be not comparable, never guessed.
"""

from __future__ import annotations

import re
from enum import StrEnum

from .lazyre import lazy_re
from .values import record

_VERSION = lazy_re(
    r"""^v?(?P<release>\d+(?:\.\d+)*)
    (?:[-_.]?(?P<pre_kind>a|b|c|rc|alpha|beta|pre|preview)[-_.]?(?P<pre>\d*))?
    (?:(?:[-_.]?(?:post|rev|r)[-_.]?(?P<post>\d*))|-(?P<post_bare>\d+))?
    (?:[-_.]?dev[-_.]?(?P<dev>\d*))?
    (?:\+(?P<local>[a-z0-9]+(?:[-_.][a-z0-9]+)*))?$""",
    re.IGNORECASE | re.VERBOSE,
)
_PRE_RANK = {"a": 0, "alpha": 0, "b": 1, "beta": 1, "c": 2, "rc": 2, "pre": 2, "preview": 2}
_FINAL = 3  # no pre-release: after every rc


@record
class Version:
    release: tuple[int, ...]
    pre: tuple[int, int] | None  # (a=0 | b=1 | rc=2, number)
    post: int | None
    dev: int | None
    text: str

    @property
    def is_development(self) -> bool:
        """A pre-release or development build: it may or may not hold what its release holds."""
        return self.pre is not None or self.dev is not None

    def key(self) -> tuple[tuple[int, ...], tuple[int, int], int, float]:
        """PEP 440 order: 1.0.dev1 < 1.0a1 < 1.0rc1 < 1.0 < 1.0.post1; trailing zeros do not count."""
        release = list(self.release)
        while len(release) > 1 and release[-1] == 0:
            release.pop()
        if self.pre is not None:
            pre = self.pre
        elif self.dev is not None and self.post is None:
            pre = (-1, 0)  # 1.0.dev1 comes before 1.0a1
        else:
            pre = (_FINAL, 0)
        post = -1 if self.post is None else self.post
        dev = float("inf") if self.dev is None else float(self.dev)
        return tuple(release), pre, post, dev


def parse_version(text: str) -> Version | None:
    found = _VERSION.match(text.strip())
    if found is None:
        return None
    pre = None
    if found.group("pre_kind"):
        pre = (_PRE_RANK[found.group("pre_kind").lower()], int(found.group("pre") or 0))
    post_text = found.group("post") if found.group("post") is not None else found.group("post_bare")
    dev = found.group("dev")
    return Version(
        release=tuple(int(part) for part in found.group("release").split(".")),
        pre=pre,
        post=int(post_text or 0) if post_text is not None else None,
        dev=int(dev or 0) if dev is not None else None,
        text=text.strip(),
    )


class Standing(StrEnum):
    """Where a version stands against the first release with a fix."""

    HAS_FIX = "has-fix"  # at or after the release with the fix
    BEFORE_FIX = "before-fix"  # an earlier release
    CANNOT_COMPARE = "cannot-compare"  # unparsable, or a dev/pre build of the fixed release itself


def against_fix(seen: str, fixed_in: str) -> tuple[Standing, str]:
    """How `seen` compares with `fixed_in`, and the reason in words when it cannot be told."""
    version, fixed = parse_version(seen), parse_version(fixed_in)
    if version is None:
        return Standing.CANNOT_COMPARE, f"'{seen}' is not a version this tool can compare"
    if fixed is None:
        return Standing.CANNOT_COMPARE, f"'{fixed_in}' is not a version this tool can compare"
    same_release = version.key()[0] == fixed.key()[0]
    if same_release and version.is_development and not fixed.is_development:
        return (
            Standing.CANNOT_COMPARE,
            f"{seen} is a pre-release or development build of {fixed_in}: it may or may not hold the fix",
        )
    if version.key() >= fixed.key():
        return Standing.HAS_FIX, ""
    return Standing.BEFORE_FIX, ""
