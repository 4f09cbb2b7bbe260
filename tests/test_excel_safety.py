"""Every built workbook stays inside what Excel documents (there is no Excel here to open them).

Checked over all ten files: no defined name equals a function name (a call binds to the name),
dropdown sources stored without '=', chart axes shown, every formula within Excel's limits and using
only Excel 2010 functions, no formula that needs Ctrl+Shift+Enter in Excel 2010-2019, the .xlsm's VBA
document modules each with their sheet, and header/footer text with every literal '&' escaped.
"""

from __future__ import annotations

import functools
import re
import zipfile
from collections.abc import Callable
from pathlib import Path

import openpyxl
import pytest
from openpyxl.formula.tokenizer import Token, Tokenizer

import pycalc.udfs
from pycalc.tables import RULESET_IDS, load_folder, load_ruleset
from tests.conftest import OWN_TABLES, require_libreoffice

MAX_FORMULA_LENGTH = 8192
MAX_NESTING = 64
MAX_ARGUMENTS = 255

# Excel 2007/2010 worksheet functions these workbooks may use (none needs an _xlfn. prefix).
EXCEL_2010_FUNCTIONS = {
    "ABS", "AND", "AVERAGE", "CEILING", "CHOOSE", "COLUMN", "COLUMNS", "COMBIN", "COUNT", "COUNTA",
    "COUNTBLANK", "COUNTIF", "COUNTIFS", "EXACT", "FIND", "FLOOR", "HLOOKUP", "IF", "IFERROR", "INDEX",
    "INT", "ISBLANK", "ISERR", "ISERROR", "ISLOGICAL", "ISNA", "ISNUMBER", "ISTEXT", "LARGE", "LEFT", "LEN", "LOOKUP",
    "LOWER", "MATCH", "MAX", "MID", "MIN", "MOD", "N", "NA", "NOT", "OR", "POWER", "PRODUCT", "RANK", "REPT",
    "REPLACE", "RIGHT", "ROUND", "ROUNDDOWN", "ROUNDUP", "ROW", "ROWS", "SEARCH", "SIGN", "SMALL", "SUBSTITUTE",
    "SUM", "SUMIF", "SUMIFS", "SUMPRODUCT", "TEXT", "TRIM", "TRUNC", "UPPER", "VALUE", "VLOOKUP",
}  # fmt: skip
# Functions that take arrays natively: a range comparison or arithmetic inside them needs no Ctrl+Shift+Enter.
ARRAY_FUNCTIONS = {"SUMPRODUCT"}
HEADER_CODES = re.compile(r'&&|&[PNDTAFZGBIUESXY]|&"[^"]*"|&[0-9]+|&K[0-9A-F]{6}')


@functools.cache
def udf_names() -> frozenset[str]:
    return frozenset(
        name.upper()
        for name in dir(pycalc.udfs)
        if not name.startswith("_") and callable(getattr(pycalc.udfs, name))
    )


def formulas(book: openpyxl.Workbook) -> list[tuple[str, str]]:
    return [
        (f"{sheet.title}!{cell.coordinate}", cell.value)
        for sheet in book.worksheets
        for row in sheet.iter_rows()
        for cell in row
        if isinstance(cell.value, str) and cell.value.startswith("=")
    ]


@functools.lru_cache(maxsize=1 << 16)  # two tests read the calls of each formula of a workbook
def calls(formula: str) -> tuple[list[tuple[str, int, list[str]]], int]:
    """Each function call (name, argument count, argument texts) and the deepest nesting of calls."""
    stack: list[list] = []
    found = []
    deepest = 0
    for token in Tokenizer(formula).items:
        if token.type == Token.FUNC and token.subtype == Token.OPEN:
            stack.append([token.value[:-1].upper(), 1, [""]])
            deepest = max(deepest, len(stack))
        elif token.type == Token.FUNC and token.subtype == Token.CLOSE:
            name, count, args = stack.pop()
            found.append((name, count if any(a.strip() for a in args) else 0, args))
            if stack:
                stack[-1][2][-1] += f"{name}()"
        elif token.type == Token.SEP and token.subtype == Token.ARG and stack:
            stack[-1][1] += 1
            stack[-1][2].append("")
        elif stack:
            stack[-1][2][-1] += token.value
    return found, deepest


def balanced(formula: str) -> bool:
    """Every parenthesis and function call is closed (LibreOffice closes a missing one silently;
    Excel and Gnumeric refuse the formula)."""
    try:
        tokens = Tokenizer(formula).items
    except IndexError:  # the tokenizer's own stack: a parenthesis closed that was never opened
        return False
    depth = 0
    for token in tokens:
        if token.subtype == Token.OPEN and token.type in (Token.FUNC, Token.PAREN):
            depth += 1
        elif token.subtype == Token.CLOSE and token.type in (Token.FUNC, Token.PAREN):
            depth -= 1
            if depth < 0:
                return False
    return depth == 0


