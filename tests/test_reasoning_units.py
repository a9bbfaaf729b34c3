"""link, diagnose and roles on hand-built events: each rule seen on its own, without a bundle.

The library here is a small one made for the test (a cause, a mechanism and two symptoms with
their verdicts), so a change to the shipped patterns cannot make these pass or fail.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from pdlogdoctor.library.patterns import Library, VerdictSpec, parse_pattern, validate_library
from pdlogdoctor.model import Event, InputProblem, Kind, Role, Severity, Source, Tier
from pdlogdoctor.reason.diagnose import diagnose
from pdlogdoctor.reason.link import downstream, link, upstream_of
from pdlogdoctor.scan.roles import detect_role, role_from_text_markers, with_source_role

T0 = 1_782_987_363.0  # 2026-07-02 10:16:03 UTC


def pattern(pattern_id: str, kind: str, severity: str = "error", **extra: Any) -> dict[str, Any]:
    return {
        "id": pattern_id,
        "title": pattern_id.replace("-", " "),
        "severity": severity,
        "kind": kind,
        "anchors": [pattern_id.upper()],
        "regex": pattern_id.upper() + r"(?: room=(?P<bootstrap_room>\d+))?",
        "explain": "test pattern",
        "examples": {"match": [pattern_id.upper()], "no_match": ["nothing"]},
        **extra,
    }


def spec(verdict_id: str, tier: str) -> VerdictSpec:
    return VerdictSpec(verdict_id, verdict_id, Tier(tier), "x", "y", None)


def small_library() -> Library:
    raw = [
        pattern(
            "nic-broke",
            "cause",
            verdict="link-down",
            identity=[],
            causes=[{"pattern": "transfer-failed", "window": "5m", "join": ["bootstrap_room"]}],
        ),
        pattern(
            "transfer-failed", "symptom", verdict="transfer-failure", identity=[], causes=[{"pattern": "http-500"}]
        ),
        pattern("http-500", "symptom"),
        pattern("gpu-died", "cause", verdict="gpu-failure", identity=[]),
        # A second cause whose consequences are nic-broke's too: whichever comes first explains the other's.
        pattern("psu-died", "cause", verdict="power-failure", identity=[], causes=[{"pattern": "transfer-failed"}]),
        pattern("server-up", "context", severity="info", marks=["server-up"]),
        pattern("probe-passed", "context", severity="info", marks=["end-to-end"]),
        pattern("queue-warning", "symptom", severity="warning"),
    ]
    patterns = tuple(parse_pattern(data, f"{data['id']}.toml", data["id"], "test") for data in raw)
    verdicts = (
        spec("link-down", "cause"),
        spec("transfer-failure", "symptom"),
        spec("gpu-failure", "cause"),
        spec("power-failure", "cause"),
        spec("healthy", "meta"),
        spec("inconclusive", "meta"),
    )
    library = Library(patterns, verdicts)
    validate_library(library)
    return library


LIBRARY = small_library()


def event(pattern_id: str, second: float | None, source: str = "decode.log", line: int = 1, **fields: Any) -> Event:
    spec_ = LIBRARY.pattern(pattern_id)
    return Event(
        pattern=pattern_id,
        source=source,
        line=line,
        time=None if second is None else T0 + second,
        time_text=None,
        text=pattern_id.upper(),
        fields=tuple(fields.items()),
        severity=spec_.severity,
        kind=spec_.kind,
        failing=spec_.kind is not Kind.CONTEXT,
        role=Role.DECODE,
    )


def sources(*names: str) -> tuple[Source, ...]:
    return tuple(Source(name, Role.DECODE, "test", 10, 100) for name in names)


# ---------------------------------------------------------------- link


def edges(*events: Event) -> set[tuple[str, str]]:
    return {(x.cause.pattern, x.effect.pattern) for x in link(events, LIBRARY, {})}


def test_an_effect_inside_the_window_is_linked_and_one_outside_is_not() -> None:
    cause = event("nic-broke", 0, bootstrap_room=7)
    assert edges(cause, event("transfer-failed", 120, bootstrap_room=7)) == {("nic-broke", "transfer-failed")}
    assert edges(cause, event("transfer-failed", 301, bootstrap_room=7)) == set()  # window 5m


def test_skew_lets_an_effect_stamped_slightly_before_its_cause_link() -> None:
    cause = event("nic-broke", 0, bootstrap_room=7)
    assert edges(cause, event("transfer-failed", -9, bootstrap_room=7))  # default skew 10 s
    assert not edges(cause, event("transfer-failed", -11, bootstrap_room=7))


def test_join_keys_must_agree_when_both_sides_carry_them() -> None:
    cause = event("nic-broke", 0, bootstrap_room=7)
    assert not edges(cause, event("transfer-failed", 5, bootstrap_room=8))
    # A key one side does not print does not block the edge: logs rarely print every id.
    assert edges(cause, event("transfer-failed", 5))


def test_untimed_events_link_only_forward_within_one_file() -> None:
    cause = event("nic-broke", None, line=10)
    assert edges(cause, event("transfer-failed", None, line=11))
    assert not edges(cause, event("transfer-failed", None, line=9))


def test_downstream_and_upstream_follow_the_edges() -> None:
    cause, effect, answer = event("nic-broke", 0), event("transfer-failed", 1), event("http-500", 2)
    links = link((cause, effect, answer), LIBRARY, {})
    assert [e.pattern for e in downstream([cause], links)] == ["nic-broke", "transfer-failed", "http-500"]
    parents = upstream_of(links)
    assert [e.pattern for e in parents[id(answer)]] == ["transfer-failed"]


# ---------------------------------------------------------------- diagnose


def diagnosed(*events: Event, inputs: tuple[Source, ...] | None = None) -> Any:
    ordered = sorted(events, key=lambda e: (e.time or 0.0, e.line))
    return diagnose(ordered, link(ordered, LIBRARY, {}), inputs or sources("decode.log"), LIBRARY)


def test_the_upstream_cause_wins_and_its_consequence_is_an_alternative() -> None:
    report = diagnosed(event("nic-broke", 0), event("transfer-failed", 1), event("http-500", 2))
    assert report.verdict.id == "link-down"
    assert [e.pattern for e in report.chain] == ["nic-broke", "transfer-failed", "http-500"]
    consequence = {a.id: a for a in report.alternatives}["transfer-failure"]
    # in words, not ids
    assert consequence.confidence == 0.05 and "follows from 'nic broke' at decode.log:" in consequence.why_not


def test_a_cause_tier_outranks_a_symptom_repeated_many_times() -> None:
    """Unlinked rivals: the deeper tier wins, never the number of lines."""
    noisy = [event("transfer-failed", n, source="other.log", line=n + 1) for n in range(50)]
    report = diagnosed(event("nic-broke", 600, source="prefill.log"), *noisy)
    assert report.verdict.id == "link-down"
    rival = {a.id: a for a in report.alternatives}["transfer-failure"]
    assert rival.confidence < report.verdict.confidence


def test_an_unlinked_rival_of_the_same_tier_costs_confidence_and_the_earlier_start_wins() -> None:
    alone = diagnosed(event("nic-broke", 0))
    rivals = diagnosed(event("gpu-died", 900, source="prefill.log"), event("nic-broke", 0))
    assert rivals.verdict.id == "link-down"  # same tier, same chain length, same severity: earlier start
    assert rivals.verdict.confidence < alone.verdict.confidence
    rival = {a.id: a for a in rivals.alternatives}["gpu-failure"]
    assert rival.confidence < rivals.verdict.confidence and "explains less" in rival.why_not


def rival_pair(
    nic_at: float, psu_at: float, psu_source: str = "prefill.log", psu_latest: float | None = None, **slack: float
) -> Any:
    """A NIC failure on decode and a power failure on prefill, then the transfer failure and the
    500 both explain: one incident, two causes of one tier, nothing linking the two. The NIC line
    is critical, so without the time order it would rank first. `psu_latest`: the power line has
    no time of its own, only the stamped lines around it (psu_at before it, psu_latest after)."""
    then = max(nic_at, psu_at, psu_latest or psu_at)
    psu = event("psu-died", psu_at, source=psu_source)
    if psu_latest is not None:
        psu = replace(psu, time_inferred=True, time_latest=T0 + psu_latest)
    timed = [
        replace(event("nic-broke", nic_at), severity=Severity.CRITICAL),
        psu,
        event("transfer-failed", then + 1),
        event("http-500", then + 2),
    ]
    events = [replace(e, line=n) for n, e in enumerate(sorted(timed, key=lambda e: e.time or 0.0), start=1)]
    files = {"decode.log", psu_source}
    slack_by_file = {name.replace("_", "."): seconds for name, seconds in slack.items()}
    return diagnose(events, link(events, LIBRARY, {}), sources(*files), LIBRARY, slack_by_file)


def confidences(report: Any) -> tuple[str, float, float]:
    (rival,) = [a for a in report.alternatives if a.id in ("link-down", "power-failure")]
    return report.verdict.id, report.verdict.confidence, rival.confidence


def test_the_rival_that_comes_first_and_explains_the_later_wins_either_way_round() -> None:
    """Order pair: the same two failures 40 s apart, swapped. The first one wins each time (the power
    failure over the more severe NIC line), with the same confidence, and says why in time terms."""
    nic_first, psu_first = rival_pair(nic_at=0, psu_at=40), rival_pair(nic_at=40, psu_at=0)
    assert confidences(nic_first) == ("link-down", 0.64, 0.3)
    assert confidences(psu_first) == ("power-failure", 0.64, 0.3)
    (why,) = [a.why_not for a in psu_first.alternatives if a.id == "link-down"]
    assert why.startswith("power-failure at 10:16:03 precedes link-down by 40 s and explains its other failing lines")


def test_the_time_order_margin_sets_the_gap_between_rivals() -> None:
    """Gap pair: the same order, 2 s apart (closer than two files' clocks agree: a near tie) and
    40 s apart (clearly first): the verdict gains what the rival loses."""
    near, clear = rival_pair(nic_at=0, psu_at=2), rival_pair(nic_at=0, psu_at=40)
    assert confidences(near) == ("link-down", 0.52, 0.47)
    assert confidences(clear) == ("link-down", 0.64, 0.3)
    (why,) = [a.why_not for a in near.alternatives if a.id == "power-failure"]
    assert "2 s apart, closer than the clocks can tell (5 s): their order is not known" in why
    # In one file the line order is the order: 2 s is enough.
    assert confidences(rival_pair(nic_at=0, psu_at=2, psu_source="decode.log"))[1] > near.verdict.confidence
    # A file whose clock could not be aligned blurs even 40 s: a near tie again.
    assert confidences(rival_pair(nic_at=0, psu_at=40, prefill_log=60.0)) == ("link-down", 0.52, 0.47)


def test_a_line_without_its_own_time_is_ordered_by_its_whole_span_across_files() -> None:
    """The power line sits between stamped lines at 0 s and 60 s of its file; the NIC line, in
    another file, is at 40 s. Its earliest time is 40 s before the NIC's, but it may as well be
    20 s after it: the order is not known (a near tie), never 'power-failure precedes by 40 s'.
    With the span ending before the NIC line (0 s to 30 s), it comes first by at least 10 s."""
    blurred = rival_pair(nic_at=40, psu_at=0, psu_latest=60)
    assert confidences(blurred) == ("link-down", 0.52, 0.47)
    (why,) = [a.why_not for a in blurred.alternatives if a.id == "power-failure"]
    assert "their order is not known" in why and "precedes" not in why
    clear = rival_pair(nic_at=40, psu_at=0, psu_latest=30)
    assert clear.verdict.id == "power-failure"
    (why,) = [a.why_not for a in clear.alternatives if a.id == "link-down"]
    assert "precedes link-down by at least 10 s" in why


def test_a_later_rival_that_explains_nothing_of_the_first_costs_less() -> None:
    """A rival that comes 15 min later and explains none of the verdict's lines: order without explanation."""
    alone = diagnosed(event("nic-broke", 0))
    rivals = diagnosed(event("gpu-died", 900, source="prefill.log"), event("nic-broke", 0))
    rival = {a.id: a for a in rivals.alternatives}["gpu-failure"]
    assert "link-down at 10:16:03 precedes gpu-failure by 15 min but does not explain its lines" in rival.why_not
    assert alone.verdict.confidence - 0.15 < rivals.verdict.confidence < alone.verdict.confidence


def test_a_symptom_verdict_alone_is_less_confident_than_a_cause() -> None:
    assert (
        diagnosed(event("transfer-failed", 0)).verdict.confidence < diagnosed(event("nic-broke", 0)).verdict.confidence
    )


def test_no_verdict_and_nothing_serving_is_inconclusive() -> None:
    report = diagnosed(event("http-500", 0))
    assert report.verdict.id == "inconclusive" and report.verdict.confidence == 0.0
    assert [e.pattern for e in report.chain] == ["http-500"]


def test_serving_proof_without_failures_is_healthy() -> None:
    report = diagnosed(event("server-up", 0), event("probe-passed", 5))
    assert report.verdict.id == "healthy"
    assert "no end-to-end result" not in " ".join(report.missing)


def test_servers_up_without_an_end_to_end_result_is_a_weaker_healthy() -> None:
    report = diagnosed(event("server-up", 0))
    assert report.verdict.id == "healthy" and report.verdict.confidence <= 0.6
    assert any("end-to-end" in item for item in report.missing)


def test_warnings_while_the_end_to_end_check_passes_are_tolerated() -> None:
    report = diagnosed(event("server-up", 0), event("queue-warning", 3), event("probe-passed", 5))
    assert report.verdict.id == "healthy" and "warning-level" in report.verdict.summary


def test_healthy_with_an_unread_input_becomes_inconclusive() -> None:
    broken = replace(sources("prefill.log")[0], problems=(InputProblem("truncated", "cut short"),))
    report = diagnosed(event("server-up", 0), event("probe-passed", 5), inputs=(*sources("decode.log"), broken))
    assert report.verdict.id == "inconclusive" and report.incomplete
    assert any("prefill.log [truncated]" in note for note in report.notes)


def test_an_empty_file_does_not_make_the_evidence_incomplete() -> None:
    empty = replace(sources("router.log")[0], problems=(InputProblem("empty", "no bytes"),))
    report = diagnosed(event("server-up", 0), event("probe-passed", 5), inputs=(*sources("decode.log"), empty))
    assert report.verdict.id == "healthy" and not report.incomplete


# ---------------------------------------------------------------- roles


@pytest.mark.parametrize(
    ("name", "head", "role"),
    [
        ("logs/prefill_node1.log", "", Role.PREFILL),
        (
            "x.log",
            "[2026-07-02 10:00:00] server_args=ServerArgs(disaggregation_mode='decode')",
            Role.DECODE,
        ),
        ("decode.log", "[2026-07-02 10:00:00] server_args=ServerArgs(disaggregation_mode='prefill')", Role.PREFILL),
        ("bench.log", "", Role.HARNESS),
        ("smg.log", "", Role.ROUTER),
        ("notes.log", "nothing that says who wrote it", Role.UNKNOWN),
    ],
    ids=["name", "content", "content-beats-name", "harness-name", "router-name", "unknown"],
)
def test_detect_role_reads_content_first_then_the_name(name: str, head: str, role: Role) -> None:
    found, reason = detect_role(name, head, [])
    assert found is role and reason


@pytest.mark.parametrize(
    "head",
    [
        "[probe] request failed -- PD path not serving; aborting before sweep\n",
        "2026-07-02T10:16:03.4120000Z [gsm8k] Accuracy: 0.000\n",  # behind the Actions runner's stamp
    ],
    ids=["bare", "actions-stamp"],
)
def test_a_line_format_that_names_its_role_tells_the_file_s_role(head: str) -> None:
    """The harness's `[probe]`/`[gsm8k]` tags are its line format (patterns/formats/harness.toml,
    `role = "harness"`): a file of them is the harness's whatever its name."""
    found, reason = detect_role("out-17.txt", "some output of its own\n" + head, [])
    assert found is Role.HARNESS and "nightly harness" in reason


def test_the_router_s_format_tells_its_role_only_on_its_own_modules_lines() -> None:
    """The router's line format is Dynamo's too (Rust tracing): `role_when` in router.toml keeps
    the role to lines that name the router's modules; Dynamo's runtime lines tell no role."""
    router = (
        "2025-11-04 10:05:37  INFO sglang_router_rs::server: src/server.rs:928: Initializing data connector: Memory\n"
    )
    dynamo = (
        "2025-07-30T07:29:33.188Z ERROR dynamo_runtime::pipeline::network::tcp::client: failed to join writer task\n"
    )
    assert detect_role("out-3.txt", router, [])[0] is Role.ROUTER
    assert detect_role("out-3.txt", dynamo, [])[0] is Role.UNKNOWN


def test_a_line_quoting_the_tag_is_not_the_harness_s() -> None:
    """The look-alike: a script that echoes the tag is not a line of the harness's format."""
    found, _ = detect_role("out-17.txt", 'echo "[probe] request failed -- PD path not serving"\n', [])
    assert found is Role.UNKNOWN


def test_a_job_log_is_ci_whatever_its_name() -> None:
    head = "2026-07-02T10:00:00.1234567Z ##[group]Run launch\n2026-07-02T10:00:01.0000000Z Current runner version\n"
    assert detect_role("prefill-decode.txt", head, [])[0] is Role.CI


def test_an_event_takes_its_file_role_unless_its_line_says_more() -> None:
    server_line = replace(event("http-500", 0), role=Role.SERVER)
    assert with_source_role(server_line, Role.PREFILL).role is Role.PREFILL
    plain = replace(event("http-500", 0), role=Role.UNKNOWN)
    assert with_source_role(plain, Role.ROUTER).role is Role.ROUTER
    routed = replace(plain, role=Role.ROUTER)
    assert with_source_role(routed, Role.DECODE).role is Role.ROUTER  # the pattern's own role stands
    # In a job log holding every component, a line's own side-specific phrase decides.
    marked = replace(plain, text="[2026-07-02 10:16:03 TP0] Decode transfer failed for request rank=0")
    assert role_from_text_markers(marked.text) is Role.DECODE
    assert with_source_role(marked, Role.CI).role is Role.DECODE
    assert with_source_role(plain, Role.CI).role is Role.CI
