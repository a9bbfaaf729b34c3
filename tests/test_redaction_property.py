"""Property tests of the shareable outputs (issue 24): any planted secret of 71 real token shapes
(tests/secret_corpus.py: the shapes of gitleaks' and trufflehog's rules an LLM-serving log may
hold), at any position of any line, behind any prefix a log puts before a value, is absent from
what leaves the process; and the same end to end, through every shareable format and stderr."""

from __future__ import annotations

import html
from pathlib import Path

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from pdlogdoctor.cli.commands import app
from pdlogdoctor.render.outbound import Outbound
from pdlogdoctor.render.redact import Redactor

from .bundle_copy import SEED
from .secret_corpus import Maker, Plant
from .test_redaction_corpus import _insert

SHAPES = Maker().shapes()
# Real lines of the components (the seed's and the fixtures'), each a place a token may land.
LINES = [
    "[2026-07-02 10:16:03.412] [48211] [application] [error] RegisterRdmaMemoryRegion failed! addr:0x7f2a80000000",
    "[2026-07-02 10:16:40 DP0 TP0 EP0] Prefill transfer failed for request rank=0 req.rid='2d4f0c8e5b7a4e1f'",
    '[2026-07-02 10:15:59] INFO:     127.0.0.1:52110 - "GET /get_model_info HTTP/1.1" 200 OK',
    "2026-07-02 10:16:41 ERROR smg::routers::http::pd_router: Decode server returned error status=500",
    "[probe] request failed with server error",
    "(EngineCore_DP0 pid=123) ERROR 07-02 10:16:03 [core.py:412] EngineCore failed to start.",
    "E0702 10:16:03.412345 48211 transfer_engine.cpp:120] Failed to register memory",
    "server_args=ServerArgs(model_path='/models/dsv4', tp_size=8, disaggregation_mode='prefill')",
    "dgx-a12:48211:48299 [3] NCCL INFO NET/IB : Using [0]mlx5_0:1/RoCE",
    "Traceback (most recent call last):",
]
# What a log puts before a value: labels and levels, keys of every kind, quotes and brackets,
# headers, flags, a URL's query; each ends where a token may begin.
PREFIXES = [
    "",
    "INFO:     ",
    "WARNING:root:",
    "ERROR:root:x: ",
    "token=",
    "api_key=",
    "password: ",
    "secret_key = ",
    '"key": "',
    "'",
    '"',
    "(",
    "[",
    "{",
    "=",
    ": ",
    ", ",
    "Authorization: Bearer ",
    "Authorization: Token ",
    "--api-key ",
    "--hf-token=",
    "export OPENAI_API_KEY=",
    "https://svc.internal/x?a=1&sig=",
    "url?k=",
    "HF_TOKEN=",
    "WANDB_API_KEY=",
    "client_secret: ",
    "X-Api-Key: ",
    "Cookie: session=",
    "<",
    "`",
]
SUFFIXES = ["", " ", ",", ";", ")", "]", "}", "'", '"', ".", ">", "`", " done"]


def _line(line: str, at: int, planted: str) -> str:
    words = line.split(" ")
    at = at % (len(words) + 1)
    return " ".join([*words[:at], planted, *words[at:]])


def _leaked(plant: Plant, text: str) -> bool:
    return any(needle in text for needle in plant.needles)


@settings(max_examples=1500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    shape=st.sampled_from(SHAPES),
    line=st.sampled_from(LINES),
    at=st.integers(min_value=0, max_value=40),
    prefix=st.sampled_from(PREFIXES),
    suffix=st.sampled_from(SUFFIXES),
)
def test_any_token_in_any_position_behind_any_prefix_is_masked(
    shape: Plant, line: str, at: int, prefix: str, suffix: str
) -> None:
    text = _line(line, at, prefix + shape.text + suffix)
    redactor = Redactor()
    redactor.learn_from_text(text)  # as redactor_for learns from every string of the report
    out = Outbound(redactor)
    assert not _leaked(shape, out(text)), out(text)
    window = out.lines([LINES[0], text, LINES[2]])  # an excerpt window: lines are redacted together
    assert not _leaked(shape, "\n".join(window))


