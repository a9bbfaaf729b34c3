"""The catalogue of line formats (patterns/formats/, library/formats.py): each component's line
format said once, as data, and read from there by everything that knows a line's prefix: the time
of a line, the level the generic error layer reads, the message templates and quotes are made of,
and whether a line is run-time output."""

from __future__ import annotations

import dataclasses
import shutil
from pathlib import Path

import pytest

from pdlogdoctor.library.formats import Formats, _first_in_order, check_formats, load_formats
from pdlogdoctor.library.load import builtin_library_dir, load_library
from pdlogdoctor.library.patterns import Library
from pdlogdoctor.library.templates import message_of, template_of
from pdlogdoctor.model.errors import PatternError
from pdlogdoctor.pipeline import run
from pdlogdoctor.reason.fingerprint import normalise
from pdlogdoctor.render.text import log_message
from pdlogdoctor.scan.timeline import parse_stamp

from .conftest import ROOT

# Real lines (patterns/formats/trtllm.toml cites the threads).
TRTLLM_ERROR = (
    "[05/27/2025-21:12:36] [TRT-LLM] [E] Failed to initialize executor on rank 3: [TensorRT-LLM][ERROR] CUDA runtime "
    "error in cudaMemsetAsync(fc1_act_sf_flat, 0x0, getOffsetFlatSFArray(num_experts_per_node, num_rows, cols), "
    "stream): an illegal memory access was encountered (/builds/ftp/internalcutlasskernels/cpp/tensorrt_llm/kernels/"
    "internal_cutlass_kernels/src/moe_gemm/moe_kernels.cu:1282)"
)
TRTLLM_INFO = "[05/27/2025-21:12:35] [TRT-LLM] [I] Run autotuning warmup for batch size=1"
TRTLLM_RANK = (
    "[09/17/2025-21:24:19] [TRT-LLM] [RANK 2] [E] Error executing load_single_module with args "
    "('model.layers.9.mlp.gate_up_proj', Linear()): CUDA out of memory. Tried to allocate 40.00 MiB."
)


def test_every_format_reads_its_own_samples(library: Library) -> None:
    """Each sample is read by its own format, with the time, level and message it states."""
    assert check_formats(library.formats) == []
    assert sum(len(fmt.samples) for fmt in library.formats.formats) >= 80


@pytest.mark.parametrize(
    "change",
    [
        lambda s: dataclasses.replace(s, time="2026-01-01 00:00:00"),
        lambda s: dataclasses.replace(s, level="critical"),
        lambda s: dataclasses.replace(s, message="something else"),
    ],
    ids=["time", "level", "message"],
)
def test_a_sample_that_says_otherwise_is_caught(library: Library, change: object) -> None:
    formats = library.formats
    (trtllm,) = [fmt for fmt in formats.formats if fmt.id == "trtllm"]
    wrong = (change(trtllm.samples[1]), *trtllm.samples[2:])  # type: ignore[operator]
    broken = Formats.of(
        fmt if fmt is not trtllm else dataclasses.replace(trtllm, samples=wrong) for fmt in formats.formats
    )
    (problem,) = check_formats(broken)
    assert problem.startswith(f"{trtllm.path}: format trtllm: ") and "expected" in problem


def test_the_catalogue_holds_each_component_the_reference_names(library: Library) -> None:
    ids = {fmt.id for fmt in library.formats.formats}
    components = {"sglang", "vllm", "glog", "glog-year", "spdlog", "nccl", "ucx", "torch-rank", "router", "uvicorn"}
    others = {"lmcache", "trtllm", "trtllm-cpp", "source-place", "python-logging", "rust-tracing", "dmesg-time"}
    assert components | others | {"harness", "python-traceback", "syslog", "github-actions"} <= ids


