"""action.yml: a valid composite action whose steps, run as written, produce its outputs.

PyYAML is not a dependency, and the action is kept to a plain YAML subset on purpose, so a
small parser for exactly that subset (mappings, lists of mappings, `|` blocks, scalars) reads it;
when `yq` is installed the file is also checked by a real YAML parser.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from .bundle_copy import SEED
from .conftest import ROOT

ACTION = ROOT / "action.yml"
EXPRESSION = re.compile(r"\$\{\{\s*([\w.-]+)\s*\}\}")


class SubsetParser:
    """YAML as action.yml uses it; anything else is a ValueError, never a silent guess."""

    def __init__(self, text: str) -> None:
        self.lines = text.splitlines()
        self.i = 0

    def parse(self) -> dict[str, Any]:
        result = self._map(0)
        self._skip()
        if self.i < len(self.lines):
            raise ValueError(f"line {self.i + 1}: unexpected indentation")
        return result

    def _skip(self) -> None:
        while self.i < len(self.lines) and (
            not self.lines[self.i].strip() or self.lines[self.i].lstrip().startswith("#")
        ):
            self.i += 1

    @staticmethod
    def _indent(line: str) -> int:
        if "\t" in line[: len(line) - len(line.lstrip())]:
            raise ValueError("tabs in indentation")
        return len(line) - len(line.lstrip(" "))

    def _node(self, indent: int) -> Any:
        self._skip()
        if self.lines[self.i].lstrip().startswith("- "):
            return self._seq(indent)
        return self._map(indent)

    def _map(self, indent: int) -> dict[str, Any]:
        result: dict[str, Any] = {}
        while True:
            self._skip()
            if self.i >= len(self.lines) or self._indent(self.lines[self.i]) < indent:
                return result
            line = self.lines[self.i]
            if self._indent(line) != indent or line.strip().startswith("- "):
                raise ValueError(f"line {self.i + 1}: bad indentation")
            key, sep, rest = line.strip().partition(":")
            if not sep or not re.fullmatch(r"[\w-]+", key) or key in result or (rest and not rest.startswith(" ")):
                raise ValueError(f"line {self.i + 1}: not a `key: value` line: {line!r}")
            self.i += 1
            rest = rest.strip()
            if rest == "|":
                result[key] = self._block(indent)
            elif rest:
                result[key] = self._scalar(rest)
            else:
                self._skip()
                child = self._indent(self.lines[self.i])
                if child <= indent:
                    raise ValueError(f"line {self.i + 1}: empty value for {key}")
                result[key] = self._node(child)

    def _seq(self, indent: int) -> list[Any]:
        items: list[Any] = []
        while True:
            self._skip()
            if self.i >= len(self.lines):
                return items
            line = self.lines[self.i]
            if self._indent(line) != indent or not line.lstrip().startswith("- "):
                return items
            self.lines[self.i] = " " * (indent + 2) + line.strip()[2:]
            items.append(self._map(indent + 2))

    def _block(self, indent: int) -> str:
        body: list[str] = []
        while self.i < len(self.lines) and (
            not self.lines[self.i].strip() or self._indent(self.lines[self.i]) > indent
        ):
            body.append(self.lines[self.i])
            self.i += 1
        margin = min(self._indent(line) for line in body if line.strip())
        return "\n".join(line[margin:] for line in body).rstrip("\n") + "\n"

    @staticmethod
    def _scalar(text: str) -> str:
        if text[0] in "\"'":
            if text[-1] != text[0]:
                raise ValueError(f"unterminated quote: {text}")
            return text[1:-1]
        if text[0] in "[{&*!|>%@`" or ": " in text or " #" in text:
            raise ValueError(f"outside the subset: {text}")
        return text


@pytest.fixture(scope="module")
def action() -> dict[str, Any]:
    return SubsetParser(ACTION.read_text()).parse()


def test_subset_parser_refuses_what_it_does_not_know() -> None:
    for bad in ("a: [1, 2]\n", "a:\n\tb: 1\n", "a: b: c\n", "a: 1\na: 2\n", "a:\n  - b\n"):
        with pytest.raises(ValueError):
            SubsetParser(bad).parse()


def test_yaml_is_valid_for_a_real_parser_too() -> None:
    yq = shutil.which("yq")
    if yq is None:
        pytest.skip("yq not installed")
    done = subprocess.run([yq, ".", str(ACTION)], capture_output=True, text=True)  # python yq (jq syntax)
    if done.returncode != 0:
        done = subprocess.run([yq, "-o=json", ".", str(ACTION)], capture_output=True, text=True)  # Go yq
    assert done.returncode == 0, done.stderr
    # The real parser reads the same document as the subset parser (scalars compared as text).
    assert _as_text(json.loads(done.stdout)) == SubsetParser(ACTION.read_text()).parse()


def _as_text(value: Any) -> Any:
    if isinstance(value, dict):
        return {key: _as_text(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_as_text(item) for item in value]
    if isinstance(value, bool):
        return str(value).lower()
    return str(value)


def test_action_shape(action: dict[str, Any]) -> None:
    assert set(action["inputs"]) == {
        "path", "format", "fail-on", "baseline", "python-version", "issue", "issue-labels", "github-token",
    }  # fmt: skip
    assert action["inputs"]["issue"]["default"] == "off"  # filing issues is opt-in
    assert action["inputs"]["baseline"]["required"] == "false"
    assert action["inputs"]["path"]["required"] == "true"
    assert action["runs"]["using"] == "composite"
    steps = action["runs"]["steps"]
    ids = {step.get("id") for step in steps}
    for name, output in action["outputs"].items():
        found = EXPRESSION.fullmatch(output["value"])
        assert found, output
        step_id, _, key = found.group(1).removeprefix("steps.").partition(".outputs.")
        assert step_id in ids and key == name
    for step in steps:
        assert "uses" in step or step["shell"] == "bash"
    install = next(step for step in steps if "pip install" in step.get("run", ""))
    assert '"${{ github.action_path }}"' in install["run"]


def _run_step(step: dict[str, Any], inputs: dict[str, str], env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    def expand(text: str) -> str:
        return EXPRESSION.sub(lambda m: inputs[m.group(1).removeprefix("inputs.")], text)

    assert not EXPRESSION.search(step["run"]), "the script reads inputs through env, not expressions"
    step_env = {**env, **{key: expand(value) for key, value in step.get("env", {}).items()}}
    return subprocess.run(["bash", "-c", step["run"]], env=step_env, capture_output=True, text=True, timeout=120)


@pytest.mark.parametrize(("fail_on", "status"), [("never", 0), ("cause", 1)])
def test_the_analyze_step_produces_the_outputs(
    action: dict[str, Any], tmp_path: Path, fail_on: str, status: int
) -> None:
    inputs = {name: spec.get("default", "") for name, spec in action["inputs"].items()}
    inputs.update({"path": str(SEED), "fail-on": fail_on})
    outputs, summary = tmp_path / "output", tmp_path / "summary.md"
    env = {
        "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}",
        "GITHUB_OUTPUT": str(outputs),
        "GITHUB_STEP_SUMMARY": str(summary),
        "GITHUB_WORKSPACE": str(ROOT),
        "RUNNER_TEMP": str(tmp_path),
        "HOME": str(tmp_path),
    }
    step = next(s for s in action["runs"]["steps"] if s.get("id") == "analyze")
    done = _run_step(step, inputs, env)
    assert done.returncode == status, done.stderr
    values = dict(line.split("=", 1) for line in outputs.read_text().splitlines())
    assert values["verdict"] == "mori-mr-size-limit"
    json_run = subprocess.run(
        [sys.executable, "-m", "pdlogdoctor", "analyze", "-f", "json", str(SEED)], capture_output=True, text=True
    )
    assert values["fingerprint"] == json.loads(json_run.stdout)["fingerprint"]
    report = Path(values["report-path"])
    assert report.parent == tmp_path and report.suffix == ".md"
    assert values["fingerprint"] in report.read_text() and "10.24.3.18" not in report.read_text()
    html = Path(values["html-path"])
    assert html.parent == tmp_path and html.read_text().startswith("<!doctype html>")
    assert values["fingerprint"] in html.read_text() and "10.24.3.18" not in html.read_text()
    assert len(re.findall(r"\bpdlogdoctor analyze\b", step["run"])) == 1  # one analysis, not one per file
    annotations = [line for line in done.stdout.splitlines() if line.startswith("::")]
    assert 1 <= len(annotations) <= 10 and "file=fixtures/mori-mr-size-limit-seed/" in annotations[0]
    assert "### Causal chain" in summary.read_text()


def test_the_baseline_input_adds_the_changes_to_the_summary(action: dict[str, Any], tmp_path: Path) -> None:
    inputs = {name: spec.get("default", "") for name, spec in action["inputs"].items()}
    inputs.update({"path": str(SEED), "baseline": str(SEED.parent / "pair-seed-0701-green")})
    outputs, summary = tmp_path / "output", tmp_path / "summary.md"
    env = {
        "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}",
        "GITHUB_OUTPUT": str(outputs),
        "GITHUB_STEP_SUMMARY": str(summary),
        "RUNNER_TEMP": str(tmp_path),
        "HOME": str(tmp_path),
    }
    step = next(s for s in action["runs"]["steps"] if s.get("id") == "analyze")
    done = _run_step(step, inputs, env)
    assert done.returncode == 0, done.stderr
    table = summary.read_text().split("### Changed since the last green run", 1)[1]
    assert "| `max_total_num_tokens` | decode, prefill | 8,551,168 | **23,448,064** | ×2.74" in table
    assert any("changed since the last green run" in line for line in done.stdout.splitlines())


# ---------------------------------------------------------------- the issue step, against a fake gh

FAKE_GH = """#!/usr/bin/env bash
# A stand-in for the GitHub CLI: logs its arguments, answers `issue list` with $FAKE_OPEN (an open
# issue's number carrying the fingerprint, or nothing) and `issue create` with a new issue's URL.
printf '%s\\n' "$*" >> "$FAKE_LOG"
case "$1 $2" in
  "issue list") [ -n "${FAKE_OPEN:-}" ] && echo "$FAKE_OPEN" ;;
  "issue comment") cp "$5" "$FAKE_LOG.comment" ;;
  "issue create") echo "https://github.com/example/nightly/issues/77" ;;
