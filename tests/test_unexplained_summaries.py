"""What a report says when no pattern names the failure (reason/unexplained.py).

With no pattern to say which line states the cause, the first error line is often a wrapper or a
symptom and the line naming the cause comes a line or two later: the summary quotes the lead and
the next kinds of error after it, in the order they were logged. A traceback Python prints for a
known harmless bug (multiprocessing's resource tracker forgetting a shared-memory segment) is no
failure, its bare header included; any other KeyError stays one.
"""

from __future__ import annotations

from pathlib import Path

from pdlogdoctor.library.patterns import Library

from .conftest import analysed_lines

# NVSHMEM's IBGDA transport failing to set up a queue pair (DeepEP's low-latency test, deepseek-ai/DeepEP
# threads): the first line is the macro's bare `NULL value`, the cause is named two lines later.
NVSHMEM = [
    "/sgl-workspace/nvshmem/src/modules/transport/ibgda/ibgda.cpp:1348: NULL value ",
    "Unable to create ah.",
    "/sgl-workspace/nvshmem/src/modules/transport/ibgda/ibgda.cpp:3025: non-zero status: 7 ",
    "ibgda_rc_init2rtr failed on RC #216.",
]
RESOURCE_TRACKER = [
    "Traceback (most recent call last):",
    '  File "/usr/lib/python3.10/multiprocessing/resource_tracker.py", line 209, in main',
    "    cache[rtype].remove(name)",
    "KeyError: '/psm_10b3d52e'",
]


def test_an_inconclusive_summary_quotes_the_errors_after_its_lead(tmp_path: Path, library: Library) -> None:
    report = analysed_lines(tmp_path, library, NVSHMEM, "paste.txt")
    assert report.verdict.id == "inconclusive"
    lead, _, after = report.verdict.summary.partition(" After it: ")
    assert "ibgda.cpp:1348: NULL value" in lead
    # NVSHMEM's level-less `Unable to create ah.` is an error line of its own (the could-not marker):
    # the next two kinds after the lead are quoted, in the order they were logged.
    assert "paste.txt:2: Unable to create ah." in after
    assert "paste.txt:3:" in after and "non-zero status: 7" in after
    assert ".." not in report.verdict.summary  # the quote's own full stop ends the sentence


def test_a_lone_error_has_nothing_after_it(tmp_path: Path, library: Library) -> None:
    report = analysed_lines(tmp_path, library, ["ibgda_rc_init2rtr failed on RC #216."], "paste.txt")
    assert report.verdict.id == "inconclusive" and "After it" not in report.verdict.summary


def test_the_resource_trackers_keyerror_is_no_failure(tmp_path: Path, library: Library) -> None:
    report = analysed_lines(tmp_path, library, RESOURCE_TRACKER * 3, "paste.txt")
    assert report.verdict.id == "no-failure-seen"
    assert not [t for t in report.unrecognised if t.severity.rank >= 3]


def test_another_keyerror_stays_a_failure(tmp_path: Path, library: Library) -> None:
    other = [*RESOURCE_TRACKER[:3], "KeyError: 'model.layers.0.attention.wqkv.qweight'"]
    report = analysed_lines(tmp_path, library, other, "paste.txt")
    assert report.verdict.id == "inconclusive"
    assert "KeyError: 'model.layers.0.attention.wqkv.qweight'" in report.verdict.summary


# ---------------------------------------------------------------- a failed gate a config difference explains

KV_DTYPE = Path(__file__).parent / "data" / "blind-round14-bundles-a" / "04-nixl-kv-dtype-differs-gsm8k-collapse"


def test_a_failed_accuracy_gate_with_prefill_and_decode_kv_dtypes_apart_is_a_mismatch(library: Library) -> None:
    from pdlogdoctor.pipeline import run

    report = run([str(KV_DTYPE)], library)
    assert report.verdict.id == "config-mismatch"
    facts = dict(report.verdict.facts)
    assert (facts["prefill_kv_cache_dtype"], facts["decode_kv_cache_dtype"]) == ("fp8_e4m3", "auto")


def test_the_same_gate_with_the_same_kv_dtypes_is_no_mismatch(tmp_path: Path, library: Library) -> None:
    """Without the dtype difference nothing names a mismatch. What is left is what the client saw:
    90% of the GSM8K answers hold no number (`Invalid: 0.903`), garbage output, the gate below it."""
    from pdlogdoctor.pipeline import run

    for log in KV_DTYPE.iterdir():
        if log.suffix == ".log":
            (tmp_path / log.name).write_text(
                log.read_text().replace("kv_cache_dtype='fp8_e4m3'", "kv_cache_dtype='auto'")
            )
    report = run([str(tmp_path)], library)
    assert report.verdict.id == "output-corruption"
    assert "90% of the GSM8K answers hold no number" in report.verdict.summary
    assert "config-mismatch" not in {a.id for a in report.alternatives if a.confidence > 0.2}
