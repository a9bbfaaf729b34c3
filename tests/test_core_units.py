"""Unit tests of the core stages: timestamps, tracebacks, the MR arithmetic, exit codes."""

from __future__ import annotations

import calendar
import io
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pdlogdoctor.cli.commands import app
from pdlogdoctor.library.conditions import parse_condition
from pdlogdoctor.library.fields import (
    alnum_share,
    is_fragment,
    longest_run,
    mixed_words,
    phrase_repeat,
    repeat_fraction,
    scripts_in,
    typed_fields,
    vocabulary,
)
from pdlogdoctor.library.patterns import Library
from pdlogdoctor.reason.analyzers.memory_registration import bytes_per_token, suggested_region_bytes
from pdlogdoctor.scan.index import AnchorIndex
from pdlogdoctor.scan.search import scan_stream
from pdlogdoctor.scan.timeline import clean_line, parse_stamp
from pdlogdoctor.scan.traceback import read_traceback, read_what

GIB = 1 << 30


def epoch(*parts: int) -> float:
    return float(calendar.timegm((*parts, 0, 0, 0)))


@pytest.mark.parametrize(
    ("line", "seconds", "ranks"),
    [
        ("[2026-07-02 10:16:03 DP0 TP3 EP0] Prefill batch.", epoch(2026, 7, 2, 10, 16, 3), {"DP": 0, "TP": 3, "EP": 0}),
        ("[2026-07-02 10:16:03.250 TP7] x", epoch(2026, 7, 2, 10, 16, 3) + 0.25, {"TP": 7}),
        ("[2026-07-02 10:16:03.412] [48211] [application] [error] x", epoch(2026, 7, 2, 10, 16, 3) + 0.412, {}),
        ("2026-02-26 13:00:12 ERROR http_request{}: smg::x", epoch(2026, 2, 26, 13, 0, 12), {}),
        (
            '[2026-07-02 10:15:30] INFO:     127.0.0.1:1 - "POST /generate HTTP/1.1" 500',
            epoch(2026, 7, 2, 10, 15, 30),
            {},
        ),
    ],
)
def test_dated_timestamp_shapes(line: str, seconds: float, ranks: dict[str, int]) -> None:
    stamp = parse_stamp(line)
    assert stamp is not None and stamp.year_known
    assert stamp.seconds == pytest.approx(seconds)
    assert dict(stamp.ranks) == ranks


def test_yearless_glog_and_vllm_shapes() -> None:
    glog = parse_stamp("E0702 10:16:03.412345 48211 rdma_context.cpp:203] Failed to register memory 0x7b: x [14]")
    vllm = parse_stamp("(EngineCore_DP0 pid=12) ERROR 07-02 10:16:03 [nixl_connector.py:1] x")
    assert glog is not None and not glog.year_known
    assert vllm is not None and not vllm.year_known
    assert glog.text.startswith("07-02 10:16:03")


def test_actions_prefix_and_colours_are_removed() -> None:
    line, actions = clean_line("2026-07-02T10:16:03.4120000Z \x1b[31m[probe] request failed\x1b[0m\r\n")
    assert line == "[probe] request failed"
    assert actions == "2026-07-02T10:16:03.4120000Z"


def _capture_bar(steps: int) -> str:
    """sglang's CUDA-graph capture bar as tqdm redraws it (a lone CR before each redraw)."""
    return "".join(
        f"\rCapturing batches (bs={160 - 8 * k} avail_mem=20.{k:02d} GB): {5 * k:3d}%|{'#' * (k // 2):10}| "
        f"{k}/{steps} [00:0{k % 10}<00:10,  1.70it/s]"
        for k in range(steps)
    )


