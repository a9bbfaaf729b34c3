"""Templates of log lines: the same error on 8 ranks or 3,000 requests is one template.

Two steps, as the log parsers measured on Loghub (benchmarks/loghub.py) do them:

- `template_of` masks the values that vary between occurrences of one message: numbers, hex,
  ids, addresses, host names, paths, times, sizes. The masks are data
  (`patterns/open-world/templates.toml`), each with the values it must and must not take.
- `mine` groups the masked messages. A message is cut at white space into tokens; a token that
  holds a masked value (`<num>`, `rhost=<ip>`, `blk_<num>`, `(uid=<num>)`) is a value, and each
  run of value tokens is folded into one (a list of 1 or 30 ids, or `1190 bytes (1.16 KB)`, is
  one value). Messages are then grouped as Drain does (He et al., ICWS 2017), with Drain3's
  semantics: within the messages of the same number of tokens and the same first word, each
  joins the template it is most like (best fit, not the first above the threshold), counting
  only the template's own words as alike (a `<*>` an earlier merge left is no likeness).
  Three corrections follow, each a rule about logs in general, not about one system's:
  - templates that differ only in their first word, when more than MAX_KINDS first words do
    so, are one: the first word is then a value (a job or service name), not the event;
  - a position where a group holds between 2 and MAX_KINDS words is part of the message, not a
    value (`VM Started`/`VM Paused`, `HTTPS`/`SOCKS5`, `Failed`/`Accepted password`): the
    group is split there. A value (a user, a file, a host) takes more forms than that;
  - groups whose templates hold the same words in the same order once values and `<*>` are set
    aside are one: their messages differ only in how many tokens a value took.

Why these and not tuned masks: the grouping is measured on the 16 systems of Loghub's 2k
samples, and a rule that helps one system only would be tuning to the benchmark. Every mask is
a kind of value found in any log, and every threshold is one number for every input.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any, Generic, TypeVar

from ..model.errors import PatternError
from ..model.values import record
from . import schema
from .formats import Formats, shipped
from .lazyregex import LazyRegex

MAX_TEMPLATE = 300
TEMPLATES_FILE = "templates.toml"  # in a library's open-world/ directory
WILDCARD = "<*>"
# Drain's threshold: the share of a message's tokens equal to a template's words for it to join.
SIMILARITY = 0.5
MIN_TOKENS_TO_MERGE = 2  # a one-token message ("Killed", "running") joins only its own kind
MAX_KINDS = 4  # a position that takes more words than this in one group holds a value
MIN_REST = 3  # words after a first word that varies: fewer say too little to make one message
MIN_SKELETON = 2  # words groups of different lengths must share, in order, to be one

_CARRIAGE = LazyRegex(r"\^M|\r")
_SPACES = LazyRegex(r"\s+")
# A value in a token: a mask's placeholder, a `<*>`, or a log's own `<module>`, `<unknown>`:
# a lower-case word in angle brackets names no event either.
_PLACEHOLDER = LazyRegex(r"<(?:[a-z]+|\*)>")
_CUTS = frozenset("=:,;()[]{}\"'|/@#")  # where a template's `<*>` may start or end inside a token
_MASK_KEYS = {"name", "why", "regex", "examples"}


@record
class Mask:
    """One kind of varying value: what its text looks like, and the placeholder it becomes."""

    name: str
    regex: LazyRegex
    why: str
    match: tuple[str, ...]
    no_match: tuple[str, ...]
    path: str

    @property
    def placeholder(self) -> str:
        return f"<{self.name}>"


def message_of(line: str, formats: Formats | None = None) -> str:
    """The line without the prefix that says when and who wrote it, as the catalogue of line formats
    reads it (patterns/formats/; the shipped one when no other is given): what quotes and the text
    report's message column show."""
    return (formats or shipped()).message(line)


def quote_of(line: str, formats: Formats | None = None) -> str:
    """What a summary quotes of the line: its message, the component's own tag kept (Formats.quoted)."""
    return (formats or shipped()).quoted(line)


def body_of(line: str, formats: Formats | None = None) -> str:
    """What a template is made of: the line after its prefixes, its level too (Formats.body)."""
    return (formats or shipped()).body(line)


