"""A pattern's captures as typed values: `int`, `float`, `bytes` (`16 GiB` -> 17179869184),
`duration` (seconds), `str`, `int_list` (with `<name>_len` and `<name>_zero_fraction` beside it),
`percent` (`95.9` or `95.9%` -> 0.959), `bool` (Python's True/False) and `text` (a generated text, with
`<name>_len`, `<name>_repeat_fraction`, `<name>_phrase_repeat`, `<name>_longest_run`, `<name>_scripts`,
`<name>_fragment`, `<name>_mixed_words`, `<name>_alnum_share`, `<name>_blank`, `<name>_replacements`
(its U+FFFD characters), `<name>_vocabulary`, `<name>_words`, `<name>_word_share`,
`<name>_function_share` and `<name>_capital_share` beside it: see `repeat_fraction`, `phrase_repeat`,
`longest_run`, `scripts_in`, `is_fragment`, `mixed_words`, `alnum_share`, `is_blank`, `vocabulary` and
`wordiness`)."""

from __future__ import annotations

import bisect
import re
from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import NamedTuple

from ..model import FieldValue
from ..model.lazyre import lazy_re

FIELD_TYPES = ("int", "float", "bytes", "duration", "str", "int_list", "percent", "bool", "text")
# The values a field type adds beside its own (`output_ids_zero_fraction`), as `failure_if` may read them.
DERIVED_FIELDS = MappingProxyType(
    {
        "int_list": ("zero_fraction", "len"),
        "text": (
            "repeat_fraction",
            "phrase_repeat",
            "longest_run",
            "len",
            "scripts",
            "fragment",
            "mixed_words",
            "alnum_share",
            "blank",
            "replacements",
            "vocabulary",
            "words",
            "word_share",
            "function_share",
            "capital_share",
        ),
    }
)


def typed_fields(fields: Sequence[tuple[str, str]], raw: Mapping[str, str | None]) -> dict[str, FieldValue]:
    """Each capture of `raw` converted to its declared type (`fields`: name, type); a capture
    that does not convert is left out."""
    values: dict[str, FieldValue] = {}
    for name, kind in fields:
        text = raw.get(name)
        if text is None:
            continue
        value = convert_field(kind, text)
        if value is None:
            continue
        values[name] = value
        if kind == "text" and isinstance(value, str):
            values[f"{name}_len"] = len(value)
            values[f"{name}_repeat_fraction"] = repeat_fraction(value)
            values[f"{name}_phrase_repeat"] = phrase_repeat(value)
            values[f"{name}_longest_run"] = longest_run(value)
            values[f"{name}_scripts"] = scripts_in(value)
            values[f"{name}_fragment"] = int(is_fragment(value))
            values[f"{name}_mixed_words"] = mixed_words(value)
            values[f"{name}_alnum_share"] = alnum_share(value)
            values[f"{name}_blank"] = int(is_blank(value))
            # U+FFFD where the detokenizer's bytes were no UTF-8 (a name's characters split mid-code:
            # sophgo/LLM-TPU#19); a log read with a stray byte has one, a broken decode a run.
            values[f"{name}_replacements"] = value.count("\ufffd")
            values[f"{name}_vocabulary"] = vocabulary(value)
            words = wordiness(value)
            values[f"{name}_words"] = words.words
            values[f"{name}_word_share"] = words.word_share
            values[f"{name}_function_share"] = words.function_share
            values[f"{name}_capital_share"] = words.capital_share
        if isinstance(value, tuple):
            values[f"{name}_len"] = len(value)
            values[f"{name}_zero_fraction"] = (
                round(sum(1 for item in value if item == 0) / len(value), 4) if value else 0.0
            )
    return values


# One unit of one to sixteen characters written at least four times in a row: `,,,,`, `!!!!`,
# `locklocklocklock`, `\ufffd\ufffd\ufffd\ufffd`, and a whole subword token a broken generation
# repeats (`ificationsificationsifications...`: TensorRT-LLM's disaggregated generation reading a KV
# cache laid out for another parallelism, NVIDIA/TensorRT-LLM#6507).
_REPEATED_UNIT = lazy_re(r"(.{1,16}?)\1{3,}", re.DOTALL)
# Runs of these are layout, not generated tokens: a rule of dashes or `=`, a progress bar's blocks,
# spaces and escaped newlines (box drawing and block elements: U+2500-U+259F).
_LAYOUT = frozenset(" \t\r\n-=_*#~.+|/" + "".join(map(chr, range(0x2500, 0x25A0))))
_ESCAPED_SPACE = lazy_re(r"\\[nrt]")  # a JSON or repr string's newline, as the log line shows it


