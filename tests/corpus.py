"""The corpus: every case (fixture bundles, real excerpts, blind cases) in one expectation format.

A case is a directory of logs with an `expected.toml`:

    description = "what the case is"             # required
    source = "https://github.com/.../issues/1"   # where its lines come from (a thread, a tester's set)
    origin = "blind round 4"                     # optional: how it came to the corpus

    [expected]
    verdict = "mori-mr-size-limit"               # required
    acceptable = ["scheduler-crash"]             # verdicts also right (a cause outside the catalogue)
    exit_code = 1                                # required: the exit code of `verdict`
    must_not_be = ["gpu-oom", "healthy"]         # required: wrong verdicts
    chain = [...]                                # the exact set of patterns the chain shows
    key_lines = [...]                            # the lines a reader must be shown

and, as a case needs them, the checks below (EXPECTED_KEYS). A fixture bundle and a real excerpt
state their `chain` (written knowing the library); a blind case, written without it, its
`key_lines`. The keys are closed: a misspelt one is an error, not a silent pass.
"""

from __future__ import annotations

import functools
import gzip
import io
import re
import tarfile
import tomllib
import zipfile
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from pdlogdoctor.cli.behaviour import ExitCode, exit_code_for
from pdlogdoctor.model import Event, Report
from pdlogdoctor.model.verdicts import HEALTHY, NO_CAUSE
from pdlogdoctor.render import text
from pdlogdoctor.render.document import format_time
from pdlogdoctor.render.markdown import markdown_report
from pdlogdoctor.render.markup import prose
from pdlogdoctor.render.options import RenderOptions

from .conftest import FIXTURES, ROOT

DATA = ROOT / "tests" / "data"
# Every case: a directory with an expected.toml under fixtures/ or tests/data/.
CASES = sorted({path.parent for root in (FIXTURES, DATA) for path in root.rglob("expected.toml")})
FILE_KEYS = {
    "description": "what the case is",
    "source": "where its lines come from: the thread, the tester's set",
    "origin": "how it came to the corpus (metadata)",
    "expected": "what the report must say",
}
# Every key an [expected] table may hold, and what it states.
EXPECTED_KEYS = {
    "verdict": "the verdict id",
    "acceptable": "other verdicts that are right too (a cause outside the catalogue the tester allowed); "
    "one given instead of `verdict` exits as such a verdict does and, with key_lines, its summary names one",
    "exit_code": "the CLI's exit code (of `verdict`)",
    "min_confidence": "the verdict's confidence is at least this",
    "max_confidence": "... and at most this (a guess must stay a guess)",
    "chain": "the exact set of patterns in the chain",
    "chain_extra_ok": "true: `chain` is a subset (for a chain that legitimately varies; say why in a comment)",
    "chain_roles": "roles the chain must show",
    "chain_must_not_have": "patterns that must not be in the chain",
    "must_not_be": "wrong verdicts: not the verdict, and any runner-up among them is a clear one",
    "alternatives": "verdicts that must be listed as alternatives",
    "suggestions": "suggested values (exact, or {value, tolerance})",
    "no_suggestions": "suggestion names that must not be given",
    "facts": "verdict facts (numbers exact, strings as substrings)",
    "summary_contains": "phrases of the verdict's summary",
    "missing_contains": "phrases of the missing-evidence list",
    "time_notes_contain": "phrases of the clock notes",
    "chain_times": "pattern -> UTC time prefix of its first chain event",
    "inferred_times": "pattern -> [earliest, latest] of an untimed event",
    "same_as": "another bundle whose verdict and chain meaning this distorted copy must keep",
    "same_as_ignoring": "patterns left out of that comparison (say why in a comment)",
    "other_incidents": "verdict ids of the separate incidents reported besides the verdict, in order",
    "other_incident_same_as": "the bundle whose verdict and chain meaning the first other incident keeps",
    "alternative_why": "verdict -> phrase its alternative's why-not must hold",
    "key_lines": "parts of log lines the thread or tester pointed at: the report quotes one "
    "(`[]`: the case names none, and none is demanded)",
    "sides_from_files": "true: the verdict rests on which side wrote a line, which one merged stream loses",
}
REQUIRED_KEYS = ("verdict", "exit_code", "must_not_be")
# A must-not-be verdict may be a runner-up, but a clear one: this far below the verdict. One the
# analysis rejected (confidence at most REJECTED, e.g. 0.1 with its reason) is no rival at all.
MUST_NOT_BE_MARGIN = 0.1
REJECTED = 0.2
# A container runtime's wrapper (containerd CRI: RFC 3339 time, stream, partial/full tag), which a
# report may take off a key line it quotes (and then must take off whole).
CRI_WRAPPER = re.compile(r"^\S+ (?:stdout|stderr) [FP] ")
# What a person's paste puts before a line (patterns/formats/pasted.toml): a quote marker, a comment
# marker before a table's row. The report quotes the line the paste holds.
PASTE_MARKER = re.compile(r"^(?:>[ \t])+|^#[ \t]+(?=\|)")


def case_id(case: Path) -> str:
    return str(case.relative_to(ROOT))


