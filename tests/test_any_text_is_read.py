"""Any text with an error-level line gets a report that quotes it (issue 22.1): whatever its shape
(a one-line paste, a line among others, behind a launcher's or collector's tag, inside a collector's
JSON record, indented as a pasted block), whatever the file is called, however long; and such a text
is never `healthy` or `no-failure-seen` (it exits neither 0 nor 4).

"Error-level" is decided here, not by the code under test: by the level the data gives a line (an
error-level sample of patterns/formats/, an example of sources.toml: severity by source), by the
error markers' own examples, and by the error word of a line people pasted into a public thread
(tests/data/pasted/error-lines.toml: ERROR, FATAL, CRITICAL, Exception, Traceback, glog's `E`, `[E]`,
panic, `error:`). No line is left out of the pool because the layer fails to read it.
"""

from __future__ import annotations

import json
import tomllib
from functools import cache
from pathlib import Path

import pytest
import regex
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pdlogdoctor.cli.behaviour import exit_code_for
from pdlogdoctor.library.load import load_library
from pdlogdoctor.library.patterns import Library
from pdlogdoctor.model import Report, Severity
from pdlogdoctor.pipeline import run
from pdlogdoctor.scan.timeline import clean_line

NAMES = ("paste.txt", "issue.md", "output", "decode.log", "server.out", "notes.txt")


@cache
def _library() -> Library:
    return load_library()


PASTED = Path(__file__).parent / "data" / "pasted" / "error-lines.toml"
SOURCES = Path(__file__).resolve().parent.parent / "patterns" / "open-world" / "sources.toml"
# The brief's words for an error-level line, each of which the pasted pool must hold.
WORDS = {
    "ERROR": r"\bERROR\b",
    "FATAL": r"(?i)\bfatal\b",
    "CRITICAL": r"(?i)\bcritical\b",
    "Exception": r"Exception\b|Error:",
    "Traceback": r"^Traceback \(most recent call last\):$",
    "E": r"^E\d{4} ",
    "[E]": r"\[E\]",
    "panic": r"\bpanic(?:ked)?\b",
    "error:": r"\berror:",
}


@cache
def pasted() -> tuple[dict[str, str], ...]:
    return tuple(tomllib.loads(PASTED.read_text())["line"])


@cache
def error_lines() -> tuple[str, ...]:
    """Real lines that are error-level by what the data says of them (a format's level, a source's
    level, an error marker's example) or by their error word (pasted lines): none is left out
    because the layer under test does not read it."""
    library = _library()
    layer = library.errors
    assert layer is not None
    candidates = [line for marker in layer.markers if marker.level in ("error", "critical") for line in marker.match]
    candidates += [s.line for f in library.formats.formats for s in f.samples if s.level in ("error", "critical")]
    sources = tomllib.loads(SOURCES.read_text())["source"]
    candidates += [line for source in sources for line in source["examples"]["match"]]
    candidates += [entry["text"] for entry in pasted()]
    return tuple(sorted({line for line in candidates if "\n" not in line}))


@cache
def quiet_lines() -> tuple[str, ...]:
    """Real lines of a lower level: the noise around an error."""
    library = _library()
    lines = [s.line for f in library.formats.formats for s in f.samples if s.level in ("info", "debug")]
    return tuple(sorted({line for line in lines if not _an_error(line) and not _named(line)}))


def _an_error(line: str) -> bool:
    layer = _library().errors
    assert layer is not None
    hit = layer.classify(clean_line(line)[0])
    return hit is not None and hit.severity.rank >= Severity.ERROR.rank


def _named(line: str) -> bool:
    from pdlogdoctor.library.patterns import match_line

    return any(match_line(pattern, line) is not None for pattern in _library().patterns)


def quoted(report: Report) -> set[str]:
    events = [
        *report.chain,
        *report.roots,
        *(t.first for t in report.unrecognised),
        *(t.last for t in report.unrecognised),
    ]
    events += [e for finding in report.other_incidents for e in finding.chain]
    return {event.text for event in events}


# What a launcher, a collector or a person's paste puts around a line (formats-round5.md C3, C6;
# patterns/formats/collectors.toml, ray.toml, kernel.toml, pasted.toml): each keeps the line whole.
SHAPES: dict[str, str] = {
    "as is": "{line}",
    "indented": "    {line}",
    "compose": "decode-1  | {line}",
    "kubectl --prefix": "[pod/vllm-decode-0/vllm] {line}",
    "actions": "2024-10-18T23:27:40.6602932Z {line}",
    "containerd": "2016-10-06T00:17:09.669794202Z stderr F {line}",
    "cloud copy": "ERROR 2025-04-05T00:01:19.509514570Z {line}",
    "journald": "Aug 19 18:34:30 vllm vllm[8707]: {line}",
    "grep -n": "decode.log:120:{line}",
    "ray task": "(pid=11362) {line}",
    "ray other node": "(pid=11362, ip=10.0.62.231) {line}",
    "ray actor": "(RayWorkerWrapper pid=438, ip=172.17.0.6) {line}",
    "quoted": "> {line}",
}
RECORDS = ("docker json", "zap json")  # the line inside a collector's or a logger's JSON record


