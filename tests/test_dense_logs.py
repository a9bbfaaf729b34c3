"""A busy log's hits: lines counted past their kind's cap are folded, and nothing they show changes.

The sink keeps KEEP_PER_PATTERN events of a kind and counts the rest; its last one is made once,
not for every line (events._Pending). A pattern's regex runs once per distinct text from its
lead on (events._confirm, lazyregex.literal_lead), the error layer once per distinct line
(events._classify). The reference for each is the sink with every one of those turned off.
"""

from __future__ import annotations

import io
import re
import threading
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pdlogdoctor.library.lazyregex import WATCH, LazyRegex, from_line_starts, literal_lead, watched
from pdlogdoctor.library.literals import required_words
from pdlogdoctor.library.patterns import Library, match_line
from pdlogdoctor.scan import accel, events, search
from pdlogdoctor.scan.events import KEEP_PER_PATTERN, ScanResult
from pdlogdoctor.scan.index import AnchorIndex
from pdlogdoctor.scan.search import scan_stream

ROOT = Path(__file__).resolve().parent.parent
# Busy real logs: a crash with tracebacks, an untimed paste, the seed incident, a router's log.
LOGS = [
    ROOT / "fixtures/mori-mr-size-limit-seed/decode_mia1-p06-g14.log",
    ROOT / "fixtures/mori-mr-size-limit-seed/router.log",
    ROOT / "fixtures/pasted-gpu-oom-tb/excerpt.txt",
    ROOT / "fixtures/cxx-abort-cuda-ima-decode",
]
_DATE = re.compile(rb"\b2026-(\d\d)-(\d\d)\b")


def busy_log(copies: int) -> bytes:
    """The logs above, over and over, each copy a day later (so no stamped line repeats exactly)."""
    pieces = []
    for path in LOGS:
        for file in sorted(path.glob("*.log")) if path.is_dir() else [path]:
            pieces.append(file.read_bytes().rstrip(b"\n") + b"\n")
    whole = b"".join(pieces)
    return b"".join(
        _DATE.sub(lambda m, day=day: b"2026-%s-%02d" % (m.group(1), (int(m.group(2)) + day) % 28 + 1), whole)
        for day in range(copies)
    )


@pytest.fixture(scope="module", params=[name for name in accel.MATCHERS if accel.installed(name) == name])
def index(request: pytest.FixtureRequest, library: Library) -> AnchorIndex:
    return AnchorIndex.build(library, request.param)


def scan(data: bytes, index: AnchorIndex, chunk: int) -> ScanResult:
    with watched():
        return scan_stream(io.BytesIO(data), "decode_x.log", index, chunk_bytes=chunk)


