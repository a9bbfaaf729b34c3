"""Redaction rules one by one, and what they must leave alone.

The planted-secret gate (test_redaction_corpus.py) proves nothing leaks; these prove the
evidence survives: the fixtures hold no secrets, so every placeholder other than an address,
a host or a home directory there is a rule firing on ordinary log text.
"""

from __future__ import annotations

import random
import re
import string
import sys
from collections.abc import Mapping
from pathlib import Path

import pytest

from pdlogdoctor.model import Report
from pdlogdoctor.model.textcut import clip, clip_around
from pdlogdoctor.reason.fingerprint import fingerprint
from pdlogdoctor.render.outbound import outbound_report as redact_report
from pdlogdoctor.render.redact import Redactor, redactor_for
from pdlogdoctor.render.secrets import rules

ORDINARY = [
    "[2026-07-02 10:16:41 DP0 TP2 EP0] Prefill batch. #new-seq: 1, #new-token: 583, #cached-token: 261, "
    "token usage: 0.01",
    "server_args=ServerArgs(model_path='/models/DeepSeek-V3.2', tokenizer_path='/models/DeepSeek-V3.2', "
    "max_total_tokens=8388352, api_key=None, disaggregation_mode='prefill', page_size=64)",
    "python3 -m sglang.launch_server --tokenizer-path /models/x --max-total-tokens 8388352 --kv-cache-dtype fp8_e4m3",
    "req.rid='2d4f0c8e5b7a4e1f9a3c6b8d0e2f4a61' request_id=\"chatcmpl-Wly2zVLtUcyK1Vg13jmipvFZ\" trace_id=abc",
    "smg::routers::http::pd_router: src/routers/http/pd_router.rs:590: Decode server returned error status",
    '  File "/sgl-workspace/sglang/python/sglang/srt/managers/scheduler.py", line 412, in __init__',
    "    return self.net(x)  # torch.cuda.OutOfMemoryError, threading.local()",
    "Received sigquit from a child process. Failed to load token: file not found",
    "model=meta-llama/Llama-3.1-70B-Instruct blind-kimi-gsm8k-below-gate at 10:16:03.412",
    "terminate called after throwing an instance of 'c10::DistBackendError'",  # `c10::d` parses as IPv6
    "frame #3: c10d::ProcessGroupNCCL::WorkNCCL::isCompleted() + 0xa0 (0x7f83c50298c0 in libtorch_cuda.so)",
    # A source path after `: ` is long, mixed-case and has digits (`c10d`), yet it names a file.
    "torch.distributed.DistBackendError: NCCL error in: ../torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:3356, "
    "unhandled system error",
    "NCCL error in: /pytorch/torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:3699",
]


@pytest.mark.parametrize("text", ORDINARY)
def test_ordinary_log_text_is_left_alone(text: str) -> None:
    assert Redactor()(text) == text


@pytest.mark.parametrize(
    ("text", "masked"),
    [
        ("gid fe80::1c2d:3eff:fe4f:5a6b%rdma0]", "fe80::1c2d:3eff:fe4f:5a6b%rdma0"),
        ('INFO:     2001:db8:4f2a::17:41000 - "GET /health', "2001:db8:4f2a::17"),
        ("client ::ffff:10.1.2.3 up", "::ffff:10.1.2.3"),
        ("peer 10.1.2.3.", "10.1.2.3"),
    ],
)
def test_every_ip_form_is_masked_and_the_port_kept(text: str, masked: str) -> None:
    out = Redactor()(text)
    assert masked not in out and "<ip-1>" in out
    assert ":41000" in out or "41000" not in text


def test_loopback_and_unspecified_stay() -> None:
    assert (
        Redactor()("bind 0.0.0.0:30000 and ::1 and 127.0.0.1:52110") == "bind 0.0.0.0:30000 and ::1 and 127.0.0.1:52110"
    )


def test_placeholders_are_stable_and_learned_hosts_mask_file_names() -> None:
    redact = Redactor(["node-a7"])
    assert redact("10.1.2.3 talks to 10.1.2.4 on node-a7") == "<ip-1> talks to <ip-2> on <host-1>"
    assert redact("prefill_node-a7.log, 10.1.2.3") == "prefill_<host-1>.log, <ip-1>"