def template_of(message: str, masks: Sequence[Mask]) -> str:
    """`message` with its variable parts masked."""
    text = _CARRIAGE.sub("", message)
    for mask in masks:
        text = mask.regex.sub(mask.placeholder, text)
    return _SPACES.sub(" ", text).strip()[:MAX_TEMPLATE]


T = TypeVar("T")


def mine(items: Sequence[T], template: Callable[[T], str]) -> list[tuple[str, list[T]]]:
    """Group items whose masked messages are one template; each group with its template.

    Items keep their order within a group; groups come in the order of their first item.
    """
    miner: Miner[T] = Miner()
    for item in items:
        miner.add(template(item), item)
    return [(group.template, group.members) for group in miner.groups()]


def fits(template: str, masked: str) -> bool:
    """Whether a masked message (`template_of`) is one a group's template stands for: its folded
    tokens, each `<*>` of the template standing for any text (none, for a value a shorter message
    of the group did not have)."""
    return _template_pattern(template).fullmatch(" ".join(tokens_of(masked))) is not None


def _template_pattern(template: str) -> re.Pattern[str]:
    tokens = [re.escape(token).replace(re.escape(WILDCARD), ".*?") for token in template.split()]
    return re.compile(r"\s*".join(tokens))


# ---------------------------------------------------------------- tokens


def tokens_of(masked: str) -> tuple[str, ...]:
    """The tokens of a masked message, each run of value tokens folded into one: a list of 1 or
    30 ids, or a value and its restatement (`<size> (<size>)`), is one value."""
    words: list[str] = []
    for word in masked.split():
        if words and _only_values(word) and _only_values(words[-1]):
            words[-1] = words[-1] if words[-1].rstrip(",;") == word.rstrip(",;") else f"{words[-1]} {word}"
            continue
        words.append(word)
    return tuple(words)


def is_value(word: str) -> bool:
    """Whether a token holds a value (`<num>`, `blk_<num>`, `rhost=<ip>`): it is never an event's kind."""
    return "<" in word and _PLACEHOLDER.search(word) is not None


def _only_values(word: str) -> bool:
    """A token of values and punctuation only (`<*>`, `(<size>)`, `<ip>,`): no word of its own."""
    return is_value(word) and not any(c.isalnum() for c in _PLACEHOLDER.sub("", word))


# ---------------------------------------------------------------- grouping

Variants = dict[tuple[str, ...], list[tuple[int, Any]]]  # each distinct token list, with its (order, item)s


class Miner(Generic[T]):
    """Drain's grouping (best fit, only a template's words count as alike), then the corrections.

    Bounded for large inputs: `keep_total` items are kept over all groups (the rest are counted:
    `cut` says so), and `max_distinct` distinct token lists; past that a new one is counted in
    the cluster it fits, under that cluster's first token list.
    """

    def __init__(
        self, similarity: float = SIMILARITY, keep_total: int | None = None, max_distinct: int | None = None
    ) -> None:
        self.similarity = similarity
        self.keep_total = keep_total
        self.max_distinct = max_distinct
        self.cut = False  # some items were counted, not kept
        self._buckets: dict[tuple[int, str], list[_Cluster]] = {}
        self._known: dict[tuple[str, ...], _Cluster] = {}  # each token list seen: its cluster
        self._clusters: list[_Cluster] = []
        self._count = 0

    def add(self, masked: str, item: T) -> None:
        words = tokens_of(masked)
        cluster = self._known.get(words)
        if cluster is None:
            cluster = self._fit(words)
            if self.max_distinct is not None and len(self._known) >= self.max_distinct:
                words = next(iter(cluster.variants), words)
            else:
                self._known[words] = cluster
        keep = self.keep_total is None or self._count < self.keep_total
        self.cut = self.cut or not keep
        cluster.take(words, (self._count, item) if keep else None)
        self._count += 1

    def drained(self) -> list[str]:
        """The templates of Drain's step alone, before the corrections (for tests)."""
        return [" ".join(cluster.words) for cluster in self._clusters]

    def groups(self) -> list[Group[T]]:
        """The groups in the order of their first item, after the corrections."""
        clusters = _merge_first_words([cluster.variants for cluster in self._clusters])
        parts = [part for variants in clusters for part in _split_kinds(variants)]
        return sorted((Group(part, self._counts) for part in _merge_lengths(parts)), key=lambda group: group.first)

    @property
    def _counts(self) -> dict[tuple[str, ...], int]:
        return {words: count for cluster in self._clusters for words, count in cluster.counts.items()}

    def _fit(self, words: tuple[str, ...]) -> _Cluster:
        """The cluster of the message's bucket it is most like, or a new one."""
        bucket = self._buckets.setdefault(_bucket(words), [])
        best, best_score = None, (-1.0, -1)
        for cluster in bucket:
            score = (_likeness(cluster.words, words), cluster.wildcards)  # ties: the more general template
            if score > best_score:
                best, best_score = cluster, score
        if best is None or best_score[0] < self.similarity or len(words) < MIN_TOKENS_TO_MERGE:
            best = _Cluster(words)
            bucket.append(best)
            self._clusters.append(best)
        return best


