"""Masking of secrets and infrastructure names in shareable output (markdown, github).

Each distinct value gets a stable placeholder for the life of one `Redactor`
(`<ip-1>`, `<host-2>`, `<secret-3>`, ...), so a reader can still see that two
lines talk about the same peer without learning which peer it is. Loopback and
unspecified addresses (127.0.0.1, 0.0.0.0, ::1) are not secrets and stay.

What is recognised follows the public rule lists of secret scanners (gitleaks,
trufflehog, detect-secrets): provider-prefixed keys, JWTs, private-key blocks,
credentials in URLs and headers, key names holding a secret keyword with any
prefix or suffix, secret-looking CLI flags, and long high-entropy values after
`=`/`:`. Then addresses and names: IPv4 and IPv6 (checked with `ipaddress`),
e-mail addresses, Kubernetes pod names, home directories, and host names.

Host names cannot all be recognised by shape (`pd_router.rs` looks like one),
so they come from four places: node names the harness puts in file names,
`host=`/`hostname=`/`--host`-style values, URL hosts, and dotted names under a
suffix only hosts use (a top-level domain that is not also a file extension).
"""

from __future__ import annotations

import dataclasses
import functools
import ipaddress
import math
import re
from collections import Counter
from collections.abc import Callable, Hashable, Iterable, Sequence
from enum import Enum
from typing import Any, TypeAlias, TypeVar, cast

from ..model import Report
from ..model.values import record
from .outbound import KEPT

T = TypeVar("T")
Match: TypeAlias = "re.Match[str]"

# ---------------------------------------------------------------- what is not a secret

_KEPT_ADDRESSES = frozenset({"127.0.0.1", "0.0.0.0", "255.255.255.255", "::1", "::"})
# Names that are roles or local aliases, never identifying: `http://prefill:30000` in a compose file.
_NOT_HOSTS = frozenset(
    {"localhost", "0.0.0.0", "127.0.0.1", "prefill", "decode", "router", "server", "worker", "master", "host", "node"}
)
# A value after a secret-looking key that is a setting, not a secret.
_NOT_SECRET_VALUE = re.compile(
    r"(?i)(?:none|null|nil|true|false|yes|no|on|off|unset|empty|required|optional|redacted|masked|hidden|"
    r"\*+|x{3,}|\.{3}|-?\d+(?:\.\d+)?(?:e[+-]?\d+)?|<[^>]*>?|\$\{?\w+\}?|%\w+%)"
)


_ALNUM_RUN = re.compile(r"[A-Za-z0-9]+")
# A value whose last segment is a source file (`../torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp`)
# is a path an error message names, however random its letters look.
_SOURCE_PATH = re.compile(r"/[\w.-]+\.(?:cpp|cc|cxx|c|h|hpp|cuh|cu|py|rs|go|java)$")


def _entropy(text: str) -> float:
    counts = Counter(text)
    return -sum(n / len(text) * math.log2(n / len(text)) for n in counts.values())


def _looks_random(value: str) -> bool:
    """A long mixed-case value with digits and high entropy: a key, not a word, a path or a hex id.
    A long unbroken alphanumeric run tells a key from a name built of short parts
    (`meta-llama/Llama-3.1-70B-Instruct`), which base64's rare `+` and `/` seldom break."""
    core = value.rstrip("=")
    return (
        len(core) >= 32
        and not _SOURCE_PATH.search(core)
        and max(len(run) for run in _ALNUM_RUN.findall(core) or [""]) >= 16
        and any(c.isupper() for c in core)
        and any(c.islower() for c in core)
        and any(c.isdigit() for c in core)
        and _entropy(core) >= 4.0
    )


_ID_KEY = re.compile(
    r"(?i)(?:^|[_.-])(?:id|ids|rid|uuid|guid|hash|digest|sha\d*|checksum|etag|commit|trace|span)[\"']?\s*$"
)
_KEY_BEFORE = re.compile(r"[\w.-]+[\"']?\s*$")


def _names_an_id(match: Match) -> bool:
    """`request_id="chatcmpl-Wly2z..."` is random but not a secret: an id, a hash, a commit."""
    before = _KEY_BEFORE.search(match.string, max(0, match.start() - 60), match.start())
    return before is not None and _ID_KEY.search(before.group(0)) is not None


