"""xlwings Lite bundles: ``workbook/lite/<id>/main.py`` (and ``all/``) with ``requirements.txt``.

xlwings Lite runs Python inside Excel (Microsoft 365, Excel on the web) through Pyodide, from one
``main.py`` kept in the workbook. It cannot read the project's files, so a bundle carries:

- every UDF of ``pycalc.udfs`` for its rulesets, re-declared with ``from xlwings import func, arg``
  under the same name, arguments, defaults, argument docs and docstring, each calling the real one.
  Which UDF modules exist is read from ``pycalc/udfs/__init__.py`` (its ``from pycalc.udfs.X import *``
  lines), which UDFs each has from its ``__all__``; a module named after a ruleset (``osr``, or one of
  its subsystems, ``osr_grappling``) goes into that ruleset's bundle, the others (``shared``) into every bundle;
- the real sources of every pycalc module those UDFs import, as strings, served by
  ``pycalc.lite_runtime`` (whose source travels too);
- the rulesets as built (house rules applied), as Python data (``lite_runtime.encode``): no PyYAML.

The output is a pure function of the sources and tables: byte-identical across builds.
"""

from __future__ import annotations

import ast
import importlib
import inspect
import sys
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from types import ModuleType
from typing import Any

from pycalc import lite_runtime
from pycalc.table_files import RULESET_IDS, RuleSet

PYCALC = Path(__file__).resolve().parent
UDF_PACKAGE = "pycalc.udfs"
ALL = "all"  # the folder of the bundle carrying every ruleset
MAIN, REQUIREMENTS = "main.py", "requirements.txt"
REQUIREMENTS_TEXT = (
    "# The GM combat functions (pycalc) need no package beyond xlwings itself: keep xlwings.\n"
    "# The tables and the engine are inside main.py.\n"
    "xlwings\n"
)


class BundleError(ValueError):
    """A UDF or an import that xlwings Lite cannot take."""


# --------------------------------------------------------------------------- which UDFs


def udf_modules() -> list[str]:
    """The UDF modules ``pycalc/udfs/__init__.py`` registers, in its order."""
    tree = ast.parse((PYCALC / "udfs" / "__init__.py").read_text(encoding="utf-8"))
    prefix = f"{UDF_PACKAGE}."
    return [
        node.module[len(prefix) :]
        for node in tree.body
        if isinstance(node, ast.ImportFrom)
        and (node.module or "").startswith(prefix)
        and [alias.name for alias in node.names] == ["*"]
    ]


def module_ruleset(module: str) -> str | None:
    """The ruleset a UDF module belongs to: ``osr`` for ``osr`` and its subsystems' ``osr_grappling``...;
    None for a module every ruleset shares."""
    for ruleset_id in RULESET_IDS:
        if module == ruleset_id or module.startswith(f"{ruleset_id}_"):
            return ruleset_id
    return None


def bundle_udf_modules(ruleset_ids: Iterable[str]) -> list[str]:
    """The UDF modules of a bundle: the shared ones, then each ruleset's own, in the registration order."""
    wanted = set(ruleset_ids)
    found = udf_modules()
    return [m for m in found if module_ruleset(m) is None] + [m for m in found if module_ruleset(m) in wanted]


@dataclass(frozen=True)
class Param:
    name: str
    default: str | None = None  # the default's Python source, None when the argument is required
    repeating: bool = False  # *name: any number of further cells (xlwings Lite takes these)

    def declared(self) -> str:
        if self.repeating:
            return f"*{self.name}"
        return self.name if self.default is None else f"{self.name}={self.default}"

    def passed(self) -> str:
        return f"*{self.name}" if self.repeating else self.name


@dataclass(frozen=True)
class Udf:
    module: str  # the UDF module's short name, e.g. "cnc"
    name: str
    params: tuple[Param, ...]
    decorators: tuple[str, ...]  # as written above the def, top first
    doc: str


@contextmanager
def recording_xlwings() -> Iterator[None]:
    """Import ``pycalc.udfs`` afresh under ``lite_runtime.xlwings_standin()``, which records each
    decorator; the modules imported before are put back afterwards."""
    import pycalc

    def ours(name: str) -> bool:
        return name == "xlwings" or name == UDF_PACKAGE or name.startswith(f"{UDF_PACKAGE}.")

    saved = {name: module for name, module in sys.modules.items() if ours(name)}
    package_attribute = pycalc.__dict__.get("udfs")
    for name in saved:
        del sys.modules[name]
    sys.modules["xlwings"] = lite_runtime.xlwings_standin()
    try:
        yield
    finally:
        for name in [n for n in sys.modules if ours(n)]:
            del sys.modules[name]
        sys.modules.update(saved)
        if package_attribute is None:
            pycalc.__dict__.pop("udfs", None)
        else:
            pycalc.udfs = package_attribute  # type: ignore[attr-defined]


