"""An empty input cell through the extension in LibreOffice 25.2, against what the same call gives in
Excel with xlwings (an empty cell arrives as None, so an optional argument takes its default).

Found by hand in the window: in osr.xlsm's Attack calculator, with the to-hit bonus, the number needed
and a natural 15 typed and the fumble check left empty, every result cell showed "#FOLLOW ROLL? 1 to 20"
instead of "Hit". LibreOffice hands an add-in one empty cell as 0.0, whatever the argument's IDL type
(``any`` or ``sequence<sequence<any>>``: probed); only an omitted argument arrives as None and only a
several-cell range carries empty cells as "". So no add-in code can tell an empty cell from a 0.

The workbooks therefore never hand an input cell to an optional argument (one whose default is None:
a roll not yet made, a mode not chosen) as a bare reference: they pass
``pycalc.sheets.formulas.optional_input(ref)``, ``IF(ISBLANK(ref),"",ref)``, and every function reads
"" as not given. Checked here three ways: every such call in LibreOffice through that wrapper (with the
bare reference beside it, which must still differ, or the check proves nothing); every function cell
of the committed .xlsm, against the functions' signatures; and the Attack calculators with a natural
roll typed, against the native formulas of the .xlsx.
"""

from __future__ import annotations

import inspect
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import openpyxl
import pytest
from openpyxl.formula.tokenizer import Token, Tokenizer
from openpyxl.utils import get_column_letter

import pycalc.udfs
from bench import udf_cases
from pycalc import oxt
from pycalc.extension_office import ExtensionProfile
from pycalc.sheets.formulas import optional_input
from pycalc.table_files import RULESET_IDS
from tests.test_oxt_libreoffice import office_or_skip, same

WORKBOOKS = Path(__file__).resolve().parent.parent / "workbook"
OXT = WORKBOOKS / oxt.OXT_NAME
FUNCTIONS = oxt.add_in_functions(list(RULESET_IDS))
UDFS = udf_cases.public_udfs()
RAW_COLUMN = 20  # the same call with the bare reference, to show what the wrapper prevents

pytestmark = pytest.mark.timeout(600)


def optional_arguments(name: str) -> set[int]:
    """Positions of the arguments of ``name`` that default to None (an absent input)."""
    parameters = inspect.signature(UDFS[name]).parameters.values()
    return {i for i, p in enumerate(parameters) if p.kind is not p.VAR_POSITIONAL and p.default is None}


def empty_cell_calls() -> Iterator[tuple[str, int, list[Any]]]:
    """(function, index of the argument left empty, the valid arguments) for every optional argument
    whose default is None (an absent input: a roll not yet made, a mode not chosen)."""
    for function in FUNCTIONS:
        parameters = list(inspect.signature(UDFS[function.name]).parameters.values())
        base = udf_cases.base_args(function.name, UDFS[function.name])
        # the optional arguments the valid call leaves out: their defaults typed in, None left empty
        base = [parameters[i].default if value is None else value for i, value in enumerate(base)]
        for index, arg in enumerate(function.args):
            if arg.default == "None" and not arg.repeating and not arg.rows and index < len(base):
                yield function.name, index, list(base)


def write_book(calls: list[tuple[str, int, list[Any]]], path: Path) -> None:
    """A call a row: each argument in its own cell from B, the empty ones (the one tested, and the
    other optional ones the valid call leaves out) left empty; in A the call as the workbooks write it
    (each empty one through ``optional_input``), in column RAW_COLUMN with the tested one bare."""
    book = openpyxl.Workbook()
    sheet = book.active
    for row, (name, empty, args) in enumerate(calls, start=1):
        refs = []
        for index, value in enumerate(args):
            column = index + 2
            if index != empty and value is not None:
                sheet.cell(row, column, value)
            refs.append(f"{get_column_letter(column)}{row}")
        blank = {i for i, value in enumerate(args) if value is None} | {empty}
        wrapped = [optional_input(ref) if i in blank else ref for i, ref in enumerate(refs)]
        raw = [optional_input(ref) if i in blank - {empty} else ref for i, ref in enumerate(refs)]
        sheet.cell(row, 1, f"={name}({','.join(wrapped)})")
        sheet.cell(row, RAW_COLUMN, f"={name}({','.join(raw)})")
    book.save(path)


def as_xlwings_gives(name: str, empty: int, args: list[Any]) -> Any:
    """The call in Excel: the empty cell as None, TRUE/FALSE as themselves."""
    passed = [None if index == empty else value for index, value in enumerate(args)]
    return getattr(pycalc.udfs, name)(*passed)


