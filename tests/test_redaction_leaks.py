"""The review's reproducers (issue 24, /work/shared/reviews/security.md D1, D5, D6, D8, D9, D10),
end to end through the command line: what was planted must be absent from every shareable
output (markdown, github annotations, the step summary, html, and stderr under a shareable
format), and what is ordinary must be there as it was logged."""

from __future__ import annotations

import gzip
import html
import re
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pdlogdoctor.cli.commands import app

from .bundle_copy import SEED
from .conftest import FIXTURES

PREFILL = "prefill_mia1-p06-g13.log"
ZERODIV = FIXTURES / "scheduler-init-crash-zerodiv"


def seed_with(tmp_path: Path, lines: list[str], at: int = 35, name: str = "bundle") -> Path:
    """The seed with `lines` inserted after the prefill's line `at` (beside its first chain line)."""
    target = tmp_path / name
    shutil.copytree(SEED, target)
    (target / "expected.toml").unlink()
    prefill = target / PREFILL
    text = prefill.read_text().split("\n")
    prefill.write_text("\n".join(text[:at] + lines + text[at:]))
    return target


def shareable_outputs(path: Path, tmp_path: Path, *extra: str) -> dict[str, str]:
    """Every shareable output of one run each: markdown, github (stdout, stderr, step summary), html."""
    runner = CliRunner()
    summary = tmp_path / f"summary-{len(list(tmp_path.iterdir()))}.md"
    env = {"GITHUB_STEP_SUMMARY": str(summary), "GITHUB_WORKSPACE": str(path.parent), "COLUMNS": "120"}
    markdown = runner.invoke(app, ["analyze", "-f", "markdown", *extra, str(path)], env=env)
    github = runner.invoke(app, ["analyze", "-f", "github", *extra, str(path)], env=env)
    page = runner.invoke(app, ["analyze", "-f", "html", *extra, str(path)], env=env)
    readable_page = page.stdout.replace("\\u003c", "<").replace("\\u003e", ">").replace("\\u0026", "&")
    return {
        "markdown": markdown.stdout,
        "markdown stderr": markdown.stderr,
        "github": github.stdout,
        "github stderr": github.stderr,
        "step summary": summary.read_text() if summary.exists() else "",
        "html": html.unescape(readable_page),
    }


def leaks(secret: str, outputs: dict[str, str]) -> list[str]:
    return [where for where, text in outputs.items() if secret in text]


def planted_outputs(tmp_path: Path, lines: list[str], per_bundle: int = 4) -> tuple[dict[str, str], str]:
    """(every shareable output, the --no-redact markdown) of seed bundles holding `lines`, a few per
    bundle beside the first chain line, where the excerpt's context shows them (four fit in it: the
    control run's markdown, which must quote each, says so when they stop fitting)."""
    outputs: dict[str, str] = {}
    control = ""
    for start in range(0, len(lines), per_bundle):
        bundle = seed_with(tmp_path, lines[start : start + per_bundle], 35, f"bundle-{start}")
        outputs |= {f"{where} ({start})": text for where, text in shareable_outputs(bundle, tmp_path).items()}
        control += shareable_outputs(bundle, tmp_path, "--no-redact")["markdown"]
    return outputs, control


# ---------------------------------------------------------------- D1: a label before key=value


LABELLED = [  # (line, secret): uvicorn's `INFO:     `, Python logging's `WARNING:root:`, a label and a key
    ("[2026-07-02 10:16:40] INFO:     password=Hunter2Hunter2xyz", "Hunter2Hunter2xyz"),
    ("WARNING:root:token=tok3nV4lue9876abc", "tok3nV4lue9876abc"),
    ("[2026-07-02 10:16:40] INFO:     api_key=Qw7erTy8uIop9Asd0fGh", "Qw7erTy8uIop9Asd0fGh"),
    ("ERROR:root:secret=Zx1cV2bN3mL4kJ5hG6", "Zx1cV2bN3mL4kJ5hG6"),
    ("WARNING:root:db_password=Mn8bV7cX6zL5", "Mn8bV7cX6zL5"),
    ("INFO:     WANDB_API_KEY=9f86d081884c7d659a2feaa0c55ad015a3bf4f1b", "9f86d081884c7d659a2f"),
]


def test_a_label_before_a_key_never_ends_its_scope(tmp_path: Path) -> None:
    outputs, control = planted_outputs(tmp_path, [line for line, _ in LABELLED])
    for line, secret in LABELLED:
        assert secret in control, f"not quoted, proves nothing: {line}"
        assert not leaks(secret, outputs), line


# ---------------------------------------------------------------- D8: value shapes the README promises


