"""What the frames of a crash's stack say: in which phase the process was, and which native
component it crashed in.

Driven by data (`frames.toml` in each library directory), like the patterns: a `phase` entry
names functions (and, if it must, their files) that only run while a server starts up
(`init`) or only while it serves (`runtime`); a `component` entry names the native code a
frame belongs to. The stack itself comes from the traceback reader (traceback.py), outermost
frame first, each frame as the line the log printed.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..model.errors import PatternError
from ..model.values import record
from . import schema
from .lazyregex import LazyRegex

if TYPE_CHECKING:
    import regex  # types only: the module is imported on the first compile (lazyregex.py)

NATIVE_FILE = "<unknown>"  # how native crash banners name the file of every frame
STACK_LINE_CHARS = 300
# The comma is optional: faulthandler's dumps (after 'Fatal Python error: ...') write `line N in f`.
# Python frames are indented, but exports that strip leading whitespace (Cloud Logging, some
# collectors, pastes) print them flush left, as native crash banners ('Segfault encountered') do,
# which name C++ symbols with spaces in them (`nixlUcxWorker::arm() const`).
# A paste through a rich-text editor (an issue's body, a chat) turns the quotes typographic:
# `File “/vllm-workspace/...py”, line 957, in worker_busy_loop` is the same frame.
_FRAME = LazyRegex(
    r'^\s*File ["\u201c](?P<file>[^"\u201d]+)["\u201d], line (?P<line>\d+)(?P<comma>,)? in (?P<func>.+?)\s*$'
)
# glog's failure signal handler (`    @     0x7f3a2c1b4f00 mooncake::RdmaEndPoint::deconstruct()`) and
# abseil's (`PC: @     0x7f5fba26bfb7  (unknown)  raise`: a frame size before the symbol), innermost
# first; a launcher's prefix may stand before them (`(EngineCore_DP0 pid=742) `).
_GLOG_FRAME = LazyRegex(r"(?:^|\s)(?:PC: )?@\s+0x[0-9a-fA-F]+\s+(?:(?:\d+|\(unknown\))\s+)?(?P<func>\S.*?)\s*$")
# gdb's `bt`: `#1  0x00007f3a2c1b4f00 in mooncake::RdmaEndPoint::deconstruct() () from /x/engine.so`
# or `#5  mooncake::WorkerPool::transferWorker (this=0x5f, thread_id=3) at /src/worker_pool.cpp:301`;
# when it stops on the signal it prints the current frame without a number first.
_GDB_FRAME = LazyRegex(
    r"^\s*(?:#\d+\s+(?:0x[0-9a-fA-F]+ in )?|0x[0-9a-fA-F]+ in )(?P<func>.+?) \((?:[^()]|\([^()]*\))*\)"
    r"(?: at (?P<file>\S+?):(?P<line>\d+)| from (?P<lib>\S+))?\s*$"
)
# c10's (PyTorch) backtraces:
# `frame #1: c10d::ProcessGroupNCCL::WorkNCCL::checkTimeout(...) + 0x2b4 (0x7fd1 in /x/libtorch_cuda.so)`.
_C10_FRAME = LazyRegex(
    r"(?:^|\s)frame #\d+: (?P<func>.+?)(?: \+ 0x[0-9a-fA-F]+)? \(0x[0-9a-fA-F]+ in (?P<lib>[^)]+)\)\s*$"
)
# UCX's backtrace (ucs/debug/debug.c, under `==== backtrace (tid: N) ====` after `Caught signal 11
# (...)`), innermost first: with its symbol reader, `%2d 0x%016lx %s()  %s:%u` (the source file may be
# `???` or empty: ` 1 0x000000000006751c ns::Class::method()  :0`); without it, the C library's
# `  3  /lib/x86_64-linux-gnu/libucp.so.0(ucp_get+0x52) [0x7108781c3e52]` (a symbol may be missing).
_UCX_FRAME = LazyRegex(
    r"^\s*\d+\s+(?:0x[0-9a-fA-F]+\s+(?P<func>\S.*?\(\))\s+(?P<file>\S*?):(?P<line>\d+)"
    r"|(?P<lib>/\S+?)\((?P<symbol>[^()+\s]*)(?:\+0x[0-9a-fA-F]+)?\)\s*\[0x[0-9a-fA-F]+\])\s*$"
)
# py-spy's `dump` (src/dump.rs): under `Thread <tid> (active|idle|active+gil): "name"`, each frame
# as `    <function> (<short file>:<line>)`, or `    <function> (<library>)` for a native frame
# (`--native`) without a line; innermost first. Read flush left too: a stack keeps its frames
# stripped, and pastes lose the indentation.
_PYSPY_FRAME = LazyRegex(
    r"^\s*(?P<func>[A-Za-z_<][^\s()]*) \("
    r"(?:(?P<file>[\w./+-]+\.pyx?):(?P<line>\d+)|(?P<lib>[\w.+-]+\.so(?:\.\d+)*))\)\s*$"
)


@record
class Frame:
    """One frame of a stack as the log printed it (the traceback reader, scan/traceback.py, finds them)."""

    file: str
    line: int
    func: str
    native: bool  # printed by a native backtrace (a C/C++ symbol), not by Python
    text: str = ""  # the frame's line
    offset: int = 0  # lines below the line that announced the stack
    # Python's traceback module prints the frame's source line under it (`File "x.py", line N, in f`,
    # with the comma); faulthandler and native banners print none.
    source_below: bool = False
    innermost_first: bool = False  # a py-spy dump's frame: its stack lists the innermost call first
    call: str = ""  # the source line Python printed under it: the call the frame was making, stripped


def _python_name(func: str) -> str:
    """A Python frame's function: its name alone. A paste that lost a newline joins the next line to
    it (`in _get_output(EngineCore_DP0 pid=276) ERROR ...`); no Python name holds a space or `(`."""
    return func if func.startswith("<") else re.split(r"[\s(]", func, maxsplit=1)[0]


def parse_frame(line: str, offset: int = 0) -> Frame | None:
    """The frame a line prints, in any of the formats above; None if it is not a frame."""
    text = line.strip()[:STACK_LINE_CHARS]
    found = _FRAME.match(line)
    if found:
        file = found.group("file")
        native = file == NATIVE_FILE or not file.endswith(".py")
        source_below = not native and found.group("comma") is not None
        func = found.group("func") if native else _python_name(found.group("func"))
        return Frame(file, int(found.group("line")), func, native, text, offset, source_below)
    found = _GLOG_FRAME.search(line)
    if found:
        return Frame(NATIVE_FILE, 0, found.group("func"), True, text, offset)
    found = _C10_FRAME.search(line)
    if found:
        return Frame(found.group("lib"), 0, found.group("func"), True, text, offset)
    found = _GDB_FRAME.match(line)
    if found:
        file = found.group("file") or found.group("lib") or NATIVE_FILE
        return Frame(file, int(found.group("line") or 0), found.group("func"), True, text, offset)
    found = _UCX_FRAME.match(line)
    if found:
        return _ucx_frame(found, text, offset)
    found = _PYSPY_FRAME.match(line)
    if found:
        native = found.group("lib") is not None
        file = found.group("lib") or found.group("file")
        line_no = int(found.group("line") or 0)
        return Frame(file, line_no, found.group("func"), native, text, offset, innermost_first=True)
    return None


def _ucx_frame(found: regex.Match[str], text: str, offset: int) -> Frame:
    """A frame of UCX's backtrace: a source file it could not read (`???`, nothing) is no file."""
    if found.group("lib"):
        return Frame(found.group("lib"), 0, found.group("symbol") or "(unknown)", True, text, offset)
    file = found.group("file")
    known = file and file != "???"
    return Frame(file if known else NATIVE_FILE, int(found.group("line")), found.group("func"), True, text, offset)


