"""The LibreOffice extension ``workbook/gmcombat.oxt``: every UDF of ``pycalc.udfs`` as a Calc add-in.

LibreOffice calls Python from cells through a Calc add-in: a Python UNO component implementing
``com.sun.star.sheet.AddIn`` whose IDL interface's methods become Calc functions. The extension holds:

- ``gmcombat.py``: the component, with the same embedded engine and tables as the xlwings Lite bundle
  (``pycalc.lite``: the pycalc sources as strings served by ``pycalc.lite_runtime``, the rulesets as
  built, house rules applied, as Python data). Standard library only: LibreOffice's own Python on
  Windows and macOS has no PyYAML;
- ``gmcombat.rdb``: the type library of the interface, built once from ``oxt/gmcombat.idl`` with
  ``unoidl-write`` (LibreOffice SDK) and committed: GMs never need the SDK. The IDL is generated from
  the UDF signatures (``idl_source``); a test checks the committed IDL and ``.rdb`` match them;
- ``gmcombat.components``, ``META-INF/manifest.xml`` and ``description.xml``.

Names: ``unoidl-write`` takes no lower-case identifier with an underscore, so a method is the UDF's name
in capitals (``STRIKE_RESULT``) and an argument its name in camelCase; the name used in cells is the
UDF's own (``strike_result``), given as the en-US compatibility name, which LibreOffice 25.2 binds in
an .xlsx/.xlsm (7.4 binds only the programmatic name: see the README). Every argument is an IDL ``any``
(a number, a text, a range as rows, or nothing when omitted or empty), a repeating one a
``sequence<any>`` last; every result an ``any``.

The output is a pure function of the sources and tables: byte-identical across builds.
"""

from __future__ import annotations

import ast
import importlib
import io
import zipfile
from dataclasses import dataclass
from pathlib import Path

from pycalc import lite
from pycalc.lite import Udf
from pycalc.table_files import RULESET_IDS, RuleSet

OXT_NAME = "gmcombat.oxt"
IDL_DIR = Path(__file__).resolve().parent / "oxt_types"
IDL_PATH = IDL_DIR / "gmcombat.idl"
RDB_PATH = IDL_DIR / "gmcombat.rdb"  # built from IDL_PATH by scripts/oxt-rdb.sh, committed
MODULE = ("org", "pycalc", "gmcombat")
INTERFACE = "XGmCombat"
IMPLEMENTATION = "org.pycalc.gmcombat.GmCombatAddIn"
SERVICE = "org.pycalc.gmcombat.GmCombat"
EXTENSION_ID = "org.pycalc.gmcombat"
EXTENSION_VERSION = "1.0.0"
COMPONENT_FILE = "gmcombat.py"
FIXED_ZIP_TIME = (1980, 1, 1, 0, 0, 0)


class OxtError(ValueError):
    """A UDF the add-in cannot declare."""


@dataclass(frozen=True)
class AddInArg:
    name: str  # the UDF's argument name, shown in the Function Wizard
    idl_name: str  # camelCase, as unoidl-write takes it
    doc: str
    default: str | None  # the Python default's source (a literal), None when the argument is required
    repeating: bool
    rows: bool  # ndim=2: always a list of rows, one cell too (as xlwings gives it)


@dataclass(frozen=True)
class AddInFunction:
    name: str  # the UDF's name, used in cells (the en-US compatibility name)
    method: str  # the IDL method: the name in capitals
    module: str  # the UDF module, e.g. "cnc"
    doc: str
    args: tuple[AddInArg, ...]
    array: bool  # returns rows of cells (an array formula): declared sequence<sequence<any>>