def _bucket(words: tuple[str, ...]) -> tuple[int, str]:
    """Drain's first two levels: the number of tokens, and the first token unless it is a value."""
    first = words[0] if words else ""
    return len(words), WILDCARD if is_value(first) else first


def _likeness(template: Sequence[str], words: Sequence[str]) -> float:
    """Drain's similarity: the share of positions where the template's own word is the message's
    (a `<*>` counts for nothing: it says the position varies, not that the message is alike)."""
    if not words:
        return 1.0
    same = sum(1 for a, b in zip(template, words, strict=True) if a == b and a != WILDCARD)
    return same / len(words)


class _Cluster:
    def __init__(self, words: tuple[str, ...]) -> None:
        self.words = list(words)
        self.wildcards = 0
        self.variants: Variants = {}
        self.counts: dict[tuple[str, ...], int] = {}

    def take(self, words: tuple[str, ...], member: tuple[int, Any] | None) -> None:
        """`member`: None when it is only counted."""
        if words not in self.variants:
            self.words = [a if a == b else WILDCARD for a, b in zip(self.words, words, strict=True)]
            self.wildcards = self.words.count(WILDCARD)
            self.variants[words] = []
        if member is not None:
            self.variants[words].append(member)
        self.counts[words] = self.counts.get(words, 0) + 1


class Group(Generic[T]):
    """A group as `mine` returns it: its template, its items in their order, and how many lines."""

    def __init__(self, variants: Variants, counts: dict[tuple[str, ...], int]) -> None:
        self.variants = variants
        self.count = sum(counts[words] for words in variants)

    @property
    def first(self) -> float:
        """The order of its first item (infinite when none was kept)."""
        return min((members[0][0] for members in self.variants.values() if members), default=float("inf"))

    @property
    def template(self) -> str:
        return " ".join(_template_words(list(self.variants)))[:MAX_TEMPLATE]

    @property
    def members(self) -> list[T]:
        ordered = sorted((pair for members in self.variants.values() for pair in members), key=lambda pair: pair[0])
        return [item for _, item in ordered]


def _template_words(variants: list[tuple[str, ...]]) -> list[str]:
    """The template of token lists: per position, the token they share, else `<*>` within what they
    share around it (`rhost=<*>`, `[<*>]`). Lists of other lengths are aligned on the longest."""
    longest = max(variants, key=len)
    same = [v for v in variants if len(v) == len(longest)]
    shortest = min(len(v) for v in variants)
    words = []
    for position, word in enumerate(longest):
        column = {v[position] for v in same}
        if position >= shortest:
            words.append(WILDCARD)  # a shorter message has no token here: it stands for none too
        else:
            words.append(word if len(column) == 1 and len(same) == len(variants) else _common(column))
    return words


def _common(column: set[str]) -> str:
    """`<*>` with what every token of the column has before and after it, cut at punctuation
    (`rhost=<*>`, `(uid=<*>)`, never half a word)."""
    if len(column) == 1:
        return WILDCARD if len(next(iter(column)).split()) > 1 else next(iter(column))
    values = sorted(column)
    head = _prefix(values)
    tail = _prefix(sorted(v[len(head) :][::-1] for v in values))[::-1]
    head = head[: max((i + 1 for i, c in enumerate(head) if c in _CUTS), default=0)]
    tail = tail[min((i for i, c in enumerate(tail) if c in _CUTS), default=len(tail)) :]
    return f"{head}{WILDCARD}{tail}"