FRAMES_FILE = "frames.toml"
# `either`: a frame where an exception not caught ends the engine's process, in code both phases run
# (the model's forward: start-up profiles and captures it, serving runs it): a crash, its phase untold.
EITHER = "either"
PHASES = ("init", "runtime", EITHER)
MATCH_TIMEOUT_S = 0.5
_PHASE_KEYS = {"id", "phase", "function", "file", "call", "why", "examples"}
_COMPONENT_KEYS = {"id", "name", "function", "file", "blame", "skip", "runtime", "examples"}
# A Python frame of an installed package: its file under site-packages or dist-packages.
_INSTALLED = LazyRegex(r"/(?:site|dist)-packages/(?P<package>[A-Za-z_]\w*)")
# Where a native frame's library lives when it cannot be the user's: a system library directory
# (a driver's or a distribution's library the table does not name), or no path at all (`<unknown>`,
# the executable's name).
_SYSTEM_LIBRARY = LazyRegex(r"^(?!/)|^/(?:usr/(?:local/)?)?lib(?:32|64)?/(?!python)|^/usr/local/cuda|^/opt/rocm")


@record
class PhaseRule:
    id: str
    phase: str
    function: LazyRegex
    file: LazyRegex | None
    why: str
    match: tuple[str, ...]
    no_match: tuple[str, ...]
    path: str
    # When given, the rule names a frame only by the call its source line shows (run_scheduler_process
    # calling the event loop serves; calling anything else, it is still starting): a frame printed
    # without its source line is not named by it.
    call: LazyRegex | None = None

    def decides(self, frame: Frame) -> bool:
        if _search(self.function, frame.func) is None:
            return False
        if self.call is not None and (not frame.call or _search(self.call, frame.call) is None):
            return False
        return self.file is None or _search(self.file, frame.file) is not None


