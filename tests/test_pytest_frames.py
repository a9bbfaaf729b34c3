"""A failed test's pytest traceback pasted: the line it failed on is quoted, its source is not.

pytest prints a frame's source around the line that raised and marks that line with `>`; the
exception follows on `E   ` lines. vllm-ascend#6235's paste (round 25, excerpts-c/09) stopped before
the `E` lines: the report quoted `except Exception as e:` (the frame's source) as the earliest error.
A statement is code no program prints (patterns/open-world/severity.toml's source-statement); the
`>` line says where the test failed (pytest-failing-line, an effect); with the `E` lines there, the
exception leads. Look-alike: a mail's quote of a log line (`> [time] ...`) is the log line.
"""

from __future__ import annotations

from pathlib import Path

from pdlogdoctor.library.patterns import Library

from .conftest import analysed_lines

FRAME = [
    "    def test_pd_gsm8k(self):",
    '        args = SimpleNamespace(num_shots=5, num_questions=200, host="http://127.0.0.1", port=8000)',
    "        try:",
    "            metrics = run_eval(args)",
    "        except Exception as e:",
    '            error_msg = f"eval run failed, reason is {e}"',
    "            raise",
    ">       self.launch_and_check(args)",
    "",
    "test/srt/test_disaggregation_pd.py:142: ",
]
RAISED = [
    "    def run_eval(args):",
    "        try:",
    "            resp = requests.post(url, json=payload, timeout=600)",
    "        except Exception as e:",
    '>           raise RuntimeError(f"request failed: {e}")',
    "E           RuntimeError: request failed: HTTPConnectionPool(host='127.0.0.1', port=8000): Read timed out. "
    "(read timeout=600)",
    "",
    "python/sglang/test/few_shot_gsm8k.py:88: RuntimeError",
]


def test_a_frame_without_its_exception_quotes_the_failing_line(tmp_path: Path, library: Library) -> None:
    report = analysed_lines(tmp_path, library, FRAME, "test-output.txt")
    assert report.verdict.id == "inconclusive"
    assert "test-output.txt:8: >       self.launch_and_check(args)" in report.verdict.summary
    quoted = [error.first.text for error in report.unrecognised]
    assert quoted == [">       self.launch_and_check(args)"]  # no statement of the frame's source


def test_the_exception_under_the_frame_leads(tmp_path: Path, library: Library) -> None:
    report = analysed_lines(tmp_path, library, [*FRAME[:-2], "", *RAISED], "test-output.txt")
    assert report.verdict.id == "inconclusive"
    summary = report.verdict.summary
    assert summary.startswith("The earliest error no pattern explains: ")
    assert "RuntimeError: request failed: HTTPConnectionPool(host='127.0.0.1', port=8000): Read timed out." in summary
    assert "except Exception" not in summary and "error_msg" not in summary


def test_a_quoted_log_line_is_the_log_line(tmp_path: Path, library: Library) -> None:
    line = "> [2026-07-02 10:16:03 TP0] Load weight end. type=DeepseekV3ForCausalLM, avail mem=31.20 GB"
    report = analysed_lines(tmp_path, library, [line], "paste.txt")
    assert report.verdict.id == "no-failure-seen"
    assert not report.unrecognised