def test_an_empty_optional_cell_passed_as_the_workbooks_pass_it_gives_what_excel_gives(tmp_path):
    office = office_or_skip("25.2")
    calls = list(empty_cell_calls())
    # 26 optional arguments in 18 functions since the duplicate calculators of bfrpg and combat17 went
    assert len(calls) >= 25 and len({name for name, _, _ in calls}) >= 15
    path = tmp_path / "empty.xlsx"
    write_book(calls, path)
    with ExtensionProfile(office, OXT) as profile:
        (converted,), _seconds = profile.convert([path], tmp_path / "out")
    live = openpyxl.load_workbook(converted, data_only=True).active
    wrong, raw_differs = [], set()
    for row, (name, empty, args) in enumerate(calls, start=1):
        expected = as_xlwings_gives(name, empty, args)
        argument = next(f for f in FUNCTIONS if f.name == name).args[empty].name
        shown = live.cell(row, 1).value
        if not same(shown, expected):
            wrong.append(f"{name}, {argument} empty: LibreOffice {shown!r}, Excel {expected!r}")
        if not same(live.cell(row, RAW_COLUMN).value, expected):
            raw_differs.add(f"{name}.{argument}")
    assert not wrong, f"{len(wrong)} of {len(calls)} calls differ:\n" + "\n".join(wrong)
    # the bare reference still reaches the function as 0: what the wrapper is there for
    assert {
        "d20_result.follow_roll",
        "d20_damage.follow_roll",
    } <= raw_differs
    assert len(raw_differs) >= 20, sorted(raw_differs)


def calls_in(formula: str) -> Iterator[tuple[str, list[str]]]:
    """Every function call in ``formula``: its name and the text of each argument (nested calls
    included in their arguments' text, and listed themselves too)."""
    stack: list[tuple[str, list[str]]] = []
    for token in Tokenizer(formula).items:
        if token.type == Token.FUNC and token.subtype == Token.OPEN:
            for _, args in stack:
                args[-1] += token.value
            stack.append((token.value[:-1], [""]))
        elif token.type == Token.FUNC and token.subtype == Token.CLOSE:
            yield stack.pop()
            for _, args in stack:
                args[-1] += token.value
        elif token.type == Token.SEP and token.subtype == Token.ARG and stack:
            for _, args in stack[:-1]:
                args[-1] += token.value
            stack[-1][1].append("")
        else:
            for _, args in stack:
                args[-1] += token.value


def bare_reference(text: str) -> bool:
    """One cell reference or defined name, nothing around it."""
    tokens = [t for t in Tokenizer(f"={text.strip()}").items if t.type != Token.WSPACE]
    return len(tokens) == 1 and tokens[0].type == Token.OPERAND and tokens[0].subtype == Token.RANGE


def referred_cell(book: openpyxl.Workbook, sheet: Any, ref: str) -> Any:
    """The one cell a reference or a defined name points at (None for a range of several)."""
    ref = ref.strip().replace("$", "")
    if ref in book.defined_names:
        destinations = list(book.defined_names[ref].destinations)
        if len(destinations) != 1 or ":" in destinations[0][1]:
            return None
        sheet_name, ref = destinations[0]
        return book[sheet_name][ref.replace("$", "")]
    if "!" in ref:
        sheet_name, ref = ref.rsplit("!", 1)
        sheet = book[sheet_name.strip("'")]
    if ":" in ref:
        return None
    assert re.fullmatch(r"[A-Z]{1,3}[0-9]+", ref), f"not a reference this check knows: {ref}"
    return sheet[ref]


def is_formula(cell: Any) -> bool:
    return isinstance(cell.value, str) and cell.value.startswith("=")