def literal(value: Any, what: str) -> str:
    text = repr(value)
    try:
        same = ast.literal_eval(text) == value and type(ast.literal_eval(text)) is type(value)
    except (ValueError, SyntaxError):
        same = False
    if not same:
        raise BundleError(f"{what}: {text[:40]} cannot be written as a Python literal")
    return text


def call_source(name: str, args: tuple[Any, ...], options: dict[str, Any], what: str) -> str:
    parts = [literal(a, what) for a in args] + [f"{k}={literal(v, what)}" for k, v in options.items()]
    return f"@{name}({', '.join(parts)})" if parts else f"@{name}"


def describe(module_name: str, module: ModuleType, name: str) -> Udf:
    function = getattr(module, name)
    what = f"{UDF_PACKAGE}.{module_name}.{name}"
    meta = getattr(function, lite_runtime.XLWINGS_META, None)
    if meta is None or meta["func"] is None:
        raise BundleError(f"{what} is in __all__ but has no @xw.func")
    if inspect.iscoroutinefunction(inspect.unwrap(function)):
        raise BundleError(f"{what}: xlwings Lite takes no async function here")
    params = []
    for param in inspect.signature(function).parameters.values():
        if param.name == "caller":
            raise BundleError(f"{what}: xlwings Lite has no 'caller' argument")
        if param.kind is inspect.Parameter.VAR_POSITIONAL:
            params.append(Param(param.name, repeating=True))
            continue
        if param.kind is not inspect.Parameter.POSITIONAL_OR_KEYWORD:
            raise BundleError(
                f"{what}: argument {param.name} is {param.kind.description}; Lite takes no such"
            )
        default = None if param.default is inspect.Parameter.empty else literal(param.default, what)
        params.append(Param(param.name, default))
    decorators = [call_source("func", (), meta["func"], what)]
    decorators += [call_source("arg", args, options, what) for args, options in reversed(meta["arg"])]
    decorators += [call_source("ret", args, options, what) for args, options in reversed(meta["ret"])]
    return Udf(module_name, name, tuple(params), tuple(decorators), inspect.getdoc(function) or "")


def described_udfs(module_names: Iterable[str]) -> dict[str, list[Udf]]:
    """Every UDF of those modules by module, by each module's ``__all__``, with its xlwings decorators
    (the modules are imported afresh, once, to record their decorators)."""
    found: dict[str, list[Udf]] = {}
    with recording_xlwings():
        for module_name in module_names:
            module = importlib.import_module(f"{UDF_PACKAGE}.{module_name}")
            names = getattr(module, "__all__", None)
            if not names:
                raise BundleError(f"{UDF_PACKAGE}.{module_name} has no __all__ listing its UDFs")
            found[module_name] = [describe(module_name, module, name) for name in names]
    return found


def bundle_udfs(module_names: Iterable[str], described: dict[str, list[Udf]]) -> list[Udf]:
    """The UDFs of those modules (from ``described_udfs``), in order; a name in two modules is an error."""
    found = [udf for module_name in module_names for udf in described[module_name]]
    seen: dict[str, str] = {}
    for udf in found:
        if udf.name in seen:
            raise BundleError(f"UDF {udf.name} is in both {seen[udf.name]} and {udf.module}")
        seen[udf.name] = udf.module
    return found


def declared_udfs(module_names: Iterable[str]) -> list[Udf]:
    """Every UDF of those modules, by each module's ``__all__``, with its xlwings decorators."""
    names = list(module_names)
    return bundle_udfs(names, described_udfs(names))


# --------------------------------------------------------------------------- which engine modules


def module_path(name: str) -> Path:
    return PYCALC.parent.joinpath(*name.split(".")).with_suffix(".py")


STATEMENTS = ("body", "orelse", "finalbody", "handlers", "cases")  # the fields holding statements


