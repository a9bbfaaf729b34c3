"""Redaction rules one by one, and what they must leave alone.

The planted-secret gate (test_redaction_corpus.py) proves nothing leaks; these prove the
evidence survives: the fixtures hold no secrets, so every placeholder other than an address,
a host or a home directory there is a rule firing on ordinary log text.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from pdlogdoctor.model import Report
from pdlogdoctor.model.textcut import clip
from pdlogdoctor.reason.fingerprint import fingerprint
from pdlogdoctor.render.outbound import outbound_report as redact_report
from pdlogdoctor.render.redact import Redactor, redactor_for

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


def test_no_fixture_line_is_taken_for_a_secret(bundle_reports: dict[Path, Report]) -> None:
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


def test_the_evidence_survives_redaction(bundle_reports: dict[Path, Report]) -> None:
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
