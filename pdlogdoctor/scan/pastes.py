"""The patterns read on pastes only: shapes with no literal a scan could search for.

A generation that loops (`you, you, you, ...`, `OOOOOOOO...`) says it is broken by its shape, not by
a word: no anchor finds it, and testing a shape on every line of a multi-gigabyte log is what the
anchored scan exists to avoid. A paste is small: an input read whole in its head (HEAD_BYTES) is read
again line by line for the library's `pastes_only` patterns, at a cost bounded by its size. A large
log's generations are printed in fields that anchored patterns read (`"text": ...`).
"""

from __future__ import annotations

import functools
import operator
from collections import Counter
from collections.abc import Iterator
from dataclasses import replace
from itertools import islice

from ..library.lazyregex import MULTILINE, LazyRegex
from ..library.patterns import MATCH_TIMEOUT_S, Pattern, match_line
from ..model import Event
from .events import make_event
from .timeline import clean_line

MAX_PASTE_EVENTS = 20  # per pattern and input: a looping answer may fill many lines; a few show it


def paste_events(name: str, head: str, patterns: tuple[Pattern, ...]) -> tuple[Event, ...]:
    """The events of the `pastes_only` patterns on the lines of an input read whole (`head`)."""
    if not patterns:
        return ()
    if not could_match(head):
        return ()  # most pastes and small logs: told in a few microseconds
    found: list[Event] = []
    for pattern in patterns:
        if _anywhere(pattern, head):
            found += _pattern_events(name, head, pattern)
    return tuple(found)


def _pattern_events(name: str, head: str, pattern: Pattern) -> list[Event]:
    """The pattern's events in the paste: the first MAX_PASTE_EVENTS of its lines, each telling how
    many lines of its kind (failing or not) the paste holds, as the scan's events do."""
    events: list[Event] = []
    for number, text in _lines(head):
        try:
            captured = match_line(pattern, text)
        except TimeoutError:
            continue  # a line this slow to read is no loop the pattern can tell
        if captured is not None:
            events.append(make_event(pattern, name, number, None, text, captured))
    kinds = Counter(event.failing for event in events)
    return [replace(event, repeats=kinds[event.failing]) for event in events[:MAX_PASTE_EVENTS]]


# What every shape the library's pastes_only patterns read leaves in a text, told at C speed: a word
# that follows itself (`you, you, you`: its words split at blanks, eight equal neighbours at least),
# a phrase that does (each word equal to the word a phrase's length on, for phrases of up to
# PHRASE_WORDS words), a word that runs on (`OOOOOOOO...`, sixty characters at least), or the
# replacement character a decoder writes for bytes that are no text (an answer cut inside a
# character). The patterns' own search of a text (a backreference tried at every word) costs several
# times this test (~50 µs for a 2 KB log of 260 words, its passes over the words in C), and a paste
# that fails it holds nothing they match.
LOOP_NEIGHBOURS = 8
LOOP_RUN = 60
PHRASE_WORDS = 4
REPLACEMENT = "\ufffd"


def could_match(text: str) -> bool:
    """Whether `text` may hold a generation the pastes_only patterns read (a loop, or undecodable)."""
    if REPLACEMENT in text:
        return True
    words = text.split()
    if not words:
        return False
    if max(map(len, words)) >= LOOP_RUN:
        return True
    # a word that follows itself, or a phrase of up to PHRASE_WORDS words (each word then equals the
    # one that many places on)
    return len(words) > LOOP_NEIGHBOURS and any(
        sum(map(operator.eq, words, islice(words, step, None))) >= LOOP_NEIGHBOURS
        for step in range(1, PHRASE_WORDS + 1)
    )


def _anywhere(pattern: Pattern, head: str) -> bool:
    """Whether the pattern can match a line of `head`: its regex searched over the whole text, each
    line's start and end its own (MULTILINE). A line it matches is found so too; a match across lines
    is a candidate the line-by-line reading then refuses."""
    try:
        return _whole(pattern.regex.pattern, pattern.regex.flags).search(head, timeout=MATCH_TIMEOUT_S) is not None
    except TimeoutError:
        return True  # undecided: the lines tell


@functools.cache
def _whole(source: str, flags: int) -> LazyRegex:
    return LazyRegex(source, flags | MULTILINE)


def _lines(head: str) -> Iterator[tuple[int, str]]:
    """Each line of the paste as the scan reads it (a collector's or runner's prefix taken off), from 1."""
    for number, raw in enumerate(head.split("\n"), start=1):  # as the scan counts lines: by newline
        text = clean_line(raw)[0]
        if text.strip():
            yield number, text