def imported_names(tree: ast.Module) -> Iterator[str]:
    """The modules a module imports (function-level imports included, ``if TYPE_CHECKING:`` not),
    read from its statements (an import is one; no expression holds one)."""
    pending: list[ast.AST] = [tree]
    while pending:
        node = pending.pop()
        if isinstance(node, ast.If) and isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING":
            pending += node.orelse
            continue
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            yield node.module
            yield from (f"{node.module}.{alias.name}" for alias in node.names)
        for field in STATEMENTS:
            statements = getattr(node, field, None)
            if isinstance(statements, list):
                pending += statements


@cache
def imports_of(source: str) -> tuple[str, ...]:
    """``imported_names`` of a module's source (cached by the text: the bundles share most modules)."""
    return tuple(imported_names(ast.parse(source)))


def engine_modules(udf_module_names: Iterable[str]) -> list[str]:
    """Every pycalc module (not package) the UDF modules need, sorted; a third-party import other
    than xlwings and PyYAML (which the bundle stands in for) is an error."""
    packages = set(lite_runtime.PACKAGES)
    todo = [f"{UDF_PACKAGE}.{name}" for name in udf_module_names]
    found: set[str] = set()
    while todo:
        name = todo.pop()
        if name in found:
            continue
        found.add(name)
        for imported in imports_of(module_path(name).read_text(encoding="utf-8")):
            top = imported.split(".")[0]
            if top == "pycalc":
                if imported not in packages and module_path(imported).exists():
                    todo.append(imported)
            elif top not in sys.stdlib_module_names and top not in ("xlwings", "yaml"):
                raise BundleError(f"{name} imports {imported}, which xlwings Lite does not have")
    return sorted(found)


# --------------------------------------------------------------------------- main.py


def string_lines(text: str, indent: str) -> str:
    """A string as one literal per source line, so main.py shows (and diffs) the text line by line."""
    lines = text.splitlines(keepends=True) or [""]
    return "(\n" + "".join(f"{indent}    {line!r}\n" for line in lines) + f"{indent})"


def layout(value: Any, column: int, width: int = 110) -> str:
    """``repr(value)`` broken into lines for reading: a list too long for one line puts its items one
    column in, as many short ones to a line as fit (what pprint's compact mode does, without its cost
    on a large tree)."""
    return laid_out(value, reprs(value), column, width)


Reprs = tuple[str, "list[Reprs] | None"]
"""A value's repr, and its items' where it is a list holding lists (each list's worked out once, from
its items')."""


def reprs(value: Any) -> Reprs:
    if isinstance(value, list) and any(isinstance(item, list) for item in value):
        items = [reprs(item) for item in value]
        return "[" + ", ".join(text for text, _ in items) + "]", items
    return repr(value), None


def laid_out(value: Any, known: Reprs, column: int, width: int) -> str:
    text, items = known
    if column + len(text) <= width or not isinstance(value, list) or not value:
        return text
    if items is None:
        items = [(repr(item), None) for item in value]
    lines: list[str] = []
    for item in (laid_out(v, it, column + 1, width) for v, it in zip(value, items, strict=True)):
        if (
            lines
            and "\n" not in item
            and "\n" not in lines[-1]
            and column + len(lines[-1]) + len(item) + 3 <= width
        ):
            lines[-1] += ", " + item
        else:
            lines.append(item)
    return "[" + (",\n" + " " * (column + 1)).join(lines) + "]"


def docstring(text: str, indent: str) -> str:
    """A docstring as written in the source: triple quotes, continuation lines indented."""
    if '"""' in text or "\\" in text or text.endswith('"'):
        return repr(text)
    lines = text.split("\n")
    if len(lines) == 1:
        return f'"""{text}"""'
    return (
        '"""'
        + "\n".join([lines[0]] + [indent + line if line else "" for line in lines[1:]])
        + f'\n{indent}"""'
    )


def udf_source(udf: Udf) -> str:
    signature = ", ".join(p.declared() for p in udf.params)
    call = ", ".join(p.passed() for p in udf.params)
    body = f"    {docstring(udf.doc, '    ')}\n" if udf.doc else ""
    return (
        "\n".join(udf.decorators)
        + f"\ndef {udf.name}({signature}):\n{body}    return _udfs[{udf.module!r}].{udf.name}({call})\n"
    )


