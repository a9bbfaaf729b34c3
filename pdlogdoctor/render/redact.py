"""Masking of secrets and infrastructure names in shareable output (markdown, github, html).

Each distinct value gets a stable placeholder for the life of one `Redactor`
(`<ip-1>`, `<host-2>`, `<secret-3>`, ...), so a reader can still see that two
lines talk about the same peer without learning which peer it is. Loopback and
unspecified addresses (127.0.0.1, 0.0.0.0, ::1) are not secrets and stay.

What is recognised: the shapes of redaction.toml (secrets.py: provider keys after the
secret scanners' rule sets, credentials in URLs, headers and command lines, e-mail
addresses, home directories, pod names), and here the mechanisms a shape cannot say:
the value of any key whose name holds a secret word (taken whole: quoted with its
spaces, or up to white space with its `;`, `&` and `,`; whatever label, prefix or log
level stands before the key), the same words as command-line flags, every cookie of a
`Cookie:` header, long high-entropy values after `=`/`:`, private-key bodies, IPv4 and
IPv6 (checked with `ipaddress`), dotted names under a top-level domain, and host names.

Host names cannot all be recognised by shape (`pd_router.rs` looks like one), so they are
learned from where they are named: node names in file names, `host=`/`MASTER_ADDR=`/
`--host`/`--dist-init-addr`-style values, URL hosts, `user@host`, UCX's and NCCL's line
prefixes; only names that are names (with a digit, a dot or a dash: never a word such as
`output` taken from `decode_output.log`). They are then masked wherever they appear, looked
up word by word (a set, whatever their number).
"""

from __future__ import annotations

import functools
import ipaddress
import math
import re
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from enum import Enum
from typing import Any, TypeAlias

from ..model import Report
from ..model.lazyre import lazy_re
from .kept import KEPT
from .secrets import Rules, Shape, rules

Match: TypeAlias = "re.Match[str]"

# ---------------------------------------------------------------- what is not a secret

_KEPT_ADDRESSES = frozenset({"127.0.0.1", "0.0.0.0", "255.255.255.255", "::1", "::"})
# Names that are roles or local aliases, never identifying: `http://prefill:30000` in a compose file.
_NOT_HOSTS = frozenset(
    {"localhost", "0.0.0.0", "127.0.0.1", "prefill", "decode", "router", "server", "worker", "master", "host", "node"}
)
_ALNUM_RUN = lazy_re(r"[A-Za-z0-9]+")
# A value whose last segment is a source file (`../torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp`)
# is a path an error message names, however random its letters look.
_SOURCE_PATH = lazy_re(r"/[\w.-]+\.(?:cpp|cc|cxx|c|h|hpp|cuh|cu|py|rs|go|java)$")
# Request ids some servers print with mixed case (OpenAI-style): ids, not secrets.
_ID_PREFIX = lazy_re(r"(?:chatcmpl|cmpl|req|run|resp|msg|batch|file|asst|thread|step)[-_]")


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
        and not _ID_PREFIX.match(core)
        and max(len(run) for run in _ALNUM_RUN.findall(core) or [""]) >= 16
        and any(c.isupper() for c in core)
        and any(c.islower() for c in core)
        and any(c.isdigit() for c in core)
        and _entropy(core) >= 4.0
    )


_ID_KEY = lazy_re(
    r"(?i)(?:^|[_.-])(?:id|ids|rid|uuid|guid|hash|digest|sha\d*|checksum|etag|commit|trace|span)[\"']?\s*[:=]?\s*[\"']?$"
)
_KEY_BEFORE = lazy_re(r"[\w.-]+[\"']?\s*[:=]?\s*[\"']?$")


def _names_an_id(text: str, start: int) -> bool:
    """`request_id="chatcmpl-Wly2z..."` is random but not a secret: an id, a hash, a commit."""
    before = _KEY_BEFORE.search(text, max(0, start - 60), start)
    return before is not None and _ID_KEY.search(before.group(0)) is not None


# ---------------------------------------------------------------- what a key name says (redaction.toml [keys])


