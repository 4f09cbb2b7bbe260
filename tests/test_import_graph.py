"""No import cycle anywhere in pycalc: every module can be read knowing only the ones it imports.

Imports under ``if TYPE_CHECKING:`` (annotations only, never run) are left out; imports inside
functions count, as they are how a cycle is usually hidden, and so do ``importlib.import_module``
calls with a literal name (an f-string counts for every module its literal start names). Only the
bundles' machinery (the xlwings Lite bundle and the LibreOffice extension, which load the modules they
carry as text) may import through importlib.
"""

from __future__ import annotations

import ast
import graphlib
from pathlib import Path

import pycalc

PACKAGE = Path(pycalc.__file__).parent


def module_names() -> dict[str, Path]:
    names = {}
    for path in PACKAGE.rglob("*.py"):
        parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
        names[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return names


def imported(name: str, path: Path, modules: set[str]) -> set[str]:
    tree = ast.parse(path.read_text())
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and ast.unparse(node.test) == "TYPE_CHECKING":
            node.body = []
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(tree):
        found |= dynamic_imports(node, modules)
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parent = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*parent, base] if base else parent)
            found |= {
                f"{base}.{alias.name}" if f"{base}.{alias.name}" in modules else base for alias in node.names
            }
    return (found & modules) - {name}


BUNDLE_MACHINERY = {"pycalc.lite", "pycalc.lite_runtime", "pycalc.oxt"}  # they load the modules they carry


def dynamic_imports(node: ast.AST, modules: set[str]) -> set[str]:
    """The pycalc modules an ``importlib.import_module(...)`` call can import."""
    if not (isinstance(node, ast.Call) and ast.unparse(node.func).endswith("import_module") and node.args):
        return set()
    name = node.args[0]
    if isinstance(name, ast.Constant) and isinstance(name.value, str):
        return {name.value} & modules
    if isinstance(name, ast.JoinedStr) and name.values and isinstance(name.values[0], ast.Constant):
        start = str(name.values[0].value)
        return {m for m in modules if m.startswith(start)}
    return set()


def test_no_module_dispatches_through_importlib():
    uses = sorted(
        name
        for name, path in module_names().items()
        if name not in BUNDLE_MACHINERY and "import_module(" in path.read_text()
    )
    assert not uses, f"import these statically (a registry, as pycalc.d20_engines does): {uses}"


def test_a_dynamic_import_is_in_the_graph():
    modules = set(module_names())
    call = ast.parse('importlib.import_module(f"pycalc.rulesets.{ruleset_id}")').body[0].value
    assert "pycalc.rulesets.cnc" in dynamic_imports(call, modules)
    call = ast.parse('importlib.import_module("pycalc.d20")').body[0].value
    assert dynamic_imports(call, modules) == {"pycalc.d20"}


def import_graph() -> dict[str, set[str]]:
    modules = module_names()
    return {name: imported(name, path, set(modules)) for name, path in modules.items()}


def test_the_graph_sees_the_imports():
    graph = import_graph()
    assert "pycalc.tables" in graph["pycalc.house"] or "pycalc.table_files" in graph["pycalc.house"]
    assert "pycalc.udfs" in graph
    assert len(graph) >= 40


def test_no_import_cycle_in_pycalc():
    try:
        order = list(graphlib.TopologicalSorter(import_graph()).static_order())
    except graphlib.CycleError as error:
        raise AssertionError(f"import cycle: {' -> '.join(error.args[1])}") from None
    assert order