def test_the_corpus_holds_enough_real_shapes() -> None:
    assert len({shape.kind for shape in SHAPES}) >= 60


# ---------------------------------------------------------------- end to end

# Where the excerpt shows planted lines: (the file's role, a chain line's words, lines before it, after it).
SLOTS = [
    ("prefill", "RegisterRdmaMemoryRegion failed! addr:0x7f2a80000000", 3, 0),
    ("prefill", "End of prefill disaggregation", 0, 3),
    ("decode", "End of prefill disaggregation", 3, 0),
    ("decode", "Decode transfer failed", 3, 0),
    ("router", "Decode server returned error status", 3, 0),
    ("bench", "[probe] request failed", 0, 1),
    ("bench", "[gsm8k] could not parse", 0, 3),
]
PER_LINE = 3  # tokens per planted line: the excerpt shows 400 characters of a line


def _bundle(target: Path, lines: list[str], names: list[str]) -> Path:
    """The seed with `lines` in the slots, in order, and empty files named `names`."""
    target.mkdir(parents=True)
    queue = list(lines)
    for source in sorted(SEED.iterdir()):
        if source.name == "expected.toml":
            continue
        text = source.read_text()
        role = source.name.split("_")[0].split(".")[0]
        for file, anchor, before, after in SLOTS:
            if file == role:
                above, queue = queue[:before], queue[before:]
                below, queue = queue[:after], queue[after:]
                text = _insert(text, anchor, above, below)
        (target / source.name).write_text(text)
    for name in names:
        (target / name).write_text("")  # an empty file: named in a warning on stderr
    return target


def _shareable(path: Path, redact: bool = True) -> str:
    runner = CliRunner()
    extra = [] if redact else ["--no-redact"]
    summary = path.parent / f"summary-{redact}.md"
    env = {"GITHUB_STEP_SUMMARY": str(summary), "GITHUB_WORKSPACE": str(path.parent)}
    texts = []
    for fmt in ("markdown", "github", "html"):
        done = runner.invoke(app, ["analyze", "-f", fmt, *extra, str(path)], env=env)
        assert done.exit_code == 1, done.stderr
        texts += [done.stdout, done.stderr]
    page = texts[4].replace("\\u003c", "<").replace("\\u003e", ">").replace("\\u0026", "&")
    texts[4] = html.unescape(page)
    return "\n".join([*texts, summary.read_text()])


@pytest.mark.slow
@settings(
    max_examples=2,  # each example runs the CLI six times over every shape: the drawn orders vary by run
    deadline=None,
    phases=[Phase.explicit, Phase.reuse, Phase.generate],  # a failure names its kinds; shrinking costs minutes
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(data=st.data())
def test_no_planted_token_reaches_a_shareable_output_or_stderr(
    tmp_path_factory: pytest.TempPathFactory, data: st.DataObject
) -> None:
    """Every shape, in a drawn order, each behind a drawn prefix and before a drawn suffix, in the
    lines the excerpt shows; the first of each bundle's also in a file name warned about on stderr."""
    order = data.draw(st.permutations(SHAPES))
    room = PER_LINE * sum(before + after for _, _, before, after in SLOTS)
    for start in range(0, len(order), room):
        group = order[start : start + room]
        planted = [data.draw(st.sampled_from(PREFIXES)) + s.text + data.draw(st.sampled_from(SUFFIXES)) for s in group]
        lines = [" ".join(planted[i : i + PER_LINE]) for i in range(0, len(planted), PER_LINE)]
        named = next((s for s in group if s.text.isascii() and "/" not in s.text), None)
        bundle = _bundle(
            tmp_path_factory.mktemp("bundle") / "logs", lines, [f"notes-{named.text}.log"] if named else []
        )
        control = _shareable(bundle, redact=False)
        assert not [s.kind for s in group if not all(n in control for n in s.needles)], "not quoted, proves nothing"
        outputs = _shareable(bundle)
        assert not [s.kind for s in group if _leaked(s, outputs)]