@record
class Component:
    id: str
    name: str
    function: LazyRegex | None  # a frame is the component's when its function or its file matches
    file: LazyRegex | None
    blame: bool  # a crash in its code is named as the crash's place
    skip: bool  # the signal handling itself: never named
    runtime: bool  # under everyone's code (libc, the C++ and CUDA/HIP runtimes, Python, torch)
    match: tuple[str, ...]
    no_match: tuple[str, ...]
    path: str

    def names(self, frame: Frame) -> bool:
        return (self.function is not None and _search(self.function, frame.func) is not None) or (
            self.file is not None and _search(self.file, frame.file) is not None
        )


@record
class OwnCode:
    """The innermost frame of a crash outside the runtime, when it is code no component names:
    the user's own or the model's (a plugin kernel, a remote-code model file)."""

    frame: Frame
    package: str  # the installed package it is in ("" outside site-/dist-packages)

    def describe(self) -> str:
        where = f"{self.frame.file}:{self.frame.line}" if self.frame.line else self.frame.file
        name = short_name(self.frame.func).removesuffix("()") if self.frame.native else self.frame.func
        owner = f"the package {self.package}" if self.package else "your own or the model's code"
        return f"{name}() in {where} ({owner}, not sglang, vLLM, torch or a library pdlogdoctor knows)"


@record
class PhaseEvidence:
    """The frame that says in which phase the process was."""

    phase: str
    frame: Frame
    why: str


@record
class Culprit:
    """The native frame a crash happened in, with the component it belongs to."""

    frame: Frame
    component: str
    callee: Frame | None  # the innermost named frame under it (the verbs or CUDA call it made)

    def describe(self) -> str:
        text = f"{short_name(self.frame.func)} ({self.component})"
        if self.callee is not None:
            text += f", at {short_name(self.callee.func)}"
        return text


@record
class FrameTable:
    phases: tuple[PhaseRule, ...] = ()
    components: tuple[Component, ...] = ()

    def phase_of(self, stack: Sequence[Frame]) -> PhaseEvidence | None:
        """The outermost frame a phase rule names decides: a serving loop may construct objects
        or call helpers named like start-up code deeper down, never the other way round. Rules that
        read a frame's call (its source line) come last: they speak for a stack cut at the process's
        entry, and a named step below it says more. Rules of phase `either` (code both phases run)
        come after both: any frame that tells the phase says more than one that only tells a crash."""
        for rules in (self._by_name, self._by_call, self._either):
            for frame in stack:
                rule = next((rule for rule in rules if rule.decides(frame)), None)
                if rule is not None:
                    return PhaseEvidence(rule.phase, frame, rule.why)
        return None

    @property
    def _by_name(self) -> tuple[PhaseRule, ...]:
        return tuple(rule for rule in self.phases if rule.call is None and rule.phase != EITHER)

    @property
    def _by_call(self) -> tuple[PhaseRule, ...]:
        return tuple(rule for rule in self.phases if rule.call is not None and rule.phase != EITHER)

    @property
    def _either(self) -> tuple[PhaseRule, ...]:
        return tuple(rule for rule in self.phases if rule.phase == EITHER)

    def component_of(self, frame: Frame) -> Component | None:
        return next((c for c in self.components if c.names(frame)), None)

    def own_code(self, stack: Sequence[Frame]) -> OwnCode | None:
        """The innermost frame that is not the runtime's (nor the signal handling's), when no
        component names it; None when that frame is a known component's (sglang's, Mooncake's)
        or has no name to give."""
        for frame in reversed(stack):
            component = self.component_of(frame)
            if component is not None and (component.runtime or component.skip):
                continue
            if component is not None or not _named(frame):
                return None
            if frame.innermost_first and not frame.file.startswith("/"):
                return None  # py-spy's short file name (`penaltylib/min_new_tokens.py`): whose it is is not told
            if frame.native and _search(_SYSTEM_LIBRARY, frame.file) is not None:
                return None
            installed = _search(_INSTALLED, frame.file)
            return OwnCode(frame, installed.group("package") if installed else "")
        return None

    def culprit(self, stack: Sequence[Frame]) -> Culprit | None:
        """The innermost native frame of a blamed component (Mooncake, NIXL, UCX, MORI), with the
        named call under it; None when no native frame names one."""
        native = [frame for frame in stack if frame.native]
        for depth in range(len(native) - 1, -1, -1):
            component = self.component_of(native[depth])
            if component is not None and component.blame:
                return Culprit(native[depth], component.name, self.innermost(native[depth + 1 :]))
        return None

    def innermost(self, stack: Sequence[Frame]) -> Frame | None:
        """The innermost frame with a name that is not the signal handling's own."""
        named = [frame for frame in stack if _named(frame) and not self._skipped(frame)]
        return named[-1] if named else None

    def _skipped(self, frame: Frame) -> bool:
        component = self.component_of(frame)
        return component is not None and component.skip