SHAPES = [
    ("export DB_PASSWORD=x;Pw8kQz2mXv", ["Pw8kQz2mXv"]),
    ("PGPASSWORD=Ab&Lm4nOp6qRs psql -h db", ["Lm4nOp6qRs"]),
    ("redis_password=q,Tu7vWx9yZa", ["Tu7vWx9yZa"]),
    ('passphrase="violet42 harbor17 staple88 horse23"', ["harbor17", "staple88", "horse23"]),
    ("curl --user svc-ci:Rb5sTd7uVf https://ckpt.internal/x", ["Rb5sTd7uVf"]),
    ("Cookie: _ga=GA1.2.3.4; connect.sid=s%3AQk2Lm4Np6Rq8St0Uv", ["Qk2Lm4Np6Rq8St0Uv"]),
    ("postgres://admin:Ab3dE/Fg6hI@db-01.internal:5432/x", ["Ab3dE", "Fg6hI"]),
    ("loading /nfs/home/jdoefoo/ckpt/model.safetensors", ["jdoefoo"]),
    ("cache at /lustre/home/kimbarr/.cache", ["kimbarr"]),
    ("register GR1348941aB3cD5eF7gH9iJ1kL3mN5 ok", ["aB3cD5eF7gH9iJ1kL3mN5"]),
    ("refresh 1//0gAb3Cd5Ef7Gh9Ij1Kl3Mn5Op7Qr9St1Uv3Wx5Yz7Ab9Cd1Ef3Gh5 stored", ["gAb3Cd5Ef7Gh9Ij1Kl3Mn5Op7Qr9"]),
]


def test_every_value_shape_the_readme_promises(tmp_path: Path) -> None:
    outputs, control = planted_outputs(tmp_path, [line for line, _ in SHAPES])
    for line, secrets in SHAPES:
        for secret in secrets:
            assert secret in control, f"not quoted, proves nothing: {line}"
            assert not leaks(secret, outputs), line


def test_a_key_body_whose_begin_line_is_above_the_excerpt(tmp_path: Path) -> None:
    """Body lines behind a log prefix, and a last line shorter than 40 characters, then the END line."""
    body = "MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7Vx2Lm4Np6Rq8St0Uv2Wx"
    last = "Yz4Ab6Cd8Ef0Gh2=="
    lines = [f"[2026-07-02 10:16:03] {body}", last, "-----END RSA PRIVATE KEY-----"]
    outputs, control = planted_outputs(tmp_path, lines, per_bundle=3)
    assert body in control and last.rstrip("=") in control
    assert not leaks(body[10:40], outputs) and not leaks(last.rstrip("="), outputs)


def test_an_archive_member_under_home_is_masked(tmp_path: Path) -> None:
    """`tar czf x.tgz /home/u/...` stores `home/u/...`: the member names show no user."""
    import tarfile

    with tarfile.open(tmp_path / "run.tgz", "w:gz") as archive:
        for source in SEED.glob("*.log"):
            archive.add(source, f"home/pdldqwe/runs/{source.name}")
    outputs = shareable_outputs(tmp_path / "run.tgz", tmp_path)
    assert "runs/" in outputs["markdown"]  # the members are named
    assert not leaks("pdldqwe", outputs)


# ---------------------------------------------------------------- D10: provider shapes and node names