def test_a_progress_bar_s_redraws_are_shown_as_their_last() -> None:
    """Redraws of one bar on one line of the file: only the last, with what was written behind it."""
    crash = "[2026-07-02 10:05:40 TP0] Scheduler hit an exception: Traceback (most recent call last):"
    line, _ = clean_line(_capture_bar(20) + crash + "\n")
    assert (
        line == "\rCapturing batches (bs=8 avail_mem=20.19 GB):  95%|######### | 19/20 [00:09<00:10,  1.70it/s]" + crash
    )
    loading = "Loading safetensors checkpoint shards:  {}% Completed | {}/8 [00:01<00:08,  1.19s/it]"
    line, _ = clean_line("\r".join([loading.format(0, 0), loading.format(12, 1), "[2026-07-02 10:05:41] x"]))
    assert line == loading.format(12, 1) + "\r[2026-07-02 10:05:41] x"
    kept = [
        "Uvicorn running on http://0.0.0.0:30000\rFORGED: not a line",  # no bar: both stay
        "ERROR 07-29 a 50% b\rERROR 07-29 c 60% d",  # percentages, but no bar's shape
        "Capturing batches (bs=8): 10%|#| 1/9 [00:01<00:02][2026-07-02 10:05:40] err\rCapturing batches (bs=8): 20%",
        "Capturing batches (bs=8): 10%\rLoading weights: 20%",  # two bars
    ]
    assert [clean_line(text)[0] for text in kept] == kept


def test_kubectl_prefix_and_timestamp_are_removed() -> None:
    """`kubectl logs --prefix --timestamps`: the pod prefix, then the runtime's stamp, then the line."""
    raw = "[pod/pd-prefill-0/sglang] 2026-11-30T06:52:06.119572361Z Exception ignored in: <function Popen.__del__>\n"
    line, received = clean_line(raw)
    assert line == "Exception ignored in: <function Popen.__del__>"
    assert received == "2026-11-30T06:52:06.119572361Z"
    stamped, _ = clean_line(
        "[pod/pd-decode-0/sglang] 2026-11-30T06:52:06.1Z [2026-11-30 06:52:06] INFO:     Shutting down"
    )
    stamp = parse_stamp(stamped)
    assert stamp is not None and stamp.text == "2026-11-30 06:52:06"


def test_traceback_fields_name_the_innermost_project_frame() -> None:
    text = (
        b"[2026-07-08 03:12:09 TP3] Scheduler hit an exception: Traceback (most recent call last):\n"
        b'  File "/sgl-workspace/sglang/python/sglang/srt/managers/scheduler.py", line 2710, in run_scheduler_process\n'
        b"    scheduler = Scheduler(server_args, port_args, gpu_id, tp_rank)\n"
        b'  File "/sgl-workspace/sglang/python/sglang/srt/model_executor/pool_configurator.py", line 412, in largest\n'
        b"    return per_token // min(ratios)\n"
        b'  File "/usr/lib/python3.12/functools.py", line 10, in wrapper\n'
        b"ZeroDivisionError: integer division or modulo by zero\n"
        b"[2026-07-08 03:12:10] Received sigquit from a child process. It usually means the child failed.\n"
    )
    fields = read_traceback(text, text.index(b"\n"), len(text))
    assert fields["exc_type"] == "ZeroDivisionError"
    assert fields["exc_message"] == "integer division or modulo by zero"
    assert str(fields["frame_file"]).endswith("pool_configurator.py")
    assert fields["frame_line"] == 412


def test_torch_nccl_errors_bring_nccl_s_last_error() -> None:
    """torch continues an NCCL error's message with NCCL's own last error: that is the cause."""
    text = (
        b"[2026-11-29 16:20:58 TP3] Scheduler hit an exception: Traceback (most recent call last):\n"
        b'  File "/usr/lib/python3/dist-packages/torch/distributed/distributed_c10d.py", line 4810, in barrier\n'
        b"    work = group.barrier(opts=opts)\n"
        b"torch.distributed.DistBackendError: NCCL error in: ProcessGroupNCCL.cpp:3690, unhandled system error "
        b"(run with NCCL_DEBUG=INFO for details), NCCL version 2.27.3\n"
        b"ncclSystemError: System call (e.g. socket, malloc) or external library call failed or device error. \n"
        b"Last error:\n"
        b"Error while creating shared memory segment /dev/shm/nccl-Kq3xZa (size 9637888), "
        b"error: No space left on device (28)\n"
        b"\n"
    )
    fields = read_traceback(text, text.index(b"\n"), len(text))
    assert fields["exc_type"] == "torch.distributed.DistBackendError"
    assert str(fields["exc_last_error"]).endswith("No space left on device (28)")
    # Without the continuation (another record follows the exception), there is none.
    cut = text[: text.index(b"ncclSystemError")] + b"[2026-11-29 16:20:59] Last error:\nsomething else\n"
    assert "exc_last_error" not in read_traceback(cut, cut.index(b"\n"), len(cut))