# UNOIDL's keywords, which cannot name an argument (one UDF has an argument named "double").
IDL_KEYWORDS = frozenset(
    [
        "any",
        "attribute",
        "boolean",
        "bound",
        "byte",
        "char",
        "const",
        "constants",
        "constrained",
        "double",
        "enum",
        "exception",
        "float",
        "get",
        "hyper",
        "in",
        "inout",
        "interface",
        "long",
        "maybeambiguous",
        "maybedefault",
        "maybevoid",
        "module",
        "needs",
        "observes",
        "oneway",
        "optional",
        "out",
        "property",
        "published",
        "raises",
        "readonly",
        "removable",
        "sequence",
        "service",
        "set",
        "short",
        "singleton",
        "string",
        "struct",
        "transient",
        "type",
        "typedef",
        "unsigned",
        "void",
    ]
)


def camel_case(name: str) -> str:
    """An argument's IDL name: camelCase, a keyword followed by "Value"."""
    first, *rest = name.split("_")
    idl_name = first + "".join(part[:1].upper() + part[1:] for part in rest)
    return f"{idl_name}Value" if idl_name in IDL_KEYWORDS else idl_name


def arg_options(udf: Udf) -> dict[str, dict[str, object]]:
    """Each argument's options (``doc=``, ``ndim=``) from the UDF's recorded ``@arg(...)`` decorators."""
    docs: dict[str, dict[str, object]] = {}
    for decorator in udf.decorators:
        call = ast.parse(decorator[1:]).body[0].value  # type: ignore[attr-defined]
        if isinstance(call, ast.Call) and getattr(call.func, "id", "") == "arg" and call.args:
            docs[ast.literal_eval(call.args[0])] = {k.arg: ast.literal_eval(k.value) for k in call.keywords}
    return docs


def add_in_function(udf: Udf) -> AddInFunction:
    options = arg_options(udf)
    args = tuple(
        AddInArg(
            p.name,
            camel_case(p.name),
            str(options.get(p.name, {}).get("doc", "")),
            p.default,
            p.repeating,
            options.get(p.name, {}).get("ndim") == 2,
        )
        for p in udf.params
    )
    if any(a.repeating for a in args[:-1]):
        raise OxtError(f"{udf.name}: a repeating argument must come last in a Calc add-in")
    return AddInFunction(udf.name, udf.name.upper(), udf.module, udf.doc, args, returns_rows(udf))


def returns_rows(udf: Udf) -> bool:
    """True for an array function, whose return annotation is a list of lists (Calc takes an array
    only from a method declared to return one: an ``any`` holding it shows #VALUE!)."""
    module = importlib.import_module(f"{lite.UDF_PACKAGE}.{udf.module}")
    annotation = getattr(module, udf.name).__annotations__.get("return", "")
    return str(annotation).replace(" ", "").startswith("list[list[")


def add_in_functions(ruleset_ids: list[str]) -> list[AddInFunction]:
    return [add_in_function(udf) for udf in lite.declared_udfs(lite.bundle_udf_modules(ruleset_ids))]


# --------------------------------------------------------------------------- the IDL


def idl_source(functions: list[AddInFunction]) -> str:
    """The interface declaring one method per UDF (every ruleset's: one type library serves every build)."""

    def parameter(arg: AddInArg) -> str:
        return f"[in] {'sequence<any>' if arg.repeating else 'any'} {arg.idl_name}"

    methods = "".join(
        f"        {'sequence< sequence< any > >' if f.array else 'any'} {f.method}({', '.join(parameter(a) for a in f.args)});\n"
        for f in functions
    )
    opening = " ".join(f"module {m} {{" for m in MODULE)
    return (
        "// Generated by `python build.py` (pycalc/oxt.py) from the UDF signatures: do not edit.\n"
        "// The type library gmcombat.rdb is built from this file by scripts/oxt-rdb.sh.\n"
        "#include <com/sun/star/uno/XInterface.idl>\n\n"
        f"{opening}\n"
        f"    interface {INTERFACE} : com::sun::star::uno::XInterface {{\n"
        f"{methods}"
        "    };\n"
        f"{' '.join('};' for _ in MODULE)}\n"
    )


def project_idl() -> str:
    """The IDL of every ruleset's UDFs: what ``oxt/gmcombat.idl`` must hold."""
    return idl_source(add_in_functions(list(RULESET_IDS)))