def short_name(func: str) -> str:
    """A native symbol without its parameter lists: `ns::Class::method()`."""
    out: list[str] = []
    depth = 0
    for char in func:
        if char == "(":
            if depth == 0:
                out.append("()")
            depth += 1
        elif char == ")":
            depth = max(0, depth - 1)
        elif depth == 0:
            out.append(char)
    name = "".join(out).removesuffix(" const").strip()
    return name.split("::{lambda", 1)[0]  # a lambda is named by the function it is written in


def _named(frame: Frame) -> bool:
    return (
        bool(frame.func) and frame.func not in ("(unknown)", "<unknown function>") and not frame.func.startswith("0x")
    )


def _search(pattern: LazyRegex, text: str) -> regex.Match[str] | None:
    try:
        return pattern.search(text, timeout=MATCH_TIMEOUT_S)
    except TimeoutError:
        return None


# ---------------------------------------------------------------- loading


def load_frames(dirs: Iterable[Path]) -> FrameTable:
    """The phase rules and components of every library directory's frames.toml (empty if none)."""
    phases: list[PhaseRule] = []
    components: list[Component] = []
    for directory in dirs:
        path = directory / FRAMES_FILE
        if not path.is_file():
            continue
        data, where = schema.read_toml(path), str(path)
        schema.check_keys(data, ("phase", "component"), (), where)
        phases += [_phase(raw, where, f"phase[{i}]") for i, raw in enumerate(data.get("phase", []))]
        components += [_component(raw, where, f"component[{i}]") for i, raw in enumerate(data.get("component", []))]
    return FrameTable(tuple(phases), tuple(components))


def _phase(raw: Any, where: str, key: str) -> PhaseRule:
    schema.check_keys(
        schema.table(raw, where, key), _PHASE_KEYS, ("id", "phase", "function", "why", "examples"), where, key
    )
    phase = schema.one_of(raw, "phase", PHASES, where, key)
    match, no_match = schema.examples(raw, where, key, what="frame line")
    file = schema.regex(raw, "file", where, key) if "file" in raw else None
    function = schema.regex(raw, "function", where, key)
    call = schema.regex(raw, "call", where, key) if "call" in raw else None
    return PhaseRule(str(raw["id"]), phase, function, file, str(raw["why"]), match, no_match, where, call)


def _component(raw: Any, where: str, key: str) -> Component:
    schema.check_keys(schema.table(raw, where, key), _COMPONENT_KEYS, ("id", "name", "examples"), where, key)
    if "function" not in raw and "file" not in raw:
        raise PatternError(where, key, "needs a function or a file regex")
    blame, skip, runtime = (schema.flag(raw, name, where, key) for name in ("blame", "skip", "runtime"))
    match, no_match = schema.examples(raw, where, key, what="frame line")
    function = schema.regex(raw, "function", where, key) if "function" in raw else None
    file = schema.regex(raw, "file", where, key) if "file" in raw else None
    return Component(str(raw["id"]), str(raw["name"]), function, file, blame, skip, runtime, match, no_match, where)


# ---------------------------------------------------------------- self-test


def _example_frame(example: str) -> Frame | None:
    """A phase example's frame: its frame line, and the source line under it when the example
    gives one (`File "...", line N, in f` then `\n    call()`)."""
    line, _, source = example.partition("\n")
    frame = parse_frame(line)
    return replace(frame, call=source.strip()) if frame is not None and source.strip() else frame


def check_frames(table: FrameTable) -> list[str]:
    """Every match example is a frame line the reader parses and its own entry names (for a
    phase rule: the first rule that names it, so the order of the file cannot hide it); no
    no_match example is named by its entry."""
    problems: list[str] = []
    for rule in table.phases:
        for line, want in [(x, True) for x in rule.match] + [(x, False) for x in rule.no_match]:
            frame = _example_frame(line)
            if frame is None:
                problems.append(f"{rule.path}: phase {rule.id}: not a frame line: {line!r}")
                continue
            first = next((r for r in table.phases if r.decides(frame)), None)
            if want and first is not rule:
                problems.append(f"{rule.path}: phase {rule.id}: example decided by {first and first.id}: {line!r}")
            if not want and rule.decides(frame):
                problems.append(f"{rule.path}: phase {rule.id}: no_match example matches: {line!r}")
    for component in table.components:
        for line, want in [(x, True) for x in component.match] + [(x, False) for x in component.no_match]:
            frame = parse_frame(line)
            if frame is None:
                problems.append(f"{component.path}: component {component.id}: not a frame line: {line!r}")
            elif (table.component_of(frame) is component) != want:
                problems.append(f"{component.path}: component {component.id}: example {line!r} is misread")
    return problems