def test_what_text_of_an_uncaught_cxx_exception() -> None:
    """libstdc++ prints the exception's what() on the line under 'terminate called after throwing':
    behind a launcher's prefix, after another rank's line, or (some programs) starting a line lower."""
    vllm = (
        b"(Worker_TP2 pid=733) terminate called after throwing an instance of 'c10::DistBackendError'\n"
        b"(Worker_TP1 pid=732) [rank1]:[E702 14:21:05.33 ProcessGroupNCCL.cpp:1895] [PG ID 2 PG GUID 3 Rank 1] x\n"
        b"(Worker_TP2 pid=733)   what():  [PG ID 2 PG GUID 3 Rank 2] Process group watchdog thread terminated\n"
    )
    assert read_what(vllm, vllm.index(b"\n"), len(vllm)) == {
        "exc_message": "[PG ID 2 PG GUID 3 Rank 2] Process group watchdog thread terminated"
    }
    # Another worker's what() is not this exception's message.
    other = vllm.replace(b"(Worker_TP2 pid=733)   what()", b"(Worker_TP1 pid=732)   what()")
    assert read_what(other, other.index(b"\n"), len(other)) == {}
    ray = (
        b"(EngineCore_DP0 pid=742) (RayWorkerWrapper pid=233, ip=10.20.1.125) terminate called after throwing an"
        b" instance of 'c10::Error'\n"
        b"(EngineCore_DP0 pid=742) (RayWorkerWrapper pid=233, ip=10.20.1.125)   what():  CUDA error: unspecified launch"
        b" failure\n"
    )
    assert read_what(ray, ray.index(b"\n"), len(ray)) == {"exc_message": "CUDA error: unspecified launch failure"}
    below = b"terminate called after throwing an instance of 'PLMD::Exception'\nwhat():\nAction X is not known.\n"
    assert read_what(below, below.index(b"\n"), len(below))["exc_message"] == "Action X is not known."
    # Killed before it printed the text: no message, rather than the next record's words.
    cut = b"terminate called after throwing an instance of 'c10::DistBackendError'\n[2026-11-27 19:12:26] Received\n"
    assert read_what(cut, cut.index(b"\n"), len(cut)) == {}


