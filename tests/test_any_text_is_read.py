"""Any text with an error-level line gets a report that quotes it (issue 22.1): whatever its shape
(a one-line paste, a line among others, behind a collector's prefix, indented as a pasted block),
whatever the file is called, however long. "Error-level" by its words or by its source: the error
layer's own examples (severity.toml's markers, the error-level samples of the line formats), real
lines each."""

from __future__ import annotations

from functools import cache
from pathlib import Path

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


@cache
def error_lines() -> tuple[str, ...]:
    """Real lines the error layer calls errors or worse (the ones a marker decides alone)."""
    library = _library()
    layer = library.errors
    assert layer is not None
    candidates = [line for marker in layer.markers if marker.level in ("error", "critical") for line in marker.match]
    candidates += [s.line for f in library.formats.formats for s in f.samples if s.level in ("error", "critical")]
    return tuple(sorted({line for line in candidates if "\n" not in line and _an_error(line)}))


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


def shaped(line: str, shape: str) -> str:
    return {"as is": line, "compose": f"decode-1  | {line}", "indented": f"    {line}"}[shape]


def test_the_pools_hold_real_lines_of_many_components() -> None:
    assert len(error_lines()) >= 30 and len(quiet_lines()) >= 8


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    data=st.data(),
    name=st.sampled_from(NAMES),
    shape=st.sampled_from(("as is", "compose", "indented")),
)
def test_any_text_with_an_error_line_gets_a_report_that_quotes_it(
    tmp_path_factory: object, data: st.DataObject, name: str, shape: str
) -> None:
    line = data.draw(st.sampled_from(error_lines()), label="error line")
    before = data.draw(st.lists(st.sampled_from(quiet_lines()), max_size=6), label="before")
    after = data.draw(st.lists(st.sampled_from(quiet_lines()), max_size=6), label="after")
    directory = tmp_path_factory.mktemp("paste")  # type: ignore[attr-defined]
    path = Path(directory) / name
    path.write_text("\n".join(shaped(text, shape) for text in (*before, line, *after)) + "\n")
    report = run([str(path)], _library())
    assert int(exit_code_for(report)) != 4, "read, not refused"
    expected = clean_line(shaped(line, shape))[0]
    assert any(expected.strip() in text or text.strip() in expected for text in quoted(report)), (
        f"{line!r} not quoted; verdict {report.verdict.id}"
    )


def test_a_single_line_of_each_kind_is_quoted(tmp_path: Path) -> None:
    """The property's floor, on every line of the pool: each alone, as a one-line paste."""
    missed = []
    for number, line in enumerate(error_lines()):
        path = tmp_path / f"paste-{number}.txt"
        path.write_text(line + "\n")
        report = run([str(path)], _library())
        expected = clean_line(line)[0].strip()
        if int(exit_code_for(report)) == 4 or not any(expected in text for text in quoted(report)):
            missed.append(f"{line} -> {report.verdict.id}")
    assert not missed, "\n".join(missed)
