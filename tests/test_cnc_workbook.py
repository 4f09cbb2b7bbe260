"""The built cnc workbooks as files: names, pickers, protection, no typed-in numbers, known functions."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import openpyxl
import pytest

from pycalc import limits, udfs
from pycalc.resolution_situation import picker_tables
from pycalc.sheets.calculator import ATTACK_SHEET
from pycalc.sheets.situation_cells import pick_name
from pycalc.tables import load_ruleset
from tests.workbook_files import cell_of, formulas, functions_called, numbers_typed

RULES = load_ruleset("cnc")
CHOICE_PICKERS, TOGGLE_PICKERS = picker_tables(RULES, "choice"), picker_tables(RULES, "toggle")
ATTACK_INPUTS = [
    "ATTACK_BONUS",
    "ATTACK_TARGET",
    "ATTACK_MODS",
    "ATTACK_ROLL",
    "ATTACK_DICE",
    "ATTACK_DAMAGE_ROLL",
    "ATTACK_NUMBER_DEFENDER_DEX",
    "ATTACK_NUMBER_ATTACKER_DEX",
    "ATTACK_RANGE_INCREMENT",
    "ATTACK_DISTANCE",
]
ATTACK_OUTPUTS = [
    "ATTACK_NEED",
    "ATTACK_RESULT",
    "ATTACK_EFFECT",
    "ATTACK_DAMAGE",
    "ATTACK_HIT_CHANCE",
    "ATTACK_RANGE_BAND",
]
OTHER_OUTPUTS = [
    "FALL_DICE",
    "HP_STATE_NOW",
    "DISARM_AC",
    "GRAPPLE_AC",
    "TOUCH_AC",
    "CHARGE_OK",
    "MOVE_RATE_NOW",
    "SUBDUAL_NORMAL",
]
SPREADSHEET_FUNCTIONS = {
    "INDEX", "MATCH", "IF", "IFERROR", "COUNTIF", "COUNTIFS", "COUNTA", "SMALL", "SUMIFS", "INT", "MAX", "MIN", "N", "SUM", "OR", "AND", "NOT", "ISNUMBER",
    "ISTEXT", "LEFT", "MID", "FIND", "LOWER", "VALUE", "LEN", "SUBSTITUTE", "AVERAGE", "ROWS", "ROW",
    "SUMPRODUCT", "SEARCH", "ISBLANK", "NA", "TRIM", "TEXT", "REPLACE",
    "CHOOSE",  # the notes beside the picks: the text of the row picked (ruling_text.choice_note)
    "ABS",  # the generic dice check: a modifier within the limits
}  # fmt: skip
# numbers no table gives: 0 and 1, the limits on typed dice (pycalc.limits) and the text lengths the
# generic dice parser reads (pycalc.sheets.block_formulas.dice_parts: a sign, 8 digits, 24 characters, the rest)
NOT_RULE_NUMBERS = {0, 1, limits.DICE_COUNT, limits.DICE_SIDES, limits.DICE_MODIFIER, 2, 8, 24, 99}


@pytest.fixture(scope="module")
def folder(build_ruleset: Callable[[str], Path]) -> Path:
    return build_ruleset("cnc")


@pytest.fixture(scope="module")
def xlsx(folder: Path) -> openpyxl.Workbook:
    return openpyxl.load_workbook(folder / "cnc.xlsx")


@pytest.fixture(scope="module")
def xlsm(folder: Path) -> openpyxl.Workbook:
    return openpyxl.load_workbook(folder / "cnc.xlsm", keep_vba=True)


def test_attack_names_exist_with_inputs_unlocked_and_outputs_locked(xlsx):
    for name in ATTACK_INPUTS:
        assert cell_of(xlsx, name).protection.locked is False, name
    for name in ATTACK_OUTPUTS + OTHER_OUTPUTS:
        cell = cell_of(xlsx, name)
        assert cell.protection.locked is not False and str(cell.value).startswith("="), name
    assert xlsx[ATTACK_SHEET].protection.sheet


def test_every_picker_table_is_offered(xlsx):
    picker_tables = {t.id for t in RULES.tables.values() if t.picker}
    assert picker_tables == set(CHOICE_PICKERS) | set(TOGGLE_PICKERS)
    for table_id in CHOICE_PICKERS:
        assert cell_of(xlsx, pick_name(table_id)).value == RULES.table(table_id).rows[0].label
    for table_id in TOGGLE_PICKERS:
        for row in RULES.table(table_id).rows:
            assert cell_of(xlsx, pick_name(table_id, row.id)).value is False


@pytest.mark.parametrize("which", ["xlsx", "xlsm"])
def test_no_number_is_typed_into_a_formula(which, request):
    assert not numbers_typed(request.getfixturevalue(which), NOT_RULE_NUMBERS)


def test_native_formulas_use_only_excel_2007_functions(xlsx):
    used = functions_called(xlsx)
    assert used <= SPREADSHEET_FUNCTIONS, used - SPREADSHEET_FUNCTIONS


def test_xlsm_formulas_call_existing_udfs(xlsm):
    known = {n.upper() for n in dir(udfs) if not n.startswith("_")}
    custom = functions_called(xlsm) - SPREADSHEET_FUNCTIONS
    assert custom and custom <= known, custom - known
    assert cell_of(xlsm, "HP_STATE_NOW").value.count("hp_state") == 1  # the other calculators


@pytest.mark.parametrize("which", ["xlsx", "xlsm"])
def test_formulas_fit_excels_length_limit(which, request):
    longest = max(len(f) for f in formulas(request.getfixturevalue(which)))
    assert longest < 8192  # Excel's limit on a formula's length
