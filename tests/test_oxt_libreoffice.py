"""The extension (workbook/gmcombat.oxt) in real LibreOffice 25.2: installed into a fresh profile, it
recalculates (a) every committed .xlsm, each cell calling a function showing what ``pycalc.udfs`` gives
in CPython, and (b) a generated workbook calling every function on hundreds of argument sets, bad ones
included. LibreOffice 7.4 is checked for what it does: it binds none of the plain names (#NAME?).

LibreOffice 25.2 comes from Debian bookworm-backports, unpacked under .venv/lo25 by
scripts/ensure-env.sh (scripts/ensure-lo25.sh); without it these tests skip, and fail under CI.
"""

from __future__ import annotations

import inspect
import math
import os
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import openpyxl
import pytest
from openpyxl.utils import get_column_letter

import build
import pycalc.udfs
from bench import udf_cases
from pycalc import oxt
from pycalc.extension_office import ExtensionProfile, find_office
from pycalc.sheets.log_rows import without_thread_guard
from pycalc.table_files import RULESET_IDS

ROOT = Path(__file__).resolve().parent.parent
OWN_TABLES = ROOT / "tests" / "fixtures" / "tables"
WORKBOOKS = ROOT / "workbook"
OXT = WORKBOOKS / oxt.OXT_NAME
FUNCTIONS = {f.name: f for f in oxt.add_in_functions(list(RULESET_IDS))}
CALL = re.compile(r"\b([a-z][a-z0-9_]*)\(")
PLAIN_CALL = re.compile(r"^=(?P<name>[a-z0-9_]+)\((?P<args>[^()]*(?:\(\$?[A-Z]+\$?[0-9]+\)[^()]*)*)\)$")
# Cell values a generated call uses, one argument at a time (what a cell can hold: no NaN/inf).
SAMPLE_VALUES: tuple[Any, ...] = (
    None,
    "",
    True,
    False,
    0.0,
    -1.0,
    0.5,
    1e15,
    "Yes",
    udf_cases.LONG_TEXT,
    [[1.0, 2.0], [3.0, 4.0]],
    [[None]],
)

pytestmark = pytest.mark.timeout(900)


def office_or_skip(version: str):
    office = find_office(version)
    if office is None:
        if os.environ.get("CI") == "true":
            pytest.fail(f"LibreOffice {version} missing under CI: scripts/ensure-env.sh fetches it")
        pytest.skip(f"LibreOffice {version} not unpacked (bash scripts/test.sh fetches it)")
    return office


@pytest.fixture(scope="module")
def profile() -> Iterator[ExtensionProfile]:
    with ExtensionProfile(office_or_skip("25.2"), OXT) as made:
        yield made


def same(shown: Any, expected: Any) -> bool:
    """A cell's value against a result as an add-in hands it to Calc (numbers and TRUE/FALSE as
    floats, nothing as an empty text; an array's first cell)."""
    while isinstance(expected, list):
        expected = expected[0] if expected else ""
    if isinstance(expected, bool | int | float):
        return isinstance(shown, int | float) and math.isclose(
            shown, float(expected), rel_tol=1e-12, abs_tol=1e-12
        )
    return (shown if shown is not None else "") == (expected if expected is not None else "")


def calls_a_function(formula: Any) -> bool:
    return (
        isinstance(formula, str)
        and formula.startswith("=")
        and any(n in FUNCTIONS for n in CALL.findall(formula))
    )


def named_values(book: openpyxl.Workbook) -> dict[str, Any]:
    values = {}
    for name, definition in book.defined_names.items():
        destinations = list(definition.destinations)
        if len(destinations) == 1 and ":" not in destinations[0][1]:
            sheet, ref = destinations[0]
            values[name] = book[sheet][ref.replace("$", "")].value
    return values


