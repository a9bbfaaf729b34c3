"""The modules' regexes are compiled on first use (model/lazyre.py): before it nothing is compiled,
after it every call is the compiled pattern's own method, and a pattern still pickles as its source."""

from __future__ import annotations

import pickle
import re

from pdlogdoctor.model.lazyre import lazy_re


def test_a_pattern_compiles_on_its_first_use_and_answers_as_re_does() -> None:
    pattern = lazy_re(r"(?P<n>\d+) requests", re.IGNORECASE)
    assert "search" not in vars(pattern)  # nothing compiled at import
    found = pattern.search("served 12 Requests")
    assert found is not None and found.group("n") == "12"
    assert pattern.groupindex == {"n": 1}
    assert pattern.flags & re.IGNORECASE
    assert pattern.sub("N requests", "3 requests, 4 requests") == "N requests, N requests"
    assert pattern.findall("1 requests 2 requests") == ["1", "2"]
    compiled = re.compile(r"(?P<n>\d+) requests", re.IGNORECASE)
    assert vars(pattern)["search"] == compiled.search  # later calls go straight to re's method


def test_a_used_pattern_pickles_as_its_source() -> None:
    pattern = lazy_re(r"ab+c")
    assert pattern.fullmatch("abbbc")
    again = pickle.loads(pickle.dumps(pattern))
    assert again.pattern == "ab+c" and "search" not in vars(again)
    assert again.match("abc") is not None