def case_report(reports: Mapping[Path, Report], prefix: str) -> Report:
    """The report of the one case whose path (from the repository root) starts with `prefix`
    (found by its path: only its report is read, conftest.Reports)."""
    (case,) = [case for case in reports if case_id(case).startswith(prefix)]
    return reports[case]


def expectation_problems(data: dict[str, Any]) -> list[str]:
    """What is wrong with an expected.toml's shape: unknown or missing keys."""
    problems = [f"unknown top-level key '{key}'" for key in data if key not in FILE_KEYS]
    problems += [] if "description" in data else ["lacks 'description'"]
    expected = data.get("expected", {})
    problems += [f"unknown key '{key}' in [expected]" for key in expected if key not in EXPECTED_KEYS]
    problems += [f"[expected] lacks '{key}'" for key in REQUIRED_KEYS if key not in expected]
    return problems


@functools.cache
def load_expected(case: Path) -> dict[str, Any]:
    """The case's [expected] table, read once per process and shared by every test that reads it
    (the corpus's ~7,000 cases are read by several tests each, and at collection): never changed."""
    data = tomllib.loads((case / "expected.toml").read_text())
    problems = expectation_problems(data)
    assert not problems, f"{case_id(case)}/expected.toml: {'; '.join(problems)} (keys: {sorted(EXPECTED_KEYS)})"
    expected: dict[str, Any] = data["expected"]
    return expected


# ---------------------------------------------------------------- the checks, each a list of problems


def exit_code_of(verdict: str) -> int:
    """The exit code a report with this verdict gives (its inputs read)."""
    if verdict == HEALTHY:
        return int(ExitCode.HEALTHY)
    return int(ExitCode.INCONCLUSIVE if verdict in NO_CAUSE else ExitCode.ROOT_CAUSE)


def verdict_problems(expected: dict[str, Any], report: Report) -> list[str]:
    """The verdict, or an acceptable one (exiting as such and, with key lines, naming one in its
    summary); the exit code; the confidence bounds; and no must-not-be verdict."""
    verdict, code = report.verdict, int(exit_code_for(report))
    problems = must_not_be_problems(expected, report)
    if verdict.id == expected["verdict"]:
        problems += [] if code == expected["exit_code"] else [f"exit code {code}, not {expected['exit_code']}"]
    elif verdict.id in expected.get("acceptable", []):
        problems += [] if code == exit_code_of(verdict.id) else [f"exit code {code} for {verdict.id}"]
        keys = expected.get("key_lines", [])
        if keys and not any(line in verdict.summary for line in keys):
            problems.append(f"the acceptable {verdict.id}'s summary names no key line: {verdict.summary}")
    else:
        problems.append(f"verdict {verdict.id} {verdict.confidence:.2f}, not {expected['verdict']}: {verdict.summary}")
    if verdict.confidence < expected.get("min_confidence", 0.0):
        problems.append(f"confidence {verdict.confidence} below {expected['min_confidence']}")
    if verdict.confidence > expected.get("max_confidence", 1.0):
        problems.append(f"confidence {verdict.confidence} above {expected['max_confidence']}")
    return problems


def must_not_be_problems(expected: dict[str, Any], report: Report) -> list[str]:
    wrong = set(expected["must_not_be"])
    problems = [f"the verdict {report.verdict.id} is one it must not be"] if report.verdict.id in wrong else []
    ceiling = max(report.verdict.confidence - MUST_NOT_BE_MARGIN, REJECTED)
    for alternative in report.alternatives:
        if alternative.id in wrong and alternative.confidence > ceiling + 1e-9:
            problems.append(
                f"{alternative.id} is a close runner-up ({alternative.confidence:.2f} against "
                f"{report.verdict.confidence:.2f}) though it must not be the verdict"
            )
    return problems


def chain_problems(expected: dict[str, Any], report: Report) -> list[str]:
    if "chain" not in expected:
        return []
    stated, shown = set(expected["chain"]), {event.pattern for event in report.chain}
    problems = [f"chain lacks {sorted(stated - shown)}"] if stated - shown else []
    if shown - stated and not expected.get("chain_extra_ok", False):
        problems.append(f"unexpected in the chain: {sorted(shown - stated)}")
    roles = {event.role.value for event in report.chain}
    problems += [f"no {role} line in the chain" for role in expected.get("chain_roles", []) if role not in roles]
    problems += [f"{p} in the chain" for p in expected.get("chain_must_not_have", []) if p in shown]
    return problems