def _prefix(values: list[str]) -> str:
    """The longest common prefix of sorted strings (the first and last differ most)."""
    first, last = values[0], values[-1]
    size = 0
    while size < min(len(first), len(last)) and first[size] == last[size]:
        size += 1
    return first[:size]


def _merge_first_words(clusters: list[Variants]) -> list[Variants]:
    """Clusters that differ only in their first token, when more than MAX_KINDS first tokens do so
    and at least MIN_REST words follow: the first token is then a value, not the event."""
    by_rest: dict[tuple[str, ...], list[Variants]] = {}
    for variants in clusters:
        words = _template_words(list(variants))
        by_rest.setdefault((str(len(words)), *words[1:]), []).append(variants)
    merged: list[Variants] = []
    for rest, same in by_rest.items():
        if len(same) <= MAX_KINDS or sum(not _only_values(word) for word in rest[1:]) < MIN_REST:
            merged.extend(same)
            continue
        merged.append({words: members for variants in same for words, members in variants.items()})
    return merged


def _split_kinds(variants: Variants) -> list[Variants]:
    """The group, split at each position that holds between 2 and MAX_KINDS words: a kind of
    event (`Started`, `Paused`), not a value, which takes more forms."""
    if len(variants) < 2:
        return [variants]
    for position in range(len(next(iter(variants)))):
        words_here = Counter(words[position] for words in variants)
        if not 2 <= len(words_here) <= MAX_KINDS or any(is_value(word) for word in words_here):
            continue
        parts: dict[str, Variants] = {}
        for words, members in variants.items():
            parts.setdefault(words[position], {})[words] = members
        return [piece for part in parts.values() for piece in _split_kinds(part)]
    return [variants]


def _merge_lengths(parts: list[Variants]) -> list[Variants]:
    """Groups whose templates hold the same words in the same order, once tokens of values only and
    `<*>` are set aside, are one: their messages differ only in how many tokens a value took."""
    by_skeleton: dict[tuple[str, ...], Variants] = {}
    merged: list[Variants] = []
    for part in parts:
        skeleton = tuple(word for word in _template_words(list(part)) if not _only_values(word))
        if len(skeleton) < MIN_SKELETON:
            merged.append(part)
        elif skeleton in by_skeleton:
            by_skeleton[skeleton].update(part)
        else:
            by_skeleton[skeleton] = part
            merged.append(part)
    return merged


# ---------------------------------------------------------------- the masks as data


def load_masks(path: Path) -> tuple[Mask, ...]:
    """The masks of a templates.toml, checked: known keys, a regex that compiles, examples."""
    data = schema.read_toml(path)
    return tuple(_mask(raw, str(path), index) for index, raw in enumerate(data.get("mask", [])))


def _mask(raw: Any, where: str, index: int) -> Mask:
    key = f"mask[{index}]"
    entry = schema.table(raw, where, key)
    schema.check_keys(entry, _MASK_KEYS, _MASK_KEYS, where, key)
    name = schema.string(entry, "name", where, key)
    if not name.isalpha() or not name.islower():
        raise PatternError(where, f"{key}.name", "must be a lower-case word (it becomes the placeholder <name>)")
    compiled = schema.regex(entry, "regex", where, key)
    match, no_match = schema.examples(entry, where, key, what="value")
    return Mask(name, compiled, schema.string(entry, "why", where, key), match, no_match, where)


def check_masks(masks: Iterable[Mask]) -> list[str]:
    """Each mask replaces its match examples whole and leaves its no_match ones alone."""
    problems = []
    for mask in masks:
        for text in mask.match:
            if mask.regex.compiled.fullmatch(text) is None:
                problems.append(f"{mask.path}: mask {mask.name}: example is not one whole value: {text!r}")
        for text in mask.no_match:
            if mask.regex.search(text) is not None:
                problems.append(f"{mask.path}: mask {mask.name}: no_match example is masked: {text!r}")
    return problems