def _is_secret_value(value: str, strict: bool) -> bool:
    """After a secret keyword: anything but a setting. After `key: value` (strict), it must look like a token."""
    if _NOT_SECRET_VALUE.fullmatch(value):
        return False
    if not strict:
        return True
    return len(value) >= 8 and (any(c.isdigit() for c in value) or not value.isalpha() or not value.islower())


# ---------------------------------------------------------------- rules


@record
class Rule:
    """One kind of sensitive value. The group `v`, when the pattern has one, is what is masked."""

    kind: str
    pattern: re.Pattern[str]
    hint: tuple[str, ...] = ()  # the rule runs only when one of these (lower-cased) appears: a cheap filter
    check: Callable[[str, Match], bool] | None = None
    prefilter: re.Pattern[str] | None = None  # ...and only when this finds something in the lower-cased text


def _secret_key(strict_on_colon: bool) -> Callable[[str, Match], bool]:
    """The key names a secret, and the value is not a setting (after `key: value`, a token-like one)."""

    def check(value: str, match: Match) -> bool:
        if _SECRET_WORD.search(match.group("key")) is None:
            return False
        separator = match.group("sep") or ""
        return _is_secret_value(value, strict=strict_on_colon and "=" not in separator and ">" not in separator)

    return check


_B64 = r"[A-Za-z0-9+/]"
_PEM_BEGIN = r"-----BEGIN[ A-Z0-9_-]{0,100}PRIVATE KEY(?: BLOCK)?-----"
_PEM_END = r"-----END[ A-Z0-9_-]{0,100}PRIVATE KEY(?: BLOCK)?-----"

# Keywords that mark a secret wherever they sit in a key name (`db_password`, `PGPASSWORD`, `client_secret`).
_ANYWHERE = r"passw(?:or)?d|passphrase|secret|api[_-]?key|apikey|credentials?"
# Keywords that must be a whole part of the name (`trace_token`, `x-api-key`; not `tokenizer`, `monkey`).
_PART = r"token|key|auth|sig|signature|session|cookie|access[_-]?key|private[_-]?key"
_CAMEL = r"Token|Key|Auth|Sig|Signature|Session|Cookie|Password|Passwd|Secret|Credentials?"
# Found as whole key=value pairs (a linear scan), then kept when the key holds a keyword.
_SECRET_WORD = re.compile(
    rf"(?i:{_ANYWHERE})|(?<![A-Za-z0-9])(?i:{_PART})(?![A-Za-z0-9])|(?<=[a-z])(?:{_CAMEL})(?![a-z])"
)
_ANY_SECRET_WORD = re.compile(r"pass|secret|key|credential|token|auth|sig|session|cookie")  # lower-cased text
_KEY_NAME = r"(?<![#\w.-])(?P<key>[\w.-]{1,80})"
_SEPARATOR = r"[\"']?\s*(?P<sep>:=|=>|=|:(?!:))\s*[\"']?"
_VALUE = r"(?P<v>(?!<)[^\s'\",;&)}\]<>`]{3,})"

_PEM_END_RULE = re.compile(_PEM_END)
_PEM_OPEN_RULE = re.compile(rf"{_PEM_BEGIN}(?!.*?{_PEM_END}).*")  # a block that goes on below
_POD_SUFFIX = re.compile(r"-[bcdfghjklmnpqrstvwxz2456789]{5}\b")