def test_a_format_the_tool_did_not_read_is_one_data_file(library: Library) -> None:
    """TensorRT-LLM's Python logger (`[MM/DD/YYYY-HH:MM:SS] [TRT-LLM] [E] `) was read by nothing: no
    time, the `[E]` level unknown. Its file gives the time, the level and the message everywhere."""
    stamp = parse_stamp(TRTLLM_ERROR)
    assert stamp is not None and (stamp.text, stamp.year_known) == ("2025-05-27 21:12:36", True)
    assert library.formats.read(TRTLLM_ERROR).level == "error"
    assert library.formats.read(TRTLLM_INFO).level == "info"
    assert message_of(TRTLLM_INFO) == log_message(TRTLLM_INFO) == "Run autotuning warmup for batch size=1"
    assert library.errors is not None
    hit = library.errors.classify(TRTLLM_RANK)  # no ERROR word: its `[E]` says the level
    assert hit is not None and hit.marker == "format-error"
    assert hit.template.startswith("Error executing load_single_module with args")
    assert library.errors.classify(TRTLLM_INFO) is None


def test_a_user_directory_adds_formats(tmp_path: Path) -> None:
    """`--patterns DIR` with a `formats/` file: its formats are read like the shipped ones (here a
    copy of TensorRT-LLM's under another id, tried first)."""
    (tmp_path / "formats").mkdir()
    text = (builtin_library_dir() / "formats" / "trtllm.toml").read_text()
    text = text.replace('id = "trtllm"', 'id = "site-trtllm"').replace("order = 75", "order = 1")
    text = text.replace('id = "trtllm-cpp"', 'id = "site-trtllm-cpp"')
    (tmp_path / "formats" / "site.toml").write_text(text)
    library = load_library([tmp_path])
    reading = library.formats.read(TRTLLM_ERROR)
    assert reading.format is not None and (reading.format.id, reading.level) == ("site-trtllm", "error")
    shadowed = check_formats(library.formats)  # and the check says which shipped samples it now reads
    assert shadowed and all("read by ['site-" in problem and "not by this one" in problem for problem in shadowed)


def test_a_format_file_is_checked_on_load(tmp_path: Path) -> None:
    (tmp_path / "formats").mkdir()
    shutil.copy(builtin_library_dir() / "formats" / "lmcache.toml", tmp_path / "formats" / "lmcache.toml")
    with pytest.raises(PatternError, match="two formats have this id"):
        load_library([tmp_path])
    (tmp_path / "formats" / "lmcache.toml").write_text(
        '[[format]]\nid = "x"\ncomponent = "x"\nstarts_with = "x"\nregex = \'^(?P<when>x)\'\n'
        '[[format.sample]]\nline = "x"\n'
    )
    with pytest.raises(PatternError, match="unknown named groups"):
        load_formats([tmp_path])
    (tmp_path / "formats" / "lmcache.toml").write_text(
        '[[format]]\nid = "x"\ncomponent = "x"\nstarts_with = "x"\nregex = \'^x \'\nrole = "bench"\n'
        '[[format.sample]]\nline = "x y"\n'
    )
    with pytest.raises(PatternError, match="'bench' is not a role"):
        load_formats([tmp_path])


def test_the_first_character_decides_which_formats_are_tried(library: Library) -> None:
    """The first-character gate is data (`starts_with`): a line is tried only against the formats
    that can start with its first character, so a format for a new first character needs no code."""
    formats = library.formats
    (trtllm,) = [fmt for fmt in formats.formats if fmt.id == "trtllm"]
    narrowed = Formats.of(
        fmt if fmt is not trtllm else dataclasses.replace(trtllm, starts_with="x") for fmt in formats.formats
    )
    assert parse_stamp(TRTLLM_ERROR, narrowed) is None
    assert parse_stamp(TRTLLM_ERROR, formats) is not None


def test_a_tag_before_a_line_is_read_through(library: Library) -> None:
    """A launcher's tag (Ray's, vLLM's worker, torchrun's) before a component's line: the line's own
    format still gives its time and level (glog behind vLLM's EngineCore tag had no time before)."""
    line = (
        "(EngineCore_DP0 pid=48211) E0702 11:20:31.441987 52310 worker_pool.cpp:245] "
        "Cannot allocate endpoint: 10.82.101.249:16324@mlx5_2"
    )
    stamp = parse_stamp(line)
    assert stamp is not None and stamp.text == "07-02 11:20:31"
    reading = library.formats.read(line)
    assert reading.format is not None and (reading.format.id, reading.level) == ("glog", "error")
    assert reading.message == "Cannot allocate endpoint: 10.82.101.249:16324@mlx5_2"


