"""A command typed at a shell prompt is what the user ran, not what happened (issue 22).

A pasted terminal session keeps its commands: `$ grep -H -E 'timed out|Traceback' prefill.log` names
the errors it searches for, and was ranked as the earliest error no pattern explains, which kept a
slow run's failed gate from its bottleneck (round 32's blind bundle, inconclusive at first sight).
The severity marker shell-command reads a line behind a prompt (`$`, `%`, `user@host:path#`,
`(venv) $`) as quiet. The output under it is read as ever.
"""

from __future__ import annotations

from pathlib import Path

from pdlogdoctor.pipeline import run

from .conftest import shipped_library

LIBRARY = shipped_library()


def test_the_command_is_no_error_and_its_output_is_read(tmp_path: Path) -> None:
    lines = [
        "$ grep -n -E 'timed out|Traceback|RDMA error' decode.log",
        "root@gpu-node-3:/sgl-workspace# grep -c 'RDMA error' decode.log",
        "(vllm) % zcat prefill.log.gz | grep -i 'failed'",
        "RuntimeError: NCCL error in: ../torch/csrc/distributed/c10d/NCCLUtils.hpp:275, unhandled system error",
    ]
    (tmp_path / "paste.txt").write_text("".join(f"{line}\n" for line in lines))
    report = run([str(tmp_path)], LIBRARY)
    said = [t.first.text for t in report.unrecognised]
    assert not any(text.lstrip().startswith(("$", "root@", "(vllm)")) for text in said), said
    assert any("unhandled system error" in text for text in said) or any(
        "unhandled system error" in e.text for e in report.chain
    ), report.verdict.summary


def test_a_comment_or_a_dollar_amount_is_no_prompt(tmp_path: Path) -> None:
    lines = ["$5 failed: RuntimeError: price feed unreachable"]
    (tmp_path / "paste.txt").write_text("".join(f"{line}\n" for line in lines))
    report = run([str(tmp_path)], LIBRARY)
    assert any("price feed unreachable" in t.first.text for t in report.unrecognised), report.verdict.summary