class _Keys:
    """The key-name vocabulary, compiled."""

    def __init__(self, keys: dict[str, Any]) -> None:
        anywhere, parts, camel = ("|".join(keys[name]) for name in ("anywhere", "parts", "camel"))
        self.strong_word = re.compile(f"(?i:{anywhere})")
        self.secret_word = re.compile(
            rf"(?i:{anywhere})|(?<![A-Za-z0-9])(?i:{parts})(?![A-Za-z0-9])|(?<=[a-z])(?:{camel})(?![a-z])"
        )
        self.about = frozenset(str(word) for word in keys["about"])
        self.about_any = frozenset(str(word) for word in keys["about_any"])
        self.setting = re.compile(str(keys["settings"]))

    def names_secret(self, key: str) -> bool:
        """The key holds a secret word, and its last part does not make it about one (`stop_token_ids`,
        `password_file`; `private_key_id` names a secret: an `anywhere` word takes any suffix but a few)."""
        if self.secret_word.search(key) is None:
            return False
        last = _KEY_PARTS.split(key.strip("-_."))[-1].lower()
        if last in self.about_any:
            return False
        return last not in self.about or self.strong_word.search(key) is not None

    def is_secret_value(self, value: str, strict: bool) -> bool:
        """After a secret key: anything but a setting (or what is masked already). After `key: value`
        (strict), it must look like a token."""
        if self.setting.fullmatch(value):
            return False
        if _PLACEHOLDER.search(value):
            return False
        if not strict:
            return True
        return len(value) >= 8 and (any(c.isdigit() for c in value) or not value.isalpha() or not value.islower())


_KEY_PARTS = lazy_re(r"[_.\-]+|(?<=[a-z])(?=[A-Z])")
_PLACEHOLDER = lazy_re(r"<[a-z][a-z0-9-]*-\d+>")  # Redactor.placeholder's


@functools.cache
def _keys() -> _Keys:
    return _Keys(rules().keys)


# key, an optional closing quote, the separator: a linear scan; the value is read after it (_value_span)
_KEY_SEPARATOR = lazy_re(r"""(?<![\w.-])(?P<key>[\w.-]{1,80})(?P<close>["']?)[ \t]*(?P<sep>:=|=>|=|:(?!:))[ \t]*""")
_FLAG = lazy_re(r"""(?<![\w-])--?(?P<key>[\w-]{1,60})(?:=|[ \t]+)(?![-<])""")
_COOKIE = lazy_re(r"""(?i)\b(?P<set>set-)?cookie["']?[ \t]*[:=][ \t]*(?P<q>["']?)""")
_COOKIE_PAIR = lazy_re(r"""(?P<name>[^=;\s"']+)=(?P<value>[^;\s"']*)""")
_ANY_SECRET_WORD = lazy_re(r"pass|secret|key|credential|token|auth|sig|session|cookie|pwd")  # lower-cased text
_UNQUOTED = lazy_re(r"\S+")
_RANDOM_VALUE = lazy_re(r"[=:]\s?[\"']?(?P<v>[A-Za-z0-9+/_~.-]{32,}={0,2})(?![\w+/=~.-])")

# ---------------------------------------------------------------- private-key bodies

_PEM_BEGIN = r"-----BEGIN[ A-Z0-9_-]{0,100}PRIVATE KEY(?: BLOCK)?-----"
_PEM_END_RULE = lazy_re(r"-----END[ A-Z0-9_-]{0,100}PRIVATE KEY(?: BLOCK)?-----")
_PEM_OPEN_RULE = lazy_re(rf"{_PEM_BEGIN}(?!.*?-----END).*")  # a block that goes on below
# A log prefix (bracketed fields, a stamp) and then nothing but base64: a line of a key's body.
_LOG_PREFIX = r"(?:\[[^\]]*\][ \t]*|\S*\d\d:\d\d:\d\d\S*[ \t]+|[A-Z]+:[ \t]+)*"
_BODY_LINE = lazy_re(rf"^(?P<prefix>[ \t]*{_LOG_PREFIX})(?P<v>[A-Za-z0-9+/]{{4,}}={{0,2}})[ \t]*$")

# ---------------------------------------------------------------- addresses and names