# --------------------------------------------------------------------------- the component


def function_table(functions: list[AddInFunction]) -> str:
    rows = "".join(
        f"    ({f.name!r}, {f.method!r}, {f.module!r}, {f.doc!r}, {f.array},\n"
        f"     ({''.join(f'({a.name!r}, {a.doc!r}, {a.default is not None}, {a.default}, {a.repeating}, {a.rows}), ' for a in f.args)})),\n"
        for f in functions
    )
    return f"_FUNCTIONS = (\n{rows})\n"


def component_source(rulesets: list[RuleSet], functions: list[AddInFunction]) -> str:
    """The component: every function of the type library (``functions``), those of the UDF modules
    these rulesets need working, the others answering '#RULESET?'."""
    ids = [r.id for r in rulesets]
    modules = lite.bundle_udf_modules(ids)
    sources = {
        name: lite.module_path(name).read_text(encoding="utf-8") for name in lite.engine_modules(modules)
    }
    left_out = {m: lite.module_ruleset(m) for m in sorted({f.module for f in functions} - set(modules))}
    runtime = Path(lite.lite_runtime.__file__).read_text(encoding="utf-8")
    tables = lite.table_texts(rulesets)
    house = [line for r in rulesets for line in r.house_rules]
    header = (
        '"""GM combat functions for LibreOffice Calc: '
        + ", ".join(f"{r.id} ({r.name})" for r in rulesets)
        + ".\n\nGenerated by `python build.py` (pycalc/oxt.py) from the project's tables/ and pycalc/:"
        " do not edit, rebuild.\n"
        f"{sum(f.module in modules for f in functions)} functions; house rules applied: {'; '.join(house) if house else 'none'}.\n"
        '"""\n'
    )
    return "".join(
        [
            header,
            COMPONENT_HEAD.format(
                module=".".join(MODULE),
                interface=INTERFACE,
                implementation=IMPLEMENTATION,
                service=SERVICE,
            ),
            "\n",
            function_table(functions),
            "\n",
            f"_RUNTIME = {lite.string_lines(runtime, '')}\n\n",
            "_SOURCES = {\n",
            *(f"    {name!r}: {lite.string_lines(text, '    ')},\n" for name, text in sources.items()),
            "}\n\n",
            "_TABLES = {\n",
            *(tables[ruleset_id] for ruleset_id in ids),
            "}\n\n",
            f"_KNOWN_RULESETS = {RULESET_IDS!r}\n",
            f"_UDF_MODULES = {tuple(modules)!r}\n",
            f"_RULESET_LEFT_OUT = {left_out!r}\n",  # by module: the ruleset it would have served
            COMPONENT_TAIL,
        ]
    )


COMPONENT_HEAD = """
import threading

import unohelper
from com.sun.star.lang import Locale, XServiceInfo, XServiceName
from com.sun.star.sheet import LocalizedName, XAddIn, XCompatibilityNames
from {module} import {interface}

IMPLEMENTATION = {implementation!r}
SERVICES = ("com.sun.star.sheet.AddIn", {service!r})
"""