def test_the_message_column_and_the_templates_read_the_same_prefix(library: Library) -> None:
    for fmt in library.formats.formats:
        for sample in fmt.samples:
            if sample.message is not None:
                assert message_of(sample.line) == log_message(sample.line) == sample.message, sample.line


def test_a_fingerprint_masks_a_time_as_the_catalogue_says_it_looks_in_text() -> None:
    assert normalise("failed at 2026-07-02 10:16:03.412 on node") == "failed at <time> on node"
    assert normalise("failed at 2026-07-02T10:16:03Z") == "failed at <time>"


def test_a_time_of_whole_seconds_keeps_its_place_in_its_file(tmp_path: Path, library: Library) -> None:
    """vllm-ascend#5635: glog (with its year, to the microsecond) then vLLM (to the second) in one
    file. The vLLM lines were written after the glog ones: the earliest error is the glog line."""
    excerpt = Path(__file__).parent / "data" / "excerpts" / "vllm-ascend-5635-mooncake-connect-103900"
    report = run([str(excerpt)], library)
    (earliest,) = [t for t in report.unrecognised if t.earliest]
    assert earliest.first.line == 1 and "Failed to connect to target" in earliest.first.text


def test_the_scan_reads_the_library_s_catalogue(library: Library) -> None:
    """A run's times come from the catalogue of the library it was given (a user's formats too),
    not from a copy: without the formats that read sglang's bracketed date, the seed's lines have none."""
    seed = Path(__file__).parent.parent / "fixtures" / "mori-mr-size-limit-seed"
    whole = run([str(seed)], library)
    assert whole.chain and all(event.time is not None for event in whole.chain if "prefill" in event.source)
    narrowed = Formats.of(fmt for fmt in library.formats.formats if fmt.id not in ("sglang", "timestamped"))
    blind = dataclasses.replace(library, formats=narrowed)
    prefill = [event for event in run([str(seed)], blind).chain if "prefill" in event.source]
    assert prefill and all(event.time is None for event in prefill)


def test_a_format_names_the_engine_that_wrote_the_line(library: Library) -> None:
    """The advice names the engine's own flags: which engine wrote a line is the format's `engine`."""
    vllm = "(EngineCore_DP0 pid=5704) ERROR 01-06 06:43:02 [mooncake_connector.py:419] Mooncake transfer failed"
    sglang = "[2026-02-26 05:35:08 TP7] Load weight end. elapsed=887.93 s, type=GlmMoeDsaForCausalLM"
    glog = "E0729 05:04:30.527725 14093 rdma_endpoint.cpp:70] Failed to create QP: Cannot allocate memory [12]"
    engines = [library.formats.engine_of(line) for line in (vllm, sglang, TRTLLM_ERROR, glog)]
    assert engines == ["vllm", "sglang", "trtllm", None]


def test_a_files_engine_is_the_one_most_of_its_lines_tell(library: Library) -> None:
    """NCCL's WARN behind a bare `[date time] ` reads as sglang's prefix; the vLLM engine core's tags
    on the lines around it say whose file it is (vllm-project/vllm#25597, a blind round's excerpt)."""
    lines = [
        "[2025-09-23 23:57:03] vllm-deepseek-ep-decode-0:1673:9080 [0] include/alloc.h:228 NCCL WARN Cuda failure 2 "
        "'out of memory'",
        "(EngineCore_DP4 pid=1675) ncclInternalError: Internal check failed.",
        "(EngineCore_DP4 pid=1675) Last error:",
    ]
    assert library.formats.engine_of(lines[0]) == "sglang"
    assert library.formats.engine_of_lines(lines) == "vllm"
    assert library.formats.engine_of_lines(lines[:1]) == "sglang"  # one line, one say
    assert library.formats.engine_of_lines(["no format here"]) is None