def header(rulesets: list[RuleSet], udfs: list[Udf]) -> str:
    names = ", ".join(f"{r.id} ({r.name})" for r in rulesets)
    house = [line for r in rulesets for line in r.house_rules]
    lines = [
        f"GM combat functions for xlwings Lite: {names}.",
        "",
        "Generated by `python build.py --lite` from the project's tables/ and pycalc/: do not edit, rebuild.",
        "Paste this whole file into xlwings Lite's main.py (and requirements.txt beside it into",
        "requirements.txt); the functions below then work in any cell, e.g. ="
        + example([r.id for r in rulesets], udfs)
        + ".",
        f"{len(udfs)} functions; their engine (pycalc) and tables travel at the end of this file.",
        "House rules applied: " + ("; ".join(house) if house else "none") + ".",
    ]
    return '"""' + "\n".join(lines) + '\n"""\n'


def example(ruleset_ids: list[str], udfs: list[Udf]) -> str:
    """A formula to show in the header: the bundle's own ruleset when it has d20_need."""
    d20 = [r for r in ruleset_ids if r != "spelljammer"]
    if d20 and any(u.name == "d20_need" for u in udfs):
        return f'D20_NEED("{d20[0]}", 3, 15)'
    return 'DICE_MEAN("2d4+2")'


def table_texts(rulesets: list[RuleSet]) -> dict[str, str]:
    """Each ruleset's entry in ``_TABLES``, by its id."""
    return {
        r.id: f"    {r.id!r}: {layout(lite_runtime.encode(r), 4 + len(repr(r.id)) + 2)},\n" for r in rulesets
    }


def main_source(
    rulesets: list[RuleSet],
    described: dict[str, list[Udf]] | None = None,
    tables: dict[str, str] | None = None,
) -> str:
    """A bundle's main.py; ``described`` (``described_udfs``) and ``tables`` (``table_texts``) may hold
    what bundles sharing UDF modules and rulesets already worked out."""
    ids = [r.id for r in rulesets]
    modules = bundle_udf_modules(ids)
    udfs = bundle_udfs(modules, described if described is not None else described_udfs(modules))
    tables = tables if tables is not None else table_texts(rulesets)
    used = sorted({d[1:].split("(")[0] for u in udfs for d in u.decorators})
    sources = {name: module_path(name).read_text(encoding="utf-8") for name in engine_modules(modules)}
    runtime = Path(lite_runtime.__file__).read_text(encoding="utf-8")
    parts = [
        header(rulesets, udfs),
        f"\nfrom xlwings import {', '.join(used)}\n",
        *(f"\n\n{udf_source(u)}" for u in udfs),
        "\n\n# ------------------------------------------------------------ the engine and the tables"
        " (generated)\n\n",
        f"_RUNTIME = {string_lines(runtime, '')}\n\n",
        "_SOURCES = {\n",
        *(f"    {name!r}: {string_lines(text, '    ')},\n" for name, text in sources.items()),
        "}\n\n",
        "_TABLES = {\n",
        *(tables[ruleset_id] for ruleset_id in ids),
        "}\n\n",
        f"_KNOWN_RULESETS = {RULESET_IDS!r}\n",
        BOOT.format(modules=tuple(modules)),
    ]
    return "".join(parts)


BOOT = '''

def _load_engine():
    """Serve pycalc from the strings above (see pycalc/lite_runtime.py) and import the UDF modules."""
    import importlib
    import types

    runtime = types.ModuleType("pycalc_lite_runtime")
    exec(compile(_RUNTIME, "<main.py: pycalc.lite_runtime>", "exec"), runtime.__dict__)
    runtime.install(_SOURCES, _TABLES, _KNOWN_RULESETS)
    return {{name: importlib.import_module("pycalc.udfs." + name) for name in {modules!r}}}


_udfs = _load_engine()
'''


def bundle_files(rulesets: list[RuleSet], out: Path, all_rulesets: bool) -> dict[Path, bytes]:
    """``<out>/lite/<id>/main.py`` and requirements.txt per ruleset, and ``<out>/lite/all/`` when
    ``all_rulesets`` (every ruleset of the project was built)."""
    groups = [(r.id, [r]) for r in rulesets]
    if all_rulesets:
        groups.append((ALL, rulesets))
    described = described_udfs(bundle_udf_modules([r.id for r in rulesets]))
    tables = table_texts(rulesets)
    files: dict[Path, bytes] = {}
    for folder, group in groups:
        files[out / "lite" / folder / MAIN] = main_source(group, described, tables).encode("utf-8")
        files[out / "lite" / folder / REQUIREMENTS] = REQUIREMENTS_TEXT.encode("utf-8")
    return files
