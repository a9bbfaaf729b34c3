"""`@record` behaves as `@dataclass(frozen=True, slots=True)` does, only cheaper to make."""

from __future__ import annotations

import dataclasses
import pickle
from dataclasses import dataclass, field

import pytest

from pdlogdoctor.model import Event, Kind, Role, Severity
from pdlogdoctor.model.values import record


@record
class Pair:
    left: int
    right: tuple[str, ...] = ()
    note: str = field(default="", compare=False)
    secret: str = field(default="", repr=False)


@dataclass(frozen=True, slots=True)
class StandardPair:
    left: int
    right: tuple[str, ...] = ()
    note: str = field(default="", compare=False)
    secret: str = field(default="", repr=False)


@record
class Single:
    only: int


@record
class WithFactory:
    items: list[int] = field(default_factory=list)
    label: str = "x"


@record
class Empty:
    pass


@record
class OtherPair:
    left: int
    right: tuple[str, ...] = ()
    note: str = field(default="", compare=False)
    secret: str = field(default="", repr=False)


def test_equality_uses_compared_fields_in_order_like_a_dataclass() -> None:
    cases = [((1, ("a",), "x", "s"), (1, ("a",), "y", "t")), ((1, ("a",)), (2, ("a",))), ((1, ("a",)), (1, ("b",)))]
    for one, two in cases:
        assert (Pair(*one) == Pair(*two)) is (StandardPair(*one) == StandardPair(*two))
        assert (Pair(*one) != Pair(*two)) is (StandardPair(*one) != StandardPair(*two))
    assert Pair(1, note="x") == Pair(1, note="y")  # compare=False is left out, as in a dataclass
    assert Pair(1) != Pair(2)


def test_equality_holds_only_within_one_class() -> None:
    assert Pair(1) != OtherPair(1)
    assert Pair(1) != (1, (), "", "")
    assert Single(3) == Single(3) and Single(3) != Single(4)
    assert Empty() == Empty()


def test_hash_follows_equality() -> None:
    assert hash(Pair(1, ("a",), note="x")) == hash(Pair(1, ("a",), note="y"))
    assert len({Pair(1), Pair(1), Pair(2), Single(1), Single(1), Empty(), Empty()}) == 4


def test_repr_reads_like_a_dataclass_and_hides_repr_false_fields() -> None:
    standard = repr(StandardPair(1, ("a",), "n", "hidden")).replace("StandardPair", "Pair")
    assert repr(Pair(1, ("a",), "n", "hidden")) == standard
    assert "hidden" not in repr(Pair(1, secret="hidden"))
    assert repr(Single(5)) == "Single(only=5)"
    assert repr(Empty()) == "Empty()"


def test_frozen_slotted_and_still_a_dataclass() -> None:
    pair = Pair(1)
    with pytest.raises(dataclasses.FrozenInstanceError):
        pair.left = 2  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        del pair.left  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        pair.other = 1  # type: ignore[attr-defined]
    assert pair.left == 1
    assert not hasattr(pair, "__dict__")
    assert dataclasses.is_dataclass(pair)
    assert [f.name for f in dataclasses.fields(pair)] == ["left", "right", "note", "secret"]
    assert dataclasses.replace(pair, left=7) == Pair(7)
    assert Pair.__match_args__ == ("left", "right", "note", "secret")


def test_a_pipeline_value_survives_pickling_and_compares_by_content() -> None:
    event = Event(
        pattern="p",
        source="decode.log",
        line=3,
        time=None,
        time_text=None,
        text="boom",
        fields=(("size", 6002704384),),
        severity=Severity.ERROR,
        kind=Kind.CAUSE,
        failing=True,
        role=Role.DECODE,
    )
    copy = pickle.loads(pickle.dumps(event))
    assert copy == event and hash(copy) == hash(event) and copy is not event
    assert dataclasses.replace(event, line=4) != event
    assert event.get("size") == 6002704384


def test_lazyregex_multiline_is_the_regex_modules() -> None:
    import regex

    from pdlogdoctor.library.lazyregex import MULTILINE

    assert int(regex.MULTILINE) == MULTILINE


def test_construction_checks_arguments_and_uses_defaults_like_a_dataclass() -> None:
    assert (Pair(1, ("a",)).right, Pair(1).right, Pair(left=2).left) == (("a",), (), 2)
    first, second = WithFactory(), WithFactory()
    assert first.items == [] and first.items is not second.items  # a fresh default per instance
    assert WithFactory([1], label="y") == WithFactory(items=[1], label="y")
    for wrong in (lambda: Pair(), lambda: Pair(1, (), "", "", "extra"), lambda: Pair(1, nope=2)):
        with pytest.raises(TypeError):
            wrong()


def test_the_constructor_is_compiled_once_on_first_use() -> None:
    @record
    class Fresh:
        a: int

    placeholder = Fresh.__init__
    Fresh(1)
    compiled = Fresh.__init__
    Fresh(2)
    assert compiled is not placeholder and Fresh.__init__ is compiled
    assert compiled.__qualname__.endswith("Fresh.__init__")


def test_pickle_and_copy_round_trip() -> None:
    import copy

    pair = Pair(1, ("a", "b"), "note", "secret")
    for clone in (pickle.loads(pickle.dumps(pair)), copy.copy(pair), copy.deepcopy(pair)):
        assert clone == pair and clone.note == "note" and clone.secret == "secret"


def test_a_record_without_a_docstring_gets_one_naming_its_fields() -> None:
    @record
    class Undocumented:
        a: int
        b: str = ""

    assert Undocumented.__doc__ == "Undocumented(a, b)"
    assert Pair.__doc__ == "Pair(left, right, note, secret)"

    @record
    class Documented:
        """Says what it is."""

        a: int

    assert Documented.__doc__ == "Says what it is."