def repeat_fraction(text: str) -> float:
    """The share of `text` that is one short unit repeated back to back (four times or more),
    layout runs (rules, progress bars, whitespace) not counted. A degenerate generation is one
    token over and over (`,,,,,,`, `!!!!!!`, `locklocklock`): near 1.0; prose stays near 0."""
    text = _ESCAPED_SPACE.sub(" ", text)
    if not text:
        return 0.0
    repeated = sum(len(run.group(0)) for run in _REPEATED_UNIT.finditer(text) if not set(run.group(1)) <= _LAYOUT)
    return round(repeated / len(text), 4)


# One phrase (a line, a sentence: 8 to 200 characters) written three times or more in a row.
_REPEATED_PHRASE = lazy_re(r"(.{8,200}?)\1{2,}", re.DOTALL)


_WORD = lazy_re(r"[^\W\d_]+")
VOCABULARY_WORDS = 8  # fewer words than this say nothing of how many kinds of them a text uses


def vocabulary(text: str) -> float:
    """The share of the words of `text` that are distinct (case aside): a sentence of eight words or
    more uses most of its words once (`the cat and the dog` stays above a half); a broken generation
    that draws from a handful of tokens repeats them in any order (`ómuéómóm CALLBACK ufen ufen óm óm
    ufen ufen`: four kinds in eight words, anthony-chaudhary/fak#996), which no run of one unit shows.
    1.0 for a text of fewer than VOCABULARY_WORDS words."""
    words = [word.lower() for word in _WORD.findall(_ESCAPED_SPACE.sub(" ", text))]
    if len(words) < VOCABULARY_WORDS:
        return 1.0
    return round(len(set(words)) / len(words), 4)


def is_blank(text: str) -> bool:
    """A text that holds only whitespace, written or escaped (`\\n\\n\\n...`: a generation of newline
    tokens until its limit, vllm-project/vllm#450), and something of it."""
    return bool(text) and not _ESCAPED_SPACE.sub(" ", text).strip()


def phrase_repeat(text: str) -> float:
    """The share of `text` that is one phrase repeated back to back (three times or more): a
    generation stuck in a loop (`\n10 year old girls clothes\n` until its length limit) repeats a
    sentence, not a token, so repeat_fraction does not see it. Prose, code and lists do not repeat a
    whole line three times in a row."""
    text = _ESCAPED_SPACE.sub(" ", text)
    if not text:
        return 0.0
    repeated = sum(len(run.group(0)) for run in _REPEATED_PHRASE.finditer(text) if run.group(1).strip())
    return round(repeated / len(text), 4)


def longest_run(text: str) -> int:
    """The characters of the longest run of one short unit repeated back to back, layout units
    included (`*   *   *   ...`) but not whitespace alone. A generation that starts well and then
    collapses into one token until its length limit (a reasoning that ends in `*   ` a hundred
    times) holds a run far longer than a rule or a table border in an answer."""
    text = _ESCAPED_SPACE.sub(" ", text)
    runs = (len(run.group(0)) for run in _REPEATED_UNIT.finditer(text) if run.group(1).strip())
    return max(runs, default=0)


_SIZE_UNITS = {
    "": 1, "b": 1, "kb": 10**3, "mb": 10**6, "gb": 10**9, "tb": 10**12,
    "kib": 2**10, "mib": 2**20, "gib": 2**30, "tib": 2**40, "k": 2**10, "m": 2**20, "g": 2**30,
    "ki": 2**10, "mi": 2**20, "gi": 2**30, "ti": 2**40,  # Kubernetes quantities (`401327416Ki`)
}  # fmt: skip
_SIZE = lazy_re(r"^\s*([0-9][0-9_,]*(?:\.[0-9]+)?)\s*([a-zA-Z]*)\s*$")


# Writing systems by their Unicode blocks (first code point, last, the system). Kanji and kana are
# two, as a Japanese sentence writes them; Hangul's jamo and syllables one.
_SCRIPTS = (
    (0x41, 0x24F, "latin"), (0x370, 0x3FF, "greek"), (0x400, 0x52F, "cyrillic"), (0x530, 0x58F, "armenian"),
    (0x590, 0x5FF, "hebrew"), (0x600, 0x6FF, "arabic"), (0x900, 0x97F, "devanagari"), (0xE00, 0xE7F, "thai"),
    (0x1100, 0x11FF, "hangul"), (0x3040, 0x30FF, "kana"), (0x3130, 0x318F, "hangul"), (0x4E00, 0x9FFF, "han"),
    (0xAC00, 0xD7AF, "hangul"), (0xFFFD, 0xFFFD, "replacement"),
)  # fmt: skip
_SCRIPT_STARTS = [start for start, _, _ in _SCRIPTS]


