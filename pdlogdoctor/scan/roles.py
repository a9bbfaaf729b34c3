"""Which part of the deployment wrote a log: content first, file name second."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import replace

from ..ingest.rotation import segment_of
from ..library.formats import shipped
from ..model import ROLE_NAME_HINTS, SERVER_ROLES, Event, Role
from ..model.lazyre import lazy_re
from .collectors import record_sources

_SERVER_ARGS_MODE = lazy_re(r"server_args=ServerArgs\(.*?disaggregation_mode='(prefill|decode|null)'")
# vLLM P/D: the kv_transfer_config's kv_role, as vLLM prints it ('non-default args: {...}') or as
# the launch command passes it (--kv-transfer-config '{"kv_role": "kv_producer", ...}').
_KV_ROLE = lazy_re(r"""kv_role['"]?\s*[:=]\s*['"]?(kv_producer|kv_consumer|kv_both)""")
_KV_ROLES = {"kv_producer": "prefill", "kv_consumer": "decode", "kv_both": "null"}
_EITHER_SIDE = "kv_role='kv_both'"  # the end of the reason a kv_both server's role is given with
_ACTIONS_MARKERS = ("##[group]", "##[endgroup]", "##[error]", "Current runner version", "Job defined at")
_DECODE_ONLY = ("Decode transfer failed", "Decode batch.", "disaggregation_mode='decode'")
_PREFILL_ONLY = ("Prefill transfer failed", "Prefill batch.", "disaggregation_mode='prefill'")


def detect_role(
    name: str, head: str, events: Iterable[Event], launches: frozenset[str] = frozenset()
) -> tuple[Role, str]:
    """(role, why) for one source; `why` is shown to the user. `launches`: the patterns of a
    server's launch line (Mark.SERVER_LAUNCH), whose `mode` capture is its disaggregation mode."""
    kept = list(events)
    found = _role_from_content(head, kept, launches) or _named_or_voted(role_from_name(name), kept)
    if found is not None and found[1].endswith(_EITHER_SIDE):
        return _side_from_name(name) or found
    if found is not None:
        return found
    if any(event.role is Role.SERVER for event in kept):
        return Role.SERVER, "server messages (prefill or decode not told apart)"
    return Role.UNKNOWN, "no role marker in content or name"


def _side_from_name(name: str) -> tuple[Role, str] | None:
    """A vLLM server set up as kv_both serves either side (NixlConnector's usual setting; the proxy
    sends it prefill or decode work): the file name, when it names a side, says which it served."""
    named = role_from_name(name)
    if named is None or named[0] not in (Role.PREFILL, Role.DECODE):
        return None
    return named[0], f"{named[1]} (vLLM kv_role='kv_both' serves either side)"


def role_from_name(name: str) -> tuple[Role, str] | None:
    base = name.rsplit("!", 1)[-1].rsplit("/", 1)[-1].lower()
    for role, hints in ROLE_NAME_HINTS:
        for hint in hints:
            if hint in base:
                return role, f"file name contains '{hint}'"
    return None


def _role_from_content(head: str, events: list[Event], launches: frozenset[str]) -> tuple[Role, str] | None:
    if _is_ci_job_log(head):
        return Role.CI, "GitHub Actions job log (timestamp prefixes, workflow markers)"
    mixed = _mixed_components(head, events, launches)
    if mixed is not None:
        return Role.MIXED, mixed
    mode = _SERVER_ARGS_MODE.search(head)
    if mode:
        return _server_role(mode.group(1)), f"server_args disaggregation_mode='{mode.group(1)}'"
    kv_role = _KV_ROLE.search(head)
    if kv_role:
        return _server_role(_KV_ROLES[kv_role.group(1)]), f"vLLM kv_transfer_config kv_role='{kv_role.group(1)}'"
    for event in events:
        if event.pattern in launches and event.get("mode"):
            return _server_role(str(event.get("mode"))), f"server_args disaggregation_mode='{event.get('mode')}'"
    return _role_by_format(head)


def _named_or_voted(named: tuple[Role, str] | None, events: list[Event]) -> tuple[Role, str] | None:
    """The role the lines' own messages vote for, else the file name's. A harness's name wins the
    vote: a client's or benchmark's log records the error answers it got, and those quote the
    servers' messages (a load generator's JSON line holding `Decode transfer failed ...`)."""
    if named is not None and named[0] is Role.HARNESS:
        return named
    return _role_from_event_roles(events) or named


def _role_by_format(head: str) -> tuple[Role, str] | None:
    """The role a line format tells (patterns/formats/ `role`: the harness's `[probe]` lines), read
    behind a collector's or launcher's prefix; the first line whose format tells decides."""
    return next(_roles_by_format(head), None)


def _roles_by_format(head: str) -> Iterator[tuple[Role, str]]:
    """(role, why) of each line of `head` whose line format tells its role, in order."""
    formats = shipped()
    for line in head.splitlines():
        told = formats.role_format(line)
        if told is not None:
            yield Role(told.role), f"lines of {told.component}"


_COMPONENT_ROLES = (Role.PREFILL, Role.DECODE, Role.ROUTER, Role.HARNESS)