# IPv6 candidates are checked with `ipaddress`: timestamps (10:16:03) and C++ scopes are not addresses.
# An address ends where a word does: `c10::DistBackendError` holds `c10::d`, which parses as one.
_IPV6_CANDIDATE = lazy_re(r"(?<![\w:.%])(?=[0-9A-Fa-f]{0,4}:[0-9A-Fa-f]{0,4}:)[0-9A-Fa-f:.]{2,60}(?:%[\w-]+)?(?!\w)")
_IPV4 = lazy_re(r"(?<![\w.])\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3}(?!\w|\.\d)")  # octets checked when masked
_PORT = lazy_re(r":\d{1,5}$")

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
# First labels that make a dotted name code, not a host: `self.net`, `torch.int`, and the modules of
# the serving stack (`mori.io`, `vllm.ai`...).
_CODE_OWNERS = frozenset(
    " ".join(
        (
            "self cls args kwargs config cfg ctx torch np nn os sys model module req obj this",
            "sglang vllm mori mooncake nixl dynamo tensorrt_llm trtllm triton transformers flashinfer",
            "deep_ep aiter ray ucx nccl rccl hip cuda rocm jax numpy pydantic fastapi uvicorn",
        )
    ).split()
)
# Candidates only (a fast scan); the labels and the top-level domain are checked when masked.
_DOTTED_NAME = lazy_re(r"(?<![\w.-])[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+(?![\w(-]|\.[A-Za-z0-9])")
_LABEL = lazy_re(r"[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?")
# A run of the characters a learned host name is made of (the harness writes prefill_<node>.log:
# `_` may touch one); a name is a prefix of a run ending at its end or at a dot.
_NAME_RUN = lazy_re(r"(?<![A-Za-z0-9.-])[A-Za-z0-9][A-Za-z0-9.-]*")
# Up to this many learned names are masked with one alternation (the regex engine's fast scan); more
# are looked up run by run in a set: a 20,000-way alternation took 9.8 s to mask one report.
ALTERNATION_NAMES = 256

# Where host names are named. Learned from every line of the report, then masked everywhere.
_HOST_KEY = lazy_re(
    r"(?i)(?:hostname|host|nodename|node_name|node|server|peer|endpoint|upstream|pod|master_addr|addr|address)$"
)
_NAME = r"([A-Za-z][\w.-]*[A-Za-z0-9])"
_HOST_FLAGS = "host|hostname|node|node-name|server|dist-init-addr|master-addr|nccl-init-addr"
# (what the text must hold for the hint to be worth a search, the hint)
_HOST_HINTS = (
    # key=value pairs (a linear scan); kept when the key ends with a host word (see learn_from_text)
    (("=", ":"), re.compile(rf"(?<![\w-])([\w-]{{1,40}})[\"']?\s*[=:]\s*[\"']?(?://)?{_NAME}")),
    (("--",), re.compile(rf"--({_HOST_FLAGS})[=\s]+['\"]?{_NAME}")),
    (("://",), re.compile(rf"(:)//(?:[^/\s@]*@)?{_NAME}")),
    (("[",), re.compile(rf"(\[){_NAME}:\d+:\d+\]")),  # UCX: [host:pid:thread]
    ((" [",), re.compile(rf"(?<![\w.-])()(?:{_NAME}):\d+:\d+ \[\d+\]")),  # NCCL: host:pid:thread [rank]
    (("@",), re.compile(rf"(?<![\w.+%/-])([a-z_][\w.-]{{0,31}})@(?!v?\d){_NAME}(?=[\s:'\"]|$)")),  # ssh: user@host
)
_NUMERIC_NAME = lazy_re(r"[\d.]+")


