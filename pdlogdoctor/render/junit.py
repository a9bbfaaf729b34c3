"""JUnit XML: the diagnosis as a test result, for CI systems that show JUnit reports (GitLab's
`artifacts:reports:junit`, Jenkins, Buildkite, CircleCI, Azure Pipelines).

One test case, `diagnosis`: passed when the run is healthy, skipped when nothing failed but
nothing shows serving either, failed otherwise (the verdict id is the failure's `type`, its
summary the `message`, the chain, fix and confidence the body). Each separate incident is a
failed case of its own. The file is meant to be uploaded, so it is redacted unless told not
to be, as the markdown body is; the fingerprint comes from the report as read.

XML 1.0 cannot carry most control characters at all, even escaped: the outbound pass has
already made every control visible (`\\x1b`), and the two non-characters it leaves are
replaced here, so any log line yields a well-formed file.
"""

from __future__ import annotations

from typing import TextIO
from xml.sax.saxutils import escape, quoteattr

from ..model import Event, Finding, Report, Verdict
from ..model.lazyre import lazy_re
from ..model.verdicts import HEALTHY, NO_FAILURE_SEEN
from .document import incomplete_reason
from .fixes import confidence_words, fixes, verify_first
from .markdown import shareable_view
from .options import RenderOptions

SUITE = "pdlogdoctor"
CHAIN_ROWS = 50  # a CI page shows the body in a box: the rest is in the other formats
_NOT_XML = lazy_re("[\ufffe\uffff]")


def render(report: Report, out: TextIO, options: RenderOptions) -> None:
    out.write(junit_report(report, options))


def junit_report(report: Report, options: RenderOptions) -> str:
    view = shareable_view(report, options)
    shown = view.report
    cases = [_diagnosis_case(shown), *(_incident_case(finding) for finding in shown.other_incidents)]
    verdict = shown.verdict.id
    skipped = 1 if verdict == NO_FAILURE_SEEN else 0
    failures = len(cases) - (1 if verdict in (HEALTHY, NO_FAILURE_SEEN) else 0)  # each incident fails
    counts = f'tests="{len(cases)}" failures="{failures}" errors="0" skipped="{skipped}"'
    properties = [
        ("verdict", shown.verdict.id),
        ("confidence", f"{shown.verdict.confidence:.2f}"),
        ("fingerprint", view.fingerprint),
    ]
    lines = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        f"<testsuites name={_attr(SUITE)} {counts}>",
        f"  <testsuite name={_attr(SUITE)} {counts}>",
        "    <properties>",
        *(f"      <property name={_attr(name)} value={_attr(value)}/>" for name, value in properties),
        "    </properties>",
        *cases,
        "  </testsuite>",
        "</testsuites>",
    ]
    return "\n".join(lines) + "\n"


def _diagnosis_case(report: Report) -> str:
    verdict = report.verdict
    place = _place(report.chain[0]) if report.chain and verdict.id != HEALTHY else ""
    head = f"    <testcase classname={_attr(SUITE)} name={_attr('diagnosis: ' + verdict.title)}{place}>"
    if verdict.id == HEALTHY:
        return "\n".join([head, f"      <system-out>{_text(_body(report))}</system-out>", "    </testcase>"])
    if verdict.id == NO_FAILURE_SEEN:
        outcome = f"      <skipped message={_attr(verdict.summary)}/>"
        return "\n".join([head, outcome, f"      <system-out>{_text(_body(report))}</system-out>", "    </testcase>"])
    failure = _failure(verdict, _body(report))
    return "\n".join([head, failure, "    </testcase>"])


def _incident_case(finding: Finding) -> str:
    place = _place(finding.chain[0]) if finding.chain else ""
    name = f"other incident: {finding.verdict.title}"
    body = "\n".join([finding.verdict.summary, finding.why_separate, "", *_chain_lines(finding.chain)])
    return "\n".join(
        [
            f"    <testcase classname={_attr(SUITE + '.incident')} name={_attr(name)}{place}>",
            _failure(finding.verdict, body),
            "    </testcase>",
        ]
    )


def _failure(verdict: Verdict, body: str) -> str:
    return f"      <failure type={_attr(verdict.id)} message={_attr(verdict.summary)}>{_text(body)}</failure>"


def _body(report: Report) -> str:
    """What a reader of the CI page needs without opening the logs: verdict, doubt, fix, chain."""
    lines = [report.verdict.summary, f"{report.verdict.id} · {confidence_words(report)}"]
    if report.incomplete:
        lines.append(f"Evidence incomplete: {incomplete_reason(report)}.")
    doubt = verify_first(report)
    if doubt:
        lines.append(f"Verify first: {doubt}")
    for fix in fixes(report):
        where = f" (on the {fix.applies})" if fix.applies else ""
        lines += [f"Fix: {fix.label}{where}", *(f"    {line}" for line in fix.snippet)]
    if report.chain:
        lines += ["", "Evidence:", *_chain_lines(report.chain)]
    return "\n".join(lines)


def _chain_lines(chain: tuple[Event, ...]) -> list[str]:
    shown = [f"  {event.where}  {event.text}" for event in chain[:CHAIN_ROWS]]
    if len(chain) > CHAIN_ROWS:
        shown.append(f"  ... and {len(chain) - CHAIN_ROWS} more (the other formats show them all)")
    return shown


def _place(event: Event) -> str:
    """JUnit's `file`/`line` attributes (an extension most readers take): the root's log line."""
    return f" file={_attr(event.source)} line={_attr(str(event.line))}"


def _attr(value: str) -> str:
    return quoteattr(_NOT_XML.sub("\ufffd", value), {"\n": "&#10;", "\t": "&#9;"})


def _text(value: str) -> str:
    return escape(_NOT_XML.sub("\ufffd", value))