_RULES: tuple[Rule, ...] = (
    # Private keys: a whole block on one line (JSON "\n"-escaped), or its first line (the rest is masked
    # line by line by `redact_lines`).
    Rule(
        "private-key",
        re.compile(rf"{_PEM_BEGIN}(?:.*?{_PEM_END}|.*)"),
        ("-----begin",),
    ),
    # Credentials in URLs: scheme://user:password@host, scheme://token@host.
    Rule("cred", re.compile(r"(?i)\b[a-z][a-z0-9+.-]{1,15}://(?P<v>[^/\s@'\"<>`]+)@(?=[\w\[])"), ("://",)),
    # Authorization headers: the scheme stays readable, the credential goes.
    Rule(
        "token",
        re.compile(
            r"(?i)\b(?:proxy-)?authori[sz]ation[\"']?\s*[:=]\s*[\"']?"
            r"(?:(?:basic|bearer|token|digest|negotiate|apikey|api-key|sso-key|aws4-hmac-sha256)\s+)?"
            r"(?P<v>(?!<)[^\s'\",]{3,})"
        ),
        ("authori",),
    ),
    Rule("token", re.compile(r"(?i)\b(?:bearer|basic)\s+(?P<v>(?!<)[A-Za-z0-9._~+/=-]{12,})"), ("bearer", "basic")),
    # Provider-prefixed keys (the shapes scanners look for).
    Rule("jwt", re.compile(r"\bey[A-Za-z0-9_-]{10,}\.ey[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]*=*"), ("ey",)),
    Rule("gh-token", re.compile(r"\b(?:gh[pousr]_[A-Za-z0-9]{20,}|github_pat_\w{20,})"), ("gh", "github_pat_")),
    Rule("gitlab-token", re.compile(r"\bgl(?:pat|ptt|dt|rt|cbt|oas|soat|ft|imt|agent)-[\w-]{20,}"), ("gl",)),
    Rule("hf-token", re.compile(r"(?<![A-Za-z])(?:hf_|api_org_)[A-Za-z0-9]{20,}"), ("hf_", "api_org_")),
    Rule("aws-key", re.compile(r"\b(?:A3T[A-Z0-9]|AKIA|ASIA|ABIA|ACCA|AGPA|AIDA|AROA|ANPA|ANVA|AIPA)[A-Z0-9]{16}\b")),
    Rule("openai-key", re.compile(r"\bsk-(?!ant-)(?:[a-z]{2,10}-)?[A-Za-z0-9_-]{20,}"), ("sk-",)),
    Rule("anthropic-key", re.compile(r"\bsk-ant-[a-z]{2,10}\d{0,2}-[\w-]{20,}"), ("sk-ant-",)),
    Rule("slack-token", re.compile(r"\bxox[abeoprs]-[A-Za-z0-9-]{10,}|\bxapp-\d-[A-Za-z0-9-]{10,}"), ("xox", "xapp-")),
    Rule("slack-webhook", re.compile(r"(?i)hooks\.slack\.com/(?:services|workflows|triggers)/(?P<v>[\w/+-]{10,})")),
    Rule("google-key", re.compile(r"\bAIza[\w-]{35}|\bya29\.[\w-]{20,}"), ("aiza", "ya29.")),
    Rule("npm-token", re.compile(r"\bnpm_[A-Za-z0-9]{36}\b"), ("npm_",)),
    Rule("pypi-token", re.compile(r"\bpypi-AgEIcHlwaS5vcmc[\w-]{20,}"), ("pypi-",)),
    Rule("stripe-key", re.compile(r"\b[rsp]k_(?:live|test|prod)_[A-Za-z0-9]{10,}"), ("k_live_", "k_test_", "k_prod_")),
    Rule("sendgrid-key", re.compile(r"\bSG\.[\w-]{16,32}\.[\w-]{30,50}"), ("sg.",)),
    Rule("databricks-token", re.compile(r"\bdapi[a-f0-9]{32}(?:-\d)?\b"), ("dapi",)),
    Rule("grafana-token", re.compile(r"\b(?:glc_|glsa_)[A-Za-z0-9+/_=-]{20,}"), ("glc_", "glsa_")),
    Rule("azure-secret", re.compile(r"(?<![\w~.-])[\w~.]{3}\dQ~[\w~.-]{31,34}(?![\w~.-])"), ("q~",)),
    # `key=value` with a secret keyword anywhere in the key name; `key: value` only for token-like values.
    Rule(
        "secret",
        re.compile(_KEY_NAME + _SEPARATOR + _VALUE),
        check=_secret_key(strict_on_colon=True),
        prefilter=_ANY_SECRET_WORD,
    ),
    # Secret-looking command-line flags: --api-key X, --hf-token=X, --password X; curl's -u user:pass.
    Rule(
        "secret",
        re.compile(r"(?<![\w-])--?(?P<key>[\w-]{1,60})(?P<sep>=|\s+)[\"']?(?P<v>(?![-<])[^\s'\"`]{3,})"),
        ("-",),
        check=_secret_key(strict_on_colon=False),
        prefilter=_ANY_SECRET_WORD,
    ),
    Rule("cred", re.compile(r"(?<![\w-])-u\s+[\"']?(?P<v>[^\s:'\"]+:[^\s'\"]+)"), ("-u",)),
    # Whatever else is long and random after `=` or `:`: an unnamed token, signature or password.
    Rule(
        "secret",
        re.compile(r"[=:]\s?[\"']?(?P<v>[A-Za-z0-9+/_~.-]{32,}={0,2})(?![\w+/=~.-])"),
        check=lambda value, match: _looks_random(value) and not _names_an_id(match),
    ),
    # A line that is nothing but base64: the body of a key or certificate block.
    Rule(
        "secret",
        re.compile(rf"^\s*(?P<v>{_B64}{{40,}}={{0,2}})\s*$"),
        check=lambda value, match: _looks_random(value),
    ),
    Rule("email", re.compile(r"(?<![\w.+%-])[A-Za-z0-9._%+-]{1,64}@(?:[A-Za-z0-9-]{1,63}\.)+[A-Za-z]{2,24}\b"), ("@",)),
    Rule(
        "home",
        re.compile(r"(?<![\w.-])(?:/home/|/Users/|/export/home/|[A-Za-z]:\\Users\\)[^/\\\s'\":]+"),
        ("/home/", "/users/", "\\users\\"),
    ),
    # Kubernetes pods: <deployment>-<template hash>-<suffix>, both drawn from the API server's alphabet
    # (no vowels, no 0/1/3). A lone 5-character suffix (daemonsets, jobs) is too like `kimi-gsm8k` to tell.
    Rule(
        "pod",
        re.compile(
            r"\b[a-z0-9](?:[a-z0-9-]{0,50}[a-z0-9])?-[bcdfghjklmnpqrstvwxz2456789]{6,10}-[bcdfghjklmnpqrstvwxz2456789]{5}\b"
        ),
        prefilter=_POD_SUFFIX,
    ),
)