def test_a_format_tells_the_hosts_own_log(library: Library) -> None:
    """A kernel's line (dmesg with a date or seconds since boot, syslog's `kernel:`) is the host's own
    log, read as beside a server's trouble though no server wrote it; another program's syslog line,
    a server's own line and a line quoting the kernel's words are not."""
    host = [
        "[Thu Sep  3 02:08:17 2026] nfs: server it-share-nfs01 not responding, still trying",
        "[ 4835.341521] INFO: task python3:41877 blocked for more than 122 seconds.",
        "Mar 11 08:17:29 gpu-node-07 kernel: python3 invoked oom-killer: gfp_mask=0x140dca(GFP_HIGHUSER_MOVABLE)",
    ]
    others = [
        "Jul 16 06:16:02 mi355-c07 systemd[1]: sglang-decode.service: Main process exited, code=exited, "
        "status=1/FAILURE",
        "[2026-02-26 05:35:08 TP7] Load weight end. elapsed=887.93 s, type=GlmMoeDsaForCausalLM",
        "the decode hung: nfs: server it-share-nfs01 not responding, still trying",
    ]
    assert [library.formats.host_line(line) for line in host] == [True, True, True]
    assert [library.formats.host_line(line) for line in others] == [False, False, False]


def test_an_error_template_is_made_of_what_the_catalogue_reads(library: Library) -> None:
    """A severity marker's own cut (`ERROR` then a guessed prefix) never keeps a prefix the
    catalogue reads: torch_npu's `[ERROR] 2025-04-08-18:07:20 (PID:…, Device:…, RankID:…) ` was
    templated from its date on. Every error sample's template lies within the message the catalogue
    reads (which may keep a level word and a source place: the template may drop them too)."""
    layer = library.errors
    assert layer is not None
    checked = 0
    for fmt in library.formats.formats:
        for sample in fmt.samples:
            hit = layer.classify(sample.line)
            if sample.message is None or hit is None or sample.level not in ("error", "critical"):
                continue
            checked += 1
            assert hit.template in template_of(sample.message, layer.masks), sample.line
    assert checked >= 10


CRI_LINE = "2026-03-24T12:06:12.100936505+08:00 stderr F  (most recent call first):"


def test_a_collector_s_record_is_read_from_the_catalogue(library: Library) -> None:
    """containerd's and Cloud Logging's records around a line are data (kind = "record" in
    patterns/formats/collectors.toml): without the entry, the line is not a record."""
    found = library.formats.record(CRI_LINE)
    assert found is not None and CRI_LINE[found.end() :] == " (most recent call first):"
    assert found.group("received") == "2026-03-24T12:06:12.100936505+08:00"
    without = Formats.of(fmt for fmt in library.formats.formats if fmt.id != "cri-record")
    assert without.record(CRI_LINE) is None
    assert library.formats.record("2026-03-24T12:06:12.100934176+08:00 INFO stdout is ready") is None


def test_a_record_without_its_received_time_is_refused(tmp_path: Path) -> None:
    (tmp_path / "formats").mkdir()
    (tmp_path / "formats" / "records.toml").write_text(
        '[[format]]\nid = "x"\ncomponent = "x"\nkind = "record"\nstarts_with = "x"\nregex = \'^x \'\n'
        '[[format.sample]]\nline = "x y"\n'
    )
    with pytest.raises(PatternError, match="a record needs a `received` group"):
        load_formats([tmp_path])


def test_one_regex_of_alternatives_finds_the_first_format_in_order(library: Library) -> None:
    """`Formats._first` reads which format a line has in one match of the alternatives its first
    character allows: on every line of the corpus's samples and of a few fixtures (and those lines
    behind their own prefix), the format and match are those of trying the formats one by one."""
    formats = library.formats
    assert formats is not None
    lines = [sample.line for fmt in formats.formats for sample in fmt.samples]
    for bundle in (
        "mori-mr-size-limit-seed",
        "fleet-2p2d-one-prefill-fails",
        "blind-fam-vllm-nixl-lease-expired-invalid-kv",
    ):
        for path in sorted((ROOT / "fixtures" / bundle).glob("*.log")):
            lines += path.read_text(errors="replace").splitlines()[:200]
    lines += [line[found.end() :] for line in lines if (found := formats._first(line)[1]) is not None and found.end()]
    assert len(lines) > 1000
    for line in lines:
        group = formats._by_char.get(line[:1]) if line else None
        expected = (
            _first_in_order(group if group is not None else formats._others(line[:1]), line) if line else (None, None)
        )
        got = formats._first(line)
        assert (got[0], got[1] and got[1].span()) == (expected[0], expected[1] and expected[1].span()), line