def test_the_balance_check_finds_an_unclosed_call():
    assert (
        balanced('=IF(A1="(",MAX(1,(2)),0)') and not balanced("=IF(A1,MAX(1,2),0") and not balanced("=(1))")
    )


@pytest.fixture(
    scope="module", params=[(r, s) for r in (*RULESET_IDS, "bx") for s in ("xlsx", "xlsm")], ids=str
)
def workbook_file(request: pytest.FixtureRequest, build_ruleset: Callable[[str], Path]) -> Path:
    require_libreoffice()
    ruleset_id, suffix = request.param
    return build_ruleset(ruleset_id) / f"{ruleset_id}.{suffix}"


def load(path: Path) -> openpyxl.Workbook:
    return openpyxl.load_workbook(path, keep_vba=path.suffix == ".xlsm")


@pytest.fixture(scope="module")
def book(workbook_file: Path) -> openpyxl.Workbook:
    """The workbook file read once for the tests that only read it."""
    return load(workbook_file)


def test_no_defined_name_equals_a_function_name(book):
    called = {name for _, formula in formulas(book) for name, _, _ in calls(formula)[0]}
    clashes = sorted(name for name in book.defined_names if name.upper() in udf_names() | called)
    assert not clashes, f"defined names that a formula would call instead of the function: {clashes}"


def test_the_udf_names_are_known_to_the_clash_check():
    assert {"STRIKE_TARGET", "HP_STATE", "OSR_MASS_DAMAGE", "FUMBLE_EFFECT", "SURPRISE_RANGE"} <= udf_names()


def test_dropdown_sources_are_stored_without_an_equals_sign(workbook_file):
    with zipfile.ZipFile(workbook_file) as archive:
        sheets = [archive.read(n) for n in archive.namelist() if n.startswith("xl/worksheets/sheet")]
    sources = [source for xml in sheets for source in re.findall(rb"<formula1>([^<]*)</formula1>", xml)]
    assert sources, "the calculators have dropdowns"
    assert not [s for s in sources if s.startswith(b"=")]


SHARED_CELL = re.compile(
    rb'<c r="([A-Z]+)([0-9]+)"[^>]*><f t="shared" (?:ref="([A-Z]+)([0-9]+):([A-Z]+)([0-9]+)" )?si="([0-9]+)"'
)


def test_every_shared_formula_is_stored_as_excel_reads_it(workbook_file):
    """ECMA-376 18.3.1.40: a shared formula's first cell holds its formula and the range it covers,
    at the range's top; every other cell of it lies in that range, below, in the same column."""
    with zipfile.ZipFile(workbook_file) as archive:
        sheets = [archive.read(n) for n in archive.namelist() if n.startswith("xl/worksheets/sheet")]
    shared = 0
    for xml in sheets:
        ranges: dict[bytes, tuple[bytes, int, int]] = {}
        for column, row, first_column, first, last_column, last, group in SHARED_CELL.findall(xml):
            shared += 1
            if first:
                assert group not in ranges, f"shared formula {group!r} started twice"
                assert (first_column, int(first)) == (column, int(row)) and last_column == column
                assert int(last) > int(first)
                ranges[group] = (column, int(first), int(last))
            else:
                assert group in ranges, (
                    f"cell {column!r}{row!r} joins shared formula {group!r} before it starts"
                )
                in_column, top, bottom = ranges[group]
                assert column == in_column and top < int(row) <= bottom
    assert shared > 1000, "the Encounter log's rows share their formulas"


def test_chart_axes_are_shown(workbook_file):
    with zipfile.ZipFile(workbook_file) as archive:
        charts = [archive.read(n) for n in archive.namelist() if n.startswith("xl/charts/chart")]
    assert charts
    for xml in charts:
        axes = re.findall(rb"<(?:c:)?(?:catAx|valAx)>(.*?)</(?:c:)?(?:catAx|valAx)>", xml, re.S)
        assert len(axes) == 2
        assert all(re.search(rb'<(?:c:)?delete val="0"', axis) for axis in axes)


