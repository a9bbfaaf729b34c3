"""Masking of secrets and infrastructure names in shareable output (markdown, github).

Each distinct value gets a stable placeholder for the life of one `Redactor`
(`<ip-1>`, `<host-2>`, ...), so a reader can still see that two lines talk
about the same peer without learning which peer it is. Loopback and
unspecified addresses (127.0.0.1, 0.0.0.0, ::1) are not secrets and stay.

Hostnames cannot be recognised by shape alone (`pd_router.rs` looks like one),
so they come from three places: node names the harness puts in file names,
`host=`/`hostname=`/`--host` values, URL hosts, and dotted names under a
domain suffix that only hosts use (.com, .internal, .local, ...).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable
from enum import Enum
from typing import Any, TypeVar

import regex

from .model import Report

T = TypeVar("T")

_NOT_SECRET_IPS = frozenset({"127.0.0.1", "0.0.0.0", "255.255.255.255"})
_NOT_HOSTS = frozenset({"localhost", "0.0.0.0", "127.0.0.1"})

# Order matters: secrets first (a token may contain an IP-like run), then addresses.
_RULES: tuple[tuple[str, regex.Pattern[str], str], ...] = (
    ("token", regex.compile(r"(?i)(?<=\bbearer\s+)[A-Za-z0-9._~+/=-]{8,}"), "whole"),
    ("hf-token", regex.compile(r"\bhf_[A-Za-z0-9]{20,}\b"), "whole"),
    (
        "gh-token",
        regex.compile(r"\b(?:ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{20,}\b|\bgithub_pat_[A-Za-z0-9_]{20,}\b"),
        "whole",
    ),
    ("aws-key", regex.compile(r"\b(?:AKIA|ASIA)[0-9A-Z]{16}\b"), "whole"),
    (
        "secret",
        regex.compile(
            r"(?i)(?<=(?<![\w#-])(?:password|passwd|token|secret|api_key|apikey|access_key)\s*[=:]\s*['\"]?)"
            r"(?!<)[^\s'\",;&)}\]]{3,}"
        ),
        "whole",
    ),
    ("home", regex.compile(r"(?<![\w.-])(?:/home/|/Users/)[^/\s'\":]+"), "whole"),
    (
        "ip",
        regex.compile(r"(?<![\w.])(?:(?:25[0-5]|2[0-4]\d|1?\d?\d)\.){3}(?:25[0-5]|2[0-4]\d|1?\d?\d)(?![\w.])"),
        "ip",
    ),
    ("ip", regex.compile(r"(?<![\w:])(?:[0-9a-fA-F]{1,4}:){7}[0-9a-fA-F]{1,4}(?![\w:])"), "ip"),
    (
        "host",
        regex.compile(
            r"(?i)\b(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+"
            r"(?:com|net|org|io|ai|dev|cloud|internal|local|lan|corp|intra|cluster)\b(?![\w-])"
        ),
        "host",
    ),
)
_HOST_HINTS = (
    regex.compile(r"(?i)\b(?:hostname|host|node|nodename|node_name)\s*[=:]\s*['\"]?([A-Za-z][\w.-]*[A-Za-z0-9])"),
    regex.compile(r"--(?:host|hostname|node)\s+['\"]?([A-Za-z][\w.-]*[A-Za-z0-9])"),
    regex.compile(r"://([A-Za-z][\w.-]*[A-Za-z0-9])(?::\d+)?"),
)


class Redactor:
    """Replaces sensitive values with numbered placeholders, stable per value."""

    def __init__(self, hosts: Iterable[str] = ()) -> None:
        self._placeholders: dict[tuple[str, str], str] = {}
        self._counts: dict[str, int] = {}
        self._hosts: set[str] = set()
        self._host_rule: regex.Pattern[str] | None = None
        self.learn_hosts(hosts)

    def learn_hosts(self, hosts: Iterable[str]) -> None:
        fresh = {h for h in hosts if h and h.lower() not in _NOT_HOSTS and len(h) >= 3} - self._hosts
        if not fresh:
            return
        self._hosts |= fresh
        names = sorted(self._hosts, key=len, reverse=True)  # longest first: "a-1.x" before "a-1"
        # `_` may touch a host name: the harness writes prefill_<node>.log.
        alternatives = "|".join(regex.escape(n) for n in names)
        self._host_rule = regex.compile(r"(?<![A-Za-z0-9.-])(?:" + alternatives + r")(?![A-Za-z0-9-])")

    def learn_from_text(self, text: str) -> None:
        found = [m.group(1) for rule in _HOST_HINTS for m in rule.finditer(text)]
        self.learn_hosts(name for name in found if not _IP_LIKE.fullmatch(name))

    def placeholder(self, kind: str, value: str) -> str:
        key = (kind, value)
        if key not in self._placeholders:
            self._counts[kind] = self._counts.get(kind, 0) + 1
            self._placeholders[key] = f"<{kind}-{self._counts[kind]}>"
        return self._placeholders[key]

    def __call__(self, text: str) -> str:
        for kind, rule, mode in _RULES:
            text = rule.sub(lambda m, k=kind, md=mode: self._replace(k, md, m.group(0)), text)
        if self._host_rule is not None:
            text = self._host_rule.sub(lambda m: self.placeholder("host", m.group(0)), text)
        return text

    def _replace(self, kind: str, mode: str, value: str) -> str:
        if mode == "ip" and value in _NOT_SECRET_IPS:
            return value
        if mode == "host" and value.lower() in _NOT_HOSTS:
            return value
        return self.placeholder(kind, value)


_IP_LIKE = regex.compile(r"[\d.]+")


def redactor_for(report: Report) -> Redactor:
    """A redactor that knows the host names this report's inputs mention."""
    redactor = Redactor(source.node for source in report.inputs if source.node)
    for event in report.chain:
        redactor.learn_from_text(event.text)
        for key, value in event.fields:
            if key in ("host", "hostname", "node") and isinstance(value, str):
                redactor.learn_hosts([value])
    return redactor


def redact_report(report: Report, redactor: Redactor) -> Report:
    """Every string in the report, masked; enums and numbers untouched."""
    return _walk(report, redactor)


# Identifiers of the tool's own vocabulary: never data from the logs.
_KEEP = frozenset(
    {("Event", "pattern"), ("Verdict", "id"), ("Alternative", "id"), ("Suggestion", "kind"), ("Suggestion", "name")}
)


def _walk(value: T, redact: Callable[[str], str]) -> T:
    if isinstance(value, Enum):  # StrEnum members are str: keep them as they are
        return value
    if isinstance(value, str):
        return redact(value)  # type: ignore[return-value]
    if isinstance(value, tuple):
        return tuple(_walk(item, redact) for item in value)  # type: ignore[return-value]
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        kind = type(value).__name__
        changes: dict[str, Any] = {
            f.name: _walk(getattr(value, f.name), redact)
            for f in dataclasses.fields(value)
            if (kind, f.name) not in _KEEP
        }
        return dataclasses.replace(value, **changes)
    return value