# IPv6 candidates are checked with `ipaddress`: timestamps (10:16:03) and C++ scopes are not addresses.
# An address ends where a word does: `c10::DistBackendError` holds `c10::d`, which parses as one.
_IPV6_CANDIDATE = re.compile(r"(?<![\w:.%])(?=[0-9A-Fa-f]{0,4}:[0-9A-Fa-f]{0,4}:)[0-9A-Fa-f:.]{2,60}(?:%[\w-]+)?(?!\w)")
_IPV4 = re.compile(r"(?<![\w.])\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3}(?!\w|\.\d)")  # octets checked when masked
_PORT = re.compile(r":\d{1,5}$")

# Top-level domains a dotted name may end with to be taken for a host. Country codes that are also
# file extensions, code attributes or common words (.py .rs .sh .md .so .pt .id .in .is .it ...) are left out.
_TLDS = frozenset(
    " ".join(
        (
            "com net org edu gov mil io ai dev cloud co info biz xyz online site tech network systems services",
            "internal local localdomain lan corp intra intranet cluster svc priv private example test invalid",
            "arpa ac ad ae af ag al ao aq ar au aw ax az ba bb bd bf bg bh bi bj bm bn bo br bt bw ca cd cf cg ch",
            "ck cn cr cw cx cy cz de dj dk dm dz ec ee eg er es eu fi fj fk fm fo fr ga gd gf gg gh gi gm gn gp",
            "gq gr gu gw gy hk hm hn ht hu ie il iq je jm jo jp ke kh ki kn kp kr ky kz la lb lc li lk lu lv ly",
            "ma mc mg mh mn mo mq mr mt mu mw mx mz na nc nf ng ni nl nr nu nz om pa pf pg ph pk pn pr pw qa ro",
            "ru rw sa sb sc sd se sg si sk sl sn sr ss sv sx sy sz tc td tg th tj tl tm tn tr tt tw tz ua ug uk",
            "uy uz va vc ve vg vi vn vu wf ye yt za zm zw",
        )
    ).split()
)
# First labels that make a dotted name code, not a host: `self.net`, `torch.int`, `args.local`.
_CODE_OWNERS = frozenset(
    " ".join(("self cls args kwargs config cfg ctx torch np nn os sys model module req obj this",)).split()
)
# Candidates only (a fast scan); the labels and the top-level domain are checked when masked.
_DOTTED_NAME = re.compile(r"(?<![\w.-])[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+(?![\w(-]|\.[A-Za-z0-9])")
_LABEL = re.compile(r"[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?")