COMPONENT_TAIL = '''

_ENGINE = {}
_ENGINE_LOCK = threading.Lock()


def _udfs():
    """The UDF modules, served from the strings above (pycalc/lite_runtime.py), loaded at the first call."""
    with _ENGINE_LOCK:
        if not _ENGINE:
            import importlib
            import types

            runtime = types.ModuleType("pycalc_lite_runtime")
            exec(compile(_RUNTIME, "<gmcombat: pycalc.lite_runtime>", "exec"), runtime.__dict__)
            runtime.install(_SOURCES, _TABLES, _KNOWN_RULESETS)
            _ENGINE.update({name: importlib.import_module("pycalc.udfs." + name) for name in _UDF_MODULES})
    return _ENGINE


def _cell(value):
    """A value from Calc as xlwings gives it: a range (rows of values) as a list of lists, one cell as
    its value, an empty cell or an omitted argument as None."""
    if isinstance(value, tuple):
        rows = [[_cell(item) for item in row] if isinstance(row, tuple) else [_cell(row)] for row in value]
        return rows[0][0] if len(rows) == 1 and len(rows[0]) == 1 else rows
    return value


def _result(value):
    """A result as Calc takes it from an add-in: numbers as floats, TRUE/FALSE as 1/0, nothing as an
    empty text, a list of rows as an array."""
    if isinstance(value, bool) or isinstance(value, int):
        return float(value)
    if value is None:
        return ""
    if isinstance(value, list):
        rows = [row if isinstance(row, list) else [row] for row in value]
        return tuple(tuple(_result(item) for item in row) for row in rows)
    return value


def _method(name, module, array, args):
    def call(self, *values):
        if module not in _UDF_MODULES:
            message = "#RULESET? this extension was built without the " + _RULESET_LEFT_OUT[module] + " functions"
            return ((message,),) if array else message
        function = getattr(_udfs()[module], name)
        passed = []
        for (_arg, _doc, has_default, default, repeating, rows), value in zip(args, values):
            if repeating:
                passed += [_cell(v) for v in (value or ())]
            elif value is None and has_default:
                passed.append(default)  # omitted (or empty): the function's own default, as xlwings does
            elif rows:
                cells = _cell(value)
                passed.append(cells if isinstance(cells, list) else [[cells]])
            else:
                passed.append(_cell(value))
        try:
            result = _result(function(*passed))
        except Exception:
            result = "#ERROR? could not compute this: check the inputs"
        return result if not array or isinstance(result, tuple) else ((result,),)

    call.__name__ = name
    return call


class GmCombatAddIn(unohelper.Base, {interface_name}, XAddIn, XCompatibilityNames, XServiceName, XServiceInfo):
    def __init__(self, ctx):
        self.ctx = ctx
        self.locale = Locale("en", "US", "")

    # XLocalizable
    def setLocale(self, locale):
        self.locale = locale

    def getLocale(self):
        return self.locale

    # XAddIn
    def getProgrammaticFuntionName(self, display_name):
        return _BY_NAME.get(display_name.lower(), ("",))[0]

    def getDisplayFunctionName(self, method):
        return _BY_METHOD[method][0] if method in _BY_METHOD else ""

    def getFunctionDescription(self, method):
        return _BY_METHOD[method][3].split("\\n")[0] if method in _BY_METHOD else ""

    def getDisplayArgumentName(self, method, index):
        args = _BY_METHOD[method][4] if method in _BY_METHOD else ()
        return args[index][0] if 0 <= index < len(args) else ""

    def getArgumentDescription(self, method, index):
        args = _BY_METHOD[method][4] if method in _BY_METHOD else ()
        return args[index][1] if 0 <= index < len(args) else ""

    def getProgrammaticCategoryName(self, method):
        return "Add-In"

    def getDisplayCategoryName(self, method):
        return "Add-In"

    # XCompatibilityNames: the name in cells, as the .xlsm (and xlwings in Excel) writes it
    def getCompatibilityNames(self, method):
        if method not in _BY_METHOD:
            return ()
        return (LocalizedName(Locale("en", "US", ""), _BY_METHOD[method][0]),)

    # XServiceName, XServiceInfo
    def getServiceName(self):
        return SERVICES[1]

    def getImplementationName(self):
        return IMPLEMENTATION

    def supportsService(self, name):
        return name in SERVICES

    def getSupportedServiceNames(self):
        return SERVICES


_BY_METHOD = {method: (name, method, module, doc, args) for name, method, module, doc, _array, args in _FUNCTIONS}
_BY_NAME = {name.lower(): (method,) for name, method, _module, _doc, _array, _args in _FUNCTIONS}
for _name, _method_name, _module, _doc, _array, _args in _FUNCTIONS:
    setattr(GmCombatAddIn, _method_name, _method(_name, _module, _array, _args))

g_ImplementationHelper = unohelper.ImplementationHelper()
g_ImplementationHelper.addImplementation(GmCombatAddIn, IMPLEMENTATION, SERVICES)
'''.replace("{interface_name}", INTERFACE)