def test_every_formula_is_closed_within_excel_limits_and_uses_excel_2010_functions(workbook_file, book):
    allowed = EXCEL_2010_FUNCTIONS | udf_names()
    problems = []
    checked = 0
    for where, formula in formulas(book):
        checked += 1
        if len(formula) > MAX_FORMULA_LENGTH:
            problems.append(f"{where}: {len(formula)} characters")
        if not balanced(formula):
            problems.append(f"{where}: a parenthesis is not closed")
        found, depth = calls(formula)
        if depth > MAX_NESTING:
            problems.append(f"{where}: nesting {depth}")
        for name, count, _ in found:
            if count > MAX_ARGUMENTS:
                problems.append(f"{where}: {name} with {count} arguments")
            if name not in allowed:
                problems.append(f"{where}: {name} is not an Excel 2010 function (or lacks _xlfn.)")
            if workbook_file.suffix == ".xlsx" and name in udf_names() and name not in EXCEL_2010_FUNCTIONS:
                problems.append(f"{where}: the .xlsx calls the UDF {name}")
    assert checked > 1000
    assert not problems, problems[:10]


def array_operations(formula: str, ranges: set[str]) -> list[str]:
    """Ranges used as an operand of an operator (compared, added...) outside any SUMPRODUCT."""
    tokens = [t for t in Tokenizer(formula).items if t.type != Token.WSPACE]
    inside: list[str] = []
    found = []
    for i, token in enumerate(tokens):
        if token.type == Token.FUNC:
            if token.subtype == Token.OPEN:
                inside.append(token.value[:-1].upper())
            else:
                inside.pop()
        elif token.type == Token.OPERAND and token.subtype == Token.RANGE:
            is_range = ":" in token.value or token.value in ranges
            beside = [tokens[j] for j in (i - 1, i + 1) if 0 <= j < len(tokens)]
            operated = any(t.type in (Token.OP_IN, Token.OP_PRE) for t in beside)
            if is_range and operated and not ARRAY_FUNCTIONS & set(inside):
                found.append(token.value)
    return found


def test_no_formula_needs_ctrl_shift_enter(book):
    """An array operation (a range compared or computed with) must sit inside SUMPRODUCT: anywhere else
    Excel 2010-2019 evaluates it as a single value unless entered with Ctrl+Shift+Enter."""
    ranges = {
        name
        for name, defined in book.defined_names.items()
        if any(":" in ref for _, ref in defined.destinations)
    }
    problems = [
        f"{where}: {found}"
        for where, formula in formulas(book)
        if (found := array_operations(formula, ranges))
    ]
    assert not problems, problems[:10]


def test_the_array_check_finds_an_array_operation():
    assert array_operations("=IF(T_X_VALUE>3,1,0)", {"T_X_VALUE"}) == ["T_X_VALUE"]
    assert array_operations("=SUMPRODUCT(--(A1:A5>3))", set()) == []
    assert array_operations("=INDEX(T_X_VALUE,MATCH(B1,T_X_ID,0))+1", {"T_X_VALUE", "T_X_ID"}) == []


def test_every_vba_document_module_has_its_sheet():
    """The .xlsm keeps the VBA project of xlwings' quickstart: each document module it names (the
    workbook's and the sheets' code names) must belong to the workbook or to one of its sheets."""
    for ruleset_id in RULESET_IDS:
        path = Path(__file__).parent.parent / "workbook" / f"{ruleset_id}.xlsm"
        with zipfile.ZipFile(path) as archive:
            project = archive.read("xl/vbaProject.bin")
            workbook_xml = archive.read("xl/workbook.xml").decode()
            sheets_xml = [
                archive.read(n).decode() for n in archive.namelist() if n.startswith("xl/worksheets/sheet")
            ]
        modules = set(re.findall(rb"Document=([A-Za-z0-9_]+)/&H", project))
        code_names = set(re.findall(r'codeName="([^"]+)"', workbook_xml + "".join(sheets_xml)))
        assert modules, "the quickstart's VBA project names its document modules"
        missing = {m.decode() for m in modules} - code_names
        assert not missing, f"{ruleset_id}.xlsm: VBA document modules without a sheet: {missing}"


def interpreted(text: str) -> str:
    return HEADER_CODES.sub(lambda m: "&" if m.group(0) == "&&" else "", text)


def test_header_and_footer_text_is_escaped(workbook_file, book):
    stem = workbook_file.stem
    name = (load_ruleset(stem) if stem in RULESET_IDS else load_folder(OWN_TABLES / stem)).name
    for sheet in book.worksheets:
        if sheet.sheet_state != "visible":
            continue
        parts = [sheet.oddHeader.left, sheet.oddHeader.center, sheet.oddHeader.right, sheet.oddFooter.left]
        texts = [part.text or "" for part in parts]
        for text in texts:
            assert "&" not in HEADER_CODES.sub("", text), f"{sheet.title}: unescaped '&' in {text!r}"
        assert interpreted(texts[0]) == name