PROVIDERS = [  # (line, secret) in the shapes of gitleaks' and trufflehog's rules, no keyword near
    ("vault hvs.CAESIJ" + "kq3M8nR2vT5xW7zB9dF1hL4pS6uY0aC2eG" * 3, "kq3M8nR2vT5xW7zB9dF1"),
    ("search pplx-" + "Ab3Cd5Ef7Gh9Ij1Kl3Mn5Op7Qr9St1Uv3Wx5Yz7Ab9Cd1Ef3", "Ab3Cd5Ef7Gh9Ij1Kl3Mn5"),
    ("bedrock ABSK" + "QmVkcm9ja0FQSUtleS1" * 7, "QmVkcm9ja0FQSUtleS1QmVk"),
    ("doctl dop_v1_" + "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08", "9f86d081884c7d659a2f"),
    (
        "key AGE-SECRET-KEY-1" + "QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L" + "QPZRY9X8GF2TVDW0S3JN54KHCE",
        "QPZRY9X8GF2TVDW0S3JN",
    ),
    ("oc sha256~" + "Ab3Cd5Ef7Gh9Ij1Kl3Mn5Op7Qr9St1Uv3Wx5Yz7Ab9C", "Ab3Cd5Ef7Gh9Ij1Kl3Mn"),
    ("sentry sntryu_" + "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08", "9f86d081884c7d659a2f"),
    ("pulumi pul-" + "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b", "9f86d081884c7d659a2f"),
    ("postman PMAK-" + "9f86d081884c7d659a2feaa0-c55ad015a3bf4f1b2b0b822cd15d6c15b0", "c55ad015a3bf4f1b2b0b"),
    ("judge gsk_" + "Ab3Cd5Ef7Gh9Ij1Kl3Mn5Op7Qr9St1Uv3Wx5Yz7Ab9Cd1Ef3Gh5I", "Ab3Cd5Ef7Gh9Ij1Kl3Mn"),
    ("grok xai-" + "Ab3Cd5Ef7Gh9Ij1Kl3Mn5Op7Qr9St1Uv3Wx5Yz7A" * 2, "Ab3Cd5Ef7Gh9Ij1Kl3Mn"),
    ("trace lsv2_pt_" + "9f86d081884c7d659a2feaa0c55ad015_a3bf4f1b2b", "9f86d081884c7d659a2f"),
    ("nim nvapi-" + "Ab3Cd5Ef7Gh9Ij1Kl3Mn5Op7Qr9St1Uv3Wx5Yz7Ab9Cd1Ef3Gh5Ij7Kl9Mn1Op3Q", "Ab3Cd5Ef7Gh9Ij1Kl3Mn"),
    ("oauth GOCSPX-" + "Ab3Cd5Ef7Gh9Ij1Kl3Mn5Op7Qr9S", "Ab3Cd5Ef7Gh9Ij1Kl3Mn"),
    ("docker login -u ci -p Qz8xW6vU4tS2 registry", "Qz8xW6vU4tS2"),
    ("redis-cli -h cache -a Lp9oK8iJ7uH6 ping", "Lp9oK8iJ7uH6"),
    ('Authorization: Digest username="svc", realm="x", response="9f86d081884c7d659a2feaa0c55ad015"', "9f86d081884c7d"),
]
NODES = [  # (line, node name): where a node is named without a `host=` key
    ("[1732791234.123456] [gpu-node-417:48211:0]   ib_iface.c:1234 UCX  ERROR ibv_create_cq failed", "gpu-node-417"),
    ("dgx-a37:48211:48299 [3] NCCL INFO NET/IB : Using [0]mlx5_0:1/RoCE", "dgx-a37"),
    ("python -m sglang.launch_server --dist-init-addr trainhost58:5000 --nnodes 2", "trainhost58"),
    ("MASTER_ADDR=master21-x MASTER_PORT=29500", "master21-x"),
    ("ssh root@box64 'nvidia-smi'", "box64"),
    ("node ip-10-12-34-56 ready", "ip-10-12-34-56"),
]


@pytest.mark.parametrize("planted", [PROVIDERS, NODES], ids=["provider shapes", "node names"])
def test_provider_shapes_and_node_names(tmp_path: Path, planted: list[tuple[str, str]]) -> None:
    outputs, control = planted_outputs(tmp_path, [line for line, _ in planted])
    for line, secret in planted:
        assert secret in control, f"not quoted, proves nothing: {line}"
        assert not leaks(secret, outputs), line


# ---------------------------------------------------------------- D9: ordinary values keep their meaning


ORDINARY = [  # logged values that are no secret and no name; each must read as logged
    "rid=2d4f0c8e5b7a4e1f9a3c6b8d0e2f4a61",
    'request_id="chatcmpl-Wly2zVLtUcyK1Vg13jmipvFZ"',
    "trace_id=4bf92f3577b34da6a3ce929d0e0e4736",
    "span_id=00f067aa0ba902b7",
    "sha256:9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
    "commit=e7b5ba7c0ffee",
    "stop_token_ids=[128001, 128009]",
    "remote_key=0x4d5e6f",
    "sig=SIGSEGV",
    "from mori.io import engine",
    "pad_token=[PAD]",
    "max_tokens=8192",
    "bootstrap_room=1234567890123",
    "kv_cache_dtype=fp8_e4m3",
    "model=meta-llama/Llama-3.1-70B-Instruct",
    "session_id=7f3a9c2e",
    "uuid=123e4567-e89b-12d3-a456-426614174000",
    "eos_token=</s>",
    "pad_token_id=128004",
    "token_ids=[1, 2, 3]",
    "signal=SIGTERM",
    "rkey=0x1a2b3c",
    "key_len=128",
    "auth_type=none",
    "use_key_cache=True",
    "image=lmsysorg/sglang:v0.5.3-rocm630",
    "tokenizer_mode=auto",
    "x-request-id: 9f1c2d3e4f5a6b7c",
    "errno=22",
    "ib_device=mlx5_0",
    "bos_token=<|begin_of_text|>",
    "token_usage=0.91",
    "full_token=23,448,064",
]