def calc_argument(text: str, named: dict[str, Any], sheet: Any) -> Any:
    """One argument of a plain call as LibreOffice hands it to an add-in: a literal; a name or a cell
    holding a number or a text; an empty cell read alone as 0 (Calc's rule for one cell)."""
    text = text.strip()
    if text.startswith('"'):
        return text.strip('"')
    if text in ("TRUE", "FALSE"):
        return 1.0 if text == "TRUE" else 0.0
    if re.fullmatch(r"-?[0-9.]+", text):
        return float(text)
    if "+" in text:  # names added together: Calc adds their numbers
        return sum(float(calc_argument(part, named, sheet) or 0) for part in text.split("+"))
    ref = text.strip("()").replace("$", "")
    found = sheet[ref] if re.fullmatch(r"[A-Z]+[0-9]+", ref) else None
    value = found.value if found is not None else named[ref]
    if value is None:  # a formula's empty text stays a text
        return "" if found is not None and found.data_type in ("s", "str") else 0.0
    return float(value) if isinstance(value, bool | int) else value


@pytest.mark.parametrize("ruleset_id", RULESET_IDS)
def test_every_function_cell_of_the_xlsm_shows_what_pycalc_gives(ruleset_id, profile, tmp_path):
    source = WORKBOOKS / f"{ruleset_id}.xlsm"
    (converted,), _seconds = profile.convert([source], tmp_path)
    formulas = openpyxl.load_workbook(source, keep_vba=True)
    cached = openpyxl.load_workbook(source, keep_vba=True, data_only=True)
    live = openpyxl.load_workbook(converted, data_only=True)
    named = named_values(live)
    plain = other = 0
    for sheet in formulas.worksheets:
        for row in sheet.iter_rows():
            for cell in row:
                if not calls_a_function(cell.value):
                    continue
                shown = live[sheet.title][cell.coordinate].value
                where = f"{sheet.title}!{cell.coordinate} {cell.value[:90]}"
                call = PLAIN_CALL.match(without_thread_guard(cell.value))  # a log row's call too
                if call and call["name"] in FUNCTIONS:
                    texts = [t for t in re.split(r",(?=(?:[^\"]*\"[^\"]*\")*[^\"]*$)", call["args"])]
                    args = [calc_argument(t, named, live[sheet.title]) for t in texts]
                    expected = getattr(pycalc.udfs, call["name"])(*args)
                    assert same(shown, expected), f"{where}: LibreOffice {shown!r}, pycalc {expected!r}"
                    plain += 1
                else:  # inside a larger formula: the value the build worked out (the same functions')
                    expected = cached[sheet.title][cell.coordinate].value
                    assert same(shown, expected), f"{where}: LibreOffice {shown!r}, built {expected!r}"
                    other += 1
    # the d20 Attack calculators are the generic writer's, native in the .xlsm too: their other calculators
    # call (combat17: one plain call and 6 inside larger formulas since its critical calculator went)
    floor = {"cnc": 4, "osr": 4, "bfrpg": 3, "combat17": 1}.get(ruleset_id, 100)
    assert plain >= floor and plain + other >= 4 * (floor < 100), (
        plain,
        other,
    )  # generic calculators: native


def generated_calls() -> list[tuple[str, list[Any]]]:
    """Every function: its valid call (bench/udf_cases.py), then each argument replaced by each of
    SAMPLE_VALUES."""
    functions = udf_cases.public_udfs()
    calls = []
    for name in FUNCTIONS:
        base = udf_cases.base_args(name, functions[name])
        calls.append((name, list(base)))
        for index in range(len(base)):
            for value in SAMPLE_VALUES:
                args = list(base)
                args[index] = value
                calls.append((name, args))
    return calls


def write_calls(calls: list[tuple[str, list[Any]]], path: Path) -> None:
    """One call a row of sheet Calls: the formula in A, each argument in its own cell from B (a range
    on sheet Ranges), None as an omitted argument."""
    book = openpyxl.Workbook()
    sheet = book.active
    sheet.title = "Calls"
    ranges = book.create_sheet("Ranges")
    next_range = 1
    for row, (name, args) in enumerate(calls, start=1):
        parts = []
        for column, value in enumerate(args, start=2):
            if value is None:
                parts.append("")
            elif isinstance(value, list):
                for r, values in enumerate(value):
                    for c, item in enumerate(values):
                        ranges.cell(next_range + r, c + 1, item)
                last = f"{get_column_letter(len(value[0]))}{next_range + len(value) - 1}"
                parts.append(f"Ranges!A{next_range}:{last}")
                next_range += len(value) + 1
            else:
                sheet.cell(row, column, value)
                parts.append(f"{get_column_letter(column)}{row}")
        sheet.cell(row, 1, f"={name}({','.join(parts)})")
    book.save(path)