def test_suggested_region_is_power_of_two_below_failure_capped_at_2gib() -> None:
    assert suggested_region_bytes(6_002_442_240, [])[0] == 2 * GIB
    assert suggested_region_bytes(4_294_836_224, [])[0] == 2 * GIB
    # A 1.5 GiB failure: the largest power of two strictly below it is 1 GiB.
    assert suggested_region_bytes(3 * GIB // 2, [])[0] == 1 * GIB
    # Exactly 2 GiB failing: strictly below means 1 GiB.
    assert suggested_region_bytes(2 * GIB, [])[0] == 1 * GIB


def test_a_proven_larger_region_lifts_the_2gib_cap() -> None:
    proven_4_5_gib = 4_831_838_208
    assert suggested_region_bytes(6_002_442_240, [proven_4_5_gib])[0] == 4 * GIB
    # Proven regions below 2 GiB do not lower the cap: the failure bound already applies.
    assert suggested_region_bytes(6_002_442_240, [GIB])[0] == 2 * GIB


def test_bytes_per_token_rounds_only_near_whole_numbers() -> None:
    assert bytes_per_token(6_002_442_240, 23_448_064) == 256  # 255.989: page padding
    assert bytes_per_token(4_294_836_224, 16_776_704) == 256
    assert bytes_per_token(1000, 3) == 333  # 333.33 is within 1% of 333
    assert bytes_per_token(1000, 6) == 167  # 166.67 -> 167 (0.2%)
    assert bytes_per_token(150, 100) == 1  # 1.5 is 50% from a whole number: floor


def test_failure_conditions() -> None:
    condition = parse_condition("accuracy <= threshold")
    assert condition.holds({"accuracy": 0.88, "threshold": 0.92})
    assert condition.holds({"accuracy": 0.92, "threshold": 0.92})  # the gate needs strictly above
    assert not condition.holds({"accuracy": 0.95, "threshold": 0.92})
    assert not condition.holds({"threshold": 0.92})  # a missing field never holds
    either = parse_condition("status != 200 or output_ids_zero_fraction >= 0.5")
    assert either.holds({"status": 200, "output_ids_zero_fraction": 0.75})
    assert not either.holds({"status": 200, "output_ids_zero_fraction": 0.1})
    with pytest.raises(ValueError):
        parse_condition("accuracy is low")


def test_a_condition_may_compute_its_floor() -> None:
    """lm-eval's correctness check states a reference and a tolerance, not its floor: ground_truth x
    (1 - rtol) is computed (products bind tighter than sums; a missing or non-numeric field never holds)."""
    floor = parse_condition("measured < expected - expected*rtol")
    assert floor.fields == {"measured", "expected", "rtol"}
    assert floor.holds({"measured": 0.419, "expected": 0.458, "rtol": 0.08})  # under 0.4214
    assert not floor.holds({"measured": 0.422, "expected": 0.458, "rtol": 0.08})
    assert not floor.holds({"measured": 0.419, "expected": 0.458})
    assert not floor.holds({"measured": 0.419, "expected": "n/a", "rtol": 0.08})
    assert parse_condition("a > 2*b + 1").holds({"a": 7.5, "b": 3}) and not parse_condition("a > 2*b + 1").holds(
        {"a": 7, "b": 3}
    )
    assert parse_condition("code == -15").holds({"code": -15})  # a negative number is no sum


@pytest.mark.parametrize(
    ("text", "fraction"),
    [
        (",,,,,,,,,,,,,,,,,,,,", 1.0),  # vllm-ascend#2210: one token over and over
        ("locklocklocklocklock...", 0.8696),  # LMCache#4614: four letters repeated, the ellipsis is not
        ("\ufffd\ufffd\ufffd\ufffd\ufffd\ufffd", 1.0),  # replacement characters
        (" Paris is the capital of France, known for the Eiffel Tower.", 0.0),  # prose
        ("=" * 40, 0.0),  # a rule: layout
        ("\u2588" * 30, 0.0),  # a progress bar's blocks: layout
        ("|---|---|---|---|---|", 0.0),  # a Markdown table's rule row: layout
        ("\\n\\n\\n\\n\\n\\n", 0.0),  # escaped newlines, as a JSON string shows them
        ("", 0.0),
        # NVIDIA/TensorRT-LLM#6507 (a round 175 bundle): a ten-character subword token until the limit
        ("ifications" * 8, 1.0),
        # ... and a long word said twice in prose: no run of four
        ("antidisestablishmentarianism and antidisestablishmentarianism again", 0.0),
    ],
)
def test_a_generated_text_repeat_fraction_counts_one_unit_repeated_not_layout(text: str, fraction: float) -> None:
    assert repeat_fraction(text) == fraction


def test_a_text_field_carries_its_length_and_repeat_fraction() -> None:
    values = typed_fields((("output", "text"),), {"output": "!!!!!!!!!!!!!!!!"})
    assert values == {
        "output": "!!!!!!!!!!!!!!!!",
        "output_len": 16,
        "output_repeat_fraction": 1.0,
        "output_phrase_repeat": 0.0,  # a phrase is 8 characters at least, three times: 24
        "output_longest_run": 16,
        "output_scripts": 0,
        "output_fragment": 0,
        "output_mixed_words": 0,
        "output_alnum_share": 0.0,
        "output_blank": 0,
        "output_replacements": 0,
        "output_vocabulary": 1.0,
        "output_words": 0,  # `!` marks only: no word, so no share of words to tell
        "output_word_share": 0.0,
        "output_function_share": 0.0,
        "output_capital_share": 0.0,
    }


@pytest.mark.parametrize(
    ("text", "blank"),
    [
        ("\\n\\n\\n\\n\\n\\n\\n\\n\\n\\n", 1),  # vllm-project/vllm#450: ten newline tokens, escaped
        ("", 0),  # nothing generated is not a text of blanks
        ("\\n\\nParis", 0),
        ("\\nothing here", 0),  # a backslash before a word: not an escaped blank
    ],
)
def test_a_text_of_blanks_is_told_apart(text: str, blank: int) -> None:
    assert typed_fields((("output", "text"),), {"output": text}).get("output_blank", 0) == blank


def test_a_texts_undecodable_characters_are_counted() -> None:
    """sophgo/LLM-TPU#19: a name's bytes split mid-character, decoded as three U+FFFD."""
    values = typed_fields((("output", "text"),), {"output": "Nice to meet you, 张子\ufffd\ufffd\ufffd!"})
    assert values["output_replacements"] == 3


@pytest.mark.parametrize(
    ("text", "run"),
    [
        # vllm-project/vllm#39181: a coherent start, then `*   ` until the length limit (layout units count)
        ("1.  **Analyze the Request:** compare 0.9 and 0.11.\\n    " + "*   " * 80, 320),
        ("=" * 40, 40),  # a rule: a run, but short of any limit a pattern sets on it
        ("|---|---|---|---|---|", 20),
        ("        indented code", 0),  # whitespace alone is no unit
        (" Paris is the capital of France.", 0),
    ],
)
def test_a_generated_text_longest_run_counts_any_repeated_unit_but_whitespace(text: str, run: int) -> None:
    assert longest_run(text) == run


@pytest.mark.parametrize(
    ("text", "scripts"),
    [
        ("Paris is the capital of France, 2,102,650 residents.", 1),
        ("東京は日本の首都です。", 2),  # kanji and kana
        ("def total(xs): return sum(xs)  # 计算总和", 2),
        ("Привет, мир! Hello, world.", 2),
        ("12345 !!! ??? ---", 0),
        # vllm-project/vllm#1385: StarCoder's answer after an upgrade, tokens drawn as if at random
        ("alaxymrb FloatingVPNcdn问题AppointmentPods запис\ufffd상 objective Trimfreqاف hdグCN", 7),
        ("\ufffd\ufffd", 1),
    ],
)
def test_a_generated_text_counts_the_writing_systems_of_its_letters(text: str, scripts: int) -> None:
    assert scripts_in(text) == scripts


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        # vllm-project/vllm#22929: GLM-4.5V in FP8, marks and function words only
        (", , the, ", True),
        (", , the., the ", True),
        # vllm-project/vllm-ascend#6822: stops on an article
        (" What and the... the", True),
        (",  connected by, ", False),  # a content word
        (", ", False),  # too short to judge
        (" No, it is not.", False),  # function words, but a whole sentence
        (" I am a", False),  # three tokens: a cut answer
        (" Joel, my dad is my friend", False),
        ("!!!!!!!!", False),  # no word: one mark repeated is repeat_fraction's
    ],
)
def test_a_generated_text_of_function_words_that_no_sentence_is_is_a_fragment(text: str, fragment: bool) -> None:
    assert is_fragment(text) is fragment


