"""The shape the design promises, checked on the source: pure renderers, no hidden module state."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from .conftest import ROOT

PACKAGE = ROOT / "pdlogdoctor"
RENDER_MODULES = sorted((PACKAGE / "render").glob("*.py"))
# What a pure renderer must not reach for: the inputs, the file system, the environment.
NOT_FOR_RENDERERS = {
    "pdlogdoctor.ingest",
    "pdlogdoctor.describe.excerpt",
    "pdlogdoctor.cli.step_files",
    "os",
    "pathlib",
    "shutil",
}
FILE_CALLS = {"open", "write_text", "write_bytes", "read_text", "read_bytes", "unlink", "mkdir", "stat", "get_data"}
# The JSON Schema, the HTML page's CSS/JS and the redaction rules ship inside the package
# (importlib.resources, pkgutil): data of the tool, not input.
ALLOWED_CALLS = {"json_format.py": {"read_text"}, "html.py": {"read_text"}, "secrets.py": {"get_data"}}


def _package_of(path: Path) -> str:
    return ".".join(path.relative_to(ROOT).with_suffix("").parts[:-1])


def _imports(source: str, package: str) -> set[str]:
    """Absolute names of every module `source` imports (relative imports resolved against `package`)."""
    tree = ast.parse(source)
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = package.rsplit(".", node.level - 1)[0] if node.level else ""
            module = ".".join(part for part in (base, node.module or "") if part)
            names.add(module)
            names |= {f"{module}.{alias.name}" for alias in node.names}
    return names


@pytest.mark.parametrize("path", RENDER_MODULES, ids=lambda p: p.name)
def test_renderers_read_no_input_and_write_no_file(path: Path) -> None:
    reached = {
        name for name in _imports(path.read_text(encoding="utf-8"), _package_of(path)) if name in NOT_FOR_RENDERERS
    }
    assert not reached, f"{path.name} imports {reached}: renderers only format the report they are given"
    tree = ast.parse(path.read_text(encoding="utf-8"))
    calls = {
        node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")
        for node in ast.walk(tree)
        if isinstance(node, ast.Call)
    }
    file_calls = calls & FILE_CALLS - ALLOWED_CALLS.get(path.name, set())
    assert not file_calls, f"{path.name} calls {file_calls}"


def test_the_import_scan_sees_a_renderer_that_reads_inputs() -> None:
    """The check above must be able to fail: a planted relative import of ingest is caught."""
    planted = (PACKAGE / "render" / "markdown.py").read_text(encoding="utf-8") + "\nfrom ..ingest import reopen\n"
    assert "pdlogdoctor.ingest" in _imports(planted, "pdlogdoctor.render")
    assert "pdlogdoctor.render.options" in _imports("from .options import PLAIN", "pdlogdoctor.render")


@pytest.mark.parametrize("path", sorted(PACKAGE.rglob("*.py")), ids=lambda p: str(p.relative_to(PACKAGE)))
def test_no_module_rebinds_global_state(path: Path) -> None:
    """No `global` statements: run-wide values travel in RunOptions and as arguments."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    rebinding = [node.lineno for node in ast.walk(tree) if isinstance(node, ast.Global | ast.Nonlocal)]
    assert not rebinding, f"{path.name}: global/nonlocal at lines {rebinding}"


MUTATORS = {"append", "extend", "insert", "add", "update", "setdefault", "pop", "popitem", "remove", "clear", "discard"}
CONTAINERS = (ast.List, ast.Dict, ast.Set, ast.ListComp, ast.DictComp, ast.SetComp)


def _module_containers(tree: ast.Module) -> set[str]:
    """Names a module binds at its top level to a list, dict or set."""
    names: set[str] = set()
    for node in tree.body:
        targets = (
            node.targets if isinstance(node, ast.Assign) else [node.target] if isinstance(node, ast.AnnAssign) else []
        )
        value = getattr(node, "value", None)
        if isinstance(value, CONTAINERS) or (
            isinstance(value, ast.Call) and getattr(value.func, "id", "") in ("list", "dict", "set", "defaultdict")
        ):
            names |= {target.id for target in targets if isinstance(target, ast.Name)}
    return names


def mutated_module_containers(source: str) -> list[str]:
    """Module-level containers the module changes after import: hidden state, whatever their name."""
    tree = ast.parse(source)
    shared = _module_containers(tree)
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in MUTATORS:
            owner = node.func.value
            if isinstance(owner, ast.Name) and owner.id in shared:
                found.append(f"{owner.id}.{node.func.attr} at line {node.lineno}")
        targets = (
            node.targets if isinstance(node, ast.Assign) else [node.target] if isinstance(node, ast.AugAssign) else []
        )
        for target in targets:
            if isinstance(target, ast.Subscript) and isinstance(target.value, ast.Name) and target.value.id in shared:
                found.append(f"{target.value.id}[...] = at line {node.lineno}")
    return found


@pytest.mark.parametrize("path", sorted(PACKAGE.rglob("*.py")), ids=lambda p: str(p.relative_to(PACKAGE)))
def test_no_module_keeps_mutable_state(path: Path) -> None:
    """A list, dict or set bound at module level is a constant: nothing appends to it or assigns into it."""
    assert not mutated_module_containers(path.read_text(encoding="utf-8")), path.name


def test_the_state_scan_sees_a_worker_global() -> None:
    """The check above must be able to fail: the shape parallel.py once had (a list a pool initializer filled)."""
    planted = "_WORKER_INDEX: list[int] = []\n\ndef _hold(index: int) -> None:\n    _WORKER_INDEX.append(index)\n"
    assert mutated_module_containers(planted) == ["_WORKER_INDEX.append at line 4"]
    assert mutated_module_containers("CACHE = {}\ndef f(k):\n    CACHE[k] = 1\n") == ["CACHE[...] = at line 3"]