def shaped(line: str, shape: str, padding: int = 0) -> str:
    """`line` as `shape` shows it; `padding` labels make a JSON record as long as a fluent-bit one
    that carries a pod's labels (the line inside stays the same)."""
    if shape == "docker json":
        record: dict[str, object] = {"log": line + "\n", "stream": "stderr", "time": "2020-02-08T14:35:22.50928606Z"}
    elif shape == "zap json":
        record = {"level": "error", "ts": "2024-05-17T20:12:46.493819819Z", "logger": "server", "msg": line}
    else:
        return SHAPES[shape].format(line=line)
    if padding:
        record["kubernetes"] = {"labels": {f"example.com/label-{n}": "x" * 40 for n in range(padding)}}
    return json.dumps(record)


def test_the_pools_hold_real_lines_of_many_components() -> None:
    assert len(error_lines()) >= 100 and len(quiet_lines()) >= 8
    for word, oracle in WORDS.items():
        assert any(regex.search(oracle, entry["text"]) for entry in pasted() if entry["word"] == word), word


def expected_quote(line: str, shape: str) -> str:
    """What a report quoting the line shows of it: the line without the tag before it."""
    if shape in RECORDS:
        return clean_line(line)[0].strip()
    return clean_line(shaped(line, shape))[0].strip()


def assert_read(report: Report, line: str, shape: str) -> None:
    exit_code = int(exit_code_for(report))
    assert exit_code not in (0, 4), f"exit {exit_code}: {report.verdict.id}"
    assert report.verdict.id not in ("healthy", "no-failure-seen"), report.verdict.id
    expected = expected_quote(line, shape)
    texts = [text.strip() for text in quoted(report) if text.strip()]
    assert any(expected in text or text in expected for text in texts), (
        f"{line!r} not quoted; verdict {report.verdict.id}; quoted {texts[:5]}"
    )


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    data=st.data(),
    name=st.sampled_from(NAMES),
    shape=st.sampled_from((*SHAPES, *RECORDS)),
    padding=st.sampled_from((0, 0, 0, 400)),
)
def test_any_text_with_an_error_line_gets_a_report_that_quotes_it(
    tmp_path_factory: object, data: st.DataObject, name: str, shape: str, padding: int
) -> None:
    """Seen failing before this round's fixes on: a bare `Traceback (most recent call last):`,
    Rust's `thread '...' panicked at`, anything behind Ray's unnamed `(pid=N, ip=A)` tag or a
    quoted paste's `> `, a glog or exception line behind journald's prefix, and a zap record's
    `msg` at level error (all `no-failure-seen`, the line unquoted)."""
    line = data.draw(st.sampled_from(error_lines()), label="error line")
    before = data.draw(st.lists(st.sampled_from(quiet_lines()), max_size=6), label="before")
    after = data.draw(st.lists(st.sampled_from(quiet_lines()), max_size=6), label="after")
    directory = tmp_path_factory.mktemp("paste")  # type: ignore[attr-defined]
    path = Path(directory) / name
    rows = (
        [shaped(text, shape) for text in before]
        + [shaped(line, shape, padding)]
        + [shaped(text, shape) for text in after]
    )
    path.write_text("\n".join(rows) + "\n")
    assert_read(run([str(path)], _library()), line, shape)


@pytest.mark.parametrize("shape", [*SHAPES, *RECORDS])
def test_a_single_line_of_each_kind_is_quoted_in_every_shape(tmp_path: Path, shape: str) -> None:
    """The property's floor, on every line of the pool: each alone, as a one-line paste."""
    missed = []
    for number, line in enumerate(error_lines()):
        path = tmp_path / f"paste-{number}.txt"
        path.write_text(shaped(line, shape) + "\n")
        try:
            assert_read(run([str(path)], _library()), line, shape)
        except AssertionError as failure:
            missed.append(f"{line}: {failure}")
    assert not missed, "\n".join(missed)


# vllm-project/vllm-ascend (round 46 excerpts-a 06): vLLM repeats its prefix on every line of a
# multi-line error, the blank separators too.
BLANK_RECORD = "(EngineCore_DP0 pid=357) ERROR 01-06 17:54:58 [model_runner_v1.py:3016] "
STATED = "(EngineCore_DP0 pid=357) ERROR 01-06 17:54:58 [model_runner_v1.py:3016] [Error]: Failed to apply for memory."


def test_a_prefix_with_nothing_after_it_states_no_error(library: Library) -> None:
    assert library.errors is not None
    assert library.errors.classify(BLANK_RECORD) is None
    hit = library.errors.classify(STATED)
    assert hit is not None and hit.severity is Severity.ERROR
