"""What runs inside an xlwings Lite ``main.py`` (Pyodide): the engine's modules served from strings,
the tables from Python data, and stand-ins for ``xlwings`` and PyYAML while those modules load.

``pycalc.lite`` embeds this file's source, the pycalc sources a bundle needs and the encoded tables in
``workbook/lite/<id>/main.py``; the bundle's bootstrap executes this source and calls ``install``.
Standard library only: it runs before any pycalc module exists. It is also imported in CPython, where
``encode``/``decode`` write and check the embedded tables and ``xlwings_standin`` records the
decorators of the UDFs.

- ``EmbeddedModules``: a ``sys.meta_path`` finder serving ``pycalc.*`` from the embedded sources. The
  packages (``pycalc``, ``pycalc.rulesets``, ``pycalc.udfs``) are served empty: ``pycalc/udfs/__init__``
  would import every ruleset's UDFs. A module of a ruleset the bundle does not carry raises the
  engine's RuleError, which the UDFs show as a '#RULESET?' message in the cell.
- ``pycalc.tables.load_ruleset`` is replaced by one returning the embedded rulesets, decoded once, and
  ``tables_dir()`` by a folder in the temporary directory holding one marker ``<id>/ruleset.yaml`` per
  carried ruleset (the UDFs look there to know a GM's own ruleset id; nothing reads the markers).
- While an embedded module executes, ``import xlwings`` gives ``xlwings_standin()`` (its decorators only
  record), so only main.py's own declarations reach xlwings Lite; ``import yaml`` gives
  ``yaml_standin()`` when PyYAML is missing (the tables are never parsed from YAML here).
"""

from __future__ import annotations

import dataclasses
import enum
import hashlib
import importlib
import importlib.abc
import importlib.util
import linecache
import sys
import tempfile
import types
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from fractions import Fraction
from pathlib import Path
from typing import Any

PACKAGES = ("pycalc", "pycalc.rulesets", "pycalc.udfs")
XLWINGS_META = "__lite_xlwings__"  # the decorators a function received, recorded by xlwings_standin()
BUNDLE_MARK = "__lite_bundle__"  # set on every module EmbeddedModules loaded


# --------------------------------------------------------------------------- stand-ins


def xlwings_standin() -> types.ModuleType:
    """An ``xlwings`` whose func/arg/ret only record their arguments on the function, in the order
    the decorators were applied (the one nearest the ``def`` first)."""
    module = types.ModuleType("xlwings")

    def meta(function: Any) -> dict[str, Any]:
        if not hasattr(function, XLWINGS_META):
            setattr(function, XLWINGS_META, {"func": None, "arg": [], "ret": []})
        return getattr(function, XLWINGS_META)

    def func(function: Any = None, **options: Any) -> Any:
        def mark(target: Any) -> Any:
            meta(target)["func"] = dict(options)
            return target

        return mark if function is None else mark(function)

    def decorator(kind: str) -> Callable[..., Callable[[Any], Any]]:
        def configure(*args: Any, **options: Any) -> Callable[[Any], Any]:
            def mark(target: Any) -> Any:
                meta(target)[kind].append((args, dict(options)))
                return target

            return mark

        return configure

    module.func = func  # type: ignore[attr-defined]
    module.arg = decorator("arg")  # type: ignore[attr-defined]
    module.ret = decorator("ret")  # type: ignore[attr-defined]
    return module


def yaml_standin() -> types.ModuleType:
    """Enough of PyYAML's names for ``pycalc.table_files`` to import; reading YAML raises YAMLError."""
    module = types.ModuleType("yaml")

    class YAMLError(Exception):
        pass

    class MarkedYAMLError(YAMLError):
        problem_mark = context_mark = context = problem = None

    class Node:
        pass

    class SafeLoader:
        @classmethod
        def add_constructor(cls, tag: str, constructor: Any) -> None:
            pass

    class BaseResolver:
        DEFAULT_MAPPING_TAG = "tag:yaml.org,2002:map"
        DEFAULT_SEQUENCE_TAG = "tag:yaml.org,2002:seq"

    def load(*args: Any, **kwargs: Any) -> Any:
        raise YAMLError("no YAML in this bundle: its tables are embedded")

    module.YAMLError = YAMLError  # type: ignore[attr-defined]
    module.MarkedYAMLError = MarkedYAMLError  # type: ignore[attr-defined]
    module.MappingNode = module.SequenceNode = Node  # type: ignore[attr-defined]
    module.SafeLoader = SafeLoader  # type: ignore[attr-defined]
    module.resolver = types.SimpleNamespace(BaseResolver=BaseResolver)  # type: ignore[attr-defined]
    module.load = module.safe_load = load  # type: ignore[attr-defined]
    return module