def test_the_calls_in_the_xlsm_pass_every_optional_input_through_the_wrapper():
    """Every argument of a function call in the committed .xlsm whose parameter defaults to None
    (read from the function's signature) is, when it is one input cell (a cell holding no formula,
    empty or with a default a GM may clear), passed as ``optional_input(ref)``, never bare; and the
    wrapper is there where the workbooks have such inputs."""
    wrapped = re.compile(r'^IF\(ISBLANK\((?P<ref>[^()]+)\),"",(?P=ref)\)$')
    bare, passed = [], {}
    for ruleset_id in RULESET_IDS:
        book = openpyxl.load_workbook(WORKBOOKS / f"{ruleset_id}.xlsm", keep_vba=True)
        passed[ruleset_id] = 0
        for sheet in book.worksheets:
            for row in sheet.iter_rows():
                for cell in row:
                    if not is_formula(cell):
                        continue
                    for name, args in calls_in(cell.value):
                        if name.lower() not in UDFS:
                            continue
                        for index in optional_arguments(name.lower()) & set(range(len(args))):
                            text = args[index].strip()
                            if wrapped.match(text):
                                passed[ruleset_id] += 1
                            elif bare_reference(text):
                                target = referred_cell(book, sheet, text)
                                if target is not None and not is_formula(target):
                                    bare.append(
                                        f"{ruleset_id} {sheet.title}!{cell.coordinate} {name}: {text}"
                                    )
    assert not bare, f"{len(bare)} optional inputs passed bare:\n" + "\n".join(bare[:20])
    # the calculators and the Encounter log of the d20 rulesets each pass follow-up and damage rolls
    # the d20 Attack calculators and logs are native: the other calculators pass theirs (bfrpg's joust roll
    # since its Critical calculator went)
    assert passed["bfrpg"] >= 1, passed
    assert passed["cnc"] >= 4, passed


def test_the_structural_check_finds_a_bare_optional_input():
    """The check above catches the form the bug had (and passes nested calls through)."""
    formula = '=IF(A1="","",d20_result(A1,B1,C1,D1,E1,F1,G1))'
    (name, args), *_ = [c for c in calls_in(formula) if c[0] == "d20_result"]
    assert 6 in optional_arguments(name) and bare_reference(args[6]) and args[6] == "G1"
    assert not bare_reference(optional_input("F1")) and bare_reference("ATTACK_FOLLOW_ROLL")
    nested = calls_in(f"=d20_result({optional_input('A1')},SUM(B1,C1))")
    assert [n for n, _ in nested] == ["ISBLANK", "IF", "SUM", "d20_result"]


def with_natural_roll(source: Path, path: Path, roll: int) -> Path:
    """The workbook with a natural roll typed into the Attack calculator, everything else as shipped."""
    book = openpyxl.load_workbook(source, keep_vba=source.suffix == ".xlsm")
    sheet, ref = next(iter(book.defined_names["ATTACK_ROLL"].destinations))
    book[sheet][ref.replace("$", "")] = roll
    book.save(path)
    return path


def attack_cells(path: Path) -> dict[str, Any]:
    """Every one-cell name of the Attack calculator (ATTACK_...) and what it shows."""
    book = openpyxl.load_workbook(path, data_only=True)
    shown = {}
    for name, defined in book.defined_names.items():
        destinations = list(defined.destinations)
        if name.startswith("ATTACK_") and len(destinations) == 1 and ":" not in destinations[0][1]:
            sheet, ref = destinations[0]
            shown[name] = book[sheet][ref.replace("$", "")].value
    return shown


def test_the_attack_calculator_with_a_natural_roll_shows_what_the_native_formulas_show(tmp_path):
    """What a GM does first: type the natural d20 (a 1, a 15, a 20; the follow-up and damage rolls
    still empty). Every cell of the .xlsm's Attack calculator (functions, through the extension) must
    show what the .xlsx (native formulas) shows, in the same LibreOffice 25.2."""
    office = office_or_skip("25.2")
    ids = [
        i
        for i in RULESET_IDS
        if "ATTACK_ROLL" in openpyxl.load_workbook(WORKBOOKS / f"{i}.xlsx").defined_names
    ]
    assert {"osr", "combat17", "bfrpg"} <= set(ids)
    rolls = (1, 15, 20)
    files = [
        with_natural_roll(WORKBOOKS / f"{i}.{ext}", tmp_path / f"{i}-{roll}-{ext}.{ext}", roll)
        for i in ids
        for roll in rolls
        for ext in ("xlsm", "xlsx")
    ]
    with ExtensionProfile(office, OXT) as profile:
        converted, _seconds = profile.convert(files, tmp_path / "out")
    shown = {path.stem: attack_cells(path) for path in converted}
    differ, compared = [], 0
    for i in ids:
        for roll in rolls:
            functions, native = shown[f"{i}-{roll}-xlsm"], shown[f"{i}-{roll}-xlsx"]
            assert functions.keys() == native.keys()
            for name, value in functions.items():
                compared += 1
                if not same(value, native[name]):
                    differ.append(f"{i} roll {roll} {name}: .xlsm {value!r}, .xlsx {native[name]!r}")
    assert all(shown[f"{i}-15-xlsx"]["ATTACK_RESULT"] == "Hit" for i in ids), shown
    assert compared >= 500 and not differ, "functions (.xlsm) against native formulas (.xlsx):\n" + "\n".join(
        differ[:20]
    )