@pytest.mark.parametrize(
    ("text", "share"),
    [
        # NVIDIA/TensorRT-LLM#2492: one sentence until the length limit
        # 14 times the 27 characters ` 10 year old girls clothes ` of 381 (escaped newlines read as spaces)
        ("\\n10 year old girls clothes\\n" * 14 + "\\n10", round(378 / 381, 4)),
        (" Paris is the capital of France. It is known for the Eiffel Tower and the Louvre.", 0.0),
        ("def f(x):\n    return x\n\ndef g(x):\n    return x\n", 0.0),  # code repeats lines, not three in a row
        ("", 0.0),
    ],
)
def test_a_generated_text_phrase_repeat_counts_one_sentence_repeated(text: str, share: float) -> None:
    assert phrase_repeat(text) == share


@pytest.mark.parametrize(
    ("text", "count"),
    [
        # InternLM/lmdeploy#286: the api_server's answer, tokens glued across Latin and Cyrillic
        ("Fot wall führtecard bytesChild коло führtecardtrecardChildChild führteьюcardChild Childью", 2),
        ("Привет, мир! Hello, world.", 0),  # two alphabets, never inside one word
        ("使用Python可以很方便地处理数据", 0),  # Chinese glues Latin words to its own: no alphabet pair
        ("The step took 10μs and Δt was 3 ms.", 2),  # a unit's or a variable's Greek letter: one each
        ("", 0),
    ],
)
def test_a_generated_text_counts_the_words_written_in_two_alphabets(text: str, count: int) -> None:
    assert mixed_words(text) == count