def pyyaml_missing() -> bool:
    return "yaml" not in sys.modules and importlib.util.find_spec("yaml") is None


@contextmanager
def stand_ins(replace_yaml: bool) -> Iterator[None]:
    """``xlwings`` (and ``yaml`` when asked) replaced in sys.modules, restored afterwards."""
    replaced = {"xlwings": xlwings_standin()}
    if replace_yaml:
        replaced["yaml"] = yaml_standin()
    saved = {name: sys.modules.get(name) for name in replaced}
    sys.modules.update(replaced)
    try:
        yield
    finally:
        for name, module in saved.items():
            if module is None:
                sys.modules.pop(name, None)
            else:
                sys.modules[name] = module


# --------------------------------------------------------------------------- tables as Python data


def class_path(cls: type) -> str:
    return f"{cls.__module__}:{cls.__qualname__}"


def find_class(path: str) -> Any:
    module_name, _, qualname = path.partition(":")
    found: Any = importlib.import_module(module_name)
    for part in qualname.split("."):
        found = getattr(found, part)
    return found


def encode(value: Any) -> Any:
    """A value as nested lists of plain literals (``repr`` writes it, ``decode`` rebuilds it): every
    container is a list whose first item names its kind, so no two kinds are confused."""
    if value is None or isinstance(value, (bool, int, str)):
        return value
    if isinstance(value, float):
        return value if value == value and abs(value) != float("inf") else ["float", repr(value)]
    if isinstance(value, enum.Enum):
        return ["enum", class_path(type(value)), value.name]
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        fields = [[f.name, encode(getattr(value, f.name))] for f in dataclasses.fields(value)]
        return ["object", class_path(type(value)), fields]
    if isinstance(value, Fraction):
        return ["fraction", value.numerator, value.denominator]
    if isinstance(value, types.MappingProxyType):
        return ["mappingproxy", encode(dict(value))]
    if isinstance(value, dict):
        pairs = [[encode(k), encode(v)] for k, v in value.items()]
        if type(value) is dict:
            return ["dict", pairs]
        return ["dict_of", class_path(type(value)), pairs, encode(dict(sorted(vars(value).items())))]
    if isinstance(value, list):
        items = [encode(item) for item in value]
        if type(value) is list:
            return ["list", items]
        return ["list_of", class_path(type(value)), items, encode(dict(sorted(vars(value).items())))]
    if type(value) is tuple:
        return ["tuple", [encode(item) for item in value]]
    if type(value) in (set, frozenset):
        return [type(value).__name__, sorted((encode(item) for item in value), key=repr)]
    raise TypeError(f"cannot embed a {type(value).__name__} in a bundle: {value!r:.60}")


def decode(data: Any) -> Any:
    """The value ``encode`` described; dataclasses are rebuilt through their constructor."""
    if not isinstance(data, list):
        return data
    kind = data[0]
    if kind == "float":
        return float(data[1])
    if kind == "enum":
        return find_class(data[1])[data[2]]
    if kind == "object":
        cls = find_class(data[1])
        values = {name: decode(item) for name, item in data[2]}
        init = {f.name for f in dataclasses.fields(cls) if f.init}
        built = cls(**{name: v for name, v in values.items() if name in init})
        for name, item in values.items():
            if name not in init:
                object.__setattr__(built, name, item)
        return built
    if kind == "fraction":
        return Fraction(data[1], data[2])
    if kind == "mappingproxy":
        return types.MappingProxyType(decode(data[1]))
    if kind == "dict":
        return {decode(k): decode(v) for k, v in data[1]}
    if kind == "list":
        return [decode(item) for item in data[1]]
    if kind in ("dict_of", "list_of"):
        cls = find_class(data[1])
        built = (
            cls((decode(k), decode(v)) for k, v in data[2])
            if kind == "dict_of"
            else cls(decode(item) for item in data[2])
        )
        for name, item in decode(data[3]).items():
            setattr(built, name, item)
        return built
    if kind == "tuple":
        return tuple(decode(item) for item in data[1])
    if kind in ("set", "frozenset"):
        return (set if kind == "set" else frozenset)(decode(item) for item in data[1])
    raise ValueError(f"unknown embedded kind {kind!r}")


# --------------------------------------------------------------------------- the importer


