"""The time limit a command ran under, read above the line that reports its exit status.

coreutils' `timeout DURATION COMMAND` ends its command when the duration runs out and exits with
status 124 (its manual: "If the command times out, and --preserve-status is not set, then exit with
status 124"). A CI step that runs its tests as `timeout 40m pytest ...` and then reports `The command
exited with status 124` was stopped by its own time limit, whatever the tests were doing then
(vllm-omni#4886: every test that ran had passed). The status alone is a convention any program may
use; the `timeout` command above it in the same log is what says the limit ran out.
`read_time_limit_above` returns `limit` (the duration as written) and `command` (the line that
set it); nothing when no such line is within LINES_ABOVE lines.
"""

from __future__ import annotations

from ..model import FieldValue
from ..model.lazyre import lazy_re
from ..model.textcut import clip
from .timeline import bare_line

LINES_ABOVE = 20_000  # a step's whole output between its command line and its exit
# `timeout` as a command word (after the start, a space, a shell separator or a CI runner's
# `Commands:`), its options, then the duration: a number with an optional unit. A flag's value
# (`--timeout 300`), a plugin's name (`timeout-2.4.0`) and a sentence (`timeout of 600s`) are none.
_TIMEOUT_COMMAND = lazy_re(
    r"(?:^|[\s:;&|(`$])timeout\s+(?:-[-\w]+(?:[=\s]\d+[smhd]?|=\S+)?\s+)*(?P<limit>\d+(?:\.\d+)?[smhd]?)\s+[\w./\"'$]"
)


def read_time_limit_above(buf: bytes | bytearray, line_start: int, line_end: int, limit: int) -> dict[str, FieldValue]:
    end = line_start - 1
    for _ in range(LINES_ABOVE):
        if end <= 0:
            break
        start = buf.rfind(b"\n", 0, end) + 1
        if b"timeout" in buf[start:end]:
            line = bare_line(bytes(buf[start:end]).decode("utf-8", "replace")).strip()
            found = _TIMEOUT_COMMAND.search(line)
            if found is not None:
                return {"limit": found.group("limit"), "command": clip(line, 200)}
        end = start - 1
    return {}
