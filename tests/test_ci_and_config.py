"""CI and config (issue 23): an annotation that cannot link to its file still says where it is; a
title says its role once; `-v` names the config file a run used, and `--no-config` ignores it.

docs/ci.md's own recipe downloads the logs into `runner.temp`, outside GITHUB_WORKSPACE, where no
annotation may carry `file=`: the reader must still find the line (as a compiler's `path:line:`).
A `fail-on = "never"` two directories up turned a diagnosed cause into exit 0 with no word.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pdlogdoctor.cli.commands import app
from pdlogdoctor.library.patterns import Library
from pdlogdoctor.model import Report
from pdlogdoctor.pipeline import run
from pdlogdoctor.render.options import RenderOptions

from .bundle_copy import SEED, copy_bundle
from .test_render_github import annotate, parse


@pytest.fixture(scope="module")
def seed(library: Library) -> Report:
    return run([str(SEED)], library)


def test_an_annotation_outside_the_workspace_says_its_file_and_line(seed: Report) -> None:
    parsed = [parse(line) for line in annotate(seed, RenderOptions(redact=False))]  # no workspace file
    places = {f"{event.source}:{event.line}" for event in seed.chain}
    located = [message for _, props, message in parsed if "file" not in props and message.split(": ", 1)[0] in places]
    about_no_line = ("pdlogdoctor: not serving", "pdlogdoctor: known upstream")  # said of the run, not a line
    chained = [line for line in parsed if not line[1]["title"].startswith(about_no_line)]
    assert len(located) == len(chained)  # every annotation about a log line names it
    verdict_message = parsed[0][2]
    assert verdict_message.startswith(f"{seed.chain[0].source}:{seed.chain[0].line}: ")


def test_a_located_message_is_masked_like_the_file_names(seed: Report) -> None:
    parsed = [parse(line) for line in annotate(seed, RenderOptions())]  # redacted, no workspace file
    assert all("mia1-p06-g13" not in message for _, _, message in parsed)
    assert any(re.match(r"\S*prefill_<host-1>\.log:34: ", message) for _, _, message in parsed)


def test_titles_say_the_role_once(seed: Report) -> None:
    titles = [parse(line)[1]["title"] for line in annotate(seed, RenderOptions(redact=False))]
    for title in titles:
        words = re.findall(r"[a-z]+", title.lower())
        for role in ("router", "harness", "prefill", "decode"):
            assert words[:2] != [role, role], title
    assert any(title.startswith("Router: the decode server answered") for title in titles)  # said once, by the title


def invoke(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(app, list(args), prog_name="pdlogdoctor")
    return result.exit_code, result.stdout, result.stderr


def test_verbose_names_the_config_file_and_no_config_ignores_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    project = tmp_path / "project"
    work = project / "ci" / "run"
    work.mkdir(parents=True)
    (project / "pyproject.toml").write_text('[tool.pdlogdoctor]\nfail-on = "never"\n')
    bundle = copy_bundle(SEED, tmp_path / "bundle")
    monkeypatch.chdir(work)
    code, _, err = invoke("analyze", "-q", "-v", str(bundle))
    assert code == 0  # the file's fail-on
    assert f"config file: {project / 'pyproject.toml'}" in err
    code, _, err = invoke("analyze", "-q", "-v", "--no-config", str(bundle))
    assert code == 1  # the diagnosed cause, as without the file
    assert "config file: none (--no-config)" in err
    _, out, _ = invoke("analyze", "--help")
    assert "--no-config" in out and "pyproject.toml" in " ".join(out.split())