@pytest.mark.parametrize(
    ("text", "share"),
    [
        # anthony-chaudhary/fak#996: four kinds of token in eight words
        ("ómuéómóm CALLBACK ufen ufen óm óm ufen ufen ...", 0.5),
        ("the cat and the dog and the bird", 0.625),  # a sentence repeats its small words only
        ("Paris is the capital", 1.0),  # too few words to say
        ("", 1.0),
    ],
)
def test_a_generated_text_counts_how_many_kinds_of_word_it_uses(text: str, share: float) -> None:
    assert vocabulary(text) == share


@pytest.mark.parametrize(
    ("text", "share"),
    [
        # the shape of triton-inference-server/tensorrtllm_backend#234's answer: 16 letters of 46 shown
        (". with. with. sums sums //////// ........ (). (). (()).", round(16 / 46, 4)),
        ("def total(xs): return sum(x * 2 for x in xs)", round(29 / 35, 4)),  # code: mostly words
        ("3 + 4 = 7", 0.6),
        ("", 1.0),
    ],
)
def test_a_generated_text_alnum_share_counts_letters_and_digits_among_what_is_shown(text: str, share: float) -> None:
    assert alnum_share(text) == share


def test_scan_finds_events_with_line_numbers_and_last_line_without_newline(library: Library) -> None:
    noise = "[2026-07-02 10:16:00 TP0] Decode batch. #running-req: 1\n" * 5000
    incident = (
        "[2026-07-02 10:16:03.412] [1] [application] [error] RegisterRdmaMemoryRegion failed! "
        "addr:0x7f, size:6002442240, accessFlag:15, errno:22 (Invalid argument)"
    )
    data = (
        noise + incident + "\n" + noise + "[probe] request failed -- PD path not serving; aborting before sweep"
    ).encode()
    result = scan_stream(io.BytesIO(data), "x.log", AnchorIndex.build(library), chunk_bytes=4096)
    found = {(e.pattern, e.line) for e in result.events}
    assert ("mori-mr-register-failed", 5001) in found
    assert ("probe-not-serving", 10002) in found
    assert result.lines == 10002


runner = CliRunner()


def test_patterns_check_passes_on_the_shipped_library() -> None:
    result = runner.invoke(app, ["patterns", "check"])
    assert result.exit_code == 0, result.output
    assert result.output.startswith("ok:")