def scripts_in(text: str) -> int:
    """How many writing systems the letters of `text` are in. A model's answer is in one or two (a
    Japanese one in kanji and kana, code in Latin with a comment in Chinese); tokens drawn at random
    from a multilingual vocabulary, the output of a broken generation, mix five or six in a line
    (`FloatingVPNcdn问题AppointmentPods ... запис ... 상 ... اف`). U+FFFD, a byte sequence the
    tokenizer could not decode, counts as one."""
    seen: set[str] = set()
    for char in text:
        code = ord(char)
        if code < 0x41 or (0x5B <= code <= 0x60) or (0x7B <= code <= 0xBF):
            continue  # digits, punctuation, symbols
        at = bisect.bisect_right(_SCRIPT_STARTS, code) - 1
        if at >= 0 and code <= _SCRIPTS[at][1]:
            seen.add(_SCRIPTS[at][2])
    return len(seen)


# The alphabets: a word of a language is written in one of them. (Chinese, Japanese and Korean text
# glues Latin words to its own without a blank, `使用Python可以`, so those systems are left out.)
_ALPHABETS = frozenset({"latin", "greek", "cyrillic", "armenian", "hebrew", "arabic", "devanagari", "thai"})
_LETTERS = lazy_re(r"[^\W\d_]+")


def mixed_words(text: str) -> int:
    """How many words of `text` (runs of letters) are written in two alphabets at once: Latin glued
    to Cyrillic inside one word (`führteьюcardChild`). No language writes a word so; tokens drawn as
    if at random from a multilingual vocabulary and printed without blanks between them do
    (InternLM/lmdeploy#286's answer). A Greek letter for a unit or a variable (`10μs`, `Δt`) is one
    such word, so a judgement wants several."""
    count = 0
    for word in _LETTERS.findall(text):
        if len(word) > 1 and len(_alphabets_of(word)) >= 2:
            count += 1
    return count


def _alphabets_of(word: str) -> set[str]:
    seen = set()
    for char in word:
        at = bisect.bisect_right(_SCRIPT_STARTS, ord(char)) - 1
        if at >= 0 and ord(char) <= _SCRIPTS[at][1] and _SCRIPTS[at][2] in _ALPHABETS:
            seen.add(_SCRIPTS[at][2])
    return seen


def alnum_share(text: str) -> float:
    """The share of the characters of `text` other than blanks (escaped line breaks read as blanks)
    that are letters or digits. Prose, code and numbers are mostly words (code's brackets and
    operators stay well under half); a broken generation that samples punctuation (`. with. with.
    ensens sums sums\\\\////....... (). (()).`) is mostly marks. 1.0 for a text of no such character."""
    text = _ESCAPED_SPACE.sub(" ", text)
    shown = [char for char in text if not char.isspace()]
    if not shown:
        return 1.0
    return round(sum(1 for char in shown if char.isalnum()) / len(shown), 4)


# English's closed classes: articles, pronouns, auxiliaries, prepositions, conjunctions, negations. A
# sentence holds some; a generation made of nothing else holds no content at all.
_CLOSED_CLASSES = """
    a an the this that these those and or but nor so yet if then than as of to in on at by for with
    from into onto about over under up out off i me my you your he him his she her it its we us our they
    them their what which who whom whose when where why how is are was were be been am do does did have
    has had will would can could shall should may might must not no there here all any some each
"""
# ... and those no sentence ends on: an article, a conjunction, a preposition, a possessive.
_ENDING_NO_SENTENCE = "a an the and or but nor of to in on at by for with from into onto than my your our their its"
_FUNCTION_WORDS = frozenset(_CLOSED_CLASSES.split())
_OPEN_ENDED = frozenset(_ENDING_NO_SENTENCE.split())
_TOKEN = lazy_re(r"[^\W\d_]+(?:'[^\W\d_]+)?|\d+|[^\w\s]+")
_FRAGMENT_TOKENS = 4  # fewer is an answer too short to judge (`' I am'`, `', '`)