# --------------------------------------------------------------------------- the package


def description_xml(rulesets: list[RuleSet]) -> str:
    names = ", ".join(r.name for r in rulesets)
    return (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        '<description xmlns="http://openoffice.org/extensions/description/2006"\n'
        '             xmlns:xlink="http://www.w3.org/1999/xlink">\n'
        f'  <identifier value="{EXTENSION_ID}"/>\n'
        f'  <version value="{EXTENSION_VERSION}"/>\n'
        "  <dependencies>\n"
        '    <OpenOffice.org-minimal-version xmlns:d="http://openoffice.org/extensions/description/2006"'
        ' d:name="OpenOffice.org 3.4" value="3.4"/>\n'
        "  </dependencies>\n"
        f'  <display-name><name lang="en">GM combat functions ({escape(names)})</name></display-name>\n'
        "</description>\n"
    )


def escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")


MANIFEST = (
    '<?xml version="1.0" encoding="UTF-8"?>\n'
    '<manifest:manifest xmlns:manifest="http://openoffice.org/2001/manifest">\n'
    '  <manifest:file-entry manifest:full-path="gmcombat.rdb"'
    ' manifest:media-type="application/vnd.sun.star.uno-typelibrary;type=RDB"/>\n'
    '  <manifest:file-entry manifest:full-path="gmcombat.components"'
    ' manifest:media-type="application/vnd.sun.star.uno-components"/>\n'
    "</manifest:manifest>\n"
)

COMPONENTS = (
    '<?xml version="1.0" encoding="UTF-8"?>\n'
    '<components xmlns="http://openoffice.org/2010/uno-components">\n'
    f'  <component loader="com.sun.star.loader.Python" uri="{COMPONENT_FILE}">\n'
    f'    <implementation name="{IMPLEMENTATION}">\n'
    '      <service name="com.sun.star.sheet.AddIn"/>\n'
    f'      <service name="{SERVICE}"/>\n'
    "    </implementation>\n"
    "  </component>\n"
    "</components>\n"
)


def zipped(files: dict[str, bytes]) -> bytes:
    """A zip of the files in the order given, with fixed times and modes: the same bytes every build."""
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as package:
        for name, data in files.items():
            info = zipfile.ZipInfo(name, FIXED_ZIP_TIME)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            package.writestr(info, data)
    return out.getvalue()


def oxt_bytes(rulesets: list[RuleSet], rdb: bytes | None = None) -> bytes:
    """The extension for these rulesets (their UDFs and tables; the type library declares every
    ruleset's, so one committed ``.rdb`` serves every build)."""
    functions = add_in_functions(list(RULESET_IDS))
    return zipped(
        {
            "META-INF/manifest.xml": MANIFEST.encode("utf-8"),
            "description.xml": description_xml(rulesets).encode("utf-8"),
            "gmcombat.components": COMPONENTS.encode("utf-8"),
            "gmcombat.rdb": RDB_PATH.read_bytes() if rdb is None else rdb,
            COMPONENT_FILE: component_source(rulesets, functions).encode("utf-8"),
        }
    )


def oxt_files(rulesets: list[RuleSet], out: Path) -> dict[Path, bytes]:
    return {out / OXT_NAME: oxt_bytes(rulesets)}


def main() -> None:
    """``python -m pycalc.oxt``: rewrite ``oxt_types/gmcombat.idl`` from the UDF signatures (then run
    scripts/oxt-rdb.sh to rebuild the type library)."""
    IDL_PATH.write_text(project_idl(), encoding="utf-8")
    print(f"wrote {IDL_PATH}; now run bash scripts/oxt-rdb.sh")


if __name__ == "__main__":
    main()