def value_problems(expected: dict[str, Any], report: Report) -> list[str]:
    """Suggestions, facts, the summary's and the missing evidence's phrases, the clock notes."""
    problems = []
    suggested = {s.name: s.value for s in report.suggestions}
    for name, want in expected.get("suggestions", {}).items():
        if name not in suggested:
            problems.append(f"no suggestion {name}; got {suggested}")
        elif isinstance(want, dict):
            if abs(int(suggested[name] or 0) - want["value"]) > want["tolerance"] * want["value"]:
                problems.append(f"{name} = {suggested[name]}, not {want['value']} within {want['tolerance']}")
        elif suggested[name] != want:
            problems.append(f"{name} = {suggested[name]}, not {want}")
    problems += [f"suggests {name}" for name in expected.get("no_suggestions", []) if name in suggested]
    problems += _fact_problems(expected.get("facts", {}), dict(report.verdict.facts))
    problems += [
        f"summary lacks {p!r}" for p in expected.get("summary_contains", []) if p not in report.verdict.summary
    ]
    problems += [
        f"missing evidence lacks {p!r}: {report.missing}"
        for p in expected.get("missing_contains", [])
        if not any(p in item for item in report.missing)
    ]
    problems += [
        f"clock notes lack {p!r}: {report.time_notes}"
        for p in expected.get("time_notes_contain", [])
        if not any(p in note for note in report.time_notes)
    ]
    listed = {alternative.id for alternative in report.alternatives}
    problems += [
        f"{v} not among the alternatives {sorted(listed)}" for v in expected.get("alternatives", []) if v not in listed
    ]
    return problems


def _fact_problems(wanted: dict[str, Any], facts: dict[str, Any]) -> list[str]:
    problems = []
    for name, want in wanted.items():
        if name not in facts:
            problems.append(f"no fact {name}; got {facts}")
        elif isinstance(want, str) and want not in str(facts[name]):
            problems.append(f"fact {name}: {facts[name]!r} lacks {want!r}")
        elif not isinstance(want, str) and facts[name] != want:
            problems.append(f"fact {name}: {facts[name]!r}, not {want!r}")
    return problems


def time_problems(expected: dict[str, Any], report: Report) -> list[str]:
    """Times the chain must show (UTC, reference clock), and untimed lines bounded by their neighbours."""
    problems = []
    firsts = {e.pattern: e for e in reversed(report.chain)}
    for pattern, want in expected.get("chain_times", {}).items():
        if not (format_time(firsts[pattern].time) or "").startswith(want):
            problems.append(f"{pattern} at {format_time(firsts[pattern].time)}, not {want}")
    for pattern, (earliest, latest) in expected.get("inferred_times", {}).items():
        event = firsts[pattern]
        shown = (format_time(event.time) or "", format_time(event.time_latest) or "")
        if not event.time_inferred or not shown[0].startswith(earliest) or not shown[1].startswith(latest):
            problems.append(f"{pattern} between {shown}, not [{earliest}, {latest}]")
    return problems


def quoted_key_lines(expected: dict[str, Any], report: Report) -> list[str]:
    """The key lines the report quotes where a reader looks: the markdown report (unredacted:
    redaction may mask an address inside the line), and, for a case with a chain, the terminal
    report too (log lines unclipped, `--verbose`). A line may be quoted as its message with the
    container runtime's wrapper taken off, never half unwrapped."""
    markdown = markdown_report(report, RenderOptions(redact=False))
    shown = [markdown]
    if "chain" in expected:
        terminal = io.StringIO()
        text.render(report, terminal, RenderOptions(redact=False, verbose=True))
        shown.append(terminal.getvalue())
    return [line for line in expected.get("key_lines", []) if all(_quotes(body, line) for body in shown)]


def _quotes(body: str, line: str) -> bool:
    # A markdown table escapes the pipes of a line it quotes (GFM: even inside a code span); prose
    # escapes what markdown would read as markup (`\\[`, `&lt;`) and renders as the line itself.
    if line in body or line.replace("|", "\\|") in body or prose(line) in body:
        return True
    pasted = PASTE_MARKER.sub("", line)
    if pasted != line and (pasted in body or pasted.replace("|", "\\|") in body):
        return True
    message = CRI_WRAPPER.sub("", line)
    if message == line or message not in body:
        return False
    return re.search(r"(?:stdout|stderr) [FP] " + re.escape(message), body) is None


def case_lines(case: Path) -> list[str]:
    """Every line of the case's logs, archives and gzip files opened (as the tool reads them)."""
    lines: list[str] = []
    for path in sorted(p for p in case.rglob("*") if p.is_file() and p.name != "expected.toml"):
        if tarfile.is_tarfile(path):
            with tarfile.open(path) as archive:
                members = [archive.extractfile(m) for m in archive.getmembers() if m.isfile()]
                lines += [ln for m in members if m for ln in _decoded(m.read()).splitlines()]
        elif zipfile.is_zipfile(path):  # an Actions log archive, as `gh run download` gives it
            with zipfile.ZipFile(path) as archive:
                names = [info.filename for info in archive.infolist() if not info.is_dir()]
                lines += [ln for name in names for ln in _decoded(archive.read(name)).splitlines()]
        else:
            data = path.read_bytes()
            lines += _decoded(gzip.decompress(data) if data[:2] == b"\x1f\x8b" else data).splitlines()
    return lines


def _decoded(data: bytes) -> str:
    return (gzip.decompress(data) if data[:2] == b"\x1f\x8b" else data).decode("utf-8", "replace")


def chain_meaning(chain: tuple[Event, ...], ignored: list[str]) -> set[tuple[str, str]]:
    """What a chain says, whatever the clocks, file names or line numbers: which patterns on which role."""
    return {(e.pattern, e.role.value) for e in chain if e.pattern not in ignored}