def calc_value(value: Any) -> Any:
    """An argument as the add-in receives it from its cell: TRUE/FALSE as 1/0, an empty text (the
    cell is left empty) as 0, as Calc reads an empty cell alone; a 1x1 range as its value."""
    if isinstance(value, bool):
        return float(value)
    if value == "":
        return 0.0
    if isinstance(value, list):
        return value[0][0] if len(value) == 1 and len(value[0]) == 1 else value
    return value


def expected_result(name: str, args: list[Any]) -> Any:
    function = getattr(pycalc.udfs, name)
    spec = FUNCTIONS[name].args
    defaults = [p.default for p in inspect.signature(function).parameters.values()]
    passed = []
    for index, value in enumerate(args):
        arg = spec[min(index, len(spec) - 1)]
        if value is None and arg.default is not None and not arg.repeating:
            passed.append(defaults[index])  # an omitted argument: the function's default
            continue
        value = calc_value(value)
        if arg.rows and not isinstance(value, list) and value is not None:
            value = [[value]]
        passed.append(value)
    return function(*passed)


def test_every_function_on_hundreds_of_argument_sets(profile, tmp_path):
    calls = generated_calls()
    assert len(calls) >= 300 and {name for name, _ in calls} == set(FUNCTIONS)
    path = tmp_path / "calls.xlsx"
    write_calls(calls, path)
    (converted,), _seconds = profile.convert([path], tmp_path / "out")
    live = openpyxl.load_workbook(converted, data_only=True)["Calls"]
    wrong = []
    for row, (name, args) in enumerate(calls, start=1):
        shown = live.cell(row, 1).value
        expected = expected_result(name, args)
        if not same(shown, expected):
            wrong.append(f"row {row} {name}{tuple(str(a)[:20] for a in args)}: {shown!r} != {expected!r}")
    assert not wrong, f"{len(wrong)} of {len(calls)} differ:\n" + "\n".join(wrong[:15])


def test_libreoffice_7_4_binds_none_of_the_plain_names(tmp_path):
    """7.4 ignores compatibility names in an .xlsx: the README says the extension needs 25.2."""
    office = office_or_skip("7.4")
    path = tmp_path / "plain.xlsx"
    write_calls([("dice_mean", ["2d4+2"])], path)
    with ExtensionProfile(office, OXT) as old:
        (converted,), _seconds = old.convert([path], tmp_path / "out")
    assert openpyxl.load_workbook(converted, data_only=True)["Calls"]["A1"].value == "#NAME?"


def test_an_extension_of_your_own_rulesets_computes_them(tmp_path):
    """build.py --tables DIR: the extension computes the own d20 ruleset with the shared functions,
    and the shipped rulesets' own functions answer #RULESET? (checked in LibreOffice 25.2)."""
    office = office_or_skip("25.2")
    out = tmp_path / "own"
    assert build.main(["--lite", "--tables", str(OWN_TABLES), "--out", str(out), "--quiet"]) == 0
    path = tmp_path / "own.xlsx"
    write_calls([("d20_result", ["bx", 20.0, 0.0, 40.0]), ("strike_result", [112.0, 40.0, 9.0])], path)
    with ExtensionProfile(office, out / oxt.OXT_NAME) as own:
        (converted,), _seconds = own.convert([path], tmp_path / "out")
    sheet = openpyxl.load_workbook(converted, data_only=True)["Calls"]
    assert sheet["A1"].value in ("Hit", "Critical"), sheet["A1"].value
    assert sheet["A2"].value == "#RULESET? this extension was built without the spelljammer functions"
