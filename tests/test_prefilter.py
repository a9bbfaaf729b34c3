"""A log shape's regex is skipped, not compiled, on a text without the literals every match holds;
the test never changes an answer (prefilter.py)."""

from __future__ import annotations

import pickle
import re

import pytest
import regex
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pdlogdoctor.library.errorlines import Shape
from pdlogdoctor.library.lazyregex import LazyRegex
from pdlogdoctor.library.patterns import Library
from pdlogdoctor.library.prefilter import PrefilteredRegex, found, holds, needed_literals, prefiltered
from pdlogdoctor.scan.logshape import serving_log_reason


def shapes(library: Library) -> tuple[Shape, ...]:
    assert library.errors is not None and library.errors.shapes
    return library.errors.shapes


def test_every_shipped_shape_carries_literals_its_examples_hold(library: Library) -> None:
    """Each shape without a test is compiled on every file that reaches it: a new shape that needs no
    literal at all (only classes and repeats) makes the start-up of every such file slower."""
    for shape in shapes(library):
        assert isinstance(shape.regex, PrefilteredRegex) and shape.regex.need is not None, shape.id
        assert shape.regex.alike, shape.id  # else every head that reaches it imports regex
        for example in shape.match:
            assert holds(shape.regex.need, example), (shape.id, example)
            assert shape.regex.search(example) is not None, (shape.id, example)


@pytest.mark.parametrize(
    ("source", "flags", "need"),
    [
        (r"^\[(?:probe|gsm8k)\] \S", regex.MULTILINE, ("all", ("[", ("any", ("probe", "gsm8k")), "] "))),
        (r"(?:ab)+c(?:de)?", 0, ("all", ("ab", "c"))),  # an optional part needs nothing
        (r"x|\d+", 0, None),  # one branch needs no literal: neither does the whole
        (r"^\d{4}-\d\d", regex.MULTILINE, "-"),  # a counted repeat is no literal brace
        (r"(?<=\.)Error: ", 0, "Error: "),  # a lookbehind's text is not part of the match
        (r"error: \S", regex.IGNORECASE, None),  # another case would match
        (r"(?i:error): \S", 0, None),
        (r"(?i)error: \S", 0, None),
        (r"(?:error){e<=1}: ", 0, None),  # regex's fuzzy match: literal braces to re
        (r"[[:alpha:]]+: x", 0, None),  # regex's POSIX class: a set and a literal `]` to re
        (r"\p{Lu}\w+Error: ", 0, None),  # regex only: re does not parse it
        (r"(?V1)[[a-z]--[aeiou]]x", 0, None),
        (r"Error: ", regex.ASCII, None),  # regex.ASCII is another flag's value in re
    ],
)
def test_needed_literals(source: str, flags: int, need: object) -> None:
    assert needed_literals(source, flags) == need


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_every_text_a_shape_matches_holds_its_literals(library: Library, data: st.DataObject) -> None:
    """Texts drawn to match each shape (as `re` reads it, so `regex` checks each): the literals are
    in every one that `regex` matches, whatever surrounds the match."""
    shape = data.draw(st.sampled_from(shapes(library)))
    assert isinstance(shape.regex, PrefilteredRegex) and shape.regex.need is not None
    text = data.draw(st.from_regex(re.compile(shape.regex.pattern, re.MULTILINE)))
    plain = regex.compile(shape.regex.pattern, shape.regex.flags)
    if plain.search(text) is not None:
        assert holds(shape.regex.need, text), (shape.id, text)
        assert shape.regex.search(text) is not None


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_each_shape_finds_on_a_head_what_regex_finds(library: Library, data: st.DataObject) -> None:
    """`found` (literals, then `re` on ASCII heads) answers as the shape's own `regex` search does,
    on heads of drawn matches and ASCII noise, any character included."""
    shape = data.draw(st.sampled_from(shapes(library)))
    source = re.compile(shape.regex.pattern, re.MULTILINE)
    ascii_only = st.characters(max_codepoint=0x7F)  # the heads `re` answers for
    drawn = st.one_of(st.from_regex(source, fullmatch=True, alphabet=ascii_only), st.from_regex(source, fullmatch=True))
    noise = st.text(ascii_only, max_size=40)
    lines = data.draw(st.lists(st.one_of(drawn, noise, st.sampled_from(shape.match)), min_size=1, max_size=4))
    head = "\n".join(lines)
    fresh = pickle.loads(pickle.dumps(shape.regex))  # nothing compiled: `found` picks its way
    assert found(fresh, head) == (regex.compile(shape.regex.pattern, shape.regex.flags).search(head) is not None)


@pytest.mark.parametrize("text", ["x\u00b2: y", "caf\u0065\u0301: y", "a\x1cb: y"])
def test_a_head_re_reads_apart_is_searched_with_regex(text: str) -> None:
    """`re` and `regex` differ on these (a superscript digit and a combining accent are `\\w` to one
    only, \x1c is `\\s` to `re` only): such a head is answered by `regex`."""
    shape = prefiltered(LazyRegex(r"^\w+\s?\w*: \S", regex.MULTILINE))
    assert shape.alike
    assert shape.found(text) == (regex.search(r"^\w+\s?\w*: \S", text, regex.MULTILINE) is not None)
    assert shape.found(text) != (re.search(r"^\w+\s?\w*: \S", text, re.MULTILINE) is not None)


def test_the_cache_keeps_the_literals_and_no_compiled_regex(library: Library) -> None:
    shape = shapes(library)[0]
    again = pickle.loads(pickle.dumps(shape.regex))
    assert isinstance(again, PrefilteredRegex)
    assert again.need == needed_literals(shape.regex.pattern, shape.regex.flags) is not None
    assert again._compiled is None and again == shape.regex


def test_a_regex_re_reads_apart_is_searched_with_regex_on_every_head() -> None:
    for source, flags in [(r"\d+", 0), (r"error: \S", regex.IGNORECASE), (r"[[:alpha:]]+: x", 0)]:
        shape = prefiltered(LazyRegex(source, flags))
        assert shape.need is None
        assert shape.alike == (source == r"\d+")  # needs no literal, but re reads it alike
        assert shape.found("ERROR: 42 x") == (regex.search(source, "ERROR: 42 x", flags) is not None)


def test_a_one_line_log_compiles_only_the_shape_it_has(library: Library) -> None:
    """A router line: twelve shapes before its own lack their literals (`[`, `INFO:`, `(`), so the
    first compiled is the router's, which matches, with `re` (an ASCII line)."""
    fresh = pickle.loads(pickle.dumps(library))  # as from the cache: nothing compiled yet
    reason = serving_log_reason("one.log", "2026-07-01 12:00:00 INFO server started\n", fresh.errors)
    assert reason == "a line in the shape of router"
    assert [shape.id for shape in shapes(fresh) if shape.regex._compiled is not None] == []  # regex: none
    tried = [shape.id for shape in shapes(fresh) if isinstance(shape.regex, PrefilteredRegex) and shape.regex._stdlib]
    assert tried == ["router"]  # re: the one whose literals the line holds


def test_without_re_s_parser_every_shape_is_searched_with_regex(monkeypatch: pytest.MonkeyPatch) -> None:
    """A Python whose `re` has no `_parser` module: no literals, no `re` answers, the same results."""
    from pdlogdoctor.library import prefilter

    monkeypatch.setattr(prefilter, "_parser", None)
    shape = prefiltered(LazyRegex(r"^\[(?:probe|gsm8k)\] \S", regex.MULTILINE))
    assert shape.need is None and not shape.alike
    assert shape.found("x\n[probe] up") and not shape.found("[probe]")