# Where host names are named: key=value pairs, flags and URLs. Learned from every line, then masked everywhere.
_HOST_KEY = re.compile(r"(?i)(?:hostname|host|nodename|node_name|node|server|peer|endpoint|upstream|pod)$")
_HOST_HINTS = (
    # key=value pairs (a linear scan); kept when the key ends with a host word (see learn_from_text)
    re.compile(r"(?<![\w-])([\w-]{1,40})[\"']?\s*[=:]\s*[\"']?(?://)?([A-Za-z][\w.-]*[A-Za-z0-9])"),
    re.compile(r"--(host|hostname|node|node-name|server)[=\s]+['\"]?([A-Za-z][\w.-]*[A-Za-z0-9])"),
    re.compile(r"(:)//(?:[^/\s@]*@)?([A-Za-z][\w.-]*[A-Za-z0-9])"),
)
_NUMERIC_NAME = re.compile(r"[\d.]+")


def _host_worth_learning(name: str) -> bool:
    """Identifying names only: a bare role word (`prefill`, `router`) is a compose alias, not a node."""
    lowered = name.lower()
    if lowered in _NOT_HOSTS or len(name) < 3 or _NUMERIC_NAME.fullmatch(name):
        return False
    return any(c.isdigit() for c in name) or "." in name or "-" in name


class Redactor:
    """Replaces sensitive values with numbered placeholders, stable per value."""

    def __init__(self, hosts: Iterable[str] = ()) -> None:
        self._placeholders: dict[tuple[str, str], str] = {}
        self._counts: dict[str, int] = {}
        self._hosts: set[str] = set()
        self._host_rule: re.Pattern[str] | None = None
        self._done: dict[str, str] = {}  # a report repeats its strings (an event is in the chain, roots, links)
        self.learn_hosts(hosts)

    # ------------------------------------------------------------ learning host names

    def learn_hosts(self, hosts: Iterable[str]) -> None:
        fresh = {h for h in hosts if h and h.lower() not in _NOT_HOSTS and len(h) >= 3} - self._hosts
        if not fresh:
            return
        self._hosts |= fresh
        self._done.clear()  # masked before these names were known
        names = sorted(self._hosts, key=len, reverse=True)  # longest first: "a-1.x" before "a-1"
        # `_` may touch a host name: the harness writes prefill_<node>.log.
        alternatives = "|".join(re.escape(n) for n in names)
        self._host_rule = re.compile(r"(?<![A-Za-z0-9.-])(?:" + alternatives + r")(?![A-Za-z0-9-])")

    def learn_from_text(self, text: str) -> None:
        found = [
            m.group(2)
            for rule in _HOST_HINTS
            for m in rule.finditer(text)
            if rule is not _HOST_HINTS[0] or _HOST_KEY.search(m.group(1))
        ]
        self.learn_hosts(name for name in found if _host_worth_learning(name))

    # ------------------------------------------------------------ masking

    def placeholder(self, kind: str, value: str) -> str:
        key = (kind, value)
        if key not in self._placeholders:
            self._counts[kind] = self._counts.get(kind, 0) + 1
            self._placeholders[key] = f"<{kind}-{self._counts[kind]}>"
        return self._placeholders[key]

    def __call__(self, text: str) -> str:
        done = self._done.get(text)
        if done is None:
            done = self._done[text] = self._redact(text) if text else text
        return done

    def _redact(self, text: str) -> str:
        lowered = text.lower()
        for rule in _RULES:
            if rule.hint and not _holds_any(lowered, rule.hint):
                continue
            if rule.prefilter is not None and rule.prefilter.search(lowered) is None:
                continue
            text = rule.pattern.sub(functools.partial(self._mask, rule), text)
        if ":" in text:
            text = _IPV6_CANDIDATE.sub(self._mask_ipv6, text)
        if "." in text:
            text = _IPV4.sub(self._mask_ipv4, text)
            text = _DOTTED_NAME.sub(self._mask_dotted_name, text)
        if self._host_rule is not None:
            text = self._host_rule.sub(lambda m: self.placeholder("host", m.group(0)), text)
        return text

    def redact_lines(self, lines: Sequence[str]) -> list[str]:
        """Consecutive lines of one file: the body of a private-key block is masked up to its END
        line, with the placeholder its BEGIN line got."""
        out: list[str] = []
        block: str | None = None  # the BEGIN line's masked value while inside a block
        for line in lines:
            if block is not None and _PEM_END_RULE.search(line) is None:
                out.append(self.placeholder("private-key", block))
                continue
            begin = _PEM_OPEN_RULE.search(line)
            block = begin.group(0) if begin is not None else None  # as the private-key rule masks it
            out.append(self(line))
        return out

    def _mask(self, rule: Rule, match: Match) -> str:
        whole: str = match.group(0)
        has_value = "v" in match.re.groupindex and match.group("v") is not None
        value = match.group("v") if has_value else whole
        if rule.check is not None and not rule.check(value, match):
            return whole
        masked = self.placeholder(rule.kind, value)
        if not has_value:
            return masked
        start, end = match.span("v")
        offset = match.start()
        return whole[: start - offset] + masked + whole[end - offset :]

    def _mask_ipv6(self, match: Match) -> str:
        candidate: str = match.group(0)
        address, rest = _split_address(candidate)
        if address is None or address in _KEPT_ADDRESSES:
            return candidate
        return self.placeholder("ip", address) + rest

    def _mask_ipv4(self, match: Match) -> str:
        address: str = match.group(0)
        if address in _KEPT_ADDRESSES or any(int(octet) > 255 for octet in address.split(".")):
            return address
        return self.placeholder("ip", address)

    def _mask_dotted_name(self, match: Match) -> str:
        name: str = match.group(0)
        labels = name.lower().split(".")
        if (
            labels[-1] not in _TLDS
            or labels[0] in _CODE_OWNERS
            or name.lower() in _NOT_HOSTS
            or not all(_LABEL.fullmatch(label) for label in labels)
        ):
            return name
        return self.placeholder("host", name)