def is_fragment(text: str) -> bool:
    """A generation that is no sentence: four tokens or more, every word a function word (no content
    at all), and it opens on a mark or stops on a word no sentence ends on. vLLM's `Generated text:
    ', , the, '` and `' What and the... the'` (a broken graph or quantised path); an answer of
    function words alone is a whole sentence (`No, it is not.`)."""
    tokens = _TOKEN.findall(_ESCAPED_SPACE.sub(" ", text))
    words = [token.lower() for token in tokens if token[0].isalpha()]
    if len(tokens) < _FRAGMENT_TOKENS or not words or any(word not in _FUNCTION_WORDS for word in words):
        return False
    opens_on_mark = not tokens[0][0].isalnum()
    return opens_on_mark or tokens[-1].lower() in _OPEN_ENDED


# The marks a word may stand between in prose: `(word),` is a word, `solve():` too.
_WORD_MARKS = ".,;:!?()[]{}\"'*`"
_LETTER_WORD = lazy_re(r"[^\W\d_]+(?:'[^\W\d_]+)?")


class Wordiness(NamedTuple):
    """What the words of a text say of it (`wordiness`)."""

    words: int  # blank-separated tokens that are words: letters alone, the marks around them aside
    word_share: float  # their share of the tokens
    function_share: float  # the share of the words that are English function words
    capital_share: float  # the share of the words that start with a capital letter


def wordiness(text: str) -> Wordiness:
    """The words of a text and how they are made. A sentence holds many function words (articles,
    pronouns, auxiliaries, prepositions, conjunctions: a third to a half of English prose). A broken
    generation that draws its tokens as if at random from the vocabulary strings content words
    together with hardly any, capitalised and not as the vocabulary's pieces come (`embarked Sol
    existed trainer Tunisia replacing Wash Bac knowing franchise ...`: vllm-project/vllm#12096). A list
    has no function words either, but is of one case (package names lowercase, model or class names
    capitalised), and code or a command is mostly no words (paths, flags, numbers)."""
    tokens = _ESCAPED_SPACE.sub(" ", text).split()
    words = [bare for token in tokens if _LETTER_WORD.fullmatch(bare := token.strip(_WORD_MARKS))]
    if not tokens or not words:
        return Wordiness(0, 0.0, 0.0, 0.0)
    function = sum(1 for word in words if word.lower() in _FUNCTION_WORDS)
    capital = sum(1 for word in words if word[0].isupper())
    share = len(words)
    return Wordiness(share, round(share / len(tokens), 4), round(function / share, 4), round(capital / share, 4))


def convert_field(kind: str, text: str) -> FieldValue | None:
    text = text.strip()
    try:
        if kind == "int":
            return int(text.replace(",", "").replace("_", ""), 0 if text.lower().startswith("0x") else 10)
        if kind == "float":
            return float(_without_thousands(text))
        if kind == "percent":
            return round(float(text.rstrip("%")) / 100, 6)
        if kind == "bool":
            return {"true": True, "false": False}[text.lower()]
        if kind == "duration":
            return _parse_duration(_without_thousands(text))
        if kind == "bytes":
            return _parse_bytes(text)
        if kind == "int_list":
            return tuple(int(item) for item in re.findall(r"-?\d+", text))
    except (ValueError, KeyError):
        return None
    return text


# A number written with thousands separators (`1,703`, `2,344.64`), as a report's table prints it; a
# comma elsewhere (`1,5`: a decimal comma) is no such number and is left to fail.
_THOUSANDS = lazy_re(r"^\d{1,3}(?:,\d{3})+(?:\.\d+)?(?=\s*[a-zA-Zµμ]*$)")


def _without_thousands(text: str) -> str:
    return text.replace(",", "") if _THOUSANDS.match(text) else text


# A duration's unit, in seconds (Rust's Debug for a Duration, as TGI's spans print it: `161.454300714s`,
# `5.188854ms`, `61.307µs`); no unit is seconds.
_DURATION_UNITS = {"": 1.0, "s": 1.0, "ms": 1e-3, "µs": 1e-6, "μs": 1e-6, "us": 1e-6, "ns": 1e-9}
_DURATION = lazy_re(r"^([0-9]+(?:\.[0-9]+)?)\s*([a-zA-Zµμ]*)$")


def _parse_duration(text: str) -> float | None:
    """Seconds from `300`, `300s`, `5.1ms`, `61.3µs`; None for a unit not known."""
    found = _DURATION.match(text)
    if not found or found.group(2).lower() not in _DURATION_UNITS:
        return None
    return float(found.group(1)) * _DURATION_UNITS[found.group(2).lower()]


def _parse_bytes(text: str) -> int | None:
    found = _SIZE.match(text)
    if not found or found.group(2).lower() not in _SIZE_UNITS:
        return None
    number = float(found.group(1).replace(",", "").replace("_", ""))
    return int(number * _SIZE_UNITS[found.group(2).lower()])