esac
exit 0
"""


def _file_the_issue(action: dict[str, Any], tmp_path: Path, issue: str, open_issue: str) -> tuple[dict[str, str], str]:
    """The analyze step on the seed, then the issue step with a fake `gh` first on PATH."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    gh = bin_dir / "gh"
    gh.write_text(FAKE_GH)
    gh.chmod(0o755)
    inputs = {name: spec.get("default", "") for name, spec in action["inputs"].items()}
    inputs.update({"path": str(SEED), "format": "json", "issue": issue})
    outputs = tmp_path / "output"
    env = {
        "PATH": f"{bin_dir}{os.pathsep}{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}",
        "GITHUB_OUTPUT": str(outputs),
        "GITHUB_STEP_SUMMARY": str(tmp_path / "summary.md"),
        "RUNNER_TEMP": str(tmp_path),
        "HOME": str(tmp_path),
        "GITHUB_REPOSITORY": "example/nightly",
        "GITHUB_RUN_ID": "4242",
        "FAKE_LOG": str(tmp_path / "gh.log"),
        "FAKE_OPEN": open_issue,
    }
    steps = {step.get("id"): step for step in action["runs"]["steps"]}
    assert _run_step(steps["analyze"], inputs, env).returncode == 0
    analyzed = dict(line.split("=", 1) for line in outputs.read_text().splitlines())
    step = steps["issue"]
    assert "inputs.issue != 'off'" in step["if"] and "always()" in step["if"]
    expressions = {"steps.analyze.outputs." + key: value for key, value in analyzed.items()}
    done = subprocess.run(
        ["bash", "-c", step["run"]],
        env={
            **env,
            **{
                key: EXPRESSION.sub(
                    lambda m: expressions.get(m.group(1), inputs.get(m.group(1).removeprefix("inputs."), "")), value
                )
                for key, value in step["env"].items()
            },
        },
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    results = dict(line.split("=", 1) for line in outputs.read_text().splitlines())
    log = (tmp_path / "gh.log").read_text() if (tmp_path / "gh.log").exists() else ""
    return {**analyzed, **results}, log


def test_an_open_issue_with_the_fingerprint_gets_a_comment_not_a_twin(action: dict[str, Any], tmp_path: Path) -> None:
    outputs, log = _file_the_issue(action, tmp_path, "comment-or-create", open_issue="12")
    calls = log.splitlines()
    assert calls[0].startswith("issue list --state open --search " + outputs["fingerprint"] + " in:body")
    assert calls[1].startswith("issue comment 12 --body-file ")
    assert not any(call.startswith("issue create") for call in calls)
    assert (outputs["issue-number"], outputs["issue-action"]) == ("12", "commented")
    body = (tmp_path / "gh.log.comment").read_text()
    assert (
        body.startswith("## pdlogdoctor:") and outputs["fingerprint"] in body
    )  # the markdown report, though the report file is JSON
    assert "10.24.3.18" not in body and body.rstrip().endswith("/example/nightly/actions/runs/4242")


def test_without_an_open_issue_comment_or_create_opens_one(action: dict[str, Any], tmp_path: Path) -> None:
    outputs, log = _file_the_issue(action, tmp_path, "comment-or-create", open_issue="")
    create = next(call for call in log.splitlines() if call.startswith("issue create"))
    assert f"--title pdlogdoctor: mori-mr-size-limit ({outputs['fingerprint']})" in create
    assert (outputs["issue-number"], outputs["issue-action"]) == ("77", "created")


def test_comment_only_never_opens_an_issue(action: dict[str, Any], tmp_path: Path) -> None:
    outputs, log = _file_the_issue(action, tmp_path, "comment", open_issue="")
    assert [call.split(" --")[0] for call in log.splitlines()] == ["issue list"]
    assert outputs["issue-action"] == "none"