def test_role_words_are_not_learned_as_hosts() -> None:
    redact = Redactor()
    redact.learn_from_text("decode_url=http://decode:30001 host=router hostname=pdld-west-42")
    assert redact("the decode server and the router; pdld-west-42") == "the decode server and the router; <host-1>"


def test_a_private_key_block_is_masked_to_its_end_line() -> None:
    lines = [
        "-----BEGIN OPENSSH PRIVATE KEY-----",
        "b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQ",
        "AAAA==",
        "-----END OPENSSH PRIVATE KEY-----",
        "next line",
    ]
    out = Redactor().redact_lines(lines)
    assert out[1] == out[2] == "<private-key-1>" and out[3] == lines[3] and out[4] == "next line"
    assert "PRIVATE" not in out[0]


def test_a_cut_drops_the_token_it_would_halve() -> None:
    assert clip("aaa hf_abcdefghij", 10) == "aaa …"
    assert clip("aaa bbb ccc", 8) == "aaa bbb …"
    assert clip("short", 10) == "short"
    assert clip("tail token", 100, cut=True) == "tail …"  # cut earlier, by bytes: the last token may be half


def test_a_cut_around_words_keeps_them_and_no_half_token() -> None:
    token = "hf_" + "A" * 40
    record = f'{{"authority":"host","token":"{token}","duration":0,"response_code_details":"no_healthy_upstream"}}'
    quoted = clip_around(record, 80, "no_healthy_upstream")
    assert "no_healthy_upstream" in quoted and quoted.startswith('{"authority":"host"') and len(quoted) <= 80
    assert " … " in quoted
    assert (token in quoted) or ("hf_" not in quoted and "AAAA" not in quoted), "a token shows whole or not at all"
    assert clip_around(record, 80, "authority") == clip(record, 80), "words within the limit: a plain cut"
    assert clip_around(record, 80, "absent") == clip(record, 80)


def test_no_fixture_line_is_taken_for_a_secret(bundle_reports: Mapping[Path, Report]) -> None:
    """The fixtures hold no secrets: only addresses, hosts and home directories may be masked."""
    wrong: dict[str, str] = {}
    for bundle, report in bundle_reports.items():
        redactor = redactor_for(report)
        shown = redact_report(report, redactor)
        texts = [e.text for e in shown.chain] + [shown.verdict.summary] + [str(v) for _, v in shown.verdict.facts]
        for text in texts:
            for kind in re.findall(r"<([a-z][a-z0-9-]*)-\d+>", text):
                if kind not in ("ip", "host", "home"):
                    wrong.setdefault(f"{bundle.name}: <{kind}>", text[:160])
    assert not wrong


def test_the_evidence_survives_redaction(bundle_reports: Mapping[Path, Report]) -> None:
    """Numbers the patterns captured stay readable, and redaction does not change the fingerprint."""
    lost = []
    for bundle, report in bundle_reports.items():
        shown = redact_report(report, redactor_for(report))
        assert fingerprint(shown) == fingerprint(report) and shown.verdict.id == report.verdict.id
        for event, masked in zip(report.chain, shown.chain, strict=True):
            for name, value in event.fields:
                if not isinstance(value, int) or abs(value) < 100:
                    continue
                number = str(value)
                if re.search(rf"(?<![\d.]){number}(?![\d.])", event.text) and number not in masked.text:
                    lost.append(f"{bundle.name}: {name}={number}")
    assert not lost


# ---------------------------------------------------------------- the rules' own examples (redaction.toml)

ALPHABETS = {
    "A": string.ascii_letters + string.digits,
    "a": string.ascii_lowercase + string.digits,
    "L": string.ascii_letters,
    "H": "0123456789abcdef",
    "X": "0123456789ABCDEF",
    "U": string.ascii_uppercase + string.digits,
    "D": string.digits,
    "B": string.ascii_letters + string.digits + "+/",
    "S": string.ascii_letters + string.digits + "-_",
    "Z": string.ascii_uppercase + "234567",
    "G": "QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L",
}
DRAWN = re.compile(r"\{([A-Za-z]):(\d+)\}")