def test_ordinary_values_are_not_masked(tmp_path: Path) -> None:
    assert len(ORDINARY) >= 30
    lines = ["[2026-07-02 10:16:03] INFO:     " + " ".join(ORDINARY[i : i + 6]) for i in range(0, len(ORDINARY), 6)]
    outputs, control = planted_outputs(tmp_path, lines)
    shown = "\n".join(text for where, text in outputs.items() if where.startswith("markdown ("))
    assert all(value in control for value in ORDINARY)
    assert [value for value in ORDINARY if value not in shown] == []


def test_a_harness_file_name_makes_no_word_a_host(tmp_path: Path) -> None:
    """`decode_output.log` made `output` a host: 'output_ids' read '<host-2>_ids', in the tool's own
    sentences too. Only names with a digit, a dot or a dash are learned from file names."""
    bundle = seed_with(tmp_path, [])
    (bundle / "decode_mia1-p06-g14.log").rename(bundle / "decode_output.log")
    (bundle / PREFILL).rename(bundle / "prefill_warmup.log")
    markdown = shareable_outputs(bundle, tmp_path)["markdown"]
    assert "'output_ids'" in markdown and "_ids'" not in markdown.replace("'output_ids'", "")
    assert "mode warmup with status 200" in markdown and "returned near-all-zero output ids" in markdown
    assert "decode_output.log" in markdown and "prefill_warmup.log" in markdown


# ---------------------------------------------------------------- D5: stderr under a shareable format


def test_problem_file_names_on_stderr_are_redacted_like_the_report(tmp_path: Path) -> None:
    bundle = seed_with(tmp_path, [])
    signature = "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08"
    (bundle / f"eval.log?X-Amz-Signature={signature}").write_text("")
    (bundle / "router-10.4.7.9.log.gz").write_bytes(gzip.compress((SEED / "router.log").read_bytes())[:1200])
    (bundle / "notes-ops.lead@corp.example.log").write_text("")
    outputs = shareable_outputs(bundle, tmp_path)
    for where in ("github stderr", "markdown stderr"):
        assert "[truncated]" in outputs[where] and "[empty]" in outputs[where]  # the warnings are there
        assert not re.search(r"10\.4\.7\.9|9f86d0818|ops\.lead@corp", outputs[where]), outputs[where]
    plain = CliRunner().invoke(app, ["analyze", "-f", "text", str(bundle)])  # the operator's own terminal
    assert "10.4.7.9" in plain.stderr


# ---------------------------------------------------------------- D6: no cut before redaction


TOKEN = "hf_Ab3dEfGhIjKlMnOpQrStUvWxYzAbCdEfGh"


def test_the_summary_quote_does_not_leave_half_a_token(tmp_path: Path) -> None:
    """The lead unnamed error is quoted in 240 characters: a token across that cut left hf_ + 15."""
    (tmp_path / "logs").mkdir()
    (tmp_path / "logs" / "prefill_node-a.log").write_text(
        "[2026-07-02 10:15:30] server_args=ServerArgs(disaggregation_mode='prefill')\n"
        f"[2026-07-02 10:16:00] ERROR: checkpoint sync failed: {'q' * 196} {TOKEN} done\n"
    )
    outputs = shareable_outputs(tmp_path / "logs", tmp_path)
    assert "checkpoint sync failed" in outputs["markdown"]
    assert not leaks(TOKEN[3:11], outputs)


def test_a_long_exception_message_does_not_leave_half_a_token(tmp_path: Path) -> None:
    """The exception message is kept in 500 characters and quoted in the summary and the facts."""
    message = "division by zero " + "m" * 470 + f" {TOKEN} tail"
    target = tmp_path / "crash"
    shutil.copytree(ZERODIV, target)
    (target / "expected.toml").unlink(missing_ok=True)
    for log in target.glob("*.log"):
        log.write_text(log.read_text().replace("ZeroDivisionError: division by zero", f"ZeroDivisionError: {message}"))
    outputs = shareable_outputs(target, tmp_path)
    control = shareable_outputs(target, tmp_path, "--no-redact")
    assert "m" * 100 in control["markdown"]
    assert not leaks(TOKEN[3:11], outputs)


def test_an_unnamed_error_line_longer_than_kept_does_not_leave_half_a_token(tmp_path: Path) -> None:
    """An unnamed error line is kept in 2,000 characters; github's ::warning shows it whole."""
    (tmp_path / "logs").mkdir()
    (tmp_path / "logs" / "prefill_node-a.log").write_text(
        "[2026-07-02 10:15:30] server_args=ServerArgs(disaggregation_mode='prefill')\n"
        f"[2026-07-02 10:16:00] ERROR: upload failed: {'w ' * 970}{TOKEN} done\n"
    )
    outputs = shareable_outputs(tmp_path / "logs", tmp_path)
    assert "upload failed" in outputs["github"]
    assert not leaks(TOKEN[3:11], outputs)
