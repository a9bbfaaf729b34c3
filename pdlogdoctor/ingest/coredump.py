"""Core dumps: what a core file's name and ELF header say, read from its first bytes only.

A core dump is evidence that a process crashed, never a log: it is not scanned (it holds copies of
log strings that did not happen where it lies). It is known by its name (`core`, `core.<pid>`, the
kernel's `core.%e.%p.%t` patterns, systemd-coredump's `core.<comm>.<uid>.<boot id>.<pid>.<usec>`,
`*.core`) when its bytes are binary, or by its ELF header (e_type ET_CORE) whatever its name. The
header's first note segment names the process: NT_PRPSINFO's pr_fname (the 15-character process
name, `sglang::schedul` for a process titled `sglang::scheduler_TP0`) and pr_psargs (its command
line, 80 bytes), and NT_PRSTATUS's pr_cursig the signal it died of. Nothing past that segment is read.
"""

from __future__ import annotations

import struct
from collections.abc import Callable

from ..model import CoreDump, InputProblem
from ..model.lazyre import lazy_re

CORE_DUMP = "core-dump"  # the problem code of a core dump among the inputs: listed, never missing evidence
ELF_MAGIC = b"\x7fELF"
ET_CORE = 4
PT_NOTE = 4
NT_PRSTATUS = 1
NT_PRPSINFO = 3
MAX_PROGRAM_HEADERS = 4096  # a core has one per mapping; past this the note is not looked for
MAX_NOTE_BYTES = 64 << 10  # NT_PRSTATUS and NT_PRPSINFO come first in the segment the kernel and gdb write
# pr_fname[16] and pr_psargs[80] end struct elf_prpsinfo on every architecture (32 and 64 bit alike).
FNAME_FROM_END, PSARGS_FROM_END = 96, 80
PR_CURSIG_OFFSET = 12  # after struct elf_siginfo (three ints), in every elf_prstatus
EPOCH_RANGE = (946_684_800, 4_102_444_800)  # 2000 to 2100: a name's part that is a time, not a pid
_NAMED_CORE = lazy_re(r"^(?:core(?:\..+)?|.+\.core)$")
# systemd-coredump: core.<comm>.<uid>.<32-hex boot id>.<pid>.<usec>[.zst|.xz|.lz4]
_SYSTEMD = lazy_re(r"^core\.(?P<comm>.+)\.\d+\.[0-9a-f]{32}\.(?P<pid>\d+)\.(?P<usec>\d{16})(?:\.(?:zst|xz|lz4))?$")
ReadAt = Callable[[int, int], bytes]  # (offset, size) -> the bytes there (fewer at the end of the file)


def named_core(name: str) -> bool:
    """The name a core dump is written under (the content must still be binary: see `core_dump`)."""
    return _NAMED_CORE.match(name) is not None


def core_dump(name: str, head: bytes, read_at: ReadAt | None, modified: float | None) -> CoreDump | None:
    """What the file says of the process that dumped it, or None when it is no core dump. `head` is
    its first bytes (decompressed); `read_at` reads further into it (None: only `head` is there)."""
    elf_core = _elf_type(head) == ET_CORE
    if not elf_core and not named_core(name):
        return None
    reader = read_at or (lambda offset, size: head[offset : offset + size])
    notes = _notes(head, reader) if elf_core else {}
    from_name = _from_name(name)
    return CoreDump(
        program=_prpsinfo_text(notes.get(NT_PRPSINFO), FNAME_FROM_END, 16) or from_name.program,
        args=_prpsinfo_text(notes.get(NT_PRPSINFO), PSARGS_FROM_END, 80),
        pid=from_name.pid if from_name.pid is not None else _status_int(notes.get(NT_PRSTATUS), head, "pid"),
        signal=_status_int(notes.get(NT_PRSTATUS), head, "signal"),
        written=from_name.written if from_name.written is not None else modified,
        elf=elf_core,
    )


def core_problem(core: CoreDump) -> InputProblem:
    return InputProblem(CORE_DUMP, f"{describe(core)}: a core dump, read by its header only")


def describe(core: CoreDump) -> str:
    """The core in words: `ELF core of 'sglang::schedul' (sglang::scheduler_TP0), pid 8334, signal 11 (SIGSEGV)`."""
    what = "ELF core" if core.elf else "core dump"
    program = f" of '{core.program}'" if core.program else ""
    args = f" ({core.args})" if core.args and core.args != core.program else ""
    parts = [f"{what}{program}{args}"]
    if core.pid is not None:
        parts.append(f"pid {core.pid}")
    if core.signal:
        parts.append(f"signal {core.signal}{_signal_name(core.signal)}")
    return ", ".join(parts)


