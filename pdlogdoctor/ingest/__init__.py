"""Ingest: turn the user's paths into readable byte streams, never writing anything.

Files, directories (recursively, symlink loops cut), `-` for stdin, `.gz` and
`.zst` (by their magic bytes, whatever the name), and zip / tar archives read
member by member. Anything that cannot be read becomes an `InputProblem` and
the rest is still analysed. The rules for hostile input (see docs and
tests/test_hostile_inputs.py):

- Only regular files are opened, with O_NONBLOCK, and re-checked with fstat
  after opening: a FIFO, socket or device is never read (opening a FIFO would block).
- A plain file is read up to the size it had when it was opened; if it grew
  meanwhile, the scan stops there with a `still-growing` problem (no endless tail).
- Decompression is incremental with a bounded output per step. A truncated or
  corrupt stream keeps everything decoded before the damage (`truncated` /
  `corrupt`). Output is capped per member (Limits.member_output) and per run
  (Limits.total_output): past a cap the member stops with `output-cap`.
- Archives are only read, never extracted: member names are shown without
  absolute or `..` parts and nothing is written anywhere. A gz/zst member is
  decompressed and a tar inside a zip is streamed; a zip inside an archive is not
  opened (`nested-archive`): it needs random access, i.e. holding it in memory
  or writing it to disk, and a tool running on untrusted artifacts does neither.
- Files that look binary (NUL bytes or control characters after any leading NUL
  hole), or whose name says so (`.so`, `.safetensors`, ...), are listed with
  `binary` and not read: no evidence is missing for it. A core dump (by its name,
  or an ELF header of type core) is never scanned either (it holds copies of log
  strings that did not happen there): its header is read (`coredump.py`) and it
  is listed with `core-dump`, as evidence that a process crashed.
- A line ends at LF (or CRLF). A lone CR, which progress bars redraw with, is
  part of its line: line numbers are the file's (as grep -n, sed and the
  annotations' `line=` count them), and the reports show the CR as `\r`.

The package by job: `discover` (paths to inputs), `streams` (safe opening,
decoding and the line-break rule, all typed against one `ByteSource`),
`archives` (zip / tar members) and `reopen` (re-reading a source for the excerpt).
"""

from .content import BINARY, LogInput
from .coredump import CORE_DUMP
from .discover import NOT_A_LOG, PASTED, discover
from .reopen import reopen
from .streams import Budget, ByteSource, Deadline, Reader, StreamStopped, open_regular, text_stream

__all__ = [
    "BINARY",
    "CORE_DUMP",
    "NOT_A_LOG",
    "PASTED",
    "Budget",
    "ByteSource",
    "Deadline",
    "LogInput",
    "Reader",
    "StreamStopped",
    "discover",
    "open_regular",
    "reopen",
    "text_stream",
]
