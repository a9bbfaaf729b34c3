"""The redaction rules as data (redaction.toml): secret shapes with their keywords, and the words
that make a key name a secret's.

Read once per process when a shareable format is rendered; a shape's regex is compiled the
first time one of its keywords is seen, so a report pays only for the shapes its text could
hold. The keyword prefilter is one alternation over every keyword, searched in the
lower-cased text: the secret scanners' Aho-Corasick step, in `re`.
"""

from __future__ import annotations

import functools
import pkgutil
import re
import tomllib
from collections import defaultdict
from collections.abc import Callable
from typing import Any

from ..model.values import record

RULES_FILE = "redaction.toml"


@record
class Shape:
    """One kind of secret recognised by its shape: the match (or its `secret` group) is masked."""

    id: str
    kind: str  # the placeholder's: <kind-n>
    keywords: tuple[str, ...]
    regex: str
    secret: str | None = None
    entropy: float | None = None  # bits per character the masked value must reach
    examples: tuple[str, ...] = ()
    counterexamples: tuple[str, ...] = ()

    @property
    def pattern(self) -> re.Pattern[str]:
        return _compiled(self.regex)


@record
class Check:
    """A mechanism of redact.py (key=value pairs, flags, cookies...), named for its examples."""

    id: str
    examples: tuple[str, ...] = ()
    counterexamples: tuple[str, ...] = ()


class Rules:
    """Every shape and check, and the key-name vocabulary (redaction.toml's [keys])."""

    def __init__(self, shapes: tuple[Shape, ...], checks: tuple[Check, ...], keys: dict[str, Any]) -> None:
        self.shapes = shapes
        self.checks = checks
        self.keys = keys

    @functools.cached_property
    def keywords(self) -> tuple[str, ...]:
        return tuple(sorted({word for shape in self.shapes for word in shape.keywords}))

    @functools.cached_property
    def keyword_search(self) -> Callable[[str], set[str]]:
        """The keywords in a lower-cased text, overlapping ones too (`sk_live_` holds `sk` and `k_live_`):
        one Aho-Corasick pass where ahocorasick-rs is installed (the default install has it), else a
        substring test per keyword."""
        words = self.keywords

        def each_word(text: str) -> set[str]:
            return {word for word in words if word in text}

        try:
            import ahocorasick_rs
        except ImportError:
            return each_word
        automaton = ahocorasick_rs.AhoCorasick(list(words))

        def one_pass(text: str) -> set[str]:
            try:
                return {words[found[0]] for found in automaton.find_matches_as_indexes(text, overlapping=True)}
            except UnicodeEncodeError:  # a name's bytes that are not UTF-8 (surrogates): Rust takes none
                return each_word(text)

        return one_pass

    @functools.cached_property
    def shapes_by_keyword(self) -> dict[str, tuple[Shape, ...]]:
        found: dict[str, list[Shape]] = defaultdict(list)
        for shape in self.shapes:
            for word in shape.keywords:
                found[word].append(shape)
        return {word: tuple(shapes) for word, shapes in found.items()}

    def shapes_for(self, lowered: str) -> list[Shape]:
        """The shapes whose keywords occur in `lowered`, in the file's order."""
        seen = self.keyword_search(lowered)
        if not seen:
            return []
        hit = {id(shape) for word in seen for shape in self.shapes_by_keyword[word]}
        return [shape for shape in self.shapes if id(shape) in hit]


@functools.cache  # a memo of a pure function: a shape's regex is compiled once, when first needed
def _compiled(regex: str) -> re.Pattern[str]:
    return re.compile(regex)


@functools.cache  # one read per process: the rules are the package's, not the user's
def rules() -> Rules:
    # data of the tool, shipped beside this module (pkgutil: importlib.resources costs a run ~5 ms to import)
    raw = pkgutil.get_data(__package__ or "pdlogdoctor.render", RULES_FILE)
    assert raw is not None, RULES_FILE
    data = tomllib.loads(raw.decode("utf-8"))
    shapes = tuple(
        Shape(
            id=item["id"],
            kind=item["kind"],
            keywords=tuple(word.lower() for word in item.get("keywords", ())),
            regex=item["regex"],
            secret=item.get("secret"),
            entropy=item.get("entropy"),
            examples=tuple(item.get("examples", ())),
            counterexamples=tuple(item.get("not", ())),
        )
        for item in data.get("shape", ())
    )
    checks = tuple(
        Check(item["id"], tuple(item.get("examples", ())), tuple(item.get("not", ()))) for item in data.get("check", ())
    )
    return Rules(shapes, checks, data["keys"])