def unfolded(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every line's events made in full, every regex run on every line: the sink before folding."""
    monkeypatch.setattr(events, "_counted_key", lambda pattern, captured: None)
    monkeypatch.setattr(events, "_confirm", lambda pattern, text, state: match_line(pattern, text))
    monkeypatch.setattr(events, "_classify", lambda errors, text, state: errors.classify(text))


def test_busy_log_counts_and_kept_events_are_those_of_making_every_event(
    index: AnchorIndex, monkeypatch: pytest.MonkeyPatch
) -> None:
    data = busy_log(copies=6)
    results = {chunk: scan(data, index, chunk) for chunk in (4 << 10, 64 << 10, 8 << 20)}
    with monkeypatch.context() as patched:
        unfolded(patched)
        reference = scan(data, index, 64 << 10)
    for result in results.values():
        assert result.events == reference.events
        assert result.counts == reference.counts
        assert result.lines == reference.lines
    # Kinds past their cap: the first KEEP_PER_PATTERN and the last are kept, and told their count.
    long_kinds = {key for key, count in reference.counts.items() if count > KEEP_PER_PATTERN + 1}
    assert len(long_kinds) >= 5
    last_lines = {e.pattern: e.line for e in reference.events}
    assert max(last_lines.values()) > len(data.splitlines()) * 5 // 6  # the last copy's lines are kept


def test_last_line_of_a_kind_without_its_own_time_takes_the_times_around_it(
    library: Library, index: AnchorIndex
) -> None:
    """An untimed line counted past the cap in an early read is made while its buffer is there:
    its time is the stamped line's above it, its latest the one below, whatever the chunking."""
    crash = "terminate called after throwing an instance of 'c10::Error'"
    lines = []
    for minute in range(30):
        lines += [f"[2026-07-02 10:{minute:02d}:00] Scheduler step", crash, f"[2026-07-02 10:{minute:02d}:30] next"]
    lines += ["[2026-07-02 11:00:00] Decode batch. #running-req: 1"] * 3000  # later reads hold no crash
    data = ("\n".join(lines) + "\n").encode()
    for chunk in (1 << 10, 1 << 16):
        result = scan(data, index, chunk)
        kept = [e for e in result.events if e.pattern == "cxx-uncaught-exception"]
        assert len(kept) == KEEP_PER_PATTERN + 1
        last = kept[-1]
        assert last.line == 89 and last.repeats == 30
        assert last.time_text == "2026-07-02 10:29:00" and last.time_inferred
        assert last.time_latest is not None and last.time_latest - last.time == 30


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_any_mix_of_repeated_lines_folds_to_the_unfolded_result(
    library: Library, index: AnchorIndex, monkeypatch: pytest.MonkeyPatch, data: st.DataObject
) -> None:
    pool = [p.examples.match[0] for p in library.patterns if p.examples.match]
    pool += ["Traceback (most recent call last):", '  File "x.py", line 3, in f', "RuntimeError: boom", ""]
    stamps = ["", "[2026-07-02 10:00:01] ", "[2026-07-02 10:00:02 DP0 TP3 EP0] ", "I0702 10:00:03.000001 1 x.cc:1] "]
    lines = data.draw(st.lists(st.tuples(st.sampled_from(stamps), st.sampled_from(pool)), min_size=1, max_size=40))
    repeat = data.draw(st.integers(min_value=1, max_value=40))
    text = ("\n".join(stamp + line for stamp, line in lines) + "\n") * repeat
    chunk = data.draw(st.sampled_from([256, 4096, 1 << 20]))
    folded = scan(text.encode(), index, chunk)
    with monkeypatch.context() as patched:
        unfolded(patched)
        reference = scan(text.encode(), index, chunk)
    assert folded.events == reference.events
    assert folded.counts == reference.counts


# ---------------------------------------------------------------- a regex's lead


@pytest.mark.parametrize(
    ("source", "lead"),
    [
        (r"Memory pool end\. avail mem=(?P<gb>[\d.]+) GB", "Memory pool end. avail mem="),
        (r"server_args=ServerArgs\((?=(?:.*?\bdp_size=(?P<dp>\d+))?)(?P<args>.*)\)", "server_args=ServerArgs("),
        (r"Failed to+ connect", "Failed t"),  # the quantified character may be absent or repeated
        (r"abc|def", ""),  # either alternative may match: neither is the lead
        (r"(?:abc|def)x", ""),
        (r"abc(?<=bc)d", ""),  # a lookbehind reads text before the match
        (r"abc(?<!x)d", ""),
        (r"^abc", ""),
        (r"abc(?:^|x)", ""),  # `^` where the line starts: the line's start matters
        (r"\Aabc", ""),
        (r"(?i)abc", ""),  # ignore case: the lead's letters may be the other case in the line
        (r"abc(?i)d", ""),  # the regex module applies a flag set mid-pattern to the whole pattern
        (r"(?x)a b c", ""),
        (r"abc[^]^|]d", "abc"),  # `^` and `|` inside a class are its characters
        (r"\bword", ""),
    ],
)
def test_literal_lead_is_the_text_every_match_starts_with_when_nothing_before_matters(source: str, lead: str) -> None:
    assert literal_lead(source) == lead


def test_no_lead_under_flags_that_change_how_text_reads() -> None:
    import regex

    for flag in (regex.IGNORECASE, regex.VERBOSE, regex.REVERSE, regex.V1, regex.FULLCASE):
        assert literal_lead("abc", int(flag)) == ""


@settings(max_examples=200, deadline=None)
@given(data=st.data())
def test_a_line_matches_as_its_text_from_the_lead_on_matches(library: Library, data: st.DataObject) -> None:
    """What folding on the lead rests on: whatever stands before the first occurrence of a
    pattern's lead, the pattern's result on the line is the same."""
    with_lead = [p for p in library.patterns if p.regex.lead and p.examples.match]
    pattern = data.draw(st.sampled_from(with_lead))
    line = data.draw(st.sampled_from(pattern.examples.match))
    tail = line[line.index(pattern.regex.lead) :] if pattern.regex.lead in line else line
    before = data.draw(st.text(alphabet="[]0123456789:- abTPDE_=|'\"\\", max_size=40))
    before = before.replace(pattern.regex.lead, "")
    alone, preceded = pattern.regex.search(tail), pattern.regex.search(before + tail)
    assert (alone is None) == (preceded is None)
    if alone is not None and preceded is not None:
        assert alone.groupdict() == preceded.groupdict()


def test_every_library_pattern_with_a_lead_has_it_in_its_examples(library: Library) -> None:
    """A lead the analysis got wrong (text a match need not start with) would make lines without
    it unmatched: each example match holds its pattern's lead."""
    leads = 0
    for pattern in library.patterns:
        for line in pattern.examples.match if pattern.regex.lead else ():
            assert pattern.regex.lead in line, (pattern.id, line)
            found = pattern.regex.search(line)
            assert found is not None and found.group(0).startswith(pattern.regex.lead), pattern.id
            leads += 1
    assert leads > 50


# The open-world layer's own shapes (patterns/open-world/severity.toml): a message read from the
# line's start through to its end around the words that make it an error.
READ_THROUGH = (
    r"(?P<message>.*\b(?:No space left on device|Disk quota exceeded|Too many open files)\b.*)",
    r"(?P<message>.*?(?<![\w=/.-])(?:[Ee]rror|[Ff]ailed|[Ff]ailure|[Ee]xception)s?(?![\w=/.-]).*)",
    r".*?\bfailed\b",
    r"(.*)x(?:y|z)",
)


@pytest.mark.parametrize("source", READ_THROUGH)
def test_a_regex_opening_with_any_text_is_tried_from_line_starts_only(source: str) -> None:
    assert from_line_starts(source)


@pytest.mark.parametrize(
    "source",
    [
        r".*a|b",  # `b` may match anywhere
        r"(?P<m>.*a|b)c",  # the same inside the opening group
        r"(.*a)?b",  # the opening group may be skipped: the match may start at `b`
        r"(.*a)+b",
        r"x.*a",  # opens with a literal
        r"(?i).*a",  # a flag group first
        r".*+a",  # possessive
        r".{2}a",
        r"(?#c).*a",
    ],
)
def test_a_regex_whose_match_may_start_inside_a_line_is_searched_everywhere(source: str) -> None:
    assert not from_line_starts(source)


def test_no_line_start_search_under_flags_that_change_where_it_starts() -> None:
    import regex

    for flag in (regex.VERBOSE, regex.REVERSE, regex.V1, regex.WORD):
        assert not from_line_starts(".*a", int(flag))


@settings(max_examples=150, deadline=None)
@given(source=st.sampled_from(READ_THROUGH), text=st.text(alphabet="ab xyz\nfailedErrorNospace-=.", max_size=80))
def test_searching_from_line_starts_finds_the_first_match_a_search_finds(source: str, text: str) -> None:
    """Whatever the text (several lines too), the same match, span and groups as the regex
    searched at every character."""
    import regex

    plain, anchored = regex.compile(source).search(text), LazyRegex(source).search(text)
    assert (plain is None) == (anchored is None)
    if plain is not None and anchored is not None:
        assert (plain.span(), plain.groups()) == (anchored.span(), anchored.groups())


# ---------------------------------------------------------------- the words a match holds (literals.py)


@pytest.mark.parametrize(
    ("source", "words"),
    [
        (READ_THROUGH[0], ("Disk quota exceeded", "Too many open files", "No space left on device")),
        (r"Decode batch(?: \[\d+\])? #running-req: (?P<running>\d+)", (" #running-req: ",)),  # the rarer run
        (r"Decode batch(?: \[\d+\])?[.,] #\w+", ("Decode batch",)),
        (r"x?y", ("y",)),  # an optional part holds nothing a match must have
        (r"(?:raise|throw)\s+\w+", ("raise", "throw")),  # one branch's words or the other's
        (r"f['\"]", ('f"', "f'")),  # a small class: each of its characters in turn
        (r"(?:err|error|ERR)\b", ("ERR", "err")),  # `error` holds `err`: it adds nothing
        (r"(?!skipped)\bfailed", ("failed",)),  # a negative lookahead holds nothing
        (r"(?:ab)+c?", ("ab",)),  # repeated at least once
    ],
)
def test_the_words_every_match_of_a_regex_holds(source: str, words: tuple[str, ...]) -> None:
    assert set(required_words(source) or ()) == set(words)


@pytest.mark.parametrize(
    "source",
    [
        r"(?i)failed",  # any case: `FAILED` lacks `failed`
        r"(?x) fail ed",  # verbose: read by rules this parser is not asked to share
        r"[[:digit:]]+ failed",  # a POSIX class the `regex` module reads, a nested set to `re`
        r"(?:fail){e<=1}ed",  # fuzzy matching: `regex` lets the word differ
        r"\p{Lu}+ failed",  # a Unicode property: the standard parser refuses it
        r"failed|.*",  # a branch that needs no word
        r"a*",
    ],
)
def test_no_words_when_a_match_may_lack_them_or_the_regex_is_read_otherwise(source: str) -> None:
    assert required_words(source) is None


def test_a_text_without_the_words_is_not_searched_and_is_no_match() -> None:
    pattern = LazyRegex(r"(?P<message>.*\bNo space left on device\b.*)")
    assert pattern.search("[2026-07-02 10:16:03] OSError: [Errno 28] No space left on device") is not None
    assert pattern.search("[2026-07-02 10:16:03] Decode batch. #running-req: 24") is None


def test_every_example_line_of_the_library_holds_one_of_its_regex_words(library: Library) -> None:
    """Words the analysis got wrong (one a match may lack) would leave lines unmatched: every line
    the library's patterns and open-world entries say they match holds one of their words."""
    entries: list[tuple[str, LazyRegex, tuple[str, ...]]] = [
        (pattern.id, pattern.regex, pattern.examples.match) for pattern in library.patterns
    ]
    layer = library.errors
    assert layer is not None
    for group in (layer.markers, layer.benign, layer.warnings, layer.causes):
        entries.extend((entry.id, entry.regex, entry.match) for entry in group if entry.regex is not None)
    checked = 0
    for name, pattern, examples in entries:
        words = required_words(pattern.pattern, pattern.flags) or ()
        for line in examples if words else ():
            if pattern.compiled.search(line) is not None:
                assert any(word in line for word in words), (name, words, line)
                checked += 1
    assert checked > 300


REQUIRING = (r"\bfailed\b", r"(?:No space|quota) (?:left|exceeded)", r"x(?=yz)", r"(?:ab)+ed")


@settings(max_examples=150, deadline=None)
@given(
    source=st.sampled_from(REQUIRING),
    text=st.lists(st.sampled_from(["fail", "ed", "No space", " left", "quota", " exceeded", "x", "yz", "ab", " "])).map(
        "".join
    ),
)
def test_a_search_with_the_words_test_finds_what_a_plain_search_finds(source: str, text: str) -> None:
    import regex

    plain, tested = regex.compile(source).search(text), LazyRegex(source).search(text)
    assert (plain is None) == (tested is None)
    if plain is not None and tested is not None:
        assert plain.span() == tested.span()


# ---------------------------------------------------------------- the regex watch


EVIL = LazyRegex("(a|aa)+$")  # backtracks exponentially on a long run of a's that ends otherwise


def test_watched_search_runs_without_the_regex_modules_clock_and_is_still_stopped(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    asked: list[dict[str, object]] = []
    compiled = EVIL.compiled

    class Spy:
        def search(self, text: str, **kwargs: object) -> object:
            asked.append(kwargs)
            return compiled.search(text, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(EVIL, "_compiled", Spy())
    with watched():
        with pytest.raises(TimeoutError):
            EVIL.search("a" * 5000 + "!", timeout=0.3)
        assert EVIL.search("aaa", timeout=0.3) is not None
    assert asked == [{}, {}]  # no `timeout`: the watch's timer kept the limit
    with pytest.raises(TimeoutError):
        EVIL.search("a" * 5000 + "!", timeout=0.3)
    assert asked[-1] == {"timeout": 0.3}  # outside the watch, the regex module keeps it


def test_a_search_in_another_thread_keeps_its_own_limit_while_the_main_thread_is_watched() -> None:
    outcome: list[str] = []

    def search() -> None:
        try:
            EVIL.search("a" * 5000 + "!", timeout=0.3)
            outcome.append("finished")
        except TimeoutError:
            outcome.append("timed out")

    with watched():
        worker = threading.Thread(target=search)
        worker.start()
        worker.join()
    assert outcome == ["timed out"]
    assert WATCH.thread is None


def test_the_watch_ends_with_its_block_and_does_not_nest() -> None:
    import signal

    with watched():
        assert WATCH.thread == threading.get_ident()
        assert signal.getitimer(signal.ITIMER_VIRTUAL)[1] > 0
        with watched():  # a nested block leaves the outer timer alone
            pass
        assert signal.getitimer(signal.ITIMER_VIRTUAL)[1] > 0
    assert WATCH.thread is None
    assert signal.getitimer(signal.ITIMER_VIRTUAL) == (0.0, 0.0)
    assert signal.getsignal(signal.SIGVTALRM) == signal.SIG_DFL


def test_a_forked_child_is_not_watched_until_it_watches(tmp_path: Path) -> None:
    import os

    with watched():
        child = os.fork()
        if child == 0:  # the interval timer is not inherited: the child must not rely on it
            os._exit(0 if WATCH.thread is None else 1)
        _, status = os.waitpid(child, 0)
    assert os.waitstatus_to_exitcode(status) == 0


def test_a_child_forked_in_a_watched_block_can_watch_its_own_searches() -> None:
    """A worker scanning a range of a large file (scan/parallel.py) is forked inside the parent's
    watched block: it starts its own timer, and its searches are timed by it, not by the `regex`
    module's clock reads on every search (the parent's handler, inherited without its timer, must
    not make the child think another handler holds the signal)."""
    import os

    with watched():
        child = os.fork()
        if child == 0:
            with watched():
                os._exit(0 if WATCH.thread is not None else 1)
        _, status = os.waitpid(child, 0)
    assert os.waitstatus_to_exitcode(status) == 0


# ---------------------------------------------------------------- sampled metrics anchors, a block at a time


def _one_by_one(
    buf: bytes, lo: int, hi: int, limit: int, sampled: tuple[int, bytes], state: object, lines: dict
) -> None:
    """The sampled anchor's occurrences one by one, each asked of `take` (the searcher before)."""
    number, anchor = sampled
    sink, after = state.sink, lo  # type: ignore[attr-defined]
    for pos in accel.occurrences(buf, anchor, lo, hi):
        if pos < after:
            continue
        weight = sink.take(number, state.offset + pos)  # type: ignore[attr-defined]
        if not weight:
            after = pos + 1
            continue
        stop = search.line_end(buf, pos, limit)
        search._add_line(buf, pos, stop, number, False, weight, lines)
        after = max(stop, pos + 1)


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_sampled_metrics_lines_counted_a_block_at_a_time_equal_one_by_one(
    index: AnchorIndex, monkeypatch: pytest.MonkeyPatch, data: st.DataObject
) -> None:
    """Past a stream's first bytes the metrics lines in a block the sample skips are counted with
    bytes.count: the events, counts and series are those of asking `take` about each occurrence
    (lines of any length, two anchors on a line, blocks cut anywhere, any chunking)."""
    decode = (
        "[2026-07-02 10:16:42 DP0 TP3 EP0] Decode batch. #running-req: {n}, #token: 11224, token usage: 0.03, "
        "cuda graph: True, gen throughput (token/s): 447.35, #queue-req: {q}"
    )
    others = ["x" * 40, "Decode batch" * 2, "[2026-07-02 10:16:43] INFO:  GET /health 200 OK", ""]
    picks = data.draw(st.lists(st.integers(min_value=0, max_value=len(others)), min_size=20, max_size=60))
    lines = [decode.format(n=i % 7, q=i % 5) if k == len(others) else others[k] for i, k in enumerate(picks)]
    text = ("\n".join(lines) + "\n").encode() * data.draw(st.integers(min_value=20, max_value=80))
    monkeypatch.setattr(events, "SAMPLE_FULL", data.draw(st.sampled_from([1 << 10, 4 << 10])))
    monkeypatch.setattr(events, "SAMPLE_BLOCK", data.draw(st.sampled_from([64, 256, 1 << 10])))
    chunk = data.draw(st.sampled_from([4 << 10, 1 << 20]))
    bulk = scan(text, index, chunk)
    with monkeypatch.context() as patched:
        patched.setattr(search, "_find_sampled", _one_by_one)
        reference = scan(text, index, chunk)
    assert bulk.events == reference.events and bulk.counts == reference.counts
    assert bulk.series == reference.series


def test_only_an_anchor_that_can_overlap_itself_is_counted_by_finds() -> None:
    assert search._overlaps(b"abab") and search._overlaps(b"aa")
    assert not search._overlaps(b"Decode batch") and not search._overlaps(b"Prefill batch")
    assert search._starts_in(b"ababab", b"abab", 0, 6, 6) == 2  # bytes.count would say 1
    assert search._starts_in(b"xDecode batchDecode batch", b"Decode batch", 0, 14, 25) == 2