def _mixed_components(head: str, events: list[Event], launches: frozenset[str]) -> str | None:
    """Why one stream holds several components' lines, or None."""
    modes = set(_SERVER_ARGS_MODE.findall(head)) | {_KV_ROLES[role] for role in _KV_ROLE.findall(head)}
    modes |= {str(e.get("mode")) for e in events if e.pattern in launches and e.get("mode")}
    if len(modes) > 1:
        return f"role settings (server_args, kv_role) of {' and '.join(sorted(modes))} servers in one stream"
    if modes and any(role is Role.ROUTER for role, _ in _roles_by_format(head)):
        return "server and router lines in one stream"
    sides = sorted({e.role.value for e in events if e.role in _COMPONENT_ROLES})
    if len(sides) > 1:
        return f"{' and '.join(sides)} lines in one stream"
    return None


def _is_ci_job_log(head: str) -> bool:
    lines = head.splitlines()[:200]
    if not lines:
        return False
    received = shipped().received
    stamped = sum(1 for line in lines if (found := received(line)) is not None and "." in found.group("received"))
    return stamped >= 0.8 * len(lines) and any(marker in head for marker in _ACTIONS_MARKERS)


def _server_role(mode: str) -> Role:
    return {"prefill": Role.PREFILL, "decode": Role.DECODE}.get(mode, Role.SERVER)


def _role_from_event_roles(events: list[Event]) -> tuple[Role, str] | None:
    # A generic "server" tag says nothing about the side, so it does not outvote the file name.
    votes = Counter(e.role for e in events if e.role not in (Role.UNKNOWN, Role.SERVER))
    if not votes:
        return None
    role, _ = votes.most_common(1)[0]
    return role, "role-specific messages"


def role_from_text_markers(text: str) -> Role | None:
    """A server's side from a role-specific phrase, for server events in mixed logs."""
    if any(marker in text for marker in _DECODE_ONLY):
        return Role.DECODE
    if any(marker in text for marker in _PREFILL_ONLY):
        return Role.PREFILL
    return None


def node_from_name(name: str) -> str | None:
    """`prefill_<node>.log` / `decode_<node>.log`: the harness names files after the node."""
    # a rotated segment (`decode_<node>.log.1`, one --follow kept: `decode_<node>.log#1`) is the same node's
    base = segment_of(name)[0].rsplit("!", 1)[-1].rsplit("/", 1)[-1]
    found = re.match(r"^(?:prefill|decode)[_-](?P<node>[\w.-]+?)(?:\.log)?(?:\.\d{1,3})?(?:\.(?:gz|zst))?$", base)
    return found.group("node") if found else None


ROLE_WORDS = (("prefill", Role.PREFILL), ("decode", Role.DECODE), ("router", Role.ROUTER))
STREAM = "stream"  # an event's field: the stream its collector prefix names (`decode-1`, `sglang-decode-0/decode`)


def role_from_prefix(raw: str, tags_only: bool = False) -> Role | None:
    """The component a line's own prefix names, if any: a collector's prefix (patterns/formats/
    collectors.toml) whose `role` tag (a job script's `[prefill] `) or `source` (`decode-1  | ` of
    docker compose, `[pod/sglang-prefill-0/sglang] ` of kubectl) holds a role's word; with
    `tags_only`, only a `role` tag counts."""
    found = shipped().line_source(raw.lstrip())
    if found is None:
        return None
    groups = found.groupdict()
    name = groups.get("role") or ("" if tags_only else groups.get("source")) or ""
    return next((role for word, role in ROLE_WORDS if word in name.lower()), None)


def stream_from_prefix(raw: str) -> tuple[Role, str] | None:
    """(role, name) of the stream a line's collector prefix names when that name holds a role's word:
    a compose service (`decode-1  | `), a pod and container (`[pod/sglang-prefill-0/sglang] `), a file
    `grep -H` names (`decode_gpu-n07.log:`); one file of `docker compose logs`, `kubectl logs --prefix`
    or `grep -H` over several logs holds several such streams."""
    found = shipped().line_source(raw.lstrip())
    groups = found.groupdict() if found is not None else {}
    name = groups.get("source") or groups.get("file") or ""
    role = next((role for word, role in ROLE_WORDS if word in name.lower()), None)
    return (role, name) if role is not None else None


def role_from_record(raw: str) -> Role | None:
    """The component a collector's JSON record names as the line's writer (a Loki export's
    `labels.app = vllm-decode`, fluent-bit's `kubernetes.pod_name`): several pods' lines share one
    exported file, and each record still says whose line it is. None when its names hold no role
    word or hold two."""
    names = record_sources(raw)
    roles = {role for name in names for word, role in ROLE_WORDS if word in name.lower()}
    return roles.pop() if len(roles) == 1 else None


def with_source_role(event: Event, source_role: Role) -> Event:
    """An event's role once its source's role is known: the pattern's hint, refined by the file.

    A generic server line takes its file's side; a line with no role of its own takes its
    file's role, unless the file interleaves components, where the line's own markers decide.
    """
    if event.role is Role.SERVER and source_role in SERVER_ROLES:
        return replace(event, role=source_role)
    if event.role is not Role.UNKNOWN:
        return event
    if source_role in (Role.CI, Role.MIXED, Role.UNKNOWN):
        marked = role_from_text_markers(event.text)
        return replace(event, role=marked or source_role)
    return replace(event, role=source_role)