def test_patterns_check_fails_with_exit_2_on_a_broken_pattern_file(tmp_path: Path) -> None:
    (tmp_path / "broken-one.toml").write_text('id = "broken-one"\ntitle = "x"\nregex = "(unclosed"\n')
    result = runner.invoke(app, ["patterns", "check", "--patterns", str(tmp_path)])
    assert result.exit_code == 2
    assert "broken-one.toml" in result.output


def test_nothing_readable_exits_4(tmp_path: Path) -> None:
    (tmp_path / "empty").mkdir()
    result = runner.invoke(app, ["analyze", str(tmp_path / "empty"), "--format", "json"])
    assert result.exit_code == 4


@pytest.mark.parametrize(
    "line",
    [
        "prefill-1  | [2026-07-02 10:16:03 TP0] Prefill batch. #new-seq: 1",
        "[Router (Rust)] 2026-07-02 10:16:03 - INFO - Worker http://10.0.0.1:30000 health check is pending",
    ],
)
def test_collector_prefixes_do_not_hide_the_time(line: str) -> None:
    stamp = parse_stamp(line)
    assert stamp is not None
    assert stamp.seconds == pytest.approx(epoch(2026, 7, 2, 10, 16, 3))


def test_a_concatenation_of_every_log_is_read_as_one_mixed_stream(library: Library) -> None:
    from pdlogdoctor.pipeline import run

    bundle = Path(__file__).resolve().parent.parent / "fixtures" / "mori-mr-size-limit-seed"
    joined = b"".join(path.read_bytes() for path in sorted(bundle.glob("*.log")))
    report = run(["-"], library, stdin=io.BytesIO(joined))
    assert [source.role.value for source in report.inputs] == ["mixed"]
    assert report.verdict.id == "mori-mr-size-limit"
    assert report.missing == ()  # one stream holds every component: nothing is missing


def test_a_crash_excerpt_that_starts_late_does_not_claim_before_pool_sizing(tmp_path: Path, library: Library) -> None:
    from pdlogdoctor.pipeline import run

    (tmp_path / "prefill.log").write_text(
        "[2026-07-06 21:40:10 TP3] Scheduler hit an exception: Traceback (most recent call last):\n"
        '  File "/sgl-workspace/sglang/python/sglang/srt/managers/scheduler.py", line 2710, in run_scheduler_process\n'
        "RuntimeError: Error building extension 'sgl_jit_dsv4_topk'\n"
        "[2026-07-06 21:40:12] Received sigquit from a child process. It usually means the child failed.\n"
    )
    report = run([str(tmp_path)], library)
    facts = dict(report.verdict.facts)
    # Nor does it claim start-up: no start, ready line or telling frame is in the lines (issue 10 item 7).
    assert report.verdict.id == "scheduler-crash"
    assert str(facts["after_kv_pool_sizing"]).startswith("unknown")
    assert "before KV pool sizing" not in report.verdict.summary


def test_notes_and_scripts_beside_the_logs_are_not_evidence(tmp_path: Path, library: Library) -> None:
    from pdlogdoctor.pipeline import run

    quoted = "[probe] request failed -- PD path not serving; aborting before sweep\n"
    (tmp_path / "EXPECTED.txt").write_text("expected: healthy\n" + quoted)
    (tmp_path / "launch.sh").write_text(f'echo "{quoted.strip()}"\n')
    (tmp_path / "bench.log").write_text("[probe] ok:  Paris.\n[gsm8k] accuracy=0.943 threshold=0.91\n")
    report = run([str(tmp_path)], library)
    assert report.verdict.id == "healthy"
    skipped = {s.name.rsplit("/", 1)[-1] for s in report.inputs if any(p.code == "not-a-log" for p in s.problems)}
    assert skipped == {"EXPECTED.txt", "launch.sh"}
    assert not report.incomplete
    # Named explicitly, a file is always read.
    assert run([str(tmp_path / "EXPECTED.txt")], library).verdict.id == "inconclusive"