def _host_worth_learning(name: str) -> bool:
    """Names that are names: with a digit, a dot or a dash. A bare word (`prefill`, `router`, `output`
    from `decode_output.log`) is a role, a compose alias or a harness's label, never masked everywhere."""
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
        self._host_rule: re.Pattern[str] | None = None  # the alternation of a few names (ALTERNATION_NAMES)
        self._done: dict[str, str] = {}  # a report repeats its strings (an event is in the chain, roots, links)
        self._rules: Rules = rules()
        self._keys = _keys()
        self.learn_hosts(hosts)

    # ------------------------------------------------------------ learning host names

    def learn_hosts(self, hosts: Iterable[str]) -> None:
        fresh = {h for h in hosts if h and _host_worth_learning(h)} - self._hosts
        if not fresh:
            return
        self._hosts |= fresh
        self._done.clear()  # masked before these names were known
        self._host_rule = None
        if len(self._hosts) <= ALTERNATION_NAMES:
            names = sorted(self._hosts, key=len, reverse=True)  # longest first: "a-1.x" before "a-1"
            alternatives = "|".join(re.escape(name) for name in names)
            self._host_rule = re.compile(r"(?<![A-Za-z0-9.-])(?:" + alternatives + r")(?![A-Za-z0-9-])")

    def learn_from_text(self, text: str) -> None:
        found = [
            m.group(2)
            for needles, rule in _HOST_HINTS
            if any(needle in text for needle in needles)
            for m in rule.finditer(text)
            if rule is not _HOST_HINTS[0][1] or _HOST_KEY.search(m.group(1))
        ]
        self.learn_hosts(found)

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
        for shape in self._rules.shapes_for(lowered):
            text = shape.pattern.sub(functools.partial(self._mask_shape, shape), text)
        if _ANY_SECRET_WORD.search(lowered):
            if "cookie" in lowered:
                text = self._mask_cookies(text)  # before key=value: `Cookie:`'s value is many pairs
            text = self._mask_key_values(text)
            if "-" in text:
                text = self._mask_flags(text)
        if "=" in text or ":" in text:
            text = _RANDOM_VALUE.sub(self._mask_random, text)
        text = self._mask_body_line(text)
        if ":" in text:
            text = _IPV6_CANDIDATE.sub(self._mask_ipv6, text)
        if "." in text:
            text = _IPV4.sub(self._mask_ipv4, text)
            text = _DOTTED_NAME.sub(self._mask_dotted_name, text)
        if self._host_rule is not None:
            text = self._host_rule.sub(lambda m: self.placeholder("host", m.group(0)), text)
        elif self._hosts:
            text = _NAME_RUN.sub(self._mask_learned, text)
        return text

    def redact_lines(self, lines: Sequence[str]) -> list[str]:
        """Consecutive lines of one file: a private key's body is masked, whether its BEGIN line is in
        the window (up to its END line, with the BEGIN line's placeholder) or above it (a run of
        base64-only lines, behind any log prefix, that holds a long random line or ends at an END line)."""
        out: list[str] = []
        block: str | None = None  # the BEGIN line's masked value while inside a block
        for line in lines:
            if block is not None and _PEM_END_RULE.search(line) is None:
                out.append(self.placeholder("private-key", block))
                continue
            begin = _PEM_OPEN_RULE.search(line)
            block = begin.group(0) if begin is not None else None  # as the private-key rule masks it
            out.append(self(line))
        return self._mask_body_runs(lines, out)

    def _mask_body_runs(self, lines: Sequence[str], out: list[str]) -> list[str]:
        for run in _body_runs(lines):
            ends_at_end = run[-1] + 1 < len(lines) and _PEM_END_RULE.search(lines[run[-1] + 1]) is not None
            if not ends_at_end and not any(_looks_random(_body(lines[i])) for i in run):
                continue
            for i in run:
                found = _BODY_LINE.match(out[i])
                if found is not None:
                    out[i] = found.group("prefix") + self.placeholder("secret", found.group("v"))
        return out

    # ------------------------------------------------------------ the mechanisms

    def _mask_shape(self, shape: Shape, match: Match) -> str:
        whole: str = match.group(0)
        group = shape.secret if shape.secret is not None and match.group(shape.secret) is not None else 0
        value: str = match.group(group)
        if shape.entropy is not None and _entropy(value) < shape.entropy:
            return whole
        masked = self.placeholder(shape.kind, value)
        if group == 0:
            return masked
        start, end = match.span(group)
        offset = match.start()
        return whole[: start - offset] + masked + whole[end - offset :]

    def _mask_key_values(self, text: str) -> str:
        """The value of every key naming a secret. A key that does not (a label, a log level: `INFO:`,
        `WARNING:root:`) consumes only itself and its separator, so the key after it is read too."""
        return _mask_spans(text, self._key_value_spans(text), lambda value: self.placeholder("secret", value))

    def _key_value_spans(self, text: str) -> Iterator[tuple[int, int]]:
        position = 0
        while (found := _KEY_SEPARATOR.search(text, position)) is not None:
            position = found.end()
            if not self._keys.names_secret(found.group("key")):
                continue
            span = _value_span(text, found.end(), text[found.start() - 1 : found.start()])
            if span is None:
                continue
            quoted = found.group("close") != "" or text[found.end() : found.end() + 1] in ("'", '"')
            strict = found.group("sep") == ":" and not quoted
            if self._keys.is_secret_value(text[span[0] : span[1]], strict):
                yield span
                position = span[1]

    def _mask_flags(self, text: str) -> str:
        """`--api-key X`, `--hf-token=X`, `--password X`."""
        return _mask_spans(text, self._flag_spans(text), lambda value: self.placeholder("secret", value))

    def _flag_spans(self, text: str) -> Iterator[tuple[int, int]]:
        position = 0
        while (found := _FLAG.search(text, position)) is not None:
            position = found.end()
            if not self._keys.names_secret(found.group("key")):
                continue
            span = _value_span(text, found.end(), " ")
            if span is not None and self._keys.is_secret_value(text[span[0] : span[1]], strict=False):
                yield span
                position = span[1]

    def _mask_cookies(self, text: str) -> str:
        """Every cookie's value after `Cookie:` (the first only after `Set-Cookie:`, the rest are attributes)."""

        def spans() -> Iterator[tuple[int, int]]:
            for header in _COOKIE.finditer(text):
                end = text.find(header.group("q"), header.end()) if header.group("q") else len(text)
                for pair in _COOKIE_PAIR.finditer(text, header.end(), end if end != -1 else len(text)):
                    if pair.group("value"):
                        yield pair.span("value")
                    if header.group("set"):
                        break

        return _mask_spans(text, spans(), lambda value: self.placeholder("secret", value))

    def _mask_random(self, match: Match) -> str:
        value: str = match.group("v")
        if not _looks_random(value) or _names_an_id(match.string, match.start()):
            return match.group(0)
        start, end = match.span("v")
        whole: str = match.group(0)
        return whole[: start - match.start()] + self.placeholder("secret", value) + whole[end - match.start() :]

    def _mask_body_line(self, text: str) -> str:
        """A line that is nothing but base64 (behind a log prefix): a key's or certificate's body."""
        found = _BODY_LINE.match(text)
        if found is None or not _looks_random(found.group("v")):
            return text
        return found.group("prefix") + self.placeholder("secret", found.group("v"))

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

    def _mask_learned(self, match: Match) -> str:
        """The longest learned name the run starts with, ending at the run's end or a dot."""
        run: str = match.group(0)
        ends = [len(run)] + [i for i in range(len(run) - 1, 0, -1) if run[i] == "."]
        for end in ends:
            if run[:end] in self._hosts:
                return self.placeholder("host", run[:end]) + run[end:]
        return run