def expand(example: str, seed: int) -> tuple[str, list[str]]:
    """(the example with its {A:n} drawn, the «marked» secrets); mixed alphabets start with an
    upper-case letter and a digit, as real keys have (and the entropy checks expect)."""
    rng = random.Random(seed)

    def draw(match: re.Match[str]) -> str:
        alphabet, length = ALPHABETS[match.group(1)], int(match.group(2))
        text = "".join(rng.choice(alphabet) for _ in range(length))
        if match.group(1) in "ABS" and length >= 8:
            text = rng.choice(string.ascii_uppercase) + rng.choice(string.digits) + text[2:]
        return text

    text = DRAWN.sub(draw, example)
    secrets = re.findall("«(.*?)»", text, flags=re.S)
    return text.replace("«", "").replace("»", ""), secrets


def _rule_examples() -> list[tuple[str, str, str, str]]:
    """(rule id, kind or '', 'masks' or 'keeps', example) for every example of every rule."""
    found = []
    for shape in rules().shapes:
        found += [(shape.id, shape.kind, "masks", example) for example in shape.examples]
        found += [(shape.id, shape.kind, "keeps", example) for example in shape.counterexamples]
    for check in rules().checks:
        found += [(check.id, "", "masks", example) for example in check.examples]
        found += [(check.id, "", "keeps", example) for example in check.counterexamples]
    return found


def _redacted(text: str) -> str:
    redactor = Redactor()
    redactor.learn_from_text(text)  # as redactor_for learns from every string of a report
    return redactor(text)


@pytest.mark.parametrize(("rule", "kind", "does", "example"), _rule_examples(), ids=lambda x: str(x)[:60])
def test_every_rule_example(rule: str, kind: str, does: str, example: str) -> None:
    for seed in range(3):
        text, secrets = expand(example, seed)
        out = _redacted(text)
        if does == "keeps":
            assert out == text, f"{rule} changed a counterexample: {out!r}"
            continue
        assert secrets, f"{rule}: an example marks what must vanish with « »"
        leaked = [secret for secret in secrets if secret in out]
        assert not leaked, f"{rule}: {out!r}"
        assert re.search(rf"<{kind or '[a-z][a-z0-9-]*'}-\d+>", out), out


def test_the_rules_are_many_and_each_has_examples() -> None:
    shapes = rules().shapes
    assert len(shapes) >= 60 and len({shape.id for shape in shapes}) == len(shapes)
    assert all(shape.examples and shape.keywords for shape in shapes)
    assert {check.id for check in rules().checks} >= {"key-value", "cli-flag", "cookie", "high-entropy", "learned-host"}


def test_the_keyword_prefilter_finds_overlapping_keywords_with_and_without_aho_corasick(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """`sk_live_` holds the keywords `sk` and `k_live_`; a name's undecodable byte (a surrogate) too."""
    from pdlogdoctor.render.secrets import Rules

    text = "billing sk_live_abc \udcff ghp_x"
    fast = Rules(rules().shapes, rules().checks, rules().keys).keyword_search(text)
    monkeypatch.setitem(sys.modules, "ahocorasick_rs", None)  # as where the wheel is missing
    plain = Rules(rules().shapes, rules().checks, rules().keys).keyword_search(text)
    assert fast == plain and {"sk", "k_live_", "ghp_"} <= plain


def test_learned_names_are_masked_whole_and_only_whole_however_many() -> None:
    """A few names are one alternation; thousands (a fleet's file names) a set looked up word by
    word (a 20,000-way alternation took 9.8 s): both mask the same, whole names only."""
    text = "prefill_node-a7.log: node-a7.dc1.corp, node-a7x, xnode-a7, rack3.log, rack31, node-a7 up"

    def masked(extra: int) -> str:
        return Redactor([f"gpu-{k:05d}" for k in range(extra)] + ["node-a7", "node-a7.dc1.corp", "rack3"])(text)

    few, many = masked(0), masked(3000)
    assert few == many
    assert "node-a7x" in few and "xnode-a7" in few and "rack31" in few  # not a whole name: kept
    assert "rack3.log" not in few and "_node-a7." not in few and not few.endswith("node-a7 up")


def test_a_bare_word_is_never_learned_as_a_name() -> None:
    """`decode_output.log` named a node `output`: only names with a digit, a dot or a dash are learned."""
    redact = Redactor(["output", "warmup", "main", "mia1-p06-g13"])
    redact.learn_from_text("host=router hostname=primary node=main")
    assert redact("output_ids warmup main primary mia1-p06-g13") == "output_ids warmup main primary <host-1>"