def test_a_faulthandler_dump_names_the_faulting_thread_not_the_first_one() -> None:
    srt = "/sgl-workspace/sglang/python/sglang/srt"
    lines = [
        "Fatal Python error: Segmentation fault",
        "",
        "Thread 0x00007f3a2cfff640 (most recent call first):",
        f'  File "{srt}/disaggregation/mooncake/conn.py", line 1184 in heartbeat_checker',
        '  File "/usr/lib/python3.12/threading.py", line 1010 in run',
        "",
        "Current thread 0x00007f3b91e6b740 (most recent call first):",
        f'  File "{srt}/layers/attention/flashinfer_backend.py", line 711 in forward_decode',
        f'  File "{srt}/managers/scheduler.py", line 987 in event_loop_overlap_disagg_decode',
        "",
        "[2026-07-02 10:20:00] Received sigquit from a child process. It usually means the child failed.",
    ]
    text = ("\n".join(lines) + "\n").encode()
    fields = read_traceback(text, text.index(b"\n"), len(text))
    assert fields["frame_func"] == "forward_decode"
    assert str(fields["frame_file"]).endswith("flashinfer_backend.py")


def test_a_pasted_excerpt_with_collector_prefixes_or_indentation_reads_like_the_raw_log(
    tmp_path: Path, library: Library
) -> None:
    from pdlogdoctor.pipeline import run

    raw = [
        "[2026-02-27 15:27:12 TP3] Scheduler hit an exception: Traceback (most recent call last):",
        '  File "/sgl-workspace/sglang/python/sglang/srt/managers/scheduler.py", line 2297, in run_scheduler_process',
        "RuntimeError: NCCL error: remote process exited or there was a network error",
    ]
    shapes = {
        "compose.txt": ["prefill-1  | " + line for line in raw],
        "kubectl.txt": ["[pod/sglang-prefill-0/prefill] " + line for line in raw],
        "indented.txt": ["    " + line for line in raw],
    }
    for name, lines in shapes.items():
        path = tmp_path / name
        path.write_text("\n".join(lines) + "\n")
        facts = dict(run([str(path)], library).verdict.facts)
        assert facts.get("exception") == "RuntimeError: NCCL error: remote process exited or there was a network error"
        assert str(facts.get("innermost_project_frame", "")).endswith("scheduler.py:2297 in run_scheduler_process")


def test_excerpt_lines_are_read_whole_across_growing_reads(tmp_path: Path) -> None:
    """Re-reading a source for its excerpt starts with a small read (a one-line log zeroes no 4 MiB
    buffer): lines on either side of each read's end come back whole and numbered."""
    from pdlogdoctor.describe.excerpt import _read_lines

    lines = [f"[2026-07-02 10:16:03 TP0] Decode batch. #running-req: {n}, #token: {n * 7}" for n in range(1, 40_001)]
    path = tmp_path / "decode.log"
    text = "\n".join(lines)  # no newline after the last line
    path.write_text(text)
    crossing = text[: 64 << 10].count("\n") + 1  # the line the first read's end cuts
    wanted = {1, crossing - 1, crossing, crossing + 1, 7_777, 20_000, 39_999, 40_000}
    assert path.stat().st_size > 2 << 20
    assert _read_lines(str(path), wanted) == {n: lines[n - 1] for n in wanted}


def test_reads_from_a_start_are_64_kib_then_the_chunk() -> None:
    """Small first (a one-line file zeroes no chunk-sized buffer), then full size at once (buffers
    doubling in between left a 100 MB run ~8 MiB more resident); a plain file's size decides."""
    from itertools import islice

    from pdlogdoctor.ingest.streams import read_sizes

    assert list(islice(read_sizes(4 << 20), 4)) == [64 << 10, 4 << 20, 4 << 20, 4 << 20]
    assert list(islice(read_sizes(1000), 3)) == [1000] * 3  # a chunk below the first read: that chunk
    assert list(islice(read_sizes(4 << 20, 5 << 20), 2)) == [4 << 20] * 2  # a plain file known to be large
    assert list(islice(read_sizes(4 << 20, 40), 2)) == [41, 41]  # a small one: all of it, then its end