def _value_span(text: str, at: int, before_key: str) -> tuple[int, int] | None:
    """Where a key's value lies: inside its quotes (spaces and all), or up to white space (its
    `;`, `&` and `,` too), less closing punctuation; in a URL's query (`?k=`, `&k=`) up to the next
    `&`, in a connection string (`;k=`) up to the next `;`."""
    if at >= len(text):
        return None
    quote = text[at]
    if quote in ("'", '"'):
        end = _closing_quote(text, at + 1, quote)
        return (at + 1, end) if end - (at + 1) >= 3 else None
    found = _UNQUOTED.match(text, at)
    if found is None or text[at] == "<":
        return None
    end = found.end()
    stop = {"?": "&#", "&": "&#", ";": ";"}.get(before_key, "")
    for char in stop:
        cut = text.find(char, at, end)
        if cut != -1:
            end = cut
    end = at + len(_without_closing(text[at:end]))
    return (at, end) if end - at >= 3 else None


_CLOSERS = {")": "(", "]": "[", "}": "{", ">": "<", "'": "'", '"': '"'}


def _without_closing(value: str) -> str:
    """A value less the punctuation that closes what holds it (`api_key=x)`, `k=v,`), keeping a
    closer the value opens itself (`[PAD]`, `<secret-1>`)."""
    while value:
        last = value[-1]
        if last in ",;":
            value = value[:-1]
            continue
        opener = _CLOSERS.get(last)
        if opener is None:
            break
        if opener == last:  # a quote: closing when it has no partner inside
            if value.count(last) % 2 == 0:
                break
        elif value.count(opener) >= value.count(last):
            break
        value = value[:-1]
    return value


def _closing_quote(text: str, start: int, quote: str) -> int:
    """The index of the quote that closes a value opened before `start` (a backslash escapes one);
    the end of the text when none does."""
    index = start
    while index < len(text):
        if text[index] == "\\":
            index += 2
            continue
        if text[index] == quote:
            return index
        index += 1
    return len(text)


def _mask_spans(text: str, spans: Iterable[tuple[int, int]], mask: Callable[[str], str]) -> str:
    pieces: list[str] = []
    position = 0
    for start, end in spans:
        pieces += [text[position:start], mask(text[start:end])]
        position = end
    return "".join(pieces) + text[position:] if pieces else text


def _body(line: str) -> str:
    found = _BODY_LINE.match(line)
    return found.group("v") if found is not None else ""


def _body_runs(lines: Sequence[str]) -> Iterator[list[int]]:
    """Runs of consecutive lines that hold nothing but base64 behind their log prefix."""
    run: list[int] = []
    for index, line in enumerate(lines):
        if _BODY_LINE.match(line) is not None:
            run.append(index)
            continue
        if run:
            yield run
        run = []
    if run:
        yield run


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
            kind = type(item).__name__  # the tool's own words and links teach no host name (kept.KEPT)
            names = getattr(type(item), "__dataclass_fields__", ())
            stack.extend(getattr(item, name) for name in names if (kind, name) not in KEPT)
    return found
