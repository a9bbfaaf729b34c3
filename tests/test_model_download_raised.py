"""A traceback through the code that downloads a model's files is a model that could not be loaded,
and the report names the exception it ended in, not the frame (patterns/model/model-download-raised,
reason/diagnose.py `_default_summary`): KServe's storage initializer writing Hugging Face's cache
under a read-only HOME (kserve#4310, blind round 110), and a hub download that filled the disk.
A traceback through huggingface_hub that never reached its download code names no model load."""

from __future__ import annotations

from pathlib import Path

from pdlogdoctor.pipeline import run

from .conftest import analysed_lines, shipped_library

LIBRARY = shipped_library()
KSERVE_CASE = (
    Path(__file__).parent / "data" / "blind-round110-excerpts-e" / "03-kserve-hf-storage-initializer-permission"
)
HUB = "/usr/local/lib/python3.12/dist-packages/huggingface_hub"
HUB_DISK_FULL = [
    "Traceback (most recent call last):",
    '  File "/usr/local/lib/python3.12/dist-packages/vllm/transformers_utils/config.py", line 412, in get_config',
    "    config_path = hf_hub_download(model, CONFIG_NAME, revision=revision)",
    '  File "/usr/local/lib/python3.12/dist-packages/huggingface_hub/utils/_validators.py", line 114, in _inner_fn',
    "    return fn(*args, **kwargs)",
    '  File "/usr/local/lib/python3.12/dist-packages/huggingface_hub/file_download.py", line 1010, in hf_hub_download',
    "    return _hf_hub_download_to_cache_dir(",
    f'  File "{HUB}/file_download.py", line 1171, in _hf_hub_download_to_cache_dir',
    "    _download_to_tmp_and_move(",
    "OSError: [Errno 28] No space left on device",
]
NOT_A_DOWNLOAD = [
    "Traceback (most recent call last):",
    '  File "/app/serve.py", line 40, in <module>',
    "    api.create_repo(name)",
    '  File "/usr/local/lib/python3.12/dist-packages/huggingface_hub/utils/_validators.py", line 114, in _inner_fn',
    "    return fn(*args, **kwargs)",
    "ValueError: Invalid repo name",
]


def test_a_storage_initializers_traceback_is_the_model_load_named_by_its_exception() -> None:
    report = run([str(KSERVE_CASE)], LIBRARY)
    assert report.verdict.id == "model-load-failure", report.verdict
    assert "PermissionError: [Errno 13] Permission denied: '/.cache'" in report.verdict.summary
    assert report.verdict.summary.index("PermissionError") < report.verdict.summary.index("storage.py")


def test_a_hub_download_that_filled_the_disk_is_named_by_its_errno(tmp_path: Path) -> None:
    report = analysed_lines(tmp_path, LIBRARY, HUB_DISK_FULL, "excerpt.log")
    assert report.verdict.id == "model-load-failure", report.verdict
    assert "OSError: [Errno 28] No space left on device" in report.verdict.summary


def test_a_hub_call_that_is_no_download_names_no_model_load(tmp_path: Path) -> None:
    report = analysed_lines(tmp_path, LIBRARY, NOT_A_DOWNLOAD, "excerpt.log")
    assert report.verdict.id != "model-load-failure", report.verdict
