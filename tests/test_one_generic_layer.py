"""One layer of generic knowledge: error lines no family names are read by the open-world layer
(patterns/open-world/severity.toml) alone. The library once had six patterns of its own for them
(patterns/generic/: glog E/F, vLLM ERROR, UCX ERROR, a Python exception's last line, a traceback's
head, glibc's heap abort); each such line is now a template of that layer, with the message a
maintainer reads, and no library pattern claims it."""

from __future__ import annotations

import pytest

from pdlogdoctor.library.patterns import Library, match_line
from pdlogdoctor.model import Severity

# The retired patterns' own real example lines, and the template the layer makes of each.
LINES = [
    (
        "E20260106 06:43:02.966156  5793 ascend_direct_transport.cpp:820] Failed to connect to target: "
        "172.17.0.16:25482, status: 103900",
        "glog-error",
        "Failed to connect to target: <ip>, status: <num>",
    ),
    (
        "(EngineCore_DP0 pid=5704) ERROR 01-06 06:43:02 [mooncake_connector.py:419] Mooncake transfer failed "
        "for request cmpl-118b93ed-a3b2-4d9f-a26d-1d5dce6d7bf2-0",
        "level-error",
        "Mooncake transfer failed for request cmpl-<id><num>",
    ),
    (
        "[1749803291.555759] [vllm-lmcache-zxy-977866c79-jxjnw:7053 :0]          tcp_ep.c:1260 UCX  ERROR tcp_ep "
        "0x3c502370 (state=CONNECTED): send(110) failed: Input/output error",
        "level-error",
        "tcp_ep <hex> (state=CONNECTED): send(<num>) failed: Input/output error",
    ),
    ("KeyError: 'cmpl-37c560d3-5680-4bd1-97f9-7ed31a56de60-0'", "python-exception", "KeyError: <str>"),
    ("corrupted size vs. prev_size", "glibc-abort", "corrupted size vs. prev_size"),
]


@pytest.mark.parametrize("line, marker, template", LINES, ids=[m for _, m, _ in LINES])
def test_the_layer_reads_what_the_retired_patterns_read(
    library: Library, line: str, marker: str, template: str
) -> None:
    assert library.errors is not None
    assert not [p.id for p in library.patterns if match_line(p, line) is not None], "no library pattern claims it"
    hit = library.errors.classify(line)
    assert hit is not None and (hit.marker, hit.template) == (marker, template)
    assert hit.severity.rank >= Severity.ERROR.rank


def test_a_traceback_head_is_no_error_of_its_own(library: Library) -> None:
    """A bare header is a traceback's source line (issue 22: pasted alone, or cut before its
    exception line, it is the only error line there is); a logger's header stays quiet. In a whole
    traceback the header folds into its exception line (tests/test_pasted_shapes.py)."""
    assert library.errors is not None
    hit = library.errors.classify("Traceback (most recent call last):")
    assert hit is not None and hit.marker == "traceback-source"
    assert library.errors.classify("ERROR 499 [ TP4 scheduler.py:2982] Traceback (most recent call last):") is None


def test_no_library_pattern_is_only_a_quote(library: Library) -> None:
    """A library pattern names what its line means; quoting an unnamed error line is the layer's job."""
    assert not [p.id for p in library.patterns if p.group == "generic"]