_SIGNALS = {
    4: "SIGILL",
    5: "SIGTRAP",
    6: "SIGABRT",
    7: "SIGBUS",
    8: "SIGFPE",
    11: "SIGSEGV",
    3: "SIGQUIT",
    31: "SIGSYS",
}


def _signal_name(number: int) -> str:
    return f" ({_SIGNALS[number]})" if number in _SIGNALS else ""


# ---------------------------------------------------------------- the name


def _from_name(name: str) -> CoreDump:
    """The comm, pid and time a core's name gives (systemd-coredump's, or the kernel's %p and %t)."""
    found = _SYSTEMD.match(name)
    if found is not None:
        return CoreDump(program=found["comm"], pid=int(found["pid"]), written=int(found["usec"]) / 1e6)
    if not name.startswith("core."):
        return CoreDump()
    numbers = [int(part) for part in name.split(".")[1:] if part.isdigit()]
    times = [n for n in numbers if EPOCH_RANGE[0] <= n <= EPOCH_RANGE[1]]
    pids = [n for n in numbers if 0 < n < EPOCH_RANGE[0]]
    return CoreDump(pid=pids[0] if pids else None, written=float(times[0]) if times else None)


# ---------------------------------------------------------------- the ELF header


def _elf_type(head: bytes) -> int | None:
    if len(head) < 18 or not head.startswith(ELF_MAGIC) or head[5] not in (1, 2):
        return None
    return int(struct.unpack_from(_order(head) + "H", head, 16)[0])


def _order(head: bytes) -> str:
    return "<" if head[5] == 1 else ">"


def _wide(head: bytes) -> bool:
    return head[4] == 2  # ELFCLASS64


def _notes(head: bytes, read_at: ReadAt) -> dict[int, bytes]:
    """The descriptors of the first note segment's notes, by type (the first of each type)."""
    segment = _first_note_segment(head, read_at)
    if segment is None:
        return {}
    data = read_at(segment[0], min(segment[1], MAX_NOTE_BYTES))
    order, offset = _order(head), 0
    found: dict[int, bytes] = {}
    while offset + 12 <= len(data):
        name_size, desc_size, kind = struct.unpack_from(order + "III", data, offset)
        desc = offset + 12 + _aligned(name_size)
        if desc + desc_size > len(data):
            break  # cut: the file holds only its first bytes
        found.setdefault(kind, data[desc : desc + desc_size])
        offset = desc + _aligned(desc_size)
    return found


def _first_note_segment(head: bytes, read_at: ReadAt) -> tuple[int, int] | None:
    """(offset, size) of the first PT_NOTE program header's segment."""
    order, wide = _order(head), _wide(head)
    # e_phoff, then e_phentsize and e_phnum: at 32 and 54 in Elf64_Ehdr, at 28 and 42 in Elf32_Ehdr.
    table_at, sizes_at, table_format = (32, 54, "Q") if wide else (28, 42, "I")
    if len(head) < sizes_at + 4:
        return None
    (table,) = struct.unpack_from(order + table_format, head, table_at)
    entry_size, count = struct.unpack_from(order + "HH", head, sizes_at)
    if not entry_size or not count:
        return None
    entries = read_at(table, min(count, MAX_PROGRAM_HEADERS) * entry_size)
    for start in range(0, len(entries) - entry_size + 1, entry_size):
        kind = struct.unpack_from(order + "I", entries, start)[0]
        if kind == PT_NOTE:
            # Elf64_Phdr: type, flags, offset, vaddr, paddr, filesz; Elf32_Phdr: type, offset, vaddr, paddr, filesz.
            if wide:
                offset, _, _, size = struct.unpack_from(order + "QQQQ", entries, start + 8)
            else:
                offset, _, _, size = struct.unpack_from(order + "IIII", entries, start + 4)
            return int(offset), int(size)
    return None


def _aligned(size: int) -> int:
    return (size + 3) & ~3


def _prpsinfo_text(desc: bytes | None, from_end: int, size: int) -> str | None:
    if desc is None or len(desc) < FNAME_FROM_END:
        return None
    raw = desc[len(desc) - from_end : len(desc) - from_end + size].split(b"\0", 1)[0]
    text = raw.decode("utf-8", errors="replace").strip()  # the kernel writes the cmdline's NULs as spaces
    return text or None


def _status_int(desc: bytes | None, head: bytes, what: str) -> int | None:
    """NT_PRSTATUS's pr_cursig (a short after struct elf_siginfo's three ints) or pr_pid (after
    the signal masks: two longs)."""
    offset, size = (PR_CURSIG_OFFSET, "h") if what == "signal" else ((32 if _wide(head) else 24), "i")
    if desc is None or len(desc) < offset + struct.calcsize(size):
        return None
    (value,) = struct.unpack_from(_order(head) + size, desc, offset)
    return int(value) or None