def other_ruleset(name: str, known: Sequence[str], carried: Sequence[str]) -> str | None:
    """The ruleset id a pycalc module belongs to when the bundle does not carry that ruleset."""
    for prefix in ("pycalc.rulesets.", "pycalc.udfs."):
        if name.startswith(prefix):
            stem = name[len(prefix) :]
            for ruleset_id in known:
                if ruleset_id not in carried and (stem == ruleset_id or stem.startswith(f"{ruleset_id}_")):
                    return ruleset_id
    return None


class EmbeddedModules(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Serves the pycalc modules of one bundle from their source text."""

    def __init__(
        self,
        sources: dict[str, str],
        tables: dict[str, Any],
        known: Sequence[str],
        carried: Sequence[str],
    ) -> None:
        self.sources = sources
        self.tables = tables
        self.known = tuple(known)
        self.carried = tuple(carried)
        self.decoded: dict[str, Any] = {}
        self.replace_yaml = pyyaml_missing()

    def not_carried(self, ruleset_id: str) -> Exception:
        rule_error = importlib.import_module("pycalc.errors").RuleError
        return rule_error(
            f"#RULESET? this main.py carries {', '.join(self.carried)}; use the all-rulesets main.py"
            f" for {ruleset_id}"
        )

    def find_spec(self, fullname: str, path: Any = None, target: Any = None) -> Any:
        if fullname in PACKAGES or fullname in self.sources:
            return importlib.util.spec_from_loader(fullname, self, is_package=fullname in PACKAGES)
        missing = other_ruleset(fullname, self.known, self.carried)
        if missing is not None:
            raise self.not_carried(missing)
        return None

    def create_module(self, spec: Any) -> None:
        return None

    def exec_module(self, module: types.ModuleType) -> None:
        name = module.__name__
        setattr(module, BUNDLE_MARK, True)
        if name in PACKAGES:
            module.__path__ = []
            return
        filename = f"<main.py: {name}>"
        module.__file__ = f"/pycalc-lite/{name.replace('.', '/')}.py"
        source = self.sources[name]
        linecache.cache[filename] = (len(source), None, source.splitlines(keepends=True), filename)
        with stand_ins(self.replace_yaml):
            exec(compile(source, filename, "exec"), module.__dict__)
        if name == "pycalc.table_files":
            module.tables_dir = self.tables_dir  # type: ignore[attr-defined]
        if name == "pycalc.tables":
            module.tables_dir = self.tables_dir  # type: ignore[attr-defined]
            module.load_ruleset = self.load_ruleset  # type: ignore[attr-defined]
            module.available_rulesets = lambda: iter(self.carried)  # type: ignore[attr-defined]

    def tables_dir(self) -> Path:
        """The folder of marker files standing for the embedded rulesets (made on first use)."""
        digest = hashlib.sha256(" ".join(self.carried).encode()).hexdigest()[:16]
        folder = Path(tempfile.gettempdir()) / f"pycalc-lite-tables-{digest}"
        for ruleset_id in self.carried:
            marker = folder / ruleset_id / "ruleset.yaml"
            if not marker.exists():
                marker.parent.mkdir(parents=True, exist_ok=True)
                marker.write_text("# this ruleset's tables are embedded in main.py\n", encoding="utf-8")
        return folder

    def load_ruleset(self, ruleset_id: str) -> Any:
        """The embedded ruleset (house rules already applied when the bundle was built)."""
        if ruleset_id not in self.decoded:
            if ruleset_id not in self.tables:
                if ruleset_id in self.known:
                    raise self.not_carried(ruleset_id)
                table_files = importlib.import_module("pycalc.table_files")
                raise table_files.TableError(
                    [table_files.TableProblem("main.py", 1, f"no ruleset {ruleset_id!r} in this bundle")]
                )
            self.decoded[ruleset_id] = decode(self.tables[ruleset_id])
        return self.decoded[ruleset_id]


def install(sources: dict[str, str], tables: dict[str, Any], known: Sequence[str]) -> EmbeddedModules:
    """Put the bundle's finder first on sys.meta_path, dropping any earlier bundle's finder and modules
    (xlwings Lite runs main.py again after every edit, in the same interpreter)."""
    sys.meta_path[:] = [f for f in sys.meta_path if not getattr(f, BUNDLE_MARK, False)]
    for name in [n for n, m in sys.modules.items() if getattr(m, BUNDLE_MARK, False)]:
        del sys.modules[name]
    finder = EmbeddedModules(sources, tables, known, tuple(tables))
    setattr(finder, BUNDLE_MARK, True)
    sys.meta_path.insert(0, finder)
    return finder