def _split_address(candidate: str) -> tuple[str | None, str]:
    """(the IPv6 address at the start of `candidate`, what follows it): `2001:db8::17:41000` is an
    address and a port, `fe80::1.` an address and a full stop."""
    text = candidate.rstrip(".:")
    if text.startswith("::") and "." not in text:
        return None, candidate  # `::add-mask::` is a workflow command; only `::1` and `::ffff:a.b.c.d` are real
    rest = candidate[len(text) :]
    for attempt in (text, _PORT.sub("", text)):
        if attempt.count(":") < 2:
            continue
        try:
            ipaddress.IPv6Address(attempt)
        except ValueError:
            continue
        return attempt, candidate[len(attempt) :] if attempt != text else rest
    return None, candidate


# ---------------------------------------------------------------- the report


def redactor_for(report: Report) -> Redactor:
    """A redactor that knows every host name the report's inputs and shown lines mention."""
    redactor = Redactor(source.node for source in report.inputs if source.node)
    for text in _strings(report):
        redactor.learn_from_text(text)
    return redactor


def _strings(value: object) -> set[str]:
    """Every distinct string in a report (enum members aside)."""
    found: set[str] = set()
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            if not isinstance(item, Enum):
                found.add(item)
        elif isinstance(item, tuple):
            stack.extend(item)
        else:
            kind = type(item).__name__  # the tool's own words and links teach no host name (outbound.KEPT)
            stack.extend(getattr(item, name) for name in _field_names(type(item)) if (kind, name) not in KEPT)
    return found


def _holds_any(text: str, needles: tuple[str, ...]) -> bool:
    return any(needle in text for needle in needles)


def _field_names(kind: type) -> tuple[str, ...]:
    """A dataclass's field names (none for anything else), looked up once per class."""
    return _fields_of(cast(Hashable, kind))


@functools.cache  # a pure function of the class: a memo, not state
def _fields_of(kind: Any) -> tuple[str, ...]:
    return tuple(f.name for f in dataclasses.fields(kind)) if dataclasses.is_dataclass(kind) else ()
